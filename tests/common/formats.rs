//! One folder of either format, driven through the `memwb` binary: the conformance tests
//! run one body on a `.memory` set and on a Claude Code folder.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Both formats, for `for format in BOTH`.
pub const BOTH: [Format; 2] = [Format::Memory, Format::Claude];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Memory,
    Claude,
}

/// What [`Folder::snapshot`] copied.
pub struct Snapshot(tempfile::TempDir);

/// A fresh folder of one format, with memwb's state (for Claude Code) in a temporary folder.
pub struct Folder {
    pub format: Format,
    pub dir: tempfile::TempDir,
    pub state: tempfile::TempDir,
}

impl Folder {
    pub fn new(format: Format) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        if let Format::Claude = format {
            // A Claude Code folder is one that holds MEMORY.md.
            fs::write(dir.path().join("MEMORY.md"), "").expect("MEMORY.md");
        }
        Self {
            format,
            dir,
            state: tempfile::tempdir().expect("state dir"),
        }
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, "")
    }

    /// `memwb` on this folder, isolated (a clean environment, memwb's state in `state`), not
    /// started: `args` still to add.
    pub fn command(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_memwb"));
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.state.path())
            .env("MEMWB_STATE_DIR", self.state.path());
        match self.format {
            Format::Memory => command.arg("-C").arg(self.dir.path()),
            Format::Claude => command
                .arg("--memory-dir")
                .arg(self.dir.path())
                .args(["--format", "claude"]),
        };
        command
    }

    /// Runs `args` with `stdin` on standard input.
    pub fn run_with(&self, args: &[&str], stdin: &str) -> Output {
        self.run_env(args, stdin, &[])
    }

    /// Runs `args` with `stdin` on standard input and `env` added to its environment (the
    /// fault-injection variables, say).
    pub fn run_env(&self, args: &[&str], stdin: &str, env: &[(&str, String)]) -> Output {
        let mut command = self.command();
        command.args(args).envs(env.iter().map(|(k, v)| (k, v)));
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("memwb runs");
        let mut input = child.stdin.take().expect("stdin");
        input.write_all(stdin.as_bytes()).expect("write stdin");
        drop(input);
        child.wait_with_output().expect("memwb runs")
    }

    /// Runs `args`, which must succeed.
    pub fn ok(&self, args: &[&str]) -> String {
        self.ok_with(args, "")
    }

    /// Runs `args` with `stdin` on standard input, which must succeed.
    pub fn ok_with(&self, args: &[&str], stdin: &str) -> String {
        let out = self.run_with(args, stdin);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{:?} {args:?}: {}",
            self.format,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn root(&self) -> PathBuf {
        match self.format {
            Format::Memory => self.dir.path().join(".memory"),
            Format::Claude => self.dir.path().to_path_buf(),
        }
    }

    /// What the set holds, comparable across undo: on a Claude Code folder every file's exact
    /// bytes; on `.memory` each listed record's file bytes by name (a restored record gets a
    /// new file name, with the same bytes, and a removed record comes back at the end of the
    /// manifest: docs/review.md, "Undo").
    pub fn state(&self) -> BTreeMap<String, Vec<u8>> {
        match self.format {
            Format::Claude => super::tree(&self.root()),
            Format::Memory => self
                .listed()
                .into_iter()
                .map(|(name, file)| {
                    let bytes = fs::read(self.root().join(&file)).expect("record file");
                    (name, bytes)
                })
                .collect(),
        }
    }

    /// A `.memory` set's listed records, `(name, file)` in manifest order: what `memwb ls
    /// --json` lists, read in this process (the engine's read, as `ls` does it) because the
    /// fault tests ask it thousands of times.
    fn listed(&self) -> Vec<(String, String)> {
        let store = memwb::store::Store::open(self.dir.path(), Default::default()).expect("open");
        let set = store.read().expect("the set reads");
        set.entries
            .into_iter()
            .map(|entry| (entry.record.name().to_owned(), entry.file))
            .collect()
    }

    /// [`Folder::state`] plus MEMORY.md, comparable between two folders that went through
    /// the same changes at different moments: Claude Code's frontmatter stamp `modified` is
    /// left out, and so is the random part of each `.memory` record's file name in MEMORY.md's
    /// links (every write of a record gets a fresh one). Only the memories and the index are
    /// compared on a Claude Code folder; what else lies there is [`Folder::leftovers`]'s.
    pub fn comparable_state(&self) -> BTreeMap<String, Vec<u8>> {
        let mut state = self.state();
        let modified = regex::Regex::new(r"(?m)^\s*modified: .*\n").expect("pattern");
        state.retain(|file, _| file.ends_with(".md") || !matches!(self.format, Format::Claude));
        for bytes in state.values_mut() {
            if let Ok(text) = std::str::from_utf8(bytes) {
                *bytes = modified.replace_all(text, "").into_owned().into_bytes();
            }
        }
        let index = fs::read_to_string(self.root().join("MEMORY.md")).expect("index");
        let index = match self.format {
            Format::Memory => regex::Regex::new(r"-[0-9a-f]{32}\.md\)")
                .expect("pattern")
                .replace_all(&index, ".md)")
                .into_owned(),
            Format::Claude => index,
        };
        state.insert("MEMORY.md".into(), index.into_bytes());
        state
    }

    /// A copy of the folder and of memwb's state for it, for [`Folder::restore`].
    pub fn snapshot(&self) -> Snapshot {
        let copy = tempfile::tempdir().expect("snapshot dir");
        super::copy_tree(self.dir.path(), &copy.path().join("dir"));
        super::copy_tree(self.state.path(), &copy.path().join("state"));
        Snapshot(copy)
    }

    /// Puts the folder and its state back as `snapshot` copied them, at the same paths (memwb
    /// keeps a Claude Code folder's journal under a name made from the folder's path), so a
    /// test can start each try from a folder set up once through memwb.
    pub fn restore(&self, snapshot: &Snapshot) {
        for (path, copy) in [(self.dir.path(), "dir"), (self.state.path(), "state")] {
            super::empty_dir(path);
            super::copy_tree(&snapshot.0.path().join(copy), path);
        }
    }

    /// The ids of the journal's entries, oldest first.
    pub fn entry_ids(&self) -> Vec<u64> {
        let log: Vec<Value> = serde_json::from_str(&self.ok(&["log", "--json"])).expect("log");
        log.iter().map(|e| e["id"].as_u64().expect("id")).collect()
    }

    /// Makes the lock a crashed writer left look stale (older than the 30 s after which the
    /// next writer breaks it), so the next command does not wait for it. A Claude Code
    /// folder's state lock is released by the kernel when its holder dies: nothing to do.
    pub fn age_lock(&self) {
        let lock = self.root().join(".lock");
        if let Format::Memory = self.format
            && lock.exists()
        {
            let old = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
            fs::File::open(&lock)
                .and_then(|f| f.set_times(fs::FileTimes::new().set_accessed(old).set_modified(old)))
                .expect("age the lock");
        }
    }

    /// Files in the folder that are neither a memory nor its index: what an interrupted write
    /// left half-done (a temp file, an unlisted record file). memwb's own `.memwb/` folder and
    /// `.memory`'s lock are not counted.
    pub fn leftovers(&self) -> Vec<String> {
        let files = super::tree(&self.root());
        match self.format {
            Format::Claude => files
                .into_keys()
                .filter(|path| !path.ends_with(".md"))
                .collect(),
            Format::Memory => {
                let listed: Vec<String> = self.listed().into_iter().map(|(_, file)| file).collect();
                files
                    .into_keys()
                    .filter(|path| {
                        !path.starts_with(".memwb/")
                            && !["manifest.json", "MEMORY.md", ".lock"].contains(&path.as_str())
                            && !listed.contains(path)
                    })
                    .collect()
            }
        }
    }
}
