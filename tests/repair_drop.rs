//! `repair --drop` keeps the dropped bytes and says so; `undo` puts them back exactly; `repair`
//! finds the entry by file name, by path or by the name written in it.

use crate::common;

use std::fs;

use common::cli::{add, file_of, memwb, ok};
use common::workspace;

/// A workspace with alpha and beta, beta's file broken by hand: returns (beta's file, its bytes).
fn broken() -> (tempfile::TempDir, String, Vec<u8>) {
    let ws = workspace();
    add(ws.path(), "alpha", "alpha", "a");
    add(ws.path(), "beta", "beta", "b");
    add(ws.path(), "gamma", "gamma", "c");
    let file = file_of(ws.path(), "beta");
    let path = ws.path().join(".memory").join(&file);
    let bytes = fs::read_to_string(&path)
        .expect("record")
        .replace("type: project", "type: 42")
        .into_bytes();
    fs::write(&path, &bytes).expect("break it");
    (ws, file, bytes)
}

fn listed(dir: &std::path::Path) -> Vec<String> {
    let text = fs::read_to_string(dir.join(".memory/manifest.json")).expect("manifest");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    v["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f.as_str().expect("str").to_owned())
        .collect()
}

#[test]
fn a_drop_keeps_the_bytes_says_so_and_undo_restores_them_exactly() {
    let (ws, file, bytes) = broken();
    let before = listed(ws.path());
    let out = ok(memwb(ws.path(), &["repair", &file, "--drop"]));
    let first = out.lines().next().expect("a line");
    assert!(
        first.starts_with(&format!("dropped {file} (journal #")),
        "{out}"
    );
    assert!(!listed(ws.path()).contains(&file));
    let kept = ws.path().join(".memory/.memwb/dropped").join(&file);
    assert_eq!(fs::read(&kept).expect("kept"), bytes);
    ok(memwb(ws.path(), &["ls"]));

    ok(memwb(ws.path(), &["undo"]));
    assert_eq!(listed(ws.path()), before, "back at its place");
    assert_eq!(
        fs::read(ws.path().join(".memory").join(&file)).expect("restored"),
        bytes
    );
}

#[test]
fn repair_takes_a_path_or_the_name_written_in_the_file() {
    for how in ["absolute", "relative", "name"] {
        let (ws, file, _) = broken();
        let path = ws.path().join(".memory").join(&file);
        let target = match how {
            "absolute" => path.to_str().expect("utf-8").to_owned(),
            "relative" => format!(".memory/{file}"),
            _ => "beta".to_owned(),
        };
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_memwb"))
            .current_dir(ws.path())
            .args(["repair", &target, "--drop"])
            .output()
            .expect("run");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{how}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).starts_with(&format!("dropped {file}")),
            "{how}"
        );
        assert!(!listed(ws.path()).contains(&file), "{how}");
    }
    // A path outside .memory is refused.
    let (ws, _, _) = broken();
    let out = memwb(ws.path(), &["repair", "/etc/passwd", "--drop"]);
    assert_eq!(out.status.code(), Some(2));
}
