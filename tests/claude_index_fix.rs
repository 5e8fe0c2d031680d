//! `index --fix` on a large agent-written MEMORY.md (issue 25): a synthetic 249-line index
//! shaped like the real one that went wrong (110 entries in 55 subsections under the four type
//! headings, prose, CJK, files linked only from prose), plus a `decision` note and a file
//! without frontmatter that no entry lists. The fix must reach its own target: the index
//! loads whole, keeps most entries, leaves no empty heading, files each new entry under its
//! type, and `check` finds nothing wrong with the index right after.

use std::fs;
use std::path::Path;
use std::process::Output;

use crate::common;

const TYPES: [&str; 4] = ["user", "feedback", "project", "reference"];

struct Folder {
    home: tempfile::TempDir,
    state: tempfile::TempDir,
}

impl Folder {
    fn memory(&self) -> std::path::PathBuf {
        self.home.path().join("memory")
    }

    fn run(&self, args: &[&str]) -> Output {
        common::cli::memwb_claude(self.home.path(), &self.memory(), self.state.path(), args)
    }

    fn read(&self, file: &str) -> String {
        fs::read_to_string(self.memory().join(file)).expect("read")
    }

    /// The codes of `check --json` on the folder, with their file.
    fn findings(&self) -> Vec<(String, String)> {
        let out = self.run(&["check", "--json"]);
        common::cli::finding_files(&serde_json::from_slice(&out.stdout).expect("check --json"))
    }
}

fn topic(dir: &Path, file: &str, name: &str, kind: &str, day: usize) {
    let text = format!(
        "---\nname: {name}\ndescription: note {day} about {name}\ntype: {kind}\nmodified: 2026-{:02}-{:02}T09:00:00.000Z\n---\n\nBody of {name}.\n",
        1 + day / 28,
        1 + day % 28
    );
    fs::write(dir.join(file), text).expect("write topic");
}

/// The folder: MEMORY.md of exactly 249 lines, 110 entries, the oldest memories first.
fn big_folder() -> Folder {
    let folder = Folder {
        home: tempfile::tempdir().expect("home"),
        state: tempfile::tempdir().expect("state"),
    };
    let dir = folder.memory();
    fs::create_dir(&dir).expect("mkdir");
    let mut lines: Vec<String> = vec![
        "# Memory Index".into(),
        String::new(),
        "Notes the agent keeps for this project; newest at the end of each section.".into(),
        "자세한 내용: [상세](./project_details_ko.md)".into(),
        "See [the runbook](reference_runbook.md) for details.".into(),
        String::new(),
    ];
    topic(&dir, "project_details_ko.md", "배포 상세", "project", 200);
    topic(&dir, "reference_runbook.md", "runbook", "reference", 201);
    let mut entry = 0;
    for (t, kind) in TYPES.iter().enumerate() {
        let mut title: Vec<char> = kind.chars().collect();
        title[0] = title[0].to_ascii_uppercase();
        lines.push(format!("## {}", title.into_iter().collect::<String>()));
        lines.push(String::new());
        let areas = if t < 3 { 14 } else { 13 };
        for area in 0..areas {
            lines.push(format!("### {kind} area {area}"));
            for _ in 0..2 {
                let (file, name) = if entry % 5 == 0 {
                    (
                        format!("{kind}_笔记_{entry:03}.md"),
                        format!("发布笔记 {entry}"),
                    )
                } else {
                    (
                        format!("{kind}_note_{entry:03}.md"),
                        format!("{kind} note {entry}"),
                    )
                };
                topic(&dir, &file, &name, kind, entry);
                lines.push(format!(
                    "- [{name}]({file}) \u{2014} note {entry} about {name}"
                ));
                entry += 1;
            }
            lines.push(String::new());
        }
    }
    assert_eq!(entry, 110);
    // Prose at the end, up to 249 lines.
    let mut n = 0;
    while lines.len() < 249 {
        lines.push(format!("Remember: check item {n} before each release."));
        n += 1;
    }
    let index = lines.join("\n") + "\n";
    assert_eq!(index.lines().count(), 249);
    fs::write(dir.join("MEMORY.md"), index).expect("index");
    fs::write(
        dir.join("decision_cache.md"),
        "---\nname: cache decision\ndescription: the cache TTL stays at five minutes\ntype: decision\n---\n\nWhy: load tests.\n",
    )
    .expect("decision");
    fs::write(
        dir.join("scratch.md"),
        "Things to look at later:\n- flaky test\n",
    )
    .expect("scratch");
    folder
}

/// Whether some heading of `text` has nothing but blank lines and headings under it.
fn empty_headings(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let level = |l: &str| l.chars().take_while(|&c| c == '#').count();
    let mut empty = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !line.starts_with('#') {
            continue;
        }
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].starts_with('#') && level(lines[j]) <= level(line))
            .unwrap_or(lines.len());
        if !lines[i + 1..end]
            .iter()
            .any(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            empty.push((*line).to_owned());
        }
    }
    empty
}

const INDEX_CODES: [&str; 3] = ["index-truncated", "index-dangling", "index-unlisted"];

#[test]
fn index_fix_on_a_249_line_index_reaches_its_target_and_check_agrees() {
    let folder = big_folder();
    let before = folder.findings();
    assert!(
        before.iter().any(|(c, _)| c == "index-truncated"),
        "past the limit to begin with: {before:?}"
    );
    // Linked from prose counts as listed: only the two new files are unlisted.
    let unlisted: Vec<&str> = before
        .iter()
        .filter(|(c, _)| c == "index-unlisted")
        .map(|(_, f)| f.as_str())
        .collect();
    assert_eq!(unlisted, ["decision_cache.md", "scratch.md"]);

    let preview = folder.run(&["index", "--fix"]);
    assert!(preview.status.success());
    assert_eq!(
        folder.read("MEMORY.md").lines().count(),
        249,
        "the preview writes nothing"
    );
    let out = folder.run(&["index", "--fix", "--yes"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("still past"), "{stderr}");
    assert!(stderr.contains("2 unlisted files added"), "{stderr}");

    let index = folder.read("MEMORY.md");
    let counted = index.trim().lines().count();
    assert!(
        counted <= 180,
        "archived down to 90% of the 200-line limit: {counted}"
    );
    let kept = index.lines().filter(|l| l.starts_with("- [")).count();
    assert!(
        kept >= 50,
        "only as many entries as needed move out, not all 110: {kept} kept\n{index}"
    );
    assert_eq!(empty_headings(&index), Vec::<String>::new(), "{index}");
    // New entries under the heading of their type, or a section made for them.
    assert!(
        index.contains("## Decision\n- [cache decision](decision_cache.md) \u{2014}"),
        "{index}"
    );
    assert!(
        index.contains("## Other\n- [scratch](scratch.md)"),
        "{index}"
    );
    assert!(index.contains("\n자세한 내용: [상세](./project_details_ko.md)\n"));

    let archive = folder.read("MEMORY-archive.md");
    let archived = archive.lines().filter(|l| l.starts_with("- [")).count();
    assert_eq!(
        kept - 3 + archived,
        110,
        "every entry in one of the two files"
    );
    assert!(archive.contains("### user area 0\n- ["), "{archive}");

    let after = folder.findings();
    let wrong: Vec<_> = after
        .iter()
        .filter(|(c, _)| INDEX_CODES.contains(&c.as_str()))
        .collect();
    assert!(wrong.is_empty(), "check after the fix: {wrong:?}");
    let again = folder.run(&["index", "--fix"]);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        "MEMORY.md needs no fix\n"
    );
}
