//! Where Claude Code keeps a project's auto memory.
//!
//! `<config>/projects/<slug>/memory/`, where `<config>` is `$CLAUDE_CONFIG_DIR` or `~/.claude`,
//! and `<slug>` is the project root (the git repository's root, worktrees resolved to their main
//! repository; the directory itself outside git) with every UTF-16 unit that is not an ASCII
//! letter or digit replaced by `-` (JavaScript's `replace(/[^a-zA-Z0-9]/g, "-")`). The
//! `autoMemoryDirectory` setting (local, then project, then user settings) moves it.
//!
//! memwb reads the settings as Claude Code does, so that the folder it guards is the folder
//! Claude Code writes: a settings file that is not a JSON object (`{`, a trailing comma, a
//! comment) is skipped; the most specific file that sets `autoMemoryDirectory` decides, and a
//! value Claude Code cannot use (not a string, empty, relative, `~` alone) means the default
//! folder. `..` is resolved. memwb also never takes `/`, the home directory or a folder above
//! it for a memory folder (it would read and guard the whole disk): the default folder again.

use std::fs;
use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use super::error::{ClaudeError, Result};
use super::fsread::read_regular;

/// Looks up an environment variable; tests pass their own.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The process environment, for [`Env`].
pub(crate) fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Slugs longer than this are cut by Claude Code and get a hash suffix.
pub(crate) const MAX_SLUG: usize = 200;
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
pub(crate) fn project_root(dir: &Path) -> PathBuf {
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
pub(crate) fn config_dir(env: Env) -> Result<PathBuf> {
    if let Some(dir) = env("CLAUDE_CONFIG_DIR") {
        return Ok(expand_home(&dir, env).unwrap_or_else(|| PathBuf::from(dir)));
    }
    let home = env("HOME").ok_or(ClaudeError::NoHome)?;
    Ok(PathBuf::from(home).join(".claude"))
}

/// `~/rest` against `$HOME`; other text unchanged; `None` when `~/` has no home to expand to.
pub(crate) fn expand_home(value: &str, env: Env) -> Option<PathBuf> {
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
    /// Settings that were not used, and why (a file that does not parse, an unusable
    /// `autoMemoryDirectory`): for people, since Claude Code skips them silently too.
    pub ignored: Vec<String>,
}

/// The settings files that may set `autoMemoryDirectory`, most specific first.
pub(crate) fn settings_files(project: &Path, config: &Path) -> [PathBuf; 3] {
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
        ignored: Vec::new(),
    };
    let mut decided = false;
    for file in settings_files(&location.project, &location.config) {
        let settings = match read_settings(&file) {
            Ok(Some(settings)) => settings,
            Ok(None) => continue,
            Err(why) => {
                location
                    .ignored
                    .push(format!("{} is ignored: {why}", file.display()));
                continue;
            }
        };
        if location.disabled.is_none()
            && settings.get("autoMemoryEnabled") == Some(&Value::Bool(false))
        {
            location.disabled = Some(format!("autoMemoryEnabled is false in {}", file.display()));
        }
        if decided {
            continue;
        }
        if let Some(value) = settings.get("autoMemoryDirectory") {
            decided = true;
            match auto_memory_directory(value, env) {
                Ok(folder) => {
                    location.folder = folder;
                    location.source = Source::Setting(file);
                }
                Err(why) => location.ignored.push(format!(
                    "autoMemoryDirectory in {} is ignored ({why}): the default folder is used",
                    file.display()
                )),
            }
        }
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

/// The folder `autoMemoryDirectory` in the settings file at `path` moves auto memory to, when
/// the file sets a value Claude Code (and memwb) would use.
pub(crate) fn auto_memory_setting(path: &Path, env: Env) -> Option<PathBuf> {
    let settings = read_settings(path).ok()??;
    auto_memory_directory(settings.get("autoMemoryDirectory")?, env).ok()
}

/// A settings file's object; `Err` says why it is skipped (what Claude Code skips).
fn read_settings(
    path: &Path,
) -> std::result::Result<Option<serde_json::Map<String, Value>>, String> {
    let Some(bytes) = read_regular(path, SETTINGS_LIMIT).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        Ok(_) => Err("it is not a JSON object".into()),
        Err(e) => Err(format!("it is not JSON ({e})")),
    }
}

/// The folder an `autoMemoryDirectory` value names, or why Claude Code (or memwb) does not
/// use it.
fn auto_memory_directory(value: &Value, env: Env) -> std::result::Result<PathBuf, &'static str> {
    let Value::String(text) = value else {
        return Err("not a string");
    };
    let path = if text.starts_with("~/") {
        expand_home(text, env).ok_or("it starts with ~/ but HOME is not set")?
    } else {
        PathBuf::from(text)
    };
    if !path.is_absolute() {
        return Err("not an absolute path or one starting with ~/");
    }
    let path = normalize(&path);
    let home = env("HOME").map(|home| normalize(Path::new(&home)));
    if path.parent().is_none() || home.is_some_and(|home| home.starts_with(&path)) {
        return Err("memwb never takes /, the home directory or a folder above it for memory");
    }
    Ok(path)
}

/// The home directory, when `folder` is inside this machine's Claude Code config folder: the
/// absolute and `~` paths its memories mention were written on this machine.
pub(crate) fn machine_home(folder: &Path, env: Env) -> Option<PathBuf> {
    let config = config_dir(env).ok()?;
    let config = fs::canonicalize(&config).unwrap_or(config);
    if !folder.starts_with(&config) {
        return None;
    }
    let home = PathBuf::from(env("HOME")?);
    Some(fs::canonicalize(&home).unwrap_or(home))
}

/// `.` and `..` resolved on the text (`/..` is `/`), as Node's `path.resolve` does.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
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
