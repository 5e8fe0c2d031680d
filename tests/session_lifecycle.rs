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

#[test]
fn all_three_side_queries_are_tool_free_and_see_their_inputs() {
    let (dir, store) = store_with(9);
    let catalog = store.read().unwrap().index_text();
    let model = Arc::new(
        Scripted::default()
            .select(|_| reply(json!(["r3"])))
            .extract(|_| reply(json!([item("tabs", "User prefers tabs")])))
            .consolidate(|_| {
                reply(
                    json!({"source_names": ["r0", "tabs"], "records": [item("r0-tabs", "Merged")]}),
                )
            }),
    );
    let mut session = start(&store, &model);
    session.begin_turn("what about r3?");
    let history = history();
    let outcome = session.complete(&history);
    assert!(
        matches!(outcome, Some(PlanOutcome::Committed(_))),
        "{:?}",
        session.last_error_detail()
    );
    assert_eq!(session.last_error(), None);

    let all = model.log.lock().unwrap().clone();
    assert_eq!(
        all.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        [Kind::Select, Kind::Extract, Kind::Consolidate]
    );
    for (which, request) in &all {
        assert!(request.tools.is_empty(), "{which:?} offered tools");
        assert_eq!(
            request.messages[0].role(),
            "system",
            "{which:?} starts with its prompt"
        );
    }
    let select = &model.calls(Kind::Select)[0];
    assert_eq!(
        select.messages[1].content(),
        serde_json::to_string(&json!({"catalog": catalog, "query": "what about r3?"})).unwrap(),
        "selector input is stable JSON with sorted keys"
    );
    let extract = &model.calls(Kind::Extract)[0];
    assert_eq!(
        &extract.messages[1..=history.len()],
        &history[..],
        "history passed through unchanged"
    );
    assert_eq!(extract.messages.len(), history.len() + 2);
    assert_eq!(user_input(extract), json!({"existing_catalog": catalog}));
    let consolidate = &model.calls(Kind::Consolidate)[0];
    let candidates: Vec<String> = user_input(consolidate)["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_owned())
        .collect();
    let mut expected: Vec<String> = (0..9).map(|i| format!("r{i}")).collect();
    expected.push("tabs".into());
    assert_eq!(
        candidates, expected,
        "consolidation input holds the set and the extracted records"
    );
    assert_eq!(
        user_input(consolidate)["candidates"][9],
        item("tabs", "User prefers tabs")
    );

    let mut after = names(&store);
    after.sort();
    let mut want: Vec<String> = (1..9).map(|i| format!("r{i}")).collect();
    want.push("r0-tabs".into());
    want.sort();
    assert_eq!(after, want);
    drop(dir);
}

#[test]
fn invalid_replies_are_rejected_for_every_side_query() {
    let bad_replies: Vec<(&str, ModelReply)> = vec![
        (
            "finish reason length",
            ModelReply {
                finish_reason: "length".into(),
                ..ModelReply::stop("[\"r1\"]")
            },
        ),
        (
            "a tool call",
            ModelReply {
                message: AssistantMessage {
                    content: "[\"r1\"]".into(),
                    tool_calls: vec![ToolCall {
                        id: "x".into(),
                        name: "read".into(),
                        arguments: "{}".into(),
                    }],
                },
                finish_reason: "stop".into(),
                usage: None,
            },
        ),
        ("blank text", ModelReply::stop(" \n\t ")),
        ("fenced JSON", ModelReply::stop("```json\n[\"r1\"]\n```")),
        (
            "JSON inside prose",
            ModelReply::stop("Here you go: [\"r1\"]"),
        ),
    ];
    for (label, bad) in bad_replies {
        let (dir, store) = store_with(3);
        let before = snapshot(dir.path());
        let (select_bad, extract_bad) = (bad.clone(), bad.clone());
        let model = Arc::new(
            Scripted::default()
                .select(move |_| Ok(select_bad.clone()))
                .extract(move |_| Ok(extract_bad.clone())),
        );
        let mut session = start(&store, &model);
        session.begin_turn("fact number 2");
        assert_eq!(session.last_error(), Some(SELECTION_FAILED), "{label}");
        let selected: Vec<&str> = session.selected().iter().map(Record::name).collect();
        assert_eq!(
            selected,
            ["r0", "r1", "r2"],
            "{label}: keyword fallback ('2' is too short a token)"
        );
        assert!(session.complete(&history()).is_none(), "{label}");
        assert_eq!(session.last_error(), Some(EXTRACTION_FAILED), "{label}");
        assert_eq!(snapshot(dir.path()), before, "{label}: nothing written");
    }
}

#[test]
fn only_the_model_selected_bodies_are_injected_in_reply_order() {
    let dir = workspace();
    let store = open(dir.path());
    store
        .extend(vec![
            Record::new("alpha", MemoryType::User, "database notes", "BODY-ALPHA").unwrap(),
            Record::new("beta", MemoryType::Project, "unrelated", "BODY-BETA").unwrap(),
            Record::new("gamma", MemoryType::Reference, "database too", "BODY-GAMMA").unwrap(),
        ])
        .unwrap();
    let model = Arc::new(Scripted::default().select(|_| reply(json!(["gamma", "beta"]))));
    let mut session = start(&store, &model);
    session.begin_turn("database");
    assert_eq!(session.last_error(), None);
    let message = session.before_model().expect("something selected");
    assert_eq!(message.role(), "system");
    let text = message.content();
    assert!(text.contains("BODY-GAMMA") && text.contains("BODY-BETA"));
    assert!(
        !text.contains("BODY-ALPHA"),
        "keyword match but not selected by the model"
    );
    assert_eq!(
        text,
        "<relevant_memories>\n\n## gamma (reference)\n\ndatabase too\n\nBODY-GAMMA\n\n## beta (project)\n\nunrelated\n\nBODY-BETA\n\n</relevant_memories>"
    );
    assert_eq!(session.render_selected(), text);

    let empty = Arc::new(Scripted::default().select(|_| reply(json!([]))));
    let mut session = MemorySession::new(store.clone()).with_model(empty);
    session.begin_turn("database");
    assert!(session.selected().is_empty());
    assert_eq!(session.before_model(), None);
    assert_eq!(
        session.last_error(),
        None,
        "an empty choice is a valid choice"
    );
}

#[test]
fn the_fallback_takes_over_after_any_selector_failure() {
    let failures: Vec<(&str, Handler)> = vec![
        (
            "error",
            Box::new(|_: &ModelRequest| Err(ModelError::Other("down".into()))),
        ),
        (
            "non-JSON",
            Box::new(|_: &ModelRequest| Ok(ModelReply::stop("r1, r2"))),
        ),
        (
            "unknown name",
            Box::new(|_: &ModelRequest| reply(json!(["r1", "ghost"]))),
        ),
        (
            "duplicate",
            Box::new(|_: &ModelRequest| reply(json!(["r1", "r1"]))),
        ),
        (
            "not an array",
            Box::new(|_: &ModelRequest| reply(json!({"selected": ["r1"]}))),
        ),
        (
            "not strings",
            Box::new(|_: &ModelRequest| reply(json!([1]))),
        ),
    ];
    for (label, handler) in failures {
        let (_dir, store) = store_with(4);
        let model = Arc::new(Scripted {
            select: Some(handler),
            ..Scripted::default()
        });
        let mut session = start(&store, &model);
        session.begin_turn("number 3");
        assert_eq!(session.last_error(), Some(SELECTION_FAILED), "{label}");
        assert!(
            !session.last_error_detail().unwrap_or("").is_empty(),
            "{label}"
        );
        let selected: Vec<&str> = session.selected().iter().map(Record::name).collect();
        assert_eq!(
            selected,
            ["r0", "r1", "r2", "r3"],
            "{label}: 'number' matches all, ties by name"
        );
    }
}

#[test]
fn a_valid_selection_keeps_the_first_max_selected() {
    let (_dir, store) = store_with(8);
    let model = Arc::new(
        Scripted::default().select(|_| reply(json!(["r7", "r6", "r5", "r4", "r3", "r2", "r1"]))),
    );
    let mut session = start(&store, &model);
    session.begin_turn("anything");
    let selected: Vec<&str> = session.selected().iter().map(Record::name).collect();
    assert_eq!(selected, ["r7", "r6", "r5", "r4", "r3"]);
    let mut small = MemorySession::new(store.clone())
        .with_model(model.clone())
        .with_options(SessionOptions {
            max_selected: 2,
            ..SessionOptions::default()
        });
    small.begin_turn("anything");
    assert_eq!(small.selected().len(), 2);
}

#[test]
fn chinese_queries_match_by_bigram_without_a_model() {
    let dir = workspace();
    let store = open(dir.path());
    store
        .extend(vec![
            Record::new(
                "database",
                MemoryType::Project,
                "生产数据库约束",
                "使用真实数据库。",
            )
            .unwrap(),
            Record::new(
                "interaction",
                MemoryType::Project,
                "前端交互约束",
                "保持键盘可用。",
            )
            .unwrap(),
        ])
        .unwrap();
    let mut session = MemorySession::new(store);
    session.begin_turn("前端交互怎么做");
    let selected: Vec<&str> = session.selected().iter().map(Record::name).collect();
    assert_eq!(selected, ["interaction"]);
    assert_eq!(session.last_error(), None, "no selector is not a failure");
    session.begin_turn("数据库和约束");
    let selected: Vec<&str> = session.selected().iter().map(Record::name).collect();
    assert_eq!(
        selected,
        ["database", "interaction"],
        "数据+据库+约束 beat 约束 alone"
    );
}

#[test]
fn an_empty_set_selects_nothing_and_asks_nobody() {
    let dir = workspace();
    let model = Arc::new(Scripted::default());
    let mut session = start(&open(dir.path()), &model);
    assert!(session.begin_turn("anything").is_empty());
    assert_eq!(session.last_error(), None);
    assert!(model.log.lock().unwrap().is_empty());
}

#[test]
fn extraction_works_on_a_copy_and_leaves_the_callers_history_alone() {
    let (_dir, store) = store_with(1);
    let model = Arc::new(
        Scripted::default().extract(|_| reply(json!([item("tabs", "User prefers tabs")]))),
    );
    let history = history();
    let kept = history.clone();
    let mut session = start(&store, &model);
    let outcome = session.complete(&history);
    assert_eq!(history, kept);
    let Some(PlanOutcome::Committed(commit)) = outcome else {
        panic!("committed: {:?}", session.last_error_detail())
    };
    assert_eq!(commit.added, ["tabs"]);
    assert_eq!(names(&store), ["r0", "tabs"]);
    assert_eq!(
        &model.calls(Kind::Extract)[0].messages[1..=kept.len()],
        &kept[..]
    );
}

#[test]
fn an_invalid_extraction_batch_commits_nothing() {
    let (dir, store) = store_with(2);
    let before = snapshot(dir.path());
    let mut bad = item("two", "Second");
    bad["extra"] = json!("key");
    let model = Arc::new(
        Scripted::default().extract(move |_| reply(json!([item("one", "First"), bad.clone()]))),
    );
    let mut session = start(&store, &model);
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), Some(EXTRACTION_FAILED));
    assert!(
        session.last_error_detail().unwrap().contains("extra"),
        "{:?}",
        session.last_error_detail()
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn an_extracted_name_already_in_the_set_fails_the_extraction() {
    let (dir, store) = store_with(2);
    let before = snapshot(dir.path());
    let model = Arc::new(
        Scripted::default().extract(|_| reply(json!([item("new-one", "x"), item("r1", "again")]))),
    );
    let mut session = start(&store, &model);
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), Some(EXTRACTION_FAILED));
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn a_broken_tool_pairing_fails_before_the_extractor_is_asked() {
    let (dir, store) = store_with(1);
    let before = snapshot(dir.path());
    let model = Arc::new(Scripted::default().extract(|_| reply(json!([item("x", "y")]))));
    let mut session = start(&store, &model);
    let mut history = history();
    history.remove(3); // the tool result
    assert!(session.complete(&history).is_none());
    assert_eq!(session.last_error(), Some(EXTRACTION_FAILED));
    assert!(session.last_error_detail().unwrap().contains("call-1"));
    assert!(model.calls(Kind::Extract).is_empty());
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn no_consolidation_after_a_failed_extraction() {
    let (dir, store) = store_with(12);
    let before = snapshot(dir.path());
    let model = Arc::new(
        Scripted::default()
            .extract(|_| Ok(ModelReply::stop("not json")))
            .consolidate(|_| reply(json!({"source_names": ["r0"], "records": [item("z", "z")]}))),
    );
    let mut session = start(&store, &model);
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), Some(EXTRACTION_FAILED));
    assert!(model.calls(Kind::Consolidate).is_empty());
    assert_eq!(snapshot(dir.path()), before);
}

