//! What `check` reports about the set's own files beyond records: `manifest.json` or
//! `MEMORY.md` that is a symbolic link, and a stale `.lock` that no writer can break (a file, a
//! directory that is not empty), which the next writer then explains instead of failing with
//! "Not a directory".

use crate::common;
use crate::common::cli::memwb;

use std::path::Path;
use std::process::Output;

use common::workspace;
use serde_json::Value;

fn add(dir: &Path, name: &str) -> Output {
    memwb(
        dir,
        &[
            "add",
            "--name",
            name,
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
    )
}

fn seeded() -> tempfile::TempDir {
    let dir = workspace();
    let out = add(dir.path(), "alpha");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// `check --json`: its exit code and its findings as (code, file, message).
fn check(dir: &Path) -> (Option<i32>, Vec<(String, String, String)>) {
    let out = memwb(dir, &["check", "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("check --json");
    let findings = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let text = |key: &str| f[key].as_str().unwrap_or_default().to_owned();
            (text("code"), text("file"), text("message"))
        })
        .collect();
    (out.status.code(), findings)
}

fn codes_for<'a>(findings: &'a [(String, String, String)], file: &str) -> Vec<&'a str> {
    findings
        .iter()
        .filter(|(_, f, _)| f == file)
        .map(|(c, _, _)| c.as_str())
        .collect()
}

/// Moves `name` in `.memory` elsewhere and links it back from there.
fn replace_with_link(dir: &Path, name: &str) -> tempfile::TempDir {
    let outside = workspace();
    let path = dir.join(".memory").join(name);
    let target = outside.path().join(name);
    std::fs::rename(&path, &target).expect("move");
    std::os::unix::fs::symlink(&target, &path).expect("link");
    outside
}

#[test]
fn a_linked_manifest_is_reported_as_a_link() {
    let dir = seeded();
    let _outside = replace_with_link(dir.path(), "manifest.json");
    let (code, findings) = check(dir.path());
    assert_eq!(code, Some(1));
    assert_eq!(
        codes_for(&findings, "manifest.json"),
        ["symlink"],
        "{findings:?}"
    );
}

#[test]
fn a_linked_index_is_reported_as_a_link() {
    let dir = seeded();
    let _outside = replace_with_link(dir.path(), "MEMORY.md");
    let (code, findings) = check(dir.path());
    assert_eq!(code, Some(1));
    assert_eq!(
        codes_for(&findings, "MEMORY.md"),
        ["symlink"],
        "{findings:?}"
    );
}

/// Makes `.memory/.lock` look abandoned: older than the stale limit (30 s).
fn age(path: &Path) {
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
    std::fs::File::open(path)
        .and_then(|f| f.set_times(std::fs::FileTimes::new().set_modified(old)))
        .expect("age");
}

fn assert_blocked(dir: &Path, what: &str) {
    let (code, findings) = check(dir);
    assert_eq!(code, Some(1));
    assert_eq!(
        codes_for(&findings, ".lock"),
        ["lock-blocked"],
        "{findings:?}"
    );
    let message = &findings
        .iter()
        .find(|(c, _, _)| c == "lock-blocked")
        .unwrap()
        .2;
    assert!(
        message.contains(what) && message.contains("rm -r"),
        "{message}"
    );
    let out = add(dir, "beta");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(what) && err.contains("remove it by hand") && !err.contains("Not a directory"),
        "{err}"
    );
}

#[test]
fn a_stale_lock_that_is_a_file_is_reported_and_explained() {
    let dir = seeded();
    let lock = dir.path().join(".memory/.lock");
    std::fs::write(&lock, "").expect("file");
    age(&lock);
    assert_blocked(dir.path(), "a file");
}

#[test]
fn a_stale_lock_directory_that_is_not_empty_is_reported_and_explained() {
    let dir = seeded();
    let lock = dir.path().join(".memory/.lock");
    std::fs::create_dir(&lock).expect("dir");
    std::fs::write(lock.join("owner"), "someone").expect("file");
    age(&lock);
    assert_blocked(dir.path(), "a directory that is not empty");
    std::fs::remove_dir_all(&lock).expect("remove by hand, as told");
    let out = add(dir.path(), "beta");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
