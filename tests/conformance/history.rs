//! What each journal entry did, in `memwb log` and the workbench's History view.

use super::{add, kept_files, stderr, workbench};
use crate::common::formats::{BOTH, Folder};

/// `memwb log` and the History view say what each entry did by memory name, in the same words
/// on both formats (a Claude Code folder's History said "changed no records (nothing to undo)"
/// for every entry, and its log listed files).
#[test]
fn log_and_history_say_what_each_change_did_alike_on_both_formats() {
    let steps: [&[&str]; 6] = [
        &add("alpha", "one"),
        &add("zed", "last"),
        &["set", "alpha", "--body", "two"],
        &["set", "alpha", "--name", "beta"],
        &["rm", "beta"],
        &["undo"],
    ];
    let said = [
        "added alpha",
        "added zed",
        "changed alpha",
        "renamed alpha to beta",
        "removed beta",
        "added beta  undoes #5",
    ];
    for format in BOTH {
        let folder = Folder::new(format);
        for step in steps {
            folder.ok(step);
        }
        let log = folder.ok(&["log"]);
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), said.len(), "{format:?}: {log}");
        for (line, said) in lines.iter().zip(said) {
            assert!(
                line.ends_with(said),
                "{format:?}: {line:?} should end {said:?}"
            );
        }
        let mut h = workbench(&folder);
        h.keys("H");
        let screen = h.screen();
        for said in said {
            assert!(
                screen.contains(said),
                "{format:?}: History lacks {said:?}: {screen}"
            );
        }
        assert!(
            !screen.contains("nothing to undo"),
            "{format:?}: the newest entry changed files: {screen}"
        );
    }
}

/// The History view lists the files the selected entry touched on both formats (only a Claude
/// Code folder's entries listed them: a `.memory` entry's record files were not said).
#[test]
fn history_lists_the_files_an_entry_touched_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let mut h = workbench(&folder);
        h.keys("H");
        let screen = h.screen();
        let listed: Vec<&str> = screen
            .lines()
            .filter(|line| line.contains("+ ") && line.contains(".md"))
            .collect();
        assert!(
            screen.contains("files:") && !listed.is_empty(),
            "{format:?}: the added file is not listed: {screen}"
        );
    }
}

/// The shape of `log --json` an entry is compared by: its keys, what it did to which memories,
/// and the memories its files held before and after, each with the keys of the fields kept of
/// it. The file names and the index's files are each format's own.
fn json_shape(entry: &serde_json::Value) -> serde_json::Value {
    let keys = |v: &serde_json::Value| -> Vec<String> {
        v.as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    };
    let side = |s: &serde_json::Value| {
        serde_json::json!({
            "memory": s["memory"],
            "record": keys(&s["record"]),
        })
    };
    // A `.memory` set writes an edited memory to a new file, a Claude Code folder in place:
    // the memories each side's files held are compared, not the files.
    let held = |which: &str| -> Vec<serde_json::Value> {
        entry["files"]
            .as_array()
            .expect("files")
            .iter()
            .map(|f| &f[which])
            .filter(|s| !s["memory"].is_null())
            .map(side)
            .collect()
    };
    let memory_files = serde_json::json!({"before": held("before"), "after": held("after")});
    serde_json::json!({
        "keys": keys(entry),
        "op": entry["op"],
        "summary": entry["summary"],
        "memories": entry["memories"],
        "files": memory_files,
        "undoes": entry["undoes"],
    })
}

/// `log --json` has one shape on both formats: each entry's metadata, the memories it added,
/// changed, renamed and removed, and every file it touched with the memory it held before and
/// after (a `.memory` set printed its records as `before`/`after`, a Claude Code folder its
/// `files` and `lines`).
#[test]
fn log_json_has_one_shape_on_both_formats() {
    let mut shapes = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        for step in [
            &add("alpha", "one")[..],
            &add("zed", "last"),
            &["set", "alpha", "--body", "two"],
            &["set", "alpha", "--name", "beta"],
            &["rm", "zed"],
            &["undo"],
        ] {
            folder.ok(step);
        }
        let log: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["log", "--json"])).expect("log --json");
        let shape: Vec<serde_json::Value> = log.iter().map(json_shape).collect();
        let memories = |i: usize| shape[i]["memories"].clone();
        let said = |added: &[&str],
                    changed: &[&str],
                    renamed: serde_json::Value,
                    removed: &[&str]| {
            serde_json::json!({"added": added, "changed": changed, "renamed": renamed, "removed": removed})
        };
        let none = serde_json::json!([]);
        assert_eq!(
            memories(0),
            said(&["alpha"], &[], none.clone(), &[]),
            "{format:?}: {log:?}"
        );
        assert_eq!(
            memories(2),
            said(&[], &["alpha"], none.clone(), &[]),
            "{format:?}"
        );
        assert_eq!(
            memories(3),
            said(
                &[],
                &[],
                serde_json::json!([{"from": "alpha", "to": "beta"}]),
                &[]
            ),
            "{format:?}: {}",
            log[3]
        );
        assert_eq!(
            memories(5),
            said(&["zed"], &[], none.clone(), &[]),
            "{format:?}"
        );
        let record = serde_json::json!(["name", "type", "description", "body"]);
        assert_eq!(
            shape[4]["files"],
            serde_json::json!({"before": [{"memory": "zed", "record": record}], "after": []}),
            "{format:?}: {}",
            log[4]
        );
        assert_eq!(
            log[3]["files"]
                .as_array()
                .expect("files")
                .iter()
                .find(|f| f["after"]["memory"] == "beta")
                .and_then(|f| f["after"]["record"]["body"].as_str())
                .map(str::trim),
            Some("two"),
            "{format:?}: {}",
            log[3]
        );
        shapes.push(shape);
    }
    assert_eq!(shapes[0], shapes[1], "one shape on both formats");
}

/// A journal entry begun and never marked (here #1: #2 is the one a next change would
/// decide, #3 was marked) is told in the words the rest of memwb uses, the
/// same on both formats: "written" or "failed", never the journal's own field names
/// (`committed`, `aborted`, `intent`), which only the file keeps.
#[test]
fn an_entry_never_marked_is_told_in_a_person_s_words_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        folder.ok(&add("beta", "two"));
        folder.ok(&add("gamma", "three"));
        let (journal, _) = kept_files(&folder)
            .into_iter()
            .find(|(path, _)| path.ends_with("journal.jsonl"))
            .unwrap_or_else(|| panic!("{format:?}: no journal"));
        let journal = match format {
            crate::common::formats::Format::Memory => folder.root().join(".memwb").join(journal),
            crate::common::formats::Format::Claude => folder.state.path().join(journal),
        };
        let text = std::fs::read_to_string(&journal).expect("journal");
        let unmarked: String = text
            .lines()
            .filter(|line| !matches!(*line, r#"{"committed":1}"# | r#"{"committed":2}"#))
            .map(|line| format!("{line}\n"))
            .collect();
        assert_ne!(unmarked, text, "{format:?}: no mark of #1 in {text}");
        std::fs::write(&journal, unmarked).expect("journal");
        let out = folder.run(&["log"]);
        let err = stderr(&out);
        assert!(
            err.contains("skipping line 1: entry #1 was begun but never marked written or failed"),
            "{format:?}: {err}"
        );
        for word in ["committed", "aborted", "intent"] {
            assert!(!err.contains(word), "{format:?}: {word:?} in {err}");
        }
    }
}
