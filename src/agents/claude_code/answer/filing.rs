//! Where the hook meets the rest of memwb: the folder's state directory, proposals, the
//! journal. Everything the hook writes goes through here.

use std::borrow::Cow;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::agents::claude_code::hook::HookInput;
use crate::claude::state::state_root;
use crate::claude::write::FileImage;
use crate::claude::{ClaudeFolder, ClaudeState};
use crate::formats::Open;
use crate::fs::{IoHooks, Links, atomic_replace_private, create_private_dir_all, read_regular};
use crate::redact::redact;
use crate::review::journal::{RedactedImage, Side};
use crate::review::proposal::AgentCall;
use crate::review::{EntryMeta, Origin, Proposal, ProposalStatus};

/// One file's text before and after a tool call (`None`: the file does not exist).
pub type HookImage = FileImage;

/// The stashes of calls whose PostToolUse never came (the tool failed) are dropped after this.
const STASH_MAX_AGE: std::time::Duration = std::time::Duration::from_secs(24 * 3600);
const STASH_DIR: &str = "hook-stash";

/// The folder's state directory (created).
fn state_dir(folder: &ClaudeFolder) -> Result<PathBuf, String> {
    ClaudeState::for_folder(folder)
        .map(|state| state.path().to_owned())
        .map_err(|e| e.to_string())
}

/// The folder's backend, which files and journals what the hook reports.
fn backend(folder: &ClaudeFolder) -> Open {
    Open::from(folder.clone())
}

/// Where `hook.log` goes: the folder's state directory, else the state root.
pub fn log_dir(folder: Option<&ClaudeFolder>) -> Option<PathBuf> {
    folder
        .and_then(|f| state_dir(f).ok())
        .or_else(|| state_root().ok())
}

/// Files a pending proposal holding the file's full before and after; returns its id. A
/// repeated call (Claude Code retrying, a hook installed twice) answers with the proposal
/// already pending for it instead of filing another.
pub(super) fn file_proposal(
    folder: &ClaudeFolder,
    image: HookImage,
    input: &HookInput,
) -> Result<String, String> {
    if let Some(id) = pending_for(folder, &image, input)? {
        return Ok(id);
    }
    let call = agent_call(input);
    let evidence = Some(format!("{} (memwb hook claude)", call.describe()));
    let origin = Origin::agent_call("claude-code", call);
    backend(folder)
        .backend()
        .propose_outside_change(vec![image], origin, evidence)
        .map(|proposal| proposal.id)
        .map_err(|e| e.to_string())
}

