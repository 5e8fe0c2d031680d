//! The pure planning layer for Claude Code folders (`memwb::claude::edit`) on the fixture's
//! files: byte-for-byte round trips, one-field edits, the `modified` stamp, new file names,
//! MEMORY.md line edits and the `index --fix` plan.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use memwb::claude::LoadLimits;
use memwb::claude::edit::{
    self, Changes, FileWrite, NewMemory, TopicFile, TopicSummary, plan_index_fix,
};
use memwb::claude::index::{self, ARCHIVE_FILE};

const FIXTURE: &str = "tests/fixtures/claude";
const MEMORY: &str = "tests/fixtures/claude/config/projects/-home-dev-shop/memory";

fn now() -> Timestamp {
    "2026-10-02T11:12:13.456789Z".parse().unwrap()
}

/// Every Markdown file of the fixture: (path relative to the memory folder or the fixture, text).
fn fixture_files() -> Vec<(PathBuf, String)> {
    let files: Vec<(PathBuf, String)> = walkdir::WalkDir::new(FIXTURE)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            (e.path().to_owned(), text)
        })
        .collect();
    assert!(files.len() >= 11, "the fixture's Markdown files: {files:?}");
    files
}

fn read(file: &str) -> String {
    std::fs::read_to_string(Path::new(MEMORY).join(file)).unwrap()
}

fn topic_files() -> Vec<String> {
    walkdir::WalkDir::new(MEMORY)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(MEMORY).unwrap();
            rel.to_str().unwrap().replace('\\', "/")
        })
        .filter(|f| f.ends_with(".md") && f != "MEMORY.md")
        .collect()
}

fn is_stamp_line(line: &str) -> bool {
    line.trim() == "modified: 2026-10-02T11:12:13.457Z"
}

#[test]
fn every_fixture_file_round_trips_unchanged_through_an_empty_edit() {
    for (path, text) in fixture_files() {
        let saved = edit::edit_topic(&text, &Changes::default(), now()).unwrap();
        assert_eq!(saved, text, "{}", path.display());
        let plan = edit::plan_set(
            TopicFile {
                file: "x.md",
                text: &text,
            },
            Some(&read("MEMORY.md")),
            &Changes::default(),
            now(),
        )
        .unwrap();
        assert!(plan.is_empty(), "{}: {plan:?}", path.display());
    }
}

#[test]
fn a_one_field_edit_keeps_every_other_line_byte_for_byte() {
    for (path, text) in fixture_files() {
        let changes = Changes {
            description: Some("edited: a \"new\" hook".into()),
            ..Changes::default()
        };
        let edited = edit::edit_topic(&text, &changes, now()).unwrap();
        let parsed = memwb::claude::frontmatter::parse(&edited);
        assert_eq!(
            parsed.field("description"),
            Some("edited: a \"new\" hook"),
            "{}:\n{edited}",
            path.display()
        );
        // The edited field and the stamp (replaced where it was, or added) are what changes.
        let is_edit =
            |line: &str| line.starts_with("description:") || line.trim().starts_with("modified:");
        let before: Vec<&str> = text.split_inclusive('\n').filter(|l| !is_edit(l)).collect();
        let after: Vec<&str> = edited
            .split_inclusive('\n')
            .filter(|l| !is_edit(l))
            .collect();
        let had_frontmatter = edit::TopicText::split(&text).is_some();
        if had_frontmatter {
            assert_eq!(after, before, "{}", path.display());
            let stamps = edited.lines().filter(|l| is_stamp_line(l)).count();
            assert_eq!(stamps, 1, "{}:\n{edited}", path.display());
        } else {
            // A file without frontmatter gets one holding only the field, and no stamp.
            assert_eq!(
                edited,
                format!("---\ndescription: \"edited: a \\\"new\\\" hook\"\n---\n{text}")
            );
        }
    }
}

#[test]
fn a_one_field_edit_of_invalid_yaml_replaces_only_that_line() {
    let text = read("feedback_commit_style.md");
    let changes = Changes {
        kind: Some("project".into()),
        ..Changes::default()
    };
    let edited = edit::edit_topic(&text, &changes, now()).unwrap();
    assert_eq!(
        edited,
        text.replace(
            "type: feedback\n",
            "type: project\nmodified: 2026-10-02T11:12:13.457Z\n"
        )
    );
}

#[test]
fn modified_is_stamped_where_it_already_is() {
    // Under metadata: (a trailing space after the colon), replaced in place.
    let user_role = read("user_role.md");
    let stamped = edit::stamp_modified(&user_role, now()).unwrap().unwrap();
    assert_eq!(
        stamped,
        user_role.replace(
            "  modified: 2026-09-14T08:21:07.512Z\n",
            "  modified: 2026-10-02T11:12:13.457Z\n"
        )
    );
    // At the top level, replaced in place.
    let top = "---\nname: a\nmodified: 2026-01-01T00:00:00.000Z\ntype: user\n---\nbody\n";
    assert_eq!(
        edit::stamp_modified(top, now()).unwrap().unwrap(),
        "---\nname: a\nmodified: 2026-10-02T11:12:13.457Z\ntype: user\n---\nbody\n"
    );
    // Not there yet: inside metadata: when the file has that block, else at the top level.
    let dashboards = read("reference_dashboards.md");
    assert_eq!(
        edit::stamp_modified(&dashboards, now()).unwrap().unwrap(),
        dashboards.replace(
            "  type: reference\n",
            "  type: reference\n  modified: 2026-10-02T11:12:13.457Z\n"
        )
    );
    let release = read("project_release.md");
    assert_eq!(
        edit::stamp_modified(&release, now()).unwrap().unwrap(),
        release.replace(
            "type: project\n",
            "type: project\nmodified: 2026-10-02T11:12:13.457Z\n"
        )
    );
    // Never on a file without frontmatter.
    assert_eq!(
        edit::stamp_modified(&read("scratch.md"), now()).unwrap(),
        None
    );
    assert_eq!(edit::stamp(now()), "2026-10-02T11:12:13.457Z");
    assert_eq!(
        edit::stamp("2026-10-02T11:12:13Z".parse().unwrap()),
        "2026-10-02T11:12:13.000Z"
    );
}

