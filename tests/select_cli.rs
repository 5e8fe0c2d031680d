//! `memwb select`: argument parsing, model settings, the empty query, the fallback, and the
//! `--json` shape, through the CLI module's `execute`, and end to end through the binary.

use crate::common;

use std::collections::HashMap;

use clap::Parser;
use common::*;
use memwb::cli::select::{SelectArgs, SelectJson, execute, run_to};
use memwb::formats::memory::MemoryBackend;
use memwb::session::SELECTION_FAILED;
use serde_json::json;

#[derive(Parser, Debug)]
struct Harness {
    #[command(flatten)]
    args: SelectArgs,
}

fn parse(argv: &[&str]) -> SelectArgs {
    Harness::try_parse_from(std::iter::once("select").chain(argv.iter().copied()))
        .unwrap_or_else(|e| panic!("{argv:?}: {e}"))
        .args
}

fn no_env(_: &str) -> Option<String> {
    None
}

fn env_of(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
    let vars: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| ((*k).into(), (*v).into()))
        .collect();
    move |name| vars.get(name).cloned()
}

#[test]
fn flags_parse() {
    let args = parse(&[
        "tabs or spaces",
        "--json",
        "--model-url",
        "http://h/v1",
        "--model",
        "m",
        "--max",
        "3",
    ]);
    assert_eq!(args.query, "tabs or spaces");
    assert!(args.json);
    assert_eq!(args.model.model_url.as_deref(), Some("http://h/v1"));
    assert_eq!(args.max, 3);
    let empty = parse(&[""]);
    assert_eq!(empty.query, "");
    assert_eq!(empty.max, 5);
    assert!(
        Harness::try_parse_from(["select"]).is_err(),
        "QUERY is required (it may be empty)"
    );
}

#[test]
fn without_a_model_the_keyword_fallback_selects() {
    let store = open(&fixture("stores/basic"));
    let selection = execute(
        &MemoryBackend::new(&store),
        &parse(&["tabs indentation"]),
        &no_env,
    )
    .unwrap();
    assert_eq!(selection.names(), ["user-preference-tabs"]);
    assert!(selection.fallback);
    assert_eq!(selection.error, None);
    assert!(
        selection
            .rendered
            .starts_with("<relevant_memories>\n\n## user-preference-tabs (user)\n\n")
    );
    let json = serde_json::to_value(SelectJson::from(&selection)).unwrap();
    assert_eq!(
        json,
        json!({"selected": ["user-preference-tabs"], "rendered": selection.rendered, "fallback": true, "error": null})
    );
    assert_eq!(
        serde_json::to_string(&SelectJson::from(&selection))
            .unwrap()
            .find("\"selected\""),
        Some(1),
        "documented key order"
    );
}

#[test]
fn a_claude_code_folder_selects_through_the_same_entry() {
    let dir = common::claude::ClaudeDir::with(&[
        (
            "MEMORY.md",
            "- [Tabs](tabs.md) \u{2014} how the user indents\n",
        ),
        (
            "tabs.md",
            "---\nname: tabs\ndescription: The user indents with tabs\ntype: user\n---\nUse tabs for indentation.\n",
        ),
        (
            "deploy.md",
            "---\nname: deploy\ndescription: How releases ship\ntype: project\n---\nTag, then push.\n",
        ),
    ]);
    let folder = dir.folder();
    let backend = memwb::formats::claude::ClaudeBackend::new(&folder);
    let selection = execute(&backend, &parse(&["tabs indentation"]), &no_env).unwrap();
    assert_eq!(selection.names(), ["tabs"]);
    assert!(selection.fallback);
}

#[test]
fn an_empty_store_selects_nothing() {
    let dir = workspace();
    let selection = execute(
        &MemoryBackend::new(&open(dir.path())),
        &parse(&["anything"]),
        &no_env,
    )
    .unwrap();
    assert!(selection.selected.is_empty());
    assert_eq!(selection.rendered, "");
}

#[cfg(unix)]
mod with_a_command_model {
    use super::*;

