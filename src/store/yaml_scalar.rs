//! The scalar style of the `yaml` npm package (v2, default options), for one-line values of a
//! block mapping: when it writes plain, single- or double-quoted, how it escapes, and how it
//! folds at width 80. Ported from its `stringifyString` and `foldFlowLines`; lengths are in
//! UTF-16 code units, as in JavaScript.

const LINE_WIDTH: usize = 80;
const MIN_CONTENT_WIDTH: usize = 20;
const VALUE_INDENT: &str = "  ";
/// The longest text, in UTF-16 code units, that `fold_lines` never folds (its `endStep`).
const FOLD_FREE_UNITS: usize = max(1 + MIN_CONTENT_WIDTH, 1 + LINE_WIDTH - VALUE_INDENT.len());

const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// The text after `key: ` for `value`, where the key and colon take `key_width` columns.
/// Values never contain line breaks (record validation forbids them in every field written).
pub(crate) fn emit_scalar(value: &str, key_width: usize) -> String {
    debug_assert!(!value.contains(['\n', '\r']));
    let indent_at_start = key_width + 1;
    if value.chars().any(is_forcing_control) {
        return double_quoted(value, indent_at_start);
    }
    if value.is_empty() || plain_would_misread(value) || resolves_to_non_string(value).is_some() {
        return quoted(value, indent_at_start);
    }
    fold_lines(value, FoldMode::Flow, indent_at_start)
}

/// Whether [`emit_scalar`] writes `value` as it is (plain, on one line): what a record file
/// holds verbatim after `key: ` when memwb or the reference wrote it. Decided without building
/// the text when the value is too short to fold (every value of a usual record), by
/// [`emit_scalar`] itself otherwise. `value` has no line break, as for [`emit_scalar`].
pub(crate) fn emits_unchanged(value: &str, key_width: usize) -> bool {
    // A value of at most this many bytes is never folded (see `fold_lines`).
    if value.len() > FOLD_FREE_UNITS {
        return emit_scalar(value, key_width) == value;
    }
    !value.chars().any(is_forcing_control)
        && !value.is_empty()
        && !plain_would_misread(value)
        && resolves_to_non_string(value).is_none()
}

/// What the YAML 1.2 core schema makes of a plain scalar when it is not a string.
pub(crate) fn resolves_to_non_string(value: &str) -> Option<&'static str> {
    if matches!(value, "" | "~" | "null" | "Null" | "NULL") {
        return Some("null");
    }
    if matches!(
        value,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE"
    ) {
        return Some("a boolean");
    }
    if is_int(value) {
        return Some("an integer");
    }
    if is_float(value) {
        return Some("a float");
    }
    None
}

fn is_int(value: &str) -> bool {
    let all = |s: &str, f: fn(&u8) -> bool| !s.is_empty() && s.as_bytes().iter().all(f);
    if let Some(octal) = value.strip_prefix("0o") {
        return all(octal, |b| (b'0'..=b'7').contains(b));
    }
    if let Some(hex) = value.strip_prefix("0x") {
        return all(hex, u8::is_ascii_hexdigit);
    }
    all(strip_sign(value), u8::is_ascii_digit)
}

fn strip_sign(value: &str) -> &str {
    value.strip_prefix(['-', '+']).unwrap_or(value)
}

