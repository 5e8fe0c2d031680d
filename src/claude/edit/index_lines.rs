//! Line edits of MEMORY.md. The agent writes this file, with its own headings and free text,
//! so memwb changes the lines an edit concerns and leaves every other line as it was: it never
//! regenerates the index.

use crate::claude::frontmatter::KNOWN_TYPES;
use crate::claude::index::{self, LineKind, LoadLimits, find_closing_bracket};

/// MEMORY.md as lines (without their `\n`; a `\r` stays on its line), and whether the text
/// ended with a line break.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IndexText {
    pub(crate) lines: Vec<String>,
    final_newline: bool,
    crlf: bool,
}

impl IndexText {
    pub(crate) fn new(text: &str) -> Self {
        let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        let final_newline = lines.last().is_some_and(String::is_empty);
        if final_newline {
            lines.pop();
        }
        Self {
            crlf: lines.first().is_some_and(|l| l.ends_with('\r')),
            lines,
            // A file written from nothing ends with a line break.
            final_newline: final_newline || text.is_empty(),
        }
    }

    pub(crate) fn text(&self) -> String {
        if self.lines.is_empty() {
            return String::new();
        }
        let mut out = self.lines.join("\n");
        if self.final_newline {
            out.push('\n');
        }
        out
    }

    /// `line` as this file writes lines (a `\r` before the break in a CRLF file).
    pub(crate) fn own(&self, line: &str) -> String {
        if self.crlf {
            format!("{line}\r")
        } else {
            line.to_owned()
        }
    }

    /// Each line's kind, as Claude Code's loader sees it.
    pub(crate) fn kinds(&self) -> Vec<LineKind> {
        index::parse(&self.text(), LoadLimits::default())
            .lines
            .into_iter()
            .map(|l| l.kind)
            .collect()
    }

    pub(crate) fn entry_file(&self, i: usize) -> Option<String> {
        match index::parse(&self.lines[i], LoadLimits::default())
            .lines
            .first()
        {
            Some(line) => line.entry_file().map(str::to_owned),
            None => None,
        }
    }
}

/// `- [name](file) — description`, the line Claude Code is told to write.
pub(crate) fn entry_line(name: &str, file: &str, description: &str) -> String {
    let name = one_line(name);
    let description = one_line(description);
    let target = link_target(file);
    if description.is_empty() {
        format!("- [{name}]({target})")
    } else {
        format!("- [{name}]({target}) \u{2014} {description}")
    }
}

fn one_line(text: &str) -> String {
    text.split(['\n', '\r'])
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_owned()
}

