//! `check --all` over every set under the roots, and Claude Code folders: their audit, fixes and
//! home paths.

use super::*;

/// `root/<name>/.memory` with one record each; `leak` gives the set a secret.
fn generated_set(root: &Path, name: &str, leak: bool) {
    let project = root.join(name);
    std::fs::create_dir_all(&project).unwrap();
    let body = if leak {
        format!("token {}", token())
    } else {
        "Tabs.".to_owned()
    };
    open(&project)
        .extend(vec![typed(
            "note",
            MemoryType::User,
            &format!("A note about {name}"),
            &body,
        )])
        .unwrap();
}

#[test]
fn check_all_audits_every_set_under_the_roots_and_fails_on_any_error() {
    let root = workspace();
    generated_set(root.path(), "alpha", false);
    generated_set(root.path(), "beta", true);
    generated_set(&root.path().join("deep/er"), "gamma", false);
    // A Claude Code subagent folder: a topic file with a token, listed in its MEMORY.md.
    let agent = root.path().join("delta/.claude/agent-memory/reviewer");
    claude_folder(&agent, &format!("Review with {}.", token()));
    // Never entered: dependency and build folders.
    generated_set(&root.path().join("node_modules"), "dep", true);
    generated_set(&root.path().join("alpha/target"), "built", true);
    let elsewhere = workspace();
    let out = memwb(
        elsewhere.path(),
        &["check", "--all", root.path().to_str().unwrap(), "--json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let reports = json_of(&out);
    let folders: Vec<String> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["folder"].as_str().unwrap().to_owned())
        .collect();
    let root_text = std::fs::canonicalize(root.path()).unwrap();
    let mut expected: Vec<String> = ["alpha", "beta", "deep/er/gamma"]
        .iter()
        .map(|p| root_text.join(p).join(".memory").display().to_string())
        .collect();
    expected.push(
        root_text
            .join("delta/.claude/agent-memory/reviewer")
            .display()
            .to_string(),
    );
    expected.sort();
    let mut sorted = folders.clone();
    sorted.sort();
    assert_eq!(sorted, expected);
    let formats: Vec<&str> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["format"].as_str().unwrap())
        .collect();
    assert_eq!(formats.iter().filter(|f| **f == "claude").count(), 1);
    let ok: Vec<bool> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ok"].as_bool().unwrap())
        .collect();
    assert_eq!(
        ok.iter().filter(|ok| !**ok).count(),
        2,
        "beta and the agent folder"
    );

    let table = memwb(
        elsewhere.path(),
        &["check", "--all", root.path().to_str().unwrap()],
    );
    let text = String::from_utf8_lossy(&table.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("set"), "{text}");
    for column in ["format", "memories", "errors", "warnings", "worst"] {
        assert!(lines[0].contains(column), "{text}");
    }
    let beta = lines.iter().find(|l| l.contains("beta")).unwrap();
    assert!(
        beta.contains("memory") && beta.contains("error secret"),
        "{beta}"
    );
    let agent_row = lines.iter().find(|l| l.contains("reviewer")).unwrap();
    assert!(
        agent_row.contains("claude") && agent_row.contains("error secret"),
        "{agent_row}"
    );
    assert_eq!(lines.last(), Some(&"4 sets, 2 with errors"));
    // Not a terminal: no progress bar on stderr.
    assert!(
        table.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&table.stderr)
    );

    let clean = workspace();
    generated_set(clean.path(), "only", false);
    let out = memwb(clean.path(), &["check", "--all"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A Claude Code memory folder with one topic file holding `body`, listed in its MEMORY.md.
fn claude_folder(dir: &Path, body: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("review-notes.md"),
        format!(
            "---\nname: review-notes\ndescription: How reviews run\ntype: project\n---\n\n{body}\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("MEMORY.md"),
        "- [Review notes](review-notes.md) — how reviews run\n",
    )
    .unwrap();
}

#[test]
fn a_claude_code_folder_gets_the_content_audit_and_its_fixes() {
    let dir = workspace();
    let folder = dir.path().join("memory");
    claude_folder(
        &folder,
        &format!("Use {} and run `scripts/gone.sh`.", token()),
    );
    let folder_arg = folder.to_str().unwrap();
    let out = memwb(dir.path(), &["--memory-dir", folder_arg, "check", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report = json_of(&out);
    assert_eq!(report["format"], "claude");
    let secret = findings(&report)
        .into_iter()
        .find(|f| f["code"] == "secret")
        .expect("a secret finding");
    assert_eq!(secret["file"], "review-notes.md");
    // Frontmatter on lines 1-5, a blank line, the body on line 7.
    assert_eq!(secret["line"], 7);
    assert!(!String::from_utf8_lossy(&out.stdout).contains(&token()));
    // This folder is no projects/<slug>/memory, so no path can be judged stale, and check
    // says so rather than staying silent.
    assert!(findings(&report).iter().all(|f| f["code"] != "stale-path"));
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("stale-path: relative paths were not checked"),
        "{notes}"
    );
    // The fix is offered; `check --fix` and `accept` on Claude Code folders: tests/claude_fix.rs.
    assert!(
        secret.get("fix").is_none(),
        "the fix is not part of the JSON"
    );
    let text = memwb(dir.path(), &["--memory-dir", folder_arg, "check"]);
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("[fix: redaction proposal]"),
        "{}",
        String::from_utf8_lossy(&text.stdout)
    );
}

#[test]
fn a_folder_in_this_machines_config_gets_its_home_paths_checked_against_its_project() {
    let dir = workspace();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let home = base.join("home");
    let project = home.join("shop");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::write(home.join("notes.md"), "# notes\n").unwrap();
    let folder = home
        .join(".claude/projects")
        .join(memwb::claude::locate::slug(&project))
        .join("memory");
    let home_text = home.display();
    claude_folder(
        &folder,
        &format!(
            "`src/main.rs` and `src/gone.rs`; {home_text}/notes.md, {home_text}/gone.md, \
             `~/notes.md`, `~/old/gone.txt`, /srv/backups/db.tar"
        ),
    );
    let out = common::cli::memwb_claude(&home, &folder, &base.join("state"), &["check", "--json"]);
    let report = json_of(&out);
    let stale: Vec<String> = findings(&report)
        .iter()
        .filter(|f| f["code"] == "stale-path")
        .map(|f| f["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        stale,
        [
            format!(
                "mentions src/gone.rs, which does not exist under the project root {} or in the memory folder",
                project.display()
            ),
            format!("mentions {home_text}/gone.md, which does not exist on this machine"),
            "mentions ~/old/gone.txt, which does not exist in the home directory".to_owned(),
        ]
    );
    assert!(report["notes"].to_string().find("stale-path").is_none());
}
