//! What a Claude Code folder refuses in a proposal's file images, at filing and again before
//! applying one as kept: only Markdown files inside the folder, each once, within the write
//! engine's size limit, and never removing the index.

use std::collections::HashSet;

use crate::change::FileImage;
use crate::claude::index::INDEX_FILE;
use crate::claude::write::size_rule;

/// Why a file path cannot be in a proposal: it must name a Markdown file inside the folder
/// (relative, `/`-separated, no `..`, no hidden component).
pub(crate) fn path_rule(file: &str) -> Option<&'static str> {
    if file.is_empty() || file.starts_with('/') || file.contains('\\') || file.contains('\0') {
        return Some("it must be a path relative to the folder");
    }
    if file
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == ".." || part.starts_with('.'))
    {
        return Some("it must stay inside the folder, with no empty, `..` or hidden component");
    }
    if !file.ends_with(".md") {
        return Some("only Markdown files (*.md) are memories");
    }
    None
}

/// Why `files` cannot be filed as a proposal, if they cannot.
pub(crate) fn filing_rule(files: &[FileImage]) -> Option<String> {
    rule(files, false)
}

/// Why a filed proposal's `files` cannot be applied, if they cannot. As kept, a redaction's
/// before image is redacted too, so it may equal its after image (the file as it is now still
/// holds the credential).
pub(crate) fn stored_rule(files: &[FileImage]) -> Option<String> {
    rule(files, true)
}

fn rule(files: &[FileImage], stored: bool) -> Option<String> {
    if files.is_empty() {
        return Some("a proposal needs at least one file".into());
    }
    let mut seen = HashSet::new();
    for image in files {
        if let Some(rule) = path_rule(&image.file) {
            return Some(format!("file {:?}: {rule}", image.file));
        }
        if !seen.insert(image.file.as_str()) {
            return Some(format!("file {:?} appears twice", image.file));
        }
        if let Some(rule) = image.after.as_deref().and_then(size_rule) {
            return Some(format!("file {:?}: {rule}", image.file));
        }
        match (&image.before, &image.after) {
            (None, None) => {
                return Some(format!(
                    "file {:?} has neither a before nor an after",
                    image.file
                ));
            }
            (Some(before), Some(after)) if before == after && !stored => {
                return Some(format!("file {:?} is not changed", image.file));
            }
            (_, None) if image.file == INDEX_FILE => {
                return Some(format!("{INDEX_FILE} cannot be removed"));
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::proposal::images::tests::image;

    #[test]
    fn bad_files_are_refused_at_filing() {
        assert!(filing_rule(&[]).is_some());
        for bad in [
            "../x.md",
            "/etc/x.md",
            "a/./b.md",
            ".hidden/x.md",
            "x.txt",
            "a//b.md",
        ] {
            let rule = filing_rule(&[image(bad, None, Some("x"))]);
            assert!(rule.is_some(), "{bad}");
        }
        assert!(filing_rule(&[image("a.md", Some("x"), Some("x"))]).is_some());
        assert!(filing_rule(&[image("a.md", None, None)]).is_some());
        assert!(filing_rule(&[image("MEMORY.md", Some("x"), None)]).is_some());
        let twice = [
            image("a.md", None, Some("x")),
            image("a.md", None, Some("y")),
        ];
        assert_eq!(filing_rule(&twice).unwrap(), "file \"a.md\" appears twice");
        assert_eq!(filing_rule(&[image("notes/a b.md", None, Some("x"))]), None);
    }
}
