//! No format named above the backends (issue 23): per layer, the files that still name a
//! format or its engine, each with a count that may only go down.

use super::*;

/// The files of src/tui that still name a format or its engine (as [`cli_names`] counts: an
/// identifier with `claude` in it, the `.memory` engine's types and `crate::store::` paths),
/// and how many such names each holds (issue 23: no format branch above the backends). The workbench
/// reaches each format through `formats::Open` and `formats::Backend`, and the list is empty:
/// a file that names one fails. It stays a list, as the other layers' are, so the guard's
/// report is one shape everywhere.
const TUI_FORMAT_NAMES: [(&str, usize); 0] = [];

/// The identifiers of a file's code, line by line (comments, strings and the test module left
/// out).
fn code_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for (_, line) in code_lines(text) {
        let code = without_strings(&line);
        words.extend(
            code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|word| !word.is_empty())
                .map(str::to_owned),
        );
    }
    words
}

/// `line` with its string literals' contents left out.
pub(super) fn without_strings(line: &str) -> String {
    let mut code = String::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in line.chars() {
        match c {
            '"' if !escaped => in_string = !in_string,
            _ if !in_string => code.push(c),
            _ => {}
        }
        escaped = c == '\\' && !escaped;
    }
    code
}

/// What a shrink-only list of files says: what they hold (`"names a format"`) and what to do
/// instead (`"reach it through the backend"`).
pub(super) struct Wording<'a> {
    pub(super) holds: &'a str,
    pub(super) instead: &'a str,
}

const NAMES: Wording = Wording {
    holds: "names a format",
    instead: "reach it through the backend",
};

/// What breaks a list of the files under `layers` that may still name a format, each with
/// how many names it holds (`count` finds them): a file over its count or off the list, a
/// count that went down and was not lowered, a file that is gone. `list` is the list's name.
fn known_names_broken(
    layers: &[&str],
    known: &[(&str, usize)],
    list: &str,
    count: fn(&str) -> usize,
) -> Vec<String> {
    known_broken(
        &|file| layers.iter().any(|l| file.starts_with(l)),
        known,
        list,
        count,
        &NAMES,
    )
}

/// [`known_names_broken`] over the files `in_scope` takes, said in `wording`.
pub(super) fn known_broken(
    in_scope: &dyn Fn(&str) -> bool,
    known: &[(&str, usize)],
    list: &str,
    count: fn(&str) -> usize,
    wording: &Wording,
) -> Vec<String> {
    let Wording { holds, instead } = wording;
    let mut report = Vec::new();
    let mut seen = BTreeSet::new();
    for source in sources() {
        if !in_scope(&source.file) {
            continue;
        }
        let count = count(&source.text);
        let allowed = known
            .iter()
            .find(|(file, _)| *file == source.file)
            .map(|(_, n)| *n);
        if allowed.is_some() {
            seen.insert(source.file.clone());
        }
        match allowed {
            None if count > 0 => {
                report.push(format!("{} {holds} {count} times: {instead}", source.file))
            }
            Some(n) if count > n => report.push(format!(
                "{} {holds} {count} times, {n} allowed: {instead}",
                source.file
            )),
            Some(n) if count < n => report.push(format!(
                "{} {holds} {count} times now: lower its count in {list} from {n}",
                source.file
            )),
            _ => {}
        }
    }
    for (file, _) in known {
        if !seen.contains(*file) {
            report.push(format!("{file} is gone: remove it from {list}"));
        }
    }
    report
}

