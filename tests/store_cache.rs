//! The engine's record cache (src/store/cache.rs) must not change what a read sees or refuses.
//! Each test first lets the record files age past the cache's settle time, so that the reads
//! under test are the ones the cache may answer (the unit tests in cache.rs check that it does).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::*;
use memwb::store::{EntryState, Store, StoreError, StoreOptions, codec};

/// The settle time of these tests' stores: far beyond any timestamp tick of the file systems
/// tests run on (so an edit after it always changes the key), far below the default 3 s.
const SETTLE: Duration = Duration::from_millis(100);

/// A store on `dir` whose cache uses [`SETTLE`]. Every handle of a test uses it, so that they
/// share one cache, as handles with the default options do.
fn open(dir: &Path) -> Store {
    open_with(
        dir,
        StoreOptions {
            record_cache_settle: SETTLE,
            ..StoreOptions::default()
        },
    )
}

fn settle() {
    // Ages the record files on purpose: past the settle time, the cache may answer for them.
    std::thread::sleep(SETTLE + Duration::from_millis(50));
}

/// A store with three records, aged past the settle time and read twice (so that it is
/// cached); returns the path of the middle record's file.
fn cached_store(dir: &Path) -> (Store, PathBuf) {
    let store = open(dir);
    let commit = store
        .extend(vec![
            record("alpha", "first fact", "Alpha body."),
            record("beta", "second fact", "Beta body."),
            record("gamma", "third fact", "Gamma body."),
        ])
        .expect("extend");
    settle();
    for _ in 0..2 {
        assert_eq!(store.read().expect("read").len(), 3);
    }
    let file = store.root().join(&commit.set.entries[1].file);
    (store, file)
}

/// Rewrites `path` in place (same inode, same name) with `text`.
fn edit_in_place(path: &Path, text: &str) {
    use std::io::{Seek, Write};
    let mut file = fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("open for edit");
    file.rewind().expect("rewind");
    file.write_all(text.as_bytes()).expect("write");
    file.set_len(text.len() as u64).expect("truncate");
}

