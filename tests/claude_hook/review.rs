//! Review mode: a proposal filed per write, approved and undone; repeated calls; the answer's time
//! budget.

use super::*;

#[test]
fn review_files_a_proposal_per_write_denies_the_call_and_approve_then_undo_apply_it() {
    let session = Session::new();
    let before = session.tree();
    let memory = session.memory();
    let folder = session.folder();
    let content = "---\nname: flaky tests\ndescription: retry the payments suite once\ntype: feedback\n---\nRetry once.\n";
    let write = session.input(
        "PreToolUse",
        "Write",
        json!({"file_path": memory.join("feedback_flaky_tests.md"), "content": content}),
        "toolu_w1",
    );
    let out = session.hook(&write, &[]);
    let id = queued_id(&out);
    assert_eq!(
        out,
        deny(&format!(
            "memwb queued this memory change to feedback_flaky_tests.md as proposal {id} for the user to review; it is not written yet. Its MEMORY.md line is added when the user approves it: do not add one now. Do not retry it or write the file another way; continue with the task."
        ))
    );
    // An Edit and a MultiEdit of an existing file, the second from a background agent.
    let role = memory.join("user_role.md");
    let original = fs::read_to_string(&role).expect("read");
    let last = original.lines().last().expect("line").to_owned();
    let edit = session.input(
        "PreToolUse",
        "Edit",
        json!({"file_path": role, "old_string": last, "new_string": "Prefers async reviews."}),
        "toolu_w2",
    );
    let edit_id = queued_id(&session.hook(&edit, &[]));
    let mut multi = session.input(
        "PreToolUse",
        "MultiEdit",
        json!({"file_path": role, "edits": [{"old_string": last, "new_string": "A"}, {"old_string": "A", "new_string": "B", "replace_all": true}]}),
        "toolu_w3",
    );
    multi["agent_id"] = json!("a1b2c3d4e5");
    multi["agent_type"] = json!("extraction");
    let multi_id = queued_id(&session.hook(&multi, &[]));
    // An Edit that does not apply is denied, and nothing is filed.
    let stale = session.input(
        "PreToolUse",
        "Edit",
        json!({"file_path": role, "old_string": "not in the file", "new_string": "x"}),
        "toolu_w4",
    );
    assert_eq!(
        session.hook(&stale, &[]),
        deny(
            "memwb could not apply this edit to user_role.md as the file is now (edit 1: old_string is not in the file), so nothing was queued or written. Read the file again before editing it."
        )
    );
    assert_eq!(session.tree(), before, "the folder is untouched");
    assert_eq!(session.log(), "", "{}", session.log());

    let listing = memwb::formats::claude::journal::list(&folder).expect("list");
    assert_eq!(listing.proposals.len(), 3);
    let by_id = |id: &str| {
        listing
            .proposals
            .iter()
            .find(|p| p.id == id)
            .expect("filed")
            .clone()
    };
    let new = by_id(&id);
    assert_eq!(new.kind, memwb::review::Kind::Extraction);
    assert_eq!(
        new.files,
        vec![memwb::claude::FileImage {
            file: "feedback_flaky_tests.md".into(),
            before: None,
            after: Some(content.into())
        }]
    );
    let call = new.origin.call.clone().expect("the call");
    assert_eq!(new.origin.source, "claude-code");
    assert_eq!(call.tool_name.as_deref(), Some("Write"));
    assert_eq!(
        call.session_id.as_deref(),
        Some("0b6f2c1e-5d0a-4c9b-9f3e-2a7d8c1b4e60")
    );
    assert!(call.transcript_path.is_some());
    let edited = by_id(&edit_id);
    assert_eq!(edited.kind, memwb::review::Kind::Edit);
    assert_eq!(
        edited.files[0].after.as_deref(),
        Some(
            original
                .replacen(&last, "Prefers async reviews.", 1)
                .as_str()
        )
    );
    let multi = by_id(&multi_id);
    assert_eq!(
        multi.files[0].after.as_deref(),
        Some(original.replacen(&last, "B", 1).as_str())
    );
    let agent = multi.origin.call.expect("call");
    assert_eq!(
        (agent.agent_id.as_deref(), agent.agent_type.as_deref()),
        (Some("a1b2c3d4e5"), Some("extraction"))
    );

    // The next session is told.
    let start = json!({"session_id": "s2", "cwd": session.project(), "hook_event_name": "SessionStart", "source": "startup"});
    assert_eq!(
        session.hook(&start, &[]),
        format!(
            "{}\n",
            json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "3 memory changes are waiting for the user's review in memwb; they are not in memory yet."}})
        )
    );

    // The agent's name is one Claude Code's Write would slugify: approving writes the file as
    // that Write would have left it (the slug it keeps, its session as `originSessionId`),
    // with its index line.
    let index = fs::read_to_string(memory.join("MEMORY.md")).expect("index");
    let approved = memwb::formats::claude::journal::approve(&folder, &id).expect("approve");
    let written = fs::read_to_string(memory.join("feedback_flaky_tests.md")).expect("written");
    assert!(
        written.starts_with("---\nname: flaky-tests\ndescription: retry the payments suite once\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: 0b6f2c1e-5d0a-4c9b-9f3e-2a7d8c1b4e60\n  modified: ")
            && written.ends_with("\n---\n\nRetry once.\n"),
        "{written}"
    );
    let after_index = fs::read_to_string(memory.join("MEMORY.md")).expect("index");
    assert!(
        after_index.contains("(feedback_flaky_tests.md)"),
        "{after_index}"
    );
    let entry = approved.entry.expect("journaled");
    memwb::formats::claude::journal::undo(&folder, &entry).expect("undo");
    assert!(!memory.join("feedback_flaky_tests.md").exists());
    assert_eq!(
        fs::read_to_string(memory.join("MEMORY.md")).expect("index"),
        index
    );
}

