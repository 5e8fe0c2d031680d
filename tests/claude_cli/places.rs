//! Where Claude Code's folder is: by slug, from a subdirectory or worktree, `autoMemoryDirectory`
//! in each settings file.

use super::*;

#[test]
fn claude_finds_the_folder_by_slug_under_claude_config_dir() {
    let home = tempfile::tempdir().expect("home");
    let config = tempfile::tempdir().expect("config");
    let project = realpath(home.path()).join("work").join("my.proj_x");
    fs::create_dir_all(&project).expect("mkdir");
    let folder = install_memory(config.path(), &project);
    let report = json(run(
        home.path(),
        Some(config.path()),
        &project,
        &["--claude", "check", "--json"],
    ));
    assert_eq!(report["workspace"], realpath(&folder).display().to_string());
    assert!(
        folder
            .to_str()
            .expect("utf-8")
            .ends_with("-work-my-proj-x/memory"),
        "the slug replaces every character that is not a letter or digit"
    );

    // Without CLAUDE_CONFIG_DIR the folder is looked for under ~/.claude, and not found there:
    // the message says where it looked.
    let out = run(home.path(), None, &project, &["--claude", "ls"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    let expected = realpath(home.path()).join(".claude/projects");
    assert!(err.contains(&expected.display().to_string()), "{err}");
    // ~/.claude is the default config folder.
    let home_config = home.path().join(".claude");
    install_memory(&home_config, &project);
    ok(run(home.path(), None, &project, &["--claude", "ls"]));
}

#[test]
fn a_subdirectory_and_a_worktree_resolve_to_the_main_repository() {
    let home = tempfile::tempdir().expect("home");
    let config = tempfile::tempdir().expect("config");
    let base = realpath(home.path());
    let main = base.join("repo");
    fs::create_dir_all(main.join(".git/worktrees/feature")).expect("mkdir");
    fs::create_dir_all(main.join("src/deep")).expect("mkdir");
    let worktree = base.join("feature-wt");
    fs::create_dir_all(worktree.join("sub")).expect("mkdir");
    fs::write(
        worktree.join(".git"),
        format!(
            "gitdir: {}\n",
            main.join(".git/worktrees/feature").display()
        ),
    )
    .expect("write");
    fs::write(main.join(".git/worktrees/feature/commondir"), "../..\n").expect("write");
    // A submodule-like .git file without commondir is its own project.
    let other = base.join("lib");
    fs::create_dir_all(&other).expect("mkdir");
    fs::write(other.join(".git"), "gitdir: ../repo/.git/modules/lib\n").expect("write");
    install_memory(config.path(), &main);
    for cwd in [
        main.clone(),
        main.join("src/deep"),
        worktree.clone(),
        worktree.join("sub"),
    ] {
        let rows = json(run(
            home.path(),
            Some(config.path()),
            &cwd,
            &["--claude", "ls", "--json"],
        ));
        assert_eq!(
            rows.as_array().map(Vec::len),
            Some(9),
            "from {}",
            cwd.display()
        );
    }
    let out = run(
        home.path(),
        Some(config.path()),
        &other,
        &["--claude", "ls"],
    );
    assert_eq!(out.status.code(), Some(2), "lib is not the repo's project");
    assert!(
        text(&out.stderr).contains("-lib/memory"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn auto_memory_directory_in_each_settings_file() {
    let home = tempfile::tempdir().expect("home");
    let config = tempfile::tempdir().expect("config");
    let project = realpath(home.path()).join("proj");
    fs::create_dir_all(project.join(".claude")).expect("mkdir");
    let source = fixture();
    let elsewhere = memory(source.path());
    let ls = |cwd: &Path| {
        run(
            home.path(),
            Some(config.path()),
            cwd,
            &["--claude", "ls", "--json"],
        )
    };

    // User settings, with ~/ expanded against HOME.
    let in_home = home.path().join("memories/shop");
    copy_dir(&elsewhere, &in_home);
    fs::write(
        config.path().join("settings.json"),
        r#"{"autoMemoryDirectory": "~/memories/shop"}"#,
    )
    .expect("write");
    assert_eq!(json(ls(&project)).as_array().map(Vec::len), Some(9));

    // Project settings win over the user's.
    let empty = tempfile::tempdir().expect("empty");
    fs::write(
        project.join(".claude/settings.json"),
        format!(r#"{{"autoMemoryDirectory": "{}"}}"#, empty.path().display()),
    )
    .expect("write");
    assert_eq!(json(ls(&project)), serde_json::json!([]));

    // Local settings win over both.
    fs::write(
        project.join(".claude/settings.local.json"),
        format!(r#"{{"autoMemoryDirectory": "{}"}}"#, elsewhere.display()),
    )
    .expect("write");
    assert_eq!(json(ls(&project)).as_array().map(Vec::len), Some(9));

    // A value Claude Code cannot use is ignored as Claude Code ignores it: the default folder
    // (missing here, so the error names it), and the file and the reason are said.
    for value in [
        r#""mem""#, r#""~""#, r#""""#, "null", "3", r#""/""#, r#""~/""#,
    ] {
        fs::write(
            project.join(".claude/settings.local.json"),
            format!(r#"{{"autoMemoryDirectory": {value}}}"#),
        )
        .expect("write");
        let out = ls(&project);
        assert_eq!(out.status.code(), Some(2), "{value}");
        let err = text(&out.stderr);
        assert!(
            err.contains("-proj/memory")
                && err.contains("autoMemoryDirectory in")
                && err.contains("settings.local.json is ignored"),
            "{value}: {err}"
        );
    }
    // A local settings file that does not parse is skipped: the project's value applies.
    for broken in ["{", r#"{"autoMemoryDirectory": "/x",}"#, "// c\n{}"] {
        fs::write(project.join(".claude/settings.local.json"), broken).expect("write");
        assert_eq!(json(ls(&project)), serde_json::json!([]), "{broken}");
    }
    // `..` is resolved.
    fs::write(
        project.join(".claude/settings.local.json"),
        format!(
            r#"{{"autoMemoryDirectory": "{}/x/.."}}"#,
            elsewhere.display()
        ),
    )
    .expect("write");
    assert_eq!(json(ls(&project)).as_array().map(Vec::len), Some(9));
}
