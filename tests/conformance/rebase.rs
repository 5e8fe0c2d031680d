//! Rebasing a stale proposal from the workbench's Proposals view (`b`), on both formats: the
//! same proposal (same id) is re-planned against the memories as they are now and can then be
//! approved; a rebase that cannot hold is refused with its reason and leaves the proposal as it
//! was; a ready proposal has nothing to rebase. Nothing is written to the memories by a rebase.

use super::{add, approve_in_workbench, file_of, kept_files, workbench};
use crate::common::cli::add_args;
use crate::common::formats::{BOTH, Folder};
use crate::common::tree;

/// Files `reply` through `propose import` and returns the proposal's id.
fn imported(folder: &Folder, reply: &str) -> String {
    folder
        .ok_with(&["propose", "import", "-"], reply)
        .trim()
        .to_owned()
}

/// The proposal file of `id` among memwb's own files, and its bytes.
fn proposal_bytes(folder: &Folder, id: &str) -> Vec<u8> {
    kept_files(folder)
        .into_iter()
        .find(|(path, _)| path.contains("proposals/") && path.contains(id))
        .unwrap_or_else(|| panic!("{:?}: no proposal file for {id}", folder.format))
        .1
}

/// What `proposals --json` says made proposal `id` stale (it must be stale).
fn stale_changes(folder: &Folder, id: &str) -> serde_json::Value {
    let listed: serde_json::Value =
        serde_json::from_str(&folder.ok(&["proposals", "--json"])).expect("proposals JSON");
    let row = listed
        .as_array()
        .and_then(|rows| rows.iter().find(|row| row["id"] == id))
        .unwrap_or_else(|| panic!("{:?}: {id} is not listed: {listed}", folder.format))
        .clone();
    assert_eq!(row["state"], "stale", "{:?}: {row}", folder.format);
    row["changes"].clone()
}

/// Two near-duplicates, and the dedupe proposal filed for them: its id.
fn near_duplicates(folder: &Folder) -> String {
    folder.ok(&add_args(
        "tabs-indentation",
        "User prefers tabs for indentation",
        "Use tabs.",
    ));
    folder.ok(&add_args(
        "indentation-tabs",
        "Indentation with tabs preferred by user",
        "Tabs, not spaces.",
    ));
    let id = folder.ok(&["propose", "dedupe"]).trim().to_owned();
    assert!(
        !id.is_empty(),
        "{:?}: a dedupe proposal is filed",
        folder.format
    );
    id
}

const REPLACE_ALPHA: &str = r#"{"source_names":["alpha"],"records":[{"name":"alpha","type":"project","description":"what it is about","body":"Alpha, as proposed."}]}"#;

/// A proposal made stale by an edit of its memory is rebased by `b`: the status line names the
/// proposal and what changed, the proposal is ready again under the same id, the memories are
/// untouched until it is approved, and approving then writes what it proposed.
#[test]
fn b_rebases_a_stale_proposal_which_then_approves_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        folder.ok(&add("beta", "Beta's body."));
        let id = imported(&folder, REPLACE_ALPHA);
        folder.ok(&["set", "alpha", "--body", "Alpha, edited meanwhile."]);
        let listed = folder.ok(&["proposals"]);
        assert!(listed.contains("stale"), "{format:?}: {listed}");

        let mut h = workbench(&folder);
        h.keys("p");
        let screen = h.screen();
        assert!(
            screen.contains(&id) && screen.contains("stale"),
            "{format:?}: {screen}"
        );
        let before = folder.state();
        h.keys("b");
        let status = h.app.status.clone().expect("status").text;
        assert!(
            status.starts_with(&format!(
                "proposal {id} rebased onto the current memories: "
            )) && status.contains("alpha")
                && status.contains("was changed")
                && status.contains("nothing applied yet"),
            "{format:?}: {status}"
        );
        assert_eq!(
            folder.state(),
            before,
            "{format:?}: a rebase writes no memory"
        );
        let row = h.app.proposals.selected_row().expect("a row");
        assert_eq!(row.proposal.id, id, "{format:?}: the same proposal");
        assert_eq!(row.state.as_str(), "ready", "{format:?}");
        let listed = folder.ok(&["proposals"]);
        assert!(
            listed.contains(&id) && !listed.contains("stale"),
            "{format:?}: {listed}"
        );

        approve_in_workbench(&mut h, &id, format);
        let shown = folder.ok(&["show", "alpha"]);
        assert!(shown.contains("Alpha, as proposed."), "{format:?}: {shown}");
        let shown = folder.ok(&["show", "beta"]);
        assert!(shown.contains("Beta's body."), "{format:?}: {shown}");
    }
}

