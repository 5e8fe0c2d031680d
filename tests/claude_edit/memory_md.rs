//! MEMORY.md as edits change it, and the index fix: dangling and unlisted entries, the archive, the
//! limit.

use super::*;

#[test]
fn adding_appends_an_entry_under_the_type_heading() {
    let index = read("MEMORY.md");
    let (file, writes) = edit::plan_add(
        &new_memory("review-size", "feedback"),
        Some(&index),
        &[],
        now(),
    )
    .unwrap();
    assert_eq!(writes[0].file, file);
    assert_eq!(writes[0].base, None, "a new file must not exist yet");
    let line = "- [review-size](feedback_review_size.md) \u{2014} about review-size";
    let expected = index.replace(
        "one logical change each\n",
        &format!("one logical change each\n{line}\n"),
    );
    assert_eq!(index_after(&writes), expected);
    // A type with no heading of its own in a per-type index gets one at the end; the missing
    // final line break stays missing.
    let (_, writes) = edit::plan_add(
        &NewMemory {
            kind: "reference".into(),
            ..new_memory("runbook", "reference")
        },
        Some(&index),
        &[],
        now(),
    )
    .unwrap();
    assert!(
        index_after(&writes)
            .ends_with("error budget\n- [runbook](reference_runbook.md) \u{2014} about runbook")
    );
    // No MEMORY.md yet: one is written holding the entry.
    let (_, writes) = edit::plan_add(&new_memory("x", "user"), None, &[], now()).unwrap();
    assert_eq!(
        writes[1],
        FileWrite {
            file: "MEMORY.md".into(),
            base: None,
            after: Some("- [x](user_x.md) \u{2014} about x\n".into()),
        }
    );
}

#[test]
fn removing_deletes_the_file_and_its_line_only() {
    let index = read("MEMORY.md");
    let release = read("project_release.md");
    let writes = edit::plan_rm(
        &[TopicFile {
            file: "project_release.md",
            text: &release,
        }],
        Some(&index),
    );
    assert_eq!(writes[0].after, None);
    assert_eq!(writes[0].base.as_deref(), Some(release.as_str()));
    let expected = index.replace(
        "- [project_release](project_release.md) \u{2014} release freeze and the checklist owner\n",
        "",
    );
    assert_ne!(expected, index);
    assert_eq!(index_after(&writes), expected);
}

#[test]
fn renaming_moves_the_file_and_rewrites_its_link() {
    let index = read("MEMORY.md");
    let text = read("notes/deploy_steps.md");
    let existing = topic_files();
    let existing: Vec<&str> = existing.iter().map(String::as_str).collect();
    let (file, writes) = edit::plan_rename(
        TopicFile {
            file: "notes/deploy_steps.md",
            text: &text,
        },
        Some(&index),
        "deploy-runbook",
        &existing,
        now(),
    )
    .unwrap();
    assert_eq!(file, "notes/reference_deploy_runbook.md");
    assert_eq!(writes[0].file, "notes/deploy_steps.md");
    assert_eq!(writes[0].after, None);
    assert_eq!(writes[1].file, file);
    assert_eq!(writes[1].base, None);
    assert_eq!(
        writes[1].after.as_deref().unwrap(),
        text.replace("name: deploy_steps\n", "name: deploy-runbook\n")
            .replace(
                "type: reference\n",
                "type: reference\nmodified: 2026-10-02T11:12:13.457Z\n"
            )
    );
    assert_eq!(
        index_after(&writes),
        index.replace(
            "- [deploy_steps](notes/deploy_steps.md)",
            "- [deploy-runbook](notes/reference_deploy_runbook.md)"
        )
    );
}

#[test]
fn setting_the_description_follows_in_an_index_hook_that_showed_it() {
    let index = read("MEMORY.md");
    let text = read("feedback_integration_tests.md");
    let changes = Changes {
        description: Some("integration tests use a real Postgres".into()),
        ..Changes::default()
    };
    let writes = edit::plan_set(
        TopicFile {
            file: "feedback_integration_tests.md",
            text: &text,
        },
        Some(&index),
        &changes,
        now(),
    )
    .unwrap();
    assert_eq!(
        index_after(&writes),
        index.replace(
            "\u{2014} integration tests must hit a real Postgres, never mocks",
            "\u{2014} integration tests use a real Postgres"
        )
    );
    // A hook of the agent's own words stays.
    let text = read("feedback_commit_style.md");
    let writes = edit::plan_set(
        TopicFile {
            file: "feedback_commit_style.md",
            text: &text,
        },
        Some(&index),
        &changes,
        now(),
    )
    .unwrap();
    assert_eq!(writes.len(), 1, "the topic file only: {writes:?}");
}

fn summaries() -> Vec<TopicSummary> {
    let folder =
        memwb::claude::ClaudeFolder::open(Path::new(MEMORY), LoadLimits::default()).unwrap();
    TopicSummary::all(&folder.read())
}

