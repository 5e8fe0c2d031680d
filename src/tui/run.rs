//! The event loop: one queue fed by the terminal, the watcher and finished jobs, drained before
//! each render. Engine calls run on the blocking pool, never on the UI task.

use std::collections::VecDeque;

use crossterm::event::{Event as TermEvent, EventStream};
use futures_core::Stream;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::TuiError;
use super::app::{App, Event, Reading};
use super::perform::{Env, Handover, Host, Work, perform};
use super::theme::Theme;
use super::watching::{Watching, watch};
use super::{external, terminal, ui};
use crate::formats::Open as Backend;
use crate::formats::OpenOptions;

/// Every memory folder under Claude Code's config folder and `roots`, summed up, with the
/// error and warning counts of `check` (the folder's own findings and the content audit, as
/// `check --all` counts them; the sets are checked on every core). Runs off the UI thread.
pub fn find_sets(
    roots: &[std::path::PathBuf],
    options: &OpenOptions,
) -> Vec<crate::formats::Summary> {
    let config = crate::formats::agent_config();
    let found = crate::folder::sets::discover(config.as_deref(), roots, &mut |_| {}).found;
    crate::content::report::summarize_checked(&found, options, &|| {})
}

fn map(event: TermEvent) -> Option<Event> {
    match event {
        TermEvent::Key(key) => Some(Event::Key(key)),
        TermEvent::Mouse(mouse) => Some(Event::Mouse(mouse)),
        TermEvent::Resize(w, h) => Some(Event::Resize(w, h)),
        TermEvent::Paste(text) => Some(Event::Paste(text)),
        TermEvent::FocusGained | TermEvent::FocusLost => None,
    }
}

/// Opens the workbench on a folder of either format until the user quits. `roots` are where
/// the Sets view looks besides Claude Code's config folder; `options` open what it chooses.
pub fn run_on(
    backend: Backend,
    roots: Vec<std::path::PathBuf>,
    options: OpenOptions,
) -> Result<(), TuiError> {
    super::init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(TuiError::Runtime)?;
    runtime.block_on(run_async(backend, Sets { roots, options }))
}

/// Where the Sets view looks, and how what it chooses is opened.
struct Sets {
    roots: Vec<std::path::PathBuf>,
    options: OpenOptions,
}

/// Lock waits reported as events, so that the status line says so: the command line's notice
/// writes to stderr, which is the terminal under the drawing.
fn lock_waits_to(tx: &UnboundedSender<Event>) -> crate::formats::WaitNotice {
    let tx = tx.clone();
    std::sync::Arc::new(move |wait| {
        let _ = tx.send(Event::LockWait(wait));
    })
}

/// `backend` and `sets`, with every lock wait reported to `tx` instead of printed.
fn quiet_lock_waits(backend: Backend, sets: &mut Sets, tx: &UnboundedSender<Event>) -> Backend {
    let notice = lock_waits_to(tx);
    sets.options.store.on_lock_wait = Some(notice.clone());
    backend.with_lock_notice(Some(notice))
}

async fn run_async(backend: Backend, mut sets: Sets) -> Result<(), TuiError> {
    let (tx, rx) = unbounded_channel::<Event>();
    let backend = quiet_lock_waits(backend, &mut sets, &tx);
    let (mut watcher, baseline) = watch(&backend, &tx)?;
    let mut app = App::opened(backend, baseline, Theme::from_env());
    let mut term = terminal::enter().map_err(TuiError::Terminal)?;
    let _guard = terminal::Guard;
    let result = event_loop(&mut term, &mut app, tx, rx, &sets, &mut watcher).await;
    drop(watcher);
    tracing::info!("workbench closed");
    result
}

