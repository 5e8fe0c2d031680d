//! Rebasing a stale proposal on a Claude Code folder (written once, `review::proposal::rebase`):
//! the same proposal (same id) re-planned against the files as they are now, under the
//! folder's lock. Each before image becomes the file's current text; a file the
//! proposal removes that is already gone leaves it. A dedupe draft nobody edited is recomputed
//! from the current files; an edited draft, an imported or a model proposal keeps its after
//! images. A rebase that cannot hold (a memory it creates exists now, one it edits is gone,
//! a dedupe group with one file left, nothing left to change) is refused in the words every
//! format uses (`review::proposal::name_taken`, …) and the proposal left as it was.

use jiff::Timestamp;

use super::image_rules;
use super::observer::journal_of;
use super::proposals::{current_text, recover, state};
use super::propose::{TopicText, merged};
use crate::claude::edit::stamp_modified;
use crate::claude::frontmatter;
use crate::claude::write::FileImage;
use crate::claude::{ClaudeFolder, ClaudeState};
use crate::review::error::ReviewError;
use crate::review::proposal::images::{self, Change, change};
use crate::review::proposal::{
    self, ALREADY_APPLIED, DRAFT_EDIT_KEPT, DRAFT_RECOMPUTED, NOTHING_TO_MERGE, Proposal, Rebased,
    Replanning, State, name_taken, plan_invalid, refused, removed, rewrite_in,
};
use crate::review::state::StateDir;

/// Re-plans the stale pending proposal `id` against the folder as it is now
/// (`review::proposal::rebase`).
pub fn rebase(folder: &ClaudeFolder, id: &str) -> Result<Rebased, ReviewError> {
    recover(folder)?;
    let _lock = ClaudeState::for_folder(folder)?.lock()?;
    let state_dir = journal_of(folder)?.create_state()?;
    let proposal = proposal::load_in(&state_dir, id)?;
    proposal::pending(&proposal)?;
    proposal::rebase(&Files { folder, state_dir }, &proposal)
}

/// The folder, under its lock, re-planned against by [`rebase`].
struct Files<'a> {
    folder: &'a ClaudeFolder,
    state_dir: StateDir,
}

impl Replanning for Files<'_> {
    fn state(&self, proposal: &Proposal) -> State {
        state(self.folder, proposal)
    }

    fn replan(
        &self,
        proposal: &Proposal,
        changes: &mut Vec<String>,
    ) -> Result<Proposal, ReviewError> {
        let folder = self.folder;
        let refuse = |rule: String| refused(&proposal.id, &rule);
        // A file that does not read is named by the memory the proposal saw in it, as its
        // stale reason names it (`State::cannot_be_read`).
        let name_of = |file: &str| {
            proposal
                .files
                .iter()
                .find(|image| image.file == file)
                .map_or_else(|| images::topic_name(file, ""), images::image_name)
        };
        let now_of = |file: &str| {
            current_text(folder, file).map_err(|_| refuse(State::cannot_be_read(&name_of(file))))
        };
        let files = match redraft_of(proposal) {
            Some(members) => {
                let mut now = Vec::new();
                for file in members {
                    match now_of(&file)? {
                        Some(text) => now.push(TopicText::parse(&file, &text)),
                        None => changes.push(format!("{file} left the group: it is gone")),
                    }
                }
                if now.len() < 2 {
                    return Err(refuse(NOTHING_TO_MERGE.into()));
                }
                changes.push(DRAFT_RECOMPUTED.into());
                let members: Vec<&TopicText> = now.iter().collect();
                merged(&members, Timestamp::now())?
            }
            None => {
                if proposal.origin.source == "dedupe" {
                    changes.push(DRAFT_EDIT_KEPT.into());
                }
                let mut files = Vec::new();
                for image in &proposal.files {
                    let now = now_of(&image.file)?;
                    match (change(image), now) {
                        (Change::Create, Some(_)) => {
                            return Err(refuse(name_taken(&images::image_name(image))));
                        }
                        (Change::Delete, None) => {
                            changes.push(format!("{} left the proposal: it is gone", image.file))
                        }
                        (Change::Edit, None) => {
                            return Err(refuse(removed(&[images::image_name(image)])));
                        }
                        (_, before) => {
                            if !same_but_stamp(before.as_deref(), image.after.as_deref()) {
                                files.push(FileImage {
                                    file: image.file.clone(),
                                    before,
                                    after: image.after.clone(),
                                });
                            }
                        }
                    }
                }
                files
            }
        };
        if files.is_empty() {
            return Err(refuse(ALREADY_APPLIED.into()));
        }
        let mut rebased = proposal.clone();
        rebased.files = images::redacted(files);
        rebased.kind = images::kind_of(&rebased.files);
        if let Some(rule) = image_rules::stored_rule(&rebased.files) {
            return Err(refuse(plan_invalid(&rule)));
        }
        Ok(rebased)
    }

    fn rewrite(&self, proposal: &Proposal) -> Result<(), ReviewError> {
        rewrite_in(&self.state_dir, proposal)
    }
}

/// The member files of a dedupe proposal whose draft nobody edited (its after images are
/// still what merging its before images gives), first the one merged into; `None` for any
/// other proposal.
fn redraft_of(proposal: &Proposal) -> Option<Vec<String>> {
    if proposal.origin.source != "dedupe" {
        return None;
    }
    let members: Vec<TopicText> = proposal
        .files
        .iter()
        .filter_map(|f| Some(TopicText::parse(&f.file, f.before.as_deref()?)))
        .collect();
    if members.len() < 2 {
        return None;
    }
    let refs: Vec<&TopicText> = members.iter().collect();
    let drafted = merged(&refs, Timestamp::now()).ok()?;
    let same = drafted.len() == proposal.files.len()
        && drafted.iter().zip(&proposal.files).all(|(draft, filed)| {
            draft.file == filed.file
                && draft.after.as_deref().map(memory_fields)
                    == filed.after.as_deref().map(memory_fields)
        });
    same.then(|| members.into_iter().map(|m| m.topic.file).collect())
}

/// Whether two texts of a file are the same but for their `modified` stamp (a `.memory` set
/// compares records, which have none): an image whose file already holds what it would write
/// leaves the proposal.
fn same_but_stamp(before: Option<&str>, after: Option<&str>) -> bool {
    let unstamped = |text: &str| stamp_modified(text, Timestamp::UNIX_EPOCH).ok().flatten();
    match (before, after) {
        (Some(before), Some(after)) if before != after => {
            unstamped(before).is_some_and(|before| Some(before) == unstamped(after))
        }
        (before, after) => before == after,
    }
}

/// What a person reads of a topic file: name, type, description and body (not `modified`,
/// which a draft made later stamps differently).
fn memory_fields(text: &str) -> [Option<String>; 4] {
    let parsed = frontmatter::parse(text);
    let field = |key| parsed.field(key).map(str::to_owned);
    [
        field("name"),
        parsed.kind().map(str::to_owned),
        field("description"),
        Some(parsed.body.clone()),
    ]
}
