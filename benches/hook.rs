//! `cargo bench --bench hook`: the latency of `memwb hook claude` as Claude Code sees it (a
//! process started per call, its JSON on stdin, its answer on stdout) on a 200-file auto
//! memory folder, for each kind of call. The goal is 100 ms at the 95th percentile.
//! Plain std, no harness (criterion reports means and intervals, not the percentile the goal
//! is stated in): prints a table of medians and 95th percentiles.
//!
//! Environment: `MEMWB_BENCH_DIR` (where to create the folder; default: Cargo's target tmp
//! dir), `MEMWB_BENCH_ITERS` (calls per case, default 100). Figures: docs/performance.md.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GOAL_P95: Duration = Duration::from_millis(100);
const FILES: usize = 200;

struct Bench {
    home: PathBuf,
    project: PathBuf,
    memory: PathBuf,
}

impl Bench {
    fn new(root: &Path) -> Self {
        let home = root.join("home");
        let project = home.join("shop");
        fs::create_dir_all(&project).expect("project");
        let slug: String = project
            .to_str()
            .expect("utf-8")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let memory = home.join("claude/projects").join(slug).join("memory");
        fs::create_dir_all(&memory).expect("memory");
        let mut index = String::from("# Memory Index\n\n");
        for i in 0..FILES {
            let name = format!("project_note_{i:03}");
            fs::write(
                memory.join(format!("{name}.md")),
                format!(
                    "---\nname: {name}\ndescription: note {i} about the checkout service\nmetadata:\n  type: project\n  modified: 2026-09-14T08:21:07.512Z\n---\nRule {i}.\n\n**Why:** it broke once.\n\n**How to apply:** check it before deploying.\n"
                ),
            )
            .expect("topic");
            index.push_str(&format!("- [{name}]({name}.md) — note {i}\n"));
        }
        fs::write(memory.join("MEMORY.md"), index).expect("index");
        Self {
            home,
            project,
            memory,
        }
    }

    fn call(&self, input: &str, mode: &str) -> Duration {
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_memwb"))
            .env_clear()
            .env("HOME", &self.home)
            .env("CLAUDE_CONFIG_DIR", self.home.join("claude"))
            .env("MEMWB_STATE_DIR", self.home.join("state"))
            .env("MEMWB_CONFIG", self.home.join("memwb.toml"))
            .env("MEMWB_CLAUDE_MODE", mode)
            .args(["hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("stdin");
        let out = child.wait_with_output().expect("hook runs");
        let elapsed = started.elapsed();
        assert_eq!(out.status.code(), Some(0));
        elapsed
    }

    fn input(&self, event: &str, tool: &str, tool_input: serde_json::Value, id: &str) -> String {
        serde_json::json!({
            "session_id": "0b6f2c1e-5d0a-4c9b-9f3e-2a7d8c1b4e60",
            "transcript_path": self.home.join("t.jsonl"),
            "cwd": self.project,
            "permission_mode": "default",
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": id,
        })
        .to_string()
    }
}

/// One kind of call: the `i`th call's latency.
type Case<'a> = Box<dyn Fn(usize) -> Duration + 'a>;

impl Bench {
    /// How many proposals in memwb's state for the folder came from the call `tool_use_id`.
    fn proposals_for(&self, tool_use_id: &str) -> usize {
        let mut count = 0;
        let mut dirs = vec![self.home.join("state")];
        while let Some(dir) = dirs.pop() {
            for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.parent().is_some_and(|p| p.ends_with("proposals"))
                    && fs::read(&path)
                        .ok()
                        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
                        .is_some_and(|p| p["origin"]["call"]["tool_use_id"] == tool_use_id)
                {
                    count += 1;
                }
            }
        }
        count
    }
}

fn percentiles(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.95))
}

