//! The workbench on a Claude Code folder, end to end: the real binary in a pseudo-terminal on a
//! copy of tests/fixtures/claude, its screen read through a VT parser. HOME and
//! CLAUDE_CONFIG_DIR point into the copy.

use crate::common;

use std::io::{Read, Write};
use std::path::Path;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use memwb::claude::{ClaudeFolder, FileImage, LoadLimits};
use memwb::formats::claude::journal::{self, NewFiles};
use memwb::review::Origin;
use memwb::review::proposal::images;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const WAIT: Duration = Duration::from_secs(20);
const ROWS: u16 = 40;
const COLS: u16 = 160;

struct Screen {
    parser: vt100::Parser,
    rx: mpsc::Receiver<Vec<u8>>,
    writer: Box<dyn Write + Send>,
}

impl Screen {
    fn text(&self) -> String {
        self.parser.screen().contents()
    }

    fn wait_for(&mut self, text: &str) {
        let deadline = Instant::now() + WAIT;
        while !self.text().contains(text) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {text:?}; screen:\n{}",
                self.text()
            );
            if let Ok(bytes) = self.rx.recv_timeout(Duration::from_millis(50)) {
                self.parser.process(&bytes);
            }
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write");
        self.writer.flush().expect("flush");
    }
}

#[test]
fn the_workbench_shows_the_cut_and_switches_sets() {
    let home = common::claude_home();
    let config = home.path().join("config");
    let other = config.join("projects/-home-dev-other/memory");
    std::fs::create_dir_all(&other).expect("mkdir");
    std::fs::write(
        other.join("other_note.md"),
        "---\nname: other_note\ndescription: the other project's only memory\ntype: project\n---\nbody\n",
    )
    .expect("write");
    std::fs::write(
        other.join("MEMORY.md"),
        "- [other_note](other_note.md) — the other project's only memory\n",
    )
    .expect("write");
    let workspace = home.path().join("ws");
    std::fs::create_dir(&workspace).expect("mkdir");
    let shop = config.join("projects/-home-dev-shop/memory");

    let pair = native_pty_system()
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("openpty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_memwb"));
    cmd.env_clear();
    cmd.env("TERM", "xterm-256color");
    cmd.env("HOME", home.path());
    cmd.env("CLAUDE_CONFIG_DIR", &config);
    cmd.env("MEMWB_LOG", home.path().join("memwb.log"));
    cmd.cwd(&workspace);
    cmd.args(["--claude-index-lines", "10", "--memory-dir"]);
    cmd.arg(&shop);
    let mut child = pair.slave.spawn_command(cmd).expect("spawn");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("reader");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut screen = Screen {
        parser: vt100::Parser::new(ROWS, COLS, 0),
        rx,
        writer: pair.master.take_writer().expect("writer"),
    };

    screen.wait_for("Claude Code auto memory");
    screen.wait_for("-home-dev-shop/memory");
    screen.wait_for("── not loaded past here: 4 entries ──");
    screen.wait_for("MEMORY.md: CUT, 10 lines loaded");
    screen.wait_for("Topic files (9)");
    // MEMORY.md's end: the dangling entry and the unlisted files are marked.
    screen.send(b"\t\t");
    screen.send(b"G");
    screen.wait_for("✗ - [project_payments]");
    screen.wait_for("+ unlisted: scratch.md");
    screen.send(b"\t\t");

    // The Sets view lists both projects; the other one opens.
    screen.send(b"S");
    screen.wait_for("-home-dev-other/memory");
    screen.wait_for("-home-dev-shop/memory  9 memories");
    // Sorted by slug: the other project is above the one open (which is selected).
    screen.send(b"k");
    screen.send(b"\r");
    screen.wait_for("Topic files (1)");
    screen.wait_for("other_note");
    assert!(
        screen
            .text()
            .lines()
            .next()
            .is_some_and(|title| title.contains("-home-dev-other/memory")),
        "the title names the folder:\n{}",
        screen.text()
    );
    screen.send(b"q");
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(Instant::now() < deadline, "the workbench did not quit");
        // Drain the output so the child never blocks on a full PTY buffer.
        let _ = screen.rx.recv_timeout(Duration::from_millis(50));
    }
}

