//! The `memwb` binary: commands, output shapes and exit codes.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::cli::{memwb, ok, stderr, stdout};
use common::{snapshot, workspace};
use serde_json::Value;

fn memwb_with_stdin(dir: &Path, args: &[&str], stdin: &str) -> Output {
    common::cli::memwb_with(dir, args, stdin, &[])
}

fn refused(out: Output) -> String {
    common::cli::refused(out)
}

fn ls_json(dir: &Path) -> Vec<Value> {
    serde_json::from_str::<Vec<Value>>(&ok(memwb(dir, &["ls", "--json"])))
        .expect("ls --json is an array")
}

fn add(dir: &Path, name: &str, description: &str, body: &str) {
    ok(memwb(dir, &common::cli::add_args(name, description, body)));
}

#[test]
fn add_ls_show_round_trip() {
    let dir = workspace();
    add(dir.path(), "first", "First record", "Body one.");
    let out = memwb_with_stdin(
        dir.path(),
        &[
            "add",
            "--name",
            "second",
            "--type",
            "user",
            "--description",
            "From stdin",
            "--body-file",
            "-",
        ],
        "line one\r\nline two\n",
    );
    ok(out);
    let rows = ls_json(dir.path());
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["name"], "first");
    assert_eq!(rows[1]["body"], "line one\nline two");
    assert_eq!(rows[1]["type"], "user");
    let file = rows[0]["file"].as_str().expect("file");
    assert!(dir.path().join(".memory").join(file).is_file());
    let keys: Vec<&String> = rows[0].as_object().expect("object").keys().collect();
    assert_eq!(keys.len(), 5);

    let shown: Value =
        serde_json::from_str(&ok(memwb(dir.path(), &["show", "second", "--json"]))).expect("json");
    assert_eq!(shown["description"], "From stdin");
    let human = ok(memwb(dir.path(), &["show", "first"]));
    assert!(
        human.contains("name: first\ndescription: First record\ntype: project\n---\n\nBody one.\n"),
        "{human}"
    );
    assert!(refused(memwb(dir.path(), &["show", "missing"])).contains("\"missing\""));
}

#[test]
fn add_json_batch_is_all_or_nothing() {
    let dir = workspace();
    add(dir.path(), "kept", "Kept", "Body.");
    let before = snapshot(dir.path());
    let batch = r#"[{"name":"good","type":"user","description":"ok","body":"b"},
                    {"name":"Bad Name","type":"user","description":"ok","body":"b"}]"#;
    let err = refused(memwb_with_stdin(dir.path(), &["add", "--json", "-"], batch));
    assert!(
        err.contains("record 2") && err.contains("safe lowercase slug"),
        "{err}"
    );
    assert_eq!(snapshot(dir.path()), before);

    let extra_key = r#"[{"name":"good","type":"user","description":"ok","body":"b","extra":1}]"#;
    refused(memwb_with_stdin(
        dir.path(),
        &["add", "--json", "-"],
        extra_key,
    ));
    let duplicate = r#"[{"name":"kept","type":"user","description":"ok","body":"b"}]"#;
    assert!(
        refused(memwb_with_stdin(
            dir.path(),
            &["add", "--json", "-"],
            duplicate
        ))
        .contains("a memory named \"kept\" exists")
    );
    assert_eq!(snapshot(dir.path()), before);

    let good = r#"[{"name":"a","type":"user","description":"ok","body":"b"},{"name":"b","type":"reference","description":"ok","body":"b"}]"#;
    ok(memwb_with_stdin(dir.path(), &["add", "--json", "-"], good));
    let names: Vec<Value> = ls_json(dir.path())
        .iter()
        .map(|r| r["name"].clone())
        .collect();
    assert_eq!(names, ["kept", "a", "b"]);
}

