//! The workbench as a daily tool (issue 10): lists that keep no stale offset, panes that stop
//! at their content, a status line that stays true, a help overlay that scrolls, paste.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::store::{MemoryType, Record};
use memwb::tui::app::{Event, Modal};
use tui_harness::Harness;

fn record(name: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, format!("about {name}"), body).expect("valid")
}

/// `count` records note-00, note-01, ... (one named `tabs-NN` every 19th, for filtering).
fn many(count: usize, width: u16, height: u16) -> Harness {
    let mut h = Harness::empty(width, height);
    let records = (0..count)
        .map(|i| {
            let name = if i % 19 == 5 {
                format!("tabs-{i:02}")
            } else {
                format!("note-{i:02}")
            };
            record(&name, "b")
        })
        .collect();
    h.store().extend(records).expect("seed");
    h.watcher_tick();
    h
}

/// The Manifest's rows as drawn: the lines of the screen that show an entry, from its name
/// (after the state and the finding mark: these near-duplicates have `duplicate` findings).
fn manifest_rows(h: &Harness) -> Vec<String> {
    h.screen()
        .lines()
        .filter_map(|l| {
            l.split_once("│✓ ")
                .map(|(_, rest)| rest.trim_start_matches([' ', '✗', '⚠', '·']).to_owned())
        })
        .collect()
}

#[test]
fn a_filter_after_scrolling_shows_every_match() {
    let mut h = many(38, 80, 24);
    h.keys("G");
    h.keys("kkk");
    h.keys("/tabs");
    h.press(KeyCode::Enter);
    assert!(h.screen().contains("Manifest (2/38)"), "{}", h.screen());
    let rows = manifest_rows(&h);
    assert_eq!(rows.len(), 2, "{}", h.screen());
    assert!(rows[0].starts_with("tabs-05") && rows[1].starts_with("tabs-24"));
}

#[test]
fn growing_the_window_or_shrinking_the_set_leaves_no_blank_rows() {
    let mut h = many(38, 80, 24);
    h.keys("G");
    h.resize(120, 40);
    let rows = manifest_rows(&h);
    let height = h.app.manifest.height;
    assert_eq!(rows.len(), height, "{}", h.screen());
    assert!(rows.last().is_some_and(|r| r.starts_with("note-37")));

    // a reload that leaves fewer entries than rows shows all of them from the top
    let store = h.store();
    let doomed: Vec<Record> = store.records().expect("read").split_off(10);
    store.remove(&doomed).expect("remove");
    h.watcher_tick();
    let rows = manifest_rows(&h);
    assert_eq!(rows.len(), 10, "{}", h.screen());
    assert_eq!(h.app.manifest.offset, 0);
    assert!(rows[0].starts_with("note-00"));
}

#[test]
fn the_record_pane_stops_at_the_end_of_its_text() {
    let long: String = (1..=60).map(|i| format!("line {i}\n")).collect();
    let mut h = Harness::empty(100, 30);
    h.store()
        .extend(vec![record("alpha", &long)])
        .expect("seed");
    h.watcher_tick();
    let area = h.app.areas.record;
    for _ in 0..40 {
        h.scroll(area.x + 2, area.y + 2, true);
    }
    let screen = h.screen();
    let lines: Vec<&str> = screen.lines().collect();
    // the last line of the body is on the pane's last row, not above a run of blank rows
    let last_row = (area.y + area.height - 2) as usize;
    assert!(lines[last_row].contains("line 60"), "{screen}");
    let at_end = h.app.record.view.scroll;
    h.press(KeyCode::Tab); // the Record pane
    h.keys("G");
    h.press(KeyCode::PageDown);
    assert_eq!(h.app.record.view.scroll, at_end);
    h.keys("k");
    assert_eq!(h.app.record.view.scroll, at_end - 1);
}

#[test]
fn the_help_scrolls_to_its_end_and_no_further() {
    let mut h = Harness::empty(80, 24);
    h.keys("?");
    let scroll = |h: &Harness| match &h.app.modal {
        Some(Modal::Help(view)) => view.scroll,
        other => panic!("help closed: {other:?}"),
    };
    h.keys("G");
    let end = scroll(&h);
    assert!(end > 0);
    assert!(h.screen().contains("to the end"), "{}", h.screen());
    h.keys("j");
    h.press(KeyCode::End);
    h.press(KeyCode::PageDown);
    h.ctrl('d');
    assert_eq!(scroll(&h), end);
    h.keys("g");
    assert_eq!(scroll(&h), 0);
    h.press(KeyCode::PageDown);
    assert!(scroll(&h) > 1);
    let hints = h.screen().lines().last().unwrap_or_default().to_owned();
    assert!(
        hints.contains("j scroll") && hints.contains("C-d page"),
        "{hints}"
    );
}

