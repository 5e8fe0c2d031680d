//! Which memory folder Claude Code uses: a repository, a subdirectory, a worktree,
//! `CLAUDE_CONFIG_DIR`, `autoMemoryDirectory`.

use super::*;

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
