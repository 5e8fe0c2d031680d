//! The accuracy run: `memwb check --json` over the synthetic corpus in
//! `tests/fixtures/accuracy/`, scored against the findings a person would act on.
//!
//! A case is a Claude Code memory folder `<case>/` with its labels beside it in
//! `<case>.expected`: one finding per line, `<code>\t<file>` or `<code>\t<file>\t<line>`
//! (`-` for a finding without a file; `#` starts a comment). Labels are a multiset: a file
//! with two findings of one code is labelled twice. A case with a `<case>.project/` folder
//! is checked as Claude Code's folder of that project (the memory folder sits under
//! `$HOME/.claude/projects/<slug>/memory`, the project is the copied `<case>.project/`), so
//! the mentioned paths have a root; without one the folder stands alone. A `<case>.home/`
//! folder is copied into the isolated `$HOME` (for `~/` paths).
//!
//! Every finding not labelled is a false positive, every label not found a miss. Per code,
//! precision and recall over the whole corpus must reach the targets; the table is printed
//! (`cargo test --test commands audit_accuracy:: -- --nocapture`) and kept in docs/audit.md.

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use common::cli::memwb_claude;
use common::{copy_dir, fixture, workspace};
use serde_json::Value;

const PRECISION_TARGET: f64 = 0.9;
const RECALL_TARGET: f64 = 0.9;

/// One finding, as labelled or as reported.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Label {
    code: String,
    file: String,
    line: Option<u64>,
}

/// What one case got right and wrong.
#[derive(Debug, Default)]
struct Outcome {
    found: Vec<Label>,
    false_positives: Vec<Label>,
    misses: Vec<Label>,
}

/// Reads `<case>.expected`; a malformed line fails the run with its place.
fn labels(path: &Path) -> Vec<Label> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: every case needs its labels: {e}", path.display()));
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let at = || format!("{}:{}: {line:?}", path.display(), n + 1);
        assert!(
            (2..=3).contains(&fields.len()) && !fields[0].is_empty() && !fields[1].is_empty(),
            "{}: a label is <code>TAB<file>[TAB<line>]",
            at()
        );
        let line = fields.get(2).map(|l| {
            l.parse()
                .unwrap_or_else(|_| panic!("{}: the line is not a number", at()))
        });
        out.push(Label {
            code: fields[0].to_owned(),
            file: fields[1].to_owned(),
            line,
        });
    }
    out
}

/// Matches reported findings to labels: first the labels that name a line, then the others,
/// each label consuming one finding.
fn score(expected: &[Label], reported: &[Label]) -> Outcome {
    let mut unmatched: Vec<Option<&Label>> = reported.iter().map(Some).collect();
    let mut outcome = Outcome::default();
    let (with_line, without): (Vec<&Label>, Vec<&Label>) =
        expected.iter().partition(|l| l.line.is_some());
    for label in with_line.into_iter().chain(without) {
        let hit = unmatched.iter_mut().find(|slot| {
            slot.is_some_and(|f| {
                f.code == label.code
                    && f.file == label.file
                    && (label.line.is_none() || f.line == label.line)
            })
        });
        match hit {
            Some(slot) => outcome
                .found
                .push(slot.take().cloned().unwrap_or(label.clone())),
            None => outcome.misses.push(label.clone()),
        }
    }
    outcome.false_positives = unmatched.into_iter().flatten().cloned().collect();
    outcome
}

/// The slug Claude Code gives a project folder (every non-alphanumeric unit a `-`).
fn slug(path: &Path) -> String {
    memwb::claude::locate::slug(path)
}

