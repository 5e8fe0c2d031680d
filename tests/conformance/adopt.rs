//! A memory file another program put beside the memories, taken in each format's way and
//! undone in another order than newest first. Adopting is a capability (`Backend::lacks`): on
//! `.memory` the workbench's `a` adopts an unlisted record file into the set; on a Claude Code
//! folder every topic file is a memory already, `a` says why there is nothing to adopt, and
//! `index --fix --yes` lists the file in MEMORY.md. Either way the entry that took it in is a
//! journaled change like any other.

use super::{add, workbench};
use crate::common;
use crate::common::formats::{BOTH, Folder, Format};

/// The file another program wrote: its name and bytes, in the format's own shape.
fn draft(format: Format) -> (&'static str, Vec<u8>) {
    match format {
        Format::Memory => (
            "draft-0badf00d.md",
            memwb::store::codec::serialize(&common::record(
                "draft",
                "a draft from before",
                "Draft body.",
            ))
            .into_bytes(),
        ),
        Format::Claude => (
            "draft.md",
            b"---\nname: draft\ndescription: a draft from before\nmetadata:\n  node_type: memory\n  type: project\n---\n\nDraft body.\n"
                .to_vec(),
        ),
    }
}

/// Whether MEMORY.md links the draft.
fn indexed(folder: &Folder) -> bool {
    std::fs::read_to_string(folder.root().join("MEMORY.md"))
        .expect("index")
        .contains("draft")
}

/// The file is taken in (adopted on `.memory`, its index line written on Claude Code), a
/// later change is made, and the taking-in is undone on its own: the file is out of the index
/// again, the later change kept; undoing that undo takes it in again. The file's bytes are
/// never touched.
#[test]
fn a_file_taken_in_undoes_after_a_later_change_and_again_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("keep", "kept"));
        let (file, bytes) = draft(format);
        let path = folder.root().join(file);
        std::fs::write(&path, &bytes).expect("another program's file");
        let mut h = workbench(&folder);
        match format {
            Format::Memory => {
                h.select_stray(file);
                h.keys("a");
                h.keys("y");
                let status = h.app.status.clone().expect("status").text;
                assert!(
                    status.contains(&format!("adopt {file}: written")),
                    "{status}"
                );
            }
            Format::Claude => {
                h.keys("a");
                let status = h.app.status.clone().expect("status").text;
                assert_eq!(
                    status,
                    "a is not available now: a Claude Code folder has no file outside its set: every topic file is a memory (fixing MEMORY.md lists one it misses)"
                );
                assert!(!indexed(&folder), "{format:?}: `a` changed nothing");
                folder.ok(&["index", "--fix", "--yes"]);
            }
        }
        let taken_in = *folder.entry_ids().last().expect("journaled");
        let names = || -> Vec<String> {
            let listed: Vec<serde_json::Value> =
                serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
            listed
                .iter()
                .map(|m| m["name"].as_str().expect("name").to_owned())
                .collect()
        };
        assert!(indexed(&folder), "{format:?}: taken in");
        assert_eq!(names(), ["keep", "draft"], "{format:?}");
        folder.ok(&add("later", "after it"));

        let said = folder.ok(&["undo", &taken_in.to_string()]);
        let undo = *folder.entry_ids().last().expect("journaled");
        assert!(
            said.starts_with(&format!("undid #{taken_in} (")),
            "{format:?}: {said}"
        );
        assert!(!indexed(&folder), "{format:?}: out of the index again");
        assert!(names().contains(&"later".to_owned()), "{format:?}: kept");
        assert_eq!(std::fs::read(&path).expect("the file"), bytes, "{format:?}");

        folder.ok(&["undo", &undo.to_string()]);
        assert!(indexed(&folder), "{format:?}: taken in again");
        assert!(names().contains(&"draft".to_owned()), "{format:?}");
        assert_eq!(std::fs::read(&path).expect("the file"), bytes, "{format:?}");
    }
}
