//! `stale-path`: a file a memory mentions that is no longer where the mention says.
//!
//! A mention is a backtick span or a bare word that is path-shaped ([`shape`]). A relative
//! mention is looked up in the memory folder (a link to a sibling memory), under the project
//! root, and under the project's sub-projects (a monorepo's `packages/app/` holding
//! `src/x.rs`); it is stale only when none holds it, and the finding names the root it was
//! resolved against. Absolute and `~` paths are checked only when the folder is this
//! machine's (Claude Code's config here), and only inside the home directory: `/etc/...` may
//! well be a server's.

mod shape;

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use super::fix::Fix;
use super::{AuditContext, AuditFinding, Memory, finding, line_at};
use crate::finding::Severity;

use shape::{Mention, mentions};

/// Folders of installed dependencies and build output: never sub-projects, and a path into
/// one is not judged (it exists once the project is installed or built).
const GENERATED: [&str; 15] = [
    "node_modules",
    ".venv",
    ".next",
    ".cache",
    ".tox",
    ".gradle",
    ".turbo",
    "target",
    "vendor",
    "dist",
    "build",
    "out",
    "coverage",
    "venv",
    "__pycache__",
];
/// At most this many sub-project roots are tried, so a huge tree costs a bounded time.
const MAX_SUBPROJECTS: usize = 256;

/// Where mentioned paths are looked up, built once per audit.
pub(crate) struct Roots {
    project: Option<PathBuf>,
    subprojects: Vec<PathBuf>,
    memory_folder: Option<PathBuf>,
    home: Option<PathBuf>,
}

impl Roots {
    pub(crate) fn new(context: &AuditContext<'_>) -> Self {
        let subprojects = context
            .project_root
            .as_deref()
            .map(subprojects)
            .unwrap_or_default();
        Self {
            project: context.project_root.clone(),
            subprojects,
            memory_folder: context.memory_folder.clone(),
            home: context.machine_home.clone(),
        }
    }

    /// Whether any path can be judged: without a project root, a relative mention may be
    /// anyone's, and without this machine's home an absolute one may be another machine's.
    pub(crate) fn can_judge(&self) -> bool {
        self.project.is_some() || self.home.is_some()
    }

    /// Every mentioned path that exists under none of the roots, once per path per memory.
    pub(crate) fn stale_paths(&self, memory: &Memory) -> Vec<AuditFinding> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (text, first_line) in memory.texts() {
            for (offset, mention) in mentions(text) {
                if !seen.insert(mention.path().to_owned()) {
                    continue;
                }
                let Some(verdict) = self.judge(memory, &mention) else {
                    continue;
                };
                let line = line_at(text, offset, first_line);
                out.push(finding(
                    memory,
                    "stale-path",
                    Severity::Warning,
                    line,
                    format!("mentions {}, which {verdict}", mention.path()),
                    Some(Fix::OpenInEditor),
                ));
            }
        }
        out
    }

    /// `None` when the mention exists or cannot be judged, else what was looked at.
    fn judge(&self, memory: &Memory, mention: &Mention) -> Option<String> {
        match mention {
            Mention::Relative(path) => self.judge_relative(memory, path),
            Mention::Home(rest) => {
                let home = self.home.as_deref()?;
                (!exists_below(home, rest)).then(|| "does not exist in the home directory".into())
            }
            Mention::Absolute(path) => {
                let home = self.home.as_deref()?;
                let inside = Path::new(path).strip_prefix(home).ok()?;
                (!exists_below(home, &inside.to_string_lossy()))
                    .then(|| "does not exist on this machine".into())
            }
        }
    }

    fn judge_relative(&self, memory: &Memory, path: &str) -> Option<String> {
        if let Some(folder) = &self.memory_folder {
            // A link between memories: from the linking file's folder, or the folder's top.
            let own = Path::new(&memory.file)
                .parent()
                .map_or_else(|| folder.clone(), |dir| folder.join(dir));
            if exists_below(&own, path) || exists_below(folder, path) {
                return None;
            }
        }
        let root = self.project.as_deref()?;
        if climbs_out(path) {
            return None;
        }
        let (top, leaf) = match path.trim_start_matches("./").split_once('/') {
            Some((top, _)) => (top, false),
            None => (path, true),
        };
        if GENERATED.contains(&top) {
            // `.venv/`, `.next/`, `node_modules/`, `target/`: made by a tool, not kept.
            return None;
        }
        // A folder mention (`src/store`) whose top folder is nowhere in the project is most
        // likely not a project path at all (`org/repo`, `origin/main`).
        if !has_extension(path) && !leaf && !self.anywhere(top) {
            return None;
        }
        if exists_below(root, path) || self.subprojects.iter().any(|s| exists_below(s, path)) {
            return None;
        }
        // A `.memory` set's root is its own workspace; a Claude Code folder's is found from its
        // slug or the command line, so the finding says which directory it was.
        Some(match self.memory_folder {
            Some(_) => format!(
                "does not exist under the project root {} or in the memory folder",
                root.display()
            ),
            None => "does not exist under the project root".into(),
        })
    }

    fn anywhere(&self, top: &str) -> bool {
        self.project
            .iter()
            .chain(&self.subprojects)
            .chain(&self.memory_folder)
            .any(|root| exists_below(root, top))
    }
}

