//! What Claude Code loads of MEMORY.md, compared with memwb's prediction, and the switches that
//! turn auto memory off.

use super::*;

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
