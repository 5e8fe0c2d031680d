//! Frontmatter, read leniently: the `---` block at the top of a Markdown memory file, split
//! from its body, and whatever mapping it holds kept field by field and in order, so that
//! nothing memwb does not know is lost from view. A leaf: it knows YAML, not any format's
//! rules (which fields a format requires, which types it knows: its backend's). What does not
//! read is its own answer, [`Frontmatter::Invalid`] (the line and what is wrong), never
//! another module's error: a file whose frontmatter does not read is still a file to show.

use std::num::NonZeroUsize;

use serde_json::Value;
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::{Yaml, YamlLoader};

use crate::text_memo::TextMemo;

/// The block nested fields may live in (`metadata:`, sometimes with a trailing space).
pub(crate) const METADATA_KEY: &str = "metadata";

/// What a body's outer line breaks are made of (a CRLF file's too).
pub(crate) const LINE_BREAKS: [char; 2] = ['\n', '\r'];

/// What stands between the opening and closing `---` lines of a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Frontmatter {
    /// The file does not start with a `---` line closed by another.
    Missing,
    /// Not a YAML mapping; `line` is the file line (1-based) where the parser stopped.
    Invalid { line: usize, message: String },
    /// Top-level fields in file order; values as JSON (scalars stay strings when YAML says so).
    Fields(Vec<(String, Value)>),
}

/// A file split into its frontmatter and its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub frontmatter: Frontmatter,
    /// The frontmatter text between the `---` lines, as written (empty when missing).
    pub raw: String,
    /// Everything after the closing `---` line (the whole file when there is no frontmatter),
    /// as written: what an edit keeps byte for byte. A memory's body is
    /// [`Parsed::trimmed_body`].
    pub body: String,
    /// The file line on which `body` starts (1-based).
    pub body_line: usize,
}

impl Parsed {
    /// The body as a person says it is and as a writer takes it (`memwb add --body`): `body`
    /// without the line breaks that open it (the blank line Claude Code writes after the
    /// closing `---`) and those that end the file. Everything between stays as written:
    /// indentation, trailing spaces, blank lines, CRLF line ends. The `.memory` contract
    /// trims its bodies the same way, so a body reads back alike on every format.
    pub fn trimmed_body(&self) -> &str {
        self.body.trim_matches(LINE_BREAKS)
    }

    /// The file line (1-based) [`Parsed::trimmed_body`] starts on: what a finding's line in
    /// the body is counted from.
    pub fn trimmed_body_line(&self) -> usize {
        first_text_line(&self.body, self.body_line)
    }

    pub fn fields(&self) -> &[(String, Value)] {
        match &self.frontmatter {
            Frontmatter::Fields(fields) => fields,
            _ => &[],
        }
    }

