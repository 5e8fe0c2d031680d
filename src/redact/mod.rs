//! Credentials in memory text: found with `redact-secret`'s detector set (see docs/audit.md
//! for why that crate), told apart from the documented example keys that vendors publish, and
//! redacted wherever memwb keeps a copy. The one place secrets are found and redacted: the
//! content audit, the journal, proposals, the observers and every view call it, and it
//! depends on nothing above the store (`records` redacts the store's records).
#![warn(missing_docs)]

use std::borrow::Cow;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::LazyLock;

use redact_secret::{BuiltInRegistry, DefaultPolicy};

use crate::text_memo::TextMemo;

pub mod records;
mod rules;

use rules as secret_rules;

/// What a redacted value is replaced with, in records and in memwb's own files.
pub const REDACTED: &str = "[REDACTED]";

/// Whether `text` holds the placeholder a redaction leaves ([`REDACTED`], brackets and case as
/// written): what a kept copy says of itself when nothing marks it redacted (a journal entry
/// written before the marks). The word alone ("redacted", "REDACTED") is prose, not the mark.
pub(crate) fn holds_placeholder(text: &str) -> bool {
    text.contains(REDACTED)
}

/// The most leading characters of a secret a message may show; fewer for a shorter secret.
const PREVIEW_CHARS: usize = 4;

/// A secret shorter than this shows no characters at all: four characters of a 7-character
/// URL password are most of it.
const PREVIEW_MIN_LEN: usize = 16;

/// One credential in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretHit {
    /// The detector that matched (`aws-access-key`, `github-token`, ...), or `example-key`.
    pub rule: String,
    /// Byte range of the value in the scanned text.
    pub range: Range<usize>,
    /// A key a vendor publishes in its documentation (`AKIAIOSFODNN7EXAMPLE`): not a leak.
    pub example: bool,
}

static REGISTRY: LazyLock<Result<BuiltInRegistry, String>> =
    LazyLock::new(|| BuiltInRegistry::with_built_in().map_err(|e| e.to_string()));

/// Whether the detector set could be built; when it cannot, `find` finds nothing and the
/// audit says so instead of passing silently.
pub(crate) fn scanner_error() -> Option<&'static str> {
    REGISTRY.as_ref().err().map(String::as_str)
}

/// Every credential in `text`, in text order; examples included and marked. A value found
/// by both the detector set and memwb's own rules is reported once; a value that is only
/// filler (`ghp_XXXX…`) is an example, never a leak.
pub fn find(text: &str) -> Vec<SecretHit> {
    let mut hits: Vec<SecretHit> = secret_rules::documented_examples(text)
        .map(|range| SecretHit {
            rule: "example-key".into(),
            range,
            example: true,
        })
        .collect();
    let mut candidates: Vec<(String, Range<usize>)> = Vec::new();
    if let Ok(registry) = REGISTRY.as_ref()
        && let Ok(findings) = registry.scan(text, &DefaultPolicy)
    {
        candidates.extend(findings.into_iter().map(|finding| {
            (
                finding.detector().to_owned(),
                finding.range().start()..finding.range().end(),
            )
        }));
    }
    let detected = candidates.len();
    for (rule, range) in secret_rules::find(text) {
        let overlaps_detected = candidates[..detected]
            .iter()
            .any(|(_, r)| r.start < range.end && range.start < r.end);
        if !overlaps_detected {
            candidates.push((rule.to_owned(), range));
        }
    }
    for (rule, range) in candidates {
        let overlaps = |h: &SecretHit| h.range.start < range.end && range.start < h.range.end;
        if hits.iter().any(|h| h.example && overlaps(h))
            || !text.is_char_boundary(range.start)
            || !text.is_char_boundary(range.end)
        {
            continue;
        }
        let value = &text[range.clone()];
        let placeholder = secret_rules::is_filler(value);
        if !placeholder && secret_rules::is_placeholder(value) {
            continue;
        }
        hits.push(SecretHit {
            rule: if placeholder {
                "placeholder".into()
            } else {
                rule
            },
            range,
            example: placeholder,
        });
    }
    hits.sort_by_key(|h| (h.range.start, h.range.end));
    hits
}

/// `bytes` with their credentials redacted, when they hold any (`None`: nothing to redact), for
/// a file memwb keeps a copy of: its state never keeps a detected secret whole. Bytes that are
/// not UTF-8 are read lossily to look, and a redacted copy is that lossy text.
pub fn redact_bytes(bytes: &[u8]) -> Option<Vec<u8>> {
    match redact(&String::from_utf8_lossy(bytes)) {
        Cow::Owned(redacted) => Some(redacted.into_bytes()),
        Cow::Borrowed(_) => None,
    }
}

/// The longest text whose redaction is kept; a longer one (rare) is scanned each time.
const KEPT_MAX_BYTES: usize = 64 * 1024;

/// Where the last 4,096 texts redacted hold what is replaced ([`TextMemo`]: by their text's
/// digest): the byte ranges alone (none where the text holds nothing to redact), so that no
/// text, and no secret in one, is kept here, and the map stays a few hundred kilobytes. The
/// same texts are redacted again and again: a change journals each file's text before and
/// after, its undo redacts both again (its compare and its intent), and a scan is every
/// detector's patterns over the whole text. Where to redact is a function of the text alone.
static KEPT: TextMemo<Box<[Range<usize>]>> =
    TextMemo::new(NonZeroUsize::new(4096).expect("not zero"), KEPT_MAX_BYTES);

/// `text` with every credential that is not an example replaced by [`REDACTED`]. Borrowed when
/// there is nothing to redact; redacting twice changes nothing more.
pub fn redact(text: &str) -> Cow<'_, str> {
    let ranges = KEPT.get_or(text, || redacted_ranges(text).into_boxed_slice());
    replaced(text, &ranges)
}

