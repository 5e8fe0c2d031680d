//! `memwb completions SHELL` and `memwb man`: the command line describing itself.

use std::io::Write;
use std::path::PathBuf;

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Cli, EXIT_OK};

#[derive(clap::Args, Debug)]
pub(super) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

#[derive(clap::Args, Debug)]
pub(super) struct ManArgs {
    /// Write memwb.1 and one memwb-COMMAND.1 page per command into DIR (created if missing)
    /// instead of printing memwb.1.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

pub(super) fn completions(args: &CompletionsArgs) -> anyhow::Result<u8> {
    let mut command = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "memwb", &mut out);
    out.flush()?;
    Ok(EXIT_OK)
}

pub(super) fn man(args: &ManArgs) -> anyhow::Result<u8> {
    let mut command = Cli::command().disable_help_subcommand(true);
    // Built, the subcommands carry the names their pages take (`memwb-ls`).
    command.build();
    let Some(dir) = &args.dir else {
        let mut out = std::io::stdout().lock();
        render(&command, &mut out)?;
        out.flush()?;
        return Ok(EXIT_OK);
    };
    std::fs::create_dir_all(dir)?;
    let mut written = 0;
    for page in std::iter::once(&command).chain(command.get_subcommands()) {
        let path = dir.join(clap_mangen::Man::new(page.clone()).get_filename());
        let mut file = std::fs::File::create(&path)?;
        render(page, &mut file)?;
        file.flush()?;
        written += 1;
    }
    say!(
        "wrote {written} manual pages to {}",
        super::output::inert(&dir.display().to_string())
    )?;
    Ok(EXIT_OK)
}

/// clap's page, then what it cannot derive: exit codes, the environment, examples.
fn render(command: &clap::Command, out: &mut dyn Write) -> std::io::Result<()> {
    clap_mangen::Man::new(command.clone()).render(out)?;
    out.write_all(EXIT_AND_ENVIRONMENT.as_bytes())?;
    let name = command.get_name();
    let examples: Vec<&str> = EXAMPLES
        .iter()
        .filter(|(command, _)| *command == name || (name == "memwb" && command.is_empty()))
        .map(|(_, example)| *example)
        .collect();
    out.write_all(b".SH EXAMPLES\n")?;
    if examples.is_empty() {
        let what = match name {
            "memwb" => "memwb".to_owned(),
            sub => format!("memwb {sub}"),
        };
        writeln!(out, ".nf\n{} \\-\\-help\n.fi", roff_dashes(&what))?;
    }
    for example in examples {
        writeln!(out, ".nf\n{}\n.fi", roff_dashes(example))?;
    }
    Ok(())
}

/// A literal `-` in roff is `\-` (a plain one may print as a hyphen that cannot be copied).
fn roff_dashes(text: &str) -> String {
    text.replace('-', "\\-")
}

/// The manual's exit codes and environment, in roff (a file of its own: it is text, not code).
const EXIT_AND_ENVIRONMENT: &str = include_str!("man_exit_and_environment.roff");

/// (command, one example line); "" is the main page.
const EXAMPLES: &[(&str, &str)] = &[
    ("", "memwb demo"),
    ("", "memwb -C ~/src/project check"),
    ("", "memwb --claude ls"),
    ("ls", "memwb -C ~/src/project ls --json"),
    ("show", "memwb show user-prefers-tabs"),
    (
        "add",
        "memwb add --name user-prefers-tabs --type user --description 'Prefers tabs' --body 'Use tabs.'",
    ),
    (
        "set",
        "memwb set user-prefers-tabs --description 'Prefers tabs, width 4'",
    ),
    ("rm", "memwb rm user-prefers-tabs"),
    ("check", "memwb check --json > memory-audit.json"),
    ("check", "memwb check --all ~/src"),
    ("log", "memwb log --last 10"),
    ("undo", "memwb undo"),
    ("undo", "memwb undo 7"),
    ("proposals", "memwb proposals --all"),
    ("sets", "memwb sets ~/src --json"),
    ("man", "memwb man --dir ~/.local/share/man/man1"),
];
