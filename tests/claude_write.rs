//! Writing Claude Code folders: the multi-file compare-and-swap (`claude::write::apply`), its
//! journal and undo (`formats::claude::journal`). Conflicts with a plain write, a fault and a crash at
//! every step of a three-file change, `.consolidate-lock`, links and FIFOs, exact-byte undo,
//! and two processes on the state lock. After every test the Claude folder holds nothing but
//! memories (topic files, MEMORY.md).

use crate::common;

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::FailAt;
use memwb::claude::write::TEMP_PREFIX;
use memwb::claude::{ClaudeError, ClaudeFolder, ClaudeState, FileWrite, LoadLimits, apply};
use memwb::formats::claude::journal::{journal_of, journaled, undo};
use memwb::review::{EntryMeta, Op, ReviewError};
use memwb::store::IoHooks;

mod changes;
mod guards;
mod writers;

const INDEX: &str =
    "# Memory index\n\n- [alpha](alpha.md) — the first\n- [beta](beta.md) — the second\n";
const ALPHA: &str = "---\nname: alpha\ndescription: the first\ntype: project\n---\nAlpha body.\n";
const BETA: &str = "---\nname: beta\r\ndescription: the second\n---\nBeta body, no newline";
const MERGED: &str = "---\nname: merged\ndescription: alpha and beta\ntype: project\n---\nBoth.\n";
const INDEX_AFTER: &str = "# Memory index\n\n- [merged](merged.md) — alpha and beta\n";

/// A Claude Code folder with two topic files and MEMORY.md, and a state root of its own.
type Fixture = common::claude::ClaudeDir;

fn fixture() -> Fixture {
    Fixture::with(&[("MEMORY.md", INDEX), ("alpha.md", ALPHA), ("beta.md", BETA)])
}

/// Every entry in the folder, relative, with its bytes (a link or FIFO: no bytes).
fn files(fixture: &Fixture) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    collect(&fixture.memory(), "", &mut out);
    out.sort();
    out
}

/// Nothing inside the folder but topic files and MEMORY.md (and `extra`).
fn assert_only_memories(fixture: &Fixture, extra: &[&str]) {
    for (file, _) in files(fixture) {
        let name = file.rsplit('/').next().unwrap_or(&file);
        assert!(
            (file.ends_with(".md") && !name.starts_with('.')) || extra.contains(&file.as_str()),
            "{file} is in the Claude Code folder"
        );
        assert!(!name.starts_with(TEMP_PREFIX), "temp file {file} left");
    }
}

fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
    for entry in fs::read_dir(dir).expect("list") {
        let entry = entry.expect("entry");
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        let kind = entry.file_type().expect("type");
        if kind.is_dir() {
            collect(&entry.path(), &format!("{name}/"), out);
        } else if kind.is_file() {
            out.push((name, fs::read(entry.path()).expect("read")));
        } else {
            out.push((name, Vec::new()));
        }
    }
}

fn write(file: &str, base: Option<&str>, after: Option<&str>) -> FileWrite {
    FileWrite {
        file: file.into(),
        base: base.map(str::to_owned),
        after: after.map(str::to_owned),
    }
}

/// The consolidation of alpha and beta: the merged file, both sources removed, the index.
fn consolidation() -> Vec<FileWrite> {
    vec![
        write("alpha.md", Some(ALPHA), None),
        write("MEMORY.md", Some(INDEX), Some(INDEX_AFTER)),
        write("merged.md", None, Some(MERGED)),
        write("beta.md", Some(BETA), None),
    ]
}

fn before_files() -> Vec<(String, Vec<u8>)> {
    let mut files = vec![
        ("MEMORY.md".to_owned(), INDEX.as_bytes().to_vec()),
        ("alpha.md".to_owned(), ALPHA.as_bytes().to_vec()),
        ("beta.md".to_owned(), BETA.as_bytes().to_vec()),
    ];
    files.sort();
    files
}

fn after_files() -> Vec<(String, Vec<u8>)> {
    vec![
        ("MEMORY.md".to_owned(), INDEX_AFTER.as_bytes().to_vec()),
        ("merged.md".to_owned(), MERGED.as_bytes().to_vec()),
    ]
}

fn meta(op: Op) -> EntryMeta {
    EntryMeta {
        op: Some(op),
        ..EntryMeta::default()
    }
}

/// The journal has no pending intent and no damage; its committed entries.
fn consistent_journal(fixture: &Fixture) -> Vec<memwb::review::Entry> {
    let scan = journal_of(&fixture.folder())
        .expect("journal")
        .scan()
        .expect("scan");
    assert!(
        scan.pending.is_none(),
        "an intent is still pending: {:?}",
        scan.pending
    );
    assert!(scan.damaged.is_empty(), "damaged: {:?}", scan.damaged);
    assert_eq!(scan.torn, 0, "a torn line");
    scan.entries
}

/// Run as a child process by the crash test: applies the consolidation, crashing where
/// `MEMWB_CRASH_AT` says. Does nothing in a normal test run.
#[test]
fn child_applies_the_consolidation() {
    let Some(folder) = child_folder() else {
        return;
    };
    journaled(&folder, consolidation(), meta(Op::Consolidate)).expect("consolidation");
}

/// The folder a parent test hands its child process; `None` in a normal test run.
fn child_folder() -> Option<ClaudeFolder> {
    let memory = std::env::var_os("MEMWB_TEST_CHILD_FOLDER")?;
    let state = std::env::var_os("MEMWB_TEST_CHILD_STATE").expect("state root");
    Some(
        ClaudeFolder::open(Path::new(&memory), LoadLimits::default())
            .expect("open")
            .with_state_root(PathBuf::from(state)),
    )
}

/// This test binary running only the test `test`, as a child process on `fixture`'s folder.
fn child(test: &str, fixture: &Fixture) -> Command {
    let mut cmd = Command::new(std::env::current_exe().expect("test binary"));
    let test = common::libtest_name(module_path!(), test);
    cmd.args([&test, "--exact", "--nocapture", "--test-threads=1"])
        .env_remove("MEMWB_CRASH_AT")
        .env_remove("MEMWB_STOP_AT")
        .env("MEMWB_TEST_CHILD_FOLDER", fixture.memory())
        .env("MEMWB_TEST_CHILD_STATE", fixture.state.path());
    cmd
}

/// Run as a child process: holds the folder's state lock until its stdin closes.
#[test]
fn child_holds_the_state_lock() {
    let Some(folder) = child_folder() else {
        return;
    };
    let state = ClaudeState::for_folder(&folder).expect("state");
    let _held = state.lock().expect("lock");
    println!("LOCKED");
    std::io::stdout().flush().expect("flush");
    let mut rest = String::new();
    let _ = std::io::stdin().read_line(&mut rest);
}
