//! The real Claude Code client: found in (or installed into) the test cache by
//! `tests/real_claude/install.sh`, and run headless (`claude -p`) against the mock model in a
//! temporary home and git repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::mock::Mock;

/// The version every fact in docs/claude-code.md was last proved on.
pub const PINNED: &str = "2.1.332";

/// How long one headless run may take before the test fails (a run takes 2 to 5 s).
const RUN_TIMEOUT: Duration = Duration::from_secs(90);

fn installer() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/real_claude/install.sh")
}

fn cache_root() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_CACHE_HOME") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
    };
    Some(base.join("memwb-test/claude-code"))
}

fn cached_binary(version: &str) -> Option<PathBuf> {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        _ => return None,
    };
    let binary = cache_root()?.join(version).join(format!(
        "node_modules/@anthropic-ai/claude-code-linux-{arch}/claude"
    ));
    binary.is_file().then_some(binary)
}

/// The client under test and its version, or why there is none. The pinned version is used
/// when it is in the cache; `MEMWB_CLAUDE_CODE_VERSION` (a version or `latest`) installs and
/// uses that one.
pub fn client() -> Result<&'static (PathBuf, String), &'static str> {
    static CLIENT: OnceLock<Result<(PathBuf, String), String>> = OnceLock::new();
    CLIENT
        .get_or_init(|| {
            let asked = std::env::var("MEMWB_CLAUDE_CODE_VERSION").ok();
            let binary = match &asked {
                None => cached_binary(PINNED).ok_or_else(|| {
                    format!(
                        "the real Claude Code {PINNED} is not installed: run \
                         tests/real_claude/install.sh (or set MEMWB_CLAUDE_CODE_VERSION) to \
                         enable tests/real_claude.rs"
                    )
                })?,
                Some(version) => install(version)?,
            };
            let version = version_of(&binary)?;
            Ok((binary, version))
        })
        .as_ref()
        .map_err(String::as_str)
}

fn install(version: &str) -> Result<PathBuf, String> {
    let out = Command::new(installer())
        .arg(version)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run tests/real_claude/install.sh: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "tests/real_claude/install.sh {version} failed ({})",
            out.status
        ));
    }
    let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    Ok(PathBuf::from(path))
}

fn version_of(binary: &Path) -> Result<String, String> {
    let out = Command::new(binary)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace()
        .next()
        .map(str::to_owned)
        .ok_or_else(|| format!("{} --version printed nothing", binary.display()))
}

/// A temporary home (`HOME`, `CLAUDE_CONFIG_DIR` and memwb's config and state in it) with a
/// git repository, where the client and `memwb` run.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
    pub home: PathBuf,
    pub config: PathBuf,
    pub repo: PathBuf,
    pub state: PathBuf,
    /// Extra environment for both the client and memwb.
    pub env: Vec<(String, String)>,
}

