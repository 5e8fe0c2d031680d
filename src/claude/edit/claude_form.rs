//! A new topic file in Claude Code's own form: what its Write leaves of a file (verified on
//! 2.1.332, docs/claude-code.md "Writes in Claude Code's form"), so that its next Write or Edit
//! changes nothing memwb wrote. `name` in ASCII kebab-case, `description`, then `metadata:`
//! with `node_type: memory`, `type` and `modified`; LF line breaks; one blank line after the
//! closing `---`. Values are quoted as Claude Code quotes them.

use jiff::Timestamp;
use serde_json::Value;

use super::{EditError, stamp};
use crate::claude::frontmatter::{self, Frontmatter, METADATA_KEY};

/// The name Claude Code keeps of `name`: ASCII letters and digits lowercased, every run of
/// anything else one `-`, none at either end (`发布流程` becomes empty); the `.memory` slug
/// made of it, which is the same rule.
pub(crate) fn kept_name(name: &str) -> String {
    crate::store::record::slug_of(name)
}

/// Refuses a name Claude Code would change or erase on its next edit of the file, naming the
/// one it would keep.
pub(crate) fn check_name(name: &str) -> Result<(), EditError> {
    let kept = kept_name(name);
    if kept == name {
        Ok(())
    } else {
        Err(EditError::Name {
            name: name.to_owned(),
            kept,
        })
    }
}

