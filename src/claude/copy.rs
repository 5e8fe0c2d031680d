//! Bringing memories into a Claude Code folder (`memwb copy --from`, a side-query's
//! extraction): each one kept or written in Claude Code's form, or refused with the reason.
//! Pure: the caller reads both folders and files the result as a proposal.
//!
//! * Another format's memory: `name`, `description`, `type` and `modified` (now), in a new
//!   file named as Claude Code names them.
//! * A Claude Code topic file: its text byte for byte, under its own file name when the target
//!   has no file of that name. Approving the proposal writes it as every new topic file is
//!   written (`formats::claude::journal`, in Claude Code's own form), as Claude Code's next
//!   Write of it would anyway.

use std::collections::HashSet;

use jiff::Timestamp;

use crate::claude::Snapshot;
use crate::claude::edit::{NewMemory, file_name, plan_add};
use crate::claude::write::FileImage;
use crate::memory::RecordInput;

pub use crate::memory::Refusal;

/// A memory a copy brings into a Claude Code folder.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming<'a> {
    /// One of Claude Code's own topic files, with its exact text.
    Topic {
        name: &'a str,
        file: &'a str,
        kind: Option<&'a str>,
        text: &'a str,
    },
    /// Another format's memory, written as a new topic file.
    New(RecordInput),
    /// One the copy cannot bring, with why.
    Refused(Refusal),
}

impl Incoming<'_> {
    pub fn name(&self) -> &str {
        match self {
            Incoming::Topic { name, .. } => name,
            Incoming::New(input) => &input.name,
            Incoming::Refused(refusal) => &refusal.name,
        }
    }
}

/// What a copy into a Claude Code folder brings: new files, and the refused.
#[derive(Debug, Clone, Default)]
pub struct IntoClaude {
    pub files: Vec<FileImage>,
    pub refused: Vec<Refusal>,
}

/// `incoming` as new files for the Claude Code folder `target`; another format's memories are
/// stamped `modified` at `now`.
pub fn into_claude(incoming: &[Incoming], target: &Snapshot, now: Timestamp) -> IntoClaude {
    let mut out = IntoClaude::default();
    let mut names: HashSet<String> = target.topics.iter().map(|t| t.name().to_owned()).collect();
    let mut files: Vec<String> = target.topics.iter().map(|t| t.file.clone()).collect();
    files.extend(target.others.iter().map(|o| o.file.clone()));
    for memory in incoming {
        let name = memory.name().to_owned();
        let refuse = |reason: String| Refusal {
            name: name.clone(),
            reason,
        };
        if let Incoming::Refused(refusal) = memory {
            out.refused.push(refusal.clone());
            continue;
        }
        if names.contains(&name) {
            out.refused.push(refuse(format!(
                "a memory named {name:?} is already in the target"
            )));
            continue;
        }
        let existing: Vec<&str> = files.iter().map(String::as_str).collect();
        let converted = match memory {
            Incoming::Refused(refusal) => Err(refusal.reason.clone()),
            Incoming::New(input) => new_topic(input, &existing, now),
            Incoming::Topic {
                file, kind, text, ..
            } => {
                let taken = existing.iter().any(|f| f.eq_ignore_ascii_case(file));
                let file = if taken {
                    file_name(&name, *kind, &existing)
                } else {
                    (*file).to_owned()
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

/// The file Claude Code would write for `memory`: `<type>_<slug>.md` in Claude Code's own
/// form (`crate::claude::edit::claude_form`).
pub fn new_topic(
    memory: &RecordInput,
    existing: &[&str],
    now: Timestamp,
) -> Result<(String, String), String> {
    let memory = NewMemory {
        name: memory.name.clone(),
        kind: memory.kind.clone(),
        description: memory.description.clone(),
        body: memory.body.clone(),
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
    use crate::claude::{Topic, TopicContent, frontmatter};
    use crate::store::{MemoryType, Record};

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
    fn a_record_becomes_a_topic_file_in_claude_codes_form_with_a_free_name() {
        let record =
            Record::new("tabs", MemoryType::Feedback, "Use tabs: always #1", "Tabs.").unwrap();
        let plain =
            Record::new("db-rule", MemoryType::Project, "Real database", "No mocks.").unwrap();
        let target = snapshot(vec![topic("feedback_tabs.md", "other\n")]);
        let now: Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let out = into_claude(
            &[
                Incoming::New(record.to_input()),
                Incoming::New(plain.to_input()),
            ],
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
        let target = snapshot(vec![topic("z.md", "---\nname: kept\n---\n")]);
        let incoming = [
            Incoming::Topic {
                name: "x",
                file: "notes/x.md",
                kind: None,
                text,
            },
            Incoming::Topic {
                name: "kept",
                file: "y.md",
                kind: None,
                text: "---\nname: kept\n---\n",
            },
            Incoming::Refused(Refusal {
                name: "odd".into(),
                reason: "it is odd".into(),
            }),
        ];
        let out = into_claude(&incoming, &target, Timestamp::UNIX_EPOCH);
        assert_eq!(out.files.len(), 1);
        assert_eq!(out.files[0].file, "notes/x.md");
        assert_eq!(out.files[0].after.as_deref(), Some(text));
        assert_eq!(out.refused[0].name, "kept");
        assert_eq!(out.refused[1].reason, "it is odd");
    }
}
