//! Side-queries and selection: tool-free requests, strict replies, the model's choice, the
//! fallback.

use super::*;

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
