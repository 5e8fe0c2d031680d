//! Drives the workbench without a terminal: key events in, effects carried out inline (jobs
//! run on the calling thread), frames drawn on ratatui's TestBackend.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use memwb::formats::{Change, Shown, WatchEvent, Watched, Watcher};
use memwb::store::{Store, StoreOptions};
use memwb::tui::app::{App, Event, Reading};
use memwb::tui::perform::{Env, Handover, Host, Work, perform};
use memwb::tui::review::Review;
use memwb::tui::theme::Theme;
use memwb::tui::{external, ui};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The harness as the host of [`perform`]: work runs on the calling thread, its event queued.
struct Inline<'a> {
    queue: std::collections::VecDeque<Event>,
    yanked: &'a mut Vec<String>,
}

impl Host for Inline<'_> {
    fn spawn(&mut self, work: Work) {
        self.queue.push_back(work.run());
    }

    fn yank(&mut self, text: String) {
        self.yanked.push(text);
    }

    /// Finding sets looks at the whole machine: tests send `Event::Sets` themselves.
    fn set_roots(&self) -> Option<Vec<PathBuf>> {
        None
    }

    fn open_options(&self) -> memwb::formats::OpenOptions {
        memwb::formats::OpenOptions::default()
    }

    fn watch(&mut self, backend: &memwb::formats::Open) -> Result<Reading, String> {
        Ok(Reading::of(backend))
    }

    /// No model: the keyword fallback, whatever the environment says.
    fn env(&self) -> Env {
        |_| None
    }
}

pub struct Harness {
    pub app: App,
    pub terminal: Terminal<TestBackend>,
    pub workspace: PathBuf,
    /// The command `E` runs (a shell command line; the file path is appended).
    pub editor: String,
    /// What `y` put on the clipboard, in order.
    pub yanked: Vec<String>,
    /// The real watcher, once [`Harness::start_watch`] started it, and what it reports.
    watching: Option<(Watcher, mpsc::Receiver<Watched>)>,
    _dir: Option<tempfile::TempDir>,
}

impl Harness {
    /// The shipped demo workspace, as `memwb demo` lays it out.
    pub fn demo(width: u16, height: u16) -> Self {
        let path = memwb::tui::demo::create().expect("demo");
        let dir = tempfile::TempDir::new().expect("tmp");
        // Move ownership of the demo folder to a TempDir so that it is removed afterwards.
        let target = dir.path().join("ws");
        std::fs::rename(&path, &target).expect("move demo");
        Self::open(target, Some(dir), width, height, StoreOptions::default())
    }

    /// An empty workspace in a temporary directory.
    pub fn empty(width: u16, height: u16) -> Self {
        let dir = tempfile::TempDir::new().expect("tmp");
        let path = dir.path().to_owned();
        Self::open(path, Some(dir), width, height, StoreOptions::default())
    }

    pub fn open(
        workspace: PathBuf,
        dir: Option<tempfile::TempDir>,
        width: u16,
        height: u16,
        options: StoreOptions,
    ) -> Self {
        let store = Store::open(&workspace, options).expect("open");
        let workspace = store.workspace().to_owned();
        let inspection = Arc::new(store.inspect());
        let review = Arc::new(Review::of(&memwb::formats::Open::from(store.clone())));
        let shown = memwb::formats::Shown::from(inspection);
        let mut app = App::new(memwb::formats::Open::from(store), shown, Theme::plain());
        app.set_review(review, false);
        let terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        let mut h = Self {
            app,
            terminal,
            workspace,
            editor: "false".into(),
            yanked: Vec::new(),
            watching: None,
            _dir: dir,
        };
        // As the event loop does when it starts: the first eval run, the baseline.
        h.send(Event::Started);
        h
    }

    /// The workbench on a Claude Code folder (`folder` stays where it is); memwb's state for
    /// it (journal, lock) goes under `state`.
    pub fn claude(
        folder: &Path,
        state: &Path,
        limits: memwb::claude::LoadLimits,
        width: u16,
        height: u16,
    ) -> Self {
        Self::claude_hooked(folder, state, limits, width, height, Default::default())
    }

    /// [`Harness::claude`] with every write step passing `hooks` (a fault injected).
    pub fn claude_hooked(
        folder: &Path,
        state: &Path,
        limits: memwb::claude::LoadLimits,
        width: u16,
        height: u16,
        hooks: memwb::store::IoHooks,
    ) -> Self {
        let folder = memwb::claude::ClaudeFolder::open(folder, limits)
            .expect("open")
            .with_state_root(state.to_owned())
            .with_hooks(hooks);
        let workspace = folder.root().to_owned();
        let snapshot = Arc::new(folder.read());
        let shown = memwb::formats::Shown::of_topics(&folder, snapshot);
        let backend = memwb::formats::Open::from(folder.clone());
        let mut app = App::new(backend.clone(), shown, Theme::plain());
        app.set_review(Arc::new(Review::of(&backend)), false);
        let terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
        let mut h = Self {
            app,
            terminal,
            workspace,
            editor: "false".into(),
            yanked: Vec::new(),
            watching: None,
            _dir: None,
        };
        h.send(Event::Started);
        h
    }

