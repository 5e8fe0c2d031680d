//! The review gate in the workbench: the Proposals view and its diff (snapshots), approve,
//! reject, edit, stale refusals, the History view with undo, and repairing an entry that does
//! not read. The engine runs for real on temporary workspaces.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::review::proposal::{self, NewProposal};
use memwb::review::who::Who;
use memwb::review::{Journal, Op, Origin, Plan, Proposal, ProposalStatus};
use memwb::store::{MemoryType, Record, Store, StoreOptions};
use memwb::tui::app::View;
use tui_harness::Harness;

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
    let filed = proposal::file(
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
            insta::assert_snapshot!(format!("proposal_{}_{w}x{hgt}", i + 1), screen);
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
        assert!(screen.contains("source \"gamma\" was changed"), "{screen}");
        assert!(
            screen.contains("deploys from main{+ on Fridays+}"),
            "{screen}"
        );
        select_proposal(&mut h, "aaaa00000004");
        let screen = h.screen();
        assert!(screen.contains("name \"epsilon\" is now taken"), "{screen}");
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
fn approve_applies_through_the_engine_and_is_journaled() {
    let mut h = three(100, 30);
    let p = merge_alpha_beta(&h, "bbbb00000001");
    h.review_tick();
    assert!(
        h.screen().contains("new proposal: bbbb00000001"),
        "{}",
        h.screen()
    );
    h.press(KeyCode::Char('p'));
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y')); // confirms the approval
    assert_eq!(names(&h), ["gamma", "tabs"]);
    let decided = load(&h, &p.id);
    assert_eq!(decided.status, ProposalStatus::Approved);
    let entries = journal(&h);
    let last = entries.last().expect("an entry");
    assert_eq!(last.op, Op::Approve);
    assert_eq!(
        last.proposal.as_ref().map(|r| r.id.as_str()),
        Some("bbbb00000001")
    );
    assert_eq!(decided.journal_entry, Some(last.id));
    let screen = h.screen();
    assert!(
        screen.contains("approve bbbb00000001: written (added tabs; removed alpha, beta)"),
        "{screen}"
    );
    // the state and the id are apart, whatever the state's length
    assert!(screen.contains("✓ approved bbbb00000001"), "{screen}");
    // the selection followed the approved proposal
    assert_eq!(
        h.app
            .proposals
            .selected_row()
            .map(|r| r.proposal.id.as_str()),
        Some("bbbb00000001")
    );
    // an approved proposal cannot be approved again; nothing changes
    h.press(KeyCode::Char('a'));
    assert!(h.app.modal.is_none());
    assert!(
        h.screen().contains("no pending proposal selected"),
        "{}",
        h.screen()
    );
    assert_eq!(journal(&h).len(), entries.len());
}

#[test]
fn reject_asks_for_a_reason() {
    let mut h = three(100, 30);
    add_delta(&h, "cccc00000001");
    h.review_tick();
    h.press(KeyCode::Char('p'));
    h.press(KeyCode::Char('x'));
    assert!(
        h.screen().contains("Reject proposal cccc00000001"),
        "{}",
        h.screen()
    );
    h.keys("not a fakt");
    // the reason line edits like the others: C-w, then the word again
    h.ctrl('w');
    h.keys("fact");
    h.press(KeyCode::Enter);
    let p = load(&h, "cccc00000001");
    assert_eq!(p.status, ProposalStatus::Rejected);
    assert_eq!(p.reason.as_deref(), Some("not a fact"));
    let last = journal(&h).pop().expect("entry");
    assert_eq!(last.op, Op::Reject);
    assert_eq!(last.reason.as_deref(), Some("not a fact"));
    assert_eq!(
        names(&h),
        ["alpha", "beta", "gamma"],
        "the set is unchanged"
    );
    assert!(
        h.screen().contains("reason      not a fact"),
        "{}",
        h.screen()
    );
}

#[test]
fn edit_a_proposed_record_then_approve() {
    let mut h = three(100, 30);
    merge_alpha_beta(&h, "dddd00000001");
    h.review_tick();
    h.press(KeyCode::Char('p'));
    h.press(KeyCode::Char('e'));
    assert!(
        h.screen()
            .contains("Edit proposed tabs (proposal dddd00000001)"),
        "{}",
        h.screen()
    );
    // an invalid edit is refused and stays in the editor
    h.press(KeyCode::Tab);
    h.keys("Bad ");
    h.ctrl('s');
    assert!(h.app.editor.is_some());
    assert!(h.screen().contains("not saved"), "{}", h.screen());
    h.ctrl('a');
    h.ctrl('k');
    h.keys("tabs");
    h.press(KeyCode::BackTab); // name -> body
    h.keys("Reviewed. ");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    assert!(h.screen().contains("memory edited"), "{}", h.screen());
    let plan = load(&h, "dddd00000001").plan().expect("plan");
    assert!(
        plan.records()[0].body().starts_with("Reviewed. Indent"),
        "{:?}",
        plan.records()[0]
    );
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y')); // confirms the approval
    let set = other(&h).read().expect("read");
    assert!(
        set.get("tabs")
            .expect("tabs")
            .record
            .body()
            .starts_with("Reviewed. ")
    );
}

#[test]
fn stale_proposal_is_refused_and_shown() {
    let mut h = three(100, 30);
    merge_alpha_beta(&h, "eeee00000001");
    let s = other(&h);
    let alpha = s
        .read()
        .expect("read")
        .get("alpha")
        .expect("a")
        .record
        .clone();
    s.replace(&alpha, record("alpha", "changed meanwhile", "x"))
        .expect("change");
    let before = names(&h);
    h.watcher_tick();
    h.review_tick();
    h.press(KeyCode::Char('p'));
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y')); // confirms the approval
    let screen = h.screen();
    assert!(
        screen.contains("approve eeee00000001 refused: proposal eeee00000001 is stale"),
        "{screen}"
    );
    assert_eq!(names(&h), before);
    assert!(screen.contains("source \"alpha\" was changed"), "{screen}");
    assert_eq!(load(&h, "eeee00000001").status, ProposalStatus::Pending);
    assert!(journal(&h).iter().all(|e| e.op != Op::Approve));
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

fn select_entry(h: &mut Harness, prefix: &str) {
    h.press(KeyCode::Char('g'));
    for _ in 0..h.app.manifest.visible.len() {
        if h.app
            .selected_entry()
            .is_some_and(|e| e.file.starts_with(prefix))
        {
            return;
        }
        h.press(KeyCode::Char('j'));
    }
    panic!("{prefix} not listed");
}

#[test]
fn repair_the_demo_invalid_entry_then_edit() {
    let mut h = Harness::demo(100, 30);
    assert!(!h.inspection().is_readable());
    select_entry(&mut h, "deploy-notes-");
    h.press(KeyCode::Char('e'));
    let screen = h.screen();
    assert!(screen.contains("Repair deploy-notes-"), "{screen}");
    assert!(
        screen.contains("description: How to deploy: run make deploy"),
        "{screen}"
    );
    assert!(
        screen.contains("line 3"),
        "the parse error and its line:\n{screen}"
    );
    // saving the unparsable text is refused and stays in the editor
    h.ctrl('s');
    assert!(h.app.editor.is_some());
    assert!(!h.inspection().is_readable());
    // quote the description (line 3), as the error asks
    let editor = h.app.editor.as_mut().expect("editor");
    let fixed = editor.value(3).replace(
        "description: How to deploy: run make deploy from a clean checkout",
        "description: \"How to deploy: run make deploy from a clean checkout\"",
    );
    editor.set_value(3, &fixed);
    h.draw();
    assert!(
        h.screen().contains("✓ parses as a valid record file"),
        "{}",
        h.screen()
    );
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    assert!(h.inspection().is_readable(), "the set reads again");
    let set = other(&h).read().expect("readable");
    assert_eq!(
        set.get("deploy-notes")
            .expect("deploy-notes")
            .record
            .description(),
        "How to deploy: run make deploy from a clean checkout"
    );
    let repair = journal(&h).pop().expect("entry");
    assert_eq!(repair.op, Op::Repair);
    assert!(
        h.screen().contains("repair deploy-notes-"),
        "{}",
        h.screen()
    );
    // now everything works: an edit, journaled like the CLI's
    select_entry(&mut h, "prefers-tabs-");
    h.press(KeyCode::Char('e'));
    h.keys("Confirmed. ");
    h.ctrl('s');
    let set = other(&h).read().expect("readable");
    assert!(
        set.get("prefers-tabs")
            .expect("r")
            .record
            .body()
            .starts_with("Confirmed. ")
    );
    assert_eq!(journal(&h).pop().expect("entry").op, Op::Set);
    // and the ready demo proposal can be approved
    h.press(KeyCode::Char('p'));
    select_proposal(&mut h, "7e1d2c3b4a59");
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y')); // confirms the approval
    assert!(
        other(&h)
            .read()
            .expect("read")
            .get("ci-blocks-release")
            .is_some(),
        "{}",
        h.screen()
    );
}

#[test]
fn drop_an_entry_that_does_not_read() {
    let mut h = Harness::demo(100, 30);
    select_entry(&mut h, "deploy-notes-");
    h.press(KeyCode::Char('d'));
    assert!(h.screen().contains("Drop deploy-notes-"), "{}", h.screen());
    h.press(KeyCode::Char('y'));
    assert!(h.inspection().is_readable(), "{}", h.screen());
    let files = other(&h).read().expect("readable").files();
    assert!(files.iter().all(|f| !f.starts_with("deploy-notes-")));
    assert_eq!(journal(&h).pop().expect("entry").op, Op::Repair);
}

#[test]
fn an_entry_changed_after_it_was_shown_is_not_dropped() {
    let mut h = Harness::demo(100, 30);
    select_entry(&mut h, "deploy-notes-");
    let file = h.app.selected_entry().expect("entry").file.clone();
    h.press(KeyCode::Char('d'));
    let path = other(&h).root().join(&file);
    std::fs::write(&path, "---\nsomeone: else\n---\n\nchanged meanwhile\n").expect("write");
    h.press(KeyCode::Char('y'));
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.contains("from the manifest failed: memory collection ch"),
        "{status}"
    );
    let listed = other(&h).inspect().entries.iter().any(|e| e.file == file);
    assert!(listed, "still in the manifest");
    assert!(path.exists());
}

#[test]
fn every_workbench_change_is_journaled() {
    let mut h = three(100, 30);
    h.press(KeyCode::Char('n'));
    h.keys("zeta");
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab);
    h.keys("a new one");
    h.press(KeyCode::Tab);
    h.keys("z");
    h.ctrl('s');
    assert!(names(&h).contains(&"zeta".to_owned()), "{}", h.screen());
    h.press(KeyCode::Char('g'));
    h.press(KeyCode::Char('d'));
    h.press(KeyCode::Char('y'));
    // R shows the fix first and writes it on yes; an index in sync needs none.
    h.press(KeyCode::Char('R'));
    assert!(
        h.screen().contains("MEMORY.md needs no fix"),
        "{}",
        h.screen()
    );
    std::fs::write(h.root().join("MEMORY.md"), "hand-edited\n").expect("drift");
    h.ctrl('r');
    h.press(KeyCode::Char('R'));
    assert!(h.screen().contains("- hand-edited"), "{}", h.screen());
    h.press(KeyCode::Char('y'));
    let ops: Vec<Op> = journal(&h).iter().map(|e| e.op).collect();
    assert_eq!(ops, [Op::Add, Op::Rm, Op::RebuildIndex]);
}

