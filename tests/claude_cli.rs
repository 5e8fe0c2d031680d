//! Claude Code auto memory from the command line, on a copy of tests/fixtures/claude: how it is
//! found, how it is read, every finding, the load limits, and that nothing is ever written.
//! Every command runs with HOME and CLAUDE_CONFIG_DIR in temporary directories.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use common::copy_dir;
use std::process::{Command, Output};

use serde_json::Value;

use common::{CLAUDE_MEMORY as MEMORY, DEAD_PID};

mod check;
mod detection;
mod places;
mod reading;

/// A temporary home holding a copy of the fixture's `config/`; the consolidation lock names a
/// process that cannot exist.
fn fixture() -> tempfile::TempDir {
    common::claude_home()
}

fn memory(home: &Path) -> PathBuf {
    home.join(MEMORY)
}

/// `memwb ARGS` in `cwd`, with HOME=`home`, CLAUDE_CONFIG_DIR as given, nothing else inherited.
fn run(home: &Path, config: Option<&Path>, cwd: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_memwb"));
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .current_dir(cwd)
        .args(args);
    if let Some(config) = config {
        command.env("CLAUDE_CONFIG_DIR", config);
    }
    command.output().expect("run memwb")
}

/// `memwb --memory-dir <fixture memory> ARGS`.
fn on_fixture(home: &Path, args: &[&str]) -> Output {
    let dir = memory(home);
    let mut all = vec!["--memory-dir", dir.to_str().expect("utf-8")];
    all.extend_from_slice(args);
    run(home, None, home, &all)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok(out: Output) -> String {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    text(&out.stdout)
}

fn json(out: Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} / {}", text(&out.stdout), text(&out.stderr)))
}

/// Every file under `dir` with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(next) = stack.pop() {
        for entry in fs::read_dir(&next).expect("read") {
            let entry = entry.expect("entry");
            let kind = entry.file_type().expect("type");
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                out.insert(entry.path(), fs::read(entry.path()).expect("read"));
            } else {
                out.insert(entry.path(), b"(special)".to_vec());
            }
        }
    }
    out
}

/// `(code, file, line)` of every finding.
fn findings(report: &Value) -> Vec<(String, String, Option<u64>)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().expect("code").to_owned(),
                f["file"].as_str().unwrap_or("").to_owned(),
                f["line"].as_u64(),
            )
        })
        .collect()
}

fn has(list: &[(String, String, Option<u64>)], code: &str, file: &str) -> bool {
    list.iter().any(|(c, f, _)| c == code && f == file)
}

/// `<config>/projects/<slug of project>/memory`, holding a copy of the fixture's memory.
fn install_memory(config: &Path, project: &Path) -> PathBuf {
    let slug = project
        .to_str()
        .expect("utf-8")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>();
    let dir = config.join("projects").join(slug).join("memory");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claude")
            .join(MEMORY),
        &dir,
    );
    fs::write(dir.join(".consolidate-lock"), DEAD_PID).expect("lock");
    dir
}

fn realpath(path: &Path) -> PathBuf {
    fs::canonicalize(path).expect("realpath")
}
