//! Duplicate names (a hand edit can leave two listed files holding one name) and where an edit
//! puts the record it writes.

use crate::common;

use std::fs;
use std::path::Path;

use common::cli::{add, error_line, memwb, ok, refused, stderr};
use common::{assert_unchanged, open, record, snapshot, workspace};
use memwb::store::{Record, StoreError};

fn names_of(dir: &Path) -> Vec<String> {
    common::names(&open(dir))
}

fn files_of(dir: &Path) -> Vec<String> {
    open(dir).read().expect("readable").files()
}

/// Lists a copy of `name`'s file under another file name (as a careless hand edit or a bad
/// merge does): returns (the original file, the copy).
fn duplicate(dir: &Path, name: &str, copy_stem: &str) -> (String, String) {
    let original = common::cli::file_of(dir, name);
    let root = dir.join(".memory");
    let copy = format!("{copy_stem}-0123456789abcdef0123456789abcdef.md");
    let text = fs::read_to_string(root.join(&original))
        .expect("record")
        .replace("description: beta", "description: the other beta");
    fs::write(root.join(&copy), text).expect("copy");
    let mut files = files_of(dir);
    files.push(copy.clone());
    fs::write(
        root.join("manifest.json"),
        serde_json::json!({"version": 1, "files": files}).to_string(),
    )
    .expect("manifest");
    (original, copy)
}

