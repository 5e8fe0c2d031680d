//! Frontmatter edits that touch only the lines of the field edited: every other byte of the
//! file (other fields, their order and quoting, comments, the body) is kept as it was.
//!
//! The file is split into lines, not parsed and re-serialised: YAML libraries do not keep
//! quoting, comments or key order, and Claude Code's own files are not always valid YAML.

use super::EditError;
use crate::claude::frontmatter::METADATA_KEY;

/// A topic file cut at its `---` fences, every piece borrowed as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicText<'a> {
    /// A byte-order mark and the opening fence line, line break included.
    head: &'a str,
    /// The lines between the fences, each with its line break.
    lines: Vec<&'a str>,
    /// The closing fence line (with its line break when it has one).
    close: &'a str,
    body: &'a str,
}

/// One field found: lines `start..end` of the frontmatter, the key line first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: usize,
    end: usize,
    indent: usize,
}

impl<'a> TopicText<'a> {
    /// `None` when the text has no frontmatter (no `---` line closed by another).
    pub fn split(text: &'a str) -> Option<Self> {
        let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let first_end = bom + text[bom..].find('\n')? + 1;
        if !is_fence(&text[bom..first_end]) {
            return None;
        }
        let mut lines = Vec::new();
        let mut offset = first_end;
        for line in text[first_end..].split_inclusive('\n') {
            if is_fence(line) {
                return Some(Self {
                    head: &text[..first_end],
                    lines,
                    close: line,
                    body: &text[offset + line.len()..],
                });
            }
            lines.push(line);
            offset += line.len();
        }
        None
    }

    pub fn body(&self) -> &'a str {
        self.body
    }

    fn newline(&self) -> &'static str {
        if self.head.ends_with("\r\n") {
            "\r\n"
        } else {
            "\n"
        }
    }

    /// The file's text again, with `lines` in place of the frontmatter lines.
    fn join(&self, lines: &[String]) -> String {
        let mut out = String::with_capacity(self.head.len() + self.body.len() + 256);
        out.push_str(self.head);
        for line in lines {
            out.push_str(line);
        }
        out.push_str(self.close);
        out.push_str(self.body);
        out
    }

    fn owned_lines(&self) -> Vec<String> {
        self.lines.iter().map(|l| (*l).to_owned()).collect()
    }

    fn top_level(&self, key: &str) -> Option<Span> {
        children(&self.lines, 0, self.lines.len(), 0)
            .into_iter()
            .find(|span| key_of(self.lines[span.start]) == Some(key))
    }

    /// The `metadata:` block's children (an empty list when it has none).
    fn metadata_children(&self) -> Option<(Span, Vec<Span>)> {
        let block = self.top_level(METADATA_KEY)?;
        let first = (block.start + 1..block.end).find(|&i| is_key_line(self.lines[i]))?;
        let indent = indent_of(self.lines[first]);
        Some((
            block,
            children(&self.lines, block.start + 1, block.end, indent),
        ))
    }

    fn nested(&self, key: &str) -> Option<Span> {
        let (_, spans) = self.metadata_children()?;
        spans
            .into_iter()
            .find(|span| key_of(self.lines[span.start]) == Some(key))
    }
}

fn is_fence(line: &str) -> bool {
    line.trim_end_matches(['\n', '\r', ' ', '\t']) == "---"
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.is_empty() || trimmed.starts_with('#')
}

fn is_key_line(line: &str) -> bool {
    !is_blank_or_comment(line) && key_of(line).is_some()
}

/// The key a `key: value` line names (quotes around the key removed).
fn key_of(line: &str) -> Option<&str> {
    let trimmed = line.trim_start_matches([' ', '\t']);
    if trimmed.starts_with(['#', '-']) {
        return None;
    }
    let colon = key_colon(trimmed)?;
    let key = trimmed[..colon].trim_end();
    let key = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key);
    Some(key)
}

/// The `:` that ends the key: followed by a space, a line break or nothing.
fn key_colon(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    (0..bytes.len()).find(|&i| {
        bytes[i] == b':' && matches!(bytes.get(i + 1), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
    })
}

/// The fields at `indent` among lines `from..to`: a key line and the deeper lines after it (a
/// blank line or comment belongs to a field only when deeper lines of it follow).
fn children(lines: &[&str], from: usize, to: usize, indent: usize) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    for (i, line) in lines.iter().enumerate().take(to).skip(from) {
        if is_blank_or_comment(line) {
            continue;
        }
        let depth = indent_of(line);
        // A sequence may sit at its key's own depth (`tags:` then `- x`).
        let continues = depth > indent || (depth == indent && line.trim_start().starts_with('-'));
        if continues {
            if let Some(last) = spans.last_mut() {
                last.end = i + 1;
            }
            continue;
        }
        if depth == indent && key_of(line).is_some() {
            spans.push(Span {
                start: i,
                end: i + 1,
                indent,
            });
        }
    }
    spans
}

/// The text after `key:` on a key line, without its line break.
fn value_text(line: &str) -> &str {
    let trimmed = line.trim_start_matches([' ', '\t']);
    let colon = key_colon(trimmed).unwrap_or(trimmed.len());
    trimmed
        .get(colon + 1..)
        .unwrap_or("")
        .trim_end_matches(['\n', '\r'])
        .trim()
}

