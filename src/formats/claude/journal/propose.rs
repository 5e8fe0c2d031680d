//! What the proposers make of a Claude Code folder: near-duplicate groups merged into their
//! first file (no model), and a side-query's records (extraction or consolidation, the same
//! replies as for `.memory`) turned into file images.

use std::collections::HashSet;

use jiff::Timestamp;

use super::proposals::NewFiles;
use crate::claude::copy::{Incoming, Refusal, into_claude, new_topic};
use crate::claude::edit::{Changes, edit_topic};
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::claude::write::FileImage;
use crate::claude::{ClaudeFolder, Snapshot, Topic, TopicContent, frontmatter};
use crate::review::dedupe::similar_groups;
use crate::review::error::ReviewError;
use crate::review::proposal::{Kind, Origin};
use crate::session::Plan;
use crate::store::record::slug_of;
use crate::store::{MemoryType, Record};

/// A topic file read whole, with its exact text.
#[derive(Debug, Clone)]
pub struct TopicText {
    pub topic: Topic,
    pub text: String,
}

/// The folder as read, with the exact text of every topic file that reads as UTF-8.
#[derive(Debug, Clone)]
pub struct Read {
    pub snapshot: Snapshot,
    pub topics: Vec<TopicText>,
}

pub fn read(folder: &ClaudeFolder) -> Read {
    let snapshot = folder.read();
    let topics = snapshot
        .ordered()
        .into_iter()
        .filter(|t| t.parsed().is_some())
        .filter_map(|topic| {
            let bytes = read_regular(&folder.root().join(&topic.file), MAX_FILE_BYTES).ok()??;
            Some(TopicText {
                topic: topic.clone(),
                text: String::from_utf8(bytes).ok()?,
            })
        })
        .collect();
    Read { snapshot, topics }
}

impl TopicText {
    /// A topic file's text as the loader reads it.
    pub fn parse(file: &str, text: &str) -> Self {
        Self {
            topic: Topic {
                file: file.to_owned(),
                content: TopicContent::Read(frontmatter::parse(text)),
                modified: None,
            },
            text: text.to_owned(),
        }
    }
}

/// One consolidation proposal per group of near-duplicate topic files (the dedupe rule of
/// `.memory`): the first file of the group becomes the merged memory (its name and type, the
/// longest description, every distinct body paragraph in order), the others are removed.
pub fn dedupe(read: &Read, now: Timestamp) -> Result<Vec<NewFiles>, ReviewError> {
    let topics = &read.topics;
    let groups = similar_groups(topics.iter().map(|t| {
        (
            t.topic.name(),
            t.topic.description().unwrap_or(""),
            t.topic.body(),
        )
    }));
    let mut out = Vec::new();
    for group in groups {
        let members: Vec<&TopicText> = group.members.iter().map(|&i| &topics[i]).collect();
        let files = merged(&members, now)?;
        let names: Vec<&str> = members.iter().map(|m| m.topic.name()).collect();
        out.push(NewFiles {
            kind: Kind::Consolidation,
            files,
            origin: Origin::new("dedupe"),
            evidence: Some(format!(
                "near-duplicates sharing the words: {}; {} is merged into {}, a draft to edit",
                group.shared_words.join(", "),
                names[1..].join(", "),
                members[0].topic.file
            )),
        });
    }
    Ok(out)
}

/// A dedupe group's draft: the first member becomes the merged memory (its name and type, the
/// longest description, every distinct body paragraph in order), the others are removed.
/// `members` must not be empty.
pub fn merged(members: &[&TopicText], now: Timestamp) -> Result<Vec<FileImage>, ReviewError> {
    let first = members
        .first()
        .ok_or_else(|| invalid("a dedupe group needs members"))?;
    let longest = members
        .iter()
        .filter_map(|m| m.topic.description())
        .max_by_key(|d| d.chars().count());
    let mut paragraphs: Vec<&str> = Vec::new();
    for member in members {
        for paragraph in member.topic.body().split("\n\n") {
            if !paragraph.trim().is_empty()
                && !paragraphs.iter().any(|p| p.trim() == paragraph.trim())
            {
                paragraphs.push(paragraph);
            }
        }
    }
    let changes = Changes {
        description: longest
            .filter(|d| Some(*d) != first.topic.description())
            .map(str::to_owned),
        body: Some(paragraphs.join("\n\n")),
        ..Changes::default()
    };
    let merged = edit_topic(&first.text, &changes, now).map_err(invalid)?;
    let mut files = vec![edited(first, merged)];
    files.extend(members[1..].iter().map(|m| removed(m)));
    Ok(files)
}

fn invalid(error: impl std::fmt::Display) -> ReviewError {
    ReviewError::ProposalInvalid {
        rule: error.to_string(),
    }
}

fn edited(source: &TopicText, after: String) -> FileImage {
    FileImage {
        file: source.topic.file.clone(),
        before: Some(source.text.clone()),
        after: Some(after),
    }
}

fn removed(source: &TopicText) -> FileImage {
    FileImage {
        file: source.topic.file.clone(),
        before: Some(source.text.clone()),
        after: None,
    }
}

