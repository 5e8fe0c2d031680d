//! Editing topic files in the workbench: edit, new, rename, delete, conflicts, the index fix,
//! broken YAML.

use super::*;

fn select(h: &mut Harness, file: &str) {
    let at = order(h).iter().position(|f| f == file).expect("listed");
    h.press(KeyCode::Home);
    for _ in 0..at {
        h.press(KeyCode::Down);
    }
    assert_eq!(h.app.selected_topic_file().as_deref(), Some(file));
}

#[test]
fn an_edit_keeps_every_other_byte_and_is_journaled_and_undone() {
    let (dir, mut h) = open(LoadLimits::default());
    let before = read(dir.path(), "user_role.md").expect("file");
    select(&mut h, "user_role.md");
    h.keys("e");
    assert!(h.app.editor.as_ref().is_some_and(|e| !e.is_raw()));
    editor_field(
        &mut h,
        memwb::tui::editor::DESCRIPTION,
        "a backend engineer, now on payments",
    );
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let after = read(dir.path(), "user_role.md").expect("file");
    assert!(
        after.contains("a backend engineer, now on payments"),
        "{after}"
    );
    // every other line of the frontmatter and the body survive (modified is stamped)
    for line in before
        .lines()
        .filter(|l| !l.starts_with("description:") && !l.contains("modified"))
    {
        assert!(after.contains(line), "{line:?} lost:\n{after}");
    }
    assert!(
        h.screen().contains("save user_role: written"),
        "{}",
        h.screen()
    );

    // History shows it; undo restores the exact bytes
    h.keys("H");
    assert_eq!(h.app.view, View::History);
    assert_eq!(h.app.review.journal.len(), 1);
    h.keys("u");
    h.keys("y");
    assert_eq!(
        read(dir.path(), "user_role.md").as_deref(),
        Some(before.as_str())
    );
    assert_eq!(h.app.review.journal.len(), 2);
}

#[test]
fn a_new_topic_file_gets_a_name_and_an_index_line_and_delete_removes_both() {
    let (dir, mut h) = open(LoadLimits::default());
    h.keys("n");
    editor_field(&mut h, memwb::tui::editor::NAME, "deploy freeze");
    editor_field(&mut h, memwb::tui::editor::TYPE, "project");
    editor_field(
        &mut h,
        memwb::tui::editor::DESCRIPTION,
        "no deploys on Fridays",
    );
    editor_field(&mut h, memwb::tui::editor::BODY, "Fridays are frozen.");
    // A name Claude Code would rewrite is refused, naming the one it keeps; the editor stays.
    h.ctrl('s');
    assert!(h.app.editor.is_some(), "{}", h.screen());
    assert!(h.screen().contains("deploy-freeze"), "{}", h.screen());
    assert_eq!(read(dir.path(), "project_deploy_freeze.md"), None);
    editor_field(&mut h, memwb::tui::editor::NAME, "deploy-freeze");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let text = read(dir.path(), "project_deploy_freeze.md").expect("created");
    assert!(
        text.starts_with("---\nname: deploy-freeze\ndescription: no deploys on Fridays\nmetadata:\n  node_type: memory\n  type: project\n"),
        "{text}"
    );
    let index = read(dir.path(), "MEMORY.md").expect("index");
    assert!(index.contains("(project_deploy_freeze.md)"), "{index}");
    assert_eq!(
        h.app.selected_topic_file().as_deref(),
        Some("project_deploy_freeze.md")
    );

    h.keys("d");
    assert!(
        h.screen().contains("Delete deploy-freeze?"),
        "{}",
        h.screen()
    );
    h.keys("y");
    assert_eq!(read(dir.path(), "project_deploy_freeze.md"), None);
    let index = read(dir.path(), "MEMORY.md").expect("index");
    assert!(!index.contains("project_deploy_freeze.md"), "{index}");
}

