//! MEMORY.md kept true when a proposal is approved: its lines are derived from the index as it
//! is at that moment (never from a copy kept with the proposal), so that an approval edits the
//! agent's index and never regenerates it. A new topic file gets an entry, a renamed one its
//! link rewritten in place, a removed one its line taken out.

use crate::claude::edit::{
    append_entry, entry_line, rehook_entries, remove_entries, rename_entries,
};
use crate::claude::frontmatter;
use crate::claude::index::{self, ARCHIVE_FILE, INDEX_FILE, LoadLimits};
use crate::claude::write::FileImage;
use crate::review::proposal::images::{Change, change, topic_name};

/// The files whose changes a journal entry keeps as lines (`review::line_change`): the ones
/// memwb edits line by line, and that grow with the folder.
pub(crate) const LINE_FILES: [&str; 2] = [INDEX_FILE, ARCHIVE_FILE];

/// A removed file and a created one with the same memory name: one memory, moved.
fn renames(files: &[FileImage]) -> Vec<(&FileImage, &FileImage)> {
    let mut pairs = Vec::new();
    for deleted in files.iter().filter(|f| change(f) == Change::Delete) {
        let name = topic_name(&deleted.file, deleted.before.as_deref().unwrap_or(""));
        if let Some(created) = files.iter().find(|f| {
            change(f) == Change::Create
                && topic_name(&f.file, f.after.as_deref().unwrap_or("")) == name
                && !pairs
                    .iter()
                    .any(|(_, c): &(&FileImage, &FileImage)| c.file == f.file)
        }) {
            pairs.push((deleted, created));
        }
    }
    pairs
}

/// MEMORY.md after `files` are written, from `index` (its text now; `None`: there is none).
/// `None` when it stays as it is, or when the proposal writes MEMORY.md itself.
pub fn derived_index(index: Option<&str>, files: &[FileImage]) -> Option<String> {
    if files.iter().any(|f| f.file == INDEX_FILE) {
        return None;
    }
    let original = index.unwrap_or("");
    let mut text = original.to_owned();
    let pairs = renames(files);
    let renamed = |f: &FileImage| {
        pairs
            .iter()
            .any(|(d, c)| d.file == f.file || c.file == f.file)
    };
    for (deleted, created) in &pairs {
        text = if links_to(&text, &deleted.file) {
            let name =
                |f: &FileImage, t: &Option<String>| topic_name(&f.file, t.as_deref().unwrap_or(""));
            rename_entries(
                &text,
                &deleted.file,
                &created.file,
                &name(deleted, &deleted.before),
                &name(created, &created.after),
            )
        } else {
            append(&text, created)
        };
    }
    for image in files.iter().filter(|f| !renamed(f)) {
        text = match change(image) {
            Change::Delete => remove_entries(&text, &image.file),
            Change::Create if !links_to(&text, &image.file) => append(&text, image),
            Change::Create => text,
            Change::Edit => follow_edit(&text, image),
        };
    }
    (text != original).then_some(text)
}

fn links_to(index: &str, file: &str) -> bool {
    index::parse(index, LoadLimits::default()).links_to(file)
}

/// A new file's entry under the heading of its type.
fn append(index: &str, image: &FileImage) -> String {
    let text = image.after.as_deref().unwrap_or("");
    let parsed = frontmatter::parse(text);
    let line = entry_line(
        &topic_name(&image.file, text),
        &image.file,
        parsed.field("description").unwrap_or(""),
    );
    append_entry(index, &line, parsed.kind())
}

/// An edited file's entry: its title follows a new name, its hook a new description.
fn follow_edit(index: &str, image: &FileImage) -> String {
    let (before, after) = (
        image.before.as_deref().unwrap_or(""),
        image.after.as_deref().unwrap_or(""),
    );
    let (old_name, new_name) = (
        topic_name(&image.file, before),
        topic_name(&image.file, after),
    );
    let mut out = rename_entries(index, &image.file, &image.file, &old_name, &new_name);
    let describe = |text: &str| {
        frontmatter::parse(text)
            .field("description")
            .map(str::to_owned)
    };
    if let (Some(old), Some(new)) = (describe(before), describe(after)) {
        out = rehook_entries(&out, &image.file, &old, &new);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(file: &str, before: Option<&str>, after: Option<&str>) -> FileImage {
        FileImage {
            file: file.into(),
            before: before.map(Into::into),
            after: after.map(Into::into),
        }
    }

    const INDEX: &str = "# Memory\n\n## User\n- [role](user_role.md) — leads\n\n## Feedback\n- [tabs](feedback_tabs.md) — tabs\n\nfree text";

    #[test]
    fn a_new_file_gets_an_entry_under_its_type() {
        let new = "---\nname: pr size\ndescription: small PRs\ntype: user\n---\nx\n";
        let out = derived_index(Some(INDEX), &[image("user_pr.md", None, Some(new))]).unwrap();
        assert_eq!(
            out,
            "# Memory\n\n## User\n- [role](user_role.md) — leads\n- [pr size](user_pr.md) — small PRs\n\n## Feedback\n- [tabs](feedback_tabs.md) — tabs\n\nfree text"
        );
        let untyped = derived_index(None, &[image("a b.md", None, Some("text"))]).unwrap();
        assert_eq!(untyped, "- [a b](a%20b.md)\n");
    }

    #[test]
    fn a_removal_takes_its_line_and_a_rename_rewrites_its_link() {
        let gone =
            derived_index(Some(INDEX), &[image("feedback_tabs.md", Some("x"), None)]).unwrap();
        assert!(!gone.contains("feedback_tabs.md"), "{gone}");
        assert!(gone.ends_with("## Feedback\n\nfree text"), "{gone}");
        let role = "---\nname: role\n---\nx\n";
        let moved = derived_index(
            Some(INDEX),
            &[
                image("user_role.md", Some(role), None),
                image("notes/role.md", None, Some(role)),
            ],
        )
        .unwrap();
        assert_eq!(moved, INDEX.replace("(user_role.md)", "(notes/role.md)"));
    }

    #[test]
    fn an_edit_or_a_proposal_of_its_own_index_leaves_the_lines() {
        assert_eq!(
            derived_index(Some(INDEX), &[image("user_role.md", Some("a"), Some("b"))]),
            None
        );
        let own = [
            image("x.md", None, Some("x")),
            image("MEMORY.md", Some(INDEX), Some("new")),
        ];
        assert_eq!(derived_index(Some(INDEX), &own), None);
    }
}
