//! The journal: undo and its refusal, a torn or corrupt line, ids after long entries.

use super::*;

#[test]
fn undo_restores_the_records_exactly_and_an_undo_can_be_undone() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha", "beta", "gamma"]);
    let original: Vec<Record> = store.records().unwrap();
    let p = consolidation(
        &store,
        &["alpha", "beta"],
        record("ab", "merged", "merged body"),
    );
    let (_, entry) = approve(&store, &p.id).unwrap();
    let entry = entry.unwrap();

    let (_, undone) = undo(&store, &entry).unwrap();
    let undone = undone.unwrap();
    assert_eq!(undone.op, Op::Undo);
    assert_eq!(undone.undoes, Some(entry.id));
    let mut now = store.records().unwrap();
    let mut expected = original.clone();
    now.sort_by(|a, b| a.name().cmp(b.name()));
    expected.sort_by(|a, b| a.name().cmp(b.name()));
    assert_eq!(now, expected, "every field of every record is back");

    undo(&store, &undone).unwrap();
    assert_eq!(names(&store), ["gamma", "ab"]);
}

#[test]
fn undo_is_refused_when_the_records_changed_since() {
    let dir = workspace();
    let store = open(dir.path());
    let (_, entry) = journaled(&store, Default::default(), None, |s| {
        s.extend(vec![record("alpha", "a", "a")])
    })
    .unwrap();
    let alpha = store.read().unwrap().get("alpha").unwrap().record.clone();
    store
        .replace(&alpha, record("alpha", "changed", "a"))
        .unwrap();
    let err = undo(&store, &entry.unwrap()).unwrap_err();
    assert!(
        err.to_string().contains("cannot undo entry 1") && err.to_string().contains("changed"),
        "{err}"
    );
    assert_eq!(names(&store), ["alpha"]);
}

#[test]
fn a_torn_last_journal_line_is_set_aside_and_a_corrupt_one_is_reported() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha"]);
    let path = Journal::of(&store).path();
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"id\":2,\"at\":"); // a crash in the middle of an append
    std::fs::write(&path, &text).unwrap();
    assert_eq!(Journal::of(&store).entries().unwrap().len(), 1);
    seed(&store, &["beta"]);
    let ids: Vec<u64> = Journal::of(&store)
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, [1, 2], "the torn line was cut before the next append");

    let mut text = std::fs::read_to_string(&path).unwrap();
    text.insert_str(0, "not json\n");
    std::fs::write(&path, text).unwrap();
    let out = memwb(dir.path(), &["log"]);
    assert_eq!(out.status.code(), Some(0), "a damaged line is skipped");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("journal") && err.contains("line 1"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
}

#[test]
fn ids_continue_from_the_last_line_of_a_journal_of_long_entries() {
    let dir = workspace();
    let store = open(dir.path());
    let body = "x".repeat(3000);
    for i in 0..12 {
        journaled(&store, Default::default(), None, |s| {
            s.extend(vec![record(&format!("long-{i}"), "d", &body)])
        })
        .unwrap();
    }
    let path = Journal::of(&store).path();
    assert!(
        std::fs::metadata(&path).unwrap().len() > 3 * 8192,
        "longer than a few chunks"
    );
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&"{\"torn\":".repeat(5000)); // a torn line longer than a chunk
    std::fs::write(&path, text).unwrap();
    seed(&store, &["after"]);
    let ids: Vec<u64> = Journal::of(&store)
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, (1..=13).collect::<Vec<_>>());
}
