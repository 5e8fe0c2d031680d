//! The extractor and consolidator side-queries: their requests and the strict checks on their
//! replies. One bad item rejects the whole reply; nothing is repaired or guessed.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::history::Message;
use super::model::{ModelClient, SideQueryError, side_query, stable_json};
use super::prompts;
use super::selection::kind_of;
use crate::store::{Record, RecordInput};

const RECORD_KEYS: [&str; 4] = ["name", "type", "description", "body"];
const PLAN_KEYS: [&str; 2] = ["source_names", "records"];

/// A validated consolidation reply: replace `source_names` with `records`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsolidationReply {
    pub source_names: Vec<String>,
    pub records: Vec<Record>,
}

/// The extractor's request: the system prompt, the history as given, then
/// `{"existing_catalog": <catalog>}` as stable JSON.
pub fn extractor_messages(history: &[Message], catalog: &str) -> Vec<Message> {
    let mut messages = Vec::with_capacity(history.len() + 2);
    messages.push(Message::system(prompts::EXTRACTOR));
    messages.extend(history.iter().cloned());
    messages.push(Message::user(stable_json(
        &json!({"existing_catalog": catalog}),
    )));
    messages
}

/// The consolidator's request: the system prompt, then `{"candidates": [records...]}`.
pub fn consolidator_messages(candidates: &[Record]) -> Vec<Message> {
    let candidates: Vec<Value> = candidates.iter().map(record_json).collect();
    vec![
        Message::system(prompts::CONSOLIDATOR),
        Message::user(stable_json(&json!({"candidates": candidates}))),
    ]
}

fn record_json(record: &Record) -> Value {
    json!({
        "name": record.name(),
        "type": record.kind().as_str(),
        "description": record.description(),
        "body": record.body(),
    })
}

pub fn ask_extractor(
    client: &dyn ModelClient,
    history: &[Message],
    catalog: &str,
) -> Result<Vec<Record>, SideQueryError> {
    let reply = side_query(client, extractor_messages(history, catalog))?;
    parse_extraction_reply(&reply)
}

pub fn ask_consolidator(
    client: &dyn ModelClient,
    candidates: &[Record],
) -> Result<ConsolidationReply, SideQueryError> {
    let reply = side_query(client, consolidator_messages(candidates))?;
    parse_consolidation_reply(&reply, candidates)
}

/// A JSON array (possibly empty) of records, each an object with exactly `name`, `type`,
/// `description` and `body`, all strings, valid as records, names unique in the batch.
pub fn parse_extraction_reply(reply: &Value) -> Result<Vec<Record>, SideQueryError> {
    let Value::Array(items) = reply else {
        return Err(invalid(format!(
            "expected a JSON array of memories, got {}",
            kind_of(reply)
        )));
    };
    parse_records(items, "item")
}

/// An object with exactly `source_names` (non-empty, unique, each a candidate's name) and
/// `records` (non-empty, each a valid record as in [`parse_extraction_reply`]).
pub fn parse_consolidation_reply(
    reply: &Value,
    candidates: &[Record],
) -> Result<ConsolidationReply, SideQueryError> {
    let Value::Object(map) = reply else {
        return Err(invalid(format!(
            "expected a JSON object, got {}",
            kind_of(reply)
        )));
    };
    check_keys(map, &PLAN_KEYS, "the reply")?;
    let Some(Value::Array(names)) = map.get("source_names") else {
        return Err(invalid(
            "\"source_names\" must be an array of memory names".into(),
        ));
    };
    if names.is_empty() {
        return Err(invalid("\"source_names\" must not be empty".into()));
    }
    let known: HashSet<&str> = candidates.iter().map(Record::name).collect();
    let mut seen = HashSet::new();
    let mut source_names = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let Value::String(name) = name else {
            return Err(invalid(format!(
                "source_names[{i}] is {}, expected a name",
                kind_of(name)
            )));
        };
        if !known.contains(name.as_str()) {
            return Err(invalid(format!(
                "source_names[{i}] {name:?} is not among the candidates"
            )));
        }
        if !seen.insert(name.as_str()) {
            return Err(invalid(format!("source_names[{i}] repeats {name:?}")));
        }
        source_names.push(name.clone());
    }
    let Some(Value::Array(items)) = map.get("records") else {
        return Err(invalid("\"records\" must be an array of memories".into()));
    };
    if items.is_empty() {
        return Err(invalid("\"records\" must not be empty".into()));
    }
    let records = parse_records(items, "records")?;
    Ok(ConsolidationReply {
        source_names,
        records,
    })
}