#[test]
fn invalid_flags_are_refused_and_write_nothing() {
    let dir = workspace();
    add(dir.path(), "kept", "Kept", "Body.");
    let before = snapshot(dir.path());
    for (args, rule) in [
        (
            vec![
                "--name",
                "UPPER",
                "--type",
                "user",
                "--description",
                "d",
                "--body",
                "b",
            ],
            "slug",
        ),
        (
            vec![
                "--name",
                "ok",
                "--type",
                "User",
                "--description",
                "d",
                "--body",
                "b",
            ],
            "unknown type",
        ),
        (
            vec![
                "--name",
                "ok",
                "--type",
                "user",
                "--description",
                "a\nb",
                "--body",
                "b",
            ],
            "one line",
        ),
        (
            vec![
                "--name",
                "ok",
                "--type",
                "user",
                "--description",
                "d",
                "--body",
                " \n ",
            ],
            "body",
        ),
    ] {
        let mut full = vec!["add"];
        full.extend(args);
        let err = refused(memwb(dir.path(), &full));
        assert!(err.contains(rule), "{err}");
    }
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn set_edits_and_renames_and_rm_removes() {
    let dir = workspace();
    add(dir.path(), "alpha", "Alpha", "A.");
    add(dir.path(), "beta", "Beta", "B.");
    ok(memwb(
        dir.path(),
        &["set", "alpha", "--description", "Alpha v2"],
    ));
    ok(memwb(
        dir.path(),
        &["set", "alpha", "--name", "gamma", "--type", "feedback"],
    ));
    // An edit and a rename keep the record's place.
    let rows = ls_json(dir.path());
    assert_eq!(rows[0]["name"], "gamma");
    assert_eq!(rows[1]["name"], "beta");
    assert_eq!(rows[0]["description"], "Alpha v2");
    assert_eq!(rows[0]["type"], "feedback");
    refused(memwb(dir.path(), &["set", "beta", "--name", "gamma"]));
    refused(memwb(dir.path(), &["rm", "beta", "nope"]));
    assert_eq!(ls_json(dir.path()).len(), 2);
    ok(memwb(dir.path(), &["rm", "beta", "gamma"]));
    assert!(ls_json(dir.path()).is_empty());
    let md: Vec<_> = snapshot(dir.path())
        .into_iter()
        .filter(|(n, _)| n != "MEMORY.md" && n.ends_with(".md"))
        .collect();
    assert!(md.is_empty(), "replaced files are deleted: {md:?}");
}

#[test]
fn consolidate_replaces_named_sources_only() {
    let dir = workspace();
    for name in ["tabs-old", "tabs-new", "unrelated"] {
        add(dir.path(), name, name, "body");
    }
    let plan = r#"{"source_names":["tabs-old","tabs-new"],"records":[{"name":"tabs","type":"user","description":"Indentation preference","body":"Use tabs."}]}"#;
    ok(memwb_with_stdin(
        dir.path(),
        &["consolidate", "--plan", "-"],
        plan,
    ));
    let names: Vec<Value> = ls_json(dir.path())
        .iter()
        .map(|r| r["name"].clone())
        .collect();
    assert_eq!(names, ["unrelated", "tabs"]);
    let before = snapshot(dir.path());
    for bad in [
        r#"{"source_names":[],"records":[{"name":"x","type":"user","description":"d","body":"b"}]}"#,
        r#"{"source_names":["tabs"],"records":[]}"#,
        r#"{"source_names":["nope"],"records":[{"name":"x","type":"user","description":"d","body":"b"}]}"#,
        r#"{"source_names":["tabs","tabs"],"records":[{"name":"x","type":"user","description":"d","body":"b"}]}"#,
        r#"{"source_names":["tabs"],"records":[{"name":"x","type":"user","description":"d","body":"b"}],"extra":true}"#,
        r#"not json"#,
    ] {
        refused(memwb_with_stdin(
            dir.path(),
            &["consolidate", "--plan", "-"],
            bad,
        ));
    }
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn index_prints_and_rewrites() {
    let dir = workspace();
    add(dir.path(), "one", "First", "b");
    let index_path = dir.path().join(".memory/MEMORY.md");
    let derived = ok(memwb(dir.path(), &["index"]));
    assert_eq!(
        derived,
        std::fs::read_to_string(&index_path).expect("index")
    );
    std::fs::write(&index_path, "hand edited\n").expect("write");
    ok(memwb(dir.path(), &["index", "--write"]));
    assert_eq!(
        std::fs::read_to_string(&index_path).expect("index"),
        derived
    );
}

fn check_json(dir: &Path) -> (i32, Value) {
    let out = memwb(dir, &["check", "--json"]);
    let code = out.status.code().expect("exit code");
    (
        code,
        serde_json::from_str(&stdout(&out)).expect("check --json prints JSON"),
    )
}

fn codes(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["code"].as_str().expect("code").to_owned())
        .collect()
}

#[test]
fn check_reports_each_kind_of_trouble() {
    let dir = workspace();
    let (code, report) = check_json(dir.path());
    assert_eq!(
        (code, report["ok"].as_bool(), report["records"].as_u64()),
        (0, Some(true), Some(0))
    );

    add(dir.path(), "one", "First", "b");
    add(dir.path(), "two", "Second", "b");
    let root = dir.path().join(".memory");
    std::fs::write(root.join("stray.md"), "x").expect("write");
    std::fs::write(root.join(".0123.tmp"), "x").expect("write");
    std::fs::write(root.join("MEMORY.md"), "drifted\n").expect("write");
    let (code, report) = check_json(dir.path());
    assert_eq!(code, 0, "warnings only");
    assert_eq!(codes(&report), ["orphan-file", "temp-file", "index-drift"]);
    assert_eq!(report["findings"][0]["severity"], "warning");
    assert_eq!(report["findings"][0]["file"], "stray.md");

    let rows = ls_json(dir.path());
    let first = root.join(rows[0]["file"].as_str().expect("file"));
    std::fs::write(
        &first,
        "---\nname: one\ndescription: d\ntype: 123\n---\n\nb\n",
    )
    .expect("write");
    std::fs::remove_file(root.join(rows[1]["file"].as_str().expect("file"))).expect("rm");
    std::fs::remove_file(root.join("MEMORY.md")).expect("rm");
    let (code, report) = check_json(dir.path());
    assert_eq!(code, 1);
    assert_eq!(report["ok"], false);
    assert_eq!(
        codes(&report),
        [
            "record-invalid",
            "record-missing",
            "orphan-file",
            "temp-file"
        ]
    );
    assert!(
        report["findings"][0]["message"]
            .as_str()
            .expect("message")
            .contains("line 4")
    );
    assert_eq!(report["findings"][0]["severity"], "error");
    refused(memwb(dir.path(), &["ls"]));

    std::fs::write(root.join("manifest.json"), r#"{"version":true,"files":[]}"#).expect("write");
    let (code, report) = check_json(dir.path());
    assert_eq!(code, 1);
    assert_eq!(codes(&report)[0], "manifest-invalid");
    let human = memwb(dir.path(), &["check"]);
    assert_eq!(human.status.code(), Some(1));
    assert!(stdout(&human).contains("error[manifest-invalid]"));
}

#[test]
fn check_warns_near_the_index_budget_and_on_a_stale_lock() {
    let dir = workspace();
    add(dir.path(), "one", "First", "b");
    let lock = dir.path().join(".memory/.lock");
    std::fs::create_dir(&lock).expect("mkdir");
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
    std::fs::File::open(&lock)
        .and_then(|f| f.set_times(std::fs::FileTimes::new().set_modified(old)))
        .expect("age the lock");
    let out = memwb(dir.path(), &["--max-index-lines", "1", "check", "--json"]);
    let report: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(codes(&report), ["lock-stale", "budget"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn check_on_a_linked_memory_root_reports_it() {
    let dir = workspace();
    let elsewhere = workspace();
    std::os::unix::fs::symlink(elsewhere.path(), dir.path().join(".memory")).expect("symlink");
    let (code, report) = check_json(dir.path());
    assert_eq!(code, 1);
    assert_eq!(codes(&report), ["root-escapes"]);
    let err = refused(memwb(
        dir.path(),
        &[
            "add",
            "--name",
            "x",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
    ));
    assert!(err.contains("memory root escapes workspace"), "{err}");
    assert!(
        std::fs::read_dir(elsewhere.path())
            .expect("dir")
            .next()
            .is_none(),
        "nothing written through the link"
    );
}

#[test]
fn cannot_run_on_a_missing_workspace() {
    let dir = workspace();
    let missing = dir.path().join("nope");
    let out = memwb(&missing, &["check"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn json_output_escapes_control_characters() {
    let dir = workspace();
    add(
        dir.path(),
        "esc",
        "title \u{1b}]0;pwned\u{7}",
        "clear \u{1b}[2J screen",
    );
    let out = ok(memwb(dir.path(), &["ls", "--json"]));
    assert!(out.contains("\\u001b]0;pwned\\u0007"), "{out}");
    assert!(!out.contains('\u{1b}'));
}

#[test]
fn a_closed_output_pipe_ends_a_command_quietly() {
    let dir = workspace();
    // Forty journaled adds, made in-process: only the commands below are under test, and
    // forty `memwb add` processes cost more than the rest of the test.
    let store = common::open(dir.path());
    store.ensure_root().expect("create the set");
    for i in 0..40 {
        let added = common::record(&format!("record-{i}"), "d", "b");
        memwb::formats::memory::journal::journaled(&store, Default::default(), None, |s| {
            s.extend(vec![added])
        })
        .expect("add");
    }
    for args in [&["log"][..], &["check"], &["ls"], &["ls", "--json"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_memwb"))
            .arg("-C")
            .arg(dir.path())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        drop(child.stdout.take()); // the reader is gone before memwb writes
        let out = child.wait_with_output().expect("wait");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).is_empty(), "{args:?}: {}", stderr(&out));
    }
}