/// `b` on the only proposal of `folder`, `id`, which cannot be rebased: what the status line
/// says, the id left out. The refusal changes nothing: the proposal's file is byte for byte as
/// it was, it stays pending and stale, and no memory changes.
fn refused_rebase(folder: &Folder, id: &str) -> String {
    let format = folder.format;
    let mut h = workbench(folder);
    h.keys("p");
    let kept = proposal_bytes(folder, id);
    let before = tree(&folder.root());
    h.keys("b");
    let status = h.app.status.clone().expect("status").text;
    assert_eq!(proposal_bytes(folder, id), kept, "{format:?}: {status}");
    assert_eq!(tree(&folder.root()), before, "{format:?}: nothing written");
    let row = h.app.proposals.selected_row().expect("a row");
    assert_eq!(row.proposal.id, id, "{format:?}");
    assert_eq!(row.state.as_str(), "stale", "{format:?}");
    status.replace(id, "ID")
}

/// What the status line says of a rebase refused for `rule` (docs/review.md, "Rebasing").
fn refusal(rule: &str) -> String {
    format!("rebase ID refused: proposal ID cannot be rebased: {rule}; it is unchanged")
}

const NEW_GAMMA: &str = r#"[{"name":"gamma","type":"project","description":"what it is about","body":"Gamma, as proposed."}]"#;

/// A memory the proposal would write exists now (another one added meanwhile under its name):
/// the rebase is refused naming it, in one wording on both formats, with the way out that works
/// on both: once that memory is renamed, the proposal approves and keeps it.
#[test]
fn a_name_taken_since_is_refused_in_one_wording_with_one_way_out_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        let id = imported(&folder, NEW_GAMMA);
        folder.ok(&add("gamma", "Gamma, added meanwhile."));
        assert_eq!(
            refused_rebase(&folder, &id),
            refusal(
                "\"gamma\" exists now and the proposal would replace it: rename that memory first, or reject the proposal"
            ),
            "{format:?}"
        );
        folder.ok(&["set", "gamma", "--name", "gamma-kept"]);
        folder.ok(&["approve", &id]);
        let shown = folder.ok(&["show", "gamma"]);
        assert!(shown.contains("Gamma, as proposed."), "{format:?}: {shown}");
        let shown = folder.ok(&["show", "gamma-kept"]);
        assert!(shown.contains("added meanwhile"), "{format:?}: {shown}");
    }
}

/// Every other rebase that cannot hold is refused in one wording on both formats, naming the
/// memory: the one memory the proposal edits was removed, a dedupe group lost all but one of
/// its memories, and the memories are already as the proposal would leave them.
#[test]
fn a_rebase_that_cannot_hold_is_refused_in_one_wording_on_both_formats() {
    type Setup = fn(&Folder) -> String;
    let cases: [(&str, Setup, String); 3] = [
        (
            "the memory it edits was removed",
            |folder| {
                folder.ok(&add("alpha", "Alpha's body."));
                folder.ok(&add("beta", "Beta's body."));
                let id = imported(folder, REPLACE_ALPHA);
                folder.ok(&["rm", "alpha"]);
                id
            },
            refusal("\"alpha\" was removed: nothing is left for the proposal to change; reject it"),
        ),
        (
            "one near-duplicate left",
            |folder| {
                let id = near_duplicates(folder);
                folder.ok(&["rm", "indentation-tabs"]);
                id
            },
            refusal("fewer than two of its near-duplicates are left: nothing to merge; reject it"),
        ),
        (
            "already as it would leave them",
            |folder| {
                folder.ok(&add("alpha", "Alpha's body."));
                let id = imported(folder, REPLACE_ALPHA);
                folder.ok(&["set", "alpha", "--body", "Alpha, as proposed."]);
                id
            },
            refusal(
                "the memories are already as the proposal would leave them: nothing is left for it to change; reject it",
            ),
        ),
    ];
    for (case, setup, said) in &cases {
        for format in BOTH {
            let folder = Folder::new(format);
            let id = setup(&folder);
            assert_eq!(&refused_rebase(&folder, &id), said, "{format:?}: {case}");
        }
    }
}

