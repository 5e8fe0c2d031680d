//! Where a workspace's Claude Code auto memory is, as the command line finds it when no
//! folder is named, and whether a folder holds anything of this format at all.

use std::io::Read;
use std::path::Path;

use super::super::open::InWorkspace;
use super::super::{FormatError, OpenOptions};
use crate::claude::index::INDEX_FILE;
use crate::claude::locate::{Source, locate, process_env};

/// The workspace's auto memory folder as Claude Code finds it (its settings, then
/// `CLAUDE_CONFIG_DIR` or `~/.claude`), opened when it is there; when it is not, why, in
/// words that say where it was looked for and how to point memwb at it.
pub(crate) fn in_workspace(
    workspace: &Path,
    options: &OpenOptions,
) -> Result<InWorkspace, FormatError> {
    let workspace = match std::fs::canonicalize(workspace) {
        Ok(workspace) => workspace,
        Err(e) => {
            let what = format!("resolve workspace {}", workspace.display());
            return Ok(InWorkspace::Missing(FormatError::io(what, e)));
        }
    };
    let location = match locate(&workspace, &process_env) {
        Ok(location) => location,
        Err(e) => return Ok(InWorkspace::Missing(e.into())),
    };
    if !location.folder.is_dir() {
        let ignored: String = location
            .ignored
            .iter()
            .map(|why| format!("; {why}"))
            .collect();
        let config = match std::env::var_os("CLAUDE_CONFIG_DIR") {
            Some(dir) => format!("CLAUDE_CONFIG_DIR is {}", Path::new(&dir).display()),
            None => "CLAUDE_CONFIG_DIR is not set, so ~/.claude was assumed".to_owned(),
        };
        let setting = match &location.source {
            Source::Default => String::new(),
            Source::Setting(file) => format!(" (autoMemoryDirectory in {})", file.display()),
        };
        return Ok(InWorkspace::Missing(FormatError::refused(format!(
            "no Claude Code auto memory for {}: looked for {}{setting}{ignored} ({config}); set CLAUDE_CONFIG_DIR to the folder Claude Code keeps its settings and projects in, or open a memory folder itself with --memory-dir PATH",
            location.project.display(),
            location.folder.display(),
        ))));
    }
    let notes = location
        .disabled
        .iter()
        .map(|why| format!("Claude Code does not use auto memory here: {why}"))
        .collect();
    Ok(InWorkspace::Found {
        open: super::open::open(&location.folder, options)?,
        notes,
    })
}

/// MEMORY.md, or a Markdown file opening with a frontmatter fence: a project root, an empty
/// folder, `/` or `$HOME` holds neither, and would otherwise audit clean and let `add` write
/// a MEMORY.md into it.
pub(crate) fn holds_memories(dir: &Path) -> bool {
    const ENTRIES_LOOKED_AT: usize = 10_000;
    if dir.join(INDEX_FILE).exists() {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries
        .take(ENTRIES_LOOKED_AT)
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "md"))
        .any(|entry| {
            let mut start = [0u8; 4];
            std::fs::File::open(entry.path())
                .and_then(|mut file| file.read_exact(&mut start))
                .is_ok_and(|()| start.starts_with(b"---\n") || start == *b"---\r")
        })
}
