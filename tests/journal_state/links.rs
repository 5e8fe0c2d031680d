//! Links, FIFOs and odd files in place of memwb's state: refused or reported, never followed, never
//! a hang.

use super::*;

fn mkfifo(path: &Path) {
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .expect("mkfifo");
}

fn file_proposal(store: &Store) -> proposal::Proposal {
    let plan = Plan::Consolidation {
        source_names: vec!["alpha".into(), "beta".into()],
        records: vec![record("ab", "merged", "m")],
    };
    memwb::formats::memory::journal::file(
        store,
        NewProposal {
            plan,
            origin: Origin::new("import"),
            seen: store.read().expect("read"),
            additions: Vec::new(),
            evidence: None,
        },
    )
    .expect("file proposal")
}

#[test]
fn a_journal_linked_outside_the_workspace_is_refused_and_reported() {
    let dir = seeded(&["alpha"]);
    let outside = workspace();
    let target = outside.path().join("victim.txt");
    std::fs::write(&target, "precious\n").unwrap();
    std::fs::remove_file(journal_path(dir.path())).unwrap();
    std::os::unix::fs::symlink(&target, journal_path(dir.path())).unwrap();

    let out = add(dir.path(), "beta");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
    assert_eq!(names(&open(dir.path())), ["alpha"], "nothing was committed");
    assert!(has_finding(
        dir.path(),
        "state-escapes",
        ".memwb/journal.jsonl"
    ));
    let log = memwb(dir.path(), &["log"]);
    assert_eq!(log.status.code(), Some(2));
    assert!(stderr(&log).contains("symbolic link"), "{}", stderr(&log));
}

#[test]
fn a_memwb_dir_linked_outside_the_workspace_is_refused_and_reported() {
    let dir = seeded(&["alpha"]);
    let outside = workspace();
    std::fs::write(outside.path().join("journal.jsonl"), "").unwrap();
    std::fs::remove_dir_all(memwb_dir(dir.path())).unwrap();
    std::os::unix::fs::symlink(outside.path(), memwb_dir(dir.path())).unwrap();

    let out = add(dir.path(), "beta");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(outside.path().join("journal.jsonl")).unwrap(),
        b"",
        "nothing appended outside"
    );
    assert_eq!(
        std::fs::read_dir(outside.path()).unwrap().count(),
        1,
        "no file created outside"
    );
    assert_eq!(names(&open(dir.path())), ["alpha"]);
    assert!(has_finding(dir.path(), "state-escapes", ".memwb"));
}

#[test]
fn a_proposal_linked_outside_the_workspace_is_refused_and_reported() {
    let dir = seeded(&["alpha", "beta"]);
    let store = open(dir.path());
    let p = file_proposal(&store);
    let path = memwb_dir(dir.path()).join(format!("proposals/{}.json", p.id));
    let outside = workspace();
    let target = outside.path().join("elsewhere.json");
    std::fs::copy(&path, &target).unwrap();
    let before = std::fs::read(&target).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(&target, &path).unwrap();

    let approve = memwb(dir.path(), &["approve", &p.id]);
    assert_eq!(approve.status.code(), Some(2));
    assert!(
        stderr(&approve).contains("symbolic link"),
        "{}",
        stderr(&approve)
    );
    let reject = memwb(dir.path(), &["reject", &p.id]);
    assert_eq!(reject.status.code(), Some(2));
    assert_eq!(std::fs::read(&target).unwrap(), before, "not rewritten");
    assert_eq!(names(&open(dir.path())), ["alpha", "beta"]);
    let file = format!(".memwb/proposals/{}.json", p.id);
    assert!(has_finding(dir.path(), "state-escapes", &file));
    let listed = memwb(dir.path(), &["proposals"]);
    assert!(listed.status.success());
    assert!(
        stdout(&listed).contains("corrupt") && stdout(&listed).contains("symbolic link"),
        "{}",
        stdout(&listed)
    );
}

#[test]
fn fifos_in_place_of_the_journal_or_a_proposal_never_hang() {
    let dir = seeded(&["alpha", "beta"]);
    let p = file_proposal(&open(dir.path()));
    let proposal_path = memwb_dir(dir.path()).join(format!("proposals/{}.json", p.id));
    std::fs::remove_file(&proposal_path).unwrap();
    mkfifo(&proposal_path);
    let listed = memwb(dir.path(), &["proposals", "--json"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    assert!(
        stdout(&listed).contains("\"corrupt\""),
        "{}",
        stdout(&listed)
    );
    let approve = memwb(dir.path(), &["approve", &p.id]);
    assert_eq!(approve.status.code(), Some(2));
    assert!(
        stderr(&approve).contains("not a regular file"),
        "{}",
        stderr(&approve)
    );
    let file = format!(".memwb/proposals/{}.json", p.id);
    assert!(has_finding(dir.path(), "not-a-file", &file));

    std::fs::remove_file(journal_path(dir.path())).unwrap();
    mkfifo(&journal_path(dir.path()));
    let out = add(dir.path(), "gamma");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
    assert_eq!(names(&open(dir.path())), ["alpha", "beta"]);
    for args in [&["log"][..], &["undo"], &["proposals"]] {
        let out = memwb(dir.path(), args);
        assert!(
            !out.status.success() || args == ["proposals"],
            "{args:?}: {}",
            stdout(&out)
        );
    }
    assert!(has_finding(
        dir.path(),
        "not-a-file",
        ".memwb/journal.jsonl"
    ));
}

#[test]
fn memwb_state_that_is_not_a_directory_or_has_leftovers_is_reported() {
    let dir = seeded(&["alpha", "beta"]);
    let p = file_proposal(&open(dir.path()));
    std::fs::write(memwb_dir(dir.path()).join(".0123abcd.tmp"), "half").unwrap();
    // memwb's own folders (here the evaluation's reply cache) are not findings.
    std::fs::create_dir(memwb_dir(dir.path()).join("eval-cache")).unwrap();
    let proposal_path = memwb_dir(dir.path()).join(format!("proposals/{}.json", p.id));
    std::fs::write(&proposal_path, "{ not json").unwrap();
    let found = findings(dir.path());
    assert!(
        found.contains(&("temp-file".into(), ".memwb/.0123abcd.tmp".into())),
        "{found:?}"
    );
    let file = format!(".memwb/proposals/{}.json", p.id);
    assert!(
        found.contains(&("proposal-corrupt".into(), file.clone())),
        "{found:?}"
    );
    assert_eq!(found.len(), 2, "{found:?}");
    let listed = memwb(dir.path(), &["proposals"]);
    assert!(
        stdout(&listed).contains(&format!("{}.json  corrupt", p.id)),
        "{}",
        stdout(&listed)
    );

    std::fs::remove_dir_all(memwb_dir(dir.path()).join("proposals")).unwrap();
    std::fs::write(memwb_dir(dir.path()).join("proposals"), "a file").unwrap();
    assert!(has_finding(
        dir.path(),
        "state-not-a-directory",
        ".memwb/proposals"
    ));

    std::fs::remove_dir_all(memwb_dir(dir.path())).unwrap();
    std::fs::write(memwb_dir(dir.path()), "a file").unwrap();
    assert!(has_finding(dir.path(), "state-not-a-directory", ".memwb"));
    let out = add(dir.path(), "gamma");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a directory"), "{}", stderr(&out));
    assert_eq!(names(&open(dir.path())), ["alpha", "beta"]);
}
