//! Every `--json` output has one shape on both formats (docs/cli.md, "One JSON shape per
//! idea"), and the same failure ends with the same exit code, with nothing printed on stdout
//! and nothing changed. `log --json` is held to its shape in `history.rs`, `watch --json` in
//! `watch.rs`; `proposals --json` is still said differently (docs/cli.md).

use std::collections::BTreeMap;

use serde_json::Value;

use super::{TOKEN, add, stderr};
use crate::common::formats::{BOTH, Folder, Format};

/// The keys that only one format prints, each with the path it sits at (`[]` an element of an
/// array) and why: the documented exceptions (docs/cli.md, "One JSON shape per idea"), in one
/// place. Every other key, at every depth, is on both formats with a value of the same JSON
/// type. (A topic file lacking a name, a type or a description prints `name_from_file`, or
/// `null`: the same memories on both formats never do.)
const ONE_FORMAT_ONLY: [(&str, &str); 2] = [
    // A Claude Code topic file's frontmatter may hold fields of its own
    // (`metadata:`, `originSessionId`...), kept and shown; a `.memory` record holds the four
    // fields and no other.
    ("ls[].extra", "Claude Code"),
    ("show.extra", "Claude Code"),
];

/// The shape of a JSON value: its type and, for an object, the shape of each key's value;
/// for an array, the shapes its elements have (each once). A key of [`ONE_FORMAT_ONLY`] is
/// left out.
fn shape(value: &Value, path: &str) -> Value {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(_) => "number".into(),
        Value::String(_) => "string".into(),
        Value::Array(items) => {
            let mut shapes: Vec<Value> = items
                .iter()
                .map(|item| shape(item, &format!("{path}[]")))
                .collect();
            shapes.sort_by_key(Value::to_string);
            shapes.dedup();
            Value::Array(shapes)
        }
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(key, inner)| (key, inner, format!("{path}.{key}")))
                .filter(|(_, _, at)| !ONE_FORMAT_ONLY.iter().any(|(only, _)| only == at))
                .map(|(key, inner, at)| (key.clone(), shape(inner, &at)))
                .collect(),
        ),
    }
}

/// The paths of [`ONE_FORMAT_ONLY`] present in `value`, so that an exception no output
/// needs any more is noticed.
fn exceptions_in(value: &Value, path: &str, found: &mut Vec<String>) {
    match value {
        Value::Array(items) => {
            for item in items {
                exceptions_in(item, &format!("{path}[]"), found);
            }
        }
        Value::Object(object) => {
            for (key, inner) in object {
                let at = format!("{path}.{key}");
                if ONE_FORMAT_ONLY.iter().any(|(only, _)| *only == at) {
                    found.push(at.clone());
                }
                exceptions_in(inner, &at, found);
            }
        }
        _ => {}
    }
}

/// A folder of `format` holding the same three memories (one with a credential, so that
/// `check` finds something), one eval case, and the commands every `--json` output is read
/// from, by name.
fn outputs(format: Format) -> (Folder, BTreeMap<&'static str, Value>) {
    let folder = Folder::new(format);
    folder.ok(&add("alpha", "Deploys go through the staging cluster."));
    folder.ok(&add("beta", "The release checklist lives in docs."));
    let token = format!("the CI token is {TOKEN}");
    folder.ok(&[
        "add",
        "--name",
        "gamma",
        "--type",
        "reference",
        "--description",
        "where the CI token is",
        "--body",
        &token,
    ]);
    folder.ok(&["eval", "add", "staging deploys", "--expect", "alpha"]);
    let root = folder.dir.path().to_str().expect("a UTF-8 temporary path");
    let commands: [(&str, &[&str]); 9] = [
        ("ls", &["ls", "--json"]),
        ("show", &["show", "alpha", "--json"]),
        ("check", &["check", "--json"]),
        ("check --all", &["check", "--all", root, "--json"]),
        ("select", &["select", "staging deploys", "--json"]),
        ("eval", &["eval", "--json"]),
        ("eval --self", &["eval", "--self", "--json"]),
        ("eval ls", &["eval", "ls", "--json"]),
        ("sets", &["sets", root, "--json"]),
    ];
    let printed = commands
        .into_iter()
        .map(|(command, args)| {
            let out = folder.run(args);
            // `check` ends with 1 for the credential it found: the report is printed all the same.
            let expected = if command.starts_with("check") { 1 } else { 0 };
            assert_eq!(
                out.status.code(),
                Some(expected),
                "{format:?} {args:?}: {}",
                stderr(&out)
            );
            let value: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
                panic!(
                    "{format:?} {args:?} prints JSON: {e}: {}",
                    String::from_utf8_lossy(&out.stdout)
                )
            });
            (command, value)
        })
        .collect();
    (folder, printed)
}

