//! The workbench's state and its update function: events in, effects out. Nothing here does
//! I/O; the event loop (or a test) carries out the effects and feeds their results back.
//!
//! The flows live beside it: `modal` (help, confirmations, the rejection reason),
//! `editing` (the editor, one flow for every format), `inputs` (the one-line inputs and
//! pastes), `job_results` (finished jobs and external edits), `evaluation` (the eval cases
//! re-run after commits, saving a case), `mouse`, `sets` (the Sets view, opening another
//! folder) and `reading` (the folder as read, whatever its format).

mod editing;
mod evaluation;
mod findings;
mod index_fix;
mod inputs;
mod job_results;
mod keys;
mod lifecycle;
mod messages;
mod modal;
mod mouse;
mod reading;
mod rebase;
mod sets;
mod strays;
mod view;

use std::sync::Arc;

use crossterm::event::{KeyEvent, KeyEventKind, MouseEvent};

pub use index_fix::fix_lines;
pub use modal::{Confirm, Modal};
pub use sets::Reading;
pub use view::View;

use super::editor::Editor;
use super::evals::{EvalRequest, Evals, Evaluated};
use super::jobs::{Job, JobDone};
use super::keymap::{self, Action, Scope};
use super::layout::Areas;
use super::line_input::LineInput;
use super::panes::findings::FindingsPane;
use super::panes::history::HistoryPane;
use super::panes::index::IndexPane;
use super::panes::manifest::ManifestPane;
use super::panes::proposals::ProposalsPane;
use super::panes::query::{QueryPane, QueryResult};
use super::panes::record::RecordPane;
use super::panes::sets::SetsPane;
use super::panes::{Detail, Pane};
use super::review::Review;
use super::theme::Theme;
use crate::content::report::SetReport;
use crate::formats::Open as Backend;
use crate::formats::{Shown, Summary};
use crate::review::ProposalStatus;

/// Everything the workbench reacts to, from one queue.
#[derive(Debug)]
pub enum Event {
    Key(KeyEvent),
    Mouse(MouseEvent),
    /// Text pasted in the terminal (bracketed paste), whole.
    Paste(String),
    Resize(u16, u16),
    /// The watcher of the open folder saw it change.
    Watch(super::watching::Watched),
    Job(Box<JobDone>),
    /// `$VISUAL`/`$EDITOR` finished an edit of the memory file `file`, whose text was `base`.
    External {
        file: String,
        base: String,
        outcome: ExternalOutcome,
    },
    Query(QueryResult),
    /// The proposals and the journal, loaded off the UI thread.
    Review(Arc<Review>),
    /// The bytes of a manifest entry that does not read, for the repair editor.
    EntryRead {
        file: String,
        bytes: Option<Vec<u8>>,
    },
    /// Terminal input failed; the loop ends with this error.
    InputClosed(String),
    /// The event loop started: background work that needs no input may begin.
    Started,
    /// A change waited a second for a lock another process holds (it goes on waiting).
    LockWait(crate::formats::LockWait),
    /// The eval cases ran in the background.
    Evaluated(Box<Evaluated>),
    /// Every memory folder found, for the Sets view.
    Sets(Vec<Summary>),
    /// The set was checked in the background (`Effect::Audit`).
    Audited(Arc<SetReport>),
}

/// How an edit in `$VISUAL`/`$EDITOR` ended.
#[derive(Debug, Clone)]
pub enum ExternalOutcome {
    /// The file's new text, valid as the format reads its files.
    Edited(String),
    Aborted(String),
    Failed(String),
}

