//! One memory as every format reads it: the read model both backends produce (`.memory`
//! records through [`crate::store::MemorySet::memories`], Claude Code topic files through
//! [`crate::claude::Snapshot::memories`]) and every reader above them takes: `ls`, `show`,
//! selection, the content audit, eval and the workbench's query; and a new memory's fields as
//! they arrive ([`RecordInput`]), which every backend's write takes and proposals keep, and
//! one refused with why ([`Refusal`]), on every format. A leaf:
//! it depends on nothing in the crate, so a new format produces it without knowing who reads it.
#![warn(missing_docs)]

use std::fmt;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

/// One memory. Serialized, it is the row `ls --json` and `show --json` print:
/// `{"name","type","description","body","file"}`, with `"name_from_file"` when the name is the
/// file's stem and `"extra"` where the format has other fields (Claude Code's frontmatter).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Memory {
    /// The memory's name (its file's stem when it names itself nowhere).
    pub name: String,
    /// `name` is the file's stem: the memory names itself nowhere (a Claude Code topic file
    /// whose `name` field is missing or blank).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub name_from_file: bool,
    /// The type as written; `None` when it has none. A `.memory` record always has one of
    /// the four (user, feedback, project, reference); a topic file may hold any.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The one-line description an agent reads in the index; `None` when it has none.
    pub description: Option<String>,
    /// The text after the frontmatter.
    pub body: String,
    /// The file that holds it, relative to the memory folder, `/`-separated: its identity.
    pub file: String,
    /// The format's other fields, as JSON values (`None`: the format has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Map<String, serde_json::Value>>,
    /// Its 0-based place in the set's order (the manifest's; for Claude Code, MEMORY.md's
    /// entries, then the other files) when the index lists it (Claude Code: MEMORY.md or its
    /// archive links to it); `None` when it does not, so an agent reading the index never
    /// finds it.
    #[serde(skip)]
    pub position: Option<usize>,
    /// Why the file cannot be read, when it cannot: it is still one of the set's memories
    /// (`ls` lists it), but selection and the content audit pass it by.
    #[serde(skip)]
    pub unreadable: Option<String>,
    /// The file line (1-based) holding the description, when it has one.
    #[serde(skip)]
    pub description_line: Option<usize>,
    /// The file line (1-based) on which the body starts.
    #[serde(skip)]
    pub body_line: usize,
    /// The whole frontmatter as written (it starts on file line 2), where the format keeps
    /// fields a checked schema does not (Claude Code); `None` for a `.memory` record.
    #[serde(skip)]
    pub frontmatter: Option<String>,
    /// The file's last change, when the backend read it.
    #[serde(skip)]
    pub modified: Option<SystemTime>,
    /// When memwb's journal wrote the file as it reads now, if it did (the review layer fills
    /// it in; a backend leaves it `None`).
    #[serde(skip)]
    pub journaled: Option<SystemTime>,
}

impl Memory {
    /// The type as a selection's `## <name> (<type>)` heading shows it.
    pub(crate) fn kind_label(&self) -> &str {
        self.kind.as_deref().unwrap_or("untyped")
    }

    /// The description, empty when it has none.
    pub fn description(&self) -> &str {
        self.description.as_deref().unwrap_or("")
    }

    /// Whether it reads: selection, eval and the content audit take only those.
    pub fn is_readable(&self) -> bool {
        self.unreadable.is_none()
    }

    /// Those of `memories` that read, in their order: what a selection chooses among.
    pub fn readable(memories: &[Memory]) -> Vec<Memory> {
        memories
            .iter()
            .filter(|m| m.is_readable())
            .cloned()
            .collect()
    }

    /// What a filter looks through: name, type, description, file and body.
    pub(crate) fn haystack(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.name,
            self.kind.as_deref().unwrap_or(""),
            self.description(),
            self.file,
            self.body
        )
    }
}

/// A new memory's four fields as they arrive from outside (JSON, the CLI, a model, a proposal),
/// before any format validates them: what every backend's write takes and a proposal keeps.
/// Deserialized only from an object with exactly these keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordInput {
    /// The memory's name.
    pub name: String,
    /// Its type as given (a backend checks it).
    #[serde(rename = "type")]
    pub kind: String,
    /// The one-line description.
    pub description: String,
    /// The text after the frontmatter.
    pub body: String,
}

/// A memory a format cannot take as it is, and why: one a copy or a plan brings that the
/// target refuses, or one a side query cannot be shown. Said the same way on every format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The memory's name, as the folder it comes from has it.
    pub name: String,
    /// Why it is refused, in words.
    pub reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordFields {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    description: String,
    body: String,
}

impl<'de> Deserialize<'de> for RecordInput {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields: RecordFields = deserializer.deserialize_map(ObjectOnly::expecting(
            "an object {name, type, description, body}",
        ))?;
        Ok(Self {
            name: fields.name,
            kind: fields.kind,
            description: fields.description,
            body: fields.body,
        })
    }
}

/// A visitor that reads `T` (a derived struct) from a map only. A derived struct also accepts
/// a sequence of its fields in order, so `["n","user","d","b"]` would pass for a record: a
/// shape no writer means. Use as `deserializer.deserialize_map(ObjectOnly::expecting(..))`.
pub struct ObjectOnly<T> {
    expecting: &'static str,
    shape: std::marker::PhantomData<T>,
}

impl<T> ObjectOnly<T> {
    /// A visitor whose error, for anything but a map, says it expected `expecting`.
    pub fn expecting(expecting: &'static str) -> Self {
        Self {
            expecting,
            shape: std::marker::PhantomData,
        }
    }
}

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for ObjectOnly<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
    }
}
