//! The hook under the real client: review and record mode, Claude Code's Edit of memwb's files,
//! subagents, root, the hook inputs.

use super::*;

/// The `tool_result` the model got for `id`, from the requests after it.
fn tool_result(mock: &Mock, id: &str) -> Value {
    for request in mock.conversation() {
        for message in request["messages"].as_array().into_iter().flatten() {
            for block in message["content"].as_array().into_iter().flatten() {
                if block["type"] == "tool_result" && block["tool_use_id"] == id {
                    return block.clone();
                }
            }
        }
    }
    panic!("no tool_result for {id}");
}

fn result_text(result: &Value) -> String {
    match &result["content"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn proposals(sandbox: &Sandbox) -> Value {
    let out = sandbox.memwb(&sandbox.repo, &["--claude", "proposals", "--json"]);
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|_| panic!("proposals --json: {out:?}"))
}

/// The topic file both gate tests start from, with its index line; returns its path and text.
fn seed_tests_memory(dir: &Path) -> (std::path::PathBuf, &'static str) {
    std::fs::create_dir_all(dir).unwrap();
    let text = "---\nname: tests\ndescription: how tests run\ntype: feedback\n---\nRun them all.\n";
    let file = dir.join("feedback_tests.md");
    std::fs::write(&file, text).unwrap();
    std::fs::write(
        dir.join("MEMORY.md"),
        "- [tests](feedback_tests.md) — how tests run\n",
    )
    .unwrap();
    (file, text)
}

/// A script of one Edit (`toolu_edit`) of `file`, then the end of the turn.
fn edit_script(file: &Path, old: &str, new: &str) -> Vec<mock::Turn> {
    vec![
        tool(
            "toolu_edit",
            "Edit",
            json!({"file_path": file, "old_string": old, "new_string": new}),
        ),
        text("done"),
    ]
}

#[test]
fn review_mode_denies_and_queues_write_edit_and_bash_writes() {
    let Some(_fact) = fact("the hook in review mode: deny reaches the model, the write waits")
    else {
        return;
    };
    let sandbox = Sandbox::new();
    sandbox.install_hooks("review");
    let dir = sandbox.memory_dir();
    let (_, existing) = seed_tests_memory(&dir);
    let new_file = dir.join("user_role.md");
    let new_text = "---\nname: role\ndescription: the user's role\ntype: user\n---\nA tester.\n";
    let script = vec![
        tool(
            "toolu_write",
            "Write",
            json!({"file_path": new_file, "content": new_text}),
        ),
        tool(
            "toolu_edit",
            "Edit",
            json!({"file_path": dir.join("feedback_tests.md"), "old_string": "Run them all.",
                   "new_string": "Run the fast ones first."}),
        ),
        tool(
            "toolu_bash_write",
            "Bash",
            json!({"command": format!("echo note > {}/scratch.md", dir.display()),
                   "description": "write a note"}),
        ),
        tool(
            "toolu_bash_read",
            "Bash",
            json!({"command": format!("cat {}/MEMORY.md", dir.display()),
                   "description": "read the index"}),
        ),
        text("done"),
    ];
    let mock = Mock::serve(script);
    let run = sandbox
        .claude(
            &mock,
            &sandbox.repo,
            "remember the role and the tests",
            &["--allowedTools", "Bash"],
        )
        .ok();

    for id in ["toolu_write", "toolu_edit", "toolu_bash_write"] {
        let result = tool_result(&mock, id);
        assert_eq!(result["is_error"], true, "{id}: {result}");
        assert!(result_text(&result).contains("memwb"), "{id}: {result}");
    }
    let read = tool_result(&mock, "toolu_bash_read");
    assert!(
        result_text(&read).contains("feedback_tests.md"),
        "the read ran: {read}"
    );
    let denied: Vec<&str> = run.result["permission_denials"]
        .as_array()
        .expect("permission_denials")
        .iter()
        .filter_map(|d| d["tool_use_id"].as_str())
        .collect();
    for id in ["toolu_write", "toolu_edit", "toolu_bash_write"] {
        assert!(denied.contains(&id), "{id} in {denied:?}");
    }
    assert!(!new_file.exists(), "the Write did not happen");
    assert!(
        !dir.join("scratch.md").exists(),
        "the Bash write did not run"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("feedback_tests.md")).unwrap(),
        existing
    );

    let queued = proposals(&sandbox);
    let queued = queued.as_array().expect("a list of proposals");
    assert_eq!(queued.len(), 2, "the Write and the Edit wait: {queued:?}");
    for proposal in queued {
        let id = proposal["id"].as_str().expect("id");
        let out = sandbox.memwb(&sandbox.repo, &["--claude", "approve", id]);
        assert!(out.status.success(), "approve {id}: {out:?}");
    }
    // Written as Claude Code's own Write would have left it (docs/claude-code.md).
    let written = std::fs::read_to_string(&new_file).unwrap();
    assert!(
        written.starts_with("---\nname: role\ndescription: \"the user's role\"\nmetadata:\n  node_type: memory\n  type: user\n  originSessionId: ")
            && written.ends_with("\n---\n\nA tester.\n"),
        "{written}"
    );
    assert!(
        std::fs::read_to_string(dir.join("feedback_tests.md"))
            .unwrap()
            .contains("Run the fast ones first.")
    );
    // The two approvals are journal entries 1 and 2: undo each, the last first.
    for entry in ["2", "1"] {
        let out = sandbox.memwb(&sandbox.repo, &["--claude", "undo", entry]);
        assert!(out.status.success(), "undo {entry}: {out:?}");
    }
    assert!(!new_file.exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("feedback_tests.md")).unwrap(),
        existing
    );

    // The next session is told what waits (nothing now, after the approvals): file one more.
    let mock = Mock::serve(vec![
        tool(
            "toolu_again",
            "Write",
            json!({"file_path": new_file, "content": new_text}),
        ),
        text("done"),
    ]);
    sandbox
        .claude(&mock, &sandbox.repo, "remember the role again", &[])
        .ok();
    let mock = Mock::serve(vec![]);
    sandbox
        .claude(&mock, &sandbox.repo, "say hello to the mock", &[])
        .ok();
    let first = mock.conversation().into_iter().next().expect("a request");
    assert!(
        first["messages"]
            .to_string()
            .contains("waiting for the user's review in memwb"),
        "SessionStart's notice reaches the model"
    );
}

