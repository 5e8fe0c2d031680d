//! The `/` filter of the Proposals and History lists, the selection it leaves, and rebasing a stale
//! proposal.

use super::*;

#[test]
fn the_proposals_list_filters_live_and_clamps_its_selection() {
    let mut h = three();
    for name in ["delta", "epsilon", "zeta", "eta"] {
        add(&h, name);
    }
    h.review_tick();
    h.press(KeyCode::Char('p'));
    assert_eq!(h.app.proposals.rows.len(), 4);
    // the selection at the end of the list, then a filter that leaves one row
    h.press(KeyCode::Char('G'));
    h.press(KeyCode::Char('/'));
    h.keys("epsi");
    assert_eq!(listed_proposals(&h), ["add epsilon"]);
    assert_eq!(h.app.proposals.selected, 0);
    let screen = list_box(&h);
    assert!(screen.contains("1/4 shown"), "{screen}");
    assert!(screen.contains("/epsi"), "{screen}");
    assert!(screen.contains("add epsilon"), "{screen}");
    assert!(!screen.contains("add delta"), "{screen}");
    // typed letters went to the filter, not to the bindings (`a` would have asked to approve)
    h.keys("lon");
    assert!(h.app.modal.is_none());
    // Enter keeps the filter and gives the keys back to the list
    h.press(KeyCode::Enter);
    assert_eq!(listed_proposals(&h), ["add epsilon"]);
    h.press(KeyCode::Char('a'));
    assert!(h.app.modal.is_some(), "a asks to approve the one listed");
    h.press(KeyCode::Char('n'));
    // nothing matches: said so
    h.press(KeyCode::Char('/'));
    h.keys("zzz");
    assert!(h.app.proposals.rows.is_empty());
    assert!(
        h.screen().contains("no proposal matches the filter"),
        "{}",
        h.screen()
    );
    // Esc clears it: every proposal is back, and the view is still Proposals
    h.press(KeyCode::Esc);
    assert_eq!(h.app.proposals.rows.len(), 4);
    assert!(h.app.proposals.filter.input.is_empty());
    assert_eq!(h.app.view, memwb::tui::app::View::Proposals);
}

#[test]
fn a_paste_goes_into_the_proposals_filter() {
    let mut h = three();
    add(&h, "delta");
    add(&h, "epsilon");
    h.review_tick();
    h.press(KeyCode::Char('p'));
    h.press(KeyCode::Char('/'));
    h.send(memwb::tui::app::Event::Paste("delta".into()));
    assert_eq!(listed_proposals(&h), ["add delta"]);
}

#[test]
fn the_history_list_filters_live_and_clamps_its_selection() {
    let mut h = three();
    for name in ["delta", "epsilon", "zeta"] {
        other(&h)
            .extend(vec![record(name, "a fact", "Body.")])
            .expect("add");
    }
    // journaled changes, as the workbench and the CLI make them
    let store = h.store();
    memwb::formats::memory::journal::journaled_op(&store, memwb::review::Op::Rm, |s| {
        s.remove(&[record(
            "gamma",
            "deploys from main",
            "Deploy from main only.",
        )])
    })
    .expect("rm");
    memwb::formats::memory::journal::journaled_op(&store, memwb::review::Op::Add, |s| {
        s.extend(vec![record("theta", "one more", "Body.")])
    })
    .expect("add");
    h.watcher_tick();
    h.review_tick();
    let total = Journal::of(&other(&h)).entries().expect("journal").len();
    assert!(total >= 2);
    h.press(KeyCode::Char('H'));
    assert_eq!(h.app.history.entries.len(), total);
    h.press(KeyCode::Char('G'));
    h.press(KeyCode::Char('/'));
    h.keys("gamma");
    assert_eq!(h.app.history.entries.len(), 1);
    assert_eq!(h.app.history.selected, 0);
    let screen = list_box(&h);
    assert!(screen.contains(&format!("1/{total} entries")), "{screen}");
    assert!(screen.contains("removed gamma"), "{screen}");
    assert!(!screen.contains("added theta"), "{screen}");
    // `u` is typed into the filter, not an undo
    h.keys("u");
    assert!(h.app.modal.is_none());
    assert!(h.app.history.entries.is_empty());
    assert!(h.screen().contains("no entry matches the filter"));
    h.press(KeyCode::Backspace);
    h.press(KeyCode::Enter);
    // the filtered entry is the one `u` undoes
    h.press(KeyCode::Char('u'));
    h.press(KeyCode::Char('y'));
    assert!(names(&h).contains(&"gamma".to_owned()), "{:?}", names(&h));
    h.press(KeyCode::Char('/'));
    h.press(KeyCode::Esc);
    assert_eq!(h.app.history.entries.len(), total + 1);
}

