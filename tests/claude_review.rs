//! The review gate on Claude Code folders from the command line: proposals filed into the
//! folder's state directory (MEMWB_STATE_DIR, a temporary directory in every test), listed,
//! approved into topic files and MEMORY.md lines, rejected, refused when stale; dedupe and
//! consolidate across topic files; `copy --from` in both directions. After every test the
//! folder holds nothing but topic files and MEMORY.md.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::tree;
use serde_json::{Value, json};

const INDEX: &str = "# Memory Index

## User
- [user_role](user_role.md) — Dana leads the storefront team

## Feedback
- [tabs_indent](feedback_tabs.md) — User prefers tabs for indentation
- [indent_tabs](feedback_indent.md) — Indentation with tabs preferred by user

Free text the agent wrote stays.
";

const USER_ROLE: &str = "---
name: user_role
description: \"Dana leads the storefront team\"
metadata: 
  node_type: memory
  type: user
  originSessionId: 7d0c2b9e-41a6-4f53-8e2d-6b1f0c9a3e57
  modified: 2026-09-14T08:21:07.512Z
---

Dana leads the storefront team and decides on the data model.
";

const TABS: &str = "---
name: tabs_indent
description: User prefers tabs for indentation
type: feedback
---

Use tabs.
";

const INDENT: &str = "---
name: indent_tabs
description: Indentation with tabs preferred by user
type: feedback
---

Tabs, not spaces.

Use tabs.
";

/// A Claude Code folder and a state directory, both temporary.
struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        let env = Self {
            dir: tempfile::tempdir().expect("temp dir"),
        };
        fs::create_dir_all(env.memory()).expect("mkdir");
        fs::create_dir_all(env.state()).expect("mkdir");
        for (file, text) in [
            ("MEMORY.md", INDEX),
            ("user_role.md", USER_ROLE),
            ("feedback_tabs.md", TABS),
            ("feedback_indent.md", INDENT),
        ] {
            fs::write(env.memory().join(file), text).expect("write");
        }
        env
    }

    fn memory(&self) -> PathBuf {
        self.dir.path().join("memory")
    }

    fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    /// `memwb --memory-dir <memory> ARGS` with HOME and MEMWB_STATE_DIR in the temp dir.
    fn run(&self, args: &[&str]) -> Output {
        self.run_on(&self.memory(), args)
    }

    fn run_on(&self, folder: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_memwb"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.path())
            .env("MEMWB_STATE_DIR", self.state())
            .current_dir(self.dir.path())
            .arg("--memory-dir")
            .arg(folder)
            .args(args)
            .output()
            .expect("run memwb")
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "memwb {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    }

    /// The id a `propose` or `copy` printed on its last line.
    fn proposed(&self, args: &[&str]) -> String {
        let out = self.ok(args);
        let id = out.lines().last().expect("an id").to_owned();
        assert!(
            id.len() == 12 && id.bytes().all(|b| b.is_ascii_hexdigit()),
            "{out}"
        );
        id
    }

    fn read(&self, file: &str) -> String {
        fs::read_to_string(self.memory().join(file)).expect("read")
    }

    fn proposals(&self, extra: &[&str]) -> Vec<Value> {
        let mut args = vec!["proposals", "--json"];
        args.extend_from_slice(extra);
        serde_json::from_str(&self.ok(&args)).expect("json")
    }

    fn reply(&self, value: &Value) -> String {
        let path = self.dir.path().join("reply.json");
        fs::write(&path, value.to_string()).expect("write reply");
        path.display().to_string()
    }
}

impl Drop for Env {
    /// Whatever a test did, only topic files and MEMORY.md are in the folder: memwb's own
    /// files live in the state directory.
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        self.assert_only_memories();
    }
}

impl Env {
    fn assert_only_memories(&self) {
        for file in tree(&self.memory()).keys() {
            assert!(
                file.ends_with(".md"),
                "{file} appeared in the Claude Code folder"
            );
        }
    }
}

