//! What each journal entry did, in `memwb log` and the workbench's History view.

use super::{add, workbench};
use crate::common::formats::{BOTH, Folder};

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

/// The History view lists the files the selected entry touched on both formats (only a Claude
/// Code folder's entries listed them: a `.memory` entry's record files were not said).
#[test]
fn history_lists_the_files_an_entry_touched_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let mut h = workbench(&folder);
        h.keys("H");
        let screen = h.screen();
        let listed: Vec<&str> = screen
            .lines()
            .filter(|line| line.contains("+ ") && line.contains(".md"))
            .collect();
        assert!(
            screen.contains("files:") && !listed.is_empty(),
            "{format:?}: the added file is not listed: {screen}"
        );
    }
}
