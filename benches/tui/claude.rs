//! The workbench on a Claude Code folder of [`CLAUDE_FILES`] topic files (issue 23): each
//! action from the job's start to the frame that shows its outcome, and an outside write to
//! the frame that shows it.

use std::path::Path;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use memwb::claude::{ClaudeFolder, FileWrite, LoadLimits};
use memwb::formats::claude::journal::journaled;
use memwb::formats::{EditorChange, Open, WatchEvent};
use memwb::review::{EntryMeta, Op};
use memwb::tui::app::{App, Event};
use memwb::tui::jobs::Job;
use memwb::tui::theme::Theme;
use memwb::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::Stats;

const CLAUDE_FILES: usize = 200;
const RUNS: usize = 30;

fn topic(i: usize, body: &str) -> String {
    format!(
        "---\nname: note-{i}\ndescription: note number {i}\nmetadata:\n  type: project\n---\n\n{body}\n"
    )
}

fn index_line(i: usize) -> String {
    format!("- [note-{i}](project_note_{i}.md) — note number {i}\n")
}

fn file(i: usize) -> String {
    format!("project_note_{i}.md")
}

/// A folder of [`CLAUDE_FILES`] topic files, each listed in MEMORY.md but the last (so
/// `R` has a line to add), and memwb's state for it beside it.
fn folder(dir: &Path) -> ClaudeFolder {
    let memory = dir.join("memory");
    std::fs::create_dir(&memory).expect("mkdir");
    let mut index = String::from("# Memory index\n\n");
    for i in 0..CLAUDE_FILES {
        std::fs::write(
            memory.join(file(i)),
            topic(i, &format!("A body for note {i}.")),
        )
        .expect("fill");
        if i + 1 < CLAUDE_FILES {
            index.push_str(&index_line(i));
        }
    }
    std::fs::write(memory.join("MEMORY.md"), index).expect("index");
    ClaudeFolder::open(&memory, LoadLimits::default())
        .expect("open")
        .with_state_root(dir.join("state"))
}

fn app(folder: &ClaudeFolder) -> (App, Terminal<TestBackend>) {
    let shown = memwb::formats::Shown::of_topics(folder, Arc::new(folder.read()));
    let backend = memwb::formats::Open::from(folder.clone());
    let app = App::new(backend, shown, Theme::from_env());
    (
        app,
        Terminal::new(TestBackend::new(100, 30)).expect("terminal"),
    )
}

/// Runs `job` as the workbench does (off the UI thread there; here inline), on a clone of
/// the app's open folder as the workbench binds it, and draws the frame with its outcome. One
/// `Open` is kept for the app and every job, as the workbench keeps it: its clones share what
/// is kept of the folder between readings (the journal's tail as last read), which a new
/// `Open` per job would hide.
fn on_screen(app: &mut App, terminal: &mut Terminal<TestBackend>, job: Job) -> Duration {
    let start = Instant::now();
    let done = job.run(&app.backend.clone());
    assert!(done.result.is_ok(), "{:?}", done.result.as_ref().err());
    app.update(Event::Job(Box::new(done)));
    terminal.draw(|f| ui::render(f, app)).expect("draw");
    start.elapsed()
}

/// Saving a topic file of about 10 KB from the editor.
fn save(dir: &Path) -> Stats {
    let folder = folder(dir);
    let (mut app, mut terminal) = app(&folder);
    let target = file(7);
    Stats(
        (0..RUNS)
            .map(|run| {
                let base = std::fs::read_to_string(folder.root().join(&target)).expect("read");
                let body = format!("run {run}: {}", "ten kilobytes of notes. ".repeat(420));
                let fields = [
                    "note-7".to_owned(),
                    "project".to_owned(),
                    "note number 7".to_owned(),
                    body,
                ];
                let job = Job::from(EditorChange::SaveFields {
                    file: Some(target.clone()),
                    base: Some(base),
                    fields,
                });
                on_screen(&mut app, &mut terminal, job)
            })
            .collect(),
    )
}

/// `R`: planning the index fix, up to the frame with its confirmation.
fn plan_index_fix(dir: &Path) -> Stats {
    repeated(dir, || Job::PlanIndexFix)
}

/// `job()` run [`RUNS`] times on one folder, each to the frame that shows its outcome.
fn repeated(dir: &Path, job: fn() -> Job) -> Stats {
    let folder = folder(dir);
    let (mut app, mut terminal) = app(&folder);
    Stats(
        (0..RUNS)
            .map(|_| on_screen(&mut app, &mut terminal, job()))
            .collect(),
    )
}

