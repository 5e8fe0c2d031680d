//! Record files: writing them byte for byte as the reference does, and reading them strictly.
//!
//! Reading uses a YAML 1.2 parser (yaml-rust2, which, unlike libyaml, does not treat U+0085,
//! U+2028 or U+2029 as line breaks). Writing is hand-made in `yaml_scalar`, because no
//! library writes the `yaml` npm package's scalar style.

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::TScalarStyle;

use super::record::{Layout, MemoryType, Record, RecordError, check_budget};
use super::yaml_scalar::{emit_scalar, emits_unchanged, resolves_to_non_string};
use crate::frontmatter::first_text_line;

// Here rather than in record.rs, so that the codec depends on the record and not both ways.
impl Record {
    /// The exact bytes the reference writes for this record.
    pub fn to_file_text(&self) -> String {
        serialize(self)
    }
}

/// The serialized record: frontmatter, a blank line, the body and one final newline.
pub fn serialize(record: &Record) -> String {
    let mut out = String::with_capacity(record.body().len() + record.description().len() + 64);
    out.push_str("---\n");
    for (key, value) in [
        ("name", record.name()),
        ("description", record.description()),
        ("type", record.kind().as_str()),
    ] {
        out.push_str(key);
        out.push_str(": ");
        out.push_str(&emit_scalar(value, key.len() + 1));
        out.push('\n');
    }
    out.push_str("---\n\n");
    out.push_str(record.body());
    out.push('\n');
    out
}

/// Why a record file could not be read. `line()` points into the file (1-based) where known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("record file is not valid UTF-8 (first bad byte at offset {0})")]
    NotUtf8(usize),
    #[error("record file must start with a line that is exactly \"---\"")]
    MissingFrontmatter,
    #[error("record frontmatter is not closed by a line that is exactly \"---\"")]
    UnterminatedFrontmatter,
    #[error("record frontmatter contains a NUL character")]
    NulInFrontmatter,
    #[error("record frontmatter is not valid YAML at line {line}: {message}")]
    Yaml { line: usize, message: String },
    #[error("record frontmatter must be a single YAML mapping")]
    NotAMapping { line: usize },
    #[error("record frontmatter has an unexpected key {key:?} at line {line}")]
    UnknownKey { key: String, line: usize },
    #[error("record frontmatter repeats the key {key:?} at line {line}")]
    DuplicateKey { key: String, line: usize },
    #[error("record frontmatter lacks the key {0:?}")]
    MissingKey(&'static str),
    #[error("record frontmatter key {key:?} must be a string, not {found} (line {line})")]
    NotAString {
        key: String,
        found: &'static str,
        line: usize,
    },
    #[error("{error}")]
    Invalid {
        error: RecordError,
        line: Option<usize>,
    },
}

impl ParseError {
    pub fn line(&self) -> Option<usize> {
        match self {
            Self::MissingFrontmatter => Some(1),
            Self::Yaml { line, .. }
            | Self::NotAMapping { line }
            | Self::UnknownKey { line, .. }
            | Self::DuplicateKey { line, .. }
            | Self::NotAString { line, .. } => Some(*line),
            Self::Invalid { line, .. } => *line,
            _ => None,
        }
    }
}

const KEYS: [&str; 3] = ["name", "description", "type"];

/// Reads a record file strictly: exact keys, string values, the budget on the raw bytes,
/// then the same validation as [`Record::new`].
pub fn parse(bytes: &[u8]) -> Result<Record, ParseError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ParseError::NotUtf8(e.valid_up_to()))?;
    check_budget(text).map_err(|error| ParseError::Invalid { error, line: None })?;
    match written_plain(text) {
        Some(record) => Ok(record),
        None => parse_yaml(text),
    }
}

