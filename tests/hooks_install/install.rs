//! `hooks install` into missing, shared, foreign and old settings files, keeping every byte and
//! mode not memwb's.

use super::*;

#[test]
fn install_into_a_missing_file_creates_it_with_the_three_hooks() {
    let home = tempfile::tempdir().expect("temp");
    let out = ok(memwb(home.path(), &["hooks", "install"]));
    assert_eq!(
        out,
        format!(
            "installed memwb's hooks in {}: memwb hook claude\n",
            settings(home.path()).display()
        )
    );
    assert_eq!(
        read(&settings(home.path())),
        json!({"hooks": {
            "PreToolUse": [memwb_group(Some("*"), "memwb hook claude")],
            "PostToolUse": [memwb_group(Some("*"), "memwb hook claude")],
            "SessionStart": [memwb_group(None, "memwb hook claude")],
        }})
    );
    // Nothing was there before, so there is nothing to back up.
    let names: Vec<String> = fs::read_dir(home.path().join("claude"))
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("backup"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn install_keeps_every_other_key_and_hook_twice_changes_nothing_and_uninstall_restores() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    fs::write(&path, OTHERS).expect("write");
    let out = ok(memwb(home.path(), &["hooks", "install", "--user"]));
    assert!(
        out.ends_with(&format!(
            "the previous file is kept in {}.memwb-backup-1\n",
            path.display()
        )),
        "{out}"
    );
    assert_eq!(
        fs::read_to_string(home.path().join("claude/settings.json.memwb-backup-1"))
            .expect("backup"),
        OTHERS
    );
    let installed = read(&path);
    let keys: Vec<&String> = installed.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["model", "permissions", "hooks", "autoMemoryEnabled"]);
    let pre = &installed["hooks"]["PreToolUse"];
    assert_eq!(pre[0]["hooks"][0]["command"], "~/bin/no-rm-rf");
    assert_eq!(pre[1], memwb_group(Some("*"), "memwb hook claude"));
    assert_eq!(
        installed["hooks"]["Stop"][0]["hooks"][0]["command"],
        "notify-send done"
    );

    let bytes = fs::read(&path).expect("read");
    let again = ok(memwb(home.path(), &["hooks", "install"]));
    assert_eq!(
        again,
        format!(
            "memwb's hooks are already installed in {}; nothing changed\n",
            path.display()
        )
    );
    assert_eq!(
        fs::read(&path).expect("read"),
        bytes,
        "a second install writes nothing"
    );

    // Another mode replaces memwb's entries instead of adding a second set.
    ok(memwb(
        home.path(),
        &["hooks", "install", "--mode", "record"],
    ));
    let record = read(&path);
    assert_eq!(
        record["hooks"]["PreToolUse"]
            .as_array()
            .expect("array")
            .len(),
        2
    );
    assert_eq!(
        record["hooks"]["PreToolUse"][1]["hooks"][0]["command"],
        "memwb hook claude --mode record"
    );

    let out = ok(memwb(home.path(), &["hooks", "uninstall"]));
    assert!(
        out.starts_with(&format!("removed memwb's hooks from {}\n", path.display())),
        "{out}"
    );
    assert_eq!(
        fs::read_to_string(&path).expect("read"),
        OTHERS,
        "the original bytes"
    );
    let original: Value = serde_json::from_str(OTHERS).expect("json");
    assert_eq!(read(&path), original);
    let keys: Vec<String> = read(&path)
        .as_object()
        .expect("object")
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["model", "permissions", "hooks", "autoMemoryEnabled"]);
    let out = ok(memwb(home.path(), &["hooks", "uninstall"]));
    assert_eq!(
        out,
        format!(
            "memwb's hooks are not in {}; nothing changed\n",
            path.display()
        )
    );
}

#[test]
fn a_settings_file_that_is_not_an_object_is_refused_and_left_alone() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    for bad in ["[1, 2]", "{\"hooks\": [] }", "{not json"] {
        fs::write(&path, bad).expect("write");
        let out = memwb(home.path(), &["hooks", "install"]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with(&format!("error: settings file {}", path.display())),
            "{stderr}"
        );
        assert!(stderr.contains("nothing was changed"), "{stderr}");
        assert_eq!(fs::read_to_string(&path).expect("read"), bad);
    }
}

