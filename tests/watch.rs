//! The watcher shared by the workbench and `memwb watch`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use memwb::store::{MemoryType, Record, Store, StoreOptions};
use memwb::watch::{WatchEvent, WatchOptions, Watcher};

const WAIT: Duration = Duration::from_secs(10);

fn record(name: &str) -> Record {
    Record::new(name, MemoryType::Project, format!("about {name}"), "body").expect("valid")
}

fn start(store: &Store, options: WatchOptions) -> (Watcher, mpsc::Receiver<WatchEvent>) {
    let (tx, rx) = mpsc::channel();
    let (watcher, _) = Watcher::start(store.clone(), options, move |e| {
        let _ = tx.send(e);
    })
    .expect("watch");
    (watcher, rx)
}

fn next_commit(rx: &mpsc::Receiver<WatchEvent>) -> memwb::watch::Change {
    loop {
        match rx.recv_timeout(WAIT).expect("a commit is reported") {
            WatchEvent::Committed(change) => return change,
            WatchEvent::Refreshed(_) | WatchEvent::Review => {}
            WatchEvent::Error(e) => panic!("watch error: {e}"),
        }
    }
}

/// Waits for a `Review` event, skipping commits and refreshes.
fn next_review(rx: &mpsc::Receiver<WatchEvent>) {
    loop {
        match rx.recv_timeout(WAIT).expect("a review change is reported") {
            WatchEvent::Review => return,
            WatchEvent::Committed(_) | WatchEvent::Refreshed(_) => {}
            WatchEvent::Error(e) => panic!("watch error: {e}"),
        }
    }
}

fn headless() -> WatchOptions {
    WatchOptions {
        refresh_on_touch: None,
    }
}

#[test]
fn reports_each_commit_by_name_and_nothing_at_start() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store
        .extend(vec![record("alpha"), record("beta")])
        .expect("seed");
    let (_watcher, rx) = start(&store, headless());
    assert!(
        rx.recv_timeout(Duration::from_millis(300)).is_err(),
        "nothing at start"
    );

    let writer = Store::open(dir.path(), StoreOptions::default()).expect("open");
    writer.extend(vec![record("gamma")]).expect("add");
    let change = next_commit(&rx);
    assert_eq!(change.commit.added, ["gamma"]);
    assert!(change.commit.removed.is_empty() && change.commit.changed.is_empty());
    // Read incrementally, shown as a fresh inspection reads it.
    assert_fresh(&change, &store);

    let alpha = writer
        .read()
        .expect("read")
        .get("alpha")
        .expect("alpha")
        .record
        .clone();
    let edited = Record::new("alpha", MemoryType::User, "changed", "new body").expect("valid");
    writer.replace(&alpha, edited).expect("replace");
    let change = next_commit(&rx);
    assert_eq!(change.commit.changed, ["alpha"]);
    assert_fresh(&change, &store);

    let beta = writer
        .read()
        .expect("read")
        .get("beta")
        .expect("beta")
        .record
        .clone();
    writer.remove(&[beta]).expect("remove");
    let change = next_commit(&rx);
    assert_eq!(change.commit.removed, ["beta"]);
    assert_eq!(change.inspection.entries.len(), 2);
    assert_fresh(&change, &store);

    // a rebuild of MEMORY.md is not a commit
    writer.rebuild_index().expect("rebuild");
    assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
}

#[test]
fn follows_a_memory_folder_created_after_the_start() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    let (_watcher, rx) = start(&store, headless());
    store.extend(vec![record("first")]).expect("add");
    assert_eq!(next_commit(&rx).commit.added, ["first"]);
    store.extend(vec![record("second")]).expect("add");
    assert_eq!(next_commit(&rx).commit.added, ["second"]);
}

#[test]
fn a_burst_is_coalesced_without_losing_a_name() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store.extend(vec![record("seed")]).expect("seed");
    let (_watcher, rx) = start(&store, headless());
    let names: Vec<String> = (0..30).map(|i| format!("burst-{i}")).collect();
    for name in &names {
        store.extend(vec![record(name)]).expect("add");
    }
    let mut seen = Vec::new();
    let mut reports = 0;
    while seen.len() < names.len() {
        let change = next_commit(&rx);
        reports += 1;
        seen.extend(change.commit.added.iter().cloned());
    }
    seen.sort();
    let mut expected = names.clone();
    expected.sort();
    assert_eq!(seen, expected);
    assert!(reports <= names.len());
}

