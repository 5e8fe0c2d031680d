//! What memwb keeps of a credential in its own files, on both formats: a memory that holds
//! one goes through every change (an edit that brings it, a rename, an edit of another
//! field, a removal, undo), and neither the journal nor anything else memwb keeps, nor `log`,
//! ever holds it whole (docs/security.md). The proposals' side is in `review.rs`.

use super::{TOKEN, add, kept_files};
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