/// Folders one and two levels under `root` (not hidden, not build output): where a
/// sub-project's own relative paths start.
fn subprojects(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut level = vec![root.to_owned()];
    for _ in 0..2 {
        let mut next = Vec::new();
        for dir in &level {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut children: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    !name.starts_with('.') && !GENERATED.contains(&name.as_ref())
                })
                .map(|e| e.path())
                .collect();
            children.sort();
            next.extend(children);
        }
        out.extend(next.iter().cloned());
        level = next;
        if out.len() >= MAX_SUBPROJECTS {
            out.truncate(MAX_SUBPROJECTS);
            break;
        }
    }
    out
}

pub(crate) fn has_extension(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or_default();
    last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && ext.bytes().all(|b| b.is_ascii_alphanumeric())
            && ext.bytes().any(|b| b.is_ascii_alphabetic())
    })
}

/// A path that climbs out of the folder it is resolved against.
fn climbs_out(path: &str) -> bool {
    let mut depth: usize = 0;
    for component in Path::new(path).components() {
        match component {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir if depth > 0 => depth -= 1,
            _ => return true,
        }
    }
    false
}

fn exists_below(root: &Path, path: &str) -> bool {
    !climbs_out(path) && root.join(path).symlink_metadata().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory(file: &str, body: &str) -> Memory {
        Memory {
            name: "m".into(),
            name_from_file: false,
            extra: None,
            position: None,
            unreadable: None,
            kind: None,
            description: Some(String::new()),
            body: body.into(),
            file: file.into(),
            description_line: None,
            body_line: 1,
            modified: None,
            journaled: None,
            frontmatter: None,
        }
    }

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        for file in files {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "x").expect("write");
        }
        dir
    }

    fn stale(roots: &Roots, file: &str, body: &str) -> Vec<String> {
        roots
            .stale_paths(&memory(file, body))
            .into_iter()
            .map(|f| f.finding.message)
            .collect()
    }

    #[test]
    fn sibling_memories_and_subprojects_resolve_and_the_root_is_named() {
        let project = tree(&["packages/app/src/main.rs", "docs/a.md", "src/lib.rs"]);
        let memory_folder = tree(&["feedback_testing.md", "notes/b.md"]);
        let roots = Roots {
            project: Some(project.path().to_owned()),
            subprojects: subprojects(project.path()),
            memory_folder: Some(memory_folder.path().to_owned()),
            home: None,
        };
        let body = "See [t](./feedback_testing.md), [b](../notes/b.md), `src/main.rs`, docs/a.md, \
                    `src/gone.rs` and `anthropics/claude-code`, `src/old_module`, \
                    `node_modules/react/index.js`, `.venv/bin/python3.12`, `target/debug/app.d`.";
        let found = stale(&roots, "notes/b.md", body);
        let root = project.path().display().to_string();
        assert_eq!(
            found,
            [
                format!(
                    "mentions src/gone.rs, which does not exist under the project root {root} or in the memory folder"
                ),
                format!(
                    "mentions src/old_module, which does not exist under the project root {root} or in the memory folder"
                ),
            ]
        );
    }

    #[test]
    fn home_paths_are_checked_only_on_this_machine() {
        let home = tree(&["notes/here.md"]);
        let body = format!(
            "`~/notes/here.md`, `~/notes/gone.md`, {0}/notes/gone2.md, /etc/nowhere/x.conf",
            home.path().display()
        );
        let mut roots = Roots {
            project: None,
            subprojects: Vec::new(),
            memory_folder: None,
            home: Some(home.path().to_owned()),
        };
        let found = stale(&roots, "a.md", &body);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("~/notes/gone.md"), "{found:?}");
        assert!(found[1].contains("notes/gone2.md"), "{found:?}");
        roots.home = None;
        assert!(!roots.can_judge());
        assert!(stale(&roots, "a.md", &body).is_empty());
    }
}