fn new_memory(name: &str, kind: &str) -> NewMemory {
    NewMemory {
        name: name.into(),
        kind: kind.into(),
        description: format!("about {name}"),
        body: "The rule.\n\n**Why:** because.".into(),
    }
}

#[test]
fn new_files_get_claude_code_names_without_collisions() {
    let existing = topic_files();
    let existing: Vec<&str> = existing.iter().map(String::as_str).collect();
    let index = read("MEMORY.md");
    let pick = |name: &str, kind: &str| edit::file_name(name, Some(kind), &existing);
    assert_eq!(pick("Role", "user"), "user_role_2.md");
    assert_eq!(pick("user_role", "user"), "user_role_2.md");
    assert_eq!(
        pick("Release Freeze — 4.2", "project"),
        "project_release_freeze_4_2.md"
    );
    assert_eq!(pick("用户偏好", "user"), "user_用户偏好.md");
    assert_eq!(
        pick("deploy steps", "reference"),
        "reference_deploy_steps.md"
    );
    // A name Claude Code would erase (a CJK one) is refused for a new memory; an ASCII
    // kebab-case one is written in Claude Code's own form.
    let refused = edit::plan_add(
        &new_memory("部署 步骤", "project"),
        Some(&index),
        &existing,
        now(),
    );
    assert!(
        matches!(refused, Err(edit::EditError::Name { ref kept, .. }) if kept.is_empty()),
        "{refused:?}"
    );
    let (file, writes) = edit::plan_add(
        &new_memory("deploy-steps", "project"),
        Some(&index),
        &existing,
        now(),
    )
    .unwrap();
    assert_eq!(file, "project_deploy_steps.md");
    assert_eq!(
        writes[0].after.as_deref().unwrap(),
        "---\nname: deploy-steps\ndescription: about deploy-steps\nmetadata:\n  node_type: memory\n  type: project\n  modified: 2026-10-02T11:12:13.457Z\n---\n\nThe rule.\n\n**Why:** because.\n"
    );
}

fn index_after(writes: &[FileWrite]) -> &str {
    let write = writes
        .iter()
        .find(|w| w.file == "MEMORY.md")
        .expect("a MEMORY.md write");
    assert_eq!(
        write.base.as_deref(),
        Some(read("MEMORY.md").as_str()),
        "based on the text read"
    );
    write.after.as_deref().unwrap()
}

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
fn a_batch_gets_distinct_files_and_one_index_write() {
    let index = read("MEMORY.md");
    let batch = [new_memory("role", "user"), new_memory("role", "user")];
    let existing = topic_files();
    let existing: Vec<&str> = existing.iter().map(String::as_str).collect();
    let (files, writes) = edit::plan_add_all(&batch, Some(&index), &existing, now()).unwrap();
    assert_eq!(files, ["user_role_2.md", "user_role_3.md"]);
    assert_eq!(writes.len(), 3);
    let after = index_after(&writes);
    let first = after.find("](user_role_2.md)").expect("first entry");
    let second = after.find("](user_role_3.md)").expect("second entry");
    assert!(
        first < second && second < after.find("## Feedback").unwrap(),
        "{after}"
    );
}

#[test]
fn a_set_that_renames_and_redescribes_moves_the_file_once() {
    let index = read("MEMORY.md");
    let text = read("project_release.md");
    let existing = topic_files();
    let existing: Vec<&str> = existing.iter().map(String::as_str).collect();
    let changes = Changes {
        name: Some("release-4-2".into()),
        description: Some("release freeze and the checklist owner".into()),
        ..Changes::default()
    };
    let topic = TopicFile {
        file: "project_release.md",
        text: &text,
    };
    let (file, writes) =
        edit::plan_edit(topic, Some(&index), &changes, Some(&existing), now()).unwrap();
    assert_eq!(file, "project_release_4_2.md");
    assert_eq!(
        index_after(&writes),
        index.replace(
            "- [project_release](project_release.md) \u{2014} release freeze and the checklist owner",
            "- [release-4-2](project_release_4_2.md) \u{2014} release freeze and the checklist owner"
        )
    );
    // plan_set keeps the file where it is and renames only the title.
    let writes = edit::plan_set(topic, Some(&index), &changes, now()).unwrap();
    assert_eq!(writes[0].file, "project_release.md");
    assert!(index_after(&writes).contains("- [release-4-2](project_release.md) \u{2014}"));
    // The same name again changes nothing at all.
    let same = Changes {
        name: Some("project_release".into()),
        ..Changes::default()
    };
    assert!(
        edit::plan_edit(topic, Some(&index), &same, Some(&existing), now())
            .unwrap()
            .1
            .is_empty()
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
