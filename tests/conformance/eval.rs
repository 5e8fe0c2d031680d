//! `memwb eval` on both formats: the same cases, the same report shape, nothing written in
//! the folder.

use super::{add, workbench};
use crate::common::formats::{BOTH, Folder, Format};

/// The keys of a JSON object, recursively (`a.b` for nested objects), to compare shapes.
fn shape(value: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    if let Some(object) = value.as_object() {
        for (key, inner) in object {
            let path = format!("{prefix}{key}");
            out.push(path.clone());
            shape(inner, &format!("{path}."), out);
        }
    }
}

/// A folder of `format` holding a memory about tabs and one about the database.
fn tabs_and_postgres(format: Format) -> Folder {
    let folder = Folder::new(format);
    folder.ok(&crate::common::cli::add_args(
        "tabs",
        "indent with tabs, never spaces",
        "The repository indents with tabs.",
    ));
    folder.ok(&crate::common::cli::add_args(
        "postgres",
        "integration tests need a local postgres",
        "Run the database before the tests.",
    ));
    folder
}

#[test]
fn eval_self_retrieves_each_memory_and_reports_alike_on_both_formats() {
    let mut shapes = Vec::new();
    for format in BOTH {
        let folder = tabs_and_postgres(format);
        folder.ok(&add("release", "Releases leave on Tuesdays."));
        let before = crate::common::tree(&folder.root());
        let report: serde_json::Value =
            serde_json::from_str(&folder.ok(&["eval", "--self", "--json"])).expect("json");
        let mut keys = Vec::new();
        shape(&report, "", &mut keys);
        keys.sort();
        shapes.push(keys);
        let text = report.to_string();
        for name in ["tabs", "postgres", "release"] {
            assert!(
                text.contains(name),
                "{format:?}: {name} is a case: {report}"
            );
        }
        let mut after = crate::common::tree(&folder.root());
        let mut before = before;
        // `.memory` keeps memwb's own files inside; the memories are what must not change.
        before.retain(|k, _| !k.starts_with(".memwb"));
        after.retain(|k, _| !k.starts_with(".memwb"));
        assert_eq!(after, before, "{format:?}: eval writes no memory");
    }
    assert_eq!(shapes[0], shapes[1], "one report shape on both formats");
}

/// Replaces both memories: the database one with a description "integration tests" misses,
/// the tabs one with one "weather" finds.
const REDESCRIBE_BOTH: &str = r#"{"source_names":["postgres","tabs"],"records":[{"name":"postgres","type":"project","description":"suites hit real services","body":"Run them."},{"name":"tabs","type":"project","description":"indent with tabs, whatever the weather","body":"Tabs."}]}"#;

/// The newest journal entry's id, as `log --json` lists it.
fn newest_entry(folder: &Folder) -> u64 {
    let log: Vec<serde_json::Value> =
        serde_json::from_str(&folder.ok(&["log", "--json"])).expect("log --json");
    log.last().and_then(|e| e["id"].as_u64()).expect("an entry")
}

/// The workbench judges a pending proposal on the cases, and blames a regression on the
/// commit that made it, in the same words on both formats: the Proposals view says what
/// approving would change, and a commit that breaks a passing case is announced with its
/// journal entry.
#[test]
fn a_proposals_effect_on_the_cases_and_a_regressions_commit_are_told_alike_on_both_formats() {
    for format in BOTH {
        let folder = tabs_and_postgres(format);
        for (query, expect) in [
            ("integration tests", "postgres"),
            ("weather", "tabs"),
            ("indent", "tabs"),
        ] {
            folder.ok(&["eval", "add", query, "--expect", expect]);
        }
        let id = folder
            .ok_with(&["propose", "import", "-"], REDESCRIBE_BOTH)
            .trim()
            .to_owned();

        let mut h = workbench(&folder);
        h.start_watch();
        h.keys("p");
        let screen = h.screen();
        assert!(
            screen.contains(&format!("Proposal {id}"))
                && screen.contains("approving this changes 2 cases: +1 pass, -1 fail"),
            "{format:?}: {screen}"
        );

        folder.ok(&["set", "tabs", "--description", "spaces are fine"]);
        let entry = newest_entry(&folder);
        h.watch_until(|change| change.changed.iter().any(|name| name == "tabs"));
        let status = h.app.status.clone().expect("status").text;
        assert_eq!(
            status,
            format!("eval: 'indent' no longer selects tabs since #{entry}"),
            "{format:?}"
        );
    }
}
