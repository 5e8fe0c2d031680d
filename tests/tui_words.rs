//! The workbench's words on both formats, through the screen: the help, the hints, the panes'
//! texts and the questions say the same on a `.memory` set and on a Claude Code folder, but for
//! what each format calls its list of memories and one memory's file (`Backend::nouns`), and
//! a pane names a key only where dispatch runs it.

use crate::tui_harness::{Harness, claude_fixture as claude};

use crossterm::event::KeyCode;
use memwb::tui::app::{Modal, StatusKind};
use memwb::tui::keymap::BINDINGS;

/// Words of the `.memory` contract's engine that a Claude Code folder has no such thing for.
const MEMORY_FORMAT_WORDS: [&str; 7] = [
    "record",
    "records",
    "manifest",
    "transaction",
    "commit",
    "commits",
    "committed",
];

/// A workbench and what keeps its folder alive.
type Opened = (Option<tempfile::TempDir>, Harness);

/// The `.memory` contract's words in `text`, as whole words.
fn memory_format_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|word| MEMORY_FORMAT_WORDS.contains(&word.as_str()))
        .collect()
}

/// The whole help overlay, page after page until it stops moving. At 80 columns the panes
/// behind it show one column each side, too little to hold a word.
fn whole_help(h: &mut Harness) -> String {
    h.press(KeyCode::Char('?'));
    let mut pages = vec![h.screen()];
    for _ in 0..40 {
        h.press(KeyCode::PageDown);
        let page = h.screen();
        if pages.last() == Some(&page) {
            break;
        }
        pages.push(page);
    }
    h.press(KeyCode::Esc);
    pages.join("\n")
}

/// The selected item's line labelled `label` in a view's detail ("jump  Enter shows…").
fn labelled_line(screen: &str, label: &str) -> Option<String> {
    screen.lines().find_map(|line| {
        let text = line.trim_start_matches('│').trim_end_matches('│');
        text.strip_prefix(label)
            .filter(|rest| rest.starts_with("  "))
            .map(|rest| rest.trim().to_owned())
    })
}

#[test]
fn the_help_names_the_panes_as_the_format_does_and_says_the_rest_alike() {
    let (_dir, mut claude) = claude(80, 24);
    let mut memory = Harness::demo(80, 24);
    let on_claude = whole_help(&mut claude);
    let on_memory = whole_help(&mut memory);
    assert!(on_claude.contains("Topic files pane (here)"), "{on_claude}");
    assert!(on_claude.contains("Topic file pane"), "{on_claude}");
    assert!(!on_claude.contains("Manifest pane"), "{on_claude}");
    assert!(on_memory.contains("Manifest pane (here)"), "{on_memory}");
    assert!(on_memory.contains("Record pane"), "{on_memory}");
    assert!(!on_memory.contains("Topic file"), "{on_memory}");
    assert_eq!(
        memory_format_words(&on_claude),
        Vec::<String>::new(),
        "the help on a Claude Code folder says the .memory contract's words:\n{on_claude}"
    );
    // every command is described in the same words on both formats
    for binding in BINDINGS {
        let start: String = binding.help.chars().take(30).collect();
        for (format, help) in [("claude", &on_claude), (".memory", &on_memory)] {
            assert!(
                help.contains(&start),
                "{format}: {:?} missing from the help",
                binding.help
            );
        }
    }
}

#[test]
fn the_panes_name_a_memory_by_the_formats_noun() {
    let (_dir, claude) = claude(120, 36);
    let memory = Harness::demo(120, 36);
    let on_claude = claude.screen();
    let on_memory = memory.screen();
    assert!(on_claude.contains("┌ Topic files (9)"), "{on_claude}");
    assert!(
        on_claude.contains("┌ Topic file: user_role "),
        "{on_claude}"
    );
    assert!(on_memory.contains("┌ Manifest (8)"), "{on_memory}");
    assert!(on_memory.contains("┌ Record: prefers-tabs "), "{on_memory}");
    assert!(!on_claude.contains("Record"), "{on_claude}");
    // the hints bar says the same on both formats
    let bar = |screen: &str| {
        screen
            .lines()
            .rfind(|l| !l.is_empty())
            .unwrap_or("")
            .to_owned()
    };
    assert_eq!(memory_format_words(&bar(&on_claude)), Vec::<String>::new());
    assert_eq!(memory_format_words(&bar(&on_memory)), Vec::<String>::new());
}

