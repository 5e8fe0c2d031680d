//! The one change model (docs/architecture.md, "The change model"): a change is the files it
//! touched, each as it was and as it became, plus what it means (its [`Op`]). A journal entry
//! is a change plus who, when and why; every format's entry answers [`Change`] for itself, so
//! the rules over a change (is it empty, which files, was it only a redaction, which memories
//! it added, changed and removed) are written once, here. A leaf: it imports nothing of memwb.

use serde::{Deserialize, Serialize};

/// One file a change touched, as it was and as it became (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileImage {
    /// Relative to the folder, `/`-separated.
    pub file: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// What a change means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    Add,
    Set,
    Rm,
    Consolidate,
    RebuildIndex,
    Approve,
    Reject,
    Undo,
    Repair,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Set => "set",
            Op::Rm => "rm",
            Op::Consolidate => "consolidate",
            Op::RebuildIndex => "rebuild-index",
            Op::Approve => "approve",
            Op::Reject => "reject",
            Op::Undo => "undo",
            Op::Repair => "repair",
        }
    }
}

/// What a file held on one side of a change, as its record keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// The memory the file held, by name; `None` for a file that holds no one memory (an
    /// index).
    pub memory: Option<String>,
    /// What is kept of its content (credentials redacted): two versions are the same content
    /// when these are equal.
    pub kept: String,
}

/// One path of a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touched {
    /// Relative to the folder, `/`-separated; empty for a memory a proposal would write into
    /// a file its format names only when it is approved (a `.memory` plan's new record).
    pub file: String,
    /// `None`: the file was absent.
    pub before: Option<Version>,
    pub after: Option<Version>,
    /// Which of its sides were kept with credentials replaced (a journal entry marks them when
    /// it is written): the text kept there is not the text the path held.
    pub redacted: Sides,
}

/// One flag for each side of a path: as it was (`before`) and as it became (`after`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sides {
    pub before: bool,
    pub after: bool,
}

impl Sides {
    /// The other way round: what was before is after (an undo).
    pub fn swapped(self) -> Self {
        Self {
            before: self.after,
            after: self.before,
        }
    }
}

/// One side of a path: as it was, or as it became.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    Before,
    After,
}

impl Touched {
    /// The file is the same before and after as kept: its only change, if any, was the
    /// redaction of credentials, which the record keeps redacted on both sides.
    pub fn unchanged(&self) -> bool {
        self.before == self.after
    }

    /// The file holds no one memory (an index) and its content changed.
    pub fn changed_index(&self) -> bool {
        let index = |v: &Option<Version>| v.as_ref().is_some_and(|v| v.memory.is_none());
        (index(&self.before) || index(&self.after)) && !self.unchanged()
    }
}

/// A change: what it means and every path it touched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub op: Op,
    pub touched: Vec<Touched>,
}

impl Change {
    /// Every path it touched, in the order it keeps them.
    pub fn files(&self) -> Vec<&str> {
        self.touched.iter().map(|t| t.file.as_str()).collect()
    }

    /// The paths whose content came out as it went in (as kept, credentials redacted): a
    /// file rewritten in place with the same kept text, or a memory that moved to another
    /// file with the same kept content. Undo has nothing to put back there.
    pub fn only_redacted(&self) -> Vec<&str> {
        let mut before: Vec<&Version> = self.touched.iter().flat_map(|t| &t.before).collect();
        let mut same = Vec::new();
        for touched in &self.touched {
            let Some(after) = &touched.after else {
                continue;
            };
            if let Some(at) = before.iter().position(|b| *b == after) {
                before.swap_remove(at);
                same.push(touched.file.as_str());
            }
        }
        same
    }

    /// It touched files, and every one of them came out as it went in: a change that only
    /// redacted credentials (kept redacted, so nothing tells what to undo).
    pub fn redaction_only(&self) -> bool {
        let before = self.touched.iter().filter(|t| t.before.is_some()).count();
        let after = self.touched.iter().filter(|t| t.after.is_some()).count();
        !self.touched.is_empty() && before == after && self.only_redacted().len() == after
    }

    /// The memories it added, changed and removed, by name.
    pub fn memories(&self) -> Changed {
        Changed::of_touched(&self.touched)
    }

    /// The first file holding no one memory (an index) whose content changed.
    pub fn changed_index(&self) -> Option<&str> {
        changed_index(&self.touched)
    }

