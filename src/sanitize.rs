//! The one place where untrusted text (record fields, bodies, file names, errors) is made
//! inert before it reaches the terminal.
//!
//! C0 controls, DEL and ESC become the Unicode control pictures (`␛`, `␇`, ...), C1 controls
//! become `⍰` followed by their hex code, bidirectional overrides become a visible marker, and
//! a tab becomes spaces up to the next multiple of [`TAB_WIDTH`]. Line breaks are the caller's
//! business: [`line()`] maps `\n` and `\r` to pictures too, [`lines`] splits on them.
#![warn(missing_docs)]

use std::borrow::Cow;

/// The columns a tab becomes when text is made inert.
pub const TAB_WIDTH: usize = 4;

/// Whether `c` must not be written to a terminal as is.
pub(crate) fn is_unsafe(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The visible stand-in for an unsafe character.
pub fn picture(c: char, out: &mut String) {
    let code = c as u32;
    match code {
        0x00..=0x1F => out.push(char::from_u32(0x2400 + code).unwrap_or('\u{FFFD}')),
        0x7F => out.push('\u{2421}'),
        _ => {
            out.push('\u{2370}');
            out.push_str(&format!("{code:02X}"));
        }
    }
}

/// Text made inert: every control, C1 and bidi character becomes a visible picture; line
/// breaks and tabs stay as they are (for output that keeps its lines).
#[cfg(feature = "cli")]
pub(crate) fn inert(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_unsafe(c) && c != '\n' && c != '\t' {
            picture(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

/// One line of text, every unsafe character (line breaks included) made visible.
pub fn line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c) || c == '\t') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut column = 0;
    for c in text.chars() {
        if c == '\t' {
            let pad = TAB_WIDTH - column % TAB_WIDTH;
            out.extend(std::iter::repeat_n(' ', pad));
            column += pad;
        } else if is_unsafe(c) {
            picture(c, &mut out);
            column += 1;
        } else {
            out.push(c);
            column += 1;
        }
    }
    Cow::Owned(out)
}

/// Text split into lines on `\n` (and `\r\n`), each made safe with [`line()`]. A lone `\r`
/// stays visible as `␍`.
pub fn lines(text: &str) -> Vec<String> {
    text.split('\n')
        .map(|l| line(l.strip_suffix('\r').unwrap_or(l)).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_become_visible_symbols() {
        let osc = "\u{1b}]0;pwned\u{7}";
        assert_eq!(line(osc), "\u{241b}]0;pwned\u{2407}");
        assert_eq!(line("\u{1b}[2J\u{7f}"), "\u{241b}[2J\u{2421}");
        assert_eq!(line("a\u{9b}b"), "a\u{2370}9Bb");
        assert_eq!(line("x\u{202e}y"), "x\u{2370}202Ey");
        assert!(!line("plain 日本語").chars().any(is_unsafe));
    }

    #[test]
    fn tabs_expand_to_tab_stops() {
        assert_eq!(line("\tx"), "    x");
        assert_eq!(line("ab\tc"), "ab  c");
    }

    #[test]
    fn lines_split_and_escape() {
        assert_eq!(
            lines("a\r\nb\rc\n\u{1b}"),
            vec!["a", "b\u{240d}c", "\u{241b}"]
        );
    }

    #[test]
    fn safe_text_is_borrowed() {
        assert!(matches!(line("hello"), Cow::Borrowed(_)));
    }
}
