//! The reference implementation's golden vectors: byte-identical writes and exact read-back.

use memwb::store::{Record, RecordInput, codec};
use serde::Deserialize;

#[derive(Deserialize)]
struct Vectors {
    valid: Vec<Valid>,
    invalid: Vec<Invalid>,
}

#[derive(Deserialize)]
struct Valid {
    input: RecordInput,
    record_file: String,
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

#[test]
fn every_invalid_vector_is_rejected_with_the_reference_message() {
    let vectors = vectors();
    assert!(!vectors.invalid.is_empty());
    for case in &vectors.invalid {
        let err = Record::from_input(&case.input).expect_err(&case.input.name);
        assert!(
            err.to_string().starts_with(&case.error),
            "{:?}: got {err:?}, reference said {:?}",
            case.input.name,
            case.error
        );
    }
}
