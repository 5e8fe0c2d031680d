//! End to end: the real binary in a pseudo-terminal, its output fed to a VT parser so that the
//! assertions read the real screen.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use memwb::store::{MemoryType, Record, Store, StoreOptions};
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

mod input;
mod saves;
mod screen;

const WAIT: Duration = Duration::from_secs(15);

#[derive(Default)]
struct Seen {
    titles: Vec<Vec<u8>>,
}

impl vt100::Callbacks for Seen {
    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        self.titles.push(title.to_vec());
    }
    fn set_window_icon_name(&mut self, _: &mut vt100::Screen, name: &[u8]) {
        self.titles.push(name.to_vec());
    }
}

struct Pty {
    parser: vt100::Parser<Seen>,
    raw: Vec<u8>,
    rx: mpsc::Receiver<Vec<u8>>,
    writer: Box<dyn Write + Send>,
    master: Box<dyn MasterPty + Send>,
    child: Box<dyn Child + Send + Sync>,
    _log: tempfile::TempDir,
}

impl Pty {
    fn spawn(args: &[&str], cwd: &Path) -> Self {
        Self::spawn_env(args, cwd, &[])
    }

    fn spawn_env(args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Self {
        let system = native_pty_system();
        let pair = system
            .openpty(PtySize {
                rows: 30,
                cols: 100,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("openpty");
        let log = tempfile::tempdir().expect("log dir");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_memwb"));
        cmd.args(args);
        cmd.cwd(cwd);
        cmd.env("TERM", "xterm-256color");
        cmd.env("MEMWB_LOG", log.path().join("memwb.log"));
        cmd.env_remove("NO_COLOR");
        for (key, value) in env {
            cmd.env(key, value);
        }
        let child = pair.slave.spawn_command(cmd).expect("spawn");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("reader");
        let writer = pair.master.take_writer().expect("writer");
        let (tx, rx) = mpsc::channel();
        let master = pair.master;
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Self {
            parser: vt100::Parser::new_with_callbacks(30, 100, 0, Seen::default()),
            raw: Vec::new(),
            rx,
            writer,
            master,
            child,
            _log: log,
        }
    }

    fn pump(&mut self, timeout: Duration) -> bool {
        match self.rx.recv_timeout(timeout) {
            Ok(bytes) => {
                self.parser.process(&bytes);
                self.raw.extend_from_slice(&bytes);
                true
            }
            Err(_) => false,
        }
    }

    fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    fn wait_for(&mut self, text: &str) {
        let deadline = Instant::now() + WAIT;
        while !self.screen().contains(text) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {text:?}; screen:\n{}",
                self.screen()
            );
            self.pump(Duration::from_millis(50));
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write");
        self.writer.flush().expect("flush");
    }

    /// Resizes the terminal (the program gets SIGWINCH) and the screen model with it.
    fn resize(&mut self, rows: u16, cols: u16) {
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize");
        self.parser.screen_mut().set_size(rows, cols);
    }

    /// Waits for the process to exit, reading what it still prints.
    fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                while self.pump(Duration::from_millis(100)) {}
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "did not exit; screen:\n{}",
                self.screen()
            );
            self.pump(Duration::from_millis(50));
        }
    }

    fn assert_restored(&self) {
        let screen = self.parser.screen();
        assert!(!screen.alternate_screen(), "still on the alternate screen");
        assert!(!screen.hide_cursor(), "cursor still hidden");
        assert_eq!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "mouse still captured"
        );
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The body of `name` once it is `expected`, pumping the terminal meanwhile (under a deadline).
fn wait_for_body(pty: &mut Pty, ws: &Path, name: &str, expected: &str) {
    let deadline = Instant::now() + WAIT;
    while body_of(ws, name) != expected {
        assert!(
            Instant::now() < deadline,
            "{name} is {:?}; screen:\n{}",
            body_of(ws, name),
            pty.screen()
        );
        pty.pump(Duration::from_millis(50));
    }
}

/// Waits until the editor on `name` has saved `expected` and closed (the save's result
/// handled): states that persist, unlike the status line saying so, which the next message
/// replaces.
fn wait_saved(pty: &mut Pty, ws: &Path, name: &str, expected: &str) {
    wait_for_body(pty, ws, name, expected);
    let editor = format!("Edit {name}");
    wait_until(pty, |screen| !screen.contains(&editor));
}

/// Pumps the terminal until `ready` holds for the screen (under a deadline).
fn wait_until(pty: &mut Pty, ready: impl Fn(&str) -> bool) {
    let deadline = Instant::now() + WAIT;
    while !ready(&pty.screen()) {
        assert!(Instant::now() < deadline, "screen:\n{}", pty.screen());
        pty.pump(Duration::from_millis(50));
    }
}

/// Opens the `M` log and waits until it holds a message that starts with `text` (the log is
/// drawn afresh as messages come), then closes it.
fn wait_logged(pty: &mut Pty, text: &str) {
    pty.send(b"M");
    pty.wait_for("Messages, newest first");
    let line = format!("│{text}");
    wait_until(pty, |screen| screen.lines().any(|l| l.contains(&line)));
    close_log(pty);
}

/// The messages in the `M` log that start with `text`.
fn logged(pty: &mut Pty, text: &str) -> usize {
    pty.send(b"M");
    pty.wait_for("Messages, newest first");
    let count = pty
        .screen()
        .lines()
        .filter(|line| line.contains(&format!("│{text}")))
        .count();
    close_log(pty);
    count
}

fn close_log(pty: &mut Pty) {
    pty.send(b"?"); // closes the log (Esc would run into the next key as Alt)
    let deadline = Instant::now() + WAIT;
    while pty.screen().contains("Messages, newest first") {
        assert!(Instant::now() < deadline, "the log stays open");
        pty.pump(Duration::from_millis(50));
    }
}

fn workspace(records: Vec<Record>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("dir");
    Store::open(dir.path(), StoreOptions::default())
        .expect("open")
        .extend(records)
        .expect("seed");
    dir
}

fn record(name: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, format!("about {name}"), body).expect("valid")
}

fn body_of(ws: &Path, name: &str) -> String {
    let store = Store::open(ws, StoreOptions::default()).expect("open");
    store
        .read()
        .expect("read")
        .get(name)
        .expect("record")
        .record
        .body()
        .to_owned()
}
