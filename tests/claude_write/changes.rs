//! A journaled change of several files: conflicts, undo to the exact bytes, faults and crashes at
//! every step.

use super::*;

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
    let (applied, entry) =
        journaled(&folder, consolidation(), meta(Op::Consolidate)).expect("consolidation");
    let images = applied.images;
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
    let (mut steps, mut kept, mut undone, mut not_durable) = (0, 0, 0, 0);
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
            assert!(
                kept >= 1 && undone >= 9 && not_durable == 1,
                "kept {kept}, undone {undone}, not durable {not_durable}"
            );
            return;
        };
        steps += 1;
        if op == memwb::store::IoOp::SyncDir {
            // Every file is in place: the change stands and is journaled, said not durable.
            let (applied, entry) = result.expect("kept, as every reader sees it");
            assert!(
                applied
                    .not_durable
                    .is_some_and(|why| why.contains("injected failure")),
                "step {n}"
            );
            assert!(entry.is_some(), "step {n}: journaled");
            assert_eq!(files(&fixture), after_files(), "step {n}");
            assert_eq!(consistent_journal(&fixture).len(), 1, "step {n}");
            not_durable += 1;
            continue;
        }
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
