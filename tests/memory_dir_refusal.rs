//! `--memory-dir` on a folder that is not a memory folder (a project root, an empty folder,
//! `$HOME`) is refused with a hint and nothing written, unless it holds MEMORY.md or topic files
//! with frontmatter, or `--format` comes with `--new`.

use crate::common;

use std::fs;
use std::path::Path;

use common::cli::{memwb_claude, refused, stdout};

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("read dir")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

const ADD: [&str; 8] = [
    "add",
    "--name",
    "shop",
    "--type",
    "project",
    "--description",
    "the shop",
    "--body=The shop sells tea.",
];

#[test]
fn an_empty_folder_is_refused_for_audit_and_add_and_nothing_is_written() {
    let home = tempfile::tempdir().expect("home");
    let state = tempfile::tempdir().expect("state");
    let empty = home.path().join("empty");
    fs::create_dir(&empty).expect("mkdir");
    for args in [&["check"][..], &ADD[..]] {
        let err = refused(memwb_claude(home.path(), &empty, state.path(), args));
        assert!(err.contains("is not a memory folder"), "{err}");
        assert!(err.contains("--new"), "{err}");
        assert!(listing(&empty).is_empty(), "{:?}", listing(&empty));
    }
}

#[test]
fn a_project_root_holding_dot_memory_is_refused_with_a_hint_to_use_dash_c() {
    let home = tempfile::tempdir().expect("home");
    let state = tempfile::tempdir().expect("state");
    let project = home.path().join("shop");
    fs::create_dir_all(project.join(".memory")).expect("mkdir");
    fs::write(project.join("README.md"), "# Shop\n").expect("readme");
    let err = refused(memwb_claude(home.path(), &project, state.path(), &ADD));
    assert!(err.contains(&format!("-C {}", project.display())), "{err}");
    assert_eq!(listing(&project), [".memory", "README.md"]);
}

#[test]
fn home_itself_is_refused() {
    let home = tempfile::tempdir().expect("home");
    let state = tempfile::tempdir().expect("state");
    fs::write(home.path().join("notes.md"), "# not a topic\n").expect("notes");
    let err = refused(memwb_claude(home.path(), home.path(), state.path(), &ADD));
    assert!(err.contains("is not a memory folder"), "{err}");
    assert_eq!(listing(home.path()), ["notes.md"]);
}

#[test]
fn a_folder_with_only_frontmatter_topic_files_is_opened() {
    let home = tempfile::tempdir().expect("home");
    let state = tempfile::tempdir().expect("state");
    let memory = home.path().join("memory");
    fs::create_dir(&memory).expect("mkdir");
    fs::write(
        memory.join("tea.md"),
        "---\nname: tea\ndescription: tea kinds\ntype: project\n---\nGreen and black.\n",
    )
    .expect("topic");
    let out = memwb_claude(home.path(), &memory, state.path(), &["check"]);
    assert_ne!(out.status.code(), Some(2), "{}", stdout(&out));
}

#[test]
fn format_with_new_starts_a_new_folder_and_new_alone_is_a_usage_error() {
    let home = tempfile::tempdir().expect("home");
    let state = tempfile::tempdir().expect("state");
    let fresh = home.path().join("fresh");
    fs::create_dir(&fresh).expect("mkdir");
    let mut args = vec!["--new"];
    args.extend(ADD);
    let out = memwb_claude(home.path(), &fresh, state.path(), &args);
    assert_eq!(out.status.code(), Some(2));
    assert!(listing(&fresh).is_empty());
    let mut args = vec!["--format", "claude", "--new"];
    args.extend(ADD);
    let out = memwb_claude(home.path(), &fresh, state.path(), &args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        listing(&fresh).contains(&"MEMORY.md".to_owned()),
        "{:?}",
        listing(&fresh)
    );
}
