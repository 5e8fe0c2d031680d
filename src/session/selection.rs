//! Choosing the memories for one turn: the selector side-query with its strict reply check,
//! the reference's deterministic keyword fallback, and the `<relevant_memories>` rendering.
//!
//! These are free functions so that the workbench can run a selection without a session.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::history::Message;
use super::model::{ModelClient, SideQueryError, side_query, stable_json};
use super::prompts;
use crate::memory::Memory;
use crate::store::Record;

/// `last_error` after the selector failed, exactly as the reference words it.
pub const SELECTION_FAILED: &str = "Memory selection failed; deterministic fallback used";

/// How many records a turn keeps by default (the reference's `max_selected`).
pub const DEFAULT_MAX_SELECTED: usize = 5;

/// What a selection chooses among: a memory of any format (the read model), or a `.memory`
/// record (the agent session selects among the records it holds).
pub trait Candidate: Clone {
    fn name(&self) -> &str;
    /// The type as the `## <name> (<type>)` heading shows it.
    fn kind_label(&self) -> &str;
    fn description(&self) -> &str;
    fn body(&self) -> &str;
}

impl Candidate for Record {
    fn name(&self) -> &str {
        Record::name(self)
    }
    fn kind_label(&self) -> &str {
        self.kind().as_str()
    }
    fn description(&self) -> &str {
        Record::description(self)
    }
    fn body(&self) -> &str {
        Record::body(self)
    }
}

impl Candidate for Memory {
    fn name(&self) -> &str {
        &self.name
    }
    fn kind_label(&self) -> &str {
        Memory::kind_label(self)
    }
    fn description(&self) -> &str {
        Memory::description(self)
    }
    fn body(&self) -> &str {
        &self.body
    }
}

/// The outcome of one selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection<R = Record> {
    /// The chosen records, in the order they are rendered.
    pub selected: Vec<R>,
    /// [`render_selected`] of `selected`: empty when nothing was selected.
    pub rendered: String,
    /// The keyword fallback made the choice (no model was given, or the model failed).
    pub fallback: bool,
    /// [`SELECTION_FAILED`] when the model failed.
    pub error: Option<String>,
    /// Why the model failed, for diagnostics (never shown raw: it holds model output).
    pub error_detail: Option<String>,
}

impl<R: Candidate> Selection<R> {
    pub fn names(&self) -> Vec<String> {
        self.selected.iter().map(|r| r.name().to_owned()).collect()
    }

    fn of(selected: Vec<R>, fallback: bool) -> Self {
        let rendered = render_selected(&selected);
        Self {
            selected,
            rendered,
            fallback,
            error: None,
            error_detail: None,
        }
    }
}

/// Runs one selection over `records` (the current set, manifest order) whose MEMORY.md text is
/// `catalog`. An empty set selects nothing and asks nobody. With a client, its reply decides
/// (at most `max` records, in the reply's order); if the client fails or its reply breaks a
/// rule, the keyword fallback decides and `error` is set. Without a client the keyword
/// fallback decides and `error` stays unset.
pub fn select(
    records: &[Record],
    catalog: &str,
    query: &str,
    client: Option<&dyn ModelClient>,
    max: usize,
) -> Selection {
    select_among(records, catalog, query, client, max)
}

/// [`select`] over any kind of memory (Claude Code's topic files as well as records).
pub fn select_among<R: Candidate>(
    records: &[R],
    catalog: &str,
    query: &str,
    client: Option<&dyn ModelClient>,
    max: usize,
) -> Selection<R> {
    if records.is_empty() {
        return Selection::of(Vec::new(), false);
    }
    let Some(client) = client else {
        return Selection::of(keyword_fallback(records, query, max), true);
    };
    match ask_selector(client, records, catalog, query, max) {
        Ok(selected) => Selection::of(selected, false),
        Err(error) => {
            tracing::warn!(%error, "memory selector failed; using the keyword fallback");
            Selection {
                error: Some(SELECTION_FAILED.to_owned()),
                error_detail: Some(error.to_string()),
                ..Selection::of(keyword_fallback(records, query, max), true)
            }
        }
    }
}

/// The selector side-query: `{"catalog": ..., "query": ...}` in, a JSON array of names out.
pub fn ask_selector<R: Candidate>(
    client: &dyn ModelClient,
    records: &[R],
    catalog: &str,
    query: &str,
    max: usize,
) -> Result<Vec<R>, SideQueryError> {
    let reply = side_query(client, selector_messages(catalog, query, max))?;
    let names = parse_selection_reply(&reply, records)?;
    Ok(names
        .iter()
        .take(max)
        .filter_map(|name| records.iter().find(|r| r.name() == name).cloned())
        .collect())
}

/// The selector's request: the system prompt, then the stable JSON input.
pub fn selector_messages(catalog: &str, query: &str, max: usize) -> Vec<Message> {
    vec![
        Message::system(prompts::selector(max)),
        Message::user(stable_json(&json!({"catalog": catalog, "query": query}))),
    ]
}

/// The selector's reply must be a JSON array of unique strings, each naming one of `records`.
/// Returns every name, in order; the caller keeps the first `max`.
pub fn parse_selection_reply<R: Candidate>(
    reply: &Value,
    records: &[R],
) -> Result<Vec<String>, SideQueryError> {
    let invalid = |rule: String| Err(SideQueryError::Invalid(rule));
    let Value::Array(items) = reply else {
        return invalid(format!(
            "expected a JSON array of memory names, got {}",
            kind_of(reply)
        ));
    };
    let known: HashSet<&str> = records.iter().map(Candidate::name).collect();
    let mut names = Vec::with_capacity(items.len());
    let mut seen = HashSet::new();
    for (i, item) in items.iter().enumerate() {
        let Value::String(name) = item else {
            return invalid(format!(
                "item {i} is {}, expected a memory name",
                kind_of(item)
            ));
        };
        if !known.contains(name.as_str()) {
            return invalid(format!("item {i} names no memory in the set: {name:?}"));
        }
        if !seen.insert(name.as_str()) {
            return invalid(format!("item {i} repeats {name:?}"));
        }
        names.push(name.clone());
    }
    Ok(names)
}

pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The reference's deterministic ranking: each record scores the number of distinct query
/// tokens ([`query_tokens`]) found as substrings of `lowercase(name + " " + description)`
/// (the body is never searched). Records scoring 0 are dropped; the rest are sorted by score,
/// highest first, then by name; the first `max` are kept.
pub fn keyword_fallback<R: Candidate>(records: &[R], query: &str, max: usize) -> Vec<R> {
    let tokens = query_tokens(query);
    if tokens.is_empty() {
        return Vec::new();
    }
    let mut scored: Vec<(usize, &R)> = records
        .iter()
        .filter_map(|record| {
            let haystack = format!("{} {}", record.name(), record.description()).to_lowercase();
            let score = tokens
                .iter()
                .filter(|t| haystack.contains(t.as_str()))
                .count();
            (score > 0).then_some((score, record))
        })
        .collect();
    scored.sort_by(|(sa, a), (sb, b)| {
        sb.cmp(sa)
            .then_with(|| a.name().encode_utf16().cmp(b.name().encode_utf16()))
    });
    scored
        .into_iter()
        .take(max)
        .map(|(_, r)| r.clone())
        .collect()
}

/// The distinct tokens of a query, in first-seen order: on the lowercased query, every run of
/// `[a-z0-9]` at least 3 characters long, and for every run of CJK ideographs (U+3400-U+4DBF,
/// U+4E00-U+9FFF) each adjacent pair (a run of one is itself a token).
pub fn query_tokens(query: &str) -> Vec<String> {
    let lower = query.to_lowercase();
    let mut tokens: Vec<String> = Vec::new();
    let mut push = |token: String| {
        if !tokens.contains(&token) {
            tokens.push(token);
        }
    };
    let chars: Vec<char> = lower.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_lowercase() || chars[i].is_ascii_digit()) {
                i += 1;
            }
            if i - start >= 3 {
                push(chars[start..i].iter().collect());
            }
        } else if is_cjk(c) {
            let start = i;
            while i < chars.len() && is_cjk(chars[i]) {
                i += 1;
            }
            let run = &chars[start..i];
            if run.len() == 1 {
                push(run[0].to_string());
            } else {
                for pair in run.windows(2) {
                    push(pair.iter().collect());
                }
            }
        } else {
            i += 1;
        }
    }
    tokens
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}')
}

/// The `<relevant_memories>` block: the opening tag, then per record `## <name> (<type>)`,
/// its description and its body, then the closing tag, all joined by blank lines. Empty when
/// no record is given.
pub fn render_selected<R: Candidate>(records: &[R]) -> String {
    if records.is_empty() {
        return String::new();
    }
    let mut parts: Vec<String> = vec!["<relevant_memories>".to_owned()];
    for record in records {
        parts.push(format!("## {} ({})", record.name(), record.kind_label()));
        parts.push(record.description().to_owned());
        parts.push(record.body().to_owned());
    }
    parts.push("</relevant_memories>".to_owned());
    parts.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryType;

    fn rec(name: &str, description: &str) -> Record {
        Record::new(name, MemoryType::Project, description, "body").unwrap()
    }

    #[test]
    fn tokens_follow_the_reference_rules() {
        assert_eq!(
            query_tokens("How should DB tests run?"),
            ["how", "should", "tests", "run"]
        );
        assert_eq!(query_tokens("a1b2 x_yz9 ab"), ["a1b2", "yz9"]);
        assert_eq!(
            query_tokens("数据库 库 x前端y"),
            ["数据", "据库", "库", "前端"]
        );
        assert_eq!(query_tokens("run RUN run"), ["run"]);
        assert!(query_tokens("   ").is_empty());
    }

    #[test]
    fn fallback_ranks_by_score_then_name_and_caps() {
        let records = [
            rec("b-two", "alpha beta"),
            rec("a-one", "alpha"),
            rec("c-three", "alpha beta"),
        ];
        let names = |v: Vec<Record>| v.iter().map(|r| r.name().to_owned()).collect::<Vec<_>>();
        assert_eq!(
            names(keyword_fallback(&records, "alpha beta", 5)),
            ["b-two", "c-three", "a-one"]
        );
        assert_eq!(
            names(keyword_fallback(&records, "alpha beta", 2)),
            ["b-two", "c-three"]
        );
        assert!(keyword_fallback(&records, "gamma", 5).is_empty());
    }

    #[test]
    fn body_is_never_searched() {
        let record = Record::new("x", MemoryType::User, "about nothing", "secret keyword").unwrap();
        assert!(keyword_fallback(&[record], "keyword", 5).is_empty());
    }

    #[test]
    fn reply_rules() {
        let records = [rec("a", "x"), rec("b", "y")];
        assert_eq!(
            parse_selection_reply(&json!(["b", "a"]), &records).unwrap(),
            ["b", "a"]
        );
        assert!(
            parse_selection_reply(&json!([]), &records)
                .unwrap()
                .is_empty()
        );
        for bad in [
            json!(["a", "a"]),
            json!(["zz"]),
            json!({"names": ["a"]}),
            json!([1]),
            json!("a"),
        ] {
            assert!(parse_selection_reply(&bad, &records).is_err(), "{bad}");
        }
    }
}
