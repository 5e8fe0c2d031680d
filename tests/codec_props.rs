//! Property tests over the record codec: every valid record round-trips through its file
//! text, and no input, however broken, panics the parser.

use memwb::store::record::is_safe_slug;
use memwb::store::{MemoryType, Record, codec};
use proptest::prelude::*;

fn kind() -> impl Strategy<Value = MemoryType> {
    prop::sample::select(MemoryType::ALL.to_vec())
}

fn name() -> impl Strategy<Value = String> {
    "[a-z0-9]{1,10}(-[a-z0-9]{1,6}){0,4}".prop_filter("not a device name", |n| is_safe_slug(n))
}

/// Characters that stress the YAML scalar writer: indicators, quotes, white space, controls,
/// the line-break look-alikes libyaml mishandles, non-BMP characters.
fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::char::range('a', 'z'),
        2 => Just(' '),
        1 => prop::sample::select(vec![
            ':', '#', '-', '?', '\'', '"', '\\', '[', ']', '{', '}', ',', '&', '*', '!', '|', '>', '%', '@',
            '`', '\t', '.', '~', '+', '0', '1', '9', 'e', 'x', 'o',
        ]),
        1 => prop::sample::select(vec![
            '\u{0}', '\u{7}', '\u{1b}', '\u{7f}', '\u{85}', '\u{a0}', '\u{2028}', '\u{2029}', '\u{feff}', '\u{9f}',
            'é', '界', '😀', '\u{10ffff}',
        ]),
        1 => any::<char>(),
    ]
}

/// One-line text (a description): tricky characters, or a whole value that resolves to a
/// non-string in YAML 1.2, or long runs of words that must fold at width 80.
fn one_line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(tricky_char(), 1..60)
            .prop_map(|cs| cs.into_iter().collect::<String>()),
        prop::sample::select(vec![
            "true",
            "False",
            "null",
            "~",
            "123",
            "-42",
            "0x1F",
            "0o17",
            "1e3",
            ".inf",
            "-.Inf",
            ".nan",
            "3.14",
            "+1",
            "yes",
            "no",
            "on",
            "off",
            "1_000",
            "2026-11-29",
            "12:30",
            "-",
            "?",
            "- a",
            "? b",
            "a: b",
            "a #b",
            "a:",
            " lead",
            "trail ",
            "'",
            "\"",
            "it's \"quoted\"",
        ])
        .prop_map(str::to_owned),
        (
            prop::collection::vec("[a-zA-Z界é]{1,12}", 1..40),
            prop::collection::vec(1usize..4, 40)
        )
            .prop_map(|(words, gaps)| {
                let mut out = String::new();
                for (i, w) in words.iter().enumerate() {
                    if i > 0 {
                        out.push_str(&" ".repeat(gaps[i % gaps.len()]));
                    }
                    out.push_str(w);
                }
                out
            }),
    ]
    .prop_map(|s: String| s.replace(['\n', '\r'], " "))
}

fn body() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(
            prop_oneof![4 => tricky_char(), 1 => Just('\n'), 1 => Just('\r')],
            1..300
        )
        .prop_map(|cs| cs.into_iter().collect::<String>()),
        any::<String>(),
        Just("---\nname: fake\n---\n".to_owned()),
    ]
}

fn valid_record() -> impl Strategy<Value = Record> {
    (name(), kind(), one_line(), body()).prop_filter_map("not a valid record", |(n, k, d, b)| {
        Record::new(n, k, d, b).ok()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_valid_record_round_trips(record in valid_record()) {
        let text = record.to_file_text();
        let back = codec::parse(text.as_bytes());
        prop_assert_eq!(back.as_ref(), Ok(&record), "file text:\n{}", text);
        prop_assert_eq!(back.map(|r| r.to_file_text()), Ok(text));
    }

    #[test]
    fn record_construction_never_panics(n in any::<String>(), d in any::<String>(), b in any::<String>(), k in kind()) {
        if let Ok(record) = Record::new(n, k, d, b) {
            prop_assert_eq!(codec::parse(record.to_file_text().as_bytes()), Ok(record));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_parser(bytes in prop::collection::vec(any::<u8>(), 0..5000)) {
        let _ = codec::parse(&bytes);
    }

    #[test]
    fn frontmatter_shaped_garbage_never_panics(
        lines in prop::collection::vec(prop_oneof![
            one_line(),
            Just("name: a".to_owned()),
            Just("description: d".to_owned()),
            Just("type: user".to_owned()),
            Just("  folded continuation".to_owned()),
            Just("- item".to_owned()),
            Just("key: [1, {a: b}]".to_owned()),
            Just("&anchor x: *alias".to_owned()),
            Just("!!str".to_owned()),
            Just("|".to_owned()),
            Just("---".to_owned()),
            Just("...".to_owned()),
        ], 0..12),
        body in body(),
    ) {
        let text = format!("---\n{}\n---\n\n{body}\n", lines.join("\n"));
        if let Ok(record) = codec::parse(text.as_bytes()) {
            // Whatever it accepts is a valid record that itself round-trips.
            prop_assert_eq!(codec::parse(record.to_file_text().as_bytes()), Ok(record));
        }
    }

    /// Random edits of a valid file: accepted or refused, never a panic, and anything accepted
    /// round-trips.
    #[test]
    fn mutated_files_never_panic(
        record in valid_record(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8),
    ) {
        let mut bytes = record.to_file_text().into_bytes();
        for (at, byte, how) in edits {
            if bytes.is_empty() {
                break;
            }
            let i = at.index(bytes.len());
            match how {
                0 => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ => { bytes.remove(i); }
            }
        }
        if let Ok(parsed) = codec::parse(&bytes) {
            prop_assert_eq!(codec::parse(parsed.to_file_text().as_bytes()), Ok(parsed));
        }
    }
}
