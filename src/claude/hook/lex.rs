//! Splitting a shell command into simple commands for [`super::bash`]: words with their quotes
//! removed, output redirection targets, heredoc bodies. A lexer, not a shell: nothing is
//! expanded or run.

/// One simple command: its words, its redirection targets, its heredoc bodies.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Simple {
    pub words: Vec<String>,
    pub outputs: Vec<String>,
    pub heredocs: Vec<String>,
}

/// The command's simple commands. Quotes are removed from words (their content kept);
/// a heredoc's body is attached to the command that opened it, not read as commands.
pub fn split(command: &str) -> Vec<Simple> {
    let chars: Vec<char> = command.chars().collect();
    let mut out = Vec::new();
    let mut current = Simple::default();
    let mut word = String::new();
    let mut in_word = false;
    let mut pending_redirect = false;
    let mut pending_heredocs: Vec<(String, bool)> = Vec::new();
    let mut i = 0;
    let finish_word =
        |word: &mut String, in_word: &mut bool, current: &mut Simple, redirect: &mut bool| {
            if *in_word {
                let w = std::mem::take(word);
                if *redirect {
                    current.outputs.push(w);
                    *redirect = false;
                } else {
                    current.words.push(w);
                }
                *in_word = false;
            }
        };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '\\' => {
                in_word = true;
                if let Some(&next) = chars.get(i + 1) {
                    if next != '\n' {
                        word.push(next);
                    }
                    i += 1;
                }
            }
            '>' => {
                // `2>&1`, `>&2`: a descriptor, not a file.
                let fd_prefix = in_word && word.chars().all(|c| c.is_ascii_digit() || c == '&');
                if fd_prefix {
                    word.clear();
                    in_word = false;
                } else {
                    finish_word(&mut word, &mut in_word, &mut current, &mut pending_redirect);
                }
                while matches!(chars.get(i + 1), Some('>' | '|')) {
                    i += 1;
                }
                if chars.get(i + 1) == Some(&'&') {
                    // `>&N` duplicates a descriptor; skip the `&`.
                    i += 1;
                    let mut j = i + 1;
                    while chars
                        .get(j)
                        .is_some_and(|c| c.is_ascii_digit() || *c == '-')
                    {
                        j += 1;
                    }
                    if j > i + 1 {
                        i = j;
                        continue;
                    }
                }
                pending_redirect = true;
            }
            '<' => {
                finish_word(&mut word, &mut in_word, &mut current, &mut pending_redirect);
                if chars.get(i + 1) == Some(&'<') && chars.get(i + 2) != Some(&'<') {
                    // A heredoc: read its delimiter word now, its body after the line ends.
                    i += 2;
                    let strip_tabs = chars.get(i) == Some(&'-');
                    if strip_tabs {
                        i += 1;
                    }
                    while chars.get(i).is_some_and(|c| *c == ' ' || *c == '\t') {
                        i += 1;
                    }
                    let mut delimiter = String::new();
                    while let Some(&d) = chars.get(i) {
                        if d.is_whitespace() || ";&|<>()".contains(d) {
                            break;
                        }
                        if d != '\'' && d != '"' && d != '\\' {
                            delimiter.push(d);
                        }
                        i += 1;
                    }
                    pending_heredocs.push((delimiter, strip_tabs));
                    continue;
                }
                while chars.get(i + 1) == Some(&'<') {
                    i += 1;
                }
                // An input redirection: its target is read, not written; drop it.
                i += 1;
                while chars.get(i).is_some_and(|c| *c == ' ') {
                    i += 1;
                }
                while chars
                    .get(i)
                    .is_some_and(|c| !c.is_whitespace() && !";&|()".contains(*c))
                {
                    i += 1;
                }
                continue;
            }
            '\n' | ';' | '&' | '|' | '(' | ')' => {
                // `&>` is a redirection of both streams.
                if c == '&' && chars.get(i + 1) == Some(&'>') {
                    finish_word(&mut word, &mut in_word, &mut current, &mut pending_redirect);
                    i += 1;
                    continue;
                }
                finish_word(&mut word, &mut in_word, &mut current, &mut pending_redirect);
                if c == '\n' && !pending_heredocs.is_empty() {
                    i += 1;
                    for (delimiter, strip_tabs) in std::mem::take(&mut pending_heredocs) {
                        let mut body = String::new();
                        while i < chars.len() {
                            let end = chars[i..]
                                .iter()
                                .position(|c| *c == '\n')
                                .map_or(chars.len(), |p| i + p);
                            let line: String = chars[i..end].iter().collect();
                            i = end + 1;
                            let compare = if strip_tabs {
                                line.trim_start_matches('\t')
                            } else {
                                line.as_str()
                            };
                            if compare == delimiter {
                                break;
                            }
                            body.push_str(&line);
                            body.push('\n');
                        }
                        current.heredocs.push(body);
                    }
                    out.push(std::mem::take(&mut current));
                    continue;
                }
                out.push(std::mem::take(&mut current));
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            c if c.is_whitespace() => {
                finish_word(&mut word, &mut in_word, &mut current, &mut pending_redirect);
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
        i += 1;
    }
    finish_word(&mut word, &mut in_word, &mut current, &mut pending_redirect);
    // A heredoc with no line after its command: its body is missing; keep the command.
    out.push(current);
    out.retain(|s| !s.words.is_empty() || !s.outputs.is_empty());
    out
}
