//! `memwb check`: the audit, for people and for CI; `--all` over every set under some roots;
//! `--fix` files the proposals that fix what it found; `memwb accept` suppresses a finding.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

use super::model_args::ModelArgs;
use super::output::{inert, print_json};
use super::{EXIT_FINDINGS, EXIT_OK};
use crate::content::accept::Acceptances;
use crate::content::fix;
use crate::content::report::{Checked, SetReport, check_folder, check_sets};
use crate::content::{AuditContext, secret_fingerprints};
use crate::finding::Severity;
use crate::folder::sets::discover;
use crate::formats::{Backend, OpenOptions, agent_config};
use crate::session::config::ModelSettings;
use crate::session::model::ModelClient;

#[derive(clap::Args, Debug)]
pub(super) struct CheckArgs {
    /// Print {"workspace","ok","records","findings":[...],"notes":[...]} (with --all, an
    /// array of those).
    #[arg(long)]
    pub(super) json: bool,
    /// File a proposal for every finding that has a fix; nothing is applied.
    #[arg(long, conflicts_with = "all")]
    pub(super) fix: bool,
    /// Also list the findings someone accepted (`memwb accept`); they never fail the check.
    #[arg(long)]
    pub(super) all_findings: bool,
    /// Check every memory set under ROOT... (default: the workspace), with a summary table.
    #[arg(long, value_name = "ROOT", num_args = 0..)]
    pub(super) all: Option<Vec<PathBuf>>,
    /// A model finds contradictions (`conflict`); without one that check is skipped.
    #[command(flatten)]
    pub(super) model: ModelArgs,
}

#[derive(clap::Args, Debug)]
pub(super) struct AcceptArgs {
    /// The finding's code (`secret`, `stale-path`, `relative-date`, ...).
    pub(super) code: String,
    /// The memory it is about.
    pub(super) name: String,
    /// Why it is acceptable, kept with the acceptance.
    #[arg(long)]
    pub(super) reason: Option<String>,
}

pub(super) fn model_client(args: &ModelArgs) -> anyhow::Result<Option<Box<dyn ModelClient>>> {
    let settings = ModelSettings::resolve(&args.flags(), &|name| std::env::var(name).ok())?;
    settings.map(|s| s.client()).transpose().map_err(Into::into)
}

/// The folder's own audit and the content audit of its memories; `--fix` files the fixes as
/// proposals (nothing is applied). `project` is where mentioned paths are looked up: the
/// workspace the folder was found for (`None` for `--memory-dir`: the folder's own, when it
/// knows one).
pub(super) fn run(
    backend: &dyn Backend,
    args: &CheckArgs,
    project: Option<PathBuf>,
) -> anyhow::Result<u8> {
    let client = model_client(&args.model)?;
    let mut context = AuditContext::new(project);
    context.model = client.as_deref();
    let report = check_folder(backend, &context, args.all_findings);
    if args.json {
        print_json(&report)?;
    } else {
        print_report(&report)?;
    }
    if args.fix {
        let checked: Vec<&Checked> = report.findings.iter().collect();
        let filed = fix::file_fixes(backend, &checked)
            .context("--fix files proposals against the folder, which must read first")?;
        say_filed(&filed)?;
    }
    Ok(if report.ok { EXIT_OK } else { EXIT_FINDINGS })
}

pub(super) fn print_report(report: &SetReport) -> anyhow::Result<()> {
    for checked in &report.findings {
        let f = &checked.finding;
        let place = match (&f.file, f.line) {
            (Some(file), Some(line)) => format!(" {file}:{line}:"),
            (Some(file), None) => format!(" {file}:"),
            _ => String::new(),
        };
        let accepted = checked
            .accepted
            .as_ref()
            .map(|a| match &a.reason {
                Some(reason) => format!(" (accepted: {reason})"),
                None => " (accepted)".into(),
            })
            .unwrap_or_default();
        let fix = checked
            .fix
            .as_ref()
            .map(|fix| format!(" [fix: {}]", fix.describe()))
            .unwrap_or_default();
        say!(
            "{}[{}]{} {}{}{}",
            f.severity.as_str(),
            f.code,
            super::output::one_line(&place),
            super::output::one_line(&f.message),
            super::output::one_line(&accepted),
            super::output::one_line(&fix)
        )?;
    }
    for note in &report.notes {
        say!("note: {}", inert(note))?;
    }
    let accepted = match report.accepted() {
        0 => String::new(),
        n => format!(", {n} accepted"),
    };
    let info = match report.count(Severity::Info) {
        0 => String::new(),
        n => format!(", {n} info"),
    };
    say!(
        "{}: {}, {}, {}{info}{accepted}",
        inert(&report.folder),
        super::output::counted(report.records, "memory", "memories"),
        counted(report.count(Severity::Error), "error"),
        counted(report.count(Severity::Warning), "warning"),
    )?;
    Ok(())
}

