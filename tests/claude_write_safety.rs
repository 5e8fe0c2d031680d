//! What a race, a signal, a held lock or hostile names do to a change to a Claude Code folder
//! (issue 20): nothing another writer wrote is lost, waits are bounded, state is never written
//! through a link, one-line fields stay on one line. Every command runs with HOME and
//! MEMWB_STATE_DIR in temporary directories.

use crate::common;

use std::fs;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use memwb::claude::ClaudeState;

const INDEX: &str = "# Memory index\n\n- [alpha](alpha.md) — the first\n";
const ALPHA: &str = "---\nname: alpha\ndescription: the first\ntype: user\n---\nAlpha body.\n";

/// A Claude Code folder (`home/memory`: MEMORY.md and one topic file) and a state root.
type Fixture = common::claude::ClaudeDir;

fn fixture() -> Fixture {
    Fixture::with(&[("MEMORY.md", INDEX), ("alpha.md", ALPHA)])
}

/// `memwb --memory-dir <memory> ARGS`, nothing inherited but PATH, its output captured.
fn command(fixture: &Fixture, args: &[&str]) -> Command {
    let mut command = fixture.command();
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn run(fixture: &Fixture, args: &[&str]) -> Output {
    command(fixture, args).output().expect("memwb runs")
}

/// Runs `command` to its end, or kills it after `deadline` and fails the test.
fn output_within(mut command: Command, deadline: Duration, what: &str) -> Output {
    let child = command.spawn().expect("spawn memwb");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(deadline) {
        Ok(out) => out.expect("memwb runs"),
        Err(_) => {
            if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
            panic!("{what}: still running after {deadline:?}");
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const ADD_BETA: [&str; 9] = [
    "add",
    "--name",
    "beta",
    "--type",
    "user",
    "--description",
    "the second",
    "--body",
    "Beta.",
];

// ---- item 21: the state lock honours --lock-timeout ---------------------------------------

#[test]
fn a_held_state_lock_makes_a_change_give_up_at_its_lock_timeout_and_write_nothing() {
    let fixture = fixture();
    let state = ClaudeState::for_folder(&fixture.folder()).expect("state");
    let held = state.lock().expect("lock");
    let before = fixture.tree();
    let mut args = vec!["--lock-timeout", "1"];
    args.extend(ADD_BETA);
    let out = output_within(
        command(&fixture, &args),
        Duration::from_secs(30),
        "add with the state lock held",
    );
    drop(held);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("locked by another memwb process"), "{err}");
    assert!(err.contains("gave up after"), "{err}");
    assert_eq!(fixture.tree(), before, "nothing written");
    // Released: the same change goes through.
    let out = run(&fixture, &ADD_BETA);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_waiting_change_says_once_since_when_the_state_lock_is_held() {
    use std::sync::{Arc, Mutex};
    let fixture = fixture();
    let holder = ClaudeState::for_folder(&fixture.folder()).expect("state");
    let held = holder.lock().expect("lock");
    let stamped = fs::metadata(holder.path().join("lock"))
        .and_then(|m| m.modified())
        .expect("lock stamp");
    let stamped_ms = stamped
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after the epoch")
        .as_millis() as i64;
    let seen: Arc<Mutex<Vec<memwb::store::LockWait>>> = Arc::default();
    let noted = seen.clone();
    let waiter = fixture
        .folder()
        .with_lock_wait(memwb::claude::LockWaitPolicy {
            timeout: Duration::from_millis(1500),
            notice: Some(Arc::new(move |wait| noted.lock().unwrap().push(wait))),
        });
    let err = ClaudeState::for_folder(&waiter)
        .expect("state")
        .lock()
        .expect_err("held by another holder");
    assert!(
        matches!(err, memwb::claude::ClaudeError::LockTimeout { .. }),
        "{err}"
    );
    drop(held);
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].held_since_ms, stamped_ms);
    assert!(seen[0].waited >= Duration::from_secs(1), "{seen:?}");
}

#[test]
fn a_waiting_writer_on_a_claude_folder_prints_the_waiting_line_on_a_terminal() {
    let fixture = fixture();
    let state = ClaudeState::for_folder(&fixture.folder()).expect("state");
    let held = state.lock().expect("lock");
    let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_memwb"));
    cmd.env("MEMWB_STATE_DIR", fixture.state.path());
    cmd.env("HOME", fixture.home.path());
    cmd.arg("--memory-dir");
    cmd.arg(fixture.memory());
    cmd.args(["--lock-timeout", "2"]);
    cmd.args(ADD_BETA);
    let seen = common::on_terminal_until(cmd, "gave up");
    drop(held);
    let prefix = format!(
        "waiting for the lock on {} (held since ",
        fixture.folder().root().display()
    );
    let flat = seen.replace("\r\n", "\n");
    assert!(
        flat.lines()
            .any(|l| l.starts_with(&prefix) && l.ends_with(" s ago)...")),
        "no notice in {seen:?}"
    );
    assert_eq!(seen.matches("waiting for the lock").count(), 1, "{seen}");
}

// ---- item 1: a plain write between compare and rename is never lost ----------------------

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

fn file_write(file: &str, base: Option<&str>, after: Option<&str>) -> memwb::claude::FileWrite {
    memwb::claude::FileWrite {
        file: file.into(),
        base: base.map(str::to_owned),
        after: after.map(str::to_owned),
    }
}

const THEIR_ALPHA: &str =
    "---\nname: alpha\ndescription: the first\ntype: user\n---\nAlpha body, as Claude wrote it.\n";
const THEIR_INDEX: &str = "# Memory index\n\n- [alpha](alpha.md) — Claude's own line\n";
const MY_INDEX: &str = "# Memory index\n\n- [alpha](alpha.md) — mine\n";

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

fn journal_entries(fixture: &Fixture) -> usize {
    let scan = memwb::formats::claude::journal::journal_of(&fixture.folder())
        .expect("journal")
        .scan()
        .expect("scan");
    assert!(scan.pending.is_none(), "{:?}", scan.pending);
    scan.entries.len()
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

fn wait_pid(pid: rustix::process::Pid, stopped: bool) -> rustix::process::WaitStatus {
    let flags = if stopped {
        rustix::process::WaitOptions::UNTRACED
    } else {
        rustix::process::WaitOptions::empty()
    };
    loop {
        match rustix::process::waitpid(Some(pid), flags) {
            Ok(Some((_, status))) => return status,
            Ok(None) | Err(rustix::io::Errno::INTR) => continue,
            Err(e) => panic!("waitpid: {e}"),
        }
    }
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

// ---- item 9: parallel approvals of unrelated proposals all succeed -----------------------

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

// ---- item 2: record mode journals every observed change once, whatever it equals ---------

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

// ---- item 10: a signal during a change finishes or rolls it back before the exit ---------

#[test]
fn a_signal_during_a_claude_code_change_finishes_or_rolls_it_back_before_the_exit() {
    if !cfg!(feature = "fault-injection") {
        common::skip(
            "MEMWB_STOP_AT exists only with the fault-injection feature (cargo test turns it on)",
        );
        return;
    }
    use rustix::process::Signal;
    let new_alpha_body = "Renamed and rewritten.";
    for (signal, code) in [(Signal::TERM, 143), (Signal::HUP, 129), (Signal::INT, 130)] {
        // Steps of a rename: 0 intent, 1-4 a temp file and its fsync for the new file and
        // for MEMORY.md, 5-6 their renames, 7 the removal of the old name, 8 the directory's
        // fsync, 9 the mark.
        for step in [1, 4, 5, 7, 8] {
            let fixture = fixture();
            assert_eq!(run(&fixture, &["log"]).status.code(), Some(0));
            let before = fixture.tree();
            #[allow(clippy::zombie_processes)] // reaped by wait_pid
            let child = command(
                &fixture,
                &["set", "alpha", "--name", "gamma", "--body", new_alpha_body],
            )
            .env("MEMWB_STOP_AT", step.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
            let pid = rustix::process::Pid::from_raw(child.id() as i32).expect("pid");
            assert!(wait_pid(pid, true).stopped(), "{signal:?} {step}: stopped");
            rustix::process::kill_process(pid, signal).expect("signal");
            rustix::process::kill_process(pid, Signal::CONT).expect("SIGCONT");
            let status = wait_pid(pid, false);
            assert_eq!(
                status.exit_status(),
                Some(code),
                "{signal:?} at step {step}"
            );
            let tree = fixture.tree();
            let names: Vec<&String> = tree.keys().collect();
            assert!(
                tree == before || names == ["MEMORY.md", "user_gamma.md"],
                "{signal:?} {step}: half applied: {names:?}"
            );
            let scan = memwb::formats::claude::journal::journal_of(&fixture.folder())
                .expect("journal")
                .scan()
                .expect("scan");
            assert!(scan.pending.is_none(), "{signal:?} {step}: intent left");
            // The next change does not wait for a lock.
            let mut next = vec!["--lock-timeout", "2"];
            next.extend(ADD_BETA);
            assert_eq!(
                run(&fixture, &next).status.code(),
                Some(0),
                "{signal:?} {step}"
            );
        }
    }
}

// ---- item 22: no panic on a huge name, nor on a closed stdout ------------------------------

#[test]
fn ls_lists_a_name_of_65000_characters_padding_the_others_to_it() {
    // A name over 65,535 characters panicked `format!`'s width; frontmatter is now capped at
    // 64 KiB, so the longest name that parses is a little shorter (the padding itself is
    // tested past 65,535 in src/cli/output.rs).
    let fixture = fixture();
    let name = "n".repeat(65_000);
    fs::write(
        fixture.memory().join("long.md"),
        format!("---\nname: {name}\ndescription: long\ntype: user\n---\nBody.\n"),
    )
    .expect("write");
    let out = run(&fixture, &["ls"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    assert!(
        listed.lines().any(|l| l.starts_with(&name)),
        "the long name"
    );
    let alpha = listed
        .lines()
        .find(|l| l.starts_with("alpha"))
        .expect("alpha");
    assert!(alpha.len() > 65_000, "padded to the widest name");
}

/// Runs `memwb ARGS` with a stdout whose reader is already gone.
fn with_closed_stdout(fixture: &Fixture, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut memwb = command(fixture, args);
    memwb.stdout(writer);
    output_within(memwb, Duration::from_secs(30), "closed stdout")
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let fixture = fixture();
    for args in [
        &["completions", "bash"][..],
        &["man"],
        &["ls"],
        &["ls", "--json"],
        &["show", "alpha"],
        &["index"],
        &["check"],
        &["log"],
    ] {
        let out = with_closed_stdout(&fixture, args);
        let err = text(&out.stderr);
        assert!(
            !err.contains("panicked") && out.status.code() != Some(101),
            "{args:?}: {err}"
        );
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {:?} {err}",
            out.status
        );
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

// ---- item 23: one-line fields stay on one line ----------------------------------------------

const FORGED: &str = "0123456789ab  ready  edit  harmless.md";

/// A topic file whose name, description and file name each hold a line break.
fn hostile_fixture() -> Fixture {
    let fixture = fixture();
    fs::write(
        fixture.memory().join(format!("evil\n{FORGED}.md")),
        format!(
            "---\nname: \"evil\\n{FORGED}\"\ndescription: \"first\\n{FORGED}\"\ntype: user\n---\nBody.\n"
        ),
    )
    .expect("write");
    fixture
}

fn assert_no_forged_line(what: &str, out: &Output) {
    for stream in [&out.stdout, &out.stderr] {
        let printed = text(stream);
        assert!(
            !printed.lines().any(|l| l.starts_with(FORGED)),
            "{what} printed a forged line:\n{printed}"
        );
    }
}

#[test]
fn names_descriptions_and_file_names_print_on_one_line_everywhere() {
    let fixture = hostile_fixture();
    for args in [
        &["ls"][..],
        &["check"],
        &["index"],
        &["show", &format!("evil\n{FORGED}")],
        &["proposals"],
        &["log"],
    ] {
        let out = run(&fixture, args);
        assert_no_forged_line(&format!("{args:?}"), &out);
    }
    let out = run(&fixture, &["ls"]);
    assert!(
        text(&out.stdout).contains("evil\u{240A}"),
        "{}",
        text(&out.stdout)
    );
    // A change to it: `set` and `log` name it on one line too.
    let out = run(
        &fixture,
        &["set", &format!("evil\n{FORGED}"), "--body", "New."],
    );
    assert_no_forged_line("set", &out);
    let out = run(&fixture, &["log"]);
    assert_no_forged_line("log after set", &out);
}

#[test]
fn index_fix_never_writes_a_line_break_from_a_field_into_memory_md() {
    let fixture = hostile_fixture();
    let out = run(&fixture, &["index", "--fix", "--yes"]);
    assert_no_forged_line("index --fix", &out);
    let index = String::from_utf8(fixture.tree()["MEMORY.md"].clone()).expect("utf-8");
    assert!(
        !index.lines().any(|l| l.starts_with(FORGED)),
        "a field broke a line of MEMORY.md:\n{index}"
    );
    assert!(
        index.contains("%0A"),
        "the file name's line break is escaped:\n{index}"
    );
}

// ---- item 24: a linked state directory is refused before anything is written -------------

#[test]
fn a_symlinked_state_directory_is_refused_before_anything_is_written_through_it() {
    let fixture = fixture();
    let state_dir = ClaudeState::path_of(&fixture.folder()).expect("path");
    let elsewhere = tempfile::tempdir().expect("elsewhere");
    fs::create_dir_all(state_dir.parent().expect("parent")).expect("mkdir");
    std::os::unix::fs::symlink(elsewhere.path(), &state_dir).expect("symlink");
    let before = fixture.tree();
    let out = run(&fixture, &ADD_BETA);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("state directory for this Claude Code folder is a symbolic link"),
        "{err}"
    );
    assert_eq!(
        fs::read_dir(elsewhere.path()).expect("list").count(),
        0,
        "nothing written through the link"
    );
    assert_eq!(fixture.tree(), before);
}

// ---- item 8: no file memwb could not read back ----------------------------------------------

#[test]
fn an_after_image_over_the_read_limit_is_neither_filed_nor_written() {
    use memwb::formats::claude::journal::{NewFiles, file_proposal};
    let fixture = fixture();
    let folder = fixture.folder();
    let huge = format!(
        "---\nname: huge\ndescription: big\ntype: user\n---\n{}\n",
        "x".repeat(5 * 1024 * 1024)
    );
    let before = fixture.tree();
    let filed = file_proposal(
        &folder,
        NewFiles {
            kind: memwb::review::Kind::Extraction,
            files: vec![memwb::claude::FileImage {
                file: "huge.md".into(),
                before: None,
                after: Some(huge.clone()),
            }],
            origin: memwb::review::Origin::new("test"),
            evidence: None,
        },
    );
    let error = filed.expect_err("refused");
    assert!(
        error.to_string().contains("over memwb's read limit"),
        "{error}"
    );
    assert!(
        memwb::formats::claude::journal::list(&folder)
            .expect("list")
            .proposals
            .is_empty(),
        "nothing filed"
    );
    let error = memwb::formats::claude::journal::journaled(
        &folder,
        vec![file_write("huge.md", None, Some(&huge))],
        memwb::review::EntryMeta::default(),
    )
    .expect_err("refused");
    assert!(
        error.to_string().contains("could not read it back"),
        "{error}"
    );
    assert_eq!(fixture.tree(), before, "nothing written");
    assert_eq!(journal_entries(&fixture), 0);
}
