//! What the workbench's jobs ask of a backend beyond the commands' methods: a file's text as
//! the base of an edit, `R`'s fix planned before it is written, a stale proposal re-planned,
//! and the changes its editors make, each written compare-and-swap against what the editor
//! opened (docs/architecture.md, "Workbench").

use super::FormatError;
use crate::change::Touched;
use crate::memory::RecordInput;
use crate::review::proposal::images::topic_name;
use crate::review::proposal::{Corrupt, Proposal, State};

/// The fix of MEMORY.md (and its archive, where the format has one) as planned from the
/// files as read: each file's text before and after, and what the fix does. Written only if
/// every file still holds the text it was planned from.
pub use crate::change::IndexPlan;

/// The four fields the editor edits, in its order (name, type, description, body).
pub type Fields = [String; 4];

/// The new memory the editor's fields make, as every format's write takes it.
pub(crate) fn record_input(fields: &Fields) -> RecordInput {
    let [name, kind, description, body] = fields.clone();
    RecordInput {
        name,
        kind,
        description,
        body,
    }
}

/// What one memory file may hold, where a format limits it: the editor's gauge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileBudget {
    pub bytes: usize,
    pub lines: usize,
}

/// How a format's memory file is made of the editor's four fields, asked as you type: the
/// backend supplies them ([`super::Backend::editor_rules`]), so the workbench's editor checks
/// and builds every format's files without knowing any, and says "✓ valid" only of what its
/// save will take.
pub trait EditorRules: Sync {
    /// The four fields `text` holds; `None` when it does not read as fields (the editor
    /// then opens it as raw text).
    fn fields_of(&self, text: &str) -> Option<Fields>;

    /// The file's text with `fields` in place of its own: `base` is the text the editor
    /// opened, whose other fields and bytes are kept (`None`: a new file). As near as invalid
    /// fields allow, for the gauge and the difference against the file on disk.
    fn text_with(&self, base: Option<&str>, fields: &Fields) -> Result<String, String>;

    /// Why `fields` would not save, as `<field>: <rule>`.
    fn check_fields(&self, fields: &Fields) -> Result<(), String>;

    /// Why a file's raw text would not save as the format reads it (its line first when the
    /// reader names one).
    fn check_text(&self, text: &str) -> Result<(), String>;

    /// The values the type field cycles through, in order.
    fn kinds(&self) -> Vec<&'static str>;

    /// What one file may hold, when the format limits it.
    fn budget(&self) -> Option<FileBudget>;

    /// Whether a file holds more than the four fields (other fields, its bytes as written),
    /// which a save keeps: the editor says so beside "✓ valid".
    fn keeps_more(&self) -> bool;

    /// `(bytes, lines)` of a file's text, as [`EditorRules::budget`] counts them.
    fn measure(&self, text: &str) -> (usize, usize);

    /// Why the folder as `shown` would refuse `fields` (in place of the memory named `base`,
    /// or new) beyond the fields' own rules: a name another memory has, an index over its
    /// budget with it. `None`: it would take them.
    fn set_refusal(
        &self,
        shown: &super::Shown,
        base: Option<&str>,
        fields: &Fields,
    ) -> Option<String>;
}

/// A change one of the workbench's editors (or a question answered yes) made, in neutral
/// terms: a memory's four fields or a file's text, each written against what was opened or
/// shown (`base`, `seen`, `opened`), and refused, nothing written, when that changed since.
/// The backend makes its own memory of them (on `.memory`, a record parsed from the fields and
/// the base) with its own rules and errors. A folder whose editor never makes a change refuses
/// it.
#[derive(Debug, Clone)]
pub enum EditorChange {
    /// Saves a reviewer's edit of a memory a pending proposal writes into the proposal,
    /// nothing applied: `fields` in place of what its change writes at `at` (kept as the
    /// format keeps it: its other fields and bytes stay), refused when the proposal's change
    /// is no longer `opened` ([`Proposal::change`]'s `touched` when the editor opened it).
    EditProposal {
        id: String,
        opened: Vec<Touched>,
        at: usize,
        fields: Fields,
    },
    /// Lists a file of the folder outside the set into the set as it is, if it still holds
    /// `seen`.
    Adopt { file: String, seen: Vec<u8> },
    /// Deletes a file of the folder outside the set, if it still holds `seen`.
    RemoveStray { file: String, seen: Vec<u8> },
    /// Replaces an entry of the set that does not read with its edited `text` (refused,
    /// nothing written, when it does not read as a memory file), if the entry still holds
    /// `seen`.
    Repair {
        file: String,
        seen: Option<Vec<u8>>,
        text: String,
    },
    /// Drops an entry of the set that does not read, if its text is still `seen` (`None`: it
    /// was missing or unreadable).
    DropEntry { file: String, seen: Option<String> },
    /// Saves the editor's fields into the memory file `file`, whose exact text was `base` (the
    /// base of the compare-and-swap), or into a new memory (`None`).
    SaveFields {
        file: Option<String>,
        base: Option<String>,
        fields: Fields,
    },
    /// Replaces `file`'s whole text, based on `base`.
    ReplaceText {
        file: String,
        base: String,
        text: String,
    },
    /// Deletes the memory file `file` (whose text was `base`) and its index lines.
    RemoveFile { file: String, base: String },
}

