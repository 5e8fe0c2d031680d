//! What memwb keeps of a credential in its own files, on both formats: a memory that holds
//! one goes through every change (an edit that brings it, a rename, an edit of another
//! field, a removal, undo), and neither the journal nor anything else memwb keeps, nor `log`,
//! ever holds it whole (docs/security.md); an undo that can only write a memory back with its
//! credentials as `[REDACTED]` says so, in one wording. The proposals' side is in `review.rs`.

use super::{TOKEN, add, kept_files, workbench};
use crate::common::cli::add_args;
use crate::common::formats::Format;
use crate::common::formats::{BOTH, Folder};

/// Asserts that nothing memwb keeps for `folder`, nor its `log` in either shape, holds the
/// token whole; `after` says after what.
fn kept_redacted(folder: &Folder, after: &str) {
    let format = folder.format;
    for (path, bytes) in kept_files(folder) {
        assert!(
            !String::from_utf8_lossy(&bytes).contains(TOKEN),
            "{format:?}: {path} holds the token whole after {after}"
        );
    }
    for log in [folder.ok(&["log"]), folder.ok(&["log", "--json"])] {
        assert!(!log.contains(TOKEN), "{format:?}: after {after}: {log}");
    }
}

#[test]
fn a_credential_through_every_change_of_a_memory_is_never_kept_whole_on_both_formats() {
    let body = format!("The CI token is {TOKEN}.");
    let steps: [&[&str]; 6] = [
        &add("alpha", "no secret yet"),
        &["set", "alpha", "--body", &body],
        &["set", "alpha", "--name", "beta"],
        &["set", "beta", "--description", "the CI credentials"],
        &["rm", "beta"],
        &["undo"],
    ];
    for format in BOTH {
        let folder = Folder::new(format);
        for (n, step) in steps.iter().enumerate() {
            folder.ok(step);
            kept_redacted(&folder, &format!("{step:?}"));
            // memwb redacts what it keeps, not what a person wrote: the memory holds the token
            // from the edit that brought it to its removal; the undo of the removal can only
            // put back the journal's redacted text.
            let held = memories_holding_the_token(&folder);
            assert_eq!(held, (1..4).contains(&n), "{format:?}: after {step:?}");
        }
        let back = folder.ok(&["show", "--raw", "beta"]);
        assert!(
            back.contains("The CI token is [REDACTED]."),
            "{format:?}: {back}"
        );
    }
}

/// Whether a file in the folder other than memwb's own holds the token whole.
fn memories_holding_the_token(folder: &Folder) -> bool {
    crate::common::tree(&folder.root())
        .into_iter()
        .filter(|(path, _)| !path.starts_with(".memwb"))
        .any(|(_, bytes)| String::from_utf8_lossy(&bytes).contains(TOKEN))
}

/// The one note an undo says of a memory it writes back from a copy the journal kept redacted
/// (docs/security.md), the same on both formats.
fn back_redacted(name: &str) -> String {
    format!("note: the credentials in {name} stay [REDACTED]: a redacted secret is not restored")
}

/// The `note:` lines of a command's output.
fn notes(said: &str) -> Vec<&str> {
    said.lines().filter(|l| l.starts_with("note: ")).collect()
}

/// A folder of `format` holding `alpha`, whose body holds the token, and `beta`, which holds
/// none.
fn alpha_with_the_token(format: crate::common::formats::Format) -> Folder {
    let folder = Folder::new(format);
    let body = format!("The CI token is {TOKEN}.");
    folder.ok(&add_args("alpha", "what it is about", &body));
    folder.ok(&add("beta", "Nothing secret."));
    folder
}

/// Undoing the removal of a memory that held a credential, and undoing an edit that took one
/// out, write back the journal's redacted text: both say it in the same note on both formats;
/// an undo that writes back nothing redacted (the removal of a memory without one, the addition
/// of one with one) says nothing of it.
#[test]
fn undoing_the_removal_or_an_edit_of_a_memory_with_a_credential_says_one_note_on_both_formats() {
    let body = format!("The CI token is {TOKEN}.");
    for format in BOTH {
        let folder = alpha_with_the_token(format);
        folder.ok(&["rm", "alpha"]);
        let said = folder.ok(&["undo"]);
        assert_eq!(notes(&said), [back_redacted("alpha")], "{format:?}: {said}");

        folder.ok(&["set", "alpha", "--body", &body]);
        folder.ok(&["set", "alpha", "--body", "The token is gone."]);
        let said = folder.ok(&["undo"]);
        assert_eq!(notes(&said), [back_redacted("alpha")], "{format:?}: {said}");
        let back = folder.ok(&["show", "--raw", "alpha"]);
        assert!(
            back.contains("The CI token is [REDACTED]."),
            "{format:?}: {back}"
        );

        folder.ok(&["rm", "beta"]);
        let said = folder.ok(&["undo"]);
        assert!(notes(&said).is_empty(), "{format:?}: {said}");
        folder.ok(&add_args("gamma", "what it is about", &body));
        let said = folder.ok(&["undo"]);
        assert!(notes(&said).is_empty(), "{format:?}: {said}");
    }
}

