//! Model replies kept by (model, prompt hash), so that re-running unchanged cases asks nobody.
//!
//! One file per reply in the state directory's `eval-cache/`, named by the SHA-256 of the
//! model's label and the request's stable JSON, holding the label and the request's own hash
//! so that a lookup only ever returns the reply to that exact request from that model. Only
//! replies are kept: a timeout or a refused connection is asked again next time.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::state::EvalState;
use crate::review::state::sha256_hex;
use crate::session::config::{ModelEndpoint, ModelSettings};
use crate::session::{ModelClient, ModelError, ModelReply, ModelRequest, TokenUsage};

/// A cached reply larger than this is ignored (a model client refuses larger output anyway).
const MAX_ENTRY_BYTES: usize = 8 * 1024 * 1024;

/// What identifies a model for the cache: its name and where it is, or its command line.
pub fn model_label(settings: &ModelSettings) -> String {
    match &settings.endpoint {
        ModelEndpoint::Http { url, model, .. } => format!("{model} at {url}"),
        ModelEndpoint::Command { command_line } => format!("command {command_line}"),
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct CachedReply {
    model: String,
    prompt_sha256: String,
    reply: ModelReply,
}

/// The replies of one model, kept in one state directory.
#[derive(Debug, Clone)]
pub struct ReplyCache {
    state: EvalState,
    model: String,
}

impl ReplyCache {
    pub fn new(state: &EvalState, model: impl Into<String>) -> Self {
        Self {
            state: state.clone(),
            model: model.into(),
        }
    }

    /// The entry's file name, and the prompt's hash.
    fn slot(&self, prompt: &str) -> (String, String) {
        let prompt_hash = sha256_hex(&[prompt.as_bytes()]);
        let file = sha256_hex(&[self.model.as_bytes(), b"\0", prompt_hash.as_bytes()]);
        (format!("{file}.json"), prompt_hash)
    }

    /// The reply this model gave to exactly `request`, if it was kept. An unreadable or
    /// foreign entry is a miss.
    pub fn get(&self, request: &ModelRequest) -> Option<ModelReply> {
        let (name, prompt_hash) = self.slot(&request.to_stable_json());
        let bytes = match self.state.read(true, &name, MAX_ENTRY_BYTES) {
            Ok(bytes) => bytes?,
            Err(error) => {
                tracing::warn!(%error, "ignoring an unreadable cached model reply");
                return None;
            }
        };
        let entry: CachedReply = serde_json::from_slice(&bytes).ok()?;
        (entry.model == self.model && entry.prompt_sha256 == prompt_hash).then_some(entry.reply)
    }

    /// Keeps `reply`; failing to is logged, never fatal (the reply was still given).
    pub fn put(&self, request: &ModelRequest, reply: &ModelReply) {
        let (name, prompt_hash) = self.slot(&request.to_stable_json());
        let entry = CachedReply {
            model: self.model.clone(),
            prompt_sha256: prompt_hash,
            reply: reply.clone(),
        };
        let written = serde_json::to_vec(&entry)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                self.state
                    .replace(true, &name, &bytes)
                    .map_err(|e| e.to_string())
            });
        if let Err(error) = written {
            tracing::warn!(%error, "could not cache a model reply");
        }
    }
}

/// What asking the model cost during one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ModelCost {
    /// Requests that reached the model.
    pub calls: usize,
    /// Requests answered from the cache.
    pub cached: usize,
    /// Tokens of the calls, when the endpoint reported them (for every call).
    pub tokens: Option<TokenUsage>,
    /// Time spent waiting for the model.
    #[serde(serialize_with = "as_seconds")]
    pub elapsed: Duration,
}

fn as_seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((d.as_secs_f64() * 1000.0).round() / 1000.0)
}

/// A client that answers from the cache when it can, asks `inner` otherwise, and counts.
pub struct MeteredClient<'a> {
    inner: &'a dyn ModelClient,
    cache: Option<ReplyCache>,
    cost: Mutex<MeterState>,
}

#[derive(Default)]
struct MeterState {
    cost: ModelCost,
    unreported: bool,
}

impl<'a> MeteredClient<'a> {
    pub fn new(inner: &'a dyn ModelClient, cache: Option<ReplyCache>) -> Self {
        Self {
            inner,
            cache,
            cost: Mutex::new(MeterState::default()),
        }
    }

    pub fn cost(&self) -> ModelCost {
        let state = self.cost.lock().unwrap_or_else(|e| e.into_inner());
        ModelCost {
            tokens: if state.unreported {
                None
            } else {
                state.cost.tokens
            },
            ..state.cost
        }
    }
}

impl ModelClient for MeteredClient<'_> {
    fn complete(&self, request: &ModelRequest) -> Result<ModelReply, ModelError> {
        if let Some(reply) = self.cache.as_ref().and_then(|c| c.get(request)) {
            self.cost
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .cost
                .cached += 1;
            return Ok(reply);
        }
        let started = Instant::now();
        let answer = self.inner.complete(request);
        let mut state = self.cost.lock().unwrap_or_else(|e| e.into_inner());
        state.cost.calls += 1;
        state.cost.elapsed += started.elapsed();
        if let Ok(reply) = &answer {
            match reply.usage {
                Some(usage) => {
                    let total = state.cost.tokens.get_or_insert_default();
                    total.prompt_tokens += usage.prompt_tokens;
                    total.completion_tokens += usage.completion_tokens;
                }
                None => state.unreported = true,
            }
            if let Some(cache) = &self.cache {
                cache.put(request, reply);
            }
        }
        answer
    }
}
