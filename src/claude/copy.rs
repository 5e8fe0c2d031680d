//! Bringing memories from one folder into another, either format into either format: each
//! memory converted to the target's form, or refused with the reason. Pure: the caller reads
//! both folders and files the result as a proposal (`memwb copy --from`).
//!
//! * Claude Code → `.memory`: only `name`, `description` and `type`; the name made a valid slug;
//!   the body's first line notes where it came from.
//! * `.memory` → Claude Code: `name`, `description`, `type` and `modified` (now), in a new file
//!   named as Claude Code names them.
//! * Same format: the memory as it is (a Claude Code file's text byte for byte).

use std::collections::HashSet;

use jiff::Timestamp;

use crate::claude::edit::{NewMemory, file_name, plan_add};
use crate::claude::frontmatter::Frontmatter;
use crate::claude::write::FileImage;
use crate::claude::{Snapshot, Topic, TopicContent};
use crate::store::{MemoryType, Record};

/// A memory in the source folder: a record, or a topic file with its exact text.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    Record(&'a Record),
    Topic { topic: &'a Topic, text: &'a str },
}

impl Source<'_> {
    pub fn name(&self) -> &str {
        match self {
            Source::Record(record) => record.name(),
            Source::Topic { topic, .. } => topic.name(),
        }
    }
}

pub use crate::memory::Refusal;

/// What a copy into a `.memory` set brings: records, and the refused.
#[derive(Debug, Clone, Default)]
pub struct IntoSet {
    pub records: Vec<Record>,
    pub refused: Vec<Refusal>,
}

/// What a copy into a Claude Code folder brings: new files, and the refused.
#[derive(Debug, Clone, Default)]
pub struct IntoClaude {
    pub files: Vec<FileImage>,
    pub refused: Vec<Refusal>,
}

/// `text` as a `.memory` name: ASCII letters and digits lowercased, every other run of
/// characters one `-`, none at either end; empty when nothing is left. The name Claude Code
/// keeps is the same (file names keep every script: that is [`crate::claude::edit::slug`]).
pub(crate) use crate::claude::edit::claude_form::kept_name as memory_name;

/// The sources as records for a `.memory` set that holds `taken` names; `from` says where they
/// came from, for the note in each converted body.
pub fn into_set(sources: &[Source], taken: &HashSet<String>, from: &str) -> IntoSet {
    let mut out = IntoSet::default();
    let mut names: HashSet<String> = taken.clone();
    for source in sources {
        let converted = match source {
            Source::Record(record) => Ok((*record).clone()),
            Source::Topic { topic, .. } => topic_as_record(topic, from),
        };
        let refuse = |reason: String| Refusal {
            name: source.name().to_owned(),
            reason,
        };
        match converted {
            Err(reason) => out.refused.push(refuse(reason)),
            Ok(record) if names.contains(record.name()) => out.refused.push(refuse(format!(
                "a memory named {:?} is already in the target",
                record.name()
            ))),
            Ok(record) => {
                names.insert(record.name().to_owned());
                out.records.push(record);
            }
        }
    }
    out
}

fn topic_as_record(topic: &Topic, from: &str) -> Result<Record, String> {
    let parsed = match &topic.content {
        TopicContent::Read(parsed) => parsed,
        TopicContent::Unreadable(why) => return Err(format!("it cannot be read: {why}")),
    };
    if let Frontmatter::Invalid { line, message } = &parsed.frontmatter {
        return Err(format!(
            "its frontmatter is not valid YAML (line {line}: {message})"
        ));
    }
    let name = [memory_name(topic.name()), memory_name(topic.stem())]
        .into_iter()
        .find(|s| !s.is_empty())
        .ok_or_else(|| {
            format!(
                "neither its name {:?} nor its file name has a letter or digit to make a .memory name from",
                topic.name()
            )
        })?;
    let kind: MemoryType = match topic.kind() {
        None => return Err("it has no type (user, feedback, project or reference)".into()),
        Some(kind) => kind
            .parse()
            .map_err(|_| crate::store::RecordError::Type(kind.to_owned()).to_string())?,
    };
    let description = topic
        .description()
        .ok_or("it has no description")?
        .to_owned();
    if topic.body().trim().is_empty() {
        return Err("its body is empty".into());
    }
    let body = format!("(copied from {from}/{})\n\n{}", topic.file, topic.body());
    Record::new(name, kind, description, body).map_err(|e| e.to_string())
}