#[test]
fn the_workbench_names_no_format_outside_its_known_list() {
    let report = known_names_broken(
        &["src/tui/"],
        &TUI_FORMAT_NAMES,
        "TUI_FORMAT_NAMES",
        cli_names,
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn format_names_skip_comments_strings_and_other_words() {
    let text = "// ClaudeFolder in a comment\n\
                let a = \"Claude Code\"; let b = ClaudeFolder::open(x);\n\
                fn claude_act() {} // Claude\n\
                let c = \"a \\\" claude\"; let d = app.claude;\n\
                #[cfg(test)]\nmod tests { use ClaudeJob; }\n";
    assert_eq!(cli_names(text), 3);
}

/// The files of the format-neutral layers (`folder`, `content`, `eval`, `session`) that still
/// name a format or its engine, and how many names each holds (issue 23: no format branch
/// above the backends; each reaches a folder through `formats::Backend`). A file may only go
/// down, and one that reaches none must leave the list, so it only shrinks.
const NEUTRAL_FORMAT_NAMES: [(&str, usize); 0] = [];

/// The layers that must reach every format through the backends.
const NEUTRAL_LAYERS: [&str; 4] = ["src/folder/", "src/content/", "src/eval/", "src/session/"];

/// Names of a format or its engine in a file's code: any identifier with `claude` in it, the
/// `.memory` engine's types (`Store`, `StoredRecord`, `Inspection`, `MemoryBackend`,
/// `MEMORY_DIR`), and `Format::Memory`, `Open::Memory`, `formats::memory`.
fn engine_names(text: &str) -> usize {
    const ENGINE: [&str; 5] = [
        "Store",
        "StoredRecord",
        "Inspection",
        "MemoryBackend",
        "MEMORY_DIR",
    ];
    let words = code_words(text);
    let mut previous = "";
    let mut count = 0;
    for word in &words {
        let memory_variant = (word == "Memory" && matches!(previous, "Format" | "Open"))
            || (word == "memory" && previous == "formats");
        if word.to_lowercase().contains("claude")
            || ENGINE.contains(&word.as_str())
            || memory_variant
        {
            count += 1;
        }
        previous = word;
    }
    count
}

#[test]
fn the_neutral_layers_name_no_format_outside_their_known_list() {
    let report = known_names_broken(
        &NEUTRAL_LAYERS,
        &NEUTRAL_FORMAT_NAMES,
        "NEUTRAL_FORMAT_NAMES",
        engine_names,
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn engine_names_count_formats_and_engines_only() {
    let text = "// Store in a comment\n\
                use crate::store::{Store, Record};\n\
                let f = Format::Memory; let g = Format::Claude; let m = memory::Memory::new();\n\
                let s = \"Store\"; let o = formats::memory::x(); let r: StoredRecord;\n\
                #[cfg(test)]\nmod tests { use Store; }\n";
    assert_eq!(engine_names(text), 5);
}

/// The files of src/cli that still name a format or its engine, and how many names each
/// holds (issue 23: one CLI dispatch, every command over `formats::Backend`, every agent
/// program over `agents::Agent`). None does: a file that comes to name one fails here, and
/// the list stays empty.
const CLI_FORMAT_NAMES: [(&str, usize); 0] = [];

/// [`engine_names`] (which counts `crate::claude::` paths too), and `crate::store::` paths.
fn cli_names(text: &str) -> usize {
    let words = code_words(text);
    let paths = words
        .windows(2)
        .filter(|pair| pair[0] == "crate" && pair[1] == "store")
        .count();
    engine_names(text) + paths
}

#[test]
fn the_command_line_names_no_format_outside_its_known_list() {
    let report = known_names_broken(
        &["src/cli/"],
        &CLI_FORMAT_NAMES,
        "CLI_FORMAT_NAMES",
        cli_names,
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// The files of src/review that still name a format or its engine (`claude`, the `.memory`
/// store), and how many names each holds: review/ holds only format-neutral code (issue 23),
/// what is per format living behind `formats::Backend` (the `.memory` staleness check and
/// filing in `formats::memory::journal`, the record plan in `session`). None does: a file
/// that comes to name one fails here, and the list stays empty.
const REVIEW_FORMAT_NAMES: [(&str, usize); 0] = [];

#[test]
fn review_names_no_format_outside_its_known_list() {
    let report = known_names_broken(
        &["src/review/"],
        &REVIEW_FORMAT_NAMES,
        "REVIEW_FORMAT_NAMES",
        cli_names,
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}
