//! The plain-layout shortcut of [`super::parse`] against the YAML parser and against its own
//! definition by serialization: on the golden files, awkward variants of them, and generated
//! values.

use super::*;

/// Values that stress the shortcut: YAML-significant text it must leave to the parser
/// (quoted, folded or refused when written), and plain text it may read itself.
const TRICKY: &[&str] = &[
    "a",
    "plain words, and more",
    "123",
    "true",
    "~",
    "null",
    "1e3",
    "0x1F",
    "yes",
    "a: b",
    "a #b",
    "#a",
    "- a",
    "? a",
    "'a'",
    "\"a\"",
    "[a]",
    "{a}",
    "&a",
    "*a",
    "!a",
    "|",
    ">",
    "%a",
    "@a",
    "`a",
    " a",
    "a ",
    "a\tb",
    "\u{85}a",
    "a\u{2028}b",
    "\u{feff}a",
    "caf\u{e9}",
    "user",
    "---",
    "...",
];

fn plain_file(name: &str, description: &str, kind: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\n{body}\n")
}

/// The shortcut as first written: the record built from the lines by [`Record::new`]
/// (body normalized, budget checked on its serialization), kept when its own file text is
/// `text` byte for byte. [`written_plain`] decides the same without serializing.
fn written_plain_by_serializing(text: &str) -> Option<Record> {
    let rest = text.strip_prefix("---\nname: ")?;
    let (name, rest) = rest.split_once('\n')?;
    let rest = rest.strip_prefix("description: ")?;
    let (description, rest) = rest.split_once('\n')?;
    let rest = rest.strip_prefix("type: ")?;
    let (kind, rest) = rest.split_once('\n')?;
    let body = rest.strip_prefix("---\n")?;
    let record = Record::new(name, kind.parse().ok()?, description, body).ok()?;
    (serialize(&record) == text).then_some(record)
}

/// Whatever the shortcut reads, the YAML parser reads the same; what it leaves, the parser
/// decides (an error stays the parser's error). The shortcut also agrees with its definition
/// by serialization, on what it reads and on what it leaves. A file over the budget is
/// refused by [`parse`] before either is tried: `false`.
#[track_caller]
fn agrees(text: &str) -> bool {
    if check_budget(text).is_err() {
        assert!(parse(text.as_bytes()).is_err(), "{text:?}");
        return false;
    }
    assert_eq!(
        written_plain(text),
        written_plain_by_serializing(text),
        "{text:?}"
    );
    let by_yaml = parse_yaml(text);
    match written_plain(text) {
        Some(record) => {
            assert_eq!(by_yaml.as_ref(), Ok(&record), "{text:?}");
            true
        }
        None => false,
    }
}

#[test]
fn the_plain_shortcut_reads_what_the_yaml_parser_reads() {
    let long = "word ".repeat(40);
    let mut read_plain = 0;
    for value in TRICKY.iter().copied().chain([long.trim_end()]) {
        for (name, description, kind, body) in [
            ("a", value, "user", "b"),
            (value, "d", "user", "b"),
            ("a", "d", value, "b"),
            ("a", "d", "project", value),
        ] {
            read_plain += usize::from(agrees(&plain_file(name, description, kind, body)));
            if let Ok(kind) = kind.parse::<MemoryType>()
                && let Ok(record) = Record::new(name, kind, description, body)
            {
                let text = serialize(&record);
                assert_eq!(parse_yaml(&text), Ok(record.clone()), "{text:?}");
                assert!(written_plain(&text).is_none_or(|r| r == record), "{text:?}");
            }
        }
    }
    // Plain values are read by the shortcut (else it would save nothing).
    assert!(read_plain >= 10, "{read_plain}");
    assert!(agrees(&plain_file("a", "d", "user", "body")));
    // Not the exact file of a record: left to the parser.
    for text in [
        "---\nname: a\ndescription: d\ntype: user\n---\n\nbody\n\n",
        "---\nname: a\ndescription: d\ntype: user\n---\nbody\n",
        "---\r\nname: a\r\ndescription: d\r\ntype: user\r\n---\r\n\r\nbody\r\n",
        "---\nname: a\ndescription:  d\ntype: user\n---\n\nbody\n",
        "---\ndescription: d\nname: a\ntype: user\n---\n\nbody\n",
    ] {
        assert!(!agrees(text), "{text:?}");
    }
}

