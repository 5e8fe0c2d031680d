//! Selection evaluation: a memory set's own regression queries, run with the keyword fallback
//! and the model selector, scored by recall@k, precision@k, MRR and forbidden hits.
//!
//! ```text
//! cases.rs    evals.json: validation, add / remove under the store lock, self-retrieval cases
//! metrics.rs  one case's score and the means over a run
//! run.rs      each selector over the same set
//! cache.rs    model replies by (model, prompt hash), and what a model run cost
//! effect.rs   what approving a proposal would change: the cases on the set as it would be
//! state.rs    where a set's evaluation lives (.memory/.memwb/ or a backend's own directory)
//! folder.rs   a folder's evaluation, any format: its cases where the backend keeps memwb's
//!             state, edited under the folder's lock; its corpus read through `formats::Backend`
//! ```
//!
//! Above the review layer and the backends (a proposal's effect runs the cases on the memories
//! its backend says approving it would leave), below the CLI and the workbench. See
//! `docs/eval.md`.

pub mod cache;
pub mod cases;
pub mod effect;
pub mod error;
pub mod folder;
pub(crate) mod metrics;
pub mod run;
pub mod state;

pub use cache::{MeteredClient, ModelCost, ReplyCache, model_label};
pub use cases::{
    Case, add_case, add_case_locked, load_cases, remove_case, remove_case_locked, save_cases,
    self_cases,
};
pub use effect::CaseChanges;
pub use error::EvalError;
pub use folder::FolderEval;
pub use metrics::{CaseResult, Scores, Verdict};
pub use run::{Corpus, SelectorRun, run_keyword, run_model};
pub use state::EvalState;

/// Cases kept per selection unless `--k` says otherwise: the agent's own default.
pub const DEFAULT_K: usize = crate::session::selection::DEFAULT_MAX_SELECTED;
