//! The reference suite's session behaviours, ported: tool-free side-queries, strict replies,
//! fallback selection, extraction and consolidation that commit all or nothing.

use crate::common;

use std::path::Path;
use std::sync::{Arc, Mutex};

use common::*;
use memwb::session::{
    AssistantMessage, CONSOLIDATION_FAILED, EXTRACTION_FAILED, MemoryPlan, MemorySession, Message,
    ModelClient, ModelError, ModelReply, ModelRequest, PlanError, PlanOutcome, PlanSink,
    SELECTION_FAILED, SessionOptions, ToolCall,
};
use memwb::store::{Commit, FaultHook, IoHooks, IoOp, MemoryType, Record, Store, StoreOptions};
use serde_json::{Value, json};

mod consolidation;
mod extraction;
mod selection;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Select,
    Extract,
    Consolidate,
}

type Handler = Box<dyn Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync>;

/// A model double: answers each side-query kind with a script and records every request.
#[derive(Default)]
struct Scripted {
    select: Option<Handler>,
    extract: Option<Handler>,
    consolidate: Option<Handler>,
    log: Mutex<Vec<(Kind, ModelRequest)>>,
}

/// The side-query kind, from the keys of the JSON input in the last message.
fn kind(request: &ModelRequest) -> Kind {
    let last = request.messages.last().expect("a message");
    let input: Value = serde_json::from_str(last.content()).expect("side-query input is JSON");
    if input.get("query").is_some() {
        Kind::Select
    } else if input.get("existing_catalog").is_some() {
        Kind::Extract
    } else if input.get("candidates").is_some() {
        Kind::Consolidate
    } else {
        panic!("unknown side-query input {input}")
    }
}

impl Scripted {
    fn on(
        mut self,
        which: Kind,
        f: impl Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync + 'static,
    ) -> Self {
        let slot = match which {
            Kind::Select => &mut self.select,
            Kind::Extract => &mut self.extract,
            Kind::Consolidate => &mut self.consolidate,
        };
        *slot = Some(Box::new(f));
        self
    }
    fn select(
        self,
        f: impl Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync + 'static,
    ) -> Self {
        self.on(Kind::Select, f)
    }
    fn extract(
        self,
        f: impl Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync + 'static,
    ) -> Self {
        self.on(Kind::Extract, f)
    }
    fn consolidate(
        self,
        f: impl Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync + 'static,
    ) -> Self {
        self.on(Kind::Consolidate, f)
    }
    fn calls(&self, which: Kind) -> Vec<ModelRequest> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|(k, _)| *k == which)
            .map(|(_, r)| r.clone())
            .collect()
    }
}

impl ModelClient for Scripted {
    fn complete(&self, request: &ModelRequest) -> Result<ModelReply, ModelError> {
        let which = kind(request);
        self.log.lock().unwrap().push((which, request.clone()));
        let handler = match which {
            Kind::Select => &self.select,
            Kind::Extract => &self.extract,
            Kind::Consolidate => &self.consolidate,
        };
        match handler {
            Some(f) => f(request),
            None => Err(ModelError::Other(format!("no script for {which:?}"))),
        }
    }
}

fn reply(value: Value) -> Result<ModelReply, ModelError> {
    Ok(ModelReply::stop(value.to_string()))
}

fn item(name: &str, description: &str) -> Value {
    json!({"name": name, "type": "project", "description": description, "body": format!("Body of {name}.")})
}

/// A store holding `count` records `r0..`, each with a distinct description.
fn store_with(count: usize) -> (tempfile::TempDir, Store) {
    let dir = workspace();
    let store = open(dir.path());
    let records = (0..count)
        .map(|i| {
            record(
                &format!("r{i}"),
                &format!("Fact number {i}"),
                &format!("Body {i}."),
            )
        })
        .collect();
    store.extend(records).expect("seed");
    (dir, store)
}

fn start(store: &Store, model: &Arc<Scripted>) -> MemorySession {
    MemorySession::new(store.clone()).with_model(model.clone())
}

fn history() -> Vec<Message> {
    vec![
        Message::system("You are a coding agent."),
        Message::user("Use tabs, never spaces. Now list the files."),
        Message::Assistant(AssistantMessage {
            content: String::new(),
            tool_calls: vec![ToolCall {
                id: "call-1".into(),
                name: "list_files".into(),
                arguments: "{\"path\":\".\"}".into(),
            }],
        }),
        Message::tool_result("call-1", "src/\nCargo.toml"),
        Message::assistant("There are two entries."),
    ]
}

fn user_input(request: &ModelRequest) -> Value {
    serde_json::from_str(request.messages.last().unwrap().content()).unwrap()
}

fn consolidating(plan: Value) -> Arc<Scripted> {
    Arc::new(
        Scripted::default()
            .extract(|_| reply(json!([item("fresh", "Just learned")])))
            .consolidate(move |_| reply(plan.clone())),
    )
}
