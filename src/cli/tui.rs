//! `memwb` (no subcommand), `memwb tui [DIR]` and `memwb demo`: the workbench.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::formats::{Open, OpenOptions, open_workspace};

#[derive(clap::Args, Debug, Default)]
pub(super) struct TuiArgs {
    /// The workspace to open, as `-C DIR` opens it (default: `-C DIR`, else the current
    /// directory).
    pub dir: Option<PathBuf>,
}

#[derive(clap::Args, Debug, Default)]
pub(super) struct DemoArgs {}

fn require_terminal() -> anyhow::Result<()> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "the workbench needs a terminal (stdin and stdout); for scripts use `memwb ls`, `memwb check` or `memwb watch`"
        );
    }
    Ok(())
}

/// Opens the workbench on `open`, the folder found for `workspace` (`memwb tui DIR` is
/// `memwb -C DIR tui`); its Sets view also looks under `workspace` and opens what it chooses
/// with `options`.
pub(super) fn run(open: &Open, workspace: &Path, options: &OpenOptions) -> anyhow::Result<u8> {
    require_terminal()?;
    let roots = vec![std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.to_owned())];
    crate::tui::run::run_on(open.clone(), roots, options.clone())?;
    Ok(0)
}

/// Copies the demo workspace to a fresh temporary directory and opens the workbench on it; on
/// exit removes a copy left as shipped, or prints where a changed one is.
pub(super) fn demo(options: &OpenOptions, _args: &DemoArgs) -> anyhow::Result<u8> {
    require_terminal()?;
    let dir = crate::tui::demo::create()?;
    let demo = open_workspace(&dir, None, options)
        .map_err(super::read::failed)
        .with_context(|| format!("cannot open the demo workspace {}", dir.display()))?;
    let result = crate::tui::run::run_on(demo.open, vec![dir.clone()], options.clone());
    // A copy left as shipped is of no use to keep: each run makes a fresh one, so copies do
    // not pile up in the temporary directory. A changed one is kept, and said where.
    if crate::tui::demo::is_unchanged(&dir) && std::fs::remove_dir_all(&dir).is_ok() {
        say!(
            "The demo workspace was left as shipped and is removed; memwb demo makes a fresh copy"
        )?;
    } else {
        say!("The demo workspace is in {}", dir.display())?;
        let how = Invocation::current();
        say!("Open it again with: {}", how.reopen_command(&dir))?;
    }
    result?;
    Ok(0)
}

/// How this process was started, so that a printed command works when pasted as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Invocation {
    exe: Option<PathBuf>,
    /// `cargo run` sets `CARGO` for the program it runs.
    under_cargo: bool,
    /// The `memwb` a shell would find on `PATH`, if any.
    on_path: Option<PathBuf>,
}

impl Invocation {
    fn current() -> Self {
        let exe = std::env::current_exe().ok();
        let on_path = std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join("memwb"))
                .find(|candidate| candidate.is_file())
        });
        Self {
            exe,
            under_cargo: std::env::var_os("CARGO").is_some(),
            on_path,
        }
    }

    fn reopen_command(&self, dir: &Path) -> String {
        let dir = shell_word(&dir.display().to_string());
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        let profile = self
            .exe
            .as_deref()
            .and_then(Path::parent)
            .filter(|dir| dir.parent().and_then(Path::file_name) == Some("target".as_ref()))
            .and_then(Path::file_name)
            .and_then(|name| name.to_str());
        match (&self.exe, profile) {
            (Some(_), Some(profile)) if self.under_cargo => {
                let release = if profile == "release" {
                    " --release"
                } else {
                    ""
                };
                format!("cargo run{release} -- tui {dir}")
            }
            (Some(exe), _)
                if self
                    .on_path
                    .as_deref()
                    .is_some_and(|found| same(found, exe)) =>
            {
                format!("memwb tui {dir}")
            }
            (Some(exe), _) => format!("{} tui {dir}", shell_word(&exe.display().to_string())),
            (None, _) => format!("memwb tui {dir}"),
        }
    }
}

/// `text` as one shell word: as it is when it is plainly safe, else single-quoted.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:,@%".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invocation(exe: &str, under_cargo: bool, on_path: Option<&str>) -> Invocation {
        Invocation {
            exe: Some(PathBuf::from(exe)),
            under_cargo,
            on_path: on_path.map(PathBuf::from),
        }
    }

    #[test]
    fn the_reopen_command_works_as_the_demo_was_run() {
        let dir = Path::new("/tmp/memwb-demo-1");
        assert_eq!(
            invocation("/src/memwb/target/release/memwb", true, None).reopen_command(dir),
            "cargo run --release -- tui /tmp/memwb-demo-1"
        );
        assert_eq!(
            invocation("/src/memwb/target/debug/memwb", true, None).reopen_command(dir),
            "cargo run -- tui /tmp/memwb-demo-1"
        );
        assert_eq!(
            invocation("/src/memwb/target/release/memwb", false, None).reopen_command(dir),
            "/src/memwb/target/release/memwb tui /tmp/memwb-demo-1"
        );
        assert_eq!(
            invocation("/opt/my tools/memwb", false, None).reopen_command(Path::new("/tmp/it's")),
            r"'/opt/my tools/memwb' tui '/tmp/it'\''s'"
        );
        assert_eq!(
            Invocation {
                exe: None,
                under_cargo: false,
                on_path: None
            }
            .reopen_command(dir),
            "memwb tui /tmp/memwb-demo-1"
        );
    }

    #[test]
    fn an_installed_memwb_is_named_by_its_name() {
        let installed = std::env::current_exe().expect("the test binary");
        let exe = installed.display().to_string();
        let found = Some(exe.as_str());
        assert_eq!(
            invocation(&exe, false, found).reopen_command(Path::new("/tmp/d")),
            "memwb tui /tmp/d"
        );
    }
}