    /// A top-level string field.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields()
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_str())
    }

    /// `type` at the top level, else under `metadata:`.
    pub fn kind(&self) -> Option<&str> {
        self.field("type").or_else(|| {
            self.fields()
                .iter()
                .find(|(k, _)| k == METADATA_KEY)
                .and_then(|(_, v)| v.get("type"))
                .and_then(Value::as_str)
        })
    }

    /// Every field except `name`, `description` and a top-level `type`: what `ls --json` calls
    /// `"extra"`. A `metadata:` block is kept whole.
    pub fn extra(&self) -> serde_json::Map<String, Value> {
        self.fields()
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "name" | "description" | "type"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

/// The file line (1-based) on which a memory's body starts, on every format: the first line
/// of text after the frontmatter. `after` is the file's text after its closing `---` line,
/// which is line `after_line`; the line breaks that open it (blank lines, CRLF or not) are
/// not the body, as both formats trim them from it.
pub(crate) fn first_text_line(after: &str, after_line: usize) -> usize {
    let text_at = after.len() - after.trim_start_matches(LINE_BREAKS).len();
    after_line + after[..text_at].matches('\n').count()
}

/// Splits and reads a file's text. Never fails: a problem is part of the answer.
pub fn parse(text: &str) -> Parsed {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some((raw, body, body_line)) = split(text) else {
        return Parsed {
            frontmatter: Frontmatter::Missing,
            raw: String::new(),
            body: text.to_owned(),
            body_line: 1,
        };
    };
    Parsed {
        frontmatter: read_mapping(raw),
        raw: raw.to_owned(),
        body: body.to_owned(),
        body_line,
    }
}

fn is_fence(line: &str) -> bool {
    line.trim_end_matches(['\r', ' ', '\t']) == "---"
}

/// `(frontmatter, body, body line)` when the text opens and closes a `---` block.
fn split(text: &str) -> Option<(&str, &str, usize)> {
    let first_end = text.find('\n')?;
    if !is_fence(&text[..first_end]) {
        return None;
    }
    let start = first_end + 1;
    let mut offset = start;
    // The opening fence is line 1.
    for (line_no, line) in (2..).zip(text[start..].split_inclusive('\n')) {
        if is_fence(line.trim_end_matches('\n')) {
            let body = &text[offset + line.len()..];
            return Some((&text[start..offset], body, line_no + 1));
        }
        offset += line.len();
    }
    None
}

/// The most frontmatter text memwb parses; an agent's frontmatter is a few hundred bytes.
const MAX_FRONTMATTER_BYTES: usize = 64 * 1024;

/// The most YAML events (scalars, starts and ends) one frontmatter may produce.
const MAX_EVENTS: usize = 4096;

/// The deepest nesting of mappings and sequences one frontmatter may have.
const MAX_DEPTH: usize = 32;

/// Why `raw` must not be built into a tree, if it must not: anchors and aliases (an alias
/// expands into a copy of what it names, so a few hundred bytes can ask for gigabytes), or
/// more text, events or nesting than any agent writes. Reading events costs time and memory
/// in proportion to the text, so this check itself is bounded by the size cap.
fn refusal(raw: &str) -> Option<Frontmatter> {
    let invalid = |line: usize, message: String| Some(Frontmatter::Invalid { line, message });
    if raw.len() > MAX_FRONTMATTER_BYTES {
        return invalid(
            2,
            format!(
                "frontmatter is {} bytes, over memwb's limit of {MAX_FRONTMATTER_BYTES}",
                raw.len()
            ),
        );
    }
    let mut parser = Parser::new_from_str(raw);
    let mut depth = 0usize;
    for _ in 0..MAX_EVENTS {
        let (event, mark) = match parser.next_token() {
            Ok(next) => next,
            // The tree builder reports the same error with its line; let it.
            Err(_) => return None,
        };
        let line = mark.line() + 1;
        let anchored = match &event {
            Event::Alias(_) => true,
            Event::Scalar(_, _, anchor, _)
            | Event::SequenceStart(anchor, _)
            | Event::MappingStart(anchor, _) => *anchor != 0,
            _ => false,
        };
        if anchored {
            return invalid(
                line,
                "anchors and aliases (`&name`, `*name`) are not allowed in frontmatter".into(),
            );
        }
        match event {
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return invalid(
                        line,
                        format!("frontmatter nests deeper than {MAX_DEPTH} levels"),
                    );
                }
            }
            Event::SequenceEnd | Event::MappingEnd => depth = depth.saturating_sub(1),
            Event::StreamEnd => return None,
            _ => {}
        }
    }
    invalid(
        2,
        format!("frontmatter holds more than {MAX_EVENTS} values"),
    )
}

/// The largest frontmatter kept parsed; a larger one (rare) is parsed each time it is read.
const KEPT_MAX_BYTES: usize = 4096;

/// The last 4,096 frontmatters read, parsed ([`TextMemo`]: by their text's digest, so no
/// memory's raw text, a credential in a `description`, sits in a process-wide map as a key).
/// A file's frontmatter changes far less often than its body, and the same text is read again
/// and again: every reading of a Claude Code folder after a change parses each file it
/// changed, and a journal entry's change names each memory it touched, before and after,
/// through its frontmatter (an undo of a 200-file change: 400 parses, then 200 more to show
/// the folder). Parsing is a function of the text alone.
static KEPT: TextMemo<Frontmatter> =
    TextMemo::new(NonZeroUsize::new(4096).expect("not zero"), KEPT_MAX_BYTES);

fn read_mapping(raw: &str) -> Frontmatter {
    KEPT.get_or(raw, || parse_mapping(raw))
}

/// [`read_mapping`] without what it keeps: the YAML parse.
fn parse_mapping(raw: &str) -> Frontmatter {
    if let Some(refused) = refusal(raw) {
        return refused;
    }
    let docs = match YamlLoader::load_from_str(raw) {
        Ok(docs) => docs,
        Err(e) => {
            return Frontmatter::Invalid {
                // The opening `---` is file line 1 and the marker's lines are 1-based.
                line: e.marker().line() + 1,
                message: e.info().to_owned(),
            };
        }
    };
    match docs.as_slice() {
        [] => Frontmatter::Fields(Vec::new()),
        [Yaml::Hash(hash)] => Frontmatter::Fields(
            hash.iter()
                .map(|(k, v)| (key_text(k), to_json(v)))
                .collect(),
        ),
        [Yaml::Null] => Frontmatter::Fields(Vec::new()),
        _ => Frontmatter::Invalid {
            line: 2,
            message: "frontmatter is not a single mapping of fields".into(),
        },
    }
}

