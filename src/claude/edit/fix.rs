//! The `index --fix` plan for MEMORY.md: dangling entries out, unlisted files in, and when the
//! index is past Claude Code's load limit, the entries of the oldest memories moved into a
//! linked `MEMORY-archive.md` until it fits with headroom. A plan is the text before and after,
//! so that a caller shows the diff before anything is written.

use jiff::Timestamp;

use super::ARCHIVE_FILE;
use super::index_lines::{IndexText, append_entry, entry_line};
use crate::claude::folder::{Snapshot, Topic};
use crate::claude::index::{self, LineKind, Load, LoadLimits};

/// The lines Claude Code asks the index to stay under; memwb archives down to it.
pub const FIT_LINES: usize = 140;

/// What the plan needs of one topic file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicSummary {
    pub file: String,
    pub name: String,
    pub description: String,
    pub kind: Option<String>,
    /// Its `modified` field, else its mtime; `None` counts as oldest.
    pub age: Option<Timestamp>,
}

impl TopicSummary {
    pub fn of(topic: &Topic) -> Self {
        let stamped = topic.parsed().and_then(|p| {
            p.field("modified").or_else(|| {
                p.fields()
                    .iter()
                    .find(|(k, _)| k == crate::claude::frontmatter::METADATA_KEY)
                    .and_then(|(_, v)| v.get("modified"))
                    .and_then(serde_json::Value::as_str)
            })
        });
        let age = stamped
            .and_then(|s| s.parse::<Timestamp>().ok())
            .or_else(|| topic.modified.and_then(|t| Timestamp::try_from(t).ok()));
        Self {
            file: topic.file.clone(),
            name: topic.name().to_owned(),
            description: topic.description().unwrap_or("").to_owned(),
            kind: topic.kind().map(str::to_owned),
            age,
        }
    }

    /// Every topic of a snapshot except the archive.
    pub fn all(snapshot: &Snapshot) -> Vec<Self> {
        snapshot
            .topics
            .iter()
            .filter(|t| t.file != ARCHIVE_FILE)
            .map(Self::of)
            .collect()
    }
}

/// One file's text before and after (`before: None`: it does not exist yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextChange {
    pub file: String,
    pub before: Option<String>,
    pub after: String,
}

impl TextChange {
    pub fn changed(&self) -> bool {
        self.before.as_deref() != Some(self.after.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexFix {
    pub index: TextChange,
    /// Set when entries move out.
    pub archive: Option<TextChange>,
    /// The dangling entry lines taken out, as written.
    pub removed: Vec<String>,
    /// Files given an entry.
    pub added: Vec<String>,
    /// Files whose entries moved to the archive, oldest first.
    pub archived: Vec<String>,
    /// Still past the load limit after archiving every entry (the rest is not entries).
    pub still_over: bool,
}

impl IndexFix {
    pub fn is_empty(&self) -> bool {
        !self.index.changed() && self.archive.as_ref().is_none_or(|a| !a.changed())
    }
}

/// The archive's link line in MEMORY.md.
pub fn archive_link() -> String {
    entry_line(
        "Archive",
        ARCHIVE_FILE,
        "older memories, moved out of this index to keep it within the load limit",
    )
}

const ARCHIVE_HEAD: &str = "# Memory archive\n\nEntries moved out of MEMORY.md by `memwb index --fix` to keep the index within\nClaude Code's load limit. The memories themselves are unchanged.\n";

/// Plans the fix of `index` (MEMORY.md's text, `None` when missing) against the folder's
/// topic files; `archive` is MEMORY-archive.md's text when it exists.
pub fn plan_index_fix(
    index: Option<&str>,
    archive: Option<&str>,
    topics: &[TopicSummary],
    limits: LoadLimits,
) -> IndexFix {
    let mut text = IndexText::new(index.unwrap_or(""));
    let kinds = text.kinds();
    let exists = |file: &str| file == ARCHIVE_FILE || topics.iter().any(|t| t.file == file);
    let mut removed = Vec::new();
    let mut keep = Vec::with_capacity(text.lines.len());
    for (i, kind) in kinds.iter().enumerate() {
        let dangling = matches!(kind, LineKind::Entry { file: Some(f), .. } if !exists(f));
        if dangling {
            removed.push(text.lines[i].trim_end_matches('\r').to_owned());
        }
        keep.push(!dangling);
    }
    let mut keep = keep.into_iter();
    text.lines.retain(|_| keep.next().unwrap_or(true));
    let listed_in = |text: &str, file: &str| {
        index::parse(text, LoadLimits::default())
            .entries()
            .any(|l| l.entry_file() == Some(file))
    };
    let mut current = text.text();
    let mut added = Vec::new();
    for topic in topics {
        let in_archive = archive.is_some_and(|a| listed_in(a, &topic.file));
        if !listed_in(&current, &topic.file) && !in_archive {
            let line = entry_line(&topic.name, &topic.file, &topic.description);
            current = append_entry(&current, &line, topic.kind.as_deref());
            added.push(topic.file.clone());
        }
    }
    let mut fix = IndexFix {
        index: TextChange {
            file: index::INDEX_FILE.into(),
            before: index.map(str::to_owned),
            after: current,
        },
        archive: None,
        removed,
        added,
        archived: Vec::new(),
        still_over: false,
    };
    if index::parse(&fix.index.after, limits).cut_by.is_some() {
        archive_oldest(&mut fix, archive, topics, limits);
    }
    fix
}

fn fits(text: &str, limits: LoadLimits) -> bool {
    let parsed = index::parse(text, limits);
    let size = limits.size / limits.lines.max(1) * FIT_LINES.min(limits.lines);
    parsed.counted_lines <= FIT_LINES.min(limits.lines) && parsed.counted_size <= size
}

fn archive_oldest(
    fix: &mut IndexFix,
    archive: Option<&str>,
    topics: &[TopicSummary],
    limits: LoadLimits,
) {
    let mut current = fix.index.after.clone();
    if !index::parse(&current, LoadLimits::default())
        .entries()
        .any(|l| l.entry_file() == Some(ARCHIVE_FILE))
    {
        current = append_entry(&current, &archive_link(), None);
    }
    let mut candidates: Vec<&TopicSummary> = topics.iter().collect();
    // Oldest first; no time at all counts as oldest of all.
    candidates.sort_by_key(|t| t.age);
    let mut moved: Vec<String> = Vec::new();
    for topic in candidates {
        if fits(&current, limits) {
            break;
        }
        let mut text = IndexText::new(&current);
        let parsed = index::parse(&current, limits);
        let lines: Vec<usize> = parsed
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.load != Load::Stripped && l.entry_file() == Some(&topic.file))
            .map(|(i, _)| i)
            .collect();
        if lines.is_empty() {
            continue;
        }
        let mut taken: Vec<String> = lines
            .iter()
            .rev()
            .map(|&i| text.lines.remove(i).trim_end_matches('\r').to_owned())
            .collect();
        taken.reverse();
        moved.extend(taken);
        fix.archived.push(topic.file.clone());
        current = text.text();
    }
    fix.still_over = !fits(&current, limits);
    fix.index.after = current;
    let mut archive_text = match archive {
        Some(text) if !text.is_empty() => {
            let mut text = text.to_owned();
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text
        }
        _ => format!("{ARCHIVE_HEAD}\n"),
    };
    for line in &moved {
        archive_text.push_str(line);
        archive_text.push('\n');
    }
    fix.archive = Some(TextChange {
        file: ARCHIVE_FILE.into(),
        before: archive.map(str::to_owned),
        after: archive_text,
    });
}