#[test]
fn a_hand_edit_in_place_is_read_and_validated_again() {
    let dir = workspace();
    let (store, path) = cached_store(dir.path());
    let text = fs::read_to_string(&path).expect("read");
    let ino = || std::os::unix::fs::MetadataExt::ino(&fs::metadata(&path).expect("stat"));
    let before = ino();
    let file_name = path
        .file_name()
        .and_then(|n| n.to_str())
        .expect("name")
        .to_owned();
    // The audit shares the cache with reads.
    let beta_state = |store: &Store| {
        let report = store.inspect();
        let entry = report.entries.iter().find(|e| e.file == file_name);
        entry.expect("listed").state.clone()
    };

    // Same size, same name, now invalid: refused exactly as the parser refuses those bytes, by
    // the audit and by every read.
    let invalid = text.replace("name: beta", "name: BETA");
    assert_eq!(invalid.len(), text.len());
    edit_in_place(&path, &invalid);
    assert_eq!(ino(), before, "edited in place");
    let expected = codec::parse(invalid.as_bytes()).expect_err("invalid");
    match beta_state(&store) {
        EntryState::Invalid { error, raw } => {
            assert_eq!(error, expected);
            assert_eq!(raw, invalid);
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
    for _ in 0..2 {
        match store.read() {
            Err(StoreError::RecordInvalid { path: p, error }) => {
                assert_eq!(p, path);
                assert_eq!(error, expected);
            }
            other => panic!("expected RecordInvalid, got {other:?}"),
        }
    }

    // Same size, valid, new content: the new body is what every handle reads.
    let edited = text.replace("Beta body.", "BETA BODY.");
    assert_eq!(edited.len(), text.len());
    edit_in_place(&path, &edited);
    assert_eq!(ino(), before, "edited in place");
    for handle in [&store, &open(dir.path())] {
        let set = handle.read().expect("read");
        assert_eq!(set.get("beta").expect("beta").record.body(), "BETA BODY.");
    }
    assert!(matches!(beta_state(&store), EntryState::Valid(r) if r.body() == "BETA BODY."));

    edit_in_place(&path, &text);
    let set = store.read().expect("fixed");
    assert_eq!(set.get("beta").expect("beta").record.body(), "Beta body.");
}

#[test]
fn a_file_replaced_by_rename_is_read_again() {
    let dir = workspace();
    let (store, path) = cached_store(dir.path());
    let text = fs::read_to_string(&path).expect("read");
    let replaced = text.replace("second fact", "SECOND FACT");
    let temp = store.root().join("replacement.tmp");
    fs::write(&temp, &replaced).expect("write");
    fs::rename(&temp, &path).expect("rename");
    let set = store.read().expect("read");
    assert_eq!(
        set.get("beta").expect("beta").record.description(),
        "SECOND FACT"
    );
}

#[test]
fn a_file_replaced_by_a_link_is_refused() {
    let dir = workspace();
    let (store, path) = cached_store(dir.path());
    // The link leads outside `.memory`, to a copy with the very same bytes.
    let outside = dir.path().join("outside.md");
    fs::copy(&path, &outside).expect("copy");
    fs::remove_file(&path).expect("remove");
    std::os::unix::fs::symlink(&outside, &path).expect("symlink");
    for handle in [&store, &open(dir.path())] {
        match handle.read() {
            Err(StoreError::RecordEscapes { path: p }) => assert_eq!(p, path),
            other => panic!("expected RecordEscapes, got {other:?}"),
        }
    }
    let report = store.inspect();
    let states: Vec<&EntryState> = report.entries.iter().map(|e| &e.state).collect();
    assert!(
        matches!(
            states[..],
            [
                EntryState::Valid(_),
                EntryState::Escapes,
                EntryState::Valid(_)
            ]
        ),
        "{states:?}"
    );
}

#[test]
fn a_listed_file_that_vanished_is_missing() {
    let dir = workspace();
    let (store, path) = cached_store(dir.path());
    fs::remove_file(&path).expect("remove");
    match store.read() {
        Err(StoreError::RecordMissing { path: p }) => assert_eq!(p, path),
        other => panic!("expected RecordMissing, got {other:?}"),
    }
}

#[test]
fn handles_and_processes_see_each_others_commits() {
    let dir = workspace();
    let (a, _) = cached_store(dir.path());
    let b = open(dir.path());

    b.extend(vec![record("delta", "fourth fact", "Delta body.")])
        .expect("extend by b");
    assert_eq!(names(&a), ["alpha", "beta", "gamma", "delta"]);

    let beta = a
        .read()
        .expect("read")
        .get("beta")
        .expect("beta")
        .record
        .clone();
    b.replace(&beta, record("beta", "second fact", "Beta, edited by b."))
        .expect("replace by b");
    let set = a.read().expect("read");
    assert_eq!(
        set.get("beta").expect("beta").record.body(),
        "Beta, edited by b."
    );

    // Another process (its own cache, if any) commits; both handles see it.
    let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .arg("-C")
        .arg(dir.path())
        .args(["rm", "gamma"])
        .output()
        .expect("run memwb");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for handle in [&a, &b] {
        // The edit kept beta's place.
        assert_eq!(names(handle), ["alpha", "beta", "delta"]);
    }

    // Handles in threads, each adding its own records at the same time.
    std::thread::scope(|scope| {
        for t in 0..4 {
            let dir = dir.path();
            scope.spawn(move || {
                let handle = open(dir);
                for i in 0..3 {
                    let name = format!("thread-{t}-{i}");
                    handle
                        .extend(vec![record(&name, "a fact", "A body.")])
                        .expect("concurrent extend");
                    assert!(names(&handle).contains(&name));
                }
            });
        }
    });
    for handle in [&a, &b] {
        let all = names(handle);
        assert_eq!(all.len(), 3 + 12, "{all:?}");
    }
}
