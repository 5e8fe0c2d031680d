//! The review loop on both formats: approve, reject, stale proposals, and what memwb keeps of
//! a credential in its journal and proposals.

use std::fs;

use super::{TOKEN, add, filed, kept_files, stderr};
use crate::common;
use crate::common::formats::{BOTH, Folder, Format};

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

/// A label at the end of a line ("where the token is") does not make the next line a secret:
/// the redaction took `metadata:` out of a Claude Code file's frontmatter, so approving it lost
/// the memory's type.
#[test]
fn a_redaction_fix_leaves_the_lines_after_a_label_alone_on_both_formats() {
    for format in BOTH {
        let (folder, id) = token_filed(format, "where the token is");
        folder.ok(&["approve", &id]);
        let listed: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
        assert_eq!(listed[0]["type"], "project", "{format:?}: {listed:?}");
        assert_eq!(listed[0]["description"], "where the token is", "{format:?}");
    }
}

/// A credential never reaches memwb's own files whole, on either format: not the journal of
/// the add that brought it, not the redaction proposal `check --fix` files, not the journal of
/// its approval.
#[test]
fn a_credential_is_kept_redacted_in_the_journal_and_proposals_on_both_formats() {
    for format in BOTH {
        let (folder, id) = token_filed(format, "the CI credentials");
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
        let (folder, id) = token_filed(format, "the CI credentials");
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
        let (folder, id) = token_filed(format, "the CI credentials");
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
        let (folder, id) = token_filed(format, "the CI credentials");
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

/// A folder of `format` holding one memory `alpha` (described by `description`) whose body
/// holds a credential, and the id of the redaction proposal `check --fix` filed for it.
fn token_filed(format: Format, description: &str) -> (Folder, String) {
    let folder = Folder::new(format);
    let body = format!("The CI token is {TOKEN}.");
    folder.ok(&common::cli::add_args("alpha", description, &body));
    let id = filed(&folder);
    (folder, id)
}

/// A credential in what a proposal brings (an imported reply and its evidence, a copy from a
/// folder of the other format) is redacted from filing on, on both formats: the proposal's
/// file, `proposals --json`, the journal and `log` never hold it whole, and approving writes
/// the redacted text.
#[test]
fn a_credential_a_proposal_brings_is_kept_redacted_from_filing_to_approval_on_both_formats() {
    let reply = format!(
        r#"[{{"name":"alpha","type":"project","description":"the CI credentials","body":"The CI token is {TOKEN}."}}]"#
    );
    let evidence = format!("the user pasted {TOKEN}");
    for (format, other) in [(BOTH[0], BOTH[1]), (BOTH[1], BOTH[0])] {
        let source = Folder::new(other);
        source.ok(&common::cli::add_args(
            "beta",
            "the deploy credentials",
            &format!("Deploy with {TOKEN}."),
        ));
        let folder = Folder::new(format);
        let imported = folder
            .ok_with(&["propose", "import", "--evidence", &evidence, "-"], &reply)
            .trim()
            .to_owned();
        let from = source.root();
        let from = from.to_str().expect("a UTF-8 path");
        let copied = folder.ok(&["copy", "--from", from]).trim().to_owned();
        let listed = folder.ok(&["proposals", "--json"]);
        assert!(
            listed.contains(&imported) && listed.contains(&copied),
            "{format:?}: {listed}"
        );
        assert!(
            !listed.contains(TOKEN) && listed.contains("[REDACTED]"),
            "{format:?}: {listed}"
        );
        for (path, bytes) in kept_files(&folder) {
            assert!(
                !String::from_utf8_lossy(&bytes).contains(TOKEN),
                "{format:?}: {path} holds the token whole"
            );
        }
        folder.ok(&["approve", &imported]);
        folder.ok(&["approve", &copied]);
        for name in ["alpha", "beta"] {
            let raw = folder.ok(&["show", "--raw", name]);
            assert!(
                !raw.contains(TOKEN) && raw.contains("[REDACTED]"),
                "{format:?}: {name}: {raw}"
            );
        }
        for (path, bytes) in kept_files(&folder) {
            assert!(
                !String::from_utf8_lossy(&bytes).contains(TOKEN),
                "{format:?}: {path} holds the token whole after approval"
            );
        }
        let log = folder.ok(&["log", "--json"]);
        assert!(!log.contains(TOKEN), "{format:?}: {log}");
    }
}
