//! What one command is: the program behind its wrappers (`env`, `nice`, `timeout`,
//! `command`, `sudo`, `xargs`, …), whether it is on the short list of read-only commands
//! with read-only flags, and whether it runs code of its own (`bash -c`, `eval`, `python
//! -c`, a pipe into a shell). Anything not recognised is not read-only: the list says what
//! is safe, never what is dangerous.

use super::bash_word::{Expanded, Seg, known_text};

/// The code a command runs besides its own program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Script {
    /// Shell text to parse and judge in turn (`bash -c`, `eval`, a heredoc into `sh`).
    Shell(String),
    /// Another language's inline code (`python -c`, `node -e`, a heredoc into `perl`).
    Code(String),
    /// Code that is only known at run time: why.
    Unknown(String),
}

/// One command as the gate judges it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Role {
    /// The program behind the wrappers, as named ("" for a bare redirection).
    pub name: String,
    pub read_only: bool,
    /// `xargs`: the program gets arguments only known at run time.
    pub arguments_unknown: bool,
    pub scripts: Vec<Script>,
    /// `cd`/`pushd`: the directory it changes to (`None` inside: only known at run time).
    pub changes_dir: Option<Option<Expanded>>,
}

/// Judges a command's words (program first) and what it gets on standard input.
pub(crate) fn role(words: &[Expanded], piped_stdin: bool, stdin_texts: &[String]) -> Role {
    let mut role = Role {
        name: String::new(),
        read_only: true,
        arguments_unknown: false,
        scripts: Vec::new(),
        changes_dir: None,
    };
    let mut at = 0;
    loop {
        let Some(word) = words.get(at) else {
            // Only wrappers, or nothing: `env` prints, `xargs` runs `echo`.
            return role;
        };
        let Some(program) = known_text(word) else {
            role.name = "a program only known at run time".into();
            role.read_only = false;
            role.scripts.push(Script::Unknown(
                "the program's name is only known at run time".into(),
            ));
            return role;
        };
        let name = program.rsplit('/').next().unwrap_or(&program).to_owned();
        let args: Vec<Option<String>> = words[at + 1..].iter().map(|w| known_text(w)).collect();
        match wrapped(&name, &args) {
            Wrapper::Runs(skip) => {
                if name == "xargs" {
                    role.arguments_unknown = true;
                }
                at += 1 + skip;
            }
            Wrapper::Opaque(why) => {
                role.name = name;
                role.read_only = false;
                role.scripts.push(Script::Unknown(why));
                return role;
            }
            Wrapper::Not => {
                role.name.clone_from(&name);
                judge_program(&mut role, &name, &words[at + 1..], piped_stdin, stdin_texts);
                return role;
            }
        }
    }
}

enum Wrapper {
    /// Runs the program after this many more words.
    Runs(usize),
    /// Runs something the gate cannot see.
    Opaque(String),
    Not,
}

/// Options of a wrapper that take the next word as their value.
fn takes_value(wrapper: &str, option: &str) -> bool {
    let options: &[&str] = match wrapper {
        "env" => &["-u", "--unset"],
        "nice" => &["-n", "--adjustment"],
        "timeout" => &["-s", "--signal", "-k", "--kill-after"],
        "sudo" | "doas" => &["-u", "-g", "-h", "-p", "-r", "-t", "-U", "-T", "-C", "-D"],
        "xargs" => &[
            "-I",
            "-d",
            "-n",
            "-P",
            "-L",
            "-s",
            "-E",
            "-a",
            "--arg-file",
            "-i",
        ],
        "stdbuf" => &["-i", "-o", "-e"],
        "ionice" => &["-c", "-n", "-p", "-P", "-u"],
        "taskset" | "chrt" => &["-p"],
        _ => &[],
    };
    options.contains(&option)
}

/// Programs that run the command after their options, which the gate follows.
const FOLLOWED_WRAPPERS: &[&str] = &[
    "env", "nice", "timeout", "command", "sudo", "doas", "nohup", "exec", "time", "builtin",
    "stdbuf", "setsid", "ionice", "chrt", "taskset", "xargs", "unbuffer", "chronic",
];