/// A folder with its dedupe proposal filed, and a copy of the folder and the state directory
/// as they were then: each step of a sweep starts from those bytes, at the same paths (the
/// state directory's name comes from the folder's path), without running `propose` again.
struct Filed {
    env: Env,
    id: String,
}

impl Filed {
    const PARTS: [&str; 2] = ["memory", "state"];

    fn dedupe() -> Self {
        let env = Env::new();
        let id = env.proposed(&["propose", "dedupe"]);
        for part in Self::PARTS {
            common::copy_dir(
                &env.dir.path().join(part),
                &env.dir.path().join("filed").join(part),
            );
        }
        Self { env, id }
    }

    /// The folder and the state directory back as they were right after the filing; what the
    /// last step left in the folder is checked first, as a dropped `Env` checks it.
    fn reset(&self) {
        self.env.assert_only_memories();
        for part in Self::PARTS {
            let live = self.env.dir.path().join(part);
            fs::remove_dir_all(&live).expect("remove");
            common::copy_dir(&self.env.dir.path().join("filed").join(part), &live);
        }
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn record(name: &str, kind: &str, description: &str, body: &str) -> Value {
    json!({"name": name, "type": kind, "description": description, "body": body})
}

#[test]
fn an_approved_extraction_writes_a_topic_file_and_its_index_entry() {
    let env = Env::new();
    let reply = env.reply(&json!([record(
        "pr-size",
        "user",
        "Prefers PRs under 300 lines",
        "Keep pull requests small."
    )]));
    let before = tree(&env.memory());
    let id = env.proposed(&["propose", "import", &reply]);
    assert_eq!(tree(&env.memory()), before, "filing changes nothing");
    let listed = env.proposals(&[]);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["kind"], "extraction");
    assert_eq!(listed[0]["state"], "ready");
    assert_eq!(listed[0]["files"][0]["file"], "user_pr_size.md");
    assert_eq!(listed[0]["files"][0]["before"], Value::Null);
    assert_eq!(listed[0]["records"][0]["name"], "pr-size");

    let approved = env.ok(&["approve", &id]);
    assert!(
        approved.starts_with(&format!("approved {id} as #"))
            && approved.ends_with(": added pr-size\n"),
        "{approved}"
    );
    let written = env.read("user_pr_size.md");
    assert!(
        written.starts_with(
            "---\nname: pr-size\ndescription: Prefers PRs under 300 lines\nmetadata:\n  node_type: memory\n  type: user\n  modified: "
        ),
        "{written}"
    );
    assert!(
        written.ends_with("\n---\n\nKeep pull requests small.\n"),
        "{written}"
    );
    assert_eq!(
        env.read("MEMORY.md"),
        INDEX.replace(
            "team\n\n## Feedback",
            "team\n- [pr-size](user_pr_size.md) — Prefers PRs under 300 lines\n\n## Feedback"
        )
    );
    let all = env.proposals(&["--all"]);
    assert_eq!(all[0]["state"], "approved");
    let again = env.run(&["approve", &id]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains(&format!("proposal {id} was already approved")),
        "{}",
        stderr(&again)
    );
}

#[test]
fn a_rejected_proposal_leaves_the_folder_byte_identical() {
    let env = Env::new();
    let reply = env.reply(&json!([record("x", "project", "d", "b")]));
    let id = env.proposed(&["propose", "import", &reply]);
    let before = tree(&env.memory());
    assert_eq!(
        env.ok(&["reject", &id, "--reason", "-not now"]),
        format!("rejected {id}\n")
    );
    assert_eq!(tree(&env.memory()), before);
    assert!(env.proposals(&[]).is_empty());
    let all = env.proposals(&["--all"]);
    assert_eq!(all[0]["state"], "rejected");
    assert_eq!(all[0]["reason"], "-not now");
}

#[test]
fn a_stale_proposal_is_refused_and_nothing_is_written() {
    let env = Env::new();
    let id = env.proposed(&["propose", "dedupe"]);
    // Claude Code edits a source with a plain write after the proposal was made.
    let edited = TABS.replace("Use tabs.", "Use tabs, width 4.");
    fs::write(env.memory().join("feedback_tabs.md"), &edited).expect("write");
    let listed = env.proposals(&[]);
    assert_eq!(listed[0]["state"], "stale");
    assert_eq!(
        listed[0]["changes"],
        json!(["feedback_tabs.md was changed"])
    );
    let before = tree(&env.memory());
    let out = env.run(&["approve", &id]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!(
            "error: proposal {id} is stale: feedback_tabs.md was changed; nothing was applied"
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(tree(&env.memory()), before);
}

#[test]
fn dedupe_merges_near_duplicates_into_the_first_and_removes_the_rest_with_their_lines() {
    let env = Env::new();
    let id = env.proposed(&["propose", "dedupe"]);
    let listed = env.proposals(&[]);
    assert_eq!(listed[0]["kind"], "consolidation");
    assert_eq!(listed[0]["origin"]["source"], "dedupe");
    assert_eq!(
        listed[0]["source_names"],
        json!(["tabs_indent", "indent_tabs"])
    );
    let human = env.ok(&["proposals"]);
    assert!(
        human.contains("replace tabs_indent, indent_tabs with tabs_indent"),
        "{human}"
    );

    let approved = env.ok(&["approve", &id]);
    assert!(
        approved.starts_with(&format!("approved {id} as #"))
            && approved.ends_with(": changed tabs_indent; removed indent_tabs\n"),
        "{approved}"
    );
    assert!(!env.memory().join("feedback_indent.md").exists());
    let merged = env.read("feedback_tabs.md");
    assert!(
        merged.starts_with(
            "---\nname: tabs_indent\ndescription: Indentation with tabs preferred by user\ntype: feedback\nmodified: "
        ),
        "{merged}"
    );
    assert!(
        merged.ends_with("---\n\nUse tabs.\n\nTabs, not spaces.\n"),
        "{merged}"
    );
    let index = env.read("MEMORY.md");
    assert!(!index.contains("feedback_indent.md"), "{index}");
    assert!(
        index.contains(
            "- [tabs_indent](feedback_tabs.md) — Indentation with tabs preferred by user\n"
        ),
        "{index}"
    );
    assert!(
        index.ends_with("Free text the agent wrote stays.\n"),
        "{index}"
    );
    assert_eq!(
        env.read("user_role.md"),
        USER_ROLE,
        "other files are untouched"
    );
}

/// A `--model-cmd` that records its request and answers with `content`.
fn scripted_model(dir: &Path, content: &Value) -> (String, PathBuf) {
    let reply = json!({"message": {"content": content.to_string()}, "finish_reason": "stop"});
    let reply_path = dir.join("model-reply.json");
    fs::write(&reply_path, reply.to_string()).expect("write");
    let request = dir.join("model-request.json");
    let script = dir.join("model.sh");
    fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > '{}'\ncat '{}'\n",
            request.display(),
            reply_path.display()
        ),
    )
    .expect("write");
    (format!("sh '{}'", script.display()), request)
}

#[test]
fn a_model_consolidation_rewrites_a_kept_source_and_removes_the_others() {
    let env = Env::new();
    let (model, request) = scripted_model(
        env.dir.path(),
        &json!({
            "source_names": ["tabs-indent", "indent-tabs"],
            "records": [record("tabs-indent", "feedback", "Tabs for indentation, always", "Use tabs, never spaces.")]
        }),
    );
    let id = env.proposed(&["propose", "consolidate", "--model-cmd", &model]);
    let sent = fs::read_to_string(request).expect("request");
    assert!(
        sent.contains("indent-tabs") && sent.contains("user-role"),
        "{sent}"
    );
    env.ok(&["approve", &id]);
    assert!(!env.memory().join("feedback_indent.md").exists());
    let kept = env.read("feedback_tabs.md");
    assert!(
        kept.starts_with("---\nname: tabs_indent\ndescription: Tabs for indentation, always\n"),
        "{kept}"
    );
    assert!(kept.ends_with("---\n\nUse tabs, never spaces.\n"), "{kept}");
    let index = env.read("MEMORY.md");
    assert!(!index.contains("feedback_indent.md"), "{index}");
    assert!(
        index.contains("- [tabs_indent](feedback_tabs.md) — Tabs for indentation, always\n"),
        "{index}"
    );
}

#[test]
fn copy_from_claude_code_into_memory_converts_and_refuses_with_reasons() {
    let env = Env::new();
    fs::write(env.memory().join("scratch.md"), "loose notes\n").expect("write");
    let workspace = env.dir.path().join("ws");
    fs::create_dir_all(workspace.join(".memory")).expect("mkdir");
    let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.dir.path())
        .env("MEMWB_STATE_DIR", env.state())
        .args(["-C"])
        .arg(&workspace)
        .args(["--format", "memory", "copy", "--from"])
        .arg(env.memory())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "refused scratch: it has no type (user, feedback, project or reference)\n"
    );
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let id = stdout.lines().last().expect("id").to_owned();
    let proposal: Value = serde_json::from_str(
        &fs::read_to_string(workspace.join(format!(".memory/.memwb/proposals/{id}.json")))
            .expect("proposal"),
    )
    .expect("json");
    let records = proposal["plan"].as_array().expect("records");
    let names: Vec<&str> = records
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["user-role", "tabs-indent", "indent-tabs"]);
    assert_eq!(records[0]["type"], "user");
    assert_eq!(records[0]["description"], "Dana leads the storefront team");
    let body = records[0]["body"].as_str().unwrap();
    let source = env.memory().canonicalize().unwrap();
    assert_eq!(
        body,
        format!(
            "(copied from {}/user_role.md)\n\nDana leads the storefront team and decides on the data model.",
            source.display()
        )
    );
    assert_eq!(proposal["origin"]["source"], "copy");
}

