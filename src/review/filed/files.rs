//! Proposal files on disk: one `<id>.json` each in the `proposals` folder of a state directory
//! (`.memory/.memwb` for a `.memory` set, the folder's own state directory for a Claude Code
//! folder), read through its checked descriptors (never through a link, never blocking, capped).
//! The `*_in` functions work on a state directory at hand; the others on the one a journal's
//! home keeps (a `.memory` set's `.memwb`, a Claude Code folder's state directory).

use crate::review::error::ReviewError;
use crate::review::state::{JournalHome, StateDir};

use super::{MAX_PROPOSAL_BYTES, PROPOSALS_DIR, Proposal, ProposalStatus};

/// `home`'s `proposals` folder, if it exists (never through a link).
fn open_dir(home: &dyn JournalHome) -> Result<Option<StateDir>, ReviewError> {
    match home.open_state()? {
        Some(state) => state.subdir(PROPOSALS_DIR),
        None => Ok(None),
    }
}

/// `<state>/proposals`, if it exists.
fn proposals_of(state: Option<&StateDir>) -> Result<Option<StateDir>, ReviewError> {
    match state {
        Some(state) => state.subdir(PROPOSALS_DIR),
        None => Ok(None),
    }
}

pub(super) fn file_name(id: &str) -> Result<String, ReviewError> {
    if id.is_empty()
        || !id
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return Err(ReviewError::ProposalNotFound { id: id.to_owned() });
    }
    Ok(format!("{id}.json"))
}

/// The proposal `id` filed in `home`.
pub fn load(home: &dyn JournalHome, id: &str) -> Result<Proposal, ReviewError> {
    load_from(open_dir(home)?, id)
}

/// The proposal `id` in the state directory `state`.
pub fn load_in(state: &StateDir, id: &str) -> Result<Proposal, ReviewError> {
    load_from(proposals_of(Some(state))?, id)
}

fn load_from(dir: Option<StateDir>, id: &str) -> Result<Proposal, ReviewError> {
    let dir = dir.ok_or_else(|| ReviewError::ProposalNotFound { id: id.to_owned() })?;
    load_file(&dir, id)
}

fn load_file(dir: &StateDir, id: &str) -> Result<Proposal, ReviewError> {
    let name = file_name(id)?;
    let not_found = || ReviewError::ProposalNotFound { id: id.to_owned() };
    let bytes = dir.read(&name, MAX_PROPOSAL_BYTES)?.ok_or_else(not_found)?;
    let path = dir.file_path(&name);
    let invalid = |rule: String| ReviewError::DataInvalid {
        what: "proposal",
        path: path.clone(),
        rule,
    };
    let proposal: Proposal = serde_json::from_slice(&bytes).map_err(|e| invalid(e.to_string()))?;
    // The id is shown everywhere: only the one the file name vouches for (lowercase hex) counts.
    if proposal.id != id {
        return Err(invalid("its id does not match its file name".into()));
    }
    Ok(proposal)
}

/// A proposal file that cannot be read, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrupt {
    pub file: String,
    pub error: String,
}

/// Every proposal, oldest first, and every proposal file that does not read.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    pub proposals: Vec<Proposal>,
    pub corrupt: Vec<Corrupt>,
}

/// Every `.json` file in the proposals folder, read. Leftover temp files are not proposals.
pub fn list_all(home: &dyn JournalHome) -> Result<Listing, ReviewError> {
    list_from(open_dir(home)?)
}

/// [`list_all`] in the state directory `state` (none: nothing filed yet).
pub fn list_all_in(state: Option<&StateDir>) -> Result<Listing, ReviewError> {
    list_from(proposals_of(state)?)
}

fn list_from(dir: Option<StateDir>) -> Result<Listing, ReviewError> {
    let mut listing = Listing::default();
    let Some(dir) = dir else {
        return Ok(listing);
    };
    for name in dir.names()? {
        let Some(id) = name.strip_suffix(".json") else {
            continue;
        };
        match load_file(&dir, id) {
            Ok(p) => listing.proposals.push(p),
            Err(e) => listing.corrupt.push(Corrupt {
                file: name.clone(),
                error: e.to_string(),
            }),
        }
    }
    listing
        .proposals
        .sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(listing)
}

/// Every proposal that reads, oldest first; the others are skipped with a log line (see
/// [`list_all`] for them).
pub fn list(home: &dyn JournalHome) -> Result<Vec<Proposal>, ReviewError> {
    let listing = list_all(home)?;
    for corrupt in &listing.corrupt {
        tracing::warn!(file = %corrupt.file, error = %corrupt.error, "skipping an unreadable proposal");
    }
    Ok(listing.proposals)
}

pub(super) fn encode(proposal: &Proposal) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(proposal).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

pub(crate) fn rewrite(home: &dyn JournalHome, proposal: &Proposal) -> Result<(), ReviewError> {
    rewrite_at(open_dir(home)?, proposal)
}

pub(crate) fn rewrite_in(state: &StateDir, proposal: &Proposal) -> Result<(), ReviewError> {
    rewrite_at(proposals_of(Some(state))?, proposal)
}

fn rewrite_at(dir: Option<StateDir>, proposal: &Proposal) -> Result<(), ReviewError> {
    let dir = dir.ok_or_else(|| ReviewError::ProposalNotFound {
        id: proposal.id.clone(),
    })?;
    dir.replace(&file_name(&proposal.id)?, &encode(proposal))
}

/// Writes a new proposal into `state`'s proposals folder (created if needed), atomically and
/// exclusively: an id that exists is never overwritten.
pub(crate) fn create_in(state: &StateDir, proposal: &Proposal) -> Result<(), ReviewError> {
    let dir = state.create_subdir(PROPOSALS_DIR)?;
    dir.create_exclusive(&file_name(&proposal.id)?, &encode(proposal))
}

pub(crate) fn is_decided(home: &dyn JournalHome, id: &str) -> Result<bool, ReviewError> {
    Ok(load(home, id)?.status != ProposalStatus::Pending)
}

/// [`is_decided`] in the state directory `state`.
pub(crate) fn is_decided_in(state: &StateDir, id: &str) -> Result<bool, ReviewError> {
    Ok(load_in(state, id)?.status != ProposalStatus::Pending)
}
