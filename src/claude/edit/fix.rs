//! The `index --fix` plan for MEMORY.md: dangling entries out, unlisted files in, and when the
//! index is past Claude Code's load limit, the entries of the oldest memories moved into a
//! linked `MEMORY-archive.md` until it fits with headroom. A plan is the text before and after,
//! so that a caller shows the diff before anything is written.

use jiff::Timestamp;

pub use crate::change::{IndexPlan as IndexFix, TextChange};

use super::index_lines::{IndexText, append_entry, entry_line, section_end};
use crate::claude::folder::{Snapshot, Topic};
use crate::claude::index::ARCHIVE_FILE;
use crate::claude::index::{self, LineKind, Load, LoadLimits};

/// The share of each load limit (lines, size) `index --fix` leaves free when it archives, so
/// that the next memories the agent adds still load: it archives down to 90% of the limits.
pub const HEADROOM_PERCENT: usize = 10;

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
    let original = IndexText::new(index.unwrap_or(""));
    let exists = |file: &str| {
        (file == ARCHIVE_FILE && archive.is_some()) || topics.iter().any(|t| t.file == file)
    };
    let parsed = index::parse(&original.text(), LoadLimits::default());
    let dangling: Vec<bool> = parsed
        .lines
        .iter()
        .map(|l| matches!(&l.kind, LineKind::Entry { file: Some(f), .. } if !exists(f)))
        .collect();
    let (text, taken) = without_lines(&original, &dangling);
    let removed = taken.into_iter().map(|t| t.line).collect();
    let archived_list = archive.map(|a| index::parse(a, LoadLimits::default()));
    let mut current = text.text();
    let mut added = Vec::new();
    let mut relies_on_archive = false;
    let mut parsed = index::parse(&current, LoadLimits::default());
    for topic in topics {
        if parsed.links_to(&topic.file) {
            continue;
        }
        if archived_list
            .as_ref()
            .is_some_and(|a| a.links_to(&topic.file))
        {
            relies_on_archive = true;
            continue;
        }
        let line = entry_line(&topic.name, &topic.file, &topic.description);
        current = append_entry(&current, &line, topic.kind.as_deref());
        parsed = index::parse(&current, LoadLimits::default());
        added.push(topic.file.clone());
    }
    // Files listed only in the archive are found through its link.
    if relies_on_archive && !index::parse(&current, LoadLimits::default()).links_to(ARCHIVE_FILE) {
        current = append_entry(&current, &archive_link(), Some(ARCHIVE_SECTION));
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
    fix.still_over = index::parse(&fix.index.after, limits).cut_by.is_some();
    fix
}

/// The section the archive's link goes under in an index with sections.
const ARCHIVE_SECTION: &str = "archive";

/// Whether `text` loads whole with [`HEADROOM_PERCENT`] of each limit to spare.
fn fits_with_headroom(text: &str, limits: LoadLimits) -> bool {
    let parsed = index::parse(text, limits);
    let keep = |limit: usize| limit - limit * HEADROOM_PERCENT / 100;
    parsed.cut_by.is_none()
        && parsed.counted_lines <= keep(limits.lines)
        && parsed.counted_size <= keep(limits.size)
}

/// A line taken out of MEMORY.md, with the heading it stood under (for the archive).
#[derive(Debug, Clone)]
struct Taken {
    line: String,
    heading: Option<String>,
}