/// Journals a change that was made (record mode).
pub(super) fn record(
    folder: &ClaudeFolder,
    image: HookImage,
    before_redacted: bool,
    input: &HookInput,
) -> Result<(), String> {
    let meta = EntryMeta {
        reason: Some(format!(
            "recorded from Claude Code: {}",
            agent_call(input).describe()
        )),
        redacted: before_redacted
            .then(|| RedactedImage {
                file: image.file.clone(),
                side: Side::Before,
            })
            .into_iter()
            .collect(),
        ..EntryMeta::default()
    };
    // Left out when `memwb watch --record` journaled it first.
    backend(folder)
        .backend()
        .record_outside_change(vec![image], meta)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Who asked for the change, under Claude Code's own field names.
fn agent_call(input: &HookInput) -> AgentCall {
    AgentCall {
        session_id: input.session_id.clone(),
        agent_id: input.agent_id.clone(),
        agent_type: input.agent_type.clone(),
        tool_name: input.tool_name.clone(),
        tool_use_id: input.tool_use_id.clone(),
        transcript_path: input.transcript_path.clone(),
    }
}

/// The pending proposal a call repeats: one filed for the same `tool_use_id`, or by the same
/// session for the same file with the same after image (as it is kept: redacted).
fn pending_for(
    folder: &ClaudeFolder,
    image: &HookImage,
    input: &HookInput,
) -> Result<Option<String>, String> {
    let kept = crate::review::proposal::images::redacted(vec![image.clone()]);
    let repeats = |proposal: &Proposal| {
        let Some(call) = &proposal.origin.call else {
            return false;
        };
        let same_call = input.tool_use_id.is_some() && call.tool_use_id == input.tool_use_id;
        let same_change = input.session_id.is_some()
            && call.session_id == input.session_id
            && proposal.files.len() == 1
            && proposal.files[0].file == kept[0].file
            && proposal.files[0].after == kept[0].after;
        same_call || same_change
    };
    Ok(filed(folder)?
        .into_iter()
        .rev()
        .find(|p| p.status == ProposalStatus::Pending && repeats(p))
        .map(|p| p.id))
}

/// How many proposals wait for review on the folder.
pub(super) fn pending(folder: &ClaudeFolder) -> Result<usize, String> {
    Ok(filed(folder)?
        .iter()
        .filter(|p| p.status == ProposalStatus::Pending)
        .count())
}

/// Every proposal filed for the folder, oldest first.
fn filed(folder: &ClaudeFolder) -> Result<Vec<Proposal>, String> {
    let filed = backend(folder)
        .backend()
        .filed()
        .map_err(|e| e.to_string())?;
    Ok(filed
        .listed
        .into_iter()
        .map(|(proposal, _)| proposal)
        .collect())
}

#[derive(Serialize, Deserialize)]
struct Stash {
    file: String,
    before: Option<String>,
    /// `before` had credentials, kept redacted: the entry it becomes marks its before image
    /// so (a stash written before the mark has none).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    redacted: bool,
}

/// A file's before image as PreToolUse kept it (`None`: absent), and whether its credentials
/// were redacted there.
pub(super) struct Stashed {
    pub(super) before: Option<String>,
    pub(super) redacted: bool,
}

/// A stash's file name: the tool call's id, when it is a plain one.
fn stash_name(input: &HookInput) -> Result<String, String> {
    let id = input
        .tool_use_id
        .as_deref()
        .ok_or("the input has no tool_use_id")?;
    if id.is_empty()
        || id.len() > 200
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!("tool_use_id {id:?} is not a plain id"));
    }
    Ok(format!("{id}.json"))
}

/// Keeps the file's before image until PostToolUse, keyed by the tool call's id: redacted,
/// as the journal entry it becomes keeps it, and private to the user.
pub(super) fn stash(
    folder: &ClaudeFolder,
    input: &HookInput,
    image: &HookImage,
) -> Result<(), String> {
    let dir = state_dir(folder)?.join(STASH_DIR);
    create_private_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    drop_old_stashes(&dir);
    let before = image.before.as_deref().map(redact);
    let stash = Stash {
        file: image.file.clone(),
        redacted: matches!(before, Some(Cow::Owned(_))),
        before: before.map(Cow::into_owned),
    };
    let bytes = serde_json::to_vec(&stash).map_err(|e| e.to_string())?;
    atomic_replace_private(&dir.join(stash_name(input)?), &bytes, &IoHooks::default())
        .map_err(|e| e.to_string())
}

/// The before image PreToolUse kept for this call, removed; `None` when there is none.
pub(super) fn take_stash(
    folder: &ClaudeFolder,
    input: &HookInput,
    file: &str,
) -> Result<Option<Stashed>, String> {
    let path = state_dir(folder)?.join(STASH_DIR).join(stash_name(input)?);
    let Some(bytes) = read_regular(
        &path,
        2 * crate::claude::fsread::MAX_FILE_BYTES,
        Links::Refuse,
    )
    .map_err(|e| e.to_string())?
    else {
        return Ok(None);
    };
    let _ = std::fs::remove_file(&path);
    let stash: Stash =
        serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((stash.file == file).then_some(Stashed {
        before: stash.before,
        redacted: stash.redacted,
    }))
}

fn drop_old_stashes(dir: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STASH_MAX_AGE);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