/// The reference's golden record files, and each made awkward: CRLF, a line break more or
/// less, a value folded or quoted, Unicode that is longer in bytes than in UTF-16 units.
#[test]
fn the_shortcut_agrees_on_the_golden_files_and_awkward_variants() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/records.json");
    let json = std::fs::read_to_string(path).expect("the golden vectors");
    let vectors: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let mut files: Vec<String> = Vec::new();
    for case in vectors["valid"].as_array().expect("valid cases") {
        files.push(
            case["record_file"]
                .as_str()
                .expect("record_file")
                .to_owned(),
        );
    }
    for case in vectors["invalid"].as_array().expect("invalid cases") {
        let input = &case["input"];
        let field = |key: &str| input[key].as_str().unwrap_or("").to_owned();
        files.push(plain_file(
            &field("name"),
            &field("description"),
            &field("type"),
            &field("body"),
        ));
    }
    let golden = files.len();
    let read_plain = files.iter().filter(|text| agrees(text)).count();
    assert!(read_plain >= 10, "{read_plain} of {golden} golden files");

    let long_words = "word ".repeat(20);
    let long_unbroken = "x".repeat(100);
    let accents = "\u{e9}".repeat(50); // 100 bytes, 50 UTF-16 units: never folded
    let emoji = "\u{1F600} ".repeat(30); // 150 bytes, 90 units: folded
    let mut variants = Vec::new();
    for text in &files {
        variants.push(text.replace('\n', "\r\n"));
        variants.push(format!("{text}\n"));
        variants.push(text.replacen("---\n\n", "---\n", 1));
        variants.push(text.replacen("---\n\n", "---\n\n\n", 1));
        variants.push(text.replacen("\n---\n", "\r\n---\n", 1));
        variants.push(text.replacen("description: ", "description: 'q' ", 1));
        for value in [
            long_words.trim_end(),
            &long_unbroken,
            &accents,
            emoji.trim_end(),
            "\"quoted\"",
            "'quoted'",
            "caf\u{e9} \u{2028} \u{85}",
        ] {
            variants.push(text.replacen("description: ", &format!("description: {value}"), 1));
            if let Some((_, body)) = text.split_once("---\n\n") {
                variants.push(text.replacen(body, &format!("{value}\n"), 1));
            }
        }
    }
    let variant_plain = variants.iter().filter(|text| agrees(text)).count();
    // Some variants are still plain (a long unbroken or accented value), most are not.
    assert!(
        variant_plain > 0 && variant_plain < variants.len(),
        "{variant_plain}"
    );
    for value in [
        long_words.trim_end(),
        &long_unbroken,
        &accents,
        emoji.trim_end(),
    ] {
        let record = Record::new("a", MemoryType::User, value, "b").expect("valid");
        let text = serialize(&record);
        assert_eq!(
            written_plain(&text).is_some(),
            !text.contains("\n  "),
            "{text:?}"
        );
        agrees(&text);
    }
    for kind in MemoryType::ALL {
        assert!(emits_unchanged(kind.as_str(), "type".len() + 1), "{kind}");
    }
}

proptest::proptest! {
    /// Any three one-line values and a body in the plain layout: the shortcut never reads
    /// something the YAML parser reads otherwise or refuses.
    #[test]
    fn the_shortcut_never_disagrees_with_the_yaml_parser(
        name in "[a-z0-9:#'\" -]{1,12}",
        description in proptest::collection::vec(
            proptest::sample::select(
                TRICKY.iter().copied().chain(["x", " ", "é"]).collect::<Vec<_>>()
            ),
            1..6,
        ),
        kind in proptest::sample::select(vec!["user", "project", "feedback", "reference", "User", "'user'"]),
        body in "[a-z \n:#-]{1,40}",
    ) {
        agrees(&plain_file(&name, &description.concat(), kind, &body));
    }
}
