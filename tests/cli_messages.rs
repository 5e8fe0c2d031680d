//! The exact first line (and the way out) of the command line's errors: each layer in its own
//! words, never another's.

mod common;

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
fn undoing_a_reject_says_it_changed_no_records() {
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
        "error: cannot undo entry 2: it was a reject, which changed no records"
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
