//! The Findings view (`F`) and the Manifest's finding marks: what `check` finds in the open
//! set, grouped by severity and code (snapshots); Enter jumps to the record and line; `f`
//! files the fix as a proposal and applies nothing, or opens the editor for a stale path; no
//! full secret is ever drawn. The engine and the audit run for real on temporary workspaces.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::review::proposal;
use memwb::store::{MemoryType, Record, Store, StoreOptions};
use memwb::tui::app::View;
use memwb::tui::panes::{Component, Pane};
use tui_harness::Harness;

const SIZES: [(u16, u16); 2] = [(100, 30), (80, 24)];

/// A token of GitHub's shape; never drawn whole.
fn token() -> String {
    format!("ghp_{}", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5")
}

fn record(name: &str, kind: MemoryType, description: &str, body: &str) -> Record {
    Record::new(name, kind, description, body).expect("valid")
}

/// A set with a credential, a stale path, two near-duplicates and a clean record.
fn audited(w: u16, hgt: u16) -> Harness {
    seeded(
        w,
        hgt,
        vec![
            record(
                "ci-secrets",
                MemoryType::Reference,
                "where the CI token lives",
                &format!(
                    "The pipeline reads the token from the vault.\nCI token: {}\nRotate it yearly.",
                    token()
                ),
            ),
            record(
                "test-command",
                MemoryType::Project,
                "how tests are run",
                "Run `scripts/test.sh` before pushing.\nThe entry point is `src/main.rs`.",
            ),
            record(
                "deploy-main",
                MemoryType::Feedback,
                "deploys go out from main only",
                "Deploy from main only.",
            ),
            record(
                "deploy-main-only",
                MemoryType::Feedback,
                "deploys go out from main only, never branches",
                "Only main is deployed.",
            ),
            record(
                "tabs",
                MemoryType::User,
                "indentation with tabs",
                "Indent with tabs.",
            ),
        ],
    )
}

/// A workspace holding `records` under fixed file names (`<name>-1.md`), written byte for byte
/// as the engine writes them, so that snapshots do not depend on generated names; and a
/// `src/main.rs`, a path that exists.
fn seeded(w: u16, hgt: u16, records: Vec<Record>) -> Harness {
    let dir = tempfile::TempDir::new().expect("tmp");
    let workspace = dir.path().join("ws");
    let folder = workspace.join(".memory");
    std::fs::create_dir_all(&folder).expect("mkdir");
    std::fs::create_dir_all(workspace.join("src")).expect("mkdir");
    std::fs::write(workspace.join("src/main.rs"), "fn main() {}\n").expect("write");
    let files: Vec<String> = records
        .iter()
        .map(|r| format!("{}-1.md", r.name()))
        .collect();
    for (file, record) in files.iter().zip(&records) {
        std::fs::write(folder.join(file), record.to_file_text()).expect("write record");
    }
    let index = memwb::store::index::render(files.iter().map(String::as_str).zip(&records));
    std::fs::write(folder.join("MEMORY.md"), index).expect("write index");
    std::fs::write(
        folder.join("manifest.json"),
        memwb::store::manifest::render(&files),
    )
    .expect("write manifest");
    let h = Harness::open(workspace, Some(dir), w, hgt, StoreOptions::default());
    assert_eq!(h.inspection().findings(), Vec::new(), "a well-formed set");
    h
}

fn other(h: &Harness) -> Store {
    Store::open(&h.workspace, StoreOptions::default()).expect("open")
}

fn assert_no_secret(h: &Harness) {
    let screen = h.screen();
    assert!(
        !screen.contains(&token()),
        "the full token was drawn:\n{screen}"
    );
    // Not even most of it.
    assert!(!screen.contains(&token()[..12]), "{screen}");
}

/// Selects the finding with `code` (and `name`, when given) in the Findings view.
fn select(h: &mut Harness, code: &str, name: Option<&str>) {
    h.press(KeyCode::Char('g'));
    for _ in 0..40 {
        if let Some(c) = h.app.findings.selected_finding()
            && c.finding.code == code
            && (name.is_none() || c.name.as_deref() == name)
        {
            return;
        }
        h.press(KeyCode::Char('j'));
    }
    panic!("no {code} finding listed");
}

fn proposal_count(h: &Harness) -> usize {
    proposal::list(&other(h)).expect("list").len()
}

#[test]
fn the_findings_view_groups_by_severity_and_code_and_draws_no_secret() {
    for (w, hgt) in SIZES {
        let mut h = audited(w, hgt);
        h.keys("F");
        assert_eq!(h.app.view, View::Findings);
        let screen = h.screen();
        assert_no_secret(&h);
        assert!(screen.contains("ghp_…"), "{screen}");
        // Errors before warnings, each group under its heading.
        let error = screen.find("✗ error secret (1)").expect("secret group");
        let warning = screen.find("⚠ warning").expect("a warning group");
        assert!(error < warning, "{screen}");
        insta::assert_snapshot!(format!("findings_{w}x{hgt}"), screen);
        // The detail of every finding is drawn without the secret, too.
        for _ in 0..h.app.findings.rows() {
            h.press(KeyCode::Char('j'));
            assert_no_secret(&h);
        }
        h.press(KeyCode::Esc);
        assert_eq!(h.app.view, View::Panes);
    }
}

#[test]
fn the_manifest_marks_records_with_findings() {
    for (w, hgt) in SIZES {
        let h = audited(w, hgt);
        let marks = &h.app.manifest.marks;
        let file_of = |name: &str| {
            h.inspection()
                .entries
                .iter()
                .find(|e| e.record().is_some_and(|r| r.name() == name))
                .map(|e| e.file.clone())
                .expect("listed")
        };
        assert_eq!(
            marks.get(&file_of("ci-secrets")),
            Some(&memwb::finding::Severity::Error)
        );
        assert_eq!(
            marks.get(&file_of("test-command")),
            Some(&memwb::finding::Severity::Warning)
        );
        assert_eq!(marks.get(&file_of("tabs")), None);
        let screen = h.screen();
        assert_no_secret(&h);
        insta::assert_snapshot!(format!("findings_marks_{w}x{hgt}"), screen);
    }
}

#[test]
fn enter_jumps_to_the_record_and_line_with_the_secret_redacted() {
    let mut h = audited(100, 30);
    h.keys("F");
    select(&mut h, "secret", None);
    let line = h
        .app
        .findings
        .selected_finding()
        .and_then(|c| c.finding.line)
        .expect("a line");
    h.press(KeyCode::Enter);
    assert_eq!(h.app.view, View::Panes);
    assert_eq!(h.app.focus, Pane::Record);
    assert_eq!(
        h.app
            .selected_name_and_file()
            .map(|(name, _)| name)
            .as_deref(),
        Some("ci-secrets")
    );
    let status = h.app.status.clone().expect("status").text;
    assert_eq!(status, format!("jumped to ci-secrets, line {line}"));
    let screen = h.screen();
    assert!(screen.contains("CI token: [REDACTED]"), "{screen}");
    assert_no_secret(&h);
    // The record file itself is untouched: the pane only draws it redacted.
    let stored = other(&h).records().expect("reads");
    assert!(stored.iter().any(|r| r.body().contains(&token())));
}

#[test]
fn enter_scrolls_the_record_pane_to_the_line() {
    let body: Vec<String> = (1..=40).map(|i| format!("line {i} of the notes")).collect();
    let mut body = body.join("\n");
    body.push_str("\nRun `scripts/gone.sh` at the end.");
    let mut h = seeded(
        80,
        24,
        vec![record("long", MemoryType::Project, "a long record", &body)],
    );
    h.keys("F");
    select(&mut h, "stale-path", Some("long"));
    h.press(KeyCode::Enter);
    assert_eq!(h.app.focus, Pane::Record);
    let screen = h.screen();
    assert!(
        screen.contains("Run `scripts/gone.sh` at the end."),
        "{screen}"
    );
    assert!(!screen.contains("line 1 of the notes"), "{screen}");
}

#[test]
fn f_files_the_redaction_proposal_and_applies_nothing() {
    let mut h = audited(100, 30);
    let before = other(&h).records().expect("reads");
    h.keys("F");
    select(&mut h, "secret", None);
    h.keys("f");
    let filed = proposal::list(&other(&h)).expect("list");
    assert_eq!(filed.len(), 1, "one proposal filed");
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.starts_with(&format!("new proposal: {}", filed[0].id)),
        "{status}"
    );
    assert_eq!(
        other(&h).records().expect("reads"),
        before,
        "nothing applied"
    );
    // The proposal holds the redacted record, and no copy of the value.
    let text = std::fs::read_to_string(
        h.root()
            .join(".memwb/proposals")
            .join(format!("{}.json", filed[0].id)),
    )
    .expect("proposal file");
    assert!(text.contains("[REDACTED]"));
    assert!(!text.contains(&token()));
    assert_no_secret(&h);
}

