//! The pure half of `memwb hook claude`: what a Claude Code hook input asks for, whether it
//! concerns a memory folder, what the file would hold after it, and the JSON answer. No I/O
//! here but reading the config file; the runner that files proposals and journals is
//! [`crate::review::hook`]. docs/claude-code.md, "Put memwb in front of Claude Code".

pub mod bash;
mod bash_allow;
mod bash_parse;
mod bash_reach;
#[cfg(test)]
mod bash_tests;
mod bash_word;
pub mod config;
pub mod edit;
pub mod input;
pub mod output;
pub mod settings;

use std::path::{Path, PathBuf};

use crate::claude::locate::normalize;

pub use bash::{BashVerdict, PathContext};
pub use config::{Config, Mode};
pub use edit::{EditError, FileChange};
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

/// What a tool call means for the guarded folders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Concern {
    /// Not a memory write: answer nothing.
    None,
    /// A Write, Edit or MultiEdit of `file` in `folders[folder]`.
    File {
        folder: usize,
        file: String,
        change: FileChange,
    },
    /// A Bash command that may change `folders[folder]`, or that may touch it and cannot be
    /// judged: `why` says what was found.
    Bash { folder: usize, why: String },
}

/// Classifies one call against the guarded folders (first match wins).
pub fn classify(call: &ToolCall, folders: &[Guarded], context: &PathContext) -> Concern {
    match call {
        ToolCall::File { path, change } if path.is_absolute() => folders
            .iter()
            .enumerate()
            .find_map(|(i, folder)| {
                folder.relative(path).map(|file| Concern::File {
                    folder: i,
                    file,
                    change: change.clone(),
                })
            })
            .unwrap_or(Concern::None),
        ToolCall::Bash { command } => match bash::judge(command, context, folders) {
            BashVerdict::Unrelated | BashVerdict::ReadOnly => Concern::None,
            BashVerdict::MayWrite { folder, why } | BashVerdict::Undecidable { folder, why } => {
                Concern::Bash { folder, why }
            }
        },
        _ => Concern::None,
    }
}

/// Only these may be written in a memory folder (Claude Code reads nothing else as memory).
pub fn is_memory_file(file: &str) -> bool {
    file.ends_with(".md") && !file.split('/').any(|part| part.starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folders() -> Vec<Guarded> {
        vec![
            Guarded {
                aliases: vec![PathBuf::from("/c/projects/-app/memory")],
            },
            Guarded {
                aliases: vec![PathBuf::from("/c/agent-memory/rev")],
            },
        ]
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

    #[test]
    fn file_calls_inside_a_folder_concern_it_with_their_relative_path() {
        assert_eq!(
            classify(
                &write("/c/projects/-app/memory/notes/a.md"),
                &folders(),
                &ctx()
            ),
            Concern::File {
                folder: 0,
                file: "notes/a.md".into(),
                change: FileChange::Write {
                    content: "x".into()
                }
            }
        );
        assert!(matches!(
            classify(&write("/c/agent-memory/rev/./b.md"), &folders(), &ctx()),
            Concern::File { folder: 1, .. }
        ));
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
                classify(&write(path), &folders(), &ctx()),
                Concern::None,
                "{path}"
            );
        }
        assert_eq!(
            classify(&ToolCall::Other, &folders(), &ctx()),
            Concern::None
        );
        let read = ToolCall::Bash {
            command: "cat /c/projects/-app/memory/MEMORY.md".into(),
        };
        assert_eq!(classify(&read, &folders(), &ctx()), Concern::None);
        let bash = ToolCall::Bash {
            command: "echo x >> $CLAUDE_CONFIG_DIR/agent-memory/rev/a.md".into(),
        };
        assert!(matches!(
            classify(&bash, &folders(), &ctx()),
            Concern::Bash { folder: 1, .. }
        ));
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
