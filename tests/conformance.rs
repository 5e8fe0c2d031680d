//! The conformance suite: one body per behaviour, run on a `.memory` set and on a Claude Code
//! folder (`common::formats::BOTH`). A person sees one product: the same action behaves, and is
//! worded, the same on both formats (docs/cli.md, "One idea, one word"). Undo chains are in
//! tests/undo_chains.rs, on the same `Folder`.

use crate::common;
use crate::tui_harness;

use std::fs;

use common::formats::{BOTH, Folder, Format};
use crossterm::event::KeyCode;
use memwb::claude::LoadLimits;
use tui_harness::Harness;

const TOKEN: &str = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5";

fn add(name: &'static str, body: &'static str) -> [&'static str; 9] {
    common::cli::add_args(name, "what it is about", body)
}

/// The workbench on `folder`, whichever its format.
fn workbench(folder: &Folder) -> Harness {
    match folder.format {
        Format::Memory => Harness::open(
            folder.dir.path().to_owned(),
            None,
            120,
            40,
            Default::default(),
        ),
        Format::Claude => Harness::claude(
            folder.dir.path(),
            folder.state.path(),
            LoadLimits::default(),
            120,
            40,
        ),
    }
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

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

/// Approving a fix of one record (here the redaction `check --fix` files) leaves it where it
/// was: on `.memory` it moved to the end of the manifest, and so of MEMORY.md.
#[test]
fn approving_a_one_record_fix_keeps_its_place_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("alpha", "the CI credentials", &body));
        folder.ok(&add("beta", "b"));
        folder.ok(&add("gamma", "c"));
        let order = |folder: &Folder| -> Vec<String> {
            let listed: Vec<serde_json::Value> =
                serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
            listed
                .iter()
                .map(|e| e["name"].as_str().expect("name").to_owned())
                .collect()
        };
        let before = order(&folder);
        let index_before = fs::read_to_string(folder.root().join("MEMORY.md")).expect("index");
        let id = filed(&folder);
        let said = folder.ok(&["approve", &id]);
        assert!(said.contains("changed alpha"), "{format:?}: {said}");
        assert_eq!(order(&folder), before, "{format:?}");
        let index_after = fs::read_to_string(folder.root().join("MEMORY.md")).expect("index");
        let first_line = |text: &str| {
            text.lines()
                .find(|l| l.contains("alpha"))
                .map(str::to_owned)
        };
        let position = |text: &str| text.lines().position(|l| l.contains("alpha"));
        assert_eq!(
            position(&index_after),
            position(&index_before),
            "{format:?}: {index_after}"
        );
        assert!(first_line(&index_after).is_some(), "{format:?}");
        let text = folder.ok(&["show", "alpha"]);
        assert!(
            !text.contains(TOKEN) && text.contains("[REDACTED]"),
            "{format:?}: {text}"
        );
    }
}

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

/// A label at the end of a line ("where the token is") does not make the next line a secret:
/// the redaction took `metadata:` out of a Claude Code file's frontmatter, so approving it lost
/// the memory's type.
#[test]
fn a_redaction_fix_leaves_the_lines_after_a_label_alone_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("alpha", "where the token is", &body));
        let id = filed(&folder);
        folder.ok(&["approve", &id]);
        let listed: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
        assert_eq!(listed[0]["type"], "project", "{format:?}: {listed:?}");
        assert_eq!(listed[0]["description"], "where the token is", "{format:?}");
    }
}

/// The id `check --fix` printed last: the proposal it filed.
fn filed(folder: &Folder) -> String {
    let out = folder.run(&["check", "--fix"]);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .expect("the proposal's id")
        .to_owned()
}

/// Every file memwb keeps beside the memories (its journal, proposals, dropped copies), with
/// the path it is at: `.memory/.memwb/` on a `.memory` set, the state directory on a Claude
/// Code folder.
fn kept_files(folder: &Folder) -> Vec<(String, Vec<u8>)> {
    let state = match folder.format {
        Format::Memory => folder.root().join(".memwb"),
        Format::Claude => folder.state.path().to_owned(),
    };
    common::tree(&state).into_iter().collect()
}

