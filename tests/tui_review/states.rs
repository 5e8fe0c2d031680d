//! A proposal's state in the workbench: told by the reading it shows (so a change to the set
//! restales a proposal with no reload of the proposals), and a plan that does not validate said
//! so in its detail, from that state; `e` refused, before anyone types, on what it cannot save.

use super::*;
use memwb::review::State;

/// The listed proposal `id`'s state.
fn state_of(h: &Harness, id: &str) -> State {
    h.app
        .proposals
        .rows
        .iter()
        .find(|row| row.proposal.id == id)
        .map(|row| row.state.clone())
        .unwrap_or_else(|| panic!("{id} not listed"))
}

#[test]
fn a_change_to_the_set_restales_a_proposal_with_no_reload_of_the_proposals() {
    let mut h = three(100, 30);
    merge_alpha_beta(&h, "cccc00000001");
    h.review_tick();
    h.press(KeyCode::Char('p'));
    assert_eq!(state_of(&h, "cccc00000001"), State::Ready);
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
    // Only the set's news: the proposals are not loaded again.
    h.watcher_tick();
    match state_of(&h, "cccc00000001") {
        State::Stale(changes) => {
            assert!(changes.iter().any(|c| c.contains("alpha")), "{changes:?}")
        }
        other => panic!("expected stale, got {other:?}"),
    }
    assert!(h.screen().contains("⚠ stale"), "{}", h.screen());
}

#[test]
fn a_plan_that_does_not_validate_is_said_invalid_in_its_detail() {
    let mut h = three(100, 30);
    add_delta(&h, "cccc00000002");
    let path = h.root().join(".memwb/proposals/cccc00000002.json");
    let text = std::fs::read_to_string(&path).expect("read proposal");
    let mut filed: serde_json::Value = serde_json::from_str(&text).expect("json");
    filed["plan"] = serde_json::json!([
        {"name": "delta", "type": "no-such-type", "description": "d", "body": "b"}
    ]);
    std::fs::write(&path, filed.to_string()).expect("write proposal");
    h.review_tick();
    h.press(KeyCode::Char('p'));
    select_proposal(&mut h, "cccc00000002");
    let screen = h.screen();
    let said = screen
        .lines()
        .find(|line| line.contains("invalid plan "))
        .unwrap_or_else(|| panic!("no invalid plan line: {screen}"));
    assert!(said.contains("no-such-type"), "{said}");
    assert!(!screen.contains("adds "), "{screen}");
    // nor is there a plan to edit
    h.press(KeyCode::Char('e'));
    assert!(h.app.editor.is_none());
    let screen = h.screen();
    assert!(
        screen.contains("e is not available now: the selected proposal's plan is invalid"),
        "{screen}"
    );
}

/// A `.memory` proposal's addition (a memory it adds beside its plan; only `.memory` has
/// them, so this is not a conformance case) is drawn and marked ▶ like the memories its plan
/// writes, but no edit of it can be saved: `e` is refused on it up front, and still opens the
/// plan's memory.
#[test]
fn e_is_refused_on_an_addition_that_no_edit_can_be_saved_into() {
    let mut h = three(100, 30);
    let store = other(&h);
    let filed = file_proposal(
        &store,
        NewProposal {
            plan: Plan::Extraction(vec![record("delta", "a new fact", "Delta body.")]),
            origin: Origin::new("import"),
            seen: store.read().expect("read"),
            additions: vec![record("epsilon", "added beside", "Epsilon body.")],
            evidence: None,
        },
    )
    .expect("file");
    h.review_tick();
    h.press(KeyCode::Char('p'));
    select_proposal(&mut h, &filed.id);
    assert_eq!(
        h.app.proposals.selected_row().map(|r| r.summary.as_str()),
        Some("add delta, epsilon"),
        "{}",
        h.screen()
    );

    h.press(KeyCode::Char('l'));
    assert_eq!(h.app.proposals.record, 1, "▶ on epsilon: {}", h.screen());
    h.press(KeyCode::Char('e'));
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let said = h.app.status.as_ref().map(|s| s.text.clone());
    assert_eq!(
        said.as_deref(),
        Some(
            "e is not available now: the memory marked ▶ is not one the proposal's plan writes: \
             nothing to edit"
        )
    );

    h.press(KeyCode::Char('h'));
    h.press(KeyCode::Char('e'));
    assert!(h.app.editor.is_some(), "{}", h.screen());
}
