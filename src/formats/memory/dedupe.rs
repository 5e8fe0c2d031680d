//! Near-duplicate records of a `.memory` set, grouped by `review::dedupe`'s neutral
//! similarity, each group with a merged draft for the reviewer to edit, and whether a group
//! is already filed.

use std::collections::BTreeSet;

use crate::review::dedupe::similar_groups;
use crate::review::proposal::{Kind, Proposal, ProposalStatus};
use crate::session::Plan;
use crate::store::{MemorySet, Record};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// In manifest order.
    pub sources: Vec<Record>,
    pub shared_words: Vec<String>,
    pub draft: Record,
}

/// Groups of two or more near-duplicates, in manifest order of their first record.
pub fn find_groups(set: &MemorySet) -> Vec<Group> {
    let records: Vec<&Record> = set.records().collect();
    similar_groups(
        records
            .iter()
            .map(|r| (r.name(), r.description(), r.body())),
    )
    .into_iter()
    .map(|similar| {
        let sources: Vec<Record> = similar
            .members
            .iter()
            .map(|&i| records[i].clone())
            .collect();
        Group {
            draft: merged_draft(&sources),
            shared_words: similar.shared_words,
            sources,
        }
    })
    .collect()
}

/// The first record's name and type, the longest description, and every distinct body
/// paragraph in order; if that breaks the size budget, the first body with a note.
pub(crate) fn merged_draft(sources: &[Record]) -> Record {
    let first = &sources[0];
    let description = sources
        .iter()
        .map(Record::description)
        .max_by_key(|d| d.chars().count())
        .unwrap_or(first.description());
    let mut paragraphs: Vec<&str> = Vec::new();
    for source in sources {
        for paragraph in source.body().split("\n\n") {
            if !paragraphs.iter().any(|p| p.trim() == paragraph.trim()) {
                paragraphs.push(paragraph);
            }
        }
    }
    Record::new(
        first.name(),
        first.kind(),
        description,
        paragraphs.join("\n\n"),
    )
    .unwrap_or_else(|_| {
        let names: Vec<&str> = sources.iter().map(Record::name).collect();
        let noted = format!("{}\n\n(merged from: {})", first.body(), names.join(", "));
        Record::new(first.name(), first.kind(), description, noted)
            .unwrap_or_else(|_| first.clone())
    })
}

/// Whether a consolidation `plan` (a dedupe group's, made from `current`) is already filed: a
/// pending proposal replaces exactly the same records, or a rejected one would have replaced
/// them as they are now (a person decided against merging those records; once one of them is
/// changed, the group is proposed again). Returns that proposal, so that the caller can say
/// which.
pub(crate) fn already_filed<'a>(
    plan: &Plan,
    proposals: &'a [Proposal],
    current: &MemorySet,
) -> Option<&'a Proposal> {
    let names = |plan: &Plan| -> BTreeSet<String> { plan.source_names().iter().cloned().collect() };
    let wanted = names(plan);
    if wanted.is_empty() {
        return None;
    }
    proposals.iter().find(|p| {
        let blocks = match p.status {
            ProposalStatus::Pending => true,
            ProposalStatus::Rejected => super::journal::base_is_current(p, current),
            ProposalStatus::Approved => false,
        };
        p.kind == Kind::Consolidation
            && blocks
            && p.plan().is_ok_and(|filed| names(&filed) == wanted)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{MemoryType, StoredRecord};

    fn set(records: &[(&str, &str, &str)]) -> MemorySet {
        MemorySet {
            entries: records
                .iter()
                .map(|(name, description, body)| StoredRecord {
                    file: format!("{name}-0.md"),
                    record: Record::new(*name, MemoryType::User, *description, *body).unwrap(),
                })
                .collect(),
        }
    }

    #[test]
    fn groups_records_sharing_most_words_in_english_and_chinese() {
        let groups = find_groups(&set(&[
            (
                "tabs-indentation",
                "User prefers tabs for indentation",
                "Use tabs.",
            ),
            ("database-rule", "Tests use the real database", "No mocks."),
            (
                "indentation-tabs",
                "Indentation with tabs preferred by user",
                "Tabs, not spaces.\n\nUse tabs.",
            ),
            ("db-zh", "生产数据库约束", "真实数据库。"),
            ("db-zh-2", "生产数据库的约束", "不要模拟。"),
        ]));
        assert_eq!(groups.len(), 2);
        let names: Vec<&str> = groups[0].sources.iter().map(Record::name).collect();
        assert_eq!(names, ["tabs-indentation", "indentation-tabs"]);
        assert_eq!(groups[0].draft.name(), "tabs-indentation");
        assert_eq!(
            groups[0].draft.description(),
            "Indentation with tabs preferred by user"
        );
        assert_eq!(groups[0].draft.body(), "Use tabs.\n\nTabs, not spaces.");
        assert!(groups[0].shared_words.contains(&"tabs".to_owned()));
        let zh: Vec<&str> = groups[1].sources.iter().map(Record::name).collect();
        assert_eq!(zh, ["db-zh", "db-zh-2"]);
    }

    #[test]
    fn unrelated_records_are_left_alone() {
        assert!(
            find_groups(&set(&[
                ("alpha", "first thing", "a"),
                ("beta", "second matter", "b")
            ]))
            .is_empty()
        );
    }
}
