//! The record editor's rules on a `.memory` set: four fields checked as the record codec
//! checks them, the file built byte for byte as the engine writes it, the record budget, and
//! the set's own refusals (a name another record has, MEMORY.md over its budget).

use crate::formats::workbench::record_input;
use crate::formats::{EditorRules, Fields, FileBudget, Shown};
use crate::store::index;
use crate::store::inspect::Inspection;
use crate::store::record::{MAX_RECORD_BYTES, MAX_RECORD_LINES, count_lines, normalize_body};
use crate::store::yaml_scalar::emit_scalar;
use crate::store::{MemoryType, Record, codec};

/// A `.memory` record file, made of the editor's fields.
pub(crate) struct RecordRules;

pub(crate) static RECORD_RULES: RecordRules = RecordRules;

/// The record file's text parsed, or the parse error with its line.
pub(super) fn parse_text(text: &str) -> Result<Record, String> {
    codec::parse(text.as_bytes()).map_err(|e| {
        let message = e.to_string();
        match e.line() {
            Some(line) if !message.contains(&format!("line {line}")) => {
                format!("line {line}: {message}")
            }
            _ => message,
        }
    })
}

impl EditorRules for RecordRules {
    fn fields_of(&self, text: &str) -> Option<Fields> {
        let input = parse_text(text).ok()?.to_input();
        Some([input.name, input.kind, input.description, input.body])
    }

    /// A record file holds its four fields and nothing else: the base adds nothing to it.
    fn text_with(&self, _base: Option<&str>, fields: &Fields) -> Result<String, String> {
        let [name, kind, description, body] = fields;
        let one_line = |s: &str| s.replace(['\n', '\r'], " ");
        let mut out = String::from("---\n");
        for (key, value) in [("name", name), ("description", description), ("type", kind)] {
            out.push_str(key);
            out.push_str(": ");
            out.push_str(&emit_scalar(&one_line(value), key.len() + 1));
            out.push('\n');
        }
        out.push_str("---\n\n");
        out.push_str(&normalize_body(body));
        out.push('\n');
        Ok(out)
    }

    fn check_fields(&self, fields: &Fields) -> Result<(), String> {
        Record::from_input(&record_input(fields))
            .map(drop)
            .map_err(|e| format!("{}: {e}", e.field()))
    }

    fn check_text(&self, text: &str) -> Result<(), String> {
        parse_text(text).map(drop)
    }

    fn kinds(&self) -> Vec<&'static str> {
        MemoryType::ALL.iter().map(|t| t.as_str()).collect()
    }

    fn budget(&self) -> Option<FileBudget> {
        Some(FileBudget {
            bytes: MAX_RECORD_BYTES,
            lines: MAX_RECORD_LINES,
        })
    }

    /// A record file holds its four fields and nothing else.
    fn keeps_more(&self) -> bool {
        false
    }

    fn measure(&self, text: &str) -> (usize, usize) {
        (text.len(), count_lines(text))
    }

    fn set_refusal(&self, shown: &Shown, base: Option<&str>, fields: &Fields) -> Option<String> {
        let inspection = shown.downcast_ref::<crate::store::Inspection>()?;
        let edited = Record::from_input(&record_input(fields)).ok()?;
        let others: Vec<(&str, &Record)> = inspection
            .entries
            .iter()
            .filter_map(|e| e.record().map(|r| (e.file.as_str(), r)))
            .filter(|(_, r)| base.is_none_or(|b| b != r.name()))
            .collect();
        if others.iter().any(|(_, r)| r.name() == edited.name()) {
            return Some(format!(
                "name: another memory is already named {:?}",
                edited.name()
            ));
        }
        // The engine names the file `<name>-<32 hex>.md`; the length is what the budget counts.
        let file = format!("{}-{}.md", edited.name(), "0".repeat(32));
        let text = index::render(others.into_iter().chain([(file.as_str(), &edited)]));
        let (lines, bytes) = index::measure(&text);
        let budget = inspection.budget;
        if lines > budget.max_index_lines || bytes > budget.max_index_bytes {
            return Some(format!(
                "index: MEMORY.md would be {lines}/{} lines, {bytes}/{} bytes",
                budget.max_index_lines, budget.max_index_bytes
            ));
        }
        None
    }
}

/// Whether the record whose file's text an editor opened (`opened`) is still as it was in
/// `inspection`, found by its name as record files are replaced on every change (`None`: no
/// record of that name reads, or `opened` is no record file).
pub(crate) fn opened_unchanged(inspection: &Inspection, opened: &str) -> Option<bool> {
    let opened = parse_text(opened).ok()?;
    let now = inspection
        .valid_records()
        .find(|record| record.name() == opened.name())?;
    Some(*now == opened)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{EditorChange, Open};
    use crate::store::{Store, StoreOptions};

    fn fields(record: &Record) -> Fields {
        let input = record.to_input();
        [input.name, input.kind, input.description, input.body]
    }

    #[test]
    fn the_fields_build_the_file_the_engine_writes_and_read_back() {
        let record =
            Record::new("a-note", MemoryType::User, "about: a", "line\n\tend").expect("ok");
        let text = RECORD_RULES
            .text_with(None, &fields(&record))
            .expect("built");
        assert_eq!(text, record.to_file_text());
        assert_eq!(RECORD_RULES.fields_of(&text), Some(fields(&record)));
        assert_eq!(RECORD_RULES.check_text(&text), Ok(()));
        assert_eq!(RECORD_RULES.measure(&text).0, text.len());
    }

    #[test]
    fn a_field_or_a_text_the_codec_refuses_is_refused_with_its_field_or_line() {
        let mut bad = fields(&Record::new("a", MemoryType::User, "d", "b").expect("ok"));
        bad[0] = "Bad Name".into();
        let why = RECORD_RULES.check_fields(&bad).expect_err("not a slug");
        assert!(why.starts_with("name: "), "{why}");
        bad[0] = "a".into();
        bad[1] = "opinion".into();
        let why = RECORD_RULES.check_fields(&bad).expect_err("no such type");
        assert!(why.starts_with("type: "), "{why}");
        let why = RECORD_RULES
            .check_text("---\nname: a\n---\n")
            .expect_err("keys missing");
        assert!(!why.is_empty());
        assert_eq!(RECORD_RULES.fields_of("no frontmatter"), None);
    }

    #[test]
    fn a_repair_whose_text_does_not_read_is_refused_and_writes_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
        let record = Record::new("one", MemoryType::User, "d", "b").expect("ok");
        store.extend(vec![record]).expect("extend");
        let before = store.inspect();
        let change = EditorChange::Repair {
            file: before.entries[0].file.clone(),
            seen: None,
            text: "---\nname: one\n".into(),
        };
        let error = Open::from(store.clone())
            .backend()
            .apply_edit(&change)
            .expect_err("the text is no record file");
        assert!(
            error.to_string().contains("is no record file yet"),
            "{error}"
        );
        assert_eq!(store.inspect(), before);
    }
}