/// A change that, beside another, only redacted a memory (a consolidation that keeps `alpha`
/// with its credential redacted and rewrites `beta`): its undo takes `beta` back and says of
/// `alpha` what every undo says of a memory it cannot restore whole, on both formats.
#[test]
fn undoing_a_change_that_also_redacted_a_memory_says_the_same_note_on_both_formats() {
    for format in BOTH {
        let folder = alpha_with_the_token(format);
        let plan = serde_json::json!({
            "source_names": ["alpha", "beta"],
            "records": [
                {
                    "name": "alpha",
                    "description": "what it is about",
                    "type": "project",
                    "body": "The CI token is [REDACTED].",
                },
                {
                    "name": "beta",
                    "description": "what it is about",
                    "type": "project",
                    "body": "Beta, rewritten.",
                },
            ],
        });
        folder.ok_with(&["consolidate", "--plan", "-"], &plan.to_string());
        let said = folder.ok(&["undo"]);
        assert_eq!(notes(&said), [back_redacted("alpha")], "{format:?}: {said}");
        let beta = folder.ok(&["show", "--raw", "beta"]);
        assert!(beta.contains("Nothing secret."), "{format:?}: {beta}");
    }
}

/// The workbench's status line says the same note after an undo from History, on both
/// formats, as the command line's `note:` line does.
#[test]
fn the_workbench_says_the_note_of_an_undo_in_its_status_line_on_both_formats() {
    for format in BOTH {
        let folder = alpha_with_the_token(format);
        folder.ok(&["rm", "alpha"]);
        let mut h = workbench(&folder);
        h.keys("H");
        h.keys("u");
        h.keys("y");
        let status = h.app.status.clone().expect("status").text;
        let note = back_redacted("alpha");
        assert!(
            status.starts_with("undo #3: written (added alpha)")
                && status.ends_with(&format!("; {note}")),
            "{format:?}: {status}"
        );
        let screen = h.screen();
        assert!(screen.contains(&note), "{format:?}: {screen}");
    }
}

/// The journal of `folder` with every entry's `redacted` marks taken out: each line as a
/// version before the marks wrote it. Asserts there was a mark to take out.
fn journal_without_marks(folder: &Folder) {
    let format = folder.format;
    let (journal, _) = kept_files(folder)
        .into_iter()
        .find(|(path, _)| path.ends_with("journal.jsonl"))
        .unwrap_or_else(|| panic!("{format:?}: no journal"));
    let journal = match format {
        Format::Memory => folder.root().join(".memwb").join(journal),
        Format::Claude => folder.state.path().join(journal),
    };
    let text = std::fs::read_to_string(&journal).expect("journal");
    let mut unmarked = String::new();
    for line in text.lines() {
        let mut line = line.to_owned();
        if let Some(at) = line.find(r#","redacted":["#)
            && let Some(end) = line[at..].find(']')
        {
            line.replace_range(at..=at + end, "");
        }
        unmarked.push_str(&line);
        unmarked.push('\n');
    }
    assert_ne!(unmarked, text, "{format:?}: no mark in {text}");
    std::fs::write(&journal, unmarked).expect("journal");
}

/// An entry journaled before the marks existed (its line without `redacted`) still says what
/// its undo writes back redacted, from what its kept image holds: the placeholder `[REDACTED]`,
/// not a word a person wrote ("REDACTED", "redacted"), the same note on both formats.
#[test]
fn undoing_an_entry_journaled_before_the_marks_still_says_the_note_on_both_formats() {
    for format in BOTH {
        let folder = alpha_with_the_token(format);
        folder.ok(&add("gamma", "Logs are REDACTED, tokens redacted."));
        folder.ok(&["rm", "alpha"]);
        journal_without_marks(&folder);
        let said = folder.ok(&["undo"]);
        assert_eq!(notes(&said), [back_redacted("alpha")], "{format:?}: {said}");
        let back = folder.ok(&["show", "--raw", "alpha"]);
        assert!(
            back.contains("The CI token is [REDACTED]."),
            "{format:?}: {back}"
        );

        folder.ok(&["rm", "gamma"]);
        let said = folder.ok(&["undo"]);
        assert!(notes(&said).is_empty(), "{format:?}: {said}");
    }
}
