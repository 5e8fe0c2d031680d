//! Another writer between compare and rename: its write kept, the change put back; parallel
//! approvals.

use super::*;

/// A fault hook that pauses the change right before the rename of `file` and lets
/// `other_writer` write meanwhile (another thread, as another process would), with a
/// handshake: the change goes on only once the other write is done.
struct PauseBeforeRename {
    file: &'static str,
    paused: std::sync::Mutex<Option<mpsc::Sender<()>>>,
    resume: std::sync::Mutex<mpsc::Receiver<()>>,
}

impl memwb::store::FaultHook for PauseBeforeRename {
    fn before(&self, op: memwb::store::IoOp, path: &std::path::Path) -> std::io::Result<()> {
        if op == memwb::store::IoOp::Rename
            && path.file_name().is_some_and(|n| n == self.file)
            && let Some(paused) = self.paused.lock().unwrap().take()
        {
            paused.send(()).expect("the other writer listens");
            self.resume
                .lock()
                .unwrap()
                .recv_timeout(Duration::from_secs(30))
                .expect("the other writer is done");
        }
        Ok(())
    }
}

/// Applies `writes` journaled while, between the compare and the rename of `raced`, another
/// writer truncates and rewrites that file with `theirs` (as Claude Code writes).
fn race(
    fixture: &Fixture,
    raced: &'static str,
    theirs: &'static str,
    writes: Vec<memwb::claude::FileWrite>,
) -> Result<(), memwb::review::ReviewError> {
    let (paused_tx, paused_rx) = mpsc::channel();
    let (resume_tx, resume_rx) = mpsc::channel();
    let hook = std::sync::Arc::new(PauseBeforeRename {
        file: raced,
        paused: std::sync::Mutex::new(Some(paused_tx)),
        resume: std::sync::Mutex::new(resume_rx),
    });
    let path = fixture.memory().join(raced);
    let other = std::thread::spawn(move || {
        paused_rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the change pauses before its rename");
        // A plain write: truncate and write the same file (inode), as Claude Code does.
        fs::write(&path, theirs).expect("the other write");
        resume_tx.send(()).expect("resume");
    });
    let folder = fixture
        .folder()
        .with_hooks(memwb::store::IoHooks::new(hook));
    let outcome = memwb::formats::claude::journal::journaled(
        &folder,
        writes,
        memwb::review::EntryMeta {
            op: Some(memwb::review::Op::Set),
            ..memwb::review::EntryMeta::default()
        },
    );
    other.join().expect("the other writer");
    outcome.map(|_| ())
}

fn assert_raced(error: memwb::review::ReviewError, file: &str, theirs: &str) {
    assert!(error.is_raced(), "{error:?}");
    match error.engine_error::<memwb::claude::ClaudeError>() {
        Some(memwb::claude::ClaudeError::Conflict {
            file: named,
            current,
            raced,
            ..
        }) => {
            assert_eq!(named, file);
            assert_eq!(current.as_deref(), Some(theirs));
            assert!(*raced);
        }
        other => panic!("not a raced conflict: {other:?}"),
    }
    assert!(
        error.to_string().contains("another program wrote it"),
        "{error}"
    );
}

#[test]
fn a_plain_write_into_a_topic_file_between_compare_and_rename_is_kept_and_the_change_put_back() {
    let fixture = fixture();
    let error = race(
        &fixture,
        "alpha.md",
        THEIR_ALPHA,
        vec![
            file_write("alpha.md", Some(ALPHA), Some("mine\n")),
            file_write("MEMORY.md", Some(INDEX), Some(MY_INDEX)),
        ],
    )
    .expect_err("the other write is seen");
    assert_raced(error, "alpha.md", THEIR_ALPHA);
    let tree = fixture.tree();
    assert_eq!(
        tree["alpha.md"],
        THEIR_ALPHA.as_bytes(),
        "their write is kept"
    );
    assert_eq!(tree["MEMORY.md"], INDEX.as_bytes(), "the rest is put back");
    assert_eq!(tree.len(), 2, "{:?}", tree.keys());
    assert_eq!(journal_entries(&fixture), 0, "nothing journaled");
}

