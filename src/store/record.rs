//! The validated record value: the only thing the engine will write.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// Limits on one serialized record file. The reference fixes these; they are not configurable.
pub(crate) const MAX_RECORD_LINES: usize = 200;
pub(crate) const MAX_RECORD_BYTES: usize = 4096;
/// Longest name: its file `<name>-<32 hex id>.md` must fit the 255 bytes a file name may have on
/// every common file system, and is refused before anything is written.
pub(crate) const MAX_NAME_BYTES: usize = 255 - "-".len() - 32 - ".md".len();

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemoryType {
    User,
    Feedback,
    Project,
    Reference,
}

impl MemoryType {
    pub const ALL: [MemoryType; 4] = [Self::User, Self::Feedback, Self::Project, Self::Reference];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Feedback => "feedback",
            Self::Project => "project",
            Self::Reference => "reference",
        }
    }
}

impl fmt::Display for MemoryType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for MemoryType {
    type Err = RecordError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| RecordError::Type(s.to_owned()))
    }
}

/// Why a record was refused. The messages start with the reference's own wording so that
/// people who know the TypeScript agent recognise them; the value follows for context.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("memory name must be a safe lowercase slug (got {0:?})")]
    Name(String),
    #[error(
        "memory name must be at most {MAX_NAME_BYTES} characters so that its file name fits the file system (it has {0})"
    )]
    NameTooLong(usize),
    #[error("unknown type {0:?}: use user, feedback, project or reference")]
    Type(String),
    #[error("memory description must be a non-empty string")]
    DescriptionEmpty,
    #[error("memory description must fit on one line")]
    DescriptionMultiline,
    #[error("memory body must be a non-empty string")]
    BodyEmpty,
    #[error("memory file must not exceed {MAX_RECORD_LINES} lines (it has {0})")]
    TooManyLines(usize),
    #[error("memory file must not exceed {MAX_RECORD_BYTES} UTF-8 bytes (it has {0})")]
    TooManyBytes(usize),
}

impl RecordError {
    /// The field the rule is about, for editors that mark the offending input.
    pub fn field(&self) -> &'static str {
        match self {
            Self::Name(_) | Self::NameTooLong(_) => "name",
            Self::Type(_) => "type",
            Self::DescriptionEmpty | Self::DescriptionMultiline => "description",
            Self::BodyEmpty => "body",
            Self::TooManyLines(_) | Self::TooManyBytes(_) => "file",
        }
    }
}

/// One memory. Construct with [`Record::new`]; every instance satisfies the contract,
/// including the size budget of its serialized file.
///
/// Immutable and shared: a clone is a reference count, not a copy of the text (sets are copied
/// on every read and transaction, and the engine's record cache hands out clones).
///
/// A record read from a file also knows on which lines that file has its description and its
/// body (a hand edit may have put them elsewhere than the codec does), so that a finding
/// points at the file's own line. That is the file's layout, not the memory: two records are
/// equal, and serialize alike, when their four fields are.
#[derive(Clone)]
pub struct Record(Arc<Fields>, Option<Layout>);

/// The lines (1-based) of a record's file that hold its description (the `description:` key)
/// and the first line of its body, as the file was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) description_line: usize,
    pub(crate) body_line: usize,
}

impl PartialEq for Record {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for Record {}

#[derive(PartialEq, Eq, Serialize)]
struct Fields {
    name: String,
    #[serde(rename = "type")]
    kind: MemoryType,
    description: String,
    body: String,
}

impl fmt::Debug for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Record")
            .field("name", &self.0.name)
            .field("kind", &self.0.kind)
            .field("description", &self.0.description)
            .field("body", &self.0.body)
            .finish()
    }
}

impl Serialize for Record {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

pub use crate::memory::{ObjectOnly, RecordInput};

impl Record {
    pub fn new(
        name: impl Into<String>,
        kind: MemoryType,
        description: impl Into<String>,
        body: impl AsRef<str>,
    ) -> Result<Self, RecordError> {
        let record = Self::without_budget_check(
            name.into(),
            kind,
            description.into(),
            normalize_body(body.as_ref()),
        )?;
        check_budget(&record.to_file_text())?;
        Ok(record)
    }

