//! A new format is one backend plus one registration (issue 23): outside a backend's folder
//! (`src/formats/<name>/`), its engine (`src/store/`, `src/claude/`) and the registration
//! (`src/formats/registry.rs`), no file enumerates the formats; and docs/architecture.md's
//! walk through adding a backend is what the code is (the `Backend` listing, the traits a
//! backend implements, the files it names).

use super::format_names::{Wording, known_broken, without_strings};
use super::*;

/// The registration: the one file above the backends that lists them.
const REGISTRATION: &str = "src/formats/registry.rs";

/// Where a format's own code lives: its backend (any folder under src/formats/) and its engine.
const FORMAT_HOMES: [&str; 2] = ["src/store/", "src/claude/"];

/// The files that still enumerate the formats outside the registration (as [`enumerations`]
/// counts), and how many each holds: none. A new row may not be added; ask the backend
/// (a method of `formats::Backend`, or a trait the backends implement) instead.
const FORMAT_ENUMERATIONS: [(&str, usize); 0] = [];

/// The types whose `Memory` variant is the `.memory` format: the format and the open folder
/// (enums over the formats before the registration), the workbench's reading, the watchers'
/// baseline, and `Self` inside them.
const FORMAT_ENUMS: [&str; 6] = ["Format", "Open", "Detected", "Shown", "Seen", "Self"];

/// A format enumerated in a file's code (comments, strings and the test module left out): a
/// variant named for a format (`Format::Memory`, `Self::Claude`, `Shown::Memory`), a path into
/// a backend's module (`formats::claude`, `super::memory`), or a backend's type
/// (`MemoryBackend`, `ClaudeBackend`).
fn enumerations(text: &str) -> usize {
    let path =
        regex::Regex::new(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*::\s*(Memory|Claude|memory|claude)\b")
            .expect("the pattern");
    let backend = regex::Regex::new(r"\b(MemoryBackend|ClaudeBackend)\b").expect("the pattern");
    let mut count = 0;
    for (_, line) in code_lines(text) {
        let code = without_strings(&line);
        for found in path.captures_iter(&code) {
            let (head, format) = (&found[1], &found[2]);
            // `Claude` is only ever a format; `Memory` is one where the type is one over the
            // formats (the workbench's `Selected::Memory` is a memory row).
            let variant = (format == "Claude" && head.starts_with(char::is_uppercase))
                || (format == "Memory" && FORMAT_ENUMS.contains(&head));
            let module =
                matches!(head, "formats" | "super") && format.starts_with(char::is_lowercase);
            if variant || module {
                count += 1;
            }
        }
        count += backend.find_iter(&code).count();
    }
    count
}

/// Whether `file` is a format's own: its backend's folder or its engine, or the registration.
fn is_a_formats_own(file: &str) -> bool {
    let in_backend = file
        .strip_prefix("src/formats/")
        .is_some_and(|rest| rest.contains('/'));
    in_backend || file == REGISTRATION || FORMAT_HOMES.iter().any(|home| file.starts_with(home))
}

#[test]
fn no_file_enumerates_the_formats_outside_the_registration() {
    let wording = Wording {
        holds: "enumerates the formats",
        instead: &format!(
            "ask the backend (formats::Backend, formats::Open), or register the format in \
             {REGISTRATION}"
        ),
    };
    let report = known_broken(
        &|file| !is_a_formats_own(file),
        &FORMAT_ENUMERATIONS,
        "FORMAT_ENUMERATIONS",
        enumerations,
        &wording,
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn enumerations_count_variants_backend_paths_and_types_only() {
    let text = "// Format::Memory in a comment\n\
                let a = Format::Memory; let b = Self::Claude(x); let c = \"Open::Claude\";\n\
                use super::memory::REGISTERED; let d = crate::formats::claude::FORMAT;\n\
                let e = memory::Memory::new(); let f = crate::claude::ClaudeFolder::open(p);\n\
                let g = MemoryBackend::new(s); let h = crate::store::memory_dir;\n\
                let i = Selected::Memory; let j = Cause::Claude(e);\n\
                #[cfg(test)]\nmod tests { use Open::Memory; }\n";
    assert_eq!(enumerations(text), 6);
}

#[test]
fn a_formats_own_files_are_its_folder_its_engine_and_the_registration() {
    assert!(is_a_formats_own("src/formats/claude/open.rs"));
    assert!(is_a_formats_own("src/formats/memory/journal/undo.rs"));
    assert!(is_a_formats_own("src/store/mod.rs"));
    assert!(is_a_formats_own(REGISTRATION));
    assert!(!is_a_formats_own("src/formats/open.rs"));
    assert!(!is_a_formats_own("src/tui/app.rs"));
}

/// The text of `file` in the repository (empty when it does not read, which the checks then
/// report as what it lacks).
fn repo_text(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap_or_default()
}

/// docs/architecture.md, whose "Adding a backend" walks a new backend through the code.
fn architecture_doc() -> String {
    let doc = repo_text("docs/architecture.md");
    assert!(!doc.is_empty(), "docs/architecture.md does not read");
    doc
}

/// The text under the heading `heading` (its whole line), up to the next heading of its level
/// or above.
fn section<'a>(doc: &'a str, heading: &str) -> &'a str {
    let start = doc
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/architecture.md has no heading {heading:?}"));
    let body = &doc[start + heading.len() + 2..];
    let level = heading.chars().take_while(|&c| c == '#').count();
    let next = body.lines().find(|line| {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        (1..=level).contains(&hashes) && line[hashes..].starts_with(' ')
    });
    match next {
        Some(line) => {
            &body[..body
                .find(&format!("\n{line}\n"))
                .map_or(body.len(), |at| at + 1)]
        }
        None => body,
    }
}

/// The methods `pub trait Backend { ... }` in `text` declares, each signature on one line
/// with its spacing made plain, in order: the trait's definition (src/formats/mod.rs) and its
/// listing in the docs read alike. Comments and attributes are left out; a default method's
/// body is skipped.
fn backend_signatures(text: &str) -> Vec<String> {
    const OPENING: &str = "pub trait Backend {";
    let start = text.find(OPENING).expect("a `pub trait Backend {`");
    let mut signatures = Vec::new();
    let mut signature = String::new();
    let mut body_depth = 0usize;
    for line in text[start + OPENING.len()..].lines() {
        let trimmed = line.trim();
        if body_depth == 0 && line.starts_with('}') {
            break;
        }
        if trimmed.is_empty() || trimmed.starts_with("//") || trimmed.starts_with("#[") {
            continue;
        }
        for c in trimmed.chars() {
            if body_depth > 0 {
                match c {
                    '{' => body_depth += 1,
                    '}' => body_depth -= 1,
                    _ => {}
                }
                continue;
            }
            match c {
                ';' | '{' => {
                    signatures.push(plain(&signature));
                    signature.clear();
                    body_depth = usize::from(c == '{');
                }
                _ => signature.push(c),
            }
        }
        if !signature.is_empty() {
            signature.push(' ');
        }
    }
    signatures
}

/// A signature with one space between words and none inside its parentheses' ends or before
/// a trailing comma's close, as rustfmt's multi-line form and the docs' one line differ.
fn plain(signature: &str) -> String {
    let words: Vec<&str> = signature.split_whitespace().collect();
    words
        .join(" ")
        .replace("( ", "(")
        .replace(", )", ")")
        .replace(" )", ")")
}

/// The backends' folders: each directory under src/formats/.
fn backend_folders() -> Vec<String> {
    let formats = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/formats");
    let mut folders: Vec<String> = std::fs::read_dir(&formats)
        .expect("read src/formats")
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    folders
}

/// The code of every file under `src/formats/<folder>/`.
fn backend_code(folder: &str) -> String {
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("src/formats/{folder}")),
        &mut files,
    );
    files
        .iter()
        .filter_map(|file| std::fs::read_to_string(file).ok())
        .collect::<Vec<_>>()
        .join("\n")
}

