//! Proposals: approved exactly, stale ones refused, rejected once, edited from the opened version,
//! ids checked.

use super::*;

#[test]
fn approve_applies_exactly_the_plan_and_journals_it() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["tabs-old", "tabs-new", "unrelated"]);
    let merged = record("tabs", "Indentation preference", "Use tabs.");
    let p = consolidation(&store, &["tabs-old", "tabs-new"], merged.clone());
    assert_eq!(
        memwb::formats::memory::journal::state(&p, &store.read().unwrap()),
        State::Ready
    );
    assert_eq!(p.base.len(), 2, "the sources' full content is kept");

    let (commit, entry) = approve(&store, &p.id).unwrap();
    assert_eq!(commit.added, ["tabs"]);
    assert_eq!(commit.removed, ["tabs-new", "tabs-old"]);
    assert_eq!(names(&store), ["unrelated", "tabs"]);
    assert_eq!(store.read().unwrap().get("tabs").unwrap().record, merged);

    let entry = entry.expect("journaled");
    assert_eq!(entry.op, Op::Approve);
    assert_eq!(
        entry.proposal.as_ref().map(|r| r.id.as_str()),
        Some(p.id.as_str())
    );
    assert_eq!(
        entry.proposal.as_ref().and_then(|r| r.evidence.as_deref()),
        Some("the user said so")
    );
    let before: Vec<&str> = entry
        .before
        .iter()
        .map(|r| r.record.name.as_str())
        .collect();
    assert_eq!(before, ["tabs-old", "tabs-new"]);
    assert_eq!(Journal::of(&store).entries().unwrap().last(), Some(&entry));

    let decided = proposal::load(&store, &p.id).unwrap();
    assert_eq!(decided.status, ProposalStatus::Approved);
    assert_eq!(decided.journal_entry, Some(entry.id));
    assert!(matches!(
        approve(&store, &p.id),
        Err(ReviewError::ProposalDecided { .. })
    ));
    assert_eq!(
        Journal::of(&store).entries().unwrap().len(),
        4,
        "a second approve has no effect"
    );
}

#[test]
fn stale_proposal_is_refused_with_what_changed_and_the_set_unchanged() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha", "beta"]);
    let p = consolidation(&store, &["alpha", "beta"], record("merged", "m", "m"));
    let alpha = store.read().unwrap().get("alpha").unwrap().record.clone();
    store
        .replace(&alpha, record("alpha", "edited meanwhile", "new body"))
        .unwrap();

    let state = memwb::formats::memory::journal::state(&p, &store.read().unwrap());
    assert_eq!(state, State::Stale(vec!["\"alpha\" was changed".into()]));
    let before = common::snapshot(dir.path());
    let err = approve(&store, &p.id).unwrap_err();
    assert!(
        matches!(&err, ReviewError::ProposalStale { detail, .. } if detail.contains("\"alpha\" was changed")),
        "{err}"
    );
    assert_eq!(common::snapshot(dir.path()), before);
    assert_eq!(
        proposal::load(&store, &p.id).unwrap().status,
        ProposalStatus::Pending
    );
}

#[test]
fn extraction_proposal_goes_stale_when_a_name_is_taken() {
    let dir = workspace();
    let store = open(dir.path());
    let p = file_proposal(
        &store,
        NewProposal {
            plan: Plan::Extraction(vec![record("fresh", "f", "f")]),
            origin: Origin::new("agent"),
            seen: store.read().unwrap(),
            additions: Vec::new(),
            evidence: None,
        },
    )
    .unwrap();
    store
        .extend(vec![record("fresh", "someone else", "x")])
        .unwrap();
    assert_eq!(
        memwb::formats::memory::journal::state(&p, &store.read().unwrap()),
        State::Stale(vec!["\"fresh\" exists now".into()])
    );
    assert!(matches!(
        approve(&store, &p.id),
        Err(ReviewError::ProposalStale { .. })
    ));
}

#[test]
fn reject_closes_once() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha", "beta"]);
    let p = consolidation(&store, &["alpha"], record("gamma", "g", "g"));
    let before = common::snapshot(dir.path());
    let entry = reject(&store, &p.id, Some("not a duplicate".into())).unwrap();
    assert_eq!(entry.op, Op::Reject);
    assert_eq!(entry.reason.as_deref(), Some("not a duplicate"));
    assert_eq!(common::snapshot(dir.path()), before);
    let closed = proposal::load(&store, &p.id).unwrap();
    assert_eq!(
        (closed.status, closed.reason.as_deref()),
        (ProposalStatus::Rejected, Some("not a duplicate"))
    );
    assert!(matches!(
        reject(&store, &p.id, None),
        Err(ReviewError::ProposalDecided { .. })
    ));
    assert!(matches!(
        approve(&store, &p.id),
        Err(ReviewError::ProposalDecided { .. })
    ));
}

#[test]
fn a_proposal_whose_id_does_not_match_its_file_is_refused() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha", "beta"]);
    let p = consolidation(&store, &["alpha", "beta"], record("ab", "m", "m"));
    let path = store
        .root()
        .join(".memwb/proposals")
        .join(format!("{}.json", p.id));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace(&p.id, r"\u001b]0;pwned\u0007")).unwrap();
    let err = proposal::load(&store, &p.id).unwrap_err();
    assert!(
        err.to_string().contains("does not match its file name"),
        "{err}"
    );
    let out = memwb(dir.path(), &["proposals"]);
    assert!(out.status.success());
    assert!(
        !out.stdout.contains(&0x1b),
        "nothing of it reaches the terminal"
    );
}
