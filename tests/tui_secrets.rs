//! The workbench draws credentials redacted in every view of memory text: a file in `.memory`
//! that the manifest does not list (with a broken manifest, that is every record file), and a
//! record file that does not parse. Tokens are synthetic, assembled at run time.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::store::{MemoryType, Record};
use tui_harness::Harness;

fn token() -> String {
    ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat()
}

fn seeded() -> Harness {
    let mut h = Harness::empty(120, 40);
    h.store()
        .extend(vec![
            Record::new("alpha", MemoryType::Project, "tabs", "Indent with tabs.").expect("valid"),
        ])
        .expect("seed");
    h.watcher_tick();
    h
}

#[test]
fn an_unlisted_file_is_drawn_with_its_credentials_redacted() {
    let mut h = seeded();
    let draft = Record::new(
        "old-draft",
        MemoryType::Project,
        format!("deploy key {}", token()),
        format!("push with {}", token()),
    )
    .expect("valid");
    std::fs::write(
        h.root().join("old-draft-0badf00d.md"),
        memwb::store::codec::serialize(&draft),
    )
    .expect("unlisted");
    h.watcher_tick();
    h.select_stray("old-draft-0badf00d.md");
    let mut screens = vec![h.screen()];
    h.press(KeyCode::Tab);
    h.press(KeyCode::Char('G'));
    screens.push(h.screen());
    let all = screens.concat();
    assert!(all.contains("old-draft"), "{all}");
    assert!(all.contains("[REDACTED]"), "{all}");
    assert!(!all.contains(&token()), "the token is drawn: {all}");
    assert!(
        !all.contains(&token()[..12]),
        "part of the token is drawn: {all}"
    );
}

#[test]
fn a_redaction_proposal_is_diffed_redacted_and_says_what_it_redacts() {
    use memwb::formats::memory::journal::{NewProposal, file as file_proposal};
    use memwb::redact::records::redact_record;
    use memwb::redact::redaction_evidence;
    use memwb::review::Origin;
    use memwb::session::Plan;

    let mut h = seeded();
    let leaky = Record::new(
        "leaky",
        MemoryType::Project,
        "the CI token",
        format!("CI token: {}", token()),
    )
    .expect("valid");
    let store = h.store();
    store.extend(vec![leaky.clone()]).expect("seed");
    file_proposal(
        &store,
        NewProposal {
            plan: Plan::Consolidation {
                source_names: vec!["leaky".into()],
                records: vec![redact_record(&leaky).expect("redactable")],
            },
            origin: Origin::new("audit"),
            seen: store.read().expect("read"),
            additions: Vec::new(),
            evidence: Some(redaction_evidence(&leaky.to_file_text())),
        },
    )
    .expect("file");
    h.watcher_tick();
    h.review_tick();
    h.press(KeyCode::Char('p'));
    let screen = h.screen();
    assert!(
        screen.contains("redact leaky: github-token on line 7"),
        "{screen}"
    );
    assert!(!screen.contains("replace leaky with leaky"), "{screen}");
    assert!(
        !screen.contains(&token()[..12]),
        "the token is drawn: {screen}"
    );
    assert!(
        !screen.contains("as proposed → now"),
        "the redacted copy is not a change: {screen}"
    );
}

