//! Concurrent writers on both formats: several `memwb` processes started together, each
//! waited for (no sleeps), every write landed and journaled once; writers racing on one
//! memory are taken one at a time.

use crate::common::formats::{BOTH, Folder};

/// How many writers each wave starts at once.
const WRITERS: usize = 6;

#[test]
fn concurrent_writers_lose_no_write_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&super::add("shared", "edited by every writer below"));
        let names: Vec<String> = (0..WRITERS).map(|i| format!("writer-{i}")).collect();
        // Every process of a wave is started before any is waited for, so they run together:
        // the adds of distinct names, then as many body edits, then removals of half of them.
        wave(
            &folder,
            names.iter().map(|name| {
                crate::common::cli::add_args(name, "one writer", name)
                    .map(str::to_owned)
                    .to_vec()
            }),
        );
        wave(
            &folder,
            names.iter().map(|name| {
                ["set", name, "--body", &format!("{name}, edited")]
                    .map(str::to_owned)
                    .to_vec()
            }),
        );
        let (gone, kept): (Vec<&String>, Vec<&String>) = names
            .iter()
            .partition(|name| name.ends_with(['0', '2', '4']));
        wave(
            &folder,
            gone.iter()
                .map(|name| vec!["rm".to_owned(), name.to_string()]),
        );
        let names = kept;
        let listed: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
        assert_eq!(listed.len(), names.len() + 1, "{format:?}: {listed:?}");
        for name in &names {
            let shown = folder.ok(&["show", name]);
            assert!(
                shown.contains(&format!("{name}, edited")),
                "{format:?}: {name} lost its edit: {shown}"
            );
        }
        let index = std::fs::read_to_string(folder.root().join("MEMORY.md")).expect("index");
        for name in &names {
            assert!(index.contains(name.as_str()), "{format:?}: {index}");
        }
        assert!(!index.contains("writer-0"), "{format:?}: {index}");
        assert_eq!(
            folder.entry_ids().len(),
            1 + 2 * WRITERS + WRITERS / 2,
            "{format:?}: one journal entry per write"
        );
    }
}

/// Runs every command of `wave` at once on `folder`, then waits for each: all must succeed.
fn wave(folder: &Folder, wave: impl Iterator<Item = Vec<String>>) {
    for (args, out) in started(folder, wave) {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{:?} {args:?}: {}",
            folder.format,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Starts every command of `wave` at once on `folder`, then waits for each: what each did.
fn started(
    folder: &Folder,
    wave: impl Iterator<Item = Vec<String>>,
) -> Vec<(Vec<String>, std::process::Output)> {
    let children: Vec<(Vec<String>, std::process::Child)> = wave
        .map(|args| {
            let child = folder
                .command()
                .args(&args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("memwb runs");
            (args, child)
        })
        .collect();
    children
        .into_iter()
        .map(|(args, child)| (args, child.wait_with_output().expect("memwb ends")))
        .collect()
}

/// The body of memory `name` before and after journal entry `entry` (`log --json`), as the
/// journal keeps it.
fn bodies(entry: &serde_json::Value, name: &str) -> (Option<String>, Option<String>) {
    let side = |side: &str| {
        entry["files"]
            .as_array()
            .expect("files")
            .iter()
            .map(|file| &file[side])
            .find(|image| image["memory"] == name)
            .map(|image| image["record"]["body"].as_str().expect("body").to_owned())
    };
    (side("before"), side("after"))
}

/// Writers editing one memory at once are taken one at a time: each edit's journal entry
/// starts from the body the one before it left (no edit is lost under another), the memory
/// ends with the last one's, and undoing them all, newest first, walks back to the first body.
#[test]
fn writers_editing_one_memory_at_once_are_taken_one_at_a_time_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&super::add("shared", "the first body"));
        let first = folder.state();
        wave(
            &folder,
            (0..WRITERS).map(|i| {
                ["set", "shared", "--body", &format!("body {i}")]
                    .map(str::to_owned)
                    .to_vec()
            }),
        );
        let log: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["log", "--json"])).expect("log --json");
        assert_eq!(log.len(), 1 + WRITERS, "{format:?}: one entry per edit");
        let mut body = "the first body".to_owned();
        for entry in &log[1..] {
            let (before, after) = bodies(entry, "shared");
            assert_eq!(
                before.as_deref(),
                Some(body.as_str()),
                "{format:?}: entry #{} did not start from the edit before it",
                entry["id"]
            );
            body = after.unwrap_or_else(|| panic!("{format:?}: {entry}"));
        }
        let shown = folder.ok(&["show", "shared"]);
        assert!(
            shown.trim_end().ends_with(&body),
            "{format:?}: the newest entry wrote {body:?}: {shown}"
        );
        for _ in 0..WRITERS {
            folder.ok(&["undo"]);
        }
        assert_eq!(
            folder.state(),
            first,
            "{format:?}: walked back to the first"
        );
    }
}

/// Writers renaming one memory at once: one takes it, each other one is refused (the name is
/// gone), and the memory is there once, by the winner's name.
#[test]
fn writers_renaming_one_memory_at_once_leave_it_once_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&super::add("shared", "renamed by one writer"));
        let outputs = started(
            &folder,
            (0..WRITERS).map(|i| {
                ["set", "shared", "--name", &format!("renamed-{i}")]
                    .map(str::to_owned)
                    .to_vec()
            }),
        );
        let (won, refused): (Vec<_>, Vec<_>) = outputs
            .iter()
            .partition(|(_, out)| out.status.code() == Some(0));
        assert_eq!(won.len(), 1, "{format:?}: {outputs:?}");
        for (args, out) in refused {
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{format:?} {args:?}: {err}");
            assert_eq!(
                err, "error: no memory named \"shared\"\nhint: memwb ls lists the memories\n",
                "{format:?} {args:?}"
            );
        }
        let listed: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
        let winner = &won[0].0[3];
        assert_eq!(listed.len(), 1, "{format:?}: {listed:?}");
        assert_eq!(listed[0]["name"], winner.as_str(), "{format:?}");
        assert_eq!(
            folder.entry_ids().len(),
            2,
            "{format:?}: one rename journaled"
        );
    }
}
