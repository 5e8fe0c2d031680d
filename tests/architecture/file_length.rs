//! No source file over 600 lines (the brief's standard), in src/, tests/ and benches/ alike.

use std::path::Path;

/// The most lines a `.rs` file may hold.
const MAX_LINES: usize = 600;

/// The files longer than [`MAX_LINES`] when this guard came, each with the most lines it may
/// hold. A file may not grow past its number; one that gets to [`MAX_LINES`] or under must leave
/// this list (the test says so), so the list only shrinks. A long test file splits by topic into
/// modules of its own directory (`tests/name.rs` declaring `mod topic;` in `tests/name/topic.rs`).
const LONG_FILES: [(&str, usize); 0] = [];

/// Every `.rs` file under src/, tests/ and benches/ with its number of lines, by its path from
/// the crate's root.
fn line_counts() -> Vec<(String, usize)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        super::walk(&root.join(dir), &mut files);
    }
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("read a source file");
            let relative = path.strip_prefix(root).expect("under the crate's root");
            (
                relative.to_string_lossy().into_owned(),
                text.lines().count(),
            )
        })
        .collect()
}

/// What breaks the standard: a file over [`MAX_LINES`] and off `known`, a listed file over its
/// number, one that got short enough to leave the list, one that is gone.
fn long_files_broken(counts: &[(String, usize)], known: &[(&str, usize)]) -> Vec<String> {
    let mut report = Vec::new();
    for (file, lines) in counts {
        let allowed = known.iter().find(|(k, _)| k == file).map(|(_, n)| *n);
        match allowed {
            None if *lines > MAX_LINES => report.push(format!(
                "{file} has {lines} lines, over {MAX_LINES}: split it by topic into modules"
            )),
            Some(n) if *lines > n => report.push(format!(
                "{file} has {lines} lines, {n} allowed in LONG_FILES: split it by topic into \
                 modules rather than grow it"
            )),
            Some(_) if *lines <= MAX_LINES => report.push(format!(
                "{file} has {lines} lines now: remove it from LONG_FILES"
            )),
            _ => {}
        }
    }
    for (file, _) in known {
        if !counts.iter().any(|(f, _)| f == file) {
            report.push(format!("{file} is gone: remove it from LONG_FILES"));
        }
    }
    report
}

#[test]
fn no_file_is_longer_than_600_lines_outside_its_known_list() {
    let report = long_files_broken(&line_counts(), &LONG_FILES);
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn the_length_guard_reports_new_grown_short_and_gone_files() {
    let counts = [
        ("src/new.rs".to_owned(), 601),
        ("src/fine.rs".to_owned(), 600),
        ("tests/grown.rs".to_owned(), 700),
        ("tests/kept.rs".to_owned(), 650),
        ("tests/short.rs".to_owned(), 600),
    ];
    let known = [
        ("tests/grown.rs", 690),
        ("tests/kept.rs", 680),
        ("tests/short.rs", 640),
        ("tests/gone.rs", 610),
    ];
    let report = long_files_broken(&counts, &known);
    assert_eq!(report.len(), 4, "{report:#?}");
    for (expected, line) in [
        ("src/new.rs has 601 lines", &report[0]),
        ("tests/grown.rs has 700 lines, 690 allowed", &report[1]),
        ("tests/short.rs has 600 lines now: remove it", &report[2]),
        ("tests/gone.rs is gone", &report[3]),
    ] {
        assert!(line.starts_with(expected), "{line}");
    }
}
