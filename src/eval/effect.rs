//! What approving a proposal would do to the cases: they run against the set as it would be,
//! with the keyword selector, and the verdicts that change are counted. A `.memory` proposal's
//! set is its plan applied to the records; a Claude Code proposal's, its after-images of the
//! topic files.

use super::cases::Case;
use super::metrics::Verdict;
use super::run::{Corpus, run_keyword};
use crate::claude::index::ARCHIVE_FILE;
use crate::claude::index::INDEX_FILE;
use crate::claude::{FileImage, Topic, TopicContent, frontmatter};
use crate::memory::Memory;
use crate::review::Plan;
use crate::store::{StoredRecord, index};

impl Corpus {
    /// The set as it would be after `plan`: an extraction's records appended, a
    /// consolidation's sources replaced by its records. The catalog names each new record's
    /// file after the record (the real name is chosen at commit), which the keyword selector
    /// never reads.
    pub fn after(&self, plan: &Plan) -> Corpus {
        let sources = plan.source_names();
        let mut memories: Vec<Memory> = self
            .memories
            .iter()
            .filter(|m| !sources.contains(&m.name))
            .cloned()
            .collect();
        for record in plan.records() {
            let entry = StoredRecord {
                file: format!("{}.md", record.name()),
                record: record.clone(),
            };
            memories.push(entry.memory(memories.len()));
        }
        let mut catalog = String::new();
        for m in &memories {
            index::push_entry_line(&mut catalog, &m.name, &m.file, m.description());
        }
        Corpus { memories, catalog }
    }

    /// The folder as it would be after `files` (a Claude Code proposal's after-images): each
    /// topic file's text replaced, added (after the others) or removed. The index keeps its
    /// text (approving derives its lines), which the keyword selector never reads.
    pub fn after_files(&self, files: &[FileImage]) -> Corpus {
        let mut memories = self.memories.clone();
        let topics = files
            .iter()
            .filter(|image| image.file != INDEX_FILE && image.file != ARCHIVE_FILE);
        for image in topics {
            let at = memories.iter().position(|m| m.file == image.file);
            let memory = image.after.as_deref().map(|text| {
                Topic {
                    file: image.file.clone(),
                    content: TopicContent::Read(frontmatter::parse(text)),
                    modified: None,
                }
                .memory()
            });
            match (at, memory) {
                (Some(at), Some(memory)) => memories[at] = memory,
                (Some(at), None) => {
                    memories.remove(at);
                }
                (None, Some(memory)) => memories.push(memory),
                (None, None) => {}
            }
        }
        Corpus {
            memories,
            catalog: self.catalog.clone(),
        }
    }
}

/// The cases a change would turn from failing to passing, and from passing to failing
/// (numbered from 1, as `memwb eval ls` lists them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseChanges {
    pub now_pass: Vec<usize>,
    pub now_fail: Vec<usize>,
}

impl CaseChanges {
    /// Runs `cases` on `before` and `after` with the keyword selector and compares.
    pub fn between(before: &Corpus, after: &Corpus, cases: &[Case], k: usize) -> Self {
        let old = run_keyword(before, cases, k);
        let new = run_keyword(after, cases, k);
        let mut changes = Self::default();
        for (i, (old, new)) in old.results.iter().zip(&new.results).enumerate() {
            match (old.verdict(), new.verdict()) {
                (Verdict::Pass, Verdict::Pass) => {}
                (_, Verdict::Pass) => changes.now_pass.push(i + 1),
                (Verdict::Pass, _) => changes.now_fail.push(i + 1),
                _ => {}
            }
        }
        changes
    }

    pub fn is_empty(&self) -> bool {
        self.now_pass.is_empty() && self.now_fail.is_empty()
    }

    /// "approving this changes 2 cases: +1 pass, -1 fail".
    pub fn describe(&self) -> String {
        let count = self.now_pass.len() + self.now_fail.len();
        if count == 0 {
            return "approving this changes no case".into();
        }
        let plural = if count == 1 { "" } else { "s" };
        let mut parts = Vec::new();
        if !self.now_pass.is_empty() {
            parts.push(format!("+{} pass", self.now_pass.len()));
        }
        if !self.now_fail.is_empty() {
            parts.push(format!("-{} fail", self.now_fail.len()));
        }
        format!(
            "approving this changes {count} case{plural}: {}",
            parts.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic_text(name: &str, description: &str) -> String {
        format!("---\nname: {name}\ndescription: {description}\ntype: project\n---\nbody\n")
    }

    fn image(file: &str, before: Option<String>, after: Option<String>) -> FileImage {
        FileImage {
            file: file.into(),
            before,
            after,
        }
    }

    #[test]
    fn after_files_replaces_adds_and_removes_topic_files_and_leaves_the_index_alone() {
        let topic = |file: &str, name: &str, description: &str| Topic {
            file: file.into(),
            content: TopicContent::Read(frontmatter::parse(&topic_text(name, description))),
            modified: None,
        };
        let corpus = Corpus {
            memories: vec![
                topic("a.md", "a", "postgres tests").memory(),
                topic("b.md", "b", "tabs").memory(),
                topic("c.md", "c", "release").memory(),
            ],
            catalog: "- [a](a.md)\n".into(),
        };
        let after = corpus.after_files(&[
            image(
                "a.md",
                Some(topic_text("a", "postgres tests")),
                Some(topic_text("a", "real services")),
            ),
            image("b.md", Some(topic_text("b", "tabs")), None),
            image("d.md", None, Some(topic_text("d", "postgres"))),
            image(INDEX_FILE, None, Some("- [d](d.md)\n".into())),
        ]);
        let names: Vec<&str> = after.memories.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["a", "c", "d"]);
        assert_eq!(after.memories[0].description(), "real services");
        assert_eq!(after.catalog, corpus.catalog);
        let cases = [Case::new("postgres", vec!["a".into()], vec![], None).expect("case")];
        let changes = CaseChanges::between(&corpus, &after, &cases, 5);
        assert_eq!(changes.now_fail, [1]);
    }
}
