//! What a change refuses or keeps out: links, FIFOs, bad names, subfolders through a link, secrets
//! in the journal.

use super::*;

#[test]
fn links_fifos_and_names_outside_the_rules_are_refused_without_a_hang() {
    let fixture = fixture();
    let outside = fixture.home.path().join("outside.md");
    fs::write(&outside, "outside\n").expect("write");
    std::os::unix::fs::symlink(&outside, fixture.memory().join("link.md")).expect("link");
    std::os::unix::fs::symlink(fixture.home.path(), fixture.memory().join("sub")).expect("link");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        fixture.memory().join("pipe.md"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    let before = files(&fixture);
    let cases = [
        (
            write("link.md", Some("outside\n"), Some("x\n")),
            "symbolic link",
        ),
        (
            write("sub/outside.md", Some("outside\n"), Some("x\n")),
            "not a real folder",
        ),
        (write("pipe.md", Some(""), Some("x\n")), "FIFO"),
        (
            write("../outside.md", Some("outside\n"), Some("x\n")),
            "`..`",
        ),
        (write("/tmp/x.md", None, Some("x\n")), "relative"),
        (write("notes.txt", None, Some("x\n")), "*.md"),
        (write(".hidden.md", None, Some("x\n")), "hidden"),
    ];
    for (bad, rule) in cases {
        let file = bad.file.clone();
        // Each bad file alongside a good one: the good one is not written either.
        let error = apply(
            &fixture.folder(),
            vec![write("alpha.md", Some(ALPHA), Some("changed\n")), bad],
            None,
        )
        .expect_err(&file);
        assert!(error.to_string().contains(rule), "{file}: {error}");
        assert!(
            error.to_string().contains("nothing was written") || rule == "FIFO",
            "{file}: {error}"
        );
        assert_eq!(files(&fixture), before, "{file}: nothing written");
    }
    assert_eq!(fs::read_to_string(&outside).expect("outside"), "outside\n");
    let twice = apply(
        &fixture.folder(),
        vec![
            write("alpha.md", Some(ALPHA), None),
            write("alpha.md", Some(ALPHA), None),
        ],
        None,
    )
    .expect_err("twice");
    assert!(
        twice.to_string().contains("names this file twice"),
        "{twice}"
    );
    assert_eq!(files(&fixture), before);
}

#[test]
fn a_new_file_in_a_missing_subfolder_creates_the_folder_inside_never_through_a_link() {
    let fixture = fixture();
    let changed = apply(
        &fixture.folder(),
        vec![write("notes/deep/x.md", None, Some("x\n"))],
        None,
    )
    .expect("a missing folder is made, as Claude Code's Write makes it");
    assert_eq!(changed.images.len(), 1);
    assert_eq!(
        fs::read_to_string(fixture.memory().join("notes/deep/x.md")).expect("written"),
        "x\n"
    );
    // Removing a file whose folder is gone is nothing to do; a link on the way is refused.
    std::os::unix::fs::symlink(fixture.home.path(), fixture.memory().join("away")).expect("link");
    let error = apply(
        &fixture.folder(),
        vec![write("away/new/x.md", None, Some("x\n"))],
        None,
    )
    .expect_err("through a link");
    assert!(error.to_string().contains("not a real folder"), "{error}");
    assert!(
        !fixture.home.path().join("new").exists(),
        "nothing made outside"
    );
}

#[test]
fn a_secret_stays_out_of_the_journal_and_undo_restores_the_rest_exactly() {
    let fixture = fixture();
    let folder = fixture.folder();
    let key = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
    let secret = format!("---\nname: token\n---\nThe deploy token is {key} for now.\n");
    let (_, added) = journaled(
        &folder,
        vec![write("token.md", None, Some(&secret))],
        meta(Op::Add),
    )
    .expect("add");
    let added = added.expect("entry");
    assert_eq!(fixture.read("token.md").as_deref(), Some(secret.as_str()));
    let edited = secret.replace("for now", "until Friday");
    let (_, set) = journaled(
        &folder,
        vec![write("token.md", Some(&secret), Some(&edited))],
        meta(Op::Set),
    )
    .expect("set");
    let state = ClaudeState::for_folder(&folder).expect("state");
    let journal = fs::read_to_string(state.path().join("journal.jsonl")).expect("journal");
    assert!(!journal.contains(&key), "the journal holds the secret");
    assert!(journal.contains("[REDACTED]"));
    // Undo of the edit: the redacted image stands for the file; the text before comes back
    // with the credential redacted, every other byte as it was.
    undo(&folder, &set.expect("entry")).expect("undo");
    let back = fixture.read("token.md").expect("token");
    assert_eq!(back, secret.replace(&key, "[REDACTED]"));
    // Undo of the add removes the file: its redacted text is what the entry wrote, as kept.
    undo(&folder, &added).expect("undo the add");
    assert_eq!(fixture.read("token.md"), None);
    assert_only_memories(&fixture, &[]);
}
