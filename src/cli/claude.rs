//! `check` on a Claude Code folder, until it is on [`crate::formats::Backend`]. Same output
//! shapes as on `.memory`, with what Claude Code adds (other frontmatter fields, relative
//! file paths).

use anyhow::Context;

use super::check::{CheckArgs, print_report, say_filed};
use super::output::print_json;
use super::{EXIT_FINDINGS, EXIT_OK};
use crate::content::AuditContext;
use crate::content::fix::file_fixes;
use crate::content::report::{Checked, check_folder};
use crate::formats::claude::ClaudeBackend;

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
