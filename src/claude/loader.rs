//! What Claude Code's loader makes of MEMORY.md, step for step as the client does it (proved
//! against the real client by tests/real_claude.rs; docs/claude-code.md, "The load limits"):
//!
//! 1. A leading byte order mark goes, then a frontmatter block: `---`, optional whitespace and a
//!    line break, then everything up to the next `---` *anywhere* (mid-line too) and the
//!    whitespace after it.
//! 2. HTML comments go, but only in a top-level HTML block that starts with `<!--` and holds
//!    `-->`. Such a block runs from its line to the end of the line holding the first `-->`,
//!    plus the empty lines right after it. Comments are cut out of it; when nothing but
//!    whitespace is left, the whole block goes, those empty lines too, else the rest stays.
//!    Comments in code blocks, list items, block quotes or paragraphs stay, as does an unclosed
//!    `<!--`. When anything was cut, CRLF line ends become LF.
//! 3. The text is trimmed: leading and trailing whitespace (blank lines, the first line's
//!    indentation) is not loaded and not counted.
//! 4. The first `lines` lines load; of those, when they are longer than `size`, the text up to
//!    the last line break at or before `size`, or when there is none (one huge first line)
//!    the first `size` units of it.

use std::sync::OnceLock;

use pulldown_cmark::{Event, Parser, Tag};
use regex::Regex;

/// How the size limit counts text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SizeUnit {
    /// JavaScript string length (UTF-16 code units), which Claude Code most likely counts.
    #[default]
    Utf16,
    Bytes,
}

impl SizeUnit {
    pub fn measure(self, text: &str) -> usize {
        match self {
            Self::Utf16 => text.encode_utf16().count(),
            Self::Bytes => text.len(),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Utf16 => "characters",
            Self::Bytes => "bytes",
        }
    }
}

impl std::str::FromStr for SizeUnit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "utf16" => Ok(Self::Utf16),
            "bytes" => Ok(Self::Bytes),
            other => Err(format!("unknown unit {other:?}: use utf16 or bytes")),
        }
    }
}

/// Claude Code's load limits for MEMORY.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LoadLimits {
    pub lines: usize,
    pub size: usize,
    pub unit: SizeUnit,
}

impl Default for LoadLimits {
    fn default() -> Self {
        Self {
            lines: 200,
            size: 25_000,
            unit: SizeUnit::Utf16,
        }
    }
}

/// Which limit stopped loading first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CutBy {
    Lines,
    Size,
}

/// Why a byte of MEMORY.md is not in the counted text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gone {
    Kept,
    Frontmatter,
    Comment,
    /// Trimmed whitespace, or the CR of a CRLF normalised away.
    Trimmed,
}

/// One line of the counted text (after steps 1 to 3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CountedLine {
    /// The 0-based line of MEMORY.md it comes from.
    pub source: usize,
    pub text: String,
    /// How much of `text` loads: all of it, a prefix (the one huge line), or none.
    pub loaded: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Loaded {
    /// For every byte of the file, whether it is counted and, if not, why.
    pub gone: Vec<Gone>,
    pub counted: Vec<CountedLine>,
    /// Size of the counted text in `limits.unit`.
    pub counted_size: usize,
    pub cut_by: Option<CutBy>,
}

impl Loaded {
    /// The text Claude Code puts into the session (before the warning it appends when cut).
    pub(super) fn text(&self) -> String {
        let loaded: Vec<&str> = self
            .counted
            .iter()
            .filter_map(|l| l.loaded.map(|end| &l.text[..end]))
            .collect();
        loaded.join("\n")
    }
}

pub(crate) fn load(text: &str, limits: LoadLimits) -> Loaded {
    let mut gone = vec![Gone::Kept; text.len()];
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    gone[..bom].fill(Gone::Frontmatter);
    let body_start = bom + frontmatter_len(&text[bom..]);
    gone[bom..body_start].fill(Gone::Frontmatter);
    strip_comments(text, body_start, &mut gone);
    trim(text, &mut gone);
    let counted = counted_lines(text, &gone);
    let mut loaded = Loaded {
        gone,
        counted,
        counted_size: 0,
        cut_by: None,
    };
    apply_limits(&mut loaded, limits);
    loaded
}

/// Step 1: the length of the frontmatter block at the start of `text`, or 0.
fn frontmatter_len(text: &str) -> usize {
    static BLOCK: OnceLock<Regex> = OnceLock::new();
    let block = BLOCK.get_or_init(|| {
        Regex::new(r"\A---\s*\n(?s:.*?)---\s*\n?").expect("the frontmatter pattern is valid")
    });
    if !text.get(3..).is_some_and(|rest| rest.contains("---")) {
        return 0;
    }
    block.find(text).map_or(0, |m| m.end())
}

