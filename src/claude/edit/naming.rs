//! The file name Claude Code would give a new memory: `<type>_<slug>.md`.

use crate::claude::index::INDEX_FILE;

use crate::claude::index::ARCHIVE_FILE;

/// Longest slug kept, in characters (file names stay well under every file system's limit).
const MAX_SLUG_CHARS: usize = 64;

/// `name` lowercased, every run of characters that are not letters or digits (in any script:
/// CJK names stay CJK) made one `_`, none at either end; `memory` when nothing is left.
pub fn slug(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut pending = false;
    for c in name.chars() {
        if c.is_alphanumeric() {
            if pending && !out.is_empty() {
                out.push('_');
            }
            pending = false;
            out.extend(c.to_lowercase());
        } else {
            pending = true;
        }
    }
    let out: String = out.chars().take(MAX_SLUG_CHARS).collect();
    let out = out.trim_end_matches('_');
    if out.is_empty() {
        "memory".to_owned()
    } else {
        out.to_owned()
    }
}

/// `<type>_<slug>.md` for a new memory (just `<slug>.md` when the slug already starts with the
/// type, as `feedback_commit_style` does), made unique against `existing` (folder-relative
/// files; compared without case, since the folder may be on a case-insensitive file system)
/// by `_2`, `_3`, ... MEMORY.md and the archive are never picked.
pub fn file_name(name: &str, kind: Option<&str>, existing: &[&str]) -> String {
    let slug = slug(name);
    let stem = match kind.map(self::slug) {
        Some(kind) if slug != kind && !slug.starts_with(&format!("{kind}_")) => {
            format!("{kind}_{slug}")
        }
        _ => slug,
    };
    let taken = |candidate: &str| {
        let lower = candidate.to_lowercase();
        [INDEX_FILE, ARCHIVE_FILE]
            .iter()
            .chain(existing)
            .any(|file| file.to_lowercase() == lower)
    };
    let mut candidate = format!("{stem}.md");
    let mut n = 2;
    while taken(&candidate) {
        candidate = format!("{stem}_{n}.md");
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_keep_letters_of_any_script() {
        assert_eq!(slug("Commit style — short"), "commit_style_short");
        assert_eq!(slug("  用户 偏好!! "), "用户_偏好");
        assert_eq!(slug("Ünïcode Straße"), "ünïcode_straße");
        assert_eq!(slug("!!!"), "memory");
        assert_eq!(slug(&"x".repeat(100)).chars().count(), MAX_SLUG_CHARS);
    }

    #[test]
    fn file_names_carry_the_type_once() {
        assert_eq!(
            file_name("Commit style", Some("feedback"), &[]),
            "feedback_commit_style.md"
        );
        assert_eq!(
            file_name("feedback_commit_style", Some("feedback"), &[]),
            "feedback_commit_style.md"
        );
        assert_eq!(file_name("用户偏好", Some("user"), &[]), "user_用户偏好.md");
        assert_eq!(file_name("loose", None, &[]), "loose.md");
    }

    #[test]
    fn collisions_get_a_number_and_ignore_case() {
        let existing = ["user_role.md", "User_Role_2.md", "notes/user_role_3.md"];
        assert_eq!(file_name("role", Some("user"), &existing), "user_role_3.md");
        assert_eq!(file_name("MEMORY", None, &[]), "memory_2.md");
        assert_eq!(file_name("memory archive", None, &[]), "memory_archive.md");
    }
}