fn consolidating(plan: Value) -> Arc<Scripted> {
    Arc::new(
        Scripted::default()
            .extract(|_| reply(json!([item("fresh", "Just learned")])))
            .consolidate(move |_| reply(plan.clone())),
    )
}

#[test]
fn a_failed_consolidation_commits_neither_plan_nor_extraction() {
    let plans = [
        (
            "unknown source",
            json!({"source_names": ["ghost"], "records": [item("m", "m")]}),
        ),
        (
            "empty sources",
            json!({"source_names": [], "records": [item("m", "m")]}),
        ),
        (
            "empty replacement",
            json!({"source_names": ["r0"], "records": []}),
        ),
        (
            "bad record",
            json!({"source_names": ["r0"], "records": [item("m", "m"), item("BAD", "m")]}),
        ),
        (
            "extra key",
            json!({"source_names": ["r0"], "records": [item("m", "m")], "why": "x"}),
        ),
        ("bare array", json!([item("m", "m")])),
    ];
    for (label, plan) in plans {
        let (dir, store) = store_with(9);
        let before = snapshot(dir.path());
        let model = consolidating(plan);
        let mut session = start(&store, &model);
        assert!(session.complete(&history()).is_none(), "{label}");
        assert_eq!(session.last_error(), Some(CONSOLIDATION_FAILED), "{label}");
        assert_eq!(snapshot(dir.path()), before, "{label}");
    }
    let (dir, store) = store_with(9);
    let before = snapshot(dir.path());
    let model = Arc::new(
        Scripted::default()
            .extract(|_| reply(json!([item("fresh", "x")])))
            .consolidate(|_| Err(ModelError::Other("consolidator down".into()))),
    );
    let mut session = start(&store, &model);
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), Some(CONSOLIDATION_FAILED));
    assert_eq!(snapshot(dir.path()), before);
}

