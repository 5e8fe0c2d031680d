//! Printing untrusted text (record fields come from model output).

use std::io::{IsTerminal, Write};

use crate::sanitize;

/// Untrusted text made inert for a terminal (see [`crate::sanitize`]), line breaks kept.
pub fn inert(text: &str) -> String {
    text.split('\n')
        .map(sanitize::line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Writes `text` to stdout; made inert when stdout is a terminal, byte-exact when piped.
pub fn print_untrusted(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    if std::io::stdout().is_terminal() {
        out.write_all(inert(text).as_bytes())?;
    } else {
        out.write_all(text.as_bytes())?;
    }
    out.flush()
}

/// JSON output: serde_json leaves DEL and C1 controls raw, so escape them too.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if ('\u{7F}'..='\u{9F}').contains(&c) {
            escaped.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            escaped.push(c);
        }
    }
    escaped.push('\n');
    let mut out = std::io::stdout().lock();
    out.write_all(escaped.as_bytes())?;
    out.flush()?;
    Ok(())
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
    }
}
