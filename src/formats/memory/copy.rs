//! `copy --from` on a `.memory` set: its records, each with its file's text as the contract
//! writes it, as a copy's sources; and a copy into it filed as an extraction proposal of the
//! records it makes of them (its own records as validated, another format's memories
//! converted or refused with why).

use std::collections::HashSet;
use std::path::Path;

use super::FORMAT;
use super::journal::{NewProposal, file};
use crate::formats::copy::Source;
use crate::formats::{Copied, CopySources, FormatError};
use crate::memory::Refusal;
use crate::review::proposal::Origin;
use crate::session::Plan;
use crate::store::record::slug_of;
use crate::store::{MemoryType, Record, RecordError, Store, codec};

pub(super) fn copy_sources(store: &Store) -> Result<CopySources, FormatError> {
    let set = store.read()?;
    let sources = set
        .entries
        .iter()
        .enumerate()
        .map(|(position, entry)| Source {
            format: FORMAT,
            memory: entry.memory(position),
            text: entry.record.to_file_text(),
            unread: None,
        })
        .collect();
    Ok(CopySources::new(sources))
}

/// What a copy into a `.memory` set brings: records, and the refused.
#[derive(Debug, Clone, Default)]
struct IntoSet {
    records: Vec<Record>,
    refused: Vec<Refusal>,
}

/// The sources as records for a `.memory` set that holds `taken` names; `from` says where
/// they came from, for the note in each converted body.
fn into_set(sources: &[&Source], taken: &HashSet<String>, from: &str) -> IntoSet {
    let mut out = IntoSet::default();
    let mut names: HashSet<String> = taken.clone();
    for source in sources {
        let converted = if source.format == FORMAT {
            codec::parse(source.text.as_bytes()).map_err(|e| e.to_string())
        } else {
            converted(source, from)
        };
        let refuse = |reason: String| Refusal {
            name: source.name().to_owned(),
            reason,
        };
        match converted {
            Err(reason) => out.refused.push(refuse(reason)),
            Ok(record) if names.contains(record.name()) => out.refused.push(refuse(format!(
                "a memory named {:?} is already in the target",
                record.name()
            ))),
            Ok(record) => {
                names.insert(record.name().to_owned());
                out.records.push(record);
            }
        }
    }
    out
}

/// Another format's memory as a record: only its name (made a slug), type and description,
/// its body after a first line saying where it came from; refused with why when it does not
/// read or breaks the contract.
fn converted(source: &Source, from: &str) -> Result<Record, String> {
    if let Some(why) = &source.unread {
        return Err(why.clone());
    }
    let memory = &source.memory;
    let stem = Path::new(&memory.file)
        .file_stem()
        .map_or(String::new(), |stem| stem.to_string_lossy().into_owned());
    let name = [slug_of(&memory.name), slug_of(&stem)]
        .into_iter()
        .find(|s| !s.is_empty())
        .ok_or_else(|| {
            format!(
                "neither its name {:?} nor its file name has a letter or digit to make a .memory name from",
                memory.name
            )
        })?;
    let kind: MemoryType = match &memory.kind {
        None => return Err("it has no type (user, feedback, project or reference)".into()),
        Some(kind) => kind.parse().map_err(|e: RecordError| e.to_string())?,
    };
    let description = memory
        .description
        .as_deref()
        .ok_or("it has no description")?;
    if memory.body.trim().is_empty() {
        return Err("its body is empty".into());
    }
    let body = format!("(copied from {from}/{})\n\n{}", memory.file, memory.body);
    Record::new(name, kind, description, body).map_err(|e| e.to_string())
}