#[test]
fn discarding_a_failed_edit_clears_its_status() {
    let mut h = Harness::empty(100, 30);
    h.store().extend(vec![record("alpha", "a")]).expect("seed");
    h.watcher_tick();
    h.keys("e");
    h.press(KeyCode::Tab); // the name
    h.press(KeyCode::End);
    h.keys("-x");
    // someone else removes alpha: the save fails and the edit stays
    let store = h.store();
    let alpha = store.records().expect("read").remove(0);
    store.remove(&[alpha]).expect("remove");
    h.ctrl('s');
    let status = h.app.status.clone().expect("a status").text;
    assert!(
        status.ends_with("your edit is still in the editor"),
        "{status}\n{}",
        h.screen()
    );
    h.press(KeyCode::Esc); // keep editing (the conflict's Esc)
    h.press(KeyCode::Esc); // close: asks first
    h.keys("y");
    assert!(h.app.editor.is_none());
    let screen = h.screen();
    assert!(!screen.contains("still in the editor"), "{screen}");
    assert!(screen.contains("edit discarded"), "{screen}");
}

#[test]
fn a_record_that_turns_invalid_says_how_to_fix_the_set() {
    let mut h = Harness::empty(100, 30);
    h.store().extend(vec![record("alpha", "a")]).expect("seed");
    h.watcher_tick();
    assert!(!h.screen().contains("set unreadable"));
    let file = h
        .file_names()
        .into_iter()
        .find(|f| f.starts_with("alpha-"))
        .expect("alpha's file");
    std::fs::write(h.root().join(file), "no front matter\n").expect("break it");
    h.watcher_tick();
    let status = h.app.status.clone().expect("a status").text;
    assert!(
        status.contains("set unreadable: select a ✗ entry, e repairs it"),
        "{status}"
    );
}

#[test]
fn a_paste_goes_whole_into_the_filter_the_query_and_the_body() {
    let mut h = many(3, 100, 30);
    h.keys("/");
    h.send(Event::Paste("note-0\r\n".into()));
    assert_eq!(h.app.manifest.filter.text(), "note-0 ");
    h.press(KeyCode::Esc);
    h.press(KeyCode::BackTab); // the Query pane
    h.keys("i");
    h.send(Event::Paste("where do we deploy".into()));
    assert_eq!(h.app.query.input.text(), "where do we deploy");
    h.press(KeyCode::Esc);
    // outside an input a paste runs no binding: "q" does not quit, "d" does not delete
    h.send(Event::Paste("qd".into()));
    assert!(!h.app.quit && h.app.modal.is_none());
    h.press(KeyCode::Tab);
    h.keys("e");
    let pasted = "one\r\ntwo\rthree ".repeat(100);
    h.send(Event::Paste(pasted.clone()));
    let editor = h.app.editor.as_ref().expect("editor");
    let body = editor.value(memwb::tui::editor::BODY);
    assert_eq!(body, format!("{}b", "one\ntwo\nthree ".repeat(100)));
}

/// The screen with the random part of record file names replaced, for snapshots.
fn stable(h: &Harness) -> String {
    let mut screen = h.screen();
    for file in h.file_names() {
        if let Some((_, id)) = file.trim_end_matches(".md").rsplit_once('-') {
            screen = screen.replace(id, &"x".repeat(id.len()));
        }
    }
    screen
}

/// Wide characters at the wrap edge of every pane that wraps: the query line, the record body,
/// the editor; no line runs over a border.
#[test]
fn cjk_and_emoji_at_the_wrap_edge() {
    let mut h = Harness::empty(100, 30);
    let body = format!(
        "{}周五部署 then {}😀😀 and {}用户希望用简体中文回答",
        "a".repeat(49),
        "b".repeat(50),
        "c".repeat(48)
    );
    h.store().extend(vec![record("wide", &body)]).expect("seed");
    h.watcher_tick();
    h.press(KeyCode::BackTab); // the Query pane
    h.keys("i");
    h.send(Event::Paste(format!("{}周五部署 周五部署", "q".repeat(36))));
    h.press(KeyCode::Esc);
    let screen = stable(&h);
    for line in screen.lines() {
        assert!(
            memwb::tui::text::width(line) <= 100,
            "{line:?} is wider than the screen"
        );
    }
    // each pane's right border is where it belongs on every row (below the title line)
    let rows: Vec<&str> = screen.lines().skip(1).take(27).collect();
    let border = |c: char| "│┌┐└┘".contains(c);
    for row in &rows {
        assert_eq!(row.chars().filter(|c| border(*c)).count(), 4, "{screen}");
    }
    insta::assert_snapshot!("wide_text_100x30", screen);
    h.press(KeyCode::Tab);
    h.keys("e");
    insta::assert_snapshot!("wide_text_editor_100x30", stable(&h));
}

