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

mod output;
mod races;
mod waits;

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

// ---- item 1: a plain write between compare and rename is never lost ----------------------

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

fn journal_entries(fixture: &Fixture) -> usize {
    let scan = memwb::formats::claude::journal::journal_of(&fixture.folder())
        .expect("journal")
        .scan()
        .expect("scan");
    assert!(scan.pending.is_none(), "{:?}", scan.pending);
    scan.entries.len()
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

// ---- item 9: parallel approvals of unrelated proposals all succeed -----------------------

// ---- item 2: record mode journals every observed change once, whatever it equals ---------

// ---- item 10: a signal during a change finishes or rolls it back before the exit ---------

// ---- item 22: no panic on a huge name, nor on a closed stdout ------------------------------

// ---- item 23: one-line fields stay on one line ----------------------------------------------

const FORGED: &str = "0123456789ab  ready  edit  harmless.md";

// ---- item 24: a linked state directory is refused before anything is written -------------

// ---- item 8: no file memwb could not read back ----------------------------------------------
