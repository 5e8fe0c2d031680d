//! The workbench on a Claude Code folder (read-only for now): topic files with their health,
//! every frontmatter field, MEMORY.md with the line where Claude Code stops loading it, a query
//! over the topic files, and the Sets view (`S`) to open any memory folder found.
//!
//! The loop is synchronous: it polls the terminal and drains the watcher's and the set
//! finder's messages; nothing it runs blocks for long (finding sets runs on a thread).

pub mod app;
pub mod ui;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use crossterm::event::{self, Event as TermEvent};

pub use app::{ClaudeApp, Effect, View};

use super::terminal;
use super::theme::Theme;
use crate::claude::locate::{config_dir, process_env};
use crate::claude::{ClaudeFolder, LoadLimits};
use crate::claude_watch::{ClaudeEvent, ClaudeWatcher};
use crate::folder::sets::{discover, summarize};
use crate::folder::{Format, Summary};
use crate::store::StoreOptions;
use crate::tui::TuiError;
use crate::watch::WatchError;

/// How the workbench on a Claude Code folder ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    Quit,
    /// A `.memory` folder was chosen in the Sets view: open the workbench on this workspace.
    OpenStore(PathBuf),
}

enum Incoming {
    Watch(ClaudeEvent),
    Sets(Vec<Summary>),
}

/// How long one poll of the terminal waits before the other queues are looked at again.
const POLL: Duration = Duration::from_millis(50);

/// Every memory folder under Claude Code's config folder and `roots`.
pub fn find_sets(roots: &[PathBuf], store: &StoreOptions, limits: LoadLimits) -> Vec<Summary> {
    let config = config_dir(&process_env).ok();
    let found = discover(config.as_deref(), roots, &mut |_| {});
    found
        .found
        .iter()
        .filter_map(|f| summarize(f, store, limits))
        .collect()
}

fn watch(
    folder: &ClaudeFolder,
    tx: &mpsc::Sender<Incoming>,
) -> Result<(ClaudeWatcher, Arc<crate::claude::Snapshot>), WatchError> {
    let tx = tx.clone();
    ClaudeWatcher::start(folder.clone(), move |event| {
        let _ = tx.send(Incoming::Watch(event));
    })
}

/// Opens the workbench on `folder` until the user quits or opens a `.memory` set. `roots` are
/// where the Sets view looks besides Claude Code's config folder.
pub fn run(
    folder: ClaudeFolder,
    roots: Vec<PathBuf>,
    store: StoreOptions,
) -> Result<Exit, TuiError> {
    super::init_logging();
    let (tx, rx) = mpsc::channel();
    let (mut watcher, baseline) = watch(&folder, &tx)?;
    let mut app = ClaudeApp::new(folder, baseline, Theme::from_env());
    let mut term = terminal::enter().map_err(TuiError::Terminal)?;
    let _guard = terminal::Guard;
    let mut dirty = true;
    loop {
        if dirty {
            term.draw(|frame| ui::render(frame, &mut app))
                .map_err(TuiError::Draw)?;
            dirty = false;
        }
        while let Ok(incoming) = rx.try_recv() {
            dirty = true;
            match incoming {
                Incoming::Watch(ClaudeEvent::Changed(change)) => app.reload(change.snapshot),
                Incoming::Watch(ClaudeEvent::Error(message)) => {
                    app.status = Some((true, format!("watch: {message}")));
                }
                Incoming::Sets(sets) => {
                    app.status = None;
                    app.sets_loaded(sets);
                }
            }
        }
        let input_failed = |e: std::io::Error| TuiError::Input(e.to_string());
        if !event::poll(POLL).map_err(input_failed)? {
            continue;
        }
        dirty = true;
        let TermEvent::Key(key) = event::read().map_err(input_failed)? else {
            continue;
        };
        for effect in app.key(key) {
            match effect {
                Effect::Quit => return Ok(Exit::Quit),
                Effect::LoadSets => {
                    let tx = tx.clone();
                    let (roots, store, limits) =
                        (roots.clone(), store.clone(), app.folder.limits());
                    std::thread::spawn(move || {
                        let _ = tx.send(Incoming::Sets(find_sets(&roots, &store, limits)));
                    });
                }
                Effect::Open(set) => match set.format {
                    Format::Memory => {
                        let path = PathBuf::from(&set.path);
                        let workspace = path
                            .parent()
                            .map(PathBuf::from)
                            .ok_or(TuiError::NoWorkspace { path: path.clone() })?;
                        return Ok(Exit::OpenStore(workspace));
                    }
                    Format::Claude => {
                        match ClaudeFolder::open(
                            std::path::Path::new(&set.path),
                            app.folder.limits(),
                        )
                        .map_err(|e| e.to_string())
                        .and_then(|folder| {
                            let watching = watch(&folder, &tx).map_err(|e| e.to_string())?;
                            Ok((watching, folder))
                        }) {
                            Ok(((next, snapshot), folder)) => {
                                watcher = next;
                                app.replace(folder, snapshot);
                                app.status = None;
                            }
                            Err(e) => {
                                app.status = Some((true, format!("cannot open {}: {e}", set.path)))
                            }
                        }
                    }
                },
            }
        }
        if app.quit {
            drop(watcher);
            return Ok(Exit::Quit);
        }
    }
}