struct FailManifestRename;

impl FaultHook for FailManifestRename {
    fn before(&self, op: IoOp, path: &Path) -> std::io::Result<()> {
        if op == IoOp::Rename && path.ends_with("manifest.json") {
            return Err(std::io::Error::other("disk full"));
        }
        Ok(())
    }
}

#[test]
fn a_consolidation_that_fails_to_commit_leaves_the_set_whole() {
    let (dir, seeded) = store_with(9);
    let before = snapshot(dir.path());
    let failing = Store::open(
        dir.path(),
        StoreOptions {
            hooks: IoHooks::new(Arc::new(FailManifestRename)),
            ..StoreOptions::default()
        },
    )
    .unwrap();
    let model =
        consolidating(json!({"source_names": ["r0", "r1"], "records": [item("r01", "Merged")]}));
    let mut session = start(&failing, &model);
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), Some(CONSOLIDATION_FAILED));
    assert!(session.last_error_detail().unwrap().contains("disk full"));
    assert_eq!(snapshot(dir.path()), before);
    assert_eq!(seeded.records().unwrap().len(), 9);
}

#[test]
fn consolidation_replaces_only_the_named_sources() {
    let (_dir, store) = store_with(9);
    let model = consolidating(
        json!({"source_names": ["r2", "r5"], "records": [item("r2-r5", "Merged facts")]}),
    );
    let mut session = start(&store, &model);
    let Some(PlanOutcome::Committed(commit)) = session.complete(&history()) else {
        panic!("committed: {:?}", session.last_error_detail())
    };
    assert_eq!(commit.removed, ["r2", "r5"]);
    let mut added = commit.added.clone();
    added.sort();
    assert_eq!(added, ["fresh", "r2-r5"]);
    assert_eq!(
        names(&store),
        ["r0", "r1", "r3", "r4", "r6", "r7", "r8", "fresh", "r2-r5"]
    );
    let kept = store.read().unwrap();
    assert_eq!(
        kept.get("r3").unwrap().record.body(),
        "Body 3.",
        "unrelated records are untouched"
    );
}

