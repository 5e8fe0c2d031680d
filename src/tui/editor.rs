//! The in-pane record editor: four fields, validated as you type, saved as a transaction based
//! on the version the editor opened.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui_textarea::{TextArea, WrapMode};

use super::keymap::{self, Action, Scope};
use super::theme::Theme;
use crate::sanitize;
use crate::store::record::{MAX_RECORD_BYTES, MAX_RECORD_LINES, count_lines};
use crate::store::yaml_scalar::emit_scalar;
use crate::store::{MemoryType, Record, RecordError, RecordInput};

pub const NAME: usize = 0;
pub const TYPE: usize = 1;
pub const DESCRIPTION: usize = 2;
pub const BODY: usize = 3;
const LABELS: [&str; 4] = ["name", "type", "description", "body"];

/// A failed save because the record changed or vanished meanwhile.
#[derive(Debug, Clone)]
pub struct Conflict {
    /// The record as it is now (`None`: it was removed).
    pub current: Option<Record>,
    pub message: String,
    /// The difference, once asked for: (marker, line).
    pub diff: Option<Vec<(char, String)>>,
}

/// What a save commits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A record of the set: `replace` on the base (or `extend` for a new record).
    Record,
    /// Record `index` of a pending proposal's plan: `proposal::edit_records`.
    /// Record `index` of the proposal's records as they were when the editor `opened`.
    Proposal {
        id: String,
        index: usize,
        opened: Vec<Record>,
    },
    /// A manifest entry that does not read, edited as raw text: `repair_entry`. `seen` is the
    /// file's bytes as read (`None`: missing or unreadable).
    Repair { file: String, seen: Option<Vec<u8>> },
}

pub struct Editor {
    /// The version the editor opened; `None` for a new record.
    pub base: Option<Record>,
    pub target: Target,
    fields: [TextArea<'static>; 4],
    pub focus: usize,
    original: [String; 4],
    /// Control characters are shown as control pictures (and mapped back on save).
    pictures: bool,
    pub conflict: Option<Conflict>,
    /// The last save that failed for another reason.
    pub error: Option<String>,
    /// Set when a reload shows that the base changed on disk.
    pub notice: Option<String>,
    pub saving: bool,
    /// Fields both sides changed, after a re-apply: resolved one by one, first first.
    pub merge: Vec<super::merge::FieldConflict>,
}

fn textarea(text: &str, single_line: bool) -> TextArea<'static> {
    let lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let mut area = TextArea::new(lines);
    area.set_cursor_line_style(Style::default());
    area.set_tab_length(4);
    if !single_line {
        area.set_wrap_mode(WrapMode::WordOrGlyph);
    }
    area
}

fn is_picture(c: char) -> bool {
    ('\u{2400}'..='\u{2421}').contains(&c)
}

fn to_display(text: &str, pictures: bool) -> String {
    if !pictures {
        return text.to_owned();
    }
    text.chars()
        .map(|c| match c as u32 {
            0x0A | 0x09 => c,
            code @ 0x00..=0x1F => char::from_u32(0x2400 + code).unwrap_or(c),
            0x7F => '\u{2421}',
            _ => c,
        })
        .collect()
}

fn from_display(text: &str, pictures: bool) -> String {
    if !pictures {
        return text.to_owned();
    }
    text.chars()
        .map(|c| match c as u32 {
            code @ 0x2400..=0x241F => char::from_u32(code - 0x2400).unwrap_or(c),
            0x2421 => '\u{7f}',
            _ => c,
        })
        .collect()
}

impl Editor {
    pub fn open(record: &Record) -> Self {
        let input = record.to_input();
        let mut editor = Self::with_values([input.name, input.kind, input.description, input.body]);
        editor.base = Some(record.clone());
        editor
    }