#[test]
fn history_opens_on_the_newest_entry_as_it_is_now() {
    let mut h = three(100, 30);
    let save = |h: &mut Harness| {
        h.press(KeyCode::Char('e'));
        h.keys("more ");
        h.ctrl('s');
        assert!(h.app.editor.is_none(), "{}", h.screen());
    };
    save(&mut h);
    h.press(KeyCode::Char('H'));
    let first = journal(&h).last().map(|e| e.id);
    assert_eq!(h.app.history.selected_entry().map(|e| e.id), first);
    h.press(KeyCode::Esc);
    // two more changes, each a journal entry
    save(&mut h);
    save(&mut h);
    h.press(KeyCode::Char('H'));
    let newest = journal(&h).last().map(|e| e.id);
    assert_eq!(h.app.history.selected_entry().map(|e| e.id), newest);
    assert!(newest.is_some());
}

#[test]
fn saving_an_unchanged_proposed_record_changes_nothing() {
    let mut h = three(100, 30);
    merge_alpha_beta(&h, "ffff00000001");
    h.review_tick();
    let path = h.root().join(".memwb/proposals/ffff00000001.json");
    let before = std::fs::read(&path).expect("proposal");
    h.press(KeyCode::Char('p'));
    h.press(KeyCode::Char('e'));
    assert!(h.app.editor.is_some());
    h.ctrl('s');
    assert!(h.app.editor.is_none());
    let screen = h.screen();
    assert!(!screen.contains("memory edited"), "{screen}");
    assert!(
        screen.contains("proposal ffff00000001: nothing changed, nothing saved"),
        "{screen}"
    );
    assert_eq!(std::fs::read(&path).expect("proposal"), before);
}

