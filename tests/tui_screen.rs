//! What the workbench screen shows (issue 26 items 4, 9 and 12): columns that hold still, room
//! for the description at 80x24, sideways scrolling by display columns, the title line, the
//! finding counts and the findings of the selected record, the legend of the marks. Each test
//! drives the real workbench (harness, TestBackend) on both formats and reads the screen.

use crate::common;
use crate::tui_harness;

use std::path::{Path, PathBuf};

use crossterm::event::KeyCode;
use memwb::claude::LoadLimits;
use memwb::store::{MemoryType, Record};
use tui_harness::Harness;
use unicode_width::UnicodeWidthStr;

fn claude_at(folder: &Path, state: &Path, w: u16, h: u16) -> Harness {
    Harness::claude(folder, state, LoadLimits::default(), w, h)
}

fn fixture_claude(w: u16, h: u16) -> (tempfile::TempDir, Harness) {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = common::claude_memory_copy(dir.path());
    let h = claude_at(&folder, &dir.path().join("state"), w, h);
    (dir, h)
}

fn project(name: &str, description: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, description, body).expect("valid")
}

const TOKEN_TAIL: &str = "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5";

fn token() -> String {
    ["ghp_", TOKEN_TAIL].concat()
}

/// A Claude Code folder of `topics` (file stem, description), each a project memory listed in
/// MEMORY.md in that order.
fn claude_topics(dir: &Path, topics: &[(String, String, String)]) -> PathBuf {
    let folder = dir.join("memory");
    std::fs::create_dir_all(&folder).expect("folder");
    let mut index = String::from("# Memory Index\n\n");
    for (stem, description, body) in topics {
        std::fs::write(
            folder.join(format!("{stem}.md")),
            format!(
                "---\nname: {stem}\ndescription: {description}\ntype: project\n---\n\n{body}\n"
            ),
        )
        .expect("topic");
        index.push_str(&format!("- [{stem}]({stem}.md) — {description}\n"));
    }
    std::fs::write(folder.join("MEMORY.md"), index).expect("index");
    folder.canonicalize().expect("real path")
}

/// Forty names, short ones first and one long one near the end, so that the rows shown first
/// and the rows shown last differ in their widest name.
fn many_names() -> Vec<(String, String, String)> {
    (0..40)
        .map(|i| {
            let name = if i == 35 {
                "a-much-longer-name-than-the-rest".to_owned()
            } else {
                format!("n{i:02}")
            };
            (name, format!("about thing {i:02}"), format!("Body {i}."))
        })
        .collect()
}

fn memory_with(w: u16, h: u16, items: &[(String, String, String)]) -> Harness {
    tui_harness::with_records(
        w,
        h,
        items
            .iter()
            .map(|(name, description, body)| project(name, description, body))
            .collect(),
    )
}

/// The display column at which `needle` starts on the first screen line holding it.
fn column_of(screen: &str, needle: &str) -> Option<usize> {
    screen.lines().find_map(|line| {
        line.find(needle)
            .map(|at| UnicodeWidthStr::width(&line[..at]))
    })
}

/// [`column_of`] on the list row of `name`.
fn row_column_of(screen: &str, name: &str, needle: &str) -> Option<usize> {
    let row = screen
        .lines()
        .find(|l| l.starts_with(&format!("│✓ {name} ")))?;
    column_of(row, needle)
}

/// [`column_of`] in the MEMORY.md pane (the lines below its title, right of its border).
fn index_column_of(screen: &str, needle: &str) -> Option<usize> {
    let title = screen.lines().position(|l| l.contains("MEMORY.md:"))?;
    let rest: Vec<&str> = screen.lines().skip(title + 1).collect();
    rest.iter().find_map(|line| {
        let at = line.rfind(needle)?;
        let border = line[..at].rfind('│')?;
        Some(UnicodeWidthStr::width(&line[border..at]))
    })
}

