//! The exact first line (and the way out) of the command line's errors: each layer in its own
//! words, never another's.

use crate::common;

use common::cli::{add, error_line, file_of, memwb, memwb_with, ok, refused};
use common::workspace;

#[test]
fn an_unknown_proposal_says_so_and_how_to_list_them() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    for command in ["approve", "reject"] {
        let err = refused(memwb(dir.path(), &[command, "deadbeef"]));
        assert_eq!(
            err,
            "error: no proposal deadbeef\nhint: memwb proposals --all lists every proposal\n"
        );
    }
    assert_eq!(
        error_line(memwb(dir.path(), &["approve", "NOT-HEX"])),
        "error: no proposal NOT-HEX"
    );
}

#[test]
fn undoing_a_reject_says_it_changed_no_memory() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    let reply = r#"[{"name":"beta","type":"user","description":"d","body":"b"}]"#;
    let id = ok(memwb_with(
        dir.path(),
        &["propose", "import", "-"],
        reply,
        &[],
    ));
    ok(memwb(dir.path(), &["reject", id.trim()]));
    assert_eq!(
        error_line(memwb(dir.path(), &["undo", "2"])),
        "error: cannot undo entry 2: it was a reject, which changed no memory"
    );
    assert_eq!(
        refused(memwb(dir.path(), &["undo", "9"])),
        "error: no journal entry 9\nhint: memwb log lists the journal entries\n"
    );
}

#[test]
fn undo_says_why_it_cannot() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    add(dir.path(), "beta", "b", "b");
    ok(memwb(dir.path(), &["rm", "beta"]));
    add(dir.path(), "beta", "again", "b");
    assert_eq!(
        error_line(memwb(dir.path(), &["undo", "3"])),
        "error: cannot undo entry 3: \"beta\" was added again since #3; nothing was changed"
    );
    ok(memwb(
        dir.path(),
        &["set", "alpha", "--description", "edited"],
    ));
    assert_eq!(
        error_line(memwb(dir.path(), &["undo", "1"])),
        "error: cannot undo entry 1: \"alpha\" was changed since #1; nothing was changed"
    );
}

#[test]
fn repairing_a_valid_or_unlisted_entry_is_not_a_consolidation_error() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    let file = file_of(dir.path(), "alpha");
    assert_eq!(
        error_line(memwb(dir.path(), &["repair", &file, "--drop"])),
        format!("error: nothing to repair: {file} is a valid record; edit it instead (memwb set)")
    );
    let err = refused(memwb(dir.path(), &["repair", "nope-1.md", "--drop"]));
    assert!(
        err.starts_with("error: nope-1.md is not listed in the manifest\n"),
        "{err}"
    );
}

#[test]
fn a_tampered_extraction_plan_is_not_an_invalid_consolidation() {
    let dir = workspace();
    let reply = r#"[{"name":"beta","type":"user","description":"d","body":"b"}]"#;
    let id = ok(memwb_with(
        dir.path(),
        &["propose", "import", "-"],
        reply,
        &[],
    ));
    let id = id.trim();
    let path = dir
        .path()
        .join(".memory/.memwb/proposals")
        .join(format!("{id}.json"));
    let mut proposal: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    proposal["plan"] = serde_json::json!([{"name": "Bad Name", "type": "user"}]);
    std::fs::write(&path, serde_json::to_vec(&proposal).unwrap()).unwrap();
    let line = error_line(memwb(dir.path(), &["approve", id]));
    assert!(
        line.starts_with(&format!("error: proposal {id} has an invalid plan: ")),
        "{line}"
    );
    assert!(!line.contains("consolidation"), "{line}");
}

#[test]
fn an_unreadable_set_points_to_repair_and_check() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    let file = file_of(dir.path(), "alpha");
    std::fs::write(dir.path().join(".memory").join(&file), "not a record\n").unwrap();
    for command in [
        &["ls"][..],
        &[
            "add",
            "--name",
            "beta",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
        &["select", "alpha"],
    ] {
        let err = refused(memwb(dir.path(), command));
        let hints: Vec<&str> = err.lines().skip(1).collect();
        assert_eq!(
            hints,
            [
                format!("hint: memwb repair {file} --from FIXED | --drop").as_str(),
                "hint: memwb check shows the whole picture"
            ],
            "{command:?}: {err}"
        );
    }
}

#[test]
fn a_name_too_long_for_a_file_name_is_refused_with_the_limit() {
    let dir = workspace();
    let long = "a".repeat(220);
    let args = |name: &str| {
        vec![
            "add".to_owned(),
            "--name".into(),
            name.to_owned(),
            "--type".into(),
            "user".into(),
            "--description".into(),
            "d".into(),
            "--body".into(),
            "b".into(),
        ]
    };
    let long_args = args(&long);
    let long_args: Vec<&str> = long_args.iter().map(String::as_str).collect();
    assert_eq!(
        error_line(memwb(dir.path(), &long_args)),
        "error: memory name must be at most 219 characters so that its file name fits the file system (it has 220)"
    );
    assert!(
        !dir.path().join(".memory").exists(),
        "refused before any I/O"
    );
    let longest = "b".repeat(219);
    let ok_args = args(&longest);
    let ok_args: Vec<&str> = ok_args.iter().map(String::as_str).collect();
    ok(memwb(dir.path(), &ok_args));
}

