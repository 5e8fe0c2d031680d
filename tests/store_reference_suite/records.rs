//! What a record may hold: names, types, descriptions, line and byte limits, the text written, the
//! index budget.

use super::*;

#[test]
fn unsafe_names_are_rejected_not_rewritten() {
    for name in [
        "../escape",
        "has space",
        "UPPER",
        "nul",
        "con",
        "com1",
        "lpt9",
        "file:stream",
        "trailing.",
        "a/b",
        "a\\b",
        "",
        "-x",
        "x-",
        "a--b",
    ] {
        let err = Record::new(name, MemoryType::User, "d", "b").expect_err(name);
        assert_eq!(err, RecordError::Name(name.into()));
        assert!(
            err.to_string()
                .starts_with("memory name must be a safe lowercase slug")
        );
        assert!(
            Record::from_input(&input(name, "user", "d", "b")).is_err(),
            "{name}"
        );
    }
    // Near misses that are safe: device names only match exactly.
    for name in ["com10", "lpt0", "nul1", "console", "a-b-c", "0"] {
        assert!(
            Record::new(name, MemoryType::User, "d", "b").is_ok(),
            "{name}"
        );
    }
}

#[test]
fn type_must_be_one_of_four() {
    for kind in ["user", "feedback", "project", "reference"] {
        assert_eq!(
            Record::from_input(&input("a", kind, "d", "b"))
                .expect(kind)
                .kind()
                .as_str(),
            kind
        );
    }
    for kind in ["User", "USER", "", "note", " user", "user "] {
        let err = Record::from_input(&input("a", kind, "d", "b")).expect_err(kind);
        assert_eq!(err, RecordError::Type(kind.into()));
    }
}

#[test]
fn description_and_body_rules() {
    assert_eq!(
        Record::new("a", MemoryType::User, " \t", "b"),
        Err(RecordError::DescriptionEmpty)
    );
    assert_eq!(
        Record::new("a", MemoryType::User, "a\nb", "b"),
        Err(RecordError::DescriptionMultiline)
    );
    assert_eq!(
        Record::new("a", MemoryType::User, "a\rb", "b"),
        Err(RecordError::DescriptionMultiline)
    );
    assert_eq!(
        Record::new("a", MemoryType::User, "d", "\n \n\t"),
        Err(RecordError::BodyEmpty)
    );
    let r = Record::new("a", MemoryType::User, "d", "\r\n\n  x\r\ny\rz \n\n").expect("valid");
    assert_eq!(r.body(), "  x\ny\nz ");
}

/// The fixed part of a record file is six lines: `---`, three keys, `---`, the blank line.
fn body_of_lines(n: usize) -> String {
    vec!["x"; n].join("\n")
}

#[test]
fn line_limit_counts_the_frontmatter() {
    let ok = Record::new("a", MemoryType::User, "d", body_of_lines(194)).expect("200 lines fit");
    assert_eq!(ok.to_file_text().lines().count(), 200);
    assert_eq!(
        Record::new("a", MemoryType::User, "d", body_of_lines(195)),
        Err(RecordError::TooManyLines(201))
    );
    // A long description is folded onto two lines, which count too.
    let long = "word ".repeat(20);
    let long = long.trim_end();
    let folded = Record::new("a", MemoryType::User, long, body_of_lines(193)).expect("fits");
    assert_eq!(
        folded.to_file_text().lines().count(),
        200,
        "{}",
        folded.to_file_text()
    );
    assert_eq!(
        Record::new("a", MemoryType::User, long, body_of_lines(194)),
        Err(RecordError::TooManyLines(201))
    );
}

#[test]
fn byte_limit_counts_utf8_bytes_of_the_whole_file() {
    let fixed = "---\nname: a\ndescription: d\ntype: user\n---\n\n".len() + 1;
    let ok =
        Record::new("a", MemoryType::User, "d", "b".repeat(4096 - fixed)).expect("4096 bytes fit");
    assert_eq!(ok.to_file_text().len(), 4096);
    assert_eq!(
        Record::new("a", MemoryType::User, "d", "b".repeat(4097 - fixed)),
        Err(RecordError::TooManyBytes(4097))
    );
    // Three bytes per CJK character: 1363 fit in (4096 - fixed) bytes only if 3 * n <= that.
    let n = (4096 - fixed) / 3;
    assert!(Record::new("a", MemoryType::User, "d", "界".repeat(n)).is_ok());
    assert!(matches!(
        Record::new("a", MemoryType::User, "d", "界".repeat(n + 1)),
        Err(RecordError::TooManyBytes(_))
    ));
}