#[test]
fn record_mode_journals_a_write_with_the_previous_text() {
    let Some(_fact) = fact("the hook in record mode: the write happens and is journaled") else {
        return;
    };
    let sandbox = Sandbox::new();
    sandbox.install_hooks("record");
    let (file, before) = seed_tests_memory(&sandbox.memory_dir());
    let mock = Mock::serve(edit_script(
        &file,
        "Run them all.",
        "Run the fast ones first.",
    ));
    sandbox
        .claude(&mock, &sandbox.repo, "remember the faster tests", &[])
        .ok();
    let result = tool_result(&mock, "toolu_edit");
    assert_ne!(result["is_error"], true, "{result}");
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.contains("Run the fast ones first."), "{after}");
    let log = sandbox.memwb(&sandbox.repo, &["--claude", "log"]);
    assert!(stdout(&log).contains("changed tests"), "journaled: {log:?}");
    let out = sandbox.memwb(&sandbox.repo, &["--claude", "undo"]);
    assert!(out.status.success(), "undo: {out:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
}

#[test]
fn a_memwb_written_topic_file_through_a_claude_code_edit() {
    let Some(_fact) = fact("Claude Code's Edit changes nothing of a topic file memwb wrote") else {
        return;
    };
    let sandbox = Sandbox::new();
    let dir = sandbox.memory_dir();
    std::fs::create_dir_all(&dir).unwrap();
    // Values Claude Code's writer quotes its own way (a leading dash, a comma, an apostrophe,
    // a double quote, `: `) and ones it leaves bare (`(`, `/`, a dash, a date).
    let memories = [
        ("deploy-steps", "-staging first, always", "Staging first."),
        (
            "greeting-rule",
            "say \"hi\": then ask, it's polite",
            "Greet first.",
        ),
        (
            "release-day",
            "ship (weekly) on 2026-12-01 / Tue — v1.2.3",
            "Ship.",
        ),
    ];
    let mut written = Vec::new();
    for (name, description, body) in memories {
        let mut args = vec!["--claude"];
        args.extend(common::cli::add_args(name, description, body));
        let out = sandbox.memwb(&sandbox.repo, &args);
        assert!(out.status.success(), "add: {out:?}");
        let file = dir.join(format!("project_{}.md", name.replace('-', "_")));
        written.push((file.clone(), std::fs::read_to_string(&file).unwrap(), body));
    }
    let mut turns = Vec::new();
    for (i, (file, _, body)) in written.iter().enumerate() {
        turns.push(tool(
            &format!("toolu_edit{i}"),
            "Edit",
            json!({"file_path": file, "old_string": body, "new_string": format!("{body} Then production.")}),
        ));
    }
    turns.push(text("done"));
    let mock = Mock::serve(turns);
    sandbox
        .claude(&mock, &sandbox.repo, "edit the deploy notes", &[])
        .ok();
    // The fact on 2.1.332: the body edit lands; `modified` is stamped again and the session's
    // `originSessionId` added after it (memwb knows no Claude Code session for a memory a
    // person adds); every other byte memwb wrote stays (docs/claude-code.md).
    let comparable = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("  originSessionId: "))
            .map(|l| {
                if l.starts_with("  modified: ") {
                    "  modified: <stamp>".to_owned()
                } else {
                    l.to_owned()
                }
            })
            .collect()
    };
    for (file, before, body) in &written {
        let edited = std::fs::read_to_string(file).unwrap();
        let expected = before.replace(body, &format!("{body} Then production."));
        assert_eq!(comparable(&edited), comparable(&expected), "{edited}");
        assert!(
            edited.contains("  originSessionId: ") && !before.contains("originSessionId"),
            "{edited}"
        );
    }
}