#[test]
fn f_files_the_dedupe_proposal_for_a_duplicate() {
    let mut h = audited(100, 30);
    let before = other(&h).records().expect("reads");
    h.keys("F");
    select(&mut h, "duplicate", Some("deploy-main"));
    h.keys("f");
    let filed = proposal::list(&other(&h)).expect("list");
    assert_eq!(filed.len(), 1);
    assert_eq!(filed[0].origin.source, "dedupe");
    assert_eq!(
        other(&h).records().expect("reads"),
        before,
        "nothing applied"
    );
}

#[test]
fn f_on_a_stale_path_opens_the_record_in_the_editor() {
    let mut h = audited(100, 30);
    h.keys("F");
    select(&mut h, "stale-path", Some("test-command"));
    h.keys("f");
    let editor = h.app.editor.as_ref().expect("the editor is open");
    assert_eq!(editor.opened_name(), Some("test-command"));
    assert_eq!(h.app.view, View::Panes);
    assert_eq!(proposal_count(&h), 0, "nothing filed");
}

#[test]
fn f_on_a_finding_without_a_fix_files_nothing() {
    let mut h = seeded(
        100,
        30,
        vec![record(
            "aws-docs",
            MemoryType::Reference,
            "the AWS example key",
            "The docs use AKIAIOSFODNN7EXAMPLE everywhere.",
        )],
    );
    h.keys("F");
    select(&mut h, "secret-example", None);
    h.keys("f");
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.contains("f is not available now: the finding has no fix to file"),
        "{status}"
    );
    assert_eq!(proposal_count(&h), 0);
}

