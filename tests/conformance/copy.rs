//! `memwb copy --from` between folders of every pair of formats: what it brings (a memory's
//! type, description and body; within one format, its file written as every new file of that
//! format is), what it refuses, worded alike, and that a refused copy files nothing (the
//! source read through its backend, the copy filed through the target's).

use super::{add, file_of, stderr};
use crate::common::cli::add_args as common_add;
use crate::common::formats::{BOTH, Folder};

/// `args` must fail on `folder` with exit 2, saying each of `said` on stderr, and leave the
/// folder and memwb's state as they were.
fn refused(folder: &Folder, args: &[&str], said: &[&str]) {
    let before = crate::common::tree(folder.dir.path());
    let state = crate::common::tree(folder.state.path());
    let out = folder.run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{:?} {args:?}: {stderr}",
        folder.format
    );
    for words in said {
        assert!(
            stderr.contains(words),
            "{:?} {args:?}: {stderr}",
            folder.format
        );
    }
    assert_eq!(
        crate::common::tree(folder.dir.path()),
        before,
        "{:?}",
        folder.format
    );
    assert_eq!(
        crate::common::tree(folder.state.path()),
        state,
        "{:?}",
        folder.format
    );
    assert!(
        folder.ok(&["proposals", "--json"]).trim() == "[]",
        "{:?}: nothing filed",
        folder.format
    );
}

#[test]
fn copy_refuses_an_unknown_name_a_taken_name_and_its_own_folder_on_every_pair_of_formats() {
    for target in BOTH {
        for source_format in BOTH {
            let source = Folder::new(source_format);
            source.ok(&add("beta", "Deploys wait for the freeze."));
            let folder = Folder::new(target);
            folder.ok(&add("beta", "A memory of the same name."));
            let from = source.root();
            let from = from.to_str().expect("a UTF-8 path");
            refused(
                &folder,
                &["copy", "--from", from, "nosuch"],
                &[&format!("no memory named \"nosuch\" in {from}")],
            );
            refused(
                &folder,
                &["copy", "--from", from],
                &[
                    "refused beta: a memory named \"beta\" is already in the target",
                    "every memory was refused (see above); nothing was proposed",
                ],
            );
            let own = folder.root();
            let own = own.to_str().expect("a UTF-8 path");
            refused(
                &folder,
                &["copy", "--from", own],
                &["is the folder being copied into"],
            );
        }
    }
}

/// `show NAME --json` on `folder`, parsed.
fn shown(folder: &Folder, name: &str) -> serde_json::Value {
    serde_json::from_str(&folder.ok(&["show", name, "--json"])).expect("show --json")
}

/// A memory's file as a person wrote it, not as memwb writes one: a comment and a folded
/// description in its frontmatter, its type at the top level, blank lines after it, CRLF line
/// ends in the body. Both formats read it.
const HAND_WRITTEN: &str = "---\nname: alpha\n# written by hand\ntype: project\ndescription: >-\n  what it is\n  about\n---\n\r\n\r\nNotes.\r\nDeploys wait for the freeze.\r\n";

/// [`HAND_WRITTEN`]'s body, as `add --body` takes it.
const HAND_WRITTEN_BODY: &str = "Notes.\r\nDeploys wait for the freeze.";

/// `name`'s file in `folder` without the line its format stamps with the time of the write
/// (Claude Code's `modified:`) and the line break that ends it (a body's own, which a writer
/// keeps as the body has it).
fn unstamped(folder: &Folder, name: &str) -> String {
    let text = std::fs::read_to_string(file_of(folder, name)).expect("the file");
    let kept: String = text
        .split_inclusive('\n')
        .filter(|line| !line.trim_start().starts_with("modified:"))
        .collect();
    kept.trim_end_matches(['\r', '\n']).to_owned()
}

#[test]
fn copy_brings_a_memory_into_every_format_and_keeps_its_file_within_one() {
    for target in BOTH {
        for source_format in BOTH {
            let source = Folder::new(source_format);
            source.ok(&add("alpha", "Deploys wait for the freeze."));
            std::fs::write(file_of(&source, "alpha"), HAND_WRITTEN).expect("write it by hand");
            source.ok(&add("beta", "Reviews happen on Tuesdays."));
            let folder = Folder::new(target);
            folder.ok(&add("beta", "A memory of the same name."));
            let from = source.root();
            let from = from.to_str().expect("a UTF-8 path");
            let out = folder.run(&["copy", "--from", from]);
            let pair = format!("{source_format:?} into {target:?}");
            assert_eq!(out.status.code(), Some(0), "{pair}: {}", stderr(&out));
            assert_eq!(
                stderr(&out),
                "refused beta: a memory named \"beta\" is already in the target\n",
                "{pair}"
            );
            let stdout = String::from_utf8_lossy(&out.stdout);
            let id = stdout.lines().last().expect("the proposal's id").trim();
            folder.ok(&["approve", id]);

            let (copied, original) = (shown(&folder, "alpha"), shown(&source, "alpha"));
            for field in ["name", "type", "description"] {
                assert_eq!(copied[field], original[field], "{pair}: {field}");
            }
            let body = copied["body"].as_str().expect("a body");
            assert!(
                body.ends_with("Deploys wait for the freeze."),
                "{pair}: {body}"
            );
            assert_eq!(
                shown(&folder, "beta")["body"],
                "A memory of the same name.",
                "{pair}: the refused memory left the target's alone"
            );
            if source_format == target {
                // The copy is taken as its file, and approving writes it as every new file of
                // the format is written: the file `add` of the same memory writes there (the
                // hand-written layout is not kept).
                let added = Folder::new(target);
                added.ok(&common_add("alpha", "what it is about", HAND_WRITTEN_BODY));
                assert_eq!(
                    unstamped(&folder, "alpha"),
                    unstamped(&added, "alpha"),
                    "{pair}: approving writes a copy as every new file is written"
                );
            }
        }
    }
}