/// `r` after a conflict merges three ways: the body only I changed is kept, the description
/// both changed is shown side by side and waits for a choice; nothing is overwritten silently.
#[test]
fn reapply_merges_three_ways_and_asks_about_a_field_both_changed() {
    let mut h = Harness::empty(100, 30);
    h.store()
        .extend(vec![record("alpha", "old body")])
        .expect("seed");
    h.watcher_tick();
    h.keys("e");
    h.keys("mine: "); // the body
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab); // the description
    h.press(KeyCode::End);
    h.keys(" (mine)");
    // another writer changes the description (and only it)
    let store = h.store();
    let alpha = store.records().expect("read").remove(0);
    let theirs = Record::new(
        "alpha",
        MemoryType::Project,
        "their description",
        "old body",
    )
    .expect("valid");
    store.replace(&alpha, theirs).expect("their edit");
    h.ctrl('s');
    assert!(h.app.editor.as_ref().is_some_and(|e| e.conflict.is_some()));
    h.keys("r");
    let screen = h.screen();
    assert!(screen.contains("both changed description"), "{screen}");
    assert!(screen.contains("about alpha (mine)") && screen.contains("their description"));
    h.ctrl('s'); // refused until chosen
    assert!(
        h.screen().contains("choose for each field"),
        "{}",
        h.screen()
    );
    h.keys("t");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let saved = h.store().records().expect("read").remove(0);
    assert_eq!(saved.description(), "their description");
    assert_eq!(saved.body(), "mine: old body");
}

#[test]
fn renaming_while_filtered_keeps_the_record_selected() {
    let mut h = many(5, 100, 30);
    h.keys("/note-03");
    h.press(KeyCode::Enter);
    h.keys("e");
    h.press(KeyCode::Tab); // the name
    h.ctrl('a');
    h.ctrl('k');
    h.keys("renamed");
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab); // the description, which matched the filter too
    h.ctrl('a');
    h.ctrl('k');
    h.keys("something else");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    assert_eq!(
        h.app.selected_name_and_file().map(|(name, _)| name),
        Some("renamed".to_owned())
    );
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.contains("filter cleared to keep it selected"),
        "{status}"
    );
    assert!(h.app.manifest.filter.is_empty());
}

/// The editor's live check includes the set's rules: "✓ valid" means the save will commit.
#[test]
fn valid_in_the_editor_means_the_save_commits() {
    let dir = tempfile::TempDir::new().expect("tmp");
    let options = memwb::store::StoreOptions {
        max_index_bytes: 200,
        ..Default::default()
    };
    let workspace = dir.path().to_owned();
    let mut h = Harness::open(workspace, Some(dir), 100, 30, options);
    h.store()
        .extend(vec![record("alpha", "a"), record("beta", "b")])
        .expect("seed");
    h.watcher_tick();
    h.keys("e");
    assert!(h.screen().contains("✓ valid"), "{}", h.screen());
    // a description that takes the index over its 200 bytes
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab);
    h.press(KeyCode::End);
    h.keys(&" and much more".repeat(6));
    let screen = h.screen();
    assert!(screen.contains("✗ index: MEMORY.md would be"), "{screen}");
    assert!(!screen.contains("✓ valid"), "{screen}");
    h.ctrl('s');
    assert!(h.app.editor.is_some());
    // a name another record has
    h.ctrl('a');
    h.ctrl('k');
    h.keys("about alpha");
    h.press(KeyCode::BackTab);
    h.press(KeyCode::BackTab); // the name
    h.ctrl('a');
    h.ctrl('k');
    h.keys("beta");
    assert!(
        h.screen()
            .contains("✗ name: another memory is already named"),
        "{}",
        h.screen()
    );
}

