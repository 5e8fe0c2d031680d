//! What the command line says, in the same words on both formats: one test body, run on a
//! `.memory` set and on a Claude Code folder (issue 26, items 15 and 16).

use crate::common;

use std::fs;

use common::formats::{BOTH, Folder, Format};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn add(name: &'static str, body: &'static str) -> [&'static str; 9] {
    common::cli::add_args(name, "what it is about", body)
}

/// `ls`, `log` and `proposals` on an empty set say so, with the command that adds something.
#[test]
fn an_empty_set_says_so_and_how_to_add_something() {
    for format in BOTH {
        let folder = Folder::new(format);
        let ls = folder.ok(&["ls"]);
        assert_eq!(
            ls,
            "no memories in this set; add one with: memwb add --name NAME --type user --description TEXT --body TEXT\n",
            "{format:?}"
        );
        let log = folder.ok(&["log"]);
        assert!(
            log.starts_with("no changes journaled yet; memwb add"),
            "{format:?}: {log}"
        );
        let proposals = folder.ok(&["proposals"]);
        assert!(
            proposals.starts_with("no pending proposals; file one with: memwb check --fix"),
            "{format:?}: {proposals}"
        );
        // Scripts still get an empty array.
        assert_eq!(folder.ok(&["ls", "--json"]).trim(), "[]", "{format:?}");
    }
}

/// `set` says what it did: a rename is a rename; no flag at all is refused with the flags it
/// takes; values the record already holds say so.
#[test]
fn set_says_rename_unchanged_and_what_it_needs() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let bare = folder.run(&["set", "alpha"]);
        assert_eq!(bare.status.code(), Some(2), "{format:?}");
        let err = stderr(&bare);
        assert!(
            ["--name", "--type", "--description", "--body", "--body-file"]
                .iter()
                .all(|flag| err.contains(flag)),
            "{format:?}: {err}"
        );
        let same = folder.ok(&["set", "alpha", "--description", "what it is about"]);
        assert_eq!(
            same, "unchanged: alpha already holds what was given\n",
            "{format:?}"
        );
        let edited = folder.ok(&["set", "alpha", "--body", "two"]);
        assert_eq!(edited, "changed alpha\n", "{format:?}");
        let renamed = folder.ok(&["set", "alpha", "--name", "beta"]);
        assert!(
            renamed.starts_with("renamed alpha to beta"),
            "{format:?}: {renamed}"
        );
    }
}

/// `undo` names the entry it undid and the undo's own entry, and says what it did to each
/// memory: undoing an add removes it (on a Claude Code folder too, where it used to say
/// "restored" for the file it deleted).
#[test]
fn undo_names_the_entry_and_says_what_it_did() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        folder.ok(&add("gamma", "two"));
        let said = folder.ok(&["undo"]);
        assert_eq!(said, "undid #2 (add) as #3: removed gamma\n", "{format:?}");
        folder.ok(&["rm", "alpha"]);
        let said = folder.ok(&["undo"]);
        assert_eq!(said, "undid #4 (rm) as #5: added alpha\n", "{format:?}");
    }
}

/// `approve` names the proposal and the journal entry it became; `eval add` the case it added.
#[test]
fn approve_and_eval_add_name_what_they_made() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let reply = r#"[{"name":"small-prs","type":"user","description":"Prefers small PRs","body":"Under 300 lines."}]"#;
        let filed = folder.run_with(&["propose", "import", "-"], reply);
        assert_eq!(
            filed.status.code(),
            Some(0),
            "{format:?}: {}",
            stderr(&filed)
        );
        let id = String::from_utf8_lossy(&filed.stdout).trim().to_owned();
        let approved = folder.ok(&["approve", &id]);
        assert_eq!(
            approved,
            format!("approved {id} as #2: added small-prs\n"),
            "{format:?}"
        );
        let case = folder.ok(&["eval", "add", "pull request size", "--expect", "small-prs"]);
        assert_eq!(
            case, "added case 1; memwb eval runs every case\n",
            "{format:?}"
        );
    }
}

/// `show NAME` on a name two Claude Code topic files share is refused, as `set` and `rm`
/// refuse it, naming both files; each is shown by its file. (On `.memory`:
/// tests/names_and_places.rs.)
#[test]
fn show_refuses_a_name_two_topic_files_share() {
    let folder = Folder::new(Format::Claude);
    folder.ok(&add("alpha", "one"));
    let listed: serde_json::Value =
        serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
    let first = listed[0]["file"].as_str().expect("file").to_owned();
    let text = fs::read_to_string(folder.root().join(&first)).expect("topic");
    fs::write(folder.root().join("alpha_copy.md"), &text).expect("copy");
    for args in [
        &["show", "alpha"][..],
        &["set", "alpha", "--body", "x"],
        &["rm", "alpha"],
    ] {
        let out = folder.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.starts_with("error: memory name \"alpha\" is ambiguous: it is held by ")
                && err.contains(&first)
                && err.contains("alpha_copy.md"),
            "{args:?}: {err}"
        );
    }
    assert!(
        folder
            .ok(&["show", "alpha_copy.md"])
            .starts_with("# alpha_copy.md\n")
    );
}

