//! The review loop on a Claude Code folder: `propose`, `proposals`, `approve`, `reject`, with
//! the flags, output and JSON they have on `.memory` (see `review.rs`, which prints both).

use anyhow::Context;
use jiff::Timestamp;

use super::EXIT_OK;
use super::input::read_json;
use super::output::inert;
use super::review::{
    ApproveArgs, ProposalsArgs, ProposeArgs, ProposeSource, RejectArgs, imported_plan, model,
    print_proposals, say_skipped,
};
use crate::claude::copy::Refusal;
use crate::claude::write::FileImage;
use crate::review::claude::propose::{self, Candidates};
use crate::review::claude::{self as review_claude, NewFiles};
use crate::review::proposal::images;
use crate::review::proposal::{Origin, Plan};
use crate::review::sink::evidence;
use crate::session::history::{Message, validate_tool_pairing};
use crate::session::replies::{ask_consolidator, ask_extractor};

pub(super) fn propose(
    folder: &crate::claude::ClaudeFolder,
    args: &ProposeArgs,
) -> anyhow::Result<u8> {
    let read = propose::read(folder);
    let now = Timestamp::now();
    let proposals = match &args.source {
        ProposeSource::Dedupe => {
            let filed = review_claude::list(folder)?.proposals;
            let mut fresh = Vec::new();
            for new in propose::dedupe(&read, now)? {
                match images::already_filed(&new.files, &filed) {
                    Some(known) => say_skipped(&images::source_names(&new.files), known),
                    None => fresh.push(new),
                }
            }
            fresh
        }
        ProposeSource::Consolidate(consolidate) => {
            let (client, origin) = model(&consolidate.model)?;
            let candidates = propose::candidates(&read, &consolidate.names)?;
            say_left_out(&candidates);
            anyhow::ensure!(
                !candidates.records.is_empty(),
                "no memory here can be consolidated: nothing was proposed"
            );
            let reply = ask_consolidator(client.as_ref(), &candidates.records)
                .context("the consolidator failed; nothing was proposed")?;
            let plan = Plan::Consolidation {
                source_names: reply.source_names,
                records: reply.records,
            };
            vec![from_plan(&read, &candidates, &plan, origin, None, now)?]
        }
        ProposeSource::Extract(extract) => {
            let history: Vec<Message> =
                read_json(&extract.history, "chat history (a JSON array of messages)")?;
            validate_tool_pairing(&history)?;
            let (client, origin) = model(&extract.model)?;
            let catalog = read
                .snapshot
                .parsed_index()
                .map(|i| i.loaded_text())
                .unwrap_or_default();
            let records = ask_extractor(client.as_ref(), &history, &catalog)
                .context("the extractor failed; nothing was proposed")?;
            anyhow::ensure!(
                !records.is_empty(),
                "the extractor found nothing to remember; nothing was proposed"
            );
            let plan = Plan::Extraction(records);
            let candidates = Candidates::default();
            vec![from_plan(
                &read,
                &candidates,
                &plan,
                origin,
                evidence(&history),
                now,
            )?]
        }
        ProposeSource::Import(import) => {
            let candidates = propose::candidates(&read, &[])?;
            let plan = imported_plan(import, &candidates.records)?;
            let origin = Origin::new("import");
            vec![from_plan(
                &read,
                &candidates,
                &plan,
                origin,
                import.evidence.clone(),
                now,
            )?]
        }
    };
    if proposals.is_empty() {
        eprintln!("no near-duplicates found; nothing proposed");
    }
    for new in proposals {
        say!("{}", review_claude::file_proposal(folder, new)?.id)?;
    }
    Ok(EXIT_OK)
}

/// The memories a side-query could not be shown, on stderr.
fn say_left_out(candidates: &Candidates) {
    for refusal in &candidates.left_out {
        eprintln!(
            "note: left out {}: {}",
            inert(&refusal.name),
            inert(&refusal.reason)
        );
    }
}

/// Every refused memory on stderr, one line each.
pub(super) fn say_refused(refused: &[Refusal]) {
    for refusal in refused {
        eprintln!(
            "refused {}: {}",
            inert(&refusal.name),
            inert(&refusal.reason)
        );
    }
}

fn from_plan(
    read: &propose::Read,
    candidates: &Candidates,
    plan: &Plan,
    origin: Origin,
    evidence: Option<String>,
    now: Timestamp,
) -> anyhow::Result<NewFiles> {
    let (files, refused) = propose::from_plan(read, candidates, plan, now)?;
    say_refused(&refused);
    anyhow::ensure!(
        !files.is_empty(),
        "the reply changes nothing in this folder; nothing was proposed"
    );
    Ok(NewFiles {
        kind: plan.kind(),
        files,
        origin,
        evidence,
    })
}

pub(super) fn proposals(
    folder: &crate::claude::ClaudeFolder,
    args: &ProposalsArgs,
) -> anyhow::Result<u8> {
    // An approval a crash interrupted is finished (or rolled back) first, as `log` does.
    review_claude::recover(folder)?;
    print_proposals(
        review_claude::list(folder)?,
        |p| review_claude::state(folder, p),
        args,
    )
}

pub(super) fn approve(
    folder: &crate::claude::ClaudeFolder,
    args: &ApproveArgs,
) -> anyhow::Result<u8> {
    let approved = review_claude::approve(folder, &args.id)?;
    super::claude_write::done(
        &format!(
            "approved {}{}: {}",
            args.id,
            super::review::as_entry(approved.entry.as_ref()),
            summary(&approved.files)
        ),
        None,
    )
}

pub(super) fn reject(
    folder: &crate::claude::ClaudeFolder,
    args: &RejectArgs,
) -> anyhow::Result<u8> {
    review_claude::reject(folder, &args.id, args.reason.clone())?;
    say!("rejected {}", args.id)?;
    Ok(EXIT_OK)
}

/// "added a; changed b; removed c", by memory name, as on `.memory`.
pub(super) fn summary(files: &[FileImage]) -> String {
    crate::review::summary::files_summary(files)
}
