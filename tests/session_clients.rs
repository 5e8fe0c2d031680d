//! The two real model clients: the OpenAI-compatible HTTP client against a chat-completions
//! server started here on 127.0.0.1, and the command client against small shell scripts.

use crate::common;

use std::net::TcpListener;
use std::time::{Duration, Instant};

use common::chat_server::{Canned, Server, canned, completion, serve};

use memwb::session::model::side_query;
use memwb::session::{
    AssistantMessage, CommandClient, Message, ModelClient, ModelError, ModelReply, ModelRequest,
    OpenAiClient, SideQueryError, ToolCall, select,
};
use memwb::store::{MemoryType, Record};
use serde_json::{Value, json};

fn client(server: &Server, key: Option<&str>) -> OpenAiClient {
    OpenAiClient::new(
        &server.base_url,
        "test-model",
        key.map(Into::into),
        Duration::from_secs(5),
    )
    .expect("client")
}

fn conversation() -> ModelRequest {
    ModelRequest::tool_free(vec![
        Message::system("prompt"),
        Message::user("list files"),
        Message::Assistant(AssistantMessage {
            content: String::new(),
            tool_calls: vec![ToolCall {
                id: "call-1".into(),
                name: "list".into(),
                arguments: "{}".into(),
            }],
        }),
        Message::tool_result("call-1", "a.txt"),
        Message::assistant("One file."),
    ])
}

#[test]
fn http_client_posts_a_stable_tool_free_chat_completion() {
    let server = serve(vec![
        completion(json!("[\"a\"]"), "stop"),
        completion(json!("[]"), "stop"),
    ]);
    let client = client(&server, Some("sk-test"));
    let request = conversation();
    let reply = client.complete(&request).expect("reply");
    assert_eq!(reply, ModelReply::stop("[\"a\"]"));
    client.complete(&request).expect("second reply");
    let seen = server.finish();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].request_line, "POST /v1/chat/completions HTTP/1.1");
    assert_eq!(seen[0].header("authorization"), Some("Bearer sk-test"));
    assert_eq!(seen[0].header("content-type"), Some("application/json"));
    assert_eq!(seen[0].body, client.request_body(&request));
    assert_eq!(seen[0].body, seen[1].body, "byte-identical across runs");
    let body: Value = serde_json::from_str(&seen[0].body).unwrap();
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["stream"], false);
    assert!(
        body.get("tools").is_none(),
        "no tools offered (OpenAI refuses an empty array)"
    );
    assert_eq!(
        body["messages"],
        json!([
            {"role": "system", "content": "prompt"},
            {"role": "user", "content": "list files"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call-1", "type": "function", "function": {"name": "list", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call-1", "content": "a.txt"},
            {"role": "assistant", "content": "One file."}
        ])
    );
    let keys: Vec<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert!(
        seen[0].body.starts_with("{\"messages\":"),
        "keys sorted: {keys:?}"
    );
}

#[test]
fn http_client_sends_no_authorization_without_a_key() {
    let server = serve(vec![completion(json!("[]"), "stop")]);
    client(&server, None)
        .complete(&conversation())
        .expect("reply");
    let seen = server.finish();
    assert_eq!(seen[0].header("authorization"), None);
}

#[test]
fn http_replies_that_break_side_query_rules_are_rejected() {
    let tool_call = canned(
        200,
        json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
            {"id": "t", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            "finish_reason": "tool_calls"}]})
        .to_string(),
    );
    let server = serve(vec![
        completion(json!("[\"a\"]"), "length"),
        tool_call,
        completion(json!("   "), "stop"),
        completion(Value::Null, "stop"),
        completion(json!("```json\n[]\n```"), "stop"),
    ]);
    let client = client(&server, None);
    let ask = || side_query(&client, vec![Message::user("{}")]);
    assert!(matches!(ask(), Err(SideQueryError::FinishReason(r)) if r == "length"));
    assert!(matches!(ask(), Err(SideQueryError::ToolCalls(1))));
    assert!(matches!(ask(), Err(SideQueryError::EmptyText)));
    assert!(matches!(ask(), Err(SideQueryError::EmptyText)));
    assert!(matches!(ask(), Err(SideQueryError::NotJson(_))));
    server.finish();
}

