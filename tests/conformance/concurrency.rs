//! Concurrent writers on both formats: several `memwb` processes started together, each
//! waited for (no sleeps), every write landed and journaled once.

use crate::common::formats::{BOTH, Folder};

#[test]
fn concurrent_writers_lose_no_write_on_both_formats() {
    const WRITERS: usize = 6;
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
    for (args, child) in children {
        let out = child.wait_with_output().expect("memwb ends");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{:?} {args:?}: {}",
            folder.format,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