/// The binary on `folder` (a copy of the fixture's shop project) with memwb's state in `state`.
fn spawn(
    home: &Path,
    folder: &Path,
    state: &Path,
) -> (
    Box<dyn portable_pty::Child + Send + Sync>,
    Screen,
    Box<dyn portable_pty::MasterPty + Send>,
) {
    let folder = folder.to_str().expect("utf-8");
    spawn_in(home, state, home, &["--memory-dir", folder])
}

/// The binary run with `args` from `cwd`, Claude Code's config in `home/config`.
fn spawn_in(
    home: &Path,
    state: &Path,
    cwd: &Path,
    args: &[&str],
) -> (
    Box<dyn portable_pty::Child + Send + Sync>,
    Screen,
    Box<dyn portable_pty::MasterPty + Send>,
) {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("openpty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_memwb"));
    cmd.env_clear();
    cmd.env("TERM", "xterm-256color");
    cmd.env("HOME", home);
    cmd.env("CLAUDE_CONFIG_DIR", home.join("config"));
    cmd.env("MEMWB_STATE_DIR", state);
    cmd.env("MEMWB_LOG", home.join("memwb.log"));
    cmd.cwd(cwd);
    cmd.args(args);
    let child = pair.slave.spawn_command(cmd).expect("spawn");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("reader");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let screen = Screen {
        parser: vt100::Parser::new(ROWS, COLS, 0),
        rx,
        writer: pair.master.take_writer().expect("writer"),
    };
    // The master must outlive the child's use of the terminal: the caller keeps it.
    (child, screen, pair.master)
}

/// Everything in the folder that is not a `*.md` file.
fn not_topic_files(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .expect("list")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| !n.ends_with(".md"))
        .collect();
    names.sort();
    names
}

/// Every file in the folder with its bytes, sorted.
fn snapshot(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(folder)
        .expect("list")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file())
        .map(|p| (p.display().to_string(), std::fs::read(&p).expect("read")))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    files
}

/// Files a proposal for `folder` from this process, as another memwb process would.
fn file_from_outside(folder: &Path, state: &Path, image: FileImage) -> String {
    let folder = ClaudeFolder::open(folder, LoadLimits::default())
        .expect("open")
        .with_state_root(state.to_owned());
    let files = vec![image];
    let new = NewFiles {
        kind: images::kind_of(&files),
        files,
        origin: Origin::new("dedupe"),
        evidence: None,
    };
    journal::file_proposal(&folder, new).expect("filed").id
}

/// `memwb tui DIR` opens DIR as `memwb -C DIR` does: a workspace with no `.memory` but with
/// Claude Code auto memory opens that auto memory (it opened an empty `.memory` before).
#[test]
fn tui_dir_opens_the_workspace_as_dash_c_does() {
    let home = common::claude_home();
    let workspace = std::fs::canonicalize(home.path())
        .expect("realpath")
        .join("proj");
    std::fs::create_dir(&workspace).expect("mkdir");
    let slug: String = workspace
        .to_str()
        .expect("utf-8")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let memory = home
        .path()
        .join("config/projects")
        .join(slug)
        .join("memory");
    std::fs::create_dir_all(&memory).expect("mkdir");
    std::fs::write(
        memory.join("proj_note.md"),
        "---\nname: proj_note\ndescription: the project's only memory\ntype: project\n---\nbody\n",
    )
    .expect("write");
    std::fs::write(
        memory.join("MEMORY.md"),
        "- [proj_note](proj_note.md) — the only memory\n",
    )
    .expect("write");
    let state = home.path().join("state");
    let dir = workspace.to_str().expect("utf-8");
    let (mut child, mut screen, _master) =
        spawn_in(home.path(), &state, home.path(), &["tui", dir]);
    screen.wait_for("Topic files (1)");
    screen.wait_for("proj_note");
    screen.send(b"q");
    let deadline = Instant::now() + WAIT;
    while child.try_wait().expect("wait").is_none() {
        assert!(Instant::now() < deadline, "the workbench did not quit");
        let _ = screen.rx.recv_timeout(Duration::from_millis(50));
    }
    assert!(
        !workspace.join(".memory").exists(),
        "no .memory was started"
    );
}

/// A home holding a copy of the fixture's Claude Code config; its shop folder (no
/// consolidation running) and memwb's state directory.
fn fixture_home() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let home = common::claude_home();
    let folder = home.path().join(common::CLAUDE_MEMORY);
    let state = home.path().join("state");
    (home, folder, state)
}

