//! The Query pane: the selection and the injected text, late answers, an unreadable set, reopening,
//! jumping to a memory.

use super::*;

#[test]
fn query_shows_the_selection_and_the_injected_text() {
    let mut h = three();
    h.press(KeyCode::BackTab);
    assert_eq!(h.app.focus, Pane::Query);
    h.press(KeyCode::Char('i'));
    h.keys("second record");
    h.press(KeyCode::Enter);
    let result = h.app.query.result.clone().expect("a result");
    assert_eq!(result.names, ["beta", "alpha", "gamma"]);
    assert_eq!(result.how, "keyword fallback");
    let expected = memwb::session::selection::render_selected(
        &["beta", "alpha", "gamma"].map(|n| current(&h, n).expect("record")),
    );
    assert_eq!(result.rendered, expected);
    h.press(KeyCode::Char('z'));
    let screen = h.screen();
    assert!(
        screen.contains("selected (keyword fallback): beta, alpha, gamma"),
        "{screen}"
    );
    assert!(screen.contains("<relevant_memories>"), "{screen}");
    assert!(screen.contains("## beta (project)"), "{screen}");
}

#[test]
fn a_late_answer_to_an_earlier_query_is_ignored() {
    let mut h = three();
    h.press(KeyCode::BackTab);
    h.press(KeyCode::Char('i'));
    h.keys("second record");
    h.press(KeyCode::Enter);
    let latest = h.app.query.result.clone().expect("a result");
    // a selection for an older query finishing last (a slow model) must not replace it
    let mut stale = latest.clone();
    stale.query = "an older query".into();
    stale.names = vec!["gamma".into()];
    h.send(Event::Query(stale));
    assert_eq!(h.app.query.result.as_ref(), Some(&latest));
}

#[test]
fn query_on_an_unreadable_set_selects_nothing() {
    let mut h = Harness::demo(100, 30);
    h.press(KeyCode::BackTab);
    h.press(KeyCode::Char('i'));
    h.keys("release");
    h.press(KeyCode::Enter);
    let result = h.app.query.result.clone().expect("a result");
    assert!(result.names.is_empty() && result.rendered.is_empty());
    assert!(
        result
            .error
            .expect("error")
            .contains("Memory selection failed")
    );
}

#[test]
fn reopening_the_query_selects_it_so_typing_replaces_it() {
    let mut h = three();
    h.press(KeyCode::BackTab);
    h.keys("i");
    h.keys("second record");
    h.press(KeyCode::Enter);
    h.keys("i");
    assert!(h.app.query.input.is_selected());
    h.keys("third");
    assert_eq!(h.app.query.input.text(), "third");
    h.press(KeyCode::Enter);
    assert_eq!(h.app.query.result.clone().expect("result").query, "third");
    // a move keeps the old text and edits it in place
    h.keys("i");
    h.press(KeyCode::Home);
    h.keys("the ");
    assert_eq!(h.app.query.input.text(), "the third");
    // the history holds both earlier queries
    h.press(KeyCode::Up);
    assert_eq!(h.app.query.input.text(), "third");
    h.press(KeyCode::Up);
    assert_eq!(h.app.query.input.text(), "second record");
    h.press(KeyCode::Down);
    h.press(KeyCode::Down);
    assert_eq!(h.app.query.input.text(), "the third");
}

#[test]
fn enter_in_the_query_pane_jumps_to_the_chosen_memory() {
    let mut h = three();
    h.keys("/gamma");
    h.press(KeyCode::Enter);
    assert_eq!(selected(&h).as_deref(), Some("gamma"));
    h.press(KeyCode::BackTab);
    h.press(KeyCode::Enter);
    assert!(
        h.app
            .status
            .clone()
            .expect("status")
            .text
            .contains("no selected memory"),
        "Enter before a query says what to do"
    );
    h.keys("i");
    h.keys("second record");
    h.press(KeyCode::Enter);
    assert_eq!(
        h.app.query.result.clone().expect("result").names,
        ["beta", "alpha", "gamma"]
    );
    h.keys("ll");
    h.press(KeyCode::Char('h'));
    h.press(KeyCode::Enter);
    assert_eq!(h.app.focus, Pane::Manifest);
    assert_eq!(selected(&h).as_deref(), Some("alpha"));
    assert!(h.app.manifest.filter.is_empty(), "the filter hid alpha");
    let status = h.app.status.clone().expect("status").text;
    assert_eq!(status, "jumped to alpha; filter cleared to show it");
    assert!(h.screen().contains("Record: alpha"), "{}", h.screen());
}
