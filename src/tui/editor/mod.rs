//! The in-pane editor: a memory's four fields (or a file's raw text), checked as you type by
//! the open format's rules (`formats::EditorRules`, which the backend supplies), saved as neutral
//! fields compare-and-swap against the exact text of the file it opened, on every format.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use ratatui_textarea::{TextArea, WrapMode};

use crate::change::Touched;
use crate::formats::{EditorRules, Fields, RecordInput};
use crate::review::proposal::version_fields;
use crate::sanitize;

mod file;
mod view;

pub const NAME: usize = 0;
pub const TYPE: usize = 1;
pub const DESCRIPTION: usize = 2;
pub const BODY: usize = 3;
pub(crate) const LABELS: [&str; 4] = ["name", "type", "description", "body"];

/// A failed save because the memory changed or vanished meanwhile.
#[derive(Debug, Clone)]
pub struct Conflict {
    /// The memory's file text as it is now (`None`: it was removed).
    pub current: Option<String>,
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
    /// A memory of the folder: `file` (`None`: a new one) whose exact text was `text`, the
    /// base of the change (`formats::EditorChange::SaveFields`).
    Memory {
        file: Option<String>,
        text: Option<String>,
    },
    /// A memory file that does not read as fields, edited as raw text and saved whole over
    /// `text`, its exact text as read.
    Text { file: String, text: String },
    /// A set entry that does not read, edited as raw text: `seen` is the file's bytes as read
    /// (`None`: missing or unreadable).
    Repair { file: String, seen: Option<Vec<u8>> },
    /// The memory pending proposal `id` writes at `at` of its change, the change being
    /// `opened` ([`crate::review::Proposal::change`]'s `touched`) when the editor opened it.
    Proposal {
        id: String,
        opened: Vec<Touched>,
        at: usize,
    },
}

pub struct Editor {
    /// How the open format's files are made of the fields: what checks and builds them.
    rules: &'static dyn EditorRules,
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
    /// The memory a pending proposal writes at `at` of its change (`opened`), as its fields,
    /// whatever its format keeps of it: the fields its detail draws. Saved back into the
    /// proposal. `None`: the change writes no memory there.
    pub fn proposed(
        rules: &'static dyn EditorRules,
        id: &str,
        opened: &[Touched],
        at: usize,
    ) -> Option<Self> {
        let memory = opened.get(at)?.after.as_ref().and_then(version_fields)?;
        let values = [memory.name, memory.kind, memory.description, memory.body];
        let mut editor = Self::with_values(rules, values);
        editor.target = Target::Proposal {
            id: id.to_owned(),
            opened: opened.to_vec(),
            at,
        };
        Some(editor)
    }

    /// The raw text of a set entry that does not read; saving repairs the entry with it.
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

