//! The in-pane editor: four fields (or a file's raw text), checked as you type by the open
//! format's rules (`formats::EditorRules`, which the backend supplies), saved compare-and-swap
//! against the version the editor opened.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use ratatui_textarea::{TextArea, WrapMode};

use crate::change::FileImage;
use crate::formats::{EditorRules, Fields, RecordInput};
use crate::sanitize;
use crate::store::{Record, RecordError};

mod topic;
mod view;

pub const NAME: usize = 0;
pub const TYPE: usize = 1;
pub const DESCRIPTION: usize = 2;
pub const BODY: usize = 3;
pub(crate) const LABELS: [&str; 4] = ["name", "type", "description", "body"];

/// A failed save because the record changed or vanished meanwhile.
#[derive(Debug, Clone)]
pub struct Conflict {
    /// The record as it is now (`None`: it was removed).
    pub current: Option<Record>,
    pub message: String,
    /// The difference, once asked for: (marker, line).
    pub diff: Option<Vec<(char, String)>>,
}

/// The version an editor opened, compared with what is on disk now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDisk {
    Unchanged,
    Changed,
    Removed,
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
    /// A Claude Code topic file: `file` (`None`: a new one) whose exact text was `text`, the
    /// base of the change (see `topic`).
    Topic {
        file: Option<String>,
        text: Option<String>,
    },
    /// A topic file whose frontmatter does not parse, edited as raw text (see `topic`) and
    /// saved whole over `text`, its exact text as read.
    TopicText { file: String, text: String },
    /// What a pending proposal on a Claude Code folder writes into `file`, its files being
    /// `opened` when the editor opened: `formats::claude::journal::edit_file`.
    ProposalTopic {
        id: String,
        file: String,
        opened: Vec<FileImage>,
    },
}

pub struct Editor {
    /// How the open format's files are made of the fields: what checks and builds them.
    rules: &'static dyn EditorRules,
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
    /// What the set would refuse about saving the current values (a name taken, the index over
    /// its budget), computed by the app from the set it shows.
    pub refusal: Option<String>,
    /// Fields both sides changed, after a re-apply: resolved one by one, first first.
    pub merge: Vec<super::merge::FieldConflict>,
    /// A topic file's text on disk when a save conflicted (`None`: it is gone).
    pub current_text: Option<Option<String>>,
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
    pub fn open(rules: &'static dyn EditorRules, record: &Record) -> Self {
        let input = record.to_input();
        let values = [input.name, input.kind, input.description, input.body];
        let mut editor = Self::with_values(rules, values);
        editor.base = Some(record.clone());
        editor
    }

    /// A proposed record, to be saved back into its proposal.
    pub fn proposal(
        rules: &'static dyn EditorRules,
        id: &str,
        index: usize,
        record: &Record,
        opened: &[Record],
    ) -> Self {
        let mut editor = Self::open(rules, record);
        editor.target = Target::Proposal {
            id: id.to_owned(),
            index,
            opened: opened.to_vec(),
        };
        editor
    }

    /// The raw text of a manifest entry that does not read; saving parses it as a record file.
    pub fn repair(rules: &'static dyn EditorRules, file: &str, seen: Option<Vec<u8>>) -> Self {
        let text = seen
            .as_deref()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        Self::raw(
            rules,
            &text,
            Target::Repair {
                file: file.to_owned(),
                seen,
            },
        )
    }

    /// A file's whole text in the body, with line numbers, for `target`.
    fn raw(rules: &'static dyn EditorRules, text: &str, target: Target) -> Self {
        let values = [String::new(), String::new(), String::new(), text.to_owned()];
        let mut editor = Self::with_values(rules, values);
        editor.target = target;
        editor.fields[BODY].set_line_number_style(Style::default());
        editor
    }

    /// Whether this edits a file's raw text (a repair) rather than four fields.
    pub fn is_raw(&self) -> bool {
        matches!(
            self.target,
            Target::Repair { .. } | Target::TopicText { .. }
        )
    }

    /// Why the raw text would not save as the format reads its files (its line first when
    /// the reader names one).
    pub fn check_raw(&self) -> Result<(), String> {
        self.rules.check_text(&self.value(BODY))
    }

    /// Why the four fields would not save, as `<field>: <rule>`.
    pub fn check_fields(&self) -> Result<(), String> {
        self.rules.check_fields(&self.values())
    }

    pub fn new_record(rules: &'static dyn EditorRules) -> Self {
        let values = [
            String::new(),
            "project".into(),
            String::new(),
            String::new(),
        ];
        let mut editor = Self::with_values(rules, values);
        editor.focus = NAME;
        editor
    }