#[test]
fn an_extracted_record_named_as_a_source_is_not_committed() {
    let (_dir, store) = store_with(9);
    let model = consolidating(
        json!({"source_names": ["fresh", "r0"], "records": [item("r0", "Fact 0 with what was just learned")]}),
    );
    let mut session = start(&store, &model);
    assert!(
        session.complete(&history()).is_some(),
        "{:?}",
        session.last_error_detail()
    );
    let names = names(&store);
    assert!(!names.contains(&"fresh".to_owned()));
    assert_eq!(names.len(), 9);
    assert_eq!(
        store
            .read()
            .unwrap()
            .get("r0")
            .unwrap()
            .record
            .description(),
        "Fact 0 with what was just learned"
    );
}

#[test]
fn a_record_committed_while_the_consolidator_waits_is_kept() {
    let (dir, store) = store_with(9);
    let other_writer = open(dir.path());
    let model = Arc::new(
        Scripted::default()
            .extract(|_| reply(json!([item("fresh", "x")])))
            .consolidate(move |_| {
                other_writer
                    .extend(vec![record(
                        "concurrent",
                        "Added by another agent",
                        "Meanwhile.",
                    )])
                    .expect("other writer");
                reply(json!({"source_names": ["r0", "r1"], "records": [item("r01", "Merged")]}))
            }),
    );
    let mut session = start(&store, &model);
    assert!(
        session.complete(&history()).is_some(),
        "{:?}",
        session.last_error_detail()
    );
    let names = names(&store);
    assert!(names.contains(&"concurrent".to_owned()), "{names:?}");
    assert!(names.contains(&"fresh".to_owned()) && names.contains(&"r01".to_owned()));
    assert!(!names.contains(&"r0".to_owned()) && !names.contains(&"r1".to_owned()));
}

