//! `hooks uninstall` taking away what install created, and a crash at every step of either.

use super::*;

#[test]
fn uninstall_takes_away_the_settings_file_and_folder_install_created() {
    let home = tempfile::tempdir().expect("temp");
    let project = home.path().join("repo");
    fs::create_dir_all(&project).expect("mkdir");
    let dir = project.to_str().expect("utf-8");
    ok(memwb(home.path(), &["hooks", "install", "--project", dir]));
    assert_eq!(mode(&project.join(".claude/settings.json")), 0o600);
    ok(memwb(
        home.path(),
        &["hooks", "install", "--project", dir, "--mode", "record"],
    ));
    let out = ok(memwb(
        home.path(),
        &["hooks", "uninstall", "--project", dir],
    ));
    assert!(
        out.contains("and the file, which memwb had created"),
        "{out}"
    );
    assert!(
        !project.join(".claude").exists(),
        "nothing of memwb's is left"
    );

    // A project folder that does not exist is refused, and nothing is made.
    let missing = home.path().join("no-such-repo");
    let out = memwb(
        home.path(),
        &[
            "hooks",
            "install",
            "--project",
            missing.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: --project {}: no such folder; nothing was changed\n",
            missing.display()
        )
    );
    assert!(!missing.exists());

    // A .claude/ that holds something else stays, with that in it.
    ok(memwb(home.path(), &["hooks", "install", "--project", dir]));
    fs::write(project.join(".claude/settings.local.json"), "{}").expect("write");
    ok(memwb(
        home.path(),
        &["hooks", "uninstall", "--project", dir],
    ));
    let left: Vec<String> = fs::read_dir(project.join(".claude"))
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["settings.local.json"]);

    // Keys the user added to the created file meanwhile keep it.
    ok(memwb(home.path(), &["hooks", "install", "--project", dir]));
    let path = project.join(".claude/settings.json");
    let with_hooks = fs::read_to_string(&path).expect("read");
    let added = with_hooks.replacen('{', "{\n  \"model\": \"opus\",", 1);
    fs::write(&path, &added).expect("write");
    ok(memwb(
        home.path(),
        &["hooks", "uninstall", "--project", dir],
    ));
    assert_eq!(read(&path), json!({"model": "opus"}));
}

#[test]
fn a_crash_at_any_step_of_install_or_uninstall_leaves_the_old_file_or_the_new_one() {
    if !cfg!(feature = "fault-injection") {
        eprintln!(
            "skipping: MEMWB_CRASH_AT exists only with the fault-injection feature (cargo test turns it on)"
        );
        return;
    }
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    let dir = path.parent().expect("dir").to_owned();
    fs::create_dir_all(&dir).expect("mkdir");
    fs::write(&path, EXACT).expect("write");
    ok(memwb(home.path(), &["hooks", "install"]));
    let installed = fs::read(&path).expect("read");
    let done = home.path().join("done");
    fs::create_dir_all(&done).expect("mkdir");

    for (args, before, after) in [
        (
            &["hooks", "uninstall"][..],
            installed.clone(),
            EXACT.as_bytes().to_vec(),
        ),
        (
            &["hooks", "install"][..],
            EXACT.as_bytes().to_vec(),
            installed.clone(),
        ),
    ] {
        let mut crashes = 0;
        for n in 0.. {
            assert!(n < 50, "{args:?} never completed");
            // Every run starts from the same file and the same backups.
            for entry in fs::read_dir(&dir).expect("list") {
                fs::remove_file(entry.expect("entry").path()).expect("clear");
            }
            fs::write(&path, &before).expect("write");
            let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
                .env_clear()
                .env("HOME", home.path())
                .env("CLAUDE_CONFIG_DIR", home.path().join("claude"))
                .env("MEMWB_CONFIG", home.path().join("memwb.toml"))
                .env("MEMWB_STATE_DIR", home.path().join("state"))
                .env("MEMWB_CRASH_AT", n.to_string())
                .args(args)
                .output()
                .expect("run");
            let now = fs::read(&path).expect("the file is always there");
            assert!(
                now == before || now == after,
                "{args:?} step {n}: a third version"
            );
            for (_, backup) in backups(&dir) {
                assert_eq!(
                    fs::read(&backup).expect("backup"),
                    before,
                    "{args:?} step {n}"
                );
            }
            if out.status.success() {
                assert_eq!(now, after);
                break;
            }
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(
                out.status.signal(),
                Some(6),
                "{args:?} step {n}: not the crash point"
            );
            crashes += 1;
            // The next run finishes the job and clears what the crash left.
            let again = memwb(home.path(), args);
            assert_eq!(again.status.code(), Some(0), "{args:?} step {n}");
            assert_eq!(fs::read(&path).expect("read"), after, "{args:?} step {n}");
            let names: Vec<String> = fs::read_dir(&dir)
                .expect("list")
                .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".tmp"))
                .collect();
            assert!(names.is_empty(), "{args:?} step {n}: {names:?}");
        }
        assert!(crashes >= 4, "{args:?}: only {crashes} crash points");
    }
}

/// The numbered backups in `dir`: (generation, path).
fn backups(dir: &Path) -> Vec<(u32, std::path::PathBuf)> {
    fs::read_dir(dir)
        .expect("list")
        .filter_map(|e| {
            let path = e.expect("entry").path();
            let name = path.file_name()?.to_string_lossy().into_owned();
            let generation = name
                .strip_prefix("settings.json.memwb-backup-")?
                .parse()
                .ok()?;
            Some((generation, path))
        })
        .collect()
}
