//! The set's files: a failed commit cleaned up, the manifest's rules, links out of the store or
//! workspace.

use super::*;

/// Fails every rename onto `manifest.json`.
struct FailManifestRename;

impl FaultHook for FailManifestRename {
    fn before(&self, op: IoOp, path: &Path) -> std::io::Result<()> {
        if op == IoOp::Rename && path.file_name().is_some_and(|f| f == "manifest.json") {
            return Err(std::io::Error::other("injected: manifest rename fails"));
        }
        Ok(())
    }
}

#[test]
fn failed_manifest_replace_restores_the_index_and_removes_new_files() {
    let dir = copy_fixture_store("stores/basic");
    let before = snapshot(dir.path());
    let store = open_with(
        dir.path(),
        StoreOptions {
            hooks: IoHooks::new(Arc::new(FailManifestRename)),
            ..StoreOptions::default()
        },
    );
    let err = store
        .extend(vec![record("new-a", "A", "a"), record("new-b", "B", "b")])
        .expect_err("manifest rename fails");
    assert!(err.to_string().contains("manifest rename fails"), "{err}");
    assert_unchanged(dir.path(), &before, "manifest replace failed");
    // Same for a consolidation, which would also have deleted the replaced files.
    let base = store.records().expect("readable");
    let err = store
        .apply_consolidation(
            &base,
            vec![],
            &["review-feedback".into()],
            vec![record("merged", "M", "m")],
        )
        .expect_err("manifest rename fails");
    assert!(matches!(err, StoreError::Io { op: "rename", .. }), "{err}");
    assert_unchanged(dir.path(), &before, "consolidation manifest replace failed");
}

#[test]
fn exclusive_create_collision_removes_every_file_of_the_batch() {
    let dir = copy_fixture_store("stores/basic");
    let taken = "00000000000000000000000000000002";
    let squatter = dir.path().join(format!(".memory/second-{taken}.md"));
    fs::write(&squatter, "not ours").expect("squat");
    let before = snapshot(dir.path());
    let store = open_with(
        dir.path(),
        StoreOptions {
            ids: Some(ids(&[
                "00000000000000000000000000000001",
                taken,
                "00000000000000000000000000000003",
            ])),
            ..StoreOptions::default()
        },
    );
    let err = store
        .extend(vec![
            record("first", "1", "1"),
            record("second", "2", "2"),
            record("third", "3", "3"),
        ])
        .expect_err("collision");
    match &err {
        StoreError::Io {
            op: "create",
            path,
            error,
        } => {
            assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists);
            assert!(
                path.ends_with(format!("second-{taken}.md")),
                "{}",
                path.display()
            );
        }
        other => panic!("unexpected error {other}"),
    }
    assert_unchanged(dir.path(), &before, "collision");
    assert_eq!(fs::read(&squatter).expect("squatter kept"), b"not ours");
}

fn write_manifest(dir: &Path, text: &str) {
    fs::write(dir.join(".memory/manifest.json"), text).expect("manifest");
}

#[test]
fn unsafe_manifest_filenames_make_the_set_unreadable() {
    for bad in [
        "NUL.md",
        "nul.md",
        "com1.md",
        "safe-name.md:stream",
        "../outside.md",
        "Upper.md",
        "a.txt",
        ".md",
    ] {
        let dir = copy_fixture_store("stores/basic");
        write_manifest(
            dir.path(),
            &format!("{{\"version\":1,\"files\":[{}]}}", serde_json::json!(bad)),
        );
        let store = open(dir.path());
        let err = store.read().expect_err(bad);
        assert!(
            matches!(&err, StoreError::ManifestInvalid { rule, .. } if rule.contains("unsafe filename")),
            "{bad}: {err}"
        );
        // A writer refuses too, rather than guessing and overwriting.
        let before = snapshot(dir.path());
        assert!(store.extend(vec![record("x", "d", "b")]).is_err(), "{bad}");
        assert_unchanged(dir.path(), &before, bad);
    }
}

