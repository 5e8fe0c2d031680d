//! Where a memory's text is prose a person wrote and where it is code, a URL or a link
//! target: a date phrase inside `` `today-timeline.tsx` ``, a fenced block or
//! `https://…/tomorrow` is part of a name, never a time.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

static NOT_PROSE: LazyLock<Regex> = LazyLock::new(|| {
    // A code span may wrap onto the next line of its paragraph, never past a blank line.
    Regex::new(r"`(?:[^`\n]|\n[^\n`])*`|\b[a-z][a-z0-9+.-]*://[^\s)>\]]*|\]\([^)\n]*\)|<[^>\s]+>")
        .expect("a valid literal pattern")
});

/// The byte ranges of `text` that are not prose: fenced code blocks, inline code spans,
/// URLs, Markdown link targets and `<…>` autolinks or tags.
pub(super) fn not_prose(text: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut fence: Option<(usize, &str)> = None;
    // Where the prose since the last fence started.
    let mut prose_from = 0;
    let mut offset = 0;
    let spans = |from: usize, to: usize, ranges: &mut Vec<Range<usize>>| {
        ranges.extend(
            NOT_PROSE
                .find_iter(&text[from..to])
                .map(|m| from + m.start()..from + m.end()),
        );
    };
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (Some((open, kind)), Some(m)) if m == kind => {
                ranges.push(open..offset);
                fence = None;
                prose_from = offset;
            }
            (Some(_), _) => {}
            (None, Some(m)) => {
                spans(prose_from, start, &mut ranges);
                fence = Some((start, m));
            }
            (None, None) => {}
        }
    }
    match fence {
        // An unclosed fence runs to the end, as Markdown reads it.
        Some((open, _)) => ranges.push(open..text.len()),
        None => spans(prose_from, text.len(), &mut ranges),
    }
    ranges
}

pub(super) fn inside(ranges: &[Range<usize>], at: &Range<usize>) -> bool {
    ranges.iter().any(|r| r.start < at.end && at.start < r.end)
}

/// The character before byte `at`, if any.
pub(super) fn char_before(text: &str, at: usize) -> Option<char> {
    text[..at].chars().next_back()
}

/// The character at byte `at`, if any.
pub(super) fn char_at(text: &str, at: usize) -> Option<char> {
    text[at..].chars().next()
}

/// The line holding byte `at`, without its line break, and the byte its line starts at.
pub(super) fn line_around(text: &str, at: usize) -> (usize, &str) {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    (start, &text[start..end])
}

pub(super) fn is_hangul(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

pub(super) fn is_kana(c: char) -> bool {
    ('\u{3040}'..='\u{30FF}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_urls_and_link_targets_are_not_prose() {
        let text = "See `today-timeline.tsx` and https://api.tomorrow.io/v4 or [x](./tomorrow.md).\n```\ndeploy tomorrow\n```\nship tomorrow, `run\nnightly` and `\n\nthen today`";
        let ranges = not_prose(text);
        let masked = |word: &str| {
            let start = text.find(word).unwrap();
            inside(&ranges, &(start..start + word.len()))
        };
        assert!(masked("today-timeline"));
        assert!(masked("tomorrow.io"));
        assert!(masked("tomorrow.md"));
        assert!(masked("deploy tomorrow"));
        assert!(!masked("ship tomorrow"));
        assert!(masked("nightly"), "a span wrapped onto the next line");
        assert!(
            !masked("then today"),
            "a backtick never pairs across a blank line"
        );
    }
}
