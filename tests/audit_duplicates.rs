//! Issue 25's duplicate and frontmatter findings through the binary, on the synthetic
//! accuracy cases (`tests/fixtures/accuracy/dup-*`, `fm-*`, each beside its `.expected`
//! labels) and on generated folders of 200 notes: pairs and cliques, never chains; names never
//! blank; agent-written YAML a warning with its quoting fix, so `check` exits 0 on it.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

use common::{fixture, workspace};
use serde_json::Value;

fn memwb(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memwb"))
        .args(args)
        .env("HOME", home)
        .env("TZ", "UTC")
        .env("MEMWB_STATE_DIR", home.join("state"))
        .env("CLAUDE_CONFIG_DIR", home.join(".no-claude-config"))
        .env_remove("MEMWB_MODEL_URL")
        .env_remove("MEMWB_MODEL_CMD")
        .output()
        .expect("memwb runs")
}

fn check_json(home: &Path, folder: &Path) -> (Option<i32>, Value, usize) {
    let out = memwb(
        home,
        &[
            "--memory-dir",
            folder.to_str().expect("utf-8"),
            "check",
            "--json",
        ],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report, out.stdout.len())
}

fn findings(report: &Value) -> Vec<Value> {
    report["findings"].as_array().cloned().unwrap_or_default()
}

/// `(code, file)` per line of a labels file, `#` comments and blank lines skipped.
fn labels(path: &Path) -> BTreeSet<(String, String)> {
    std::fs::read_to_string(path)
        .expect("labels")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (code, file) = l.split_once('\t').expect("code<TAB>file");
            (code.to_owned(), file.to_owned())
        })
        .collect()
}

const CASES: [&str; 5] = [
    "dup-project-notes",
    "dup-same-subsystem",
    "dup-korean",
    "dup-chinese",
    "fm-agent-yaml",
];