/// The sources as new files for the Claude Code folder `target`; converted records are stamped
/// `modified` at `now`.
pub fn into_claude(sources: &[Source], target: &Snapshot, now: Timestamp) -> IntoClaude {
    let mut out = IntoClaude::default();
    let mut names: HashSet<String> = target.topics.iter().map(|t| t.name().to_owned()).collect();
    let mut files: Vec<String> = target.topics.iter().map(|t| t.file.clone()).collect();
    files.extend(target.others.iter().map(|o| o.file.clone()));
    for source in sources {
        let name = source.name().to_owned();
        let refuse = |reason: String| Refusal {
            name: name.clone(),
            reason,
        };
        if names.contains(&name) {
            out.refused.push(refuse(format!(
                "a memory named {name:?} is already in the target"
            )));
            continue;
        }
        let existing: Vec<&str> = files.iter().map(String::as_str).collect();
        let converted = match source {
            Source::Record(record) => new_topic(record, &existing, now),
            Source::Topic { topic, text } => {
                let taken = existing.iter().any(|f| f.eq_ignore_ascii_case(&topic.file));
                let file = if taken {
                    file_name(&name, topic.kind(), &existing)
                } else {
                    topic.file.clone()
                };
                Ok((file, (*text).to_owned()))
            }
        };
        match converted {
            Err(reason) => out.refused.push(refuse(reason)),
            Ok((file, text)) => {
                names.insert(name);
                files.push(file.clone());
                out.files.push(FileImage {
                    file,
                    before: None,
                    after: Some(text),
                });
            }
        }
    }
    out
}

