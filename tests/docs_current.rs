//! The documentation keeps up with the code: docs/testing.md names every test file, the README
//! names every subcommand, every `memwb …` command the docs show parses, no doc keeps a claim
//! from before a capability shipped, the CI recipe in docs/audit.md fails when it should, and
//! the README's screen is the one `memwb demo` draws, and docs/architecture.md shows the
//! `formats::Backend` trait as the code declares it.

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

/// Code spans that quote memwb's messages, not commands.
const PROSE: &[&str] = &["memwb queued this memory change"];

/// The `memwb …` commands the docs show: inline code spans and lines of code blocks, cut at a
/// pipe, redirection or comment, with placeholders left out (`[ENTRY]`, `A|B`, `...`).
/// Each `fn` of the trait, joined onto one line with its whitespace squeezed.
fn trait_methods(text: &str, start: &str) -> Vec<String> {
    let body = &text[text.find(start).expect(start)..];
    let body = &body[..body.find("\n}").expect("the trait's end")];
    let mut methods = Vec::new();
    let mut current: Option<String> = None;
    for line in body.lines().map(str::trim) {
        if line.starts_with("fn ") {
            current = Some(String::new());
        }
        if let Some(method) = current.as_mut() {
            if !method.is_empty() && !method.ends_with('(') {
                method.push(' ');
            }
            // A method with a default body counts by its signature.
            let line = line
                .strip_suffix(" {")
                .map_or(line.to_owned(), |l| format!("{l};"));
            method.push_str(&line);
            if line.ends_with(';') {
                let squeezed = method
                    .replace("( ", "(")
                    .replace(", )", ")")
                    .replace(",)", ")");
                methods.push(squeezed);
                current = None;
            }
        }
    }
    methods
}

#[test]
fn architecture_md_shows_the_backend_trait_as_the_code_has_it() {
    let code = trait_methods(&read("src/formats/mod.rs"), "pub trait Backend {");
    let docs = trait_methods(&read("docs/architecture.md"), "pub trait Backend {");
    assert!(code.len() >= 10, "{code:?}");
    assert_eq!(
        docs, code,
        "docs/architecture.md's `Backend` (left) differs from src/formats/mod.rs (right)"
    );
}

fn commands_in(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        let candidates: Vec<&str> = if in_block {
            vec![line.trim_start().trim_start_matches("$ ")]
        } else {
            line.split('`').skip(1).step_by(2).collect()
        };
        for candidate in candidates {
            let Some(rest) = candidate.strip_prefix("memwb ") else {
                continue;
            };
            if PROSE.iter().any(|p| candidate.starts_with(p)) {
                continue;
            }
            let command = rest
                .split(['|', '>', '#', ';', '\\'])
                .next()
                .unwrap_or("")
                .split(" && ")
                .next()
                .unwrap_or("")
                .trim();
            if command.is_empty()
                || command.contains(['[', '{', '<', '…', '(', '$', '\'', '"'])
                || command.contains("...")
            {
                continue;
            }
            // A placeholder for a value (NAME, ENTRY, FILE) stands for one that parses: clap
            // checks a typed one before it answers --help.
            let words: Vec<&str> = command
                .split_whitespace()
                .map(|w| {
                    if w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                        "1"
                    } else {
                        w
                    }
                })
                .collect();
            found.push(words.join(" "));
        }
    }
    found
}

/// Every `memwb …` command the README and docs/ show parses: its subcommands and flags exist
/// (each run with `--help`, which clap answers before it asks for values).
#[test]
fn every_command_the_docs_show_parses() {
    let mut files = vec!["README.md".to_owned(), "CONTRIBUTING.md".to_owned()];
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            files.push(format!("docs/{name}"));
        }
    }
    let mut checked = 0;
    let mut broken = Vec::new();
    for file in &files {
        for command in commands_in(&read(file)) {
            let args: Vec<&str> = command.split_whitespace().collect();
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_memwb"))
                .args(&args)
                .arg("--help")
                .env_clear()
                .output()
                .expect("memwb");
            checked += 1;
            if !out.status.success() {
                let why = String::from_utf8_lossy(&out.stderr);
                broken.push(format!(
                    "{file}: memwb {command}: {}",
                    why.lines().next().unwrap_or("")
                ));
            }
        }
    }
    assert!(checked > 50, "{checked} commands found");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Claims the docs made before a capability shipped; each must stay gone.
const STALE: &[&str] = &[
    "read-only for now",
    "read-only here",
    "comes next",
    "are read-only",
    "is read-only in the workbench",
    "while these folders are read-only",
    "proposals are not listed",
    "version = \"0.1\"",
    "the machines",
];

