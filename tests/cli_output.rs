//! Untrusted text on the command line: every command's human output (stdout and stderr) for a
//! record full of escape sequences carries none of them; `--json` stays escaped JSON and
//! `show --raw` is the file's exact bytes.

use crate::common;

use std::path::Path;

use common::cli::{add, file_of, memwb, memwb_with, ok, stderr, stdout};
use common::workspace;

/// OSC 0 (title), OSC 8 (hyperlink), OSC 52 (clipboard), CSI, C1 CSI, backspace, bidi.
const HOSTILE: &str = "t\u{1b}]0;pwned\u{7} \u{1b}]8;;https://evil.example\u{1b}\\link\u{1b}]8;;\u{1b}\\ \
     \u{1b}]52;c;ZXZpbA==\u{7} \u{1b}[2J\u{1b}[31mred \u{9b}2J x\u{8}y \u{202e}desrever\u{202c} \u{2066}iso\u{2069} \u{7f}";

fn assert_inert(what: &str, text: &str) {
    let bad: Vec<String> = text
        .chars()
        .filter(|&c| {
            c == '\u{1b}'
                || ('\u{80}'..='\u{9f}').contains(&c)
                || matches!(
                    c,
                    '\u{8}' | '\u{7}' | '\u{7f}' | '\u{061c}' | '\u{200e}' | '\u{200f}'
                )
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c)
        })
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    assert!(bad.is_empty(), "{what} printed {bad:?}: {text:?}");
}

fn run(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = memwb_with(dir, args, stdin, &[]);
    (out.status.code().unwrap_or(-1), stdout(&out), stderr(&out))
}

#[test]
fn no_command_prints_an_escape_sequence_from_a_record() {
    let dir = workspace();
    add(
        dir.path(),
        "hostile",
        &format!("desc {HOSTILE}"),
        &format!("body {HOSTILE}\nline two {HOSTILE}"),
    );
    add(dir.path(), "plain", "tabs and spaces", "a plain body");
    let reply = serde_json::json!([{
        "name": "proposed",
        "type": "user",
        "description": format!("proposed {HOSTILE}"),
        "body": format!("proposed body {HOSTILE}"),
    }])
    .to_string();
    let id = ok(memwb_with(
        dir.path(),
        &[
            "propose",
            "import",
            "--evidence",
            &format!("evidence {HOSTILE}"),
            "-",
        ],
        &reply,
        &[],
    ));
    let id = id.trim().to_owned();
    let mut runs: Vec<(Vec<String>, i32, String, String)> = Vec::new();
    let mut go = |args: &[&str], stdin: &str| {
        let (code, out, err) = run(dir.path(), args, stdin);
        runs.push((args.iter().map(|a| a.to_string()).collect(), code, out, err));
    };
    go(&["ls"], "");
    go(&["show", "hostile"], "");
    go(&["index"], "");
    go(&["select", "hostile body desc"], "");
    go(&["select", "hostile body desc", "--model-cmd", "cat"], "");
    go(&["check"], "");
    go(
        &[
            "eval",
            "add",
            &format!("hostile {HOSTILE}"),
            "--expect",
            "hostile",
            "--note",
            HOSTILE,
        ],
        "",
    );
    go(&["eval", "ls"], "");
    go(&["eval"], "");
    go(&["proposals", "--all"], "");
    go(&["log"], "");
    go(
        &[
            "set",
            "hostile",
            "--description",
            &format!("desc {HOSTILE}"),
        ],
        "",
    );
    go(
        &["set", "plain", "--description", &format!("now {HOSTILE}")],
        "",
    );
    go(&["approve", &id], "");
    go(&["log"], "");
    go(&["undo"], "");
    go(&["reject", &id, "--reason", HOSTILE], "");
    go(&["rm", "plain"], "");
    go(
        &[
            "add",
            "--name",
            "x",
            "--type",
            "user",
            "--description",
            HOSTILE,
            "--body",
            "",
        ],
        "",
    );
    go(
        &["add", "--json", "-"],
        &format!("[{{\"name\":\"y\",\"type\":\"{HOSTILE}\"}}]").replace('\u{1b}', "\\u001b"),
    );
    go(&["propose", "import", "-"], HOSTILE);
    // A listed file that does not read, its text full of escapes: the errors quote it.
    let file = file_of(dir.path(), "hostile");
    std::fs::write(
        dir.path().join(".memory").join(&file),
        format!("---\nname: {HOSTILE}\n---\n\n{HOSTILE}\n"),
    )
    .unwrap();
    go(&["check"], "");
    go(&["ls"], "");
    go(&["select", "anything"], "");
    go(&["repair", &file, "--from", "-"], HOSTILE);
    assert!(runs.len() > 20);
    for (args, code, out, err) in &runs {
        assert!(matches!(code, 0..=2), "{args:?} exited {code}: {err}");
        assert_inert(&format!("{args:?} stdout"), out);
        assert_inert(&format!("{args:?} stderr"), err);
    }
    let shown = &runs[1].2;
    assert!(
        shown.contains("\u{241b}]0;pwned\u{2407}") && shown.contains("\u{2370}202E"),
        "the escapes are shown as pictures: {shown}"
    );
}

