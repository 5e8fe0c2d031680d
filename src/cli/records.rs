//! Commands that read and change records.

use std::path::PathBuf;

use anyhow::Context;

use super::EXIT_OK;
use super::input::{MAX_BODY_INPUT_BYTES, MAX_FILE_INPUT_BYTES, describe, read_json, read_text};
use super::output::print_untrusted;
use super::read::failed;
use crate::formats::RecordInput;
use crate::formats::{Backend, Edit, Replacement, Written};
use crate::review::journal::Repaired;

#[derive(clap::Args, Debug)]
pub(super) struct LsArgs {
    /// Print a JSON array of {"name","type","description","body","file"} (Claude Code folders
    /// add "extra": the other frontmatter fields).
    #[arg(long)]
    pub(super) json: bool,
}

#[derive(clap::Args, Debug)]
pub(super) struct ShowArgs {
    /// The memory: its name, or its file name when the name is ambiguous.
    pub(super) name: String,
    /// Print {"name","type","description","body","file"} (Claude Code folders add "extra":
    /// the other frontmatter fields).
    #[arg(long, conflicts_with = "raw")]
    pub(super) json: bool,
    /// Print the memory file's exact bytes, for scripts (nothing made inert, no credential
    /// redacted: the one output that shows a secret whole).
    #[arg(long)]
    pub(super) raw: bool,
}

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["name", "json"]))]
pub(super) struct AddArgs {
    /// The memory's name: a lowercase slug (a-z, 0-9, single dashes), unique in the folder.
    #[arg(long, requires_all = ["kind", "description"])]
    pub(super) name: Option<String>,
    /// user, feedback, project or reference.
    #[arg(long = "type", value_name = "TYPE")]
    pub(super) kind: Option<String>,
    /// One line saying what the memory is about (any text, leading dashes included).
    #[arg(long, allow_hyphen_values = true)]
    pub(super) description: Option<String>,
    #[command(flatten)]
    pub(super) body: BodyArgs,
    /// A JSON array of {name,type,description,body} (a path, or - for standard input).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["name", "kind", "description", "body", "body_file"])]
    pub(super) json: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
#[group(multiple = false)]
pub(super) struct BodyArgs {
    /// The memory itself (any text, leading dashes included).
    #[arg(long, allow_hyphen_values = true)]
    pub(super) body: Option<String>,
    /// Read the body from a file, or - for standard input.
    #[arg(long, value_name = "PATH")]
    body_file: Option<PathBuf>,
}

impl BodyArgs {
    pub(super) fn read(&self) -> anyhow::Result<Option<String>> {
        match (&self.body, &self.body_file) {
            (Some(body), _) => Ok(Some(body.clone())),
            (None, Some(path)) => read_text(path, MAX_BODY_INPUT_BYTES).map(Some),
            (None, None) => Ok(None),
        }
    }
}

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("change")
    .required(true)
    .multiple(true)
    .args(["name", "kind", "description", "body", "body_file"]))]
pub(super) struct SetArgs {
    /// The memory to edit: its name, or its file name when the name is ambiguous.
    pub(super) target: String,
    /// A new name (a rename): a lowercase slug (a-z, 0-9, single dashes).
    #[arg(long)]
    pub(super) name: Option<String>,
    /// A new type: user, feedback, project or reference.
    #[arg(long = "type", value_name = "TYPE")]
    pub(super) kind: Option<String>,
    /// A new one-line description (any text, leading dashes included).
    #[arg(long, allow_hyphen_values = true)]
    pub(super) description: Option<String>,
    #[command(flatten)]
    pub(super) body: BodyArgs,
}

#[derive(clap::Args, Debug)]
pub(super) struct RmArgs {
    /// The memories to remove, all or none: names, or file names when a name is ambiguous.
    #[arg(required = true, value_name = "NAME")]
    pub(super) names: Vec<String>,
}

#[derive(clap::Args, Debug)]
pub(super) struct ConsolidateArgs {
    /// `{"source_names":[...],"records":[...]}` (a path, or - for standard input).
    #[arg(long, value_name = "PATH")]
    pub plan: PathBuf,
}

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("fix").required(true).args(["drop", "from", "journal"]))]
pub(super) struct RepairArgs {
    /// The entry that does not read: its file name, a path to it inside .memory, or the
    /// record name written in it.
    #[arg(required_unless_present = "journal")]
    file: Option<String>,
    /// Remove the entry from the manifest.
    #[arg(long)]
    drop: bool,
    /// Move damaged journal lines (and a torn last line) aside to journal.damaged.<time> (in
    /// .memwb, or a Claude Code folder's state directory), so that writes can proceed.
    #[arg(long, conflicts_with = "file")]
    pub journal: bool,
    /// A corrected record file to put in its place (a path, or - for standard input).
    #[arg(long, value_name = "PATH")]
    from: Option<PathBuf>,
}

#[derive(clap::Args, Debug, Clone)]
pub(super) struct IndexArgs {
    /// The older spelling of `--fix --yes`, kept working (hidden) with a note that says so.
    #[arg(long, hide = true, conflicts_with = "fix")]
    pub(super) write: bool,
    /// Show the fix of MEMORY.md as a diff. On a .memory set: the index its memories derive.
    /// On a Claude Code folder: dangling entries out, unlisted files in (under the heading of
    /// their type), the oldest entries archived when past the load limit.
    #[arg(long)]
    pub(super) fix: bool,
    /// With --fix: write the fix (journaled; `memwb undo` reverts it).
    #[arg(long, requires = "fix")]
    pub(super) yes: bool,
}

