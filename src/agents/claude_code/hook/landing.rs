//! Where a path really lands: the file the kernel would open for it, links followed as a
//! write follows them. The gate judges this path, not the spelling the agent chose, so that a
//! link into a memory folder (`/tmp/alias/x.md`) and a link out of it (`memory/x.md` naming a
//! file elsewhere) are both seen for what they are.

use std::path::{Component, Path, PathBuf};

/// Links followed before giving up, as the kernel's own limit (`ELOOP`).
const MAX_LINKS: usize = 40;

/// A path as written and where it lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landing {
    /// The path with `.` and `..` resolved on the text only.
    pub written: PathBuf,
    /// Every link on the way followed (a missing tail kept as written).
    pub real: PathBuf,
    /// Whether a link was followed on the way (the real path differs in kind, not only text).
    pub through_link: bool,
}

/// Where the absolute `path` lands. `None` when it loops through links or is not absolute.
pub fn landing(path: &Path) -> Option<Landing> {
    if !path.is_absolute() {
        return None;
    }
    let mut links = 0;
    let real = resolve(path, &mut links)?;
    Some(Landing {
        written: crate::claude::locate::normalize(path),
        real,
        through_link: links > 0,
    })
}

/// Resolves `path` one component at a time: a link is replaced by its target (itself
/// resolved), `..` goes up from the real directory reached so far, and once a component is
/// missing the rest is taken as written (nothing below a missing directory can be a link).
fn resolve(path: &Path, links: &mut usize) -> Option<PathBuf> {
    let mut real = PathBuf::from("/");
    let mut missing = false;
    for component in path.components() {
        match component {
            Component::RootDir | Component::Prefix(_) => real = PathBuf::from("/"),
            Component::CurDir => {}
            Component::ParentDir => {
                real.pop();
            }
            Component::Normal(name) => {
                let next = real.join(name);
                if missing {
                    real = next;
                    continue;
                }
                match std::fs::symlink_metadata(&next) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        *links += 1;
                        if *links > MAX_LINKS {
                            return None;
                        }
                        let target = std::fs::read_link(&next).ok()?;
                        real = resolve(&real.join(target), links)?;
                    }
                    Ok(_) => real = next,
                    Err(_) => {
                        missing = true;
                        real = next;
                    }
                }
            }
        }
    }
    Some(real)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_on_the_way_and_at_the_end_are_followed_and_a_missing_tail_kept() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        let memory = root.join("memory");
        std::fs::create_dir(&memory).expect("mkdir");
        symlink(&memory, root.join("alias")).expect("link");
        symlink("../outside.md", memory.join("notes.md")).expect("link");
        symlink("loop", root.join("loop")).expect("link");

        let via_alias = landing(&root.join("alias/new/x.md")).expect("lands");
        assert_eq!(via_alias.real, memory.join("new/x.md"));
        assert!(via_alias.through_link);
        assert_eq!(via_alias.written, root.join("alias/new/x.md"));

        let out = landing(&memory.join("notes.md")).expect("lands");
        assert_eq!(out.real, root.join("outside.md"), "a dangling link too");

        let up = landing(&root.join("alias/../memory/./a.md")).expect("lands");
        assert_eq!(up.real, memory.join("a.md"));
        assert!(landing(&root.join("loop/x")).is_none());
        assert!(landing(Path::new("relative/x.md")).is_none());
        let plain = landing(&memory.join("plain.md")).expect("lands");
        assert!(!plain.through_link);
    }
}