#[test]
fn a_plain_write_into_memory_md_between_compare_and_rename_is_kept_and_the_change_put_back() {
    let fixture = fixture();
    let error = race(
        &fixture,
        "MEMORY.md",
        THEIR_INDEX,
        vec![
            file_write("alpha.md", Some(ALPHA), Some("mine\n")),
            file_write("MEMORY.md", Some(INDEX), Some(MY_INDEX)),
        ],
    )
    .expect_err("the other write is seen");
    assert_raced(error, "MEMORY.md", THEIR_INDEX);
    let tree = fixture.tree();
    assert_eq!(
        tree["MEMORY.md"],
        THEIR_INDEX.as_bytes(),
        "their write is kept"
    );
    assert_eq!(tree["alpha.md"], ALPHA.as_bytes(), "the rest is put back");
    assert_eq!(journal_entries(&fixture), 0, "nothing journaled");
}

#[test]
fn a_file_created_between_compare_and_rename_of_a_new_file_is_kept() {
    let fixture = fixture();
    let error = race(
        &fixture,
        "beta.md",
        THEIR_ALPHA,
        vec![
            file_write("beta.md", None, Some("mine\n")),
            file_write("MEMORY.md", Some(INDEX), Some(MY_INDEX)),
        ],
    )
    .expect_err("the other file is seen");
    match error.engine_error::<memwb::claude::ClaudeError>() {
        Some(memwb::claude::ClaudeError::Conflict { file, raced, .. }) => {
            assert_eq!((file.as_str(), *raced), ("beta.md", true))
        }
        other => panic!("not a raced conflict: {other:?}"),
    }
    let tree = fixture.tree();
    assert_eq!(tree["beta.md"], THEIR_ALPHA.as_bytes());
    assert_eq!(tree["MEMORY.md"], INDEX.as_bytes());
    assert_eq!(journal_entries(&fixture), 0);
}

#[test]
fn without_a_race_the_same_change_applies_and_is_journaled_once() {
    let fixture = fixture();
    memwb::formats::claude::journal::journaled(
        &fixture.folder(),
        vec![
            file_write("alpha.md", Some(ALPHA), Some("mine\n")),
            file_write("MEMORY.md", Some(INDEX), Some(MY_INDEX)),
        ],
        memwb::review::EntryMeta::default(),
    )
    .expect("applies");
    assert_eq!(fixture.tree()["alpha.md"], b"mine\n");
    assert_eq!(journal_entries(&fixture), 1);
}

#[test]
fn set_exits_1_keeping_a_plain_write_that_landed_before_its_rename() {
    if !cfg!(feature = "fault-injection") {
        common::skip(
            "MEMWB_STOP_AT exists only with the fault-injection feature (cargo test turns it on)",
        );
        return;
    }
    let fixture = fixture();
    // The state directory exists, so the change's steps are: 0 the journal's intent, 1 the
    // temp file, 2 its fsync, 3 the rename of alpha.md.
    assert_eq!(run(&fixture, &["log"]).status.code(), Some(0));
    #[allow(clippy::zombie_processes)] // reaped by wait_pid
    let child = command(&fixture, &["set", "alpha", "--body", "Mine."])
        .env("MEMWB_STOP_AT", "3")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = rustix::process::Pid::from_raw(child.id() as i32).expect("pid");
    assert!(wait_pid(pid, true).stopped(), "stopped before the rename");
    fs::write(fixture.memory().join("alpha.md"), THEIR_ALPHA).expect("the other write");
    rustix::process::kill_process(pid, rustix::process::Signal::CONT).expect("SIGCONT");
    let status = wait_pid(pid, false);
    assert_eq!(status.exit_status(), Some(1));
    let tree = fixture.tree();
    assert_eq!(
        tree["alpha.md"],
        THEIR_ALPHA.as_bytes(),
        "their write is kept"
    );
    assert_eq!(tree["MEMORY.md"], INDEX.as_bytes());
    assert_eq!(journal_entries(&fixture), 0);
}