impl IndexArgs {
    /// The arguments as they are spelled now: `--write` is `--fix --yes` (docs/cli.md, "One
    /// idea, one word"), and a note on standard error says so.
    pub(super) fn spelled_now(&self) -> Self {
        if !self.write {
            return self.clone();
        }
        eprintln!(
            "note: `index --write` is now `index --fix --yes` (shown as a diff, then written); the old spelling still works"
        );
        Self {
            write: false,
            fix: true,
            yes: true,
        }
    }
}

/// `memwb add`: one memory from the flags, or a JSON array of them, all or nothing.
pub(super) fn add(backend: &dyn Backend, args: &AddArgs) -> anyhow::Result<u8> {
    let inputs: Vec<RecordInput> = match &args.json {
        Some(path) => read_json(path, "JSON array of memories")?,
        None => vec![RecordInput {
            name: args.name.clone().unwrap_or_default(),
            kind: args.kind.clone().unwrap_or_default(),
            description: args.description.clone().unwrap_or_default(),
            body: args
                .body
                .read()?
                .context("--body or --body-file is required with --name")?,
        }],
    };
    said(backend.add(&inputs).map_err(failed)?)
}

/// `memwb set NAME`: the fields given change, the others stay.
pub(super) fn set(backend: &dyn Backend, args: &SetArgs) -> anyhow::Result<u8> {
    let edit = Edit {
        name: args.name.clone(),
        kind: args.kind.clone(),
        description: args.description.clone(),
        body: args.body.read()?,
    };
    said(backend.set(&args.target, &edit).map_err(failed)?)
}

pub(super) fn rm(backend: &dyn Backend, args: &RmArgs) -> anyhow::Result<u8> {
    said(backend.rm(&args.names).map_err(failed)?)
}

/// Prints what a change did, and its warning (then exits 1).
pub(super) fn said(written: Written) -> anyhow::Result<u8> {
    say!("{}", super::output::one_line(&written.summary))?;
    match written.warning {
        Some(warning) => {
            eprintln!("warning: {}", super::output::inert(&warning));
            Ok(super::EXIT_FINDINGS)
        }
        None => Ok(EXIT_OK),
    }
}

/// `memwb consolidate --plan PATH`: the plan applied at once as one journaled change.
pub(super) fn consolidate(backend: &dyn Backend, args: &ConsolidateArgs) -> anyhow::Result<u8> {
    let plan: serde_json::Value = read_json(&args.plan, "consolidation plan")?;
    said(backend.consolidate(&plan).map_err(failed)?)
}

/// `memwb repair FILE --drop|--from PATH`, or `memwb repair --journal`.
pub(super) fn repair(backend: &dyn Backend, args: &RepairArgs) -> anyhow::Result<u8> {
    let Some(file) = args.file.as_deref() else {
        return repaired_journal(backend.repair_journal().map_err(failed)?);
    };
    let with = match &args.from {
        Some(path) => Some(Replacement {
            text: read_text(path, MAX_FILE_INPUT_BYTES)?,
            from: describe(path),
        }),
        None => None,
    };
    said(backend.repair(file, with.as_ref()).map_err(failed)?)
}

fn repaired_journal(repaired: Option<Repaired>) -> anyhow::Result<u8> {
    let Some(repaired) = repaired else {
        say!("the journal has no damaged lines")?;
        return Ok(EXIT_OK);
    };
    let lines: Vec<String> = repaired
        .damaged
        .iter()
        .map(|d| d.line.to_string())
        .collect();
    let mut what = Vec::new();
    if !lines.is_empty() {
        what.push(format!("damaged lines {}", lines.join(", ")));
    }
    if repaired.torn {
        what.push("a torn last line".to_owned());
    }
    say!(
        "moved {} to {}",
        what.join(" and "),
        super::output::inert(&repaired.moved_to.display().to_string())
    )?;
    Ok(EXIT_OK)
}

/// `memwb index`: the index as an agent is given it; `--fix` shows its fix as a diff, and
/// `--yes` writes it.
pub(super) fn index(backend: &dyn Backend, args: &IndexArgs) -> anyhow::Result<u8> {
    let args = &args.spelled_now();
    if !args.fix {
        print_untrusted(&backend.index().map_err(failed)?)?;
        return Ok(EXIT_OK);
    }
    let fix = backend.index_fix(args.yes).map_err(failed)?;
    if fix.diff.is_empty() {
        say!("MEMORY.md needs no fix")?;
        return Ok(EXIT_OK);
    }
    print_untrusted(&fix.diff)?;
    let summary = super::output::one_line(&fix.summary);
    let Some(written) = fix.written else {
        eprintln!("{summary}; nothing written (run with --yes to write it)");
        return Ok(EXIT_OK);
    };
    eprintln!("fixed: {summary}");
    match written.warning {
        Some(warning) => {
            eprintln!("warning: {}", super::output::inert(&warning));
            Ok(super::EXIT_FINDINGS)
        }
        None => Ok(EXIT_OK),
    }
}
