//! The reference agent session (`session::MemorySession`) on both formats, with the scripted
//! model the lifecycle tests use: a turn extracts and writes a memory with its index line
//! (journaled: `undo` walks it back),
//! consolidation replaces memories, a base changed while the model thought fails it with
//! nothing written, and review mode files proposals instead.

use std::fs;
use std::sync::Arc;

use super::add;
use crate::common::formats::{BOTH, Folder, Format};
use crate::common::scripted::{Kind, Scripted, item, reply};
use memwb::claude::{ClaudeFolder, LoadLimits};
use memwb::review::{Origin, ReviewPlans};
use memwb::session::{
    CONSOLIDATION_FAILED, Committed, MemorySession, Message, PlanOutcome, SessionOptions,
};
use memwb::store::{FaultHook, IoHooks, Store, StoreOptions};
use serde_json::{Value, json};

/// A session on `folder` with `model` as its extractor and consolidator (no selector: the
/// keyword fallback selects), consolidating at 3 memories.
fn session(folder: &Folder, model: &Arc<Scripted>) -> MemorySession {
    session_hooked(folder, model, IoHooks::default())
}

/// [`session`] with every write step passing `hooks` (a fault injected), on either format.
fn session_hooked(folder: &Folder, model: &Arc<Scripted>, hooks: IoHooks) -> MemorySession {
    let session = match folder.format {
        Format::Memory => MemorySession::new(
            Store::open(
                folder.dir.path(),
                StoreOptions {
                    hooks,
                    ..StoreOptions::default()
                },
            )
            .expect("open the set"),
        ),
        Format::Claude => MemorySession::new(
            ClaudeFolder::open(folder.dir.path(), LoadLimits::default())
                .expect("open the folder")
                .with_state_root(folder.state.path().to_owned())
                .with_hooks(hooks),
        ),
    };
    session
        .with_extractor(Some(model.clone()))
        .with_consolidator(Some(model.clone()))
        .with_options(SessionOptions {
            consolidation_threshold: 3,
            ..SessionOptions::default()
        })
}

fn history() -> Vec<Message> {
    vec![
        Message::user("Use tabs, never spaces."),
        Message::assistant("Noted: tabs."),
    ]
}

/// The memories `ls --json` lists, by name, sorted.
fn names(folder: &Folder) -> Vec<String> {
    let listed: Vec<Value> =
        serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
    let mut names: Vec<String> = listed
        .iter()
        .map(|m| m["name"].as_str().expect("a name").to_owned())
        .collect();
    names.sort();
    names
}

fn index(folder: &Folder) -> String {
    fs::read_to_string(folder.root().join("MEMORY.md")).expect("MEMORY.md")
}

/// The index's lines that link to a memory, the link's text.
fn indexed(folder: &Folder) -> Vec<String> {
    let mut linked: Vec<String> = index(folder)
        .lines()
        .filter_map(|line| {
            let text = line.strip_prefix("- [")?;
            Some(text[..text.find(']')?].to_owned())
        })
        .collect();
    linked.sort();
    linked
}

#[test]
fn a_session_turn_selects_then_writes_what_it_extracted_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "indentation rules"));
        let model = Arc::new(
            Scripted::default().extract(|_| reply(json!([item("tabs", "User prefers tabs")]))),
        );
        let mut session = session(&folder, &model);
        let selected: Vec<String> = session
            .begin_turn("what are the alpha rules?")
            .iter()
            .map(|r| r.name().to_owned())
            .collect();
        assert_eq!(selected, ["alpha"], "{format:?}");
        let outcome = session.complete(&history());
        let Some(PlanOutcome::Committed(Committed {
            changed,
            warning: None,
        })) = outcome
        else {
            panic!("{format:?}: {:?}", session.last_error_detail())
        };
        assert_eq!(changed.added, ["tabs"], "{format:?}");
        assert_eq!(names(&folder), ["alpha", "tabs"], "{format:?}");
        assert_eq!(
            indexed(&folder),
            ["alpha", "tabs"],
            "{format:?}: {}",
            index(&folder)
        );
        let extract = &model.calls(Kind::Extract)[0];
        let input = extract
            .messages
            .last()
            .expect("the extractor's input")
            .content();
        assert!(input.contains("alpha"), "{format:?}: the catalog: {input}");
        let log = folder.ok(&["log"]);
        assert!(log.contains("added tabs"), "{format:?}: journaled: {log}");
        folder.ok(&["undo"]);
        assert_eq!(names(&folder), ["alpha"], "{format:?}: undone");
        assert_eq!(
            indexed(&folder),
            ["alpha"],
            "{format:?}: {}",
            index(&folder)
        );
    }
}

