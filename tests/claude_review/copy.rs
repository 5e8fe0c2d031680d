//! `copy --from` between a Claude Code folder and a `.memory` set, in both directions.

use super::*;

#[test]
fn copy_from_claude_code_into_memory_converts_and_refuses_with_reasons() {
    let env = Env::new();
    fs::write(env.memory().join("scratch.md"), "loose notes\n").expect("write");
    let workspace = env.dir.path().join("ws");
    fs::create_dir_all(workspace.join(".memory")).expect("mkdir");
    let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.dir.path())
        .env("MEMWB_STATE_DIR", env.state())
        .args(["-C"])
        .arg(&workspace)
        .args(["--format", "memory", "copy", "--from"])
        .arg(env.memory())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "refused scratch: it has no type (user, feedback, project or reference)\n"
    );
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let id = stdout.lines().last().expect("id").to_owned();
    let proposal: Value = serde_json::from_str(
        &fs::read_to_string(workspace.join(format!(".memory/.memwb/proposals/{id}.json")))
            .expect("proposal"),
    )
    .expect("json");
    let records = proposal["plan"].as_array().expect("records");
    let names: Vec<&str> = records
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["user-role", "tabs-indent", "indent-tabs"]);
    assert_eq!(records[0]["type"], "user");
    assert_eq!(records[0]["description"], "Dana leads the storefront team");
    let body = records[0]["body"].as_str().unwrap();
    let source = env.memory().canonicalize().unwrap();
    assert_eq!(
        body,
        format!(
            "(copied from {}/user_role.md)\n\nDana leads the storefront team and decides on the data model.",
            source.display()
        )
    );
    assert_eq!(proposal["origin"]["source"], "copy");
}

#[test]
fn copy_from_memory_into_claude_code_adds_files_with_modified_and_refuses_taken_names() {
    let env = Env::new();
    let workspace = env.dir.path().join("ws");
    fs::create_dir_all(&workspace).expect("mkdir");
    let add = |name: &str, description: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", env.dir.path())
            .arg("-C")
            .arg(&workspace)
            .args(common::cli::add_args(name, description, "Body."))
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    add("release-freeze", "Release freeze: Fridays");
    add("other", "Not copied");
    fs::write(
        env.memory().join("project_taken.md"),
        "---\nname: release-freeze\ntype: project\n---\nx\n",
    )
    .expect("write");
    let from = workspace.join(".memory");
    let from = from.to_str().unwrap();
    let out = env.run(&["copy", "--from", from, "release-freeze"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "refused release-freeze: a memory named \"release-freeze\" is already in the target\nerror: every memory was refused (see above); nothing was proposed\n"
    );
    fs::remove_file(env.memory().join("project_taken.md")).expect("rm");
    let unknown = env.run(&["copy", "--from", from, "nobody"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("no memory named \"nobody\""),
        "{}",
        stderr(&unknown)
    );

    let id = env.proposed(&["copy", "--from", from, "release-freeze"]);
    env.ok(&["approve", &id]);
    let text = env.read("project_release_freeze.md");
    assert!(
        text.starts_with("---\nname: release-freeze\ndescription: \"Release freeze: Fridays\"\nmetadata:\n  node_type: memory\n  type: project\n  modified: 20"),
        "{text}"
    );
    assert!(text.ends_with("---\n\nBody.\n"), "{text}");
    assert!(
        env.read("MEMORY.md")
            .contains("- [release-freeze](project_release_freeze.md) — Release freeze: Fridays\n")
    );
    assert!(!env.memory().join("project_other.md").exists());
}
