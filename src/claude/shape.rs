//! Whether a folder looks like Claude Code's auto memory, whatever its name (the format's own
//! sign, which `folder::sets` asks when it walks a root): it holds a
//! MEMORY.md, or topic files whose frontmatter has one of the four types. This is how
//! `memory/`, `claude-memory/`, `.claude/memory/`, `docs/memory/` copies and folders moved by
//! `autoMemoryDirectory` are found under a root.

use std::fs;
use std::path::Path;

use crate::claude::frontmatter::{self, KNOWN_TYPES};
use crate::claude::fsread::read_regular;
use crate::claude::index::INDEX_FILE;

/// How many `*.md` files of one folder are read looking for a typed topic file.
const FILES_READ: usize = 64;
/// A larger `*.md` file is not read for its type (topic files are small).
const TOPIC_BYTES: usize = 256 * 1024;

/// Whether `dir` holds a MEMORY.md (a regular file, not a link).
pub(crate) fn has_index(dir: &Path) -> bool {
    fs::symlink_metadata(dir.join(INDEX_FILE)).is_ok_and(|m| m.file_type().is_file())
}

/// Whether `dir` holds a MEMORY.md or a topic file of one of the four types (`type` at the top
/// level or under `metadata:`, as Claude Code writes it). Reads a bounded number of files.
pub(crate) fn looks_like_memory(dir: &Path) -> bool {
    if has_index(dir) {
        return true;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    let mut names: Vec<_> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    names.sort();
    names.iter().take(FILES_READ).any(|path| typed_topic(path))
}

fn typed_topic(path: &Path) -> bool {
    let Ok(Some(bytes)) = read_regular(path, TOPIC_BYTES) else {
        return false;
    };
    if !bytes.starts_with(b"---") {
        return false;
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return false;
    };
    frontmatter::parse(&text)
        .kind()
        .is_some_and(|kind| KNOWN_TYPES.contains(&kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_topic_file_or_an_index_makes_a_memory_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path();
        fs::write(path.join("README.md"), "# Docs\n").expect("write");
        fs::write(
            path.join("guide.md"),
            "---\ntitle: Guide\ntype: howto\n---\n",
        )
        .expect("write");
        assert!(!looks_like_memory(path), "documentation is not memory");
        fs::write(
            path.join("user_role.md"),
            "---\nname: role\nmetadata:\n  type: user\n---\nbody\n",
        )
        .expect("write");
        assert!(looks_like_memory(path), "type under metadata: counts");
        let other = tempfile::tempdir().expect("temp dir");
        fs::write(other.path().join("MEMORY.md"), "").expect("write");
        assert!(looks_like_memory(other.path()));
    }
}
