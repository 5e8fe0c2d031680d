//! Does a Bash command write into a memory folder? A heuristic, not a shell: the command is
//! split into simple commands (on `;`, `&&`, `||`, `|`, `&`, newlines and parentheses, quotes
//! and backslashes understood, heredoc bodies set aside), and a simple command writes into the
//! folder when
//!
//! - an output redirection (`>`, `>>`, `>|`, `&>`, `N>`) targets a path inside it;
//! - it is a file-changing program (`tee`, `touch`, `truncate`, `rm`, `rmdir`, `unlink`,
//!   `mkdir`, `ln`, `mv`, `cp`, `install`, `rsync`, `dd of=`, `sed -i`, `perl -i`, `find
//!   -delete|-exec`) with an argument inside it;
//! - it is an interpreter (`python`, `node`, `ruby`, `perl`, ...) whose script (an argument or
//!   a heredoc body) names the folder and writes files (`open(..., 'w')`, `write_text`,
//!   `writeFile`, `unlink`, ...);
//! - it is `sh -c` / `bash -c` / `eval` of a string that does one of the above.
//!
//! "Inside" is judged on the text: `~`, `$HOME`, `${HOME}` and `$CLAUDE_CONFIG_DIR` are
//! expanded, a relative path is taken against the last `cd` in the command (else the session's
//! `cwd`), and `..` is resolved lexically. What a shell could compute at run time (variables,
//! globs outside the folder, `xargs`) is not seen: docs/claude-code.md lists the gaps.

use std::path::{Path, PathBuf};

use super::lex::split;
pub use crate::claude::locate::normalize;

/// How to expand and resolve the paths a command names.
pub struct PathContext<'a> {
    pub cwd: &'a Path,
    pub home: Option<&'a Path>,
    pub claude_config: Option<&'a Path>,
}

/// Whether `command` writes into any of `folders` (absolute, normalized paths).
pub fn writes_into(command: &str, folders: &[PathBuf], context: &PathContext) -> bool {
    writes_into_depth(command, folders, context, 0)
}

fn writes_into_depth(command: &str, folders: &[PathBuf], ctx: &PathContext, depth: u8) -> bool {
    let mut cwd = ctx.cwd.to_path_buf();
    for simple in split(command) {
        let words = program_words(&simple.words);
        let inside = |word: &str| {
            resolve(word, &cwd, ctx).is_some_and(|p| folders.iter().any(|f| p.starts_with(f)))
        };
        if simple.outputs.iter().any(|target| inside(target)) {
            return true;
        }
        let Some((program, args)) = words.split_first() else {
            continue;
        };
        let name = program.rsplit('/').next().unwrap_or(program);
        let operands = || args.iter().filter(|a| !a.starts_with('-'));
        let hit = match name {
            "cd" | "pushd" => {
                if let Some(dir) = args.first().and_then(|d| resolve(d, &cwd, ctx)) {
                    cwd = dir;
                }
                false
            }
            "tee" | "touch" | "truncate" | "rm" | "rmdir" | "unlink" | "mkdir" | "ln" | "mv"
            | "shred" => operands().any(|a| inside(a)),
            // Copies write their last operand (or the one after -t).
            "cp" | "install" | "rsync" | "scp" => {
                target_flag(args).is_some_and(&inside)
                    || operands().next_back().is_some_and(|a| inside(a))
            }
            "dd" => args
                .iter()
                .filter_map(|a| a.strip_prefix("of="))
                .any(inside),
            "sed" | "perl" if args.iter().any(|a| in_place(a)) => operands().any(|a| inside(a)),
            "find"
                if args
                    .iter()
                    .any(|a| matches!(a.as_str(), "-delete" | "-exec" | "-execdir" | "-ok")) =>
            {
                operands().any(|a| inside(a))
            }
            "sh" | "bash" | "zsh" | "dash" | "eval" if depth < 4 => {
                let script = if name == "eval" {
                    Some(args.join(" "))
                } else {
                    args.iter()
                        .position(|a| a == "-c" || (a.starts_with('-') && a.ends_with('c')))
                        .and_then(|i| args.get(i + 1).cloned())
                };
                script
                    .into_iter()
                    .chain(simple.heredocs.iter().cloned())
                    .any(|s| {
                        writes_into_depth(
                            &s,
                            folders,
                            &PathContext { cwd: &cwd, ..*ctx },
                            depth + 1,
                        )
                    })
            }
            _ if is_interpreter(name) => {
                let scripts = args.iter().chain(simple.heredocs.iter());
                let names_folder = args
                    .iter()
                    .chain(simple.heredocs.iter())
                    .any(|s| mentions(s, folders, &cwd, ctx));
                names_folder && scripts.clone().any(|s| script_writes(s))
            }
            _ => false,
        };
        if hit {
            return true;
        }
    }
    false
}

