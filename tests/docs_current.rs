//! The documentation keeps up with the code: docs/testing.md names every test file, and the
//! README names every subcommand.

use std::path::Path;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect(path)
}

#[test]
fn testing_md_lists_every_test_file() {
    let testing = read("docs/testing.md");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&tests).expect("tests/") {
        let path = entry.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "rs") {
            files.push(format!("tests/{name}"));
        } else if path.is_dir() {
            for inner in std::fs::read_dir(&path).expect("dir").flatten() {
                let inner = inner.file_name().to_string_lossy().into_owned();
                if inner.ends_with(".rs") {
                    files.push(format!("tests/{name}/{inner}"));
                }
            }
        }
    }
    assert!(files.len() > 20, "{files:?}");
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !testing.contains(&format!("`{f}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/testing.md does not list {missing:?}"
    );
}

#[test]
fn the_readme_names_every_subcommand() {
    let readme = read("README.md");
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_memwb"))
        .arg("--help")
        .output()
        .expect("memwb --help");
    let help = String::from_utf8(help.stdout).expect("utf-8");
    let commands: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("a command list")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert!(commands.len() > 15, "{commands:?}");
    let missing: Vec<&&str> = commands
        .iter()
        .filter(|c| !readme.contains(&format!("`{c}")) && !readme.contains(&format!("memwb {c}")))
        .collect();
    assert!(missing.is_empty(), "README.md does not mention {missing:?}");
}
