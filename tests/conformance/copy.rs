//! `memwb copy --from` between folders of every pair of formats: what it refuses, worded
//! alike, and that a refused copy files nothing (the source read through its backend, the
//! copy filed through the target's).

use super::add;
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