/// Programs that run a command whose place among their words depends on their option
/// syntax; not worth modelling for an agent's commands.
const UNFOLLOWED_WRAPPERS: &[&str] = &[
    "watch", "su", "runuser", "flock", "strace", "ltrace", "nsenter", "unshare", "firejail",
    "proot", "fakeroot",
];

fn wrapped(name: &str, args: &[Option<String>]) -> Wrapper {
    if UNFOLLOWED_WRAPPERS.contains(&name) {
        return Wrapper::Opaque(format!("`{name}` runs a command the gate does not follow"));
    }
    if !FOLLOWED_WRAPPERS.contains(&name) {
        return Wrapper::Not;
    }
    let mut skip = 0;
    while let Some(arg) = args.get(skip) {
        let Some(arg) = arg else {
            return Wrapper::Opaque(format!("`{name}` has an option only known at run time"));
        };
        if name == "command" && matches!(arg.as_str(), "-v" | "-V") {
            return Wrapper::Not;
        }
        if name == "env"
            && (arg == "-S"
                || arg.starts_with("--split-string")
                || arg.starts_with("--chdir")
                || arg == "-C"
                || (arg.starts_with('-') && !arg.starts_with("--") && arg.contains(['S', 'C'])))
        {
            return Wrapper::Opaque(
                "`env -S`/`env -C` runs a command the gate does not follow".into(),
            );
        }
        if arg == "--" {
            skip += 1;
            break;
        }
        let option = arg.starts_with('-') && arg.len() > 1;
        let assignment = name == "env" && is_assignment(arg);
        if !(option || assignment) {
            break;
        }
        skip += if takes_value(name, arg) { 2 } else { 1 };
    }
    if name == "timeout" {
        skip += 1; // the duration
    }
    Wrapper::Runs(skip)
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Programs that only read, whatever their flags.
const READ_ONLY: &[&str] = &[
    "cat",
    "head",
    "tail",
    "ls",
    "grep",
    "egrep",
    "fgrep",
    "wc",
    "diff",
    "cmp",
    "stat",
    "echo",
    "printf",
    "pwd",
    "true",
    "false",
    ":",
    "test",
    "[",
    "[[",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "which",
    "type",
    "whoami",
    "id",
    "uname",
    "date",
    "printenv",
    "cut",
    "tr",
    "nl",
    "du",
    "df",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "od",
    "jq",
    "column",
    "strings",
    "comm",
    "join",
    "paste",
    "fold",
    "rev",
    "tac",
    "seq",
    "sleep",
    "cd",
    "pushd",
    "popd",
    "dirs",
    "export",
    "unset",
    "shift",
    "local",
    "declare",
    "typeset",
    "readonly",
    "read",
    "exit",
    "return",
    "set",
    "for",
    "case",
    "hash",
    "command",
    "env",
];

fn judge_program(
    role: &mut Role,
    name: &str,
    words: &[Expanded],
    piped_stdin: bool,
    stdin_texts: &[String],
) {
    let args: Vec<Option<String>> = words.iter().map(|w| known_text(w)).collect();
    let args = &args[..];
    // For flag checks a word only known at run time still cannot be a flag when it starts
    // with a known character other than `-` (`{G}/{a,b}.md`, `"$d"/x` cannot).
    let flag_view: Vec<Option<String>> = words.iter().map(|w| flag_text(w)).collect();
    let flags: Option<Vec<String>> = flag_view.iter().cloned().collect();
    // With `xargs` in front, more arguments follow that could be any flag.
    let flags_known = flags.as_ref().filter(|_| !role.arguments_unknown);
    role.read_only = if READ_ONLY.contains(&name) {
        true
    } else if let Some(flags) = flags_known {
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        read_only_with_flags(name, &flags)
    } else {
        false
    };
    if matches!(name, "cd" | "pushd") {
        let target = args
            .iter()
            .zip(0..)
            .find(|(a, _)| a.as_deref().is_none_or(|a| !a.starts_with('-') || a == "-"))
            .map(|(_, i)| i);
        role.changes_dir = Some(match target {
            None => Some(Vec::new()), // home, resolved by the caller
            Some(i) if args[i].as_deref() == Some("-") => None,
            Some(i) => args[i].as_deref().map(super::bash_word::literal),
        });
    }
    if is_shell(name) || name == "eval" {
        shell_scripts(role, name, args, piped_stdin, stdin_texts);
        // What a parsed script runs is judged command by command; the shell running it
        // changes nothing itself. A script file or one only known at run time is not
        // parsed, and the shell is then not read-only.
        let parsed =
            !role.scripts.is_empty() && role.scripts.iter().all(|s| matches!(s, Script::Shell(_)));
        role.read_only = parsed;
    } else if let Some(code_flags) = interpreter(name) {
        let mut inline = false;
        for (i, arg) in args.iter().enumerate() {
            if arg.as_deref().is_some_and(|a| code_flags.contains(&a)) {
                inline = true;
                match args.get(i + 1) {
                    Some(Some(code)) => role.scripts.push(Script::Code(code.clone())),
                    _ => role.scripts.push(Script::Unknown(format!(
                        "`{name}` runs code only known at run time"
                    ))),
                }
            }
        }
        let has_operand = args
            .iter()
            .any(|a| a.as_deref().is_none_or(|a| !a.starts_with('-')));
        if !inline && (!has_operand || args.iter().any(|a| a.as_deref() == Some("-"))) {
            stdin_scripts(role, name, piped_stdin, stdin_texts, false);
        }
    }
}

/// A word as flag checks see it: its text, with `*` for what is only known at run time,
/// when that cannot make it start with `-`.
fn flag_text(word: &[Seg]) -> Option<String> {
    match word.first() {
        Some(Seg::Lit(c)) if *c != '-' => Some(
            word.iter()
                .map(|s| if let Seg::Lit(c) = s { *c } else { '*' })
                .collect(),
        ),
        _ => known_text(word),
    }
}

fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "dash" | "zsh" | "ksh" | "mksh" | "ash" | "busybox"
    )
}