#[test]
fn a_rename_moves_the_file_and_rewrites_its_link() {
    let (dir, mut h) = open(LoadLimits::default());
    select(&mut h, "user_role.md");
    h.keys("e");
    editor_field(&mut h, memwb::tui::editor::NAME, "user-background");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    assert_eq!(read(dir.path(), "user_role.md"), None);
    let moved = h.app.selected_topic_file().expect("selected");
    assert_ne!(moved, "user_role.md");
    assert!(
        read(dir.path(), &moved)
            .expect("moved")
            .contains("name: user-background")
    );
    let index = read(dir.path(), "MEMORY.md").expect("index");
    assert!(index.contains(&format!("({moved})")), "{index}");
    assert!(!index.contains("(user_role.md)"), "{index}");
}

#[test]
fn a_plain_write_meanwhile_is_a_conflict_with_diff_reload_and_keep_editing() {
    let (dir, mut h) = open(LoadLimits::default());
    select(&mut h, "user_role.md");
    h.keys("e");
    editor_field(&mut h, memwb::tui::editor::DESCRIPTION, "mine");
    // Claude Code rewrites the file between the read and the save
    let theirs = read(dir.path(), "user_role.md")
        .expect("file")
        .replace("storefront team and", "checkout team and");
    std::fs::write(dir.path().join("memory/user_role.md"), &theirs).expect("write");
    h.ctrl('s');
    let editor = h.app.editor.as_ref().expect("the edit is kept");
    assert!(editor.conflict.is_some(), "{}", h.screen());
    assert_eq!(
        read(dir.path(), "user_role.md").as_deref(),
        Some(theirs.as_str()),
        "nothing clobbered"
    );
    h.keys("d");
    let diff = h
        .app
        .editor
        .as_ref()
        .and_then(|e| e.conflict.as_ref())
        .and_then(|c| c.diff.clone());
    assert!(diff.is_some_and(|d| d.iter().any(|(m, l)| *m == '+' && l.contains("mine"))));
    h.keys("r");
    let editor = h.app.editor.as_ref().expect("editor");
    assert!(editor.conflict.is_none());
    assert!(
        editor
            .value(memwb::tui::editor::BODY)
            .contains("checkout team"),
        "their body is merged in"
    );
    assert_eq!(editor.value(memwb::tui::editor::DESCRIPTION), "mine");
    // issue 26 item 11: the failed save's status gives way, as on a .memory set
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.starts_with("re-applied your edit on the version on disk"),
        "{status}"
    );
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let now = read(dir.path(), "user_role.md").expect("file");
    assert!(
        now.contains("mine") && now.contains("checkout team"),
        "{now}"
    );
}

#[test]
fn r_shows_the_index_fix_as_a_diff_before_writing_it() {
    let (dir, mut h) = open(LoadLimits::default());
    let before = read(dir.path(), "MEMORY.md").expect("index");
    h.keys("R");
    let screen = h.screen();
    assert!(screen.contains("Fix MEMORY.md"), "{screen}");
    assert!(
        screen.contains("- - [project_payments]"),
        "the dangling entry goes: {screen}"
    );
    assert!(
        screen.contains("scratch.md"),
        "the unlisted file comes in: {screen}"
    );
    assert_eq!(
        read(dir.path(), "MEMORY.md").as_deref(),
        Some(before.as_str()),
        "nothing written yet"
    );
    h.keys("y");
    let after = read(dir.path(), "MEMORY.md").expect("index");
    assert!(!after.contains("project_payments"), "{after}");
    assert!(after.contains("(scratch.md)"), "{after}");
}