#[test]
fn copy_from_memory_into_claude_code_adds_files_with_modified_and_refuses_taken_names() {
    let env = Env::new();
    let workspace = env.dir.path().join("ws");
    fs::create_dir_all(&workspace).expect("mkdir");
    let add = |name: &str, description: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", env.dir.path())
            .arg("-C")
            .arg(&workspace)
            .args(common::cli::add_args(name, description, "Body."))
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    };
    add("release-freeze", "Release freeze: Fridays");
    add("other", "Not copied");
    fs::write(
        env.memory().join("project_taken.md"),
        "---\nname: release-freeze\ntype: project\n---\nx\n",
    )
    .expect("write");
    let from = workspace.join(".memory");
    let from = from.to_str().unwrap();
    let out = env.run(&["copy", "--from", from, "release-freeze"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "refused release-freeze: a memory named \"release-freeze\" is already in the target\nerror: every memory was refused (see above); nothing was proposed\n"
    );
    fs::remove_file(env.memory().join("project_taken.md")).expect("rm");
    let unknown = env.run(&["copy", "--from", from, "nobody"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        stderr(&unknown).contains("no memory named \"nobody\""),
        "{}",
        stderr(&unknown)
    );

    let id = env.proposed(&["copy", "--from", from, "release-freeze"]);
    env.ok(&["approve", &id]);
    let text = env.read("project_release_freeze.md");
    assert!(
        text.starts_with("---\nname: release-freeze\ndescription: \"Release freeze: Fridays\"\nmetadata:\n  node_type: memory\n  type: project\n  modified: 20"),
        "{text}"
    );
    assert!(text.ends_with("---\n\nBody.\n"), "{text}");
    assert!(
        env.read("MEMORY.md")
            .contains("- [release-freeze](project_release_freeze.md) — Release freeze: Fridays\n")
    );
    assert!(!env.memory().join("project_other.md").exists());
}

#[test]
fn a_bad_proposal_file_and_an_unknown_id_are_refused() {
    let env = Env::new();
    let out = env.run(&["approve", "deadbeef0000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: no proposal deadbeef0000"),
        "{}",
        stderr(&out)
    );
    let reply =
        env.reply(&json!({"source_names": ["nobody"], "records": [record("a", "user", "d", "b")]}));
    let bad = env.run(&["propose", "import", &reply]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("is not among the candidates"),
        "{}",
        stderr(&bad)
    );
    assert!(env.proposals(&["--all"]).is_empty());
}

/// The folder after the dedupe proposal's approval, from a run nothing interrupted.
fn deduped_folder() -> BTreeMap<String, Vec<u8>> {
    let env = Env::new();
    let id = env.proposed(&["propose", "dedupe"]);
    env.ok(&["approve", &id]);
    let mut files = tree(&env.memory());
    // `modified` is stamped at approval: compare the merged file without it.
    files.insert(
        "feedback_tabs.md".into(),
        without_modified(&files["feedback_tabs.md"]),
    );
    files
}

fn without_modified(bytes: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| !l.starts_with("modified: "))
        .collect::<Vec<_>>()
        .join("\n")
        .into_bytes()
}

