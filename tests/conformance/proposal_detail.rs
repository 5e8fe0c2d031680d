//! The Proposals view's detail, drawn from a proposal's change on both formats: a merge and an
//! extraction imported alike read alike, line for line but for the files each format names
//! (a `.memory` plan's new record has none until it is approved).

use crossterm::event::KeyCode;
use memwb::store::IoHooks;

use super::{add, workbench_sized};
use crate::common::formats::{BOTH, Folder};
use crate::tui_harness::Harness;

const MERGE: &str = r#"{"source_names":["alpha","beta"],"records":[{"name":"gamma","type":"project","description":"alpha and beta","body":"Alpha's body.\nBeta's body."}]}"#;
const EXTRACTION: &str =
    r#"[{"name":"delta","type":"project","description":"a new fact","body":"Delta."}]"#;

/// Selects proposal `id` in the Proposals view.
fn select(h: &mut Harness, id: &str) {
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
    panic!("{id} not listed: {}", h.screen());
}

/// The detail box's text below its first line (which carries the time it was filed), without
/// the files it names (each format names its own).
fn detail(screen: &str, id: &str) -> Vec<String> {
    let mut lines = screen
        .lines()
        .skip_while(|l| !l.contains(&format!("Proposal {id}")))
        .skip(2)
        .take_while(|l| !l.starts_with('└'))
        .map(|l| l.trim_matches('│').trim_end().to_owned());
    let mut kept = Vec::new();
    let mut in_files = false;
    for line in lines.by_ref() {
        if line == "files:" {
            in_files = true;
            continue;
        }
        if in_files && line.starts_with("  ") {
            continue;
        }
        in_files = false;
        kept.push(line);
    }
    // the box's empty rows below the text
    while kept.last().is_some_and(String::is_empty) {
        kept.pop();
    }
    kept
}

#[test]
fn a_merge_and_an_extraction_read_alike_in_the_proposals_detail_on_both_formats() {
    let mut drawn = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        folder.ok(&add("beta", "Beta's body."));
        folder.ok(&add("epsilon", "Epsilon's body."));
        let merged = folder.ok_with(&["propose", "import", "-"], MERGE);
        let added = folder.ok_with(&["propose", "import", "-"], EXTRACTION);
        let mut h = workbench_sized(&folder, IoHooks::default(), (120, 60));
        h.keys("p");
        let mut details = Vec::new();
        for id in [merged.trim(), added.trim()] {
            select(&mut h, id);
            let screen = h.screen();
            let lines = detail(&screen, id);
            let text = lines.join("\n");
            details.push((lines, screen));
            assert!(
                !text.is_empty(),
                "{format:?}: {}",
                details[details.len() - 1].1
            );
        }
        let (merge, screen) = &details[0];
        for said in [
            "replaces    alpha, beta",
            "keeps       epsilon",
            "▶ memory 1/1: gamma",
            "── proposed memory, whole",
            "description alpha and beta",
            "── alpha → gamma",
            "── beta → gamma",
            "description [-what-]{+alpha+} [-it-]{+and+} [-is about-]{+beta+}",
        ] {
            assert!(
                merge.iter().any(|l| l == said),
                "{format:?}: no {said:?} in the merge's detail: {screen}"
            );
        }
        let (extraction, screen) = &details[1];
        for said in [
            "adds        delta",
            "keeps       all 3 memories",
            "▶ memory 1/1: delta",
            "── new memory",
            "description a new fact",
            "Delta.",
        ] {
            assert!(
                extraction.iter().any(|l| l == said),
                "{format:?}: no {said:?} in the extraction's detail: {screen}"
            );
        }
        drawn.push((format, details));
    }
    let (memory, claude) = (&drawn[0], &drawn[1]);
    for ((on_one, screen), (on_other, other)) in memory.1.iter().zip(&claude.1) {
        assert_eq!(
            on_one, on_other,
            "{:?} and {:?} differ:\n{screen}\n{other}",
            memory.0, claude.0
        );
    }
}

const REPLACE_ALPHA: &str = r#"{"source_names":["alpha"],"records":[{"name":"alpha","type":"project","description":"what it is about","body":"Alpha, as proposed."}]}"#;

/// The lines of a detail from its "as proposed → now" heading to the next line that is not
/// the diff's (what the proposal does: "replaces …").
fn as_proposed_against_now(detail: &[String]) -> Vec<String> {
    detail
        .iter()
        .skip_while(|l| !l.ends_with(": as proposed → now"))
        .take_while(|l| !l.starts_with("replaces"))
        .cloned()
        .collect()
}

/// A proposal whose source is changed outside the workbench after it was filed turns stale on
/// reload, and its detail shows that source as the proposal read it against the memory as it
/// is now, word by word, in the same lines on both formats (whatever each kept of the source:
/// a record's fields, a whole file); while it is ready there is no such diff.
#[test]
fn a_stale_proposal_shows_its_changed_source_as_proposed_against_now_on_both_formats() {
    let mut drawn = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        folder.ok(&add("beta", "Beta's body."));
        let id = folder
            .ok_with(&["propose", "import", "-"], REPLACE_ALPHA)
            .trim()
            .to_owned();
        let mut h = workbench_sized(&folder, IoHooks::default(), (120, 60));
        h.keys("p");
        select(&mut h, &id);
        let screen = h.screen();
        let ready = detail(&screen, &id);
        assert!(
            as_proposed_against_now(&ready).is_empty() && !screen.contains("⚠ stale"),
            "{format:?}: a ready proposal has no source that moved on: {screen}"
        );

        folder.ok(&["set", "alpha", "--body", "Alpha, edited meanwhile."]);
        h.ctrl('r');
        select(&mut h, &id);
        let screen = h.screen();
        let stale = detail(&screen, &id);
        assert!(
            stale
                .iter()
                .any(|l| l == "⚠ stale     \"alpha\" was changed since it was proposed"),
            "{format:?}: {screen}"
        );
        let diff = as_proposed_against_now(&stale);
        assert_eq!(
            diff.first().map(String::as_str),
            Some("── source alpha: as proposed → now"),
            "{format:?}: {screen}"
        );
        assert!(
            diff.iter()
                .any(|l| l == "[-Alpha's-]{+Alpha, edited+} [-body.-]{+meanwhile.+}"),
            "{format:?}: the outside edit is shown: {screen}"
        );
        drawn.push((format, diff, screen));
    }
    let (memory, claude) = (&drawn[0], &drawn[1]);
    assert_eq!(
        memory.1, claude.1,
        "{:?} and {:?} differ:\n{}\n{}",
        memory.0, claude.0, memory.2, claude.2
    );
}
