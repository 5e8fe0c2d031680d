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
