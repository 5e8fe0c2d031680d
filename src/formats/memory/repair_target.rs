//! What `memwb repair` accepts as the entry to repair: its file name, a path to it (absolute
//! or relative to the current directory, inside `.memory`), or the record's name as it appears
//! in the file (even when the file does not read).

use std::path::Path;

use crate::formats::FormatError;
use crate::store::Store;
use crate::store::inspect::EntryState;

/// The listed file `given` names.
pub(super) fn resolve(store: &Store, given: &str) -> Result<String, FormatError> {
    let report = store.inspect();
    let listed: Vec<&str> = report.entries.iter().map(|e| e.file.as_str()).collect();
    let path = Path::new(given);
    // A file name, listed or not: the engine says which.
    if listed.contains(&given) || (path.components().count() == 1 && given.ends_with(".md")) {
        return Ok(given.to_owned());
    }
    if path.components().count() > 1 {
        let absolute = if path.is_absolute() {
            path.to_owned()
        } else {
            std::env::current_dir()
                .map_err(|e| FormatError::io("find the current directory", e))?
                .join(path)
        };
        let parent = absolute
            .parent()
            .and_then(|p| std::fs::canonicalize(p).ok());
        let name = absolute.file_name().and_then(|n| n.to_str());
        if let (Some(parent), Some(name)) = (parent, name) {
            if parent != store.root() {
                return Err(FormatError::refused(format!(
                    "{given} is not inside {}",
                    store.root().display()
                )));
            }
            if listed.contains(&name) {
                return Ok(name.to_owned());
            }
        }
        return Err(FormatError::refused(format!(
            "{given} is not listed in the manifest"
        )));
    }
    let holders: Vec<&str> = report
        .entries
        .iter()
        .filter(|entry| match &entry.state {
            EntryState::Valid(record) => record.name() == given,
            EntryState::Invalid { raw, .. } => frontmatter_names(raw).any(|n| n == given),
            _ => false,
        })
        .map(|entry| entry.file.as_str())
        .collect();
    match holders.as_slice() {
        [one] => Ok((*one).to_owned()),
        [] => Err(FormatError::refused(format!(
            "{given:?} is neither a listed file nor the name of a listed record (memwb check lists them)"
        ))),
        many => Err(FormatError::refused(format!(
            "{given:?} is the name in {}; repair one of them by its file name",
            many.join(" and ")
        ))),
    }
}

/// The values of `name:` lines in a file's frontmatter, read loosely (the file does not parse).
fn frontmatter_names(raw: &str) -> impl Iterator<Item = &str> {
    raw.lines()
        .skip(1)
        .take_while(|line| *line != "---")
        .filter_map(|line| line.strip_prefix("name:"))
        .map(|value| value.trim().trim_matches(['"', '\'']))
}
