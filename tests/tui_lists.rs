//! Issue 10's last items in the workbench: the `/` filter of the Proposals and History lists,
//! rebasing a stale proposal (`b`), and the files in `.memory` that are not in the set
//! (unlisted and temp files: view, adopt, delete). The engine runs for real on temporary
//! workspaces.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::review::proposal::{self, NewProposal};
use memwb::review::{Journal, Origin, Plan, Proposal};
use memwb::store::{MemoryType, Record, Store, StoreOptions};
use tui_harness::Harness;

fn record(name: &str, description: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, description, body).expect("valid")
}

fn other(h: &Harness) -> Store {
    Store::open(&h.workspace, StoreOptions::default()).expect("open")
}

fn names(h: &Harness) -> Vec<String> {
    other(h)
        .records()
        .expect("readable")
        .iter()
        .map(|r| r.name().to_owned())
        .collect()
}

/// alpha, beta, gamma.
fn three() -> Harness {
    tui_harness::alpha_beta_gamma(100, 30)
}

fn file(h: &Harness, plan: Plan, source: &str) -> Proposal {
    let store = other(h);
    proposal::file(
        &store,
        NewProposal {
            plan,
            origin: Origin::new(source),
            seen: store.read().expect("read"),
            additions: Vec::new(),
            evidence: None,
        },
    )
    .expect("file")
}

fn add(h: &Harness, name: &str) -> Proposal {
    file(
        h,
        Plan::Extraction(vec![record(name, "a new fact", "Body.")]),
        "import",
    )
}

fn listed_proposals(h: &Harness) -> Vec<String> {
    h.app
        .proposals
        .rows
        .iter()
        .map(|r| r.summary.clone())
        .collect()
}