    /// A proposed record, to be saved back into its proposal.
    pub fn proposal(id: &str, index: usize, record: &Record, opened: &[Record]) -> Self {
        let mut editor = Self::open(record);
        editor.target = Target::Proposal {
            id: id.to_owned(),
            index,
            opened: opened.to_vec(),
        };
        editor
    }

    /// The raw text of a manifest entry that does not read; saving parses it as a record file.
    pub fn repair(file: &str, seen: Option<Vec<u8>>) -> Self {
        let text = seen
            .as_deref()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        let mut editor = Self::with_values([String::new(), String::new(), String::new(), text]);
        editor.target = Target::Repair {
            file: file.to_owned(),
            seen,
        };
        editor.fields[BODY].set_line_number_style(Style::default());
        editor
    }

    /// Whether this edits a file's raw text (a repair) rather than four fields.
    pub fn is_raw(&self) -> bool {
        matches!(self.target, Target::Repair { .. })
    }

    /// A repair's text parsed as a record file, or the parse error with its line.
    pub fn parse_raw(&self) -> Result<Record, String> {
        crate::store::codec::parse(self.value(BODY).as_bytes()).map_err(|e| {
            let text = e.to_string();
            match e.line() {
                Some(line) if !text.contains(&format!("line {line}")) => {
                    format!("line {line}: {text}")
                }
                _ => text,
            }
        })
    }

    pub fn new_record() -> Self {
        let mut editor = Self::with_values([
            String::new(),
            "project".into(),
            String::new(),
            String::new(),
        ]);
        editor.focus = NAME;
        editor
    }

    fn with_values(values: [String; 4]) -> Self {
        let pictures = !values.iter().any(|v| v.chars().any(is_picture));
        let fields = [
            textarea(&to_display(&values[0], pictures), true),
            textarea(&to_display(&values[1], pictures), true),
            textarea(&to_display(&values[2], pictures), true),
            textarea(&to_display(&values[3], pictures), false),
        ];
        Self {
            base: None,
            target: Target::Record,
            fields,
            focus: BODY,
            original: values,
            pictures,
            conflict: None,
            error: None,
            notice: None,
            saving: false,
            merge: Vec::new(),
        }
    }

    pub fn value(&self, field: usize) -> String {
        from_display(&self.fields[field].lines().join("\n"), self.pictures)
    }

    pub fn values(&self) -> [String; 4] {
        [self.value(0), self.value(1), self.value(2), self.value(3)]
    }

    pub fn input(&self) -> RecordInput {
        let [name, kind, description, body] = self.values();
        RecordInput {
            name,
            kind,
            description,
            body,
        }
    }

    pub fn validate(&self) -> Result<Record, RecordError> {
        Record::from_input(&self.input())
    }

    pub fn is_dirty(&self) -> bool {
        self.values() != self.original
    }

    /// Replaces one field's text (for tests and re-applying).
    pub fn set_value(&mut self, field: usize, value: &str) {
        self.fields[field] = textarea(&to_display(value, self.pictures), field != BODY);
    }

    /// The file the engine would write for the current values, as near as invalid values allow.
    pub fn file_text(&self) -> String {
        let [name, kind, description, body] = self.values();
        let one_line = |s: &str| s.replace(['\n', '\r'], " ");
        let mut out = String::from("---\n");
        for (key, value) in [
            ("name", &name),
            ("description", &description),
            ("type", &kind),
        ] {
            out.push_str(key);
            out.push_str(": ");
            out.push_str(&emit_scalar(&one_line(value), key.len() + 1));
            out.push('\n');
        }
        out.push_str("---\n\n");
        out.push_str(&crate::store::record::normalize_body(&body));
        out.push('\n');
        out
    }

    /// (bytes, lines) of [`Self::file_text`].
    pub fn measure(&self) -> (usize, usize) {
        let text = self.file_text();
        (text.len(), count_lines(&text))
    }

    pub fn next_field(&mut self, step: isize) {
        if self.is_raw() {
            return;
        }
        self.focus = (self.focus as isize + step).rem_euclid(4) as usize;
    }

