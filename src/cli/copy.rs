//! `memwb copy --from DIR [NAME...]`: a proposal that brings memories from another folder
//! (either format) into this one (either format), each converted or refused with the reason.

use std::collections::HashSet;
use std::path::PathBuf;

use jiff::Timestamp;

use super::EXIT_OK;
use super::output::inert;
use super::read::failed;
use super::review::say_refused;
use crate::claude::LoadLimits;
use crate::claude::copy::{Source, into_claude, into_set};
use crate::formats::Open;
use crate::formats::claude::journal::propose;
use crate::formats::claude::journal::{self as review_claude, NewFiles};
use crate::formats::{Format, OpenOptions};
use crate::review::proposal::{self, NewProposal, Origin, Plan, images};
use crate::store::{MemorySet, Record, StoreOptions};

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

/// The memories of the source folder, as read.
enum Read {
    Set(MemorySet),
    Claude(Box<propose::Read>),
}

impl Read {
    fn sources(&self) -> Vec<Source<'_>> {
        match self {
            Read::Set(set) => set.records().map(Source::Record).collect(),
            Read::Claude(read) => read.sources(),
        }
    }
}

pub(super) fn run(
    target: &Open,
    args: &CopyArgs,
    options: &StoreOptions,
    limits: LoadLimits,
) -> anyhow::Result<u8> {
    let open = OpenOptions {
        store: options.clone(),
        claude: limits,
    };
    let source = crate::formats::open(&args.from, args.from_format, &open).map_err(failed)?;
    let from = source.root().to_owned();
    if std::fs::canonicalize(&from).ok() == std::fs::canonicalize(target.root()).ok() {
        anyhow::bail!("{} is the folder being copied into", from.display());
    }
    let read = match &source {
        Open::Memory(store) => Read::Set(store.read()?),
        Open::Claude(folder) => Read::Claude(Box::new(propose::read(folder))),
    };
    let all = read.sources();
    let sources: Vec<Source> = if args.names.is_empty() {
        all
    } else {
        args.names
            .iter()
            .map(|name| {
                all.iter()
                    .copied()
                    .find(|s| s.name() == name)
                    .ok_or_else(|| {
                        anyhow::anyhow!("no memory named {name:?} in {}", from.display())
                    })
            })
            .collect::<anyhow::Result<_>>()?
    };
    anyhow::ensure!(
        !sources.is_empty(),
        "{} holds no memories to copy",
        from.display()
    );
    let from_text = from.display().to_string();
    let evidence = Some(format!("copied from {from_text}"));
    let id = match target {
        Open::Memory(store) => {
            let seen = store.read()?;
            let taken: HashSet<String> = seen.records().map(|r| r.name().to_owned()).collect();
            let out = into_set(&sources, &taken, &from_text);
            say_refused(&out.refused);
            nothing_left(out.records.is_empty())?;
            let records: Vec<Record> = out.records;
            let new = NewProposal {
                plan: Plan::Extraction(records),
                origin: Origin::new("copy"),
                seen,
                additions: Vec::new(),
                evidence,
            };
            proposal::file(store, new)?.id
        }
        Open::Claude(folder) => {
            let snapshot = folder.read();
            let out = into_claude(&sources, &snapshot, Timestamp::now());
            say_refused(&out.refused);
            nothing_left(out.files.is_empty())?;
            let new = NewFiles {
                kind: images::kind_of(&out.files),
                files: out.files,
                origin: Origin::new("copy"),
                evidence,
            };
            review_claude::file_proposal(folder, new)?.id
        }
    };
    say!("{}", inert(&id))?;
    Ok(EXIT_OK)
}

fn nothing_left(empty: bool) -> anyhow::Result<()> {
    if empty {
        anyhow::bail!("every memory was refused (see above); nothing was proposed");
    }
    Ok(())
}