    /// A model program that logs each call to `calls` and answers `content`.
    fn model(dir: &std::path::Path, content: &str) -> String {
        let path = dir.join("model.sh");
        let reply = json!({"message": {"content": content}, "finish_reason": "stop"}).to_string();
        let calls = dir.join("calls");
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\ncat >/dev/null\necho x >> '{}'\nprintf '%s' '{}'\n",
                calls.display(),
                reply
            ),
        )
        .unwrap();
        format!("sh '{}'", path.display())
    }

    fn calls(dir: &std::path::Path) -> usize {
        std::fs::read_to_string(dir.join("calls"))
            .map(|t| t.lines().count())
            .unwrap_or(0)
    }

    #[test]
    fn the_model_decides_when_it_answers_well() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(&fixture("stores/basic"));
        let cmd = model(tmp.path(), r#"["review-feedback","ci-reference"]"#);
        let selection = execute(
            &MemoryBackend::new(&store),
            &parse(&["tabs", "--model-cmd", &cmd]),
            &no_env,
        )
        .unwrap();
        assert_eq!(selection.names(), ["review-feedback", "ci-reference"]);
        assert!(!selection.fallback);
        assert_eq!(calls(tmp.path()), 1);
    }

    #[test]
    fn the_environment_configures_the_model_too() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(&fixture("stores/basic"));
        let cmd = model(tmp.path(), r#"["windows-examples"]"#);
        let env = env_of(&[("MEMWB_MODEL_CMD", &cmd)]);
        let selection = execute(&MemoryBackend::new(&store), &parse(&["tabs"]), &env).unwrap();
        assert_eq!(selection.names(), ["windows-examples"]);
        let overridden = execute(
            &MemoryBackend::new(&store),
            &parse(&["tabs", "--model-cmd", "exit 1"]),
            &env,
        )
        .unwrap();
        assert!(overridden.fallback, "the flag wins over the environment");
        assert_eq!(calls(tmp.path()), 1);
    }

    #[test]
    fn a_bad_answer_falls_back_with_the_reference_error() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(&fixture("stores/basic"));
        let cmd = model(tmp.path(), r#"["no-such-memory"]"#);
        let selection = execute(
            &MemoryBackend::new(&store),
            &parse(&["tabs indentation", "--model-cmd", &cmd]),
            &no_env,
        )
        .unwrap();
        assert_eq!(selection.names(), ["user-preference-tabs"]);
        assert!(selection.fallback);
        assert_eq!(selection.error.as_deref(), Some(SELECTION_FAILED));
        assert!(selection.error_detail.unwrap().contains("no-such-memory"));
    }

    #[test]
    fn an_empty_query_selects_nothing_without_asking() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(&fixture("stores/basic"));
        let cmd = model(tmp.path(), r#"["review-feedback"]"#);
        for query in ["", "   "] {
            let selection = execute(
                &MemoryBackend::new(&store),
                &parse(&[query, "--model-cmd", &cmd]),
                &no_env,
            )
            .unwrap();
            assert!(selection.selected.is_empty());
            assert!(!selection.fallback);
            assert_eq!(selection.error, None);
        }
        assert_eq!(calls(tmp.path()), 0);
    }
}

#[test]
fn contradictory_model_settings_are_refused() {
    let store = open(&fixture("stores/basic"));
    for argv in [
        vec!["q", "--model-url", "http://h/v1", "--model-cmd", "x"],
        vec!["q", "--model-url", "http://h/v1"],
        vec!["q", "--model", "m"],
        vec!["q", "--model-url", "ftp://h", "--model", "m"],
        vec!["q", "--model-cmd", "x", "--model-timeout", "0"],
    ] {
        let error = execute(&MemoryBackend::new(&store), &parse(&argv), &no_env).unwrap_err();
        assert!(error.to_string().contains("model"), "{argv:?}: {error}");
    }
    let error = execute(
        &MemoryBackend::new(&store),
        &parse(&["q"]),
        &env_of(&[("MEMWB_MODEL_URL", "http://h/v1"), ("MEMWB_MODEL_CMD", "x")]),
    )
    .unwrap_err();
    assert!(error.to_string().contains("both set"), "{error}");
}

#[test]
fn an_unreadable_store_is_an_error() {
    let dir = workspace();
    std::fs::create_dir(dir.path().join(".memory")).unwrap();
    std::fs::write(dir.path().join(".memory/manifest.json"), "[]").unwrap();
    let error = execute(
        &MemoryBackend::new(&open(dir.path())),
        &parse(&["q"]),
        &no_env,
    )
    .unwrap_err();
    assert!(error.to_string().contains("manifest"), "{error}");
}

/// `run_to` with no environment: exit code, stdout and stderr (kept out of the test log).
fn run_quietly(store: &memwb::store::Store, argv: &[&str]) -> anyhow::Result<(u8, String, String)> {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run_to(
        &MemoryBackend::new(store),
        &parse(argv),
        &no_env,
        &mut out,
        &mut err,
    )?;
    Ok((
        code,
        String::from_utf8(out).expect("utf-8"),
        String::from_utf8(err).expect("utf-8"),
    ))
}

#[test]
fn run_prints_and_exits_zero_even_when_the_model_fails() {
    let store = open(&fixture("stores/basic"));
    let (code, json, warnings) = run_quietly(&store, &["tabs", "--json"]).unwrap();
    assert_eq!((code, warnings.as_str()), (0, ""));
    let value: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(value["selected"], json!(["user-preference-tabs"]));
    assert_eq!(value["fallback"], json!(true));

    let (code, rendered, _) = run_quietly(&store, &["tabs"]).unwrap();
    assert_eq!(code, 0);
    assert!(
        rendered.starts_with("<relevant_memories>\n\n## user-preference-tabs (user)\n"),
        "{rendered}"
    );
    assert!(rendered.ends_with("</relevant_memories>\n"), "{rendered}");

    let (code, fallback, warning) =
        run_quietly(&store, &["tabs", "--model-cmd", "exit 7"]).unwrap();
    assert_eq!(code, 0);
    assert_eq!(fallback, rendered, "the fallback selects the same");
    assert!(warning.starts_with("warning: "), "{warning}");

    assert!(
        run_quietly(
            &store,
            &["tabs", "--model-url", "http://h/v1", "--model-cmd", "x"]
        )
        .is_err()
    );
}

#[test]
fn the_binary_prints_the_selection_as_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_memwb"))
        .arg("-C")
        .arg(fixture("stores/basic"))
        .args(["select", "tabs indentation", "--json"])
        .env_remove("MEMWB_MODEL_URL")
        .env_remove("MEMWB_MODEL_CMD")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["selected"], json!(["user-preference-tabs"]));
    assert_eq!(value["fallback"], true);
    assert!(
        value["rendered"]
            .as_str()
            .unwrap()
            .starts_with("<relevant_memories>")
    );
}
