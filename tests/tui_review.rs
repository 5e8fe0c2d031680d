//! The review gate in the workbench: the Proposals view and its diff (snapshots), approve,
//! reject, edit, stale refusals, the History view with undo, and repairing an entry that does
//! not read. The engine runs for real on temporary workspaces.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::formats::memory::journal::{NewProposal, file as file_proposal};
use memwb::review::proposal;
use memwb::review::who::Who;
use memwb::review::{Journal, Op, Origin, Proposal, ProposalStatus};
use memwb::session::Plan;
use memwb::store::{MemoryType, Record, Store, StoreOptions};
use memwb::tui::app::View;
use tui_harness::Harness;

mod decisions;
mod history;
mod states;

const SIZES: [(u16, u16); 2] = [(100, 30), (80, 24)];

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
fn three(w: u16, hgt: u16) -> Harness {
    let mut h = Harness::empty(w, hgt);
    h.store()
        .extend(vec![
            record(
                "alpha",
                "tabs for indentation",
                "Indent with tabs.\nAlways.",
            ),
            record(
                "beta",
                "tabs in yaml too",
                "Use tabs in YAML where allowed.",
            ),
            record("gamma", "deploys from main", "Deploy from main only."),
        ])
        .expect("seed");
    h.watcher_tick();
    h
}

/// Files a proposal as another process would, then gives it a fixed id, time and author so
/// that snapshots are stable.
fn file(h: &Harness, plan: Plan, id: &str, at: i64, evidence: Option<&str>) -> Proposal {
    let store = other(h);
    let filed = file_proposal(
        &store,
        NewProposal {
            plan,
            origin: Origin::new("import"),
            seen: store.read().expect("read"),
            additions: Vec::new(),
            evidence: evidence.map(str::to_owned),
        },
    )
    .expect("file");
    let dir = h.root().join(".memwb/proposals");
    std::fs::remove_file(dir.join(format!("{}.json", filed.id))).expect("rm");
    let mut fixed = filed;
    fixed.id = id.to_owned();
    fixed.created_at = at;
    fixed.origin.by = Who {
        user: "ana".into(),
        host: "box".into(),
        tool: None,
    };
    let text = serde_json::to_string_pretty(&fixed).expect("json");
    std::fs::write(dir.join(format!("{id}.json")), text).expect("write");
    fixed
}

const AT: i64 = 1_795_999_079_226;

fn merge_alpha_beta(h: &Harness, id: &str) -> Proposal {
    file(
        h,
        Plan::Consolidation {
            source_names: vec!["alpha".into(), "beta".into()],
            records: vec![record(
                "tabs",
                "tabs for indentation, YAML included",
                "Indent with tabs.\nAlways, YAML included where allowed.",
            )],
        },
        id,
        AT,
        Some("user: I said tabs twice"),
    )
}

fn add_delta(h: &Harness, id: &str) -> Proposal {
    file(
        h,
        Plan::Extraction(vec![record("delta", "a new fact", "Delta body.")]),
        id,
        AT + 1000,
        None,
    )
}

fn load(h: &Harness, id: &str) -> Proposal {
    proposal::load(&other(h), id).expect("load")
}

fn journal(h: &Harness) -> Vec<memwb::review::Entry> {
    Journal::of(&other(h)).entries().expect("journal")
}

fn select_proposal(h: &mut Harness, id: &str) {
    h.press(KeyCode::Char('g'));
    for _ in 0..h.app.proposals.rows.len() {
        if h.app
            .proposals
            .selected_row()
            .map(|r| r.proposal.id.as_str())
            == Some(id)
        {
            return;
        }
        h.press(KeyCode::Char('j'));
    }
    panic!("{id} not listed");
}

#[test]
fn proposals_view_ready_and_stale_extraction_and_consolidation() {
    for (w, hgt) in SIZES {
        let mut h = three(w, hgt);
        merge_alpha_beta(&h, "aaaa00000001");
        add_delta(&h, "aaaa00000002");
        // stale consolidation: gamma changes after the proposal read it
        file(
            &h,
            Plan::Consolidation {
                source_names: vec!["gamma".into()],
                records: vec![record(
                    "gamma",
                    "deploys from main",
                    "Deploy from main, tagged.",
                )],
            },
            "aaaa00000003",
            AT + 2000,
            None,
        );
        // stale extraction: its name is taken by the time it is reviewed
        file(
            &h,
            Plan::Extraction(vec![record("epsilon", "later taken", "E.")]),
            "aaaa00000004",
            AT + 3000,
            None,
        );
        let s = other(&h);
        let gamma = s
            .read()
            .expect("read")
            .get("gamma")
            .expect("g")
            .record
            .clone();
        s.replace(
            &gamma,
            record(
                "gamma",
                "deploys from main on Fridays",
                "Deploy from main only.",
            ),
        )
        .expect("change gamma");
        s.extend(vec![record("epsilon", "taken meanwhile", "x")])
            .expect("take epsilon");
        h.watcher_tick();
        h.review_tick();
        h.press(KeyCode::Char('p'));
        assert_eq!(h.app.view, View::Proposals);
        for (i, id) in [
            "aaaa00000001",
            "aaaa00000002",
            "aaaa00000003",
            "aaaa00000004",
        ]
        .iter()
        .enumerate()
        {
            select_proposal(&mut h, id);
            let screen = h.screen();
            assert!(screen.contains(&format!("Proposal {id}")), "{screen}");
            // a source's file is named after a random id
            let screen: Vec<String> = screen.lines().map(redact_files).collect();
            insta::assert_snapshot!(format!("proposal_{}_{w}x{hgt}", i + 1), screen.join("\n"));
        }
        // what the snapshots show, asserted on the text too
        select_proposal(&mut h, "aaaa00000001");
        let screen = h.screen();
        assert!(screen.contains("● ready"), "{screen}");
        assert!(screen.contains("replaces    alpha, beta"), "{screen}");
        assert!(screen.contains("keeps       gamma, epsilon"), "{screen}");
        // the proposed memory whole first, then the diff against each source further down
        assert!(screen.contains("── proposed memory, whole"), "{screen}");
        let mut seen = screen.clone();
        for _ in 0..4 {
            h.press(KeyCode::PageDown);
            seen.push_str(&h.screen());
        }
        assert!(
            seen.contains("── alpha → tabs") && seen.contains("── beta → tabs"),
            "{seen}"
        );
        assert!(seen.contains("[-alpha-]{+tabs+}"), "{seen}");
        select_proposal(&mut h, "aaaa00000003");
        let screen = h.screen();
        assert!(screen.contains("\"gamma\" was changed"), "{screen}");
        assert!(
            screen.contains("deploys from main{+ on Fridays+}"),
            "{screen}"
        );
        select_proposal(&mut h, "aaaa00000004");
        let screen = h.screen();
        assert!(screen.contains("\"epsilon\" exists now"), "{screen}");
    }
}

