//! What the gate guards for one session: the memory folders Claude Code writes (the
//! project's auto memory, every subagent's memory, the folders in memwb's config), and the
//! files that configure the gate itself (Claude Code's settings at every level, memwb's
//! config and state). A path is judged by where it really lands ([`super::landing`]).

use std::path::{Path, PathBuf};

use super::landing::landing;
use super::{Concern, Guarded};
use crate::claude::locate::{Env, normalize, settings_files};

/// Where Claude Code reads managed (policy) settings: the whole directory, since
/// `managed-settings.json` has drop-in companions beside it.
const MANAGED_SETTINGS_DIRS: [&str; 2] = [
    "/etc/claude-code",
    "/Library/Application Support/ClaudeCode",
];

/// The folders under which each subdirectory is one subagent's memory (`memory: user`,
/// `project`, `local`).
fn agent_memory_roots(project: &Path, claude_config: &Path) -> [PathBuf; 3] {
    [
        claude_config.join("agent-memory"),
        project.join(".claude").join("agent-memory"),
        project.join(".claude").join("agent-memory-local"),
    ]
}

/// What the gate guards.
#[derive(Debug, Clone, Default)]
pub struct Gate {
    folders: Vec<Guarded>,
    agent_roots: Vec<Guarded>,
    protected: Vec<Guarded>,
}

/// Where one path lands, for the gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathVerdict {
    Unrelated,
    /// In `folder`, as `file` (relative, `/`-separated).
    In {
        folder: Guarded,
        file: String,
    },
    /// Spelled inside `folder`, landing outside it through a link.
    LinkOut {
        folder: Guarded,
        lands: PathBuf,
    },
    /// On or under `path`, which configures the gate.
    Protected {
        path: PathBuf,
    },
}

impl PathVerdict {
    /// The concern of a path that is not a plain file in a folder.
    pub fn concern(self) -> Concern {
        match self {
            PathVerdict::LinkOut { folder, lands } => Concern::LinkOut { folder, lands },
            PathVerdict::Protected { path } => Concern::Protected { path },
            PathVerdict::Unrelated | PathVerdict::In { .. } => Concern::None,
        }
    }
}

/// The places around a session that configure the gate: Claude Code's settings files (user,
/// project and local, for the project and the working directory; the managed directories),
/// memwb's config file and memwb's state directory.
pub fn gate_files(
    project: &Path,
    cwd: &Path,
    claude_config: Option<&Path>,
    env: Env,
) -> Vec<PathBuf> {
    let mut places: Vec<PathBuf> = MANAGED_SETTINGS_DIRS.iter().map(PathBuf::from).collect();
    for dir in [project, cwd] {
        places.push(dir.join(".claude").join("settings.json"));
        places.push(dir.join(".claude").join("settings.local.json"));
    }
    if let Some(config) = claude_config {
        // settings_files's last entry is the user's; its local twin is read by some versions.
        places.extend(settings_files(project, config));
        places.push(config.join("settings.local.json"));
    }
    places.extend(super::config::config_path(env));
    places.extend(crate::claude::state::state_root().ok());
    places
}

impl Gate {
    /// A gate over `folders` (absolute), the subagent memory of `project` and `claude_config`,
    /// and `protected` (files or directories that configure it).
    pub fn new(
        folders: &[PathBuf],
        project: &Path,
        cwd: &Path,
        claude_config: Option<&Path>,
        protected: &[PathBuf],
    ) -> Self {
        let mut roots = Vec::new();
        if let Some(config) = claude_config {
            roots.extend(agent_memory_roots(project, config));
            roots.extend(agent_memory_roots(cwd, config));
        }
        roots.sort();
        roots.dedup();
        let guard = |paths: &[PathBuf]| {
            paths
                .iter()
                .filter(|p| p.is_absolute())
                .map(|p| Guarded::new(p))
                .collect::<Vec<_>>()
        };
        Self {
            folders: guard(folders),
            agent_roots: guard(&roots),
            protected: guard(protected),
        }
    }

