//! Which words in a memory name a file. A mention is a backtick span or a bare word with a
//! `/`: relative (`src/x.rs`, `./a.md`), home (`~/notes/a.md`) or absolute (`/home/u/a.md`).
//! A bare relative word counts when it starts with `./` or `../` or ends in a file name with
//! an extension; inside backticks any relative path with a `/` does (`src/store`).
//!
//! Not mentions, because they only look like paths: URLs and hosts (`github.com/org/repo`),
//! npm scopes (`@jest/globals`), git refs and branch names (`origin/main`, `feature/x`), MIME
//! types (`application/json`), placeholders (`scripts/FILE.py`, `path/to/x.rs`,
//! `logs/YYYY-MM-DD.md`), globs, Windows paths (`D:/work/x.rs`), and prose (`and/or`). A
//! location suffix names the file: `src/x.rs:42`, `docs/a.md#usage`, `src/x.rs::symbol`.

use std::sync::LazyLock;

use regex::Regex;

use super::has_extension;

static BACKTICKED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"`([^`\n]+)`").expect("a valid literal pattern"));

static BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s(\[\x22'])((?:~/|/|\.{1,2}/)?(?:[A-Za-z0-9_@.+-]+/)+[A-Za-z0-9_@.+-]+)")
        .expect("a valid literal pattern")
});

/// The first folder of a git ref or branch name, not of a project path.
const REF_PREFIXES: [&str; 13] = [
    "origin", "upstream", "refs", "remotes", "heads", "tags", "feature", "feat", "fix", "bugfix",
    "hotfix", "release", "chore",
];

/// MIME top-level types (`application/json`, `image/png`).
const MIME_TYPES: [&str; 9] = [
    "application",
    "audio",
    "font",
    "image",
    "message",
    "model",
    "multipart",
    "text",
    "video",
];

/// Capitalised words that stand for a name to fill in (`scripts/FILE.py`), unlike real
/// capitalised files (`README.md`, `CLAUDE.md`).
const PLACEHOLDERS: [&str; 24] = [
    "FILE",
    "FILENAME",
    "NAME",
    "PATH",
    "DIR",
    "FOLDER",
    "MODULE",
    "PROJECT",
    "PACKAGE",
    "PKG",
    "SLUG",
    "ID",
    "TOPIC",
    "DATE",
    "COMPONENT",
    "FEATURE",
    "SERVICE",
    "APP",
    "TYPE",
    "EXT",
    "X",
    "N",
    "TODO_NAME",
    "SOMETHING",
];