#[test]
fn parallel_approvals_of_unrelated_proposals_all_succeed() {
    use memwb::formats::claude::journal::{NewFiles, approve, file_proposal};
    const APPROVERS: usize = 6;
    let fixture = fixture();
    let folder = fixture.folder();
    let ids: Vec<String> = (0..APPROVERS)
        .map(|i| {
            let text = format!(
                "---\nname: topic-{i}\ndescription: topic number {i}\ntype: user\n---\nBody {i}.\n"
            );
            file_proposal(
                &folder,
                NewFiles {
                    kind: memwb::review::Kind::Extraction,
                    files: vec![memwb::claude::FileImage {
                        file: format!("topic_{i}.md"),
                        before: None,
                        after: Some(text),
                    }],
                    origin: memwb::review::Origin::new("test"),
                    evidence: None,
                },
            )
            .expect("filed")
            .id
        })
        .collect();
    // Another memwb holds the lock until every approver waits for it (each says so through
    // its wait notice): whatever an approver reads before taking the lock, it has read by then.
    let holder = ClaudeState::for_folder(&folder).expect("state");
    let held = holder.lock().expect("lock");
    let (waiting_tx, waiting_rx) = mpsc::channel::<()>();
    let approvers: Vec<_> = ids
        .iter()
        .cloned()
        .map(|id| {
            let waiting = waiting_tx.clone();
            let folder = folder
                .clone()
                .with_lock_wait(memwb::claude::LockWaitPolicy {
                    timeout: Duration::from_secs(60),
                    notice: Some(std::sync::Arc::new(move |_| {
                        let _ = waiting.send(());
                    })),
                });
            std::thread::spawn(move || approve(&folder, &id).map(|_| ()).map_err(|e| e.to_string()))
        })
        .collect();
    for _ in 0..APPROVERS {
        waiting_rx
            .recv_timeout(Duration::from_secs(30))
            .expect("every approver waits for the lock");
    }
    drop(held);
    let outcomes: Vec<Result<(), String>> = approvers
        .into_iter()
        .map(|t| t.join().expect("approver"))
        .collect();
    assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    let index = String::from_utf8(fixture.tree()["MEMORY.md"].clone()).expect("utf-8");
    for i in 0..APPROVERS {
        assert!(
            fixture.tree().contains_key(&format!("topic_{i}.md")),
            "topic_{i}.md"
        );
        assert_eq!(
            index.matches(&format!("(topic_{i}.md)")).count(),
            1,
            "{index}"
        );
    }
    assert_eq!(journal_entries(&fixture), APPROVERS);
}

#[test]
fn the_same_change_observed_again_after_an_undo_is_journaled_and_undoes() {
    use memwb::formats::claude::journal::{journal_of, journaled, observed, record, undo};
    let fixture = fixture();
    let folder = fixture.folder();
    let theirs_index = INDEX.replace("the first", "the first, edited");
    let (_, first) = journaled(
        &folder,
        vec![file_write("MEMORY.md", Some(INDEX), Some(&theirs_index))],
        memwb::review::EntryMeta::default(),
    )
    .expect("first change");
    let first = first.expect("journaled");
    undo(&folder, &first).expect("undo");
    // Claude Code makes the same edit again; the hook (or watch --record) observes it.
    let before = observed::texts(&folder);
    fs::write(fixture.memory().join("MEMORY.md"), &theirs_index).expect("their write");
    let seen = observed::images(&before, &observed::texts(&folder));
    assert_eq!(seen.len(), 1);
    let recent: Vec<_> = journal_of(&folder)
        .expect("journal")
        .last_entries(16)
        .expect("entries")
        .into_iter()
        .rev()
        .collect();
    let new = observed::not_journaled(seen.clone(), &recent);
    assert_eq!(new, seen, "a new change, though it equals entry #1");
    let recorded = record(&folder, new, memwb::review::EntryMeta::default()).expect("recorded");
    // Observed a second time (the hook and the watcher both saw it): journaled once.
    let recent: Vec<_> = journal_of(&folder)
        .expect("journal")
        .last_entries(16)
        .expect("entries");
    assert!(observed::not_journaled(seen, &recent).is_empty());
    assert_eq!(journal_entries(&fixture), 3);
    undo(&folder, &recorded).expect("the recorded change undoes");
    assert_eq!(fixture.tree()["MEMORY.md"], INDEX.as_bytes());
}
