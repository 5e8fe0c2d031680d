//! The review gate's Bash rule, checked against Bash itself (issue 21 item 2). Commands are
//! generated from a grammar of writing and reading commands, paths into a gated folder
//! (direct, through a symlink, `~`, `$HOME`, a variable, a glob, a brace expansion, a
//! command substitution, relative after `cd`) and paths elsewhere, and wrappers; each is run
//! for real by `bash` in a sandbox whose HOME is inside it. Every command that changed the
//! gated folder must have been denied. Read-only commands that were denied are counted; the
//! rate is in docs/claude-code.md. A second property feeds random and hostile text to the
//! judge: it never panics and always answers.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use memwb::agents::claude_code::hook::Guarded;
use memwb::agents::claude_code::hook::bash::{BashVerdict, PathContext, judge};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Far above any real judgement (the judge's own budget is 500 ms), far below a hang.
const DEADLINE: Duration = Duration::from_secs(5);

struct Sandbox {
    _root: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    memory: PathBuf,
    project: PathBuf,
}

impl Sandbox {
    fn new() -> Self {
        let root_dir = tempfile::tempdir().expect("tempdir");
        let root = fs::canonicalize(root_dir.path()).expect("canonical tempdir");
        let home = root.join("home");
        let memory = home.join(".claude/projects/-proj/memory");
        let project = home.join("proj");
        let outside = root.join("out");
        for dir in [&memory, &project, &outside] {
            fs::create_dir_all(dir).expect("mkdir");
        }
        fs::write(memory.join("MEMORY.md"), "- [a](a.md): about a\n").expect("index");
        fs::write(memory.join("a.md"), "---\nname: a\n---\nalpha\n").expect("a.md");
        fs::write(outside.join("src.md"), "outside\n").expect("src");
        fs::write(project.join("x.md"), "project\n").expect("x");
        std::os::unix::fs::symlink(&memory, root.join("alias")).expect("alias");
        Self {
            _root: root_dir,
            root,
            home,
            memory,
            project,
        }
    }

    /// Every entry under the gated folder: kind, bytes or link target, mode.
    fn snapshot(&self) -> BTreeMap<PathBuf, (String, Vec<u8>, u32)> {
        let mut out = BTreeMap::new();
        let mut stack = vec![self.memory.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = fs::read_dir(&dir) else {
                out.insert(dir.clone(), ("missing".into(), Vec::new(), 0));
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(meta) = fs::symlink_metadata(&path) else {
                    continue;
                };
                let mode = meta.permissions().mode();
                let (kind, bytes) = if meta.file_type().is_symlink() {
                    let target = fs::read_link(&path).unwrap_or_default();
                    (
                        "link".to_owned(),
                        target.into_os_string().into_encoded_bytes(),
                    )
                } else if meta.is_dir() {
                    stack.push(path.clone());
                    ("dir".to_owned(), Vec::new())
                } else if meta.is_file() {
                    ("file".to_owned(), fs::read(&path).unwrap_or_default())
                } else {
                    ("other".to_owned(), Vec::new())
                };
                out.insert(path, (kind, bytes, mode));
            }
        }
        out
    }

    fn run(&self, command: &str) {
        let status = Command::new("timeout")
            .args(["5", "bash", "-c", command])
            .current_dir(&self.project)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("CLAUDE_CONFIG_DIR", self.home.join(".claude"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        assert!(status.is_ok(), "bash did not start for {command}");
    }

    fn judge(&self, command: &str) -> BashVerdict {
        let context = PathContext {
            cwd: &self.project,
            home: Some(&self.home),
            claude_config: Some(&self.home.join(".claude")),
        };
        let protected = [Guarded::new(&self.memory)];
        let started = Instant::now();
        let verdict = judge(command, &context, &protected);
        assert!(
            started.elapsed() < DEADLINE,
            "judging took {:?}: {command}",
            started.elapsed()
        );
        verdict
    }
}

/// How a command names `a.md` in the gated folder (or a file elsewhere). `{G}` is the
/// folder, `{R}` the sandbox root; the first part is a statement to run before.
fn path_form() -> impl Strategy<Value = (&'static str, &'static str, bool)> {
    prop_oneof![
        Just(("", "{G}/a.md", true)),
        Just(("", "{R}/alias/a.md", true)),
        Just(("", "~/.claude/projects/-proj/memory/a.md", true)),
        Just(("", "$HOME/.claude/projects/-proj/memory/a.md", true)),
        Just(("", "\"${HOME}\"/.claude/projects/-proj/memory/a.md", true)),
        Just(("d={G}; ", "$d/a.md", true)),
        Just(("", "{R}/home/.claude/projects/*/memory/a.md", true)),
        Just(("", "{G}/{a,zz}.md", true)),
        Just(("", "$(echo {G})/a.md", true)),
        Just(("cd {G} && ", "a.md", true)),
        Just(("cd -P {R}/alias && ", "./a.md", true)),
        Just((
            "cd -- {R}/home/.claude/projects/-proj && ",
            "memory/a.md",
            true
        )),
        Just(("", "../.claude/projects/-proj/memory/a.md", true)),
        Just(("", "$'{G}\\x2fa.md'", true)),
        Just(("", "{R}/out/src.md", false)),
        Just(("", "x.md", false)),
        Just(("cd {R}/out && ", "src.md", false)),
    ]
}

/// Commands that change the file `{P}` names (`{G}` may appear for whole-folder forms).
fn writing() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("echo x > {P}"),
        Just("echo x >> {P}"),
        Just("printf y 1<> {P}"),
        Just("rm -f {P}"),
        Just("truncate -s 0 {P}"),
        Just("cp {R}/out/src.md {P}"),
        Just("mv {P} {R}/out/moved.md"),
        Just("sed -i s/alpha/beta/ {P}"),
        Just("gzip -f {P}"),
        Just("sort -o {P} {P}"),
        Just("tee {P} < /dev/null"),
        Just("ln -sf /etc/hostname {P}"),
        Just("chmod 600 {P}"),
        Just("dd of={P} if=/dev/null status=none"),
        Just("awk 'BEGIN { print \"x\" > \"'{P}'\" }'"),
        Just("split -l 1 {R}/out/src.md {P}."),
        Just("python3 -c \"import os; os.truncate('{P}', 0)\""),
        Just("perl -e 'truncate \"'{P}'\", 0'"),
        Just("node -e \"require('fs').rmSync('{P}')\""),
        Just("find {P} -delete"),
    ]
}

/// Commands that only read what `{P}` names.
fn reading() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("cat {P}"),
        Just("head -n 1 {P}"),
        Just("wc -c {P}"),
        Just("ls -l {P}"),
        Just("grep -c alpha {P}"),
        Just("stat {P}"),
        Just("find {P} -name '*.md'"),
        Just("diff {P} {R}/out/src.md"),
        Just("cat {P} > /dev/null"),
        Just("tail -n 2 {P} | sort | uniq -c"),
    ]
}