/// What the event loop must do for the app.
#[derive(Debug, Clone)]
pub enum Effect {
    /// Run a job on the folder open, then send [`Event::Job`].
    Run(Job),
    /// Suspend the screen and edit a memory's file in `$VISUAL`/`$EDITOR`.
    ExternalEdit(super::external::ExternalEdit),
    /// Select among the memories that read for a query, as an agent given `catalog` would
    /// (keyword fallback, or the model when configured), then send [`Event::Query`]. `catalog`
    /// is `None` when the set is unreadable: an agent then selects nothing.
    Query {
        query: String,
        candidates: Vec<crate::memory::Memory>,
        catalog: Option<String>,
    },
    /// Load the proposals and the journal, then send [`Event::Review`].
    LoadReview,
    /// Read the bytes of a set entry that does not read (`Backend::entry_bytes`), then send
    /// [`Event::EntryRead`].
    ReadEntry {
        file: String,
    },
    /// Put `text` on the terminal's clipboard (OSC 52).
    Yank(String),
    /// Run the eval cases (`tui::evals::evaluate`), then send [`Event::Evaluated`].
    Evaluate(Box<EvalRequest>),
    /// Find every memory folder, then send [`Event::Sets`].
    LoadSets,
    /// Open this folder in place of the one open (then [`App::open_folder`]).
    OpenSet(Box<Summary>),
    /// Check the set (`tui::panes::findings::audit`), then send [`Event::Audited`].
    Audit,
    Quit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusKind {
    Info,
    Change,
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusLine {
    pub kind: StatusKind,
    pub text: String,
}

pub struct App {
    /// The open folder, of either format.
    pub backend: Backend,
    /// The open folder as read: what the panes draw.
    pub shown: Shown,
    pub sets: SetsPane,
    pub focus: Pane,
    pub manifest: ManifestPane,
    pub record: RecordPane,
    pub index: IndexPane,
    pub query: QueryPane,
    pub view: View,
    pub review: Arc<Review>,
    pub proposals: ProposalsPane,
    pub history: HistoryPane,
    pub findings: FindingsPane,
    pub editor: Option<Editor>,
    pub modal: Option<Modal>,
    pub status: Option<StatusLine>,
    pub(crate) zoom: bool,
    pub(crate) theme: Theme,
    /// Jobs started and not finished.
    pub(crate) busy: usize,
    pub quit: bool,
    /// Where each pane was drawn last, for the mouse.
    pub areas: Areas,
    /// The last [`LOG_SIZE`] status messages, oldest first (`M` shows them).
    pub log: std::collections::VecDeque<StatusLine>,
    /// What the watcher said while a job of ours ran (it may be that job's commit).
    watcher_said: Vec<messages::WatcherSaid>,
    /// What our commits left the folder as, not shown because the watcher delivered a reading
    /// while their job ran (`job_reading`): the watcher's report of one of them is that
    /// commit, which its job's result said.
    own_unshown: Vec<Shown>,
    /// The eval cases' latest run and what changed since the one before.
    pub(crate) evals: Evals,
    /// The reason line of a rejection (its history outlives each rejection).
    pub(crate) reason: LineInput,
    /// The open yes/no question has been drawn: only a key read after that answers it.
    pub(crate) prompt_on_screen: bool,
    /// How far the open yes/no question (a long diff, say) is scrolled.
    pub(crate) confirm_view: Detail,
    /// How many readings of the set the watcher has delivered: a job started before the last
    /// one read from an older base (see `job_done`).
    pub watch_readings: u64,
}

/// How many status messages the log keeps.
pub const LOG_SIZE: usize = 100;

pub use strays::unreadable;

impl App {
    /// The workbench on `backend`, showing `shown` (its reading).
    pub fn new(backend: Backend, shown: Shown, theme: Theme) -> Self {
        // What this process journals from now on was made in the workbench.
        crate::review::who::Tool::set(crate::review::who::Tool::Workbench);
        let mut app = Self {
            backend,
            shown,
            sets: SetsPane::default(),
            focus: Pane::Manifest,
            manifest: ManifestPane::default(),
            record: RecordPane::default(),
            index: IndexPane::default(),
            query: QueryPane::default(),
            view: View::Panes,
            review: Arc::new(Review::default()),
            proposals: ProposalsPane::default(),
            history: HistoryPane::default(),
            findings: FindingsPane::new(),
            editor: None,
            modal: None,
            status: None,
            zoom: false,
            theme,
            busy: 0,
            quit: false,
            areas: Areas::default(),
            log: Default::default(),
            watcher_said: Vec::new(),
            own_unshown: Vec::new(),
            evals: Evals::new(),
            reason: LineInput::default(),
            prompt_on_screen: false,
            confirm_view: Detail::default(),
            watch_readings: 0,
        };
        app.refilter_keeping(None);
        app.index.update(&app.shown);
        if !app.shown.is_readable() && !app.shown.is_empty() {
            app.set_status(StatusKind::Error, unreadable());
        }
        app
    }

    /// Shows `review` (proposals and journal). With `announce`, proposals that were not there
    /// before are named in the status line, the way commits are.
    pub fn set_review(&mut self, review: Arc<Review>, announce: bool) {
        let known: Vec<String> = self.review.proposals.iter().map(|p| p.id.clone()).collect();
        self.review = review;
        self.proposals.refresh(&self.review, &self.shown);
        self.history.refresh(&self.review);
        // The cases or the pending proposals may have changed with it.
        self.evals.due = true;
        if !announce {
            return;
        }
        let new: Vec<String> = self
            .proposals
            .rows
            .iter()
            .filter(|r| {
                r.proposal.status == ProposalStatus::Pending && !known.contains(&r.proposal.id)
            })
            .map(|r| format!("{} ({})", r.proposal.id, r.summary))
            .collect();
        if let Some(id) = self.proposals.rows.iter().find_map(|r| {
            let id = &r.proposal.id;
            (r.proposal.status == ProposalStatus::Pending && !known.contains(id)).then_some(id)
        }) {
            // `p` opens on what was just filed, not on the first proposal
            let id = id.clone();
            self.proposals.select(&id);
        }
        if !new.is_empty() {
            let hint = if self.view == View::Proposals {
                String::new()
            } else {
                format!(
                    "; {} shows it",
                    keymap::label(Scope::Global, Action::ShowProposals)
                )
            };
            self.set_status(
                StatusKind::Change,
                format!("new proposal: {}{hint}", new.join(", ")),
            );
        }
    }

    /// One event in; the effects to carry out. A run of the eval cases is asked for whenever
    /// one is due and none is running.
    pub fn update(&mut self, event: Event) -> Vec<Effect> {
        let asked = matches!(self.modal, Some(Modal::Confirm(_)));
        let mut effects = self.handle(event);
        self.prompt_on_screen &= asked;
        effects.extend(self.evaluation_due());
        effects.extend(self.stray_due());
        effects.extend(self.audit_due());
        effects
    }

    fn handle(&mut self, event: Event) -> Vec<Effect> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.key(key),
            Event::LockWait(wait) => {
                self.lock_waited(wait);
                Vec::new()
            }
            Event::Key(_) | Event::Resize(..) | Event::InputClosed(_) | Event::Started => {
                Vec::new()
            }
            Event::Evaluated(done) => {
                self.evaluated(*done);
                Vec::new()
            }
            Event::Audited(report) => {
                self.audited(report);
                Vec::new()
            }
            Event::Mouse(mouse) => {
                self.mouse(mouse);
                Vec::new()
            }
            Event::Paste(text) => {
                self.paste(&text);
                Vec::new()
            }
            event if self.stale(&event) => Vec::new(),
            Event::Sets(sets) => {
                self.sets.loaded(sets);
                if self
                    .status
                    .as_ref()
                    .is_some_and(|s| s.text == sets::LOOKING)
                {
                    let found = self.sets.sets.as_ref().map_or(0, Vec::len);
                    self.set_status(StatusKind::Info, format!("{found} memory folders found"));
                }
                Vec::new()
            }
            Event::Watch(watched) if watched.is_review() => vec![Effect::LoadReview],
            Event::Watch(watched) => self.watch(watched.event),
            Event::Review(review) => {
                self.set_review(review, true);
                Vec::new()
            }
            Event::EntryRead { file, bytes } => self.entry_read(file, bytes),
            Event::Job(done) => self.job_done(*done),
            Event::External {
                file,
                base,
                outcome,
            } => self.external_done(file, base, outcome),
            // A selection for an earlier query may finish after a later one: keep the latest.
            Event::Query(result) if self.query.asked.as_ref() != Some(&result.query) => Vec::new(),
            Event::Query(result) => {
                self.query.show(result);
                Vec::new()
            }
        }
    }

