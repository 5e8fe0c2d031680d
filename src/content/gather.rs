//! What a folder gives the check (`report::check`, written once), whatever its format: the
//! backend's audit inputs ([`crate::formats::Backend::audit_inputs`]) with the secrets in its
//! other files found, its acceptances read and the audit's roots settled.

use super::accept::Acceptances;
use super::{AuditContext, AuditFinding, Memory, other_file_secrets};
use crate::finding::Finding;
use crate::formats::{Backend, Format};
use crate::review::error::ReviewError;

/// One folder as the check reads it, whatever its format.
pub(crate) struct Gathered<'a> {
    pub(crate) format: Format,
    pub(crate) workspace: String,
    pub(crate) folder: String,
    pub(crate) records: usize,
    /// The format's own audit and memwb's state about the folder.
    pub(crate) folder_findings: Vec<Finding>,
    /// What the content audit reads, in the folder's order.
    pub(crate) memories: Vec<Memory>,
    /// Credentials in the files that are no memory.
    pub(crate) other_secrets: Vec<AuditFinding>,
    pub(crate) acceptances: Result<Acceptances, ReviewError>,
    pub(crate) context: AuditContext<'a>,
}

/// The folder `backend` reads, for the check in `context`: the project is the caller's, else
/// the one the folder names; the memory folder and home are the folder's own when it has
/// them, else the caller's.
pub(crate) fn gather<'a>(backend: &dyn Backend, context: &'a AuditContext<'a>) -> Gathered<'a> {
    let inputs = backend.audit_inputs();
    let project = context.project_root.clone().or(inputs.project);
    let (memory_folder, machine_home) = match inputs.roots {
        Some(roots) => (Some(roots.memory_folder), roots.machine_home),
        None => (context.memory_folder.clone(), context.machine_home.clone()),
    };
    Gathered {
        format: backend.format(),
        workspace: inputs.workspace,
        folder: backend.root().display().to_string(),
        records: inputs.records,
        folder_findings: inputs.folder_findings,
        memories: inputs.memories,
        other_secrets: inputs
            .other_files
            .into_iter()
            .flat_map(|(file, text)| other_file_secrets(&file, text))
            .collect(),
        acceptances: inputs.state_dir.and_then(|dir| Acceptances::load(&dir)),
        context: context.for_folder(project, memory_folder, machine_home),
    }
}
