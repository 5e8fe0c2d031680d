//! The workbench's state and its update function: events in, effects out. Nothing here does
//! I/O; the event loop (or a test) carries out the effects and feeds their results back.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::editor::{Conflict, Editor, Target};
use super::jobs::{Job, JobDone};
use super::keymap::{self, Action, Scope};
use super::panes::Pane;
use super::panes::history::HistoryPane;
use super::panes::index::IndexPane;
use super::panes::manifest::{ManifestPane, entry_key};
use super::panes::proposals::ProposalsPane;
use super::panes::query::{QueryPane, QueryResult};
use super::panes::record::RecordPane;
use super::review::Review;
use super::theme::Theme;
use super::ui::Areas;
use crate::review::Status as ProposalStatus;
use crate::store::inspect::{Entry, EntryState, Inspection};
use crate::store::{Commit, Record, Store};
use crate::watch::{WatchEvent, diff, valid_set};

/// Everything the workbench reacts to, from one queue.
#[derive(Debug)]
pub enum Event {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    Watch(WatchEvent),
    Job(Box<JobDone>),
    /// `$VISUAL`/`$EDITOR` finished an edit of `base`.
    External {
        base: Record,
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
}

#[derive(Debug, Clone)]
pub enum ExternalOutcome {
    Edited(Record),
    Aborted(String),
    Failed(String),
}

/// What the event loop must do for the app.
#[derive(Debug, Clone)]
pub enum Effect {
    Run(Job),
    /// Suspend the screen and edit `base` in `$VISUAL`/`$EDITOR`.
    ExternalEdit {
        base: Record,
    },
    /// Select records for a query (keyword fallback, or the model when configured).
    Query {
        query: String,
        records: Vec<Record>,
        catalog: Option<String>,
    },
    /// Load the proposals and the journal, then send [`Event::Review`].
    LoadReview,
    /// Read a manifest entry's bytes (`Store::entry_bytes`), then send [`Event::EntryRead`].
    ReadEntry {
        file: String,
    },
    Quit,
}

/// What the body of the screen shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The four panes.
    Panes,
    Proposals,
    History,
}

#[derive(Debug, Clone)]
pub enum Confirm {
    Delete(Record),
    /// Drop a manifest entry that does not read; `seen` is its text as shown (`None`: missing
    /// or unreadable), the base of the drop.
    Drop {
        file: String,
        seen: Option<String>,
    },
    /// Undo a journal entry.
    Undo(Box<crate::review::Entry>),
    /// Quit although the editor holds unsaved changes.
    Quit,
    /// Close the editor and drop its unsaved changes.
    DiscardEdit,
}

impl Confirm {
    pub fn question(&self) -> String {
        match self {
            Confirm::Delete(r) => format!(
                "Delete {}? This commits a transaction.",
                super::sanitize::line(r.name())
            ),
            Confirm::Drop { file, .. } => format!(
                "Drop {} from the manifest? The file is deleted; this commits a transaction.",
                super::sanitize::line(file)
            ),
            Confirm::Undo(entry) => format!(
                "Undo entry #{} ({})? This commits a transaction.",
                entry.id,
                entry.op.as_str()
            ),
            Confirm::Quit => "Quit and lose the unsaved changes in the editor?".into(),
            Confirm::DiscardEdit => "Close the editor and lose its unsaved changes?".into(),
        }
    }
}