/// The record `text` is the exact file of, when its three values are written plain, one per
/// line (how memwb and the reference write almost every record): read without the YAML
/// parser, which is most of a cold load's time. Trusted only when the record's own file text
/// is `text` byte for byte; the codec's round trip (`parse_yaml(serialize(r)) == r`, held by
/// the golden vectors and the property tests) makes it then the very record the YAML parser
/// reads. Anything else (a quoted or folded value, another key order, CRLF, an invalid
/// record) is `None`, and the YAML parser decides.
///
/// "Byte for byte" is decided piece by piece, without building the serialization: each value
/// is one [`emit_scalar`] leaves as it is, and the body is one [`Record::new`] keeps as it is
/// (no carriage return, no line break at either end), between the blank line and the final
/// newline [`serialize`] writes. `parse` has checked the budget on `text`, which is then the
/// record's file. `written_plain_by_serializing` (the tests) is the same test done by
/// serializing, and must agree.
fn written_plain(text: &str) -> Option<Record> {
    let rest = text.strip_prefix("---\nname: ")?;
    let (name, rest) = rest.split_once('\n')?;
    let rest = rest.strip_prefix("description: ")?;
    let (description, rest) = rest.split_once('\n')?;
    let rest = rest.strip_prefix("type: ")?;
    let (kind, rest) = rest.split_once('\n')?;
    let body = rest.strip_prefix("---\n\n")?.strip_suffix('\n')?;
    if body.contains('\r') || body.starts_with('\n') || body.ends_with('\n') {
        return None;
    }
    let kind: MemoryType = kind.parse().ok()?;
    let record = Record::without_budget_check(
        name.to_owned(),
        kind,
        description.to_owned(),
        body.to_owned(),
    )
    .ok()?;
    // Validated first: a value with a line break never reaches the emitter.
    let unchanged = |key: &str, value: &str| emits_unchanged(value, key.len() + 1);
    let plain = unchanged("name", record.name())
        && unchanged("description", record.description())
        && unchanged("type", kind.as_str());
    debug_assert!(!plain || serialize(&record) == text, "{text:?}");
    plain.then_some(record)
}

/// [`parse`] by the YAML parser alone: every file that is not [`written_plain`].
fn parse_yaml(text: &str) -> Result<Record, ParseError> {
    let mut lines = text.split('\n');
    if lines.next() != Some("---") {
        return Err(ParseError::MissingFrontmatter);
    }
    let yaml_start = 4;
    let mut offset = yaml_start;
    let mut yaml_end = None;
    for line in lines {
        if line == "---" {
            yaml_end = Some(offset);
            break;
        }
        offset += line.len() + 1;
    }
    let yaml_end = yaml_end.ok_or(ParseError::UnterminatedFrontmatter)?;
    let yaml = &text[yaml_start..yaml_end];
    let rest = text.get(yaml_end + 4..).unwrap_or("");
    if yaml.contains('\0') {
        return Err(ParseError::NulInFrontmatter);
    }

    let fields = parse_frontmatter(yaml)?;
    let [name, description, kind] = fields.map(|f| f.expect("checked by parse_frontmatter"));
    // The closing `---` is the line after the YAML's; what follows it starts on the next.
    let after_line = count_frontmatter_lines(yaml) + 3;
    let layout = Layout {
        description_line: description.key_line,
        body_line: first_text_line(rest, after_line),
    };
    let at = |field: &Field| Some(field.line);
    let kind_value = kind
        .value
        .parse::<MemoryType>()
        .map_err(|error| ParseError::Invalid {
            error,
            line: at(&kind),
        })?;
    Record::new(
        name.value.clone(),
        kind_value,
        description.value.clone(),
        rest,
    )
    .map(|record| record.read_as(layout))
    .map_err(|error| {
        let line = match error.field() {
            "name" => at(&name),
            "description" => at(&description),
            "body" => Some(after_line),
            _ => None,
        };
        ParseError::Invalid { error, line }
    })
}

fn count_frontmatter_lines(yaml: &str) -> usize {
    yaml.matches('\n').count()
}

