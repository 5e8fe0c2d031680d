//! What a journal entry costs: the change it records, not the set it was made in; and reading
//! the journal from its end (`log --last`, `undo`, History) as far as what is shown, on journals
//! of today's layout and of the previous one.

mod common;

use std::io::Write;
use std::path::Path;

use common::cli::{memwb, ok, stdout};
use common::{copy_dir, fixture, open, open_with, record, workspace};
use memwb::review::{EntryMeta, Journal, journaled};
use memwb::store::{Store, StoreOptions};
use serde_json::Value;

fn journal_len(store: &Store) -> u64 {
    std::fs::metadata(Journal::of(store).path()).map_or(0, |m| m.len())
}

/// A set of `count` records (written without a journal), then one journaled add, one edit and
/// one removal: the journal bytes each of those three added.
fn bytes_per_change(count: usize) -> [u64; 4] {
    let dir = workspace();
    let options = StoreOptions {
        max_index_lines: count + 2,
        max_index_bytes: 1 << 20,
        ..StoreOptions::default()
    };
    let store = open_with(dir.path(), options);
    store.ensure_root().unwrap();
    let seed: Vec<_> = (0..count)
        .map(|i| record(&format!("note-{i}"), &format!("note number {i}"), "a body"))
        .collect();
    for batch in seed.chunks(200) {
        store.extend(batch.to_vec()).unwrap();
    }
    let mut sizes = [0; 4];
    let mut last = journal_len(&store);
    let mut measure = |sizes: &mut [u64; 4], i: usize| {
        let now = journal_len(&store);
        sizes[i] = now - last;
        last = now;
    };
    journaled(&store, EntryMeta::default(), None, |s| {
        s.extend(vec![record("fresh", "a fresh note", "its body")])
    })
    .unwrap();
    measure(&mut sizes, 0);
    let base = store.records().unwrap()[0].clone();
    let edited = record(base.name(), base.description(), "an edited body");
    journaled(&store, EntryMeta::default(), None, |s| {
        s.replace(&base, edited)
    })
    .unwrap();
    measure(&mut sizes, 1);
    let gone = store.records().unwrap()[1].clone();
    journaled(&store, EntryMeta::default(), None, |s| s.remove(&[gone])).unwrap();
    measure(&mut sizes, 2);
    journaled(&store, EntryMeta::default(), None, |s| s.rebuild_index()).unwrap();
    measure(&mut sizes, 3);
    sizes
}

#[test]
fn an_entrys_size_does_not_grow_with_the_set() {
    let small = bytes_per_change(50);
    let large = bytes_per_change(1000);
    for (i, what) in ["add", "set", "rm", "rebuild-index"].iter().enumerate() {
        // Ids, times and the set's record numbers ("note-999") differ by a few bytes at most.
        assert!(
            large[i] <= small[i] + 16,
            "{what}: {} bytes at 1,000 records, {} at 50",
            large[i],
            small[i]
        );
        assert!(large[i] < 2048, "{what}: {} bytes", large[i]);
    }
}

/// A copy of `stores/journal-v1`: a set whose journal was written by memwb 0.1's layout
/// (every intent listing the whole manifest before and after): adds of alpha, beta and gamma,
/// beta's body edited (#4), gamma removed (#5).
fn old_layout() -> tempfile::TempDir {
    let dir = workspace();
    copy_dir(
        &fixture("stores/journal-v1/.memory"),
        &dir.path().join(".memory"),
    );
    dir
}

fn logged(dir: &Path, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["log", "--json"];
    all.extend_from_slice(args);
    let out: Value = serde_json::from_str(&ok(memwb(dir, &all))).unwrap();
    out.as_array().unwrap().clone()
}

fn ids(entries: &[Value]) -> Vec<u64> {
    entries.iter().map(|e| e["id"].as_u64().unwrap()).collect()
}