#[test]
fn touches_that_are_not_commits_refresh_when_asked() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store.extend(vec![record("one")]).expect("seed");
    let options = WatchOptions {
        refresh_on_touch: Some(Duration::from_millis(20)),
    };
    let (_watcher, rx) = start(&store, options);
    std::fs::write(store.root().join("MEMORY.md"), "drift\n").expect("drift");
    match rx.recv_timeout(WAIT).expect("refresh") {
        WatchEvent::Refreshed(change) => {
            assert!(change.commit.is_empty());
            assert_eq!(change.inspection.index.on_disk.as_deref(), Some("drift\n"));
        }
        other => panic!("{other:?}"),
    }
}

/// The readiness line `memwb watch` prints on stderr once the watch is set up (or whatever
/// it said before it exited, or gave up after [`WAIT`]).
fn watching_line(child: &mut std::process::Child) -> String {
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stderr).lines();
        let first = lines.next().and_then(Result::ok).unwrap_or_default();
        let _ = tx.send(first);
        // Keep draining, so that later warnings never block the child on a full pipe.
        for _ in lines {}
    });
    rx.recv_timeout(WAIT)
        .expect("memwb watch says it is watching")
}

#[test]
fn watch_command_prints_one_json_line_per_commit() {
    let dir = tempfile::tempdir().expect("dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .args(["-C"])
        .arg(dir.path())
        .args(["watch", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let ready = watching_line(&mut child);
    assert!(ready.starts_with("watching "), "{ready}");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Nothing at start: the first line must be the commit's (checked below).
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store
        .extend(vec![record("alpha"), record("beta")])
        .expect("add");
    let line = rx.recv_timeout(WAIT).expect("a line");
    let value: serde_json::Value = serde_json::from_str(&line).expect("json");
    assert!(value["at"].as_i64().expect("at") > 1_600_000_000_000);
    assert_eq!(value["added"], serde_json::json!(["alpha", "beta"]));
    assert_eq!(value["removed"], serde_json::json!([]));
    assert_eq!(value["changed"], serde_json::json!([]));
    let keys: Vec<&String> = value.as_object().expect("object").keys().collect();
    assert_eq!(keys.len(), 4);

    let alpha = store
        .read()
        .expect("read")
        .get("alpha")
        .expect("alpha")
        .record
        .clone();
    store.remove(&[alpha]).expect("remove");
    let line = rx.recv_timeout(WAIT).expect("a line");
    let value: serde_json::Value = serde_json::from_str(&line).expect("json");
    assert_eq!(value["removed"], serde_json::json!(["alpha"]));
    let _ = child.kill();
    let _ = child.wait();
}

/// `.memory/.memwb` does not exist at start: filing the first proposal creates it and its
/// `proposals` folder, and is reported; so are a later proposal and a decision (journal).
#[test]
fn proposals_and_journal_entries_are_reported_once_their_folders_appear() {
    use memwb::formats::memory::journal::{NewProposal, file as file_proposal};
    use memwb::review::Origin;
    use memwb::session::Plan;
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store.extend(vec![record("one")]).expect("seed");
    assert!(!store.root().join(".memwb").exists());
    let (_watcher, rx) = start(&store, headless());
    let file = |name: &str| {
        file_proposal(
            &store,
            NewProposal {
                plan: Plan::Extraction(vec![record(name)]),
                origin: Origin::new("import"),
                seen: store.read().expect("read"),
                additions: Vec::new(),
                evidence: None,
            },
        )
        .expect("file")
    };
    let first = file("two");
    next_review(&rx);
    while rx.recv_timeout(Duration::from_millis(200)).is_ok() {}
    file("three");
    next_review(&rx);
    while rx.recv_timeout(Duration::from_millis(200)).is_ok() {}
    memwb::formats::memory::journal::reject(&store, &first.id, Some("no".into())).expect("reject");
    next_review(&rx);
}

/// Replaces `path` as a commit does (a temp file renamed over it), so the watcher sees it.
fn replace(path: &std::path::Path, bytes: &[u8]) {
    let temp = path.with_extension("swap");
    std::fs::write(&temp, bytes).expect("write");
    std::fs::rename(&temp, path).expect("rename");
}

#[test]
fn an_unreadable_manifest_is_one_error_and_then_only_what_really_changed() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store
        .extend(vec![record("alpha"), record("beta")])
        .expect("seed");
    let manifest = store.manifest_path();
    let files = store.read().expect("read").files();
    let (_watcher, rx) = start(&store, headless());

    replace(&manifest, b"{ not json");
    let change = next_commit(&rx);
    let error = change.unreadable.clone().expect("reported as unreadable");
    assert!(error.contains("manifest.json"), "{error}");
    assert!(change.commit.is_empty(), "no record reported removed");

    // Fixed by hand, without beta: only beta's removal is reported.
    let only_alpha = format!("{{\"version\":1,\"files\":[\"{}\"]}}", files[0]);
    replace(&manifest, only_alpha.as_bytes());
    let change = next_commit(&rx);
    assert_eq!(change.unreadable, None);
    assert_eq!(change.commit.added, Vec::<String>::new());
    assert_eq!(change.commit.removed, ["beta"]);

    replace(&manifest, b"[]");
    assert!(next_commit(&rx).unreadable.is_some());
    replace(&manifest, only_alpha.as_bytes());
    let change = next_commit(&rx);
    assert!(
        change.unreadable.is_none() && change.commit.is_empty(),
        "readable again, nothing changed: {:?}",
        change.commit
    );
}

#[test]
fn a_record_that_stops_reading_is_reported() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store
        .extend(vec![record("alpha"), record("beta")])
        .expect("seed");
    let file = store.read().expect("read").entries[1].file.clone();
    let (_watcher, rx) = start(&store, WatchOptions::default());
    // Edited in place: not a manifest event, noticed by the quiet-period refresh.
    std::fs::write(store.root().join(&file), "not a record").expect("write");
    let change = next_commit(&rx);
    let error = change.unreadable.expect("reported");
    assert!(error.contains(&file), "{error}");
    assert!(change.commit.is_empty());
}

#[test]
fn watch_command_reports_an_unreadable_set_as_an_error_line() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store.extend(vec![record("alpha")]).expect("seed");
    std::fs::write(store.manifest_path(), "{ not json").expect("break");
    for json in [true, false] {
        let mut args = vec!["watch"];
        if json {
            args.push("--json");
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_memwb"))
            .arg("-C")
            .arg(dir.path())
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            if let Some(Ok(line)) = BufReader::new(stdout).lines().next() {
                let _ = tx.send(line);
            }
        });
        let line = rx.recv_timeout(WAIT).expect("a line at start");
        let _ = child.kill();
        let _ = child.wait();
        if json {
            let value: serde_json::Value = serde_json::from_str(&line).expect("json");
            let keys: Vec<&String> = value.as_object().expect("object").keys().collect();
            assert_eq!(keys, ["at", "error"], "{line}");
            assert!(
                value["error"].as_str().unwrap().contains("manifest.json"),
                "{line}"
            );
        } else {
            assert!(line.contains(" set unreadable: manifest.json"), "{line}");
        }
    }
}

