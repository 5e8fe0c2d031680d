//! memwb against the real Claude Code (the version pinned in `real_claude/client.rs`), run
//! headless (`claude -p`) against a mock Messages API on loopback. Each test proves one fact
//! memwb depends on (docs/claude-code.md, "Facts proved against the real client"); when one
//! fails on another version (`MEMWB_CLAUDE_CODE_VERSION=latest cargo test --test
//! real_claude`), it prints `fact changed on VERSION: ...`. Without the client installed the
//! tests skip with one line saying how to install it (and fail under `MEMWB_REQUIRE_ALL=1`,
//! as `.ci/run` sets after installing it).

#[path = "real_claude/client.rs"]
mod client;
use crate::common;
#[path = "real_claude/mock.rs"]
mod mock;

use std::path::Path;

use serde_json::{Value, json};

use client::{PINNED, Sandbox, git};
use mock::{Mock, text, tool};

/// Says which fact a failing test proved, when it fails (its drop runs while panicking).
struct Fact(&'static str);

impl Drop for Fact {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let version = client::client().map_or("?", |(_, v)| v.as_str());
            eprintln!(
                "fact changed on Claude Code {version}: {} (proved on {PINNED})",
                self.0
            );
        }
    }
}

/// The fact's guard, or `None` (the test returns) when the client is not installed.
fn fact(name: &'static str) -> Option<Fact> {
    match client::client() {
        Ok(_) => Some(Fact(name)),
        Err(why) => {
            common::skip(why);
            None
        }
    }
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The memory folder the client names in its system prompt.
fn folder_in_prompt(mock: &Mock) -> String {
    let request = mock.conversation().into_iter().next().expect("a request");
    let all = request.to_string();
    let marker = "persistent file-based memory at `";
    let start = all.find(marker).expect("the memory section in the prompt") + marker.len();
    let end = all[start..].find('`').expect("closing backtick") + start;
    all[start..end].trim_end_matches('/').to_owned()
}

/// The folder `memwb --claude` opens from `cwd` (its `check --json` workspace).
fn folder_of_memwb(sandbox: &Sandbox, cwd: &Path) -> String {
    let out = sandbox.memwb(cwd, &["--claude", "check", "--json"]);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|_| {
        panic!(
            "memwb check --json: {} {}",
            stdout(&out),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    report["workspace"]
        .as_str()
        .expect("workspace")
        .trim_end_matches('/')
        .to_owned()
}

/// One `claude -p` run in `cwd`; the folder it names, and memwb's from the same place.
fn folders(sandbox: &Sandbox, cwd: &Path) -> (String, String) {
    let mock = Mock::serve(vec![]);
    sandbox
        .claude(&mock, cwd, "say hello to the mock", &[])
        .ok();
    let claude = folder_in_prompt(&mock);
    std::fs::create_dir_all(&claude).expect("the folder exists");
    (claude, folder_of_memwb(sandbox, cwd))
}

#[test]
fn memory_folder_of_a_repository_its_subdirectory_and_a_linked_worktree() {
    let Some(_fact) = fact("the memory folder: repository root, subdirectory, linked worktree")
    else {
        return;
    };
    let sandbox = Sandbox::new();
    let (claude, memwb) = folders(&sandbox, &sandbox.repo);
    assert_eq!(claude, sandbox.memory_dir().display().to_string());
    assert_eq!(memwb, claude);

    let sub = sandbox.repo.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let (claude, memwb) = folders(&sandbox, &sub);
    assert_eq!(claude, sandbox.memory_dir().display().to_string());
    assert_eq!(memwb, claude);

    let worktree = sandbox.dir.path().canonicalize().unwrap().join("linked");
    git(
        &sandbox.repo,
        &["worktree", "add", "-q", &worktree.display().to_string()],
    );
    let (claude, memwb) = folders(&sandbox, &worktree);
    assert_eq!(claude, sandbox.memory_dir().display().to_string());
    assert_eq!(memwb, claude);
}

#[test]
fn memory_folder_follows_claude_config_dir() {
    let Some(_fact) = fact("the memory folder is under $CLAUDE_CONFIG_DIR/projects") else {
        return;
    };
    let mut sandbox = Sandbox::new();
    let elsewhere = sandbox.dir.path().canonicalize().unwrap().join("cfg");
    std::fs::create_dir_all(&elsewhere).unwrap();
    sandbox.config = elsewhere.clone();
    let (claude, memwb) = folders(&sandbox, &sandbox.repo);
    assert!(
        claude.starts_with(&elsewhere.join("projects").display().to_string()),
        "{claude}"
    );
    assert_eq!(memwb, claude);
}

#[test]
fn auto_memory_directory_valid_and_ignored_values() {
    let Some(_fact) = fact("autoMemoryDirectory: which values move the folder") else {
        return;
    };
    let sandbox = Sandbox::new();
    let moved = sandbox.home.join("moved-memory");
    let settings = sandbox.config.join("settings.json");
    for value in [moved.display().to_string(), "~/moved-memory".to_owned()] {
        std::fs::write(&settings, json!({"autoMemoryDirectory": value}).to_string()).unwrap();
        let (claude, memwb) = folders(&sandbox, &sandbox.repo);
        assert_eq!(claude, moved.display().to_string(), "{value}");
        assert_eq!(memwb, claude, "{value}");
    }
    // Values the client ignores: it keeps the default folder. memwb refuses them, naming the
    // file and the rule, rather than guessing.
    for value in ["relative/memory", "", "~other/memory"] {
        std::fs::write(&settings, json!({"autoMemoryDirectory": value}).to_string()).unwrap();
        let mock = Mock::serve(vec![]);
        sandbox
            .claude(&mock, &sandbox.repo, "say hello to the mock", &[])
            .ok();
        assert_eq!(
            folder_in_prompt(&mock),
            sandbox.memory_dir().display().to_string(),
            "{value:?}"
        );
        let out = sandbox.memwb(&sandbox.repo, &["--claude", "check", "--json"]);
        let said = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
        let follows_client = said.contains(&sandbox.memory_dir().display().to_string());
        assert!(
            follows_client || (!out.status.success() && said.contains("autoMemoryDirectory")),
            "{value:?}: memwb neither uses the default folder nor names the setting: {said}"
        );
    }
}

/// What the client sends the model of MEMORY.md holding `text`, or `None` when it sends none.
fn loaded_by_claude(sandbox: &Sandbox, text: &str) -> Option<String> {
    let dir = sandbox.memory_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("MEMORY.md"), text).unwrap();
    let mock = Mock::serve(vec![]);
    sandbox
        .claude(&mock, &sandbox.repo, "say hello to the mock", &[])
        .ok();
    let request = mock.conversation().into_iter().next().expect("a request");
    let head = "(user's auto-memory, persists across conversations):\n\n";
    request["messages"][0]["content"]
        .as_array()?
        .iter()
        .filter_map(|b| b["text"].as_str())
        .find_map(|t| {
            let start = t.find(head)? + head.len();
            let end = t.rfind("\n</system-reminder>")?;
            Some(t[start..end].to_owned())
        })
}

/// memwb's prediction: `memwb index`'s loaded part (before its cut rule).
fn loaded_by_memwb(sandbox: &Sandbox) -> String {
    let out = sandbox.memwb(&sandbox.repo, &["--claude", "index"]);
    assert!(out.status.success(), "memwb index: {:?}", out);
    let text = stdout(&out);
    let loaded = text.split("── not loaded past here").next().unwrap_or("");
    loaded.strip_suffix('\n').unwrap_or(loaded).to_owned()
}

/// The client's text without its cut warning, CRLF as LF (as the client sends it).
fn without_warning(sent: &str) -> (String, bool) {
    match sent.split_once("\n\n> WARNING: MEMORY.md is ") {
        Some((text, _)) => (text.replace("\r\n", "\n"), true),
        None => (sent.replace("\r\n", "\n"), false),
    }
}

#[test]
fn memory_md_loads_as_memwb_predicts_on_every_edge() {
    let Some(_fact) = fact("what the loader sends of MEMORY.md, edge by edge") else {
        return;
    };
    let numbered = |n: usize| -> String { (1..=n).map(|i| format!("- line {i}\n")).collect() };
    let cases: Vec<(&str, String)> = vec![
        ("250 lines: the 200-line cut", numbered(250)),
        (
            "30,000 units: the cut at the last line break",
            ("a".repeat(149) + "\n").repeat(200),
        ),
        (
            "blank lines around 199 lines are trimmed",
            format!("\n\n\n{}\n\n\n", numbered(199)),
        ),
        (
            "text after --> on its line",
            "# Index\n\n<!-- note --> tail\n- [a](a.md) — x\n".to_owned(),
        ),
        (
            "comments in a code fence and a list item",
            "# Index\n\n```\n<!-- fenced -->\n```\n\n- item\n  <!-- listed -->\n- two\n".to_owned(),
        ),
        (
            "an unclosed comment",
            "# Index\n\n<!-- never closed\n- [a](a.md) — x\n".to_owned(),
        ),
        (
            "blank lines after a comment",
            "# Index\n<!-- c -->\n\n\n- [a](a.md) — x\n".to_owned(),
        ),
        (
            "frontmatter closing mid-line",
            "---\nname: index --- rest of line\n- [a](a.md) — x\n".to_owned(),
        ),
        (
            "one line over 25,000 units",
            "x".repeat(30_000) + "\n- [a](a.md) — x\n",
        ),
        (
            "CJK at 24,999 units, then over",
            format!("{}\n{}\n", "中".repeat(20_000), "文".repeat(4_998)),
        ),
        (
            "CJK over the size limit",
            format!("{}\n{}\n", "中".repeat(20_000), "文".repeat(5_000)),
        ),
        (
            "frontmatter and a comment, CRLF",
            "---\r\nname: x\r\n---\r\n<!-- c -->\r\n# Index\r\n- [a](a.md) — x\r\n".to_owned(),
        ),
    ];
    let sandbox = Sandbox::new();
    let mut differ = Vec::new();
    for (name, text) in &cases {
        let sent = loaded_by_claude(&sandbox, text).expect("MEMORY.md is sent");
        let (claude, warned) = without_warning(&sent);
        let memwb = loaded_by_memwb(&sandbox);
        let out = sandbox.memwb(&sandbox.repo, &["--claude", "check", "--json"]);
        let report: Value = serde_json::from_str(&stdout(&out)).expect("check --json");
        let truncated = report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .any(|f| f["code"] == "index-truncated");
        if claude != memwb || warned != truncated {
            differ.push(format!(
                "{name}: Claude Code sent {} units (cut warning: {warned}), memwb predicts {} \
                 (index-truncated: {truncated}); first difference at unit {}",
                claude.encode_utf16().count(),
                memwb.encode_utf16().count(),
                claude
                    .encode_utf16()
                    .zip(memwb.encode_utf16())
                    .take_while(|(a, b)| a == b)
                    .count()
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn auto_memory_is_off_under_the_switches_memwb_reports() {
    let Some(_fact) = fact("CLAUDE_CODE_DISABLE_AUTO_MEMORY=1 and autoMemoryEnabled: false") else {
        return;
    };
    let mut sandbox = Sandbox::new();
    sandbox
        .env
        .push(("CLAUDE_CODE_DISABLE_AUTO_MEMORY".to_owned(), "1".to_owned()));
    assert_eq!(loaded_by_claude(&sandbox, "- [a](a.md) — x\n"), None);
    let sandbox = Sandbox::new();
    std::fs::write(
        sandbox.config.join("settings.json"),
        json!({"autoMemoryEnabled": false}).to_string(),
    )
    .unwrap();
    assert_eq!(loaded_by_claude(&sandbox, "- [a](a.md) — x\n"), None);
    let out = sandbox.memwb(&sandbox.repo, &["--claude", "ls"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("does not use"),
        "memwb notes the folder is not used: {out:?}"
    );
}

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
