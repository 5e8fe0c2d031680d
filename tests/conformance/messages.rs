//! What memwb says of a change and of a refusal, in one wording on both formats: a proposal
//! filed from the workbench, a change written whose journal entry waits, a name that is
//! missing or taken.

use crossterm::event::KeyCode;

use super::{TOKEN, add, stderr, workbench, workbench_hooked};
use crate::common;
use crate::common::formats::{BOTH, Folder};

/// `f` on a finding with a fix files a proposal and writes no memory; the status line says
/// "new proposal: ID (…); p shows it" on both formats (a Claude Code folder once said "the
/// Proposals view decides it").
#[test]
fn a_fix_filed_in_the_workbench_says_p_shows_it_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("beta", "the CI credentials", &body));
        let before = folder.state();
        let mut h = workbench(&folder);
        h.keys("F");
        h.press(KeyCode::Char('g'));
        let mut on_secret = false;
        for _ in 0..40 {
            on_secret = h
                .app
                .findings
                .selected_finding()
                .is_some_and(|c| c.finding.code == "secret");
            if on_secret {
                break;
            }
            h.press(KeyCode::Char('j'));
        }
        assert!(on_secret, "{format:?}: no secret finding: {}", h.screen());
        h.keys("f");
        let status = h.app.status.clone().expect("status").text;
        let filed: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["proposals", "--json"])).expect("proposals");
        let id = filed
            .first()
            .and_then(|p| p["id"].as_str())
            .unwrap_or_else(|| panic!("{format:?}: nothing filed: {status}"));
        assert!(
            status.starts_with(&format!("new proposal: {id} ("))
                && status.ends_with("; p shows it"),
            "{format:?}: {status}"
        );
        assert!(!status.contains("decides"), "{format:?}: {status}");
        assert_eq!(
            folder.state(),
            before,
            "{format:?}: filing writes no memory"
        );
    }
}

/// A change whose journal mark fails is written: the command says what it did, then one
/// warning in one wording ("written, but not journaled"; never "committed" on one format),
/// exits 1, and the next change journals it.
#[test]
fn a_change_written_but_not_journaled_says_so_alike_on_both_formats() {
    let beta = add("beta", "two");
    let changes: [(&[&str], &str); 3] = [
        (&beta, "added beta"),
        (&["set", "alpha", "--body", "edited"], "changed alpha"),
        (&["rm", "alpha"], "removed alpha"),
    ];
    for format in BOTH {
        for (change, said) in changes {
            let folder = Folder::new(format);
            folder.ok(&add("alpha", "one"));
            let seed = folder.snapshot();
            let before = folder.state();
            let out = (1..100)
                .find_map(|step| {
                    folder.restore(&seed);
                    let out = folder.run_env(change, "", &[("MEMWB_FAIL_AT", step.to_string())]);
                    stderr(&out).contains("failing JournalMark").then_some(out)
                })
                .unwrap_or_else(|| panic!("{format:?} {change:?}: no journal mark step"));
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(1), "{format:?} {change:?}: {err}");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(stdout.starts_with(said), "{format:?}: {stdout:?}");
            let warning = err
                .lines()
                .find(|l| l.starts_with("warning: "))
                .unwrap_or_else(|| panic!("{format:?} {change:?}: no warning: {err}"));
            let op = change[0];
            assert!(
                warning.starts_with(&format!(
                    "warning: written, but not journaled: entry #2 ({op}): "
                )) && warning.ends_with(
                    " as an intent that `memwb check` reports and the next change records"
                ),
                "{format:?}: {warning}"
            );
            assert!(!err.contains("committed"), "{format:?}: {err}");
            assert_ne!(folder.state(), before, "{format:?} {change:?}: written");
            folder.ok(&add("gamma", "three"));
            let log = folder.ok(&["log"]);
            assert!(log.contains(said), "{format:?} {change:?}: {log}");
        }
    }
}

