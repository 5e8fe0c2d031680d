//! Record mode and `watch --record`: edits let through, journaled and undone; the stash redacted
//! and private.

use super::*;

#[test]
fn record_mode_lets_the_edit_through_journals_it_and_undo_restores_the_bytes() {
    let session = Session::new();
    let file = session.memory().join("user_role.md");
    let original = fs::read_to_string(&file).expect("read");
    let old = original.lines().last().expect("a line").to_owned();
    let edit = json!({"file_path": file, "old_string": old, "new_string": "Prefers async reviews.", "replace_all": false});
    let record = [("MEMWB_CLAUDE_MODE", "record")];
    let pre = session.input("PreToolUse", "Edit", edit.clone(), "toolu_rec1");
    assert_eq!(session.hook(&pre, &record), "");
    assert_eq!(
        fs::read_to_string(&file).expect("read"),
        original,
        "PreToolUse writes nothing"
    );
    // Claude Code's Edit tool runs.
    let edited = original.replacen(&old, "Prefers async reviews.", 1);
    fs::write(&file, &edited).expect("edit");
    let mut post = session.input("PostToolUse", "Edit", edit, "toolu_rec1");
    post["tool_response"] = json!({"filePath": file, "oldString": old});
    assert_eq!(session.hook(&post, &record), "");
    assert_eq!(session.log(), "", "{}", session.log());

    let folder = session.folder();
    let entries = memwb::formats::claude::journal::journal_of(&folder)
        .expect("journal")
        .entries()
        .expect("entries");
    let entry = entries.last().expect("an entry");
    assert_eq!(
        entry.files,
        vec![memwb::claude::FileImage {
            file: "user_role.md".into(),
            before: Some(original.clone()),
            after: Some(edited.clone()),
        }]
    );
    assert_eq!(
        entry.reason.as_deref(),
        Some("recorded from Claude Code: Edit by the main agent in session 0b6f2c1e")
    );
    assert_eq!(
        entry.who.tool,
        Some(memwb::review::who::Tool::Hook),
        "the hook made the entry"
    );
    // A PostToolUse without its PreToolUse (no stash, no originalFile) journals nothing.
    let before = entries.len();
    let orphan = session.input(
        "PostToolUse",
        "Edit",
        json!({"file_path": file, "old_string": "a", "new_string": "b"}),
        "toolu_rec2",
    );
    assert_eq!(session.hook(&orphan, &record), "");
    assert!(
        session.log().contains("no before image of user_role.md"),
        "{}",
        session.log()
    );
    let entry = entry.clone();
    let journal = memwb::formats::claude::journal::journal_of(&folder).expect("journal");
    assert_eq!(journal.entries().expect("entries").len(), before);
    memwb::formats::claude::journal::undo(&folder, &entry).expect("undo");
    assert_eq!(
        fs::read_to_string(&file).expect("read"),
        original,
        "undo restores the exact bytes"
    );
}