#[test]
fn index_fix_removes_dangling_and_adds_unlisted_entries() {
    let index = read("MEMORY.md");
    let fix = plan_index_fix(Some(&index), None, &summaries(), LoadLimits::default());
    assert_eq!(
        fix.removed,
        [
            "- [project_payments](project_payments.md) \u{2014} payments service moved to the new provider; webhooks verified with the shared secret rotation schedule kept in the ops vault"
        ]
    );
    assert_eq!(fix.added, ["project_old_api.md", "scratch.md"]);
    assert!(fix.archive.is_none() && fix.archived.is_empty());
    let expected = index
        .replace(&format!("{}\n", fix.removed[0]), "")
        .replace(
            "error budget",
            "error budget\n\n## Decision\n- [project_old_api](project_old_api.md) \u{2014} The v1 API stays read-only until clients migrate\n\n## Other\n- [scratch](scratch.md)",
        );
    assert_eq!(fix.index.after, expected);
    assert_eq!(fix.index.before.as_deref(), Some(index.as_str()));
    // The fixed index needs nothing more.
    let again = plan_index_fix(
        Some(&fix.index.after),
        None,
        &summaries(),
        LoadLimits::default(),
    );
    assert!(again.is_empty(), "{again:?}");
}

fn many(count: usize) -> (String, Vec<TopicSummary>) {
    let mut index = "# Memory Index\n\nKeep this line: it is not an entry.\n".to_owned();
    let mut topics = Vec::new();
    for i in 0..count {
        let file = format!("project_m{i:03}.md");
        index.push_str(&format!("- [m{i:03}]({file}) \u{2014} hook {i}\n"));
        // Memory 0 is the newest, the last the oldest; every 7th has no time at all.
        let age =
            (i % 7 != 3).then(|| Timestamp::from_second(2_000_000_000 - i as i64 * 60).unwrap());
        topics.push(TopicSummary {
            file,
            name: format!("m{i:03}"),
            description: format!("hook {i}"),
            kind: Some("project".into()),
            age,
        });
    }
    (index, topics)
}

#[test]
fn index_fix_archives_the_oldest_entries_until_it_loads_with_headroom() {
    let (index, topics) = many(230);
    let limits = LoadLimits::default();
    assert!(
        index::parse(&index, limits).cut_by.is_some(),
        "past the limit to begin with"
    );
    let fix = plan_index_fix(Some(&index), None, &topics, limits);
    let after = index::parse(&fix.index.after, limits);
    // The fewest entries that leave 10% of the line limit free, and no more.
    assert_eq!(
        after.counted_lines,
        limits.lines * (100 - edit::HEADROOM_PERCENT) / 100
    );
    assert_eq!(after.cut_by, None);
    assert!(!fix.still_over);
    // Undated memories first, then from the oldest.
    let undated: Vec<String> = topics
        .iter()
        .filter(|t| t.age.is_none())
        .map(|t| t.file.clone())
        .collect();
    assert_eq!(fix.archived[..undated.len()], undated[..]);
    assert_eq!(fix.archived[undated.len()], "project_m229.md");
    assert!(
        fix.index.after.contains("- [m000](project_m000.md)"),
        "the newest stay"
    );
    assert!(
        fix.index
            .after
            .starts_with("# Memory Index\n\nKeep this line: it is not an entry.\n")
    );
    assert!(
        fix.index
            .after
            .ends_with(&format!("{}\n", edit::fix::archive_link()))
    );
    assert!(fix.index.after.contains(&format!("]({ARCHIVE_FILE})")));
    let archive = fix.archive.as_ref().expect("an archive");
    assert_eq!(archive.before, None);
    let archived_lines = index::parse(&archive.after, limits);
    let mut in_archive: Vec<&str> = archived_lines
        .entries()
        .filter_map(|l| l.entry_file())
        .collect();
    let mut archived: Vec<&str> = fix.archived.iter().map(String::as_str).collect();
    in_archive.sort_unstable();
    archived.sort_unstable();
    assert_eq!(in_archive, archived);
    // Every entry is in exactly one of the two files, and nothing else was lost.
    let kept = after
        .entries()
        .filter(|l| l.entry_file() != Some(ARCHIVE_FILE))
        .count();
    assert_eq!(kept + fix.archived.len(), 230);
    // Fixing again, with the archive in place, changes nothing.
    let again = plan_index_fix(
        Some(&fix.index.after),
        Some(&archive.after),
        &topics,
        limits,
    );
    assert!(again.is_empty(), "{again:?}");
}

#[test]
fn index_fix_appends_to_an_existing_archive_and_counts_its_entries_as_listed() {
    let (index, topics) = many(210);
    let archive = "# Memory archive\n\n- [gone](project_gone.md) \u{2014} old";
    let mut topics = topics;
    topics.push(TopicSummary {
        file: "project_gone.md".into(),
        name: "gone".into(),
        description: "old".into(),
        kind: None,
        age: None,
    });
    let fix = plan_index_fix(Some(&index), Some(archive), &topics, LoadLimits::default());
    assert!(
        !fix.added.contains(&"project_gone.md".to_owned()),
        "listed in the archive"
    );
    let after = &fix.archive.as_ref().unwrap().after;
    assert!(
        after.starts_with(&format!("{archive}\n\n# Memory Index\n- [")),
        "the moved entries under the heading they stood under: {after}"
    );
}

#[test]
fn index_fix_says_when_what_remains_past_the_limit_is_not_entries() {
    let index = "# I\n\ntext one\ntext two\ntext three\n- [a](a.md) \u{2014} x\n";
    let topics = [TopicSummary {
        file: "a.md".into(),
        name: "a".into(),
        description: "x".into(),
        kind: None,
        age: None,
    }];
    let limits = LoadLimits {
        lines: 3,
        ..LoadLimits::default()
    };
    let fix = plan_index_fix(Some(index), None, &topics, limits);
    assert_eq!(fix.archived, ["a.md"]);
    assert!(fix.still_over);
    assert!(
        fix.index
            .after
            .starts_with("# I\n\ntext one\ntext two\ntext three\n")
    );
}
