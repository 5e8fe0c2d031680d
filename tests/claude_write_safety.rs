//! What a race, a signal, a held lock or hostile names do to a change to a Claude Code folder
//! (issue 20): nothing another writer wrote is lost, waits are bounded, state is never written
//! through a link, one-line fields stay on one line. Every command runs with HOME and
//! MEMWB_STATE_DIR in temporary directories.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use memwb::claude::{ClaudeFolder, ClaudeState, LoadLimits};

const INDEX: &str = "# Memory index\n\n- [alpha](alpha.md) — the first\n";
const ALPHA: &str = "---\nname: alpha\ndescription: the first\ntype: user\n---\nAlpha body.\n";

/// A Claude Code folder (`home/memory`: MEMORY.md and one topic file) and a state root.
struct Fixture {
    home: tempfile::TempDir,
    state: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let home = tempfile::tempdir().expect("temp dir");
        let memory = home.path().join("memory");
        fs::create_dir(&memory).expect("mkdir");
        fs::write(memory.join("MEMORY.md"), INDEX).expect("write");
        fs::write(memory.join("alpha.md"), ALPHA).expect("write");
        Self {
            home,
            state: tempfile::tempdir().expect("state dir"),
        }
    }

    fn memory(&self) -> PathBuf {
        self.home.path().join("memory")
    }

    fn folder(&self) -> ClaudeFolder {
        ClaudeFolder::open(&self.memory(), LoadLimits::default())
            .expect("open")
            .with_state_root(self.state.path().to_owned())
    }

    fn tree(&self) -> BTreeMap<String, Vec<u8>> {
        common::tree(&self.memory())
    }

    /// `memwb --memory-dir <memory> ARGS`, nothing inherited but PATH.
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_memwb"));
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("MEMWB_STATE_DIR", self.state.path())
            .current_dir(self.home.path())
            .arg("--memory-dir")
            .arg(self.memory())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("memwb runs")
    }
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
    let fixture = Fixture::new();
    let state = ClaudeState::for_folder(&fixture.folder()).expect("state");
    let held = state.lock().expect("lock");
    let before = fixture.tree();
    let mut args = vec!["--lock-timeout", "1"];
    args.extend(ADD_BETA);
    let out = output_within(
        fixture.command(&args),
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
    let out = fixture.run(&ADD_BETA);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_waiting_change_says_once_since_when_the_state_lock_is_held() {
    use std::sync::{Arc, Mutex};
    let fixture = Fixture::new();
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
    let fixture = Fixture::new();
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