#[test]
fn a_source_changed_while_the_consolidator_waits_fails_the_consolidation() {
    let (dir, store) = store_with(9);
    let other_writer = open(dir.path());
    let model = Arc::new(
        Scripted::default()
            .extract(|_| reply(json!([item("fresh", "x")])))
            .consolidate(move |_| {
                let base = other_writer
                    .read()
                    .unwrap()
                    .get("r4")
                    .unwrap()
                    .record
                    .clone();
                other_writer
                    .replace(&base, record("r4", "Edited meanwhile", "New body."))
                    .expect("edit");
                reply(json!({"source_names": ["r0"], "records": [item("r0b", "Merged")]}))
            }),
    );
    let mut session = start(&store, &model);
    let after_edit = |store: &Store| {
        store
            .read()
            .unwrap()
            .get("r4")
            .unwrap()
            .record
            .description()
            .to_owned()
    };
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), Some(CONSOLIDATION_FAILED));
    assert!(
        session
            .last_error_detail()
            .unwrap()
            .contains("memory collection changed")
    );
    assert_eq!(
        after_edit(&store),
        "Edited meanwhile",
        "the other writer's edit stands"
    );
    assert!(
        names(&store).contains(&"r0".to_owned()) && !names(&store).contains(&"fresh".to_owned())
    );
}

#[test]
fn below_the_threshold_or_without_a_consolidator_records_are_appended() {
    let (_dir, store) = store_with(8);
    let model = consolidating(json!({"source_names": ["r0"], "records": [item("m", "m")]}));
    let mut session = start(&store, &model);
    assert!(session.complete(&history()).is_some());
    assert!(model.calls(Kind::Consolidate).is_empty(), "8 + 1 < 10");
    assert_eq!(names(&store).len(), 9);

    let (_dir, store) = store_with(12);
    let model = consolidating(json!({"source_names": ["r0"], "records": [item("m", "m")]}));
    let mut session = MemorySession::new(store.clone()).with_extractor(Some(model.clone()));
    assert!(session.complete(&history()).is_some());
    assert!(model.calls(Kind::Consolidate).is_empty());
    assert_eq!(names(&store).len(), 13);

    let (_dir, store) = store_with(2);
    let model = consolidating(json!({"source_names": ["r0", "r1"], "records": [item("m", "m")]}));
    let mut session = start(&store, &model).with_options(SessionOptions {
        consolidation_threshold: 3,
        ..SessionOptions::default()
    });
    assert!(
        session.complete(&history()).is_some(),
        "{:?}",
        session.last_error_detail()
    );
    assert_eq!(
        model.calls(Kind::Consolidate).len(),
        1,
        "2 + 1 reaches a threshold of 3"
    );
    assert_eq!(names(&store), ["fresh", "m"]);
}