#[test]
fn an_old_layout_journal_still_loads_undoes_and_logs() {
    let dir = old_layout();
    assert_eq!(ids(&logged(dir.path(), &[])), [1, 2, 3, 4, 5]);
    assert_eq!(ids(&logged(dir.path(), &["--last", "2"])), [4, 5]);
    let text = ok(memwb(dir.path(), &["log"]));
    assert!(
        text.contains("#4") && text.contains("before: beta  after: beta"),
        "{text}"
    );

    ok(memwb(dir.path(), &["undo", "4"]));
    let shown = ok(memwb(dir.path(), &["show", "beta"]));
    assert!(
        shown.contains("beta body") && !shown.contains("edited"),
        "{shown}"
    );
    // The default undo finds the newest change from the end: the undo just made.
    ok(memwb(dir.path(), &["undo"]));
    let shown = ok(memwb(dir.path(), &["show", "beta"]));
    assert!(shown.contains("beta body, edited"), "{shown}");
    ok(memwb(dir.path(), &["undo", "5"]));
    let entries = logged(dir.path(), &[]);
    assert_eq!(ids(&entries), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(entries[7]["undoes"], 5);
    let names: Vec<String> = open(dir.path())
        .records()
        .unwrap()
        .iter()
        .map(|r| r.name().to_owned())
        .collect();
    assert_eq!(names, ["alpha", "beta", "gamma"]);
    // The entries written now take the new layout: no whole file list in an intent.
    let raw = std::fs::read_to_string(dir.path().join(".memory/.memwb/journal.jsonl")).unwrap();
    let last_intent = raw
        .lines()
        .rev()
        .find(|l| l.starts_with("{\"intent\""))
        .unwrap();
    assert!(last_intent.contains("\"manifest-change\""), "{last_intent}");
}

/// `log --last` and `undo` read from the end only as far as the entries they need: a first
/// line longer than any the journal reads whole is never reached.
#[test]
fn log_last_and_undo_read_only_the_journals_end() {
    let dir = old_layout();
    let path = dir.path().join(".memory/.memwb/journal.jsonl");
    let old = std::fs::read(&path).unwrap();
    let mut file = std::fs::File::create(&path).unwrap();
    let huge = vec![b'x'; memwb::review::journal::MAX_LINE_BYTES + 1024];
    file.write_all(&huge).unwrap();
    file.write_all(b"\n").unwrap();
    file.write_all(&old).unwrap();
    drop(file);
    let store = open(dir.path());
    let journal = Journal::of(&store);
    let last: Vec<u64> = journal
        .last_entries(3)
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(last, [3, 4, 5]);
    assert_eq!(journal.entry(2).unwrap().map(|e| e.id), Some(2));
    // Reaching that line is refused, not read whole.
    let error = journal.entry(0).unwrap_err().to_string();
    assert!(error.contains("longer than"), "{error}");
    assert_eq!(ids(&logged(dir.path(), &["--last", "1"])), [5]);
    ok(memwb(dir.path(), &["undo"]));
    assert!(stdout(&memwb(dir.path(), &["log", "--last", "1"])).contains("undoes #5"));
}

/// Reading from the end agrees with reading the whole journal, whatever its damage: aborted
/// ids given again, a line that does not parse, an unmarked intent, a torn last line.
#[test]
fn the_end_of_the_journal_reads_as_the_whole_does() {
    let dir = old_layout();
    let path = dir.path().join(".memory/.memwb/journal.jsonl");
    let store = open(dir.path());
    for name in ["delta", "epsilon"] {
        journaled(&store, EntryMeta::default(), None, |s| {
            s.extend(vec![record(name, "d", "b")])
        })
        .unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let intent = text.lines().rev().nth(1).unwrap().to_owned();
    let aborted_intent = intent.replace("epsilon", "zeta");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    // #7 aborted first, then given again to epsilon's commit.
    let at = lines.len() - 2;
    lines.insert(at, format!("{aborted_intent}\n{{\"aborted\":7}}"));
    lines.insert(3, "{not json".to_owned());
    let pending = intent.replace("\"id\":7", "\"id\":8");
    let journal = lines.join("\n") + "\n" + &pending + "\n{\"committ";
    std::fs::write(&path, &journal).unwrap();
    let whole = Journal::of(&store).scan().unwrap();
    assert_eq!(whole.damaged.len(), 1);
    assert!(whole.pending.is_some());
    let all: Vec<u64> = whole.entries.iter().map(|e| e.id).collect();
    assert_eq!(all, [1, 2, 3, 4, 5, 6, 7]);
    for count in 0..=all.len() + 1 {
        let tail = Journal::of(&store).last_entries(count).unwrap();
        let from = all.len().saturating_sub(count);
        assert_eq!(tail, whole.entries[from..], "the last {count}");
    }
    let seventh = Journal::of(&store).entry(7).unwrap().unwrap();
    assert_eq!(seventh.after[0].record.name.as_str(), "epsilon");
}
