//! `memwb demo`: the demo workspace shipped in `assets/demo`, embedded in the binary so that an
//! installed binary has it too, copied to a fresh temporary directory. It includes two pending
//! proposals in `.memwb/proposals` (one ready, one stale).

use std::path::PathBuf;

use super::TuiError;

// The demo is a workspace as it is shipped: each file by its path inside the workspace, so
// that copying it back asks nothing of the format its memory folder is.
macro_rules! asset {
    ($name:literal) => {
        (
            concat!(".memory/", $name),
            include_bytes!(concat!("../../assets/demo/.memory/", $name)).as_slice(),
        )
    };
}

/// Every file of the demo workspace, by its path inside it.
pub static FILES: &[(&str, &[u8])] = &include!("../../assets/demo/files.in");

/// Copies the demo workspace into a new temporary directory (kept after exit) and returns it.
pub fn create() -> Result<PathBuf, TuiError> {
    let failed = |op, path: &std::path::Path| {
        let path = path.to_owned();
        move |error| TuiError::Demo { op, path, error }
    };
    let dir = tempfile::Builder::new()
        .prefix("memwb-demo-")
        .tempdir()
        .map_err(failed("create a directory in", &std::env::temp_dir()))?
        .keep();
    for (name, bytes) in FILES {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(failed("create", parent))?;
        }
        std::fs::write(&path, bytes).map_err(failed("write", &path))?;
    }
    Ok(dir)
}

/// Whether the demo copy at `dir` holds exactly what [`create`] put there: nothing was
/// changed, journaled or added, so removing it loses nothing.
pub fn is_unchanged(dir: &std::path::Path) -> bool {
    let mut seen = 0;
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let Ok(entry) = entry else {
            return false;
        };
        if entry.file_type().is_dir() {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(dir) else {
            return false;
        };
        let shipped = FILES
            .iter()
            .find(|(name, _)| std::path::Path::new(name) == relative);
        match (shipped, std::fs::read(entry.path())) {
            (Some((_, bytes)), Ok(now)) if now == *bytes => seen += 1,
            _ => return false,
        }
    }
    seen == FILES.len()
}

#[cfg(test)]
mod tests {
    use super::{FILES, create, is_unchanged};

    #[test]
    fn the_demo_copy_is_unchanged_until_a_file_in_it_changes() {
        let dir = create().expect("demo");
        assert!(is_unchanged(&dir));
        let (name, _) = FILES[0];
        std::fs::write(dir.join(name), "edited").expect("edit");
        assert!(!is_unchanged(&dir));
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
