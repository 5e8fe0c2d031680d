//! Proposals on a Claude Code folder: filed from outside, listed, approved, rejected, stale,
//! rebased (`e` on a proposal is the conformance suite's, `conformance::proposal_edit`).

use super::*;

/// Files a proposal for the open folder as another process would (the hook, `memwb propose`),
/// and sends what the watcher reports for it.
fn file_from_outside(h: &mut Harness, files: Vec<FileImage>) -> String {
    let folder = h
        .app
        .backend
        .engine::<memwb::claude::ClaudeFolder>()
        .expect("a Claude Code folder")
        .clone();
    let new = NewFiles {
        kind: images::kind_of(&files),
        files,
        origin: Origin::new("dedupe"),
        evidence: Some("filed by the test".into()),
    };
    let id = journal::file_proposal(&folder, new).expect("filed").id;
    h.review_tick();
    id
}

/// Every file under the Claude Code folder (subfolders too), sorted, with its bytes.
fn every_file(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).expect("list") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let name = path
                    .strip_prefix(root)
                    .expect("inside")
                    .display()
                    .to_string();
                out.push((name, std::fs::read(&path).expect("read")));
            }
        }
    }
    let root = dir.join("memory");
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    files.sort();
    assert!(
        files.iter().any(|(name, _)| name == "MEMORY.md"),
        "{files:?}"
    );
    files
}

/// A credential, built here so that no scanner flags this file.
fn token() -> String {
    ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat()
}

fn new_topic() -> String {
    format!(
        "---\nname: release-train\ndescription: we ship every second Tuesday\ntype: project\n---\n\nReleases leave on the second Tuesday; token {} stays out.\n",
        token()
    )
}

#[test]
fn a_proposal_filed_from_outside_is_listed_shown_approved_and_undone() {
    let (dir, mut h) = open(LoadLimits::default());
    let index_before = read(dir.path(), "MEMORY.md").expect("index");
    h.keys("p");
    assert_eq!(h.app.view, View::Proposals);
    let id = file_from_outside(
        &mut h,
        vec![FileImage {
            file: "project_release_train.md".into(),
            before: None,
            after: Some(new_topic()),
        }],
    );
    let screen = h.screen();
    assert!(screen.contains(&format!("new proposal: {id}")), "{screen}");
    assert!(screen.contains(&id), "{screen}");
    assert!(screen.contains("add release-train"), "{screen}");
    // the file it writes, and the memory in it whole, the credential redacted when it was filed
    assert!(
        screen.contains("project_release_train.md (new file)"),
        "{screen}"
    );
    assert!(screen.contains("── new memory"), "{screen}");
    assert!(
        screen.contains("Releases leave on the second Tuesday; token [REDACTED] stays out."),
        "{screen}"
    );
    assert!(!screen.contains(&token()), "{screen}");
    assert!(
        read(dir.path(), "project_release_train.md").is_none(),
        "nothing written before approval"
    );

    // a asks first; n leaves everything as it was
    h.keys("a");
    assert!(h.app.modal.is_some(), "{}", h.screen());
    h.keys("n");
    assert!(read(dir.path(), "project_release_train.md").is_none());
    h.keys("a");
    h.keys("y");
    let written = read(dir.path(), "project_release_train.md").expect("written");
    assert!(written.contains("second Tuesday"), "{written}");
    assert!(!written.contains(&token()), "{written}");
    let index = read(dir.path(), "MEMORY.md").expect("index");
    assert!(
        index
            .lines()
            .any(|l| l.contains("[release-train](project_release_train.md)")),
        "{index}"
    );
    assert!(
        h.screen().contains(&format!("approve {id}: written")),
        "{}",
        h.screen()
    );
    let row = h.app.proposals.rows.iter().find(|r| r.proposal.id == id);
    assert_eq!(
        row.map(|r| r.proposal.status),
        Some(memwb::review::ProposalStatus::Approved)
    );

    // History shows the approval; undoing it restores both files' exact bytes
    h.keys("H");
    assert_eq!(h.app.view, View::History);
    assert_eq!(h.app.review.journal.len(), 1);
    assert_eq!(h.app.review.journal[0].op, memwb::review::Op::Approve);
    h.keys("u");
    h.keys("y");
    assert!(read(dir.path(), "project_release_train.md").is_none());
    assert_eq!(read(dir.path(), "MEMORY.md"), Some(index_before));
    assert_eq!(h.app.review.journal.len(), 2);
}

