//! `E`: edit a memory's file in `$VISUAL`/`$EDITOR` the way `kubectl edit` does. On text the
//! open format would not read, the file is reopened with the error at the top as `#` comments,
//! until it is valid or the user aborts (empties the file, or saves it again unchanged). What
//! is valid is the format's (`formats::EditorRules`); the text is saved whole, compare-and-swap
//! against the text the edit started from, as the in-pane editor saves.

use std::io::Write;
use std::process::Command;

use super::app::ExternalOutcome;
use crate::formats::EditorRules;

/// A memory's file handed to `$VISUAL`/`$EDITOR`: the file, its exact text (the base of the
/// save) and the rules its edited text is checked by.
#[derive(Clone)]
pub struct ExternalEdit {
    pub file: String,
    pub text: String,
    pub rules: &'static dyn EditorRules,
}

impl std::fmt::Debug for ExternalEdit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalEdit")
            .field("file", &self.file)
            .field("text", &self.text.len())
            .finish_non_exhaustive()
    }
}

/// `$VISUAL`, else `$EDITOR`, else `vi`.
pub fn editor_command() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".to_owned())
}

/// Drops the `#` lines this flow put above the memory (a memory file starts with `---`, so
/// every `#` line before the first `---` is ours).
pub fn strip_comments(text: &str) -> &str {
    let mut rest = text;
    while rest.starts_with('#') {
        match rest.find('\n') {
            Some(end) => rest = &rest[end + 1..],
            None => return "",
        }
    }
    rest
}

fn header(error: &str) -> String {
    let message = error.replace(['\n', '\r'], " ");
    // a reader's line numbers count from the memory's first line, below this header
    let at = if message.starts_with("line ") {
        "in the memory below, "
    } else {
        ""
    };
    format!(
        "# memwb: this memory is not valid and was NOT written:\n#   {at}{message}\n# Fix it and save to write it; empty the file, or save it unchanged, to give up.\n"
    )
}

/// Why `text` would not save as the format reads its files (its text first, then its fields).
fn invalid(rules: &dyn EditorRules, text: &str) -> Option<String> {
    if let Err(why) = rules.check_text(text) {
        return Some(why);
    }
    let fields = rules.fields_of(text)?;
    rules.check_fields(&fields).err()
}

/// Whether `text` holds the same memory as `original`: the same text, or, where a file holds
/// nothing but the fields, the same fields.
fn unchanged(rules: &dyn EditorRules, original: &str, text: &str) -> bool {
    text == original
        || (!rules.keeps_more()
            && rules
                .fields_of(text)
                .is_some_and(|fields| rules.fields_of(original) == Some(fields)))
}

