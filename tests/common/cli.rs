//! Running the `memwb` binary in a workspace, for the command-line tests.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `memwb -C dir`, isolated from the environment the tests run in: no model settings and no
/// fault injection reach it unless a test sets them. Every runner of the binary starts here.
pub fn command(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_memwb"));
    command.arg("-C").arg(dir);
    for inherited in [
        "MEMWB_MODEL_URL",
        "MEMWB_MODEL",
        "MEMWB_MODEL_CMD",
        "MEMWB_CRASH_AT",
        "MEMWB_FAIL_AT",
        "MEMWB_STOP_AT",
    ] {
        command.env_remove(inherited);
    }
    command
}

/// `memwb -C dir args...` with empty standard input.
pub fn memwb(dir: &Path, args: &[&str]) -> Output {
    memwb_with(dir, args, "", &[])
}

/// `memwb -C dir args...` with `stdin` and extra environment variables.
pub fn memwb_with(dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut command = command(dir);
    command.args(args).envs(env.iter().copied());
    output_with_stdin(command, stdin)
}

/// Runs `command` to its end with `stdin` as its standard input, capturing its output.
fn output_with_stdin(mut command: Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn memwb");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("memwb runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("utf-8 stderr")
}

/// The standard output of a command that succeeded.
pub fn ok(out: Output) -> String {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    stdout(&out)
}

/// The standard error of a refused command: exit 2, one `error:` line, then only `hint:` lines.
pub fn refused(out: Output) -> String {
    assert_eq!(out.status.code(), Some(2), "stdout: {}", stdout(&out));
    let err = stderr(&out);
    let mut lines = err.trim_end().lines();
    assert!(
        lines.next().is_some_and(|l| l.starts_with("error: ")),
        "{err:?}"
    );
    assert!(lines.all(|l| l.starts_with("hint: ")), "{err:?}");
    err
}

/// The first line of a refused command's standard error (a usage error from the argument
/// parser included, which goes on with its own lines).
pub fn error_line(out: Output) -> String {
    assert_eq!(out.status.code(), Some(2), "stdout: {}", stdout(&out));
    let err = stderr(&out);
    let first = err.lines().next().unwrap_or_default().to_owned();
    assert!(first.starts_with("error: "), "{err:?}");
    first
}

/// The arguments of `memwb add` for one project record.
pub fn add_args<'a>(name: &'a str, description: &'a str, body: &'a str) -> [&'a str; 9] {
    [
        "add",
        "--name",
        name,
        "--type",
        "project",
        "--description",
        description,
        "--body",
        body,
    ]
}

/// `memwb add` of one project record.
pub fn add(dir: &Path, name: &str, description: &str, body: &str) {
    ok(memwb(dir, &add_args(name, description, body)));
}

/// The file name the manifest lists for record `name`.
pub fn file_of(dir: &Path, name: &str) -> String {
    let listed: Vec<serde_json::Value> =
        serde_json::from_str(&ok(memwb(dir, &["ls", "--json"]))).expect("ls --json");
    listed
        .iter()
        .find(|r| r["name"] == name)
        .and_then(|r| r["file"].as_str())
        .expect("listed")
        .to_owned()
}

/// `memwb --memory-dir MEMORY ARGS` on a Claude Code folder, isolated: a clean environment with
/// `HOME` at `home` and memwb's state directory at `state`.
pub fn memwb_claude(home: &Path, memory: &Path, state: &Path, args: &[&str]) -> Output {
    memwb_claude_with(home, memory, state, args, "")
}

/// `memwb_claude` with `stdin` as the standard input.
pub fn memwb_claude_with(
    home: &Path,
    memory: &Path,
    state: &Path,
    args: &[&str],
    stdin: &str,
) -> Output {
    let mut command = claude_command(home, memory, state);
    command.args(args);
    output_with_stdin(command, stdin)
}

/// `memwb --memory-dir MEMORY` as [`memwb_claude`] runs it, not started: arguments to add.
pub fn claude_command(home: &Path, memory: &Path, state: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_memwb"));
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("MEMWB_STATE_DIR", state)
        .current_dir(home)
        .arg("--memory-dir")
        .arg(memory);
    command
}

/// `(code, file)` of every finding of a `check --json` report on one folder.
pub fn finding_files(report: &serde_json::Value) -> Vec<(String, String)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap_or_default().to_owned(),
                f["file"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}
