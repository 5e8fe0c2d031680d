//! The reference implementation's golden vectors: byte-identical writes and exact read-back.

use crate::common;

use common::*;
use memwb::store::{Record, RecordInput, StoreError, StoreOptions, codec};
use serde::Deserialize;

const FIXED_ID: &str = "0123456789abcdef0123456789abcdef";

#[derive(Deserialize)]
struct Vectors {
    valid: Vec<Valid>,
    invalid: Vec<Invalid>,
}

#[derive(Deserialize)]
struct Valid {
    input: RecordInput,
    file: String,
    record_file: String,
    index: String,
    manifest: String,
    parsed: RecordInput,
}

#[derive(Deserialize)]
struct Invalid {
    input: RecordInput,
    error: String,
}

fn vectors() -> Vectors {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/records.json"
    ))
    .expect("fixture readable");
    serde_json::from_str(&text).expect("fixture parses")
}

#[test]
fn every_valid_vector_is_written_byte_for_byte() {
    let vectors = vectors();
    assert!(vectors.valid.len() >= 50);
    for case in &vectors.valid {
        let record =
            Record::from_input(&case.input).unwrap_or_else(|e| panic!("{}: {e}", case.input.name));
        assert_eq!(
            record.to_file_text(),
            case.record_file,
            "vector {}",
            case.input.name
        );
    }
}

#[test]
fn every_golden_file_reads_back_to_its_parsed_value() {
    for case in &vectors().valid {
        let record = codec::parse(case.record_file.as_bytes())
            .unwrap_or_else(|e| panic!("{}: {e}", case.input.name));
        assert_eq!(record.to_input(), case.parsed, "vector {}", case.input.name);
    }
}

/// Where memwb words a refusal its own way (docs/cli.md, "One idea, one word"): the
/// reference's message, and the start of memwb's. The reference names its TypeScript type.
const WORDED_OTHERWISE: [(&str, &str); 1] = [("memory kind must be MemoryType", "unknown type ")];

/// How memwb words the refusal the reference words `reference`.
fn ours(reference: &str) -> &str {
    WORDED_OTHERWISE
        .iter()
        .find(|(theirs, _)| *theirs == reference)
        .map_or(reference, |(_, ours)| ours)
}

#[test]
fn every_invalid_vector_is_rejected_with_the_reference_message() {
    let vectors = vectors();
    assert!(!vectors.invalid.is_empty());
    for case in &vectors.invalid {
        let err = Record::from_input(&case.input).expect_err(&case.input.name);
        assert!(
            err.to_string().starts_with(ours(&case.error)),
            "{:?}: got {err:?}, reference said {:?}",
            case.input.name,
            case.error
        );
    }
}

#[test]
fn every_valid_vector_is_stored_as_the_reference_stored_it() {
    for case in &vectors().valid {
        let name = &case.input.name;
        let dir = workspace();
        let store = open_with(
            dir.path(),
            StoreOptions {
                ids: Some(ids(&[FIXED_ID])),
                ..StoreOptions::default()
            },
        );
        let record = Record::from_input(&case.input).unwrap_or_else(|e| panic!("{name}: {e}"));
        let commit = store
            .extend(vec![record])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            commit.set.files(),
            std::slice::from_ref(&case.file),
            "vector {name}"
        );
        let files = snapshot(dir.path());
        let text = |file: &str| {
            let bytes = &files
                .iter()
                .find(|(f, _)| f == file)
                .unwrap_or_else(|| panic!("{name}: no {file}"))
                .1;
            String::from_utf8(bytes.clone()).expect("utf-8")
        };
        assert_eq!(
            files.len(),
            3,
            "vector {name}: {:?}",
            files.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
        assert_eq!(
            text(&case.file),
            case.record_file,
            "vector {name}: record file"
        );
        assert_eq!(text("MEMORY.md"), case.index, "vector {name}: index");
        assert_eq!(
            text("manifest.json"),
            case.manifest,
            "vector {name}: manifest"
        );
        // A fresh handle reads back exactly what the reference read back.
        let read = open(dir.path())
            .records()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].to_input(), case.parsed, "vector {name}: read back");
    }
}

#[test]
fn every_invalid_vector_writes_nothing() {
    let vectors = vectors();
    for case in &vectors.invalid {
        let dir = copy_fixture_store("stores/basic");
        let before = snapshot(dir.path());
        let store = open(dir.path());
        // A batch holding one invalid input is refused before the store is touched.
        let batch = [vectors.valid[0].input.clone(), case.input.clone()];
        let validated: Result<Vec<Record>, _> = batch.iter().map(Record::from_input).collect();
        let err = match validated {
            Ok(records) => panic!(
                "{:?} was accepted: {:?}",
                case.input.name,
                store.extend(records)
            ),
            Err(e) => e,
        };
        assert!(
            err.to_string().starts_with(ours(&case.error)),
            "{:?}: {err}",
            case.input.name
        );
        assert_unchanged(dir.path(), &before, &case.input.name);
        assert!(!lock_held(dir.path()));
    }
}

/// The invalid inputs, written by hand as a file the way a careless tool might, are refused
/// on read with the same message (the reader applies the same validation).
#[test]
fn every_invalid_vector_is_rejected_when_read_from_disk() {
    for (i, case) in vectors().invalid.iter().enumerate() {
        let dir = workspace();
        let root = dir.path().join(".memory");
        std::fs::create_dir(&root).expect("mkdir");
        let q = |s: &str| serde_json::to_string(s).expect("json");
        let text = format!(
            "---\nname: {}\ndescription: {}\ntype: {}\n---\n\n{}\n",
            q(&case.input.name),
            q(&case.input.description),
            q(&case.input.kind),
            case.input.body
        );
        let file = format!("bad-{i}.md");
        std::fs::write(root.join(&file), text).expect("write");
        std::fs::write(
            root.join("manifest.json"),
            format!("{{\"version\":1,\"files\":[\"{file}\"]}}"),
        )
        .expect("manifest");
        match open(dir.path()).read() {
            Err(StoreError::RecordInvalid { error, .. }) => {
                assert!(
                    error.to_string().starts_with(ours(&case.error)),
                    "{:?}: {error}",
                    case.input.name
                )
            }
            other => panic!("{:?}: {other:?}", case.input.name),
        }
    }
}