/// Runs the edit loop with `command` (a shell command line; the file path is appended).
pub fn edit_until_valid(edit: &ExternalEdit, command: &str) -> ExternalOutcome {
    let original = edit.text.clone();
    let file = match tempfile::Builder::new()
        .prefix("memwb-edit-")
        .suffix(".md")
        .tempfile()
    {
        Ok(file) => file,
        Err(e) => return ExternalOutcome::Failed(format!("cannot create a temporary file: {e}")),
    };
    let path = file.path().to_owned();
    let mut contents = original.clone();
    let mut last_invalid: Option<String> = None;
    loop {
        let written =
            std::fs::File::create(&path).and_then(|mut f| f.write_all(contents.as_bytes()));
        if let Err(e) = written {
            return ExternalOutcome::Failed(format!("cannot write {}: {e}", path.display()));
        }
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("{command} \"$1\""))
            .arg("sh")
            .arg(&path)
            .status();
        match status {
            Ok(s) if s.success() => {}
            Ok(s) => {
                return ExternalOutcome::Failed(format!(
                    "the editor ({command}) exited with {s}; nothing was saved"
                ));
            }
            Err(e) => {
                return ExternalOutcome::Failed(format!("cannot run the editor ({command}): {e}"));
            }
        }
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                return ExternalOutcome::Failed(format!("cannot read {}: {e}", path.display()));
            }
        };
        let text = strip_comments(&text).to_owned();
        if text.trim().is_empty() {
            return ExternalOutcome::Aborted(
                "edit aborted: the file was emptied; nothing was saved".into(),
            );
        }
        if last_invalid.as_deref() == Some(text.as_str()) {
            return ExternalOutcome::Aborted(
                "edit aborted: saved unchanged while invalid; nothing was saved".into(),
            );
        }
        match invalid(edit.rules, &text) {
            None if unchanged(edit.rules, &original, &text) => {
                return ExternalOutcome::Aborted("no changes; nothing was saved".into());
            }
            None => return ExternalOutcome::Edited(text),
            Some(error) => {
                contents = format!("{}{text}", header(&error));
                last_invalid = Some(text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{MemoryType, Record, codec};

    fn base() -> ExternalEdit {
        let record = Record::new("a-note", MemoryType::User, "about a", "body").expect("valid");
        ExternalEdit {
            file: "a-note.md".into(),
            text: record.to_file_text(),
            rules: &crate::formats::memory::RECORD_RULES,
        }
    }

    fn parsed(text: &str) -> Record {
        codec::parse(text.as_bytes()).expect("a record file")
    }

    /// A fake editor: a shell script that runs the n-th of `steps` (sed expressions) on the
    /// file, counting its runs in a file beside it.
    fn editor(dir: &std::path::Path, steps: &[&str]) -> String {
        let script = dir.join("ed.sh");
        let mut body = String::from(
            "#!/bin/sh\nn=$(cat \"$0.count\" 2>/dev/null || echo 0)\necho $((n+1)) > \"$0.count\"\ncp \"$1\" \"$0.seen.$n\"\ncase $n in\n",
        );
        for (i, step) in steps.iter().enumerate() {
            body.push_str(&format!("{i}) {step} ;;\n"));
        }
        body.push_str("esac\n");
        std::fs::write(&script, body).expect("script");
        format!("sh {}", script.display())
    }

    #[test]
    fn valid_edit_is_returned() {
        let dir = tempfile::tempdir().expect("dir");
        let cmd = editor(dir.path(), &["sed -i 's/^body$/new body/' \"$1\""]);
        match edit_until_valid(&base(), &cmd) {
            ExternalOutcome::Edited(text) => assert_eq!(parsed(&text).body(), "new body"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn invalid_content_reopens_with_the_error_until_fixed() {
        let dir = tempfile::tempdir().expect("dir");
        let cmd = editor(
            dir.path(),
            &[
                "sed -i 's/^type: user$/type: bogus/' \"$1\"",
                "sed -i 's/^type: bogus$/type: project/' \"$1\"",
            ],
        );
        match edit_until_valid(&base(), &cmd) {
            ExternalOutcome::Edited(text) => assert_eq!(parsed(&text).kind(), MemoryType::Project),
            other => panic!("{other:?}"),
        }
        let second =
            std::fs::read_to_string(dir.path().join("ed.sh.seen.1")).expect("second round");
        assert!(
            second.starts_with("# memwb: this memory is not valid"),
            "{second}"
        );
        assert!(
            second.contains("unknown type \"bogus\": use user"),
            "{second}"
        );
    }

    #[test]
    fn saving_unchanged_while_invalid_aborts() {
        let dir = tempfile::tempdir().expect("dir");
        let cmd = editor(
            dir.path(),
            &["sed -i 's/^name: a-note$/name: Bad/' \"$1\"", "true"],
        );
        assert!(matches!(
            edit_until_valid(&base(), &cmd),
            ExternalOutcome::Aborted(_)
        ));
    }

    #[test]
    fn emptied_file_aborts() {
        let dir = tempfile::tempdir().expect("dir");
        let cmd = editor(dir.path(), &[": > \"$1\""]);
        assert!(matches!(
            edit_until_valid(&base(), &cmd),
            ExternalOutcome::Aborted(_)
        ));
    }
}
