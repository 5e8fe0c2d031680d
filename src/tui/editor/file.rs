//! The editor on a memory's file: opened on the file's exact text (its four fields, or its raw
//! text when it does not read as fields) and saved by the backend against that text, every
//! other field and byte the format keeps kept, on every format; the conflict flow's difference
//! against the file on disk and three-way re-apply. What the fields are in a file's text is the
//! format's (`formats::EditorRules`).

use super::{Editor, Target};
use crate::formats::{EditorRules, Fields};

/// The fields of a text that does not read as fields: all of it in the body.
fn all_in_body(text: &str) -> Fields {
    [String::new(), String::new(), String::new(), text.to_owned()]
}

impl Editor {
    /// The memory file `file` whose exact text is `text`: its four fields, or its raw text
    /// when it does not read as fields (they would open empty).
    pub fn memory(rules: &'static dyn EditorRules, file: &str, text: &str) -> Self {
        let Some(fields) = rules.fields_of(text) else {
            return Self::raw(
                rules,
                text,
                Target::Text {
                    file: file.to_owned(),
                    text: text.to_owned(),
                },
            );
        };
        let mut editor = Self::with_values(rules, fields);
        editor.target = Target::Memory {
            file: Some(file.to_owned()),
            text: Some(text.to_owned()),
        };
        editor
    }

    /// The difference between the memory's file on disk now (`None`: gone) and this edit,
    /// line by line.
    pub fn diff_against(&self, current: Option<&str>) -> Vec<(char, String)> {
        crate::tui::panes::index::drift(current.unwrap_or(""), &self.file_text())
    }

    /// Re-applies this edit on top of the memory's file as it is now (`None`: gone, saved
    /// again as new): a three-way merge of the four fields with the version the editor opened.
    /// A field only one side changed takes that side; a field both changed is left in
    /// [`Self::merge`] for the user (holding their value meanwhile).
    pub fn reapply(&mut self, current: Option<String>) {
        let mine = self.values();
        let (merged, conflicts, original) = match &current {
            Some(text) => {
                let theirs = self
                    .rules
                    .fields_of(text)
                    .unwrap_or_else(|| all_in_body(text));
                let merged = super::super::merge::three_way(&self.original, &mine, &theirs);
                (merged.values, merged.conflicts, theirs)
            }
            None => (mine, Vec::new(), Default::default()),
        };
        let file = match &self.target {
            Target::Memory { file, .. } if current.is_some() => file.clone(),
            _ => None,
        };
        self.target = Target::Memory {
            file,
            text: current,
        };
        self.original = original;
        self.pictures = !merged.iter().any(|v| v.chars().any(super::is_picture)) && self.pictures;
        for (i, value) in merged.iter().enumerate() {
            self.set_value(i, value);
        }
        self.merge = conflicts;
        self.conflict = None;
        self.notice = None;
    }

    /// The memory file this edits and its text as opened (`None`: a new memory).
    pub fn opened_file(&self) -> Option<(String, String)> {
        match &self.target {
            Target::Memory {
                file: Some(file),
                text: Some(text),
            }
            | Target::Text { file, text } => Some((file.clone(), text.clone())),
            _ => None,
        }
    }
}