/// Item 12: the Manifest's (Topic files') columns are laid out for the whole list, so they do
/// not move as the list scrolls and a longer name comes into view.
#[test]
fn list_columns_hold_still_while_scrolling() {
    let items = many_names();
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = claude_topics(dir.path(), &items);
    let hosts: Vec<(&str, Harness)> = vec![
        (".memory", memory_with(100, 30, &items)),
        (
            "claude",
            claude_at(&folder, &dir.path().join("state"), 100, 30),
        ),
    ];
    for (format, mut h) in hosts {
        h.draw();
        let top = h.screen();
        let before =
            row_column_of(&top, "n00", "about thing 00").unwrap_or_else(|| panic!("{top}"));
        h.press(KeyCode::Char('G'));
        let bottom = h.screen();
        assert!(bottom.contains("│✓ a-much-longe"), "{format}: {bottom}");
        let after =
            row_column_of(&bottom, "n39", "about thing 39").unwrap_or_else(|| panic!("{bottom}"));
        assert_eq!(before, after, "{format}: {top}\n{bottom}");
    }
}

/// Item 12: at 80x24 a row's description has room to be read (the type column gives way).
#[test]
fn the_description_has_room_at_80x24() {
    let mut demo = Harness::demo(80, 24);
    demo.draw();
    let screen = demo.screen();
    let row = screen
        .lines()
        .find(|l| l.contains("prefers-tabs") && l.starts_with('│'))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(row.contains("User prefers tabs"), "{row}\n{screen}");

    let (_dir, mut h) = fixture_claude(80, 24);
    h.draw();
    let screen = h.screen();
    let row = screen
        .lines()
        .find(|l| l.contains("user_role") && l.starts_with('│'))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(row.contains("Dana leads the"), "{row}\n{screen}");
}

/// The MEMORY.md pane, focused, scrolled right by `steps` presses of `l`.
fn index_scrolled(h: &mut Harness, steps: usize) -> String {
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab);
    for _ in 0..steps {
        h.press(KeyCode::Char('l'));
    }
    h.screen()
}

/// Item 12: the MEMORY.md pane scrolls sideways by display columns, so a line with wide
/// characters moves as far as the others and nothing after them drifts.
#[test]
fn memory_md_scrolls_sideways_by_display_columns() {
    let items = vec![(
        "zh".to_owned(),
        "用户希望用简体中文回答问题 tail".to_owned(),
        "Body.".to_owned(),
    )];
    let mut h = memory_with(200, 30, &items);
    h.draw();
    let before = index_column_of(&h.screen(), " tail").expect("the line");
    let after_screen = index_scrolled(&mut h, 7);
    let after = index_column_of(&after_screen, " tail").unwrap_or_else(|| panic!("{after_screen}"));
    assert_eq!(before - after, 56, "{after_screen}");

    let (_dir, mut h) = fixture_claude(150, 45);
    h.draw();
    let before = index_column_of(&h.screen(), ".md) — 回答时").expect("the line");
    let after_screen = index_scrolled(&mut h, 1);
    let after =
        index_column_of(&after_screen, ".md) — 回答时").unwrap_or_else(|| panic!("{after_screen}"));
    assert_eq!(before - after, 8, "{after_screen}");
    // the wide character cut by the edge leaves a blank for its visible half
    assert!(
        after_screen.contains("   好](用户偏好.md)"),
        "{after_screen}"
    );
}

/// Item 4: the Topic files title counts the files with findings as the Manifest's does, and
/// Item 4: the Record pane lists the selected memory's findings, content ones included
/// The Proposals view's row of proposal `id`, without the column of the mark.
fn proposal_row(screen: &str, id: &str) -> String {
    let line = screen
        .lines()
        .find(|l| l.contains(id))
        .unwrap_or_else(|| panic!("{screen}"));
    line.chars().skip(2).collect()
}

