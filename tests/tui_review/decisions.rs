//! Deciding proposals in the workbench: approve, reject with a reason, stale,
//! marked together.

use super::*;

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
    assert!(screen.contains("\"alpha\" was changed"), "{screen}");
    assert_eq!(load(&h, "eeee00000001").status, ProposalStatus::Pending);
    assert!(journal(&h).iter().all(|e| e.op != Op::Approve));
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
