//! A new format is one backend plus one registration (issue 23): outside a backend's folder
//! (`src/formats/<name>/`), its engine (`src/store/`, `src/claude/`) and the registration
//! (`src/formats/registry.rs`), no file enumerates the formats.

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
