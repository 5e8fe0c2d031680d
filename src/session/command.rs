//! A model behind a local program: the request goes to its stdin as stable JSON
//! (`{"messages":[...],"tools":[]}`), the reply comes from its stdout as
//! `{"message":{"content":"...","tool_calls":[...]},"finish_reason":"stop"}`.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::model::shorten;
use super::model::{ModelClient, ModelError, ModelReply, ModelRequest};

/// Output beyond this is refused.
const MAX_OUTPUT_BYTES: u64 = 8 * 1024 * 1024;
const POLL: Duration = Duration::from_millis(10);

#[derive(Debug, Clone)]
pub struct CommandClient {
    program: OsString,
    args: Vec<OsString>,
    label: String,
    timeout: Duration,
}

impl CommandClient {
    /// Runs `program` with `args` directly (no shell).
    pub fn new(
        program: impl Into<OsString>,
        args: impl IntoIterator<Item = impl Into<OsString>>,
        timeout: Duration,
    ) -> Self {
        let program = program.into();
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let label = std::iter::once(&program)
            .chain(&args)
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        Self {
            program,
            args,
            label,
            timeout,
        }
    }

    /// Runs a command line through the platform shell (`sh -c` on Unix, `cmd /C` on Windows),
    /// so it may carry arguments and quoting.
    pub fn shell(command_line: &str, timeout: Duration) -> Self {
        let (shell, flag) = if cfg!(windows) {
            ("cmd", "/C")
        } else {
            ("sh", "-c")
        };
        Self {
            label: command_line.to_owned(),
            ..Self::new(shell, [flag, command_line], timeout)
        }
    }

    fn error(&self, detail: impl Into<String>) -> ModelError {
        ModelError::Command {
            command: self.label.clone(),
            detail: detail.into(),
        }
    }

    fn timed_out(&self) -> ModelError {
        ModelError::Timeout {
            target: format!("command {:?}", self.label),
            after: self.timeout,
        }
    }
}

fn spawn_reader(source: impl Read + Send + 'static) -> mpsc::Receiver<std::io::Result<Vec<u8>>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let result = source
            .take(MAX_OUTPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map(|_| bytes);
        let _ = tx.send(result);
    });
    rx
}

/// Kills the program and everything it started: it runs as the leader of its own process
/// group, so a shell's children (or a wrapper's model server) do not outlive a timeout.
fn kill(child: &mut Child) {
    #[cfg(unix)]
    if let Some(group) = rustix::process::Pid::from_raw(child.id() as i32) {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A new process group led by the child (Unix), so that [`kill`] reaches its descendants.
fn own_process_group(command: &mut Command) -> &mut Command {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    command
}

impl ModelClient for CommandClient {
    fn complete(&self, request: &ModelRequest) -> Result<ModelReply, ModelError> {
        let deadline = Instant::now() + self.timeout;
        let mut child = own_process_group(&mut Command::new(&self.program))
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| self.error(format!("could not start it: {e}")))?;
        let (Some(mut stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill(&mut child);
            return Err(self.error("could not open its stdin/stdout/stderr"));
        };
        let input = request.to_stable_json();
        // A program that exits without reading its input is not an error here: its reply is.
        thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let out = spawn_reader(stdout);
        let err = spawn_reader(stderr);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() >= deadline => {
                    kill(&mut child);
                    return Err(self.timed_out());
                }
                Ok(None) => thread::sleep(POLL),
                Err(e) => {
                    kill(&mut child);
                    return Err(self.error(format!("could not wait for it: {e}")));
                }
            }
        };
        // The pipes close when the program (and anything it started) is done with them.
        let collect = |rx: mpsc::Receiver<std::io::Result<Vec<u8>>>| {
            let left = deadline.saturating_duration_since(Instant::now()).max(POLL);
            match rx.recv_timeout(left) {
                Ok(Ok(bytes)) => Ok(bytes),
                Ok(Err(e)) => Err(self.error(format!("could not read its output: {e}"))),
                Err(_) => Err(self.timed_out()),
            }
        };
        // A descendant still holding a pipe past the deadline keeps the group alive (so its id
        // is not reused yet): it goes with the group.
        let stdout = collect(out).inspect_err(|_| kill(&mut child))?;
        let stderr = collect(err).unwrap_or_default();
        if !status.success() {
            let said = shorten(&String::from_utf8_lossy(&stderr));
            let how = match status.code() {
                Some(code) => format!("exited with status {code}"),
                None => "was killed by a signal".to_owned(),
            };
            return Err(self.error(if said.is_empty() {
                how
            } else {
                format!("{how}: {said}")
            }));
        }
        if stdout.len() as u64 > MAX_OUTPUT_BYTES {
            return Err(self.error(format!(
                "its output is larger than {MAX_OUTPUT_BYTES} bytes"
            )));
        }
        serde_json::from_slice::<ModelReply>(&stdout).map_err(|e| {
            self.error(format!(
                "its output is not a reply {{\"message\":{{\"content\":...}},\"finish_reason\":...}}: {e}"
            ))
        })
    }
}
