//! memwb's configuration for the hook: `config.toml` in memwb's config folder
//! (`$MEMWB_CONFIG` names the file itself; else `<config dir>/memwb/config.toml`, the
//! `directories` crate's config dir: `$XDG_CONFIG_HOME` or `~/.config` on Linux).
//!
//! ```toml
//! [claude]
//! mode = "review"                 # review | record | off, for every folder
//!
//! [[claude.folder]]               # another folder to gate (a subagent's memory), and/or
//! path = "~/.claude/agent-memory/reviewer"   # a mode for one folder
//! mode = "record"
//! ```
//!
//! A mode is chosen, first found wins: `$MEMWB_CLAUDE_MODE`, the folder's own `mode`, the
//! global `mode`, the hook command's `--mode` (what `memwb hooks install --mode` wrote), then
//! `review`.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::claude::locate::normalize;
use crate::claude::locate::{Env, expand_home};
use crate::fs::{Links, read_regular};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A memory write becomes a proposal; the call is denied.
    #[default]
    Review,
    /// The call goes through and the change is journaled.
    Record,
    Off,
}

impl Mode {
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "review" => Some(Mode::Review),
            "record" => Some(Mode::Record),
            "off" => Some(Mode::Off),
            _ => None,
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Review => "review",
            Mode::Record => "record",
            Mode::Off => "off",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub claude: ClaudeConfig,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaudeConfig {
    #[serde(default)]
    pub mode: Option<Mode>,
    #[serde(default, rename = "folder")]
    pub folders: Vec<FolderConfig>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FolderConfig {
    pub path: String,
    #[serde(default)]
    pub mode: Option<Mode>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("config file {path}: {error}")]
    Read {
        path: PathBuf,
        error: crate::fs::FsError,
    },
    #[error("config file {path} is invalid: {rule}")]
    Invalid { path: PathBuf, rule: String },
}

const MAX_CONFIG_BYTES: usize = 1024 * 1024;

/// Where the config file is: `$MEMWB_CONFIG`, else memwb's folder in the user's config dir.
pub fn config_path(env: Env) -> Option<PathBuf> {
    if let Some(path) = env("MEMWB_CONFIG") {
        return Some(PathBuf::from(path));
    }
    let base = match env("XDG_CONFIG_HOME") {
        Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir),
        _ => directories::BaseDirs::new()?.config_dir().to_owned(),
    };
    Some(base.join("memwb").join("config.toml"))
}

impl Config {
    pub fn parse(text: &str, path: &Path) -> Result<Self, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError::Invalid {
            path: path.to_owned(),
            rule: e.message().to_owned(),
        })
    }

    /// The config file, or the defaults when there is none.
    pub fn load(env: Env) -> Result<Self, ConfigError> {
        let Some(path) = config_path(env) else {
            return Ok(Self::default());
        };
        // A dotfile manager's link to the config is followed (it is the user's own file).
        let bytes = read_regular(&path, MAX_CONFIG_BYTES, Links::Follow).map_err(|error| {
            ConfigError::Read {
                path: path.clone(),
                error,
            }
        })?;
        let Some(bytes) = bytes else {
            return Ok(Self::default());
        };
        let text = String::from_utf8(bytes).map_err(|_| ConfigError::Invalid {
            path: path.clone(),
            rule: "not UTF-8".into(),
        })?;
        Self::parse(&text, &path)
    }

    /// The folders listed in the config, `~/` expanded, `..` resolved (relative ones dropped:
    /// a hook's working directory is the session's, not the user's).
    pub fn folders(&self, env: Env) -> Vec<PathBuf> {
        self.claude
            .folders
            .iter()
            .filter_map(|f| expand_home(&f.path, env))
            .filter(|p| p.is_absolute())
            .map(|p| normalize(&p))
            .collect()
    }

    /// The mode for `folder` (absolute, normalized; `aliases` are other spellings of it, such
    /// as its canonical path).
    pub fn mode_for(&self, folder: &[PathBuf], env: Env, installed: Option<Mode>) -> Mode {
        if let Some(mode) = env("MEMWB_CLAUDE_MODE").and_then(|m| Mode::parse(&m)) {
            return mode;
        }
        let own = self.claude.folders.iter().find_map(|f| {
            let path = normalize(&expand_home(&f.path, env)?);
            folder.contains(&path).then_some(f.mode).flatten()
        });
        own.or(self.claude.mode).or(installed).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        (name == "HOME").then(|| "/home/u".to_owned())
    }

    #[test]
    fn modes_per_folder_then_global_then_installed_then_review() {
        let config = Config::parse(
            "[claude]\nmode = \"record\"\n[[claude.folder]]\npath = \"~/agent\"\nmode = \"off\"\n[[claude.folder]]\npath = \"/extra\"\n",
            Path::new("c.toml"),
        )
        .unwrap();
        let agent = [PathBuf::from("/home/u/agent")];
        assert_eq!(config.mode_for(&agent, &env, None), Mode::Off);
        assert_eq!(
            config.mode_for(&[PathBuf::from("/extra")], &env, Some(Mode::Review)),
            Mode::Record
        );
        assert_eq!(
            config.folders(&env),
            vec![PathBuf::from("/home/u/agent"), PathBuf::from("/extra")]
        );
        let empty = Config::default();
        assert_eq!(
            empty.mode_for(&agent, &env, Some(Mode::Record)),
            Mode::Record
        );
        assert_eq!(empty.mode_for(&agent, &env, None), Mode::Review);
        let forced = |name: &str| (name == "MEMWB_CLAUDE_MODE").then(|| "off".to_owned());
        assert_eq!(config.mode_for(&agent, &forced, None), Mode::Off);
    }

    #[test]
    fn a_bad_config_names_the_file_and_the_rule() {
        let error =
            Config::parse("[claude]\nmode = \"maybe\"\n", Path::new("/c.toml")).unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with("config file /c.toml is invalid: "),
            "{message}"
        );
        assert!(message.contains("maybe"), "{message}");
        assert!(Config::parse("[claude]\nmood = 1\n", Path::new("/c.toml")).is_err());
    }
}
