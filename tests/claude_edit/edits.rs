//! Edits of topic files: round trips, one-field edits byte for byte, the modified stamp, new names,
//! batches.

use super::*;

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