#[test]
fn approving_asks_and_marked_proposals_are_decided_together() {
    let mut h = three(100, 30);
    add_delta(&h, "abab00000001");
    file(
        &h,
        Plan::Extraction(vec![record("epsilon", "another fact", "Epsilon body.")]),
        "abab00000002",
        AT + 2000,
        None,
    );
    h.review_tick();
    h.press(KeyCode::Char('p'));
    // `a` asks first; `n` changes nothing
    h.press(KeyCode::Char('a'));
    assert!(
        h.screen().contains("Approve proposal abab00000001?"),
        "{}",
        h.screen()
    );
    h.press(KeyCode::Char('n'));
    assert_eq!(names(&h), ["alpha", "beta", "gamma"]);
    // mark both, approve both at once
    h.press(KeyCode::Char('g'));
    h.keys("  ");
    assert!(h.screen().contains("2 marked"), "{}", h.screen());
    h.press(KeyCode::Char('a'));
    assert!(h.screen().contains("Approve 2 proposals"), "{}", h.screen());
    h.press(KeyCode::Char('y'));
    assert_eq!(names(&h), ["alpha", "beta", "gamma", "delta", "epsilon"]);
    assert_eq!(load(&h, "abab00000001").status, ProposalStatus::Approved);
    assert_eq!(load(&h, "abab00000002").status, ProposalStatus::Approved);
    // decided ones can be hidden
    h.press(KeyCode::Char('D'));
    let screen = h.screen();
    assert!(screen.contains("decided hidden"), "{screen}");
    assert!(!screen.contains("abab00000001"), "{screen}");
    h.press(KeyCode::Char('D'));
    assert!(h.screen().contains("abab00000001"));
}

#[test]
fn an_undone_proposal_says_by_which_entry() {
    let mut h = three(100, 30);
    add_delta(&h, "acac00000001");
    h.review_tick();
    h.press(KeyCode::Char('p'));
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y'));
    h.press(KeyCode::Char('H'));
    h.press(KeyCode::Char('u'));
    h.press(KeyCode::Char('y'));
    let undo = journal(&h).pop().expect("the undo").id;
    h.press(KeyCode::Char('p'));
    select_proposal(&mut h, "acac00000001");
    let screen = h.screen();
    assert!(screen.contains(&format!("undone by #{undo}")), "{screen}");
}