#[test]
fn nothing_extracted_below_the_threshold_writes_nothing() {
    let (dir, store) = store_with(3);
    let before = snapshot(dir.path());
    let model = Arc::new(Scripted::default().extract(|_| reply(json!([]))));
    let mut session = start(&store, &model);
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), None);
    assert_eq!(snapshot(dir.path()), before);
    let mut no_model = MemorySession::new(store.clone());
    assert!(no_model.complete(&history()).is_none());
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn begin_turn_clears_the_previous_error() {
    let (_dir, store) = store_with(2);
    let flaky = Arc::new(Mutex::new(true));
    let switch = flaky.clone();
    let model = Arc::new(Scripted::default().select(move |_| {
        if *switch.lock().unwrap() {
            Err(ModelError::Other("down".into()))
        } else {
            reply(json!(["r1"]))
        }
    }));
    let mut session = start(&store, &model);
    session.begin_turn("fact");
    assert_eq!(session.last_error(), Some(SELECTION_FAILED));
    *flaky.lock().unwrap() = false;
    session.begin_turn("fact");
    assert_eq!(session.last_error(), None);
    assert_eq!(session.selected()[0].name(), "r1");
}

#[test]
fn an_unreadable_set_fails_the_selection_but_not_the_turn() {
    let (dir, store) = store_with(2);
    std::fs::write(dir.path().join(".memory/manifest.json"), "{\"version\":2}").unwrap();
    let model = Arc::new(Scripted::default().select(|_| reply(json!(["r1"]))));
    let mut session = start(&store, &model);
    assert!(session.begin_turn("fact").is_empty());
    assert_eq!(session.last_error(), Some(SELECTION_FAILED));
    assert!(session.last_error_detail().unwrap().contains("manifest"));
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), Some(EXTRACTION_FAILED));
}

#[test]
fn requests_are_byte_identical_across_runs() {
    let (_dir, store) = store_with(3);
    let model = Arc::new(
        Scripted::default()
            .select(|_| reply(json!(["r1"])))
            .extract(|_| reply(json!([]))),
    );
    for _ in 0..2 {
        let mut session = start(&store, &model);
        session.begin_turn("same query");
        session.complete(&history());
    }
    let log = model.log.lock().unwrap();
    let json: Vec<String> = log.iter().map(|(_, r)| r.to_stable_json()).collect();
    assert_eq!(json.len(), 4);
    assert_eq!(json[0], json[2]);
    assert_eq!(json[1], json[3]);
}

/// A sink that keeps plans instead of writing them: the seam review mode will use.
#[derive(Default)]
struct Recording(Mutex<Vec<MemoryPlan>>);

impl PlanSink for Recording {
    fn apply(
        &self,
        store: &Store,
        plan: MemoryPlan,
        _: &[Message],
    ) -> Result<PlanOutcome, PlanError> {
        self.0.lock().unwrap().push(plan);
        Ok(PlanOutcome::Committed(Commit {
            set: store.read()?,
            ..Commit::default()
        }))
    }
}

struct Refusing;

impl PlanSink for Refusing {
    fn apply(&self, _: &Store, _: MemoryPlan, _: &[Message]) -> Result<PlanOutcome, PlanError> {
        Err("proposal queue is full".into())
    }
}

#[test]
fn plans_go_through_the_sink() {
    let (dir, store) = store_with(9);
    let before = snapshot(dir.path());
    let sink = Arc::new(Recording::default());
    let model = consolidating(json!({"source_names": ["r0"], "records": [item("r0b", "Merged")]}));
    let mut session = start(&store, &model).with_sink(sink.clone());
    assert!(session.complete(&history()).is_some());
    assert_eq!(
        snapshot(dir.path()),
        before,
        "the recording sink writes nothing"
    );
    let plans = sink.0.lock().unwrap();
    let MemoryPlan::Consolidate {
        base,
        additions,
        source_names,
        replacements,
    } = &plans[0]
    else {
        panic!("a consolidation plan")
    };
    assert_eq!(base.len(), 9);
    assert_eq!(
        additions.iter().map(Record::name).collect::<Vec<_>>(),
        ["fresh"]
    );
    assert_eq!(source_names, &["r0"]);
    assert_eq!(replacements[0].name(), "r0b");

    let (_dir, store) = store_with(1);
    let model = consolidating(json!({}));
    let mut session = start(&store, &model).with_sink(Arc::new(Refusing));
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), Some(EXTRACTION_FAILED));
    assert_eq!(session.last_error_detail(), Some("proposal queue is full"));
}
