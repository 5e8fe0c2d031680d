//! A held state lock and signals: bounded waits that say so, a change finished or rolled back
//! before the exit.

use super::*;

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