/// `ls` pads names to the same screen width, a wide (CJK) character counting two columns.
#[test]
fn ls_pads_names_by_display_width() {
    let folder = Folder::new(Format::Claude);
    // memwb refuses to create a name Claude Code would erase, but real folders hold such files
    // (written before, or by hand): they are listed as they are.
    std::fs::write(
        folder.root().join("project_deploy.md"),
        "---\nname: 部署\ndescription: what it is about\ntype: project\n---\n\none\n",
    )
    .expect("a topic file named in Chinese");
    folder.ok(&add("abcdef", "two"));
    let listed = folder.ok(&["ls"]);
    let columns = |line: &str| -> usize {
        let before = &line[..line.find("project").expect("type column")];
        before
            .chars()
            .map(|c| {
                if ('\u{2e80}'..='\u{9fff}').contains(&c) {
                    2
                } else {
                    1
                }
            })
            .sum()
    };
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "{listed}");
    assert_eq!(columns(lines[0]), columns(lines[1]), "{listed}");
}

/// `check --json` reports every finding in one envelope on both formats, the keys in one
/// order: code, severity, file, line (where there is one), message, then what the content
/// audit adds (the memory's name).
#[test]
fn check_json_findings_share_one_envelope() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add(
            "deploy",
            "The release was finished yesterday; see src/nowhere/deploy.rs for the script.",
        ));
        let out = folder.run(&["check", "--json"]);
        let report: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("check --json prints JSON");
        let findings = report["findings"].as_array().expect("findings");
        assert!(!findings.is_empty(), "{format:?}: {report}");
        for finding in findings {
            let keys: Vec<&str> = finding
                .as_object()
                .expect("a finding is an object")
                .keys()
                .map(String::as_str)
                .collect();
            let mut expected = vec!["code", "severity", "file"];
            if finding.get("line").is_some() {
                expected.push("line");
            }
            expected.push("message");
            assert_eq!(
                keys[..expected.len()],
                expected[..],
                "{format:?}: {finding}"
            );
            assert_eq!(finding["name"], "deploy", "{format:?}: {finding}");
        }
    }
}

/// Issue 26 item 13: `log` names the tool that made each change (`--json`: `who.tool`), and an
/// entry written before the tool was recorded still reads, with none.
#[test]
fn the_log_names_the_tool_that_made_each_change() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let log = folder.ok(&["log"]);
        assert!(log.contains(" (memwb CLI)"), "{format:?}: {log}");
        let json: serde_json::Value =
            serde_json::from_str(&folder.ok(&["log", "--json"])).expect("json");
        assert_eq!(json[0]["who"]["tool"], "cli", "{format:?}: {json}");
    }
    let old = Folder::new(common::formats::Format::Memory);
    old.ok(&add("alpha", "one"));
    let journal = old.dir.path().join(".memory/.memwb/journal.jsonl");
    let mut text = fs::read_to_string(&journal).expect("journal");
    text.push_str(concat!(
        r#"{"id":2,"at":1,"op":"reject","who":{"user":"ana","host":"box"},"#,
        r#""before":[],"after":[],"proposal":null,"reason":"old","undoes":null}"#,
        "\n"
    ));
    fs::write(&journal, text).expect("journal");
    let log = old.ok(&["log"]);
    assert!(log.contains("reject        ana@box  reason: old"), "{log}");
    let json: serde_json::Value = serde_json::from_str(&old.ok(&["log", "--json"])).expect("json");
    assert_eq!(
        json[1]["who"],
        serde_json::json!({"user": "ana", "host": "box"})
    );
}

/// `ls`, `show` and `select` are one implementation over every format: the same rows, the
/// same `show` heading, `--json` of `show` is the `ls --json` row, and `select` picks from the
/// same memories.
#[test]
fn ls_show_and_select_read_one_model_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("tabs-style", "Indent with tabs in every file."));
        folder.ok(&add("release-notes", "Write release notes on fridays."));
        let rows: serde_json::Value =
            serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
        let rows = rows.as_array().expect("an array");
        let names: Vec<&str> = rows
            .iter()
            .map(|r| r["name"].as_str().expect("name"))
            .collect();
        assert_eq!(names, ["tabs-style", "release-notes"], "{format:?}");
        let row = &rows[0];
        let keys: Vec<&str> = row
            .as_object()
            .expect("a row is an object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys[..5],
            ["name", "type", "description", "body", "file"],
            "{format:?}: {row}"
        );
        let shown: serde_json::Value =
            serde_json::from_str(&folder.ok(&["show", "tabs-style", "--json"])).expect("json");
        assert_eq!(&shown, row, "{format:?}");
        let file = row["file"].as_str().expect("file");
        let text = folder.ok(&["show", "tabs-style"]);
        assert!(
            text.starts_with(&format!("# {file}\n---\n")),
            "{format:?}: {text}"
        );
        assert!(
            text.contains("Indent with tabs in every file."),
            "{format:?}: {text}"
        );
        let raw = folder.run(&["show", "tabs-style", "--raw"]);
        assert_eq!(
            raw.stdout,
            fs::read(folder.root().join(file)).expect("the file"),
            "{format:?}"
        );
        let listed = folder.ok(&["ls"]);
        assert!(
            listed.starts_with("tabs-style     project    what it is about\n"),
            "{format:?}: {listed:?}"
        );
        let selected: serde_json::Value =
            serde_json::from_str(&folder.ok(&["select", "release fridays", "--json"]))
                .expect("select --json");
        assert_eq!(
            selected["selected"],
            serde_json::json!(["release-notes"]),
            "{format:?}"
        );
        let missing = folder.run(&["show", "nothing-here"]);
        assert_eq!(missing.status.code(), Some(2), "{format:?}");
        assert!(
            stderr(&missing).contains("no memory named \"nothing-here\""),
            "{format:?}: {}",
            stderr(&missing)
        );
    }
}