    /// What the Claude Code folder's watcher would report now.
    pub fn claude_tick(&mut self) {
        let folder = self
            .app
            .backend
            .engine::<memwb::claude::ClaudeFolder>()
            .expect("a Claude Code folder")
            .clone();
        let snapshot = Arc::new(folder.read());
        let before = memwb::formats::claude::shown_topics(&self.app.shown)
            .expect("a reading")
            .snapshot
            .clone();
        let commit = memwb::claude_watch::diff(&before, &snapshot);
        self.send_watched(WatchEvent::Changed(Change {
            at_ms: now_ms(),
            added: commit.added,
            removed: commit.removed,
            changed: commit.changed,
            unreadable: None,
            seen: Shown::of_topics(&folder, snapshot),
        }));
    }

    /// The selected row's key in the list (a memory's name; a file that does not read: its
    /// file) and its file.
    pub fn selected_key_and_file(&self) -> Option<(String, String)> {
        let i = self.app.manifest.selected_row()?;
        let shown = &self.app.shown;
        let (_, file) = shown.name_and_file_at(i)?;
        Some((shown.key_at(i)?.to_owned(), file.to_owned()))
    }

    /// The `.memory` set as the workbench shows it (panics on a folder of another format).
    pub fn inspection(&self) -> Arc<memwb::store::Inspection> {
        let shown = memwb::formats::memory::shown_inspection(&self.app.shown);
        shown.expect("a .memory folder is shown")
    }

    pub fn store(&self) -> Store {
        self.app
            .backend
            .engine::<Store>()
            .cloned()
            .expect("the harness opens .memory sets")
    }

    pub fn root(&self) -> PathBuf {
        self.workspace.join(".memory")
    }

    /// Draws a full frame. (TestBackend keeps the stale cell behind a wide character that a
    /// narrow one replaced, where a real terminal clears it; clearing first avoids that.)
    pub fn draw(&mut self) {
        self.terminal.clear().expect("clear");
        let app = &mut self.app;
        self.terminal.draw(|f| ui::render(f, app)).expect("draw");
    }

    /// Feeds one event, carries out every effect it leads to, and redraws.
    pub fn send(&mut self, event: Event) {
        self.feed(event);
        self.draw();
    }

