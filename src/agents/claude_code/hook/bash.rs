//! Whether a Bash command may change a protected path (a gated memory folder, or a file that
//! configures the gate). The rule is inverted: a command that may touch a protected path at
//! all — by any spelling of it, `~`, `$HOME`, a variable, a glob, a brace expansion, a
//! command substitution, or a relative path from a directory in or above it — is allowed
//! only when every command in it is on a short list of read-only commands with read-only
//! flags (`super::bash_allow`). A list of writing commands could never be complete.
//! docs/claude-code.md, "Bash in review mode".

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use super::Guarded;
use super::bash_allow::{Role, Script, role};
use super::bash_parse::{Exec, Refused, commands};
use super::bash_reach::{Cwds, cwd_inside, forms, touched};
use super::bash_word::{Expanded, Seg, known_text, literal, path_candidates};
pub(crate) use crate::claude::locate::normalize;

/// How to expand and resolve the paths a command names.
pub struct PathContext<'a> {
    pub cwd: &'a Path,
    pub home: Option<&'a Path>,
    pub claude_config: Option<&'a Path>,
}

/// What a Bash command means for the protected paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BashVerdict {
    /// It cannot touch a protected path.
    Unrelated,
    /// It may read a protected path, and only reads.
    ReadOnly,
    /// A command in it that is not read-only may touch `protected[folder]`: `why` says which
    /// and how, for the deny reason.
    MayWrite { folder: usize, why: String },
    /// It may touch a protected path and the gate cannot tell what it does (parser refusal,
    /// a bound reached, code only known at run time). `folder` is the first it may touch.
    Undecidable { folder: usize, why: String },
}

/// How long judging one command may take (the hook's whole budget is 2 s).
pub const JUDGE_BUDGET: Duration = Duration::from_millis(500);

/// How deep `bash -c` inside `eval` inside `$(…)` … is followed.
const MAX_SCRIPT_DEPTH: u8 = 6;

/// Judges `command` run from `context.cwd` against `protected` (folders or single files,
/// each by all its spellings). Answers within [`JUDGE_BUDGET`] whatever the input.
pub fn judge(command: &str, context: &PathContext, protected: &[Guarded]) -> BashVerdict {
    if protected.is_empty() {
        return BashVerdict::Unrelated;
    }
    let owned = Owned {
        command: command.to_owned(),
        cwd: context.cwd.to_path_buf(),
        home: context.home.map(Path::to_path_buf),
        claude_config: context.claude_config.map(Path::to_path_buf),
        protected: protected.to_vec(),
    };
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("memwb-bash-judge".into())
        // The parser recurses per nesting level; the input's nesting is bounded, this is
        // room for it.
        .stack_size(32 * 1024 * 1024)
        .spawn(move || {
            let _ = tx.send(owned.judge());
        });
    if spawned.is_err() {
        return fallback(
            command,
            context,
            protected,
            "the judge could not be started",
        );
    }
    rx.recv_timeout(JUDGE_BUDGET).unwrap_or_else(|_| {
        fallback(
            command,
            context,
            protected,
            &format!("judging took longer than {} ms", JUDGE_BUDGET.as_millis()),
        )
    })
}

struct Owned {
    command: String,
    cwd: PathBuf,
    home: Option<PathBuf>,
    claude_config: Option<PathBuf>,
    protected: Vec<Guarded>,
}

impl Owned {
    fn judge(&self) -> BashVerdict {
        let context = PathContext {
            cwd: &self.cwd,
            home: self.home.as_deref(),
            claude_config: self.claude_config.as_deref(),
        };
        let mut all = Vec::new();
        if let Err(Refused(why)) = collect(&self.command, &context, 0, &mut all) {
            return fallback(&self.command, &context, &self.protected, &why);
        }
        // With CDPATH set, `cd name` may go anywhere CDPATH lists.
        let cdpath = self.command.contains("CDPATH") || std::env::var_os("CDPATH").is_some();
        let cwds = directories(&all, &context, cdpath);
        let mut verdict = BashVerdict::Unrelated;
        for (exec, role) in &all {
            match judge_exec(exec, role, &cwds, &context, &self.protected) {
                BashVerdict::Unrelated => {}
                BashVerdict::ReadOnly => verdict = BashVerdict::ReadOnly,
                other => return other,
            }
        }
        verdict
    }
}

/// Every command `command` may run, scripts in it (`bash -c`, `eval`, heredocs into a
/// shell) parsed in turn.
fn collect(
    command: &str,
    context: &PathContext,
    depth: u8,
    out: &mut Vec<(Exec, Role)>,
) -> Result<(), Refused> {
    if depth > MAX_SCRIPT_DEPTH {
        return Err(Refused(format!(
            "scripts nest deeper than {MAX_SCRIPT_DEPTH} levels"
        )));
    }
    for exec in commands(command, context)? {
        let role = role(&exec.words, exec.piped_stdin, &exec.stdin_texts);
        let nested: Vec<String> = role
            .scripts
            .iter()
            .filter_map(|s| match s {
                Script::Shell(text) => Some(text.clone()),
                _ => None,
            })
            .collect();
        out.push((exec, role));
        for text in nested {
            collect(&text, context, depth + 1, out)?;
        }
    }
    Ok(())
}

