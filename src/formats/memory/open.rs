//! How the `.memory` contract is registered (`REGISTERED`, listed in
//! src/formats/registry.rs): a folder is the contract's when its `manifest.json` reads as the
//! contract's manifest, it opens as the workspace's [`Store`], and the store is the engine an
//! [`Open`] holds.

use std::path::{Path, PathBuf};

use super::{FORMAT, MemoryBackend, discover};
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::formats::open::InWorkspace;
use crate::formats::{Backend, Engine, FormatError, Open, OpenOptions, Recognized, Registered};
use crate::locks::WaitNotice;
use crate::store::{MEMORY_DIR, Store, manifest};

/// The `.memory` contract, as the registration lists it.
pub(crate) const REGISTERED: Registered = Registered {
    format: FORMAT,
    recognize,
    open,
    #[cfg(any(feature = "cli", feature = "tui"))]
    agent_config: || None,
    known: discover::known,
    look: discover::look,
    in_workspace,
    holds_memories: |_| true,
    inside_workspace: Some(MEMORY_DIR),
};

/// What a folder's `manifest.json` says of it.
pub(super) enum ManifestSign {
    /// There is none.
    Absent,
    /// It reads as the contract's manifest.
    Contract,
    /// It is another tool's (or does not read): neither format may write there.
    Foreign { manifest: PathBuf, rule: String },
}

/// Reads `dir/manifest.json` (one file; writes nothing).
pub(super) fn manifest_sign(dir: &Path) -> ManifestSign {
    let path = dir.join(manifest::MANIFEST_FILE);
    let foreign = |rule: String| ManifestSign::Foreign {
        manifest: path.clone(),
        rule,
    };
    match read_regular(&path, MAX_FILE_BYTES) {
        Ok(None) => ManifestSign::Absent,
        Ok(Some(bytes)) => match manifest::parse_lenient(&bytes) {
            Ok(_) => ManifestSign::Contract,
            Err(e) => foreign(e.to_string()),
        },
        Err(e) => foreign(e.to_string()),
    }
}

/// A folder whose `manifest.json` reads as the contract's manifest; one of another schema is
/// refused (neither format may write there).
fn recognize(dir: &Path) -> Recognized {
    match manifest_sign(dir) {
        ManifestSign::Contract => Recognized::Yes,
        ManifestSign::Absent => Recognized::No,
        ManifestSign::Foreign { manifest, rule } => Recognized::Refused(format!(
            "{} is not a .memory manifest ({rule}), so {} is neither the .memory contract nor Claude Code auto memory; nothing was read or written (--format forces one)",
            manifest.display(),
            dir.display()
        )),
    }
}

/// Opens the set in `dir`, which must be a workspace's `.memory` (the store opens the
/// workspace above it).
fn open(dir: &Path, options: &OpenOptions) -> Result<Open, FormatError> {
    let real = std::fs::canonicalize(dir)
        .map_err(|e| FormatError::io(format!("resolve workspace {}", dir.display()), e))?;
    let workspace = match real.file_name() {
        Some(name) if name == MEMORY_DIR => real.parent().map(Path::to_owned),
        _ => None,
    };
    let workspace = workspace.ok_or_else(|| {
        FormatError::refused(format!(
            "{} holds a .memory manifest but is not named .memory; open its workspace with -C instead",
            dir.display()
        ))
    })?;
    Ok(Open::from(Store::open(workspace, options.store.clone())?))
}

/// The workspace's `.memory`, which the store starts on its first write when it is not there.
fn in_workspace(workspace: &Path, options: &OpenOptions) -> Result<InWorkspace, FormatError> {
    let store = Store::open(workspace, options.store.clone())?;
    Ok(if store.root().exists() {
        InWorkspace::Found {
            open: Open::from(store),
            notes: Vec::new(),
        }
    } else {
        InWorkspace::Startable(Open::from(store))
    })
}

impl From<Store> for Open {
    fn from(store: Store) -> Self {
        Open::new(store)
    }
}

impl Engine for Store {
    fn backend(&self) -> Box<dyn Backend + '_> {
        Box::new(MemoryBackend::new(self))
    }

    fn root(&self) -> &Path {
        Store::root(self)
    }

    fn reopen(&self) -> Open {
        Open::new(self.clone())
    }

    fn with_lock_notice(self: Box<Self>, notice: Option<WaitNotice>) -> Open {
        Open::new(Store::with_lock_notice(&self, notice))
    }

    fn lock_label(&self) -> String {
        MEMORY_DIR.to_owned()
    }
}
