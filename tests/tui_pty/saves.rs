//! Saves against the world: a broken eval case, signals mid-save, a held lock, the message log.

use super::*;

fn memwb_cli(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_memwb"))
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("memwb runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `memwb set` gives no-mocked-database a description "integration tests" misses; returns
/// the number of its journal entry.
fn redescribe_by_cli(ws: &Path) -> serde_json::Value {
    memwb_cli(
        ws,
        &[
            "set",
            "no-mocked-database",
            "--description",
            "Suites hit real services",
        ],
    );
    let log = memwb_cli(ws, &["log", "--json"]);
    let log: serde_json::Value = serde_json::from_slice(&log.stdout).expect("json");
    log.as_array().and_then(|l| l.last()).expect("an entry")["id"].clone()
}

#[test]
fn a_case_saved_from_the_query_pane_is_announced_when_an_edit_breaks_it() {
    let ws = workspace(vec![
        Record::new(
            "no-mocked-database",
            MemoryType::Feedback,
            "Integration tests hit a real database",
            "No mocks.",
        )
        .expect("valid"),
        record("prefers-tabs", "Tabs."),
    ]);
    let mut pty = Pty::spawn_env(
        &[],
        ws.path(),
        &[("MEMWB_MODEL_URL", ""), ("MEMWB_MODEL_CMD", "")],
    );
    pty.wait_for("Manifest (2)");
    pty.send(b"\x1b[Z"); // Shift-Tab: from the Manifest back to the Query pane
    pty.send(b"i");
    pty.send(b"integration tests\r");
    pty.wait_for("selected (keyword fallback):");
    pty.send(b"s");
    pty.wait_for("Save eval case");
    pty.wait_for("expect> no-mocked-database");
    pty.send(b"\r");
    // Both messages are waited for in the M log, which keeps them, not on the status line,
    // which the next message replaces (within one chunk of output under load).
    wait_logged(&mut pty, "save eval case 'integration tests': done");
    let cases = memwb_cli(ws.path(), &["eval", "ls", "--json"]);
    let cases: serde_json::Value = serde_json::from_slice(&cases.stdout).expect("json");
    assert_eq!(
        cases,
        serde_json::json!([{"query": "integration tests", "expect": ["no-mocked-database"], "forbid": []}])
    );

    let entry = redescribe_by_cli(ws.path());
    wait_logged(
        &mut pty,
        &format!("eval: 'integration tests' no longer selects no-mocked-database since #{entry}"),
    );
    pty.send(b"q");
    let status = pty.wait_exit();
    assert!(status.success(), "{status:?}");
    pty.assert_restored();
}

/// Waits (no timeout, as `tests/signals.rs` does) until the process `pid` is stopped.
fn wait_stopped(pid: rustix::process::Pid) {
    loop {
        match rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::UNTRACED) {
            Ok(Some((_, status))) if status.stopped() => return,
            Ok(Some((_, status))) => panic!("not stopped but {status:?}"),
            Ok(None) | Err(rustix::io::Errno::INTR) => continue,
            Err(e) => panic!("waitpid: {e}"),
        }
    }
}

#[test]
fn sigterm_or_sighup_during_a_save_finishes_it_releases_the_lock_and_restores_the_terminal() {
    if !cfg!(feature = "fault-injection") {
        eprintln!(
            "skipped: MEMWB_STOP_AT exists only with the fault-injection feature (cargo test turns it on)"
        );
        return;
    }
    use rustix::process::{Pid, Signal, kill_process};
    for (signal, code) in [(Signal::TERM, 143), (Signal::HUP, 129)] {
        for step in [0, 3, 7, 10] {
            let ws = workspace(vec![record("alpha", "alpha body")]);
            let at = step.to_string();
            let mut pty = Pty::spawn_env(&[], ws.path(), &[("MEMWB_STOP_AT", &at)]);
            pty.wait_for("Record: alpha");
            pty.send(b"e");
            pty.wait_for("Edit alpha");
            pty.send(b"new ");
            pty.wait_for("new alpha body");
            // the save stops the whole process at commit step `step`
            pty.send(b"\x13");
            let pid = pty.child.process_id().expect("pid");
            let pid = Pid::from_raw(pid as i32).expect("pid");
            wait_stopped(pid);
            kill_process(pid, signal).expect("signal");
            kill_process(pid, Signal::CONT).expect("SIGCONT");
            let status = pty.wait_exit();
            assert_eq!(status.exit_code(), code, "{signal:?} at step {step}");
            pty.assert_restored();
            let store = Store::open(ws.path(), StoreOptions::default()).expect("open");
            assert!(
                matches!(store.inspect().lock, memwb::store::LockState::Free),
                "{signal:?} {step}: lock left"
            );
            // the save either committed whole or not at all
            let body = body_of(ws.path(), "alpha");
            assert!(
                body == "alpha body" || body == "new alpha body",
                "{signal:?} {step}: {body:?}"
            );
            assert!(store.inspect().temp_files.is_empty(), "{signal:?} {step}");
        }
    }
}

#[test]
fn a_save_waiting_for_the_lock_says_so_in_the_status_line_and_keeps_the_keys_typed_meanwhile() {
    let ws = workspace(vec![record("alpha", "alpha body")]);
    let mut pty = Pty::spawn(&[], ws.path());
    pty.wait_for("Record: alpha");
    pty.send(b"e");
    pty.wait_for("Edit alpha");
    pty.send(b"hello ");
    pty.wait_for("hello alpha body");
    // another process holds the lock (a fresh lock directory, as proper-lockfile makes it)
    let lock = ws.path().join(".memory/.lock");
    std::fs::create_dir(&lock).expect("hold the lock");
    pty.send(b"\x13"); // Ctrl-S
    pty.wait_for("waiting: another process holds the lock");
    // keys typed while it waits go into the editor
    pty.send(b"more");
    pty.wait_for("hello morealpha body");
    // Every state waited on from here persists until the test acts: the editor's "saved;
    // what you typed since is kept" notice goes as soon as the watcher rereads the folder,
    // within one chunk of output under load, so it is not waited for; the status lines are
    // read back from the message log at the end.
    let waiting = "waiting: another process holds the lock";
    assert!(pty.screen().contains(waiting), "{}", pty.screen());
    assert!(pty.screen().contains("saving…"), "{}", pty.screen());
    assert_eq!(body_of(ws.path(), "alpha"), "alpha body", "still waiting");
    std::fs::remove_dir(&lock).expect("release the lock");
    wait_for_body(&mut pty, ws.path(), "alpha", "hello alpha body");
    // the editor stays open on what was typed since: once the save's result is in, it still
    // shows the keys typed while it waited. The result is in once the editor shows neither
    // "saving…" nor a notice (the watcher's news of the commit may show one, "changed on
    // disk", hiding "saving…" until the result), or shows its "what you typed since is kept"
    // notice (until the watcher's next reading clears it): each of these stays until the
    // test acts. Not the save's status line: a later message can replace it within one chunk
    // of output under load; the log at the end counts the save, and holds no "changed on
    // disk" (the watcher's report of a save that waited once said it again as news: "changed
    // on disk: changed alpha").
    wait_until(&mut pty, |screen| {
        let settled = !screen.contains("saving…") && !screen.contains('⚠');
        (settled || screen.contains("what you typed since is kept"))
            && screen.contains("Edit alpha")
            && screen.contains("hello morealpha body")
    });
    // based on what was saved: saving again writes, with no conflict
    pty.send(b"\x13");
    wait_for_body(&mut pty, ws.path(), "alpha", "hello morealpha body");
    // with nothing typed since, the editor closes
    let deadline = Instant::now() + WAIT;
    while pty.screen().contains("Edit alpha") {
        assert!(Instant::now() < deadline, "{}", pty.screen());
        pty.pump(Duration::from_millis(50));
    }
    // the status line said the wait once, and each save once
    assert_eq!(logged(&mut pty, waiting), 1, "{}", pty.screen());
    assert_eq!(
        logged(&mut pty, "save alpha: written"),
        2,
        "{}",
        pty.screen()
    );
    assert_eq!(logged(&mut pty, "changed on disk"), 0, "{}", pty.screen());
    // nothing was written outside the drawing: not the command line's notice on stderr
    let raw = String::from_utf8_lossy(&pty.raw).into_owned();
    assert!(!raw.contains("waiting for the lock on"), "{raw:?}");
    assert!(!raw.contains("s ago)..."), "{raw:?}");
    pty.send(b"q");
    assert!(pty.wait_exit().success());
    pty.assert_restored();
}

/// Issue 26 item 5: a save of the workbench's own is said once (its job's result), not again
/// when the watcher sees the commit; a regression of an eval case caused by a journaled CLI
/// `set` is said once, blamed on the entry ("since #N"), not also "since the last change".
#[test]
fn the_message_log_says_each_save_and_regression_once() {
    let ws = workspace(vec![
        Record::new(
            "no-mocked-database",
            MemoryType::Feedback,
            "Integration tests hit a real database",
            "No mocks.",
        )
        .expect("valid"),
        record("prefers-tabs", "Tabs."),
    ]);
    memwb_cli(
        ws.path(),
        &[
            "eval",
            "add",
            "integration tests",
            "--expect",
            "no-mocked-database",
        ],
    );
    let mut pty = Pty::spawn_env(
        &[],
        ws.path(),
        &[("MEMWB_MODEL_URL", ""), ("MEMWB_MODEL_CMD", "")],
    );
    pty.wait_for("Manifest (2)");
    pty.wait_for("Record: no-mocked-database");
    pty.send(b"j");
    pty.wait_for("Record: prefers-tabs");
    pty.send(b"e");
    pty.wait_for("Edit prefers-tabs");
    pty.send(b"more ");
    pty.wait_for("more Tabs.");
    pty.send(b"\x13"); // Ctrl-S
    // Waited for on states that persist, never on a status line, which the next message
    // replaces (within one chunk of output under load): the save's result is handled once
    // its editor has closed on the body written.
    wait_for_body(&mut pty, ws.path(), "prefers-tabs", "more Tabs.");
    wait_until(&mut pty, |screen| {
        !screen.contains("Edit prefers-tabs") && screen.contains("more Tabs.")
    });
    let entry = redescribe_by_cli(ws.path());
    // The watcher reports commits in order: once the CLI's regression is in the log blamed on
    // its entry, the save's commit was handled. Not waited for on the status line: a
    // regression said before its entry was written is blamed on it in the log, and on the
    // status line only while nothing was said since (a second reading of the folder, say).
    let regression =
        format!("eval: 'integration tests' no longer selects no-mocked-database since #{entry}");
    wait_logged(&mut pty, &regression);
    assert_eq!(logged(&mut pty, "save prefers-tabs"), 1, "{}", pty.screen());
    assert_eq!(
        logged(&mut pty, "changed on disk: changed prefers-tabs"),
        0,
        "{}",
        pty.screen()
    );
    assert_eq!(logged(&mut pty, "eval: "), 1, "{}", pty.screen());
    assert_eq!(logged(&mut pty, &regression), 1, "{}", pty.screen());
    pty.send(b"q");
    assert!(pty.wait_exit().success());
}