/// An approval and an undo whose journal mark fails are written too: they say what they did,
/// then the warning, exit 1, and the next change journals them, as add, set and rm do, on
/// both formats (they gave only the warning).
#[test]
fn a_decision_written_but_not_journaled_says_what_it_did_on_both_formats() {
    let plan = r#"{"source_names":["alpha"],"records":[{"name":"alpha","type":"project","description":"what it is about","body":"Alpha, redescribed."}]}"#;
    for format in BOTH {
        for decision in ["approve", "undo"] {
            let folder = Folder::new(format);
            folder.ok(&add("alpha", "one"));
            let id = folder
                .ok_with(&["propose", "import", "-"], plan)
                .trim()
                .to_owned();
            let (args, said, logged) = match decision {
                "approve" => (
                    vec!["approve", id.as_str()],
                    format!("approved {id}: changed alpha\n"),
                    format!("changed alpha  proposal {id}"),
                ),
                _ => (
                    vec!["undo"],
                    "undid #1 (add): removed alpha\n".to_owned(),
                    "removed alpha  undoes #1".to_owned(),
                ),
            };
            let seed = folder.snapshot();
            let out = (1..100)
                .find_map(|step| {
                    folder.restore(&seed);
                    let out = folder.run_env(&args, "", &[("MEMWB_FAIL_AT", step.to_string())]);
                    stderr(&out).contains("failing JournalMark").then_some(out)
                })
                .unwrap_or_else(|| panic!("{format:?} {decision}: no journal mark step"));
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(1), "{format:?} {decision}: {err}");
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                said,
                "{format:?} {decision}: {err}"
            );
            assert!(
                err.contains(&format!(
                    "warning: written, but not journaled: entry #2 ({decision}): "
                )),
                "{format:?}: {err}"
            );
            folder.ok(&add("gamma", "three"));
            let log = folder.ok(&["log"]);
            assert!(log.contains(&logged), "{format:?} {decision}: {log}");
        }
    }
}

/// Fails every journal mark (the append after a commit point), as a full disk would.
pub(super) struct FailMarks;

impl memwb::store::FaultHook for FailMarks {
    fn before(&self, op: memwb::store::IoOp, _: &std::path::Path) -> std::io::Result<()> {
        match op {
            memwb::store::IoOp::JournalMark => Err(std::io::Error::other("the disk is full")),
            _ => Ok(()),
        }
    }
}

/// A save in the workbench whose journal mark fails is written: the status line says what it
/// did, then the warning, and the editor closes; the next change journals it, on both formats
/// (it said the save failed, with only the warning, and kept the editor open).
#[test]
fn a_save_written_but_not_journaled_says_what_it_did_in_the_workbench_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let hooks = memwb::store::IoHooks::new(std::sync::Arc::new(FailMarks));
        let mut h = workbench_hooked(&folder, hooks);
        h.keys("e");
        let screen = h.screen();
        h.app
            .editor
            .as_mut()
            .unwrap_or_else(|| panic!("{format:?}: no editor: {screen}"))
            .set_value(memwb::tui::editor::DESCRIPTION, "alpha, described anew");
        h.ctrl('s');
        let status = h.app.status.clone().expect("status").text;
        assert!(
            status.starts_with(
                "save alpha: written (changed alpha); warning: written, but not journaled: entry #2 (set): "
            ),
            "{format:?}: {status}"
        );
        assert!(h.app.editor.is_none(), "{format:?}: {}", h.screen());
        assert!(
            folder.ok(&["ls"]).contains("alpha, described anew"),
            "{format:?}"
        );
        folder.ok(&add("gamma", "three"));
        let log = folder.ok(&["log"]);
        assert!(log.contains("changed alpha"), "{format:?}: {log}");
    }
}