fn findings(dir: &Path) -> Vec<serde_json::Value> {
    let out = memwb(dir, &["check", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("check --json");
    report["findings"].as_array().expect("findings").clone()
}

#[test]
fn a_duplicate_name_is_an_error_finding_naming_both_files() {
    let ws = workspace();
    add(ws.path(), "alpha", "alpha", "a");
    add(ws.path(), "beta", "beta", "b");
    let (original, copy) = duplicate(ws.path(), "beta", "beta");
    let found = findings(ws.path());
    let dup = found
        .iter()
        .find(|f| f["code"] == "name-duplicate")
        .unwrap_or_else(|| panic!("no name-duplicate in {found:?}"));
    assert_eq!(dup["severity"], "error");
    let message = dup["message"].as_str().expect("message");
    assert!(
        message.contains(&original) && message.contains(&copy),
        "{message}"
    );
    assert_eq!(memwb(ws.path(), &["check"]).status.code(), Some(1));
}

#[test]
fn a_file_whose_name_disagrees_with_its_record_is_reported() {
    let ws = workspace();
    add(ws.path(), "alpha", "alpha", "a");
    add(ws.path(), "beta", "beta", "b");
    let (_, copy) = duplicate(ws.path(), "beta", "gamma");
    let found = findings(ws.path());
    assert!(
        found
            .iter()
            .any(|f| f["code"] == "name-mismatch" && f["file"] == copy.as_str()),
        "{found:?}"
    );
    // Only the copy: the names the engine wrote agree with their files.
    assert_eq!(
        found
            .iter()
            .filter(|f| f["code"] == "name-mismatch")
            .count(),
        1
    );
}

#[test]
fn commands_refuse_an_ambiguous_name_and_change_nothing() {
    let ws = workspace();
    add(ws.path(), "alpha", "alpha", "a");
    add(ws.path(), "beta", "beta", "b");
    let (original, copy) = duplicate(ws.path(), "beta", "beta");
    let before = snapshot(ws.path());
    for args in [
        &["set", "beta", "--description", "x"][..],
        &["rm", "beta"],
        &["rm", "alpha", "beta"],
        &["show", "beta"],
    ] {
        let err = refused(memwb(ws.path(), args));
        let first = err.lines().next().expect("error line");
        assert!(
            first.contains("memory name \"beta\" is ambiguous")
                && first.contains(&original)
                && first.contains(&copy),
            "{args:?}: {err}"
        );
        assert!(err.contains("hint: address one by its file"), "{err}");
        assert!(err.contains("memwb repair"), "{err}");
        assert_unchanged(ws.path(), &before, &format!("{args:?}"));
    }
    // The rest of the set is usable.
    ok(memwb(ws.path(), &["ls"]));
    ok(memwb(ws.path(), &["show", "alpha"]));
    add(ws.path(), "gamma", "gamma", "c");
    ok(memwb(
        ws.path(),
        &["set", "alpha", "--description", "edited"],
    ));
    // A new record may not take the ambiguous name either.
    let line = error_line(memwb(
        ws.path(),
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
    ));
    assert!(line.contains("a memory named \"beta\" exists"), "{line}");
}

#[test]
fn an_ambiguous_record_is_addressed_by_its_file() {
    let ws = workspace();
    add(ws.path(), "alpha", "alpha", "a");
    add(ws.path(), "beta", "beta", "b");
    let (original, copy) = duplicate(ws.path(), "beta", "beta");
    let shown = ok(memwb(ws.path(), &["show", &copy]));
    assert!(shown.contains("the other beta"), "{shown}");
    // Rename the copy: both records stay, the name is no longer ambiguous.
    ok(memwb(ws.path(), &["set", &copy, "--name", "beta-two"]));
    assert_eq!(names_of(ws.path()), ["alpha", "beta", "beta-two"]);
    assert!(
        findings(ws.path())
            .iter()
            .all(|f| f["code"] != "name-duplicate")
    );

    // Remove by file removes that file only.
    let (_, second) = duplicate(ws.path(), "beta", "beta");
    ok(memwb(ws.path(), &["rm", &second]));
    assert_eq!(names_of(ws.path()), ["alpha", "beta", "beta-two"]);
    assert_eq!(common::cli::file_of(ws.path(), "beta"), original);

    // Or repair one of them away.
    let (_, third) = duplicate(ws.path(), "beta", "beta");
    let out = memwb(ws.path(), &["repair", &third, "--drop"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(names_of(ws.path()), ["alpha", "beta", "beta-two"]);
    assert_eq!(common::cli::file_of(ws.path(), "beta"), original);
}

#[test]
fn the_engine_refuses_an_ambiguous_name_by_name_and_accepts_it_by_file() {
    let ws = workspace();
    add(ws.path(), "alpha", "alpha", "a");
    add(ws.path(), "beta", "beta", "b");
    duplicate(ws.path(), "beta", "beta");
    let store = open(ws.path());
    let set = store.read().expect("a duplicate name still reads");
    let beta = set.entries[1].clone();
    let before = snapshot(ws.path());
    let ambiguous = |e: &StoreError| matches!(e, StoreError::AmbiguousName { .. });
    let edited = record("beta", "x", "y");
    let err = store
        .replace(&beta.record, edited.clone())
        .expect_err("ambiguous");
    assert!(ambiguous(&err), "{err}");
    let err = store
        .remove(std::slice::from_ref(&beta.record))
        .expect_err("ambiguous");
    assert!(ambiguous(&err), "{err}");
    let err = store
        .apply_consolidation(
            &set.records().cloned().collect::<Vec<Record>>(),
            vec![],
            &["beta".into()],
            vec![record("merged", "m", "m")],
        )
        .expect_err("ambiguous");
    assert!(ambiguous(&err), "{err}");
    assert_unchanged(ws.path(), &before, "refused");
    // A consolidation of other records goes through, keeping both holders.
    store
        .apply_consolidation(
            &set.records().cloned().collect::<Vec<Record>>(),
            vec![],
            &["alpha".into()],
            vec![record("merged", "m", "m")],
        )
        .expect("unrelated consolidation");
    assert_eq!(common::names(&store), ["beta", "beta", "merged"]);
    // By file: an edit keeping the name would write a third holder, so it is refused; a
    // rename is not.
    let err = store
        .replace_entry(&beta, edited)
        .expect_err("still ambiguous");
    assert!(matches!(err, StoreError::DuplicateName { .. }), "{err}");
    store
        .replace_entry(&beta, record("beta-one", "x", "y"))
        .expect("rename by file");
    assert_eq!(common::names(&store), ["beta-one", "beta", "merged"]);
}

#[test]
fn an_edit_or_rename_keeps_its_place_and_a_consolidation_appends() {
    let ws = workspace();
    for name in ["alpha", "beta", "gamma"] {
        add(ws.path(), name, name, "x");
    }
    let store = open(ws.path());
    let beta = store.read().expect("set").entries[1].record.clone();
    store
        .replace(&beta, record("beta", "edited", "x"))
        .expect("edit");
    assert_eq!(common::names(&store), ["alpha", "beta", "gamma"]);
    let index = fs::read_to_string(ws.path().join(".memory/MEMORY.md")).expect("index");
    assert!(
        index.lines().nth(1).expect("line 2").contains("[beta]"),
        "{index}"
    );

    let beta = store.read().expect("set").entries[1].clone();
    store
        .replace_entry(&beta, record("beta-renamed", "edited", "x"))
        .expect("rename");
    assert_eq!(common::names(&store), ["alpha", "beta-renamed", "gamma"]);

    // The CLI's set too.
    ok(memwb(
        ws.path(),
        &["set", "alpha", "--description", "changed"],
    ));
    assert_eq!(names_of(ws.path()), ["alpha", "beta-renamed", "gamma"]);
    ok(memwb(ws.path(), &["set", "alpha", "--name", "alpha-two"]));
    assert_eq!(names_of(ws.path()), ["alpha-two", "beta-renamed", "gamma"]);

    // Undo puts the record back where it was.
    ok(memwb(ws.path(), &["undo"]));
    assert_eq!(names_of(ws.path()), ["alpha", "beta-renamed", "gamma"]);

    // A consolidation appends its replacement after every kept record.
    let base = store.records().expect("set");
    store
        .apply_consolidation(
            &base,
            vec![],
            &["alpha".into()],
            vec![record("merged", "m", "m")],
        )
        .expect("consolidate");
    assert_eq!(common::names(&store), ["beta-renamed", "gamma", "merged"]);
}
