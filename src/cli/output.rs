//! Printing untrusted text (record fields come from model output): made inert for the
//! terminal, and with every detected credential redacted on every path but `show --raw`
//! (docs/security.md).

use std::io::{IsTerminal, Write};

use crate::redact::{redact, redact_json};
use crate::sanitize;

/// Untrusted text as every output shows it: credentials redacted, then made [`inert`].
pub(super) fn shown(text: &str) -> String {
    inert(&redact(text))
}

/// Untrusted text made inert: every control, C1 and bidi character becomes a visible picture;
/// line breaks and tabs stay as they are.
pub(super) fn inert(text: &str) -> String {
    sanitize::inert(text)
}

/// A one-line field (a name, a description, a file name) as one line, as every output shows
/// it: credentials redacted, line breaks and every other unsafe character made visible
/// ([`sanitize::line`]), so a field can never forge an output line of its own.
pub(super) fn one_line(text: &str) -> String {
    sanitize::line(&redact(text)).into_owned()
}

/// [`one_line`] padded with spaces to `width` characters. Unlike `format!`'s width, any width
/// works (a name may be longer than 65,535 characters).
pub(super) fn padded(text: &str, width: usize) -> String {
    let text = one_line(text);
    let pad = width.saturating_sub(unicode_width::UnicodeWidthStr::width(text.as_str()));
    let mut out = String::with_capacity(text.len() + pad);
    out.push_str(&text);
    out.extend(std::iter::repeat_n(' ', pad));
    out
}

/// The widest of `texts` as [`one_line`] prints them, in terminal columns (a CJK character
/// takes two), so that [`padded`] columns line up on screen.
pub(super) fn widest<'a>(texts: impl IntoIterator<Item = &'a str>) -> usize {
    texts
        .into_iter()
        .map(|t| unicode_width::UnicodeWidthStr::width(one_line(t).as_str()))
        .max()
        .unwrap_or(0)
}

/// Writes untrusted text to stdout, credentials redacted and made inert whether or not stdout
/// is a terminal: a pipe often ends in one (`memwb show x | less -R`). Scripts that need the
/// exact bytes use `show --raw`.
pub(super) fn print_untrusted(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(shown(text).as_bytes())?;
    out.flush()
}

/// Writes bytes to stdout exactly as they are (`show --raw`).
pub(super) fn print_raw(bytes: &[u8]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

/// JSON text with every character a terminal must not see raw (serde_json leaves DEL, C1
/// controls and bidi overrides as they are) written as a `\uXXXX` escape: still the same JSON.
pub(super) fn escape_json(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '\n' && sanitize::is_unsafe(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                escaped.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            escaped.push(c);
        }
    }
    escaped
}

/// JSON on stdout, escaped by [`escape_json`]: pretty for a person at a terminal, compact (one
/// line) for a script reading a pipe or a file.
pub(super) fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    write_json(&mut std::io::stdout().lock(), value)
}

/// JSON for stdout, every string in it with its credentials redacted, escaped by
/// [`escape_json`], on `out`: pretty when stdout is a terminal, compact otherwise.
pub(super) fn write_json(out: &mut dyn Write, value: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut value = serde_json::to_value(value)?;
    redact_json(&mut value);
    let text = json_text(&value, std::io::stdout().is_terminal())?;
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

fn json_text(value: &impl serde::Serialize, pretty: bool) -> anyhow::Result<String> {
    let text = if pretty {
        serde_json::to_string_pretty(value)?
    } else {
        serde_json::to_string(value)?
    };
    Ok(escape_json(&text))
}

/// What `ls` says on a set with no memories, on both formats, with the command that adds one.
pub(super) const NO_MEMORIES: &str = "no memories in this set; add one with: memwb add --name NAME --type user --description TEXT --body TEXT";

/// "1 entry", "2 entries": a count with its noun in the right number.
pub(super) fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_become_visible() {
        assert_eq!(
            inert("a\u{1b}]0;title\u{7}b\u{9b}2J"),
            "a\u{241b}]0;title\u{2407}b\u{2370}9B2J"
        );
        assert_eq!(inert("keep\nlines and 中文"), "keep\nlines and 中文");
        assert_eq!(inert("a\r\nb"), "a\u{240d}\nb");
        assert_eq!(inert("tab\tkept\u{8}"), "tab\tkept\u{2408}");
    }

    #[test]
    fn json_keeps_its_meaning_but_not_the_raw_controls() {
        let value = serde_json::json!({"s": "a\u{9b}2J\u{202e}b\u{7f}"});
        let escaped = escape_json(&serde_json::to_string_pretty(&value).unwrap());
        assert!(
            !escaped.chars().any(|c| c != '\n' && sanitize::is_unsafe(c)),
            "{escaped}"
        );
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&escaped).unwrap(),
            value
        );
    }

    #[test]
    fn json_is_pretty_for_a_terminal_and_one_line_for_a_pipe() {
        let value = serde_json::json!([{"name": "a", "body": "two\nlines"}]);
        let compact = json_text(&value, false).unwrap();
        assert_eq!(compact, r#"[{"name":"a","body":"two\nlines"}]"#);
        let pretty = json_text(&value, true).unwrap();
        assert!(pretty.lines().count() > 3, "{pretty}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&pretty).unwrap(),
            value
        );
    }

    #[test]
    fn padding_works_past_format_widths_limit_and_keeps_fields_on_one_line() {
        let padded = padded("a\nb", 70_000);
        assert_eq!(padded.chars().count(), 70_000);
        assert!(padded.starts_with("a\u{240A}b "), "{:?}", &padded[..8]);
        assert_eq!(widest(["x", "line\nbreak"]), 10);
    }
}