#[test]
fn a_rejection_keeps_its_reason_and_the_folder_byte_identical() {
    let (dir, mut h) = open(LoadLimits::default());
    let role = read(dir.path(), "user_role.md").expect("file");
    let id = file_from_outside(
        &mut h,
        vec![FileImage {
            file: "user_role.md".into(),
            before: Some(role.clone()),
            after: Some(format!("{role}Now on the frontend team.\n")),
        }],
    );
    let before = every_file(dir.path());
    h.keys("p");
    assert!(
        h.screen().contains("user_role.md (edited)"),
        "{}",
        h.screen()
    );
    h.keys("x");
    h.keys("not what they do");
    h.press(KeyCode::Enter);
    assert_eq!(every_file(dir.path()), before);
    let proposal = h
        .app
        .review
        .proposals
        .iter()
        .find(|p| p.id == id)
        .expect("listed");
    assert_eq!(proposal.status, memwb::review::ProposalStatus::Rejected);
    assert_eq!(proposal.reason.as_deref(), Some("not what they do"));
    assert!(
        h.screen().contains(&format!("rejected {id}")),
        "{}",
        h.screen()
    );
    assert_eq!(h.app.review.journal.len(), 1);
    assert_eq!(h.app.review.journal[0].op, memwb::review::Op::Reject);
}

#[test]
fn a_proposal_whose_file_changed_is_stale_and_approving_it_writes_nothing() {
    let (dir, mut h) = open(LoadLimits::default());
    let role = read(dir.path(), "user_role.md").expect("file");
    let id = file_from_outside(
        &mut h,
        vec![FileImage {
            file: "user_role.md".into(),
            before: Some(role.clone()),
            after: Some(format!("{role}Now on the frontend team.\n")),
        }],
    );
    // Claude Code rewrites the file meanwhile
    let plain = format!("{role}\nAlso on call this week.\n");
    std::fs::write(dir.path().join("memory/user_role.md"), &plain).expect("write");
    h.claude_tick();
    h.review_tick();
    h.keys("p");
    let row = h.app.proposals.selected_row().expect("a row");
    assert_eq!(row.proposal.id, id);
    assert!(matches!(row.state, memwb::review::State::Stale(_)));
    assert!(h.screen().contains("⚠ stale"), "{}", h.screen());
    let before = every_file(dir.path());
    h.keys("a");
    h.keys("y");
    assert_eq!(every_file(dir.path()), before);
    let status = h.app.status.clone().expect("a status");
    assert_eq!(status.kind, StatusKind::Error, "{}", status.text);
    assert!(h.app.review.journal.is_empty());
}

/// Issue 26 item 7: `b` rebases a stale proposal on a Claude Code folder as on a `.memory` set
/// (it was a dead end saying "not … yet"), in the same words; it then approves.
#[test]
fn b_rebases_a_stale_proposal_and_it_approves() {
    let (dir, mut h) = open(LoadLimits::default());
    let role = read(dir.path(), "user_role.md").expect("file");
    let proposed = format!("{role}Now on the frontend team.\n");
    let id = file_from_outside(
        &mut h,
        vec![FileImage {
            file: "user_role.md".into(),
            before: Some(role.clone()),
            after: Some(proposed.clone()),
        }],
    );
    h.keys("p");
    h.keys("b");
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.contains(
            "b is not available now: the selected proposal is not stale: nothing to rebase"
        ),
        "{id}: {status}"
    );
    std::fs::write(
        dir.path().join("memory/user_role.md"),
        format!("{role}\nAlso on call this week.\n"),
    )
    .expect("write");
    h.claude_tick();
    h.review_tick();
    assert!(h.screen().contains("⚠ stale"), "{}", h.screen());
    h.keys("b");
    let status = h.app.status.clone().expect("status");
    assert_eq!(status.kind, StatusKind::Info, "{}", status.text);
    assert!(
        status.text.starts_with(&format!(
            "proposal {id} rebased onto the current memories: \"user_role\" was changed"
        )),
        "{}",
        status.text
    );
    let row = h.app.proposals.selected_row().expect("a row");
    assert_eq!(row.proposal.id, id);
    assert_eq!(row.state, memwb::review::State::Ready);
    h.keys("a");
    h.keys("y");
    assert_eq!(
        read(dir.path(), "user_role.md").as_deref(),
        Some(proposed.as_str())
    );
}