#[test]
fn a_consolidation_replaces_its_sources_and_keeps_what_others_added_on_both_formats() {
    for format in BOTH {
        let folder = Arc::new(Folder::new(format));
        folder.ok(&add("alpha", "tabs in Rust"));
        folder.ok(&add("beta", "tabs in Go"));
        let writer = folder.clone();
        let model = Arc::new(
            Scripted::default()
                .extract(move |_| {
                    // Another writer adds a memory while the model thinks.
                    writer.ok(&add("delta", "written meanwhile"));
                    reply(json!([item("gamma", "User prefers tabs")]))
                })
                .consolidate(|_| {
                    reply(json!({
                        "source_names": ["alpha", "beta"],
                        "records": [item("alpha-beta", "Tabs in Rust and Go")],
                    }))
                }),
        );
        let mut session = session(&folder, &model);
        let Some(PlanOutcome::Committed(Committed {
            changed,
            warning: None,
        })) = session.complete(&history())
        else {
            panic!("{format:?}: {:?}", session.last_error_detail())
        };
        assert_eq!(changed.removed, ["alpha", "beta"], "{format:?}");
        let mut added = changed.added.clone();
        added.sort();
        assert_eq!(added, ["alpha-beta", "gamma"], "{format:?}");
        assert_eq!(
            names(&folder),
            ["alpha-beta", "delta", "gamma"],
            "{format:?}"
        );
        assert_eq!(
            indexed(&folder),
            ["alpha-beta", "delta", "gamma"],
            "{format:?}: {}",
            index(&folder)
        );
        let shown = folder.ok(&["show", "alpha-beta"]);
        assert!(shown.contains("Body of alpha-beta."), "{format:?}: {shown}");
    }
}

#[test]
fn a_base_changed_while_the_model_thought_fails_the_consolidation_on_both_formats() {
    for format in BOTH {
        let folder = Arc::new(Folder::new(format));
        folder.ok(&add("alpha", "tabs in Rust"));
        folder.ok(&add("beta", "tabs in Go"));
        let writer = folder.clone();
        let model = Arc::new(
            Scripted::default()
                .extract(move |_| {
                    writer.ok(&["set", "alpha", "--description", "changed meanwhile"]);
                    reply(json!([item("gamma", "User prefers tabs")]))
                })
                .consolidate(|_| {
                    reply(json!({
                        "source_names": ["alpha", "beta"],
                        "records": [item("alpha-beta", "Tabs in Rust and Go")],
                    }))
                }),
        );
        let mut session = session(&folder, &model);
        let before_the_turn = names(&folder);
        assert!(session.complete(&history()).is_none(), "{format:?}");
        assert_eq!(
            session.last_error(),
            Some(CONSOLIDATION_FAILED),
            "{format:?}"
        );
        assert!(
            session
                .last_error_detail()
                .is_some_and(|d| d.contains("alpha")),
            "{format:?}: {:?}",
            session.last_error_detail()
        );
        assert_eq!(names(&folder), before_the_turn, "{format:?}");
        let shown = folder.ok(&["show", "alpha"]);
        assert!(shown.contains("changed meanwhile"), "{format:?}: {shown}");
    }
}