fn key_text(key: &Yaml) -> String {
    match key {
        Yaml::String(s) | Yaml::Real(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Null => "null".into(),
        other => format!("{other:?}"),
    }
}

fn to_json(value: &Yaml) -> Value {
    match value {
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::Real(s) => s
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| Value::String(s.clone()), Value::Number),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Hash(hash) => Value::Object(
            hash.iter()
                .map(|(k, v)| (key_text(k), to_json(v)))
                .collect(),
        ),
        Yaml::Null | Yaml::Alias(_) | Yaml::BadValue => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frontmatter read again is the one parsing gives, whatever was read before it: kept
    /// by its whole text, so two of one length, or one read back after others, never answer
    /// for each other; one too large to keep is parsed each time.
    #[test]
    fn a_frontmatter_read_again_is_what_parsing_it_gives() {
        let texts = [
            "---\nname: kept-a1\ntype: user\n---\nbody\n".to_owned(),
            "---\nname: kept-b2\ntype: user\n---\nbody\n".to_owned(),
            "---\nname: kept-a1\ntype: [user\n---\nbody\n".to_owned(),
            format!(
                "---\nname: kept-big\nnote: {}\n---\n",
                "x".repeat(KEPT_MAX_BYTES)
            ),
        ];
        for _ in 0..2 {
            for text in &texts {
                let parsed = parse(text);
                assert_eq!(parsed.frontmatter, parse_mapping(&parsed.raw), "{text}");
            }
        }
        let names: Vec<Option<String>> = texts
            .iter()
            .map(|t| parse(t).field("name").map(str::to_owned))
            .collect();
        assert_eq!(
            names,
            [
                Some("kept-a1".to_owned()),
                Some("kept-b2".to_owned()),
                None,
                Some("kept-big".to_owned())
            ]
        );
    }

    #[test]
    fn nested_type_and_every_field_are_kept() {
        let parsed = parse(
            "---\nname: a\nmetadata: \n  node_type: memory\n  type: user\nmodified: 2026-09-14T08:21:07.512Z\n---\n\nbody\n",
        );
        assert_eq!(parsed.field("name"), Some("a"));
        assert_eq!(parsed.kind(), Some("user"));
        let extra = parsed.extra();
        assert_eq!(extra["metadata"]["node_type"], "memory");
        assert_eq!(extra["modified"], "2026-09-14T08:21:07.512Z");
        assert_eq!(parsed.body, "\nbody\n");
        assert_eq!(parsed.body_line, 8, "the line after the closing fence");
        assert_eq!(parsed.trimmed_body(), "body");
        assert_eq!(parsed.trimmed_body_line(), 9, "past the blank line");
    }

    #[test]
    fn the_trimmed_body_drops_outer_line_breaks_only_and_says_its_line() {
        // (text, trimmed body, the file line it starts on)
        let cases = [
            ("---\nname: a\n---\none\n", "one", 4),
            (
                "---\r\nname: a\r\n---\r\n\r\n\r\n  one\r\n\r\ntwo \r\n\r\n",
                "  one\r\n\r\ntwo ",
                6,
            ),
            ("\n\nno frontmatter\n\n", "no frontmatter", 3),
            (
                "---\nname: a\n---\n\n \nafter a line of one space\n",
                " \nafter a line of one space",
                5,
            ),
            ("---\nname: a\n---\n\n\n", "", 6),
        ];
        for (text, body, line) in cases {
            let parsed = parse(text);
            assert_eq!(parsed.trimmed_body(), body, "{text:?}");
            assert_eq!(parsed.trimmed_body_line(), line, "{text:?}");
            assert_eq!(
                text.lines().nth(line - 1).unwrap_or(""),
                body.lines().next().unwrap_or(""),
                "{text:?}: the line said is the body's first"
            );
        }
    }

    #[test]
    fn missing_and_invalid_frontmatter_are_answers() {
        assert_eq!(parse("just text\n").frontmatter, Frontmatter::Missing);
        assert_eq!(parse("---\nname: a\n").frontmatter, Frontmatter::Missing);
        let bad = parse("---\nname: a\ndescription: \"quoted\" then more\n---\nbody");
        match bad.frontmatter {
            Frontmatter::Invalid { line, .. } => assert_eq!(line, 3),
            other => panic!("{other:?}"),
        }
        assert_eq!(bad.body, "body");
    }

    fn invalid_message(text: &str) -> String {
        match parse(text).frontmatter {
            Frontmatter::Invalid { message, .. } => message,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn anchors_aliases_and_oversized_frontmatter_are_invalid() {
        let bomb = "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\ni: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n---\nbody\n";
        assert!(invalid_message(bomb).contains("anchors and aliases"));
        assert!(invalid_message("---\nname: &n a\n---\n").contains("anchors"));
        let long = format!(
            "---\ndescription: {}\n---\n",
            "x".repeat(MAX_FRONTMATTER_BYTES)
        );
        assert!(invalid_message(&long).contains("over memwb's limit"));
        let deep = format!("---\na: {}{}\n---\n", "[".repeat(40), "]".repeat(40));
        assert!(invalid_message(&deep).contains("deeper"));
        let wide = format!("---\na: [{}]\n---\n", vec!["1"; MAX_EVENTS].join(","));
        assert!(invalid_message(&wide).contains("more than"));
    }
}