#[derive(Debug, Clone)]
pub enum Modal {
    Help {
        scroll: usize,
    },
    Confirm(Confirm),
    /// Rejecting proposal `id`: the reason being typed.
    Reason {
        id: String,
        text: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusKind {
    Info,
    Change,
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub kind: StatusKind,
    pub text: String,
}

pub struct App {
    pub store: Store,
    pub inspection: Arc<Inspection>,
    pub focus: Pane,
    pub manifest: ManifestPane,
    pub record: RecordPane,
    pub index: IndexPane,
    pub query: QueryPane,
    pub view: View,
    pub review: Arc<Review>,
    pub proposals: ProposalsPane,
    pub history: HistoryPane,
    pub editor: Option<Editor>,
    pub modal: Option<Modal>,
    pub status: Option<Status>,
    pub zoom: bool,
    pub theme: Theme,
    /// Jobs started and not finished.
    pub busy: usize,
    pub quit: bool,
    /// Where each pane was drawn last, for the mouse.
    pub areas: Areas,
}

/// The status line while the set is unreadable: what to do about it.
pub const UNREADABLE: &str =
    "set unreadable: select a ✗ entry, e repairs it, d drops it from the manifest";

/// A one-line summary of a commit, names as they are (sanitized when drawn).
pub fn describe_commit(commit: &Commit) -> String {
    let mut parts = Vec::new();
    for (sign, names) in [
        ("+", &commit.added),
        ("-", &commit.removed),
        ("~", &commit.changed),
    ] {
        if !names.is_empty() {
            parts.push(format!("{sign}{}", names.join(&format!(" {sign}"))));
        }
    }
    if parts.is_empty() {
        "no record changed".into()
    } else {
        parts.join("  ")
    }
}

impl App {
    pub fn new(store: Store, inspection: Arc<Inspection>, theme: Theme) -> Self {
        let mut app = Self {
            store,
            inspection,
            focus: Pane::Manifest,
            manifest: ManifestPane::default(),
            record: RecordPane::default(),
            index: IndexPane::default(),
            query: QueryPane::default(),
            view: View::Panes,
            review: Arc::new(Review::default()),
            proposals: ProposalsPane::default(),
            history: HistoryPane::default(),
            editor: None,
            modal: None,
            status: None,
            zoom: false,
            theme,
            busy: 0,
            quit: false,
            areas: Areas::default(),
        };
        app.manifest.refilter(&app.inspection, None);
        app.index.update(&app.inspection);
        if !app.inspection.is_readable() && !app.inspection.entries.is_empty() {
            app.set_status(StatusKind::Error, UNREADABLE.into());
        }
        app
    }

    /// Shows `review` (proposals and journal). With `announce`, proposals that were not there
    /// before are named in the status line, the way commits are.
    pub fn set_review(&mut self, review: Arc<Review>, announce: bool) {
        let known: Vec<String> = self.review.proposals.iter().map(|p| p.id.clone()).collect();
        self.review = review;
        self.proposals
            .refresh(&self.review, &valid_set(&self.inspection));
        self.history.refresh(&self.review);
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
        if !new.is_empty() {
            let hint = if self.view == View::Proposals {
                ""
            } else {
                "; p shows it"
            };
            self.set_status(
                StatusKind::Change,
                format!("new proposal: {}{hint}", new.join(", ")),
            );
        }
    }

    pub fn selected_entry(&self) -> Option<&Entry> {
        self.manifest.selected_entry(&self.inspection)
    }

    pub fn selected_record(&self) -> Option<&Record> {
        self.selected_entry().and_then(Entry::record)
    }

    pub fn set_status(&mut self, kind: StatusKind, text: String) {
        self.status = Some(Status { kind, text });
    }

    /// The scopes whose bindings are live now, most specific first.
    pub fn scopes(&self) -> Vec<Scope> {
        match &self.modal {
            Some(Modal::Help { .. }) => return vec![Scope::Help],
            Some(Modal::Confirm(_)) => return vec![Scope::Confirm],
            Some(Modal::Reason { .. }) => return vec![Scope::Input],
            None => {}
        }
        if let Some(editor) = &self.editor {
            return if editor.conflict.is_some() {
                vec![Scope::Conflict, Scope::Editor]
            } else {
                vec![Scope::Editor]
            };
        }
        match self.view {
            View::Proposals => return vec![Scope::Proposals, Scope::List, Scope::Global],
            View::History => return vec![Scope::History, Scope::List, Scope::Global],
            View::Panes => {}
        }
        if self.manifest.typing || self.query.typing {
            return vec![Scope::Input];
        }
        let pane = match self.focus {
            Pane::Manifest => Scope::Manifest,
            Pane::Index => Scope::Index,
            Pane::Query => Scope::Query,
            Pane::Record => Scope::List,
        };
        vec![pane, Scope::List, Scope::Global, Scope::Workbench]
    }

    /// Replaces the folder state, keeping the selection on the same record when it still exists.
    pub fn set_inspection(&mut self, inspection: Arc<Inspection>) {
        let keep = self.selected_entry().map(|e| entry_key(e).to_owned());
        self.inspection = inspection;
        self.index.update(&self.inspection);
        self.manifest.refilter(&self.inspection, keep.as_deref());
        self.proposals
            .refresh(&self.review, &valid_set(&self.inspection));
        if let Some(editor) = &mut self.editor
            && editor.target == Target::Record
            && let Some(base) = &editor.base
        {
            let current = self
                .inspection
                .entries
                .iter()
                .find_map(|e| e.record().filter(|r| r.name() == base.name()));
            editor.notice = match current {
                Some(r) if r == base => None,
                Some(_) => Some(format!(
                    "{} was changed on disk since you opened it",
                    base.name()
                )),
                None => Some(format!(
                    "{} was removed from the set since you opened it",
                    base.name()
                )),
            };
        }
    }

    pub fn update(&mut self, event: Event) -> Vec<Effect> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.key(key),
            Event::Key(_) | Event::Resize(..) | Event::InputClosed(_) => Vec::new(),
            Event::Mouse(mouse) => {
                self.mouse(mouse);
                Vec::new()
            }
            Event::Watch(WatchEvent::Review) => vec![Effect::LoadReview],
            Event::Watch(watch) => {
                self.watch(watch);
                Vec::new()
            }
            Event::Review(review) => {
                self.set_review(review, true);
                Vec::new()
            }
            Event::EntryRead { file, bytes } => {
                if self.editor.is_none() {
                    self.editor = Some(Editor::repair(&file, bytes));
                }
                Vec::new()
            }
            Event::Job(done) => self.job_done(*done),
            Event::External { base, outcome } => self.external_done(base, outcome),
            // A selection for an earlier query may finish after a later one: keep the latest.
            Event::Query(result) if self.query.asked.as_ref() != Some(&result.query) => Vec::new(),
            Event::Query(result) => {
                self.query.asked = None;
                self.query.view.scroll = 0;
                self.query.result = Some(result);
                Vec::new()
            }
        }
    }