/// The topic files a side-query can see, as the records it is asked about (named by a
/// `.memory` slug of their name), and the ones it cannot, with why.
#[derive(Debug, Clone, Default)]
pub struct Candidates<'a> {
    pub records: Vec<Record>,
    topics: Vec<&'a TopicText>,
    pub left_out: Vec<Refusal>,
}

impl Candidates<'_> {
    /// The record name a side-query sees for the memory a person calls `name` (its `name`
    /// field or its file, with or without `.md`), when that memory is a candidate.
    pub fn record_name_of(&self, name: &str) -> Option<&str> {
        self.topics
            .iter()
            .zip(&self.records)
            .find(|(t, _)| {
                t.topic.name() == name
                    || t.topic.file == name
                    || t.topic.file.strip_suffix(".md") == Some(name)
            })
            .map(|(_, record)| record.name())
    }
}

pub fn candidates<'a>(read: &'a Read, names: &[String]) -> Result<Candidates<'a>, ReviewError> {
    let mut out = Candidates::default();
    let wanted: Vec<&TopicText> = if names.is_empty() {
        read.topics.iter().collect()
    } else {
        names
            .iter()
            .map(|name| {
                read.topics
                    .iter()
                    .find(|t| t.topic.name() == name || t.topic.file == *name)
                    .ok_or_else(|| invalid(format!("no memory named {name:?} in the folder")))
            })
            .collect::<Result<_, _>>()?
    };
    let mut seen = HashSet::new();
    for source in wanted {
        match as_record(&source.topic) {
            Ok(record) if seen.insert(record.name().to_owned()) => {
                out.records.push(record);
                out.topics.push(source);
            }
            Ok(record) => out.left_out.push(Refusal {
                name: source.topic.name().to_owned(),
                reason: format!("another memory is also called {:?} here", record.name()),
            }),
            Err(reason) => out.left_out.push(Refusal {
                name: source.topic.name().to_owned(),
                reason,
            }),
        }
    }
    Ok(out)
}

/// A topic as the record a side-query is shown: the three fields and the body as they are.
fn as_record(topic: &Topic) -> Result<Record, String> {
    let name = slug_of(topic.name());
    let kind: MemoryType = topic
        .kind()
        .ok_or("it has no type")?
        .parse()
        .map_err(|e: crate::store::RecordError| e.to_string())?;
    let description = topic.description().ok_or("it has no description")?;
    Record::new(name, kind, description, topic.body()).map_err(|e| e.to_string())
}

/// A side-query's plan as file images: an extraction's records as new files (refused ones
/// listed), a consolidation's sources replaced. A record that keeps a source's name is written
/// into that source's file (its other fields and its place in MEMORY.md kept); the other
/// sources are removed and every other record is a new file.
pub fn from_plan(
    read: &Read,
    candidates: &Candidates,
    plan: &Plan,
    now: Timestamp,
) -> Result<(Vec<FileImage>, Vec<Refusal>), ReviewError> {
    match plan {
        Plan::Extraction(records) => {
            let incoming: Vec<Incoming> = records
                .iter()
                .map(|record| Incoming::New(record.to_input()))
                .collect();
            let out = into_claude(&incoming, &read.snapshot, now);
            Ok((out.files, out.refused))
        }
        Plan::Consolidation {
            source_names,
            records,
        } => {
            let sources: Vec<&TopicText> = source_names
                .iter()
                .filter_map(|name| {
                    candidates
                        .records
                        .iter()
                        .position(|r| r.name() == name)
                        .map(|i| candidates.topics[i])
                })
                .collect();
            let mut reused: HashSet<&str> = HashSet::new();
            let mut existing: Vec<String> = read
                .snapshot
                .topics
                .iter()
                .map(|t| t.file.clone())
                .collect();
            let mut files = Vec::new();
            for record in records {
                let into = sources.iter().find(|s| {
                    !reused.contains(s.topic.file.as_str())
                        && slug_of(s.topic.name()) == record.name()
                });
                match into {
                    Some(source) => {
                        reused.insert(&source.topic.file);
                        let changes = Changes {
                            kind: (source.topic.kind() != Some(record.kind().as_str()))
                                .then(|| record.kind().as_str().to_owned()),
                            description: Some(record.description().to_owned()),
                            body: Some(record.body().to_owned()),
                            ..Changes::default()
                        };
                        let after = edit_topic(&source.text, &changes, now).map_err(invalid)?;
                        if after != source.text {
                            files.push(edited(source, after));
                        }
                    }
                    None => {
                        let taken: Vec<&str> = existing.iter().map(String::as_str).collect();
                        let (file, text) =
                            new_topic(&record.to_input(), &taken, now).map_err(invalid)?;
                        existing.push(file.clone());
                        files.push(FileImage {
                            file,
                            before: None,
                            after: Some(text),
                        });
                    }
                }
            }
            for source in sources {
                if !reused.contains(source.topic.file.as_str()) {
                    files.push(removed(source));
                }
            }
            Ok((files, Vec::new()))
        }
    }
}