#[test]
fn the_findings_follow_a_change_to_the_set() {
    let mut h = audited(100, 30);
    let secrets = |h: &Harness| {
        h.app.findings.report.as_ref().map(|r| {
            r.findings
                .iter()
                .filter(|c| c.finding.code == "secret")
                .count()
        })
    };
    assert_eq!(secrets(&h), Some(1));
    let store = other(&h);
    let current = store
        .records()
        .expect("reads")
        .into_iter()
        .find(|r| r.name() == "ci-secrets")
        .expect("there");
    let clean = record(
        "ci-secrets",
        MemoryType::Reference,
        "where the CI token lives",
        "The pipeline reads the token from the vault.",
    );
    store.replace(&current, clean).expect("replace");
    h.watcher_tick();
    assert_eq!(secrets(&h), Some(0));
    assert!(!h.app.findings.running);
}

#[test]
fn on_a_claude_code_folder_the_findings_list_jumps_f_files_the_redaction_and_draws_no_secret() {
    let dir = tempfile::TempDir::new().expect("tmp");
    let folder = dir.path().join("memory");
    std::fs::create_dir_all(&folder).expect("mkdir");
    std::fs::write(
        folder.join("MEMORY.md"),
        "- [CI secrets](reference_ci.md) — where the CI token lives\n- [Tabs](user_tabs.md) — indentation\n",
    )
    .expect("index");
    std::fs::write(
        folder.join("reference_ci.md"),
        format!(
            "---\nname: CI secrets\ndescription: where the CI token lives\ntype: reference\n---\n\nThe pipeline reads it from the vault.\nCI token: {}\n",
            token()
        ),
    )
    .expect("topic");
    std::fs::write(
        folder.join("user_tabs.md"),
        "---\nname: Tabs\ndescription: indentation\ntype: user\n---\n\nIndent with tabs.\n",
    )
    .expect("topic");
    let mut h = Harness::claude(
        &folder,
        &dir.path().join("state"),
        memwb::claude::LoadLimits::default(),
        100,
        30,
    );
    h.keys("F");
    assert_eq!(h.app.view, View::Findings);
    assert!(h.screen().contains("✗ error secret (1)"), "{}", h.screen());
    assert_no_secret(&h);
    select(&mut h, "secret", None);
    let before = std::fs::read(folder.join("reference_ci.md")).expect("read");
    h.keys("f");
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.contains("new proposal: ") && status.contains("p shows it"),
        "{status}"
    );
    assert_eq!(
        std::fs::read(folder.join("reference_ci.md")).expect("read"),
        before,
        "f files the redaction and writes nothing in the folder"
    );
    let claude_folder =
        memwb::claude::ClaudeFolder::open(&folder, memwb::claude::LoadLimits::default())
            .expect("open")
            .with_state_root(dir.path().join("state"));
    let filed = memwb::formats::claude::journal::list(&claude_folder)
        .expect("list")
        .proposals;
    assert_eq!(filed.len(), 1, "one redaction proposal");
    assert_eq!(filed[0].kind, proposal::Kind::Edit);
    let after = filed[0].files[0].after.clone().expect("an after image");
    assert!(after.contains("CI token: [REDACTED]"), "{after}");
    assert!(!after.contains(&token()[..12]), "{after}");
    h.keys("f");
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.contains("nothing to propose"),
        "filed once: {status}"
    );
    assert_no_secret(&h);
    h.press(KeyCode::Enter);
    assert_eq!(h.app.view, View::Panes);
    assert_eq!(h.app.focus, Pane::Record);
    assert_eq!(
        h.app.selected_topic_file().as_deref(),
        Some("reference_ci.md")
    );
    let screen = h.screen();
    assert!(screen.contains("CI token: [REDACTED]"), "{screen}");
    assert!(
        screen.contains("✗ CI secrets"),
        "the topic's mark: {screen}"
    );
    assert_no_secret(&h);
}