/// What an editor's change did: in words (`None`: nothing was written), the list's key of
/// what to select after it (a new or renamed memory), the memory file a save wrote, and what
/// about the written change needs a look (as [`super::Written::warning`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changed {
    pub summary: Option<String>,
    pub select: Option<String>,
    pub saved: Option<SavedFile>,
    pub warning: Option<String>,
}

/// The memory file a save wrote and its exact text: the base of the next save when the
/// editor stays open on keys typed while it was saving.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedFile {
    pub file: String,
    pub text: String,
}

/// Every filed proposal as the workbench lists it, oldest first, as the files are now, nothing
/// resolved or written: each with its state where only reading the folder's files tells it
/// (`None`: the set as the workbench read it tells it, `Proposal::state`), and the proposal
/// files that do not read.
#[derive(Debug, Clone, Default)]
pub struct Filed {
    pub listed: Vec<(Proposal, Option<State>)>,
    pub corrupt: Vec<Corrupt>,
}

/// What a change the open folder's editors never make is refused with.
pub(crate) fn not_here(change: &EditorChange) -> FormatError {
    FormatError::refused(format!(
        "this folder's editor makes no such change ({}); nothing was written",
        change.kind()
    ))
}

impl EditorChange {
    /// What the change does, by the memory's name, as the status line says it ("rename a to
    /// b", "delete a", "adopt f.md").
    pub fn describe(&self) -> String {
        match self {
            Self::EditProposal { id, .. } => format!("edit proposal {id}"),
            Self::Adopt { file, .. } => format!("adopt {file}"),
            Self::RemoveStray { file, .. } => format!("delete {file}"),
            Self::Repair { file, .. } => format!("repair {file}"),
            Self::DropEntry { file, .. } => format!("drop {file} from the manifest"),
            Self::SaveFields {
                file: Some(file),
                base: Some(base),
                fields,
            } => match topic_name(file, base) {
                before if before != fields[0] => format!("rename {before} to {}", fields[0]),
                _ => format!("save {}", fields[0]),
            },
            Self::SaveFields { fields, .. } => format!("add {}", fields[0]),
            Self::ReplaceText { file, base, text } => {
                match (topic_name(file, base), topic_name(file, text)) {
                    (before, after) if before != after => format!("rename {before} to {after}"),
                    (_, after) => format!("save {after}"),
                }
            }
            Self::RemoveFile { file, base } => format!("delete {}", topic_name(file, base)),
        }
    }

    /// The change's kind, for a refusal.
    fn kind(&self) -> &'static str {
        match self {
            Self::EditProposal { .. } => "edit a proposal",
            Self::Adopt { .. } => "adopt a file",
            Self::RemoveStray { .. } => "delete a file outside the set",
            Self::Repair { .. } => "repair an entry",
            Self::DropEntry { .. } => "drop an entry",
            Self::SaveFields { .. } => "save a memory's fields",
            Self::ReplaceText { .. } => "replace a file's text",
            Self::RemoveFile { .. } => "delete a memory",
        }
    }
}

impl FormatError {
    /// The folder changed since it was read, or a proposal since it was opened: the
    /// editor's conflict flow (look, merge or re-apply) answers it.
    pub fn is_conflict(&self) -> bool {
        match self {
            Self::Engine(e) => e.is_conflict(),
            Self::Review(e) => e.is_conflict(),
            Self::Placed { error, .. } => error.is_conflict(),
            Self::Conflicted { .. } => true,
            _ => false,
        }
    }

    /// On a conflict over a file's text, the text now (`None`: the file is gone).
    pub fn current_text(&self) -> Option<String> {
        match self {
            Self::Conflicted { current, .. } => current.clone(),
            Self::Engine(e) => e.current_text().map(str::to_owned),
            Self::Review(e) => e.current_text().map(str::to_owned),
            Self::Placed { error, .. } => error.current_text(),
            _ => None,
        }
    }
}