/// What `text` holds in backticks, in order.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn the_docs_list_the_backend_trait_as_it_is_defined() {
    let code = backend_signatures(&repo_text("src/formats/mod.rs"));
    let doc = architecture_doc();
    let listing = section(&doc, "## Backends (`src/formats/`)");
    let listed = backend_signatures(listing);
    assert!(
        code.len() > 10,
        "the trait's methods were not found: {code:#?}"
    );
    let unlisted: Vec<&String> = code.iter().filter(|s| !listed.contains(s)).collect();
    let stale: Vec<&String> = listed.iter().filter(|s| !code.contains(s)).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "docs/architecture.md's listing of formats::Backend (\"Backends\") differs from its \
         definition in src/formats/mod.rs:\n  not listed as defined: {unlisted:#?}\n  listed, \
         not defined so: {stale:#?}"
    );
    assert_eq!(
        listed, code,
        "the listing has the trait's methods in another order"
    );
}

#[test]
fn adding_a_backend_names_traits_every_backend_implements_and_files_that_exist() {
    let doc = architecture_doc();
    let walk_through = section(&doc, "### Adding a backend");
    let folders = backend_folders();
    assert!(
        folders.len() >= 2,
        "no backends under src/formats/: {folders:?}"
    );
    let mut wrong = Vec::new();
    let rows: Vec<&str> = walk_through
        .lines()
        .filter(|line| line.starts_with("| `"))
        .collect();
    assert!(
        rows.len() >= 5,
        "the section's table of traits is gone: {rows:#?}"
    );
    for row in rows {
        let cell = row.split('|').nth(1).unwrap_or_default();
        let [path, file] = backticked(cell)[..] else {
            wrong.push(format!("{row}: the first cell is not `trait` (`file`)"));
            continue;
        };
        let name = path.rsplit("::").next().unwrap_or(path);
        let defined = regex::Regex::new(&format!(r"\btrait\s+{name}\b")).expect("the pattern");
        if !defined.is_match(&repo_text(file)) {
            wrong.push(format!("{file} defines no trait {name}"));
        }
        let implemented = regex::Regex::new(&format!(
            r"\bimpl(<[^>]*>)?\s+([A-Za-z_]+::)*{name}(<[^>]*>)?\s+for\b"
        ))
        .expect("the pattern");
        for folder in &folders {
            if !implemented.is_match(&backend_code(folder)) {
                wrong.push(format!("src/formats/{folder}/ implements no {name}"));
            }
        }
    }
    for named in backticked(walk_through) {
        if !(named.starts_with("src/") || named.starts_with("tests/")) || named.contains(' ') {
            continue;
        }
        for folder in &folders {
            let path = named.replace("<name>", folder);
            if !Path::new(env!("CARGO_MANIFEST_DIR")).join(&path).exists() {
                wrong.push(format!("{named}: {path} does not exist"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/architecture.md, \"Adding a backend\", is not what the code is:\n{}",
        wrong.join("\n")
    );
}

/// The files of the trait layer (the files directly in src/formats/, the registration aside)
/// that still name a format's engine (`crate::store::`, `crate::claude::`) or a backend's
/// module (`super::memory`, `super::claude`), and how many times each: none. What the layer
/// every format is reached through needs of a format comes from the backend (a method, a value
/// behind a trait), the registration or a leaf (docs/architecture.md, "Adding a backend"); a
/// row may not be added.
const TRAIT_LAYER_ENGINE_PATHS: [(&str, usize); 0] = [];

/// Paths into a format's engine or a backend's module in a file's code (comments, strings and
/// the test module left out).
fn engine_paths(text: &str) -> usize {
    let path = regex::Regex::new(r"\b(crate\s*::\s*(store|claude)|super\s*::\s*(memory|claude))\b")
        .expect("the pattern");
    code_lines(text)
        .iter()
        .map(|(_, line)| path.find_iter(&without_strings(line)).count())
        .sum()
}

#[test]
fn the_trait_layer_names_no_engine_outside_its_known_list() {
    let wording = Wording {
        holds: "names a format's engine",
        instead: "take it from the backend (a method or an associated type), or move it to a leaf",
    };
    let report = known_broken(
        &|file| {
            file != REGISTRATION
                && file
                    .strip_prefix("src/formats/")
                    .is_some_and(|rest| !rest.contains('/'))
        },
        &TRAIT_LAYER_ENGINE_PATHS,
        "TRAIT_LAYER_ENGINE_PATHS",
        engine_paths,
        &wording,
    );
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn engine_paths_count_code_only() {
    let text = "// crate::store::Store in a comment\n\
                use crate::store::Store; use crate::memory::Memory;\n\
                let s = \"crate::claude::x\"; let f = super::claude::view(); let g = super::memory::x;\n\
                #[cfg(test)]\nmod tests { use crate::claude::ClaudeFolder; }\n";
    assert_eq!(engine_paths(text), 3);
}

#[test]
fn backend_signatures_read_a_definition_and_a_listing_alike() {
    let definition = "pub trait Backend {\n    /// Docs { with braces; and a semicolon.\n    \
                      fn read(&self) -> Result<Reading, ReadError>;\n\n    fn accept(\n        \
                      &self,\n        name: &str,\n    ) -> Result<String, FormatError>;\n    \
                      #[cfg(feature = \"watch\")]\n    fn lacks(&self) -> Option<&str> {\n        \
                      if x { None } else { None }\n    }\n    fn last(&self);\n}\nfn outside();\n";
    let listing = "pub trait Backend {\n    // Read\n    fn read(&self) -> Result<Reading, ReadError>;\n    \
                   fn accept(&self, name: &str) -> Result<String, FormatError>;\n    \
                   fn lacks(&self) -> Option<&str>;\n    fn last(&self);\n}\n";
    let expected = [
        "fn read(&self) -> Result<Reading, ReadError>",
        "fn accept(&self, name: &str) -> Result<String, FormatError>",
        "fn lacks(&self) -> Option<&str>",
        "fn last(&self)",
    ];
    assert_eq!(backend_signatures(definition), expected);
    assert_eq!(backend_signatures(listing), expected);
}
