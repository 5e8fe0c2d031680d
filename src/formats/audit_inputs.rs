//! What a backend gives the content audit (`memwb check`, the workbench's Findings view): the
//! folder's own findings and memwb's state about it, the memories, the files that are no
//! memory, where a person's acceptances are kept and the roots the audit resolves paths
//! against. `content` then checks every format once over these.

use std::path::PathBuf;

use crate::finding::Finding;
use crate::memory::Memory;
use crate::review::ReviewError;

/// One folder as the content audit reads it ([`super::Backend::audit_inputs`]).
#[derive(Debug)]
pub struct AuditInputs {
    /// The workspace the folder belongs to, as `check` names it (the folder itself when the
    /// format has none).
    pub workspace: String,
    pub records: usize,
    /// The format's own audit and memwb's state about the folder.
    pub folder_findings: Vec<Finding>,
    /// What the content audit reads, in the folder's order (only those that read).
    pub memories: Vec<Memory>,
    /// The files that are no memory but may hold a credential: each file's name and text.
    pub other_files: Vec<(String, String)>,
    /// The directory where a person's acceptances of findings are kept (read, never created).
    pub state_dir: Result<PathBuf, ReviewError>,
    /// The project the memories' relative paths mean, unless the caller names one.
    pub project: Option<PathBuf>,
    /// The folder's own roots, when it has them (a Claude Code folder: itself, and this
    /// machine's home when the folder is this machine's); `None` keeps the caller's.
    pub roots: Option<FolderRoots>,
}

/// Where a folder's memories' mentions of paths resolve besides its project.
#[derive(Debug, Clone)]
pub struct FolderRoots {
    /// A mention of a sibling memory file resolves here.
    pub memory_folder: PathBuf,
    /// Absolute and `~` paths inside it are checked too.
    pub machine_home: Option<PathBuf>,
}