    /// Every rule of [`Record::new`] but the budget of the serialized file, on a body already
    /// normalized: for the codec's reading of a file that is byte for byte this record's own
    /// text, whose budget it has checked on those very bytes (and the serialization is then
    /// not built a second time).
    pub(crate) fn without_budget_check(
        name: String,
        kind: MemoryType,
        description: String,
        body: String,
    ) -> Result<Self, RecordError> {
        if !is_safe_slug(&name) {
            return Err(RecordError::Name(name));
        }
        if name.len() > MAX_NAME_BYTES {
            return Err(RecordError::NameTooLong(name.len()));
        }
        if js_trim(&description).is_empty() {
            return Err(RecordError::DescriptionEmpty);
        }
        if description.contains(['\n', '\r']) {
            return Err(RecordError::DescriptionMultiline);
        }
        if js_trim(&body).is_empty() {
            return Err(RecordError::BodyEmpty);
        }
        Ok(Self(
            Arc::new(Fields {
                name,
                kind,
                description,
                body,
            }),
            None,
        ))
    }

    /// Validates untyped input; the type string is checked like every other field.
    pub fn from_input(input: &RecordInput) -> Result<Self, RecordError> {
        if !is_safe_slug(&input.name) {
            return Err(RecordError::Name(input.name.clone()));
        }
        let kind = input.kind.parse()?;
        Self::new(&*input.name, kind, &*input.description, &input.body)
    }

    pub fn name(&self) -> &str {
        &self.0.name
    }
    pub fn kind(&self) -> MemoryType {
        self.0.kind
    }
    pub fn description(&self) -> &str {
        &self.0.description
    }
    pub fn body(&self) -> &str {
        &self.0.body
    }

    /// The line of the record's file (1-based) that holds its description: where the file it
    /// was read from has the `description:` key, else where the codec writes it (line 3).
    pub(crate) fn description_line(&self) -> usize {
        self.1.map_or(3, |layout| layout.description_line)
    }

    /// The line of the record's file (1-based) on which its body starts: where the file it was
    /// read from has it (`frontmatter::first_text_line`, the rule of every format), else where
    /// the codec writes it (the frontmatter, then one blank line).
    pub(crate) fn body_line(&self) -> usize {
        if let Some(layout) = self.1 {
            return layout.body_line;
        }
        let text = self.to_file_text();
        let header = text.len() - self.body().len() - 1;
        text[..header].matches('\n').count() + 1
    }

    /// This record as read from a file laid out as `layout` says.
    pub(crate) fn read_as(self, layout: Layout) -> Self {
        Self(self.0, Some(layout))
    }

    /// This record as the codec writes it into a new file: its lines are the codec's again.
    pub(crate) fn into_written(self) -> Self {
        Self(self.0, None)
    }

    pub fn to_input(&self) -> RecordInput {
        RecordInput {
            name: self.0.name.clone(),
            kind: self.0.kind.as_str().to_owned(),
            description: self.0.description.clone(),
            body: self.0.body.clone(),
        }
    }
}

/// A slug made of any text (another format's name, a file's stem): ASCII letters and digits
/// lowercased, every run of anything else one `-`, none at either end; empty when no letter or
/// digit is left. Not checked against the Windows device names ([`is_safe_slug`] is).
pub(crate) fn slug_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$` and not a Windows device name.
pub fn is_safe_slug(name: &str) -> bool {
    is_slug(name) && !is_windows_device_name(name)
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`, in one pass over the bytes: every record name and every
/// manifest entry of a load is checked with it.
pub(crate) fn is_slug(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    let mut after_dash = false;
    first != b'-'
        && last != b'-'
        && bytes.iter().all(|&b| {
            let dash = b == b'-';
            let fits = b.is_ascii_lowercase() || b.is_ascii_digit() || (dash && !after_dash);
            after_dash = dash;
            fits
        })
}

pub(crate) fn is_windows_device_name(stem: &str) -> bool {
    match stem {
        "con" | "prn" | "aux" | "nul" => true,
        _ => {
            let bytes = stem.as_bytes();
            bytes.len() == 4
                && (stem.starts_with("com") || stem.starts_with("lpt"))
                && (b'1'..=b'9').contains(&bytes[3])
        }
    }
}

/// `\r\n` and `\r` become `\n`; outer runs of `\n` are dropped, other white space is kept.
pub(crate) fn normalize_body(body: &str) -> String {
    let unified = body.replace("\r\n", "\n").replace('\r', "\n");
    unified.trim_matches('\n').to_owned()
}

/// Counts lines the way the reference does: split on `\r\n|\r|\n`, a final empty piece not counted.
pub(crate) fn count_lines(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    // Each `\r\n`, lone `\r` and lone `\n` ends one piece; counted without building the
    // unified text (this runs on every record read and on every index written).
    let bytes = text.as_bytes();
    let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
    let lone_returns = if bytes.contains(&b'\r') {
        bytes
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
            .count()
    } else {
        0
    };
    let pieces = newlines + lone_returns + 1;
    if text.ends_with('\n') || text.ends_with('\r') {
        pieces - 1
    } else {
        pieces
    }
}

/// The budget of one record file, applied to what is written and to what is read.
pub(crate) fn check_budget(file_text: &str) -> Result<(), RecordError> {
    let lines = count_lines(file_text);
    if lines > MAX_RECORD_LINES {
        return Err(RecordError::TooManyLines(lines));
    }
    if file_text.len() > MAX_RECORD_BYTES {
        return Err(RecordError::TooManyBytes(file_text.len()));
    }
    Ok(())
}

/// JavaScript's `String.prototype.trim`, which the reference uses: its white-space set differs
/// from Rust's (it includes U+FEFF and excludes U+0085).
pub(crate) fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_of_any_text_keeps_ascii_letters_and_digits() {
        assert_eq!(slug_of("User Role — v2"), "user-role-v2");
        assert_eq!(slug_of("--a__b--"), "a-b");
        assert_eq!(slug_of("用户偏好"), "");
    }

