//! Proposals on a Claude Code folder: approved, rejected, stale, refused, undone, waiting for a
//! live consolidation.

use super::*;

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
    assert_eq!(listed[0]["files"][0]["after"]["record"]["name"], "pr-size");

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
    assert_eq!(listed[0]["changes"], json!(["\"tabs_indent\" was changed"]));
    let before = tree(&env.memory());
    let out = env.run(&["approve", &id]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!(
            "error: proposal {id} is stale: \"tabs_indent\" was changed; nothing was applied"
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(tree(&env.memory()), before);
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