#[test]
fn manifest_schema_is_strict() {
    for (text, rule) in [
        (r#"{"version":true,"files":[]}"#, "invalid schema"),
        (r#"{"version":"1","files":[]}"#, "invalid schema"),
        (r#"{"version":2,"files":[]}"#, "invalid schema"),
        (r#"{"files":[]}"#, "invalid schema"),
        (r#"{"version":1,"files":[],"extra":0}"#, "invalid schema"),
        (r#"{"version":1,"files":{}}"#, "invalid schema"),
        (r#"{"version":1,"files":[null]}"#, "invalid schema"),
        (r#"{"version":1,"files":["a-1.md","a-1.md"]}"#, "duplicate"),
        ("", "not JSON"),
        ("{", "not JSON"),
    ] {
        let dir = workspace();
        fs::create_dir(dir.path().join(".memory")).expect("mkdir");
        write_manifest(dir.path(), text);
        let err = open(dir.path()).read().expect_err(text);
        assert!(
            matches!(&err, StoreError::ManifestInvalid { rule: r, .. } if r.contains(rule)),
            "{text}: {err}"
        );
    }
}

#[test]
fn listed_file_that_links_outside_the_store_is_rejected() {
    let dir = workspace();
    let outside = workspace();
    let record_file = outside.path().join("x-1.md");
    fs::write(&record_file, record("x", "d", "b").to_file_text()).expect("outside file");
    fs::create_dir(dir.path().join(".memory")).expect("mkdir");
    std::os::unix::fs::symlink(&record_file, dir.path().join(".memory/x-1.md")).expect("link");
    write_manifest(dir.path(), r#"{"version":1,"files":["x-1.md"]}"#);
    let err = open(dir.path()).read().expect_err("escapes");
    assert!(matches!(err, StoreError::RecordEscapes { .. }), "{err}");
}

#[test]
fn memory_link_escaping_the_workspace_is_rejected() {
    let dir = workspace();
    let outside = copy_fixture_store("stores/basic");
    std::os::unix::fs::symlink(outside.path().join(".memory"), dir.path().join(".memory"))
        .expect("link");
    let before = snapshot(outside.path());
    let store = open(dir.path());
    let err = store.read().expect_err("escapes");
    assert!(matches!(err, StoreError::RootEscapes { .. }), "{err}");
    assert!(err.to_string().starts_with("memory root escapes workspace"));
    let err = store
        .extend(vec![record("x", "d", "b")])
        .expect_err("escapes");
    assert!(matches!(err, StoreError::RootEscapes { .. }), "{err}");
    assert_unchanged(outside.path(), &before, "linked .memory");
    assert!(!outside.path().join(".memory/.lock").exists());

    // A link that points back inside the workspace is still a link: refused.
    let dir = workspace();
    fs::create_dir(dir.path().join("real")).expect("mkdir");
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join(".memory")).expect("link");
    assert!(matches!(
        open(dir.path()).read(),
        Err(StoreError::RootEscapes { .. })
    ));

    // And `.memory` as a plain file.
    let dir = workspace();
    fs::write(dir.path().join(".memory"), "").expect("file");
    assert!(matches!(
        open(dir.path()).read(),
        Err(StoreError::RootEscapes { .. })
    ));
    assert!(matches!(
        open(dir.path()).extend(vec![record("x", "d", "b")]),
        Err(StoreError::RootEscapes { .. })
    ));
}

#[test]
fn linked_workspace_is_resolved() {
    let real = workspace();
    let links = workspace();
    let link = links.path().join("ws");
    std::os::unix::fs::symlink(real.path(), &link).expect("link");
    let store = open(&link);
    assert_eq!(
        store.workspace(),
        fs::canonicalize(real.path()).expect("realpath")
    );
    assert_eq!(store.root(), store.workspace().join(".memory"));
    store
        .extend(vec![record("via-link", "d", "b")])
        .expect("extend through the link");
    assert_eq!(names(&open(real.path())), ["via-link"]);
    assert!(real.path().join(".memory/manifest.json").is_file());
    assert!(!links.path().join("ws/.memory").is_symlink());
}

#[test]
fn missing_memory_or_manifest_is_the_empty_set() {
    let dir = workspace();
    assert!(open(dir.path()).read().expect("no .memory").is_empty());
    fs::create_dir(dir.path().join(".memory")).expect("mkdir");
    fs::write(
        dir.path().join(".memory/stray-1.md"),
        record("stray", "d", "b").to_file_text(),
    )
    .expect("stray");
    assert!(
        open(dir.path()).read().expect("no manifest").is_empty(),
        "unlisted files are not in the set"
    );
    assert_eq!(open(dir.path()).inspect().unlisted, ["stray-1.md"]);
}