#[test]
fn demo_proposals_at_both_sizes() {
    for (w, hgt) in SIZES {
        let mut h = Harness::demo(w, hgt);
        assert!(
            h.screen().contains("e repairs it, d drops it"),
            "{}",
            h.screen()
        );
        h.press(KeyCode::Char('p'));
        let screen = h.screen();
        assert!(
            screen.contains("Proposals (2 pending, 0 decided)"),
            "{screen}"
        );
        insta::assert_snapshot!(format!("demo_proposals_ready_{w}x{hgt}"), screen);
        h.press(KeyCode::Char('j'));
        let screen = h.screen();
        assert!(screen.contains("⚠ stale"), "{screen}");
        insta::assert_snapshot!(format!("demo_proposals_stale_{w}x{hgt}"), screen);
    }
}

#[test]
fn undo_from_history_and_undo_of_the_undo() {
    let mut h = three(100, 30);
    merge_alpha_beta(&h, "ffff00000001");
    h.review_tick();
    h.press(KeyCode::Char('p'));
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y')); // confirms the approval
    assert_eq!(names(&h), ["gamma", "tabs"]);
    h.press(KeyCode::Char('H'));
    assert_eq!(h.app.view, View::History);
    let screen = h.screen();
    assert!(screen.contains("History (1 entries)"), "{screen}");
    assert!(screen.contains("approve"), "{screen}");
    insta::assert_snapshot!("history_100x30", redact_history(&screen));
    h.press(KeyCode::Char('u'));
    assert!(
        h.screen().contains("Undo entry #1 (approve)?"),
        "{}",
        h.screen()
    );
    h.press(KeyCode::Char('n'));
    assert_eq!(names(&h), ["gamma", "tabs"], "n changes nothing");
    h.press(KeyCode::Char('u'));
    h.press(KeyCode::Char('y'));
    assert_eq!(names(&h), ["gamma", "alpha", "beta"]);
    let undo = journal(&h).pop().expect("entry");
    assert_eq!((undo.op, undo.undoes), (Op::Undo, Some(1)));
    assert!(
        h.screen()
            .contains("undo #1: written (added alpha, beta; removed tabs)"),
        "{}",
        h.screen()
    );
    // the newest entry is the undo: undo it too
    h.press(KeyCode::Char('g'));
    assert_eq!(h.app.history.selected_entry().map(|e| e.id), Some(undo.id));
    assert!(
        h.screen().contains("undone by  #2") || h.screen().contains("undoes      #1"),
        "{}",
        h.screen()
    );
    h.press(KeyCode::Char('u'));
    h.press(KeyCode::Char('y'));
    assert_eq!(names(&h), ["gamma", "tabs"]);
    let redo = journal(&h).pop().expect("entry");
    assert_eq!((redo.op, redo.undoes), (Op::Undo, Some(undo.id)));
}

/// Times, the user/host and file ids vary from run to run.
fn redact_history(screen: &str) -> String {
    let who = Who::current().to_string();
    let mut out = String::new();
    for line in screen.lines() {
        let mut line = line.replace(&who, "<who>");
        while let Some(pos) = line.find("20") {
            let candidate = &line[pos..];
            if candidate.len() >= 20
                && candidate.as_bytes()[4] == b'-'
                && candidate.as_bytes()[10] == b' '
            {
                line.replace_range(pos..pos + 20, "<time>");
            } else if candidate.len() >= 24
                && candidate.as_bytes()[4] == b'-'
                && candidate.as_bytes()[10] == b'T'
            {
                line.replace_range(pos..pos + 24, "<time>");
            } else {
                break;
            }
        }
        // the redacted parts vary in width: drop the padding and the right border
        out.push_str(redact_files(&line).trim_end_matches(['│', ' ']));
        out.push('\n');
    }
    out
}

/// Record file names end in a random id: `name-<32 hex>.md` becomes `name-<id>.md`.
fn redact_files(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(pos) = rest.find(".md") {
        let head = &rest[..pos];
        let is_id = head.len() >= 33
            && head[head.len() - 32..]
                .bytes()
                .all(|b| b.is_ascii_hexdigit())
            && head.as_bytes()[head.len() - 33] == b'-';
        if is_id {
            out.push_str(&head[..head.len() - 32]);
            out.push_str("<id>.md");
        } else {
            out.push_str(&rest[..pos + 3]);
        }
        rest = &rest[pos + 3..];
    }
    out.push_str(rest);
    out
}