/// What a reload may get wrong, as a fresh inspection of `store` reads it now (the lock, temp
/// files and the file a commit replaced are left out: a writer makes them come and go after
/// its commit point, between the two readings).
fn as_read(inspection: &memwb::store::Inspection) -> impl PartialEq + std::fmt::Debug + '_ {
    (&inspection.manifest, &inspection.entries, &inspection.index)
}

fn assert_fresh(change: &memwb::watch::Change, store: &Store) {
    let fresh = store.inspect();
    assert_eq!(as_read(&change.inspection), as_read(&fresh));
}

/// A reload reads only what changed (issue 27); a record edited in place, which no commit
/// names, is read again too (commits: `reports_each_commit_by_name_and_nothing_at_start`).
#[test]
fn a_record_edited_in_place_is_read_again() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store
        .extend(vec![record("alpha"), record("beta")])
        .expect("seed");
    let options = WatchOptions {
        refresh_on_touch: Some(Duration::from_millis(20)),
    };
    let (_watcher, rx) = start(&store, options);
    let writer = Store::open(dir.path(), StoreOptions::default()).expect("open");

    writer.extend(vec![record("gamma")]).expect("add");
    assert_fresh(&next_commit(&rx), &store);

    // A record file edited in place by hand (no commit names it) is read again.
    let file = writer
        .read()
        .expect("read")
        .get("gamma")
        .expect("gamma")
        .file
        .clone();
    let path = store.root().join(&file);
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(&path, text.replace("body", "edited by hand")).expect("edit");
    // Refreshes for the writer's lock may come first: wait for the one that shows the edit.
    let edited = |change: &memwb::watch::Change| {
        change
            .inspection
            .valid_records()
            .any(|r| r.name() == "gamma" && r.body() == "edited by hand")
    };
    let shown = loop {
        let event = rx
            .recv_timeout(WAIT)
            .expect("a refresh that shows the edit");
        if let WatchEvent::Refreshed(change) | WatchEvent::Committed(change) = event
            && edited(&change)
        {
            break change;
        }
    };
    assert_fresh(&shown, &store);
}

