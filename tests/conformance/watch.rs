//! `memwb watch` on both formats: one line per change, in the order they were made, naming
//! the memories each added, changed or removed.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::{add, file_of};
use crate::common::formats::{BOTH, Folder, Format};

/// How long a line may take: a deadline, not a pause (each wait ends at the line).
const WAIT: Duration = Duration::from_secs(30);

/// `memwb watch` with `args` on `folder`, started: the child, its first line on stderr (said
/// once the watch is set up), and its stdout's lines as they come.
fn spawn_watch(folder: &Folder, args: &[&str]) -> (Child, String, mpsc::Receiver<String>) {
    let mut child = folder
        .command()
        .arg("watch")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("memwb watch runs");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut ready = String::new();
    stderr.read_line(&mut ready).expect("read stderr");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, ready, rx)
}

#[test]
fn watch_prints_one_line_per_change_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let (mut child, ready, rx) = spawn_watch(&folder, &["--json"]);
        assert!(ready.starts_with("watching "), "{format:?}: {ready}");
        let steps: [(&[&str], [&[&str]; 3]); 5] = [
            (&add("beta", "two"), [&["beta"], &[], &[]]),
            (
                &["set", "alpha", "--body", "edited"],
                [&[], &["alpha"], &[]],
            ),
            (
                &["set", "beta", "--name", "gamma"],
                [&["gamma"], &[], &["beta"]],
            ),
            (&["rm", "alpha"], [&[], &[], &["alpha"]]),
            // The last one shows that no step above printed a second line.
            (&add("omega", "last"), [&["omega"], &[], &[]]),
        ];
        for (args, [added, changed, removed]) in steps {
            folder.ok(args);
            let line = rx
                .recv_timeout(WAIT)
                .unwrap_or_else(|_| panic!("{format:?}: no line after {args:?}"));
            let value: serde_json::Value = serde_json::from_str(&line).expect("json");
            // On a Claude Code folder MEMORY.md is a file of its own, which another program
            // may change alone, and `changed` names it when it changed (docs/claude-code.md,
            // "`memwb watch` on a Claude Code folder"); the memories are what both say alike.
            let said = |key: &str| -> Vec<String> {
                value[key]
                    .as_array()
                    .unwrap_or_else(|| panic!("{format:?}: {key} in {line}"))
                    .iter()
                    .map(|v| v.as_str().unwrap_or_default().to_owned())
                    .filter(|name| !(matches!(format, Format::Claude) && name == "MEMORY.md"))
                    .collect()
            };
            assert_eq!(
                (said("added"), said("changed"), said("removed")),
                (
                    added.iter().map(|s| s.to_string()).collect(),
                    changed.iter().map(|s| s.to_string()).collect(),
                    removed.iter().map(|s| s.to_string()).collect()
                ),
                "{format:?}: after {args:?}: {line}"
            );
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Without `--json`, a line is the time and the memories by name, in the same words on both
/// formats ("added: beta", "changed: alpha", "removed: alpha"; MEMORY.md may follow on Claude
/// Code, as a file of its own).
#[test]
fn watch_says_each_change_in_the_same_words_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let (mut child, ready, rx) = spawn_watch(&folder, &[]);
        assert!(ready.starts_with("watching "), "{format:?}: {ready}");
        let steps: [(&[&str], &str); 3] = [
            (&add("beta", "two"), "added: beta"),
            (&["set", "alpha", "--body", "edited"], "changed: alpha"),
            (&["rm", "alpha"], "removed: alpha"),
        ];
        for (args, said) in steps {
            folder.ok(args);
            let line = rx
                .recv_timeout(WAIT)
                .unwrap_or_else(|_| panic!("{format:?}: no line after {args:?}"));
            // "2026-01-02T03:04:05.678Z added: beta": the time, then what changed.
            let (at, rest) = line.split_once(' ').expect("time and words");
            assert!(at.len() >= 20 && at.ends_with('Z'), "{format:?}: {line}");
            let rest = rest
                .strip_suffix("; changed: MEMORY.md")
                .or_else(|| rest.strip_suffix(", MEMORY.md"))
                .unwrap_or(rest)
                .to_owned();
            assert_eq!(rest, said, "{format:?}: after {args:?}: {line}");
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// `--record` is a capability: the format that records outside changes starts recording; the
/// other refuses with its backend's reason, and nothing in the folder or memwb's state changes.
#[test]
fn watch_record_starts_only_where_the_format_can_record() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        match format {
            Format::Memory => {
                let before = folder.state();
                let out = folder.run(&["watch", "--record"]);
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert_ne!(out.status.code(), Some(0), "{format:?}: {stderr}");
                assert!(
                    stderr.contains(
                        "--record: memwb journals every change it makes to a .memory set itself"
                    ),
                    "{format:?}: {stderr}"
                );
                assert_eq!(folder.state(), before, "{format:?}: nothing changes");
            }
            Format::Claude => {
                let (mut child, ready, _rx) = spawn_watch(&folder, &["--record"]);
                assert!(
                    ready.starts_with("watching ") && ready.ends_with(" (recording)\n"),
                    "{format:?}: {ready}"
                );
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// Another program's edit of a memory's file, an undo and the undo of that undo are each
/// reported as what they did to the memories, in the same words on both formats.
#[test]
fn watch_says_an_outside_edit_and_an_undo_alike_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        folder.ok(&add("beta", "two"));
        let alpha = file_of(&folder, "alpha");
        let (mut child, ready, rx) = spawn_watch(&folder, &[]);
        assert!(ready.starts_with("watching "), "{format:?}: {ready}");
        let next = |what: &str| {
            let line = rx
                .recv_timeout(WAIT)
                .unwrap_or_else(|_| panic!("{format:?}: no line after {what}"));
            let (_, rest) = line.split_once(' ').expect("time and words");
            rest.strip_suffix("; changed: MEMORY.md")
                .or_else(|| rest.strip_suffix(", MEMORY.md"))
                .unwrap_or(rest)
                .to_owned()
        };
        let mut text = std::fs::read(&alpha).expect("alpha's file");
        text.extend_from_slice(b"Edited by another program.\n");
        std::fs::write(&alpha, text).expect("edit outside");
        assert_eq!(next("the outside edit"), "changed: alpha", "{format:?}");
        folder.ok(&["undo"]);
        assert_eq!(next("the undo"), "removed: beta", "{format:?}");
        let undo = folder.entry_ids().last().copied().expect("the undo");
        folder.ok(&["undo", &undo.to_string()]);
        assert_eq!(next("the undo's undo"), "added: beta", "{format:?}");
        let _ = child.kill();
        let _ = child.wait();
    }
}