#[test]
fn a_subagents_write_is_gated_too() {
    let Some(_fact) = fact("a subagent's memory write goes through the hook") else {
        return;
    };
    let sandbox = Sandbox::new();
    sandbox.install_hooks("review");
    let dir = sandbox.memory_dir();
    seed_tests_memory(&dir);
    let file = dir.join("project_release.md");
    let content =
        "---\nname: release\ndescription: how releases run\ntype: project\n---\nTag first.\n";
    // The main agent starts a subagent, whose conversation opens with its prompt: its first
    // turn is the Write, its second its answer; then the main agent ends.
    let prompt = "save the release note";
    let mock = Mock::routed(vec![
        (
            None,
            vec![
                tool(
                    "toolu_agent",
                    "Agent",
                    json!({"description": "save a memory", "prompt": prompt,
                           "subagent_type": "general-purpose"}),
                ),
                text("done"),
            ],
        ),
        (
            Some(prompt),
            vec![
                tool(
                    "toolu_sub_write",
                    "Write",
                    json!({"file_path": file, "content": content}),
                ),
                text("saved"),
            ],
        ),
    ]);
    sandbox
        .claude(&mock, &sandbox.repo, "delegate the release note", &[])
        .ok();
    let result = tool_result(&mock, "toolu_sub_write");
    assert_eq!(result["is_error"], true, "{result}");
    assert!(!file.exists(), "the subagent's Write did not happen");
    let queued = proposals(&sandbox);
    let proposal = queued
        .as_array()
        .expect("proposals")
        .iter()
        .find(|p| p["origin"]["call"]["tool_use_id"] == "toolu_sub_write")
        .unwrap_or_else(|| panic!("the subagent's Write is queued: {queued}"));
    let evidence = proposal["evidence"].as_str().unwrap_or("");
    assert!(
        evidence.contains("general-purpose agent"),
        "the proposal names the subagent, not the main agent: {evidence}"
    );
}

#[test]
fn as_root_skipping_permissions_is_refused_and_not_needed() {
    let Some(_fact) = fact("--dangerously-skip-permissions is refused as root") else {
        return;
    };
    // The other tests write memory and run Bash without it (as root in CI): not needed.
    if !rustix::process::geteuid().is_root() {
        return;
    }
    let sandbox = Sandbox::new();
    let mock = Mock::serve(vec![]);
    let run = sandbox.claude(
        &mock,
        &sandbox.repo,
        "say hello to the mock",
        &["--dangerously-skip-permissions"],
    );
    assert!(!run.output.status.success());
    let said = format!(
        "{}{}",
        run.stdout,
        String::from_utf8_lossy(&run.output.stderr)
    );
    assert!(said.contains("root"), "{said}");
    assert!(mock.requests().is_empty(), "the model was never asked");
}

