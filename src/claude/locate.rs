//! Where Claude Code keeps a project's auto memory.
//!
//! `<config>/projects/<slug>/memory/`, where `<config>` is `$CLAUDE_CONFIG_DIR` or `~/.claude`,
//! and `<slug>` is the project root (the git repository's root, worktrees resolved to their main
//! repository; the directory itself outside git) with every UTF-16 unit that is not an ASCII
//! letter or digit replaced by `-` (JavaScript's `replace(/[^a-zA-Z0-9]/g, "-")`). The
//! `autoMemoryDirectory` setting (local, then project, then user settings) moves it.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::error::{ClaudeError, Result};
use super::fsread::read_regular;

/// Looks up an environment variable; tests pass their own.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The process environment, for [`Env`].
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Slugs longer than this are cut by Claude Code and get a hash suffix.
pub const MAX_SLUG: usize = 200;
const SETTINGS_LIMIT: usize = 1024 * 1024;

pub fn slug(path: &Path) -> String {
    path.to_string_lossy()
        .encode_utf16()
        .map(|unit| match u8::try_from(unit) {
            Ok(b) if b.is_ascii_alphanumeric() => char::from(b),
            _ => '-',
        })
        .collect()
}

/// The directory whose slug names the project of `dir`: the main repository's root when `dir`
/// is inside a git work tree (a linked worktree resolves to the repository it belongs to),
/// otherwise `dir` itself. `dir` should be absolute and resolved.
pub fn project_root(dir: &Path) -> PathBuf {
    for ancestor in dir.ancestors() {
        let dot_git = ancestor.join(".git");
        let Ok(meta) = fs::symlink_metadata(&dot_git) else {
            continue;
        };
        if meta.is_dir() {
            return ancestor.to_owned();
        }
        if meta.is_file() {
            return main_worktree(ancestor, &dot_git).unwrap_or_else(|| ancestor.to_owned());
        }
    }
    dir.to_owned()
}

/// For a `.git` file (`gitdir: <path>`): the main repository's root when the git dir has a
/// `commondir` (a linked worktree); `None` otherwise (a submodule is its own project).
fn main_worktree(work_tree: &Path, dot_git: &Path) -> Option<PathBuf> {
    let text = read_regular(dot_git, 64 * 1024).ok()??;
    let text = String::from_utf8(text).ok()?;
    let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    let gitdir = work_tree.join(gitdir);
    let common = read_regular(&gitdir.join("commondir"), 64 * 1024).ok()??;
    let common = String::from_utf8(common).ok()?;
    let common = fs::canonicalize(gitdir.join(common.trim())).ok()?;
    // The common dir of a non-bare repository is `<root>/.git`.
    if common.file_name()? == ".git" {
        common.parent().map(Path::to_owned)
    } else {
        None
    }
}

/// `$CLAUDE_CONFIG_DIR`, else `$HOME/.claude`.
pub fn config_dir(env: Env) -> Result<PathBuf> {
    if let Some(dir) = env("CLAUDE_CONFIG_DIR") {
        return Ok(expand_home(&dir, env).unwrap_or_else(|| PathBuf::from(dir)));
    }
    let home = env("HOME").ok_or(ClaudeError::NoHome)?;
    Ok(PathBuf::from(home).join(".claude"))
}

/// `~/rest` against `$HOME`; other text unchanged; `None` when `~/` has no home to expand to.
pub fn expand_home(value: &str, env: Env) -> Option<PathBuf> {
    match value.strip_prefix("~/") {
        Some(rest) => env("HOME").map(|home| PathBuf::from(home).join(rest)),
        None if value == "~" => env("HOME").map(PathBuf::from),
        None => Some(PathBuf::from(value)),
    }
}

/// How the folder was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `<config>/projects/<slug>/memory`.
    Default,
    /// `autoMemoryDirectory` in this settings file.
    Setting(PathBuf),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The directory the slug is made from.
    pub project: PathBuf,
    pub slug: String,
    pub config: PathBuf,
    pub folder: PathBuf,
    pub source: Source,
    /// Why Claude Code would not use auto memory here (`autoMemoryEnabled: false`, or
    /// `CLAUDE_CODE_DISABLE_AUTO_MEMORY`), when it would not.
    pub disabled: Option<String>,
}

/// The settings files that may set `autoMemoryDirectory`, most specific first.
pub fn settings_files(project: &Path, config: &Path) -> [PathBuf; 3] {
    [
        project.join(".claude").join("settings.local.json"),
        project.join(".claude").join("settings.json"),
        config.join("settings.json"),
    ]
}