fn main() {
    let base = std::env::var_os("MEMWB_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    fs::create_dir_all(&base).expect("bench dir");
    let root = tempfile::tempdir_in(&base).expect("temp");
    let bench = Bench::new(root.path());
    let iters: usize = std::env::var("MEMWB_BENCH_ITERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let note = bench.memory.join("project_note_100.md");
    let mut cases: Vec<(&str, Case)> = Vec::new();
    let b = &bench;
    let read = b.input(
        "PreToolUse",
        "Read",
        serde_json::json!({"file_path": note}),
        "toolu_r",
    );
    cases.push((
        "unrelated tool (Read)",
        Box::new(move |_| b.call(&read, "review")),
    ));
    let no_path = b.input(
        "PreToolUse",
        "mcp__search__query",
        serde_json::json!({"query": "deploy rules", "limit": 5}),
        "toolu_n",
    );
    cases.push((
        "unrelated non-file tool (MCP, no path)",
        Box::new(move |_| b.call(&no_path, "review")),
    ));
    let mcp_outside = b.input(
        "PreToolUse",
        "mcp__filesystem__write_file",
        serde_json::json!({"path": b.project.join("src/lib.rs"), "content": "\n"}),
        "toolu_m",
    );
    cases.push((
        "MCP write outside the folder",
        Box::new(move |_| b.call(&mcp_outside, "review")),
    ));
    let outside = b.input(
        "PreToolUse",
        "Write",
        serde_json::json!({"file_path": b.project.join("src/main.rs"), "content": "fn main() {}\n"}),
        "toolu_o",
    );
    cases.push((
        "Write outside the folder",
        Box::new(move |_| b.call(&outside, "review")),
    ));
    let bash = b.input(
        "PreToolUse",
        "Bash",
        serde_json::json!({"command": format!("grep -rn deploy {} | head", b.memory.display())}),
        "toolu_b",
    );
    cases.push((
        "Bash read of the folder",
        Box::new(move |_| b.call(&bash, "review")),
    ));
    let heredoc = b.input(
        "PreToolUse",
        "Bash",
        serde_json::json!({"command": format!("cat > {}/x.md <<'EOF'\nbody\nEOF", b.memory.display())}),
        "toolu_h",
    );
    cases.push((
        "Bash heredoc into it (denied)",
        Box::new(move |_| b.call(&heredoc, "review")),
    ));
    let note_edit = note.clone();
    cases.push((
        "Edit in the folder, review (filed, denied)",
        Box::new(move |i| {
            let edit = b.input(
                "PreToolUse",
                "Edit",
                serde_json::json!({"file_path": note_edit, "old_string": "Rule 100.", "new_string": format!("Rule 100, take {i}.")}),
                &format!("toolu_e{i}"),
            );
            b.call(&edit, "review")
        }),
    ));
    let note_repeat = note.clone();
    let repeated = b.input(
        "PreToolUse",
        "Edit",
        serde_json::json!({"file_path": note_repeat, "old_string": "Rule 100.", "new_string": "Rule 100, repeated."}),
        "toolu_repeated",
    );
    cases.push((
        "the same Edit repeated (one proposal answers)",
        Box::new(move |_| b.call(&repeated, "review")),
    ));
    let note_record = note.clone();
    cases.push((
        "Edit in the folder, record (PreToolUse)",
        Box::new(move |i| {
            let edit = b.input(
                "PreToolUse",
                "Edit",
                serde_json::json!({"file_path": note_record, "old_string": "Rule 100.", "new_string": "Rule one hundred."}),
                &format!("toolu_p{i}"),
            );
            b.call(&edit, "record")
        }),
    ));
    let start = serde_json::json!({"session_id": "s", "cwd": b.project, "hook_event_name": "SessionStart", "source": "startup"}).to_string();
    cases.push((
        "SessionStart (proposals waiting)",
        Box::new(move |_| b.call(&start, "review")),
    ));

    println!(
        "memwb hook claude on a {FILES}-file folder, {iters} calls per case (a process per call)"
    );
    println!(
        "{:<44} {:>10} {:>10}  goal p95 {} ms",
        "case",
        "median",
        "p95",
        GOAL_P95.as_millis()
    );
    for (name, run) in &cases {
        // One call first: the binary and the folder in the page cache, as in a session.
        run(0);
        let samples: Vec<Duration> = (1..=iters).map(run).collect();
        let (median, p95) = percentiles(samples);
        let verdict = if p95 <= GOAL_P95 { "ok" } else { "over" };
        println!(
            "{name:<44} {:>8.2}ms {:>8.2}ms  {verdict}",
            median.as_secs_f64() * 1e3,
            p95.as_secs_f64() * 1e3
        );
    }
    println!(
        "proposals filed by the {} repeated identical calls: {}",
        iters + 1,
        bench.proposals_for("toolu_repeated")
    );
}