    /// The memory folders known by name (each subagent's lies under [`Gate::protected`]).
    pub fn folders(&self) -> &[Guarded] {
        &self.folders
    }

    /// Everything else a write must not reach unreviewed: the subagent memory roots and the
    /// files that configure the gate.
    pub fn protected(&self) -> Vec<Guarded> {
        self.agent_roots
            .iter()
            .chain(&self.protected)
            .cloned()
            .collect()
    }

    /// Where `path` (absolute) lands, for the gate.
    pub fn judge_path(&self, path: &Path) -> PathVerdict {
        let Some(landing) = landing(path) else {
            return PathVerdict::Unrelated;
        };
        for folder in &self.folders {
            if let Some(file) = folder.relative(&landing.real) {
                return PathVerdict::In {
                    folder: folder.clone(),
                    file,
                };
            }
        }
        for root in &self.agent_roots {
            if let Some(rest) = root.relative(&landing.real) {
                return match rest.split_once('/') {
                    Some((agent, file)) => PathVerdict::In {
                        folder: Guarded::new(&real_root(root).join(agent)),
                        file: file.to_owned(),
                    },
                    None => PathVerdict::Protected {
                        path: landing.real.clone(),
                    },
                };
            }
        }
        for folder in self.folders.iter().chain(&self.agent_roots) {
            if folder.relative(&landing.written).is_some() {
                return PathVerdict::LinkOut {
                    folder: folder.clone(),
                    lands: landing.real.clone(),
                };
            }
        }
        for place in &self.protected {
            let on = |p: &Path| place.aliases.iter().any(|alias| p.starts_with(alias));
            if on(&landing.real) || on(&landing.written) {
                return PathVerdict::Protected {
                    path: place.aliases[0].clone(),
                };
            }
        }
        PathVerdict::Unrelated
    }
}

/// The canonical spelling of a guarded place (its last alias).
fn real_root(root: &Guarded) -> PathBuf {
    root.aliases
        .last()
        .map_or_else(PathBuf::new, |p| normalize(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn folders_subagent_memory_links_and_gate_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        let memory = root.join("c/projects/-p/memory");
        std::fs::create_dir_all(&memory).expect("mkdir");
        let project = root.join("p");
        std::fs::create_dir_all(&project).expect("mkdir");
        symlink(&memory, root.join("alias")).expect("link");
        symlink(root.join("outside.md"), memory.join("out.md")).expect("link");
        let settings = project.join(".claude/settings.local.json");
        let gate = Gate::new(
            std::slice::from_ref(&memory),
            &project,
            &project,
            Some(&root.join("c")),
            std::slice::from_ref(&settings),
        );
        let file = |verdict: PathVerdict| match verdict {
            PathVerdict::In { folder, file } => (folder.aliases[0].clone(), file),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            file(gate.judge_path(&root.join("alias/notes/a.md"))),
            (memory.clone(), "notes/a.md".to_owned())
        );
        assert_eq!(
            file(gate.judge_path(&root.join("c/agent-memory/rev/a.md"))),
            (root.join("c/agent-memory/rev"), "a.md".to_owned())
        );
        assert_eq!(
            file(gate.judge_path(&project.join(".claude/agent-memory-local/x/MEMORY.md"))).1,
            "MEMORY.md"
        );
        assert_eq!(
            gate.judge_path(&memory.join("out.md")),
            PathVerdict::LinkOut {
                folder: gate.folders()[0].clone(),
                lands: root.join("outside.md")
            }
        );
        assert_eq!(
            gate.judge_path(&settings),
            PathVerdict::Protected {
                path: settings.clone()
            }
        );
        assert_eq!(
            gate.judge_path(&project.join("src/main.rs")),
            PathVerdict::Unrelated
        );
    }
}
