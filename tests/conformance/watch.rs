//! `memwb watch` on both formats: one line per change, in the order they were made, naming
//! the memories each added, changed or removed.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use super::add;
use crate::common::formats::{BOTH, Folder, Format};

/// How long a line may take: a deadline, not a pause (each wait ends at the line).
const WAIT: Duration = Duration::from_secs(30);

#[test]
fn watch_prints_one_line_per_change_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        let mut child = folder
            .command()
            .args(["watch", "--json"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("memwb watch runs");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut ready = String::new();
        stderr.read_line(&mut ready).expect("read stderr");
        assert!(ready.starts_with("watching "), "{format:?}: {ready}");
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