/// Skips what runs another program unchanged: `sudo`, `env`, `command`, `nohup`, `time`,
/// `xargs` is not among them (its operands come from stdin), and `VAR=value` prefixes.
fn program_words(words: &[String]) -> Vec<String> {
    let mut rest = words;
    loop {
        match rest.split_first() {
            Some((first, tail))
                if matches!(
                    first.as_str(),
                    "sudo" | "env" | "command" | "nohup" | "time" | "exec" | "nice"
                ) || is_assignment(first) =>
            {
                rest = tail;
            }
            _ => return rest.to_vec(),
        }
    }
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn target_flag(args: &[String]) -> Option<&str> {
    args.iter().enumerate().find_map(|(i, a)| {
        if a == "-t" || a == "--target-directory" {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix("--target-directory=")
        }
    })
}

fn in_place(arg: &str) -> bool {
    arg == "--in-place"
        || arg.starts_with("--in-place=")
        || (arg.starts_with('-') && !arg.starts_with("--") && arg[1..].contains('i'))
}

fn is_interpreter(name: &str) -> bool {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    matches!(
        base,
        "python" | "python3" | "py" | "node" | "deno" | "bun" | "ruby" | "perl" | "php" | "lua"
    )
}

/// Whether a script's text writes files.
fn script_writes(script: &str) -> bool {
    const WRITES: &[&str] = &[
        "write_text",
        "write_bytes",
        "writeFile",
        "appendFile",
        "createWriteStream",
        "File.write",
        "unlink",
        "remove(",
        "rmtree",
        "rename(",
        "replace(",
        "shutil.",
        "os.system",
        "subprocess",
        "execSync",
        "spawnSync",
        ".write(",
        "print >",
        "file_put_contents",
    ];
    if WRITES.iter().any(|w| script.contains(w)) {
        return true;
    }
    // open(path, 'w'), open(..., "a"), open(..., mode="x"), File.open(..., 'w'), perl's open(F, '>', ...).
    let mut rest = script;
    while let Some(at) = rest.find("open(") {
        let call = &rest[at + 5..];
        let args = call.split(')').next().unwrap_or(call);
        if args.split(',').skip(1).any(|arg| {
            let mode = arg
                .trim()
                .trim_start_matches("mode=")
                .trim_matches(|c| c == '\'' || c == '"');
            mode.starts_with('>') || (mode.len() <= 3 && mode.contains(['w', 'a', 'x', '+']))
        }) {
            return true;
        }
        rest = call;
    }
    false
}

/// Whether text names a path inside a folder: any word-like run of it that resolves there.
fn mentions(text: &str, folders: &[PathBuf], cwd: &Path, ctx: &PathContext) -> bool {
    text.split(|c: char| c.is_whitespace() || "'\"`(),;=[]{}<>|&".contains(c))
        .filter(|w| w.contains('/') || w.starts_with('~') || w.starts_with('$'))
        .any(|w| resolve(w, cwd, ctx).is_some_and(|p| folders.iter().any(|f| p.starts_with(f))))
}

/// A word as a path: `~`, `$HOME`, `${HOME}`, `$CLAUDE_CONFIG_DIR` expanded, relative ones
/// against `cwd`, `.` and `..` resolved without touching the disk. `None` for a word with
/// another variable in front, which cannot be known.
pub fn resolve(word: &str, cwd: &Path, ctx: &PathContext) -> Option<PathBuf> {
    let expanded = if let Some(rest) =
        word.strip_prefix("~/")
            .or(if word == "~" { Some("") } else { None })
    {
        ctx.home?.join(rest)
    } else if let Some((var, rest)) = leading_variable(word) {
        let base = match var {
            "HOME" => ctx.home?,
            "CLAUDE_CONFIG_DIR" => ctx.claude_config?,
            _ => return None,
        };
        base.join(rest.trim_start_matches('/'))
    } else {
        cwd.join(word)
    };
    Some(normalize(&expanded))
}

fn leading_variable(word: &str) -> Option<(&str, &str)> {
    let rest = word.strip_prefix('$')?;
    if let Some(braced) = rest.strip_prefix('{') {
        let end = braced.find('}')?;
        return Some((&braced[..end], &braced[end + 1..]));
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some((&rest[..end], &rest[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOLDER: &str = "/home/u/.claude/projects/-home-u-app/memory";

    fn writes(command: &str) -> bool {
        let ctx = PathContext {
            cwd: Path::new("/home/u/app"),
            home: Some(Path::new("/home/u")),
            claude_config: Some(Path::new("/home/u/.claude")),
        };
        writes_into(command, &[PathBuf::from(FOLDER)], &ctx)
    }

    #[test]
    fn redirections_into_the_folder_write() {
        assert!(writes(&format!("echo hi > {FOLDER}/a.md")));
        assert!(writes(
            "echo hi >> ~/.claude/projects/-home-u-app/memory/a.md"
        ));
        assert!(writes(
            "printf x >|\"$HOME/.claude/projects/-home-u-app/memory/MEMORY.md\""
        ));
        assert!(writes(
            "echo x &> ${HOME}/.claude/projects/-home-u-app/memory/a.md"
        ));
        assert!(writes(
            "echo x 1>$CLAUDE_CONFIG_DIR/projects/-home-u-app/memory/a.md"
        ));
        assert!(writes(
            "cd ~/.claude/projects/-home-u-app && echo x > memory/a.md"
        ));
        assert!(writes(
            "cd ~/.claude/projects/-home-u-app/memory; echo x > ./a.md"
        ));
    }

    #[test]
    fn heredocs_into_the_folder_write_and_their_bodies_are_not_commands() {
        let heredoc = format!(
            "cat > {FOLDER}/feedback_tests.md <<'EOF'\n---\nname: tests\n---\nrm -rf / > {FOLDER}/x\nEOF\necho done"
        );
        assert!(writes(&heredoc));
        // The body names the folder with `>`, but it is text, not a command.
        let harmless = format!("cat > /tmp/out.md <<EOF\necho x > {FOLDER}/a.md\nEOF\n");
        assert!(!writes(&harmless));
        assert!(writes(&format!("tee {FOLDER}/a.md <<-EOF\n\tbody\n\tEOF")));
    }

    #[test]
    fn file_changing_programs_with_an_operand_inside_write() {
        for command in [
            format!("tee -a {FOLDER}/a.md"),
            format!("sed -i 's/a/b/' {FOLDER}/a.md"),
            format!("sed --in-place -e s/a/b/ {FOLDER}/a.md"),
            format!("perl -pi -e 's/a/b/' {FOLDER}/a.md"),
            format!("rm {FOLDER}/a.md"),
            format!("sudo rm -f {FOLDER}/a.md"),
            format!("mv {FOLDER}/a.md /tmp/"),
            format!("cp /tmp/a.md {FOLDER}/"),
            format!("cp -t {FOLDER} /tmp/a.md"),
            format!("touch {FOLDER}/new.md"),
            format!("dd if=/dev/zero of={FOLDER}/a.md"),
            format!("find {FOLDER} -name '*.md' -delete"),
            format!("LC_ALL=C env sed -i s/a/b/ {FOLDER}/a.md"),
        ] {
            assert!(writes(&command), "{command}");
        }
    }

    #[test]
    fn interpreters_that_write_a_path_in_the_folder() {
        assert!(writes(&format!(
            "python3 -c \"open('{FOLDER}/a.md', 'w').write('x')\""
        )));
        assert!(writes(&format!(
            "python3 - <<'PY'\nfrom pathlib import Path\nPath('{FOLDER}/a.md').write_text('x')\nPY"
        )));
        assert!(writes(&format!(
            "node -e \"require('fs').writeFileSync('{FOLDER}/a.md', 'x')\""
        )));
        assert!(writes(&format!("bash -c 'echo x > {FOLDER}/a.md'")));
        // Reading in Python is not writing.
        assert!(!writes(&format!(
            "python3 -c \"print(open('{FOLDER}/a.md').read())\""
        )));
    }

    #[test]
    fn reads_and_writes_elsewhere_do_not() {
        for command in [
            format!("cat {FOLDER}/MEMORY.md"),
            format!("ls -la {FOLDER} 2>/dev/null"),
            format!("grep -r deploy {FOLDER} > /tmp/hits.txt"),
            format!("cp {FOLDER}/a.md /tmp/backup.md"),
            format!("sed -n 1,5p {FOLDER}/a.md"),
            format!("wc -l < {FOLDER}/MEMORY.md"),
            format!("cat {FOLDER}/a.md 2>&1 | head"),
            "echo x > /tmp/a.md".to_owned(),
            "rm -rf target".to_owned(),
            format!("echo {FOLDER}/a.md # > {FOLDER}/b.md"),
            format!(
                "echo '{FOLDER}/../memory-notes/x' > /home/u/.claude/projects/-home-u-app/memory-notes/x"
            ),
        ] {
            assert!(!writes(&command), "{command}");
        }
        // `..` is resolved: this leaves the folder.
        assert!(!writes(&format!("echo x > {FOLDER}/../other.md")));
    }

    #[test]
    fn quoting_and_escapes_are_understood() {
        assert!(writes(&format!("echo x > '{FOLDER}/a b.md'")));
        assert!(writes(&format!("echo x > {FOLDER}/a\\ b.md")));
        assert!(!writes(&format!("echo 'x > {FOLDER}/a.md'")));
    }
}