/// A burst of outside changes (commits, a record edited in place, a record file replaced by
/// another, a stray file) ends in the state a fresh inspection reads.
#[test]
fn a_burst_of_outside_changes_ends_as_a_fresh_inspection() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    store
        .extend((0..20).map(|i| record(&format!("seed-{i}"))).collect())
        .expect("seed");
    let (_watcher, rx) = start(&store, headless());
    let writer = Store::open(dir.path(), StoreOptions::default()).expect("open");
    let set = writer.read().expect("read");
    for i in 0..10 {
        writer
            .extend(vec![record(&format!("burst-{i}"))])
            .expect("add");
    }
    writer
        .remove(&[set.entries[6].record.clone()])
        .expect("remove");
    let path = |i: usize| store.root().join(&set.entries[i].file);
    let text = std::fs::read_to_string(path(3)).expect("read");
    std::fs::write(path(3), text.replace("body", "in place")).expect("edit");
    std::fs::write(path(4), "not a record any more").expect("break");
    replace(&path(5), text.replace("seed-3", "seed-5").as_bytes());
    std::fs::write(store.root().join("stray-note.md"), "hello").expect("stray");
    // The last change, a manifest written by hand (the strict writer refuses the set now): once
    // it is reported, every change before it was seen.
    std::fs::write(
        store.root().join("marker-1.md"),
        record("marker").to_file_text(),
    )
    .expect("marker");
    let mut files: Vec<String> = store
        .inspect()
        .entries
        .into_iter()
        .map(|e| e.file)
        .collect();
    files.push("marker-1.md".into());
    let manifest = memwb::store::manifest::render(&files);
    replace(&store.manifest_path(), manifest.as_bytes());
    let last = loop {
        let change = next_commit(&rx);
        if change
            .inspection
            .valid_records()
            .any(|r| r.name() == "marker")
        {
            break change;
        }
    };
    assert_fresh(&last, &store);
    assert!(!last.inspection.is_readable(), "the broken record is seen");
    assert_eq!(last.inspection.unlisted, ["stray-note.md"]);
}

/// The same on a Claude Code folder: its watcher reads again only the files it saw change,
/// and a burst of writes, an edit, a removal and a folder renamed end as a fresh reading.
#[test]
fn a_burst_on_a_claude_folder_ends_as_a_fresh_reading() {
    use memwb::claude::{ClaudeFolder, LoadLimits};
    use memwb::claude_watch::{ClaudeEvent, ClaudeWatcher};
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path().join("memory");
    std::fs::create_dir_all(root.join("notes")).expect("mkdir");
    let topic = |name: &str, body: &str| {
        format!("---\nname: {name}\ndescription: about {name}\ntype: project\n---\n{body}\n")
    };
    for i in 0..20 {
        std::fs::write(root.join(format!("topic-{i}.md")), topic("t", "body")).expect("seed");
    }
    std::fs::write(root.join("notes/inner.md"), topic("inner", "body")).expect("seed");
    std::fs::write(root.join("MEMORY.md"), "- [t](topic-0.md) — first\n").expect("index");
    let folder = ClaudeFolder::open(&root, LoadLimits::default()).expect("open");
    let state = tempfile::tempdir().expect("state");
    let folder = folder.with_state_root(state.path().to_owned());
    let (tx, rx) = mpsc::channel();
    let (_watcher, _) = ClaudeWatcher::start(folder.clone(), move |event| {
        let _ = tx.send(event);
    })
    .expect("watch");
    for i in 0..5 {
        std::fs::write(root.join(format!("new-{i}.md")), topic("n", "new")).expect("add");
    }
    std::fs::write(root.join("topic-1.md"), topic("t", "edited")).expect("edit");
    std::fs::remove_file(root.join("topic-2.md")).expect("remove");
    std::fs::rename(root.join("notes"), root.join("moved")).expect("rename a folder");
    std::fs::create_dir(root.join("notes")).expect("mkdir");
    std::fs::write(root.join("notes/inner.md"), topic("inner", "replaced")).expect("write");
    std::fs::write(root.join("MEMORY.md"), "- [t](topic-1.md) — edited\n").expect("index");
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(ClaudeEvent::Changed(change)) if *change.snapshot == folder.read() => break,
            Ok(ClaudeEvent::Error(e)) => panic!("watch error: {e}"),
            Ok(_) => {}
            Err(_) => panic!("no reading of the watcher came to what a fresh reading shows"),
        }
    }
}