/// `1 error`, `2 errors`.
pub(super) fn counted(n: usize, noun: &str) -> String {
    super::output::counted(n, noun, &format!("{noun}s"))
}

/// Each filed proposal's id on stdout, what it came from on stderr.
pub(super) fn say_filed(filed: &[crate::review::Proposal]) -> anyhow::Result<()> {
    if filed.is_empty() {
        eprintln!("nothing to propose: no finding has a fix that is not already in place");
    }
    for filed in filed {
        eprintln!(
            "filed proposal {} ({})",
            filed.id,
            inert(&filed.origin.source)
        );
        say!("{}", filed.id)?;
    }
    Ok(())
}

/// Every set `memwb sets` finds (Claude Code's config folder, then the roots; the workspace
/// when no root is given), checked on every core. Runs before the workspace's own folder is
/// resolved: it checks every folder alike, the workspace's is not "used".
pub(super) fn run_all(
    workspace: &std::path::Path,
    options: &OpenOptions,
    args: &CheckArgs,
    roots: &[PathBuf],
) -> anyhow::Result<u8> {
    let client = model_client(&args.model)?;
    let mut context = AuditContext::new(None);
    context.model = client.as_deref();
    let context = &context;
    let roots = if roots.is_empty() {
        vec![workspace.to_owned()]
    } else {
        roots.to_vec()
    };
    for root in &roots {
        anyhow::ensure!(
            root.is_dir(),
            "{} is not a directory to search for memory sets",
            inert(&root.display().to_string())
        );
    }
    let config = agent_config();
    let discovery = discover(config.as_deref(), &roots, &mut |_| {});
    if let Some(why) = &discovery.cut_short {
        eprintln!("note: {}", inert(why));
    }
    for skipped in &discovery.skipped {
        eprintln!(
            "note: skipped {}: {}",
            inert(&skipped.path.display().to_string()),
            inert(&skipped.why)
        );
    }
    let sets = discovery.found;
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(sets.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} sets {elapsed}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let reports = check_sets(&sets, options, context, args.all_findings, &|| bar.inc(1));
    bar.finish_and_clear();
    if args.json {
        print_json(&reports)?;
    } else {
        print_table(&reports)?;
    }
    Ok(if reports.iter().all(|r| r.ok) {
        EXIT_OK
    } else {
        EXIT_FINDINGS
    })
}

fn print_table(reports: &[SetReport]) -> anyhow::Result<()> {
    let rows: Vec<[String; 6]> = reports
        .iter()
        .map(|r| {
            [
                inert(&r.folder),
                r.format.as_str().to_owned(),
                r.records.to_string(),
                r.count(Severity::Error).to_string(),
                r.count(Severity::Warning).to_string(),
                r.worst()
                    .map(|c| format!("{} {}", c.finding.severity.as_str(), c.finding.code))
                    .unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let header = ["set", "format", "memories", "errors", "warnings", "worst"].map(String::from);
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, w)| super::output::padded(cell, w))
            .collect();
        say!("{}", cells.join("  ").trim_end())?;
    }
    let failing = reports.iter().filter(|r| !r.ok).count();
    say!("{} sets, {failing} with errors", reports.len())?;
    Ok(())
}

/// `memwb accept CODE NAME`: kept in memwb's state about the folder, never in the folder.
pub(super) fn accept(backend: &dyn Backend, args: &AcceptArgs) -> anyhow::Result<u8> {
    let name = backend
        .accept(&args.name, &mut |memory, state_dir| {
            // A secret's acceptance binds to the value found: one that reads has it.
            let fingerprints = if memory.is_readable() {
                secret_fingerprints(memory)
            } else {
                Vec::new()
            };
            let mut acceptances = Acceptances::load(state_dir)?;
            acceptances.accept(&args.code, &memory.name, args.reason.clone(), fingerprints)?;
            Ok(())
        })
        .map_err(super::read::failed)?;
    say_accepted(&args.code, &name)?;
    Ok(EXIT_OK)
}

pub(super) fn say_accepted(code: &str, name: &str) -> anyhow::Result<()> {
    say!(
        "accepted {} for {}; `check --all-findings` still lists it",
        inert(code),
        inert(name)
    )?;
    Ok(())
}