#[test]
fn an_old_narrow_install_is_reported_and_upgraded_in_place_to_every_tool() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    fs::write(&path, NARROW).expect("write");
    let status = ok(memwb_on_path(home.path(), &["hooks", "status"]));
    let warnings = status
        .lines()
        .filter(|l| l.starts_with("  warning: this ") && l.contains("matcher leaves tools out"))
        .count();
    assert_eq!(warnings, 2, "{status}");
    assert!(
        status.contains("\ngate: not effective: PreToolUse does not see every tool; PostToolUse does not see every tool\n"),
        "{status}"
    );

    ok(memwb(home.path(), &["hooks", "install"]));
    let upgraded = read(&path);
    let pre = upgraded["hooks"]["PreToolUse"].as_array().expect("array");
    assert_eq!(pre.len(), 2);
    assert_eq!(
        pre[0],
        memwb_group(Some("*"), "memwb hook claude"),
        "in its place"
    );
    assert_eq!(pre[1]["hooks"][0]["command"], "lint");
    assert_eq!(
        upgraded["hooks"]["PostToolUse"],
        json!([memwb_group(Some("*"), "memwb hook claude")])
    );
    let status = ok(memwb_on_path(home.path(), &["hooks", "status"]));
    assert!(!status.contains("warning"), "{status}");
    assert!(
        status.contains("  PreToolUse [*]: memwb hook claude\n"),
        "{status}"
    );
    assert!(status.ends_with("\ngate: effective\n"), "{status}");
}

#[test]
fn install_keeps_the_files_mode_and_every_byte_not_memwbs_and_every_backup() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    let original = format!("\u{feff}{EXACT}");
    fs::write(&path, &original).expect("write");
    fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).expect("chmod");

    ok(memwb(home.path(), &["hooks", "install"]));
    assert_eq!(mode(&path), 0o600, "the file's mode is kept");
    let text = fs::read_to_string(&path).expect("read");
    assert!(
        text.starts_with("\u{feff}{\r\n    \"apiKeyHelper\""),
        "{text}"
    );
    for kept in [
        "\"big\": 12345678901234567890123,",
        "\"env\": {\"A\": \"1\", \"A\": \"2\"},",
        "\"ratio\": 1.50e0",
    ] {
        assert!(text.contains(kept), "{kept} changed:\n{text}");
    }
    let first = path.with_file_name("settings.json.memwb-backup-1");
    assert_eq!(fs::read_to_string(&first).expect("backup"), original);
    assert_eq!(mode(&first), 0o600);

    // Another install and an uninstall: each keeps what it replaced, none overwrites another.
    fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o640)).expect("chmod");
    ok(memwb(
        home.path(),
        &["hooks", "install", "--mode", "record"],
    ));
    assert_eq!(mode(&path), 0o640);
    // The owner is kept too, where this test may give the file another one (as root).
    use std::os::unix::fs::MetadataExt;
    let owner = std::os::unix::fs::chown(&path, Some(4242), Some(4243))
        .is_ok()
        .then_some((4242, 4243));
    ok(memwb(home.path(), &["hooks", "uninstall"]));
    assert_eq!(
        fs::read_to_string(&path).expect("read"),
        original,
        "byte for byte"
    );
    assert_eq!(mode(&path), 0o640);
    if let Some(owner) = owner {
        let meta = fs::metadata(&path).expect("stat");
        assert_eq!((meta.uid(), meta.gid()), owner, "the owner is kept");
    }
    assert_eq!(fs::read_to_string(&first).expect("backup"), original);
    for generation in 2..=3 {
        let backup = path.with_file_name(format!("settings.json.memwb-backup-{generation}"));
        assert!(
            fs::read_to_string(&backup)
                .expect("backup")
                .contains("memwb hook claude"),
            "generation {generation}"
        );
        assert_eq!(mode(&backup), 0o600);
    }
    // An older memwb's single backup is never overwritten either.
    let legacy = path.with_file_name("settings.json.memwb-backup");
    fs::write(&legacy, "old").expect("write");
    ok(memwb(home.path(), &["hooks", "install"]));
    assert_eq!(fs::read_to_string(&legacy).expect("legacy"), "old");
    assert!(path.with_file_name("settings.json.memwb-backup-4").exists());
}

#[test]
fn a_settings_file_memwb_cannot_edit_exactly_is_refused_untouched() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    let twice = "{\"hooks\": {}, \"hooks\": {\"Stop\": []}}";
    fs::write(&path, twice).expect("write");
    let out = memwb(home.path(), &["hooks", "install"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the key \"hooks\" appears 2 times")
            && stderr.contains("nothing was changed"),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&path).expect("read"), twice);
    assert_eq!(
        fs::read_dir(path.parent().expect("dir"))
            .expect("list")
            .count(),
        1
    );
}
