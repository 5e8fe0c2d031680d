//! What `memwb proposals` says of a proposal, read from its change the same way on both
//! formats: its kind as a person reads it and its one-line summary.

use super::{TOKEN, add, filed};
use crate::common;
use crate::common::formats::{BOTH, Folder};

/// The line `memwb proposals` lists `id` on, split into words.
fn listed(folder: &Folder, id: &str) -> Vec<String> {
    let out = folder.ok(&["proposals"]);
    let line = out
        .lines()
        .find(|line| line.starts_with(id))
        .unwrap_or_else(|| panic!("{:?}: {id} is not listed: {out}", folder.format));
    line.split_whitespace().map(str::to_owned).collect()
}

/// The kind `proposals --json` gives `id`.
fn json_kind(folder: &Folder, id: &str) -> String {
    let rows: Vec<serde_json::Value> =
        serde_json::from_str(&folder.ok(&["proposals", "--json"])).expect("proposals --json");
    rows.iter()
        .find(|row| row["id"] == id)
        .and_then(|row| row["kind"].as_str())
        .expect("the proposal's kind")
        .to_owned()
}

/// A redaction fix rewrites one memory where it is: an `edit` on both formats (a `.memory`
/// set filed it as a consolidation of one record into one and listed it so), said as what
/// it redacts.
#[test]
fn a_redaction_fix_is_listed_as_an_edit_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("alpha", "the CI credentials", &body));
        let id = filed(&folder);
        let words = listed(&folder, &id);
        assert_eq!(words[1..3], ["ready", "edit"], "{format:?}: {words:?}");
        assert_eq!(words[3..5], ["redact", "alpha:"], "{format:?}: {words:?}");
        assert_eq!(json_kind(&folder, &id), "edit", "{format:?}");
    }
}

/// An imported consolidation of two memories into a third is a `consolidation` said as
/// "replace alpha, beta with gamma" on both formats, and an imported extraction an
/// `extraction` said as "add delta".
#[test]
fn a_merge_and_an_extraction_are_listed_alike_on_both_formats() {
    let merge = r#"{"source_names":["alpha","beta"],"records":[{"name":"gamma","type":"project","description":"alpha and beta","body":"Both."}]}"#;
    let extraction =
        r#"[{"name":"delta","type":"project","description":"a new fact","body":"Delta."}]"#;
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "a"));
        folder.ok(&add("beta", "b"));
        let merged = folder.ok_with(&["propose", "import", "-"], merge);
        let merged = merged.trim();
        let words = listed(&folder, merged);
        assert_eq!(
            words[1..8],
            [
                "ready",
                "consolidation",
                "replace",
                "alpha,",
                "beta",
                "with",
                "gamma"
            ],
            "{format:?}: {words:?}"
        );
        assert_eq!(json_kind(&folder, merged), "consolidation", "{format:?}");
        let added = folder.ok_with(&["propose", "import", "-"], extraction);
        let added = added.trim();
        let words = listed(&folder, added);
        assert_eq!(
            words[1..5],
            ["ready", "extraction", "add", "delta"],
            "{format:?}: {words:?}"
        );
        assert_eq!(json_kind(&folder, added), "extraction", "{format:?}");
    }
}

/// The keys of a JSON object, sorted, less those only one format has.
fn keys(value: &serde_json::Value) -> Vec<String> {
    let mut keys: Vec<String> = value
        .as_object()
        .unwrap_or_else(|| panic!("an object: {value}"))
        .keys()
        .filter(|key| *key != "text")
        .cloned()
        .collect();
    keys.sort();
    keys
}

/// `proposals --json` has one shape on both formats, the one `log --json` gives an entry:
/// the change's memories by name and every file with the memory it holds on each side and
/// that memory's fields, plus the proposal's metadata (a `.memory` set printed its plan's
/// `base` and `additions`, a Claude Code folder its file images as `files`).
#[test]
fn proposals_json_has_one_shape_on_both_formats() {
    let merge = r#"{"source_names":["alpha","beta"],"records":[{"name":"gamma","type":"project","description":"alpha and beta","body":"Both."}]}"#;
    let mut shapes = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("alpha", "the CI credentials", &body));
        folder.ok(&add("beta", "b"));
        let fix = filed(&folder);
        let merged = folder.ok_with(&["propose", "import", "-"], merge);
        let rows: Vec<serde_json::Value> =
            serde_json::from_str(&folder.ok(&["proposals", "--json"])).expect("proposals --json");
        let row = |id: &str| {
            rows.iter()
                .find(|row| row["id"] == id)
                .unwrap_or_else(|| panic!("{format:?}: {id} in {rows:?}"))
                .clone()
        };
        let fix = row(&fix);
        assert_eq!(
            fix["memories"],
            serde_json::json!({"added": [], "changed": ["alpha"], "renamed": [], "removed": []}),
            "{format:?}: {fix}"
        );
        let files = fix["files"].as_array().expect("files");
        assert_eq!(files.len(), 1, "{format:?}: {fix}");
        for side in ["before", "after"] {
            assert_eq!(files[0][side]["memory"], "alpha", "{format:?}: {fix}");
            assert_eq!(
                files[0][side]["record"]["description"], "the CI credentials",
                "{format:?}: {fix}"
            );
        }
        let merged = row(merged.trim());
        assert_eq!(merged["memories"]["added"], serde_json::json!(["gamma"]));
        assert_eq!(
            merged["memories"]["removed"],
            serde_json::json!(["alpha", "beta"]),
            "{format:?}: {merged}"
        );
        let written: Vec<&serde_json::Value> = merged["files"]
            .as_array()
            .expect("files")
            .iter()
            .filter(|file| file["before"].is_null())
            .collect();
        assert_eq!(written.len(), 1, "{format:?}: {merged}");
        assert_eq!(written[0]["after"]["record"]["name"], "gamma");
        shapes.push((
            keys(&fix),
            keys(&files[0]),
            keys(&files[0]["before"]),
            keys(&merged),
        ));
    }
    assert_eq!(shapes[0], shapes[1], "one shape on both formats");
}