/// The sources as records whose names the set does not hold yet, proposed as one extraction
/// based on the set as read now.
pub(super) fn propose_copy(
    store: &Store,
    sources: &CopySources,
    from: &str,
) -> Result<Copied, FormatError> {
    let seen = store.read()?;
    let taken: HashSet<String> = seen.records().map(|r| r.name().to_owned()).collect();
    let out = into_set(&sources.sources(), &taken, from);
    if out.records.is_empty() {
        return Ok(Copied {
            id: None,
            refused: out.refused,
        });
    }
    let new = NewProposal {
        plan: Plan::Extraction(out.records),
        origin: Origin::new("copy"),
        seen,
        additions: Vec::new(),
        evidence: Some(format!("copied from {from}")),
    };
    let id = file(store, new)?.id;
    Ok(Copied {
        id: Some(id),
        refused: out.refused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;
    use crate::frontmatter::{Frontmatter, parse};
    use crate::store::StoredRecord;

    /// Another format's topic file of `text` as a copy is given it: the memory its frontmatter
    /// says (named by its file when it names itself nowhere), and why it does not read when its
    /// frontmatter does not, in a refusal's words.
    fn topic(file: &str, text: &str) -> Source {
        let parsed = parse(text);
        let stem = file.strip_suffix(".md").unwrap_or(file);
        let placeholder = Record::new("placeholder", MemoryType::User, "d", "b").unwrap();
        let mut memory = StoredRecord {
            file: file.into(),
            record: placeholder,
        }
        .memory(0);
        memory.name = parsed
            .field("name")
            .filter(|name| !name.trim().is_empty())
            .unwrap_or(stem)
            .to_owned();
        memory.kind = parsed.kind().map(str::to_owned);
        memory.description = parsed.field("description").map(str::to_owned);
        memory.body = parsed.trimmed_body().to_owned();
        let unread = match &parsed.frontmatter {
            Frontmatter::Invalid { line, message } => Some(format!(
                "its frontmatter is not valid YAML (line {line}: {message})"
            )),
            _ => None,
        };
        Source {
            format: Format::new("other", "another format"),
            memory,
            text: text.to_owned(),
            unread,
        }
    }

    #[test]
    fn a_topic_becomes_a_record_with_three_fields_a_slug_and_a_note() {
        let text = "---\nname: User Role\ndescription: \"Leads the team\"\nmetadata: \n  type: user\n  originSessionId: x\n---\n\nDana leads.\n";
        let sources = [topic("user_role.md", text)];
        let out = into_set(&[&sources[0]], &HashSet::new(), "/claude/memory");
        assert_eq!(out.refused, []);
        let record = &out.records[0];
        assert_eq!(record.name(), "user-role");
        assert_eq!(record.kind(), MemoryType::User);
        assert_eq!(record.description(), "Leads the team");
        assert_eq!(
            record.body(),
            "(copied from /claude/memory/user_role.md)\n\nDana leads."
        );
    }

    #[test]
    fn topics_that_break_the_contract_are_refused_with_the_reason() {
        let cases = [
            ("scratch.md", "just notes\n", "it has no type"),
            (
                "a.md",
                "---\nname: a\ntype: idea\ndescription: d\n---\nb\n",
                "unknown type \"idea\": use user",
            ),
            (
                "b.md",
                "---\nname: b\ntype: user\n---\nb\n",
                "it has no description",
            ),
            (
                "用户.md",
                "---\nname: 用户\ntype: user\ndescription: d\n---\nb\n",
                "neither its name",
            ),
            (
                "c.md",
                "---\nname: c\ndescription: \"q\" more\n---\nb\n",
                "its frontmatter is not valid YAML (line 3",
            ),
            (
                "d.md",
                "---\nname: d\ntype: user\ndescription: d\n---\n\n",
                "its body is empty",
            ),
            (
                "e.md",
                "---\nname: taken\ntype: user\ndescription: d\n---\nb\n",
                "a memory named \"taken\" is already in the target",
            ),
        ];
        let sources: Vec<Source> = cases.iter().map(|(f, t, _)| topic(f, t)).collect();
        let taken = HashSet::from(["taken".to_owned()]);
        let out = into_set(&sources.iter().collect::<Vec<_>>(), &taken, "/src");
        assert!(out.records.is_empty(), "{:?}", out.records);
        assert_eq!(out.refused.len(), cases.len());
        for (refusal, (_, _, why)) in out.refused.iter().zip(cases) {
            assert!(
                refusal.reason.starts_with(why),
                "{refusal:?} should say {why:?}"
            );
        }
    }

    #[test]
    fn a_record_of_a_set_is_taken_as_its_text_validates() {
        let record = Record::new("tabs", MemoryType::Feedback, "Use tabs", "Tabs.").unwrap();
        let own = |text: &str| Source {
            format: FORMAT,
            memory: crate::store::StoredRecord {
                file: "tabs-1.md".into(),
                record: record.clone(),
            }
            .memory(0),
            text: text.to_owned(),
            unread: None,
        };
        let quoted = "---\nname: \"tabs\"\ndescription: 'Use tabs'\ntype: feedback\n---\n\nTabs.\n";
        let broken = "---\nname: tabs\ntype: feedback\n---\n\nTabs.\n";
        let (kept, refused) = (own(quoted), own(broken));
        let out = into_set(&[&kept, &refused], &HashSet::new(), "/src");
        assert_eq!(out.records, [record]);
        assert_eq!(out.refused.len(), 1);
        assert_eq!(out.refused[0].name, "tabs");
        assert!(
            out.refused[0].reason.contains("description"),
            "{:?}",
            out.refused[0]
        );
    }
}
