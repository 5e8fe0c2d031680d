//! The watcher's unit tests: how events are classified, and what a reload reads.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use notify::event::{CreateKind, Flag, ModifyKind, RenameMode};
use notify::{Event, EventKind};

use super::{Paths, Poke, WatchEvent, WatchOptions, Worker, classify};
use crate::store::{MemoryType, Record, Store, StoreOptions};

fn classified(event: Event) -> Vec<Poke> {
    let root = PathBuf::from("/ws/.memory");
    let paths = Paths {
        root: &root,
        manifest: &root.join("manifest.json"),
        review_dir: &root.join(".memwb"),
        barrier_dir: Some(Path::new("/tmp/memwb-watch-x")),
    };
    classify(&event, &paths)
}

#[test]
fn a_lost_event_calls_for_a_full_reload() {
    // What notify sends when the kernel's event queue overflowed: no path at all.
    let overflow = Event::new(EventKind::Other).set_flag(Flag::Rescan);
    assert_eq!(classified(overflow), [Poke::Rescan]);
}

#[test]
fn each_file_of_an_event_is_named() {
    let rename = Event::new(EventKind::Modify(ModifyKind::Name(RenameMode::Both)))
        .add_path("/ws/.memory/a-1.md".into())
        .add_path("/ws/.memory/manifest.json".into());
    assert_eq!(
        classified(rename),
        [Poke::Other("a-1.md".into()), Poke::Manifest]
    );
    let elsewhere = Event::new(EventKind::Create(CreateKind::File)).add_path("/ws/notes.md".into());
    assert!(classified(elsewhere).is_empty());
    let barrier =
        Event::new(EventKind::Create(CreateKind::File)).add_path("/tmp/memwb-watch-x/7".into());
    assert_eq!(classified(barrier), [Poke::Barrier(7)]);
}

/// A change whose events were all lost (the worker's notifier watches nothing here) is
/// found by the reload an overflow calls for: a record edited in place so that it no
/// longer reads, which no manifest change names.
#[test]
fn an_overflow_reloads_every_record() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    let record = Record::new("one", MemoryType::Project, "a fact", "body").expect("valid");
    store.extend(vec![record]).expect("seed");
    let baseline = Arc::new(store.inspect());
    let notifier = notify::recommended_watcher(|_: notify::Result<Event>| {}).expect("notify");
    let options = WatchOptions {
        refresh_on_touch: None,
    };
    // No barrier: every reload reads every file, as it does when it cannot know what is late.
    let worker = Worker::new(
        store.clone(),
        notifier,
        options,
        baseline.clone(),
        Box::new(|| None),
    );
    std::fs::write(store.root().join(&baseline.entries[0].file), "not a record").expect("break");
    let (pokes, rx) = mpsc::channel();
    let (events, seen) = mpsc::channel();
    let running = std::thread::spawn(move || {
        worker.run(rx, move |event| {
            let _ = events.send(event);
        })
    });
    pokes.send(Poke::Rescan).expect("poke");
    let event = seen
        .recv_timeout(Duration::from_secs(10))
        .expect("an event");
    pokes.send(Poke::Stop).expect("stop");
    running.join().expect("worker");
    match event {
        WatchEvent::Committed(change) => {
            assert!(change.unreadable.is_some(), "{change:?}");
            assert_eq!(*change.inspection, store.inspect());
        }
        other => panic!("{other:?}"),
    }
}

/// The flaky burst test's race, driven through the barrier seam: a record edited in place, then
/// a commit, both on disk when the commit's event starts a reload, while the edit's event is
/// still on its way (it arrives after the reading, before the barrier). The reload must not
/// report the new manifest with the record's old text.
#[test]
fn a_reload_reads_again_what_an_event_still_on_its_way_names() {
    let dir = tempfile::tempdir().expect("dir");
    let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
    let record = |name: &str| Record::new(name, MemoryType::Project, "a fact", "body");
    store
        .extend(vec![
            record("one").expect("valid"),
            record("two").expect("valid"),
        ])
        .expect("seed");
    let baseline = Arc::new(store.inspect());
    let file = baseline.entries[0].file.clone();
    let path = store.root().join(&file);
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(&path, text.replace("body", "edited in place")).expect("edit");
    store
        .extend(vec![record("three").expect("valid")])
        .expect("commit");

    let (pokes, rx) = mpsc::channel();
    let late = pokes.clone();
    let mut raised = 0;
    let raise = Box::new(move || {
        raised += 1;
        if raised == 1 {
            let _ = late.send(Poke::Other(file.clone()));
        }
        let _ = late.send(Poke::Barrier(raised));
        Some(raised)
    });
    let notifier = notify::recommended_watcher(|_: notify::Result<Event>| {}).expect("notify");
    let options = WatchOptions {
        refresh_on_touch: None,
    };
    let worker = Worker::new(store.clone(), notifier, options, baseline, raise);
    let (events, seen) = mpsc::channel();
    let running = std::thread::spawn(move || {
        worker.run(rx, move |event| {
            let _ = events.send(event);
        })
    });
    pokes.send(Poke::Manifest).expect("poke");
    let event = seen
        .recv_timeout(Duration::from_secs(10))
        .expect("an event");
    pokes.send(Poke::Stop).expect("stop");
    running.join().expect("worker");
    let WatchEvent::Committed(change) = event else {
        panic!("{event:?}");
    };
    assert_eq!(change.commit.added, ["three"]);
    let one = change
        .inspection
        .valid_records()
        .find(|r| r.name() == "one");
    assert_eq!(one.map(Record::body), Some("edited in place"));
    assert_eq!(*change.inspection, store.inspect());
}