/// The entries of the folder's journal, failing on any damaged or unmarked line.
fn journal_entries(env: &Env) -> Vec<memwb::review::Entry> {
    let folder = memwb::claude::ClaudeFolder::open(&env.memory(), Default::default())
        .expect("open")
        .with_state_root(env.state());
    let scan = memwb::formats::claude::journal::journal_of(&folder)
        .expect("journal")
        .scan()
        .expect("scan");
    assert!(scan.damaged.is_empty(), "{:?}", scan.damaged);
    assert!(
        scan.pending.is_none(),
        "an unmarked intent: {:?}",
        scan.pending
    );
    scan.entries
}

#[test]
fn a_crash_at_any_step_of_an_approved_consolidation_loses_nothing() {
    if !cfg!(feature = "fault-injection") {
        common::skip(
            "MEMWB_CRASH_AT exists only with the fault-injection feature (cargo test turns it on)",
        );
        return;
    }
    let expected = deduped_folder();
    let (mut crashes, mut kept, mut rolled_back) = (0, 0, 0);
    let filed = Filed::dedupe();
    let (env, id) = (&filed.env, filed.id.clone());
    for n in 0.. {
        assert!(n < 100, "the approval never completed");
        if n > 0 {
            filed.reset();
        }
        let before = tree(&env.memory());
        let mut approve = Command::new(env!("CARGO_BIN_EXE_memwb"));
        approve
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", env.dir.path())
            .env("MEMWB_STATE_DIR", env.state())
            .env("MEMWB_CRASH_AT", n.to_string())
            .arg("--memory-dir")
            .arg(env.memory())
            .args(["approve", &id]);
        let out = approve.output().expect("run");
        if out.status.success() {
            assert!(crashes >= 8, "only {crashes} crash points");
            assert!(
                kept >= 1 && rolled_back >= 3,
                "kept {kept}, rolled back {rolled_back}"
            );
            return;
        }
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            out.status.signal(),
            Some(6),
            "step {n}: not the crash point: {}",
            stderr(&out)
        );
        crashes += 1;
        // Whatever the crash left, the next approval finishes the job exactly once.
        let again = env.run(&["approve", &id]);
        let said = stderr(&again);
        if again.status.success() {
            rolled_back += 1;
        } else {
            assert!(said.contains("was already approved"), "step {n}: {said}");
            kept += 1;
        }
        let mut files = tree(&env.memory());
        if let Some(merged) = files.get("feedback_tabs.md") {
            let merged = without_modified(merged);
            files.insert("feedback_tabs.md".into(), merged);
        }
        assert_eq!(files, expected, "step {n}: the folder is the approved one");
        assert_ne!(tree(&env.memory()), before);
        let entries = journal_entries(env);
        let approvals: Vec<_> = entries
            .iter()
            .filter(|e| e.proposal.as_ref().is_some_and(|p| p.id == id))
            .collect();
        assert_eq!(
            approvals.len(),
            1,
            "step {n}: one journaled approval: {entries:?}"
        );
        assert_eq!(
            approvals[0].touched_files().len(),
            3,
            "merged file, removed file, MEMORY.md"
        );
        let proposal = &env.proposals(&["--all"])[0];
        assert_eq!(proposal["state"], "approved", "step {n}");
        assert_eq!(proposal["journal_entry"], approvals[0].id, "step {n}");
    }
}

