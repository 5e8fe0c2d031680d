//! Hostile names and outputs: long and forged names on one line, a closed stdout, a linked state
//! directory, an oversized image.

use super::*;

#[test]
fn ls_lists_a_name_of_65000_characters_padding_the_others_to_it() {
    // A name over 65,535 characters panicked `format!`'s width; frontmatter is now capped at
    // 64 KiB, so the longest name that parses is a little shorter (the padding itself is
    // tested past 65,535 in src/cli/output.rs).
    let fixture = fixture();
    let name = "n".repeat(65_000);
    fs::write(
        fixture.memory().join("long.md"),
        format!("---\nname: {name}\ndescription: long\ntype: user\n---\nBody.\n"),
    )
    .expect("write");
    let out = run(&fixture, &["ls"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    assert!(
        listed.lines().any(|l| l.starts_with(&name)),
        "the long name"
    );
    let alpha = listed
        .lines()
        .find(|l| l.starts_with("alpha"))
        .expect("alpha");
    assert!(alpha.len() > 65_000, "padded to the widest name");
}

/// Runs `memwb ARGS` with a stdout whose reader is already gone.
fn with_closed_stdout(fixture: &Fixture, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut memwb = command(fixture, args);
    memwb.stdout(writer);
    output_within(memwb, Duration::from_secs(30), "closed stdout")
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let fixture = fixture();
    for args in [
        &["completions", "bash"][..],
        &["man"],
        &["ls"],
        &["ls", "--json"],
        &["show", "alpha"],
        &["index"],
        &["check"],
        &["log"],
    ] {
        let out = with_closed_stdout(&fixture, args);
        let err = text(&out.stderr);
        assert!(
            !err.contains("panicked") && out.status.code() != Some(101),
            "{args:?}: {err}"
        );
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {:?} {err}",
            out.status
        );
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

/// A topic file whose name, description and file name each hold a line break.
fn hostile_fixture() -> Fixture {
    let fixture = fixture();
    fs::write(
        fixture.memory().join(format!("evil\n{FORGED}.md")),
        format!(
            "---\nname: \"evil\\n{FORGED}\"\ndescription: \"first\\n{FORGED}\"\ntype: user\n---\nBody.\n"
        ),
    )
    .expect("write");
    fixture
}

fn assert_no_forged_line(what: &str, out: &Output) {
    for stream in [&out.stdout, &out.stderr] {
        let printed = text(stream);
        assert!(
            !printed.lines().any(|l| l.starts_with(FORGED)),
            "{what} printed a forged line:\n{printed}"
        );
    }
}

#[test]
fn names_descriptions_and_file_names_print_on_one_line_everywhere() {
    let fixture = hostile_fixture();
    for args in [
        &["ls"][..],
        &["check"],
        &["index"],
        &["show", &format!("evil\n{FORGED}")],
        &["proposals"],
        &["log"],
    ] {
        let out = run(&fixture, args);
        assert_no_forged_line(&format!("{args:?}"), &out);
    }
    let out = run(&fixture, &["ls"]);
    assert!(
        text(&out.stdout).contains("evil\u{240A}"),
        "{}",
        text(&out.stdout)
    );
    // A change to it: `set` and `log` name it on one line too.
    let out = run(
        &fixture,
        &["set", &format!("evil\n{FORGED}"), "--body", "New."],
    );
    assert_no_forged_line("set", &out);
    let out = run(&fixture, &["log"]);
    assert_no_forged_line("log after set", &out);
}

#[test]
fn index_fix_never_writes_a_line_break_from_a_field_into_memory_md() {
    let fixture = hostile_fixture();
    let out = run(&fixture, &["index", "--fix", "--yes"]);
    assert_no_forged_line("index --fix", &out);
    let index = String::from_utf8(fixture.tree()["MEMORY.md"].clone()).expect("utf-8");
    assert!(
        !index.lines().any(|l| l.starts_with(FORGED)),
        "a field broke a line of MEMORY.md:\n{index}"
    );
    assert!(
        index.contains("%0A"),
        "the file name's line break is escaped:\n{index}"
    );
}

#[test]
fn a_symlinked_state_directory_is_refused_before_anything_is_written_through_it() {
    let fixture = fixture();
    let state_dir = ClaudeState::path_of(&fixture.folder()).expect("path");
    let elsewhere = tempfile::tempdir().expect("elsewhere");
    fs::create_dir_all(state_dir.parent().expect("parent")).expect("mkdir");
    std::os::unix::fs::symlink(elsewhere.path(), &state_dir).expect("symlink");
    let before = fixture.tree();
    let out = run(&fixture, &ADD_BETA);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("state directory for this Claude Code folder is a symbolic link"),
        "{err}"
    );
    assert_eq!(
        fs::read_dir(elsewhere.path()).expect("list").count(),
        0,
        "nothing written through the link"
    );
    assert_eq!(fixture.tree(), before);
}

#[test]
fn an_after_image_over_the_read_limit_is_neither_filed_nor_written() {
    use memwb::formats::claude::journal::{NewFiles, file_proposal};
    let fixture = fixture();
    let folder = fixture.folder();
    let huge = format!(
        "---\nname: huge\ndescription: big\ntype: user\n---\n{}\n",
        "x".repeat(5 * 1024 * 1024)
    );
    let before = fixture.tree();
    let filed = file_proposal(
        &folder,
        NewFiles {
            kind: memwb::review::Kind::Extraction,
            files: vec![memwb::claude::FileImage {
                file: "huge.md".into(),
                before: None,
                after: Some(huge.clone()),
            }],
            origin: memwb::review::Origin::new("test"),
            evidence: None,
        },
    );
    let error = filed.expect_err("refused");
    assert!(
        error.to_string().contains("over memwb's read limit"),
        "{error}"
    );
    assert!(
        memwb::formats::claude::journal::list(&folder)
            .expect("list")
            .proposals
            .is_empty(),
        "nothing filed"
    );
    let error = memwb::formats::claude::journal::journaled(
        &folder,
        vec![file_write("huge.md", None, Some(&huge))],
        memwb::review::EntryMeta::default(),
    )
    .expect_err("refused");
    assert!(
        error.to_string().contains("could not read it back"),
        "{error}"
    );
    assert_eq!(fixture.tree(), before, "nothing written");
    assert_eq!(journal_entries(&fixture), 0);
}
