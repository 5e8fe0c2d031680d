//! The pure half of `memwb hook claude`: what a Claude Code hook input asks for, whether it
//! concerns a memory folder, what the file would hold after it, and the JSON answer. No I/O
//! here but reading the config file; the runner that files proposals and journals is
//! [`crate::agents::claude_code::answer`]. docs/claude-code.md, "Put memwb in front of Claude Code".

pub mod bash;
mod bash_allow;
mod bash_parse;
mod bash_reach;
#[cfg(test)]
mod bash_tests;
mod bash_word;
pub mod config;
pub mod edit;
pub mod gate;
pub mod input;
pub mod landing;
pub mod output;
pub mod scan;
pub mod settings;
#[cfg(feature = "cli")]
pub(crate) mod settings_text;

use std::path::{Path, PathBuf};

use crate::claude::locate::normalize;

pub use crate::claude::is_memory_file;

pub use bash::{BashVerdict, PathContext};
pub use config::{Config, Mode};
pub use edit::{EditError, FileChange};
pub use gate::Gate;
pub use input::{Event, HookInput, ToolCall};

/// A memory folder the hook guards, by every spelling a path into it can take (as located,
/// and its canonical path when that differs: `~/.claude` may be a link).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guarded {
    pub aliases: Vec<PathBuf>,
}

impl Guarded {
    /// `path` (absolute) and, when it exists and differs, its canonical form.
    pub fn new(path: &Path) -> Self {
        let located = normalize(path);
        let mut aliases = vec![located.clone()];
        if let Ok(real) = std::fs::canonicalize(&located)
            && real != located
        {
            aliases.push(real);
        }
        Self { aliases }
    }

    /// The file's path relative to the folder (`/`-separated), when it is inside it.
    pub fn relative(&self, path: &Path) -> Option<String> {
        let path = normalize(path);
        self.aliases.iter().find_map(|alias| {
            let rest = path.strip_prefix(alias).ok()?;
            let parts: Vec<&str> = rest
                .components()
                .map(|c| c.as_os_str().to_str())
                .collect::<Option<_>>()?;
            (!parts.is_empty()).then(|| parts.join("/"))
        })
    }
}

/// What a tool call means for the guarded folders and the files that configure the gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Concern {
    /// Not a memory write: answer nothing.
    None,
    /// A Write, Edit or MultiEdit of `file` (where the path really lands) in `folder`.
    File {
        folder: Guarded,
        file: String,
        change: FileChange,
    },
    /// A tool memwb has no model of, named `tool`, given a path that lands on `file` in
    /// `folder`: it may write there.
    Tool {
        folder: Guarded,
        file: String,
        tool: String,
    },
    /// A path spelled inside `folder` that a link takes elsewhere (`lands`): writing it
    /// would change a file outside the folder through the folder.
    LinkOut { folder: Guarded, lands: PathBuf },
    /// A Bash command that may change `folder`, or that may touch it and cannot be judged:
    /// `why` says what was found.
    Bash { folder: Guarded, why: String },
    /// A call that may change `path`, which configures the gate (Claude Code's settings,
    /// memwb's config or state).
    Protected { path: PathBuf },
}