/// Forwards terminal input into the event queue until aborted.
fn spawn_input(tx: UnboundedSender<Event>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut stream = EventStream::new();
        // `StreamExt::next` without the `futures` crate: crossterm's stream is `Unpin`.
        while let Some(event) =
            std::future::poll_fn(|cx| std::pin::Pin::new(&mut stream).poll_next(cx)).await
        {
            match event {
                Ok(event) => {
                    if let Some(event) = map(event)
                        && tx.send(event).is_err()
                    {
                        return;
                    }
                }
                Err(e) => {
                    tracing::error!(error = %e, "terminal input failed");
                    let _ = tx.send(Event::InputClosed(e.to_string()));
                    return;
                }
            }
        }
    })
}

/// The event loop as the host of [`perform`]: work on the blocking pool, the real clipboard, the
/// real watcher.
struct Terminal<'a> {
    tx: &'a UnboundedSender<Event>,
    sets: &'a Sets,
    watcher: &'a mut Watching,
}

impl Host for Terminal<'_> {
    fn spawn(&mut self, work: Work) {
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let _ = tx.send(work.run());
        });
    }

    fn yank(&mut self, text: String) {
        let copy = crossterm::clipboard::CopyToClipboard::to_clipboard_from(text);
        if let Err(e) = crossterm::execute!(std::io::stdout(), copy) {
            tracing::warn!(error = %e, "cannot copy to the clipboard");
        }
    }

    fn set_roots(&self) -> Option<Vec<std::path::PathBuf>> {
        Some(self.sets.roots.clone())
    }

    fn open_options(&self) -> OpenOptions {
        self.sets.options.clone()
    }

    fn watch(&mut self, backend: &Backend) -> Result<Reading, String> {
        let (watching, reading) = watch(backend, self.tx).map_err(|e| e.to_string())?;
        *self.watcher = watching;
        Ok(reading)
    }

    fn env(&self) -> Env {
        |name| std::env::var(name).ok()
    }
}

async fn event_loop(
    term: &mut terminal::Term,
    app: &mut App,
    tx: UnboundedSender<Event>,
    mut rx: UnboundedReceiver<Event>,
    sets: &Sets,
    watcher: &mut Watching,
) -> Result<(), TuiError> {
    let mut input = spawn_input(tx.clone());
    let _ = tx.send(Event::Started);
    let mut queue: VecDeque<Event> = VecDeque::new();
    loop {
        term.draw(|frame| ui::render(frame, app))
            .map_err(TuiError::Draw)?;
        panic_point_for_tests();
        let Some(first) = rx.recv().await else {
            return Ok(());
        };
        queue.push_back(first);
        while let Ok(event) = rx.try_recv() {
            queue.push_back(event);
        }
        while let Some(event) = queue.pop_front() {
            if let Event::InputClosed(why) = &event {
                return Err(TuiError::Input(why.clone()));
            }
            for effect in app.update(event) {
                let mut host = Terminal {
                    tx: &tx,
                    sets,
                    watcher: &mut *watcher,
                };
                let Some(Handover::EditExternally(edit)) = perform(app, effect, &mut host) else {
                    continue;
                };
                // The editor owns the terminal meanwhile: stop reading input first.
                input.abort();
                let _ = (&mut input).await;
                terminal::restore();
                let command = external::editor_command();
                let (file, base) = (edit.file.clone(), edit.text.clone());
                let outcome = tokio::task::spawn_blocking(move || {
                    external::edit_until_valid(&edit, &command)
                })
                .await
                .map_err(TuiError::EditorTask)?;
                *term = terminal::enter().map_err(TuiError::Terminal)?;
                term.clear().map_err(TuiError::Draw)?;
                input = spawn_input(tx.clone());
                queue.push_back(Event::External {
                    file,
                    base,
                    outcome,
                });
            }
        }
        if app.quit {
            input.abort();
            return Ok(());
        }
    }
}

/// With the `fault-injection` feature only (tests): `MEMWB_TEST_PANIC_AFTER_DRAW=1` panics after the first frame, so a test can
/// check that the panic hook restores the terminal.
fn panic_point_for_tests() {
    #[cfg(feature = "fault-injection")]
    if std::env::var_os("MEMWB_TEST_PANIC_AFTER_DRAW").is_some() {
        panic!("test panic after the first frame (MEMWB_TEST_PANIC_AFTER_DRAW)");
    }
}
