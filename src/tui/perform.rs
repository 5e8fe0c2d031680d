//! Carrying out the app's effects: one interpreter for the event loop ([`mod@super::run`]) and the
//! tests' harness, so that a test exercises the code the terminal runs. What differs between
//! the two is only where the work runs and what touches the terminal, behind [`Host`].

use std::path::PathBuf;
use std::sync::Arc;

use super::app::{App, Effect, Event, Reading};
use crate::formats::Open as Backend;
use crate::formats::OpenOptions;

/// Engine work an effect asked for; its result goes back into the app's queue as an event.
pub struct Work(Box<dyn FnOnce() -> Event + Send>);

impl Work {
    fn new(work: impl FnOnce() -> Event + Send + 'static) -> Self {
        Self(Box::new(work))
    }

    /// Does the work (I/O: off the UI thread) and gives the event that reports it.
    pub fn run(self) -> Event {
        (self.0)()
    }
}

/// Looks up an environment variable (the model settings a query's selector reads).
pub type Env = fn(&str) -> Option<String>;

/// Where the workbench runs: the terminal's event loop, or a test.
pub trait Host {
    /// Runs `work` (on the blocking pool in the event loop, inline in a test) and feeds the
    /// event it gives back into the queue.
    fn spawn(&mut self, work: Work);

    /// Puts `text` on the clipboard.
    fn yank(&mut self, text: String);

    /// Where the Sets view looks besides Claude Code's config folder (`None`: it does not look;
    /// a test sends [`Event::Sets`] itself).
    fn set_roots(&self) -> Option<Vec<PathBuf>>;

    /// How a folder the Sets view chooses is opened.
    fn open_options(&self) -> OpenOptions;

    /// Watches `backend` in place of the folder watched so far; its first reading.
    fn watch(&mut self, backend: &Backend) -> Result<Reading, String>;

    /// The environment a query's selector reads its model settings from.
    fn env(&self) -> Env;
}

/// What the host must do itself after [`perform`]: it hands the terminal over.
#[derive(Debug)]
pub enum Handover {
    /// Suspend the screen, edit the memory's file in `$VISUAL`/`$EDITOR`
    /// ([`super::external::edit_until_valid`]), then send [`Event::External`].
    EditExternally(super::external::ExternalEdit),
}

/// Carries out one effect of `app`'s: the engine's work through `host.spawn`, the rest at once.
pub fn perform(app: &mut App, effect: Effect, host: &mut impl Host) -> Option<Handover> {
    match effect {
        Effect::Quit => app.quit = true,
        Effect::Yank(text) => host.yank(text),
        Effect::ExternalEdit(edit) => return Some(Handover::EditExternally(edit)),
        Effect::Run(job) => {
            // The watcher keeps the app's reading current: a job reads on top of it.
            let shown = (app.shown.clone(), app.watch_readings);
            let job = job.bind(&app.backend, shown);
            host.spawn(Work::new(move || Event::Job(Box::new(job()))));
        }
        Effect::LoadReview => {
            let backend = app.backend.clone();
            host.spawn(Work::new(move || {
                Event::Review(Arc::new(super::review::Review::of(&backend)))
            }));
        }
        Effect::Evaluate(request) => {
            let backend = app.backend.clone();
            host.spawn(Work::new(move || {
                Event::Evaluated(Box::new(super::evals::evaluate(&backend, *request)))
            }));
        }
        Effect::Audit => {
            let backend = app.backend.clone();
            host.spawn(Work::new(move || {
                Event::Audited(Arc::new(super::panes::findings::audit(&backend)))
            }));
        }
        Effect::ReadEntry { file } => {
            let backend = app.backend.clone();
            host.spawn(Work::new(move || {
                let bytes = backend.backend().entry_bytes(&file);
                Event::EntryRead { file, bytes }
            }));
        }
        Effect::Query {
            query,
            candidates,
            catalog,
        } => {
            let env = host.env();
            host.spawn(Work::new(move || {
                Event::Query(super::query::select_with(
                    &query,
                    &candidates,
                    catalog.as_deref(),
                    &env,
                ))
            }));
        }
        Effect::LoadSets => {
            if let Some(roots) = host.set_roots() {
                let options = host.open_options();
                host.spawn(Work::new(move || {
                    Event::Sets(super::run::find_sets(&roots, &options))
                }));
            }
        }
        Effect::OpenSet(set) => {
            let opened = Backend::open_set(&set, &host.open_options()).and_then(|backend| {
                let reading = host.watch(&backend)?;
                Ok((backend, reading))
            });
            match opened {
                Ok((backend, reading)) => app.open_folder(backend, reading),
                Err(why) => app.cannot_open(&set, &why),
            }
        }
    }
    None
}