    fn run(&mut self, job: impl Into<Job>) -> Vec<Effect> {
        self.run_all(vec![job.into()])
    }

    fn run_all(&mut self, jobs: Vec<Job>) -> Vec<Effect> {
        self.busy += jobs.len();
        jobs.into_iter().map(Effect::Run).collect()
    }

    fn key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let scopes = self.scopes();
        let binding = keymap::binding_for(&scopes, &key);
        if binding.is_some_and(|b| self.refused(b)) {
            return Vec::new();
        }
        let action = binding.map(|b| b.action);
        match scopes.first() {
            Some(Scope::Help) => self.help_key(action),
            Some(Scope::Confirm) => self.confirm(action),
            Some(Scope::Input) if matches!(self.modal, Some(Modal::Reason { .. })) => {
                self.reason_key(action, key)
            }
            Some(Scope::Input) if matches!(self.modal, Some(Modal::SaveCase { .. })) => {
                self.save_case_key(action, key)
            }
            Some(Scope::Conflict | Scope::Merge | Scope::Editor) => self.editor_key(action, key),
            Some(Scope::Input) if self.input_key(action, key) => self.run_query(),
            _ => match action {
                Some(action) => self.act(action),
                None => self.type_unbound(key),
            },
        }
    }

    /// An action outside the modal flows: the component with the keyboard first, then the app.
    fn act(&mut self, action: Action) -> Vec<Effect> {
        let Some(action) = self.active_mut().handle_key(action) else {
            return Vec::new();
        };
        match action {
            Action::Quit => return self.quit(),
            Action::Help => self.modal = Some(Modal::Help(Default::default())),
            Action::MessageLog => self.modal = Some(Modal::Log(Default::default())),
            Action::Back => self.view = View::Panes,
            Action::ShowSets => return self.toggle_sets(),
            Action::OpenSet => return self.open_selected_set(),
            show if View::shown_by(show).is_some() => {
                let target = View::shown_by(show).unwrap_or(View::Panes);
                if self.view == target {
                    self.view = View::Panes;
                } else {
                    self.view = target;
                    if let Some(view) = self.view_mut() {
                        view.shown();
                    }
                }
            }
            Action::Edit if self.view == View::Proposals => self.edit_proposal(),
            Action::JumpTo if self.view == View::Findings => self.jump_to_finding(),
            Action::FileFix => return self.file_fix(),
            Action::Approve | Action::Reject => {
                let ids = self.proposals.chosen();
                if ids.is_empty() {
                    self.set_status(StatusKind::Error, "no pending proposal selected".into());
                } else if action == Action::Approve {
                    self.modal = Some(Modal::Confirm(Confirm::Approve(ids)));
                } else {
                    self.reason.clear();
                    self.modal = Some(Modal::Reason { ids });
                }
            }
            Action::Rebase => return self.rebase_selected(),
            Action::Adopt => self.ask_about_stray(true),
            Action::Undo => match self.history.selected_entry() {
                Some(entry) => {
                    self.modal = Some(Modal::Confirm(Confirm::Undo(Box::new(entry.clone()))))
                }
                None => self.set_status(StatusKind::Error, "no journal entry selected".into()),
            },
            Action::FocusNext => self.focus = self.focus.next(1),
            Action::FocusPrev => self.focus = self.focus.next(-1),
            Action::Zoom => self.zoom = !self.zoom,
            Action::Edit => return self.edit_selected(),
            Action::EditExternal => return self.edit_selected_externally(),
            Action::New => self.editor = Some(self.new_editor()),
            Action::Delete => return self.delete_selected(),
            Action::Yank | Action::YankPath => return self.yank(action),
            Action::RebuildIndex => return self.preview_index_fix(),
            Action::SaveCase => self.open_save_case(),
            Action::JumpTo => self.jump_to_chosen(),
            Action::Reload => return self.run(Job::Reload),
            _ => {}
        }
        Vec::new()
    }
}