impl Sandbox {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        // Canonical, as the client resolves its working directory (e.g. /tmp links).
        let root = dir.path().canonicalize().expect("canonical temp dir");
        let home = root.join("home");
        let config = home.join(".claude");
        let repo = root.join("repo");
        let state = root.join("state");
        for d in [&home, &config, &repo, &state] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        git(&repo, &["init", "-q", "-b", "main"]);
        git(
            &repo,
            &["commit", "-q", "--allow-empty", "-m", "the first commit"],
        );
        Self {
            dir,
            home,
            config,
            repo,
            state,
            env: Vec::new(),
        }
    }

    fn base_env(&self) -> Vec<(String, String)> {
        let mut env = vec![
            ("HOME".to_owned(), self.home.display().to_string()),
            (
                "CLAUDE_CONFIG_DIR".to_owned(),
                self.config.display().to_string(),
            ),
            (
                "XDG_CONFIG_HOME".to_owned(),
                self.home.join(".config").display().to_string(),
            ),
            (
                "MEMWB_STATE_DIR".to_owned(),
                self.state.display().to_string(),
            ),
        ];
        env.extend(self.env.iter().cloned());
        env
    }

    /// The folder Claude Code keeps this repository's memory in by default.
    pub fn memory_dir(&self) -> PathBuf {
        let slug: String = self
            .repo
            .display()
            .to_string()
            .encode_utf16()
            .map(|u| match char::from_u32(u32::from(u)) {
                Some(c) if c.is_ascii_alphanumeric() => c,
                _ => '-',
            })
            .collect();
        self.config.join("projects").join(slug).join("memory")
    }

    /// `claude -p PROMPT --output-format json ARGS...` in `cwd` against `mock`.
    pub fn claude(&self, mock: &Mock, cwd: &Path, prompt: &str, args: &[&str]) -> Run {
        let (binary, _) = client().expect("the client is there (checked by the test)");
        mock.expect_prompt(prompt);
        let mut command = Command::new(binary);
        command
            .current_dir(cwd)
            .env_clear()
            .env("PATH", path_with_memwb())
            .env("ANTHROPIC_BASE_URL", &mock.base_url)
            .env("ANTHROPIC_API_KEY", "dummy")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .envs(self.base_env())
            .args(["-p", prompt, "--output-format", "json"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let output = run_with_deadline(command, RUN_TIMEOUT);
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let result = stdout
            .lines()
            .rev()
            .find_map(|l| serde_json::from_str::<Value>(l).ok())
            .unwrap_or(Value::Null);
        Run {
            output,
            result,
            stdout,
        }
    }

    /// `memwb -C cwd ARGS...` in the sandbox's environment.
    pub fn memwb(&self, cwd: &Path, args: &[&str]) -> Output {
        let mut command = Command::new(env!("CARGO_BIN_EXE_memwb"));
        command
            .arg("-C")
            .arg(cwd)
            .args(args)
            .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
            .env_remove("MEMWB_CLAUDE_MODE")
            .env_remove("MEMWB_CONFIG")
            .env_remove("MEMWB_CLAUDE_INDEX_LINES")
            .env_remove("MEMWB_CLAUDE_INDEX_SIZE")
            .env_remove("MEMWB_CLAUDE_INDEX_UNIT")
            .envs(self.base_env())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        run_with_deadline(command, RUN_TIMEOUT)
    }

    /// Installs memwb's hooks in the sandbox's user settings, in `mode`.
    pub fn install_hooks(&self, mode: &str) {
        let out = self.memwb(&self.repo, &["hooks", "install", "--mode", mode]);
        assert!(
            out.status.success(),
            "memwb hooks install: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

pub struct Run {
    pub output: Output,
    /// The JSON result line of `--output-format json`.
    pub result: Value,
    pub stdout: String,
}

impl Run {
    /// Asserts the run ended as a success and returns it.
    pub fn ok(self) -> Self {
        assert!(
            self.output.status.success() && self.result["is_error"] == Value::Bool(false),
            "claude -p failed ({}): stdout {} stderr {}",
            self.output.status,
            self.stdout,
            String::from_utf8_lossy(&self.output.stderr)
        );
        self
    }
}

/// `PATH` with the directory of the memwb binary under test first, so `memwb hook claude`
/// in the installed hooks is this build.
fn path_with_memwb() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_memwb"))
        .parent()
        .expect("binary folder")
        .display()
        .to_string();
    match std::env::var("PATH") {
        Ok(path) => format!("{bin}:{path}"),
        Err(_) => bin,
    }
}

pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `command` to completion, killing it when it outlives `deadline`.
fn run_with_deadline(mut command: Command, deadline: Duration) -> Output {
    let child = command.spawn().expect("spawn");
    let id = child.id();
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let out = child.wait_with_output();
        let _ = done_tx.send(());
        out
    });
    let started = Instant::now();
    if done_rx.recv_timeout(deadline).is_err() {
        // The waiter has not reaped the child yet, so this pid is still the child's.
        let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
        panic!(
            "the run outlived its deadline of {:?} (killed after {:?})",
            deadline,
            started.elapsed()
        );
    }
    waiter
        .join()
        .expect("waiter thread")
        .expect("wait for the child")
}