#[test]
fn b_rebases_a_stale_dedupe_proposal_and_shows_it_again() {
    let mut h = Harness::empty(100, 30);
    h.store()
        .extend(vec![
            record(
                "tabs-indentation",
                "User prefers tabs for indentation",
                "Use tabs.",
            ),
            record(
                "indentation-tabs",
                "Indentation with tabs preferred by user",
                "Tabs.",
            ),
        ])
        .expect("seed");
    let store = other(&h);
    let seen = store.read().expect("read");
    let group = memwb::formats::memory::find_groups(&seen)
        .into_iter()
        .next()
        .expect("group");
    let filed = file_proposal(
        &store,
        memwb::formats::memory::dedupe_proposal(&seen, group),
    )
    .expect("file");
    // a source changes after the proposal was made
    let before = seen.get("indentation-tabs").expect("there").record.clone();
    store
        .replace(
            &before,
            record(
                "indentation-tabs",
                before.description(),
                "Tabs, never spaces.",
            ),
        )
        .expect("replace");
    h.watcher_tick();
    h.review_tick();
    h.press(KeyCode::Char('p'));
    let screen = h.screen();
    assert!(screen.contains("stale"), "{screen}");
    assert!(screen.contains("b rebases it"), "{screen}");
    h.press(KeyCode::Char('b'));
    let screen = h.screen();
    assert!(
        screen.contains(&format!("proposal {} rebased", filed.id)),
        "{screen}"
    );
    let status = h.app.status.as_ref().expect("status").text.clone();
    assert!(
        status.contains("\"indentation-tabs\" was changed"),
        "{status}"
    );
    assert!(status.contains("recomputed"), "{status}");
    let rebased = proposal::load(&other(&h), &filed.id).expect("load");
    let plan = rebased.plan().expect("plan");
    assert!(plan.records()[0].body().contains("Tabs, never spaces."));
    let row = h.app.proposals.selected_row().expect("row");
    assert_eq!(row.proposal.id, filed.id);
    assert_eq!(row.state.as_str(), "ready");
    // a ready proposal has nothing to rebase: said so, nothing written
    let bytes = std::fs::read(h.root().join(format!(".memwb/proposals/{}.json", filed.id)))
        .expect("proposal file");
    h.press(KeyCode::Char('b'));
    assert!(h.screen().contains("is not stale"), "{}", h.screen());
    let after = std::fs::read(h.root().join(format!(".memwb/proposals/{}.json", filed.id)))
        .expect("proposal file");
    assert_eq!(bytes, after);
    // and it approves
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y'));
    assert_eq!(names(&h), ["tabs-indentation"]);
}

/// The row the Manifest's selection is on: a record's name, a stray's file, or nothing.
fn selected_row(h: &Harness) -> Option<String> {
    if let Some(stray) = h.app.manifest.selected_stray() {
        return Some(stray.file.clone());
    }
    let row = h.app.manifest.selected_row()?;
    h.app.shown.key_at(row).map(str::to_owned)
}

/// Sets the Manifest's filter to `text` (clearing the one before) and keeps it.
fn filter(h: &mut Harness, text: &str) {
    h.press(KeyCode::Char('/'));
    h.press(KeyCode::Esc);
    h.press(KeyCode::Char('/'));
    h.keys(text);
    h.press(KeyCode::Enter);
}

#[test]
fn after_a_filter_the_selection_is_on_a_matching_row_or_nothing() {
    let (mut h, _, temp) = with_strays();
    // from the last stray, a filter that only a record matches
    h.select_stray(".alpha-0badf00d.tmp");
    filter(&mut h, "gamma");
    assert_eq!(selected_row(&h).as_deref(), Some("gamma"));
    // a filter nothing matches: nothing is selected, and `d` deletes nothing
    filter(&mut h, "");
    h.select_stray(".alpha-0badf00d.tmp");
    filter(&mut h, "zzz");
    assert_eq!(selected_row(&h), None, "{}", h.screen());
    assert!(
        !h.screen().contains(".alpha-0badf00d.tmp"),
        "{}",
        h.screen()
    );
    h.press(KeyCode::Char('d'));
    assert!(h.app.modal.is_none(), "{}", h.screen());
    h.press(KeyCode::Char('y'));
    assert_eq!(
        std::fs::read(h.root().join(".alpha-0badf00d.tmp")).expect("kept"),
        temp
    );
    assert_eq!(names(&h), ["alpha", "beta", "gamma"]);
    // a filter a stray's name matches selects it, and only the strays that match are rows
    filter(&mut h, "draft");
    assert_eq!(
        selected_row(&h).as_deref(),
        Some("old-draft-0badf00d.md"),
        "{}",
        h.screen()
    );
    assert_eq!(h.app.manifest.strays.len(), 1);
    for _ in 0..5 {
        h.press(KeyCode::Char('j'));
        assert_eq!(selected_row(&h).as_deref(), Some("old-draft-0badf00d.md"));
    }
}