/// Step 2, on the text from `start` (after the frontmatter).
fn strip_comments(text: &str, start: usize, gone: &mut [Gone]) {
    static COMMENT: OnceLock<Regex> = OnceLock::new();
    let comment = COMMENT
        .get_or_init(|| Regex::new(r"(?s)<!--.*?-->").expect("the comment pattern is valid"));
    let body = &text[start..];
    if !body.contains("<!--") {
        return;
    }
    let mut stripped = false;
    for block in top_level_comment_blocks(body) {
        let (from, to) = (start + block.start, start + block.end);
        for m in comment.find_iter(&text[from..to]) {
            gone[from + m.start()..from + m.end()].fill(Gone::Comment);
        }
        let left_blank = text[from..to]
            .char_indices()
            .all(|(i, c)| gone[from + i] != Gone::Kept || c.is_whitespace());
        if left_blank {
            gone[from..to].fill(Gone::Comment);
        }
        stripped = true;
    }
    if stripped {
        for (i, _) in body.match_indices("\r\n") {
            if gone[start + i] == Gone::Kept {
                gone[start + i] = Gone::Trimmed;
            }
        }
    }
}

/// Byte ranges of `body` that are top-level HTML blocks starting with `<!--` (after at most
/// three spaces) and holding `-->`, each extended as the client's lexer does: to the end of
/// the line of the first `-->`, then over the empty lines after it.
fn top_level_comment_blocks(body: &str) -> Vec<std::ops::Range<usize>> {
    let mut blocks: Vec<std::ops::Range<usize>> = Vec::new();
    let mut depth = 0usize;
    for (event, range) in Parser::new(body).into_offset_iter() {
        match event {
            Event::Start(Tag::HtmlBlock) if depth == 0 => {
                let line_start = body[..range.start].rfind('\n').map_or(0, |i| i + 1);
                let block = &body[line_start..];
                let indent = block.len() - block.trim_start_matches(' ').len();
                if indent > 3 || !block[indent..].starts_with("<!--") {
                    depth += 1;
                    continue;
                }
                let open = line_start + indent;
                let Some(close) = body[open + 2..].find("-->").map(|i| open + 2 + i + 3) else {
                    depth += 1;
                    continue;
                };
                let mut end = body[close..].find('\n').map_or(body.len(), |i| close + i);
                loop {
                    if body[end..].starts_with('\n') {
                        end += 1;
                    } else if body[end..].starts_with("\r\n") {
                        end += 2;
                    } else {
                        break;
                    }
                }
                if blocks.last().is_none_or(|b| b.end <= line_start) {
                    blocks.push(line_start..end);
                }
                depth += 1;
            }
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    blocks
}

/// Step 3: JavaScript's `trim()` of the text kept so far.
fn trim(text: &str, gone: &mut [Gone]) {
    let is_space = |c: char| c.is_whitespace() || c == '\u{feff}';
    for (i, c) in text.char_indices() {
        if gone[i] != Gone::Kept {
            continue;
        }
        if !is_space(c) {
            break;
        }
        gone[i..i + c.len_utf8()].fill(Gone::Trimmed);
    }
    for (i, c) in text.char_indices().rev() {
        if gone[i] != Gone::Kept {
            continue;
        }
        if !is_space(c) {
            break;
        }
        gone[i..i + c.len_utf8()].fill(Gone::Trimmed);
    }
}

/// The counted text split into lines, each tied to the line of the file it comes from.
fn counted_lines(text: &str, gone: &[Gone]) -> Vec<CountedLine> {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut source: Option<usize> = None;
    let mut any = false;
    let mut file_line = 0;
    for (i, c) in text.char_indices() {
        if gone[i] == Gone::Kept {
            any = true;
            if c == '\n' {
                lines.push(CountedLine {
                    source: source.unwrap_or(file_line),
                    text: std::mem::take(&mut current),
                    loaded: None,
                });
                source = None;
            } else {
                source.get_or_insert(file_line);
                current.push(c);
            }
        }
        if c == '\n' {
            file_line += 1;
        }
    }
    if any {
        lines.push(CountedLine {
            source: source.unwrap_or(file_line),
            text: current,
            loaded: None,
        });
    }
    lines
}

/// Step 4.
fn apply_limits(loaded: &mut Loaded, limits: LoadLimits) {
    let lines = &mut loaded.counted;
    let sizes: Vec<usize> = lines.iter().map(|l| limits.unit.measure(&l.text)).collect();
    loaded.counted_size = sizes.iter().sum::<usize>() + lines.len().saturating_sub(1);
    let kept_lines = lines.len().min(limits.lines);
    if kept_lines < lines.len() {
        loaded.cut_by = Some(CutBy::Lines);
    }
    let kept_size = sizes[..kept_lines].iter().sum::<usize>() + kept_lines.saturating_sub(1);
    let mut end = 0;
    for (n, line) in lines.iter_mut().enumerate().take(kept_lines) {
        end += sizes[n] + usize::from(n > 0);
        if kept_size <= limits.size || end <= limits.size {
            line.loaded = Some(line.text.len());
            continue;
        }
        // The size limit cuts before the line limit would.
        loaded.cut_by = Some(CutBy::Size);
        if n == 0 {
            // No line break at or before the limit: the first line's first `size` units.
            line.loaded = Some(prefix_within(&line.text, limits));
        }
        break;
    }
}

/// The longest prefix of `text` (in bytes, on a character boundary) within `limits.size`.
fn prefix_within(text: &str, limits: LoadLimits) -> usize {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        let mut buffer = [0u8; 4];
        units += limits.unit.measure(c.encode_utf8(&mut buffer));
        if units > limits.size {
            return i;
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    //! One test per edge the real client was checked on (tests/real_claude.rs compares the
    //! same texts with what Claude Code sends).
    use super::*;

    fn loads(text: &str) -> String {
        load(text, LoadLimits::default()).text()
    }

    #[test]
    fn two_hundred_lines_load() {
        let text: String = (1..=250).map(|n| format!("line {n}\n")).collect();
        let loaded = load(&text, LoadLimits::default());
        assert_eq!(loaded.text().lines().count(), 200);
        assert!(loaded.text().ends_with("line 200"));
        assert_eq!(loaded.cut_by, Some(CutBy::Lines));
    }

    #[test]
    fn the_size_cut_falls_on_the_last_line_break_at_or_before_the_limit() {
        // 124 lines of 199 units and their breaks end at 24,800; a line of 200 then ends
        // exactly at 25,000 and loads (the break after it is at the limit), one of 201 not.
        let head = ("a".repeat(199) + "\n").repeat(124);
        let at_limit = format!("{head}{}\nnext", "b".repeat(200));
        let loaded = load(&at_limit, LoadLimits::default());
        assert_eq!(loaded.cut_by, Some(CutBy::Size));
        assert_eq!(loaded.text().encode_utf16().count(), 25_000);
        let past_limit = format!("{head}{}\nnext", "b".repeat(201));
        let loaded = load(&past_limit, LoadLimits::default());
        assert_eq!(loaded.text(), head.trim_end());
    }

    #[test]
    fn leading_and_trailing_blank_lines_are_trimmed_and_not_counted() {
        let text = format!("\n\n\n{}\n\n\n", "- entry\n".repeat(199).trim_end());
        let loaded = load(&text, LoadLimits::default());
        assert_eq!(loaded.counted.len(), 199);
        assert_eq!(loaded.cut_by, None);
        assert_eq!(loads("  \n  # Title\nbody  \n\n"), "# Title\nbody");
    }

    #[test]
    fn text_after_a_comment_on_its_line_stays() {
        assert_eq!(loads("a\n\n<!-- note --> tail\nb"), "a\n\n tail\nb");
    }

    #[test]
    fn comments_in_code_fences_list_items_and_paragraph_text_stay() {
        let fenced = "a\n\n```\n<!-- kept -->\n```\nb";
        assert_eq!(loads(fenced), fenced);
        let listed = "- item\n  <!-- kept -->\n- two";
        assert_eq!(loads(listed), listed);
        let inline = "text <!-- kept --> more";
        assert_eq!(loads(inline), inline);
    }

    #[test]
    fn an_unclosed_comment_strips_nothing() {
        let text = "a\n\n<!-- never closed\nb";
        assert_eq!(loads(text), text);
    }

    #[test]
    fn empty_lines_after_a_comment_go_with_it() {
        assert_eq!(loads("a\n\n<!-- c -->\n\n\nb"), "a\n\nb");
        assert_eq!(loads("# A\n<!-- multi\nline -->\n\nb"), "# A\nb");
    }

    #[test]
    fn frontmatter_closes_at_the_first_dashes_even_mid_line() {
        assert_eq!(loads("---\nname: x\n---\nbody"), "body");
        assert_eq!(loads("---\ntitle: a --- rest\nbody"), "rest\nbody");
        assert_eq!(loads("---\nno close\nbody"), "---\nno close\nbody");
    }

    #[test]
    fn one_line_over_the_size_limit_keeps_its_first_units() {
        let text = "x".repeat(30_000) + "\nnext";
        let loaded = load(&text, LoadLimits::default());
        assert_eq!(loaded.text(), "x".repeat(25_000));
        assert_eq!(loaded.cut_by, Some(CutBy::Size));
    }

    #[test]
    fn cjk_counts_one_unit_per_character() {
        let fits = "中".repeat(24_999);
        assert_eq!(load(&fits, LoadLimits::default()).cut_by, None);
        let over = format!("{}\n{}", "中".repeat(20_000), "文".repeat(5_001));
        assert_eq!(loads(&over), "中".repeat(20_000));
    }

    #[test]
    fn crlf_lines_lose_their_cr_only_when_a_comment_was_cut() {
        assert_eq!(loads("a\r\nb\r\n"), "a\r\nb");
        assert_eq!(loads("a\r\n\r\n<!-- c -->\r\nb\r\n"), "a\n\nb");
    }
}