    /// The change that takes this one back (an undo): every path goes from what this change
    /// made it to what it was. Its base, what each path must hold for it to apply, is what
    /// this change left (`before`).
    pub fn inverse(&self) -> Change {
        Change {
            op: Op::Undo,
            touched: self
                .touched
                .iter()
                .map(|t| Touched {
                    file: t.file.clone(),
                    before: t.after.clone(),
                    after: t.before.clone(),
                    redacted: t.redacted.swapped(),
                })
                .collect(),
        }
    }

    /// What applying this change writes with its credentials as `[REDACTED]` (the text kept
    /// of it was redacted when it was journaled, and the secret is kept nowhere): each path
    /// by the memory it holds, or by its file when it holds no one memory. An undo is the
    /// inverse of an entry's change, so this is what that undo cannot restore whole.
    pub fn writes_redacted(&self) -> Vec<&str> {
        self.touched
            .iter()
            .filter(|t| t.redacted.after)
            .filter_map(|t| {
                let after = t.after.as_ref()?;
                Some(after.memory.as_deref().unwrap_or(&t.file))
            })
            .collect()
    }
}

/// The first of `touched` that holds no one memory (an index) and whose content changed.
pub(crate) fn changed_index(touched: &[Touched]) -> Option<&str> {
    touched
        .iter()
        .find(|t| t.changed_index())
        .map(|t| t.file.as_str())
}

/// The memories a change added, changed and removed, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changed {
    pub added: Vec<String>,
    pub changed: Vec<String>,
    pub removed: Vec<String>,
}

impl Changed {
    /// The memories `touched` held before and after, by name.
    pub fn of_touched(touched: &[Touched]) -> Self {
        let names = |side: fn(&Touched) -> &Option<Version>| -> Vec<String> {
            touched
                .iter()
                .filter_map(|t| side(t).as_ref()?.memory.clone())
                .collect()
        };
        Self::between(&names(|t| &t.before), &names(|t| &t.after))
    }

    /// Names in both lists changed; the others were added or removed. Order is kept. A file
    /// whose memory's name changed is one memory removed and another added, as a rename that
    /// writes a new file is.
    pub fn between(before: &[String], after: &[String]) -> Self {
        Self {
            added: after
                .iter()
                .filter(|n| !before.contains(n))
                .cloned()
                .collect(),
            changed: after
                .iter()
                .filter(|n| before.contains(n))
                .cloned()
                .collect(),
            removed: before
                .iter()
                .filter(|n| !after.contains(n))
                .cloned()
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }

    /// "added a; changed b; removed c" (`None` when nothing changed).
    pub fn describe(&self) -> Option<String> {
        let parts: Vec<String> = [
            ("added", &self.added),
            ("changed", &self.changed),
            ("removed", &self.removed),
        ]
        .into_iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(label, names)| format!("{label} {}", names.join(", ")))
        .collect();
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// "renamed a to b" when exactly one memory went and another came, else [`Changed::describe`].
    pub fn describe_edit(&self) -> Option<String> {
        match self.renamed() {
            Some((from, to)) => Some(format!("renamed {from} to {to}")),
            None => self.describe(),
        }
    }

    /// The memory an edit renamed, as `(from, to)`: exactly one went and another came, and
    /// nothing else changed.
    pub fn renamed(&self) -> Option<(&str, &str)> {
        match (
            self.removed.as_slice(),
            self.added.as_slice(),
            self.changed.is_empty(),
        ) {
            ([from], [to], true) => Some((from, to)),
            _ => None,
        }
    }
}

/// One file's text before and after (`before: None`: it does not exist yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextChange {
    pub file: String,
    pub before: Option<String>,
    pub after: String,
}

impl TextChange {
    /// Whether the text changes at all.
    pub fn changed(&self) -> bool {
        self.before.as_deref() != Some(self.after.as_str())
    }
}

/// A rebuild of a folder's index planned, shown before it is written (`index --fix`, `R`):
/// the index's text (and its archive's) before and after, and what the rebuild does in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexPlan {
    pub index: TextChange,
    /// Set when entries move out.
    pub archive: Option<TextChange>,
    /// The dangling entry lines taken out, as written.
    pub removed: Vec<String>,
    /// Files given an entry.
    pub added: Vec<String>,
    /// Files whose entries moved to the archive, oldest first.
    pub archived: Vec<String>,
    /// Still past the load limit after archiving every entry (the rest is not entries).
    pub still_over: bool,
}