fn parse_records(items: &[Value], label: &str) -> Result<Vec<Record>, SideQueryError> {
    let mut names = HashSet::new();
    let mut records = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("{label}[{i}]");
        let Value::Object(map) = item else {
            return Err(invalid(format!(
                "{at} is {}, expected an object",
                kind_of(item)
            )));
        };
        check_keys(map, &RECORD_KEYS, &at)?;
        let field = |key: &str| match map.get(key) {
            Some(Value::String(text)) => Ok(text.clone()),
            Some(other) => Err(invalid(format!(
                "{at}.{key} is {}, expected a string",
                kind_of(other)
            ))),
            None => Err(invalid(format!("{at} has no {key:?}"))),
        };
        let input = RecordInput {
            name: field("name")?,
            kind: field("type")?,
            description: field("description")?,
            body: field("body")?,
        };
        let record = Record::from_input(&input).map_err(|e| invalid(format!("{at}: {e}")))?;
        if !names.insert(record.name().to_owned()) {
            return Err(invalid(format!(
                "{at} repeats the name {:?}",
                record.name()
            )));
        }
        records.push(record);
    }
    Ok(records)
}

fn check_keys(map: &Map<String, Value>, expected: &[&str], at: &str) -> Result<(), SideQueryError> {
    if let Some(extra) = map.keys().find(|k| !expected.contains(&k.as_str())) {
        return Err(invalid(format!("{at} has the unexpected key {extra:?}")));
    }
    if let Some(missing) = expected.iter().find(|k| !map.contains_key(**k)) {
        return Err(invalid(format!("{at} lacks the key {missing:?}")));
    }
    Ok(())
}

fn invalid(rule: String) -> SideQueryError {
    SideQueryError::Invalid(rule)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryType;

    fn item(name: &str) -> Value {
        json!({"name": name, "type": "project", "description": "d", "body": "b"})
    }

    #[test]
    fn extraction_accepts_exact_items_and_empty() {
        let records = parse_extraction_reply(&json!([item("a"), item("b")])).unwrap();
        assert_eq!(
            records.iter().map(Record::name).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert!(parse_extraction_reply(&json!([])).unwrap().is_empty());
    }

    #[test]
    fn one_bad_item_rejects_the_extraction() {
        let mut extra = item("b");
        extra["why"] = json!("x");
        let mut missing = item("b");
        missing.as_object_mut().unwrap().remove("body");
        let mut number = item("b");
        number["description"] = json!(3);
        let mut bad_type = item("b");
        bad_type["type"] = json!("note");
        for bad in [
            json!([item("a"), extra]),
            json!([item("a"), missing]),
            json!([item("a"), number]),
            json!([item("a"), bad_type]),
            json!([item("a"), item("Bad Name")]),
            json!([item("a"), item("a")]),
            json!([item("a"), "b"]),
            json!({"records": [item("a")]}),
        ] {
            let error = parse_extraction_reply(&bad).unwrap_err();
            assert!(
                matches!(error, SideQueryError::Invalid(_)),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn consolidation_rules() {
        let candidates = [
            Record::new("a", MemoryType::User, "d", "b").unwrap(),
            Record::new("b", MemoryType::User, "d", "b").unwrap(),
        ];
        let ok = parse_consolidation_reply(
            &json!({"source_names": ["a", "b"], "records": [item("ab")]}),
            &candidates,
        )
        .unwrap();
        assert_eq!(ok.source_names, ["a", "b"]);
        assert_eq!(ok.records[0].name(), "ab");
        for bad in [
            json!({"source_names": [], "records": [item("ab")]}),
            json!({"source_names": ["a"], "records": []}),
            json!({"source_names": ["a", "a"], "records": [item("ab")]}),
            json!({"source_names": ["zz"], "records": [item("ab")]}),
            json!({"source_names": ["a"], "records": [item("ab")], "note": "x"}),
            json!({"source_names": ["a"]}),
            json!({"source_names": "a", "records": [item("ab")]}),
            json!({"source_names": ["a"], "records": [item("ab"), item("Bad")]}),
            json!([item("ab")]),
        ] {
            assert!(
                parse_consolidation_reply(&bad, &candidates).is_err(),
                "{bad}"
            );
        }
    }
}
