//! SIGINT, SIGTERM or SIGHUP inside a transaction: the step in progress finishes (the
//! transaction commits or rolls back), the lock is released, the exit code is 128 + the signal.
//! The process is held at a commit step with `MEMWB_STOP_AT` (the fault-injection feature: it stops itself
//! with SIGSTOP), signalled, then resumed.

use crate::common;

use std::process::{Command, Stdio};

use common::cli::{add, memwb_with};
use rustix::process::{Pid, Signal, WaitOptions};

fn wait_pid(pid: Pid, stopped: bool) -> rustix::process::WaitStatus {
    let flags = if stopped {
        WaitOptions::UNTRACED
    } else {
        WaitOptions::empty()
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
fn a_signal_inside_a_transaction_finishes_it_releases_the_lock_and_exits_128_plus_n() {
    if !cfg!(feature = "fault-injection") {
        common::skip(
            "MEMWB_STOP_AT exists only with the fault-injection feature (cargo test turns it on)",
        );
        return;
    }
    for (signal, code) in [(Signal::INT, 130), (Signal::TERM, 143), (Signal::HUP, 129)] {
        for step in [0, 3, 7, 10] {
            let ws = common::workspace();
            add(ws.path(), "alpha", "alpha", "a");
            // Reaped by `wait_pid`, not through `Child`.
            #[allow(clippy::zombie_processes)]
            let child = Command::new(env!("CARGO_BIN_EXE_memwb"))
                .arg("-C")
                .arg(ws.path())
                .args([
                    "add",
                    "--name",
                    "first",
                    "--type",
                    "user",
                    "--description",
                    "d",
                    "--body",
                    "b",
                ])
                .env("MEMWB_STOP_AT", step.to_string())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn");
            let pid = Pid::from_raw(child.id() as i32).expect("pid");
            assert!(
                wait_pid(pid, true).stopped(),
                "{signal:?} {step}: not stopped"
            );
            rustix::process::kill_process(pid, signal).expect("signal");
            rustix::process::kill_process(pid, Signal::CONT).expect("SIGCONT");
            let status = wait_pid(pid, false);
            assert_eq!(
                status.exit_status(),
                Some(code),
                "{signal:?} at step {step}"
            );
            assert!(
                !common::lock_held(ws.path()),
                "{signal:?} {step}: lock left"
            );
            let names = common::names(&common::open(ws.path()));
            assert!(
                names == ["alpha"] || names == ["alpha", "first"],
                "{signal:?} {step}: {names:?}"
            );
            // The next writer does not wait for a stale lock.
            let out = memwb_with(
                ws.path(),
                &[
                    "add",
                    "--name",
                    "second",
                    "--type",
                    "user",
                    "--description",
                    "d",
                    "--body",
                    "b",
                ],
                "",
                &[("MEMWB_LOCK_TIMEOUT", "2")],
            );
            assert_eq!(out.status.code(), Some(0), "{signal:?} {step}: next writer");
        }
    }
}
