//! The editor on a memory whose file is kept whole (a Claude Code topic file): the same four
//! fields, saved by the backend with every other field and byte of the file kept, with the same
//! conflict flow as a record: the difference against the file on disk, a three-way re-apply, or
//! keep editing. What the fields are in a file's text is the format's (`formats::EditorRules`).

use super::{Editor, Target};
use crate::change::FileImage;
use crate::formats::{EditorRules, Fields};

/// The fields of a text that does not read as fields: all of it in the body.
fn all_in_body(text: &str) -> Fields {
    [String::new(), String::new(), String::new(), text.to_owned()]
}

impl Editor {
    /// The file `file` whose exact text is `text`: its four fields, or its raw text when it
    /// does not read as fields (they would open empty).
    pub fn topic(rules: &'static dyn EditorRules, file: &str, text: &str) -> Self {
        let Some(fields) = rules.fields_of(text) else {
            return Self::raw(
                rules,
                text,
                Target::TopicText {
                    file: file.to_owned(),
                    text: text.to_owned(),
                },
            );
        };
        let mut editor = Self::with_values(rules, fields);
        editor.target = Target::Topic {
            file: Some(file.to_owned()),
            text: Some(text.to_owned()),
        };
        editor
    }

    /// What proposal `id` writes into `file` (`text`), to be saved back into the proposal.
    pub fn proposed_topic(
        rules: &'static dyn EditorRules,
        id: &str,
        file: &str,
        text: &str,
        opened: &[FileImage],
    ) -> Self {
        let fields = rules.fields_of(text).unwrap_or_else(|| all_in_body(text));
        let mut editor = Self::with_values(rules, fields);
        editor.target = Target::ProposalTopic {
            id: id.to_owned(),
            file: file.to_owned(),
            opened: opened.to_vec(),
        };
        editor
    }

    /// The text of a proposed file with this edit's fields (every other byte kept).
    pub fn proposed_topic_text(&self) -> Option<Result<String, String>> {
        let Target::ProposalTopic { file, opened, .. } = &self.target else {
            return None;
        };
        let text = opened
            .iter()
            .find(|f| f.file == *file)
            .and_then(|f| f.after.as_deref())?;
        Some(self.rules.text_with(Some(text), &self.values()))
    }

    /// A new file (its name is picked from the memory's name when it is saved).
    pub fn new_topic(rules: &'static dyn EditorRules) -> Self {
        let mut editor = Self::new_record(rules);
        editor.target = Target::Topic {
            file: None,
            text: None,
        };
        editor
    }

    /// The difference between the file on disk now and this edit, line by line.
    pub fn topic_diff(&self, current: Option<&str>) -> Vec<(char, String)> {
        crate::tui::panes::index::drift(current.unwrap_or(""), &self.file_text())
    }

    /// Re-applies this edit on top of the file as it is now (`None`: gone, saved again as
    /// new): a three-way merge of the four fields with the version the editor opened.
    pub fn reapply_topic(&mut self, current: Option<String>) {
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
            Target::Topic { file, .. } if current.is_some() => file.clone(),
            _ => None,
        };
        self.target = Target::Topic {
            file,
            text: current,
        };
        self.original = original;
        for (i, value) in merged.iter().enumerate() {
            self.set_value(i, value);
        }
        self.merge = conflicts;
        self.conflict = None;
        self.current_text = None;
        self.notice = None;
    }

    /// The file this edits and its text as opened (`None`: a new file).
    pub fn topic_base(&self) -> Option<(String, String)> {
        match &self.target {
            Target::Topic {
                file: Some(file),
                text: Some(text),
            }
            | Target::TopicText { file, text } => Some((file.clone(), text.clone())),
            _ => None,
        }
    }

    pub fn is_topic(&self) -> bool {
        matches!(
            self.target,
            Target::Topic { .. } | Target::TopicText { .. } | Target::ProposalTopic { .. }
        )
    }
}
