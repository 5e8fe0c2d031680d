//! `memwb copy --from DIR [NAME...]`: a proposal that brings memories from another folder
//! (either format) into this one (either format), each converted or refused with the reason.

use std::path::PathBuf;

use super::EXIT_OK;
use super::output::inert;
use super::read::failed;
use super::review::say_refused;
use crate::formats::{Format, Open, OpenOptions};

#[derive(clap::Args, Debug)]
pub(super) struct CopyArgs {
    /// The memory folder to copy from (a `.memory` folder or a Claude Code folder; format
    /// detected, or forced with --from-format).
    #[arg(long, value_name = "DIR")]
    from: PathBuf,
    /// Force the source's format: memory or claude.
    #[arg(long, value_name = "FORMAT")]
    from_format: Option<Format>,
    /// The memories to copy, by name (default: all of them).
    #[arg(value_name = "NAME")]
    names: Vec<String>,
}

pub(super) fn run(target: &Open, args: &CopyArgs, options: &OpenOptions) -> anyhow::Result<u8> {
    let source = crate::formats::open(&args.from, args.from_format, options).map_err(failed)?;
    let from = source.root().to_owned();
    if std::fs::canonicalize(&from).ok() == std::fs::canonicalize(target.root()).ok() {
        anyhow::bail!("{} is the folder being copied into", from.display());
    }
    let mut sources = source.backend().copy_sources().map_err(failed)?;
    if !args.names.is_empty() {
        let known = sources.names();
        if let Some(name) = args.names.iter().find(|n| !known.contains(n)) {
            anyhow::bail!("no memory named {name:?} in {}", from.display());
        }
        sources = sources.only(args.names.clone());
    }
    anyhow::ensure!(
        !sources.names().is_empty(),
        "{} holds no memories to copy",
        from.display()
    );
    let from_text = from.display().to_string();
    let copied = target
        .backend()
        .propose_copy(&sources, &from_text)
        .map_err(failed)?;
    say_refused(&copied.refused);
    let Some(id) = copied.id else {
        anyhow::bail!("every memory was refused (see above); nothing was proposed");
    };
    say!("{}", inert(&id))?;
    Ok(EXIT_OK)
}