/// A Claude Code folder (the fixture) with two proposals of new topic files, filed as the hook
/// or `memwb propose` would.
fn claude_with_two_proposals(dir: &Path, w: u16, hgt: u16) -> Harness {
    let folder = common::claude_memory_copy(dir);
    let mut h = claude_at(&folder, &dir.join("state"), w, hgt);
    let opened = h
        .app
        .backend
        .engine::<memwb::claude::ClaudeFolder>()
        .expect("a Claude Code folder")
        .clone();
    for stem in ["release-train", "on-call"] {
        let files = vec![memwb::claude::FileImage {
            file: format!("{stem}.md"),
            before: None,
            after: Some(format!(
                "---\nname: {stem}\ndescription: about {stem}\ntype: project\n---\n\nBody.\n"
            )),
        }];
        let new = memwb::formats::claude::journal::NewFiles {
            kind: memwb::review::proposal::images::kind_of(&files),
            files,
            origin: memwb::review::Origin::new("dedupe"),
            evidence: None,
        };
        memwb::formats::claude::journal::file_proposal(&opened, new).expect("filed");
    }
    h.review_tick();
    h
}

/// Item 9: `Space` marks the selected proposal and moves down; the marked row's other columns
/// stay where they were, and the hints and `?` name the key; on both formats.
#[test]
fn space_marks_without_moving_the_rows_columns() {
    for (w, hgt) in [(80, 24), (120, 36)] {
        let dir = tempfile::tempdir().expect("temp dir");
        let hosts = [
            (".memory", Harness::demo(w, hgt)),
            ("claude", claude_with_two_proposals(dir.path(), w, hgt)),
        ];
        for (format, mut h) in hosts {
            h.keys("p");
            assert!(h.app.proposals.rows.len() >= 2, "{format}: {}", h.screen());
            let first = h.app.proposals.rows[0].proposal.id.clone();
            let second = h.app.proposals.rows[1].proposal.id.clone();
            let before = h.screen();
            let hints = before.lines().last().unwrap_or("");
            assert!(hints.contains("Space mark"), "{format}: {hints}");
            h.press(KeyCode::Char(' '));
            let after = h.screen();
            assert!(after.contains("1 marked"), "{format}: {after}");
            assert_eq!(
                proposal_row(&before, &first),
                proposal_row(&after, &first),
                "{format}: {before}\n{after}"
            );
            let marked = after.lines().find(|l| l.contains(&first)).unwrap_or("");
            assert!(marked.starts_with("│*"), "{format}: {marked}");
            assert_eq!(
                h.app.proposals.selected, 1,
                "{format}: moved down to {second}"
            );
            h.keys("?");
            let help = h.screen();
            assert!(
                help.lines()
                    .any(|l| l.contains("Space") && l.contains("mark")),
                "{format}: {help}"
            );
        }
    }
}