impl IndexPlan {
    /// Whether the plan changes nothing.
    pub fn is_empty(&self) -> bool {
        !self.index.changed() && self.archive.as_ref().is_none_or(|a| !a.changed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory(name: &str, kept: &str) -> Option<Version> {
        Some(Version {
            memory: Some(name.into()),
            kept: kept.into(),
        })
    }

    fn touched(file: &str, before: Option<Version>, after: Option<Version>) -> Touched {
        Touched {
            file: file.into(),
            before,
            after,
            redacted: Sides::default(),
        }
    }

    fn change(touched: Vec<Touched>) -> Change {
        Change {
            op: Op::Set,
            touched,
        }
    }

    #[test]
    fn a_memory_redacted_in_place_or_into_a_new_file_is_only_redacted() {
        let in_place = change(vec![touched("a.md", memory("a", "x"), memory("a", "x"))]);
        assert!(in_place.redaction_only());
        assert_eq!(in_place.only_redacted(), ["a.md"]);
        let moved = change(vec![
            touched("a-1.md", memory("a", "x"), None),
            touched("a-2.md", None, memory("a", "x")),
        ]);
        assert!(moved.redaction_only());
        assert_eq!(moved.only_redacted(), ["a-2.md"]);
    }

    #[test]
    fn an_edit_or_an_addition_is_not_only_redacted() {
        let edit = change(vec![touched("a.md", memory("a", "x"), memory("a", "y"))]);
        assert!(!edit.redaction_only());
        assert!(edit.only_redacted().is_empty());
        let added = change(vec![
            touched("a.md", memory("a", "x"), memory("a", "x")),
            touched("b.md", None, memory("b", "y")),
        ]);
        assert!(!added.redaction_only());
        assert_eq!(added.only_redacted(), ["a.md"]);
        assert!(!change(Vec::new()).redaction_only());
    }

    #[test]
    fn the_inverse_takes_every_path_back_and_its_own_inverse_is_the_change() {
        let c = change(vec![
            touched("a-1.md", memory("a", "x"), None),
            touched("a-2.md", None, memory("b", "x")),
            touched("c.md", memory("c", "1"), memory("c", "2")),
        ]);
        let undo = c.inverse();
        assert_eq!(undo.op, Op::Undo);
        assert_eq!(undo.files(), c.files());
        assert_eq!(undo.touched[0].after, memory("a", "x"));
        assert_eq!(undo.touched[1].before, memory("b", "x"));
        assert_eq!(undo.touched[2].before, memory("c", "2"));
        let said = undo.memories();
        assert_eq!(
            (said.added, said.changed, said.removed),
            (
                vec!["a".to_owned()],
                vec!["c".to_owned()],
                vec!["b".to_owned()]
            )
        );
        assert_eq!(undo.inverse().touched, c.touched);
    }

    #[test]
    fn memories_are_said_by_name_and_an_index_is_not_one() {
        let index = |kept: &str| {
            Some(Version {
                memory: None,
                kept: kept.into(),
            })
        };
        let c = change(vec![
            touched("a-1.md", memory("a", "x"), None),
            touched("a-2.md", None, memory("a", "y")),
            touched("b.md", memory("b", "z"), None),
            touched("c.md", None, memory("c", "w")),
            touched("MEMORY.md", index("1"), index("2")),
        ]);
        let said = c.memories();
        assert_eq!(said.added, ["c"]);
        assert_eq!(said.changed, ["a"]);
        assert_eq!(said.removed, ["b"]);
        assert_eq!(c.changed_index(), Some("MEMORY.md"));
        let renamed = change(vec![touched("a.md", memory("a", "x"), memory("b", "x"))]);
        assert_eq!(
            renamed.memories().describe_edit().as_deref(),
            Some("renamed a to b")
        );
    }

    #[test]
    fn what_an_inverse_writes_back_redacted_is_the_sides_kept_redacted_before() {
        let mut removed = touched("a.md", memory("a", "[REDACTED]"), None);
        removed.redacted.before = true;
        let mut edited = touched("b.md", memory("b", "1"), memory("b", "2"));
        edited.redacted.after = true;
        let index = Touched {
            redacted: Sides {
                before: true,
                after: false,
            },
            ..touched(
                "MEMORY.md",
                Some(Version {
                    memory: None,
                    kept: "1".into(),
                }),
                Some(Version {
                    memory: None,
                    kept: "2".into(),
                }),
            )
        };
        let c = change(vec![removed, edited, index]);
        assert_eq!(c.writes_redacted(), ["b"]);
        assert_eq!(c.inverse().writes_redacted(), ["a", "MEMORY.md"]);
        assert_eq!(c.inverse().inverse().touched, c.touched);
    }
}