/// A credential never reaches memwb's own files whole, on either format: not the journal of
/// the add that brought it, not the redaction proposal `check --fix` files, not the journal of
/// its approval.
#[test]
fn a_credential_is_kept_redacted_in_the_journal_and_proposals_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("alpha", "the CI credentials", &body));
        let id = filed(&folder);
        folder.ok(&["approve", &id]);
        let kept = kept_files(&folder);
        assert!(
            kept.len() >= 2,
            "{format:?}: journal and proposal: {kept:?}"
        );
        for (path, bytes) in kept {
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                !text.contains(TOKEN),
                "{format:?}: {path} holds the token whole"
            );
        }
        let log = folder.ok(&["log", "--json"]);
        assert!(
            !log.contains(TOKEN) && log.contains("[REDACTED]"),
            "{format:?}: {log}"
        );
    }
}

/// Rejecting a proposal changes no memory, is journaled with its reason, and reads alike on
/// both formats; a decided proposal cannot be approved after.
#[test]
fn reject_is_journaled_with_its_reason_and_changes_nothing_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("alpha", "the CI credentials", &body));
        let id = filed(&folder);
        let before = common::tree(&folder.root());
        let said = folder.ok(&["reject", &id, "--reason", "rotated already"]);
        assert_eq!(said.trim(), format!("rejected {id}"), "{format:?}");
        let mut after = common::tree(&folder.root());
        let mut before = before;
        if let Format::Memory = format {
            // memwb's own folder is inside `.memory`; the set's files are what must not change.
            before.retain(|k, _| !k.starts_with(".memwb"));
            after.retain(|k, _| !k.starts_with(".memwb"));
        }
        assert_eq!(after, before, "{format:?}: a rejection changes no memory");
        let log = folder.ok(&["log"]);
        let last = log.lines().last().expect("an entry");
        assert!(
            last.contains(" reject ")
                && last.contains(&format!("proposal {id} (audit"))
                && last.ends_with("reason: rotated already"),
            "{format:?}: {last}"
        );
        let out = folder.run(&["approve", &id]);
        assert_eq!(out.status.code(), Some(2), "{format:?}");
    }
}

/// A proposal whose memory changed since it was filed is stale: approving it is refused, says
/// so, and changes nothing, on both formats.
#[test]
fn a_stale_proposal_is_refused_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("alpha", "the CI credentials", &body));
        let id = filed(&folder);
        folder.ok(&["set", "alpha", "--body", "No token here any more."]);
        let listed = folder.ok(&["proposals"]);
        assert!(listed.contains("stale"), "{format:?}: {listed}");
        let before = folder.state();
        let out = folder.run(&["approve", &id]);
        assert_eq!(out.status.code(), Some(2), "{format:?}");
        let err = stderr(&out);
        assert!(
            err.contains("stale") || err.contains("changed since"),
            "{format:?}: {err}"
        );
        assert_eq!(folder.state(), before, "{format:?}: nothing written");
    }
}

/// Undoing an approved redaction is refused alike on both formats, and changes nothing: the
/// journal keeps no copy of the secret, so "undo" could only put back `[REDACTED]` while saying
/// it restored the file (docs/review.md, "Undo").
#[test]
fn undoing_an_approved_redaction_is_refused_and_changes_nothing_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("alpha", "the CI credentials", &body));
        let id = filed(&folder);
        folder.ok(&["approve", &id]);
        let memories = || {
            common::tree(&folder.root())
                .into_iter()
                .filter(|(path, _)| !path.starts_with(".memwb"))
                .collect::<Vec<_>>()
        };
        let before = memories();
        let out = folder.run(&["undo"]);
        assert!(!out.status.success(), "{format:?}: undo succeeded");
        let said = stderr(&out);
        assert!(
            said.contains("a redacted secret is not restored")
                && said.contains("nothing was changed"),
            "{format:?}: {said}"
        );
        assert_eq!(memories(), before, "{format:?}: undo changed the memories");
    }
}
