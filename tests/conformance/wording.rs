//! One wording, one flag and one output shape per idea on both formats, and the index fix
//! (`index --fix`, `R`) that previews before it writes.

use std::fs;

use crossterm::event::KeyCode;

use super::{add, stderr, workbench};
use crate::common::formats::{BOTH, Folder};

/// Makes MEMORY.md need a fix: a line memwb would not write there.
fn drift_index(folder: &Folder) -> Vec<u8> {
    let path = folder.root().join("MEMORY.md");
    let mut text = fs::read_to_string(&path).expect("index");
    text.push_str("- [ghost](ghost.md) — gone\n");
    fs::write(&path, &text).expect("drift");
    text.into_bytes()
}

/// `index --fix` shows the fix as a diff and writes nothing; `--yes` writes it (journaled);
/// `index --write`, its older spelling, does the same on both formats and says so.
#[test]
fn index_fix_previews_and_yes_writes_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let path = folder.root().join("MEMORY.md");
        let drifted = drift_index(&folder);
        let shown = folder.ok(&["index", "--fix"]);
        assert!(
            shown.contains("--- a/MEMORY.md") && shown.contains("-- [ghost](ghost.md)"),
            "{format:?}: {shown}"
        );
        assert_eq!(
            fs::read(&path).expect("index"),
            drifted,
            "{format:?}: previewed only"
        );
        folder.ok(&["index", "--fix", "--yes"]);
        assert!(
            !fs::read_to_string(&path).expect("index").contains("ghost"),
            "{format:?}"
        );
        assert_eq!(
            folder.ok(&["index", "--fix"]).trim(),
            "MEMORY.md needs no fix",
            "{format:?}"
        );
        let ops: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["log", "--json"])).expect("log");
        assert_eq!(
            ops.last().expect("entry")["op"],
            "rebuild-index",
            "{format:?}"
        );

        drift_index(&folder);
        let out = folder.run(&["index", "--write"]);
        assert_eq!(out.status.code(), Some(0), "{format:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("`index --fix --yes`"),
            "{format:?}: {}",
            stderr(&out)
        );
        assert!(
            !fs::read_to_string(&path).expect("index").contains("ghost"),
            "{format:?}"
        );
    }
}

/// `R` in the workbench shows the fix of MEMORY.md and writes it only on yes, on both formats
/// (it wrote at once on `.memory`).
#[test]
fn r_previews_the_index_fix_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let path = folder.root().join("MEMORY.md");
        let drifted = drift_index(&folder);
        let mut h = workbench(&folder);
        h.press(KeyCode::Char('R'));
        let screen = h.screen();
        assert!(screen.contains("Fix MEMORY.md"), "{format:?}: {screen}");
        assert!(
            screen.contains("- - [ghost](ghost.md)"),
            "{format:?}: {screen}"
        );
        assert_eq!(
            fs::read(&path).expect("index"),
            drifted,
            "{format:?}: shown only"
        );
        h.press(KeyCode::Char('n'));
        assert_eq!(
            fs::read(&path).expect("index"),
            drifted,
            "{format:?}: no writes nothing"
        );
        h.press(KeyCode::Char('R'));
        h.press(KeyCode::Char('y'));
        assert!(
            !fs::read_to_string(&path).expect("index").contains("ghost"),
            "{format:?}"
        );
        let status = h.app.status.clone().expect("status").text;
        assert!(status.contains(": written ("), "{format:?}: {status}");
    }
}

/// A type memwb does not know is refused in one wording, which names no Rust type.
#[test]
fn an_unknown_type_is_refused_in_one_wording_on_both_formats() {
    let wording = "unknown type \"wrong\": use user, feedback, project or reference";
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let json = r#"[{"name":"x","type":"wrong","description":"d","body":"b"}]"#;
        for out in [
            folder.run(&[
                "add",
                "--name",
                "bad",
                "--type",
                "wrong",
                "--description",
                "d",
                "--body",
                "b",
            ]),
            folder.run_with(&["add", "--json", "-"], json),
            folder.run(&["set", "alpha", "--type", "wrong"]),
        ] {
            assert_eq!(out.status.code(), Some(2), "{format:?}: {}", stderr(&out));
            let err = stderr(&out);
            assert!(err.contains(wording), "{format:?}: {err}");
            assert!(!err.contains("MemoryType"), "{format:?}: {err}");
        }
    }
}

/// How many memories to select is `--max` for `select` and `eval` alike; `eval --k` still works.
#[test]
fn select_and_eval_take_max_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "tabs for indentation"));
        folder.ok(&add("beta", "spaces in yaml"));
        let picked: serde_json::Value =
            serde_json::from_str(&folder.ok(&["select", "tabs", "--max", "1", "--json"]))
                .expect("json");
        assert!(
            picked["selected"].as_array().expect("list").len() <= 1,
            "{format:?}"
        );
        for flag in ["--max", "--k"] {
            let run: serde_json::Value =
                serde_json::from_str(&folder.ok(&["eval", "--self", flag, "1", "--json"]))
                    .expect("json");
            assert_eq!(run["k"], 1, "{format:?} {flag}: {run}");
        }
        let help = folder.ok(&["eval", "--help"]);
        assert!(
            help.contains("--max <N>") && !help.contains("--k"),
            "{format:?}: {help}"
        );
    }
}

/// Every flag docs/cli.md lists in its "One idea, one word" table exists on both formats.
#[test]
fn the_one_word_table_lists_flags_both_formats_take() {
    let doc = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md"))
        .expect("docs/cli.md");
    let table = doc
        .split("## One idea, one word")
        .nth(1)
        .expect("docs/cli.md has the table")
        .split("\n## ")
        .next()
        .expect("section");
    let mut checked = 0;
    for row in table.lines().filter(|l| l.starts_with('|')).skip(2) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // | idea | wording | commands and flags |
        let Some(flags) = cells.get(3) else { continue };
        for usage in flags.split('`').skip(1).step_by(2) {
            let words: Vec<&str> = usage.split_whitespace().skip(1).collect();
            let command: Vec<&str> = words
                .iter()
                .take_while(|w| !w.starts_with("--"))
                .filter(|w| !w.chars().all(|c| c.is_ascii_uppercase()))
                .copied()
                .collect();
            let flags: Vec<&str> = words
                .iter()
                .filter(|w| w.starts_with("--"))
                .copied()
                .collect();
            for format in BOTH {
                let folder = Folder::new(format);
                let mut args = command.clone();
                args.push("--help");
                let help = folder.ok(&args);
                for flag in &flags {
                    assert!(
                        help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n")),
                        "{format:?}: `memwb {}` has no {flag}: {help}",
                        command.join(" ")
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked >= 8,
        "the table lists at least four flags: {checked} checks"
    );
}
