//! The editor on a Claude Code topic file: the same four fields, saved by `claude::edit`
//! (every other frontmatter field and byte kept), with the same conflict flow as a record:
//! the difference against the file on disk, a three-way re-apply, or keep editing.

use jiff::Timestamp;

use super::{Editor, Target};
use crate::claude::edit::{Changes, edit_topic};
use crate::claude::frontmatter::{self, Frontmatter};

/// A topic file's four editable fields, as the editor shows them.
pub(super) fn fields_of(text: &str) -> [String; 4] {
    let parsed = frontmatter::parse(text);
    let field = |key| parsed.field(key).unwrap_or("").to_owned();
    [
        field("name"),
        parsed.kind().unwrap_or("").to_owned(),
        field("description"),
        parsed.body.trim_start_matches(['\n', '\r']).to_owned(),
    ]
}

impl Editor {
    /// The topic file `file` whose exact text is `text`: its four fields, or its raw text when
    /// the frontmatter does not parse (its fields would open empty).
    pub fn topic(file: &str, text: &str) -> Self {
        if let Frontmatter::Invalid { .. } = frontmatter::parse(text).frontmatter {
            return Self::raw(
                text,
                Target::TopicText {
                    file: file.to_owned(),
                    text: text.to_owned(),
                },
            );
        }
        let mut editor = Self::with_values(fields_of(text));
        editor.target = Target::Topic {
            file: Some(file.to_owned()),
            text: Some(text.to_owned()),
        };
        editor
    }

    /// What proposal `id` writes into `file` (`text`), to be saved back into the proposal.
    pub fn proposed_topic(
        id: &str,
        file: &str,
        text: &str,
        opened: &[crate::claude::FileImage],
    ) -> Self {
        let mut editor = Self::with_values(fields_of(text));
        editor.target = Target::ProposalTopic {
            id: id.to_owned(),
            file: file.to_owned(),
            opened: opened.to_vec(),
        };
        editor
    }

    /// The text of a proposed topic file with this edit's fields (every other byte kept).
    pub fn proposed_topic_text(&self) -> Option<Result<String, String>> {
        let Target::ProposalTopic { file, opened, .. } = &self.target else {
            return None;
        };
        let text = opened
            .iter()
            .find(|f| f.file == *file)
            .and_then(|f| f.after.as_deref())?;
        let changes = self.field_changes();
        Some(edit_topic(text, &changes, Timestamp::now()).map_err(|e| e.to_string()))
    }

    /// The four fields as they stand in the editor, as a change of a topic file's text.
    fn field_changes(&self) -> Changes {
        let [name, kind, description, body] = self.values();
        Changes {
            name: Some(name),
            kind: Some(kind),
            description: Some(description),
            body: Some(body),
            fields: Vec::new(),
        }
    }

    /// A new topic file (its name is picked from the memory's name when it is saved).
    pub fn new_topic() -> Self {
        let mut editor = Self::new_record();
        editor.target = Target::Topic {
            file: None,
            text: None,
        };
        editor
    }

    /// What a topic file's fields must be to save: a name, and one-line name, type and
    /// description (Claude Code names need not be slugs).
    pub fn check_topic(&self) -> Result<(), String> {
        let [name, kind, description, _] = self.values();
        if name.trim().is_empty() {
            return Err("name: a memory needs a name".into());
        }
        for (label, value) in [
            ("name", &name),
            ("type", &kind),
            ("description", &description),
        ] {
            if value.contains(['\n', '\r']) {
                return Err(format!("{label}: must be one line"));
            }
        }
        Ok(())
    }

    /// The text this edit would write over the base (the base itself for a new file).
    fn topic_after(&self) -> String {
        let changes = self.field_changes();
        match &self.target {
            Target::Topic {
                text: Some(text), ..
            } => edit_topic(text, &changes, Timestamp::now()).unwrap_or_else(|e| e.to_string()),
            _ => self.values().join("\n"),
        }
    }

    /// The difference between the topic file on disk now and this edit, line by line.
    pub fn topic_diff(&self, current: Option<&str>) -> Vec<(char, String)> {
        crate::tui::panes::index::drift(current.unwrap_or(""), &self.topic_after())
    }

    /// Re-applies this edit on top of the file as it is now (`None`: gone, saved again as
    /// new): a three-way merge of the four fields with the version the editor opened.
    pub fn reapply_topic(&mut self, current: Option<String>) {
        let mine = self.values();
        let (merged, conflicts, original) = match &current {
            Some(text) => {
                let theirs = fields_of(text);
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

    /// The topic file this edits and its text as opened (`None`: a new file).
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

    /// A raw topic file's text checked as Claude Code's loader reads it: its frontmatter must
    /// parse (the error names its line, as the editor numbers them).
    pub fn check_topic_text(&self) -> Result<(), String> {
        match frontmatter::parse(&self.value(super::BODY)).frontmatter {
            Frontmatter::Fields(_) => Ok(()),
            Frontmatter::Invalid { line, message } => Err(format!("line {line}: {message}")),
            Frontmatter::Missing => Err(
                "the frontmatter is gone: a topic file opens with a --- line, closed by another"
                    .into(),
            ),
        }
    }

    pub fn is_topic(&self) -> bool {
        matches!(
            self.target,
            Target::Topic { .. } | Target::TopicText { .. } | Target::ProposalTopic { .. }
        )
    }
}