    /// Whether this edits a file's raw text rather than four fields.
    pub fn is_raw(&self) -> bool {
        matches!(self.target, Target::Repair { .. } | Target::Text { .. })
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

    /// A new memory (its file is the backend's to pick when it is saved).
    pub fn new_memory(rules: &'static dyn EditorRules) -> Self {
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
            target: Target::Memory {
                file: None,
                text: None,
            },
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

    /// Re-checks the current values against the folder `shown` (a memory's edit only: a
    /// proposal is checked when it is approved, a raw text by its own save).
    pub fn check_set(&mut self, shown: &crate::formats::Shown) {
        self.refusal = match &self.target {
            Target::Memory { file, .. } if self.check_fields().is_ok() => {
                let base = file.as_ref().map(|_| self.original[NAME].as_str());
                self.rules.set_refusal(shown, base, &self.values())
            }
            _ => None,
        };
    }

    /// `saved` was written while the editor stayed open, and the fields (`fields` being what
    /// was saved) already differ from it (keys typed during the save): it becomes the base, and
    /// the fields are kept.
    pub fn saved_as(&mut self, saved: &crate::formats::SavedFile, fields: &Fields) {
        self.original = fields.clone();
        self.target = Target::Memory {
            file: Some(saved.file.clone()),
            text: Some(saved.text.clone()),
        };
        self.saving = false;
        self.conflict = None;
        self.error = None;
    }

    /// The memory's name as the editor opened it (`None`: a new memory, a raw text, or a
    /// memory with no name).
    pub fn opened_name(&self) -> Option<&str> {
        let name = self.original[NAME].as_str();
        match &self.target {
            Target::Memory { file: Some(_), .. } | Target::Proposal { .. } => {
                Some(name).filter(|name| !name.trim().is_empty())
            }
            _ => None,
        }
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
            Target::Memory {
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

    /// Whether the open format's files hold more than the fields, which a save keeps.
    pub fn keeps_more(&self) -> bool {
        self.rules.keeps_more()
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

    /// The title names the memory by its name as opened, the same on every format.
    pub fn title(&self) -> String {
        let name = sanitize::line(self.opened_name().unwrap_or_default());
        match &self.target {
            Target::Repair { file, .. } | Target::Text { file, .. } => {
                format!(" Repair {} ", sanitize::line(file))
            }
            Target::Proposal { id, .. } => format!(" Edit proposed {name} (proposal {id}) "),
            Target::Memory {
                file: Some(file), ..
            } if name.is_empty() => format!(" Edit {} ", sanitize::line(file)),
            Target::Memory { file: Some(_), .. } => format!(" Edit {name} "),
            Target::Memory { file: None, .. } => " New memory ".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{MemoryType, Record};

    fn rules() -> &'static dyn EditorRules {
        &crate::formats::memory::RECORD_RULES
    }

    fn text(kind: MemoryType, description: &str, body: &str) -> String {
        Record::new("a-note", kind, description, body)
            .expect("valid")
            .to_file_text()
    }

    fn opened(body: &str) -> Editor {
        Editor::memory(
            rules(),
            "a-note.md",
            &text(MemoryType::User, "about a", body),
        )
    }

    #[test]
    fn opens_unchanged_and_validates() {
        let editor = opened("line one\nline two");
        assert!(!editor.is_dirty());
        assert_eq!(editor.check_fields(), Ok(()));
        assert_eq!(editor.value(BODY), "line one\nline two");
        assert_eq!(
            editor.measure().0,
            text(MemoryType::User, "about a", "line one\nline two").len()
        );
        assert_eq!(editor.title(), " Edit a-note ");
    }

    #[test]
    fn controls_round_trip_through_pictures() {
        let body = "title \u{1b}]0;x\u{7}\tend";
        let editor = opened(body);
        assert!(!editor.fields[BODY].lines().concat().contains('\u{1b}'));
        assert_eq!(editor.value(BODY), body);
    }

    #[test]
    fn reapply_keeps_my_fields_and_takes_theirs() {
        let mut editor = opened("body");
        editor.set_value(DESCRIPTION, "mine");
        let theirs = text(MemoryType::Project, "about a", "their body");
        editor.reapply(Some(theirs.clone()));
        assert_eq!(editor.value(DESCRIPTION), "mine");
        assert_eq!(editor.value(BODY), "their body");
        assert_eq!(editor.value(TYPE), "project");
        assert_eq!(editor.opened_file(), Some(("a-note.md".into(), theirs)));
    }

    #[test]
    fn reapply_leaves_a_field_both_changed_to_the_user() {
        let mut editor = opened("body");
        editor.set_value(DESCRIPTION, "mine");
        editor.set_value(BODY, "my body");
        editor.reapply(Some(text(MemoryType::User, "theirs", "body")));
        // the body only I changed merges; the description both changed waits for a choice
        assert_eq!(editor.value(BODY), "my body");
        assert_eq!(editor.value(DESCRIPTION), "mine");
        assert_eq!(editor.merge.len(), 1);
        assert_eq!(editor.merge[0].theirs, "theirs");
        editor.resolve(true);
        assert!(editor.merge.is_empty());
        assert_eq!(editor.value(DESCRIPTION), "theirs");
        assert_eq!(editor.value(BODY), "my body");
    }

    #[test]
    fn a_memory_removed_meanwhile_is_saved_again_as_new() {
        let mut editor = opened("body");
        editor.set_value(BODY, "kept");
        editor.reapply(None);
        assert_eq!(editor.value(BODY), "kept");
        assert_eq!(editor.opened_file(), None);
        assert_eq!(editor.title(), " New memory ");
    }

    #[test]
    fn invalid_name_is_reported_with_its_field() {
        let mut editor = opened("b");
        editor.set_value(NAME, "Bad Name");
        let why = editor.check_fields().expect_err("invalid");
        assert!(why.starts_with("name: "), "{why}");
    }
}
