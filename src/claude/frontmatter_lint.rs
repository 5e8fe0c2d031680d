//! What an agent's hand-written YAML gets wrong, and the one-line fix: a value that needed
//! quotes (`: ` inside it, a leading backtick, `"…"` followed by more text), a value that an
//! unquoted ` #` cut short (YAML reads the rest as a comment), and an empty `name`.

use super::frontmatter::{Frontmatter, Parsed};

/// A top-level `key: value` line of the frontmatter, the value as written (not trimmed of
/// a comment).
struct FieldLine<'a> {
    key: &'a str,
    value: &'a str,
}

fn field_line(line: &str) -> Option<FieldLine<'_>> {
    let line = line.trim_end_matches('\r');
    let (key, value) = line.split_once(':')?;
    let simple_key = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-'));
    let value = value.strip_prefix([' ', '\t'])?.trim();
    (simple_key && !value.is_empty()).then_some(FieldLine { key, value })
}

/// `key: "value"`: a double-quoted scalar that reads back as exactly `value` (a JSON string
/// is a valid YAML double-quoted scalar).
fn quoted(key: &str, value: &str) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| format!("{value:?}"));
    format!("{key}: {text}")
}

/// For invalid frontmatter: the quoted form of the field on file `line` (the opening `---`
/// is line 1), when that line is a plain `key: value` whose value needed quotes.
pub(crate) fn quoting_fix(raw: &str, line: usize) -> Option<String> {
    let text = raw.split('\n').nth(line.checked_sub(2)?)?;
    let field = field_line(text)?;
    let plain = !field.value.starts_with(['\'', '|', '>', '[', '{']);
    plain.then(|| quoted(field.key, field.value))
}

/// A value an unquoted ` #` cut short.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Truncated {
    /// The file line (1-based).
    pub line: usize,
    pub key: String,
    /// What YAML reads.
    pub read: String,
    /// The line with the value quoted, which keeps all of it.
    pub fix: String,
}

/// Top-level plain values in which a ` #` starts a comment that eats the rest of the line.
pub(crate) fn truncated_values(parsed: &Parsed) -> Vec<Truncated> {
    if !matches!(parsed.frontmatter, Frontmatter::Fields(_)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (index, text) in parsed.raw.split('\n').enumerate() {
        let Some(field) = field_line(text) else {
            continue;
        };
        if field
            .value
            .starts_with(['"', '\'', '|', '>', '[', '{', '#'])
        {
            continue;
        }
        let Some(cut) = comment_start(field.value) else {
            continue;
        };
        let Some(read) = parsed.field(field.key) else {
            continue;
        };
        if read == field.value[..cut].trim_end() {
            out.push(Truncated {
                line: index + 2,
                key: field.key.to_owned(),
                read: read.to_owned(),
                fix: quoted(field.key, field.value),
            });
        }
    }
    out
}

/// The byte offset of a ` #` or tab-`#` in a plain scalar: where YAML starts a comment.
fn comment_start(value: &str) -> Option<usize> {
    value
        .char_indices()
        .find(|&(i, c)| c == '#' && i > 0 && value[..i].ends_with([' ', '\t']))
        .map(|(i, _)| i)
}

/// Whether the `name` field is there but blank (`name: ""`): Claude Code slugifies a name
/// with no ASCII letters to this.
pub(crate) fn name_is_blank(parsed: &Parsed) -> bool {
    parsed.field("name").is_some_and(|n| n.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claude::frontmatter::parse;

    #[test]
    fn a_hash_after_a_space_is_reported_with_the_quoted_line() {
        let parsed = parse(
            "---\nname: tickets\ndescription: Bugs go to issue #42 #urgent\ntype: project\n---\nbody\n",
        );
        let found = truncated_values(&parsed);
        assert_eq!(
            found,
            [Truncated {
                line: 3,
                key: "description".into(),
                read: "Bugs go to issue".into(),
                fix: "description: \"Bugs go to issue #42 #urgent\"".into(),
            }]
        );
        // The fix reads back whole.
        let fixed = parse(&format!("---\n{}\n---\n", found[0].fix));
        assert_eq!(
            fixed.field("description"),
            Some("Bugs go to issue #42 #urgent")
        );
        // Not a comment: no space before `#`, or quoted.
        for quiet in [
            "---\ndescription: issue#42 and C# code\n---\n",
            "---\ndescription: \"issue #42\"\n---\n",
            "---\ndescription: 'issue #42'\n---\n",
        ] {
            assert!(truncated_values(&parse(quiet)).is_empty(), "{quiet}");
        }
    }

    #[test]
    fn invalid_lines_get_their_quoted_form() {
        let raw = "name: a\ndescription: Deploys: staging first\n";
        assert_eq!(
            quoting_fix(raw, 3).as_deref(),
            Some("description: \"Deploys: staging first\"")
        );
        let raw = "description: \"quoted\" then more\n";
        assert_eq!(
            quoting_fix(raw, 2).as_deref(),
            Some("description: \"\\\"quoted\\\" then more\"")
        );
        assert_eq!(
            quoting_fix("description: `cargo test` runs it\n", 2).as_deref(),
            Some("description: \"`cargo test` runs it\"")
        );
        assert_eq!(quoting_fix("  nested: x: y\n", 2), None);
        assert_eq!(quoting_fix("name: a\n", 9), None);
    }

    #[test]
    fn a_blank_name_is_told_apart_from_a_missing_one() {
        assert!(name_is_blank(&parse("---\nname: \"\"\n---\n")));
        assert!(!name_is_blank(&parse("---\ndescription: d\n---\n")));
        assert!(!name_is_blank(&parse("---\nname: a\n---\n")));
    }
}