#[test]
fn a_name_twice_in_one_batch_says_so() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    let batch = r#"[{"name":"beta","type":"user","description":"d","body":"b"},
                    {"name":"beta","type":"user","description":"e","body":"c"}]"#;
    assert_eq!(
        error_line(memwb_with(dir.path(), &["add", "--json", "-"], batch, &[])),
        "error: memory name \"beta\" is twice in this batch"
    );
    let taken = r#"[{"name":"alpha","type":"user","description":"d","body":"b"}]"#;
    assert_eq!(
        error_line(memwb_with(dir.path(), &["add", "--json", "-"], taken, &[])),
        "error: a memory named \"alpha\" exists"
    );
}

#[test]
fn records_and_plans_are_objects_and_a_byte_order_mark_is_accepted() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    let before = common::snapshot(dir.path());
    assert_eq!(
        error_line(memwb_with(
            dir.path(),
            &["add", "--json", "-"],
            r#"[["arr","user","d","b"]]"#,
            &[]
        )),
        "error: standard input is not a valid JSON array of memories: invalid type: sequence, expected an object {name, type, description, body} at line 1 column 1"
    );
    let plan_line = error_line(memwb_with(
        dir.path(),
        &["consolidate", "--plan", "-"],
        r#"[["alpha"],[["merged","user","d","b"]]]"#,
        &[],
    ));
    assert!(
        plan_line.starts_with("error: the consolidation plan is refused: invalid type: sequence, expected an object {source_names, records}"),
        "{plan_line}"
    );
    let nested = error_line(memwb_with(
        dir.path(),
        &["consolidate", "--plan", "-"],
        r#"{"source_names":["alpha"],"records":[["merged","user","d","b"]]}"#,
        &[],
    ));
    assert!(
        nested.contains("expected an object {name, type, description, body}"),
        "{nested}"
    );
    assert_eq!(common::snapshot(dir.path()), before);

    let bom =
        "\u{feff}[{\"name\":\"beta\",\"type\":\"user\",\"description\":\"d\",\"body\":\"b\"}]";
    assert_eq!(
        ok(memwb_with(dir.path(), &["add", "--json", "-"], bom, &[])),
        "added beta\n"
    );
    let plan = "\u{feff}{\"source_names\":[\"alpha\",\"beta\"],\"records\":[{\"name\":\"merged\",\"type\":\"user\",\"description\":\"d\",\"body\":\"b\"}]}";
    assert_eq!(
        ok(memwb_with(
            dir.path(),
            &["consolidate", "--plan", "-"],
            plan,
            &[]
        )),
        "consolidated alpha, beta into merged\n"
    );
}

#[test]
fn check_counts_in_words_and_states_a_line_once() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    let file = file_of(dir.path(), "alpha");
    std::fs::write(
        dir.path().join(".memory").join(&file),
        "---\nname: alpha\ntype: user\ncolour: blue\ndescription: d\n---\n\nb\n",
    )
    .unwrap();
    let out = memwb(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(1));
    let text = common::cli::stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "error[record-invalid] {file}: record frontmatter has an unexpected key \"colour\" at line 4"
        )
    );
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with(".memory: 0 memories, 1 error, 0 warnings"),
        "{text}"
    );
}

/// The input cap of `repair --from` is the command line's own; what a file may hold is the
/// format's to say, with its reason (a `.memory` record's byte budget), and nothing changes.
#[test]
fn repair_from_a_file_over_the_record_budget_says_the_budget() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    let file = file_of(dir.path(), "alpha");
    let record = dir.path().join(".memory").join(&file);
    std::fs::write(&record, "broken\n").unwrap();
    let fixed = dir.path().join("fixed.md");
    let body = "x".repeat(5000);
    std::fs::write(
        &fixed,
        format!("---\nname: alpha\ndescription: a\ntype: user\n---\n{body}\n"),
    )
    .unwrap();
    let line = error_line(memwb(
        dir.path(),
        &["repair", &file, "--from", fixed.to_str().unwrap()],
    ));
    assert!(
        line.contains("does not read: memory file must not exceed 4096 UTF-8 bytes"),
        "{line}"
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap(), "broken\n");
}

#[test]
fn repair_from_standard_input_names_it() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    let file = file_of(dir.path(), "alpha");
    std::fs::write(dir.path().join(".memory").join(&file), "broken\n").unwrap();
    assert_eq!(
        error_line(memwb_with(
            dir.path(),
            &["repair", &file, "--from", "-"],
            "still broken\n",
            &[]
        )),
        "error: the corrected file (standard input) does not read: record file must start with a line that is exactly \"---\""
    );
}
