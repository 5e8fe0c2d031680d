//! MEMORY.md as Claude Code has it: written by the agent, parsed line by line, and cut where
//! Claude Code stops loading it.
//!
//! What loads is computed by `super::loader` exactly as the client does it; here each line of
//! the file learns whether it loads, is dropped past a limit, or is stripped before counting.

use std::collections::BTreeSet;
use std::path::{Component, Path};

use super::loader;
pub use super::loader::{CutBy, LoadLimits, SizeUnit};

pub const INDEX_FILE: &str = "MEMORY.md";
/// The archive `index --fix` moves entries into, linked from MEMORY.md.
pub const ARCHIVE_FILE: &str = "MEMORY-archive.md";

/// Lines over this many characters get `index-line-long`.
pub const LONG_LINE: usize = 150;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    Blank,
    Heading,
    /// `- [title](target) — hook`, with any dash (or none) before the hook.
    Entry {
        title: String,
        target: String,
        hook: String,
        /// The target as a path relative to the folder, when it stays inside it.
        file: Option<String>,
    },
    /// Layout that holds nothing: a thematic break (`---`, `***`) or a line that is only bold
    /// text (`**Reference**`, `**Feedback:**`), which agents write as pseudo-headings.
    Decoration,
    /// Anything else: memory content written into the index.
    Text,
    /// Part of a leading frontmatter block (stripped before loading).
    Frontmatter,
    /// Part of a block-level HTML comment (stripped before loading).
    Comment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Load {
    Loaded,
    /// Past a load limit.
    Dropped,
    /// Stripped before counting, so never loaded and never counted.
    Stripped,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexLine {
    /// 1-based line in MEMORY.md.
    pub number: usize,
    pub text: String,
    pub kind: LineKind,
    pub load: Load,
}

impl IndexLine {
    pub fn entry_file(&self) -> Option<&str> {
        match &self.kind {
            LineKind::Entry { file, .. } => file.as_deref(),
            _ => None,
        }
    }

    pub fn is_entry(&self) -> bool {
        matches!(self.kind, LineKind::Entry { .. })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedIndex {
    pub lines: Vec<IndexLine>,
    pub limits: LoadLimits,
    /// Lines and size (in `limits.unit`) of the text after stripping.
    pub counted_lines: usize,
    pub counted_size: usize,
    pub cut_by: Option<CutBy>,
    /// Index in `lines` of the first line not loaded whole.
    cut_line: Option<usize>,
    loaded: String,
    /// Every file [`ParsedIndex::links_to`] answers for, gathered once when parsed: asked for
    /// each topic file of a folder, a scan of every line each time was quadratic.
    linked: BTreeSet<String>,
}

impl ParsedIndex {
    pub fn entries(&self) -> impl Iterator<Item = &IndexLine> {
        self.lines.iter().filter(|l| l.is_entry())
    }

    pub fn dropped_entries(&self) -> impl Iterator<Item = &IndexLine> {
        self.entries().filter(|l| l.load == Load::Dropped)
    }

    /// The text Claude Code loads (before the warning it appends when it cuts).
    pub fn loaded_text(&self) -> String {
        self.loaded.clone()
    }

    /// Index of the first line not loaded whole, where the "not loaded past here" rule goes.
    pub fn cut_at(&self) -> Option<usize> {
        self.cut_line
    }

    /// Whether MEMORY.md links to `file` (folder-relative): from an entry, or from any Markdown
    /// link in a line that is not stripped (`자세한 내용: [x.md](./x.md)`, "See [x](x.md) for
    /// details"). What counts as listed for `index-unlisted` and for `index --fix` alike.
    pub fn links_to(&self, file: &str) -> bool {
        self.linked.contains(file)
    }
}

/// The folder-relative files of every inline Markdown link `[text](target)` in `line`.
pub fn link_targets(line: &str) -> impl Iterator<Item = String> + '_ {
    line.match_indices('[').filter_map(move |(open, _)| {
        let rest = &line[open + 1..];
        let close = find_closing_bracket(rest)?;
        let target = rest[close + 1..].strip_prefix('(')?;
        let end = target.find(')')?;
        // `[x](a.md "title")`: the title is not part of the target.
        let target = target[..end].split_whitespace().next()?;
        resolve_target(target)
    })
}

/// Parses MEMORY.md's text and applies `limits` as Claude Code's loader does
/// (`super::loader`).
pub fn parse(text: &str, limits: LoadLimits) -> ParsedIndex {
    let loaded = loader::load(text, limits);
    let mut counted_from: Vec<Option<usize>> = Vec::new();
    for (n, line) in loaded.counted.iter().enumerate() {
        if counted_from.len() <= line.source {
            counted_from.resize(line.source + 1, None);
        }
        counted_from[line.source] = Some(n);
    }
    let mut lines = Vec::new();
    let mut cut_line = None;
    let mut offset = 0;
    let body = text.strip_suffix('\n').unwrap_or(text);
    let file_lines = if text.is_empty() {
        None
    } else {
        Some(body.split('\n'))
    };
    for (i, line) in file_lines.into_iter().flatten().enumerate() {
        let counted = counted_from
            .get(i)
            .copied()
            .flatten()
            .map(|n| &loaded.counted[n]);
        let (kind, load) = match counted {
            Some(c) => {
                let load = if c.loaded.is_some() {
                    Load::Loaded
                } else {
                    Load::Dropped
                };
                if cut_line.is_none()
                    && (load == Load::Dropped || c.loaded.is_some_and(|end| end < c.text.len()))
                {
                    cut_line = Some(i);
                }
                (classify(&c.text), load)
            }
            None => (
                stripped_kind(&loaded.gone[offset..offset + line.len()]),
                Load::Stripped,
            ),
        };
        lines.push(IndexLine {
            number: i + 1,
            text: line.to_owned(),
            kind,
            load,
        });
        offset += line.len() + 1;
    }
    let linked = lines
        .iter()
        .filter(|l| l.load != Load::Stripped)
        .flat_map(|l| {
            l.entry_file()
                .map(str::to_owned)
                .into_iter()
                .chain(link_targets(&l.text))
        })
        .collect();
    ParsedIndex {
        linked,
        lines,
        limits,
        counted_lines: loaded.counted.len(),
        counted_size: loaded.counted_size,
        cut_by: loaded.cut_by,
        cut_line,
        loaded: loaded.text(),
    }
}

/// What a line that is not counted at all was.
fn stripped_kind(gone: &[loader::Gone]) -> LineKind {
    if gone.contains(&loader::Gone::Frontmatter) {
        LineKind::Frontmatter
    } else if gone.contains(&loader::Gone::Comment) {
        LineKind::Comment
    } else {
        LineKind::Blank
    }
}

fn classify(line: &str) -> LineKind {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return LineKind::Blank;
    }
    if trimmed.starts_with('#') {
        return LineKind::Heading;
    }
    if is_decoration(trimmed) {
        return LineKind::Decoration;
    }
    entry(trimmed).unwrap_or(LineKind::Text)
}

/// A thematic break (three or more of one of `-`, `*`, `_`, spaces allowed between), or a line
/// that is only bold text without a link: `**Reference**`, `__Notes__`, `**Feedback:**`.
fn is_decoration(line: &str) -> bool {
    let marks: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    let rule = marks.len() >= 3
        && ['-', '*', '_']
            .iter()
            .any(|&m| marks.chars().all(|c| c == m));
    let bold = ["**", "__"].iter().any(|wrap| {
        let label = line.trim_end_matches(':');
        label
            .strip_prefix(wrap)
            .and_then(|l| l.strip_suffix(wrap))
            .is_some_and(|inner| {
                let inner = inner.trim_end_matches(':').trim();
                !inner.is_empty() && !inner.contains(wrap) && !inner.contains("](")
            })
    });
    rule || bold
}

/// `- [title](target) <dash> hook` (list marker `-`, `*` or `+`).
fn entry(line: &str) -> Option<LineKind> {
    let rest = line.strip_prefix(['-', '*', '+'])?.trim_start();
    // `- **[title](target)** — hook`: the bold around the link is layout.
    let bold = ["**", "__"].into_iter().find(|w| rest.starts_with(w));
    let rest = rest.strip_prefix(bold.unwrap_or("")).unwrap_or(rest);
    let rest = rest.strip_prefix('[')?;
    let close = find_closing_bracket(rest)?;
    let title = &rest[..close];
    let rest = rest[close + 1..].strip_prefix('(')?;
    let end = rest.find(')')?;
    let target = rest[..end].trim();
    let after = &rest[end + 1..];
    let after = bold.and_then(|w| after.strip_prefix(w)).unwrap_or(after);
    let hook = after
        .trim_start()
        .trim_start_matches(['-', '\u{2013}', '\u{2014}', ':'])
        .trim();
    Some(LineKind::Entry {
        title: title.to_owned(),
        target: target.to_owned(),
        hook: hook.to_owned(),
        file: resolve_target(target),
    })
}

/// The `]` that closes the title, allowing nested `[...]` inside it.
pub(crate) fn find_closing_bracket(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth == 0 => return Some(i),
            ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// A link target as a folder-relative path (`./a.md`, `<a b.md>`, `a.md#part` are `a.md`), or
/// `None` for a URL or a path that leaves the folder.
pub fn resolve_target(target: &str) -> Option<String> {
    let target = target
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(target);
    let target = target.split('#').next().unwrap_or("");
    if target.is_empty() || target.contains("://") || target.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(target);
    let mut parts: Vec<String> = Vec::new();
    for component in Path::new(&decoded).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?.to_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// `%20` and friends, as Markdown links write spaces; invalid escapes stay as written.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(lines: usize, size: usize, unit: SizeUnit) -> LoadLimits {
        LoadLimits { lines, size, unit }
    }

    #[test]
    fn lines_are_classified() {
        let index = parse(
            "# T\n\n- [a](a.md) — hook\n* [b c](./sub/b.md) - x\ncontent\n<!-- c\nstill -->\n",
            LoadLimits::default(),
        );
        let kinds: Vec<_> = index.lines.iter().map(|l| &l.kind).collect();
        assert_eq!(kinds[0], &LineKind::Heading);
        assert_eq!(kinds[1], &LineKind::Blank);
        assert_eq!(index.lines[2].entry_file(), Some("a.md"));
        assert_eq!(index.lines[3].entry_file(), Some("sub/b.md"));
        assert_eq!(kinds[4], &LineKind::Text);
        assert_eq!(kinds[5], &LineKind::Comment);
        assert_eq!(kinds[6], &LineKind::Comment);
        assert_eq!(index.counted_lines, 5);
    }

    #[test]
    fn stripped_lines_do_not_count() {
        let text = "---\nx: 1\n---\n<!-- a -->\none\ntwo\nthree\n";
        let index = parse(text, limits(2, 1000, SizeUnit::Bytes));
        assert_eq!(index.loaded_text(), "one\ntwo");
        assert_eq!(index.cut_by, Some(CutBy::Lines));
        assert_eq!(index.cut_at(), Some(6));
    }

    #[test]
    fn size_cut_drops_the_line_it_falls_inside() {
        // "ab\ncd\nef": the second line ends at 5; a limit of 6 keeps two lines, 4 keeps one.
        let index = parse("ab\ncd\nef", limits(200, 6, SizeUnit::Bytes));
        assert_eq!(index.loaded_text(), "ab\ncd");
        assert_eq!(index.cut_by, Some(CutBy::Size));
        assert_eq!(
            parse("ab\ncd\nef", limits(200, 4, SizeUnit::Bytes)).loaded_text(),
            "ab"
        );
        assert_eq!(
            parse("ab\ncd\nef", limits(200, 8, SizeUnit::Bytes)).cut_by,
            None
        );
    }

    #[test]
    fn units_differ_on_wide_text() {
        let text = "中文\nab";
        assert_eq!(parse(text, limits(200, 5, SizeUnit::Utf16)).cut_by, None);
        // The first line alone is over the limit: its first units load, as in the client.
        assert_eq!(
            parse(text, limits(200, 5, SizeUnit::Bytes)).loaded_text(),
            "中"
        );
    }

    #[test]
    fn prose_links_list_a_file_as_entries_do() {
        let index = parse(
            "자세한 내용: [x.md](./x.md)\nSee [rules](sub/r%20s.md \"t\") and [y](y.md#p) for details\n<!-- [z](z.md) -->\n- [e](e.md) - hook [w](https://w.io/w.md)\n",
            LoadLimits::default(),
        );
        for file in ["x.md", "sub/r s.md", "y.md", "e.md"] {
            assert!(index.links_to(file), "{file}");
        }
        // A link in a stripped comment or to a URL lists nothing.
        assert!(!index.links_to("z.md"));
        assert!(!index.links_to("w.md"));
        assert_eq!(index.lines[0].kind, LineKind::Text);
    }

    #[test]
    fn rules_and_bold_labels_are_layout_and_bold_links_are_entries() {
        let text = "a\n\n---\n* * *\n___\n**Reference**\n__Notes:__\n**Feedback**:\n- **[Review](review.md)** — short\n**Note**: ship on Fridays\n**a** and **b**\n**[x](x.md)**\n--\n";
        let kinds: Vec<LineKind> = parse(text, LoadLimits::default())
            .lines
            .into_iter()
            .map(|l| l.kind)
            .collect();
        assert_eq!(kinds[2..8], [const { LineKind::Decoration }; 6]);
        assert_eq!(
            kinds[8],
            LineKind::Entry {
                title: "Review".into(),
                target: "review.md".into(),
                hook: "short".into(),
                file: Some("review.md".into()),
            }
        );
        // Bold that carries text, a link or too few marks is content.
        assert_eq!(kinds[9..], [const { LineKind::Text }; 4]);
    }

    #[test]
    fn targets_resolve_inside_the_folder_only() {
        assert_eq!(resolve_target("a%20b.md#x").as_deref(), Some("a b.md"));
        assert_eq!(resolve_target("<c d.md>").as_deref(), Some("c d.md"));
        assert_eq!(resolve_target("../x.md"), None);
        assert_eq!(resolve_target("https://x/y.md"), None);
        assert_eq!(resolve_target("/etc/passwd"), None);
    }
}
