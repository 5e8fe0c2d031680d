//! The engine's integration tests: the library alone, with no command line or workbench
//! (they also build and run under `cargo test --no-default-features`).
//!
//! The integration tests are three binaries, not one per file, so the crate and its
//! dependencies are linked three times instead of seventy (ripgrep's `tests/tests.rs`
//! pattern; `autotests = false` in Cargo.toml):
//! - `engine` (this file): tests of the library alone;
//! - `commands` (tests/commands.rs): tests that run the `memwb` binary (the `cli` feature);
//! - `workbench` (tests/workbench.rs): tests of the workbench (the `tui` feature).
//!
//! Each tests/*.rs file stays where it is and is one module of one binary: a new file is
//! compiled only once its binary's module list declares it, and
//! `every_test_file_is_declared_in_one_binary` below fails until it is. docs/testing.md says
//! which binary a test belongs in.

mod common;

mod architecture;
mod audit_secrets;
mod bash_gate_props;
mod claude_edit;
mod claude_write;
mod codec_props;
mod codec_vectors;
mod eval;
mod lock_interop;
mod parser_props;
mod secrets_corpus;
mod session_lifecycle;
mod session_selection;
mod store_basic;
mod store_faults;
mod store_reference_suite;
// The HTTP model client (the `http` feature, part of `cli`).
#[cfg(feature = "http")]
mod session_clients;

/// The three binaries' root files.
const ROOTS: [&str; 3] = ["engine.rs", "commands.rs", "workbench.rs"];

/// The modules a root file declares (`mod name;` lines, whatever attributes precede them).
fn declared(root: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(root);
    let text = std::fs::read_to_string(&path).expect("read a test binary's root");
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_test_file_is_declared_in_one_binary() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files: Vec<String> = std::fs::read_dir(&tests)
        .expect("read tests/")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter_map(|name| name.strip_suffix(".rs").map(str::to_owned))
        .filter(|name| !ROOTS.contains(&format!("{name}.rs").as_str()))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no test files found in {}",
        tests.display()
    );
    let mut problems = Vec::new();
    for file in &files {
        let owners: Vec<&str> = ROOTS
            .iter()
            .copied()
            .filter(|root| declared(root).contains(file))
            .collect();
        match owners.len() {
            1 => {}
            0 => problems.push(format!(
                "tests/{file}.rs is compiled by no test binary: add `mod {file};` to \
                 tests/engine.rs (library only), tests/commands.rs (runs the memwb binary) \
                 or tests/workbench.rs (the workbench); see docs/testing.md"
            )),
            _ => problems.push(format!(
                "tests/{file}.rs is declared in more than one binary: {owners:?}"
            )),
        }
    }
    for root in ROOTS {
        for module in declared(root) {
            let is_file = tests.join(format!("{module}.rs")).is_file()
                || tests.join(&module).join("mod.rs").is_file();
            if !is_file {
                problems.push(format!(
                    "tests/{root} declares `mod {module};` with no file"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