/// The flags that give an interpreter its code inline, when `name` is one.
fn interpreter(name: &str) -> Option<&'static [&'static str]> {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match base {
        "python" | "pypy" | "py" => &["-c"],
        "node" | "nodejs" | "bun" => &["-e", "--eval", "-p", "--print"],
        "deno" => &["eval"],
        "perl" | "ruby" | "lua" | "luajit" => &["-e", "-E"],
        "php" => &["-r"],
        "Rscript" => &["-e"],
        "osascript" => &["-e"],
        "tclsh" | "wish" | "fish" | "pwsh" => &["-c", "-Command"],
        _ => return None,
    })
}

fn shell_scripts(
    role: &mut Role,
    name: &str,
    args: &[Option<String>],
    piped_stdin: bool,
    stdin_texts: &[String],
) {
    if name == "eval" {
        let text: Option<Vec<&str>> = args.iter().map(|a| a.as_deref()).collect();
        role.scripts.push(match text {
            Some(parts) => Script::Shell(parts.join(" ")),
            None => Script::Unknown("`eval` of text only known at run time".into()),
        });
        return;
    }
    let mut operands = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        match arg.as_deref() {
            Some(a) if a.starts_with('-') && !a.starts_with("--") && a.contains('c') => {
                role.scripts.push(match args.get(i + 1) {
                    Some(Some(script)) => Script::Shell(script.clone()),
                    _ => Script::Unknown(format!("`{name} -c` of text only known at run time")),
                });
                return;
            }
            Some("-o" | "+o" | "-O" | "+O") => i += 1,
            Some(a) if a.starts_with(['-', '+']) && a != "-" => {}
            _ => {
                operands = true;
                break;
            }
        }
        i += 1;
    }
    if !operands || args.iter().any(|a| a.as_deref() == Some("-s")) {
        stdin_scripts(role, name, piped_stdin, stdin_texts, true);
    }
}

fn stdin_scripts(role: &mut Role, name: &str, piped: bool, texts: &[String], shell: bool) {
    if piped {
        role.scripts.push(Script::Unknown(format!(
            "a pipe into `{name}` runs code only known at run time"
        )));
    }
    for text in texts {
        role.scripts.push(if shell {
            Script::Shell(text.clone())
        } else {
            Script::Code(text.clone())
        });
    }
}