#[test]
fn http_status_codes_give_clear_errors() {
    let server = serve(vec![
        canned(
            401,
            r#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#,
        ),
        canned(404, r#"{"error":"model \"nope\" not found"}"#),
        canned(500, "<html>Internal oops</html>"),
        canned(503, ""),
    ]);
    let client = client(&server, Some("sk-secret-value"));
    let mut errors = Vec::new();
    for expected in [401, 404, 500, 503] {
        match client.complete(&conversation()) {
            Err(error @ ModelError::Status { status, .. }) => {
                assert_eq!(status, expected);
                errors.push(error.to_string());
            }
            other => panic!("HTTP {expected}: {other:?}"),
        }
    }
    server.finish();
    assert!(
        errors[0].contains("HTTP 401") && errors[0].contains("Incorrect API key provided"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].contains("model \"nope\" not found"),
        "{}",
        errors[1]
    );
    assert!(errors[2].contains("Internal oops"), "{}", errors[2]);
    assert!(
        errors[3].contains("HTTP 503") && errors[3].contains("Service Unavailable"),
        "{}",
        errors[3]
    );
    for error in &errors {
        assert!(
            error.contains("/v1/chat/completions"),
            "names the endpoint: {error}"
        );
        assert!(
            !error.contains("sk-secret-value"),
            "never shows the key: {error}"
        );
    }
}

#[test]
fn malformed_bodies_are_reported_as_such() {
    let server = serve(vec![
        canned(200, "this is not json"),
        canned(200, r#"{"choices":[]}"#),
        canned(
            200,
            r#"{"choices":[{"message":{"content":42},"finish_reason":"stop"}]}"#,
        ),
        canned(200, r#"{"object":"list","data":[]}"#),
    ]);
    let client = client(&server, None);
    for _ in 0..4 {
        let error = client.complete(&conversation()).unwrap_err();
        assert!(
            matches!(error, ModelError::MalformedReply { .. }),
            "{error:?}"
        );
        assert!(
            error.to_string().contains("not a chat completion"),
            "{error}"
        );
    }
    server.finish();
}

#[test]
fn a_slow_server_times_out() {
    let server = serve(vec![Canned {
        delay: Duration::from_millis(1500),
        ..completion(json!("[]"), "stop")
    }]);
    let client =
        OpenAiClient::new(&server.base_url, "m", None, Duration::from_millis(300)).unwrap();
    let started = Instant::now();
    let error = client.complete(&conversation()).unwrap_err();
    assert!(
        started.elapsed() < Duration::from_millis(1400),
        "gave up on time: {:?}",
        started.elapsed()
    );
    assert!(matches!(error, ModelError::Timeout { .. }), "{error:?}");
    assert!(
        error.to_string().contains("timed out after 300ms"),
        "{error}"
    );
    server.finish();
}

#[test]
fn an_unreachable_server_is_named() {
    let port = {
        let probe = TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let client = OpenAiClient::new(
        &format!("http://127.0.0.1:{port}/v1"),
        "m",
        None,
        Duration::from_secs(2),
    )
    .unwrap();
    let error = client.complete(&conversation()).unwrap_err();
    assert!(matches!(error, ModelError::Connect { .. }), "{error:?}");
    assert!(
        error.to_string().contains(&format!("127.0.0.1:{port}")),
        "{error}"
    );
}

#[test]
fn selection_runs_end_to_end_over_http() {
    let records = [
        Record::new("alpha", MemoryType::User, "database notes", "A").unwrap(),
        Record::new("beta", MemoryType::Project, "other", "B").unwrap(),
    ];
    let server = serve(vec![
        completion(json!("[\"beta\"]"), "stop"),
        canned(500, "down"),
    ]);
    let client = client(&server, None);
    let chosen = select(&records, "catalog text", "database", Some(&client), 5);
    assert_eq!(chosen.names(), ["beta"]);
    assert!(!chosen.fallback);
    let fallback = select(&records, "catalog text", "database", Some(&client), 5);
    assert_eq!(fallback.names(), ["alpha"]);
    assert!(fallback.fallback);
    assert!(fallback.error_detail.unwrap().contains("HTTP 500"));
    let seen = server.finish();
    let input = &serde_json::from_str::<Value>(&seen[0].body).unwrap()["messages"][1]["content"];
    assert_eq!(input, r#"{"catalog":"catalog text","query":"database"}"#);
}

#[cfg(unix)]
mod command {
    use super::*;

    fn script(dir: &std::path::Path, body: &str) -> String {
        let path = dir.join("model.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        format!("sh '{}'", path.display())
    }

    #[test]
    fn the_request_goes_to_stdin_and_the_reply_comes_from_stdout() {
        let dir = tempfile::tempdir().unwrap();
        let saved = dir.path().join("request.json");
        let line = script(
            dir.path(),
            &format!(
                "cat > '{}'\nprintf '%s' '{{\"message\":{{\"role\":\"assistant\",\"content\":\"[\\\"a\\\"]\"}},\"finish_reason\":\"stop\"}}'",
                saved.display()
            ),
        );
        let client = CommandClient::shell(&line, Duration::from_secs(10));
        let request = conversation();
        let reply = client.complete(&request).expect("reply");
        assert_eq!(reply, ModelReply::stop("[\"a\"]"));
        let sent = std::fs::read_to_string(&saved).unwrap();
        assert_eq!(sent, request.to_stable_json());
        assert!(sent.ends_with(",\"tools\":[]}"), "{sent}");
        let parsed: ModelRequest = {
            let value: Value = serde_json::from_str(&sent).unwrap();
            ModelRequest::tool_free(serde_json::from_value(value["messages"].clone()).unwrap())
        };
        assert_eq!(parsed, request);
    }

    #[test]
    fn a_failing_program_reports_its_status_and_stderr() {
        let dir = tempfile::tempdir().unwrap();
        let client = CommandClient::shell(
            &script(
                dir.path(),
                "cat >/dev/null\necho 'quota exceeded' >&2\nexit 3",
            ),
            Duration::from_secs(10),
        );
        let error = client.complete(&conversation()).unwrap_err();
        assert!(matches!(error, ModelError::Command { .. }), "{error:?}");
        assert!(
            error
                .to_string()
                .contains("exited with status 3: quota exceeded"),
            "{error}"
        );
    }

    #[test]
    fn output_that_is_not_a_reply_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for body in [
            "echo '[\"a\"]'",
            "echo 'hello'",
            "echo '{\"finish_reason\":\"stop\"}'",
        ] {
            let client = CommandClient::shell(&script(dir.path(), body), Duration::from_secs(10));
            let error = client.complete(&conversation()).unwrap_err();
            assert!(
                error.to_string().contains("is not a reply"),
                "{body}: {error}"
            );
        }
    }

    #[test]
    fn replies_with_tool_calls_fail_the_side_query() {
        let dir = tempfile::tempdir().unwrap();
        let reply = r#"{"message":{"content":"[]","tool_calls":[{"id":"t","name":"f","arguments":"{}"}]},"finish_reason":"stop"}"#;
        let client = CommandClient::shell(
            &script(dir.path(), &format!("printf '%s' '{reply}'")),
            Duration::from_secs(10),
        );
        assert!(matches!(
            side_query(&client, vec![Message::user("{}")]),
            Err(SideQueryError::ToolCalls(1))
        ));
    }

    #[test]
    fn a_slow_program_times_out_and_is_killed() {
        let dir = tempfile::tempdir().unwrap();
        let client = CommandClient::shell(
            &script(dir.path(), "exec sleep 5"),
            Duration::from_millis(300),
        );
        let started = Instant::now();
        let error = client.complete(&conversation()).unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
        assert!(matches!(error, ModelError::Timeout { .. }), "{error:?}");
        assert!(
            error.to_string().contains("timed out after 300ms"),
            "{error}"
        );
    }

    /// Whether `pid` is gone: no such process, or only a zombie left for its parent to reap.
    fn is_gone(pid: &str) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z')),
        }
    }

    #[test]
    fn a_timed_out_program_is_killed_with_what_it_started() {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let client = CommandClient::shell(
            &script(
                dir.path(),
                &format!(
                    "sleep 300 &\necho \"$$ $!\" > '{}.tmp'\nmv '{0}.tmp' '{0}'\nwait",
                    pids.display()
                ),
            ),
            Duration::from_millis(500),
        );
        let error = client.complete(&conversation()).unwrap_err();
        assert!(matches!(error, ModelError::Timeout { .. }), "{error:?}");
        let written = std::fs::read_to_string(&pids).expect("the script started its child");
        let ids: Vec<&str> = written.split_whitespace().collect();
        assert_eq!(ids.len(), 2, "{written}");
        // SIGKILL is delivered asynchronously: poll the process table, with a generous bound.
        let deadline = Instant::now() + Duration::from_secs(20);
        while !ids.iter().all(|pid| is_gone(pid)) && Instant::now() < deadline {
            std::thread::yield_now();
        }
        for pid in &ids {
            assert!(is_gone(pid), "process {pid} outlived the timeout");
        }
    }

    #[test]
    fn a_missing_program_is_named() {
        let client =
            CommandClient::new("/nonexistent/memwb-model", ["--x"], Duration::from_secs(1));
        let error = client.complete(&conversation()).unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("/nonexistent/memwb-model") && text.contains("could not start"),
            "{text}"
        );
    }
}
