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

#[test]
fn a_plain_write_between_read_and_apply_is_a_conflict_and_nothing_is_clobbered() {
    let fixture = fixture();
    let read = fixture.read("alpha.md").expect("alpha");
    // Claude Code rewrites the file after memwb read it.
    let theirs = ALPHA.replace("Alpha body.", "Alpha body, edited by Claude.");
    fs::write(fixture.memory().join("alpha.md"), &theirs).expect("write");
    let before = files(&fixture);
    let error = journaled(
        &fixture.folder(),
        vec![
            write("alpha.md", Some(&read), Some("mine\n")),
            write("MEMORY.md", Some(INDEX), Some("# changed\n")),
        ],
        meta(Op::Set),
    )
    .expect_err("a conflict");
    match error.engine_error::<ClaudeError>() {
        Some(ClaudeError::Conflict { file, current, .. }) => {
            assert_eq!(file, "alpha.md");
            assert_eq!(current.as_deref(), Some(theirs.as_str()));
        }
        _ => panic!("not a conflict: {error:?}"),
    }
    assert_eq!(error.current_text(), Some(theirs.as_str()));
    assert!(error.is_conflict());
    assert!(
        error.to_string().contains("changed since it was read"),
        "{error}"
    );
    assert_eq!(files(&fixture), before, "nothing was written");
    assert!(consistent_journal(&fixture).is_empty());
    // A file that must not exist, but does, is a conflict too.
    let error = apply(
        &fixture.folder(),
        vec![write("beta.md", None, Some("new\n"))],
        None,
    )
    .expect_err("exists");
    assert!(matches!(error, ClaudeError::Conflict { current: Some(ref c), .. } if c == BETA));
    assert_eq!(files(&fixture), before);
    assert_only_memories(&fixture, &[]);
}

#[test]
fn a_journaled_change_writes_every_file_and_undo_restores_the_exact_bytes() {
    let fixture = fixture();
    let folder = fixture.folder();
    let (images, entry) =
        journaled(&folder, consolidation(), meta(Op::Consolidate)).expect("consolidation");
    assert_eq!(files(&fixture), after_files());
    let entry = entry.expect("journaled");
    assert_eq!(entry.op, Op::Consolidate);
    // The topic files whole, MEMORY.md as its changed lines.
    let topics: Vec<_> = images
        .iter()
        .filter(|i| i.file != "MEMORY.md")
        .cloned()
        .collect();
    assert_eq!(entry.files, topics);
    assert_eq!(entry.lines.len(), 1);
    assert!(entry.lines[0].holds_before(INDEX) && entry.lines[0].holds_after(INDEX_AFTER));
    // Written in the safe order: the new file, the index, then the removals.
    let order: Vec<&str> = images.iter().map(|i| i.file.as_str()).collect();
    assert_eq!(order, ["merged.md", "MEMORY.md", "alpha.md", "beta.md"]);
    assert_eq!(consistent_journal(&fixture), vec![entry.clone()]);

    let (_, undone) = undo(&folder, &entry).expect("undo");
    assert_eq!(files(&fixture), before_files(), "the exact bytes are back");
    let undone = undone.expect("journaled");
    assert_eq!((undone.op, undone.undoes), (Op::Undo, Some(entry.id)));
    assert_eq!(consistent_journal(&fixture).len(), 2);

    // Undoing again is blocked: the files no longer hold what the entry wrote.
    let blocked = undo(&folder, &entry).expect_err("blocked");
    assert!(
        matches!(blocked, ReviewError::UndoBlocked { .. }),
        "{blocked:?}"
    );
    assert_eq!(files(&fixture), before_files());
    assert_only_memories(&fixture, &[]);
    // memwb's files are outside the folder.
    let state = ClaudeState::for_folder(&folder).expect("state");
    assert!(state.path().starts_with(fixture.state.path()));
    assert!(state.path().join("journal.jsonl").is_file());
}