#[test]
fn each_case_reports_exactly_what_a_person_would_act_on() {
    let home = workspace();
    for case in CASES {
        let folder = fixture("accuracy").join(case);
        let (_, report, _) = check_json(home.path(), &folder);
        let reported: BTreeSet<(String, String)> = findings(&report)
            .iter()
            .map(|f| {
                (
                    f["code"].as_str().unwrap_or_default().to_owned(),
                    f["file"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        let expected = labels(&fixture("accuracy").join(format!("{case}.expected")));
        let false_positives: Vec<_> = reported.difference(&expected).collect();
        let misses: Vec<_> = expected.difference(&reported).collect();
        assert!(
            false_positives.is_empty() && misses.is_empty(),
            "{case}: false positives {false_positives:?}, misses {misses:?}\n{report:#}"
        );
    }
}

#[test]
fn a_duplicate_names_the_other_file_and_the_words_they_share() {
    let home = workspace();
    let (_, report, _) = check_json(home.path(), &fixture("accuracy/dup-project-notes"));
    let messages: Vec<String> = findings(&report)
        .iter()
        .filter(|f| f["code"] == "duplicate")
        .map(|f| f["message"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(messages.len(), 4, "{messages:?}");
    for message in &messages {
        assert!(!message.contains("shared words: )"), "{message}");
        // Neither stopwords nor the type prefixes of file names count as shared words.
        for noise in ["feedback", "user", "the", "never", "instead"] {
            assert!(!message.contains(&format!(" {noise},")), "{message}");
            assert!(!message.contains(&format!(" {noise})")), "{message}");
        }
    }
    assert!(
        messages.iter().any(|m| {
            m.starts_with("near-duplicate of user_github_account (shared words: github")
        })
    );
    assert!(messages.iter().any(|m| {
        m.starts_with("near-duplicate of feedback_never_defer_to_human (shared words: defer")
    }));
    // Hangul shared words read as words, not as overlapping pairs of syllables.
    let (_, korean, _) = check_json(home.path(), &fixture("accuracy/dup-korean"));
    let message = findings(&korean)[0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(message.contains("데이터베이스"), "{message}");
    assert!(!message.contains("터베,"), "{message}");
}

#[test]
fn agent_written_yaml_is_a_warning_with_its_quoting_fix() {
    let home = workspace();
    let folder = fixture("accuracy/fm-agent-yaml");
    let (code, report, _) = check_json(home.path(), &folder);
    assert_eq!(code, Some(0), "warnings only: {report:#}");
    let all = findings(&report);
    assert!(all.iter().all(|f| f["severity"] == "warning"), "{report:#}");
    let message = |file: &str, code: &str| -> String {
        all.iter()
            .find(|f| f["file"] == file && f["code"] == code)
            .and_then(|f| f["message"].as_str())
            .unwrap_or_else(|| panic!("{code} on {file}: {report:#}"))
            .to_owned()
    };
    assert!(
        message("feedback_colon_in_value.md", "frontmatter-invalid").ends_with(
            r#"quote the value: description: "Deploys: always staging first, then production""#
        )
    );
    assert!(
        message("project_issue_hash.md", "value-truncated")
            .contains(r#"YAML reads description as "Flaky login test is tracked in issue"#)
    );
    assert!(message("project_issue_hash.md", "value-truncated").ends_with(
        r#"quote the value: description: "Flaky login test is tracked in issue #482 until the auth fix lands""#
    ));
    let unnamed = all
        .iter()
        .find(|f| f["code"] == "name-empty")
        .expect("name-empty");
    assert_eq!(unnamed["file"], "project_发布流程.md");
    assert!(
        unnamed["message"]
            .as_str()
            .unwrap_or_default()
            .contains(r#"shows the file name "project_发布流程""#)
    );

    // The name never shows blank: the file stem, marked, in `ls` as in its JSON.
    let folder_arg = folder.to_str().expect("utf-8");
    let ls = memwb(home.path(), &["--memory-dir", folder_arg, "ls", "--json"]);
    let rows: Value = serde_json::from_slice(&ls.stdout).expect("ls json");
    let row = rows
        .as_array()
        .expect("rows")
        .iter()
        .find(|r| r["file"] == "project_发布流程.md")
        .expect("listed");
    assert_eq!(row["name"], "project_发布流程");
    assert_eq!(row["name_from_file"], true);
    let text =
        String::from_utf8_lossy(&memwb(home.path(), &["--memory-dir", folder_arg, "ls"]).stdout)
            .into_owned();
    assert!(
        text.lines().any(|l| l.starts_with("project_发布流程")
            && l.contains("(no name: the file name is shown)")),
        "{text}"
    );
}

/// A Claude Code folder of `count` topic files, `body(i)` each, all listed in MEMORY.md.
fn folder_of(dir: &Path, count: usize, body: impl Fn(usize) -> (String, String)) {
    std::fs::create_dir_all(dir).expect("mkdir");
    let mut index = String::from("# Memory index\n\n");
    for i in 0..count {
        let (description, text) = body(i);
        let file = format!("project_note_{i}.md");
        std::fs::write(
            dir.join(&file),
            format!(
                "---\nname: project_note_{i}\ndescription: {description}\ntype: project\n---\n\n{text}\n"
            ),
        )
        .expect("write");
        index.push_str(&format!("- [note {i}]({file}) — note {i}\n"));
    }
    std::fs::write(dir.join("MEMORY.md"), index).expect("index");
}

/// A made-up word, the same for the same seed: the specifics that tell notes apart.
fn word(seed: usize) -> String {
    const SYLLABLES: [&str; 16] = [
        "ka", "lo", "mi", "ren", "tu", "vos", "shi", "pa", "dor", "qui", "zel", "ban", "fy", "gro",
        "hul", "nix",
    ];
    let mut n = seed.wrapping_mul(2_654_435_761) % 1_000_003;
    let mut out = String::new();
    for _ in 0..3 {
        out.push_str(SYLLABLES[n % SYLLABLES.len()]);
        n /= SYLLABLES.len();
    }
    out
}

#[test]
fn two_hundred_similar_but_distinct_notes_are_no_flood() {
    let home = workspace();
    let folder = home.path().join("memory");
    // One project's vocabulary in every note; each note's own service, owner and facts.
    folder_of(&folder, 200, |i| {
        (
            format!("The {} service deploys from its own pipeline", word(i)),
            format!(
                "The {} service is owned by {} and listens on port {}. It deploys through the \
                 shared pipeline after the {} migration, and its alerts page {}.",
                word(i),
                word(i + 1000),
                8000 + i,
                word(i + 2000),
                word(i + 3000)
            ),
        )
    });
    let (_, report, bytes) = check_json(home.path(), &folder);
    let duplicates = findings(&report)
        .iter()
        .filter(|f| f["code"] == "duplicate")
        .count();
    assert_eq!(duplicates, 0, "{report:#}");
    assert!(bytes < 200 * 400, "{bytes} bytes of JSON for 200 notes");
}

#[test]
fn two_hundred_copies_are_one_group_listed_once() {
    let home = workspace();
    let json_bytes = |count: usize| {
        let folder = home.path().join(format!("copies-{count}"));
        folder_of(&folder, count, |_| {
            (
                "Checkout deploys go out from main on Fridays".to_owned(),
                "Deploy the checkout service from main, on Fridays only, after QA signs off."
                    .to_owned(),
            )
        });
        let (_, report, bytes) = check_json(home.path(), &folder);
        let duplicates: Vec<Value> = findings(&report)
            .into_iter()
            .filter(|f| f["code"] == "duplicate")
            .collect();
        assert_eq!(duplicates.len(), count, "every copy has its finding");
        let listing_last = duplicates
            .iter()
            .filter(|f| {
                f["message"]
                    .as_str()
                    .is_some_and(|m| m.contains(&format!("project_note_{}", count - 1)))
            })
            .count();
        assert_eq!(
            listing_last, 1,
            "only the group's first member lists the others"
        );
        bytes
    };
    let (small, large) = (json_bytes(100), json_bytes(200));
    assert!(
        large < small * 5 / 2,
        "{small} bytes for 100, {large} for 200"
    );
}
