//! `memwb consolidate --plan PATH` on a Claude Code folder: the plan a person (or a script)
//! wrote, applied at once as one journaled change, as on `.memory` sets. The plan is read
//! exactly as the consolidator's reply is (`Plan::parse`) and turned into file images the way
//! an approved consolidation proposal is, so the two paths write the same files.

use jiff::Timestamp;
use serde_json::Value;

use super::claude_review::say_refused;
use super::claude_write::{commit_planned, done};
use super::input::read_json;
use super::records::ConsolidateArgs;
use crate::review::Op;
use crate::review::claude::{propose, writes_for_images};
use crate::review::proposal::{Kind, Plan};

pub(super) fn consolidate(
    folder: &crate::claude::ClaudeFolder,
    args: &ConsolidateArgs,
) -> anyhow::Result<u8> {
    let mut value: Value = read_json(&args.plan, "consolidation plan")?;
    let read = propose::read(folder);
    let candidates = propose::candidates(&read, &[])?;
    // A person names the sources as the folder does (`feedback_commit_style`, `用户偏好`); the
    // plan is checked against the names the consolidator would have been shown.
    if let Some(Value::Array(names)) = value.get_mut("source_names") {
        for name in names.iter_mut() {
            if let Some(known) = name.as_str().and_then(|n| candidates.record_name_of(n)) {
                *name = Value::String(known.to_owned());
            }
        }
    }
    let plan = Plan::parse(Kind::Consolidation, &value, &candidates.records)
        .map_err(|why| anyhow::anyhow!("the consolidation plan is refused: {why}"))?;
    let (files, refused) = propose::from_plan(&read, &candidates, &plan, Timestamp::now())?;
    if !refused.is_empty() {
        say_refused(&refused);
        anyhow::bail!("the consolidation plan is refused whole: nothing was written");
    }
    anyhow::ensure!(
        !files.is_empty(),
        "the plan changes nothing in this folder: nothing was written"
    );
    // The topic files compare with the text the plan was checked against; MEMORY.md's new
    // lines are derived under the lock from the index as it is then.
    let code = commit_planned(
        folder,
        &mut || writes_for_images(folder, &files),
        Op::Consolidate,
    )?;
    let sources = plan.source_names().join(", ");
    let written: Vec<&str> = plan.records().iter().map(|r| r.name()).collect();
    done(
        &format!("consolidated {sources} into {}", written.join(", ")),
        code,
    )
}