#[test]
fn a_memory_md_edit_is_approved_with_its_name_and_recorded_as_a_set() {
    let session = Session::new();
    let index = session.memory().join("MEMORY.md");
    let original = fs::read_to_string(&index).expect("index");
    let edit = json!({"file_path": index, "old_string": original.lines().next().expect("a line"), "new_string": "# Index"});
    let pre = session.input("PreToolUse", "Edit", edit.clone(), "toolu_idx1");
    let id = queued_id(&session.hook(&pre, &[]));
    let out = session.memwb(&["approve", &id], b"", &[]);
    assert!(
        String::from_utf8_lossy(&out.stdout).ends_with(": changed MEMORY.md\n"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        fs::read_to_string(&index)
            .expect("index")
            .starts_with("# Index")
    );

    // Record mode: the same kind of edit is journaled as `set`, not `rm`.
    let now = fs::read_to_string(&index).expect("index");
    let record = [("MEMWB_CLAUDE_MODE", "record")];
    let edit = json!({"file_path": index, "old_string": "# Index", "new_string": "# Memory"});
    let pre = session.input("PreToolUse", "Edit", edit.clone(), "toolu_idx2");
    assert_eq!(session.hook(&pre, &record), "");
    fs::write(&index, now.replacen("# Index", "# Memory", 1)).expect("edit");
    let post = session.input("PostToolUse", "Edit", edit, "toolu_idx2");
    assert_eq!(session.hook(&post, &record), "");
    let entries = memwb::formats::claude::journal::journal_of(&session.folder())
        .expect("journal")
        .entries()
        .expect("entries");
    assert_eq!(entries.last().expect("an entry").op.as_str(), "set");
}

#[test]
fn a_repeated_call_answers_with_the_pending_proposal() {
    let session = Session::new();
    let memory = session.memory();
    let folder = session.folder();
    let content = "---\nname: retries\ndescription: retry the payments suite once\ntype: feedback\n---\nRetry once.\n";
    let write = session.input(
        "PreToolUse",
        "Write",
        json!({"file_path": memory.join("feedback_retries.md"), "content": content}),
        "toolu_same",
    );
    let first = session.hook(&write, &[]);
    let id = queued_id(&first);
    for _ in 0..99 {
        assert_eq!(session.hook(&write, &[]), first);
    }
    // The same change by the same session under another call id is the same proposal too.
    let mut again = write.clone();
    again["tool_use_id"] = json!("toolu_other");
    assert_eq!(queued_id(&session.hook(&again, &[])), id);
    let pending = |folder: &memwb::claude::ClaudeFolder| {
        memwb::formats::claude::journal::list(folder)
            .expect("list")
            .proposals
            .iter()
            .filter(|p| p.status == memwb::review::ProposalStatus::Pending)
            .map(|p| p.id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(pending(&folder), std::slice::from_ref(&id));
    // Another text, or another session, is another change.
    let mut other_text = again.clone();
    other_text["tool_use_id"] = json!("toolu_third");
    other_text["tool_input"]["content"] = json!(content.replace("once", "twice"));
    let second = queued_id(&session.hook(&other_text, &[]));
    let mut other_session = again.clone();
    other_session["tool_use_id"] = json!("toolu_fourth");
    other_session["session_id"] = json!("another-session");
    let third = queued_id(&session.hook(&other_session, &[]));
    assert!(second != id && third != id && second != third);
    assert_eq!(pending(&folder).len(), 3);
    // Once the proposal is decided, the same call files anew.
    memwb::formats::claude::journal::reject(&folder, &id, None).expect("reject");
    assert_ne!(queued_id(&session.hook(&write, &[])), id);
}

/// `memwb hook claude` with `stdin` written and the pipe left open, waited for on a channel
/// with a deadline: the hook must exit by itself inside its budget.
fn hook_with_open_stdin(session: &Session, stdin: &[u8], env: &[(&str, &str)]) -> String {
    let mut child = session.spawn(&["hook", "claude"], env);
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(stdin).expect("write");
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    // The budget is 2 s; the deadline leaves room for a loaded machine.
    let out = receiver
        .recv_timeout(std::time::Duration::from_secs(6))
        .expect("the hook exits inside its budget with stdin still open")
        .expect("memwb runs");
    drop(pipe);
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn a_never_closing_stdin_and_a_held_state_lock_get_an_answer_inside_the_budget() {
    let session = Session::new();
    let target = session.memory().join("feedback_x.md");
    let write = session.input(
        "PreToolUse",
        "Write",
        json!({"file_path": target, "content": "x\n"}),
        "toolu_b1",
    );
    let bytes = serde_json::to_vec(&write).expect("json");
    // One complete object, the pipe left open: answered at once.
    let out = hook_with_open_stdin(&session, &bytes, &[]);
    assert!(out.contains("memwb queued this memory change"), "{out}");
    // Half an object, the pipe left open: no decision, logged.
    assert_eq!(hook_with_open_stdin(&session, &bytes[..40], &[]), "");
    assert!(session.log().contains("budget"), "{}", session.log());

    // The state lock held by another memwb: journaling waits for it only inside the budget,
    // then the log says the change is not journaled yet and what will journal it.
    let state = memwb::claude::ClaudeState::for_folder(&session.folder()).expect("state");
    let held = state.lock().expect("lock");
    // Filing a proposal takes no lock: review still queues it.
    let out = hook_with_open_stdin(&session, &bytes, &[]);
    assert!(out.contains("memwb queued this memory change"), "{out}");
    let record = [("MEMWB_CLAUDE_MODE", "record")];
    let pre = session.input(
        "PreToolUse",
        "Write",
        json!({"file_path": target, "content": "y\n"}),
        "toolu_b2",
    );
    assert_eq!(session.hook(&pre, &record), "");
    fs::write(&target, "y\n").expect("Claude Code writes");
    let post = session.input(
        "PostToolUse",
        "Write",
        json!({"file_path": target, "content": "y\n"}),
        "toolu_b2",
    );
    let post = serde_json::to_vec(&post).expect("json");
    assert_eq!(hook_with_open_stdin(&session, &post, &record), "");
    // The lock wait gives up first (`is not journaled (memory folder ... is locked`), or on a
    // loaded machine the budget's watchdog answers: either way the log says what catches up.
    // `log()` joins every hook.log under the state directory in directory order (the
    // half object's line sits in another one), so the line is found, not taken as the last.
    let log = session.log();
    let line = log
        .lines()
        .find(|l| {
            l.contains("not journaled")
                || l.contains("could not be journaled within the 2 s budget")
        })
        .unwrap_or_else(|| panic!("no line says the change is not journaled: {log}"));
    assert!(line.contains("`memwb watch --record` journals it"), "{log}");
    drop(held);
    let journal = memwb::formats::claude::journal::journal_of(&session.folder()).expect("journal");
    assert!(
        journal
            .entries()
            .expect("entries")
            .iter()
            .all(|e| e.files.iter().all(|f| f.file != "feedback_x.md")),
        "nothing journaled while the lock was held"
    );
}
