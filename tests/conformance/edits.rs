//! The four edits (add, set, rename, rm) through the binary: what each writes, says and
//! journals, and bad input refused with nothing changed.

use super::{add, stderr};
use crate::common::formats::{BOTH, Folder};

/// The memories `ls --json` lists: name, type, description.
fn listed(folder: &Folder) -> Vec<(String, String, String)> {
    let listed: Vec<serde_json::Value> =
        serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
    listed
        .iter()
        .map(|e| {
            let field = |k: &str| e[k].as_str().unwrap_or_default().to_owned();
            (field("name"), field("type"), field("description"))
        })
        .collect()
}

/// The ops `log --json` lists, oldest first.
fn ops(folder: &Folder) -> Vec<String> {
    let log: Vec<serde_json::Value> =
        serde_json::from_str(&folder.ok(&["log", "--json"])).expect("log --json");
    log.iter()
        .map(|e| e["op"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn add_set_rename_and_rm_do_and_journal_the_same_on_both_formats() {
    let mut journaled = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        folder.ok(&add("beta", "Beta's body."));
        let row = |name: &str, description: &str| {
            (
                name.to_owned(),
                "project".to_owned(),
                description.to_owned(),
            )
        };
        assert_eq!(
            listed(&folder),
            [
                row("alpha", "what it is about"),
                row("beta", "what it is about")
            ],
            "{format:?}"
        );
        assert!(
            folder.ok(&["show", "alpha"]).contains("Alpha's body."),
            "{format:?}"
        );

        folder.ok(&["set", "alpha", "--body", "Alpha, edited."]);
        folder.ok(&["set", "beta", "--description", "beta, described"]);
        let shown = folder.ok(&["show", "alpha"]);
        assert!(
            shown.contains("Alpha, edited.") && !shown.contains("Alpha's body."),
            "{format:?}: {shown}"
        );
        assert_eq!(
            listed(&folder)[1],
            row("beta", "beta, described"),
            "{format:?}"
        );

        folder.ok(&["set", "alpha", "--name", "gamma"]);
        assert_eq!(
            listed(&folder),
            [
                row("gamma", "what it is about"),
                row("beta", "beta, described")
            ],
            "{format:?}: a rename keeps the place"
        );
        assert!(
            folder.ok(&["show", "gamma"]).contains("Alpha, edited."),
            "{format:?}"
        );
        assert_eq!(
            folder.run(&["show", "alpha"]).status.code(),
            Some(2),
            "{format:?}"
        );
        let index = std::fs::read_to_string(folder.root().join("MEMORY.md")).expect("index");
        assert!(
            index.contains("gamma") && !index.contains("alpha"),
            "{format:?}: {index}"
        );

        folder.ok(&["rm", "beta"]);
        assert_eq!(
            listed(&folder),
            [row("gamma", "what it is about")],
            "{format:?}"
        );
        let index = std::fs::read_to_string(folder.root().join("MEMORY.md")).expect("index");
        assert!(!index.contains("beta"), "{format:?}: {index}");
        journaled.push(ops(&folder));
    }
    assert_eq!(journaled[0], journaled[1], "the same ops journaled alike");
    assert_eq!(journaled[0].len(), 6, "{journaled:?}");
}

/// Each edit of a memory that is not there, or to a name that is taken, is refused with exit
/// code 2 and an error naming it, and changes nothing, on both formats.
#[test]
fn an_edit_of_a_missing_or_taken_name_is_refused_and_changes_nothing_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        folder.ok(&add("beta", "two"));
        let before = folder.state();
        let entries = folder.entry_ids();
        let taken = add("beta", "again");
        let refusals: [&[&str]; 5] = [
            &["set", "ghost", "--body", "x"],
            &["set", "alpha", "--name", "beta"],
            &["rm", "ghost"],
            &["show", "ghost"],
            &taken,
        ];
        for args in refusals {
            let out = folder.run(args);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{format:?} {args:?}: {}",
                stderr(&out)
            );
            let err = stderr(&out);
            let named = if args.contains(&"ghost") {
                "ghost"
            } else {
                "beta"
            };
            assert!(
                err.starts_with("error: ") && err.contains(named),
                "{format:?} {args:?}: {err}"
            );
            assert_eq!(folder.state(), before, "{format:?} {args:?}");
        }
        assert_eq!(folder.entry_ids(), entries, "{format:?}: nothing journaled");
    }
}
