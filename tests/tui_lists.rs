//! Issue 10's last items in the workbench: the `/` filter of the Proposals and History lists,
//! rebasing a stale proposal (`b`), and the files in `.memory` that are not in the set
//! (unlisted and temp files: view, adopt, delete). The engine runs for real on temporary
//! workspaces.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::formats::memory::journal::{NewProposal, file as file_proposal};
use memwb::review::proposal;
use memwb::review::{Journal, Origin, Proposal};
use memwb::session::Plan;
use memwb::store::{MemoryType, Record, Store, StoreOptions};
use tui_harness::Harness;

mod filters;
mod strays;

fn record(name: &str, description: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, description, body).expect("valid")
}

fn other(h: &Harness) -> Store {
    Store::open(&h.workspace, StoreOptions::default()).expect("open")
}

fn names(h: &Harness) -> Vec<String> {
    other(h)
        .records()
        .expect("readable")
        .iter()
        .map(|r| r.name().to_owned())
        .collect()
}

/// alpha, beta, gamma.
fn three() -> Harness {
    tui_harness::alpha_beta_gamma(100, 30)
}

fn file(h: &Harness, plan: Plan, source: &str) -> Proposal {
    let store = other(h);
    file_proposal(
        &store,
        NewProposal {
            plan,
            origin: Origin::new(source),
            seen: store.read().expect("read"),
            additions: Vec::new(),
            evidence: None,
        },
    )
    .expect("file")
}

fn add(h: &Harness, name: &str) -> Proposal {
    file(
        h,
        Plan::Extraction(vec![record(name, "a new fact", "Body.")]),
        "import",
    )
}

fn listed_proposals(h: &Harness) -> Vec<String> {
    h.app
        .proposals
        .rows
        .iter()
        .map(|r| r.summary.clone())
        .collect()
}

/// The rows of the view's list (the first box on the screen), without the status line.
fn list_box(h: &Harness) -> String {
    let screen = h.screen();
    let lines: Vec<&str> = screen.lines().collect();
    let end = lines
        .iter()
        .position(|l| l.starts_with('└'))
        .unwrap_or(lines.len());
    lines[..end].join("\n")
}

/// An unlisted record file and a leftover temp file beside the set.
fn with_strays() -> (Harness, Vec<u8>, Vec<u8>) {
    let mut h = three();
    let draft = record(
        "old-draft",
        "a draft from before",
        "Draft \u{1b}]0;pwned\u{7} body.",
    );
    let unlisted = memwb::store::codec::serialize(&draft).into_bytes();
    std::fs::write(h.root().join("old-draft-0badf00d.md"), &unlisted).expect("unlisted");
    let temp = b"half-written \x1b[2J record".to_vec();
    std::fs::write(h.root().join(".alpha-0badf00d.tmp"), &temp).expect("temp");
    h.watcher_tick();
    (h, unlisted, temp)
}