    pub fn cycle_type(&mut self) {
        if self.is_raw() {
            return;
        }
        let current = self.value(TYPE);
        let all = MemoryType::ALL;
        let next = all
            .iter()
            .position(|t| t.as_str() == current.trim())
            .map(|i| all[(i + 1) % all.len()])
            .unwrap_or(MemoryType::User);
        self.set_value(TYPE, next.as_str());
    }

    /// Text input for the focused field. Enter in a one-line field moves to the next field.
    pub fn key(&mut self, key: KeyEvent) {
        if self.focus != BODY && key.code == KeyCode::Enter {
            self.next_field(1);
            return;
        }
        self.error = None;
        self.fields[self.focus].input(key);
    }

    /// Pasted text at the cursor of the focused field (a one-line field takes it as one line).
    pub fn paste(&mut self, text: &str) {
        if self.conflict.is_some() {
            return;
        }
        let text = if self.focus == BODY {
            text.to_owned()
        } else {
            text.replace('\n', " ")
        };
        self.error = None;
        self.fields[self.focus].insert_str(to_display(&text, self.pictures));
    }

    /// Re-applies this edit on top of `current` as a three-way merge with the version the
    /// editor opened: a field only one side changed takes that side; a field both changed is
    /// left in [`Self::merge`] for the user (holding their value meanwhile). A removed record
    /// keeps every field of the edit (it is saved again as new). The new base is `current`.
    pub fn reapply(&mut self, current: Option<Record>) {
        let mine = self.values();
        let (merged, conflicts, original) = match &current {
            Some(current) => {
                let i = current.to_input();
                let theirs = [i.name, i.kind, i.description, i.body];
                let merged = super::merge::three_way(&self.original, &mine, &theirs);
                (merged.values, merged.conflicts, theirs)
            }
            None => (mine, Vec::new(), Default::default()),
        };
        self.original = original;
        self.base = current;
        self.pictures = !merged.iter().any(|v| v.chars().any(is_picture)) && self.pictures;
        for (i, value) in merged.iter().enumerate() {
            self.set_value(i, value);
        }
        self.merge = conflicts;
        self.conflict = None;
        self.notice = None;
    }

    /// Settles the first field both sides changed: the user's value, or the one on disk.
    pub fn resolve(&mut self, take_theirs: bool) {
        if self.merge.is_empty() {
            return;
        }
        let conflict = self.merge.remove(0);
        if take_theirs {
            self.set_value(conflict.field, &conflict.theirs);
        }
        self.focus = conflict.field;
    }

    /// The difference between the record on disk now and this edit, line by line.
    pub fn diff_against(&self, current: Option<&Record>) -> Vec<(char, String)> {
        let theirs = current.map(Record::to_file_text).unwrap_or_default();
        let mine = self.file_text();
        crate::tui::panes::index::drift(&theirs, &mine)
    }

    pub fn title(&self) -> String {
        match (&self.target, &self.base) {
            (Target::Repair { file, .. }, _) => format!(" Repair {} ", sanitize::line(file)),
            (Target::Proposal { id, .. }, Some(base)) => format!(
                " Edit proposed {} (proposal {id}) ",
                sanitize::line(base.name())
            ),
            (_, Some(base)) => format!(" Edit {} ", sanitize::line(base.name())),
            (_, None) => " New record ".into(),
        }
    }

    pub fn render(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border(true))
            .title(self.title());
        let inner = block.inner(area);
        frame.render_widget(block, area);