/// Classifies one call against the gate (the first folder a path lands in wins).
pub fn classify(call: &ToolCall, gate: &Gate, context: &PathContext) -> Concern {
    match call {
        ToolCall::File { path, change } => match gate.judge_path(path) {
            gate::PathVerdict::In { folder, file } => Concern::File {
                folder,
                file,
                change: change.clone(),
            },
            verdict => verdict.concern(),
        },
        ToolCall::Paths { tool, paths } => paths
            .iter()
            .map(|path| match gate.judge_path(path) {
                gate::PathVerdict::In { folder, file } => Concern::Tool {
                    folder,
                    file,
                    tool: tool.clone(),
                },
                verdict => verdict.concern(),
            })
            .find(|concern| *concern != Concern::None)
            .unwrap_or(Concern::None),
        ToolCall::Bash { command } => {
            let folders = gate.folders();
            let mut places = folders.to_vec();
            places.extend(gate.protected());
            match bash::judge(command, context, &places) {
                BashVerdict::Unrelated | BashVerdict::ReadOnly => Concern::None,
                BashVerdict::MayWrite { folder, why }
                | BashVerdict::Undecidable { folder, why } => match folders.get(folder) {
                    Some(guarded) => Concern::Bash {
                        folder: guarded.clone(),
                        why,
                    },
                    None => Concern::Protected {
                        path: places
                            .get(folder)
                            .and_then(|place| place.aliases.first())
                            .cloned()
                            .unwrap_or_default(),
                    },
                },
            }
        }
        _ => Concern::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> Gate {
        Gate::new(
            &[PathBuf::from("/c/projects/-app/memory")],
            Path::new("/app"),
            Path::new("/app"),
            Some(Path::new("/c")),
            &[PathBuf::from("/c/settings.json")],
        )
    }

    fn ctx() -> PathContext<'static> {
        PathContext {
            cwd: Path::new("/app"),
            home: Some(Path::new("/home/u")),
            claude_config: Some(Path::new("/c")),
        }
    }

    fn write(path: &str) -> ToolCall {
        ToolCall::File {
            path: PathBuf::from(path),
            change: FileChange::Write {
                content: "x".into(),
            },
        }
    }

    fn file_of(concern: Concern) -> (PathBuf, String) {
        match concern {
            Concern::File { folder, file, .. } | Concern::Tool { folder, file, .. } => {
                (folder.aliases[0].clone(), file)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn file_calls_inside_a_folder_concern_it_with_their_relative_path() {
        assert_eq!(
            file_of(classify(
                &write("/c/projects/-app/memory/notes/a.md"),
                &gate(),
                &ctx()
            )),
            (
                PathBuf::from("/c/projects/-app/memory"),
                "notes/a.md".into()
            )
        );
        assert_eq!(
            file_of(classify(
                &write("/c/agent-memory/rev/./b.md"),
                &gate(),
                &ctx()
            )),
            (PathBuf::from("/c/agent-memory/rev"), "b.md".into())
        );
        let mcp = ToolCall::Paths {
            tool: "mcp__fs__write_file".into(),
            paths: vec![PathBuf::from("/app/.claude/agent-memory/x/MEMORY.md")],
        };
        assert_eq!(
            file_of(classify(&mcp, &gate(), &ctx())),
            (
                PathBuf::from("/app/.claude/agent-memory/x"),
                "MEMORY.md".into()
            )
        );
    }

    #[test]
    fn everything_else_does_not() {
        for path in [
            "/app/src/main.rs",
            "/c/projects/-app/memory",
            "/c/projects/-app/memory/../x.md",
            "/c/projects/-app/memory-old/a.md",
            "relative/memory/a.md",
        ] {
            assert_eq!(
                classify(&write(path), &gate(), &ctx()),
                Concern::None,
                "{path}"
            );
        }
        assert_eq!(classify(&ToolCall::Other, &gate(), &ctx()), Concern::None);
        let read = ToolCall::Bash {
            command: "cat /c/projects/-app/memory/MEMORY.md".into(),
        };
        assert_eq!(classify(&read, &gate(), &ctx()), Concern::None);
        let bash = ToolCall::Bash {
            command: "echo x >> $CLAUDE_CONFIG_DIR/agent-memory/rev/a.md".into(),
        };
        assert_eq!(
            classify(&bash, &gate(), &ctx()),
            Concern::Protected {
                path: PathBuf::from("/c/agent-memory")
            }
        );
        let settings = ToolCall::Bash {
            command: "echo '{' > /c/settings.json".into(),
        };
        assert_eq!(
            classify(&settings, &gate(), &ctx()),
            Concern::Protected {
                path: PathBuf::from("/c/settings.json")
            }
        );
    }

    #[test]
    fn only_markdown_outside_hidden_folders_is_a_memory_file() {
        assert!(is_memory_file("MEMORY.md"));
        assert!(is_memory_file("notes/a.md"));
        assert!(!is_memory_file(".consolidate-lock"));
        assert!(!is_memory_file("a.txt"));
        assert!(!is_memory_file(".git/a.md"));
    }
}