#[test]
fn json_stays_escaped_and_show_raw_is_the_files_exact_bytes() {
    let dir = workspace();
    add(
        dir.path(),
        "hostile",
        &format!("desc {HOSTILE}"),
        &format!("body {HOSTILE}"),
    );
    let json = ok(memwb(dir.path(), &["show", "hostile", "--json"]));
    assert_inert("show --json", &json);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["description"], format!("desc {HOSTILE}"));
    let file = file_of(dir.path(), "hostile");
    let raw = memwb(dir.path(), &["show", "hostile", "--raw"]);
    assert_eq!(raw.status.code(), Some(0));
    assert_eq!(
        raw.stdout,
        std::fs::read(dir.path().join(".memory").join(file)).unwrap()
    );
}

#[test]
fn a_claude_code_folder_prints_no_escape_sequence_either() {
    let dir = workspace();
    let memory = dir.path().join("memory");
    std::fs::create_dir(&memory).unwrap();
    let quoted = serde_json::to_string(&format!("desc {HOSTILE}")).unwrap();
    std::fs::write(
        memory.join("hostile.md"),
        format!("---\nname: hostile\ndescription: {quoted}\ntype: user\n---\n\nbody {HOSTILE}\n"),
    )
    .unwrap();
    std::fs::write(
        memory.join("MEMORY.md"),
        format!("- [hostile](hostile.md) {HOSTILE}\n"),
    )
    .unwrap();
    let folder = memory.to_str().unwrap();
    for command in [
        &["ls"][..],
        &["show", "hostile"],
        &["index"],
        &["check"],
        &["select", "hostile desc body"],
    ] {
        let mut args = vec!["--memory-dir", folder, "--format", "claude"];
        args.extend_from_slice(command);
        let (code, out, err) = run(dir.path(), &args, "");
        assert!(matches!(code, 0 | 1), "{command:?} exited {code}: {err}");
        assert!(!out.is_empty(), "{command:?} printed something");
        assert_inert(&format!("{command:?} stdout"), &out);
        assert_inert(&format!("{command:?} stderr"), &err);
    }
}

/// A script reading `--json` through a pipe gets one compact line per document (pretty
/// printing is for a terminal).
#[test]
fn json_through_a_pipe_is_one_compact_line() {
    let dir = workspace();
    add(dir.path(), "alpha", "first", "a body\nof two lines");
    add(dir.path(), "beta", "second", "b");
    for args in [
        &["ls", "--json"][..],
        &["show", "alpha", "--json"],
        &["log", "--json"],
        &["check", "--json"],
    ] {
        let out = memwb(dir.path(), args);
        let text = stdout(&out);
        assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
        assert!(!text.contains("\": "), "{args:?} is not compact: {text}");
        let value: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert!(!value.is_null(), "{args:?}");
    }
}