/// `text` without the lines marked in `remove`, and without the sections that held only
/// those lines (a heading whose entries all went, with its blank lines and its emptied
/// subsections): no empty heading is left behind.
fn without_lines(text: &IndexText, remove: &[bool]) -> (IndexText, Vec<Taken>) {
    let kinds = text.kinds();
    let mut gone: Vec<bool> = remove.to_vec();
    gone.resize(text.lines.len(), false);
    let is_content = |k: &LineKind| !matches!(k, LineKind::Blank | LineKind::Heading);
    for heading in (0..kinds.len()).filter(|&i| kinds[i] == LineKind::Heading) {
        let end = section_end(&text.lines, &kinds, heading);
        let range = heading + 1..end;
        let lost_some = range.clone().any(|i| remove[i]);
        let keeps_some = range.clone().any(|i| is_content(&kinds[i]) && !remove[i]);
        if lost_some && !keeps_some {
            for flag in &mut gone[heading..end] {
                *flag = true;
            }
        }
    }
    let mut taken = Vec::new();
    let mut heading: Option<String> = None;
    let mut out = text.clone();
    out.lines.clear();
    for (i, line) in text.lines.iter().enumerate() {
        if kinds[i] == LineKind::Heading {
            heading = Some(line.trim_end_matches('\r').to_owned());
        }
        if remove.get(i).copied().unwrap_or(false) {
            taken.push(Taken {
                line: line.trim_end_matches('\r').to_owned(),
                heading: heading.clone(),
            });
        }
        if !gone[i] {
            out.lines.push(line.clone());
        }
    }
    (out, taken)
}

/// Moves the entries of the oldest memories into the archive: as few as leave the index
/// loading whole with [`HEADROOM_PERCENT`] to spare, else as few as leave it loading whole,
/// else all of them (what remains past the limit is then not entries).
fn archive_oldest(
    fix: &mut IndexFix,
    archive: Option<&str>,
    topics: &[TopicSummary],
    limits: LoadLimits,
) {
    let mut start = fix.index.after.clone();
    if !index::parse(&start, LoadLimits::default()).links_to(ARCHIVE_FILE) {
        start = append_entry(&start, &archive_link(), Some(ARCHIVE_SECTION));
    }
    let start = IndexText::new(&start);
    let parsed = index::parse(&start.text(), limits);
    let mut candidates: Vec<&TopicSummary> = topics
        .iter()
        .filter(|t| parsed.entries().any(|l| l.entry_file() == Some(&t.file)))
        .collect();
    // Oldest first; no time at all counts as oldest of all.
    candidates.sort_by_key(|t| t.age);
    let after = |count: usize| {
        let moving: Vec<&str> = candidates[..count]
            .iter()
            .map(|t| t.file.as_str())
            .collect();
        let remove: Vec<bool> = parsed
            .lines
            .iter()
            .map(|l| {
                l.load != Load::Stripped && l.entry_file().is_some_and(|f| moving.contains(&f))
            })
            .collect();
        without_lines(&start, &remove)
    };
    let loads_whole = |text: &IndexText| index::parse(&text.text(), limits).cut_by.is_none();
    // Moving more never makes the index longer, so the fewest that fit is a binary search.
    let fewest = |fit: &dyn Fn(usize) -> bool| {
        let counts: Vec<usize> = (1..=candidates.len()).collect();
        counts.get(counts.partition_point(|&n| !fit(n))).copied()
    };
    let count = fewest(&|n| fits_with_headroom(&after(n).0.text(), limits))
        .or_else(|| fewest(&|n| loads_whole(&after(n).0)))
        .unwrap_or(candidates.len());
    let (text, taken) = after(count);
    fix.archived = candidates[..count].iter().map(|t| t.file.clone()).collect();
    fix.index.after = text.text();
    let mut archive_text = match archive {
        Some(text) if !text.is_empty() => {
            let mut text = text.to_owned();
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text
        }
        _ => ARCHIVE_HEAD.to_owned(),
    };
    // The moved lines under the headings they stood under, in their order.
    let mut last_heading: Option<&str> = None;
    for (n, taken) in taken.iter().enumerate() {
        if n == 0 || taken.heading.as_deref() != last_heading {
            if let Some(heading) = &taken.heading {
                archive_text.push('\n');
                archive_text.push_str(heading);
                archive_text.push('\n');
            } else if n == 0 {
                archive_text.push('\n');
            }
            last_heading = taken.heading.as_deref();
        }
        archive_text.push_str(&taken.line);
        archive_text.push('\n');
    }
    fix.archive = Some(TextChange {
        file: ARCHIVE_FILE.into(),
        before: archive.map(str::to_owned),
        after: archive_text,
    });
}
