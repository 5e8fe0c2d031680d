//! Parsing the command line: free text with leading dashes, the global options, completions
//! and the manual page.

use crate::common;

use common::cli::{add, error_line, memwb, memwb_with, ok};
use common::{snapshot, workspace};

fn field(dir: &std::path::Path, name: &str, key: &str) -> String {
    let shown: serde_json::Value =
        serde_json::from_str(&ok(memwb(dir, &["show", name, "--json"]))).expect("json");
    shown[key].as_str().expect("a string").to_owned()
}

#[test]
fn free_text_may_start_with_a_dash() {
    let dir = workspace();
    ok(memwb(
        dir.path(),
        &[
            "add",
            "--name",
            "a",
            "--type",
            "user",
            "--description",
            "- dash first",
            "--body",
            "-x",
        ],
    ));
    assert_eq!(field(dir.path(), "a", "description"), "- dash first");
    assert_eq!(field(dir.path(), "a", "body"), "-x");
    ok(memwb(
        dir.path(),
        &[
            "add",
            "--name",
            "b",
            "--type",
            "feedback",
            "--description",
            "--no-verify is banned",
            "--body",
            "--json",
        ],
    ));
    assert_eq!(
        field(dir.path(), "b", "description"),
        "--no-verify is banned"
    );
    assert_eq!(field(dir.path(), "b", "body"), "--json");
    ok(memwb(
        dir.path(),
        &[
            "set",
            "a",
            "--description",
            "-still first",
            "--body",
            "--body",
        ],
    ));
    assert_eq!(field(dir.path(), "a", "description"), "-still first");
    assert_eq!(field(dir.path(), "a", "body"), "--body");

    let selected: serde_json::Value = serde_json::from_str(&ok(memwb(
        dir.path(),
        &["select", "--json", "--no-verify banned"],
    )))
    .expect("json");
    assert_eq!(selected["selected"], serde_json::json!(["b"]));

    let reply = r#"[{"name":"c","type":"user","description":"d","body":"b"}]"#;
    let id = ok(memwb_with(
        dir.path(),
        &["propose", "import", "--evidence", "-- said the user", "-"],
        reply,
        &[],
    ));
    let listed: serde_json::Value =
        serde_json::from_str(&ok(memwb(dir.path(), &["proposals", "--json"]))).expect("json");
    assert_eq!(listed[0]["evidence"], "-- said the user");
    ok(memwb(
        dir.path(),
        &["reject", id.trim(), "--reason", "-not needed"],
    ));
    let log: serde_json::Value =
        serde_json::from_str(&ok(memwb(dir.path(), &["log", "--json"]))).expect("json");
    assert_eq!(
        log.as_array().and_then(|l| l.last()).unwrap()["reason"],
        "-not needed"
    );
}

#[test]
fn eval_cases_take_free_text_with_a_leading_dash() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    ok(memwb(
        dir.path(),
        &[
            "eval",
            "add",
            "-dash query",
            "--expect",
            "alpha",
            "--note",
            "--why",
        ],
    ));
    let cases: serde_json::Value =
        serde_json::from_str(&ok(memwb(dir.path(), &["eval", "ls", "--json"]))).expect("json");
    assert_eq!(cases[0]["query"], "-dash query");
    assert_eq!(cases[0]["note"], "--why");
}

#[test]
fn global_options_are_checked_as_options() {
    let dir = workspace();
    add(dir.path(), "alpha", "a", "b");
    let before = snapshot(dir.path());
    assert_eq!(
        error_line(memwb(dir.path(), &["--max-index-lines", "0", "ls"])),
        "error: invalid value '0' for '--max-index-lines <N>': a budget must be at least 1"
    );
    for (flag, env) in [
        (Some("1e19"), None),
        (None, Some(("MEMWB_LOCK_TIMEOUT", "1e20"))),
    ] {
        let mut args = vec![];
        if let Some(value) = flag {
            args.extend(["--lock-timeout", value]);
        }
        args.extend([
            "add",
            "--name",
            "beta",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ]);
        let out = memwb_with(dir.path(), &args, "", env.as_slice());
        let value = flag.or(env.map(|(_, v)| v)).unwrap();
        assert_eq!(
            error_line(out),
            format!(
                "error: invalid value '{value}' for '--lock-timeout <SECS>': {value} seconds is more than a day; the most is 86400 (24 hours)"
            )
        );
    }
    assert_eq!(snapshot(dir.path()), before);
    assert_eq!(
        error_line(memwb(std::path::Path::new("/etc/passwd"), &["ls"])),
        "error: workspace /etc/passwd is not a directory"
    );
}

#[test]
fn help_lists_global_options_under_their_own_heading() {
    let dir = workspace();
    let help = ok(memwb(dir.path(), &["add", "--help"]));
    let (own, global) = help.split_once("Global options:").expect("a heading");
    assert!(
        own.contains("--description") && !own.contains("--lock-timeout"),
        "{help}"
    );
    assert!(
        global.contains("--lock-timeout") && global.contains("-C, --workspace"),
        "{help}"
    );
    assert!(
        own.contains("user, feedback, project or reference"),
        "{help}"
    );
}

#[test]
fn completions_for_every_shell_and_a_manual_page() {
    let dir = workspace();
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef memwb"),
        ("fish", "complete -c memwb"),
        ("elvish", "edit:completion:arg-completer[memwb]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let script = ok(memwb(dir.path(), &["completions", shell]));
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(
            script.contains("proposals"),
            "{shell} completes subcommands"
        );
    }
    let man = ok(memwb(dir.path(), &["man"]));
    assert!(man.starts_with(".ie") || man.contains(".TH memwb"), "{man}");
    assert!(
        man.contains("consolidate") && man.contains("lock\\-timeout"),
        "{man}"
    );
    assert_eq!(
        error_line(memwb(dir.path(), &["completions", "tcsh"])),
        "error: invalid value 'tcsh' for '<SHELL>'"
    );
    assert!(
        !dir.path().join(".memory").exists(),
        "they touch no workspace"
    );
}

/// `man --dir` writes the page of every command the main page refers to (`memwb-ls(1)` …), each
/// with the sections clap cannot derive: EXIT STATUS, ENVIRONMENT and EXAMPLES.
#[test]
fn man_dir_writes_a_page_per_command_with_exit_status_environment_and_examples() {
    let ws = workspace();
    let pages = ws.path().join("man/man1");
    let said = ok(memwb(
        ws.path(),
        &["man", "--dir", pages.to_str().expect("utf-8")],
    ));
    assert!(said.starts_with("wrote "), "{said}");
    let main = std::fs::read_to_string(pages.join("memwb.1")).expect("memwb.1");
    for sub in ["ls", "show", "undo", "check", "sets", "hooks"] {
        assert!(
            main.contains(&format!("memwb\\-{sub}(1)")),
            "the main page refers to {sub}"
        );
        let page = std::fs::read_to_string(pages.join(format!("memwb-{sub}.1")))
            .unwrap_or_else(|e| panic!("memwb-{sub}.1: {e}"));
        for section in [".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".SH EXAMPLES"] {
            assert!(page.contains(section), "memwb-{sub}.1 has no {section}");
        }
        assert!(page.contains("CLAUDE_CONFIG_DIR"), "memwb-{sub}.1");
    }
    let undo = std::fs::read_to_string(pages.join("memwb-undo.1")).expect("memwb-undo.1");
    assert!(undo.contains("memwb undo 7"), "{undo}");
    // Printed, the main page carries the same sections.
    let printed = ok(memwb(ws.path(), &["man"]));
    assert_eq!(printed, main);
}