/// The byte ranges of `text` that [`redact`] replaces, in text order: each credential that is
/// not an example, overlapping detectors' ranges merged into one.
fn redacted_ranges(text: &str) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for hit in find(text).into_iter().filter(|h| !h.example) {
        match ranges.last_mut() {
            // Overlapping detectors: the earlier replacement already covers part of this one.
            Some(last) if hit.range.start < last.end => last.end = last.end.max(hit.range.end),
            _ => ranges.push(hit.range),
        }
    }
    ranges
}

/// `text` with each of `ranges` (in text order, apart, on character boundaries: what
/// [`redacted_ranges`] finds in it) replaced by [`REDACTED`]; borrowed when there are none.
fn replaced<'a>(text: &'a str, ranges: &[Range<usize>]) -> Cow<'a, str> {
    if ranges.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for range in ranges {
        out.push_str(&text[at..range.start]);
        out.push_str(REDACTED);
        at = range.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// A value's fingerprint, which `accept secret` keeps instead of the value: the first 16 hex
/// digits of SHA-256 over a memwb-specific prefix and the value. It tells one accepted value
/// from a new one without keeping anything that reads as the credential.
pub fn fingerprint(value: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::new()
        .chain_update(b"memwb accepted secret v1\0")
        .chain_update(value.as_bytes())
        .finalize();
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// What redacting `text` replaces, for people: each credential's rule and file line (`text`
/// starts on line 1), e.g. "github-token on line 7, connection-string on line 9".
pub(crate) fn describe_redaction(text: &str) -> String {
    let hits: Vec<String> = find(text)
        .into_iter()
        .filter(|h| !h.example)
        .map(|h| {
            let line = text[..h.range.start].matches('\n').count() + 1;
            format!("{} on line {line}", h.rule)
        })
        .collect();
    hits.join(", ")
}

/// The evidence a redaction proposal carries: what it replaces, then what approving does.
pub fn redaction_evidence(text: &str) -> String {
    format!(
        "{REDACTION_EVIDENCE}{}; approving replaces each with {REDACTED}",
        describe_redaction(text)
    )
}

/// How a redaction proposal's evidence starts, so its summary can name what it redacts.
pub(crate) const REDACTION_EVIDENCE: &str = "redacts ";

/// Redacts the credentials in every string of a JSON value, keys included: what `--json`
/// outputs and the workbench's field views show.
pub fn redact_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(text) => {
            if let Cow::Owned(redacted) = redact(text) {
                *text = redacted;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_json),
        Value::Object(map) => {
            if map.keys().any(|k| matches!(redact(k), Cow::Owned(_))) {
                for (key, mut item) in std::mem::take(map) {
                    redact_json(&mut item);
                    map.insert(redact(&key).into_owned(), item);
                }
            } else {
                map.values_mut().for_each(redact_json);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// What a message may show of a secret: nothing of one shorter than 16 characters, else its
/// first characters, never more than four nor a quarter of it, then `…`.
pub fn preview(value: &str) -> String {
    let length = value.chars().count();
    if length < PREVIEW_MIN_LEN {
        return "[hidden]".into();
    }
    let head: String = value.chars().take(PREVIEW_CHARS.min(length / 4)).collect();
    format!("{head}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text redacted again is redacted as a scan redacts it, whatever was redacted before
    /// it: kept by its whole text's digest, so texts of one length, or one with a secret
    /// beside one without, never answer for each other; one too long to keep is scanned.
    #[test]
    fn a_text_redacted_again_is_what_a_scan_gives() {
        let long = format!("{}key AKIAZ7Q3K2LMN4PQRS5T\n", "x".repeat(KEPT_MAX_BYTES));
        let texts = [
            "kept key AKIAZ7Q3K2LMN4PQRS5T\n",
            "kept key AKIAZ7Q3K2LMN4PQRS5U\n",
            "kept key nothing secret here.\n",
            long.as_str(),
        ];
        fn scanned(text: &str) -> Cow<'_, str> {
            replaced(text, &redacted_ranges(text))
        }
        for _ in 0..2 {
            for text in texts {
                let redacted = redact(text);
                assert_eq!(redacted, scanned(text), "{text}");
                assert_eq!(
                    matches!(redacted, Cow::Owned(_)),
                    matches!(scanned(text), Cow::Owned(_))
                );
            }
        }
        assert_eq!(redact(texts[0]), "kept key [REDACTED]\n");
        assert_eq!(redact(texts[2]), texts[2]);
        assert!(redact(&long).ends_with("key [REDACTED]\n"));
    }

    #[test]
    fn a_real_shape_is_found_and_redacted_and_an_example_is_only_marked() {
        let text = "key AKIAZ7Q3K2LMN4PQRS5T and docs AKIAIOSFODNN7EXAMPLE";
        let hits = find(text);
        assert_eq!(hits.len(), 2, "{hits:?}");
        assert!(!hits[0].example);
        assert_eq!(&text[hits[0].range.clone()], "AKIAZ7Q3K2LMN4PQRS5T");
        assert!(hits[1].example);
        assert_eq!(redact(text), "key [REDACTED] and docs AKIAIOSFODNN7EXAMPLE");
        assert_eq!(redact(&redact(text)), redact(text));
    }

    #[test]
    fn plain_text_is_borrowed_and_the_preview_shows_four_characters() {
        assert!(matches!(redact("nothing here"), Cow::Borrowed(_)));
        assert_eq!(preview("ghp_abcdef"), "[hidden]");
        assert_eq!(preview("pw7"), "[hidden]");
        assert_eq!(preview("ghp_abcdefghijklmnop"), "ghp_…");
        assert_eq!(preview(&"密钥".repeat(8)), "密钥密钥…");
    }
}
