//! A damaged journal: a torn last line, damaged lines, and journals of the previous layout.

use super::*;

#[test]
fn a_torn_last_line_is_moved_aside_and_reported() {
    let dir = seeded(&["alpha"]);
    let journal = journal_path(dir.path());
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("{\"intent\":{\"entry\":{\"id\":2"); // a crash in the middle of an append
    std::fs::write(&journal, &text).unwrap();
    assert!(has_finding(
        dir.path(),
        "journal-torn",
        ".memwb/journal.jsonl"
    ));
    assert_ok(&add(dir.path(), "beta"));
    let aside: Vec<String> = std::fs::read_dir(memwb_dir(dir.path()))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("journal.torn."))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    let moved = std::fs::read_to_string(memwb_dir(dir.path()).join(&aside[0])).unwrap();
    assert_eq!(moved, "{\"intent\":{\"entry\":{\"id\":2");
    let found = findings(dir.path());
    assert!(
        found.contains(&("journal-set-aside".into(), format!(".memwb/{}", aside[0]))),
        "{found:?}"
    );
    assert!(!found.iter().any(|(c, _)| c == "journal-torn"), "{found:?}");
    let ids: Vec<u64> = Journal::of(&open(dir.path()))
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, [1, 2]);
}

#[test]
fn damaged_lines_are_reported_skipped_and_repaired() {
    let dir = seeded(&["alpha", "beta"]);
    let journal = journal_path(dir.path());
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(2, "not json");
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();

    let out = memwb(dir.path(), &["check", "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let damaged: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "journal-damaged")
        .collect();
    assert_eq!(damaged.len(), 1, "{report}");
    assert!(
        damaged[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 3:"),
        "{report}"
    );
    let log = memwb(dir.path(), &["log", "--json"]);
    assert!(log.status.success(), "{}", stderr(&log));
    assert!(
        stderr(&log).contains("warning:") && stderr(&log).contains("skipping line 3"),
        "{}",
        stderr(&log)
    );
    let entries: Value = serde_json::from_slice(&log.stdout).unwrap();
    assert_eq!(entries.as_array().unwrap().len(), 2, "both entries shown");
    assert_ok(&add(dir.path(), "gamma"));

    // A damaged last line stops writers (its id cannot be known) until it is moved aside.
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("{\"committed\":\"x\"}\n");
    std::fs::write(&journal, text).unwrap();
    let out = add(dir.path(), "delta");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("memwb repair --journal"),
        "{}",
        stderr(&out)
    );
    let repair = memwb(dir.path(), &["repair", "--journal"]);
    assert_ok(&repair);
    assert!(
        stdout(&repair).contains("damaged lines 3, "),
        "{}",
        stdout(&repair)
    );
    assert_ok(&add(dir.path(), "delta"));
    let found = findings(dir.path());
    assert!(
        !found.iter().any(|(c, _)| c == "journal-damaged"),
        "{found:?}"
    );
    assert!(
        found.iter().any(|(c, _)| c == "journal-set-aside"),
        "{found:?}"
    );
    let ids: Vec<u64> = Journal::of(&open(dir.path()))
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    let again = memwb(dir.path(), &["repair", "--journal"]);
    assert!(
        stdout(&again).contains("no damaged lines"),
        "{}",
        stdout(&again)
    );
}

#[test]
fn journals_of_the_previous_layout_still_load_and_finish() {
    let dir = seeded(&["alpha", "beta"]);
    let store = open(dir.path());
    let entries = Journal::of(&store).entries().unwrap();
    // The previous layout: one bare entry per line, and an interrupted commit's intent in
    // journal.pending.json (here the commit of "gamma", which happened).
    let legacy: String = entries
        .iter()
        .map(|e| serde_json::to_string(e).unwrap() + "\n")
        .collect();
    std::fs::write(journal_path(dir.path()), legacy).unwrap();
    let before_gamma = store.read().unwrap().files();
    // Committed without a journal observer, as a crash right after the commit would leave it.
    store.extend(vec![record("gamma", "d", "b")]).unwrap();
    let mut pending_entry = serde_json::to_value(&entries[1]).unwrap();
    pending_entry["id"] = 3.into();
    pending_entry["after"][0]["name"] = "gamma".into();
    let after_gamma = store.read().unwrap().files();
    pending_entry["after"][0]["file"] = after_gamma[2].clone().into();
    let pending = serde_json::json!({
        "entry": pending_entry,
        "expect": {"kind": "manifest", "before": before_gamma, "after": after_gamma},
        "decision": null,
    });
    std::fs::write(
        memwb_dir(dir.path()).join("journal.pending.json"),
        serde_json::to_vec(&pending).unwrap(),
    )
    .unwrap();
    assert!(Journal::of(&store).has_pending());

    let log = memwb(dir.path(), &["log", "--json"]);
    assert_ok(&log);
    let shown: Value = serde_json::from_slice(&log.stdout).unwrap();
    let ids: Vec<u64> = shown
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [1, 2, 3], "the legacy intent was finished");
    assert!(!memwb_dir(dir.path()).join("journal.pending.json").exists());
    assert_ok(&add(dir.path(), "delta"));
    let ids: Vec<u64> = Journal::of(&store)
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    let mut raw = String::new();
    std::fs::File::open(journal_path(dir.path()))
        .unwrap()
        .read_to_string(&mut raw)
        .unwrap();
    assert!(
        raw.lines().next().unwrap().starts_with("{\"id\":1"),
        "old lines kept as they were"
    );
}