#[test]
fn no_doc_says_a_shipped_capability_is_missing() {
    let mut files = vec!["README.md".to_owned(), "CONTRIBUTING.md".to_owned()];
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            files.push(format!("docs/{name}"));
        }
    }
    let mut found = Vec::new();
    for file in &files {
        let text = read(file).to_lowercase();
        for phrase in STALE {
            if text.contains(&phrase.to_lowercase()) {
                found.push(format!("{file}: {phrase:?}"));
            }
        }
    }
    assert!(found.is_empty(), "stale claims: {found:?}");
}

/// The CI recipe in docs/audit.md fails the build when `memwb check` finds an error: its shell
/// lines, run as GitHub Actions runs a `run:` step by default (`bash -e`, no pipefail), on a set
/// holding a secret, exit non-zero, and on a clean set exit 0.
#[test]
fn the_ci_recipe_in_audit_md_fails_when_check_fails() {
    let audit = read("docs/audit.md");
    let yaml = audit
        .split("## In CI")
        .nth(1)
        .and_then(|s| s.split("```yaml").nth(1))
        .and_then(|s| s.split("```").next())
        .expect("the CI recipe");
    // The step that runs the check: its `run: |` block.
    let step = yaml
        .split("- run: |")
        .skip(1)
        .find(|s| s.contains("memwb check"))
        .expect("a run block with memwb check");
    let script: String = step
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("          "))
        .map(|l| format!("{}\n", l.trim_start()))
        .collect();
    assert!(script.contains("memwb check"), "{script}");
    let manifest = read("Cargo.toml");
    let repository = manifest
        .lines()
        .find_map(|l| l.strip_prefix("repository = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("repository");
    assert!(
        yaml.contains(&format!("--git {repository} ")),
        "the recipe installs from the repository Cargo.toml names: {yaml}"
    );
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_memwb"), bin.path().join("memwb")).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |workspace: &Path| {
        std::process::Command::new("bash")
            .args(["-e", "-c", &script])
            .current_dir(workspace)
            .env_clear()
            .env("PATH", &path)
            .env("HOME", workspace)
            .output()
            .expect("bash")
    };
    let clean = tempfile::tempdir().unwrap();
    let add = |workspace: &Path, body: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_memwb"))
            .args(["-C"])
            .arg(workspace)
            .args([
                "add",
                "--name",
                "ci",
                "--type",
                "project",
                "--description",
                "CI",
            ])
            .args(["--body", body])
            .env_clear()
            .env("HOME", workspace)
            .output()
            .expect("memwb add");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    add(clean.path(), "The CI runs on every push.");
    let out = run(clean.path());
    assert!(
        out.status.success(),
        "a clean set passes: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(clean.path().join("memory-audit.json").exists());
    let leaky = tempfile::tempdir().unwrap();
    let token = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
    add(leaky.path(), &format!("The CI token is {token}."));
    let out = run(leaky.path());
    assert!(
        !out.status.success(),
        "a committed secret fails the build: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        leaky.path().join("memory-audit.json").exists(),
        "the JSON is kept"
    );
}

/// The first screen block after `heading` in `file`.
fn screen_block(file: &str, heading: &str) -> String {
    read(file)
        .split(heading)
        .nth(1)
        .and_then(|s| s.split("```text\n").nth(1))
        .and_then(|s| s.split("```").next())
        .unwrap_or_else(|| panic!("{file}: no screen block after {heading:?}"))
        .to_owned()
}

/// The pictures of the demo in README.md and docs/workbench.md are its first screen at their
/// size, as the workbench draws it now (after a layout change, regenerate them: the failure
/// prints the screen).
#[cfg(feature = "tui")]
#[test]
fn the_demo_screens_in_the_docs_are_what_the_demo_draws() {
    for (file, heading) in [
        ("README.md", "## The workbench"),
        ("docs/workbench.md", "The demo at 100×30"),
    ] {
        let block = screen_block(file, heading);
        let width = block
            .lines()
            .map(unicode_width::UnicodeWidthStr::width)
            .max()
            .expect("a line");
        let height = block.lines().count();
        assert!(width >= 80 && height >= 24, "{file}: {width}x{height}");
        let mut demo = crate::tui_harness::Harness::demo(width as u16, height as u16);
        demo.draw();
        let screen = demo.screen();
        assert!(
            screen == block,
            "{file}'s screen differs from what `memwb demo` draws at {width}x{height}; it draws:\n{screen}"
        );
    }
}