/// Where the auto memory of `workspace` (a resolved directory) is; it may not exist.
pub fn locate(workspace: &Path, env: Env) -> Result<Location> {
    let project = project_root(workspace);
    let config = config_dir(env)?;
    let slug = slug(&project);
    let mut location = Location {
        folder: default_folder(&project, &config, &slug)?,
        project,
        slug,
        config,
        source: Source::Default,
        disabled: None,
    };
    let mut moved = None;
    for file in settings_files(&location.project, &location.config) {
        let Some(settings) = read_settings(&file)? else {
            continue;
        };
        if location.disabled.is_none()
            && settings.get("autoMemoryEnabled") == Some(&Value::Bool(false))
        {
            location.disabled = Some(format!("autoMemoryEnabled is false in {}", file.display()));
        }
        if moved.is_none()
            && let Some(value) = settings.get("autoMemoryDirectory")
        {
            moved = Some((auto_memory_directory(value, &file, env)?, file));
        }
    }
    if let Some((folder, file)) = moved {
        location.folder = folder;
        location.source = Source::Setting(file);
    }
    if env("CLAUDE_CODE_DISABLE_AUTO_MEMORY").is_some_and(|v| v != "0" && v != "false") {
        location.disabled = Some("CLAUDE_CODE_DISABLE_AUTO_MEMORY is set".into());
    }
    Ok(location)
}

fn default_folder(project: &Path, config: &Path, slug: &str) -> Result<PathBuf> {
    let projects = config.join("projects");
    if slug.len() <= MAX_SLUG {
        return Ok(projects.join(slug).join("memory"));
    }
    // The hash suffix differs between Claude Code's components: find, don't guess.
    let prefix = &slug[..MAX_SLUG];
    let mut candidates: Vec<String> = fs::read_dir(&projects)
        .map(|dir| {
            dir.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|name| name.starts_with(prefix))
                .collect()
        })
        .unwrap_or_default();
    candidates.sort();
    match candidates.as_slice() {
        [] => Ok(projects.join(prefix).join("memory")),
        [one] => Ok(projects.join(one).join("memory")),
        many => Err(ClaudeError::AmbiguousSlug {
            project: project.to_owned(),
            projects,
            candidates: many.join(", "),
        }),
    }
}

fn read_settings(path: &Path) -> Result<Option<serde_json::Map<String, Value>>> {
    let Some(bytes) = read_regular(path, SETTINGS_LIMIT)? else {
        return Ok(None);
    };
    let invalid = |rule: String| ClaudeError::SettingsInvalid {
        path: path.to_owned(),
        rule,
    };
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        Ok(_) => Err(invalid("expected a JSON object".into())),
        Err(e) => Err(invalid(format!("not JSON: {e}"))),
    }
}

fn auto_memory_directory(value: &Value, file: &Path, env: Env) -> Result<PathBuf> {
    let invalid = |rule: &str| ClaudeError::SettingsInvalid {
        path: file.to_owned(),
        rule: rule.to_owned(),
    };
    let Value::String(text) = value else {
        return Err(invalid("autoMemoryDirectory must be a string"));
    };
    if text.starts_with("~/") {
        return expand_home(text, env)
            .ok_or_else(|| invalid("autoMemoryDirectory starts with ~/ but HOME is not set"));
    }
    let path = PathBuf::from(text);
    if path.is_absolute() {
        Ok(path)
    } else {
        Err(invalid(
            "autoMemoryDirectory must be an absolute path or start with ~/",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_replaces_every_non_alphanumeric_utf16_unit() {
        assert_eq!(slug(Path::new("/home/ana/my.proj")), "-home-ana-my-proj");
        assert_eq!(slug(Path::new("/a/中/b_c")), "-a---b-c");
        // An astral character is two UTF-16 units, so two dashes.
        assert_eq!(slug(Path::new("/x/😀")), "-x---");
    }

    #[test]
    fn home_expansion() {
        let env = |name: &str| (name == "HOME").then(|| "/home/u".to_owned());
        assert_eq!(expand_home("~/m", &env), Some(PathBuf::from("/home/u/m")));
        assert_eq!(expand_home("/abs", &env), Some(PathBuf::from("/abs")));
        assert_eq!(expand_home("~/m", &|_| None), None);
    }
}
