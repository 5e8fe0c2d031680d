//! The library's surface: lib.rs's `pub mod`s are the modules its docs list, and the modules
//! public for the binary and the tests only (`cli`, `tui`) gain no `pub` item.

use super::*;

/// `pub` items (and fields) in the modules that are public for the binary and the tests only,
/// not as an API (lib.rs says so): the numbers may go down, never up. A new item there is
/// `pub(crate)`; lower the number when a sweep makes items `pub(crate)`.
const PUB_ITEMS_CEILING: [(&str, usize); 2] = [("cli", 57), ("tui", 494)];

/// The names lib.rs declares as `pub mod` and as `pub(crate) mod` or `mod`, each list in
/// file order (a `#[cfg]` line above a module does not matter here).
fn lib_modules() -> (Vec<String>, Vec<String>) {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("read src/lib.rs");
    let (mut public, mut private) = (Vec::new(), Vec::new());
    for line in lib.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix("pub mod ") {
            public.push(name.trim_end_matches(';').to_owned());
        } else if let Some(name) = line
            .strip_prefix("pub(crate) mod ")
            .or_else(|| line.strip_prefix("mod "))
        {
            private.push(name.trim_end_matches(';').to_owned());
        }
    }
    (public, private)
}

/// The modules lib.rs's docs list under "The library's surface": each `//! - ` line's names
/// in backticks (`[`store`]` or `` `watch` ``), up to the list's end.
fn documented_modules() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("read src/lib.rs");
    let mut documented = BTreeSet::new();
    let mut in_surface = false;
    for line in lib.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            break;
        };
        let doc = doc.trim();
        if doc.starts_with('#') {
            in_surface = doc == "# The library's surface";
            continue;
        }
        let Some(item) = doc.strip_prefix("- ").filter(|_| in_surface) else {
            continue;
        };
        // the names before the colon that ends the list item's subject
        let subject = item.split(": ").next().unwrap_or_default();
        for name in subject.split('`').skip(1).step_by(2) {
            let name = name.trim_matches(|c| c == '[' || c == ']');
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                documented.insert(name.to_owned());
            }
        }
    }
    documented
}

#[test]
fn the_public_modules_are_the_ones_the_library_documents() {
    let (public, private) = lib_modules();
    let documented = documented_modules();
    assert!(
        documented.contains("store") && documented.contains("formats"),
        "lib.rs's docs lost the \"# The library's surface\" list: {documented:?}"
    );
    let public: BTreeSet<String> = public.into_iter().collect();
    let undocumented: Vec<&String> = public.difference(&documented).collect();
    assert!(
        undocumented.is_empty(),
        "src/lib.rs makes {undocumented:?} public without listing them in its docs \
         (\"The library's surface\"): make them pub(crate), or document them there and in \
         docs/architecture.md"
    );
    let listed_only: Vec<&String> = documented.difference(&public).collect();
    assert!(
        listed_only.is_empty(),
        "lib.rs's docs list {listed_only:?} as the library's surface, but they are not `pub mod`"
    );
    assert!(
        private.iter().any(|m| m == "fs"),
        "fs is a crate-internal leaf: {private:?}"
    );
}

/// Lines declaring a `pub` item or field (not `pub(crate)`, `pub(super)`) outside comments and
/// each file's test module.
fn pub_lines(source: &Source) -> usize {
    code_lines(&source.text)
        .iter()
        .filter(|(_, line)| line.trim_start().starts_with("pub "))
        .count()
}

#[test]
fn the_modules_public_only_for_tests_gain_no_pub_item() {
    let sources = sources();
    for (module, ceiling) in PUB_ITEMS_CEILING {
        let count: usize = sources
            .iter()
            .filter(|s| s.module.first().is_some_and(|m| m == module))
            .map(pub_lines)
            .sum();
        assert!(
            count <= ceiling,
            "src/{module}/ has {count} `pub` items, more than the {ceiling} it had: it is \
             public for the binary and the tests only (src/lib.rs), so new items there are \
             pub(crate)"
        );
    }
}
