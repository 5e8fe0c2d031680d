//! MEMORY.md kept true when a proposal is approved: its lines are derived from the index as it
//! is at that moment (never from a copy kept with the proposal), so that an approval edits the
//! agent's index and never regenerates it. A new topic file gets an entry, a renamed one its
//! link rewritten in place, a removed one its line taken out.

use crate::claude::index::INDEX_FILE;
use crate::claude::write::FileImage;
use crate::review::proposal::images::{Change, change, topic_name};

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
        text = match rewrite_link(&text, &deleted.file, &created.file) {
            Some(rewritten) => rewritten,
            None => append_entry(&text, created),
        };
    }
    for image in files.iter().filter(|f| !renamed(f)) {
        text = match change(image) {
            Change::Delete => remove_entry(&text, &image.file),
            Change::Create if !links_to(&text, &image.file) => append_entry(&text, image),
            Change::Create | Change::Edit => text,
        };
    }
    (text != original).then_some(text)
}

// The line edits themselves. Until cc-text's `claude::edit` lands these are kept here, small
// and on the parsed index; they give way to its functions.

use crate::claude::frontmatter;
use crate::claude::index::{self, LineKind, LoadLimits};

fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

fn entry_lines(text: &str) -> Vec<(usize, Option<String>)> {
    index::parse(text, LoadLimits::default())
        .lines
        .into_iter()
        .map(|l| (l.number - 1, l.entry_file().map(str::to_owned)))
        .collect()
}

fn links_to(text: &str, file: &str) -> bool {
    entry_lines(text)
        .iter()
        .any(|(_, f)| f.as_deref() == Some(file))
}

fn remove_entry(text: &str, file: &str) -> String {
    let drop: Vec<usize> = entry_lines(text)
        .into_iter()
        .filter(|(_, f)| f.as_deref() == Some(file))
        .map(|(n, _)| n)
        .collect();
    lines(text)
        .into_iter()
        .enumerate()
        .filter(|(n, _)| !drop.contains(n))
        .map(|(_, l)| l)
        .collect()
}

fn rewrite_link(text: &str, old: &str, new: &str) -> Option<String> {
    let at: Vec<usize> = entry_lines(text)
        .into_iter()
        .filter(|(_, f)| f.as_deref() == Some(old))
        .map(|(n, _)| n)
        .collect();
    if at.is_empty() {
        return None;
    }
    Some(
        lines(text)
            .into_iter()
            .enumerate()
            .map(|(n, l)| {
                if at.contains(&n) {
                    l.replacen(&format!("]({old})"), &format!("]({})", link_target(new)), 1)
                } else {
                    l.to_owned()
                }
            })
            .collect(),
    )
}

fn link_target(file: &str) -> String {
    if file.contains([' ', '(', ')']) {
        format!("<{file}>")
    } else {
        file.to_owned()
    }
}

fn append_entry(text: &str, image: &FileImage) -> String {
    let after = image.after.as_deref().unwrap_or("");
    let parsed = frontmatter::parse(after);
    let name = topic_name(&image.file, after);
    let line = match parsed.field("description") {
        Some(d) if !d.trim().is_empty() => {
            format!("- [{name}]({}) — {d}\n", link_target(&image.file))
        }
        _ => format!("- [{name}]({})\n", link_target(&image.file)),
    };
    let mut all: Vec<String> = lines(text).into_iter().map(str::to_owned).collect();
    let parsed_index = index::parse(text, LoadLimits::default());
    let heading = parsed.kind().and_then(|kind| {
        parsed_index.lines.iter().position(|l| {
            l.kind == LineKind::Heading
                && l.text
                    .trim_start_matches('#')
                    .trim()
                    .eq_ignore_ascii_case(kind)
        })
    });
    let at = match heading {
        Some(h) => {
            let end = parsed_index.lines[h + 1..]
                .iter()
                .position(|l| l.kind == LineKind::Heading)
                .map_or(parsed_index.lines.len(), |p| h + 1 + p);
            let last_entry = parsed_index.lines[h..end]
                .iter()
                .rposition(|l| l.is_entry())
                .map_or(h, |p| h + p);
            last_entry + 1
        }
        None => all.len(),
    };
    let at = at.min(all.len());
    if at == all.len()
        && let Some(last) = all.last_mut()
        && !last.ends_with('\n')
    {
        last.push('\n');
    }
    all.insert(at, line);
    all.concat()
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
        assert_eq!(untyped, "- [a b](<a b.md>)\n");
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