#[test]
fn review_mode_files_each_plan_as_a_proposal_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "tabs in Rust"));
        let model = Arc::new(
            Scripted::default()
                .extract(|_| reply(json!([item("beta", "tabs in Go")])))
                .consolidate(|_| {
                    reply(json!({
                        "source_names": ["alpha", "beta"],
                        "records": [item("alpha-beta", "Tabs in Rust and Go")],
                    }))
                }),
        );
        let review = Arc::new(ReviewPlans {
            origin: Origin::new("agent"),
        });
        // Below the threshold: the extraction is filed.
        let mut extracting = session(&folder, &model)
            .with_options(SessionOptions {
                consolidation_threshold: 10,
                ..SessionOptions::default()
            })
            .with_sink(review.clone());
        let before = folder.comparable_state();
        let Some(PlanOutcome::Proposed { id }) = extracting.complete(&history()) else {
            panic!("{format:?}: {:?}", extracting.last_error_detail())
        };
        assert_eq!(
            folder.comparable_state(),
            before,
            "{format:?}: nothing written"
        );
        let listed = folder.ok(&["proposals"]);
        assert!(listed.contains(&id), "{format:?}: {listed}");
        folder.ok(&["approve", &id]);
        assert_eq!(names(&folder), ["alpha", "beta"], "{format:?}");

        // At the threshold: the consolidation is filed, then approved.
        let model = Arc::new(
            Scripted::default()
                .extract(|_| reply(json!([])))
                .consolidate(|_| {
                    reply(json!({
                        "source_names": ["alpha", "beta"],
                        "records": [item("alpha-beta", "Tabs in Rust and Go")],
                    }))
                }),
        );
        let mut consolidating = session(&folder, &model)
            .with_options(SessionOptions {
                consolidation_threshold: 2,
                ..SessionOptions::default()
            })
            .with_sink(review.clone());
        let before = folder.comparable_state();
        let Some(PlanOutcome::Proposed { id }) = consolidating.complete(&history()) else {
            panic!("{format:?}: {:?}", consolidating.last_error_detail())
        };
        assert_eq!(
            folder.comparable_state(),
            before,
            "{format:?}: nothing written"
        );
        folder.ok(&["approve", &id]);
        assert_eq!(names(&folder), ["alpha-beta"], "{format:?}");
        assert_eq!(
            indexed(&folder),
            ["alpha-beta"],
            "{format:?}: {}",
            index(&folder)
        );
    }
}

/// A turn whose change is in place but whose journal mark or directory sync failed is written,
/// and its outcome says so as every other change does, on both formats: the memory is there
/// and `PlanOutcome::Committed` carries "written, but not journaled: …" or "written, but not
/// yet durable: …" (the backends only logged it and answered a plain success).
#[test]
fn a_turn_written_but_not_journaled_or_not_durable_carries_its_warning_on_both_formats() {
    // (what the warning starts with, the fault, its error's words)
    type Fault = fn() -> Arc<dyn FaultHook>;
    let faults: [(&str, Fault, &str); 2] = [
        (
            "written, but not journaled: ",
            || Arc::new(super::messages::FailMarks),
            "the disk is full",
        ),
        (
            "written, but not yet durable: ",
            || Arc::new(super::faults::FailSyncAfterRename::default()),
            "the disk went away",
        ),
    ];
    for format in BOTH {
        for (said, fault, why) in faults {
            let folder = Folder::new(format);
            folder.ok(&add("alpha", "indentation rules"));
            let model = Arc::new(
                Scripted::default().extract(|_| reply(json!([item("tabs", "User prefers tabs")]))),
            );
            let mut session = session_hooked(&folder, &model, IoHooks::new(fault()));
            let outcome = session.complete(&history());
            let Some(PlanOutcome::Committed(Committed {
                changed,
                warning: Some(warning),
            })) = outcome
            else {
                panic!(
                    "{format:?} {said}: {outcome:?}, {:?}",
                    session.last_error_detail()
                )
            };
            assert_eq!(changed.added, ["tabs"], "{format:?} {said}");
            assert!(
                warning.starts_with(said) && warning.contains(why),
                "{format:?}: {warning}"
            );
            assert_eq!(session.last_error(), None, "{format:?} {said}");
            assert_eq!(names(&folder), ["alpha", "tabs"], "{format:?} {said}");
        }
    }
}
