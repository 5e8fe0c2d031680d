//! Key availability, on both formats, through the screen: in a few states of each pane and
//! view, every key the hints bar names is accepted by dispatch, every key dispatch refuses is
//! absent from the bar, and the help lists the same commands with the refused ones marked.
//! Each key is pressed on a fresh workbench in the state, so one key's effect cannot hide
//! another's.

use crate::tui_harness::{self, Harness};

use crossterm::event::{KeyCode, KeyEvent};
use memwb::tui::app::{Event, StatusKind};
use memwb::tui::keymap::{self, BINDINGS, Binding, Scope};

/// Wide enough that the bar names every hint of any state (spare ones included).
const WIDTH: u16 = 260;
const HEIGHT: u16 = 40;
/// The size each key is pressed at: a small frame draws quicker.
const SMALL: (u16, u16) = (80, 24);

/// A workbench and what keeps its folder alive.
type Opened = (Option<tempfile::TempDir>, Harness);

fn demo() -> Opened {
    (None, Harness::demo(SMALL.0, SMALL.1))
}

fn records() -> Opened {
    (None, tui_harness::alpha_beta_gamma(SMALL.0, SMALL.1))
}

fn claude() -> Opened {
    let (dir, h) = tui_harness::claude_fixture(SMALL.0, SMALL.1);
    (Some(dir), h)
}

/// The hints bar's keys, as the screen shows them ("e edit  n new  ..." on the last row).
fn hinted(h: &Harness) -> Vec<String> {
    let screen = h.screen();
    let bar = screen.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
    bar.split("  ")
        .filter_map(|hint| hint.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// The bindings of `scopes` that the keys of the state reach (a scope before another may bind
/// the same key). Movement is left out: it always runs, and names no hint.
fn reachable(h: &Harness, scopes: &[Scope]) -> Vec<&'static Binding> {
    let live = h.app.scopes();
    BINDINGS
        .iter()
        .filter(|b| live.contains(&b.scope) && scopes.contains(&b.scope))
        .filter(|b| {
            let key = b.keys[0];
            keymap::lookup(&live, &KeyEvent::new(key.code, key.mods)) == Some(b.action)
        })
        .collect()
}

/// Whether pressing `binding`'s key in a fresh workbench in the state is refused: the status
/// line then holds an error that was not there before.
fn refused(open: fn() -> Opened, setup: fn(&mut Harness), binding: &Binding) -> Option<String> {
    let (_dir, mut h) = open();
    // `E` hands the file to an editor that exits without changing it
    h.editor = "true".into();
    setup(&mut h);
    h.app.status = None;
    let key = binding.keys[0];
    h.send(Event::Key(KeyEvent::new(key.code, key.mods)));
    h.app
        .status
        .as_ref()
        .filter(|s| s.kind == StatusKind::Error)
        .map(|s| s.text.clone())
}

/// The help's row of `binding`, as drawn: its mark, its keys, its words.
fn help_row(binding: &Binding, mark: &str) -> String {
    let keys: Vec<String> = binding.keys.iter().map(|k| k.label()).collect();
    let help: String = binding.help.chars().take(20).collect();
    format!("{mark}{:<18}{help}", keys.join(" "))
}

/// Presses each key of `scopes` live in the state `setup` leads to (each on a fresh workbench)
/// and checks the hints bar and the help against what dispatch did. The keys of the four panes
/// and of everywhere do not depend on the focused pane: the Manifest's states press them, the
/// other states only the pane's or view's own (pressing every key everywhere is slow).
fn check(what: &str, open: fn() -> Opened, setup: fn(&mut Harness), scopes: &[Scope]) {
    let (_dir, mut h) = open();
    setup(&mut h);
    h.resize(WIDTH, HEIGHT);
    let hints = hinted(&h);
    assert!(hints.contains(&"?".to_owned()), "{what}: {hints:?}");
    let bindings = reachable(&h, scopes);
    let mut refusals = Vec::new();
    for binding in &bindings {
        let label = binding.keys[0].label();
        match refused(open, setup, binding) {
            Some(why) => {
                assert!(
                    !hints.contains(&label),
                    "{what}: the bar offers {label}, and dispatch refuses it: {why}\nbar: {hints:?}"
                );
                refusals.push(*binding);
            }
            None if binding.hint.is_some() => assert!(
                hints.contains(&label),
                "{what}: {label} runs, and the bar does not name it: {hints:?}"
            ),
            None => {}
        }
    }
    // The help lists every command of here, the refused ones marked with why (and only those).
    h.resize(WIDTH, 200);
    h.keys("?");
    let help = h.screen();
    for binding in &bindings {
        let refused = refusals.iter().any(|r| std::ptr::eq(*r, *binding));
        let row = help_row(binding, if refused { "✗ " } else { "  " });
        assert!(
            help.contains(&row),
            "{what}: the help has no row {row:?}\n{help}"
        );
    }
}

fn nothing(_: &mut Harness) {}

fn stray(h: &mut Harness) {
    h.select_stray("old-draft-5eed00ffdeadbeef0badf00d1234ab00.md");
}

fn record_pane(h: &mut Harness) {
    h.press(KeyCode::Tab);
}

fn query_pane(h: &mut Harness) {
    h.press(KeyCode::BackTab);
}

fn proposals(h: &mut Harness) {
    h.keys("p");
}

fn history(h: &mut Harness) {
    h.keys("H");
}

fn findings(h: &mut Harness) {
    h.keys("F");
}

fn sets(h: &mut Harness) {
    h.keys("S");
}

const PANES: [Scope; 3] = [Scope::Workbench, Scope::Manifest, Scope::Global];

#[test]
fn the_manifest_offers_what_runs_on_a_memory_set() {
    check("a record selected", records, nothing, &PANES);
    check("the demo (unreadable)", demo, nothing, &PANES[..2]);
    check("an unlisted file selected", demo, stray, &PANES[..2]);
}

#[test]
fn the_topic_files_offer_what_runs_on_a_claude_code_folder() {
    check("a topic file selected", claude, nothing, &PANES);
}

#[test]
fn the_other_panes_offer_what_runs_on_both_formats() {
    for open in [records as fn() -> Opened, claude] {
        check("the Record pane", open, record_pane, &[Scope::Record]);
        check("the Query pane", open, query_pane, &[Scope::Query]);
    }
}

#[test]
fn the_views_offer_what_runs_on_both_formats() {
    check("pending proposals", demo, proposals, &[Scope::Proposals]);
    check(
        "the findings of the demo",
        demo,
        findings,
        &[Scope::Findings],
    );
    for open in [records as fn() -> Opened, claude] {
        check("no proposal", open, proposals, &[Scope::Proposals]);
        check("the journal", open, history, &[Scope::History]);
        check("the findings", open, findings, &[Scope::Findings]);
        check("no set found yet", open, sets, &[Scope::Sets]);
    }
}