/// What runs the command: `{C}` is the command, `{Q}` it single-quoted; `true` when the
/// statement before the command goes inside the wrapper (a shell running a script), `false`
/// when before it (`env`, `nice`, ... run one program, not a statement).
fn wrapper() -> impl Strategy<Value = (&'static str, bool)> {
    prop_oneof![
        4 => Just(("{C}", true)),
        1 => Just(("env -i {C}", false)),
        1 => Just(("env A=1 {C}", false)),
        1 => Just(("nice -n 5 {C}", false)),
        1 => Just(("timeout 5 {C}", false)),
        1 => Just(("command {C}", false)),
        1 => Just(("bash -c {Q}", true)),
        1 => Just(("sh -c {Q}", true)),
        1 => Just(("eval {Q}", true)),
        1 => Just(("echo {Q} | bash", true)),
        1 => Just(("( {C} )", true)),
        1 => Just(("{ {C}; }", true)),
        1 => Just(("true && {C}", true)),
        1 => Just(("f() { {C}; }; f", true)),
    ]
}

fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

fn build(sandbox: &Sandbox, before: &str, path: &str, op: &str, wrap: (&str, bool)) -> String {
    let place = |text: &str| {
        text.replace("{G}", &sandbox.memory.display().to_string())
            .replace("{R}", &sandbox.root.display().to_string())
    };
    let (wrap, before_inside) = wrap;
    let op = place(&op.replace("{P}", path));
    let before = place(before);
    if before_inside {
        let inner = format!("{before}{op}");
        wrap.replace("{Q}", &quote(&inner)).replace("{C}", &inner)
    } else {
        let wrapped = wrap.replace("{Q}", &quote(&op)).replace("{C}", &op);
        format!("{before}{wrapped}")
    }
}

