//! A Bash word as the gate sees it after the shell would expand it: known characters, and
//! stand-ins for what only the shell knows at run time. [`super::bash_reach`] turns the
//! result into the set of paths the word may name.

/// One character of an expanded word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seg {
    /// A character the shell passes on as it is.
    Lit(char),
    /// A glob, a brace expansion, `$$`, `$?`, an arithmetic result: unknown text that does
    /// not climb out of the folder its prefix names (a literal `..` after it is checked
    /// separately).
    Wild,
    /// A variable, a command substitution, `~user`: any text at all, `/` and `..` included.
    Open,
}

pub(crate) type Expanded = Vec<Seg>;

pub(crate) fn literal(text: &str) -> Expanded {
    text.chars().map(Seg::Lit).collect()
}

/// The word's text when it is fully known.
pub(crate) fn known_text(word: &[Seg]) -> Option<String> {
    word.iter()
        .map(|seg| match seg {
            Seg::Lit(c) => Some(*c),
            _ => None,
        })
        .collect()
}

/// The parts of a word that may be a path: the whole word, what follows `=` (`of=PATH`,
/// `--output=PATH`) or `:` (`PATH:PATH`, `host:PATH`), and what follows a short option
/// (`-oPATH`). Taking too many costs nothing: a part that names no protected path is
/// ignored.
pub(crate) fn path_candidates(word: &[Seg]) -> Vec<&[Seg]> {
    let mut out = vec![word];
    if let [Seg::Lit('-'), Seg::Lit(c), rest @ ..] = word
        && *c != '-'
        && !rest.is_empty()
    {
        out.push(rest);
    }
    for (i, seg) in word.iter().enumerate() {
        if matches!(seg, Seg::Lit('=' | ':' | ',')) && i + 1 < word.len() {
            out.push(&word[i + 1..]);
        }
    }
    out
}

/// Decodes the body of `$'…'` as Bash does; an escape Bash does not know stays as written.
pub(crate) fn ansi_c(body: &str) -> String {
    let mut out = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'e' | 'E' => Some('\x1b'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        if let Some(decoded) = simple {
            out.push(decoded);
            continue;
        }
        let (radix, max) = match e {
            'x' => (16, 2),
            'u' => (16, 4),
            'U' => (16, 8),
            '0'..='7' => (8, 2),
            'c' => {
                if let Some(next) = chars.next() {
                    out.push(char::from((next as u32 as u8) & 0x1f));
                }
                continue;
            }
            _ => {
                out.push('\\');
                out.push(e);
                continue;
            }
        };
        let mut digits = String::new();
        if radix == 8 {
            digits.push(e);
        }
        while digits.len() < max + usize::from(radix == 8)
            && chars.peek().is_some_and(|d| d.is_digit(radix))
        {
            digits.extend(chars.next());
        }
        match u32::from_str_radix(&digits, radix)
            .ok()
            .and_then(char::from_u32)
        {
            Some(decoded) => out.push(decoded),
            None => {
                out.push('\\');
                out.push(e);
                out.push_str(&digits);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_c_quotes_decode_as_bash_does() {
        assert_eq!(ansi_c(r"a\x2fb"), "a/b");
        assert_eq!(ansi_c(r"\057tmp\u002Fx"), "/tmp/x");
        assert_eq!(ansi_c(r"it\'s\n"), "it's\n");
        assert_eq!(ansi_c(r"\q"), "\\q");
    }

    #[test]
    fn candidates_include_option_values() {
        let word = literal("--output=/m/a.md");
        let found: Vec<String> = path_candidates(&word)
            .into_iter()
            .filter_map(known_text)
            .collect();
        assert!(found.contains(&"/m/a.md".to_owned()));
        let short = literal("-o/m/a.md");
        assert!(
            path_candidates(&short)
                .into_iter()
                .filter_map(known_text)
                .any(|c| c == "/m/a.md")
        );
    }
}
