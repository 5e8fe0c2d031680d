//! `memwb select QUERY`: the memories an agent would be given for a query, chosen by a model
//! when one is configured, else by the reference's keyword fallback.
//!
//! Model settings come from the flags or, for each flag left out, from the environment:
//! `MEMWB_MODEL_URL`, `MEMWB_MODEL`, `MEMWB_MODEL_CMD`, `MEMWB_MODEL_TIMEOUT`; the API key from
//! `MEMWB_API_KEY`, or from the variable `--api-key-env` names. A model failure is not an
//! error: the fallback selects, the exit code stays 0, and a warning goes to stderr. Settings
//! that contradict each other or name an unusable model are refused (`session::Selector`).

use serde::Serialize;

use super::model_args::ModelArgs;
use std::io::Write;

use super::output::{inert, shown, write_json};
use crate::formats::Backend;
use crate::memory::Memory;
use crate::session::selection::{Candidate, DEFAULT_MAX_SELECTED, Selection};

#[derive(clap::Args, Debug)]
pub struct SelectArgs {
    /// The request the agent is about to work on. May be empty: then nothing is selected.
    #[arg(value_name = "QUERY", allow_hyphen_values = true)]
    pub query: String,
    /// Print `{"selected":[names],"rendered":"...","fallback":bool,"error":null|"..."}`.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Most memories to select.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_SELECTED)]
    pub max: usize,
}

/// The `--json` form. Field order is the documented key order.
#[derive(Debug, Serialize)]
pub struct SelectJson<'a> {
    pub selected: Vec<String>,
    pub rendered: &'a str,
    pub fallback: bool,
    pub error: Option<&'a str>,
}

impl<'a, R: Candidate> From<&'a Selection<R>> for SelectJson<'a> {
    fn from(selection: &'a Selection<R>) -> Self {
        Self {
            selected: selection.names(),
            rendered: &selection.rendered,
            fallback: selection.fallback,
            error: selection.error.as_deref(),
        }
    }
}

/// `memwb select` (`cli::read::select`) on an open folder of any format, with the environment
/// and both outputs given, for tests and embedders.
pub fn run_to(
    folder: &dyn Backend,
    args: &SelectArgs,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<u8> {
    super::read::select_to(folder, args, env, out, err)
}

/// What `memwb select` prints for a selection of either format: the `<relevant_memories>`
/// block (inert) or the `--json` object on `out`, a model failure's warning on `err`.
pub fn print_selection<R: Candidate>(
    selection: &Selection<R>,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<()> {
    if let Some(error) = &selection.error {
        let detail = selection.error_detail.as_deref().unwrap_or("");
        writeln!(err, "warning: {}: {}", error, inert(detail))?;
    }
    if json {
        write_json(out, &SelectJson::from(selection))?;
    } else if !selection.rendered.is_empty() {
        writeln!(out, "{}", shown(&selection.rendered))?;
        out.flush()?;
    }
    Ok(())
}

/// The selection `memwb select` prints on an open folder of any format
/// (`cli::read::selection`).
pub fn execute(
    folder: &dyn Backend,
    args: &SelectArgs,
    env: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<Selection<Memory>> {
    super::read::selection(folder, args, env)
}