const CTRL_S: &[u8] = b"\x13";
const CTRL_E: &[u8] = b"\x05";
const CTRL_U: &[u8] = b"\x15";

#[test]
fn the_workbench_writes_a_claude_code_folder_and_follows_other_writers() {
    let (home, folder, state) = fixture_home();
    let read = |file: &str| std::fs::read_to_string(folder.join(file)).ok();
    let before = not_topic_files(&folder);
    let (mut child, mut screen, _master) = spawn(home.path(), &folder, &state);
    screen.wait_for("Topic files (9)");

    // edit: the body of the first file (the editor opens on the body)
    screen.send(b"e");
    screen.wait_for("Edit user_role ");
    screen.send(b"ZZ edited ");
    screen.send(CTRL_S);
    screen.wait_for("save user_role: written");
    assert!(read("user_role.md").is_some_and(|t| t.contains("ZZ edited")));

    // rename: a new name moves the file and rewrites its link
    screen.send(b"e");
    screen.wait_for("Edit user_role ");
    screen.send(b"\t");
    // (a name Claude Code keeps: ASCII kebab-case)
    screen.send(CTRL_E);
    screen.send(CTRL_U);
    screen.send(b"user-role-v2");
    screen.send(CTRL_S);
    screen.wait_for("written (added user-role-v2; removed ");
    assert_eq!(read("user_role.md"), None);
    assert!(read("user_role_v2.md").is_some_and(|t| t.contains("name: user-role-v2")));
    assert!(read("MEMORY.md").is_some_and(|t| t.contains("(user_role_v2.md)")));

    // create
    screen.send(b"n");
    screen.wait_for("New memory");
    screen.send(b"deploy-freeze\t\tno deploys on Fridays\tfrozen");
    screen.send(CTRL_S);
    screen.wait_for("add deploy-freeze: written");
    assert!(read("project_deploy_freeze.md").is_some_and(|t| t.contains("no deploys on Fridays")));
    assert!(read("MEMORY.md").is_some_and(|t| t.contains("(project_deploy_freeze.md)")));

    // delete (asks first)
    screen.send(b"d");
    screen.wait_for("Delete deploy-freeze?");
    screen.send(b"y");
    screen.wait_for("delete deploy-freeze: written");
    assert_eq!(read("project_deploy_freeze.md"), None);

    // undo the delete from History: the file and its index line come back
    screen.send(b"H");
    screen.wait_for("History (4 entries)");
    screen.send(b"u");
    screen.wait_for("Undo entry #4");
    screen.send(b"y");
    screen.wait_for("undo #4: written");
    assert!(read("project_deploy_freeze.md").is_some_and(|t| t.contains("frozen")));
    assert!(read("MEMORY.md").is_some_and(|t| t.contains("(project_deploy_freeze.md)")));
    screen.send(b"H");

    // another process writes a topic file: it appears without a key press
    std::fs::write(
        folder.join("reference_runbook.md"),
        "---\nname: reference_runbook\ndescription: where the runbook lives\ntype: reference\n---\nwiki\n",
    )
    .expect("write");
    screen.wait_for("Topic files (11)");
    screen.wait_for("reference_runbook");
    // the status line says it came from outside (a plain write can be seen as two changes)
    screen.wait_for("changed on disk: ");

    // a proposal filed by another process (as the hook or `memwb propose` file them) appears
    // without a key press; approving it asks first, then writes the file and its index line
    let train = "---\nname: release-train\ndescription: we ship every second Tuesday\ntype: project\n---\nsecond Tuesdays\n";
    let approved = file_from_outside(
        &folder,
        &state,
        FileImage {
            file: "project_release_train.md".into(),
            before: None,
            after: Some(train.into()),
        },
    );
    screen.wait_for(&format!("new proposal: {approved} (add release-train)"));
    screen.send(b"p");
    screen.wait_for("Proposals (1 pending, 0 decided)");
    screen.wait_for("project_release_train.md (new file)");
    screen.send(b"a");
    screen.wait_for(&format!("Approve proposal {approved}?"));
    assert_eq!(read("project_release_train.md"), None, "asked first");
    screen.send(b"y");
    screen.wait_for(&format!("approve {approved}: written"));
    // written as Claude Code's own Write would have left it
    let written = read("project_release_train.md").unwrap_or_default();
    assert!(
        written.starts_with("---\nname: release-train\ndescription: we ship every second Tuesday\nmetadata:\n  node_type: memory\n  type: project\n  modified: ")
            && written.ends_with("---\n\nsecond Tuesdays\n"),
        "{written}"
    );
    assert!(read("MEMORY.md").is_some_and(|t| t.contains("(project_release_train.md)")));

    // another one is rejected with a reason: the folder stays as it was
    let runbook = read("reference_runbook.md").expect("runbook");
    let rejected = file_from_outside(
        &folder,
        &state,
        FileImage {
            file: "reference_runbook.md".into(),
            before: Some(runbook.clone()),
            after: Some(format!("{runbook}and the on-call sheet\n")),
        },
    );
    screen.wait_for(&format!("new proposal: {rejected}"));
    screen.wait_for("Proposals (1 pending, 1 decided)");
    // pending first: the new one is at the top
    screen.send(b"g");
    screen.wait_for("reference_runbook.md (edited)");
    let files_before = snapshot(&folder);
    screen.send(b"x");
    screen.wait_for(&format!("Reject proposal {rejected}"));
    screen.send(b"not needed\r");
    // the job's own word that it is done (the watcher may list the rejection before it)
    screen.wait_for(&format!("reject {rejected}: done"));
    screen.wait_for("Proposals (0 pending, 2 decided)");
    assert_eq!(snapshot(&folder), files_before);

    // History: the rejection on top, the approval below it; undoing that restores both files
    screen.send(b"H");
    screen.wait_for("History (7 entries)");
    screen.send(b"j");
    screen.send(b"u");
    screen.wait_for("Undo entry #6");
    screen.send(b"y");
    screen.wait_for("undo #6: written");
    assert_eq!(read("project_release_train.md"), None);
    assert!(read("MEMORY.md").is_some_and(|t| !t.contains("(project_release_train.md)")));

    // nothing memwb keeps is in the folder: its journal is in the state dir
    assert_eq!(not_topic_files(&folder), before);
    assert!(state.join("claude").is_dir());

    screen.send(b"q");
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(Instant::now() < deadline, "the workbench did not quit");
        let _ = screen.rx.recv_timeout(Duration::from_millis(50));
    }
}

