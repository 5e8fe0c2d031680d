//! The reading commands on a Claude Code folder: `ls`, `show`, `select`, `index`, `check`.
//! Same output shapes as on `.memory`, with what Claude Code adds (other frontmatter fields,
//! relative file paths, the load cut).

use anyhow::Context;

use super::check::{AcceptArgs, CheckArgs, print_report, say_accepted, say_filed};
use super::output::{print_json, print_untrusted};
use super::records::IndexArgs;
use super::{EXIT_FINDINGS, EXIT_OK};
use crate::claude::folder::IndexFile;
use crate::claude::index::{CutBy, Load};
use crate::claude::{ClaudeState, Snapshot, Topic};
use crate::content::accept::Acceptances;
use crate::content::fix::file_fixes;
use crate::content::report::{Checked, check_folder};
use crate::content::{AuditContext, secret_fingerprints};
use crate::formats::claude::ClaudeBackend;

/// `memwb repair FILE`: a Claude Code folder has no manifest entry to repair.
pub(super) fn refuse_repair() -> anyhow::Result<u8> {
    anyhow::bail!(
        "repair fixes a .memory manifest entry, and a Claude Code folder has no manifest: edit a topic file with `memwb set FILE ...`, remove it with `memwb rm FILE`, or move damaged journal lines aside with `memwb repair --journal`; nothing was changed"
    )
}

/// `memwb repair --journal` on the folder's journal, in its state directory.
pub(super) fn repair_journal(folder: &crate::claude::ClaudeFolder) -> anyhow::Result<u8> {
    let journal = crate::review::journal::Journal::of_claude(
        &crate::claude::ClaudeState::for_folder(folder)?,
    );
    super::review::repair_journal(&journal)
}

/// The topic `name` addresses: by its name, else by its file. A name two files share is
/// refused, as on `.memory`, by every command (`show` too: it must not pick one silently).
pub(super) fn require<'a>(snapshot: &'a Snapshot, name: &str) -> anyhow::Result<&'a Topic> {
    crate::formats::claude::address(&snapshot.topics, name, &snapshot.root, Topic::name, |t| {
        &t.file
    })
    .map_err(super::read::reported)
}

/// What Claude Code loads, then the marked line where it stops and what it drops.
pub(super) fn index(folder: &crate::claude::ClaudeFolder, args: &IndexArgs) -> anyhow::Result<u8> {
    if args.write {
        return super::claude_write::index_fix(folder, &args.spelled_now());
    }
    let snapshot = folder.read();
    let index = match &snapshot.index {
        IndexFile::Read(index) => index,
        IndexFile::Missing => anyhow::bail!(
            "{} has no MEMORY.md: Claude Code loads no index",
            snapshot.root.display()
        ),
        IndexFile::Unreadable(why) => {
            anyhow::bail!("{} cannot be read: {why}", folder.index_path().display())
        }
    };
    let mut text = index.loaded_text();
    if !text.is_empty() {
        text.push('\n');
    }
    if let Some(by) = index.cut_by {
        let dropped: Vec<&str> = index
            .lines
            .iter()
            .filter(|l| l.load == Load::Dropped)
            .map(|l| l.text.as_str())
            .collect();
        let limits = index.limits;
        let limit = match by {
            CutBy::Lines => format!("{} lines", limits.lines),
            CutBy::Size => format!("{} {}", limits.size, limits.unit.label()),
        };
        text.push_str(&format!(
            "── not loaded past here ({limit}): {} lines, {} entries ──\n",
            dropped.len(),
            index.dropped_entries().count()
        ));
        for line in dropped {
            text.push_str(line);
            text.push('\n');
        }
    }
    print_untrusted(&text)?;
    Ok(EXIT_OK)
}

/// The folder's own audit and the content audit of its topic files; `--fix` files the fixes
/// as proposals in the folder's state directory (the folder is not written). `project` is
/// where mentioned paths are looked up (the workspace the folder was found for; for
/// `--memory-dir`, the directory its `projects/<slug>` names, when there is one).
pub(super) fn check(
    folder: &crate::claude::ClaudeFolder,
    args: &CheckArgs,
    project: Option<std::path::PathBuf>,
) -> anyhow::Result<u8> {
    let client = super::check::model_client(&args.model)?;
    let mut context = AuditContext::new(project);
    context.model = client.as_deref();
    let report = check_folder(&ClaudeBackend::new(folder), &context, args.all_findings);
    if args.json {
        print_json(&report)?;
    } else {
        print_report(&report)?;
    }
    if args.fix {
        let checked: Vec<&Checked> = report.findings.iter().collect();
        let filed = file_fixes(&ClaudeBackend::new(folder), &checked)
            .context("--fix files proposals in the folder's state directory")?;
        say_filed(&filed)?;
    }
    Ok(if report.ok { EXIT_OK } else { EXIT_FINDINGS })
}

/// `memwb accept CODE NAME` on a Claude Code folder: kept in its state directory
/// (`accepted.json`), never in the folder.
pub(super) fn accept(
    folder: &crate::claude::ClaudeFolder,
    args: &AcceptArgs,
) -> anyhow::Result<u8> {
    let state = ClaudeState::for_folder(folder)?;
    let _lock = state.lock()?;
    let snapshot = folder.read();
    let topic = require(&snapshot, &args.name)?;
    let memory = topic.memory();
    let fingerprints = if memory.is_readable() {
        secret_fingerprints(&memory)
    } else {
        Vec::new()
    };
    let mut acceptances = Acceptances::load(state.path())?;
    acceptances.accept(&args.code, topic.name(), args.reason.clone(), fingerprints)?;
    say_accepted(&args.code, topic.name())?;
    Ok(EXIT_OK)
}
