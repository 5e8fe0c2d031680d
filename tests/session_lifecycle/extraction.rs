//! Extraction and the turn: all or nothing, thresholds, errors, identical requests, plan sinks.

use super::*;

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
    let Some(PlanOutcome::Committed(Committed {
        changed,
        warning: None,
    })) = outcome
    else {
        panic!("committed: {:?}", session.last_error_detail())
    };
    assert_eq!(changed.added, ["tabs"]);
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
        _: &dyn MemoryFolder,
        plan: MemoryPlan,
        _: &[Message],
    ) -> Result<PlanOutcome, PlanError> {
        self.0.lock().unwrap().push(plan);
        Ok(PlanOutcome::Committed(Committed::default()))
    }
}

struct Refusing;

impl PlanSink for Refusing {
    fn apply(
        &self,
        _: &dyn MemoryFolder,
        _: MemoryPlan,
        _: &[Message],
    ) -> Result<PlanOutcome, PlanError> {
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

/// A folder of an embedder's own: the session reads and commits through it alone.
struct InMemory {
    records: Vec<Record>,
    /// Every plan committed, shared with the test.
    committed: Arc<Mutex<Vec<MemoryPlan>>>,
}

impl MemoryFolder for InMemory {
    fn root(&self) -> &Path {
        Path::new("in-memory")
    }
    fn read(&self) -> Result<FolderReading, PlanError> {
        Ok(FolderReading {
            records: self.records.clone(),
            catalog: "- r0: the only one".into(),
        })
    }
    fn commit(&self, plan: MemoryPlan) -> Result<Committed, PlanError> {
        self.committed.lock().unwrap().push(plan);
        Ok(Committed::default())
    }
}

#[test]
fn a_folder_of_the_embedders_own_is_read_and_committed_through_its_trait() {
    let committed = Arc::new(Mutex::new(Vec::new()));
    let folder = InMemory {
        records: vec![record("r0", "Fact number 0", "Body 0.")],
        committed: committed.clone(),
    };
    let model = Arc::new(
        Scripted::default().extract(|_| reply(json!([item("tabs", "User prefers tabs")]))),
    );
    let mut session = MemorySession::new(Box::new(folder) as Box<dyn MemoryFolder>)
        .with_extractor(Some(model.clone()));
    assert_eq!(session.begin_turn("fact number")[0].name(), "r0");
    assert!(session.complete(&history()).is_some());
    let extract = &model.calls(Kind::Extract)[0];
    assert_eq!(
        user_input(extract)["existing_catalog"],
        "- r0: the only one"
    );
    let committed = committed.lock().unwrap();
    let [MemoryPlan::Extend { records }] = committed.as_slice() else {
        panic!("one extension: {committed:?}")
    };
    assert_eq!(records[0].name(), "tabs");
}

#[test]
fn review_mode_refuses_a_folder_memwb_did_not_open() {
    let committed = Arc::new(Mutex::new(Vec::new()));
    let folder = InMemory {
        records: Vec::new(),
        committed: committed.clone(),
    };
    let model = Arc::new(
        Scripted::default().extract(|_| reply(json!([item("tabs", "User prefers tabs")]))),
    );
    let mut session = MemorySession::new(Box::new(folder) as Box<dyn MemoryFolder>)
        .with_extractor(Some(model))
        .with_sink(Arc::new(ReviewPlans {
            origin: Origin::new("agent"),
        }));
    assert!(session.complete(&history()).is_none());
    assert_eq!(session.last_error(), Some(EXTRACTION_FAILED));
    let detail = session.last_error_detail().unwrap_or_default();
    assert!(detail.contains("keeps no proposals"), "{detail}");
    assert!(committed.lock().unwrap().is_empty(), "nothing committed");
}
