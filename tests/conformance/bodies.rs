//! A memory's body is one value on both formats: what `add --body` and `set --body` take is
//! what `ls --json`, `show --json` and `select`'s rendered block give back (docs/cli.md,
//! "ls"), whatever the file holds around it (Claude Code's blank line after the frontmatter,
//! the file's last newline). `json_shapes.rs` holds the shapes; this holds the values.

use serde_json::Value;

use crate::common::formats::{BOTH, Folder};

/// Bodies as a person types them: one line; paragraphs with an indented line and a
/// trailing space kept; line breaks around the text, which no format keeps.
const BODIES: [(&str, &str); 3] = [
    ("alpha", "Deploys go through the staging cluster."),
    (
        "beta",
        "The release checklist lives in docs.\n\n    cargo release --dry-run \nThen tag it.",
    ),
    ("gamma", "\n\nRollbacks need the on-call lead.\n\n"),
];

/// The body `set --body` gives beta.
const NEW_BODY: &str = "Releases are cut on Tuesdays.\n\nNever on a Friday.";

/// A memory's row as both formats print it: every key but the file that holds it (named by
/// each format's own rule) and a topic file's other frontmatter fields.
fn comparable(row: &Value) -> Value {
    let mut row = row.clone();
    if let Some(object) = row.as_object_mut() {
        object.remove("file");
        object.remove("extra");
    }
    row
}

/// What each command prints on a folder of `folder`'s format holding [`BODIES`], beta's body
/// then set to [`NEW_BODY`].
fn printed(folder: &Folder) -> Vec<(String, Value)> {
    let json = |args: &[&str]| -> Value {
        let out = folder.ok(args);
        serde_json::from_str(&out)
            .unwrap_or_else(|e| panic!("{:?} {args:?} prints JSON: {e}: {out}", folder.format))
    };
    for (name, body) in BODIES {
        folder.ok(&super::add(name, body));
    }
    let mut out = vec![("ls".to_owned(), json(&["ls", "--json"]))];
    for (name, _) in BODIES {
        out.push((format!("show {name}"), json(&["show", name, "--json"])));
    }
    folder.ok(&["set", "beta", "--body", NEW_BODY]);
    out.push((
        "show beta after set".into(),
        json(&["show", "beta", "--json"]),
    ));
    // The keyword fallback matches names: all three are selected.
    let selected = json(&["select", "alpha beta gamma", "--json"]);
    out.push(("select".into(), selected));
    out
}

/// The same adds and the same `set --body` read back as the same values on both formats: the
/// bodies as they were given (outer line breaks aside), and `select` renders them alike.
#[test]
fn a_body_reads_back_as_it_was_given_on_both_formats() {
    let [memory, claude] = BOTH.map(|format| printed(&Folder::new(format)));
    for ((command, memory_json), (_, claude_json)) in memory.iter().zip(&claude) {
        let (memory_json, claude_json) = match (memory_json, claude_json) {
            (Value::Array(m), Value::Array(c)) => (
                Value::Array(m.iter().map(comparable).collect()),
                Value::Array(c.iter().map(comparable).collect()),
            ),
            (m, c) if command == "select" => (m.clone(), c.clone()),
            (m, c) => (comparable(m), comparable(c)),
        };
        assert_eq!(
            memory_json, claude_json,
            "`{command}` prints two values:\n.memory:     {memory_json}\nClaude Code: {claude_json}"
        );
    }
    // And those values are the bodies as given, not merely the same on both.
    let rows = &memory[0].1;
    for ((name, body), row) in BODIES.iter().zip(rows.as_array().expect("ls prints rows")) {
        assert_eq!(row["name"], *name);
        assert_eq!(row["body"], body.trim_matches('\n'), "{name}");
    }
    assert_eq!(memory[4].1["body"], NEW_BODY);
    let rendered = memory[5].1["rendered"].as_str().expect("a rendered block");
    for body in [BODIES[0].1, NEW_BODY, BODIES[2].1.trim_matches('\n')] {
        assert!(
            rendered.contains(&format!("what it is about\n\n{body}\n\n")),
            "{body:?} is not rendered between blank lines: {rendered}"
        );
    }
}

/// A memory's file as a person edited it by hand: a comment and a folded description in its
/// frontmatter, blank lines after it, CRLF line ends in the body. Both formats read it: the
/// description is "what changed today" (its key on line 4), the body starts on line 11, the
/// credential is on line 12 and "yesterday" on line 14.
const HAND_EDITED: &str = "---\nname: alpha\n# edited by hand\ndescription: >-\n  what changed\n  today\ntype: project\n---\n\r\n\r\nDeploy notes.\r\nThe token is {TOKEN}.\r\n\r\nWe shipped it yesterday.\r\n";

/// A finding's line is the line of the memory's file as it is on disk, on both formats: the
/// body starts on the first line of text after the frontmatter, the description where its key
/// is. (A `.memory` record's lines were counted from the record as memwb would write it, so
/// a hand-edited one's findings pointed a few lines off.)
#[test]
fn a_finding_is_on_its_line_of_a_hand_edited_file_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&super::add("alpha", "Deploy notes."));
        let listed: Value = serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls");
        let file = listed[0]["file"].as_str().expect("alpha's file");
        let text = HAND_EDITED.replace("{TOKEN}", super::TOKEN);
        std::fs::write(folder.root().join(file), text).expect("edit the file by hand");
        let out = folder.run(&["check", "--json"]);
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{format:?}: check --json: {e}: {}", super::stderr(&out)));
        let mut lines: Vec<(String, u64)> = report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["file"].as_str().is_some_and(|f| f.ends_with(file)))
            .filter_map(|f| Some((f["code"].as_str()?.to_owned(), f["line"].as_u64()?)))
            .collect();
        lines.sort();
        assert_eq!(
            lines,
            [
                ("relative-date".to_owned(), 4),
                ("relative-date".to_owned(), 14),
                ("secret".to_owned(), 12),
            ],
            "{format:?}: {report:#}"
        );
    }
}