/// The read-only commands whose flags decide.
fn read_only_with_flags(name: &str, args: &[&str]) -> bool {
    let short_cluster_has = |a: &str, letter: char| {
        a.starts_with('-') && !a.starts_with("--") && a[1..].contains(letter)
    };
    match name {
        "find" => !args.iter().any(|a| {
            matches!(
                *a,
                "-delete" | "-exec" | "-execdir" | "-ok" | "-okdir" | "-fls"
            ) || a.starts_with("-fprint")
        }),
        "rg" => !args.iter().any(|a| a.starts_with("--pre")),
        "sort" => !args.iter().any(|a| {
            a.starts_with("--output")
                || a.starts_with("--compress-program")
                || short_cluster_has(a, 'o')
        }),
        "uniq" => args.iter().filter(|a| !a.starts_with('-')).count() <= 1,
        "file" => !args
            .iter()
            .any(|a| *a == "--compile" || short_cluster_has(a, 'C')),
        "tree" => !args.iter().any(|a| short_cluster_has(a, 'o')),
        "git" => git_read_only(args),
        _ => false,
    }
}

fn git_read_only(args: &[&str]) -> bool {
    let mut i = 0;
    // Global options: `-C DIR` is harmless; `-c`, `--config-env`, `--exec-path` can run code.
    while let Some(arg) = args.get(i) {
        match *arg {
            "-C" | "--git-dir" | "--work-tree" => i += 2,
            "--no-pager" | "--no-optional-locks" | "-P" => i += 1,
            a if a.starts_with("--git-dir=") || a.starts_with("--work-tree=") => i += 1,
            _ => break,
        }
    }
    let Some(sub) = args.get(i) else {
        return false;
    };
    matches!(
        *sub,
        "log" | "show" | "diff" | "status" | "blame" | "rev-parse" | "ls-files"
    ) && !args[i + 1..]
        .iter()
        .any(|a| a.starts_with("--output") || a.starts_with("--ext-diff") || a.starts_with("-o"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::claude_code::hook::bash_word::literal;

    fn role_of(words: &[&str]) -> Role {
        let words: Vec<Expanded> = words.iter().map(|w| literal(w)).collect();
        role(&words, false, &[])
    }

    #[test]
    fn wrappers_are_seen_through() {
        let r = role_of(&[
            "env", "-i", "A=1", "nice", "-n", "5", "timeout", "-s", "KILL", "5", "rm", "x",
        ]);
        assert_eq!(r.name, "rm");
        assert!(!r.read_only);
        let r = role_of(&["command", "-p", "cat", "x"]);
        assert_eq!((r.name.as_str(), r.read_only), ("cat", true));
        assert!(role_of(&["xargs", "-0", "grep", "x"]).read_only);
        let r = role_of(&["xargs", "find"]);
        assert!(!r.read_only, "xargs could add -delete");
    }

    #[test]
    fn flags_decide_for_find_sort_and_git() {
        assert!(role_of(&["find", ".", "-name", "*.md"]).read_only);
        assert!(!role_of(&["find", ".", "-delete"]).read_only);
        assert!(!role_of(&["find", ".", "-fprint", "x"]).read_only);
        assert!(!role_of(&["sort", "-uo", "x", "y"]).read_only);
        assert!(role_of(&["git", "-C", "d", "log", "-p"]).read_only);
        assert!(!role_of(&["git", "-c", "core.pager=sh", "log"]).read_only);
        assert!(!role_of(&["git", "diff", "--output=x"]).read_only);
        assert!(!role_of(&["git", "commit"]).read_only);
    }

    #[test]
    fn inline_code_is_found() {
        let r = role_of(&["bash", "-ec", "touch x"]);
        assert_eq!(r.scripts, vec![Script::Shell("touch x".into())]);
        let r = role_of(&["python3", "-c", "print(1)"]);
        assert_eq!(r.scripts, vec![Script::Code("print(1)".into())]);
        let piped = role(&[literal("sh")], true, &[]);
        assert!(matches!(piped.scripts[..], [Script::Unknown(_)]));
        let eval = role_of(&["eval", "rm", "x"]);
        assert_eq!(eval.scripts, vec![Script::Shell("rm x".into())]);
    }
}