/// `ls`, `show`, `check` (and `check --all`), `select`, `eval` (and `--self`, `eval ls`) and
/// `sets` print JSON of one shape on both formats: the same keys at every depth, each value
/// of the same JSON type, but for the documented keys of one format ([`ONE_FORMAT_ONLY`]).
#[test]
fn every_json_output_has_one_shape_on_both_formats() {
    let [(_memory_folder, memory), (_claude_folder, claude)] = BOTH.map(outputs);
    let mut exceptions_seen = Vec::new();
    for (command, memory_json) in &memory {
        let claude_json = &claude[command];
        let path = command.split(' ').next().expect("a command");
        assert_eq!(
            shape(memory_json, path),
            shape(claude_json, path),
            "`{command} --json` has two shapes:\n.memory:     {memory_json}\nClaude Code: {claude_json}"
        );
        for (format, json) in [("a .memory set", memory_json), ("Claude Code", claude_json)] {
            let mut found = Vec::new();
            exceptions_in(json, path, &mut found);
            for at in found {
                let (_, only) = ONE_FORMAT_ONLY
                    .iter()
                    .find(|(only, _)| *only == at)
                    .expect("an exception");
                assert!(
                    format.contains(only),
                    "{at} is documented as {only}'s only, yet {format} prints it: {json}"
                );
                exceptions_seen.push(at);
            }
        }
    }
    for (at, _) in ONE_FORMAT_ONLY {
        assert!(
            exceptions_seen.iter().any(|seen| seen == at),
            "no output prints {at} any more: drop it from ONE_FORMAT_ONLY and docs/cli.md"
        );
    }
    // The memories themselves are what both formats print alike.
    for command in ["ls", "select", "eval"] {
        let names = |json: &Value| -> String {
            let text = json.to_string();
            ["alpha", "beta", "gamma"]
                .into_iter()
                .filter(|name| text.contains(&format!("\"{name}\"")))
                .collect::<Vec<_>>()
                .join(",")
        };
        assert_eq!(
            names(&memory[command]),
            names(&claude[command]),
            "{command}"
        );
    }
}

/// The same failure ends with the same exit code on both formats, prints nothing on stdout
/// (a script reading `--json` never gets half an answer) and changes nothing.
#[test]
fn the_same_failure_has_the_same_exit_code_on_both_formats() {
    let bad_plan = r#"{"source_names":["nosuch"],"records":[]}"#;
    let failures: [(&[&str], &str); 15] = [
        (&["show", "nosuch"], ""),
        (&["show", "nosuch", "--json"], ""),
        (&["rm", "nosuch"], ""),
        (&["set", "nosuch", "--body", "x"], ""),
        (&["set", "alpha", "--type", "bogus"], ""),
        (&["set", "alpha", "--name", "beta"], ""),
        (&add("alpha", "taken"), ""),
        (
            &[
                "add",
                "--name",
                "delta",
                "--type",
                "bogus",
                "--description",
                "d",
                "--body",
                "b",
            ],
            "",
        ),
        (&["add", "--json", "-"], r#"[{"name":"delta"}]"#),
        (&["consolidate", "--plan", "-"], bad_plan),
        (&["approve", "nosuch"], ""),
        (&["reject", "nosuch"], ""),
        (&["undo", "999"], ""),
        (&["accept", "secret", "nosuch"], ""),
        (&["eval", "add", "staging", "--expect", "nosuch"], ""),
    ];
    let mut codes: Vec<Vec<(Option<i32>, String)>> = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        folder.ok(&add("beta", "two"));
        let before = folder.comparable_state();
        let log = folder.ok(&["log", "--json"]);
        let mut format_codes = Vec::new();
        for (args, stdin) in failures {
            let out = folder.run_with(args, stdin);
            assert!(
                out.stdout.is_empty(),
                "{format:?} {args:?} printed on stdout: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            assert_eq!(folder.comparable_state(), before, "{format:?} {args:?}");
            format_codes.push((out.status.code(), stderr(&out)));
        }
        assert_eq!(folder.ok(&["log", "--json"]), log, "{format:?}: journaled");
        codes.push(format_codes);
    }
    for ((args, _), ((memory, memory_said), (claude, claude_said))) in
        failures.iter().zip(codes[0].iter().zip(&codes[1]))
    {
        assert_eq!(
            memory, claude,
            "{args:?} ends .memory {memory:?} ({memory_said}), Claude Code {claude:?} ({claude_said})"
        );
        assert_eq!(*memory, Some(2), "{args:?}: a refused command ends with 2");
        for said in [memory_said, claude_said] {
            assert!(said.starts_with("error: "), "{args:?}: {said}");
        }
    }
}
