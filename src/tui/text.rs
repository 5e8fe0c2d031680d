//! Text laid out by display width (`unicode-width`), not by `char` count: a CJK character or an
//! emoji takes two columns, a combining mark none. Every wrap, cut and pad in the workbench goes
//! through here, so wide text never runs over a border.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns `text` takes on a terminal.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

fn char_width(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(0)
}

/// `text` cut to at most `max` columns; a cut text ends with `…`, at the end of a word when
/// one ends in the last third of the room (a name or a path is cut where it must).
pub fn truncate(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let room = max - 1;
    let mut end = 0;
    let mut used = 0;
    for (i, c) in text.char_indices() {
        let w = char_width(c);
        if used + w > room {
            break;
        }
        used += w;
        end = i + c.len_utf8();
    }
    let head = &text[..end];
    let cut = match head.rfind(' ') {
        Some(space) if width(&head[..space]) * 3 >= room * 2 => head[..space].trim_end(),
        _ => head,
    };
    format!("{cut}…")
}

/// `text` cut to `max` columns (see [`truncate`]) and padded with spaces to exactly `max`.
pub fn fit(text: &str, max: usize) -> String {
    let mut out = truncate(text, max);
    let pad = max.saturating_sub(width(&out));
    out.extend(std::iter::repeat_n(' ', pad));
    out
}

/// `text` without its first `columns` display columns (a line scrolled sideways): a wide
/// character the edge cuts leaves a blank for its visible half, so what follows it stays in
/// its column; combining marks of a character scrolled away go with it.
pub fn skip_columns(text: &str, columns: usize) -> String {
    let mut skipped = 0;
    let mut out = String::new();
    for (at, c) in text.char_indices() {
        if skipped >= columns && char_width(c) > 0 {
            out.push_str(&text[at..]);
            break;
        }
        let before = skipped;
        skipped += char_width(c);
        if before < columns && skipped > columns {
            out.extend(std::iter::repeat_n(' ', skipped - columns));
        }
    }
    out
}

/// One styled character of a line being wrapped.
#[derive(Clone, Copy)]
struct Cell {
    c: char,
    style: Style,
    width: usize,
}

fn to_line(cells: &[Cell], line_style: Style) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut style = None;
    for cell in cells {
        if style.is_some_and(|s| s != cell.style) {
            spans.push(Span::styled(
                std::mem::take(&mut text),
                style.unwrap_or_default(),
            ));
        }
        style = Some(cell.style);
        text.push(cell.c);
    }
    if let Some(style) = style {
        spans.push(Span::styled(text, style));
    }
    Line::from(spans).style(line_style)
}

/// Word-wraps `lines` to `max` columns by display width: lines break between words (the space
/// at the break is dropped), a word that does not fit starts the next line and, longer than a
/// line, breaks between characters there; a wide character never straddles the edge. Styles
/// are kept.
pub fn wrap(lines: Vec<Line<'static>>, max: usize) -> Vec<Line<'static>> {
    let max = max.max(1);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if line.width() <= max {
            out.push(line);
            continue;
        }
        let cells: Vec<Cell> = line
            .spans
            .iter()
            .flat_map(|span| {
                let style = span.style;
                span.content.chars().map(move |c| Cell {
                    c,
                    style,
                    width: char_width(c),
                })
            })
            .collect();
        wrap_cells(&cells, max, line.style, &mut out);
    }
    out
}

fn wrap_cells(cells: &[Cell], max: usize, style: Style, out: &mut Vec<Line<'static>>) {
    let mut current: Vec<Cell> = Vec::new();
    let mut used = 0;
    let mut i = 0;
    while i < cells.len() {
        let space = cells[i].c == ' ';
        let end = cells[i..]
            .iter()
            .position(|c| (c.c == ' ') != space)
            .map_or(cells.len(), |n| i + n);
        let token = &cells[i..end];
        let token_width: usize = token.iter().map(|c| c.width).sum();
        i = end;
        if used + token_width <= max {
            current.extend_from_slice(token);
            used += token_width;
            continue;
        }
        if space {
            // the break falls in this run of spaces: end the line here, drop them
            if !current.is_empty() {
                out.push(to_line(&current, style));
                current.clear();
                used = 0;
            }
            continue;
        }
        // a word that does not fit starts a new line (and breaks there if it is too long)
        if !current.is_empty() {
            while current.last().is_some_and(|c| c.c == ' ') {
                current.pop();
            }
            out.push(to_line(&current, style));
            current.clear();
            used = 0;
        }
        for cell in token {
            if used + cell.width > max {
                out.push(to_line(&current, style));
                current.clear();
                used = 0;
            }
            current.push(*cell);
            used += cell.width;
        }
    }
    if !current.is_empty() || out.is_empty() {
        out.push(to_line(&current, style));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn wide_characters_never_cross_the_edge() {
        for lead in 0..12 {
            let text = format!("{} 周五部署周五部署 😀😀 周五", "a".repeat(lead));
            for line in wrap(vec![Line::raw(text.clone())], 9) {
                assert!(line.width() <= 9, "{text:?} gave {:?}", line.to_string());
            }
        }
        assert_eq!(
            texts(&wrap(vec![Line::raw("aaaaaaa周五")], 8)),
            ["aaaaaaa", "周五"]
        );
    }

    #[test]
    fn breaks_between_words_and_keeps_styles() {
        let line = Line::from(vec![
            Span::styled("label ", Style::new().bold()),
            Span::raw("one two three"),
        ]);
        let wrapped = wrap(vec![line], 10);
        assert_eq!(texts(&wrapped), ["label one", "two three"]);
        assert_eq!(wrapped[0].spans[0].style, Style::new().bold());
        assert_eq!(texts(&wrap(vec![Line::raw("")], 5)), [""]);
    }

    #[test]
    fn truncates_by_width_at_a_word() {
        assert_eq!(truncate("用户希望用简体中文", 7), "用户希…");
        assert_eq!(width(&truncate("用户希望用简体中文", 7)), 7);
        assert_eq!(truncate("merge freeze begins today", 16), "merge freeze…");
        assert_eq!(truncate("no-mocked-database", 10), "no-mocked…");
        assert_eq!(truncate("short", 10), "short");
        assert_eq!(fit("周五", 6), "周五  ");
    }

    #[test]
    fn skips_by_display_columns() {
        assert_eq!(skip_columns("- [用户偏好](x)", 3), "用户偏好](x)");
        assert_eq!(skip_columns("- [用户偏好](x)", 8), " 好](x)");
        assert_eq!(skip_columns("ab", 5), "");
        assert_eq!(skip_columns("e\u{301}x", 1), "x");
        assert_eq!(
            width(&skip_columns("周五部署 tail", 3)),
            width("周五部署 tail") - 3
        );
    }
}
