//! The unlisted and temp files of a `.memory` set: shown inert, adopted, deleted after asking,
//! undone byte for byte.

use super::*;

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
        .find(|s| s.file.starts_with("alpha-"))
        .expect("alpha's file looks unlisted")
        .file
        .clone();
    h.select_stray(&record_file);
    assert!(
        h.screen().contains("may be a memory of the set"),
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