/// The text of a new topic file as Claude Code leaves it; `session` is the Claude Code session
/// it came from, when there is one (Claude Code adds its own `originSessionId` otherwise).
pub(crate) fn topic_text(
    name: &str,
    description: &str,
    kind: &str,
    body: &str,
    session: Option<&str>,
    now: Timestamp,
) -> Result<String, EditError> {
    check_name(name)?;
    let line = |indent: &str, key: &str, value: &str| -> Result<String, EditError> {
        if value.contains(['\n', '\r']) {
            return Err(EditError::FieldLines { key: key.into() });
        }
        Ok(format!("{indent}{key}: {}\n", scalar(value)))
    };
    let mut text = String::from("---\n");
    text.push_str(&line("", "name", name)?);
    // Claude Code drops an empty description.
    if !description.is_empty() {
        text.push_str(&line("", "description", description)?);
    }
    text.push_str("metadata:\n");
    text.push_str(&line("  ", "node_type", "memory")?);
    text.push_str(&line("  ", "type", kind)?);
    if let Some(session) = session {
        text.push_str(&line("  ", "originSessionId", session)?);
    }
    text.push_str(&line("  ", "modified", &stamp(now))?);
    text.push_str("---\n\n");
    let body = body.trim_start_matches(['\n', '\r']);
    text.push_str(body);
    if !body.is_empty() && !body.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// A new file's text (an agent's Write a person approves) as Claude Code's Write leaves it:
/// `type` and every field but `name` and `description` under `metadata:` after `node_type:
/// memory`, `originSessionId` (`session`) added when missing, `modified` stamped, LF in the
/// frontmatter, one blank line after it. `None` when Claude Code leaves the text as written
/// (no frontmatter, invalid YAML, a BOM) or when a field is not a plain value (a list, a
/// nested block other than `metadata:`), which memwb then writes as it is. The name becomes
/// the slug Claude Code keeps; a name it would erase (no ASCII letter or digit) is refused
/// ([`check_name`]).
pub(crate) fn rewrite(
    text: &str,
    session: Option<&str>,
    now: Timestamp,
) -> Result<Option<String>, EditError> {
    if text.starts_with('\u{feff}') {
        return Ok(None);
    }
    let parsed = frontmatter::parse(text);
    let Frontmatter::Fields(fields) = &parsed.frontmatter else {
        return Ok(None);
    };
    let plain = |value: &Value| match value {
        Value::String(s) => Some(scalar(s)),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    let (mut name, mut description) = (None, None);
    let mut nested: Vec<(String, String)> = Vec::new();
    for (key, value) in fields {
        match (key.as_str(), value) {
            ("name", Value::String(s)) => name = Some(s.as_str()),
            ("description", Value::String(s)) => description = Some(s.as_str()),
            (METADATA_KEY, Value::Object(children)) => {
                for (key, value) in children {
                    let Some(value) = plain(value) else {
                        return Ok(None);
                    };
                    nested.push((key.clone(), value));
                }
            }
            (key, value) => {
                let Some(value) = plain(value) else {
                    return Ok(None);
                };
                nested.push((key.to_owned(), value));
            }
        }
    }
    // Claude Code's own Write keeps the kebab-case slug of an agent's name (`flaky tests`
    // becomes `flaky-tests`), so approving does the same; a name with no slug at all would be
    // erased, which breaks every link to it: refused.
    let kept = name.map(kept_name);
    if let (Some(name), Some(kept)) = (name, &kept)
        && kept.is_empty()
    {
        check_name(name)?;
    }
    let name = kept.as_deref();
    // `node_type` and `type` first, the rest in order; `originSessionId` and `modified`
    // appended when missing.
    let take = |nested: &mut Vec<(String, String)>, key: &str| {
        nested
            .iter()
            .position(|(k, _)| k == key)
            .map(|at| nested.remove(at))
    };
    let mut metadata = vec![("node_type".to_owned(), "memory".to_owned())];
    take(&mut nested, "node_type");
    metadata.extend(take(&mut nested, "type"));
    metadata.append(&mut nested);
    if let Some(session) = session
        && !metadata.iter().any(|(k, _)| k == "originSessionId")
    {
        metadata.push(("originSessionId".into(), scalar(session)));
    }
    let stamped = stamp(now);
    match metadata.iter_mut().find(|(k, _)| k == "modified") {
        Some((_, value)) => *value = stamped,
        None => metadata.push(("modified".into(), stamped)),
    }
    let mut out = String::from("---\n");
    if let Some(name) = name {
        out.push_str(&format!("name: {}\n", scalar(name)));
    }
    if let Some(description) = description.filter(|d| !d.is_empty()) {
        out.push_str(&format!("description: {}\n", scalar(description)));
    }
    out.push_str("metadata:\n");
    for (key, value) in metadata {
        out.push_str(&format!("  {key}: {value}\n"));
    }
    out.push_str("---\n\n");
    out.push_str(parsed.body.trim_start_matches(['\n', '\r']));
    Ok(Some(out))
}

/// `value` as Claude Code's writer puts it (observed on 2.1.332 over many values): bare when
/// it holds nothing its rules quote, else in double quotes with JSON's escapes.
pub(crate) fn scalar(value: &str) -> String {
    if bare_as_claude_writes(value) {
        value.to_owned()
    } else {
        super::fields::double_quoted(value)
    }
}

/// Whether Claude Code writes `value` bare: not empty; none of `,[]{}#'"` and backtick
/// anywhere, nor a control character; not starting with a space or one of `-?:&*!|>%@`, not
/// ending with a space or `:`, no `: `; not a YAML 1.1 boolean or null word, nor a number
/// (`1_000`, `1.2.3`, `12:30`, `NaN` and dates stay bare).
fn bare_as_claude_writes(value: &str) -> bool {
    let Some(first) = value.chars().next() else {
        return false;
    };
    let quoted_anywhere = |c: char| ",[]{}#'\"`".contains(c) || c.is_control();
    !(value.chars().any(quoted_anywhere)
        || " -?:&*!|>%@".contains(first)
        || value.ends_with([' ', ':'])
        || value.contains(": ")
        || is_word_or_number(value))
}

/// A YAML 1.1 boolean or null word, or a number as YAML reads one.
fn is_word_or_number(value: &str) -> bool {
    const WORDS: [&str; 28] = [
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
        "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~",
        ".nan", ".inf",
    ];
    if WORDS.contains(&value) {
        return true;
    }
    let digits = |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c.is_digit(radix));
    if let Some(hex) = value.strip_prefix("0x") {
        return digits(hex, 16);
    }
    if let Some(octal) = value.strip_prefix("0o") {
        return digits(octal, 8);
    }
    // [-+]? ( [0-9]+ (\.[0-9]*)? | \.[0-9]+ ) ([eE][-+]?[0-9]+)?
    let unsigned = value.strip_prefix(['+', '-']).unwrap_or(value);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            (digits(whole, 10) && (fraction.is_empty() || digits(fraction, 10)))
                || (whole.is_empty() && digits(fraction, 10))
        }
        None => digits(mantissa, 10),
    };
    mantissa_ok && exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e), 10))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> Timestamp {
        "2026-12-01T18:50:28.683Z".parse().expect("a time")
    }

    #[test]
    fn a_new_topic_is_written_as_claude_codes_write_leaves_it() {
        // The bytes Claude Code 2.1.332 left of its own Write of this memory (the real client,
        // tests/real_claude.rs), but for its session's `originSessionId`.
        let text = topic_text(
            "deploy-steps",
            "how deploys run",
            "project",
            "\n\nStaging first.",
            None,
            at(),
        );
        assert_eq!(
            text.as_deref(),
            Ok(
                "---\nname: deploy-steps\ndescription: how deploys run\nmetadata:\n  node_type: memory\n  type: project\n  modified: 2026-12-01T18:50:28.683Z\n---\n\nStaging first.\n"
            )
        );
        let text = topic_text("plain", "a: b", "user", "Body.\r\n", Some("c7ff-1"), at());
        assert_eq!(
            text.as_deref(),
            Ok(
                "---\nname: plain\ndescription: \"a: b\"\nmetadata:\n  node_type: memory\n  type: user\n  originSessionId: c7ff-1\n  modified: 2026-12-01T18:50:28.683Z\n---\n\nBody.\r\n"
            )
        );
        let text = topic_text("empty-desc", "", "project", "x\n", None, at());
        assert!(
            text.as_deref()
                .is_ok_and(|t| t.starts_with("---\nname: empty-desc\nmetadata:\n")),
            "{text:?}"
        );
        assert_eq!(
            topic_text("a", "two\nlines", "user", "", None, at()),
            Err(EditError::FieldLines {
                key: "description".into()
            })
        );
    }

    #[test]
    fn an_agents_new_file_is_rewritten_as_claude_codes_write_would() {
        // Each pair: an agent's Write, and what Claude Code 2.1.332 left of it (its session's
        // id given as `session`, its stamp as `at`).
        let cases = [
            (
                "---\nname: deploy-steps\ndescription: how deploys run\ntype: project\nmodified: 2026-12-01T18:32:43.465Z\n---\n\nStaging first.\n",
                "---\nname: deploy-steps\ndescription: how deploys run\nmetadata:\n  node_type: memory\n  type: project\n  modified: 2026-12-01T18:50:28.683Z\n  originSessionId: s-1\n---\n\nStaging first.\n",
            ),
            (
                "---\nname: release-flow\ndescription: \"deploy: staging first; then 'prod' #1\"\ntype: feedback\ntags: a\nmodified: 2026-12-01T18:32:43.465Z\n---\nBody one.\n",
                "---\nname: release-flow\ndescription: \"deploy: staging first; then 'prod' #1\"\nmetadata:\n  node_type: memory\n  type: feedback\n  tags: a\n  modified: 2026-12-01T18:50:28.683Z\n  originSessionId: s-1\n---\n\nBody one.\n",
            ),
            (
                "---\r\nname: plain\r\ndescription: 发布 步骤\r\ntype: user\r\n---\r\n\r\n\r\nBody two.\r\n",
                "---\nname: plain\ndescription: 发布 步骤\nmetadata:\n  node_type: memory\n  type: user\n  originSessionId: s-1\n  modified: 2026-12-01T18:50:28.683Z\n---\n\nBody two.\r\n",
            ),
            (
                "---\nname: empty-desc\ndescription: \"\"\nmetadata:\n  type: project\n---\nBody five.\n",
                "---\nname: empty-desc\nmetadata:\n  node_type: memory\n  type: project\n  originSessionId: s-1\n  modified: 2026-12-01T18:50:28.683Z\n---\n\nBody five.\n",
            ),
        ];
        for (written, left) in cases {
            let rewritten = rewrite(written, Some("s-1"), at());
            assert_eq!(rewritten, Ok(Some(left.to_owned())), "{written}");
            // Claude Code's form is its own fixed point, but for the stamp.
            assert_eq!(rewrite(left, Some("s-2"), at()), Ok(Some(left.to_owned())));
        }
        for untouched in [
            "no frontmatter\n",
            "---\nname: \"a\" b\n---\nx\n",
            "\u{feff}---\nname: a\n---\n",
        ] {
            assert_eq!(rewrite(untouched, None, at()), Ok(None), "{untouched}");
        }
        assert!(matches!(
            rewrite("---\nname: 发布流程\n---\nx\n", None, at()),
            Err(EditError::Name { .. })
        ));
        assert_eq!(
            rewrite(
                "---\nname: Flaky tests\ntype: feedback\n---\nx\n",
                None,
                at()
            )
            .map(|text| text.map(|t| t.lines().nth(1).map(str::to_owned))),
            Ok(Some(Some("name: flaky-tests".to_owned())))
        );
    }

    #[test]
    fn names_claude_code_would_change_are_refused_with_the_one_it_keeps() {
        for (name, kept) in [
            ("Release Flow v2.1 (draft)", "release-flow-v2-1-draft"),
            (
                "release_flow.v2 Ünïcode Straße",
                "release-flow-v2-n-code-stra-e",
            ),
            ("发布流程", ""),
            ("-a--b-", "a-b"),
        ] {
            assert_eq!(kept_name(name), kept);
            let error = check_name(name).expect_err(name);
            let said = error.to_string();
            assert!(said.contains(name), "{said}");
            if kept.is_empty() {
                assert!(said.contains("would erase it"), "{said}");
            } else {
                assert!(said.contains(&format!("use `{kept}`")), "{said}");
            }
        }
        assert_eq!(check_name("deploy-steps-2"), Ok(()));
    }

    #[test]
    fn values_are_quoted_as_claude_code_quotes_them() {
        // What Claude Code 2.1.332 wrote of each value (tests/real_claude.rs and a survey of
        // its Write over ninety values).
        let bare = [
            "how deploys run",
            "a.b c",
            "a/b c",
            "a(b) c",
            "a;b c",
            "a — b",
            "a!b",
            "a?b",
            "a:b",
            "a@b",
            "a&b",
            "a*b",
            "a%b",
            "a=b",
            "a|b",
            "a>b",
            "a~b",
            "a$b",
            "a\\b",
            "Ünïcode",
            "数字 123",
            "ends?",
            "(starts",
            "3 apples",
            "v1.2.3",
            "1.2.3",
            "12:30",
            "a  b",
            "NaN",
            "Infinity",
            "1_000",
            "2026-12-01",
            "été",
        ];
        for value in bare {
            assert_eq!(scalar(value), value);
        }
        for (value, written) in [
            ("a: b", "\"a: b\""),
            ("say \"hi\": then ask", "\"say \\\"hi\\\": then ask\""),
            ("back\\slash: x", "\"back\\\\slash: x\""),
            ("tab\there", "\"tab\\there\""),
            ("it's fine", "\"it's fine\""),
            ("a,b", "\"a,b\""),
            ("a#b", "\"a#b\""),
            ("a`b", "\"a`b\""),
            ("a[b]", "\"a[b]\""),
            ("-staging", "\"-staging\""),
            ("?q", "\"?q\""),
            ("@at", "\"@at\""),
            ("%p", "\"%p\""),
            ("|pipe", "\"|pipe\""),
            ("ends with colon:", "\"ends with colon:\""),
            ("trailing ", "\"trailing \""),
            (" leading", "\" leading\""),
            ("yes", "\"yes\""),
            ("Off", "\"Off\""),
            ("y", "\"y\""),
            ("null", "\"null\""),
            ("~", "\"~\""),
            ("true", "\"true\""),
            ("0", "\"0\""),
            ("-1", "\"-1\""),
            ("+1", "\"+1\""),
            (".5", "\".5\""),
            ("1.5", "\"1.5\""),
            ("1e3", "\"1e3\""),
            ("0x1F", "\"0x1F\""),
            ("0o17", "\"0o17\""),
        ] {
            assert_eq!(scalar(value), written, "{value}");
        }
    }
}
