//! The editor's rules on a Claude Code folder: a topic file's four fields read from its
//! frontmatter and written back by `claude::edit` (every other field and byte kept); names
//! need not be slugs, and Claude Code sets no budget on one file.

use jiff::Timestamp;

use crate::claude::edit::edit_topic;
use crate::claude::frontmatter::{self, Frontmatter, KNOWN_TYPES};
use crate::formats::{EditorRules, Fields, FileBudget, Shown};

/// A Claude Code topic file, made of the editor's fields.
pub(crate) struct TopicRules;

pub(crate) static TOPIC_RULES: TopicRules = TopicRules;

impl EditorRules for TopicRules {
    /// A frontmatter that does not parse would open as empty fields: the text opens raw.
    fn fields_of(&self, text: &str) -> Option<Fields> {
        let parsed = frontmatter::parse(text);
        if let Frontmatter::Invalid { .. } = parsed.frontmatter {
            return None;
        }
        let field = |key| parsed.field(key).unwrap_or("").to_owned();
        Some([
            field("name"),
            parsed.kind().unwrap_or("").to_owned(),
            field("description"),
            parsed.trimmed_body().to_owned(),
        ])
    }

    fn text_with(&self, base: Option<&str>, fields: &Fields) -> Result<String, String> {
        let Some(base) = base else {
            return Ok(fields.join("\n"));
        };
        edit_topic(base, &super::workbench::changes(fields), Timestamp::now())
            .map_err(|e| e.to_string())
    }

    fn check_fields(&self, fields: &Fields) -> Result<(), String> {
        let [name, kind, description, _] = fields;
        if name.trim().is_empty() {
            return Err("name: a memory needs a name".into());
        }
        for (label, value) in [("name", name), ("type", kind), ("description", description)] {
            if value.contains(['\n', '\r']) {
                return Err(format!("{label}: must be one line"));
            }
        }
        Ok(())
    }

    /// As Claude Code's loader reads it: the frontmatter must parse (the error names its
    /// line, as the editor numbers them).
    fn check_text(&self, text: &str) -> Result<(), String> {
        match frontmatter::parse(text).frontmatter {
            Frontmatter::Fields(_) => Ok(()),
            Frontmatter::Invalid { line, message } => Err(format!("line {line}: {message}")),
            Frontmatter::Missing => Err(
                "the frontmatter is gone: a topic file opens with a --- line, closed by another"
                    .into(),
            ),
        }
    }

    fn kinds(&self) -> Vec<&'static str> {
        KNOWN_TYPES.to_vec()
    }

    fn budget(&self) -> Option<FileBudget> {
        None
    }

    /// A topic file's other frontmatter fields and bytes are kept by a save.
    fn keeps_more(&self) -> bool {
        true
    }

    fn measure(&self, text: &str) -> (usize, usize) {
        (text.len(), text.lines().count())
    }

    /// A topic file's save is refused by its write (a name taken picks another file name).
    fn set_refusal(&self, _shown: &Shown, _base: Option<&str>, _fields: &Fields) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOPIC: &str = "---\nname: role\ndescription: what I do\ntype: user\noriginSessionId: s1\n---\n\nI review code.\n";

    #[test]
    fn the_fields_are_the_frontmatters_and_the_rest_of_the_file_is_kept() {
        let mut fields = TOPIC_RULES.fields_of(TOPIC).expect("reads as fields");
        assert_eq!(fields[0], "role");
        assert_eq!(fields[1], "user");
        // The body as `add --body` takes it, as on every format; the file keeps its own.
        assert_eq!(fields[3], "I review code.");
        fields[2] = "what I do now".into();
        let text = TOPIC_RULES.text_with(Some(TOPIC), &fields).expect("built");
        assert!(text.ends_with("---\n\nI review code.\n"), "{text}");
        assert!(text.contains("description: what I do now"), "{text}");
        assert!(text.contains("originSessionId: s1"), "{text}");
        assert_eq!(TOPIC_RULES.check_text(&text), Ok(()));
    }

    #[test]
    fn a_text_or_fields_claude_code_would_not_read_are_refused() {
        assert_eq!(TOPIC_RULES.fields_of("---\nname: [a\n---\nbody\n"), None);
        let why = TOPIC_RULES
            .check_text("---\nname: [a\n---\nbody\n")
            .expect_err("does not parse");
        assert!(why.starts_with("line "), "{why}");
        assert!(TOPIC_RULES.check_text("no frontmatter").is_err());
        let blank = [String::new(), "user".into(), "d".into(), "b".into()];
        assert_eq!(
            TOPIC_RULES.check_fields(&blank),
            Err("name: a memory needs a name".into())
        );
        let two_lines = ["a".into(), "user".into(), "d\ne".into(), "b".into()];
        assert!(TOPIC_RULES.check_fields(&two_lines).is_err());
        assert_eq!(TOPIC_RULES.budget(), None);
    }
}