/// A file path as a Markdown link target that [`index::resolve_target`] reads back.
pub(crate) fn link_target(file: &str) -> String {
    let mut out = String::with_capacity(file.len());
    for c in file.chars() {
        match c {
            '%' => out.push_str("%25"),
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '#' => out.push_str("%23"),
            // A line break (or any control) in a file name never breaks the index line.
            c if c.is_control() => {
                let mut buf = [0u8; 4];
                for byte in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{byte:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The section an entry of a memory without a usable type goes under.
pub(crate) const DEFAULT_SECTION: &str = "Other";

/// The section title an entry of `kind` is filed under: its type when it is one short word
/// (`decision` gets `## Decision`), else [`DEFAULT_SECTION`] (no frontmatter, no type, or a
/// type no heading could carry).
fn section_of(kind: Option<&str>) -> String {
    let word = kind.map(str::trim).filter(|k| {
        !k.is_empty()
            && k.chars().count() <= 32
            && k.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    });
    let word = word.unwrap_or(DEFAULT_SECTION).to_lowercase();
    let mut title: Vec<char> = word.chars().collect();
    if let Some(first) = title.first_mut() {
        *first = first.to_uppercase().next().unwrap_or(*first);
    }
    title.into_iter().collect()
}

/// Whether a heading stands for `section` (`## User`, `# Feedback memories`, `### projects`,
/// `## Other:`): its first word is the section or its plural.
fn heading_is(line: &str, section: &str) -> bool {
    let title = line.trim().trim_start_matches('#').trim().to_lowercase();
    let Some(first) = title.split_whitespace().next() else {
        return false;
    };
    let first = first.trim_end_matches(':');
    let section = section.to_lowercase();
    first == section || first.strip_suffix('s') == Some(section.as_str())
}

fn heading_level(line: &str) -> usize {
    line.trim_start().chars().take_while(|&c| c == '#').count()
}

/// The end (exclusive) of the section a heading at `heading` opens: the next heading of the
/// same or a higher level, or the end of the file.
pub(crate) fn section_end(lines: &[String], kinds: &[LineKind], heading: usize) -> usize {
    let level = heading_level(&lines[heading]);
    (heading + 1..lines.len())
        .find(|&i| kinds[i] == LineKind::Heading && heading_level(&lines[i]) <= level)
        .unwrap_or(lines.len())
}

/// Adds `line` to the index. An index with sections (more than one heading) gets it after the
/// last entry under the heading of its type (see `section_of`), or under a new heading for
/// that type at the end; a flat index (no heading, or a title only) gets it at the end.
pub(crate) fn append_entry(index: &str, line: &str, kind: Option<&str>) -> String {
    let mut text = IndexText::new(index);
    let kinds = text.kinds();
    let headings: Vec<usize> = (0..kinds.len())
        .filter(|&i| kinds[i] == LineKind::Heading)
        .collect();
    let new_line = text.own(line);
    if headings.len() <= 1 {
        text.lines.push(new_line);
        return text.text();
    }
    let section = section_of(kind);
    let Some(&heading) = headings
        .iter()
        .find(|&&i| heading_is(&text.lines[i], &section))
    else {
        // A new section at the level of the type headings already there, else of the last.
        let model = headings
            .iter()
            .copied()
            .find(|&i| KNOWN_TYPES.iter().any(|t| heading_is(&text.lines[i], t)))
            .unwrap_or(headings[headings.len() - 1]);
        let level = "#".repeat(heading_level(&text.lines[model]).max(1));
        if text.lines.last().is_some_and(|l| !l.trim().is_empty()) {
            text.lines.push(text.own(""));
        }
        text.lines.push(text.own(&format!("{level} {section}")));
        text.lines.push(new_line);
        return text.text();
    };
    let end = section_end(&text.lines, &kinds, heading);
    let at = (heading + 1..end)
        .rev()
        .find(|&i| matches!(kinds[i], LineKind::Entry { .. }))
        .map_or(heading + 1, |i| i + 1);
    text.lines.insert(at, new_line);
    text.text()
}

/// Removes every entry linking to `file`; nothing else moves.
pub(crate) fn remove_entries(index: &str, file: &str) -> String {
    let mut text = IndexText::new(index);
    let keep: Vec<bool> = (0..text.lines.len())
        .map(|i| text.entry_file(i).as_deref() != Some(file))
        .collect();
    let mut keep = keep.into_iter();
    text.lines.retain(|_| keep.next().unwrap_or(true));
    text.text()
}

/// Points every entry linking to `old_file` at `new_file`; a title that was the memory's old
/// name (or the old file's stem) becomes `new_name`. The rest of each line stays.
pub(crate) fn rename_entries(
    index: &str,
    old_file: &str,
    new_file: &str,
    old_name: &str,
    new_name: &str,
) -> String {
    let mut text = IndexText::new(index);
    let old_stem = stem(old_file);
    for i in 0..text.lines.len() {
        if text.entry_file(i).as_deref() != Some(old_file) {
            continue;
        }
        let Some((title, target)) = entry_ranges(&text.lines[i]) else {
            continue;
        };
        let line = &text.lines[i];
        let old_title = &line[title.clone()];
        let new_title = if old_title == old_name || old_title == old_stem {
            one_line(new_name)
        } else {
            old_title.to_owned()
        };
        let new_target = if old_file == new_file {
            line[target.clone()].to_owned()
        } else {
            link_target(new_file)
        };
        text.lines[i] = format!(
            "{}{new_title}{}{new_target}{}",
            &line[..title.start],
            &line[title.end..target.start],
            &line[target.end..]
        );
    }
    text.text()
}

/// Gives every entry linking to `file` whose hook is `old` the hook `new` (a hook the agent
/// wrote differently from the description is its own and stays).
pub(crate) fn rehook_entries(index: &str, file: &str, old: &str, new: &str) -> String {
    let mut text = IndexText::new(index);
    let kinds = text.kinds();
    for (i, kind) in kinds.iter().enumerate() {
        let LineKind::Entry { hook, .. } = kind else {
            continue;
        };
        if hook != old.trim() || text.entry_file(i).as_deref() != Some(file) {
            continue;
        }
        let line = &text.lines[i];
        let Some((_, target)) = entry_ranges(line) else {
            continue;
        };
        let after_link = target.end + 1;
        let cr = if line.ends_with('\r') { "\r" } else { "" };
        let new = one_line(new);
        let replaced = if hook.is_empty() {
            format!("{} \u{2014} {new}{cr}", line.trim_end())
        } else {
            let at = line[after_link..]
                .rfind(hook.as_str())
                .map_or(line.len(), |p| after_link + p);
            format!(
                "{}{new}{}",
                &line[..at],
                &line[(at + hook.len()).min(line.len())..]
            )
        };
        text.lines[i] = replaced;
    }
    text.text()
}

fn stem(file: &str) -> &str {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.strip_suffix(".md").unwrap_or(name)
}

/// The byte ranges of an entry line's title and link target (inside the brackets and
/// parentheses, target trimmed).
fn entry_ranges(line: &str) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let open = line.find('[')? + 1;
    let close = open + find_closing_bracket(&line[open..])?;
    let rest = &line[close + 1..];
    let paren = rest.strip_prefix('(')?;
    let end = paren.find(')')?;
    let inner_start = close + 2;
    let inner = &line[inner_start..inner_start + end];
    let lead = inner.len() - inner.trim_start().len();
    let target = inner_start + lead..inner_start + inner.trim_end().len();
    Some((open..close, target))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPED: &str = "# Memory Index\n\n## User\n- [a](a.md) \u{2014} x\n\n## Project\n- [p](p.md) \u{2014} y\n\nfree text\n";

    #[test]
    fn entries_go_under_their_type() {
        let line = entry_line("b", "user_b.md", "z");
        assert_eq!(
            append_entry(TYPED, &line, Some("user")),
            "# Memory Index\n\n## User\n- [a](a.md) \u{2014} x\n- [b](user_b.md) \u{2014} z\n\n## Project\n- [p](p.md) \u{2014} y\n\nfree text\n"
        );
        assert_eq!(
            append_entry(TYPED, &line, Some("feedback")),
            format!("{TYPED}\n## Feedback\n{line}\n")
        );
    }

    #[test]
    fn without_type_headings_an_entry_goes_last_and_the_ending_is_kept() {
        assert_eq!(
            append_entry("# Index\n- [a](a.md)", "- [b](b.md)", Some("user")),
            "# Index\n- [a](a.md)\n- [b](b.md)"
        );
        assert_eq!(append_entry("", "- [b](b.md)", None), "- [b](b.md)\n");
        assert_eq!(
            append_entry("- [a](a.md)\r\n", "- [b](b.md)", None),
            "- [a](a.md)\r\n- [b](b.md)\r\n"
        );
    }

    #[test]
    fn link_targets_read_back() {
        for file in [
            "a b.md",
            "用户偏好.md",
            "notes/x (1).md",
            "100%.md",
            "a#b.md",
        ] {
            let line = entry_line("n", file, "d");
            let parsed = index::parse(&line, LoadLimits::default());
            assert_eq!(parsed.lines[0].entry_file(), Some(file), "{line}");
        }
        assert_eq!(entry_line("two\nlines", "a.md", ""), "- [two lines](a.md)");
        assert_eq!(
            entry_line("n", "two\nlines\r.md", "d"),
            "- [n](two%0Alines%0D.md) \u{2014} d"
        );
    }

    #[test]
    fn removing_takes_only_the_lines_linking_to_the_file() {
        let text = "# I\n- [a](a.md) \u{2014} x\ntext about a.md\n- [a again](./a.md)\n- [b](b.md)";
        assert_eq!(
            remove_entries(text, "a.md"),
            "# I\ntext about a.md\n- [b](b.md)"
        );
    }

    #[test]
    fn renaming_rewrites_link_and_a_title_that_was_the_name() {
        let text = "- [old](old.md) \u{2014} x\n- [Own title](old.md) - y\n- [c](c.md)\n";
        assert_eq!(
            rename_entries(text, "old.md", "user_new name.md", "old", "new name"),
            "- [new name](user_new%20name.md) \u{2014} x\n- [Own title](user_new%20name.md) - y\n- [c](c.md)\n"
        );
    }

    #[test]
    fn a_hook_that_was_the_description_follows_it() {
        let text = "- [a](a.md) \u{2014} old hook\n- [a](a.md) - agent's own\n- [b](b.md)\n";
        assert_eq!(
            rehook_entries(text, "a.md", "old hook", "new hook"),
            "- [a](a.md) \u{2014} new hook\n- [a](a.md) - agent's own\n- [b](b.md)\n"
        );
        assert_eq!(
            rehook_entries("- [b](b.md)", "b.md", "", "now"),
            "- [b](b.md) \u{2014} now"
        );
    }
}