/// The rows of the view's list (the first box on the screen), without the status line.
fn list_box(h: &Harness) -> String {
    let screen = h.screen();
    let lines: Vec<&str> = screen.lines().collect();
    let end = lines
        .iter()
        .position(|l| l.starts_with('└'))
        .unwrap_or(lines.len());
    lines[..end].join("\n")
}

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
    let filed = proposal::file(
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
        status.contains("source \"indentation-tabs\" was changed"),
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

/// An unlisted record file and a leftover temp file beside the set.
fn with_strays() -> (Harness, Vec<u8>, Vec<u8>) {
    let mut h = three();
    let draft = record(
        "old-draft",
        "a draft from before",
        "Draft \u{1b}]0;pwned\u{7} body.",
    );
    let unlisted = memwb::store::codec::serialize(&draft).into_bytes();
    std::fs::write(h.root().join("old-draft-0badf00d.md"), &unlisted).expect("unlisted");
    let temp = b"half-written \x1b[2J record".to_vec();
    std::fs::write(h.root().join(".alpha-0badf00d.tmp"), &temp).expect("temp");
    h.watcher_tick();
    (h, unlisted, temp)
}

#[test]
fn an_unlisted_file_is_shown_inert_and_adopted_through_a_transaction() {
    let (mut h, unlisted, _) = with_strays();
    h.select_stray("old-draft-0badf00d.md");
    let screen = h.screen();
    assert!(
        screen.contains("unlisted: old-draft-0badf00d.md"),
        "{screen}"
    );
    assert!(
        screen.contains("old-draft (project): a draft from before"),
        "{screen}"
    );
    assert!(screen.contains("a adopts it"), "{screen}");
    // the body's escape sequence reaches the screen inert (the Record pane scrolls to it)
    h.press(KeyCode::Tab);
    h.press(KeyCode::Char('G'));
    let screen = h.screen();
    assert!(screen.contains("Draft"), "{screen}");
    assert!(screen.contains("body."), "{screen}");
    assert!(!screen.contains('\u{1b}'), "{screen}");
    assert!(!screen.contains("]0;pwned\u{7}"), "{screen}");
    h.press(KeyCode::BackTab);
    // `a` asks; `n` changes nothing
    h.press(KeyCode::Char('a'));
    assert!(
        h.screen()
            .contains("Adopt old-draft-0badf00d.md into the set")
    );
    h.press(KeyCode::Char('n'));
    assert_eq!(names(&h), ["alpha", "beta", "gamma"]);
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y'));
    assert_eq!(names(&h), ["alpha", "beta", "gamma", "old-draft"]);
    let set = other(&h).read().expect("read");
    assert_eq!(
        set.get("old-draft").expect("adopted").file,
        "old-draft-0badf00d.md"
    );
    assert_eq!(
        std::fs::read(h.root().join("old-draft-0badf00d.md")).expect("file"),
        unlisted,
        "adopted as it is"
    );
    let last = Journal::of(&other(&h))
        .entries()
        .expect("journal")
        .pop()
        .expect("entry");
    assert_eq!(last.op, memwb::review::Op::Add);
    assert_eq!(last.after[0].record.name, "old-draft");
    let status = h.app.status.as_ref().expect("status").text.clone();
    assert!(
        status.contains("adopt old-draft-0badf00d.md: written"),
        "{status}"
    );
    assert!(h.inspection().unlisted.is_empty());
}

#[test]
fn a_stray_changed_after_it_was_shown_is_neither_adopted_nor_deleted() {
    let (mut h, _, temp) = with_strays();
    h.select_stray("old-draft-0badf00d.md");
    let changed = memwb::store::codec::serialize(&record("old-draft", "changed", "Other."));
    std::fs::write(h.root().join("old-draft-0badf00d.md"), &changed).expect("change");
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y'));
    let status = h.app.status.as_ref().expect("status").text.clone();
    assert!(status.contains("changed since it was shown"), "{status}");
    assert_eq!(names(&h), ["alpha", "beta", "gamma"]);
    // it is read again, and now shows what is there
    assert!(
        h.screen().contains("old-draft (project): changed"),
        "{}",
        h.screen()
    );
    // a temp file cannot be adopted
    h.select_stray(".alpha-0badf00d.tmp");
    h.press(KeyCode::Char('a'));
    assert!(h.app.modal.is_none());
    let status = h.app.status.as_ref().expect("status").text.clone();
    assert!(
        status.contains("a is not available now: a temp file is not a memory to adopt"),
        "{status}"
    );
    std::fs::write(h.root().join(".alpha-0badf00d.tmp"), b"more").expect("change");
    h.press(KeyCode::Char('d'));
    h.press(KeyCode::Char('y'));
    assert!(h.root().join(".alpha-0badf00d.tmp").exists());
    assert_ne!(temp, b"more");
}

#[test]
fn d_deletes_a_temp_or_unlisted_file_after_asking() {
    let (mut h, _, _) = with_strays();
    h.select_stray(".alpha-0badf00d.tmp");
    let screen = h.screen();
    assert!(screen.contains("temp: .alpha-0badf00d.tmp"), "{screen}");
    assert!(screen.contains("half-written"), "{screen}");
    assert!(!screen.contains('\u{1b}'), "{screen}");
    h.press(KeyCode::Char('d'));
    assert!(
        h.screen().contains("Delete .alpha-0badf00d.tmp?"),
        "{}",
        h.screen()
    );
    h.press(KeyCode::Char('n'));
    assert!(h.root().join(".alpha-0badf00d.tmp").exists());
    h.press(KeyCode::Char('d'));
    h.press(KeyCode::Char('y'));
    assert!(!h.root().join(".alpha-0badf00d.tmp").exists());
    assert!(h.inspection().temp_files.is_empty());
    // the selection stays on the strays that are left
    h.select_stray("old-draft-0badf00d.md");
    h.press(KeyCode::Char('d'));
    h.press(KeyCode::Char('y'));
    assert!(!h.root().join("old-draft-0badf00d.md").exists());
    assert_eq!(names(&h), ["alpha", "beta", "gamma"]);
    assert!(h.app.manifest.selected_stray().is_none());
    assert!(h.screen().contains("Record: gamma"), "{}", h.screen());
}

/// The journal's last entry.
fn last_entry(h: &Harness) -> memwb::review::Entry {
    Journal::of(&other(h))
        .entries()
        .expect("journal")
        .pop()
        .expect("an entry")
}

#[test]
fn a_deleted_stray_is_kept_in_dropped_and_undo_restores_it_byte_for_byte() {
    let (mut h, unlisted, temp) = with_strays();
    for (file, bytes) in [
        (".alpha-0badf00d.tmp", &temp),
        ("old-draft-0badf00d.md", &unlisted),
    ] {
        h.select_stray(file);
        h.press(KeyCode::Char('d'));
        assert!(
            h.screen().contains(&format!("Delete {file}?")),
            "{}",
            h.screen()
        );
        h.press(KeyCode::Char('y'));
        assert!(!h.root().join(file).exists(), "{file} deleted");
        let deleted = last_entry(&h);
        let stray = deleted.stray.clone().expect("a stray change");
        assert_eq!(deleted.op, memwb::review::Op::Rm);
        assert_eq!(
            (stray.file.as_str(), stray.action.as_str()),
            (file, "deleted")
        );
        let kept = h
            .root()
            .join(".memwb/dropped")
            .join(stray.kept.as_deref().expect("kept"));
        assert_eq!(&std::fs::read(&kept).expect("kept bytes"), bytes);
        assert_eq!(
            names(&h),
            ["alpha", "beta", "gamma"],
            "the set is untouched"
        );

        let (_, restore) =
            memwb::formats::memory::journal::undo(&other(&h), &deleted).expect("undo");
        assert_eq!(
            &std::fs::read(h.root().join(file)).expect("restored"),
            bytes
        );
        let restore = restore.expect("journaled");
        assert_eq!(restore.undoes, Some(deleted.id));
        // undoing it twice is refused: the file is there again
        let again = memwb::formats::memory::journal::undo(&other(&h), &deleted).expect_err("twice");
        assert!(again.to_string().contains("in .memory again"), "{again}");
        // and the restore itself undoes, deleting it again (still kept)
        memwb::formats::memory::journal::undo(&other(&h), &restore).expect("undo the restore");
        assert!(!h.root().join(file).exists());
        let (_, back) =
            memwb::formats::memory::journal::undo(&other(&h), &last_entry(&h)).expect("once more");
        assert!(back.is_some());
        assert_eq!(&std::fs::read(h.root().join(file)).expect("back"), bytes);
        h.watcher_tick();
    }
}

#[test]
fn undoing_an_adoption_leaves_the_file_unlisted_with_its_bytes() {
    let (mut h, unlisted, _) = with_strays();
    h.select_stray("old-draft-0badf00d.md");
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y'));
    assert_eq!(names(&h), ["alpha", "beta", "gamma", "old-draft"]);
    let adopted = last_entry(&h);
    let (_, unlisting) = memwb::formats::memory::journal::undo(&other(&h), &adopted).expect("undo");
    assert_eq!(names(&h), ["alpha", "beta", "gamma"]);
    assert_eq!(
        std::fs::read(h.root().join("old-draft-0badf00d.md")).expect("still there"),
        unlisted,
        "an unlisted file again, byte for byte"
    );
    assert_eq!(other(&h).inspect().unlisted, ["old-draft-0badf00d.md"]);
    let index = std::fs::read_to_string(h.root().join("MEMORY.md")).expect("index");
    assert!(!index.contains("old-draft"), "{index}");
    // the undo undoes too: adopted again, the same file
    memwb::formats::memory::journal::undo(&other(&h), &unlisting.expect("journaled"))
        .expect("redo");
    let set = other(&h).read().expect("read");
    assert_eq!(
        set.get("old-draft").expect("adopted").file,
        "old-draft-0badf00d.md"
    );
    assert_eq!(
        std::fs::read(h.root().join("old-draft-0badf00d.md")).expect("file"),
        unlisted
    );
    h.watcher_tick();
    assert!(h.inspection().unlisted.is_empty());
}

/// The row the Manifest's selection is on: a record's name, a stray's file, or nothing.
fn selected_row(h: &Harness) -> Option<String> {
    if let Some((file, _)) = h.app.manifest.selected_stray() {
        return Some(file.clone());
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

#[test]
fn while_the_manifest_does_not_parse_no_file_is_offered_for_deletion() {
    let (mut h, _, _) = with_strays();
    let manifest = h.root().join("manifest.json");
    let good = std::fs::read(&manifest).expect("manifest");
    std::fs::write(&manifest, b"{\"version\":1,\"files\":[\"alpha-").expect("break it");
    h.watcher_tick();
    let status = h.app.status.as_ref().expect("status").text.clone();
    assert!(status.contains("manifest.json does not parse"), "{status}");
    assert!(status.contains("repair manifest.json"), "{status}");
    let screen = h.screen();
    assert!(screen.contains("manifest.json does not parse"), "{screen}");
    // the set's record files now look unlisted: none may be deleted or adopted
    let record_file = h
        .app
        .manifest
        .strays
        .iter()
        .find(|(f, _)| f.starts_with("alpha-"))
        .expect("alpha's file looks unlisted")
        .0
        .clone();
    h.select_stray(&record_file);
    assert!(
        h.screen().contains("may be a record of the set"),
        "{}",
        h.screen()
    );
    assert!(!h.screen().contains("deletes it"), "{}", h.screen());
    for key in ['d', 'a'] {
        h.press(KeyCode::Char(key));
        assert!(h.app.modal.is_none(), "{key}: {}", h.screen());
        let status = h.app.status.as_ref().expect("status").text.clone();
        assert!(status.contains("none is offered for deletion"), "{status}");
        h.press(KeyCode::Char('y'));
    }
    assert!(h.root().join(&record_file).exists());
    // once it reads again, so does the set, and the status line moves on
    std::fs::write(&manifest, good).expect("repair");
    h.watcher_tick();
    assert_eq!(names(&h), ["alpha", "beta", "gamma"]);
    let status = h.app.status.as_ref().expect("status").text.clone();
    assert!(!status.contains("does not parse"), "{status}");
    assert!(!h.screen().contains("may be records"), "{}", h.screen());
}

#[test]
fn a_key_read_before_a_question_is_on_screen_does_not_answer_it() {
    let (mut h, _, temp) = with_strays();
    // "dy" typed in one go: `d` asks, and the `y` read with it does not answer
    h.select_stray(".alpha-0badf00d.tmp");
    h.keys_in_one_read("dy");
    assert!(
        h.screen().contains("Delete .alpha-0badf00d.tmp?"),
        "{}",
        h.screen()
    );
    let status = h.app.status.as_ref().expect("status").text.clone();
    assert!(
        status.contains("came before the question was on screen"),
        "{status}"
    );
    assert_eq!(
        std::fs::read(h.root().join(".alpha-0badf00d.tmp")).expect("kept"),
        temp
    );
    // a key press of its own, once it is drawn, answers it
    h.press(KeyCode::Char('y'));
    assert!(!h.root().join(".alpha-0badf00d.tmp").exists());
    // the same for a record of the set
    h.press(KeyCode::Char('g'));
    h.keys_in_one_read("dyy");
    assert_eq!(names(&h), ["alpha", "beta", "gamma"]);
    h.press(KeyCode::Char('n'));
    assert!(h.app.modal.is_none());
    assert_eq!(names(&h), ["alpha", "beta", "gamma"]);
}
