//! `e` on a pending proposal in the Proposals view, on both formats: one editor on the memory
//! the proposal writes (its fields, read from its change), saved into the proposal with one
//! wording, nothing applied until it is approved; the same refusals.

use crossterm::event::KeyCode;
use memwb::store::IoHooks;

use super::{add, approve_in_workbench, file_of, kept_files, workbench_sized};
use crate::common::formats::{BOTH, Folder};
use crate::tui_harness::Harness;

const EXTRACTION: &str =
    r#"[{"name":"delta","type":"project","description":"a new fact","body":"Delta."}]"#;

/// A folder with one memory and one pending proposal adding `delta`, and its id.
fn proposing_delta(folder: &Folder) -> String {
    folder.ok(&add("alpha", "Alpha's body."));
    folder
        .ok_with(&["propose", "import", "-"], EXTRACTION)
        .trim()
        .to_owned()
}

/// The workbench on `folder` in its Proposals view, its only proposal selected.
fn proposals_view(folder: &Folder) -> Harness {
    let mut h = workbench_sized(folder, IoHooks::default(), (120, 60));
    h.keys("p");
    h
}

/// What the status line says.
fn status(h: &Harness) -> String {
    h.app
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

#[test]
fn e_edits_a_proposed_memory_into_its_proposal_alike_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let id = proposing_delta(&folder);
        let mut h = proposals_view(&folder);

        // Saved unchanged: nothing written.
        let kept = kept_files(&folder);
        h.keys("e");
        let screen = h.screen();
        assert!(
            screen.contains(&format!(" Edit proposed delta (proposal {id}) ")),
            "{format:?}: {screen}"
        );
        h.ctrl('s');
        assert!(h.app.editor.is_none(), "{format:?}: {}", h.screen());
        assert_eq!(
            status(&h),
            format!("proposal {id}: nothing changed, nothing saved"),
            "{format:?}"
        );
        assert_eq!(kept_files(&folder), kept, "{format:?}");

        // The body (focused first) and the description edited, typed as a reviewer types.
        h.keys("e");
        h.keys("Reviewed. ");
        h.press(KeyCode::BackTab);
        h.keys("reviewed: ");
        h.ctrl('s');
        assert!(h.app.editor.is_none(), "{format:?}: {}", h.screen());
        assert!(
            status(&h).starts_with(&format!(
                "proposal {id}: memory edited (nothing applied yet; a approves)"
            )),
            "{format:?}: {}",
            h.screen()
        );
        let screen = h.screen();
        for said in ["description reviewed: a new fact", "Reviewed. Delta."] {
            assert!(
                screen.lines().any(|l| l.trim_matches('│').trim() == said),
                "{format:?}: no {said:?} in the detail: {screen}"
            );
        }
        let listed = folder.ok(&["ls"]);
        assert!(!listed.contains("delta"), "{format:?}: applied: {listed}");

        approve_in_workbench(&mut h, &id, format);
        let written = std::fs::read_to_string(file_of(&folder, "delta")).expect("delta");
        assert!(
            written.contains("reviewed: a new fact") && written.contains("Reviewed. Delta."),
            "{format:?}: {written}"
        );

        // A decided proposal is not edited.
        h.keys("e");
        assert!(h.app.editor.is_none(), "{format:?}");
        assert_eq!(
            status(&h),
            "e is not available now: the selected proposal was already decided",
            "{format:?}"
        );
    }
}

/// Two reviewers open the same proposal: the second save is refused, nothing written, the
/// edit kept in the editor, in one wording on both formats.
#[test]
fn an_edit_of_a_proposal_edited_since_it_was_opened_is_refused_alike_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let id = proposing_delta(&folder);
        let mut mine = proposals_view(&folder);
        let mut theirs = proposals_view(&folder);
        mine.keys("e");
        theirs.keys("e");
        theirs.keys("Theirs. ");
        theirs.ctrl('s');
        assert!(
            theirs.app.editor.is_none(),
            "{format:?}: {}",
            theirs.screen()
        );
        let kept = kept_files(&folder);
        mine.keys("Mine. ");
        mine.ctrl('s');
        let screen = mine.screen();
        assert!(mine.app.editor.is_some(), "{format:?}: {screen}");
        assert!(
            screen.contains(&format!(
                "proposal {id} was edited by someone else since it was opened; reopen it"
            )),
            "{format:?}: {screen}"
        );
        assert_eq!(
            status(&mine),
            format!("edit proposal {id} failed; your edit is still in the editor"),
            "{format:?}"
        );
        assert_eq!(kept_files(&folder), kept, "{format:?}: nothing written");
    }
}