/// Issue 26 item 11: the editor on a topic file says when the file changed or went on disk
/// while it is open, with the words it uses on a `.memory` record.
#[test]
fn the_topic_editor_says_when_its_file_changed_or_went_on_disk() {
    let (dir, mut h) = open(LoadLimits::default());
    select(&mut h, "user_role.md");
    h.keys("e");
    editor_field(&mut h, memwb::tui::editor::DESCRIPTION, "mine");
    h.draw();
    assert!(
        !h.screen().contains("since you opened it"),
        "{}",
        h.screen()
    );
    let theirs = read(dir.path(), "user_role.md")
        .expect("file")
        .replace("storefront team and", "checkout team and");
    std::fs::write(dir.path().join("memory/user_role.md"), &theirs).expect("write");
    h.claude_tick();
    h.draw();
    assert!(
        h.screen()
            .contains("user_role was changed on disk since you opened it"),
        "{}",
        h.screen()
    );
    // the conflict is handled by re-applying: the edit is based on the file now, the banner goes
    h.ctrl('s');
    h.keys("r");
    h.draw();
    assert!(
        !h.screen().contains("since you opened it"),
        "{}",
        h.screen()
    );
    std::fs::remove_file(dir.path().join("memory/user_role.md")).expect("rm");
    h.claude_tick();
    h.draw();
    assert!(
        h.screen()
            .contains("user_role was removed since you opened it"),
        "{}",
        h.screen()
    );
}

/// Issue 26 item 8: a topic file whose frontmatter does not parse opens as its raw text, with
/// the parse error at its line; fixed, it saves through the same compare-and-swap write.
#[test]
fn a_topic_file_with_broken_yaml_opens_raw_with_the_error_line_and_saves_fixed() {
    let (dir, mut h) = open(LoadLimits::default());
    let before = read(dir.path(), "feedback_commit_style.md").expect("file");
    select(&mut h, "feedback_commit_style.md");
    h.keys("e");
    let editor = h.app.editor.as_ref().expect("editor");
    assert!(editor.is_raw(), "broken YAML opens as raw text");
    assert_eq!(editor.value(memwb::tui::editor::BODY), before);
    h.draw();
    let screen = h.screen();
    assert!(
        screen.contains("Repair feedback_commit_style.md"),
        "{screen}"
    );
    assert!(screen.contains("✗ line 3:"), "{screen}");
    assert!(!screen.contains("a memory needs a name"), "{screen}");
    // saving while it is still broken stays in the editor and writes nothing
    h.ctrl('s');
    assert!(h.app.editor.is_some());
    assert_eq!(
        read(dir.path(), "feedback_commit_style.md").as_deref(),
        Some(before.as_str())
    );
    let fixed = before.replace(
        "description: \"Conventional commits\" one logical change each",
        "description: '\"Conventional commits\" one logical change each'",
    );
    editor_field(&mut h, memwb::tui::editor::BODY, &fixed);
    h.draw();
    assert!(
        h.screen().contains("✓ the frontmatter parses"),
        "{}",
        h.screen()
    );
    // another process writes the file meanwhile: the save is refused, nothing is clobbered
    let theirs = format!("{before}Also squash fixups.\n");
    std::fs::write(dir.path().join("memory/feedback_commit_style.md"), &theirs).expect("write");
    h.ctrl('s');
    assert!(h.app.editor.is_some(), "{}", h.screen());
    assert_eq!(
        read(dir.path(), "feedback_commit_style.md").as_deref(),
        Some(theirs.as_str())
    );
    assert!(
        h.screen().contains("feedback_commit_style.md changed"),
        "{}",
        h.screen()
    );
    // back as it was read: the fix saves, journaled, and the file now reads
    std::fs::write(dir.path().join("memory/feedback_commit_style.md"), &before).expect("write");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    assert_eq!(
        read(dir.path(), "feedback_commit_style.md").as_deref(),
        Some(fixed.as_str())
    );
    assert!(
        h.screen().contains("save feedback_commit_style: written"),
        "{}",
        h.screen()
    );
    assert_eq!(h.app.review.journal.len(), 1);
    // opened again, it has four fields
    h.keys("e");
    assert!(!h.app.editor.as_ref().expect("editor").is_raw());
}