#[test]
fn the_proposals_view_hints_say_memory_on_both_formats() {
    let (_dir, mut claude) = claude(200, 30);
    let mut memory = Harness::demo(200, 30);
    for (format, h) in [("claude", &mut claude), (".memory", &mut memory)] {
        h.press(KeyCode::Char('p'));
        let screen = h.screen();
        let bar = screen.lines().rfind(|l| !l.is_empty()).unwrap_or("");
        assert!(bar.contains("l memory"), "{format}: {bar}");
        assert!(bar.contains("h previous memory"), "{format}: {bar}");
        assert_eq!(memory_format_words(bar), Vec::<String>::new(), "{format}");
    }
}

/// For each of the first findings: the detail names `Enter` exactly when dispatch runs it,
/// and otherwise gives the reason dispatch refuses it with.
fn the_jump_line_matches_dispatch(format: &str, open: fn() -> Opened) {
    let mut offered = 0;
    let mut refused = 0;
    for at in 0..5 {
        let (_dir, mut h) = open();
        h.press(KeyCode::Char('F'));
        for _ in 0..at {
            h.press(KeyCode::Char('j'));
        }
        let screen = h.screen();
        let Some(jump) = labelled_line(&screen, "jump") else {
            continue;
        };
        assert_eq!(memory_format_words(&jump), Vec::<String>::new(), "{jump}");
        h.app.status = None;
        h.press(KeyCode::Enter);
        let error = h
            .app
            .status
            .as_ref()
            .filter(|s| s.kind == StatusKind::Error)
            .map(|s| s.text.clone());
        match (jump.strip_prefix("none: "), error) {
            (None, None) => {
                assert_eq!(jump, "Enter shows the memory in the four panes");
                offered += 1;
            }
            (Some(why), Some(error)) => {
                assert_eq!(error, format!("Enter is not available now: {why}"));
                refused += 1;
            }
            (_, error) => {
                panic!("{format}, finding {at}: the detail says {jump:?}, Enter: {error:?}")
            }
        }
    }
    assert!(
        offered > 0,
        "{format}: no finding about a memory among the first"
    );
    if format == "claude" {
        // the fixture's first finding is about MEMORY.md, not a memory
        assert!(refused > 0, "{format}: every finding was about a memory");
    }
}

#[test]
fn a_findings_detail_offers_enter_only_where_it_jumps() {
    the_jump_line_matches_dispatch("claude", || {
        let (dir, h) = claude(120, 36);
        (Some(dir), h)
    });
    the_jump_line_matches_dispatch(".memory", || (None, Harness::demo(120, 36)));
}

#[test]
fn deleting_asks_in_the_same_words_on_both_formats() {
    let (_dir, mut claude) = claude(120, 36);
    let mut memory = Harness::demo(120, 36);
    for (format, h) in [("claude", &mut claude), (".memory", &mut memory)] {
        h.press(KeyCode::Char('d'));
        let Some(Modal::Confirm(confirm)) = &h.app.modal else {
            panic!("{format}: no question:\n{}", h.screen());
        };
        let question = confirm.question();
        // the question is what the screen shows (wrapped in its box)
        let first: String = question.chars().take(20).collect();
        assert!(h.screen().contains(&first), "{format}: {}", h.screen());
        assert!(
            question.contains("This is journaled (undo in History)."),
            "{format}: {question}"
        );
        assert_eq!(
            memory_format_words(&question),
            Vec::<String>::new(),
            "{format}"
        );
    }
}
