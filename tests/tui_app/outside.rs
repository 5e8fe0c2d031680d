//! Changes from outside the workbench: reloads keeping the selection, hostile text kept inert,
//! another folder's news ignored; our own save, reported by the watcher after its result, not
//! said again as news.

use super::*;

use std::sync::Arc;

use crossterm::event::{KeyEvent, KeyModifiers};
use memwb::formats::{Shown, WatchEvent};
use memwb::tui::app::Effect;

#[test]
fn external_commit_reloads_keeping_the_selection_and_says_what_changed() {
    let mut h = three();
    h.press(KeyCode::Char('j'));
    h.press(KeyCode::Char('j'));
    assert_eq!(selected(&h).as_deref(), Some("gamma"));
    let s = other(&h);
    let alpha = current(&h, "alpha").expect("alpha");
    s.remove(&[alpha]).expect("remove");
    s.extend(vec![record("zeta", "new", "z")]).expect("add");
    h.watcher_tick();
    assert_eq!(
        selected(&h).as_deref(),
        Some("gamma"),
        "selection follows the record"
    );
    let screen = h.screen();
    assert!(
        screen.contains("changed on disk: added zeta; removed alpha"),
        "{screen}"
    );
    // the selected record vanishes: the selection stays at its position
    let gamma = current(&h, "gamma").expect("gamma");
    s.remove(&[gamma]).expect("remove");
    h.watcher_tick();
    assert_eq!(selected(&h).as_deref(), Some("zeta"));
}

#[test]
fn hostile_text_in_names_of_files_and_errors_is_inert() {
    let mut h = three();
    // an unlisted file whose name holds an escape sequence, and a hostile body
    std::fs::write(h.root().join("evil-\u{1b}[2J.md"), "x").expect("file");
    let s = other(&h);
    s.extend(vec![record(
        "evil",
        "desc \u{1b}]0;title\u{7}",
        "body \u{1b}[31m \u{9b}2J",
    )])
    .expect("add");
    h.watcher_tick();
    // the last row is the unlisted file (shown in the Record pane, inert), the one above it evil
    h.press(KeyCode::Char('G'));
    let screen = h.screen();
    assert!(
        !screen.contains('\u{1b}') && !screen.contains('\u{7}'),
        "{screen}"
    );
    assert!(screen.contains("unlisted: evil-␛[2J.md"), "{screen}");
    h.press(KeyCode::Char('k'));
    let screen = h.screen();
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}') && !screen.contains('\u{9b}'));
    assert!(screen.contains("evil-␛[2J.md"), "{screen}");
    assert!(screen.contains("desc ␛]0;title␇"), "{screen}");
    assert!(screen.contains("body ␛[31m ⍰9B2J"), "{screen}");
}

/// An outside commit reaches the screen through the real watcher, which reads only what the
/// commit changed (issue 27): what the workbench shows is exactly what a fresh load shows.
#[test]
fn an_outside_commit_shows_exactly_the_new_state() {
    let mut h = three();
    h.start_watch();
    let theirs = other(&h);
    let fresh = |h: &Harness| h.store().inspect().entries;

    theirs
        .extend(vec![record("delta", "fourth record", "delta body")])
        .expect("add");
    h.watch_until(|change| change.added == ["delta"]);
    assert_eq!(h.inspection().entries, fresh(&h));
    assert!(h.screen().contains("delta"), "{}", h.screen());
    assert!(
        h.screen().contains("changed on disk: added delta"),
        "{}",
        h.screen()
    );

    let beta = current(&h, "beta").expect("beta");
    theirs
        .replace(
            &beta,
            record("beta", "rewritten elsewhere", "new beta body"),
        )
        .expect("replace");
    h.watch_until(|change| change.changed == ["beta"]);
    assert_eq!(h.inspection().entries, fresh(&h));
    h.press(KeyCode::Char('j')); // alpha -> beta
    assert_eq!(selected(&h).as_deref(), Some("beta"));
    assert!(h.screen().contains("new beta body"), "{}", h.screen());

    let gamma = current(&h, "gamma").expect("gamma");
    theirs.remove(&[gamma]).expect("remove");
    h.watch_until(|change| change.removed == ["gamma"]);
    assert_eq!(h.inspection().entries, fresh(&h));
    let shown = h.inspection();
    let names: Vec<&str> = shown.valid_records().map(Record::name).collect();
    assert_eq!(names, ["alpha", "beta", "delta"]);
    assert!(!h.screen().contains("gamma body"), "{}", h.screen());
}

/// News from the watcher of a folder that is no longer open (another was opened since) is
/// ignored, whatever it says; the same news about the folder open is shown.
#[test]
fn a_watchers_news_about_another_folder_is_ignored() {
    use memwb::formats::{Change, Shown, WatchEvent, Watched};
    let mut h = three();
    other(&h)
        .extend(vec![record("delta", "fourth record", "delta body")])
        .expect("add");
    let inspection = std::sync::Arc::new(h.store().inspect());
    let news = |root: std::path::PathBuf| {
        Event::Watch(Watched {
            root,
            event: WatchEvent::Changed(Change {
                at_ms: 0,
                added: vec!["delta".into()],
                removed: Vec::new(),
                changed: Vec::new(),
                unreadable: None,
                seen: Shown::from(inspection.clone()),
            }),
        })
    };
    let elsewhere = tempfile::tempdir().expect("dir");
    h.send(news(elsewhere.path().join(".memory")));
    assert!(!h.screen().contains("delta"), "{}", h.screen());
    h.send(news(h.app.backend.root().to_owned()));
    assert!(
        h.screen().contains("changed on disk: added delta"),
        "{}",
        h.screen()
    );
}

/// A save that waited (for the lock, say) while the watcher delivered a reading of the folder
/// as it was: the save's own reading is not shown (the watcher's stands, and may hold what the
/// save's read missed), and the watcher's report of the save, which comes after the save's
/// result, is the save, said once by its result: not "changed on disk" as well.
#[test]
fn a_save_that_waited_while_the_watcher_read_is_not_news_from_disk() {
    let mut h = three();
    h.press(KeyCode::Char('j'));
    h.press(KeyCode::Char('e'));
    h.keys("new line ");
    // Ctrl-S by hand, its job held as a save waiting for the lock is, bound to the reading
    // shown now as the event loop binds it.
    let effects = h.app.update(Event::Key(KeyEvent::new(
        KeyCode::Char('s'),
        KeyModifiers::CONTROL,
    )));
    let job = effects
        .into_iter()
        .find_map(|effect| match effect {
            Effect::Run(job) => Some(job),
            _ => None,
        })
        .expect("a save job");
    let save = job.bind(&h.app.backend, (h.app.shown.clone(), h.app.watch_readings));
    // Meanwhile the watcher's quiet refresh (the lock came and went) reads the folder as it was.
    h.send_watched(WatchEvent::Reread(Shown::from(Arc::new(
        h.store().inspect(),
    ))));
    h.send(Event::Job(Box::new(save())));
    // The watcher's report of the save comes after the save's result.
    h.watcher_tick();
    // The save said once, by its result, and nothing after it.
    let log: Vec<&str> = h.app.log.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        log.last(),
        Some(&"save beta: written (changed beta)"),
        "the save said again as news: {log:?}"
    );
    assert!(h.screen().contains("new line beta body"), "{}", h.screen());
}