#[test]
fn watch_record_journals_an_outside_write_once_with_its_previous_text() {
    use std::io::{BufRead, BufReader};
    use std::time::Duration;

    let session = Session::new();
    let memory = session.memory();
    let mut child = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .env_clear()
        .env("HOME", session.home())
        .env("MEMWB_STATE_DIR", session.state())
        .args([
            "--memory-dir",
            memory.to_str().expect("utf-8"),
            "watch",
            "--record",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut ready = String::new();
    stderr.read_line(&mut ready).expect("read stderr");
    assert_eq!(
        ready,
        format!("watching {} (recording)\n", memory.display())
    );
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let file = memory.join("user_role.md");
    let original = fs::read_to_string(&file).expect("read");
    fs::write(&file, "---\nname: user_role\n---\nchanged by an editor\n").expect("write");
    let line: Value =
        serde_json::from_str(&rx.recv_timeout(Duration::from_secs(20)).expect("a line"))
            .expect("json");
    assert_eq!(line["files"], json!(["user_role.md"]));
    assert_eq!(line["folder"], json!(memory));
    let folder = session.folder();
    let entries = memwb::formats::claude::journal::journal_of(&folder)
        .expect("journal")
        .entries()
        .expect("entries");
    let entry = entries.last().expect("an entry").clone();
    assert_eq!(line["entry"], json!(entry.id));
    assert_eq!(entry.files[0].before.as_deref(), Some(original.as_str()));
    assert_eq!(
        entry.reason.as_deref(),
        Some("recorded by memwb watch: changed outside memwb")
    );
    assert_eq!(entry.who.tool, Some(memwb::review::who::Tool::Watch));
    // memwb's own undo is journaled by memwb: the watcher does not journal it a second time.
    memwb::formats::claude::journal::undo(&folder, &entry).expect("undo");
    assert_eq!(fs::read_to_string(&file).expect("read"), original);
    fs::write(memory.join("project_new.md"), "---\nname: new\n---\nx\n").expect("write");
    let line: Value =
        serde_json::from_str(&rx.recv_timeout(Duration::from_secs(20)).expect("a line"))
            .expect("json");
    assert_eq!(
        line["files"],
        json!(["project_new.md"]),
        "the undo was not recorded again"
    );
    let _ = child.kill();
    let _ = child.wait();
}

/// Mode bits of a path, not following a link.
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::symlink_metadata(path)
        .expect("stat")
        .permissions()
        .mode()
        & 0o7777
}

#[test]
fn the_record_stash_is_redacted_and_every_state_file_is_private() {
    let session = Session::new();
    let token = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
    let file = session.memory().join("user_role.md");
    let original = format!(
        "{}\ndeploy token {token}\n",
        fs::read_to_string(&file).expect("read")
    );
    fs::write(&file, &original).expect("write");
    let edit = json!({"file_path": file, "old_string": "deploy token", "new_string": "the deploy token", "replace_all": false});
    let record = [("MEMWB_CLAUDE_MODE", "record")];
    let pre = session.input("PreToolUse", "Edit", edit.clone(), "toolu_stash1");
    assert_eq!(session.hook(&pre, &record), "");
    let stashes: Vec<PathBuf> = walkdir(&session.state())
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("hook-stash")))
        .collect();
    assert_eq!(stashes.len(), 1, "{stashes:?}");
    let stash = fs::read_to_string(&stashes[0]).expect("stash");
    assert!(
        !stash.contains(&token),
        "the stash keeps the token whole: {stash}"
    );
    assert!(stash.contains("[REDACTED]"), "{stash}");
    assert_eq!(mode_of(&stashes[0]), 0o600);

    // The rest of the state: a journaled change, a proposal, a log line, the lock.
    fs::write(
        &file,
        original.replacen("deploy token", "the deploy token", 1),
    )
    .expect("edit");
    let mut post = session.input("PostToolUse", "Edit", edit, "toolu_stash1");
    post["tool_response"] = json!({"filePath": file});
    assert_eq!(session.hook(&post, &record), "");
    let write = json!({"file_path": session.memory().join("project_new.md"), "content": "---\nname: n\ndescription: d\ntype: project\n---\nbody\n"});
    session.hook(
        &session.input("PreToolUse", "Write", write, "toolu_stash2"),
        &[],
    );
    session.hook_bytes(b"not json", &[]);
    let mut files = 0;
    for path in walkdir(&session.state()) {
        files += 1;
        assert_eq!(mode_of(&path), 0o600, "{}", path.display());
        let mut dir = path.parent();
        while let Some(d) = dir.filter(|d| *d != session.state()) {
            assert_eq!(mode_of(d), 0o700, "{}", d.display());
            dir = d.parent();
        }
    }
    let names: Vec<String> = walkdir(&session.state())
        .iter()
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for expected in ["hook.log", "lock", "folder"] {
        assert!(
            names.iter().any(|n| n == expected),
            "no {expected}: {names:?}"
        );
    }
    assert!(names.iter().any(|n| n.starts_with("journal")), "{names:?}");
    assert!(files >= 5, "{names:?}");
}

/// A change record mode journals from a before image its stash kept redacted: the entry marks
/// that image, so undoing the change, which can only write the redacted text back, says so
/// in the note every undo of redacted text says (docs/security.md).
#[test]
fn undoing_a_recorded_edit_whose_stash_was_redacted_says_the_credentials_stay_redacted() {
    let session = Session::new();
    let token = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
    let file = session.memory().join("user_role.md");
    let original = format!(
        "{}\ndeploy token {token}\n",
        fs::read_to_string(&file).expect("read")
    );
    fs::write(&file, &original).expect("write");
    let edit = json!({"file_path": file, "old_string": "deploy token", "new_string": "the deploy token", "replace_all": false});
    let record = [("MEMWB_CLAUDE_MODE", "record")];
    let pre = session.input("PreToolUse", "Edit", edit.clone(), "toolu_mark1");
    assert_eq!(session.hook(&pre, &record), "");
    fs::write(
        &file,
        original.replacen("deploy token", "the deploy token", 1),
    )
    .expect("edit");
    let mut post = session.input("PostToolUse", "Edit", edit, "toolu_mark1");
    post["tool_response"] = json!({"filePath": file});
    assert_eq!(session.hook(&post, &record), "");
    assert_eq!(session.log(), "", "{}", session.log());

    let out = session.memwb(&["undo"], b"", &[]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let name = memwb::formats::claude::journal::journal_of(&session.folder())
        .expect("journal")
        .entries()
        .expect("entries")
        .first()
        .and_then(|e| e.change().touched.first()?.before.clone()?.memory)
        .expect("the memory the entry changed");
    let notes: Vec<&str> = said.lines().filter(|l| l.starts_with("note: ")).collect();
    assert_eq!(
        notes,
        [format!(
            "note: the credentials in {name} stay [REDACTED]: a redacted secret is not restored"
        )],
        "{said}"
    );
    let back = fs::read_to_string(&file).expect("read");
    assert!(
        !back.contains(&token) && back.contains("deploy token [REDACTED]"),
        "{back}"
    );
}
