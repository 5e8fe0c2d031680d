//! `add`, `set`, `rm` and rename as the files they change: each topic file and MEMORY.md with
//! the exact text read (the base the write engine compares against) and the text to write.

use jiff::Timestamp;

use super::claude_form;
use super::fields::{self, TopicText};
use super::index_lines::{
    append_entry, entry_line, rehook_entries, remove_entries, rename_entries,
};
use super::naming::file_name;
use super::{EditError, stamp_modified};
use crate::claude::frontmatter::{self, LINE_BREAKS};
use crate::claude::index::INDEX_FILE;

/// One file of a change, as the write engine takes it.
pub use crate::claude::write::FileWrite;

/// A topic file as read: its folder-relative path and exact text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopicFile<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

impl TopicFile<'_> {
    /// The memory's name as the text holds it: the `name` field, else (missing or blank) the
    /// file's stem, the rule `Topic::name` reads a folder by.
    pub fn name(&self) -> String {
        let parsed = frontmatter::parse(self.text);
        parsed
            .field("name")
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| crate::claude::folder::stem_of(self.file))
            .to_owned()
    }
}

/// A new memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMemory {
    pub name: String,
    pub kind: String,
    pub description: String,
    pub body: String,
}

/// What `set` changes; `None` leaves a part as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    pub name: Option<String>,
    pub kind: Option<String>,
    pub description: Option<String>,
    pub body: Option<String>,
    /// Any other top-level or `metadata:` field, set (`Some`) or removed (`None`).
    pub fields: Vec<(String, Option<String>)>,
}

fn index_write(index: Option<&str>, after: String) -> Option<FileWrite> {
    (index != Some(after.as_str())).then(|| FileWrite {
        file: INDEX_FILE.into(),
        base: index.map(str::to_owned),
        after: Some(after),
    })
}

fn ensure_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_owned()
    } else {
        format!("{text}\n")
    }
}

/// A new topic file (`<type>_<slug>.md`, unique among `existing`) in Claude Code's own form
/// (`name`, `description`, `metadata:` with `node_type`, `type` and `modified`; a name Claude
/// Code would change is refused, see `claude_form`), and its entry in MEMORY.md (`index`:
/// its text, `None` when missing). Returns the new file's name and the writes.
pub fn plan_add(
    memory: &NewMemory,
    index: Option<&str>,
    existing: &[&str],
    now: Timestamp,
) -> Result<(String, Vec<FileWrite>), EditError> {
    let (mut files, writes) = plan_add_all(std::slice::from_ref(memory), index, existing, now)?;
    Ok((files.remove(0), writes))
}

/// [`plan_add`] for a batch: one new file each (unique among `existing` and each other) and
/// one MEMORY.md write holding every entry, in order.
pub fn plan_add_all(
    memories: &[NewMemory],
    index: Option<&str>,
    existing: &[&str],
    now: Timestamp,
) -> Result<(Vec<String>, Vec<FileWrite>), EditError> {
    let mut taken: Vec<String> = existing.iter().map(|f| (*f).to_owned()).collect();
    let mut files = Vec::with_capacity(memories.len());
    let mut writes = Vec::with_capacity(memories.len() + 1);
    let mut new_index = index.unwrap_or("").to_owned();
    for memory in memories {
        let taken_refs: Vec<&str> = taken.iter().map(String::as_str).collect();
        let file = file_name(&memory.name, Some(&memory.kind), &taken_refs);
        writes.push(FileWrite {
            file: file.clone(),
            base: None,
            after: Some(new_topic(memory, now)?),
        });
        let line = entry_line(&memory.name, &file, &memory.description);
        new_index = append_entry(&new_index, &line, Some(&memory.kind));
        taken.push(file.clone());
        files.push(file);
    }
    writes.extend(index_write(index, new_index));
    Ok((files, writes))
}

/// The new file as Claude Code's own Write would leave it (see `claude_form`).
fn new_topic(memory: &NewMemory, now: Timestamp) -> Result<String, EditError> {
    claude_form::topic_text(
        &memory.name,
        &memory.description,
        &memory.kind,
        &memory.body,
        None,
        now,
    )
}