#[test]
fn the_sets_view_counts_the_errors_and_warnings_of_the_whole_check() {
    let h = audited(100, 30);
    let options = memwb::formats::OpenOptions::default();
    let sets = memwb::tui::run::find_sets(std::slice::from_ref(&h.workspace), &options);
    let root = h.root().display().to_string();
    let row = sets
        .iter()
        .find(|s| s.path == root)
        .expect("the set is found");
    // The secret, then the two duplicates and the stale path: the content audit's, which
    // the folder's own check (0 and 0 for this well-formed set) does not see.
    assert_eq!((row.errors, row.warnings), (1, 3));
    let structural = memwb::formats::Open::from(other(&h)).backend().summary();
    assert_eq!((structural.errors, structural.warnings), (0, 0));
}

/// Issue 26 item 10: the Findings view lists errors first and filters with `/` (severity,
/// code, record, file or message); a letter that is no key there starts the filter too.
#[test]
fn the_findings_view_filters_by_severity_and_code() {
    let mut h = audited(100, 30);
    h.keys("F");
    let screen = h.screen();
    let error = screen.find("✗ error").expect("an error group");
    let warning = screen.find("⚠ warning").expect("a warning group");
    assert!(error < warning, "errors first: {screen}");
    h.keys("/warning");
    h.press(KeyCode::Enter);
    let screen = h.screen();
    assert!(!screen.contains("✗ error"), "{screen}");
    assert!(screen.contains("⚠ warning"), "{screen}");
    assert!(
        screen.contains("/warning"),
        "the filter is in the title: {screen}"
    );
    h.press(KeyCode::Char('/'));
    h.press(KeyCode::Esc);
    assert!(
        h.screen().contains("✗ error"),
        "Esc clears it: {}",
        h.screen()
    );
    // typing starts the filter: "secret" is no key of the Findings view
    h.keys("secret");
    let screen = h.screen();
    assert!(screen.contains("/secret"), "{screen}");
    assert!(!screen.contains("⚠ warning"), "{screen}");
    assert_no_secret(&h);
}

/// Issue 26 item 10: `f` on either finding of a duplicate group files the group's dedupe, and
/// `p` then opens on the proposal just filed.
#[test]
fn f_on_either_twin_files_the_groups_fix_and_p_opens_on_it() {
    for name in ["deploy-main", "deploy-main-only"] {
        let mut h = audited(100, 30);
        // another proposal first, so that the one filed is not the first listed
        h.keys("F");
        select(&mut h, "secret", None);
        h.keys("f");
        select(&mut h, "duplicate", Some(name));
        assert!(
            !h.screen().contains("none: a person decides"),
            "{name}: {}",
            h.screen()
        );
        h.keys("f");
        let filed = proposal::list(&other(&h)).expect("list");
        assert_eq!(filed.len(), 2, "{name}: {}", h.screen());
        let dedupe = filed
            .iter()
            .find(|p| p.origin.source == "dedupe")
            .expect("the dedupe is filed");
        h.keys("p");
        assert_eq!(
            h.app
                .proposals
                .selected_row()
                .map(|r| r.proposal.id.clone()),
            Some(dedupe.id.clone()),
            "p opens on what was just filed"
        );
    }
}

/// Issue 26 item 10: the stale-path fix says which path it is about.
#[test]
fn the_stale_path_fix_names_the_path() {
    let mut h = audited(100, 30);
    h.keys("F");
    select(&mut h, "stale-path", Some("test-command"));
    h.keys("f");
    assert!(h.app.editor.is_some());
    let status = h.app.status.clone().expect("status").text;
    assert!(status.contains("scripts/test.sh"), "{status}");
}
