//! The review gate: proposals, approve/reject, the journal, undo and crash recovery.

use crate::common;
use crate::common::cli::memwb;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use common::{names, open, record, workspace};
use memwb::formats::memory::journal::{NewProposal, file as file_proposal};
use memwb::formats::memory::journal::{approve, journaled, reject, undo};
use memwb::review::journal::JournalRecord;
use memwb::review::proposal;
use memwb::review::{EntryMeta, Journal, Op, Origin, ProposalStatus, ReviewError, State};
use memwb::session::Plan;
use memwb::store::{EntryState, FaultHook, IoHooks, IoOp, Record, Store, StoreOptions};

mod crashes;
mod journal;
mod proposals;

fn seed(store: &Store, names: &[&str]) {
    for name in names {
        journaled(store, Default::default(), None, |s| {
            s.extend(vec![record(name, &format!("about {name}"), "body")])
        })
        .expect("seed");
    }
}

fn consolidation(store: &Store, sources: &[&str], into: Record) -> proposal::Proposal {
    let plan = Plan::Consolidation {
        source_names: sources.iter().map(|s| s.to_string()).collect(),
        records: vec![into],
    };
    file_proposal(
        store,
        NewProposal {
            plan,
            origin: Origin::new("import"),
            seen: store.read().expect("read"),
            additions: Vec::new(),
            evidence: Some("the user said so".into()),
        },
    )
    .expect("file proposal")
}