/// `add`, a batch and a rename say what they did by memory name only, the same on both
/// formats: a Claude Code folder also named the file memwb chose (`added alpha
/// (user_alpha.md)`, `renamed alpha to gamma (now project_gamma.md)`).
#[test]
fn add_and_rename_say_the_memory_never_its_file_on_both_formats() {
    let batch = r#"[{"name":"beta","type":"user","description":"b","body":"B."},
                    {"name":"delta","type":"project","description":"d","body":"D."}]"#;
    for format in BOTH {
        let folder = Folder::new(format);
        assert_eq!(
            folder.ok(&add("alpha", "one")),
            "added alpha\n",
            "{format:?}"
        );
        assert_eq!(
            folder.ok_with(&["add", "--json", "-"], batch),
            "added beta, delta\n",
            "{format:?}"
        );
        assert_eq!(
            folder.ok(&["set", "alpha", "--name", "gamma"]),
            "renamed alpha to gamma\n",
            "{format:?}"
        );
    }
}

/// An edit or a read of a memory that is not there, or a new name that is taken, is refused in
/// the same words and with the same hint on both formats (the folder's path, its file names
/// and a batch's "record 1" appeared on one format only).
#[test]
fn a_missing_or_taken_name_is_refused_in_one_wording_on_both_formats() {
    let missing = "error: no memory named \"ghost\"\nhint: memwb ls lists the memories\n";
    let taken = "error: a memory named \"beta\" exists\n";
    let twice = "error: memory name \"gamma\" is twice in this batch\n";
    let batch = r#"[{"name":"gamma","type":"user","description":"d","body":"b"},
                    {"name":"gamma","type":"user","description":"d","body":"b"}]"#;
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        folder.ok(&add("beta", "two"));
        let before = folder.state();
        let again = add("beta", "again");
        let cases: [(&[&str], &str, &str); 6] = [
            (&["set", "ghost", "--body", "x"], "", missing),
            (&["rm", "ghost"], "", missing),
            (&["show", "ghost"], "", missing),
            (&["set", "alpha", "--name", "beta"], "", taken),
            (&again, "", taken),
            (&["add", "--json", "-"], batch, twice),
        ];
        for (args, stdin, said) in cases {
            let out = folder.run_with(args, stdin);
            assert_eq!(out.status.code(), Some(2), "{format:?} {args:?}");
            assert_eq!(stderr(&out), said, "{format:?} {args:?}");
            assert_eq!(folder.state(), before, "{format:?} {args:?}");
        }
    }
}