struct Field {
    value: String,
    /// The file line of the value (where an error in it is said).
    line: usize,
    /// The file line of the key (where the value is said to be, as on every format).
    key_line: usize,
}

/// File line of a YAML marker: the opening `---` is line 1, the YAML starts on line 2.
fn file_line(marker_line: usize) -> usize {
    marker_line + 1
}

fn parse_frontmatter(yaml: &str) -> Result<[Option<Field>; 3], ParseError> {
    let mut parser = Parser::new_from_str(yaml);
    let mut next = || {
        parser.next_token().map_err(|e| ParseError::Yaml {
            line: file_line(e.marker().line()),
            message: e.info().to_owned(),
        })
    };
    let mut fields: [Option<Field>; 3] = [None, None, None];
    let (event, mark) = loop {
        let (event, mark) = next()?;
        if !matches!(event, Event::StreamStart | Event::DocumentStart) {
            break (event, mark);
        }
    };
    if !matches!(event, Event::MappingStart(0, None)) {
        return Err(ParseError::NotAMapping {
            line: file_line(mark.line()),
        });
    }
    loop {
        let (event, mark) = next()?;
        let line = file_line(mark.line());
        let key = match event {
            Event::MappingEnd => break,
            Event::Scalar(key, TScalarStyle::Plain, 0, None) => key,
            _ => return Err(ParseError::NotAMapping { line }),
        };
        let slot = KEYS
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| ParseError::UnknownKey {
                key: key.clone(),
                line,
            })?;
        if fields[slot].is_some() {
            return Err(ParseError::DuplicateKey { key, line });
        }
        let (value_event, value_mark) = next()?;
        let value_line = file_line(value_mark.line());
        let not_string = |found| ParseError::NotAString {
            key: key.clone(),
            found,
            line: value_line,
        };
        let value = match value_event {
            Event::Scalar(value, style, 0, tag) => {
                let explicit_str = tag
                    .as_ref()
                    .is_some_and(|t| t.handle == "tag:yaml.org,2002:" && t.suffix == "str");
                if tag.is_some() && !explicit_str {
                    return Err(not_string("a tagged value"));
                }
                if style == TScalarStyle::Plain
                    && !explicit_str
                    && let Some(kind) = resolves_to_non_string(&value)
                {
                    return Err(not_string(kind));
                }
                value
            }
            Event::Scalar(..) | Event::Alias(_) => return Err(not_string("an alias or anchor")),
            Event::SequenceStart(..) => return Err(not_string("a sequence")),
            Event::MappingStart(..) => return Err(not_string("a mapping")),
            _ => return Err(not_string("a structure")),
        };
        fields[slot] = Some(Field {
            value,
            line: value_line,
            key_line: line,
        });
    }
    loop {
        let (event, mark) = next()?;
        match event {
            Event::DocumentEnd => {}
            Event::StreamEnd => break,
            _ => {
                return Err(ParseError::NotAMapping {
                    line: file_line(mark.line()),
                });
            }
        }
    }
    for (slot, key) in KEYS.iter().enumerate() {
        if fields[slot].is_none() {
            return Err(ParseError::MissingKey(key));
        }
    }
    Ok(fields)
}

