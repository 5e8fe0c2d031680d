//! The event loop: one queue fed by the terminal, the watcher and finished jobs, drained before
//! each render. Engine calls run on the blocking pool, never on the UI task.

use std::collections::VecDeque;

use anyhow::Context;
use crossterm::event::{Event as TermEvent, EventStream};
use futures::{FutureExt, StreamExt};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::app::{App, Effect, Event};
use super::theme::Theme;
use super::{external, query, terminal, ui};
use crate::store::Store;
use crate::watch::{WatchOptions, Watcher};

fn map(event: TermEvent) -> Option<Event> {
    match event {
        TermEvent::Key(key) => Some(Event::Key(key)),
        TermEvent::Mouse(mouse) => Some(Event::Mouse(mouse)),
        TermEvent::Resize(w, h) => Some(Event::Resize(w, h)),
        _ => None,
    }
}

/// Opens the workbench on `store` until the user quits.
pub fn run(store: Store) -> anyhow::Result<()> {
    super::init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(run_async(store))
}

async fn run_async(store: Store) -> anyhow::Result<()> {
    let (tx, rx) = unbounded_channel::<Event>();
    let watch_tx = tx.clone();
    let (watcher, baseline) =
        Watcher::start(store.clone(), WatchOptions::default(), move |event| {
            let _ = watch_tx.send(Event::Watch(event));
        })
        .with_context(|| format!("cannot watch {}", store.root().display()))?;
    let mut app = App::new(store, baseline, Theme::from_env());
    let mut term = terminal::enter().context("cannot open the terminal")?;
    let _guard = terminal::Guard;
    let result = event_loop(&mut term, &mut app, tx, rx).await;
    drop(watcher);
    tracing::info!("workbench closed");
    result
}

async fn event_loop(
    term: &mut terminal::Term,
    app: &mut App,
    tx: UnboundedSender<Event>,
    mut rx: UnboundedReceiver<Event>,
) -> anyhow::Result<()> {
    let mut input = Some(EventStream::new());
    let mut queue: VecDeque<Event> = VecDeque::new();
    loop {
        term.draw(|frame| ui::render(frame, app))?;
        let first = tokio::select! {
            Some(event) = rx.recv() => Some(event),
            Some(event) = next_input(&mut input) => map(event?),
        };
        queue.extend(first);
        while let Ok(event) = rx.try_recv() {
            queue.push_back(event);
        }
        if let Some(stream) = &mut input {
            while let Some(Some(event)) = stream.next().now_or_never() {
                queue.extend(map(event?));
            }
        }
        while let Some(event) = queue.pop_front() {
            for effect in app.update(event) {
                match effect {
                    Effect::Quit => app.quit = true,
                    Effect::Run(job) => {
                        let store = app.store.clone();
                        let tx = tx.clone();
                        tokio::task::spawn_blocking(move || {
                            let _ = tx.send(Event::Job(job.run(&store)));
                        });
                    }
                    Effect::Query {
                        query,
                        records,
                        catalog,
                    } => {
                        let tx = tx.clone();
                        tokio::task::spawn_blocking(move || {
                            let _ =
                                tx.send(Event::Query(query::select(&query, &records, &catalog)));
                        });
                    }
                    Effect::ExternalEdit { base } => {
                        // The editor owns the terminal meanwhile: stop reading input first.
                        drop(input.take());
                        terminal::restore();
                        let command = external::editor_command();
                        let edit_base = base.clone();
                        let outcome = tokio::task::spawn_blocking(move || {
                            external::edit_until_valid(&edit_base, &command)
                        })
                        .await
                        .context("the editor task failed")?;
                        *term = terminal::enter()?;
                        term.clear()?;
                        input = Some(EventStream::new());
                        queue.push_back(Event::External { base, outcome });
                    }
                }
            }
        }
        if app.quit {
            return Ok(());
        }
    }
}

async fn next_input(input: &mut Option<EventStream>) -> Option<std::io::Result<TermEvent>> {
    match input {
        Some(stream) => stream.next().await,
        None => std::future::pending().await,
    }
}

/// Shared by the binary's entry points: the store for a workspace, opened with the defaults.
pub fn open_store(workspace: &std::path::Path) -> anyhow::Result<Store> {
    Store::open(workspace, Default::default())
        .with_context(|| format!("cannot open workspace {}", workspace.display()))
}