/// The file Claude Code would write for `record`: `<type>_<slug>.md` in Claude Code's own
/// form (`crate::claude::edit::claude_form`).
pub fn new_topic(
    record: &Record,
    existing: &[&str],
    now: Timestamp,
) -> Result<(String, String), String> {
    let memory = NewMemory {
        name: record.name().to_owned(),
        kind: record.kind().as_str().to_owned(),
        description: record.description().to_owned(),
        body: record.body().to_owned(),
    };
    let (file, writes) = plan_add(&memory, None, existing, now).map_err(|e| e.to_string())?;
    writes
        .into_iter()
        .find(|w| w.file == file)
        .and_then(|w| w.after)
        .map(|text| (file, text))
        .ok_or_else(|| "no file was planned for it".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claude::folder::IndexFile;
    use crate::claude::frontmatter;

    fn topic(file: &str, text: &str) -> Topic {
        Topic {
            file: file.into(),
            content: TopicContent::Read(frontmatter::parse(text)),
            modified: None,
        }
    }

    fn snapshot(topics: Vec<Topic>) -> Snapshot {
        Snapshot {
            root: "/target".into(),
            topics,
            index: IndexFile::Missing,
            archive: None,
            index_modified: None,
            others: Vec::new(),
            consolidation: None,
        }
    }

    #[test]
    fn slugs_keep_ascii_letters_and_digits() {
        assert_eq!(memory_name("User Role — v2"), "user-role-v2");
        assert_eq!(memory_name("--a__b--"), "a-b");
        assert_eq!(memory_name("用户偏好"), "");
    }

    #[test]
    fn a_topic_becomes_a_record_with_three_fields_a_slug_and_a_note() {
        let text = "---\nname: User Role\ndescription: \"Leads the team\"\nmetadata: \n  type: user\n  originSessionId: x\n---\n\nDana leads.\n";
        let topics = [topic("user_role.md", text)];
        let sources = [Source::Topic {
            topic: &topics[0],
            text,
        }];
        let out = into_set(&sources, &HashSet::new(), "/claude/memory");
        assert_eq!(out.refused, []);
        let record = &out.records[0];
        assert_eq!(record.name(), "user-role");
        assert_eq!(record.kind(), MemoryType::User);
        assert_eq!(record.description(), "Leads the team");
        assert_eq!(
            record.body(),
            "(copied from /claude/memory/user_role.md)\n\nDana leads."
        );
    }

    #[test]
    fn topics_that_break_the_contract_are_refused_with_the_reason() {
        let cases = [
            ("scratch.md", "just notes\n", "it has no type"),
            (
                "a.md",
                "---\nname: a\ntype: idea\ndescription: d\n---\nb\n",
                "unknown type \"idea\": use user",
            ),
            (
                "b.md",
                "---\nname: b\ntype: user\n---\nb\n",
                "it has no description",
            ),
            (
                "用户.md",
                "---\nname: 用户\ntype: user\ndescription: d\n---\nb\n",
                "neither its name",
            ),
            (
                "c.md",
                "---\nname: c\ndescription: \"q\" more\n---\nb\n",
                "its frontmatter is not valid YAML (line 3",
            ),
            (
                "d.md",
                "---\nname: d\ntype: user\ndescription: d\n---\n\n",
                "its body is empty",
            ),
            (
                "e.md",
                "---\nname: taken\ntype: user\ndescription: d\n---\nb\n",
                "a memory named \"taken\" is already in the target",
            ),
        ];
        let topics: Vec<(Topic, &str)> = cases.iter().map(|(f, t, _)| (topic(f, t), *t)).collect();
        let sources: Vec<Source> = topics
            .iter()
            .map(|(topic, text)| Source::Topic { topic, text })
            .collect();
        let taken = HashSet::from(["taken".to_owned()]);
        let out = into_set(&sources, &taken, "/src");
        assert!(out.records.is_empty(), "{:?}", out.records);
        assert_eq!(out.refused.len(), cases.len());
        for (refusal, (_, _, why)) in out.refused.iter().zip(cases) {
            assert!(
                refusal.reason.starts_with(why),
                "{refusal:?} should say {why:?}"
            );
        }
    }

    #[test]
    fn a_record_becomes_a_topic_file_in_claude_codes_form_with_a_free_name() {
        let record =
            Record::new("tabs", MemoryType::Feedback, "Use tabs: always #1", "Tabs.").unwrap();
        let plain =
            Record::new("db-rule", MemoryType::Project, "Real database", "No mocks.").unwrap();
        let target = snapshot(vec![topic("feedback_tabs.md", "other\n")]);
        let now: Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let out = into_claude(
            &[Source::Record(&record), Source::Record(&plain)],
            &target,
            now,
        );
        assert_eq!(out.refused, []);
        assert_eq!(out.files[0].file, "feedback_tabs_2.md");
        let text = out.files[0].after.as_deref().unwrap();
        assert_eq!(
            text,
            "---\nname: tabs\ndescription: \"Use tabs: always #1\"\nmetadata:\n  node_type: memory\n  type: feedback\n  modified: 2026-12-01T10:00:00.000Z\n---\n\nTabs.\n"
        );
        let parsed = frontmatter::parse(text);
        assert_eq!(parsed.field("description"), Some("Use tabs: always #1"));
        assert_eq!(out.files[1].file, "project_db_rule.md");
        assert!(
            out.files[1]
                .after
                .as_deref()
                .unwrap()
                .contains("\ndescription: Real database\n")
        );
    }

    #[test]
    fn a_name_the_target_has_is_refused_and_a_topic_keeps_its_bytes() {
        let text = "---\nname: x\n---\nbody\n";
        let topics = [
            topic("notes/x.md", text),
            topic("y.md", "---\nname: kept\n---\n"),
        ];
        let target = snapshot(vec![topic("z.md", "---\nname: kept\n---\n")]);
        let sources = [
            Source::Topic {
                topic: &topics[0],
                text,
            },
            Source::Topic {
                topic: &topics[1],
                text: "---\nname: kept\n---\n",
            },
        ];
        let out = into_claude(&sources, &target, Timestamp::UNIX_EPOCH);
        assert_eq!(out.files.len(), 1);
        assert_eq!(out.files[0].file, "notes/x.md");
        assert_eq!(out.files[0].after.as_deref(), Some(text));
        assert_eq!(out.refused[0].name, "kept");
    }
}
