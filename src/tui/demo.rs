//! `memwb demo`: the demo workspace shipped in `assets/demo`, embedded in the binary so that an
//! installed binary has it too, copied to a fresh temporary directory. It includes two pending
//! proposals in `.memwb/proposals` (one ready, one stale).

use std::path::PathBuf;

use anyhow::Context;

macro_rules! asset {
    ($name:literal) => {
        (
            $name,
            include_bytes!(concat!("../../assets/demo/.memory/", $name)).as_slice(),
        )
    };
}

/// Every file of the demo's `.memory`, by name.
pub static FILES: &[(&str, &[u8])] = &include!("../../assets/demo/files.in");

/// Copies the demo workspace into a new temporary directory (kept after exit) and returns it.
pub fn create() -> anyhow::Result<PathBuf> {
    let dir = tempfile::Builder::new()
        .prefix("memwb-demo-")
        .tempdir()
        .context("cannot create a temporary directory for the demo")?
        .keep();
    let root = dir.join(crate::store::MEMORY_DIR);
    std::fs::create_dir(&root).with_context(|| format!("cannot create {}", root.display()))?;
    for (name, bytes) in FILES {
        let path = root.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(dir)
}
