//! `copy --from` on a Claude Code folder: its topic files that read, each with its exact text,
//! as a copy's sources; and a copy into it filed as new topic files (its own topic files byte
//! for byte, another format's memories written in Claude Code's form).

use jiff::Timestamp;

use super::FORMAT;
use crate::claude::copy::{Incoming, into_claude};
use crate::claude::frontmatter::Frontmatter;
use crate::claude::{ClaudeFolder, Topic, TopicContent};
use crate::formats::copy::Source;
use crate::formats::{Copied, CopySources, FormatError};
use crate::memory::{RecordInput, Refusal};
use crate::review::proposal::{Origin, images};

use super::journal::{self as review, NewFiles, propose};

pub(super) fn copy_sources(folder: &ClaudeFolder) -> CopySources {
    let read = propose::read(folder);
    CopySources::new(
        read.topics
            .iter()
            .map(|t| source(&t.topic, &t.text))
            .collect(),
    )
}

/// A topic file as a copy takes it: another format cannot take one that does not read (its
/// frontmatter not valid YAML), which a copy within Claude Code still keeps byte for byte
/// (in the proposal, and on approval too: Claude Code's own form is not made of a file whose
/// frontmatter does not read).
fn source(topic: &Topic, text: &str) -> Source {
    let unread = match &topic.content {
        TopicContent::Unreadable(why) => Some(format!("it cannot be read: {why}")),
        TopicContent::Read(parsed) => match &parsed.frontmatter {
            Frontmatter::Invalid { line, message } => Some(format!(
                "its frontmatter is not valid YAML (line {line}: {message})"
            )),
            _ => None,
        },
    };
    Source {
        format: FORMAT,
        memory: topic.memory(),
        text: text.to_owned(),
        unread,
    }
}

/// What a copy brings of `source`: a topic file of this format as it is; another format's
/// memory by its fields, when it reads and has the type and description a topic file is
/// written with.
fn incoming(source: &Source) -> Incoming<'_> {
    let memory = &source.memory;
    if source.format == FORMAT {
        return Incoming::Topic {
            name: &memory.name,
            file: &memory.file,
            kind: memory.kind.as_deref(),
            text: &source.text,
        };
    }
    let refused = |reason: &str| {
        Incoming::Refused(Refusal {
            name: memory.name.clone(),
            reason: reason.to_owned(),
        })
    };
    if let Some(why) = &source.unread {
        return refused(why);
    }
    let (Some(kind), Some(description)) = (&memory.kind, &memory.description) else {
        return refused(if memory.kind.is_none() {
            "it has no type (user, feedback, project or reference)"
        } else {
            "it has no description"
        });
    };
    Incoming::New(RecordInput {
        name: memory.name.clone(),
        kind: kind.clone(),
        description: description.clone(),
        body: memory.body.clone(),
    })
}

/// The sources as new topic files beside the folder's, stamped now, proposed as one change.
pub(super) fn propose_copy(
    folder: &ClaudeFolder,
    sources: &CopySources,
    from: &str,
) -> Result<Copied, FormatError> {
    let snapshot = folder.read();
    let incoming: Vec<Incoming> = sources.sources().into_iter().map(incoming).collect();
    let out = into_claude(&incoming, &snapshot, Timestamp::now());
    if out.files.is_empty() {
        return Ok(Copied {
            id: None,
            refused: out.refused,
        });
    }
    let new = NewFiles {
        kind: images::kind_of(&out.files),
        files: out.files,
        origin: Origin::new("copy"),
        evidence: Some(format!("copied from {from}")),
    };
    let id = review::file_proposal(folder, new)?.id;
    Ok(Copied {
        id: Some(id),
        refused: out.refused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claude::frontmatter;
    use crate::formats::Format;
    use crate::memory::Memory;

    fn topic(file: &str, text: &str) -> Topic {
        Topic {
            file: file.into(),
            content: TopicContent::Read(frontmatter::parse(text)),
            modified: None,
        }
    }

    /// A memory of another format, as its backend would give it to a copy.
    fn foreign(kind: Option<&str>, description: Option<&str>, unread: Option<&str>) -> Source {
        let memory = Memory {
            name: "tabs".into(),
            kind: kind.map(str::to_owned),
            description: description.map(str::to_owned),
            body: "Tabs.".into(),
            file: "tabs-1.md".into(),
            ..topic("x.md", "").memory()
        };
        Source {
            format: Format::new("other", "another format"),
            memory,
            text: "not what a topic file is written from".into(),
            unread: unread.map(str::to_owned),
        }
    }

    #[test]
    fn a_topic_whose_frontmatter_does_not_read_says_why_and_keeps_its_text() {
        let text = "---\nname: c\ndescription: \"q\" more\n---\nb\n";
        let source = source(&topic("notes/c.md", text), text);
        let why = source.unread.as_deref().unwrap_or_default();
        assert!(
            why.starts_with("its frontmatter is not valid YAML (line 3: "),
            "{why}"
        );
        assert_eq!(
            incoming(&source),
            Incoming::Topic {
                name: "c",
                file: "notes/c.md",
                kind: None,
                text,
            }
        );
        let unreadable = Topic {
            content: TopicContent::Unreadable("not UTF-8".into()),
            ..topic("d.md", "")
        };
        assert_eq!(
            super::source(&unreadable, "").unread.as_deref(),
            Some("it cannot be read: not UTF-8")
        );
    }

    #[test]
    fn another_formats_memory_comes_by_its_fields_or_is_refused_with_why() {
        assert_eq!(
            incoming(&foreign(Some("feedback"), Some("Use tabs"), None)),
            Incoming::New(RecordInput {
                name: "tabs".into(),
                kind: "feedback".into(),
                description: "Use tabs".into(),
                body: "Tabs.".into(),
            })
        );
        let refusals = [
            (foreign(None, Some("Use tabs"), None), "it has no type"),
            (foreign(Some("user"), None, None), "it has no description"),
            (
                foreign(Some("user"), Some("d"), Some("it is broken")),
                "it is broken",
            ),
        ];
        for (source, why) in refusals {
            match incoming(&source) {
                Incoming::Refused(refusal) => {
                    assert_eq!(refusal.name, "tabs");
                    assert!(refusal.reason.starts_with(why), "{refusal:?}");
                }
                other => panic!("{other:?} should be refused for {why:?}"),
            }
        }
    }
}
