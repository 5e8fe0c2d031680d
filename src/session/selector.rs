//! The one selection glue for callers without a session: `memwb select` (both formats),
//! `memwb eval` and the workbench's Query pane all build a [`Selector`] from the same model
//! settings and run the same selection, so they cannot disagree on what a query selects or on
//! what bad settings do.
//!
//! Bad model settings are refused, everywhere: settings that contradict each other (a URL and
//! a command) and settings that name a model no client can use (an `ftp://` URL, a URL in a
//! build without the HTTP client) are a [`ModelError::Config`], never a silent fall back to
//! the keyword ranking, because a selection that quietly used another selector than the one
//! configured would report (and `memwb eval` would score) the wrong thing. A model that is
//! usable but fails on a request is different: as in an agent's turn, the keyword fallback
//! selects and [`Selection::error`] says so.

use super::config::{ModelFlags, ModelSettings};
use super::model::{ModelClient, ModelError};
use super::selection::{Candidate, Selection, select_among};

/// Which selector answers: the configured model, or the keyword fallback when none is.
pub struct Selector {
    model: Option<(ModelSettings, Box<dyn ModelClient>)>,
}

impl std::fmt::Debug for Selector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Selector")
            .field("model", &self.settings())
            .finish()
    }
}

impl Selector {
    /// The keyword fallback alone.
    pub fn keyword() -> Self {
        Self { model: None }
    }

    /// The model that `settings` name, with its client.
    pub fn model(settings: ModelSettings, client: Box<dyn ModelClient>) -> Self {
        Self {
            model: Some((settings, client)),
        }
    }

    /// The selector the command-line `flags` and the environment (`env` looks a variable up)
    /// configure: the keyword fallback when they name no model. Settings that contradict each
    /// other or name a model that cannot be used are an error (see the module's note).
    pub fn configured(
        flags: &ModelFlags,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, ModelError> {
        let Some(settings) = ModelSettings::resolve(flags, env)? else {
            return Ok(Self::keyword());
        };
        let client = settings.client()?;
        Ok(Self::model(settings, client))
    }

    /// [`Selector::configured`] from the environment alone (no flags), as the workbench does.
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Result<Self, ModelError> {
        Self::configured(&ModelFlags::default(), env)
    }

    pub fn settings(&self) -> Option<&ModelSettings> {
        self.model.as_ref().map(|(settings, _)| settings)
    }

    pub fn client(&self) -> Option<&dyn ModelClient> {
        self.model.as_ref().map(|(_, client)| client.as_ref())
    }

    /// Selects at most `max` of `records` (the set in its order, whose catalog, the MEMORY.md
    /// text a model is shown, is `catalog`) for `query`. A blank query selects nothing and
    /// asks nobody (`fallback` is then true only without a model, as if the fallback had
    /// chosen nothing).
    pub fn select<R: Candidate>(
        &self,
        records: &[R],
        catalog: &str,
        query: &str,
        max: usize,
    ) -> Selection<R> {
        if query.trim().is_empty() {
            return Selection {
                selected: Vec::new(),
                rendered: String::new(),
                fallback: self.model.is_none(),
                error: None,
                error_detail: None,
            };
        }
        select_among(records, catalog, query, self.client(), max)
    }

    /// [`Selector::select`] over a set read only when the query is not blank: `read` gives
    /// the records and their catalog, and its error is returned as is.
    pub fn select_from<R: Candidate, E>(
        &self,
        query: &str,
        max: usize,
        read: impl FnOnce() -> Result<(Vec<R>, String), E>,
    ) -> Result<Selection<R>, E> {
        if query.trim().is_empty() {
            return Ok(self.select(&[], "", query, max));
        }
        let (records, catalog) = read()?;
        Ok(self.select(&records, &catalog, query, max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{MemoryType, Record};

    fn records() -> Vec<Record> {
        vec![Record::new("tabs", MemoryType::User, "prefers tabs", "body").expect("record")]
    }

    #[test]
    fn unusable_settings_are_refused_not_ignored() {
        let no_env = |_: &str| None;
        for flags in [
            ModelFlags {
                model_url: Some("ftp://h".into()),
                model: Some("m".into()),
                ..ModelFlags::default()
            },
            ModelFlags {
                model_url: Some("http://h/v1".into()),
                model_cmd: Some("x".into()),
                ..ModelFlags::default()
            },
        ] {
            let error = Selector::configured(&flags, &no_env).expect_err("refused");
            assert!(matches!(error, ModelError::Config(_)), "{error}");
        }
    }

    #[test]
    fn a_blank_query_never_reads_the_set() {
        let selector = Selector::keyword();
        let selection = selector
            .select_from::<Record, &str>(" \n", 5, || Err("read"))
            .expect("not read");
        assert!(selection.selected.is_empty() && selection.fallback);
        let selection = selector
            .select_from::<Record, &str>("tabs", 5, || Ok((records(), String::new())))
            .expect("read");
        assert_eq!(selection.names(), ["tabs"]);
    }
}
