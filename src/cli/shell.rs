//! `memwb completions SHELL` and `memwb man`: the command line describing itself.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use super::{Cli, EXIT_OK};

#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

#[derive(clap::Args, Debug)]
pub struct ManArgs {}

pub fn completions(args: &CompletionsArgs) -> anyhow::Result<u8> {
    let mut command = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "memwb", &mut out);
    out.flush()?;
    Ok(EXIT_OK)
}

pub fn man(_args: &ManArgs) -> anyhow::Result<u8> {
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    out.flush()?;
    Ok(EXIT_OK)
}