/// Every command (and `propose`'s subcommands) both formats run says "memory" in its help, as
/// the workbench does: no `.memory` noun ("record", "manifest", "transaction", "commit") on a
/// command a Claude Code folder runs too (`repair`, which mends a manifest entry, is the `.memory` set's own). JSON
/// keys in quotes and the global options, which name each format's limits, are not read.
#[test]
fn every_command_s_help_says_memory_on_both_formats() {
    let commands = [
        "ls",
        "show",
        "add",
        "set",
        "rm",
        "consolidate",
        "index",
        "check",
        "accept",
        "select",
        "eval",
        "propose",
        "propose consolidate",
        "propose extract",
        "propose import",
        "propose dedupe",
        "proposals",
        "approve",
        "reject",
        "copy",
        "log",
        "undo",
        "watch",
    ];
    // JSON keys in quotes, and flag names (`--record`), are names, not wording.
    let quoted = regex::Regex::new(r#""[^"]*"|--[a-z-]+"#).expect("pattern");
    let engine_word = regex::Regex::new(
        r"(?i)\b(records?|manifest|transactions?|commits?|committed|topic files?)\b",
    )
    .expect("pattern");
    for format in BOTH {
        let folder = Folder::new(format);
        let mut said = Vec::new();
        for command in commands {
            let mut args: Vec<&str> = command.split(' ').collect();
            args.push("--help");
            let help = folder.ok(&args);
            let own = help.split("Global options:").next().unwrap_or_default();
            for line in own.lines() {
                let line = quoted.replace_all(line, "");
                if engine_word.is_match(&line) {
                    said.push(format!("{command}: {}", line.trim()));
                }
            }
        }
        let listing = folder.ok(&["--help"]);
        for line in listing.split("Options:").next().unwrap_or_default().lines() {
            let line = quoted.replace_all(line.trim(), "");
            if engine_word.is_match(&line) && !line.starts_with("repair ") {
                said.push(format!("memwb: {line}"));
            }
        }
        assert!(said.is_empty(), "{format:?}:\n{}", said.join("\n"));
    }
}

/// What the command line says of a day's work (edits, a refusal, an audit, a proposal filed,
/// rejected and undone) names memories, never a format's engine: no "record", "manifest",
/// "transaction" or "commit" on either format (JSON keys in quotes aside), and no "topic
/// file" on a `.memory` set.
#[test]
fn the_command_line_says_memory_on_both_formats() {
    let quoted = regex::Regex::new(r#""[^"]*"|`[^`]*`|\{[^}]*\}"#).expect("pattern");
    let engine_word =
        regex::Regex::new(r"(?i)\b(records?|manifest|transactions?|commits?|committed)\b")
            .expect("pattern");
    let mut said = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        let mut hear = |args: &[&str], stdin: &str| {
            let out = folder.run_with(args, stdin);
            let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
            for line in text.lines() {
                let line = quoted.replace_all(line, "");
                let foreign = matches!(format, crate::common::formats::Format::Memory)
                    && line.contains("topic file");
                if engine_word.is_match(&line) || foreign {
                    said.push(format!("{format:?} {args:?}: {}", line.trim()));
                }
            }
        };
        hear(&add("alpha", "Alpha's body."), "");
        let body = format!("The CI token is {TOKEN}.");
        hear(
            &common::cli::add_args("beta", "the CI credentials", &body),
            "",
        );
        hear(&["add", "--json", "-"], "[[1]]");
        hear(&["consolidate", "--plan", "-"], "[]");
        hear(&["set", "alpha", "--body", "Alpha, edited."], "");
        hear(&["ls"], "");
        hear(&["check"], "");
        let checked = folder.run(&["check"]);
        let summary = String::from_utf8_lossy(&checked.stdout)
            .lines()
            .last()
            .map(str::to_owned);
        assert!(
            summary
                .as_deref()
                .is_some_and(|l| l.ends_with(": 2 memories, 1 error, 0 warnings")),
            "{format:?}: {summary:?}"
        );
        hear(&["check", "--fix"], "");
        let listed: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["proposals", "--json"])).expect("proposals");
        let id = listed[0]["id"].as_str().expect("an id").to_owned();
        hear(&["proposals"], "");
        hear(&["reject", &id, "--reason", "rotated"], "");
        let reject = folder
            .entry_ids()
            .last()
            .copied()
            .expect("the rejection's entry");
        hear(&["undo", &reject.to_string()], "");
        hear(&["undo"], "");
        hear(&["log"], "");
        hear(&["undo", "1"], "");
        hear(&["eval", "--self"], "");
    }
    assert!(said.is_empty(), "{}", said.join("\n"));
}

/// The editor of a new memory is titled " New memory " on both formats (it said " New
/// record " on a `.memory` set and " New topic file " on a Claude Code folder), and asking to
/// edit with nothing selected says "no memory selected" alike (that part passed at once).
#[test]
fn the_new_memory_editor_and_an_empty_selection_say_memory_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let mut h = workbench(&folder);
        h.keys("e");
        let status = h.app.status.clone().map(|s| s.text).unwrap_or_default();
        assert!(
            status.ends_with(": no memory selected"),
            "{format:?}: {status}"
        );
        h.keys("n");
        let screen = h.screen();
        assert!(screen.contains(" New memory "), "{format:?}: {screen}");
        assert!(
            !screen.contains("New record") && !screen.contains("New topic file"),
            "{format:?}: {screen}"
        );
    }
}