/// The MEMORY.md pane redacts a line when it first draws it, not when the set is read (issue
/// 27): a token pasted far down a drifted index is redacted once scrolled to, and a line
/// holding escape sequences is drawn safe.
#[test]
fn memory_md_lines_are_drawn_redacted_wherever_they_are_scrolled_to() {
    let mut h = seeded();
    let index = std::fs::read_to_string(h.root().join("MEMORY.md")).expect("index");
    let filler: String = (0..80).map(|i| format!("- filler line {i}\n")).collect();
    std::fs::write(
        h.root().join("MEMORY.md"),
        format!(
            "{index}{filler}- bot token {}\n- \u{1b}[31mred\u{1b}[0m\n",
            token()
        ),
    )
    .expect("index");
    h.watcher_tick();
    let mut screens = vec![h.screen()];
    while h.app.focus != memwb::tui::panes::Pane::Index {
        h.press(KeyCode::Tab);
    }
    for _ in 0..30 {
        h.press(KeyCode::Char('j'));
        h.press(KeyCode::Char('j'));
        h.press(KeyCode::Char('j'));
        screens.push(h.screen());
    }
    let all = screens.concat();
    assert!(all.contains("- bot token [REDACTED]"), "{all}");
    assert!(!all.contains(&token()[..12]), "the token is drawn: {all}");
    assert!(!all.contains('\u{1b}'), "an escape sequence is drawn raw");
}

/// A Claude Code folder's MEMORY.md is drawn redacted too (it was only made safe to print).
#[test]
fn a_claude_code_memory_md_line_is_drawn_redacted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().join("memory");
    std::fs::create_dir(&folder).expect("folder");
    std::fs::write(
        folder.join("MEMORY.md"),
        format!(
            "- [deploy](deploy.md) \u{2014} how deploys run\n- bot token {}\n",
            token()
        ),
    )
    .expect("index");
    std::fs::write(
        folder.join("deploy.md"),
        "---\nname: deploy\ndescription: how deploys run\ntype: project\n---\n\nStaging first.\n",
    )
    .expect("topic");
    let mut h = Harness::claude(
        &folder,
        &dir.path().join("state"),
        memwb::claude::LoadLimits::default(),
        150,
        45,
    );
    let mut screens = vec![h.screen()];
    for _ in 0..6 {
        h.press(KeyCode::Tab);
        screens.push(h.screen());
    }
    let all = screens.concat();
    assert!(all.contains("- bot token [REDACTED]"), "{all}");
    assert!(!all.contains(&token()[..12]), "the token is drawn: {all}");
}

/// A Claude Code memory whose name holds a credential (written by the agent: memwb refuses
/// such a name) is named redacted by the summary of an undo, which reads the file as it is
/// now: on the workbench's status line, in `memwb undo`'s answer and in `log`, and said as
/// the one memory it changed (not as one renamed to itself, its redacted copy in the journal
/// against its text on disk). A `.memory` name is a slug and cannot hold one.
#[cfg(feature = "cli")]
#[test]
fn an_undo_names_a_memory_whose_name_holds_a_credential_redacted() {
    use crate::common::formats::{Folder, Format};
    let token = token();
    let folder = Folder::new(Format::Claude);
    let name = format!("deploy {token}");
    let write_topic = |body: &str| {
        let topic = format!(
            "---\nname: {name}\ndescription: how we deploy\ntype: project\n---\n\n{body}\n"
        );
        std::fs::write(folder.root().join("deploy.md"), topic).expect("topic file");
    };
    std::fs::write(
        folder.root().join("MEMORY.md"),
        "- [deploy](deploy.md) — how we deploy\n",
    )
    .expect("MEMORY.md");
    write_topic("Steps.");
    folder.ok(&["set", &name, "--body", "New steps."]);
    let said = folder.ok(&["undo"]);
    assert_eq!(
        said.lines().next(),
        Some("undid #1 (set) as #2: changed deploy [REDACTED]"),
        "{said}"
    );

    write_topic("Steps again.");
    folder.ok(&["set", &name, "--body", "Newer steps."]);
    let mut h = Harness::claude(
        &folder.root(),
        folder.state.path(),
        memwb::claude::LoadLimits::default(),
        120,
        40,
    );
    h.keys("H");
    h.keys("u");
    h.keys("y");
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.starts_with("undo #3: written (changed deploy [REDACTED])"),
        "{status}"
    );
    for shown in [
        status,
        h.screen(),
        folder.ok(&["log"]),
        folder.ok(&["log", "--json"]),
    ] {
        assert!(!shown.contains(&token), "{shown}");
    }
}