/// The session's directory and every one a `cd`/`pushd` may change to (`cdpath`: a
/// relative target not starting with `.` may be found through CDPATH, so is unknown).
fn directories(all: &[(Exec, Role)], context: &PathContext, cdpath: bool) -> Cwds {
    let mut cwds = vec![Some(context.cwd.to_path_buf())];
    for (_, role) in all {
        let Some(target) = &role.changes_dir else {
            continue;
        };
        let home = context.home.map(|h| literal(&h.to_string_lossy()));
        let target = match target {
            Some(t) if t.is_empty() => home,
            other => other.clone(),
        };
        match target.as_deref().and_then(known_text) {
            Some(dir) if dir.starts_with('/') => cwds.push(Some(normalize(Path::new(&dir)))),
            Some(dir) if cdpath && !dir.starts_with('.') => cwds.push(None),
            Some(dir) => {
                let joined: Vec<_> = cwds
                    .iter()
                    .map(|c| c.as_ref().map(|c| normalize(&c.join(&dir))))
                    .collect();
                cwds.extend(joined);
            }
            None => cwds.push(None),
        }
    }
    cwds.dedup();
    Cwds(cwds)
}

fn judge_exec(
    exec: &Exec,
    role: &Role,
    cwds: &Cwds,
    context: &PathContext,
    protected: &[Guarded],
) -> BashVerdict {
    let writes: Vec<&Expanded> = exec
        .writes
        .iter()
        .filter(|w| known_text(w).is_none_or(|t| t != "/dev/null"))
        .collect();
    let read_only = role.read_only && writes.is_empty() && exec.opaque.is_none();
    let name = if role.name.is_empty() {
        "a redirection".to_owned()
    } else {
        format!("`{}`", role.name)
    };
    if let Some(why) = &exec.opaque {
        return BashVerdict::Undecidable {
            folder: 0,
            why: why.clone(),
        };
    }
    for script in &role.scripts {
        match script {
            Script::Unknown(why) => {
                return BashVerdict::Undecidable {
                    folder: 0,
                    why: why.clone(),
                };
            }
            Script::Code(code) => {
                if let Some((folder, found)) = code_reach(code, cwds, context, protected) {
                    return BashVerdict::MayWrite {
                        folder,
                        why: format!("{name} runs inline code that {found}"),
                    };
                }
            }
            Script::Shell(_) => {}
        }
    }
    if let Some(folder) = writes.iter().find_map(|w| word_reach(w, cwds, protected)) {
        let target = writes
            .iter()
            .find(|w| word_reach(w, cwds, protected).is_some())
            .map_or_else(String::new, |w| shown(w));
        return BashVerdict::MayWrite {
            folder,
            why: format!("{name} writes its output to {target}"),
        };
    }
    let words = exec
        .words
        .iter()
        .chain(&exec.assignments)
        .chain(&exec.reads);
    if read_only {
        let reads = words
            .clone()
            .any(|w| word_reach(w, cwds, protected).is_some());
        return if reads {
            BashVerdict::ReadOnly
        } else {
            BashVerdict::Unrelated
        };
    }
    if role.arguments_unknown {
        return BashVerdict::MayWrite {
            folder: 0,
            why: format!(
                "{name} gets its arguments from its input (xargs), which may name any path"
            ),
        };
    }
    for word in words {
        if let Some(folder) = word_reach(word, cwds, protected) {
            return BashVerdict::MayWrite {
                folder,
                why: format!(
                    "{name} is not a read-only command and names {}",
                    shown(word)
                ),
            };
        }
        // A glob or brace expansion inside free text (`'print > "'{G}/{a,b}.md'"'`): the
        // text before it is the start of a path.
        let (text, as_prefix) = match known_text(word) {
            Some(text) => (text, false),
            None => (
                word.iter()
                    .map(|s| if let Seg::Lit(c) = s { *c } else { ' ' })
                    .collect(),
                true,
            ),
        };
        if let Some((folder, found)) = text_reach(&text, cwds, context, protected, as_prefix) {
            return BashVerdict::MayWrite {
                folder,
                why: format!("{name} is not a read-only command and its argument {found}"),
            };
        }
    }
    if let Some(folder) = cwd_inside(cwds, protected) {
        return BashVerdict::MayWrite {
            folder,
            why: format!("{name} is not a read-only command and may run inside the folder"),
        };
    }
    BashVerdict::Unrelated
}

/// The protected entry a word may name, by any of its path-like parts.
fn word_reach(word: &[Seg], cwds: &Cwds, protected: &[Guarded]) -> Option<usize> {
    path_candidates(word)
        .into_iter()
        .filter(|c| !c.is_empty())
        .find_map(|c| touched(c, cwds, protected))
}

