//! A damaged Claude Code journal (issue 20 item 11): `check` reports it, a pending intent and
//! leftover `.memwb-*.tmp` files; `memwb repair --journal` moves the damage aside as on `.memory`.
//! A journal of an older layout is read as the format says.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::cli::{add_args, memwb_claude, ok, stderr, stdout};

fn add(home: &Path, memory: &Path, state: &Path, name: &str) -> std::process::Output {
    let description = format!("about {name}");
    let body = format!("All about {name}.");
    memwb_claude(home, memory, state, &add_args(name, &description, &body))
}

/// The one `journal.jsonl` under memwb's state directory.
fn journal_in(state: &Path) -> PathBuf {
    let mut found = Vec::new();
    let mut dirs = vec![state.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("read state").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n == "journal.jsonl") {
                found.push(path);
            }
        }
    }
    assert_eq!(found.len(), 1, "{found:?}");
    found.remove(0)
}

struct Folder {
    home: tempfile::TempDir,
    state: tempfile::TempDir,
    memory: PathBuf,
}

impl Folder {
    fn with_one_topic() -> Self {
        let home = tempfile::tempdir().expect("home");
        let state = tempfile::tempdir().expect("state");
        let memory = home.path().join("memory");
        fs::create_dir(&memory).expect("mkdir");
        fs::write(memory.join("MEMORY.md"), "").expect("index");
        let folder = Self {
            home,
            state,
            memory,
        };
        ok(folder.add("tea"));
        folder
    }
    fn add(&self, name: &str) -> std::process::Output {
        add(self.home.path(), &self.memory, self.state.path(), name)
    }
    fn run(&self, args: &[&str]) -> std::process::Output {
        memwb_claude(self.home.path(), &self.memory, self.state.path(), args)
    }
}

#[test]
fn a_damaged_journal_is_reported_by_check_and_repaired_so_writes_proceed() {
    let folder = Folder::with_one_topic();
    let journal = journal_in(folder.state.path());
    let mut text = fs::read_to_string(&journal).expect("journal");
    text.push_str("this is not json\n");
    fs::write(&journal, text).expect("damage");

    let refused = folder.add("coffee");
    assert_eq!(refused.status.code(), Some(2), "{}", stdout(&refused));
    assert!(
        stderr(&refused).contains("repair --journal"),
        "{}",
        stderr(&refused)
    );

    let check = folder.run(&["check"]);
    assert!(
        stdout(&check).contains("journal-damaged"),
        "{}",
        stdout(&check)
    );
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));

    let repaired = ok(folder.run(&["repair", "--journal"]));
    assert!(repaired.contains("moved damaged lines 3"), "{repaired}");
    let aside: Vec<String> = fs::read_dir(journal.parent().expect("state dir"))
        .expect("list")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("journal.damaged."))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    ok(folder.add("coffee"));
    assert!(!stdout(&folder.run(&["check"])).contains("journal-damaged"));
    assert_eq!(
        ok(folder.run(&["repair", "--journal"])).trim(),
        "the journal has no damaged lines"
    );
}

#[test]
fn check_reports_a_pending_intent_and_leftover_temporary_files() {
    let folder = Folder::with_one_topic();
    let journal = journal_in(folder.state.path());
    let text = fs::read_to_string(&journal).expect("journal");
    // The change's mark never written: its intent is pending.
    let unmarked: Vec<&str> = text
        .lines()
        .filter(|line| !line.starts_with("{\"committed\""))
        .collect();
    assert!(unmarked.len() < text.lines().count(), "{text}");
    fs::write(&journal, unmarked.join("\n") + "\n").expect("unmark");
    fs::write(folder.memory.join(".memwb-tea.md.1234.tmp"), "half").expect("temp");

    let check = stdout(&folder.run(&["check"]));
    assert!(check.contains("journal-pending"), "{check}");
    assert!(check.contains("temp-file"), "{check}");
    assert!(check.contains(".memwb-tea.md.1234.tmp"), "{check}");
}

/// An entry written before `indexes` existed (MEMORY.md kept whole in `files`, nothing saying
/// it is an index) is read as the format says: MEMORY.md is an index, not a memory named
/// "MEMORY".
#[test]
fn an_entry_of_the_layout_before_indexes_does_not_count_the_index_as_a_memory() {
    let home = tempfile::tempdir().expect("home");
    let state = tempfile::tempdir().expect("state");
    let memory = home.path().join("memory");
    fs::create_dir(&memory).expect("mkdir");
    // A topic file and no index: the first `add` creates MEMORY.md whole.
    let topic =
        "---\nname: tea\ndescription: about tea\nmetadata:\n  type: project\n---\nAll about tea.\n";
    fs::write(memory.join("tea.md"), topic).expect("topic");
    ok(add(home.path(), &memory, state.path(), "alpha"));
    let journal = journal_in(state.path());
    let text = fs::read_to_string(&journal).expect("journal");
    let field = r#","indexes":["MEMORY.md"]"#;
    assert!(text.contains(field), "{text}");
    fs::write(&journal, text.replace(field, "")).expect("old layout");

    let log = ok(memwb_claude(home.path(), &memory, state.path(), &["log"]));
    assert!(log.contains("alpha"), "{log}");
    assert!(!log.contains("MEMORY"), "{log}");
}
