//! Property tests over the parsers that read what an agent or Claude Code wrote: topic-file
//! frontmatter (YAML) and the hook's stdin (JSON). Random and hostile inputs never panic, each
//! parse ends well inside a generous deadline (measured, not slept), and what a parse returns
//! is bounded by the input's size (an alias bomb would return gigabytes from a few hundred bytes).

use std::time::{Duration, Instant};

use memwb::agents::claude_code::hook::HookInput;
use memwb::claude::frontmatter::{self, Frontmatter};
use memwb::store::codec;
use proptest::prelude::*;

/// Far above any real parse (microseconds), far below a runaway one (seconds to minutes).
const DEADLINE: Duration = Duration::from_secs(2);

/// YAML fragments an attacker or a confused agent writes: anchors, aliases, merge keys, tags,
/// deep nesting, flow collections, block scalars, document markers, quotes left open.
fn yaml_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z]{1,8}: [a-z0-9 ]{0,20}\n",
        1 => Just("a: &a [x, x, x, x, x, x, x, x, x]\n".to_owned()),
        1 => Just("b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n".to_owned()),
        1 => Just("c: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n".to_owned()),
        1 => Just("<<: *a\n".to_owned()),
        1 => Just("d: !!binary aGVsbG8=\n".to_owned()),
        1 => "[\\[{]{1,80}".prop_map(|s| format!("e: {s}\n")),
        1 => Just("f: |\n  block\n  text\n".to_owned()),
        1 => Just("metadata:\n  type: user\n  node_type: memory\n".to_owned()),
        1 => Just("---\n".to_owned()),
        1 => Just("...\n".to_owned()),
        1 => Just("g: \"open quote\n".to_owned()),
        1 => Just("? complex\n: key\n".to_owned()),
        1 => any::<String>().prop_map(|s| format!("{s}\n")),
    ]
}

fn frontmatter_text() -> impl Strategy<Value = String> {
    (prop::collection::vec(yaml_piece(), 0..40), any::<String>())
        .prop_map(|(pieces, body)| format!("---\n{}---\n{body}", pieces.concat()))
}

/// Serialized size of what the frontmatter parse produced.
fn output_size(parsed: &frontmatter::Parsed) -> usize {
    let fields = match &parsed.frontmatter {
        Frontmatter::Fields(fields) => serde_json::to_string(fields).map_or(0, |s| s.len()),
        Frontmatter::Invalid { message, .. } => message.len(),
        Frontmatter::Missing => 0,
    };
    fields + parsed.raw.len() + parsed.body.len()
}

fn check_frontmatter(text: &str) {
    let started = Instant::now();
    let parsed = frontmatter::parse(text);
    let elapsed = started.elapsed();
    assert!(elapsed < DEADLINE, "parse took {elapsed:?}");
    // Every value comes from the text, plus JSON quoting and an error message: never an
    // expansion.
    let bound = 8 * text.len() + 1024;
    assert!(
        output_size(&parsed) <= bound,
        "{} bytes out of {} in",
        output_size(&parsed),
        text.len()
    );
    let raw = &parsed.raw;
    // Unless a quote or a block scalar left open swallowed them as text.
    let quoted = raw.contains(['"', '\'', '|', '>']);
    if !quoted && (raw.contains("*a,") || raw.contains(": &a [") || raw.contains(": &b [")) {
        assert!(
            !matches!(parsed.frontmatter, Frontmatter::Fields(_)),
            "anchors or aliases parsed as fields"
        );
    }
    let started = Instant::now();
    let _ = codec::parse(text.as_bytes());
    assert!(started.elapsed() < DEADLINE);
}

/// JSON a hook may be handed: Claude Code's shapes with hostile values, deep nesting, huge
/// numbers, wrong types, or anything at all.
fn hook_json() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        Just("null".to_owned()),
        Just("1e999999".to_owned()),
        Just("123456789012345678901234567890".to_owned()),
        Just("[]".to_owned()),
        Just("{}".to_owned()),
        any::<String>().prop_map(|s| serde_json::Value::String(s).to_string()),
        (1usize..200).prop_map(|n| format!("{}{}", "[".repeat(n), "]".repeat(n))),
        (1usize..200).prop_map(|n| "[".repeat(n)),
    ];
    let tool = prop::sample::select(vec!["Write", "Edit", "MultiEdit", "Bash", "Read", ""]);
    let event = prop::sample::select(vec!["PreToolUse", "PostToolUse", "SessionStart", "x"]);
    prop_oneof![
        3 => (event, tool, value.clone(), value.clone(), value).prop_map(|(e, t, a, b, c)| {
            format!(
                r#"{{"hook_event_name":"{e}","tool_name":"{t}","cwd":{a},"tool_input":{{"file_path":{b},"content":{c},"old_string":{b},"new_string":{c},"edits":[{{"old_string":{b},"new_string":{c}}}],"command":{c}}}}}"#
            )
        }),
        1 => any::<String>(),
        1 => prop::collection::vec(any::<u8>(), 0..200)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn hostile_frontmatter_never_panics_nor_runs_away(text in frontmatter_text()) {
        check_frontmatter(&text);
    }

    #[test]
    fn random_text_as_frontmatter_never_panics(text in any::<String>()) {
        check_frontmatter(&format!("---\n{text}\n---\n"));
        check_frontmatter(&text);
    }

    #[test]
    fn hostile_hook_input_never_panics_nor_runs_away(json in hook_json()) {
        let started = Instant::now();
        if let Ok(input) = HookInput::parse(json.as_bytes()) {
            let _ = input.event();
            let _ = input.call();
            let _ = input.agent();
        }
        let elapsed = started.elapsed();
        prop_assert!(elapsed < DEADLINE, "hook input parse took {elapsed:?}");
    }
}

#[test]
fn the_classic_alias_bomb_is_refused_quickly_and_small() {
    let mut text = String::from(
        "---\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for (name, prev) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        let refs = vec![format!("*{prev}"); 9].join(",");
        text.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    text.push_str("---\nbody\n");
    check_frontmatter(&text);
    assert!(matches!(
        frontmatter::parse(&text).frontmatter,
        Frontmatter::Invalid { .. }
    ));
}