/// The frontmatter field edits, the body and the `modified` stamp of one file (stamped only
/// when something changed and the file had frontmatter); the text back unchanged when
/// nothing differs.
pub fn edit_topic(text: &str, changes: &Changes, now: Timestamp) -> Result<String, EditError> {
    let mut out = text.to_owned();
    let current = frontmatter::parse(text);
    for (key, value) in [
        ("name", &changes.name),
        ("description", &changes.description),
        ("type", &changes.kind),
    ] {
        if let Some(value) = value {
            set_if_changed(&mut out, &current, key, value)?;
        }
    }
    for (key, value) in &changes.fields {
        match value {
            Some(value) => set_if_changed(&mut out, &current, key, value)?,
            None => out = fields::remove_field(&out, key),
        }
    }
    if let Some(body) = &changes.body {
        out = replace_body(&out, body);
    }
    // Only a file that had frontmatter is stamped: one an edit gave frontmatter keeps just
    // the fields asked for.
    if out == text || TopicText::split(text).is_none() {
        return Ok(out);
    }
    Ok(stamp_modified(&out, now)?.unwrap_or(out))
}

fn set_if_changed(
    out: &mut String,
    current: &frontmatter::Parsed,
    key: &str,
    value: &str,
) -> Result<(), EditError> {
    let now_is = if key == "type" {
        current.kind()
    } else {
        current.field(key)
    };
    if now_is != Some(value) {
        *out = fields::set_field(out, key, value)?;
    }
    Ok(())
}

/// The text with its body replaced, keeping the blank lines that opened the old one; the
/// text unchanged when the body would read back the same ([`Parsed::trimmed_body`]: only
/// outer line breaks differ), so giving a body back as it was read writes nothing.
///
/// [`Parsed::trimmed_body`]: crate::claude::frontmatter::Parsed::trimmed_body
fn replace_body(text: &str, body: &str) -> String {
    let (head, old) = match TopicText::split(text) {
        Some(topic) => (&text[..text.len() - topic.body().len()], topic.body()),
        None => ("", text),
    };
    let lead = &old[..old.len() - old.trim_start_matches(LINE_BREAKS).len()];
    let body = body.trim_start_matches(LINE_BREAKS);
    if old.trim_matches(LINE_BREAKS) == body.trim_end_matches(LINE_BREAKS) {
        return text.to_owned();
    }
    format!("{head}{lead}{}", ensure_newline(body))
}

/// `set` on one topic file, kept where it is: its edit and, when the name or the description
/// changed, the entry lines that showed them.
pub fn plan_set(
    topic: TopicFile<'_>,
    index: Option<&str>,
    changes: &Changes,
    now: Timestamp,
) -> Result<Vec<FileWrite>, EditError> {
    plan_edit(topic, index, changes, None, now).map(|(_, writes)| writes)
}

/// A rename: the `name` field changed (and stamped), the file moved to the name Claude Code
/// would pick for the new name (in the same folder; unless that is its current name), and
/// the index links and titles rewritten. Returns the new file and the writes.
pub fn plan_rename(
    topic: TopicFile<'_>,
    index: Option<&str>,
    new_name: &str,
    existing: &[&str],
    now: Timestamp,
) -> Result<(String, Vec<FileWrite>), EditError> {
    let changes = Changes {
        name: Some(new_name.to_owned()),
        ..Changes::default()
    };
    plan_edit(topic, index, &changes, Some(existing), now)
}