        let status = super::text::wrap(self.status_lines(theme), inner.width as usize);
        let status_rows = status.len();
        let raw = self.is_raw();
        let [fields_area, status_area, body_area] = Layout::vertical([
            Constraint::Length(if raw { 0 } else { 3 }),
            Constraint::Length(status_rows.min(inner.height.saturating_sub(5) as usize) as u16),
            Constraint::Min(1),
        ])
        .areas(inner);
        let rows = Layout::vertical([Constraint::Length(1); 3]).split(fields_area);
        let shown: &[usize] = if raw { &[] } else { &[NAME, TYPE, DESCRIPTION] };
        for (row, &field) in rows.iter().zip(shown) {
            let [label, input] =
                Layout::horizontal([Constraint::Length(13), Constraint::Min(1)]).areas(*row);
            let style = if self.focus == field {
                theme.key()
            } else {
                theme.label()
            };
            frame.render_widget(Paragraph::new(Span::styled(LABELS[field], style)), label);
            self.style_field(field, theme);
            frame.render_widget(&self.fields[field], input);
        }
        frame.render_widget(Paragraph::new(status), status_area);

        if let Some(diff) = self.conflict.as_ref().and_then(|c| c.diff.as_ref()) {
            let lines: Vec<Line<'static>> = diff
                .iter()
                .map(|(marker, text)| {
                    let style = match marker {
                        '+' => theme.added(),
                        '-' => theme.removed(),
                        _ => Style::default(),
                    };
                    Line::styled(format!("{marker} {}", sanitize::line(text)), style)
                })
                .collect();
            let block = Block::default()
                .borders(Borders::TOP)
                .title(" on disk (-) vs your edit (+) ");
            let lines = super::text::wrap(lines, body_area.width as usize);
            frame.render_widget(Paragraph::new(lines).block(block), body_area);
            return;
        }
        if let Some(conflict) = self.merge.first() {
            super::merge::render(frame, body_area, conflict, LABELS[conflict.field], theme);
            return;
        }
        let label_style = if self.focus == BODY {
            theme.key()
        } else {
            theme.label()
        };
        let block = Block::default().borders(Borders::TOP).title(Span::styled(
            if raw {
                " the file's text (saved as a whole record file) "
            } else {
                " body "
            },
            label_style,
        ));
        self.fields[BODY].set_block(block);
        self.style_field(BODY, theme);
        frame.render_widget(&self.fields[BODY], body_area);
    }

    fn style_field(&mut self, field: usize, theme: &Theme) {
        let cursor = if self.focus == field {
            theme.selected()
        } else {
            Style::default()
        };
        self.fields[field].set_cursor_style(cursor);
    }

    fn status_lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        if self.is_raw() {
            match self.parse_raw() {
                Ok(_) => out.push(Line::styled(
                    format!(
                        "✓ parses as a valid record file · {} repairs the entry with it",
                        keymap::label(Scope::Editor, Action::Save)
                    ),
                    theme.ok(),
                )),
                Err(e) => out.push(Line::styled(
                    format!("✗ {}", sanitize::line(&e)),
                    theme.error(),
                )),
            }
            if let Some(error) = &self.error {
                out.push(Line::styled(
                    format!("✗ not saved: {}", sanitize::line(error)),
                    theme.error(),
                ));
            } else if self.saving {
                out.push(Line::styled("saving…", theme.dim()));
            }
            return out;
        }
        let (bytes, lines) = self.measure();
        let budget = format!("{bytes}/{MAX_RECORD_BYTES} bytes · {lines}/{MAX_RECORD_LINES} lines");
        let over = bytes > MAX_RECORD_BYTES || lines > MAX_RECORD_LINES;
        match self.validate() {
            Ok(_) => out.push(Line::from(vec![
                Span::styled("✓ valid", theme.ok()),
                Span::raw(" · "),
                Span::styled(
                    budget,
                    if over {
                        theme.error()
                    } else {
                        Style::default()
                    },
                ),
            ])),
            Err(e) => out.push(Line::from(vec![
                Span::styled(
                    format!("✗ {}: {}", e.field(), sanitize::line(&e.to_string())),
                    theme.error(),
                ),
                Span::raw(" · "),
                Span::styled(
                    budget,
                    if over {
                        theme.error()
                    } else {
                        Style::default()
                    },
                ),
            ])),
        }
        if !self.merge.is_empty() {
            let fields: Vec<&str> = self.merge.iter().map(|c| LABELS[c.field]).collect();
            out.push(Line::styled(
                format!(
                    "⚠ re-applied; changed on both sides: {} (choose for each before saving)",
                    fields.join(", ")
                ),
                theme.warning(),
            ));
        }
        if let Some(conflict) = &self.conflict {
            out.push(Line::styled(
                format!("⚠ {}", sanitize::line(&conflict.message)),
                theme.error(),
            ));
            let key = |action| keymap::label(Scope::Conflict, action);
            out.push(Line::styled(
                format!(
                    "  {}: show the difference · {}: reload and re-apply · {}: keep editing",
                    key(Action::ShowDiff),
                    key(Action::Reapply),
                    key(Action::KeepEditing)
                ),
                theme.warning(),
            ));
        } else if let Some(error) = &self.error {
            out.push(Line::styled(
                format!("✗ not saved: {}", sanitize::line(error)),
                theme.error(),
            ));
        } else if let Some(notice) = &self.notice {
            out.push(Line::styled(
                format!("⚠ {}", sanitize::line(notice)),
                theme.warning(),
            ));
        } else if self.saving {
            out.push(Line::styled("saving…", theme.dim()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(body: &str) -> Record {
        Record::new("a-note", MemoryType::User, "about a", body).expect("valid")
    }

    #[test]
    fn opens_unchanged_and_validates() {
        let editor = Editor::open(&record("line one\nline two"));
        assert!(!editor.is_dirty());
        assert_eq!(
            editor.validate().expect("valid"),
            record("line one\nline two")
        );
        assert_eq!(
            editor.measure().0,
            record("line one\nline two").to_file_text().len()
        );
    }

    #[test]
    fn controls_round_trip_through_pictures() {
        let body = "title \u{1b}]0;x\u{7}\tend";
        let editor = Editor::open(&record(body));
        assert!(!editor.fields[BODY].lines().concat().contains('\u{1b}'));
        assert_eq!(editor.value(BODY), body);
    }

    #[test]
    fn reapply_keeps_my_fields_and_takes_theirs() {
        let mut editor = Editor::open(&record("body"));
        editor.set_value(DESCRIPTION, "mine");
        let theirs =
            Record::new("a-note", MemoryType::Project, "about a", "their body").expect("valid");
        editor.reapply(Some(theirs.clone()));
        let merged = editor.validate().expect("valid");
        assert_eq!(merged.description(), "mine");
        assert_eq!(merged.body(), "their body");
        assert_eq!(merged.kind(), MemoryType::Project);
        assert_eq!(editor.base, Some(theirs));
    }

    #[test]
    fn reapply_leaves_a_field_both_changed_to_the_user() {
        let mut editor = Editor::open(&record("body"));
        editor.set_value(DESCRIPTION, "mine");
        editor.set_value(BODY, "my body");
        let theirs = Record::new("a-note", MemoryType::User, "theirs", "body").expect("valid");
        editor.reapply(Some(theirs));
        // the body only I changed merges; the description both changed waits for a choice
        assert_eq!(editor.value(BODY), "my body");
        assert_eq!(editor.value(DESCRIPTION), "mine");
        assert_eq!(editor.merge.len(), 1);
        assert_eq!(editor.merge[0].theirs, "theirs");
        editor.resolve(true);
        assert!(editor.merge.is_empty());
        assert_eq!(editor.value(DESCRIPTION), "theirs");
        assert_eq!(editor.validate().expect("valid").body(), "my body");
    }

    #[test]
    fn invalid_name_is_reported_with_its_field() {
        let mut editor = Editor::open(&record("b"));
        editor.set_value(NAME, "Bad Name");
        assert_eq!(editor.validate().expect_err("invalid").field(), "name");
    }
}