    #[test]
    fn slugs() {
        for ok in [
            "a",
            "x1-2y",
            "user-prefers-tabs",
            "com10",
            "lpt0",
            "console",
        ] {
            assert!(is_safe_slug(ok), "{ok}");
        }
        for bad in [
            "",
            "-a",
            "a-",
            "a--b",
            "UPPER",
            "has space",
            "nul",
            "com1",
            "lpt9",
            "../escape",
            "file:stream",
            "trailing.",
            "under_score",
        ] {
            assert!(!is_safe_slug(bad), "{bad}");
        }
    }

    /// The regular expression's reading, literally: split on `-`, every part non-empty and
    /// made of `[a-z0-9]`.
    fn is_slug_by_splitting(text: &str) -> bool {
        !text.is_empty()
            && text.split('-').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            })
    }

    #[test]
    fn the_one_pass_slug_check_agrees_with_splitting_on_every_short_mix() {
        // Every string of up to 5 characters over a lowercase letter, a digit, the dash, and
        // three that no slug holds (upper case, a dot, a non-ASCII letter).
        let alphabet = ['a', '7', '-', 'A', '.', '\u{e9}'];
        let mut texts = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(last.iter().cloned());
        }
        assert!(texts.len() > 9000);
        let slugs = texts.iter().filter(|t| is_slug(t)).count();
        assert!(slugs > 100, "{slugs}");
        for text in &texts {
            assert_eq!(is_slug(text), is_slug_by_splitting(text), "{text:?}");
        }
    }

    #[test]
    fn line_counting_matches_reference() {
        assert_eq!(count_lines(""), 0);
        assert_eq!(count_lines("a"), 1);
        assert_eq!(count_lines("a\n"), 1);
        assert_eq!(count_lines("a\r\nb\rc\n\n"), 4);
    }

    /// The reference's definition, literally: unify the breaks, split, drop a final empty piece.
    fn count_lines_by_splitting(text: &str) -> usize {
        if text.is_empty() {
            return 0;
        }
        let unified = text.replace("\r\n", "\n").replace('\r', "\n");
        let pieces = unified.split('\n').count();
        pieces - usize::from(unified.ends_with('\n'))
    }

    #[test]
    fn line_counting_agrees_with_splitting_on_every_short_mix() {
        // Every string of up to 6 characters over a, \r and \n.
        let alphabet = ['a', '\r', '\n'];
        let mut texts = vec![String::new()];
        for _ in 0..6 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|t| t.len() == texts.last().map_or(0, String::len))
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        assert!(texts.len() > 1000);
        for text in &texts {
            assert_eq!(
                count_lines(text),
                count_lines_by_splitting(text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn body_normalisation_keeps_inner_white_space() {
        assert_eq!(normalize_body("\n\n a \r\n\tb\r\n\n"), " a \n\tb");
    }
}
