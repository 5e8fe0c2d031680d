//! Consolidation: all or nothing with its extraction, only the named sources, other writers
//! meanwhile.

use super::*;

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
    let Some(PlanOutcome::Committed(Committed {
        changed,
        warning: None,
    })) = session.complete(&history())
    else {
        panic!("committed: {:?}", session.last_error_detail())
    };
    assert_eq!(changed.removed, ["r2", "r5"]);
    let mut added = changed.added.clone();
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
