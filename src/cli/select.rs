//! `memwb select QUERY`: the memories an agent would be given for a query, chosen by a model
//! when one is configured, else by the reference's keyword fallback.
//!
//! Model settings come from the flags or, for each flag left out, from the environment:
//! `MEMWB_MODEL_URL`, `MEMWB_MODEL`, `MEMWB_MODEL_CMD`, `MEMWB_MODEL_TIMEOUT`; the API key from
//! `MEMWB_API_KEY`, or from the variable `--api-key-env` names. A model failure is not an
//! error: the fallback selects, the exit code stays 0, and a warning goes to stderr.

use serde::Serialize;

use super::model_args::ModelArgs;
use std::io::Write;

use super::output::{inert, write_json};
use crate::session::config::ModelSettings;
use crate::session::selection::{DEFAULT_MAX_SELECTED, Selection, select};
use crate::store::Store;

#[derive(clap::Args, Debug)]
pub struct SelectArgs {
    /// The request the agent is about to work on. May be empty: then nothing is selected.
    #[arg(value_name = "QUERY", allow_hyphen_values = true)]
    pub query: String,
    /// Print {"selected":[names],"rendered":"...","fallback":bool,"error":null|"..."}.
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

impl<'a> From<&'a Selection> for SelectJson<'a> {
    fn from(selection: &'a Selection) -> Self {
        Self {
            selected: selection.names(),
            rendered: &selection.rendered,
            fallback: selection.fallback,
            error: selection.error.as_deref(),
        }
    }
}

pub fn run(store: &Store, args: &SelectArgs) -> anyhow::Result<u8> {
    run_to(
        store,
        args,
        &|name| std::env::var(name).ok(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}

/// [`run`] with the environment and both outputs given, for tests and embedders.
pub fn run_to(
    store: &Store,
    args: &SelectArgs,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<u8> {
    let selection = execute(store, args, env)?;
    if let Some(error) = &selection.error {
        let detail = selection.error_detail.as_deref().unwrap_or("");
        writeln!(err, "warning: {}: {}", error, inert(detail))?;
    }
    if args.json {
        write_json(out, &SelectJson::from(&selection))?;
    } else if !selection.rendered.is_empty() {
        writeln!(out, "{}", inert(&selection.rendered))?;
        out.flush()?;
    }
    Ok(0)
}

/// The selection `run` prints; `env` looks up environment variables. Fails only when the
/// model settings are contradictory or the set cannot be read.
pub fn execute(
    store: &Store,
    args: &SelectArgs,
    env: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<Selection> {
    let settings = ModelSettings::resolve(&args.model.flags(), env)?;
    let client = settings.as_ref().map(ModelSettings::client).transpose()?;
    if args.query.trim().is_empty() {
        // Nothing to select for: the model is not asked.
        return Ok(Selection {
            selected: Vec::new(),
            rendered: String::new(),
            fallback: client.is_none(),
            error: None,
            error_detail: None,
        });
    }
    let set = store.read()?;
    let records: Vec<_> = set.records().cloned().collect();
    Ok(select(
        &records,
        &set.index_text(),
        &args.query,
        client.as_deref(),
        args.max,
    ))
}
