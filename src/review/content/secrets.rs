//! Credentials in memory text: found with `redact-secret`'s detector set (see docs/audit.md
//! for why that crate), told apart from the documented example keys that vendors publish, and
//! redacted wherever memwb keeps a copy.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::LazyLock;

use redact_secret::{BuiltInRegistry, DefaultPolicy};
use regex::Regex;

/// What a redacted value is replaced with, in records and in memwb's own files.
pub const REDACTED: &str = "[REDACTED]";

/// How many leading characters of a secret a message may show.
const PREVIEW_CHARS: usize = 4;

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

/// AWS's documentation keys (`AKIAIOSFODNN7EXAMPLE`, `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`
/// and their siblings) all end in `EXAMPLE` or `EXAMPLEKEY`; the detector set drops them
/// silently, memwb names them so a reader knows they were seen and judged harmless.
static EXAMPLE_KEYS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:(?:AKIA|ASIA)[0-9A-Z]{9}EXAMPLE|[A-Za-z0-9/+]{30}EXAMPLEKEY)\b")
        .expect("a valid literal pattern")
});

/// Whether the detector set could be built; when it cannot, `find` finds nothing and the
/// audit says so instead of passing silently.
pub fn scanner_error() -> Option<&'static str> {
    REGISTRY.as_ref().err().map(String::as_str)
}

/// Every credential in `text`, in text order; examples included and marked.
pub fn find(text: &str) -> Vec<SecretHit> {
    let mut hits: Vec<SecretHit> = EXAMPLE_KEYS
        .find_iter(text)
        .map(|m| SecretHit {
            rule: "example-key".into(),
            range: m.range(),
            example: true,
        })
        .collect();
    if let Ok(registry) = REGISTRY.as_ref()
        && let Ok(findings) = registry.scan(text, &DefaultPolicy)
    {
        for finding in findings {
            let range = finding.range().start()..finding.range().end();
            let overlaps_example = hits
                .iter()
                .any(|h| h.example && h.range.start < range.end && range.start < h.range.end);
            if !overlaps_example
                && text.is_char_boundary(range.start)
                && text.is_char_boundary(range.end)
            {
                hits.push(SecretHit {
                    rule: finding.detector().to_owned(),
                    range,
                    example: false,
                });
            }
        }
    }
    hits.sort_by_key(|h| (h.range.start, h.range.end));
    hits
}

/// Whether `text` holds a credential that is not a documented example.
pub fn contains_secret(text: &str) -> bool {
    find(text).iter().any(|h| !h.example)
}

/// `text` with every credential that is not an example replaced by [`REDACTED`]. Borrowed when
/// there is nothing to redact; redacting twice changes nothing more.
pub fn redact(text: &str) -> Cow<'_, str> {
    let hits: Vec<SecretHit> = find(text).into_iter().filter(|h| !h.example).collect();
    if hits.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for hit in hits {
        if hit.range.start < at {
            // Overlapping detectors: the earlier replacement already covers part of this one.
            if hit.range.end > at {
                at = hit.range.end;
            }
            continue;
        }
        out.push_str(&text[at..hit.range.start]);
        out.push_str(REDACTED);
        at = hit.range.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// What a message may show of a secret: its first four characters, then `…`.
pub fn preview(value: &str) -> String {
    let head: String = value.chars().take(PREVIEW_CHARS).collect();
    format!("{head}…")
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(preview("ghp_abcdef"), "ghp_…");
        assert_eq!(preview("密钥密钥密钥"), "密钥密钥…");
    }
}