    /// Keys that arrive in one read of the terminal: handled one after another with no frame
    /// drawn between them, as the event loop drains its queue before it draws.
    pub fn keys_in_one_read(&mut self, text: &str) {
        for c in text.chars() {
            self.feed(Event::Key(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            )));
        }
        self.draw();
    }

    /// Feeds one event and carries out every effect it leads to, without drawing: each through
    /// the event loop's own [`perform`], its work run inline.
    fn feed(&mut self, event: Event) {
        let mut host = Inline {
            queue: std::collections::VecDeque::from([event]),
            yanked: &mut self.yanked,
        };
        while let Some(event) = host.queue.pop_front() {
            for effect in self.app.update(event) {
                if let Some(Handover::EditExternally(edit)) =
                    perform(&mut self.app, effect, &mut host)
                {
                    let outcome = external::edit_until_valid(&edit, &self.editor);
                    host.queue.push_back(Event::External {
                        file: edit.file,
                        base: edit.text,
                        outcome,
                    });
                }
            }
        }
    }

    /// Moves the Manifest's selection down to the stray (unlisted or temp) `file`.
    pub fn select_stray(&mut self, file: &str) {
        self.press(KeyCode::Char('g'));
        for _ in 0..20 {
            if self.app.manifest.selected_stray().map(|s| s.file.as_str()) == Some(file) {
                return;
            }
            self.press(KeyCode::Char('j'));
        }
        panic!("{file} is not selectable");
    }

    pub fn press(&mut self, code: KeyCode) {
        self.send(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    pub fn ctrl(&mut self, c: char) {
        self.send(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::CONTROL,
        )));
    }

    /// Presses each character as a key.
    pub fn keys(&mut self, text: &str) {
        for c in text.chars() {
            let mods = if c.is_ascii_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            self.send(Event::Key(KeyEvent::new(KeyCode::Char(c), mods)));
        }
    }

    pub fn click(&mut self, column: u16, row: u16) {
        self.send(Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }));
    }

    pub fn scroll(&mut self, column: u16, row: u16, down: bool) {
        let kind = if down {
            MouseEventKind::ScrollDown
        } else {
            MouseEventKind::ScrollUp
        };
        self.send(Event::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }));
    }

    pub fn resize(&mut self, width: u16, height: u16) {
        self.terminal.backend_mut().resize(width, height);
        self.send(Event::Resize(width, height));
    }

    /// What the watcher of the folder open would send: `event`.
    pub fn send_watched(&mut self, event: WatchEvent) {
        let root = self.app.backend.root().to_owned();
        self.send(Event::Watch(Watched { root, event }));
    }

    /// What the watcher would report now (as if the manifest had just been replaced).
    pub fn watcher_tick(&mut self) {
        let inspection = Arc::new(self.store().inspect());
        let commit = self.inspection().diff(&inspection);
        self.send_watched(WatchEvent::Changed(Change {
            at_ms: now_ms(),
            added: commit.added,
            removed: commit.removed,
            changed: commit.changed,
            unreadable: None,
            seen: Shown::from(inspection),
        }));
    }

    /// Starts the watcher the event loop starts on this folder, its baseline what the app shows
    /// now; [`Harness::next_watch`] feeds what it reports into the app.
    pub fn start_watch(&mut self) {
        let (tx, rx) = mpsc::channel();
        let (watcher, _) = self
            .app
            .backend
            .backend()
            .watch(Box::new(move |watched| {
                let _ = tx.send(watched);
            }))
            .expect("watch");
        self.watching = Some((watcher, rx));
    }

    /// Feeds every change and re-reading the real watcher reports into the app, as the event
    /// loop does, until a change that `done` accepts (10 s at most for each); returns that one.
    pub fn watch_until(&mut self, done: impl Fn(&Change) -> bool) -> Change {
        loop {
            if let Some(change) = self.next_watch()
                && done(&change)
            {
                return change;
            }
        }
    }

    /// Waits (10 s at most) for the real watcher's next change or re-reading and feeds it to
    /// the app, as the event loop does; returns the change (`None`: a re-reading).
    pub fn next_watch(&mut self) -> Option<Change> {
        let (_, rx) = self.watching.as_ref().expect("start_watch first");
        let (watched, change) = loop {
            match rx.recv_timeout(std::time::Duration::from_secs(10)) {
                Ok(watched) => match &watched.event {
                    WatchEvent::Changed(change) => {
                        let change = change.clone();
                        break (watched, Some(change));
                    }
                    WatchEvent::Reread(_) => break (watched, None),
                    WatchEvent::Review => {}
                    WatchEvent::Error(e) => panic!("watch error: {e}"),
                },
                Err(e) => panic!("no news from the watcher: {e}"),
            }
        };
        self.send(Event::Watch(watched));
        change
    }

    /// What the watcher sends when `.memory/.memwb` changed (a proposal filed, a decision).
    pub fn review_tick(&mut self) {
        self.send_watched(WatchEvent::Review);
    }

    /// The screen as text, one line per row, trailing blanks trimmed, the workspace path
    /// replaced by `<ws>`.
    pub fn screen(&self) -> String {
        let buffer = self.terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..buffer.area.height {
            let mut line = String::new();
            let mut x = 0;
            while x < buffer.area.width {
                let symbol = buffer[(x, y)].symbol();
                line.push_str(symbol);
                x += unicode_width::UnicodeWidthStr::width(symbol).max(1) as u16;
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.replace(&self.workspace.display().to_string(), "<ws>")
    }

    pub fn file_names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.root())
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

/// A row of the Sets view for the folder at `path` (the counts are the view's, not checked).
pub fn set_row(format: memwb::formats::Format, path: &Path) -> memwb::formats::Summary {
    memwb::formats::Summary {
        format,
        path: path.display().to_string(),
        project: None,
        records: 1,
        errors: 0,
        warnings: 0,
        index: Some(memwb::formats::IndexUse {
            lines: 1,
            max_lines: 200,
            size: 10,
            max_size: 25000,
            unit: "utf16",
        }),
        last_change: None,
    }
}

/// A copy of the tests' Claude Code folder open in the workbench, memwb's state for it beside
/// it; the directory keeps both.
pub fn claude_fixture(width: u16, height: u16) -> (tempfile::TempDir, Harness) {
    let dir = crate::common::workspace();
    let folder = crate::common::claude_memory_copy(dir.path());
    let state = dir.path().join("state");
    let limits = memwb::claude::LoadLimits::default();
    let h = Harness::claude(&folder, &state, limits, width, height);
    (dir, h)
}

/// An empty workspace of `width` x `height` holding `records`, as the watcher shows them.
pub fn with_records(width: u16, height: u16, records: Vec<memwb::store::Record>) -> Harness {
    let mut h = Harness::empty(width, height);
    h.store().extend(records).expect("seed");
    h.watcher_tick();
    h
}

/// alpha and beta (tabs) and gamma (deploys), project records.
pub fn alpha_beta_gamma(width: u16, height: u16) -> Harness {
    let record = |name: &str, description: &str, body: &str| {
        memwb::store::Record::new(name, memwb::store::MemoryType::Project, description, body)
            .expect("valid")
    };
    with_records(
        width,
        height,
        vec![
            record("alpha", "tabs for indentation", "Indent with tabs."),
            record("beta", "tabs in yaml too", "Use tabs in YAML."),
            record("gamma", "deploys from main", "Deploy from main only."),
        ],
    )
}

pub fn path_exists(p: &Path) -> bool {
    p.exists()
}

/// Milliseconds since the Unix epoch, as the watcher stamps its news.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