#[test]
fn the_message_log_keeps_the_last_100_messages() {
    let mut h = many(2, 100, 30);
    for i in 0..130 {
        h.app
            .set_status(memwb::tui::app::StatusKind::Info, format!("message {i}"));
    }
    h.keys("M");
    let screen = h.screen();
    assert!(screen.contains("Messages, newest first"), "{screen}");
    assert!(screen.contains("message 129"), "{screen}");
    assert_eq!(h.app.log.len(), 100);
    assert_eq!(
        h.app.log.front().map(|s| s.text.as_str()),
        Some("message 30")
    );
    h.keys("G");
    assert!(h.screen().contains("message 30"), "{}", h.screen());
    h.press(KeyCode::Esc);
    assert!(h.app.modal.is_none());
}

#[test]
fn clicks_select_rows_in_the_views_and_y_copies_the_name() {
    let mut h = many(3, 100, 30);
    // three journal entries to click between
    for _ in 0..3 {
        h.keys("e");
        h.keys("x");
        h.ctrl('s');
    }
    h.keys("H");
    assert_eq!(h.app.history.selected, 0);
    let list = h.app.areas.list;
    h.click(list.x + 3, list.y + 3); // the third row inside the frame
    assert_eq!(h.app.history.selected, 2);
    h.press(KeyCode::Esc);
    h.keys("j");
    h.keys("y");
    assert_eq!(h.yanked, ["note-01"]);
    assert!(h.screen().contains("copied note-01"), "{}", h.screen());
    h.keys("Y");
    let path = h.yanked.last().cloned().unwrap_or_default();
    assert!(
        path.starts_with(&h.root().display().to_string()) && path.contains("note-01-"),
        "{path}"
    );
}

#[test]
fn the_filter_searches_bodies_and_n_jumps_to_each_match() {
    let mut h = Harness::empty(100, 30);
    let body: String = (1..=60)
        .map(|i| {
            if i % 20 == 0 {
                format!("line {i} has the needle\n")
            } else {
                format!("line {i}\n")
            }
        })
        .collect();
    h.store()
        .extend(vec![record("alpha", "a"), record("beta", &body)])
        .expect("seed");
    h.watcher_tick();
    h.keys("/needle");
    h.press(KeyCode::Enter);
    assert_eq!(h.app.manifest.visible.len(), 1, "only beta's body has it");
    h.press(KeyCode::Tab); // the Record pane
    h.keys("n");
    let first = h.app.record.view.scroll;
    assert!(
        first > 0 && h.screen().contains("line 20 has the needle"),
        "{}",
        h.screen()
    );
    h.keys("n");
    assert!(h.app.record.view.scroll > first);
    h.keys("N");
    assert_eq!(h.app.record.view.scroll, first);
}

#[test]
fn the_index_pane_jumps_to_the_next_drift() {
    let mut h = many(40, 100, 30);
    // MEMORY.md drifts on one line far down
    let index = h.root().join("MEMORY.md");
    let text = std::fs::read_to_string(&index).expect("index");
    std::fs::write(&index, text.replace("about note-33", "edited by hand")).expect("drift");
    h.watcher_tick();
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab); // the MEMORY.md pane
    h.keys("]");
    assert!(h.app.index.scroll > 20, "{}", h.app.index.scroll);
    assert!(h.screen().contains("- - [note-33]"), "{}", h.screen());
}

/// A save goes through the engine's replace, which keeps the record's place in the manifest
/// (and MEMORY.md): an in-pane rename and an `$EDITOR` edit of the middle record stay in the
/// middle.
#[test]
fn a_save_keeps_the_record_in_its_place() {
    let mut h = many(3, 100, 30);
    let order = |h: &Harness| -> Vec<String> {
        h.store()
            .records()
            .expect("read")
            .iter()
            .map(|r| r.name().to_owned())
            .collect()
    };
    h.keys("j");
    h.keys("e");
    h.press(KeyCode::Tab); // the name
    h.press(KeyCode::End);
    h.keys("-renamed");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    assert_eq!(order(&h), ["note-00", "note-01-renamed", "note-02"]);
    let index = std::fs::read_to_string(h.root().join("MEMORY.md")).expect("index");
    let lines: Vec<&str> = index.lines().collect();
    assert!(lines[1].starts_with("- [note-01-renamed]"), "{index}");
    // the same through $EDITOR
    h.editor = "sed -i s/^b$/edited/".into();
    h.keys("E");
    assert_eq!(order(&h), ["note-00", "note-01-renamed", "note-02"]);
    let edited = h.store().records().expect("read").remove(1);
    assert_eq!(edited.body(), "edited");
}
