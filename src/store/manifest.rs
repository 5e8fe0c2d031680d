//! `manifest.json`: the only authority on which record files are in the set.

use serde_json::Value;

use super::record::is_windows_device_name;

pub const MANIFEST_FILE: &str = "manifest.json";

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
pub fn is_safe_file_name(name: &str) -> bool {
    name.strip_suffix(".md").is_some_and(|stem| {
        !stem.is_empty()
            && stem.split('-').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            })
            && !is_windows_device_name(stem)
    })
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
pub fn parse_lenient(bytes: &[u8]) -> Result<Vec<String>, ManifestError> {
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
