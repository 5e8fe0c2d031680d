//! `memwb select QUERY`: the memories an agent would be given for a query, chosen by a model
//! when one is configured, else by the reference's keyword fallback.
//!
//! Model settings come from the flags or, for each flag left out, from the environment:
//! `MEMWB_MODEL_URL`, `MEMWB_MODEL`, `MEMWB_MODEL_CMD`, `MEMWB_MODEL_TIMEOUT`; the API key from
//! `MEMWB_API_KEY`, or from the variable `--api-key-env` names. A model failure is not an
//! error: the fallback selects, the exit code stays 0, and a warning goes to stderr.

use serde::Serialize;

use super::output::{inert, print_json, print_untrusted};
use crate::session::config::{ModelFlags, ModelSettings};
use crate::session::selection::{DEFAULT_MAX_SELECTED, Selection, select};
use crate::store::Store;

#[derive(clap::Args, Debug)]
pub struct SelectArgs {
    /// The request the agent is about to work on. May be empty: then nothing is selected.
    #[arg(value_name = "QUERY")]
    pub query: String,
    /// Print {"selected":[names],"rendered":"...","fallback":bool,"error":null|"..."}.
    #[arg(long)]
    pub json: bool,
    /// OpenAI-compatible API root, e.g. https://api.openai.com/v1 or http://localhost:11434/v1
    /// [env: MEMWB_MODEL_URL]
    #[arg(long, value_name = "URL")]
    pub model_url: Option<String>,
    /// Model name for --model-url [env: MEMWB_MODEL]
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// A program that answers on stdout the request it reads on stdin, run through the shell
    /// [env: MEMWB_MODEL_CMD]
    #[arg(long, value_name = "CMD")]
    pub model_cmd: Option<String>,
    /// The environment variable holding the API key [default: MEMWB_API_KEY]
    #[arg(long, value_name = "VAR")]
    pub api_key_env: Option<String>,
    /// Seconds to wait for the model [env: MEMWB_MODEL_TIMEOUT] [default: 60]
    #[arg(long, value_name = "SECS")]
    pub model_timeout: Option<f64>,
    /// Most memories to select.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_SELECTED)]
    pub max: usize,
}

impl SelectArgs {
    fn model_flags(&self) -> ModelFlags {
        ModelFlags {
            model_url: self.model_url.clone(),
            model: self.model.clone(),
            model_cmd: self.model_cmd.clone(),
            api_key_env: self.api_key_env.clone(),
            timeout_secs: self.model_timeout,
        }
    }
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
    let selection = execute(store, args, &|name| std::env::var(name).ok())?;
    if let Some(error) = &selection.error {
        let detail = selection.error_detail.as_deref().unwrap_or("");
        eprintln!("warning: {}: {}", error, inert(detail));
    }
    if args.json {
        print_json(&SelectJson::from(&selection))?;
    } else if !selection.rendered.is_empty() {
        print_untrusted(&format!("{}\n", selection.rendered))?;
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
    let settings = ModelSettings::resolve(&args.model_flags(), env)?;
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