    fn with_values(rules: &'static dyn EditorRules, values: Fields) -> Self {
        let pictures = !values.iter().any(|v| v.chars().any(is_picture));
        let fields = [
            textarea(&to_display(&values[0], pictures), true),
            textarea(&to_display(&values[1], pictures), true),
            textarea(&to_display(&values[2], pictures), true),
            textarea(&to_display(&values[3], pictures), false),
        ];
        Self {
            rules,
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
            refusal: None,
            merge: Vec::new(),
            current_text: None,
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

    /// Re-checks the current values against the set `shown` (a `.memory` record edit only: a
    /// proposal is checked when it is approved, a repair by its own transaction).
    pub fn check_set(&mut self, shown: &crate::formats::Shown) {
        self.refusal = match (&self.target, self.validate()) {
            (Target::Record, Ok(_)) => {
                let base = self.base.as_ref().map(Record::name);
                self.rules.set_refusal(shown, base, &self.values())
            }
            _ => None,
        };
    }

    /// `saved` was committed while the editor stayed open, and the fields already differ from
    /// it (keys typed during the save): it becomes the base, and the fields are kept.
    pub fn saved_as(&mut self, saved: &Record) {
        let input = saved.to_input();
        self.original = [input.name, input.kind, input.description, input.body];
        self.base = Some(saved.clone());
        self.saving = false;
        self.conflict = None;
        self.error = None;
    }

    /// The banner over the fields about `what` (a record's name, a topic file) as it is on
    /// disk now: the same words on either format.
    pub fn note_on_disk(&mut self, what: &str, now: OnDisk) {
        self.notice = match now {
            OnDisk::Unchanged => None,
            OnDisk::Changed => Some(format!("{what} was changed on disk since you opened it")),
            OnDisk::Removed => Some(format!("{what} was removed since you opened it")),
        };
    }

    pub fn is_dirty(&self) -> bool {
        self.values() != self.original
    }

    /// Replaces one field's text (for tests and re-applying).
    pub fn set_value(&mut self, field: usize, value: &str) {
        self.fields[field] = textarea(&to_display(value, self.pictures), field != BODY);
    }

    /// The file this edit would write over the text it opened (a new file: the fields
    /// alone), as near as invalid values allow; why not, when the format cannot build it.
    pub fn file_text(&self) -> String {
        let base = match &self.target {
            Target::Topic {
                text: Some(text), ..
            } => Some(text.as_str()),
            _ => None,
        };
        self.rules
            .text_with(base, &self.values())
            .unwrap_or_else(|why| why)
    }

    /// (bytes, lines) of [`Self::file_text`], as the format's budget counts them.
    pub fn measure(&self) -> (usize, usize) {
        self.rules.measure(&self.file_text())
    }

    /// What one file may hold in the open format, when it limits it (the gauge).
    pub fn budget(&self) -> Option<crate::formats::FileBudget> {
        self.rules.budget()
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
        let kinds = self.rules.kinds();
        let next = kinds
            .iter()
            .position(|kind| *kind == current.trim())
            .map_or(0, |i| (i + 1) % kinds.len());
        if let Some(kind) = kinds.get(next) {
            self.set_value(TYPE, kind);
        }
    }

    /// Text input for the focused field. Enter in a one-line field moves to the next field.
    pub fn key(&mut self, key: KeyEvent) {
        if self.focus != BODY && key.code == KeyCode::Enter {
            self.next_field(1);
            return;
        }
        self.error = None;
        let field = &mut self.fields[self.focus];
        match key.code {
            // C-u kills to the line's start as in the one-line inputs; undo is C-z
            KeyCode::Char('u') if key.modifiers == KeyModifiers::CONTROL => {
                field.delete_line_by_head();
            }
            KeyCode::Char('z') if key.modifiers == KeyModifiers::CONTROL => {
                field.undo();
            }
            _ => {
                field.input(key);
            }
        }
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
            (Target::Repair { file, .. } | Target::TopicText { file, .. }, _) => {
                format!(" Repair {} ", sanitize::line(file))
            }
            (Target::ProposalTopic { id, file, .. }, _) => {
                format!(" Edit proposed {} (proposal {id}) ", sanitize::line(file))
            }
            (Target::Proposal { id, .. }, Some(base)) => format!(
                " Edit proposed {} (proposal {id}) ",
                sanitize::line(base.name())
            ),
            (
                Target::Topic {
                    file: Some(file), ..
                },
                _,
            ) => {
                format!(" Edit {} ", sanitize::line(file))
            }
            (Target::Topic { file: None, .. }, _) => " New memory ".into(),
            (_, Some(base)) => format!(" Edit {} ", sanitize::line(base.name())),
            (_, None) => " New memory ".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryType;

    fn rules() -> &'static dyn EditorRules {
        &crate::formats::memory::RECORD_RULES
    }

    fn record(body: &str) -> Record {
        Record::new("a-note", MemoryType::User, "about a", body).expect("valid")
    }

    #[test]
    fn opens_unchanged_and_validates() {
        let editor = Editor::open(rules(), &record("line one\nline two"));
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
        let editor = Editor::open(rules(), &record(body));
        assert!(!editor.fields[BODY].lines().concat().contains('\u{1b}'));
        assert_eq!(editor.value(BODY), body);
    }

    #[test]
    fn reapply_keeps_my_fields_and_takes_theirs() {
        let mut editor = Editor::open(rules(), &record("body"));
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
        let mut editor = Editor::open(rules(), &record("body"));
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
        let mut editor = Editor::open(rules(), &record("b"));
        editor.set_value(NAME, "Bad Name");
        assert_eq!(editor.validate().expect_err("invalid").field(), "name");
    }
}