#[cfg(test)]
mod shortcut_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn file(front: &str, body: &str) -> Vec<u8> {
        format!("---\n{front}---\n\n{body}\n").into_bytes()
    }

    #[test]
    fn rejects_numbers_and_booleans() {
        for (value, found) in [
            ("123", "an integer"),
            ("true", "a boolean"),
            ("~", "null"),
            ("1e3", "a float"),
        ] {
            let err = parse(&file(
                &format!("name: a\ndescription: {value}\ntype: user\n"),
                "b",
            ))
            .unwrap_err();
            assert!(
                matches!(err, ParseError::NotAString { found: f, line: 3, .. } if f == found),
                "{value}: {err:?}"
            );
        }
    }

    #[test]
    fn quoted_numbers_are_strings() {
        let record = parse(&file("name: a\ndescription: \"123\"\ntype: 'user'\n", "b")).unwrap();
        assert_eq!(record.description(), "123");
        assert_eq!(record.kind(), MemoryType::User);
    }

    #[test]
    fn explicit_str_tag_makes_a_string_and_other_tags_are_refused() {
        let record = parse(&file("name: a\ndescription: !!str 123\ntype: user\n", "b")).unwrap();
        assert_eq!(record.description(), "123");
        let err = parse(&file("name: a\ndescription: !!int 123\ntype: user\n", "b")).unwrap_err();
        assert!(
            matches!(
                err,
                ParseError::NotAString {
                    found: "a tagged value",
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn rejects_extra_missing_and_duplicate_keys() {
        let extra = parse(&file(
            "name: a\ndescription: d\ntype: user\nextra: x\n",
            "b",
        ));
        assert!(
            matches!(extra, Err(ParseError::UnknownKey { line: 5, .. })),
            "{extra:?}"
        );
        let missing = parse(&file("name: a\ntype: user\n", "b"));
        assert_eq!(missing, Err(ParseError::MissingKey("description")));
        let dup = parse(&file("name: a\nname: b\ndescription: d\ntype: user\n", "b"));
        assert!(
            matches!(dup, Err(ParseError::DuplicateKey { .. })),
            "{dup:?}"
        );
    }

    #[test]
    fn rejects_structure_problems() {
        assert_eq!(parse(b"name: a\n"), Err(ParseError::MissingFrontmatter));
        assert_eq!(
            parse(b"---\nname: a\ndescription: d\ntype: user\n"),
            Err(ParseError::UnterminatedFrontmatter)
        );
        assert!(matches!(
            parse(&file("- a\n", "b")),
            Err(ParseError::NotAMapping { .. })
        ));
        assert!(matches!(parse(&[0xff, 0xfe]), Err(ParseError::NotUtf8(0))));
        assert!(matches!(
            parse(&file("name: a\ndescription: [x]\ntype: user\n", "b")),
            Err(ParseError::NotAString {
                found: "a sequence",
                ..
            })
        ));
    }

    #[test]
    fn a_record_read_from_a_hand_edited_file_says_the_files_lines() {
        let text = "---\nname: a\n# by hand\ndescription: >-\n  folded\n  value\ntype: user\n---\n\r\n\r\nbody\r\nmore\r\n";
        let record = parse(text.as_bytes()).unwrap();
        assert_eq!((record.description_line(), record.body_line()), (4, 11));
        // The lines are the file's, not the memory: it equals the record memwb would write.
        let written = Record::new("a", MemoryType::User, "folded value", "body\nmore").unwrap();
        assert_eq!(record, written);
        assert_eq!((written.description_line(), written.body_line()), (3, 7));
        assert_eq!(record.into_written().body_line(), 7);
        // The file the codec writes reads at the lines it is written at, by either reader
        // (a long description is folded over several lines).
        let long = "word ".repeat(40);
        for description in ["d", long.trim_end()] {
            let record = Record::new("a", MemoryType::User, description, "b").unwrap();
            let text = serialize(&record);
            let line_of =
                |prefix: &str| text.lines().position(|l| l.starts_with(prefix)).unwrap() + 1;
            for read in [parse_yaml(&text).unwrap(), parse(text.as_bytes()).unwrap()] {
                assert_eq!(read.description_line(), line_of("description:"), "{text:?}");
                assert_eq!(read.body_line(), line_of("b"), "{text:?}");
                assert_eq!(read.body_line(), record.body_line(), "{text:?}");
            }
        }
    }

    #[test]
    fn invalid_fields_point_at_their_line() {
        let err = parse(&file("name: Bad\ndescription: d\ntype: user\n", "b")).unwrap_err();
        assert_eq!(err.line(), Some(2));
        let err = parse(&file("name: a\ndescription: d\ntype: User\n", "b")).unwrap_err();
        assert_eq!(err.line(), Some(4));
    }
}