/// Sets `key` to the string `value`: where it already is (top level, else under `metadata:`),
/// else appended as a new top-level field. A file without frontmatter gets one holding only
/// this field. The value is written plain when YAML reads it back as the same string, else
/// quoted (in the quotes the old value used, double by default).
pub(crate) fn set_field(text: &str, key: &str, value: &str) -> Result<String, EditError> {
    check_field(key, value)?;
    let Some(topic) = TopicText::split(text) else {
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let line = format!("{key}: {}{newline}", scalar(value, None));
        let (bom, rest) = match text.strip_prefix('\u{feff}') {
            Some(rest) => ("\u{feff}", rest),
            None => ("", text),
        };
        return Ok(format!("{bom}---{newline}{line}---{newline}{rest}"));
    };
    let span = topic.top_level(key).or_else(|| topic.nested(key));
    Ok(put(&topic, key, value, span, None))
}

/// Sets `key` where it is, else inside `metadata:` when the file has that block (else at the
/// top level). `None` when the file has no frontmatter: this stamp never adds one.
pub(crate) fn set_nested_field(
    text: &str,
    key: &str,
    value: &str,
) -> Result<Option<String>, EditError> {
    check_field(key, value)?;
    let Some(topic) = TopicText::split(text) else {
        return Ok(None);
    };
    if let Some(span) = topic.top_level(key).or_else(|| topic.nested(key)) {
        return Ok(Some(put(&topic, key, value, Some(span), None)));
    }
    let at = topic
        .metadata_children()
        .and_then(|(block, spans)| spans.first().map(|s| (block.end, s.indent)));
    Ok(Some(put(&topic, key, value, None, at)))
}

/// Removes `key` (top level, else under `metadata:`) and the lines that belong to it. The text
/// comes back unchanged when the field is not there.
pub(crate) fn remove_field(text: &str, key: &str) -> String {
    let Some(topic) = TopicText::split(text) else {
        return text.to_owned();
    };
    let Some(span) = topic.top_level(key).or_else(|| topic.nested(key)) else {
        return text.to_owned();
    };
    let mut lines = topic.owned_lines();
    lines.drain(span.start..span.end);
    topic.join(&lines)
}

fn check_field(key: &str, value: &str) -> Result<(), EditError> {
    let key_ok = !key.is_empty()
        && !key.starts_with(['#', '-', ' ', '"', '\''])
        && !key.contains([':', '\n', '\r', '\t']);
    if !key_ok {
        return Err(EditError::FieldKey { key: key.into() });
    }
    if value.contains(['\n', '\r']) {
        return Err(EditError::FieldLines { key: key.into() });
    }
    Ok(())
}

/// Writes `key: value` over `span`, or inserts it at `(line, indent)`, or at the end.
fn put(
    topic: &TopicText<'_>,
    key: &str,
    value: &str,
    span: Option<Span>,
    insert_at: Option<(usize, usize)>,
) -> String {
    let newline = topic.newline();
    let mut lines = topic.owned_lines();
    match span {
        Some(span) => {
            let old = topic.lines[span.start];
            let trimmed = old.trim_start_matches([' ', '\t']);
            let key_end = key_colon(trimmed).map_or(trimmed.len(), |c| c + 1);
            let prefix = &old[..old.len() - trimmed.len() + key_end];
            let ending = if old.ends_with("\r\n") { "\r\n" } else { "\n" };
            let quote = value_text(old)
                .chars()
                .next()
                .filter(|c| matches!(c, '"' | '\''));
            let line = format!("{prefix} {}{ending}", scalar(value, quote));
            lines.splice(span.start..span.end, [line]);
        }
        None => {
            let (at, indent) = insert_at.unwrap_or((lines.len(), 0));
            let pad = " ".repeat(indent);
            let line = format!("{pad}{key}: {}{newline}", scalar(value, None));
            lines.insert(at, line);
        }
    }
    topic.join(&lines)
}

/// `value` as a YAML scalar that reads back as this exact string.
fn scalar(value: &str, quote: Option<char>) -> String {
    match quote {
        Some('\'') => format!("'{}'", value.replace('\'', "''")),
        Some(_) => double_quoted(value),
        None if plain_is_safe(value) => value.to_owned(),
        None => double_quoted(value),
    }
}

