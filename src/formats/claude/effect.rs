//! What the evaluation asks of a Claude Code folder beyond reading it: the memories as a
//! proposal's after-images would leave them, and whether the folder's files are still as the
//! journal's newest change left them (the change a regression is blamed on).

use super::ClaudeBackend;
use super::journal::{journal_of, observed};
use crate::claude::index::{ARCHIVE_FILE, INDEX_FILE};
use crate::claude::{FileImage, Topic, TopicContent, frontmatter};
use crate::formats::FormatError;
use crate::memory::Memory;
use crate::review::Proposal;
use crate::review::journal::Entry;
use crate::review::line_change::whole_digest;

impl ClaudeBackend<'_> {
    /// `memories` with each topic file the proposal changes replaced, added (after the
    /// others) or removed. The index's images are passed by: approving derives its lines, and
    /// a memory's place there does not change what the cases select.
    pub(super) fn applied(&self, memories: &[Memory], proposal: &Proposal) -> Vec<Memory> {
        after_images(memories, &proposal.files)
    }

    /// The journal's newest entry when the folder's files are as it left it and `seen` holds
    /// each topic file it wrote as it wrote it (and none it removed).
    pub(super) fn newest_in_place(&self, seen: &[Memory]) -> Result<Option<Entry>, FormatError> {
        let newest = journal_of(self.folder)?.last_entries(1)?.pop();
        Ok(newest.filter(|entry| files_left_as(self, entry) && seen_as_left(seen, entry)))
    }
}

fn after_images(memories: &[Memory], files: &[FileImage]) -> Vec<Memory> {
    let mut after = memories.to_vec();
    let topics = files
        .iter()
        .filter(|image| image.file != INDEX_FILE && image.file != ARCHIVE_FILE);
    for image in topics {
        let at = after.iter().position(|m| m.file == image.file);
        let memory = image
            .after
            .as_deref()
            .map(|text| topic_memory(&image.file, text));
        match (at, memory) {
            (Some(at), Some(memory)) => after[at] = memory,
            (Some(at), None) => {
                after.remove(at);
            }
            (None, Some(memory)) => after.push(memory),
            (None, None) => {}
        }
    }
    after
}

/// Whether the folder's files are as `entry` left them: it touched a file, each after-image
/// is on disk and each deleted file gone. A file whose journaled text was redacted never
/// matches, so the regression is then said to be since the last change.
fn files_left_as(backend: &ClaudeBackend<'_>, entry: &Entry) -> bool {
    if entry.touched_files().is_empty() {
        return false;
    }
    let texts = observed::texts(backend.folder);
    let digest = |text: &String| whole_digest(text);
    entry
        .files
        .iter()
        .all(|image| texts.get(&image.file) == image.after.as_ref())
        && entry
            .lines
            .iter()
            .all(|change| texts.get(&change.file).map(digest).as_ref() == Some(&change.after))
}

/// Whether `seen` (the memories a run read) holds each topic file `entry` wrote as it left it
/// (a file that does not read as a memory, or one it removed, not among them): the run read
/// the folder after the change, not before.
fn seen_as_left(seen: &[Memory], entry: &Entry) -> bool {
    entry
        .files
        .iter()
        .filter(|image| image.file != INDEX_FILE && image.file != ARCHIVE_FILE)
        .all(|image| {
            let left = image
                .after
                .as_deref()
                .map(|text| topic_memory(&image.file, text))
                .filter(|memory| memory.unreadable.is_none());
            let read = seen.iter().find(|memory| memory.file == image.file);
            match (left, read) {
                (None, None) => true,
                (Some(left), Some(read)) => same_content(&left, read),
                _ => false,
            }
        })
}

/// The memory a topic file's text reads as.
fn topic_memory(file: &str, text: &str) -> Memory {
    Topic {
        file: file.to_owned(),
        content: TopicContent::Read(frontmatter::parse(text)),
        modified: None,
    }
    .memory()
}

/// Whether two readings of one topic file hold the same memory (when and where it was read
/// aside).
fn same_content(a: &Memory, b: &Memory) -> bool {
    a.name == b.name
        && a.name_from_file == b.name_from_file
        && a.kind == b.kind
        && a.description == b.description
        && a.body == b.body
        && a.extra == b.extra
        && a.frontmatter == b.frontmatter
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topic_text(name: &str, description: &str) -> String {
        format!("---\nname: {name}\ndescription: {description}\ntype: project\n---\nbody\n")
    }

    fn topic(file: &str, name: &str, description: &str) -> Memory {
        Topic {
            file: file.into(),
            content: TopicContent::Read(frontmatter::parse(&topic_text(name, description))),
            modified: None,
        }
        .memory()
    }

    fn image(file: &str, before: Option<String>, after: Option<String>) -> FileImage {
        FileImage {
            file: file.into(),
            before,
            after,
        }
    }

    #[test]
    fn after_images_replace_add_and_remove_topic_files_and_pass_the_index_by() {
        let memories = [
            topic("a.md", "a", "postgres tests"),
            topic("b.md", "b", "tabs"),
            topic("c.md", "c", "release"),
        ];
        let after = after_images(
            &memories,
            &[
                image(
                    "a.md",
                    Some(topic_text("a", "postgres tests")),
                    Some(topic_text("a", "real services")),
                ),
                image("b.md", Some(topic_text("b", "tabs")), None),
                image("d.md", None, Some(topic_text("d", "postgres"))),
                image(INDEX_FILE, None, Some("- [d](d.md)\n".into())),
            ],
        );
        let names: Vec<&str> = after.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["a", "c", "d"]);
        assert_eq!(after[0].description(), "real services");
    }
}