#[test]
fn a_failure_at_any_step_of_an_approved_consolidation_loses_nothing_and_can_be_retried() {
    use memwb::claude::{ClaudeFolder, LoadLimits};
    use memwb::review::ReviewError;
    use memwb::store::IoHooks;
    let expected = deduped_folder();
    let (mut before_commit, mut after_commit) = (0, 0);
    let filed = Filed::dedupe();
    let (env, id) = (&filed.env, filed.id.clone());
    for n in 0.. {
        assert!(n < 100, "the approval never completed");
        if n > 0 {
            filed.reset();
        }
        let before = tree(&env.memory());
        let hook = common::FailAt::new(n);
        let folder = ClaudeFolder::open(&env.memory(), LoadLimits::default())
            .expect("open")
            .with_state_root(env.state());
        let failing = folder.clone().with_hooks(IoHooks::new(hook.clone()));
        let error = match memwb::formats::claude::journal::approve(&failing, &id) {
            Ok(_) => {
                assert!(
                    before_commit >= 8,
                    "only {before_commit} steps failed before the commit"
                );
                assert!(after_commit >= 1, "the mark after the commit never failed");
                return;
            }
            Err(error) => error,
        };
        let (op, _) = hook.failed().expect("failed at the injected step");
        if let ReviewError::NotJournaled { .. } = error {
            // The files are written; only the journal's mark failed: the entry and the
            // decision wait as an intent that the next change records.
            after_commit += 1;
            memwb::formats::claude::journal::recover(&folder).expect("recovery");
            assert_eq!(journal_entries(env).len(), 1, "step {n} ({op:?})");
            assert_eq!(
                env.proposals(&["--all"])[0]["state"],
                "approved",
                "step {n}"
            );
        } else {
            before_commit += 1;
            assert!(
                error.to_string().contains("injected failure"),
                "step {n} ({op:?}): {error}"
            );
            assert_eq!(
                tree(&env.memory()),
                before,
                "step {n} ({op:?}): nothing written"
            );
            assert!(
                journal_entries(env).is_empty(),
                "step {n}: nothing journaled"
            );
            assert_eq!(
                env.proposals(&[])[0]["state"],
                "ready",
                "step {n}: still pending"
            );
            memwb::formats::claude::journal::approve(&folder, &id).expect("a retry applies it");
            assert_eq!(journal_entries(env).len(), 1);
        }
        let mut files = tree(&env.memory());
        let merged = without_modified(&files["feedback_tabs.md"]);
        files.insert("feedback_tabs.md".into(), merged);
        assert_eq!(files, expected, "step {n} ({op:?})");
    }
}