    fn run(&mut self, job: Job) -> Vec<Effect> {
        self.busy += 1;
        vec![Effect::Run(job)]
    }

    fn watch(&mut self, event: WatchEvent) {
        match event {
            WatchEvent::Committed(change) => {
                // Our own commits were already applied from the job's result.
                let ours = diff(&self.inspection, &change.inspection).is_empty();
                self.set_inspection(change.inspection.clone());
                if !ours {
                    self.set_status(
                        StatusKind::Change,
                        format!("commit: {}", describe_commit(&change.commit)),
                    );
                }
            }
            WatchEvent::Refreshed(change) => self.set_inspection(change.inspection),
            WatchEvent::Error(message) => self.set_status(StatusKind::Error, message),
            WatchEvent::Review => {}
        }
    }

    fn key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let scopes = self.scopes();
        let action = keymap::lookup(&scopes, &key);
        match scopes.first() {
            Some(Scope::Help) => {
                match action {
                    Some(Action::Cancel) => self.modal = None,
                    Some(Action::Down) | Some(Action::Up) => {
                        if let Some(Modal::Help { scroll }) = &mut self.modal {
                            *scroll = if action == Some(Action::Down) {
                                *scroll + 1
                            } else {
                                scroll.saturating_sub(1)
                            };
                        }
                    }
                    _ => {}
                }
                Vec::new()
            }
            Some(Scope::Confirm) => self.confirm(action),
            Some(Scope::Input) if matches!(self.modal, Some(Modal::Reason { .. })) => {
                self.reason_key(action, key)
            }
            Some(Scope::Conflict | Scope::Editor) => self.editor_key(action, key),
            Some(Scope::Input) => {
                self.input_key(action, key);
                if action == Some(Action::Submit)
                    && !self.manifest.typing
                    && self.focus == Pane::Query
                {
                    return self.run_query();
                }
                Vec::new()
            }
            _ => match action {
                Some(action) => self.act(action),
                None => Vec::new(),
            },
        }
    }

    fn confirm(&mut self, action: Option<Action>) -> Vec<Effect> {
        let Some(Modal::Confirm(question)) = self.modal.clone() else {
            return Vec::new();
        };
        match action {
            Some(Action::Yes) => {
                self.modal = None;
                match question {
                    Confirm::Delete(record) => return self.run(Job::Remove(record)),
                    Confirm::Drop { file, seen } => return self.run(Job::DropEntry { file, seen }),
                    Confirm::Undo(entry) => return self.run(Job::Undo(*entry)),
                    Confirm::Quit => {
                        self.quit = true;
                        return vec![Effect::Quit];
                    }
                    Confirm::DiscardEdit => self.editor = None,
                }
            }
            Some(Action::No) => self.modal = None,
            _ => {}
        }
        Vec::new()
    }

    /// Typing the reason for a rejection: Enter rejects, Esc cancels.
    fn reason_key(&mut self, action: Option<Action>, key: KeyEvent) -> Vec<Effect> {
        let Some(Modal::Reason { id, text }) = &mut self.modal else {
            return Vec::new();
        };
        match action {
            Some(Action::Submit) => {
                let id = id.clone();
                let reason = text.trim().to_owned();
                self.modal = None;
                return self.run(Job::Reject {
                    id,
                    reason: (!reason.is_empty()).then_some(reason),
                });
            }
            Some(Action::Cancel) => self.modal = None,
            _ => type_into(text, key),
        }
        Vec::new()
    }

    fn input_key(&mut self, action: Option<Action>, key: KeyEvent) {
        let filtering = self.manifest.typing;
        let (text, typing) = if filtering {
            (&mut self.manifest.filter, &mut self.manifest.typing)
        } else {
            (&mut self.query.input, &mut self.query.typing)
        };
        match action {
            Some(Action::Submit) => *typing = false,
            Some(Action::Cancel) => {
                *typing = false;
                if filtering {
                    text.clear();
                }
            }
            _ => type_into(text, key),
        }
        if filtering {
            let keep = self.selected_entry().map(|e| entry_key(e).to_owned());
            self.manifest.refilter(&self.inspection, keep.as_deref());
        }
    }

    fn run_query(&mut self) -> Vec<Effect> {
        let records: Vec<Record> = self.inspection.valid_records().cloned().collect();
        let catalog = self.inspection.index.derived.clone();
        self.query.asked = Some(self.query.input.clone());
        vec![Effect::Query {
            query: self.query.input.clone(),
            records,
            catalog,
        }]
    }

    fn act(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Quit => {
                self.quit = true;
                return vec![Effect::Quit];
            }
            Action::Help => self.modal = Some(Modal::Help { scroll: 0 }),
            Action::ShowProposals => {
                self.view = if self.view == View::Proposals {
                    View::Panes
                } else {
                    View::Proposals
                }
            }
            Action::ShowHistory => {
                self.view = if self.view == View::History {
                    View::Panes
                } else {
                    View::History
                }
            }
            Action::Back => self.view = View::Panes,
            movement if movement.is_movement() && self.view != View::Panes => {
                if self.view == View::Proposals {
                    self.proposals.act(action);
                } else {
                    self.history.act(action);
                }
            }
            Action::Edit if self.view == View::Proposals => self.edit_proposal(),
            Action::Approve => match self.proposals.selected_row() {
                Some(row) => {
                    let id = row.proposal.id.clone();
                    return self.run(Job::Approve { id });
                }
                None => self.set_status(StatusKind::Error, "no proposal selected".into()),
            },
            Action::Reject => match self.proposals.selected_row() {
                Some(row) => {
                    self.modal = Some(Modal::Reason {
                        id: row.proposal.id.clone(),
                        text: String::new(),
                    })
                }
                None => self.set_status(StatusKind::Error, "no proposal selected".into()),
            },
            Action::Undo => match self.history.selected_entry() {
                Some(entry) => {
                    self.modal = Some(Modal::Confirm(Confirm::Undo(Box::new(entry.clone()))))
                }
                None => self.set_status(StatusKind::Error, "no journal entry selected".into()),
            },
            Action::FocusNext => self.focus = self.focus.next(1),
            Action::FocusPrev => self.focus = self.focus.next(-1),
            Action::Zoom => self.zoom = !self.zoom,
            movement if movement.is_movement() => match self.focus {
                Pane::Manifest => {
                    self.manifest.act(action);
                }
                Pane::Record => {
                    self.record.act(action);
                }
                Pane::Index => {
                    self.index.act(action);
                }
                Pane::Query => {
                    self.query.act(action);
                }
            },
            Action::Filter => {
                self.focus = Pane::Manifest;
                self.manifest.typing = true;
            }
            Action::QueryInput => {
                self.focus = Pane::Query;
                self.query.typing = true;
            }
            Action::Edit => match self.selected_record().cloned() {
                Some(record) => self.editor = Some(Editor::open(&record)),
                None => match self.repairable() {
                    Some(file) => return vec![Effect::ReadEntry { file }],
                    None => self.cannot_edit(),
                },
            },
            Action::EditExternal => match self.selected_record().cloned() {
                Some(base) => return vec![Effect::ExternalEdit { base }],
                None => self.cannot_edit(),
            },
            Action::New => self.editor = Some(Editor::new_record()),
            Action::Delete => match self.selected_record().cloned() {
                Some(record) => self.modal = Some(Modal::Confirm(Confirm::Delete(record))),
                None => match self.repairable() {
                    Some(file) => {
                        let seen = self.selected_entry().and_then(|e| match &e.state {
                            EntryState::Invalid { raw, .. } => Some(raw.clone()),
                            _ => None,
                        });
                        self.modal = Some(Modal::Confirm(Confirm::Drop { file, seen }))
                    }
                    None => {
                        self.set_status(StatusKind::Error, "select a valid record to delete".into())
                    }
                },
            },
            Action::RebuildIndex => return self.run(Job::RebuildIndex),
            Action::Reload => return self.run(Job::Reload),
            _ => {}
        }
        Vec::new()
    }

    fn cannot_edit(&mut self) {
        let text = match self.selected_entry() {
            None => "no record selected".to_owned(),
            Some(_) => "this entry cannot be edited here; d drops it from the manifest".to_owned(),
        };
        self.set_status(StatusKind::Error, text);
    }

    /// The selected manifest entry's file when it does not read and can be repaired.
    fn repairable(&self) -> Option<String> {
        let entry = self.selected_entry()?;
        match entry.state {
            EntryState::Valid(_) | EntryState::UnsafeName => None,
            _ => Some(entry.file.clone()),
        }
    }

    /// Opens the proposed record marked ▶ of the selected pending proposal in the editor.
    fn edit_proposal(&mut self) {
        let Some(row) = self.proposals.selected_row() else {
            self.set_status(StatusKind::Error, "no proposal selected".into());
            return;
        };
        if row.proposal.status != ProposalStatus::Pending {
            let text = format!(
                "proposal {} was already {}; only a pending proposal can be edited",
                row.proposal.id,
                row.state.as_str()
            );
            self.set_status(StatusKind::Error, text);
            return;
        }
        let id = row.proposal.id.clone();
        let index = self.proposals.record;
        let records = self.proposals.proposed_records();
        match records.get(index) {
            Some(record) => self.editor = Some(Editor::proposal(&id, index, record, &records)),
            None => self.set_status(
                StatusKind::Error,
                format!("proposal {id} has no valid plan to edit"),
            ),
        }
    }

    fn editor_key(&mut self, action: Option<Action>, key: KeyEvent) -> Vec<Effect> {
        let Some(editor) = &mut self.editor else {
            return Vec::new();
        };
        match action {
            Some(Action::Save) => {
                if editor.saving {
                    return Vec::new();
                }
                if let Target::Repair { file, seen } = editor.target.clone() {
                    match editor.parse_raw() {
                        Ok(replacement) => {
                            editor.saving = true;
                            editor.error = None;
                            return self.run(Job::Repair {
                                file,
                                seen,
                                replacement,
                            });
                        }
                        Err(e) => editor.error = Some(e),
                    }
                    return Vec::new();
                }
                match editor.validate() {
                    Ok(edited) => {
                        editor.saving = true;
                        editor.error = None;
                        if let Target::Proposal { id, index, opened } = editor.target.clone() {
                            let mut records = opened.clone();
                            records[index] = edited;
                            return self.run(Job::EditProposal {
                                id,
                                opened,
                                records,
                            });
                        }
                        let base = editor.base.clone();
                        return self.run(Job::Save { base, edited });
                    }
                    Err(e) => editor.error = Some(format!("{}: {e}", e.field())),
                }
            }
            Some(Action::NextField) => editor.next_field(1),
            Some(Action::PrevField) => editor.next_field(-1),
            Some(Action::CycleType) => editor.cycle_type(),
            Some(Action::Cancel) => {
                if editor.is_dirty() {
                    self.modal = Some(Modal::Confirm(Confirm::DiscardEdit));
                } else {
                    self.editor = None;
                }
            }
            Some(Action::ShowDiff) => {
                if let Some(conflict) = &editor.conflict {
                    let diff = editor.diff_against(conflict.current.as_ref());
                    if let Some(conflict) = &mut editor.conflict {
                        conflict.diff = Some(diff);
                    }
                }
            }
            Some(Action::Reapply) => {
                let current = editor.conflict.as_ref().and_then(|c| c.current.clone());
                editor.reapply(current);
            }
            Some(Action::KeepEditing) => editor.conflict = None,
            Some(Action::Quit) => {
                if self.request_quit() {
                    return vec![Effect::Quit];
                }
            }
            _ => editor.key(key),
        }
        Vec::new()
    }

    /// The record named `name` in the current inspection.
    fn current(&self, name: &str) -> Option<Record> {
        self.inspection
            .valid_records()
            .find(|r| r.name() == name)
            .cloned()
    }

    fn job_done(&mut self, done: JobDone) -> Vec<Effect> {
        self.busy = self.busy.saturating_sub(1);
        let what = done.job.describe();
        self.set_review(done.review.clone(), false);
        match (&done.job, &done.result) {
            (Job::EditProposal { id, .. }, Ok(_)) => {
                self.editor = None;
                self.set_status(
                    StatusKind::Info,
                    format!("proposal {id}: record edited (nothing applied yet; a approves)"),
                );
            }
            (Job::Repair { .. }, Ok(commit)) => {
                self.editor = None;
                self.set_inspection(done.inspection.clone());
                self.set_status(
                    StatusKind::Info,
                    format!("{what}: committed ({})", describe_commit(commit)),
                );
            }
            (Job::EditProposal { .. } | Job::Repair { .. }, Err(error)) => {
                self.set_inspection(done.inspection.clone());
                if let Some(editor) = &mut self.editor {
                    editor.saving = false;
                    editor.error = Some(error.message.clone());
                }
                self.set_status(
                    StatusKind::Error,
                    format!("{what} failed; your edit is still in the editor"),
                );
            }
            (Job::Save { edited, .. }, Ok(commit)) => {
                self.editor = None;
                self.set_inspection(done.inspection.clone());
                let keep = edited.name().to_owned();
                self.manifest.refilter(&self.inspection, Some(&keep));
                self.set_status(
                    StatusKind::Info,
                    format!("{what}: committed ({})", describe_commit(commit)),
                );
            }
            (Job::Save { base, edited }, Err(error)) => {
                self.set_inspection(done.inspection.clone());
                let current = base.as_ref().and_then(|b| self.current(b.name()));
                let editor = self.editor.get_or_insert_with(|| {
                    let mut editor = match base {
                        Some(b) => Editor::open(b),
                        None => Editor::new_record(),
                    };
                    let i = edited.to_input();
                    for (field, value) in [i.name, i.kind, i.description, i.body].iter().enumerate()
                    {
                        editor.set_value(field, value);
                    }
                    editor
                });
                editor.saving = false;
                if error.conflict {
                    editor.conflict = Some(Conflict {
                        current,
                        message: format!("not saved: {}", error.message),
                        diff: None,
                    });
                } else {
                    editor.error = Some(error.message.clone());
                }
                self.set_status(
                    StatusKind::Error,
                    format!("{what} failed; your edit is still in the editor"),
                );
            }
            (_, Ok(commit)) => {
                self.set_inspection(done.inspection.clone());
                let text = if commit.is_empty() {
                    format!("{what}: done")
                } else {
                    format!("{what}: committed ({})", describe_commit(commit))
                };
                self.set_status(StatusKind::Info, text);
            }
            (Job::Reject { .. } | Job::Approve { .. } | Job::Undo(_), Err(error)) => {
                self.set_inspection(done.inspection.clone());
                self.set_status(
                    StatusKind::Error,
                    format!("{what} refused: {}", error.message),
                );
            }
            (_, Err(error)) => {
                self.set_inspection(done.inspection.clone());
                self.set_status(
                    StatusKind::Error,
                    format!("{what} failed: {}", error.message),
                );
            }
        }
        Vec::new()
    }

    fn external_done(&mut self, base: Record, outcome: ExternalOutcome) -> Vec<Effect> {
        match outcome {
            ExternalOutcome::Edited(edited) => self.run(Job::Save {
                base: Some(base),
                edited,
            }),
            ExternalOutcome::Aborted(why) => {
                self.set_status(StatusKind::Info, why);
                Vec::new()
            }
            ExternalOutcome::Failed(why) => {
                self.set_status(StatusKind::Error, why);
                Vec::new()
            }
        }
    }

    fn pane_at(&self, x: u16, y: u16) -> Option<Pane> {
        let p = Position { x, y };
        Pane::ALL
            .into_iter()
            .find(|pane| self.areas.pane(*pane).contains(p))
    }

    fn mouse(&mut self, mouse: MouseEvent) {
        if self.modal.is_some() || self.editor.is_some() {
            return;
        }
        if self.view != View::Panes {
            let down = match mouse.kind {
                MouseEventKind::ScrollDown => true,
                MouseEventKind::ScrollUp => false,
                _ => return,
            };
            match self.view {
                View::Proposals => self.proposals.scroll_view(down),
                _ => self.history.scroll_view(down),
            }
            return;
        }
        let Some(pane) = self.pane_at(mouse.column, mouse.row) else {
            return;
        };
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.focus = pane;
                if pane == Pane::Manifest {
                    let list: Rect = self
                        .manifest
                        .list_area(self.areas.manifest, &self.inspection);
                    if list.contains(Position {
                        x: mouse.column,
                        y: mouse.row,
                    }) {
                        self.manifest.click((mouse.row - list.y) as usize);
                    }
                }
            }
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let down = mouse.kind == MouseEventKind::ScrollDown;
                match pane {
                    Pane::Manifest => self.manifest.scroll_view(down),
                    Pane::Record => self.record.scroll_view(down),
                    Pane::Index => self.index.scroll_view(down),
                    Pane::Query => self.query.scroll_view(down),
                }
            }
            _ => {}
        }
    }

    /// Whether quitting now would lose an edit.
    pub fn request_quit(&mut self) -> bool {
        if self.editor.as_ref().is_some_and(Editor::is_dirty) {
            self.modal = Some(Modal::Confirm(Confirm::Quit));
            false
        } else {
            self.quit = true;
            true
        }
    }
}

/// A key typed into a one-line input: Backspace deletes, a plain character is appended.
fn type_into(text: &mut String, key: KeyEvent) {
    match key.code {
        KeyCode::Backspace => {
            text.pop();
        }
        KeyCode::Char(c)
            if !key
                .modifiers
                .contains(crossterm::event::KeyModifiers::CONTROL) =>
        {
            text.push(c);
        }
        _ => {}
    }
}