/// Runs `memwb check --json` on one case in a fresh, isolated home and returns its findings.
fn check_case(case: &Path) -> Vec<Label> {
    let dir = workspace();
    let base = std::fs::canonicalize(dir.path()).expect("realpath");
    let home = base.join("home");
    std::fs::create_dir_all(&home).expect("mkdir");
    let name = case
        .file_name()
        .and_then(|n| n.to_str())
        .expect("case name");
    let project = case.with_file_name(format!("{name}.project"));
    let memory = if project.is_dir() {
        let root = base.join("work").join(name);
        copy_dir(&project, &root);
        home.join(".claude/projects")
            .join(slug(&root))
            .join("memory")
    } else {
        base.join("folders").join(name)
    };
    copy_dir(case, &memory);
    let home_files = case.with_file_name(format!("{name}.home"));
    if home_files.is_dir() {
        copy_dir(&home_files, &home);
    }
    let out = memwb_claude(&home, &memory, &base.join("state"), &["check", "--json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{name}: check --json printed no report ({e}); exit {:?}, stderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    report["findings"]
        .as_array()
        .expect("a findings array")
        .iter()
        .map(|f| Label {
            code: f["code"].as_str().expect("a code").to_owned(),
            file: f["file"].as_str().unwrap_or("-").to_owned(),
            line: f["line"].as_u64(),
        })
        .collect()
}

/// Every case folder of the corpus, sorted.
fn cases() -> Vec<PathBuf> {
    let root = fixture("accuracy");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/fixtures/accuracy")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir() && p.extension().is_none_or(|e| e != "project" && e != "home"))
        .collect();
    out.sort();
    out
}

#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    true_positives: usize,
    false_positives: usize,
    misses: usize,
    /// Cases in which the code is labelled or reported.
    cases: usize,
}

impl Tally {
    fn precision(self) -> Option<f64> {
        let reported = self.true_positives + self.false_positives;
        (reported > 0).then(|| self.true_positives as f64 / reported as f64)
    }

    fn recall(self) -> Option<f64> {
        let labelled = self.true_positives + self.misses;
        (labelled > 0).then(|| self.true_positives as f64 / labelled as f64)
    }
}

fn tally(outcomes: &[(String, Outcome)]) -> BTreeMap<String, Tally> {
    let mut per_code: BTreeMap<String, Tally> = BTreeMap::new();
    for (_, outcome) in outcomes {
        let mut seen: Vec<&str> = Vec::new();
        for (labels, bump) in [
            (&outcome.found, 0),
            (&outcome.false_positives, 1),
            (&outcome.misses, 2),
        ] {
            for label in labels {
                let entry = per_code.entry(label.code.clone()).or_default();
                match bump {
                    0 => entry.true_positives += 1,
                    1 => entry.false_positives += 1,
                    _ => entry.misses += 1,
                }
                if !seen.contains(&label.code.as_str()) {
                    seen.push(&label.code);
                    entry.cases += 1;
                }
            }
        }
    }
    per_code
}

fn figure(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"))
}

/// The table docs/audit.md keeps, and what falls short of the targets.
fn table(per_code: &BTreeMap<String, Tally>) -> (String, Vec<String>) {
    let mut text = String::from(
        "| code | precision | recall | true pos. | false pos. | misses | cases |\n| --- | --- | --- | --- | --- | --- | --- |\n",
    );
    let mut short = Vec::new();
    for (code, t) in per_code {
        let _ = writeln!(
            text,
            "| {code} | {} | {} | {} | {} | {} | {} |",
            figure(t.precision()),
            figure(t.recall()),
            t.true_positives,
            t.false_positives,
            t.misses,
            t.cases
        );
        if t.precision().is_some_and(|p| p < PRECISION_TARGET) {
            short.push(format!("{code}: precision {}", figure(t.precision())));
        }
        if t.recall().is_some_and(|r| r < RECALL_TARGET) {
            short.push(format!("{code}: recall {}", figure(t.recall())));
        }
    }
    (text, short)
}

#[test]
fn every_code_meets_its_precision_and_recall_on_the_corpus() {
    let cases = cases();
    assert!(!cases.is_empty(), "the corpus has no cases");
    let mut outcomes = Vec::new();
    let mut details = String::new();
    for case in &cases {
        let name = case.file_name().and_then(|n| n.to_str()).expect("name");
        let expected = labels(&case.with_file_name(format!("{name}.expected")));
        let outcome = score(&expected, &check_case(case));
        for (kind, list) in [
            ("false positive", &outcome.false_positives),
            ("miss", &outcome.misses),
        ] {
            for l in list {
                let line = l.line.map(|n| format!(":{n}")).unwrap_or_default();
                let _ = writeln!(details, "{name}: {kind} {} {}{line}", l.code, l.file);
            }
        }
        outcomes.push((name.to_owned(), outcome));
    }
    let (text, short) = table(&tally(&outcomes));
    println!("{} cases\n\n{text}\n{details}", cases.len());
    assert!(
        short.is_empty(),
        "below target ({PRECISION_TARGET} precision, {RECALL_TARGET} recall): {}\n\n{text}\n{details}",
        short.join("; ")
    );
}

fn label(code: &str, file: &str, line: Option<u64>) -> Label {
    Label {
        code: code.into(),
        file: file.into(),
        line,
    }
}

#[test]
fn scoring_counts_false_positives_misses_and_repeats() {
    let expected = [
        label("stale-path", "a.md", None),
        label("stale-path", "a.md", None),
        label("index-content", "MEMORY.md", Some(3)),
    ];
    let reported = [
        label("stale-path", "a.md", Some(7)),
        label("index-content", "MEMORY.md", Some(4)),
        label("duplicate", "b.md", None),
    ];
    let outcome = score(&expected, &reported);
    assert_eq!(outcome.found, [label("stale-path", "a.md", Some(7))]);
    assert_eq!(
        outcome.misses,
        [
            label("index-content", "MEMORY.md", Some(3)),
            label("stale-path", "a.md", None)
        ]
    );
    assert_eq!(outcome.false_positives.len(), 2);
    let per_code = tally(&[("case".into(), outcome)]);
    assert_eq!(per_code["stale-path"].precision(), Some(1.0));
    assert_eq!(per_code["stale-path"].recall(), Some(0.5));
    assert_eq!(per_code["duplicate"].precision(), Some(0.0));
    let (_, short) = table(&per_code);
    assert!(short.iter().any(|s| s.starts_with("duplicate: precision")));
    assert!(short.iter().any(|s| s.starts_with("stale-path: recall")));
}

#[test]
fn a_malformed_label_is_refused_with_its_place() {
    let dir = workspace();
    let path = dir.path().join("bad.expected");
    std::fs::write(&path, "# ok\nstale-path a.md\n").expect("write");
    let failure = std::panic::catch_unwind(|| labels(&path)).expect_err("refused");
    let message = failure
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(message.contains("bad.expected:2"), "{message}");
}
