//! Running a selection for the Query pane, exactly as an agent's turn would: the model when
//! one is configured (the same `MEMWB_MODEL_*` environment as `memwb select`), else the
//! reference's keyword fallback.

use super::panes::query::QueryResult;
use crate::session::config::{ModelFlags, ModelSettings};
use crate::session::selection::{self, Candidate, DEFAULT_MAX_SELECTED, SELECTION_FAILED};

/// Which records (or Claude Code topic files) the agent would select for `query` and the text
/// it would inject. `catalog` is the set's MEMORY.md text, `None` when the set is unreadable
/// (an agent then selects nothing). `env` looks up environment variables.
pub fn select_with<R: Candidate>(
    query: &str,
    records: &[R],
    catalog: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> QueryResult {
    let mut result = QueryResult {
        query: query.to_owned(),
        names: Vec::new(),
        rendered: String::new(),
        how: "keyword fallback".into(),
        error: None,
    };
    let Some(catalog) = catalog else {
        result.how = "nothing".into();
        result.error = Some(format!(
            "{SELECTION_FAILED}: the set is unreadable, so an agent selects nothing"
        ));
        return result;
    };
    let client = match ModelSettings::resolve(&ModelFlags::default(), env) {
        Ok(Some(settings)) => match settings.client() {
            Ok(client) => Some(client),
            Err(e) => {
                result.error = Some(format!("model not usable ({e}); keyword fallback used"));
                None
            }
        },
        Ok(None) => None,
        Err(e) => {
            result.error = Some(format!("model settings: {e}; keyword fallback used"));
            None
        }
    };
    if query.trim().is_empty() {
        return result;
    }
    let selection = selection::select_among(
        records,
        catalog,
        query,
        client.as_deref(),
        DEFAULT_MAX_SELECTED,
    );
    result.names = selection.names();
    result.rendered = selection.rendered;
    result.how = if selection.fallback {
        "keyword fallback"
    } else {
        "model"
    }
    .into();
    if let Some(error) = selection.error {
        result.error = Some(error);
    }
    result
}

/// [`select_with`] on the process environment.
pub fn select<R: Candidate>(query: &str, records: &[R], catalog: Option<&str>) -> QueryResult {
    select_with(query, records, catalog, &|name| std::env::var(name).ok())
}
