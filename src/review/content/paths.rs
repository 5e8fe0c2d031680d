//! `stale-path`: a file a memory mentions that is no longer under the project root.
//!
//! A mention is a backtick span or a bare word that is path-shaped: it has a `/` and either
//! starts with `./` or `../`, or ends in a file name with an extension (`src/x.rs`,
//! `docs/a.md`). Inside backticks any relative path with a `/` counts (`src/store`). URLs,
//! absolute and home paths, globs and placeholders are not mentions of project files.

use std::collections::HashSet;
use std::path::{Component, Path};
use std::sync::LazyLock;

use regex::Regex;

use super::fix::Fix;
use super::{AuditFinding, Memory, finding, line_at};
use crate::store::Severity;

static BACKTICKED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"`([^`\n]+)`").expect("a valid literal pattern"));

static BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s(\[\x22'])((?:\.{1,2}/)?(?:[A-Za-z0-9_@.+-]+/)+[A-Za-z0-9_@.+-]+)")
        .expect("a valid literal pattern")
});

/// Every mentioned path that does not exist under `root`, once per path per memory.
pub fn stale_paths(memory: &Memory, root: &Path) -> Vec<AuditFinding> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (text, first_line) in memory.texts() {
        for (offset, path) in mentions(text) {
            if !seen.insert(path.clone()) || exists(root, &path) {
                continue;
            }
            let line = line_at(text, offset, first_line);
            out.push(finding(
                memory,
                "stale-path",
                Severity::Warning,
                line,
                format!("mentions {path}, which does not exist under the project root"),
                Some(Fix::OpenInEditor),
            ));
        }
    }
    out
}

/// `(byte offset, path)` of every path mention in `text`, in text order.
fn mentions(text: &str) -> Vec<(usize, String)> {
    let mut found: Vec<(usize, String)> = Vec::new();
    let mut quoted = Vec::new();
    for caps in BACKTICKED.captures_iter(text) {
        let Some(inner) = caps.get(1) else { continue };
        quoted.push(caps.get(0).map_or(inner.range(), |m| m.range()));
        if let Some(path) = as_path(inner.as_str(), true) {
            found.push((inner.start(), path));
        }
    }
    for caps in BARE.captures_iter(text) {
        let Some(word) = caps.get(1) else { continue };
        if quoted.iter().any(|q| q.contains(&word.start())) {
            continue;
        }
        if let Some(path) = as_path(word.as_str(), false) {
            found.push((word.start(), path));
        }
    }
    found.sort();
    found
}

/// The project-relative path `candidate` names, if it names one.
fn as_path(candidate: &str, quoted: bool) -> Option<String> {
    let trimmed = candidate.trim_end_matches(['.', ',', ';', ':', ')', ']', '!', '?', '\'', '"']);
    // `src/x.rs:42`, `src/x.rs:42:7` and `docs/a.md#usage` name the file.
    let mut path = trimmed.split_once('#').map_or(trimmed, |(p, _)| p);
    for _ in 0..2 {
        if let Some((head, tail)) = path.rsplit_once(':')
            && !tail.is_empty()
            && tail.bytes().all(|b| b.is_ascii_digit())
        {
            path = head;
        }
    }
    if path.is_empty()
        || !path.contains('/')
        || path.contains("://")
        || path.starts_with(['/', '~', '$', '-'])
        || path.contains(|c: char| c.is_whitespace() || "*?{}<>[]|\\=".contains(c))
    {
        return None;
    }
    let explicit = path.starts_with("./") || path.starts_with("../");
    let first = path.split('/').next().unwrap_or_default();
    // `github.com/org/repo`, `example.org/x`: a host, not a folder.
    if !explicit && !first.starts_with('.') && first.contains('.') {
        return None;
    }
    let last = path.rsplit('/').next().unwrap_or_default();
    let has_extension = last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            && ext.bytes().any(|b| b.is_ascii_alphabetic())
    });
    (quoted || explicit || has_extension).then(|| path.to_owned())
}

fn exists(root: &Path, path: &str) -> bool {
    let relative = Path::new(path);
    // A path that climbs out of the project is not the project's to judge.
    let mut depth: usize = 0;
    for component in relative.components() {
        match component {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir if depth > 0 => depth -= 1,
            _ => return true,
        }
    }
    root.join(relative).symlink_metadata().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        mentions(text).into_iter().map(|(_, p)| p).collect()
    }

    #[test]
    fn path_shaped_words_and_backticks_are_mentions() {
        assert_eq!(
            paths("run `./scripts/test.sh`, see docs/a.md: and src/x.rs:42, `src/store`."),
            ["./scripts/test.sh", "docs/a.md", "src/x.rs", "src/store"]
        );
    }

    #[test]
    fn urls_hosts_absolute_paths_globs_and_prose_are_not() {
        assert!(
            paths(
                "see https://x.io/a/b.md and github.com/org/repo.git, /etc/hosts, ~/x/y.txt, \
                 `src/*.rs`, and/or input/output, `cargo test --all`, <dir>/file.md"
            )
            .is_empty()
        );
    }
}
