//! The reference suite's session behaviours, ported: tool-free side-queries, strict replies,
//! fallback selection, extraction and consolidation that commit all or nothing.

use crate::common;

use std::path::Path;
use std::sync::{Arc, Mutex};

use common::scripted::{Handler, Kind, Scripted, item, reply};
use common::*;
use memwb::review::{Origin, ReviewPlans};
use memwb::session::{
    AssistantMessage, CONSOLIDATION_FAILED, Committed, EXTRACTION_FAILED, FolderReading,
    MemoryFolder, MemoryPlan, MemorySession, Message, ModelError, ModelReply, ModelRequest,
    PlanError, PlanOutcome, PlanSink, SELECTION_FAILED, SessionOptions, ToolCall,
};
use memwb::store::{FaultHook, IoHooks, IoOp, MemoryType, Record, Store, StoreOptions};
use serde_json::{Value, json};

mod consolidation;
mod extraction;
mod selection;

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