#[test]
fn hook_inputs_carry_the_fields_memwb_reads() {
    let Some(_fact) =
        fact("the hook inputs: the fields memwb reads, for Write, Edit and SessionStart")
    else {
        return;
    };
    let sandbox = Sandbox::new();
    let capture = sandbox.home.join("hook-inputs.jsonl");
    let command = format!(
        "cat >> '{}'; echo >> '{}'",
        capture.display(),
        capture.display()
    );
    let hook = json!([{"matcher": "*", "hooks": [{"type": "command", "command": command}]}]);
    let session_hook = json!([{"hooks": [{"type": "command", "command": command}]}]);
    std::fs::write(
        sandbox.config.join("settings.json"),
        json!({"hooks": {"PreToolUse": hook, "PostToolUse": hook, "SessionStart": session_hook}})
            .to_string(),
    )
    .unwrap();
    let dir = sandbox.memory_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("project_release.md");
    let content =
        "---\nname: release\ndescription: how releases run\ntype: project\n---\nTag first.\n";
    let mut script = vec![tool(
        "toolu_write",
        "Write",
        json!({"file_path": file, "content": content}),
    )];
    script.extend(edit_script(&file, "Tag first.", "Tag, then publish."));
    let mock = Mock::serve(script);
    sandbox
        .claude(&mock, &sandbox.repo, "note how releases run", &[])
        .ok();

    let captured = std::fs::read_to_string(&capture).expect("the hook ran");
    let inputs: Vec<Value> = serde_json::Deserializer::from_str(&captured)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .expect("every input is JSON");
    let find = |event: &str, id: Option<&str>| -> Value {
        inputs
            .iter()
            .find(|i| {
                i["hook_event_name"] == event
                    && id.is_none_or(|id| i["tool_use_id"].as_str() == Some(id))
            })
            .unwrap_or_else(|| panic!("no {event} input for {id:?} in {captured}"))
            .clone()
    };
    let start = find("SessionStart", None);
    assert!(start["session_id"].is_string(), "{start}");
    assert_eq!(start["cwd"], sandbox.repo.display().to_string());

    let pre_write = find("PreToolUse", Some("toolu_write"));
    assert_eq!(pre_write["tool_name"], "Write");
    assert_eq!(
        pre_write["tool_input"]["file_path"],
        file.display().to_string()
    );
    assert_eq!(pre_write["tool_input"]["content"], content);
    assert_eq!(pre_write["cwd"], sandbox.repo.display().to_string());
    for field in ["session_id", "transcript_path", "permission_mode"] {
        assert!(pre_write[field].is_string(), "{field} in {pre_write}");
    }
    let post_write = find("PostToolUse", Some("toolu_write"));
    assert_eq!(
        post_write["tool_response"]["type"], "create",
        "{post_write}"
    );

    let pre_edit = find("PreToolUse", Some("toolu_edit"));
    assert_eq!(pre_edit["tool_input"]["old_string"], "Tag first.");
    assert_eq!(pre_edit["tool_input"]["new_string"], "Tag, then publish.");
    let post_edit = find("PostToolUse", Some("toolu_edit"));
    let original = post_edit["tool_response"]["originalFile"]
        .as_str()
        .unwrap_or_else(|| panic!("originalFile in {post_edit}"));
    assert!(original.contains("Tag first."), "{original}");
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("Tag, then publish."),
        "the hook that answers nothing lets both calls through"
    );

    // The tools the client offers: Write, Edit and Bash, and no MultiEdit in this version.
    let request = mock.conversation().into_iter().next().expect("a request");
    let tools: Vec<&str> = request["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for name in ["Write", "Edit", "Bash"] {
        assert!(tools.contains(&name), "{name} in {tools:?}");
    }
    assert!(!tools.contains(&"MultiEdit"), "{tools:?}");
}
