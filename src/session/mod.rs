//! The agent side: what a coding agent does with its memory each turn.
//!
//! ```text
//! begin_turn(query)      read the set, select up to max_selected records
//! before_model()         one system message with <relevant_memories> for this request only
//! ... model and tool loop; the canonical history grows ...
//! complete(history)      extract new records; at the threshold consolidate; commit once
//! ```
//!
//! Memory trouble never fails the agent's turn: it sets [`MemorySession::last_error`] to the
//! reference's wording and leaves the set unchanged. See `docs/session.md`.
//!
//! [`selection`] holds the free functions of one selection; [`selector`] is the glue every
//! caller without a session (`memwb select`, `memwb eval`, the workbench) runs it through.

mod candidates;
pub mod command;
pub mod config;
pub mod history;
#[cfg(feature = "http")]
pub mod http;
pub mod model;
mod plan;
pub mod prompts;
mod record_plan;
pub mod replies;
pub mod selection;
pub mod selector;

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;

pub use candidates::Candidates;
pub use command::CommandClient;
pub use config::{ModelEndpoint, ModelSettings};
pub use history::{
    AssistantMessage, HistoryError, Message, ToolCall, ToolResult, validate_tool_pairing,
};
#[cfg(feature = "http")]
pub use http::OpenAiClient;
pub use model::{
    ModelClient, ModelError, ModelReply, ModelRequest, SideQueryError, TokenUsage, ToolSpec,
    stable_json,
};
pub use record_plan::Plan;
pub use selection::{SELECTION_FAILED, Selection, keyword_fallback, render_selected, select};
pub use selector::Selector;

pub use plan::{
    CommitPlans, Committed, FolderReading, MemoryFolder, MemoryPlan, PlanError, PlanOutcome,
    PlanSink,
};

use crate::store::Record;

/// `last_error` after the extractor failed (or its records could not be committed).
pub const EXTRACTION_FAILED: &str = "Memory extraction failed";
/// `last_error` after the consolidator failed (or its plan could not be committed).
pub const CONSOLIDATION_FAILED: &str = "Memory consolidation failed";

/// The reference's defaults.
pub const DEFAULT_CONSOLIDATION_THRESHOLD: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionOptions {
    /// Most records selected per turn (reference: 5).
    pub max_selected: usize,
    /// The consolidator is asked when the set plus the extracted records reach this many
    /// (reference: 10).
    pub consolidation_threshold: usize,
}

impl Default for SessionOptions {
    fn default() -> Self {
        Self {
            max_selected: selection::DEFAULT_MAX_SELECTED,
            consolidation_threshold: DEFAULT_CONSOLIDATION_THRESHOLD,
        }
    }
}

/// One agent's memory over one folder of any format, turn by turn. Without a selector the
/// keyword fallback selects; without an extractor `complete` does nothing; without a
/// consolidator the extracted records are appended whatever the set's size.
pub struct MemorySession {
    folder: Box<dyn MemoryFolder>,
    options: SessionOptions,
    selector: Option<Arc<dyn ModelClient>>,
    extractor: Option<Arc<dyn ModelClient>>,
    consolidator: Option<Arc<dyn ModelClient>>,
    sink: Arc<dyn PlanSink>,
    selected: Vec<Record>,
    last_error: Option<(&'static str, String)>,
}

impl fmt::Debug for MemorySession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemorySession")
            .field("folder", &self.folder.root())
            .field("options", &self.options)
            .field("selector", &self.selector.is_some())
            .field("extractor", &self.extractor.is_some())
            .field("consolidator", &self.consolidator.is_some())
            .field("selected", &self.selected.len())
            .field("last_error", &self.last_error)
            .finish_non_exhaustive()
    }
}

impl MemorySession {
    /// A session with no model on `folder` (a `.memory` `Store`, a Claude Code `ClaudeFolder`,
    /// any `formats::Open`): keyword selection only, nothing extracted.
    pub fn new(folder: impl Into<Box<dyn MemoryFolder>>) -> Self {
        Self {
            folder: folder.into(),
            options: SessionOptions::default(),
            selector: None,
            extractor: None,
            consolidator: None,
            sink: Arc::new(CommitPlans),
            selected: Vec::new(),
            last_error: None,
        }
    }

    /// One client for all three side-queries, as the reference's `ModelMemoryQueries`.
    pub fn with_model(self, client: Arc<dyn ModelClient>) -> Self {
        Self {
            selector: Some(client.clone()),
            extractor: Some(client.clone()),
            consolidator: Some(client),
            ..self
        }
    }

    pub fn with_selector(self, client: Option<Arc<dyn ModelClient>>) -> Self {
        Self {
            selector: client,
            ..self
        }
    }

    pub fn with_extractor(self, client: Option<Arc<dyn ModelClient>>) -> Self {
        Self {
            extractor: client,
            ..self
        }
    }

    pub fn with_consolidator(self, client: Option<Arc<dyn ModelClient>>) -> Self {
        Self {
            consolidator: client,
            ..self
        }
    }

    pub fn with_options(self, options: SessionOptions) -> Self {
        Self { options, ..self }
    }

