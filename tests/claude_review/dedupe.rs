//! Dedupe and consolidation across topic files: merged, rewritten by a model, crashes and failures
//! at every step, rebased.

use super::*;

#[test]
fn dedupe_merges_near_duplicates_into_the_first_and_removes_the_rest_with_their_lines() {
    let env = Env::new();
    let id = env.proposed(&["propose", "dedupe"]);
    let listed = env.proposals(&[]);
    assert_eq!(listed[0]["kind"], "consolidation");
    assert_eq!(listed[0]["origin"]["source"], "dedupe");
    let sources: Vec<&Value> = listed[0]["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| &f["before"]["memory"])
        .collect();
    assert_eq!(sources, [&json!("tabs_indent"), &json!("indent_tabs")]);
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
            Ok(approved) if hook.failed().is_some() => {
                // Only the directory sync after the renames may fail without failing the
                // approval: every file is in place, so it stands, said not yet durable.
                let (op, _) = hook.failed().expect("failed");
                assert_eq!(op, memwb::store::IoOp::SyncDir, "step {n}");
                assert!(approved.not_durable.is_some(), "step {n}");
                assert_eq!(journal_entries(env).len(), 1, "step {n}");
                assert_eq!(
                    env.proposals(&["--all"])[0]["state"],
                    "approved",
                    "step {n}"
                );
                continue;
            }
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
    assert!(changes.contains("\"indent_tabs\" was changed"), "{changes}");
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
