//! Where proposals come from: a model (scripted command and loopback HTTP), an import, the
//! deterministic dedupe, and the lifecycle's review mode. None of them changes the set.

use crate::common;
use crate::common::cli::memwb;

use std::path::Path;
use std::sync::Arc;

use common::chat_server::{completion, serve};
use common::{open, record, snapshot, workspace};
use memwb::review::proposal;
use memwb::review::{Kind, Origin, ReviewPlans, State};
use memwb::session::{CommandClient, MemorySession, Message, PlanOutcome};
use serde_json::{Value, json};

fn seed(dir: &Path, names: &[(&str, &str)]) {
    for (name, description) in names {
        let out = memwb(
            dir,
            &[
                "add",
                "--name",
                name,
                "--type",
                "user",
                "--description",
                description,
                "--body",
                "b",
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A model program that answers `content` (a JSON value) and saves the request it got.
fn scripted_model(dir: &Path, content: &Value) -> String {
    let reply = json!({"message": {"content": content.to_string()}, "finish_reason": "stop"});
    let reply_path = dir.join("reply.json");
    std::fs::write(&reply_path, reply.to_string()).unwrap();
    let script = dir.join("model.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > '{}'\ncat '{}'\n",
            dir.join("request.json").display(),
            reply_path.display()
        ),
    )
    .unwrap();
    format!("sh '{}'", script.display())
}

fn proposals(dir: &Path) -> Vec<Value> {
    let out = memwb(dir, &["proposals", "--json"]);
    assert!(out.status.success());
    serde_json::from_slice::<Vec<Value>>(&out.stdout).unwrap()
}

/// The names of the memories a listed proposal replaces (`proposals --json`: each file's
/// `before` memory), in order.
fn sources(proposal: &Value) -> Vec<String> {
    proposal["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["before"]["memory"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn a_scripted_model_consolidation_is_filed_without_changing_the_set() {
    let ws = workspace();
    let tmp = workspace();
    seed(
        ws.path(),
        &[
            ("tabs-old", "tabs"),
            ("tabs-new", "tabs again"),
            ("other", "o"),
        ],
    );
    let before = snapshot(ws.path());
    let model = scripted_model(
        tmp.path(),
        &json!({"source_names": ["tabs-old", "tabs-new"], "records": [{"name": "tabs", "type": "user", "description": "Indentation", "body": "Use tabs."}]}),
    );
    let out = memwb(
        ws.path(),
        &[
            "propose",
            "consolidate",
            "tabs-old",
            "tabs-new",
            "--model-cmd",
            &model,
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let id = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    assert_eq!(snapshot(ws.path()), before, "proposing changes nothing");
    let request: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("request.json")).unwrap())
            .unwrap();
    assert_eq!(request["tools"], json!([]));
    let sent = request["messages"].to_string();
    assert!(
        sent.contains("tabs-old") && sent.contains("tabs-new") && !sent.contains("\\\"other\\\""),
        "{sent}"
    );

    let listed = proposals(ws.path());
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["origin"]["source"], "model");
    assert!(
        listed[0]["origin"]["endpoint"]
            .as_str()
            .unwrap()
            .starts_with("command ")
    );
    assert_eq!(sources(&listed[0]).len(), 2, "both sources are kept whole");
    let approved = memwb(ws.path(), &["approve", &id]);
    assert!(approved.status.success());
    let names: Vec<String> = open(ws.path())
        .records()
        .unwrap()
        .iter()
        .map(|r| r.name().to_owned())
        .collect();
    assert_eq!(names, ["other", "tabs"]);
}

#[test]
fn a_model_over_http_files_an_extraction_with_its_evidence() {
    let ws = workspace();
    seed(ws.path(), &[("existing", "already known")]);
    let server = serve(vec![completion(
        json!([{"name": "windows-examples", "type": "project", "description": "Examples target Windows", "body": "Use PowerShell."}]).to_string().into(),
        "stop",
    )]);
    let history = ws.path().join("history.json");
    std::fs::write(
        &history,
        json!([
            {"role": "user", "content": "Remember: our examples only use PowerShell"},
            {"role": "assistant", "content": "Noted."}
        ])
        .to_string(),
    )
    .unwrap();
    let base_url = server.base_url.clone();
    let out = memwb(
        ws.path(),
        &[
            "propose",
            "extract",
            "--history",
            history.to_str().unwrap(),
            "--model-url",
            &base_url,
            "--model",
            "test-model",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let requests = server.finish();
    assert_eq!(requests.len(), 1);
    assert!(
        requests[0]
            .body
            .contains("Remember: our examples only use PowerShell")
    );
    assert!(requests[0].body.contains("existing_catalog"));

    let listed = proposals(ws.path());
    assert_eq!(listed[0]["kind"], "extraction");
    assert_eq!(listed[0]["state"], "ready");
    assert_eq!(
        listed[0]["files"][0]["after"]["record"]["name"],
        "windows-examples"
    );
    assert_eq!(listed[0]["origin"]["model"], "test-model");
    assert_eq!(listed[0]["origin"]["endpoint"], base_url.as_str());
    let evidence = listed[0]["evidence"].as_str().unwrap();
    assert!(
        evidence.contains("user: Remember: our examples only use PowerShell"),
        "{evidence}"
    );
    assert_eq!(open(ws.path()).records().unwrap().len(), 1);
}

#[test]
fn a_failing_model_files_nothing() {
    let ws = workspace();
    let tmp = workspace();
    seed(ws.path(), &[("a", "a")]);
    let model = scripted_model(
        tmp.path(),
        &json!({"source_names": ["missing"], "records": []}),
    );
    let out = memwb(
        ws.path(),
        &["propose", "consolidate", "--model-cmd", &model],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(proposals(ws.path()).is_empty());
    let out = memwb(ws.path(), &["propose", "consolidate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a model"));
}

#[test]
fn import_validates_before_filing() {
    let ws = workspace();
    seed(ws.path(), &[("a", "a")]);
    let bad = ws.path().join("bad.json");
    for reply in [
        r#"[{"name":"x","type":"user","description":"d","body":"b","extra":1}]"#,
        r#"{"source_names":["nope"],"records":[{"name":"x","type":"user","description":"d","body":"b"}]}"#,
        r#"{"source_names":["a"],"records":[]}"#,
        r#"[]"#,
        r#""text""#,
    ] {
        std::fs::write(&bad, reply).unwrap();
        let out = memwb(ws.path(), &["propose", "import", bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{reply}");
    }
    assert!(proposals(ws.path()).is_empty());
}

#[test]
fn dedupe_files_one_proposal_per_group_with_a_merged_draft() {
    let ws = workspace();
    seed(
        ws.path(),
        &[
            ("tabs-indentation", "User prefers tabs for indentation"),
            ("database-rule", "Tests use the real database"),
            (
                "indentation-tabs",
                "Indentation with tabs preferred by user",
            ),
            ("db-zh", "生产数据库约束"),
            ("db-zh-2", "生产数据库的约束"),
        ],
    );
    let before = snapshot(ws.path());
    let out = memwb(ws.path(), &["propose", "dedupe"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
    assert_eq!(snapshot(ws.path()), before);
    let listed = proposals(ws.path());
    let groups: Vec<Value> = listed.iter().map(|p| json!(sources(p))).collect();
    assert!(
        groups.contains(&json!(["tabs-indentation", "indentation-tabs"])),
        "{groups:?}"
    );
    assert!(groups.contains(&json!(["db-zh", "db-zh-2"])), "{groups:?}");
    assert!(
        listed
            .iter()
            .all(|p| p["origin"]["source"] == "dedupe" && p["kind"] == "consolidation")
    );
}

#[test]
fn dedupe_does_not_file_a_pending_or_rejected_group_again() {
    let ws = workspace();
    seed(
        ws.path(),
        &[
            ("tabs-indentation", "User prefers tabs for indentation"),
            (
                "indentation-tabs",
                "Indentation with tabs preferred by user",
            ),
            ("db-zh", "生产数据库约束"),
            ("db-zh-2", "生产数据库的约束"),
        ],
    );
    let first = memwb(ws.path(), &["propose", "dedupe"]);
    assert!(first.status.success());
    let ids: Vec<String> = String::from_utf8(first.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(ids.len(), 2);
    // again: both groups are pending, nothing is filed
    let again = memwb(ws.path(), &["propose", "dedupe"]);
    assert!(again.status.success());
    assert!(again.stdout.is_empty());
    let stderr = String::from_utf8(again.stderr).unwrap();
    assert!(
        stderr.contains("skipped tabs-indentation, indentation-tabs: already pending as proposal"),
        "{stderr}"
    );
    assert!(stderr.contains("no new near-duplicates found"), "{stderr}");
    assert_eq!(proposals(ws.path()).len(), 2);
    // rejected: still not filed again; approved groups are gone from the set anyway
    let tabs = proposals(ws.path())
        .into_iter()
        .find(|p| sources(p).first().map(String::as_str) == Some("tabs-indentation"))
        .expect("the tabs group");
    let id = tabs["id"].as_str().unwrap();
    assert!(memwb(ws.path(), &["reject", id]).status.success());
    let third = memwb(ws.path(), &["propose", "dedupe"]);
    let stderr = String::from_utf8(third.stderr).unwrap();
    assert!(
        stderr.contains(&format!(
            "skipped tabs-indentation, indentation-tabs: rejected before as proposal {id}"
        )),
        "{stderr}"
    );
    assert!(third.stdout.is_empty());
    assert_eq!(
        proposals(ws.path()).len(),
        1,
        "only the pending one is listed"
    );
    // issue 26 item 7: once a member is no longer what was rejected, the group comes back
    let set = memwb(
        ws.path(),
        &["set", "indentation-tabs", "--body", "Tabs, never spaces."],
    );
    assert!(set.status.success(), "{set:?}");
    let fourth = memwb(ws.path(), &["propose", "dedupe"]);
    let stderr = String::from_utf8(fourth.stderr).unwrap();
    assert!(
        !stderr.contains("tabs-indentation, indentation-tabs"),
        "{stderr}"
    );
    let filed = String::from_utf8(fourth.stdout).unwrap();
    assert_eq!(filed.lines().count(), 1, "{filed}{stderr}");
    assert_ne!(filed.trim(), id);
    assert_eq!(proposals(ws.path()).len(), 2);
}

#[test]
fn review_mode_files_the_lifecycle_plan_instead_of_committing_it() {
    let ws = workspace();
    let tmp = workspace();
    let store = open(ws.path());
    store
        .extend(vec![record("existing", "known", "b")])
        .unwrap();
    let before = snapshot(ws.path());
    let extractor = scripted_model(
        tmp.path(),
        &json!([{"name": "new-fact", "type": "project", "description": "A new fact", "body": "Details."}]),
    );
    let client = CommandClient::shell(&extractor, std::time::Duration::from_secs(10));
    let mut session = MemorySession::new(store.clone())
        .with_extractor(Some(Arc::new(client)))
        .with_sink(Arc::new(ReviewPlans {
            origin: Origin::new("agent"),
        }));
    let history = vec![
        Message::user("please remember the new fact"),
        Message::assistant("Will do."),
    ];
    let outcome = session.complete(&history);
    let Some(PlanOutcome::Proposed { id }) = outcome else {
        panic!(
            "expected a proposal, got {outcome:?} ({:?})",
            session.last_error_detail()
        );
    };
    assert_eq!(session.last_error(), None);
    assert_eq!(snapshot(ws.path()), before, "the set is unchanged");
    let filed = proposal::load(&store, &id).unwrap();
    assert_eq!(filed.kind, Kind::Extraction);
    assert_eq!(filed.origin.source, "agent");
    assert!(
        filed
            .evidence
            .as_deref()
            .unwrap()
            .contains("please remember the new fact")
    );
    assert_eq!(
        memwb::formats::memory::journal::state(&filed, &store.read().unwrap()),
        State::Ready
    );
    memwb::formats::memory::journal::approve(&store, &id).unwrap();
    assert!(store.read().unwrap().get("new-fact").is_some());
}