/// Lower-case stand-ins.
const STAND_INS: [&str; 7] = ["foo", "bar", "baz", "qux", "xxx", "yyy", "something"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mention {
    /// Relative to some root (the memory folder, the project, a sub-project).
    Relative(String),
    /// `~/rest`: the path under the home directory, as written after `~/`.
    Home(String),
    /// An absolute path.
    Absolute(String),
}

impl Mention {
    /// The path as the memory writes it.
    pub(crate) fn path(&self) -> String {
        match self {
            Self::Relative(path) | Self::Absolute(path) => path.clone(),
            Self::Home(rest) => format!("~/{rest}"),
        }
    }
}

/// `(byte offset, mention)` of every path mention in `text`, in text order.
pub(crate) fn mentions(text: &str) -> Vec<(usize, Mention)> {
    let mut found: Vec<(usize, Mention)> = Vec::new();
    let mut quoted = Vec::new();
    for caps in BACKTICKED.captures_iter(text) {
        let Some(inner) = caps.get(1) else { continue };
        quoted.push(caps.get(0).map_or(inner.range(), |m| m.range()));
        if let Some(path) = as_mention(inner.as_str(), true) {
            found.push((inner.start(), path));
        }
    }
    for caps in BARE.captures_iter(text) {
        let Some(word) = caps.get(1) else { continue };
        if quoted.iter().any(|q| q.contains(&word.start())) {
            continue;
        }
        if let Some(path) = as_mention(word.as_str(), false) {
            found.push((word.start(), path));
        }
    }
    found.sort_by_key(|(offset, _)| *offset);
    found
}

/// The file `candidate` names, if it names one.
fn as_mention(candidate: &str, quoted: bool) -> Option<Mention> {
    let path = strip_location(candidate);
    if path.is_empty()
        || !path.contains('/')
        || path.contains("://")
        || path.starts_with("//")
        || path.starts_with(['$', '-'])
        || path.contains(|c: char| c.is_whitespace() || "*?{}<>[]|\\=…".contains(c))
        || path.contains("...")
        || is_windows_path(path)
        || is_placeholder(path)
    {
        return None;
    }
    if let Some(rest) = path.strip_prefix("~/") {
        return (!rest.is_empty()).then(|| Mention::Home(rest.to_owned()));
    }
    if path.starts_with('~') {
        // `~user/...`: someone else's home.
        return None;
    }
    if path.starts_with('/') {
        return Some(Mention::Absolute(path.to_owned()));
    }
    let explicit = path.starts_with("./") || path.starts_with("../");
    let segments: Vec<&str> = path.split('/').collect();
    let first = segments[0];
    let extension = has_extension(path);
    let not_a_path = first.starts_with('@')
        // `github.com/org/repo`, `example.org/x`: a host, not a folder.
        || (!first.starts_with('.') && first.contains('.'))
        || (segments.len() == 2 && MIME_TYPES.contains(&first))
        || (!extension && REF_PREFIXES.contains(&first));
    if !explicit && not_a_path {
        return None;
    }
    (quoted || explicit || extension).then(|| Mention::Relative(path.to_owned()))
}

/// `candidate` without trailing punctuation and a location suffix: `src/x.rs:42`,
/// `src/x.rs:42:7`, `src/x.rs:10-20`, `docs/a.md#usage` and `src/x.rs::symbol` name the file.
fn strip_location(candidate: &str) -> &str {
    let trimmed = candidate.trim_end_matches(['.', ',', ';', ':', ')', ']', '!', '?', '\'', '"']);
    let mut path = trimmed.split_once('#').map_or(trimmed, |(p, _)| p);
    path = path.split_once("::").map_or(path, |(p, _)| p);
    for _ in 0..2 {
        if let Some((head, tail)) = path.rsplit_once(':')
            && !tail.is_empty()
            && tail.bytes().all(|b| b.is_ascii_digit() || b == b'-')
        {
            path = head;
        }
    }
    path
}

/// `D:/work/x.rs`, `c:\x`: a Windows drive, never this machine's path.
fn is_windows_path(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.len() > 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

fn is_placeholder(path: &str) -> bool {
    if path.contains("path/to/") || path.contains("YYYY") || path.contains("XXX") {
        return true;
    }
    path.split('/').any(|segment| {
        let stem = segment.split('.').next().unwrap_or(segment);
        PLACEHOLDERS.contains(&stem)
            || STAND_INS.contains(&stem)
            || stem.starts_with("YOUR_")
            || stem.starts_with("your-")
            || stem.starts_with("your_")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        mentions(text).into_iter().map(|(_, m)| m.path()).collect()
    }

    #[test]
    fn path_shaped_words_and_backticks_are_mentions() {
        assert_eq!(
            paths(
                "run `./scripts/test.sh`, see docs/a.md: and src/x.rs:42, `src/store`, \
                 `src/lib.rs::audit`, `src/x.rs:10-20`, ~/notes/a.md and `/home/u/b.md`."
            ),
            [
                "./scripts/test.sh",
                "docs/a.md",
                "src/x.rs",
                "src/store",
                "src/lib.rs",
                "src/x.rs",
                "~/notes/a.md",
                "/home/u/b.md"
            ]
        );
    }

    #[test]
    fn what_only_looks_like_a_path_is_not_a_mention() {
        let text = "see https://x.io/a/b.md and github.com/org/repo.git, `src/*.rs`, and/or \
                    input/output, `cargo test --all`, <dir>/file.md, `@jest/globals`, \
                    @types/node, `origin/main`, `feature/login-form`, `application/json`, \
                    `text/plain`, `scripts/FILE.py`, `src/NAME.rs`, `path/to/x.rs`, \
                    `logs/YYYY-MM-DD.md`, `foo/bar.rs`, `D:/work/app/x.rs`, `C:\\x\\y.rs`, \
                    `~user/x.md`, `src/…/x.rs`, `$HOME/x.md`";
        assert_eq!(paths(text), Vec::<String>::new());
    }

    #[test]
    fn capitalised_real_files_and_explicit_paths_stay_mentions() {
        assert_eq!(
            paths("`docs/README.md`, `./origin/main`, `release/notes.md`, `.claude/CLAUDE.md`"),
            [
                "docs/README.md",
                "./origin/main",
                "release/notes.md",
                ".claude/CLAUDE.md"
            ]
        );
    }
}
