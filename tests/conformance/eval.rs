//! `memwb eval` on both formats: the same cases, the same report shape, nothing written in
//! the folder.

use super::add;
use crate::common::formats::{BOTH, Folder};

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

#[test]
fn eval_self_retrieves_each_memory_and_reports_alike_on_both_formats() {
    let mut shapes = Vec::new();
    for format in BOTH {
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