/// The `(✗N )?(⚠N )?F` part of a list title: (errors, warnings).
fn title_counts(screen: &str, title: &str) -> (usize, usize) {
    let line = screen
        .lines()
        .find(|l| l.contains(title))
        .unwrap_or_else(|| panic!("{screen}"));
    let count = |mark: char| {
        line.split(mark)
            .nth(1)
            .map(|rest| {
                rest.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            })
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    assert!(line.contains(" F "), "{line}");
    (count('✗'), count('⚠'))
}

/// the count is the marks the rows show.
#[test]
fn the_topic_files_title_counts_findings() {
    let (_dir, mut h) = fixture_claude(150, 45);
    h.draw();
    let screen = h.screen();
    let (errors, warnings) = title_counts(&screen, "Topic files (9)");
    let rows = |mark: &str| {
        screen
            .lines()
            .filter(|l| l.starts_with(&format!("│{mark} ")))
            .count()
    };
    assert!(warnings > 0, "{screen}");
    assert_eq!((errors, warnings), (rows("✗"), rows("⚠")), "{screen}");

    let mut demo = Harness::demo(150, 45);
    demo.draw();
    let screen = demo.screen();
    let (errors, _) = title_counts(&screen, "Manifest (8)");
    assert_eq!(errors, 1, "{screen}");
}

/// (a secret redacted), each code apart from its message, on both formats.
#[test]
fn the_record_pane_lists_content_findings_apart_from_their_code() {
    let body = format!("We ship tomorrow.\nThe token is {}.", token());
    let items = vec![(
        "deploys".to_owned(),
        "how we deploy".to_owned(),
        body.clone(),
    )];
    let mut memory = memory_with(150, 45, &items);
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = claude_topics(dir.path(), &items);
    let claude = claude_at(&folder, &dir.path().join("state"), 150, 45);
    memory.draw();
    for (format, mut h) in [("Record", memory), ("Topic file", claude)] {
        h.draw();
        let screen = h.screen();
        // each format's pane title names one memory's file by its own noun
        assert!(
            screen.contains(&format!("{format}: deploys")),
            "{format}: {screen}"
        );
        for code in ["relative-date", "secret"] {
            let line = screen
                .lines()
                .find(|l| l.contains(&format!("{code}  ")))
                .unwrap_or_else(|| panic!("{format}: no {code}: {screen}"));
            let after = &line[line.find(code).expect("code") + code.len()..];
            assert!(after.starts_with("  "), "{format}: {line}");
        }
        assert!(!screen.contains(TOKEN_TAIL), "{format}: {screen}");
        assert!(!screen.contains(&token()[..12]), "{format}: {screen}");
    }
}

/// Item 12: both formats have one title line naming the format and the folder.
#[test]
fn both_formats_have_a_title_line_naming_the_folder() {
    let mut demo = Harness::demo(80, 24);
    demo.draw();
    let screen = demo.screen();
    let first = screen.lines().next().unwrap_or("");
    assert!(first.starts_with("memwb · .memory"), "{screen}");
    assert!(first.contains("<ws>"), "{screen}");

    let (_dir, mut h) = fixture_claude(80, 24);
    h.draw();
    let screen = h.screen();
    let first = screen.lines().next().unwrap_or("");
    assert!(
        first.starts_with("memwb · Claude Code auto memory"),
        "{screen}"
    );
    assert!(first.contains("<ws>"), "{screen}");
}

/// Item 12: `?` explains the marks of the lists and the `F` of the titles.
#[test]
fn the_help_has_a_legend_of_the_marks() {
    let (_dir, claude) = fixture_claude(100, 30);
    for (format, mut h) in [(".memory", Harness::demo(100, 30)), ("claude", claude)] {
        h.keys("?");
        h.press(KeyCode::Char('G'));
        let screen = h.screen();
        assert!(screen.contains("Marks"), "{format}: {screen}");
        for mark in ["✓ ", "✗ ", "⚠ ", "✂ ", "· ", "F "] {
            assert!(
                screen.lines().any(|l| l.contains(&format!("│  {mark}"))),
                "{format}: {mark} not explained: {screen}"
            );
        }
    }
}

/// Item 4: with the record's findings listed above its body, Enter on a finding in the
/// Findings view still scrolls the Record pane to the finding's line (its first row).
#[test]
fn a_jump_to_a_findings_line_counts_the_findings_rows() {
    let mut lines: Vec<String> = (1..=60).map(|i| format!("line {i} of the notes")).collect();
    lines[19] = "Run `scripts/gone.sh` first.".to_owned();
    let items = vec![(
        "long".to_owned(),
        "a long record".to_owned(),
        lines.join("\n"),
    )];
    let mut h = memory_with(100, 30, &items);
    h.keys("F");
    h.press(KeyCode::Enter);
    let screen = h.screen();
    let top = screen
        .lines()
        .skip_while(|l| !l.contains("Record: long"))
        .nth(1)
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(top.contains("Run `scripts/gone.sh` first."), "{screen}");
}

/// Item 4: a topic file past the load cut is `✂` in the list and says so in the Record pane.
#[test]
fn a_topic_file_past_the_cut_says_so_in_the_record_pane() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = common::claude_memory_copy(dir.path());
    let limits = LoadLimits {
        lines: 10,
        ..LoadLimits::default()
    };
    let mut h = Harness::claude(&folder, &dir.path().join("state"), limits, 150, 45);
    h.keys("/project_release");
    h.press(KeyCode::Enter);
    // the last match (another file's text names it too)
    h.press(KeyCode::Char('G'));
    let screen = h.screen();
    assert!(screen.contains("│✂ project_release"), "{screen}");
    assert!(screen.contains("Topic file: project_release"), "{screen}");
    assert!(
        screen.contains("✂ not loaded: its MEMORY.md entry is past the load cut"),
        "{screen}"
    );
}