/// `set` with every change at once. When the name changes and `existing` is given (the
/// folder's files), the file moves as in [`plan_rename`]; with `None` it stays. Returns the
/// file the memory is in afterwards and the writes (none when nothing changes).
pub fn plan_edit(
    topic: TopicFile<'_>,
    index: Option<&str>,
    changes: &Changes,
    existing: Option<&[&str]>,
    now: Timestamp,
) -> Result<(String, Vec<FileWrite>), EditError> {
    let before = frontmatter::parse(topic.text);
    let old_name = before.field("name").unwrap_or(stem(topic.file)).to_owned();
    let after = edit_topic(topic.text, changes, now)?;
    let renamed = changes.name.as_ref().filter(|name| **name != old_name);
    if let Some(name) = renamed {
        claude_form::check_name(name)?;
    }
    let new_file = match (renamed, existing) {
        (Some(name), Some(existing)) => {
            let kind = changes.kind.as_deref().or(before.kind());
            moved_file(topic.file, name, kind, existing)
        }
        _ => topic.file.to_owned(),
    };
    let mut writes = Vec::new();
    if new_file == topic.file {
        if after != topic.text {
            writes.push(FileWrite {
                file: topic.file.into(),
                base: Some(topic.text.into()),
                after: Some(after),
            });
        }
    } else {
        writes.push(FileWrite {
            file: topic.file.into(),
            base: Some(topic.text.into()),
            after: None,
        });
        writes.push(FileWrite {
            file: new_file.clone(),
            base: None,
            after: Some(after),
        });
    }
    if writes.is_empty() {
        return Ok((new_file, writes));
    }
    if let Some(text) = index {
        let mut new_index = text.to_owned();
        if renamed.is_some() || new_file != topic.file {
            let name = renamed.map_or(old_name.as_str(), String::as_str);
            new_index = rename_entries(&new_index, topic.file, &new_file, &old_name, name);
        }
        if let Some(description) = &changes.description {
            let old = before.field("description").unwrap_or("");
            new_index = rehook_entries(&new_index, &new_file, old, description);
        }
        writes.extend(index_write(index, new_index));
    }
    Ok((new_file, writes))
}

/// Where a renamed memory's file goes: the name picked for `name` in the file's own folder,
/// or the file itself when that is what it is already called (case ignored).
fn moved_file(file: &str, name: &str, kind: Option<&str>, existing: &[&str]) -> String {
    let dir = file.rfind('/').map_or("", |i| &file[..=i]);
    let others: Vec<&str> = existing
        .iter()
        .filter(|f| **f != file)
        .filter_map(|f| f.strip_prefix(dir))
        .filter(|f| !f.contains('/'))
        .collect();
    let picked = file_name(name, kind, &others);
    if picked.to_lowercase() == file[dir.len()..].to_lowercase() {
        file.to_owned()
    } else {
        format!("{dir}{picked}")
    }
}

/// `rm`: every file deleted and every entry linking to one removed.
pub fn plan_rm(topics: &[TopicFile<'_>], index: Option<&str>) -> Vec<FileWrite> {
    let mut writes: Vec<FileWrite> = topics
        .iter()
        .map(|t| FileWrite {
            file: t.file.into(),
            base: Some(t.text.into()),
            after: None,
        })
        .collect();
    if let Some(text) = index {
        let after = topics
            .iter()
            .fold(text.to_owned(), |acc, t| remove_entries(&acc, t.file));
        writes.extend(index_write(index, after));
    }
    writes
}

fn stem(file: &str) -> &str {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.strip_suffix(".md").unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOPIC: &str =
        "---\nname: a\ndescription: d\ntype: user\n---\n\n  indented\n\nlast \n\n\n";

    fn now() -> Timestamp {
        Timestamp::from_second(1_800_000_000).expect("a valid time")
    }

    fn body_changes(body: &str) -> Changes {
        Changes {
            body: Some(body.to_owned()),
            ..Changes::default()
        }
    }

    #[test]
    fn a_body_given_back_as_it_reads_writes_nothing() {
        let read = frontmatter::parse(TOPIC);
        for given in [
            read.trimmed_body(),
            "  indented\n\nlast \n",
            "\n  indented\n\nlast ",
        ] {
            let out = edit_topic(TOPIC, &body_changes(given), now()).expect("edits");
            assert_eq!(out, TOPIC, "{given:?}: neither rewritten nor stamped");
        }
    }

    #[test]
    fn a_new_body_keeps_the_blank_line_that_opened_the_old_one_and_ends_the_file() {
        let out = edit_topic(TOPIC, &body_changes("  indented\n\nlast"), now()).expect("edits");
        assert!(out.ends_with("---\n\n  indented\n\nlast\n"), "{out}");
        assert!(out.contains("modified: "), "a change is stamped: {out}");
    }
}