/// A memory whose file no longer reads (here: not UTF-8) makes the proposal that edits it
/// stale for a reason naming the memory, in one wording on both formats: in `proposals --json`,
/// a refused approval and a refused rebase; `memwb check` says why.
#[test]
fn a_memory_whose_file_does_not_read_is_said_alike_on_both_formats() {
    const REASON: &str = "\"alpha\" cannot be read: memwb check says why";
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        folder.ok(&add("beta", "Beta's body."));
        let id = imported(&folder, REPLACE_ALPHA);
        let file = file_of(&folder, "alpha");
        std::fs::write(&file, b"\xff\xfe not text\n").expect("write");

        assert_eq!(
            stale_changes(&folder, &id),
            serde_json::json!([REASON]),
            "{format:?}"
        );
        let refused = folder.run(&["approve", &id]);
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(
            said.starts_with(&format!(
                "error: proposal {id} is stale: {REASON}; nothing was applied"
            )),
            "{format:?}: {said}"
        );
        assert_eq!(refused_rebase(&folder, &id), refusal(REASON), "{format:?}");
        let check = folder.run(&["check"]);
        let told = String::from_utf8_lossy(&check.stdout);
        let name = file.file_name().and_then(|n| n.to_str()).expect("a name");
        assert!(told.contains(name), "{format:?}: check says why: {told}");
    }
}

/// `b` on a ready proposal says there is nothing to rebase, in the same words on both formats,
/// and writes nothing.
#[test]
fn b_on_a_ready_proposal_says_there_is_nothing_to_rebase_on_both_formats() {
    let mut said = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        let id = imported(&folder, REPLACE_ALPHA);
        let mut h = workbench(&folder);
        h.keys("p");
        let kept = proposal_bytes(&folder, &id);
        h.keys("b");
        let status = h.app.status.clone().expect("status").text;
        assert!(
            status.contains("not stale") && status.contains("nothing to rebase"),
            "{format:?}: {status}"
        );
        assert_eq!(proposal_bytes(&folder, &id), kept, "{format:?}");
        said.push(status.replace(&id, "ID"));
    }
    assert_eq!(said[0], said[1], "one wording on both formats");
}

/// A stale dedupe proposal whose draft nobody edited is rebased by `b` with its draft
/// recomputed, and the status line says so in one wording on both formats, naming memories
/// (not a format's records or files).
#[test]
fn a_recomputed_dedupe_draft_is_told_in_one_wording_on_both_formats() {
    const RECOMPUTED: &str = "the merged draft was recomputed from the current memories";
    let mut said = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        let id = near_duplicates(&folder);
        folder.ok(&["set", "indentation-tabs", "--body", "Tabs, never spaces."]);

        let mut h = workbench(&folder);
        h.keys("p");
        h.keys("b");
        let status = h.app.status.clone().expect("status").text;
        assert!(
            status.starts_with(&format!("proposal {id} rebased")),
            "{format:?}: {status}"
        );
        let told = status
            .split([';', ':', '('])
            .map(str::trim)
            .find(|part| part.contains("merged draft"))
            .unwrap_or_else(|| panic!("{format:?}: no word of the draft: {status}"))
            .to_owned();
        assert_eq!(told, RECOMPUTED, "{format:?}: {status}");
        said.push(told);
    }
    assert_eq!(said[0], said[1], "one wording on both formats");
}

/// What made a proposal stale is said in one wording on both formats, naming the memory as
/// `memwb show` takes it (docs/cli.md, "One idea, one word"): a source `"alpha" was changed`
/// or `"alpha" was removed`, a memory it would write `"gamma" exists now`; `proposals --json`
/// lists exactly that, and approving it is refused in the same words.
#[test]
fn what_made_a_proposal_stale_is_said_in_one_wording_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        folder.ok(&add("beta", "Beta's body."));
        let edited = imported(&folder, REPLACE_ALPHA);
        let gone = imported(&folder, REPLACE_ALPHA);
        let taken = imported(&folder, NEW_GAMMA);
        folder.ok(&["set", "alpha", "--body", "Alpha, edited meanwhile."]);
        assert_eq!(
            stale_changes(&folder, &edited),
            serde_json::json!(["\"alpha\" was changed"]),
            "{format:?}"
        );
        let refused = folder.run(&["approve", &edited]);
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(
            said.starts_with(&format!(
                "error: proposal {edited} is stale: \"alpha\" was changed; nothing was applied"
            )),
            "{format:?}: {said}"
        );
        folder.ok(&["rm", "alpha"]);
        assert_eq!(
            stale_changes(&folder, &gone),
            serde_json::json!(["\"alpha\" was removed"]),
            "{format:?}"
        );
        folder.ok(&add("gamma", "Gamma, added meanwhile."));
        assert_eq!(
            stale_changes(&folder, &taken),
            serde_json::json!(["\"gamma\" exists now"]),
            "{format:?}"
        );
        let refused = folder.run(&["approve", &taken]);
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(
            said.starts_with(&format!(
                "error: proposal {taken} is stale: \"gamma\" exists now; nothing was applied"
            )),
            "{format:?}: {said}"
        );
    }
}