pub(super) fn double_quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether YAML reads `value` written bare as the same string (not a number, boolean, null,
/// comment, flow collection or anything else with a meaning).
fn plain_is_safe(value: &str) -> bool {
    if value.is_empty() || value != value.trim() || value.chars().any(char::is_control) {
        return false;
    }
    if value.starts_with([
        '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@',
        '`',
    ]) {
        return false;
    }
    if value.contains(": ") || value.contains(" #") || value.ends_with(':') {
        return false;
    }
    let lower = value.to_ascii_lowercase();
    let special = [
        "true", "false", "yes", "no", "on", "off", "null", "~", ".nan", ".inf", "-.inf", "+.inf",
    ];
    if special.contains(&lower.as_str()) {
        return false;
    }
    let looks_numeric = value.trim_start_matches(['+', '-']).chars().all(|c| {
        c.is_ascii_hexdigit() || matches!(c, '.' | '_' | 'x' | 'o' | 'e' | 'E' | '+' | '-')
    }) && value.chars().any(|c| c.is_ascii_digit());
    !looks_numeric
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claude::frontmatter::{self, Frontmatter};

    fn reads_back(text: &str, key: &str) -> Option<String> {
        match frontmatter::parse(text).frontmatter {
            Frontmatter::Fields(_) => frontmatter::parse(text).field(key).map(str::to_owned),
            other => panic!("{other:?} in {text:?}"),
        }
    }

    #[test]
    fn a_field_is_replaced_in_place_and_nothing_else_moves() {
        let text = "---\nname: a\n# keep me\ndescription: \"old\"\ntags:\n- x\n- y\ntype: user\n---\nbody\n";
        let edited = set_field(text, "description", "new: text").unwrap();
        assert_eq!(
            edited,
            "---\nname: a\n# keep me\ndescription: \"new: text\"\ntags:\n- x\n- y\ntype: user\n---\nbody\n"
        );
        let edited = set_field(text, "tags", "z").unwrap();
        assert_eq!(
            edited,
            "---\nname: a\n# keep me\ndescription: \"old\"\ntags: z\ntype: user\n---\nbody\n"
        );
    }

    #[test]
    fn values_read_back_as_written() {
        let text = "---\nname: a\n---\n";
        for value in [
            "plain words",
            "true",
            "12",
            "0x1f",
            "- dash",
            "a: b",
            "x #y",
            "quote \" and \\",
            "用户偏好",
            "  padded ",
            "",
            "null",
            "1e3",
            "end:",
        ] {
            let edited = set_field(text, "name", value).unwrap();
            assert_eq!(
                reads_back(&edited, "name").as_deref(),
                Some(value),
                "{edited}"
            );
        }
    }

    #[test]
    fn single_quotes_stay_single() {
        let edited = set_field("---\nname: 'a'\n---\n", "name", "it's").unwrap();
        assert_eq!(edited, "---\nname: 'it''s'\n---\n");
        assert_eq!(reads_back(&edited, "name").as_deref(), Some("it's"));
    }

    #[test]
    fn nested_fields_are_edited_where_they_are() {
        let text =
            "---\nname: a\nmetadata: \n  type: user\n  modified: 2026-01-01T00:00:00.000Z\n---\n";
        let edited = set_field(text, "type", "project").unwrap();
        assert_eq!(
            edited,
            "---\nname: a\nmetadata: \n  type: project\n  modified: 2026-01-01T00:00:00.000Z\n---\n"
        );
        let split = TopicText::split(&edited).unwrap();
        assert!(split.top_level("type").is_none() && split.nested("type").is_some());
    }

    #[test]
    fn a_new_field_goes_last_and_a_stamp_goes_into_metadata() {
        let flat = "---\nname: a\n---\nb";
        assert_eq!(
            set_field(flat, "type", "user").unwrap(),
            "---\nname: a\ntype: user\n---\nb"
        );
        let nested = "---\nmetadata:\n  type: user\nname: a\n---\nb";
        assert_eq!(
            set_nested_field(nested, "modified", "2026-01-01T00:00:00.000Z")
                .unwrap()
                .unwrap(),
            "---\nmetadata:\n  type: user\n  modified: 2026-01-01T00:00:00.000Z\nname: a\n---\nb"
        );
        assert_eq!(
            set_nested_field("no frontmatter", "modified", "x").unwrap(),
            None
        );
    }

    #[test]
    fn crlf_files_stay_crlf() {
        let text = "---\r\nname: a\r\n---\r\nbody\r\n";
        assert_eq!(
            set_field(text, "type", "user").unwrap(),
            "---\r\nname: a\r\ntype: user\r\n---\r\nbody\r\n"
        );
        assert_eq!(
            set_field(text, "name", "b").unwrap(),
            "---\r\nname: b\r\n---\r\nbody\r\n"
        );
    }

    #[test]
    fn a_file_without_frontmatter_gets_one_for_an_explicit_field() {
        assert_eq!(
            set_field("just text\n", "name", "x y").unwrap(),
            "---\nname: x y\n---\njust text\n"
        );
    }

    #[test]
    fn removing_takes_the_field_and_its_lines() {
        let text = "---\nname: a\ntags:\n  - x\n  - y\ntype: user\n---\n";
        assert_eq!(
            remove_field(text, "tags"),
            "---\nname: a\ntype: user\n---\n"
        );
        assert_eq!(remove_field(text, "nope"), text);
    }

    #[test]
    fn bad_keys_and_multi_line_values_are_refused() {
        assert!(matches!(
            set_field("---\n---\n", "a: b", "x"),
            Err(EditError::FieldKey { .. })
        ));
        assert!(matches!(
            set_field("---\n---\n", "name", "two\nlines"),
            Err(EditError::FieldLines { .. })
        ));
    }
}