#[test]
fn persisted_yaml_manifest_and_index_are_the_reference_text() {
    let dir = workspace();
    let store = open_with(
        dir.path(),
        StoreOptions {
            ids: Some(ids(&[
                "0123456789abcdef0123456789abcdef",
                "fedcba9876543210fedcba9876543210",
            ])),
            ..StoreOptions::default()
        },
    );
    store
        .extend(vec![
            typed(
                "user-prefers-tabs",
                MemoryType::User,
                "User prefers tabs for indentation",
                "Use tabs.",
            ),
            typed(
                "quoted",
                MemoryType::Reference,
                "true",
                "Note: # not a comment",
            ),
        ])
        .expect("extend");
    let root = dir.path().join(".memory");
    let a = "user-prefers-tabs-0123456789abcdef0123456789abcdef.md";
    let b = "quoted-fedcba9876543210fedcba9876543210.md";
    assert_eq!(
        fs::read_to_string(root.join(a)).expect("a"),
        "---\nname: user-prefers-tabs\ndescription: User prefers tabs for indentation\ntype: user\n---\n\nUse tabs.\n"
    );
    assert_eq!(
        fs::read_to_string(root.join(b)).expect("b"),
        "---\nname: quoted\ndescription: \"true\"\ntype: reference\n---\n\nNote: # not a comment\n"
    );
    assert_eq!(
        fs::read_to_string(root.join("manifest.json")).expect("manifest"),
        format!("{{\"version\":1,\"files\":[\"{a}\",\"{b}\"]}}")
    );
    assert_eq!(
        fs::read_to_string(root.join("MEMORY.md")).expect("index"),
        format!(
            "- [user-prefers-tabs]({a}) - User prefers tabs for indentation\n- [quoted]({b}) - true\n"
        )
    );
    let mut listed: Vec<String> = fs::read_dir(&root)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
        .collect();
    listed.sort();
    let mut expected = vec![
        "MEMORY.md".to_owned(),
        a.into(),
        b.into(),
        "manifest.json".into(),
    ];
    expected.sort();
    assert_eq!(listed, expected, "no lock, no temp files left");
}

#[test]
fn previous_set_is_kept_when_the_index_budget_is_exceeded() {
    let dir = copy_fixture_store("stores/basic");
    let before = snapshot(dir.path());
    let index_bytes = fs::metadata(dir.path().join(".memory/MEMORY.md"))
        .expect("index")
        .len() as usize;
    let store = open_with(
        dir.path(),
        StoreOptions {
            max_index_bytes: index_bytes + 20,
            ..StoreOptions::default()
        },
    );
    let err = store
        .extend(vec![record(
            "one-more",
            "A description long enough to break the budget",
            "b",
        )])
        .expect_err("over budget");
    assert!(
        matches!(err, StoreError::IndexBudget { max_bytes, .. } if max_bytes == index_bytes + 20),
        "{err}"
    );
    assert_unchanged(dir.path(), &before, "index budget");
    assert!(!lock_held(dir.path()));

    // The line budget (which is also the most records) refuses the same way.
    let store = open_with(
        dir.path(),
        StoreOptions {
            max_index_lines: 6,
            ..StoreOptions::default()
        },
    );
    let err = store
        .extend(vec![record("seventh", "d", "b")])
        .expect_err("over line budget");
    assert!(
        matches!(
            err,
            StoreError::IndexBudget { .. } | StoreError::TooManyRecords { .. }
        ),
        "{err}"
    );
    assert_unchanged(dir.path(), &before, "line budget");
    // Exactly at the budget is fine.
    let store = open_with(
        dir.path(),
        StoreOptions {
            max_index_lines: 7,
            ..StoreOptions::default()
        },
    );
    store
        .extend(vec![record("seventh", "d", "b")])
        .expect("at the budget");
}