/// Text that looks like computing a path in inline code: the gate cannot follow it.
const COMPUTED_PATH_HINTS: &[&str] = &[
    "~",
    "$",
    "HOME",
    "home",
    "environ",
    "getenv",
    "ENV[",
    "expanduser",
    "chdir",
    "glob",
    "..",
    "CLAUDE",
    ".claude",
    "chr(",
    "fromCharCode",
    "\\x",
    "\\u",
    "\\0",
    "base64",
    "b64",
    "atob",
    "decode",
    "unhexlify",
    "pack(",
    "exec",
    "eval",
    "system",
    "spawn",
    "popen",
    "subprocess",
    "child_process",
    "readdir",
    "listdir",
    "scandir",
    "walk",
    "`",
    "qx",
    "reverse",
    "[::-1]",
    "getattr",
    "__import__",
    "import(",
    "cwd",
    "opendir",
    "getpw",
    "%2f",
    "%2F",
];

/// Inline code: names a protected path, or computes paths in a way the gate cannot follow.
fn code_reach(
    code: &str,
    cwds: &Cwds,
    context: &PathContext,
    protected: &[Guarded],
) -> Option<(usize, String)> {
    // A literal in code may be the start of a path built from it (`'/home/u/.cl' + 'aude'`).
    if let Some(found) = text_reach(code, cwds, context, protected, true) {
        return Some(found);
    }
    COMPUTED_PATH_HINTS
        .iter()
        .find(|hint| code.contains(*hint))
        .map(|hint| (0, format!("may compute a path (`{hint}`)")))
}

/// Path-like tokens in free text (a script, a sed or awk program) that name a protected
/// path: taken between quotes and between blanks, `~`, `$HOME`, `${HOME}` expanded. With
/// `as_prefix`, a token also stands for every path that starts with it.
fn text_reach(
    text: &str,
    cwds: &Cwds,
    context: &PathContext,
    protected: &[Guarded],
    as_prefix: bool,
) -> Option<(usize, String)> {
    let quoted = text.split(['"', '\'', '`', '(', ')', ',', ';', '\n']);
    let blank = text.split(|c: char| c.is_whitespace() || "\"'`(),;[]{}<>|&=".contains(c));
    let home = context.home.map(|h| h.to_string_lossy().into_owned());
    quoted.chain(blank).find_map(|token| {
        let token = token.trim();
        if token.is_empty() || token.len() > 4096 {
            return None;
        }
        let expanded = match &home {
            Some(home) => {
                let mut t = token.to_owned();
                for spelling in ["${HOME}", "$HOME"] {
                    if let Some(rest) = t.strip_prefix(spelling) {
                        t = format!("{home}{rest}");
                    }
                }
                if let Some(rest) = t.strip_prefix('~')
                    && (rest.is_empty() || rest.starts_with('/'))
                {
                    t = format!("{home}{rest}");
                }
                t
            }
            None => token.to_owned(),
        };
        let mut word = literal(&expanded);
        if as_prefix {
            word.push(Seg::Wild);
        }
        touched(&word, cwds, protected).map(|folder| (folder, format!("names {}", shorten(token))))
    })
}

/// Bad input or a bound reached: cannot decide, unless the text plainly cannot reach a
/// protected path (no expansion, quoting or `..` that could hide one, no protected
/// spelling, and not run from in or above one).
fn fallback(command: &str, context: &PathContext, protected: &[Guarded], why: &str) -> BashVerdict {
    let hides = command.contains(['$', '~', '`', '\\', '\'', '"', '*', '?', '[', '{'])
        || command.contains("..");
    let spelled = protected.iter().enumerate().find(|(_, g)| {
        g.aliases.iter().any(|alias| {
            let alias = alias.to_string_lossy();
            command.contains(alias.as_ref())
                || alias
                    .rsplit('/')
                    .next()
                    .is_some_and(|last| !last.is_empty() && command.contains(last))
        })
    });
    let cwd = forms(context.cwd);
    let near = protected.iter().position(|g| {
        g.aliases.iter().any(|alias| {
            cwd.iter()
                .any(|c| c.starts_with(alias) || alias.starts_with(c))
        })
    });
    match (spelled.map(|(i, _)| i).or(near), hides) {
        (None, false) => BashVerdict::Unrelated,
        (folder, _) => BashVerdict::Undecidable {
            folder: folder.unwrap_or(0),
            why: format!("the command cannot be judged: {why}"),
        },
    }
}

/// A word for a message: unknown parts as `*` (a glob) and `…` (anything).
fn shown(word: &[Seg]) -> String {
    let text: String = word
        .iter()
        .map(|s| match s {
            Seg::Lit(c) => *c,
            Seg::Wild => '*',
            Seg::Open => '…',
        })
        .collect();
    shorten(&text)
}

fn shorten(text: &str) -> String {
    let mut out: String = text.chars().take(120).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    format!("{out:?}")
}