#[test]
fn dedupe_does_not_file_a_group_again_while_it_is_pending_or_after_a_rejection() {
    let env = Env::new();
    let id = env.proposed(&["propose", "dedupe"]);
    let again = env.run(&["propose", "dedupe"]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(
        stderr(&again),
        format!(
            "skipped tabs_indent, indent_tabs: already pending as proposal {id}\nno new near-duplicates found; nothing proposed\n"
        )
    );
    env.ok(&["reject", &id]);
    let after = env.run(&["propose", "dedupe"]);
    assert!(stderr(&after).starts_with(&format!(
        "skipped tabs_indent, indent_tabs: rejected before as proposal {id}\n"
    )));
    assert_eq!(env.proposals(&["--all"]).len(), 1);
    // issue 26 item 7: once a member's text is no longer what was rejected, the group is
    // proposed again (a person decided against merging those texts, not these)
    let file = env.memory().join("feedback_indent.md");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, format!("{text}Never spaces.\n")).expect("write");
    let again = env.proposed(&["propose", "dedupe"]);
    assert_ne!(again, id);
    assert_eq!(env.proposals(&["--all"]).len(), 2);
}

#[test]
fn an_approval_is_undone_to_the_exact_bytes_of_every_file_and_the_index() {
    let env = Env::new();
    let before = tree(&env.memory());
    let id = env.proposed(&["propose", "dedupe"]);
    env.ok(&["approve", &id]);
    assert_ne!(tree(&env.memory()), before);
    let entries = journal_entries(&env);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].op, memwb::review::Op::Approve);
    assert_eq!(
        entries[0].proposal.as_ref().map(|p| p.id.as_str()),
        Some(id.as_str())
    );
    let folder = memwb::claude::ClaudeFolder::open(&env.memory(), Default::default())
        .expect("open")
        .with_state_root(env.state());
    memwb::formats::claude::journal::undo(&folder, &entries[0]).expect("undo");
    assert_eq!(
        tree(&env.memory()),
        before,
        "every byte back, MEMORY.md included"
    );
    assert_eq!(journal_entries(&env).len(), 2);
}