/// Undoing one journaled change of every topic file (what approving a proposal of
/// [`CLAUDE_FILES`] files journals), remade untimed before each run.
fn undo_wide_change(dir: &Path) -> Stats {
    undo_wide(dir, true)
}

/// The same undo's write alone: `Backend::undo`, without the read of the folder after it
/// and the frame.
fn undo_write_alone(dir: &Path) -> Stats {
    undo_wide(dir, false)
}

fn undo_wide(dir: &Path, to_screen: bool) -> Stats {
    let folder = folder(dir);
    let (mut app, mut terminal) = app(&folder);
    Stats(
        (0..RUNS)
            .map(|run| {
                let writes = (0..CLAUDE_FILES)
                    .map(|i| {
                        let path = folder.root().join(file(i));
                        let base = std::fs::read_to_string(path).expect("read");
                        FileWrite {
                            file: file(i),
                            after: Some(base.replace("A body", &format!("Run {run}: a body"))),
                            base: Some(base),
                        }
                    })
                    .collect();
                let meta = EntryMeta {
                    op: Some(Op::Approve),
                    ..EntryMeta::default()
                };
                let (_, entry) = journaled(&folder, writes, meta).expect("change");
                let entry = entry.expect("journaled");
                let reload = Job::Reload.run(&app.backend.clone());
                app.update(Event::Job(Box::new(reload)));
                if to_screen {
                    return on_screen(&mut app, &mut terminal, Job::Undo(Box::new(entry)));
                }
                let start = Instant::now();
                let undone = app.backend.backend().undo(&entry);
                let took = start.elapsed();
                assert!(undone.is_ok(), "{:?}", undone.err());
                took
            })
            .collect(),
    )
}

/// A reload: the whole folder and its journal read and drawn, which every job above ends
/// with (`Job::run` reads the folder after it); what an undo costs beyond it is its write.
fn reload(dir: &Path) -> Stats {
    repeated(dir, || Job::Reload)
}

/// Another program writes a topic file; the watcher reads it and the app draws the frame
/// that shows it: from the write's return to that frame.
fn outside_write(dir: &Path) -> Stats {
    let folder = folder(dir);
    let (mut app, mut terminal) = app(&folder);
    let (tx, rx) = mpsc::channel();
    let (_watcher, _) = Open::from(folder.clone())
        .backend()
        .watch(Box::new(move |watched| {
            if let WatchEvent::Changed(_) = &watched.event {
                let _ = tx.send(watched);
            }
        }))
        .expect("watch");
    let path = folder.root().join(file(11));
    Stats(
        (0..RUNS)
            .map(|run| {
                let text = topic(11, &format!("Written from outside, run {run}."));
                let temp = folder.root().join(".outside.tmp");
                std::fs::write(&temp, text).expect("write");
                std::fs::rename(&temp, &path).expect("rename");
                let written = Instant::now();
                let written_text = format!("run {run}.");
                let watched = loop {
                    let watched = rx.recv_timeout(Duration::from_secs(30)).expect("event");
                    let shows = match &watched.event {
                        WatchEvent::Changed(change) => {
                            memwb::formats::claude::shown_topics(&change.seen).is_some_and(|view| {
                                view.snapshot.topics.iter().any(|t| {
                                    t.file == file(11)
                                        && t.parsed()
                                            .is_some_and(|p| p.body.contains(&written_text))
                                })
                            })
                        }
                        _ => false,
                    };
                    if shows {
                        break watched;
                    }
                };
                app.update(Event::Watch(watched));
                terminal.draw(|f| ui::render(f, &mut app)).expect("draw");
                let took = written.elapsed();
                while rx.try_recv().is_ok() {}
                took
            })
            .collect(),
    )
}

/// One of the cases above, run in a folder of its own.
type Case = fn(&Path) -> Stats;

/// Runs the cases whose label holds one of `filters` (all when there is none).
pub fn bench(base: &Path, filters: &[&str]) {
    let runs: [(&str, Case); 6] = [
        ("save a 10 KB topic -> on screen", save),
        ("R (index fix) -> its modal", plan_index_fix),
        ("undo a 200-file change -> on screen", undo_wide_change),
        ("undo a 200-file change: its write alone", undo_write_alone),
        ("reload (every job's read after) -> on screen", reload),
        ("outside write -> on screen", outside_write),
    ];
    for (what, run) in runs {
        let label = format!("claude {CLAUDE_FILES} files: {what}");
        if !filters.is_empty() && !filters.iter().any(|f| label.contains(f)) {
            continue;
        }
        let dir = tempfile::tempdir_in(base).expect("dir");
        run(dir.path()).show(&label);
    }
}