static COMMANDS: AtomicUsize = AtomicUsize::new(0);
static WRITES_SEEN: AtomicUsize = AtomicUsize::new(0);
static READS: AtomicUsize = AtomicUsize::new(0);
static READS_DENIED: AtomicUsize = AtomicUsize::new(0);

fn denied(verdict: &BashVerdict) -> bool {
    matches!(
        verdict,
        BashVerdict::MayWrite { .. } | BashVerdict::Undecidable { .. }
    )
}

#[test]
fn every_command_that_changed_the_gated_folder_was_denied() {
    let strategy = (
        path_form(),
        prop_oneof![
            3 => writing().prop_map(|op| (op, true)),
            2 => reading().prop_map(|op| (op, false)),
        ],
        wrapper(),
    );
    let mut runner = TestRunner::new(Config {
        cases: 160,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&strategy, |((before, path, _into), (op, writes), wrap)| {
        let sandbox = Sandbox::new();
        let command = build(&sandbox, before, path, op, wrap);
        let verdict = sandbox.judge(&command);
        let snapshot = sandbox.snapshot();
        sandbox.run(&command);
        let changed = sandbox.snapshot() != snapshot;
        COMMANDS.fetch_add(1, Ordering::Relaxed);
        if changed {
            WRITES_SEEN.fetch_add(1, Ordering::Relaxed);
            prop_assert!(
                denied(&verdict),
                "changed the gated folder but was {verdict:?}: {command}"
            );
        }
        if !writes {
            prop_assert!(!changed, "a reading command changed the folder: {command}");
            READS.fetch_add(1, Ordering::Relaxed);
            if denied(&verdict) {
                READS_DENIED.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    let reads = READS.load(Ordering::Relaxed);
    let reads_denied = READS_DENIED.load(Ordering::Relaxed);
    eprintln!(
        "{} commands, {} changed the gated folder (all denied); {} of {} read-only commands denied ({:.0}%)",
        COMMANDS.load(Ordering::Relaxed),
        WRITES_SEEN.load(Ordering::Relaxed),
        reads_denied,
        reads,
        100.0 * reads_denied as f64 / reads.max(1) as f64
    );
    // The grammar writes often: a run where nothing changed the folder proves nothing.
    assert!(WRITES_SEEN.load(Ordering::Relaxed) > 20);
}

/// Shell-shaped noise: quotes, substitutions, heredocs, redirections, brackets.
fn hostile() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("$(".to_owned()),
        Just(")".to_owned()),
        Just("`".to_owned()),
        Just("'".to_owned()),
        Just("\"".to_owned()),
        Just("$'\\x2f".to_owned()),
        Just("<<EOF\n".to_owned()),
        Just("\nEOF\n".to_owned()),
        Just("1<>".to_owned()),
        Just(">&".to_owned()),
        Just("{a,b}".to_owned()),
        Just("${x:-$(rm y)}".to_owned()),
        Just("((".to_owned()),
        Just("[[ ".to_owned()),
        Just(" | bash".to_owned()),
        Just("; ".to_owned()),
        Just("\\".to_owned()),
        Just("~/".to_owned()),
        "[a-z/. ]{0,12}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..60).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(Config { cases: 300, failure_persistence: None, ..Config::default() })]

    #[test]
    fn random_and_hostile_text_never_panics_and_is_answered(text in hostile()) {
        let home = Path::new("/nonexistent-memwb-fuzz/home");
        let context = PathContext {
            cwd: Path::new("/nonexistent-memwb-fuzz/home/proj"),
            home: Some(home),
            claude_config: Some(&home.join(".claude")),
        };
        let protected = [Guarded::new(&home.join(".claude/projects/-proj/memory"))];
        let started = Instant::now();
        let _ = judge(&text, &context, &protected);
        prop_assert!(started.elapsed() < DEADLINE, "judging took {:?}", started.elapsed());
    }
}
