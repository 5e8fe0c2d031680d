//! `copy --from` on a Claude Code folder: its topic files that read, with their exact text,
//! and a copy into it filed as new topic files.

use jiff::Timestamp;

use crate::claude::ClaudeFolder;
use crate::claude::copy::{Source, into_claude};
use crate::formats::claude::journal::{self as review, NewFiles, propose};
use crate::formats::copy::CopyRead;
use crate::formats::{Copied, CopySources, FormatError};
use crate::review::proposal::{Origin, images};

pub(super) fn copy_sources(folder: &ClaudeFolder) -> CopySources {
    CopySources::new(propose::read(folder))
}

/// A copy takes the topic files that read, each with its exact text.
impl CopyRead for propose::Read {
    fn sources(&self) -> Vec<Source<'_>> {
        propose::Read::sources(self)
    }
}

/// The sources as new topic files beside the folder's, stamped now, proposed as one change.
pub(super) fn propose_copy(
    folder: &ClaudeFolder,
    sources: &CopySources,
    from: &str,
) -> Result<Copied, FormatError> {
    let snapshot = folder.read();
    let out = into_claude(&sources.sources(), &snapshot, Timestamp::now());
    if out.files.is_empty() {
        return Ok(Copied {
            id: None,
            refused: out.refused,
        });
    }
    let new = NewFiles {
        kind: images::kind_of(&out.files),
        files: out.files,
        origin: Origin::new("copy"),
        evidence: Some(format!("copied from {from}")),
    };
    let id = review::file_proposal(folder, new)?.id;
    Ok(Copied {
        id: Some(id),
        refused: out.refused,
    })
}