    /// Where validated plans go (default: [`CommitPlans`]).
    pub fn with_sink(self, sink: Arc<dyn PlanSink>) -> Self {
        Self { sink, ..self }
    }

    /// The folder this session reads and changes.
    pub fn folder(&self) -> &dyn MemoryFolder {
        self.folder.as_ref()
    }

    pub fn options(&self) -> SessionOptions {
        self.options
    }

    /// Starts a turn: clears `last_error`, reads the current set and selects from it. An
    /// unreadable set selects nothing and sets [`SELECTION_FAILED`].
    pub fn begin_turn(&mut self, query: &str) -> &[Record] {
        self.last_error = None;
        self.selected.clear();
        let set = match self.folder.read() {
            Ok(set) => set,
            Err(error) => {
                self.fail(SELECTION_FAILED, &*error);
                return &self.selected;
            }
        };
        let selection = select(
            &set.records,
            &set.catalog,
            query,
            self.selector.as_deref(),
            self.options.max_selected,
        );
        if let Some(message) = selection.error {
            debug_assert_eq!(message, SELECTION_FAILED);
            self.last_error = Some((SELECTION_FAILED, selection.error_detail.unwrap_or_default()));
        }
        self.selected = selection.selected;
        &self.selected
    }

    /// The records this turn selected.
    pub fn selected(&self) -> &[Record] {
        &self.selected
    }

    /// The `<relevant_memories>` block of this turn (empty when nothing was selected).
    pub fn render_selected(&self) -> String {
        render_selected(&self.selected)
    }

    /// The system message to add to this one model request, or nothing when no record was
    /// selected. It belongs to the request only: never append it to the canonical history.
    pub fn before_model(&self) -> Option<Message> {
        (!self.selected.is_empty()).then(|| Message::system(self.render_selected()))
    }

    /// Ends a turn: asks the extractor about a copy of the whole canonical history and, when
    /// the set plus the extracted records reach the threshold and a consolidator is set, the
    /// consolidator; then hands one validated plan to the sink. Any failure sets `last_error`
    /// and changes nothing. Returns what the sink did, or `None` when nothing was applied.
    pub fn complete(&mut self, history: &[Message]) -> Option<PlanOutcome> {
        let extractor = self.extractor.clone()?;
        let snapshot: Vec<Message> = history.to_vec();
        if let Err(error) = validate_tool_pairing(&snapshot) {
            self.fail(EXTRACTION_FAILED, &error);
            return None;
        }
        let base = match self.folder.read() {
            Ok(set) => set,
            Err(error) => {
                self.fail(EXTRACTION_FAILED, &*error);
                return None;
            }
        };
        let extracted = match replies::ask_extractor(extractor.as_ref(), &snapshot, &base.catalog) {
            Ok(records) => records,
            Err(error) => {
                self.fail(EXTRACTION_FAILED, &error);
                return None;
            }
        };
        let base = base.records;
        let candidates_count = base.len() + extracted.len();
        if let Some(consolidator) = self.consolidator.clone()
            && candidates_count >= self.options.consolidation_threshold
        {
            let candidates: Vec<Record> = base.iter().chain(&extracted).cloned().collect();
            let reply = match replies::ask_consolidator(consolidator.as_ref(), &candidates) {
                Ok(reply) => reply,
                Err(error) => {
                    self.fail(CONSOLIDATION_FAILED, &error);
                    return None;
                }
            };
            let plan = MemoryPlan::Consolidate {
                base,
                additions: extracted,
                source_names: reply.source_names,
                replacements: reply.records,
            };
            return self.apply(plan, CONSOLIDATION_FAILED, &snapshot);
        }
        if extracted.is_empty() {
            return None;
        }
        self.apply(
            MemoryPlan::Extend { records: extracted },
            EXTRACTION_FAILED,
            &snapshot,
        )
    }

    fn apply(
        &mut self,
        plan: MemoryPlan,
        failure: &'static str,
        history: &[Message],
    ) -> Option<PlanOutcome> {
        match self.sink.apply(self.folder.as_ref(), plan, history) {
            Ok(outcome) => Some(outcome),
            Err(error) => {
                self.fail(failure, &*error);
                None
            }
        }
    }

    /// The last failure, in the reference's exact words: [`SELECTION_FAILED`],
    /// [`EXTRACTION_FAILED`] or [`CONSOLIDATION_FAILED`].
    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_ref().map(|(message, _)| *message)
    }

    /// Why the last failure happened (the underlying error). Holds model output: make it inert
    /// before showing it on a terminal.
    pub fn last_error_detail(&self) -> Option<&str> {
        self.last_error.as_ref().map(|(_, detail)| detail.as_str())
    }

    fn fail(&mut self, message: &'static str, error: &dyn StdError) {
        let mut detail = error.to_string();
        let mut source = error.source();
        while let Some(cause) = source {
            detail.push_str(": ");
            detail.push_str(&cause.to_string());
            source = cause.source();
        }
        tracing::warn!(error = %detail, "{message}");
        self.last_error = Some((message, detail));
    }
}
