//! What a journal entry costs: the change it records, not the set it was made in; and reading
//! the journal from its end (`log --last`, `undo`, History) as far as what is shown, on journals
//! of today's layout and of the previous one.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use common::cli::{memwb, ok, stdout};
use common::{copy_dir, fixture, open, open_with, record, workspace};
use memwb::formats::Open;
use memwb::formats::memory::journal::journaled;
use memwb::review::{EntryMeta, Journal};
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
        text.contains("#4") && text.contains("changed beta"),
        "{text}"
    );

    ok(memwb(dir.path(), &["undo", "4"]));
    let shown = ok(memwb(dir.path(), &["show", "beta"]));
    assert!(
        shown.contains("beta body") && !shown.contains("edited"),
        "{shown}"
    );
    // The default undo finds the newest change not undone yet from the end: gamma's
    // removal (#5), not the undo just made nor #4, which it reverted.
    let said = ok(memwb(dir.path(), &["undo"]));
    assert!(
        said.starts_with("undid #5 (rm) as #7: added gamma"),
        "{said}"
    );
    let shown = ok(memwb(dir.path(), &["show", "beta"]));
    assert!(!shown.contains("edited"), "{shown}");
    // Undoing the undo by its number re-does beta's edit.
    ok(memwb(dir.path(), &["undo", "6"]));
    let shown = ok(memwb(dir.path(), &["show", "beta"]));
    assert!(shown.contains("beta body, edited"), "{shown}");
    let entries = logged(dir.path(), &[]);
    assert_eq!(ids(&entries), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(entries[7]["undoes"], 6);
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

/// History's reading after a job, on a clone of the open folder (the workbench's jobs and its
/// watcher run on clones), goes on from the reading before it: the entries read then are
/// handed out again, not parsed anew, and only the line appended is; a folder opened anew
/// reads its own. Seen failing with `Open::clone` keeping a tail of its own.
#[test]
fn clones_of_an_open_folder_read_the_journal_on_from_each_other() {
    let dir = old_layout();
    let store = open(dir.path());
    let app = Open::from(store.clone());
    let before = app.journal_tail(10).unwrap();
    journaled(&store, EntryMeta::default(), None, |s| {
        s.extend(vec![record("delta", "d", "b")])
    })
    .unwrap();
    let after = app.clone().journal_tail(10).unwrap();
    assert_eq!(after.len(), before.len() + 1);
    assert!(before.iter().zip(&after).all(|(a, b)| Arc::ptr_eq(a, b)));
    let added = after.last().map(|e| e.after[0].record.name.as_str());
    assert_eq!(added, Some("delta"));
    let anew = Open::from(store.clone()).journal_tail(10).unwrap();
    assert_eq!(anew, after);
    assert!(!Arc::ptr_eq(&anew[0], &after[0]));
}

/// A Claude Code folder of `count` topic files, each listed in MEMORY.md, in `dir`.
fn claude_folder(dir: &Path, count: usize) -> memwb::claude::ClaudeFolder {
    let memory = dir.join("memory");
    std::fs::create_dir_all(&memory).unwrap();
    let mut index = String::from("# Memory index\n\n");
    for i in 0..count {
        std::fs::write(memory.join(format!("project_note_{i}.md")), topic(i, "")).unwrap();
        index.push_str(&index_line(i, ""));
    }
    std::fs::write(memory.join("MEMORY.md"), index).unwrap();
    memwb::claude::ClaudeFolder::open(&memory, memwb::claude::LoadLimits::default())
        .unwrap()
        .with_state_root(dir.join("state"))
}

fn topic(i: usize, edit: &str) -> String {
    format!(
        "---\nname: note-{i}\ndescription: note number {i}{edit}\nmetadata:\n  type: project\n---\n\nA body for note {i}.\n"
    )
}

fn index_line(i: usize, edit: &str) -> String {
    format!("- [note-{i}](project_note_{i}.md) — note number {i}{edit}\n")
}

fn claude_journal_len(folder: &memwb::claude::ClaudeFolder) -> u64 {
    let path = memwb::formats::claude::journal::journal_of(folder)
        .unwrap()
        .path();
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// One journaled change to `folder`: the bytes it added to the journal.
fn claude_change(
    folder: &memwb::claude::ClaudeFolder,
    writes: Vec<memwb::claude::FileWrite>,
) -> u64 {
    let before = claude_journal_len(folder);
    let (_, entry) =
        memwb::formats::claude::journal::journaled(folder, writes, EntryMeta::default()).unwrap();
    assert!(entry.is_some());
    claude_journal_len(folder) - before
}

/// On a folder of `count` topic files: one edit (a topic file and its MEMORY.md line), one
/// add (a new file and a new line) and one removal; the journal bytes each added.
fn claude_bytes_per_change(count: usize) -> [u64; 3] {
    use memwb::claude::FileWrite;
    let dir = workspace();
    let folder = claude_folder(dir.path(), count);
    let read = |file: &str| std::fs::read_to_string(folder.root().join(file)).ok();
    let index = read("MEMORY.md").unwrap();
    let middle = count / 2;
    let edited_index = index.replace(&index_line(middle, ""), &index_line(middle, ", edited"));
    let set = claude_change(
        &folder,
        vec![
            FileWrite {
                file: format!("project_note_{middle}.md"),
                base: Some(topic(middle, "")),
                after: Some(topic(middle, ", edited")),
            },
            FileWrite {
                file: "MEMORY.md".into(),
                base: Some(index.clone()),
                after: Some(edited_index.clone()),
            },
        ],
    );
    let added_index = format!("{edited_index}{}", index_line(count, ""));
    let add = claude_change(
        &folder,
        vec![
            FileWrite {
                file: format!("project_note_{count}.md"),
                base: None,
                after: Some(topic(count, "")),
            },
            FileWrite {
                file: "MEMORY.md".into(),
                base: Some(edited_index),
                after: Some(added_index.clone()),
            },
        ],
    );
    let rm = claude_change(
        &folder,
        vec![
            FileWrite {
                file: "project_note_0.md".into(),
                base: Some(topic(0, "")),
                after: None,
            },
            FileWrite {
                file: "MEMORY.md".into(),
                base: Some(added_index.clone()),
                after: Some(added_index.replace(&index_line(0, ""), "")),
            },
        ],
    );
    [set, add, rm]
}

#[test]
fn a_claude_code_entrys_size_does_not_grow_with_the_folder() {
    let small = claude_bytes_per_change(20);
    for count in [200, 2000] {
        let large = claude_bytes_per_change(count);
        for (i, what) in ["set", "add", "rm"].iter().enumerate() {
            // The note numbers in the changed lines and the unchanged line on either side of
            // them ("note-1000"), kept for undo to find them by, differ by a few bytes.
            assert!(
                large[i] <= small[i] + 64,
                "{what}: {} bytes at {count} topic files, {} at 20",
                large[i],
                small[i]
            );
            assert!(large[i] < 2048, "{what}: {} bytes", large[i]);
        }
    }
}

/// Undo after a change kept as lines gives MEMORY.md back byte for byte, the lines the change
/// did not touch with their credentials (the journal keeps none of them), and `log` names it.
#[test]
fn undo_of_a_change_kept_as_lines_gives_memory_md_back_exactly() {
    use memwb::claude::FileWrite;
    let dir = workspace();
    let folder = claude_folder(dir.path(), 30);
    let key = "ghp_R8fk2LmQ9xVbT3nW7pYc4sZa1dEu6hJo0gKi";
    let index = std::fs::read_to_string(folder.root().join("MEMORY.md")).unwrap();
    let index = format!("{index}\r\nThe deploy token is {key} (no final newline)");
    std::fs::write(folder.root().join("MEMORY.md"), &index).unwrap();
    let edited = index.replace(&index_line(7, ""), &index_line(7, ", edited"));
    let (_, entry) = memwb::formats::claude::journal::journaled(
        &folder,
        vec![FileWrite {
            file: "MEMORY.md".into(),
            base: Some(index.clone()),
            after: Some(edited.clone()),
        }],
        EntryMeta::default(),
    )
    .unwrap();
    let entry = entry.unwrap();
    assert!(entry.files.is_empty(), "{:?}", entry.files);
    assert_eq!(entry.lines.len(), 1);
    assert_eq!(entry.touched_files(), ["MEMORY.md"]);
    let raw = std::fs::read_to_string(
        memwb::formats::claude::journal::journal_of(&folder)
            .unwrap()
            .path(),
    )
    .unwrap();
    assert!(!raw.contains(key), "{raw}");
    assert!(
        !raw.contains("note number 20"),
        "an unchanged line is in the journal: {raw}"
    );

    memwb::formats::claude::journal::undo(&folder, &entry).unwrap();
    assert_eq!(
        std::fs::read_to_string(folder.root().join("MEMORY.md")).unwrap(),
        index
    );
    // Undone twice is refused: the file no longer holds what the entry wrote.
    let again = memwb::formats::claude::journal::undo(&folder, &entry)
        .unwrap_err()
        .to_string();
    assert!(
        again.contains("MEMORY.md line 10 was changed since #1"),
        "{again}"
    );
    // The undo's own entry undoes back to the edit.
    let journal = memwb::formats::claude::journal::journal_of(&folder).unwrap();
    let undo = journal.entry(2).unwrap().unwrap();
    assert_eq!(undo.undoes, Some(1));
    memwb::formats::claude::journal::undo(&folder, &undo).unwrap();
    assert_eq!(
        std::fs::read_to_string(folder.root().join("MEMORY.md")).unwrap(),
        edited
    );
}

/// A copy of `claude-journal-v1`: a Claude Code folder and its journal as memwb wrote them
/// before MEMORY.md's change was kept as lines (every entry holding MEMORY.md whole, before
/// and after): `add ci-cache` (#1), `set review-size --description …` (#2), `rm release-flow`
/// (#3). Returns the temp dir (memory/, state/, home/) and the folder.
fn old_claude_layout() -> (tempfile::TempDir, memwb::claude::ClaudeFolder) {
    let dir = workspace();
    let memory = dir.path().join("memory");
    copy_dir(&fixture("claude-journal-v1/memory"), &memory);
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    let folder = memwb::claude::ClaudeFolder::open(&memory, memwb::claude::LoadLimits::default())
        .unwrap()
        .with_state_root(dir.path().join("state"));
    let journal = memwb::formats::claude::journal::journal_of(&folder)
        .unwrap()
        .path();
    std::fs::copy(fixture("claude-journal-v1/journal.jsonl"), journal).unwrap();
    (dir, folder)
}

fn claude_cli(dir: &Path, args: &[&str]) -> String {
    ok(common::cli::memwb_claude(
        &dir.join("home"),
        &dir.join("memory"),
        &dir.join("state"),
        args,
    ))
}

/// The whole MEMORY.md an old-layout entry kept before (`before`) or after it.
fn old_index(entry: &Value, before: bool) -> String {
    let side = if before { "before" } else { "after" };
    entry["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == "MEMORY.md")
        .and_then(|f| f[side]["text"].as_str())
        .unwrap()
        .to_owned()
}

#[test]
fn an_old_layout_claude_code_journal_still_loads_undoes_and_logs() {
    let (dir, folder) = old_claude_layout();
    let read = |file: &str| std::fs::read_to_string(folder.root().join(file)).ok();
    let old: Vec<Value> =
        serde_json::from_str(&claude_cli(dir.path(), &["log", "--json"])).unwrap();
    assert_eq!(ids(&old), [1, 2, 3]);
    let text = claude_cli(dir.path(), &["log", "--last", "2"]);
    assert!(
        !text.contains("#1") && text.contains("#2") && text.contains("#3"),
        "{text}"
    );

    claude_cli(dir.path(), &["undo", "3"]);
    assert_eq!(read("MEMORY.md").unwrap(), old_index(&old[2], true));
    assert!(
        read("project_release.md")
            .unwrap()
            .contains("Tag, then publish.")
    );
    claude_cli(dir.path(), &["undo", "2"]);
    assert_eq!(read("MEMORY.md").unwrap(), old_index(&old[1], true));
    assert!(
        read("feedback_review_size.md")
            .unwrap()
            .contains("keep reviews small")
    );

    // The entries written now keep MEMORY.md's change as lines; they undo as exactly.
    let now: Vec<Value> =
        serde_json::from_str(&claude_cli(dir.path(), &["log", "--json"])).unwrap();
    assert_eq!(ids(&now), [1, 2, 3, 4, 5]);
    assert_eq!(now[4]["undoes"], 2);
    let index = now[4]["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == "MEMORY.md")
        .expect("MEMORY.md touched");
    assert!(
        index["lines"].as_array().is_some_and(|l| !l.is_empty())
            && index["after"]["text"].is_null()
            && index["after"]["digest"].is_string(),
        "{}",
        now[4]
    );
    // Undoing the new-layout undo re-does #2, and undoing that undoes it again.
    claude_cli(dir.path(), &["undo", "5"]);
    assert_eq!(read("MEMORY.md").unwrap(), old_index(&old[1], false));
    claude_cli(dir.path(), &["undo", "6"]);
    assert_eq!(read("MEMORY.md").unwrap(), old_index(&old[1], true));
    // A plain undo steps back to the newest change not undone: #1.
    let said = claude_cli(dir.path(), &["undo"]);
    assert!(said.starts_with("undid #1 ("), "{said}");
    assert_eq!(read("MEMORY.md").unwrap(), old_index(&old[0], true));
    assert_eq!(read("project_ci_cache.md"), None);
    let text = claude_cli(dir.path(), &["log", "--last", "1"]);
    assert!(text.contains("removed ci-cache  undoes #1"), "{text}");
}