/// Issue 26 item 5: on a Claude Code folder too, the workbench's own save is said once in the
/// `M` message log (its job's result), never again as "changed on disk" when the watcher
/// sees the write.
#[test]
fn an_own_save_is_said_once_in_the_message_log() {
    let (home, folder, state) = fixture_home();
    let (mut child, mut screen, _master) = spawn(home.path(), &folder, &state);
    screen.wait_for("Topic files (9)");
    screen.send(b"e");
    screen.wait_for("Edit user_role ");
    screen.send(b"ZZ edited ");
    screen.send(CTRL_S);
    screen.wait_for("save user_role: written");
    // The watcher reports changes in order: once another writer's shows, ours was handled.
    std::fs::write(
        folder.join("reference_runbook.md"),
        "---\nname: reference_runbook\ndescription: where the runbook lives\ntype: reference\n---\nwiki\n",
    )
    .expect("write");
    screen.wait_for("Topic files (10)");
    screen.wait_for("changed on disk: ");
    screen.send(b"M");
    screen.wait_for("Messages, newest first");
    let text = screen.text();
    // Each message as the overlay shows it: from its left border to its right one.
    let messages: Vec<&str> = text
        .lines()
        .filter_map(|line| {
            let start = ["│changed on disk:", "│save "]
                .iter()
                .find_map(|m| line.find(m))?;
            let message = &line[start + "│".len()..];
            Some(message.split('│').next().unwrap_or(message).trim_end())
        })
        .collect();
    assert!(
        !messages
            .iter()
            .any(|m| m.starts_with("changed on disk:") && m.contains("user_role")),
        "{text}"
    );
    assert_eq!(
        messages
            .iter()
            .filter(|m| m.starts_with("save user_role: written"))
            .count(),
        1,
        "{text}"
    );
    screen.send(b"?");
    screen.send(b"q");
    child.wait().expect("exit");
}
