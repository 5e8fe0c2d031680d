//! The after-image of a Write, Edit or MultiEdit, computed from the file's current content the
//! way Claude Code's tools compute it, so that a proposal holds exactly what the agent would
//! have written.
//!
//! Claude Code's rules: `Write` replaces the whole file. `Edit` replaces `old_string` with
//! `new_string`: the old string must occur in the file; without `replace_all` it must occur
//! exactly once; old and new must differ; an empty `old_string` creates a file that does not
//! exist yet (or is empty). `MultiEdit` applies its edits in order, each to the result of the
//! one before, all or nothing.

use serde::Deserialize;

/// One find-and-replace of an Edit or MultiEdit call.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Replacement {
    pub old_string: String,
    pub new_string: String,
    #[serde(default)]
    pub replace_all: bool,
}

/// What a file-writing tool call asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileChange {
    Write { content: String },
    Edit(Vec<Replacement>),
}

/// Why an edit does not apply; Claude Code's own tool would fail the same way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("edit {edit}: old_string is not in the file")]
    NotFound { edit: usize },
    #[error(
        "edit {edit}: old_string occurs {count} times and replace_all is false (it must be unique)"
    )]
    NotUnique { edit: usize, count: usize },
    #[error("edit {edit}: old_string and new_string are the same")]
    Unchanged { edit: usize },
    #[error(
        "edit {edit}: an empty old_string creates a file, but the file exists and is not empty"
    )]
    FileExists { edit: usize },
    #[error("edit {edit}: the file does not exist (only an empty old_string creates one)")]
    NoFile { edit: usize },
}

impl FileChange {
    /// The file's content after the call, from its content before (`None`: it does not exist).
    pub fn apply(&self, before: Option<&str>) -> Result<String, EditError> {
        match self {
            FileChange::Write { content } => Ok(content.clone()),
            FileChange::Edit(edits) => {
                let mut text: Option<String> = before.map(str::to_owned);
                for (i, edit) in edits.iter().enumerate() {
                    text = Some(replace(text.as_deref(), edit, i + 1)?);
                }
                // No edits at all: Claude Code refuses an empty MultiEdit; treat it as no change.
                text.ok_or(EditError::NoFile { edit: 0 })
            }
        }
    }
}

fn replace(text: Option<&str>, edit: &Replacement, number: usize) -> Result<String, EditError> {
    if edit.old_string == edit.new_string {
        return Err(EditError::Unchanged { edit: number });
    }
    if edit.old_string.is_empty() {
        return match text {
            None | Some("") => Ok(edit.new_string.clone()),
            Some(_) => Err(EditError::FileExists { edit: number }),
        };
    }
    let text = text.ok_or(EditError::NoFile { edit: number })?;
    let count = text.matches(edit.old_string.as_str()).count();
    match count {
        0 => Err(EditError::NotFound { edit: number }),
        _ if edit.replace_all => Ok(text.replace(&edit.old_string, &edit.new_string)),
        1 => Ok(text.replacen(&edit.old_string, &edit.new_string, 1)),
        count => Err(EditError::NotUnique {
            edit: number,
            count,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(old: &str, new: &str, all: bool) -> Replacement {
        Replacement {
            old_string: old.into(),
            new_string: new.into(),
            replace_all: all,
        }
    }

    #[test]
    fn write_replaces_the_whole_file_existing_or_not() {
        let write = FileChange::Write {
            content: "new\n".into(),
        };
        assert_eq!(write.apply(None).unwrap(), "new\n");
        assert_eq!(write.apply(Some("old")).unwrap(), "new\n");
    }

    #[test]
    fn edit_replaces_one_unique_occurrence_keeping_every_other_byte() {
        let change = FileChange::Edit(vec![edit("beta", "BETA", false)]);
        assert_eq!(
            change.apply(Some("alpha\r\nbeta  \ngamma")).unwrap(),
            "alpha\r\nBETA  \ngamma"
        );
    }

    #[test]
    fn edit_refuses_what_claude_code_refuses() {
        let twice = Some("x x");
        assert_eq!(
            FileChange::Edit(vec![edit("x", "y", false)]).apply(twice),
            Err(EditError::NotUnique { edit: 1, count: 2 })
        );
        assert_eq!(
            FileChange::Edit(vec![edit("z", "y", false)]).apply(twice),
            Err(EditError::NotFound { edit: 1 })
        );
        assert_eq!(
            FileChange::Edit(vec![edit("x", "x", true)]).apply(twice),
            Err(EditError::Unchanged { edit: 1 })
        );
        assert_eq!(
            FileChange::Edit(vec![edit("", "y", false)]).apply(twice),
            Err(EditError::FileExists { edit: 1 })
        );
        assert_eq!(
            FileChange::Edit(vec![edit("x", "y", false)]).apply(None),
            Err(EditError::NoFile { edit: 1 })
        );
    }

    #[test]
    fn replace_all_and_an_empty_old_string_on_a_new_file() {
        assert_eq!(
            FileChange::Edit(vec![edit("x", "y", true)])
                .apply(Some("x x"))
                .unwrap(),
            "y y"
        );
        assert_eq!(
            FileChange::Edit(vec![edit("", "fresh", false)])
                .apply(None)
                .unwrap(),
            "fresh"
        );
    }

    #[test]
    fn multi_edit_applies_in_order_to_the_result_so_far_all_or_nothing() {
        let change = FileChange::Edit(vec![edit("a", "b", false), edit("bb", "c", false)]);
        assert_eq!(change.apply(Some("ab")).unwrap(), "c");
        let failing = FileChange::Edit(vec![edit("a", "b", false), edit("zz", "c", false)]);
        assert_eq!(
            failing.apply(Some("ab")),
            Err(EditError::NotFound { edit: 2 })
        );
    }
}
