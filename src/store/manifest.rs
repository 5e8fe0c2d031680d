//! `manifest.json`: the only authority on which record files are in the set.

use serde_json::Value;

use super::record::{is_slug, is_windows_device_name};

pub(crate) const MANIFEST_FILE: &str = "manifest.json";

/// The most bytes a manifest may hold (reads stop one byte past it). 200 entries of the
/// longest names take about 60 KB; 1 MiB leaves room for a raised `max_index_lines`.
pub(crate) const MAX_MANIFEST_BYTES: usize = 1 << 20;

/// Why a manifest was refused: the rule, in the reference's words where it has them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("invalid schema: {0}")]
    Schema(String),
    #[error("unsafe filename {0:?}")]
    UnsafeName(String),
    #[error("duplicate filename {0:?}")]
    Duplicate(String),
    #[error("lists {count} files, more than the limit of {max}")]
    TooMany { count: usize, max: usize },
}

/// `^[a-z0-9]+(-[a-z0-9]+)*\.md$`, and the stem is not a Windows device name.
pub(crate) fn is_safe_file_name(name: &str) -> bool {
    name.strip_suffix(".md")
        .is_some_and(|stem| is_slug(stem) && !is_windows_device_name(stem))
}

/// Parses manifest bytes strictly; any violation rejects the whole manifest.
pub fn parse(bytes: &[u8], max_files: usize) -> Result<Vec<String>, ManifestError> {
    let files = parse_lenient(bytes)?;
    let mut seen = std::collections::HashSet::with_capacity(files.len());
    for file in &files {
        if !is_safe_file_name(file) {
            return Err(ManifestError::UnsafeName(file.clone()));
        }
        if !seen.insert(file.as_str()) {
            return Err(ManifestError::Duplicate(file.clone()));
        }
    }
    if files.len() > max_files {
        return Err(ManifestError::TooMany {
            count: files.len(),
            max: max_files,
        });
    }
    Ok(files)
}

/// The schema alone (`{"version":1,"files":[string...]}`), without the per-name rules, so an
/// audit can still list what a broken manifest names.
pub(crate) fn parse_lenient(bytes: &[u8]) -> Result<Vec<String>, ManifestError> {
    if let Some(files) = parse_canonical(bytes) {
        return Ok(files);
    }
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| ManifestError::NotJson(e.to_string()))?;
    let Value::Object(map) = value else {
        return Err(ManifestError::Schema("expected an object".into()));
    };
    if map.len() != 2 || !map.contains_key("version") || !map.contains_key("files") {
        let keys: Vec<&str> = map.keys().map(String::as_str).collect();
        return Err(ManifestError::Schema(format!(
            "expected exactly the keys \"version\" and \"files\", found {keys:?}"
        )));
    }
    if map["version"].as_f64() != Some(1.0) {
        return Err(ManifestError::Schema(format!(
            "version must be the number 1, not {}",
            map["version"]
        )));
    }
    let Value::Array(items) = &map["files"] else {
        return Err(ManifestError::Schema("files must be an array".into()));
    };
    items
        .iter()
        .map(|item| match item {
            Value::String(s) => Ok(s.clone()),
            other => Err(ManifestError::Schema(format!(
                "files must hold strings, found {other}"
            ))),
        })
        .collect()
}

/// The manifest exactly as [`render`] (and the reference) writes it, with names made only of
/// `[a-z0-9.-]`: read without building a JSON tree. Anything else — whitespace, escapes, other
/// characters, another key order — is `None` and goes through the full JSON parser, so the
/// result and every error are the same either way.
fn parse_canonical(bytes: &[u8]) -> Option<Vec<String>> {
    let list = bytes
        .strip_prefix(b"{\"version\":1,\"files\":[")?
        .strip_suffix(b"]}")?;
    if list.is_empty() {
        return Some(Vec::new());
    }
    list.split(|&b| b == b',')
        .map(|item| {
            let name = item.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
            let plain = name
                .iter()
                .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
            plain
                .then(|| std::str::from_utf8(name).ok().map(str::to_owned))
                .flatten()
        })
        .collect()
}

/// Compact, no trailing newline, as the reference writes it.
pub fn render(files: &[String]) -> String {
    #[derive(serde::Serialize)]
    struct Manifest<'a> {
        version: u8,
        files: &'a [String],
    }
    serde_json::to_string(&Manifest { version: 1, files }).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canonical_form_reads_as_the_json_parser_reads_it() {
        let slow = |bytes: &[u8]| {
            let value: Value = serde_json::from_slice(bytes).expect("json");
            value["files"]
                .as_array()
                .expect("array")
                .iter()
                .map(|v| v.as_str().expect("string").to_owned())
                .collect::<Vec<_>>()
        };
        for files in [
            vec![],
            vec!["a.md".to_owned()],
            vec![
                "one-1.md".to_owned(),
                "two-2.md".to_owned(),
                "x.md".to_owned(),
            ],
        ] {
            let text = render(&files);
            assert_eq!(parse_canonical(text.as_bytes()), Some(files.clone()));
            assert_eq!(slow(text.as_bytes()), files);
        }
        // Anything else goes to the JSON parser; whatever the fast path does take, it reads as
        // the JSON parser does.
        for text in [
            r#"{"version":1,"files":["a.md",]}"#,
            r#"{"version":1,"files":["a.md" ]}"#,
            r#"{"version":1,"files":["a\u002emd"]}"#,
            r#"{"version":1,"files":["a.md"],"files":[]}"#,
            r#"{"version":1,"files":[1]}"#,
            r#"{"version":1,"files":["A.md"]}"#,
            r#"{"files":["a.md"],"version":1}"#,
            r#"{"version":1,"files":["a.md","b.md"]} "#,
        ] {
            assert_eq!(parse_canonical(text.as_bytes()), None, "{text}");
        }
        let empty_name = r#"{"version":1,"files":[""]}"#;
        assert_eq!(
            parse_canonical(empty_name.as_bytes()),
            Some(slow(empty_name.as_bytes()))
        );
        assert!(matches!(
            parse(empty_name.as_bytes(), 200),
            Err(ManifestError::UnsafeName(_))
        ));
    }

    #[test]
    fn renders_like_the_reference() {
        assert_eq!(
            render(&["a-1.md".into()]),
            r#"{"version":1,"files":["a-1.md"]}"#
        );
        assert_eq!(render(&[]), r#"{"version":1,"files":[]}"#);
    }

    #[test]
    fn rejects_unsafe_names_and_schema_violations() {
        for bad in [
            r#"{"version":1,"files":["NUL.md"]}"#,
            r#"{"version":1,"files":["nul.md"]}"#,
            r#"{"version":1,"files":["safe-name.md:stream"]}"#,
            r#"{"version":1,"files":["../x.md"]}"#,
            r#"{"version":true,"files":[]}"#,
            r#"{"version":2,"files":[]}"#,
            r#"{"version":1,"files":[],"extra":1}"#,
            r#"{"version":1,"files":[1]}"#,
            r#"{"version":1,"files":["a.md","a.md"]}"#,
            r#"[]"#,
            "not json",
        ] {
            assert!(parse(bad.as_bytes(), 200).is_err(), "{bad}");
        }
        assert!(matches!(
            parse(br#"{"version":1,"files":["a.md","b.md"]}"#, 1),
            Err(ManifestError::TooMany { count: 2, max: 1 })
        ));
    }
}