#[test]
fn an_approval_waits_for_a_live_consolidation_and_a_proposal_keeps_no_credential() {
    let env = Env::new();
    let key = ["AKIA", "Z7Q3K2LMN4PQRS5T"].concat();
    let reply = env.reply(&json!([record(
        "ci-key",
        "reference",
        "The CI key",
        &format!("The key is {key}.")
    )]));
    let id = env.proposed(&["propose", "import", &reply]);
    let kept = fs::read_dir(env.state().join("claude"))
        .expect("state")
        .map(|e| e.expect("entry").path())
        .next()
        .expect("the folder's state directory");
    let filed = fs::read_to_string(kept.join(format!("proposals/{id}.json"))).expect("proposal");
    assert!(!filed.contains(&key), "{filed}");
    assert!(filed.contains("[REDACTED]"));

    // Claude Code's own consolidation is running (this test process stands for it).
    let lock = env.memory().join(".consolidate-lock");
    fs::write(&lock, std::process::id().to_string()).expect("lock");
    let before = tree(&env.memory());
    let out = env.run(&["approve", &id]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("Claude Code is consolidating this folder; try again when it finishes"),
        "{}",
        stderr(&out)
    );
    assert_eq!(tree(&env.memory()), before, "nothing written");
    assert_eq!(env.proposals(&[])[0]["state"], "ready");
    fs::remove_file(&lock).expect("unlock");

    env.ok(&["approve", &id]);
    let written = env.read("reference_ci_key.md");
    assert!(written.contains("The key is [REDACTED]."), "{written}");
    assert!(!written.contains(&key));
}

/// Issue 26 item 7: a stale dedupe proposal is rebased (as on `.memory`): the same id, its
/// draft recomputed from the files as they are now, and it approves.
#[test]
fn a_stale_dedupe_proposal_is_rebased_onto_the_current_files() {
    let env = Env::new();
    let id = env.proposed(&["propose", "dedupe"]);
    let folder = memwb::claude::ClaudeFolder::open(&env.memory(), Default::default())
        .expect("open")
        .with_state_root(env.state());
    let ready = memwb::formats::claude::journal::rebase(&folder, &id).expect_err("ready");
    assert!(ready.to_string().contains("it is not stale"), "{ready}");
    let file = env.memory().join("feedback_indent.md");
    let text = fs::read_to_string(&file).expect("read");
    fs::write(&file, format!("{text}\nNever spaces, not even in YAML.\n")).expect("write");
    assert_eq!(env.proposals(&[])[0]["state"], "stale");
    let rebased = memwb::formats::claude::journal::rebase(&folder, &id).expect("rebase");
    assert_eq!(rebased.proposal.id, id);
    let changes = rebased.changes.join("; ");
    assert!(
        changes.contains("feedback_indent.md was changed"),
        "{changes}"
    );
    assert!(changes.contains("recomputed"), "{changes}");
    assert_eq!(env.proposals(&[])[0]["state"], "ready");
    env.ok(&["approve", &id]);
    let merged = env.read("feedback_tabs.md");
    assert!(
        merged.contains("Never spaces, not even in YAML."),
        "{merged}"
    );
    assert!(!env.memory().join("feedback_indent.md").exists());
    // a decided proposal is not rebased
    let decided = memwb::formats::claude::journal::rebase(&folder, &id).expect_err("decided");
    assert!(decided.to_string().contains("approved"), "{decided}");
}