#[test]
fn a_fault_at_any_step_of_a_three_file_change_loses_nothing() {
    let (mut steps, mut kept, mut undone) = (0, 0, 0);
    for n in 0.. {
        assert!(n < 100, "the change never completed");
        let fixture = fixture();
        let hook = FailAt::new(n);
        let result = journaled(
            &fixture.folder_with(IoHooks::new(hook.clone())),
            consolidation(),
            meta(Op::Consolidate),
        );
        let Some((op, path)) = hook.failed() else {
            result.expect("a clean run");
            assert_eq!(files(&fixture), after_files());
            assert_eq!(consistent_journal(&fixture).len(), 1);
            // Two temp files written and synced, two renames, two removals, one directory sync
            // (the files share it), the journal's intent and mark.
            assert!(steps >= 11, "only {steps} steps were exercised");
            assert!(kept >= 1 && undone >= 10, "kept {kept}, undone {undone}");
            return;
        };
        steps += 1;
        let error = result.expect_err("the injected failure");
        // Whatever the step, the next change (here: none) leaves the change whole or undone.
        journaled(&fixture.folder(), Vec::new(), EntryMeta::default()).expect("recovery");
        let entries = consistent_journal(&fixture);
        let files = files(&fixture);
        if files == after_files() {
            kept += 1;
            assert_eq!(entries.len(), 1, "step {n} ({op:?} {path:?}): entry kept");
            assert!(
                matches!(error, ReviewError::NotJournaled { .. }),
                "step {n} ({op:?}): written, so only the mark can have failed: {error}"
            );
        } else {
            undone += 1;
            assert_eq!(files, before_files(), "step {n} ({op:?} {path:?}): {error}");
            assert!(entries.is_empty(), "step {n}: no entry for a change undone");
        }
        assert_only_memories(&fixture, &[]);
    }
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

#[test]
fn a_crash_at_any_step_of_a_three_file_change_is_recovered() {
    if !cfg!(feature = "fault-injection") {
        common::skip(
            "MEMWB_CRASH_AT exists only with the fault-injection feature (cargo test turns it on)",
        );
        return;
    }
    let (mut crashes, mut kept, mut rolled_back) = (0, 0, 0);
    for n in 0.. {
        assert!(n < 100, "the change never completed");
        let fixture = fixture();
        // The state directory exists before the child runs, so every step counted is the
        // change's own.
        ClaudeState::for_folder(&fixture.folder()).expect("state");
        let out = child("child_applies_the_consolidation", &fixture)
            .env("MEMWB_CRASH_AT", n.to_string())
            .output()
            .expect("run the child");
        if out.status.success() {
            assert_eq!(files(&fixture), after_files());
            assert_eq!(consistent_journal(&fixture).len(), 1);
            assert!(crashes >= 11, "only {crashes} crash points");
            // A crash after the last file but before the mark keeps the change; any earlier
            // crash (at least one per file) rolls it back.
            assert!(
                kept >= 1 && rolled_back >= 4,
                "kept {kept}, rolled back {rolled_back}"
            );
            return;
        }
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            out.status.signal(),
            Some(6),
            "step {n}: not the crash point: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        crashes += 1;
        journaled(&fixture.folder(), Vec::new(), EntryMeta::default()).expect("recovery");
        let entries = consistent_journal(&fixture);
        let files = files(&fixture);
        if files == after_files() {
            kept += 1;
            assert_eq!(
                entries.len(),
                1,
                "crash {n}: the whole change is kept, journaled"
            );
        } else {
            rolled_back += 1;
            assert_eq!(files, before_files(), "crash {n}: rolled back");
            assert!(
                entries.is_empty(),
                "crash {n}: no entry for a change rolled back"
            );
        }
        assert_only_memories(&fixture, &[]);
    }
}

#[test]
fn a_third_partys_write_after_a_crash_survives_the_recovery() {
    if !cfg!(feature = "fault-injection") {
        common::skip(
            "MEMWB_CRASH_AT exists only with the fault-injection feature (cargo test turns it on)",
        );
        return;
    }
    for fifo in [false, true] {
        let fixture = fixture();
        ClaudeState::for_folder(&fixture.folder()).expect("state");
        // Crash after the merged file and the index are written (steps: intent, then 4 per
        // replace), before the removals.
        let out = child("child_applies_the_consolidation", &fixture)
            .env("MEMWB_CRASH_AT", "9")
            .output()
            .expect("run the child");
        assert!(!out.status.success(), "the child crashed");
        assert_eq!(fixture.read("MEMORY.md").as_deref(), Some(INDEX_AFTER));
        // Claude Code rewrites MEMORY.md before memwb runs again (or something puts a FIFO
        // there, which recovery must neither read nor trip over).
        let index = fixture.memory().join("MEMORY.md");
        let theirs = "# Claude's own index\n";
        if fifo {
            fs::remove_file(&index).expect("remove");
            rustix::fs::mknodat(
                rustix::fs::CWD,
                &index,
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::from_raw_mode(0o600),
                0,
            )
            .expect("mkfifo");
        } else {
            fs::write(&index, theirs).expect("write");
            // While Claude Code consolidates, not even recovery writes; the intent waits.
            let lock = fixture.memory().join(".consolidate-lock");
            fs::write(&lock, std::process::id().to_string()).expect("lock");
            let refused = journaled(&fixture.folder(), Vec::new(), EntryMeta::default())
                .expect_err("consolidating");
            assert!(refused.to_string().contains("consolidating"), "{refused}");
            let scan = journal_of(&fixture.folder())
                .expect("journal")
                .scan()
                .expect("scan");
            assert!(scan.pending.is_some(), "the intent still waits");
            assert_eq!(fixture.read("merged.md").as_deref(), Some(MERGED));
            fs::remove_file(&lock).expect("unlock");
        }
        journaled(&fixture.folder(), Vec::new(), EntryMeta::default()).expect("recovery");
        if fifo {
            use std::os::unix::fs::FileTypeExt;
            let kind = fs::symlink_metadata(&index)
                .expect("still there")
                .file_type();
            assert!(kind.is_fifo(), "the FIFO is left as it is");
        } else {
            assert_eq!(
                fixture.read("MEMORY.md").as_deref(),
                Some(theirs),
                "not clobbered"
            );
        }
        assert_eq!(fixture.read("merged.md"), None, "our part rolled back");
        assert_eq!(fixture.read("alpha.md").as_deref(), Some(ALPHA));
        assert_eq!(fixture.read("beta.md").as_deref(), Some(BETA));
        assert!(consistent_journal(&fixture).is_empty());
        assert_only_memories(&fixture, &[]);
    }
}

#[test]
fn a_live_consolidation_refuses_every_write_and_a_stale_one_does_not() {
    let fixture = fixture();
    let lock = fixture.memory().join(".consolidate-lock");
    fs::write(&lock, std::process::id().to_string()).expect("lock");
    let before = files(&fixture);
    let error =
        journaled(&fixture.folder(), consolidation(), meta(Op::Consolidate)).expect_err("refused");
    assert!(
        error
            .to_string()
            .starts_with("Claude Code is consolidating this folder; try again when it finishes"),
        "{error}"
    );
    assert!(matches!(
        error.engine_error::<ClaudeError>(),
        Some(ClaudeError::Consolidating { .. })
    ));
    assert_eq!(files(&fixture), before, "nothing written");
    assert!(consistent_journal(&fixture).is_empty());
    // A PID no process can have (above Linux's pid_max).
    fs::write(&lock, "999999999\n").expect("lock");
    journaled(&fixture.folder(), consolidation(), meta(Op::Consolidate)).expect("allowed");
    assert_eq!(fixture.read("merged.md").as_deref(), Some(MERGED));
    assert_only_memories(&fixture, &[".consolidate-lock"]);
}

#[test]
fn links_fifos_and_names_outside_the_rules_are_refused_without_a_hang() {
    let fixture = fixture();
    let outside = fixture.home.path().join("outside.md");
    fs::write(&outside, "outside\n").expect("write");
    std::os::unix::fs::symlink(&outside, fixture.memory().join("link.md")).expect("link");
    std::os::unix::fs::symlink(fixture.home.path(), fixture.memory().join("sub")).expect("link");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        fixture.memory().join("pipe.md"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    let before = files(&fixture);
    let cases = [
        (
            write("link.md", Some("outside\n"), Some("x\n")),
            "symbolic link",
        ),
        (
            write("sub/outside.md", Some("outside\n"), Some("x\n")),
            "not a real folder",
        ),
        (write("pipe.md", Some(""), Some("x\n")), "FIFO"),
        (
            write("../outside.md", Some("outside\n"), Some("x\n")),
            "`..`",
        ),
        (write("/tmp/x.md", None, Some("x\n")), "relative"),
        (write("notes.txt", None, Some("x\n")), "*.md"),
        (write(".hidden.md", None, Some("x\n")), "hidden"),
    ];
    for (bad, rule) in cases {
        let file = bad.file.clone();
        // Each bad file alongside a good one: the good one is not written either.
        let error = apply(
            &fixture.folder(),
            vec![write("alpha.md", Some(ALPHA), Some("changed\n")), bad],
            None,
        )
        .expect_err(&file);
        assert!(error.to_string().contains(rule), "{file}: {error}");
        assert!(
            error.to_string().contains("nothing was written") || rule == "FIFO",
            "{file}: {error}"
        );
        assert_eq!(files(&fixture), before, "{file}: nothing written");
    }
    assert_eq!(fs::read_to_string(&outside).expect("outside"), "outside\n");
    let twice = apply(
        &fixture.folder(),
        vec![
            write("alpha.md", Some(ALPHA), None),
            write("alpha.md", Some(ALPHA), None),
        ],
        None,
    )
    .expect_err("twice");
    assert!(
        twice.to_string().contains("names this file twice"),
        "{twice}"
    );
    assert_eq!(files(&fixture), before);
}

#[test]
fn a_new_file_in_a_missing_subfolder_creates_the_folder_inside_never_through_a_link() {
    let fixture = fixture();
    let changed = apply(
        &fixture.folder(),
        vec![write("notes/deep/x.md", None, Some("x\n"))],
        None,
    )
    .expect("a missing folder is made, as Claude Code's Write makes it");
    assert_eq!(changed.len(), 1);
    assert_eq!(
        fs::read_to_string(fixture.memory().join("notes/deep/x.md")).expect("written"),
        "x\n"
    );
    // Removing a file whose folder is gone is nothing to do; a link on the way is refused.
    std::os::unix::fs::symlink(fixture.home.path(), fixture.memory().join("away")).expect("link");
    let error = apply(
        &fixture.folder(),
        vec![write("away/new/x.md", None, Some("x\n"))],
        None,
    )
    .expect_err("through a link");
    assert!(error.to_string().contains("not a real folder"), "{error}");
    assert!(
        !fixture.home.path().join("new").exists(),
        "nothing made outside"
    );
}

#[test]
fn a_secret_stays_out_of_the_journal_and_undo_restores_the_rest_exactly() {
    let fixture = fixture();
    let folder = fixture.folder();
    let key = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
    let secret = format!("---\nname: token\n---\nThe deploy token is {key} for now.\n");
    let (_, added) = journaled(
        &folder,
        vec![write("token.md", None, Some(&secret))],
        meta(Op::Add),
    )
    .expect("add");
    let added = added.expect("entry");
    assert_eq!(fixture.read("token.md").as_deref(), Some(secret.as_str()));
    let edited = secret.replace("for now", "until Friday");
    let (_, set) = journaled(
        &folder,
        vec![write("token.md", Some(&secret), Some(&edited))],
        meta(Op::Set),
    )
    .expect("set");
    let state = ClaudeState::for_folder(&folder).expect("state");
    let journal = fs::read_to_string(state.path().join("journal.jsonl")).expect("journal");
    assert!(!journal.contains(&key), "the journal holds the secret");
    assert!(journal.contains("[REDACTED]"));
    // Undo of the edit: the redacted image stands for the file; the text before comes back
    // with the credential redacted, every other byte as it was.
    undo(&folder, &set.expect("entry")).expect("undo");
    let back = fixture.read("token.md").expect("token");
    assert_eq!(back, secret.replace(&key, "[REDACTED]"));
    // Undo of the add removes the file: its redacted text is what the entry wrote, as kept.
    undo(&folder, &added).expect("undo the add");
    assert_eq!(fixture.read("token.md"), None);
    assert_only_memories(&fixture, &[]);
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

#[test]
fn two_memwb_processes_serialize_on_the_state_lock() {
    let fixture = fixture();
    let mut holder = child("child_holds_the_state_lock", &fixture)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let stdout = holder.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    assert!(
        lines.any(|l| l.is_ok_and(|l| l.contains("LOCKED"))),
        "the child never took the lock"
    );
    let state = ClaudeState::for_folder(&fixture.folder()).expect("state");
    assert!(
        state.try_lock().expect("try").is_none(),
        "the child holds it"
    );
    drop(holder.stdin.take());
    assert!(holder.wait().expect("wait").success());
    assert!(state.try_lock().expect("try").is_some(), "released at exit");
    journaled(&fixture.folder(), consolidation(), meta(Op::Consolidate)).expect("then writes");
    assert_only_memories(&fixture, &[]);
}

#[test]
fn concurrent_writers_each_land_once_through_conflicts_and_retries() {
    let fixture = fixture();
    const WRITERS: usize = 4;
    std::thread::scope(|scope| {
        for n in 0..WRITERS {
            let fixture = &fixture;
            scope.spawn(move || {
                let folder = fixture.folder();
                let mut attempts = 0;
                loop {
                    attempts += 1;
                    assert!(attempts < 1000, "writer {n} never got through");
                    let base = fixture.read("alpha.md").expect("alpha");
                    let after = format!("{base}line from writer {n}\n");
                    match journaled(
                        &folder,
                        vec![write("alpha.md", Some(&base), Some(&after))],
                        meta(Op::Set),
                    ) {
                        Ok(_) => break,
                        Err(e) if e.is_conflict() => continue,
                        Err(e) => panic!("writer {n}: {e}"),
                    }
                }
            });
        }
    });
    let text = fixture.read("alpha.md").expect("alpha");
    for n in 0..WRITERS {
        let line = format!("line from writer {n}\n");
        assert_eq!(
            text.matches(&line).count(),
            1,
            "writer {n} landed once: {text}"
        );
    }
    assert!(text.starts_with(ALPHA), "the original text is kept");
    let entries = consistent_journal(&fixture);
    let mut ids: Vec<u64> = entries.iter().map(|e| e.id).collect();
    ids.dedup();
    assert_eq!(
        ids,
        (1..=WRITERS as u64).collect::<Vec<_>>(),
        "one entry each, in order"
    );
    assert_only_memories(&fixture, &[]);
}