fn is_float(value: &str) -> bool {
    if matches!(value, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let unsigned = strip_sign(value);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => is_exp_mantissa(mantissa) && is_digits(strip_sign(exponent)),
        None => is_decimal_with_point(unsigned),
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `\.[0-9]+|[0-9]+(\.[0-9]*)?`
fn is_exp_mantissa(s: &str) -> bool {
    match s.split_once('.') {
        None => is_digits(s),
        Some(("", frac)) => is_digits(frac),
        Some((int, frac)) => is_digits(int) && frac.bytes().all(|b| b.is_ascii_digit()),
    }
}

/// `\.[0-9]+|[0-9]+\.[0-9]*`
fn is_decimal_with_point(s: &str) -> bool {
    s.contains('.') && is_exp_mantissa(s)
}

/// `[\x00-\x08\x0b-\x1f\x7f-\x9f]`: the package double-quotes any value containing one.
fn is_forcing_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{B}'..='\u{1F}' | '\u{7F}'..='\u{9F}')
}

/// The package's plain-scalar test:
/// `^[\n\t ,[\]{}#&*!|>'"%@\`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$`
fn plain_would_misread(value: &str) -> bool {
    let bytes = value.as_bytes();
    let first = bytes[0];
    if b"\n\t ,[]{}#&*!|>'\"%@`".contains(&first) {
        return true;
    }
    if matches!(first, b'?' | b'-') && bytes.get(1).is_none_or(|b| matches!(b, b' ' | b'\t')) {
        return true;
    }
    let pair_misreads = bytes.windows(2).any(|w| {
        matches!(
            (w[0], w[1]),
            (b'\n' | b':', b' ' | b'\t') | (b' ' | b'\t', b'\n') | (b'\n' | b'\t' | b' ', b'#')
        )
    });
    pair_misreads || matches!(bytes[bytes.len() - 1], b'\n' | b'\t' | b' ' | b':')
}

fn quoted(value: &str, indent_at_start: usize) -> String {
    if value.contains('"') && !value.contains('\'') {
        single_quoted(value, indent_at_start)
    } else {
        double_quoted(value, indent_at_start)
    }
}

fn single_quoted(value: &str, indent_at_start: usize) -> String {
    let text = format!("'{}'", value.replace('\'', "''"));
    fold_lines(&text, FoldMode::Flow, indent_at_start)
}

/// `JSON.stringify`, then the package's rewrites of `\u00XX` escapes into YAML's short forms.
fn double_quoted(value: &str, indent_at_start: usize) -> String {
    let mut text = String::with_capacity(value.len() + 2);
    text.push('"');
    for c in value.chars() {
        match c {
            '"' => text.push_str("\\\""),
            '\\' => text.push_str("\\\\"),
            '\u{0}' => text.push_str("\\0"),
            '\u{7}' => text.push_str("\\a"),
            '\u{8}' => text.push_str("\\b"),
            '\t' => text.push_str("\\t"),
            '\n' => text.push_str("\\n"),
            '\u{B}' => text.push_str("\\v"),
            '\u{C}' => text.push_str("\\f"),
            '\r' => text.push_str("\\r"),
            '\u{1B}' => text.push_str("\\e"),
            c if (c as u32) < 0x20 => text.push_str(&format!("\\x{:02x}", c as u32)),
            c => text.push(c),
        }
    }
    text.push('"');
    fold_lines(&text, FoldMode::Quoted, indent_at_start)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FoldMode {
    Flow,
    Quoted,
}

/// `foldFlowLines` with `lineWidth` 80, `minContentWidth` 20 and a two-space indent.
fn fold_lines(text: &str, mode: FoldMode, indent_at_start: usize) -> String {
    // UTF-16 code units never outnumber UTF-8 bytes: a text this short is never folded, and
    // its units need not be counted (every value of a usual record, on every write).
    if text.len() <= FOLD_FREE_UNITS {
        return text.to_owned();
    }
    let units: Vec<u16> = text.encode_utf16().collect();
    let indent_len = VALUE_INDENT.len();
    let end_step = FOLD_FREE_UNITS;
    if units.len() <= end_step {
        return text.to_owned();
    }
    let at = |i: usize| units.get(i).copied();
    let is = |c: Option<u16>, set: &[u8]| c.is_some_and(|c| set.iter().any(|&s| u16::from(s) == c));

    let mut folds: Vec<usize> = Vec::new();
    let mut escaped_folds: Vec<usize> = Vec::new();
    let mut end = LINE_WIDTH - indent_len;
    if indent_at_start > LINE_WIDTH - 2.max(MIN_CONTENT_WIDTH) {
        folds.push(0);
    } else {
        end = LINE_WIDTH - indent_at_start;
    }
    let mut split: Option<usize> = None;
    let mut prev: Option<u16> = None;
    let (mut esc_start, mut esc_end): (isize, isize) = (-1, -1);
    let mut i: usize = 0;
    while let Some(mut ch) = at(i) {
        if mode == FoldMode::Quoted && ch == u16::from(b'\\') {
            esc_start = i as isize;
            i += match at(i + 1).map(|c| c as u8 as char) {
                Some('x') => 3,
                Some('u') => 5,
                Some('U') => 9,
                _ => 1,
            };
            esc_end = i as isize;
        }
        if ch == u16::from(b'\n') {
            end = i + indent_len + end_step;
            split = None;
        } else {
            if ch == u16::from(b' ') && prev.is_some() && !is(prev, b" \n\t") {
                let next = at(i + 1);
                if next.is_some() && !is(next, b" \n\t") {
                    split = Some(i);
                }
            }
            if i >= end {
                if let Some(s) = split.filter(|&s| s > 0) {
                    folds.push(s);
                    end = s + end_step;
                    split = None;
                } else if mode == FoldMode::Quoted {
                    let mut current = Some(ch);
                    while is(prev, b" \t") {
                        prev = current;
                        i += 1;
                        current = at(i);
                    }
                    let j = if i as isize > esc_end + 1 {
                        i - 2
                    } else {
                        (esc_start - 1).max(0) as usize
                    };
                    if escaped_folds.contains(&j) {
                        return text.to_owned();
                    }
                    folds.push(j);
                    escaped_folds.push(j);
                    end = j + end_step;
                    split = None;
                    match current {
                        Some(c) => ch = c,
                        None => break,
                    }
                }
            }
        }
        prev = Some(ch);
        i += 1;
    }
    if folds.is_empty() {
        return text.to_owned();
    }
    let slice = |from: usize, to: usize| String::from_utf16_lossy(&units[from.min(to)..to]);
    let mut out = slice(0, folds[0]);
    for (n, &fold) in folds.iter().enumerate() {
        let stop = folds.get(n + 1).copied().unwrap_or(units.len());
        if fold == 0 {
            out = format!("\n{VALUE_INDENT}{}", slice(0, stop));
        } else {
            if mode == FoldMode::Quoted && escaped_folds.contains(&fold) {
                out.push_str(&slice(fold, fold + 1));
                out.push('\\');
            }
            out.push('\n');
            out.push_str(VALUE_INDENT);
            out.push_str(&slice(fold + 1, stop));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema_resolution() {
        for s in [
            "~", "null", "True", "FALSE", "123", "-42", "+1", "0x1F", "0o17", "1e3", ".inf",
            "-.Inf", ".nan", "3.14", "1.", ".5", "1.5e-3",
        ] {
            assert!(resolves_to_non_string(s).is_some(), "{s}");
        }
        for s in [
            "yes",
            "no",
            "on",
            "off",
            "1_000",
            "2026-11-29",
            "12:30",
            "0x",
            "0o8",
            "1.0.0",
            "e3",
            ".",
            "+",
            "nan",
            "Null but",
        ] {
            assert!(resolves_to_non_string(s).is_none(), "{s}");
        }
    }

    #[test]
    fn quoting_choices() {
        assert_eq!(emit_scalar("plain text", 12), "plain text");
        assert_eq!(emit_scalar("a: b", 12), "\"a: b\"");
        assert_eq!(emit_scalar("say \"hi\": now", 12), "'say \"hi\": now'");
        assert_eq!(emit_scalar("bell\u{7}", 12), "\"bell\\a\"");
        assert_eq!(emit_scalar("c1\u{85}", 12), "\"c1\u{85}\"");
        assert_eq!(emit_scalar("-", 12), "\"-\"");
        assert_eq!(emit_scalar("-x", 12), "-x");
    }
}
