//! `memwb check`: the audit, for people and for CI.

use serde::Serialize;

use super::output::{inert, print_json};
use super::{EXIT_FINDINGS, EXIT_OK};
use crate::store::{Finding, Severity, Store};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Print {"workspace","ok","records","findings":[...]}.
    #[arg(long)]
    pub(super) json: bool,
}

#[derive(Serialize)]
struct Report<'a> {
    workspace: String,
    ok: bool,
    records: usize,
    findings: &'a [Finding],
}

pub fn run(store: &Store, args: &CheckArgs) -> anyhow::Result<u8> {
    let inspection = store.inspect();
    let mut findings = inspection.findings();
    findings.extend(crate::review::audit::findings(store));
    let ok = !findings.iter().any(|f| f.severity == Severity::Error);
    let records = inspection.valid_records().count();
    if args.json {
        print_json(&Report {
            workspace: store.workspace().display().to_string(),
            ok,
            records,
            findings: &findings,
        })?;
    } else {
        for f in &findings {
            let file = f
                .file
                .as_deref()
                .map(|f| format!(" {f}:"))
                .unwrap_or_default();
            say!("{}", finding_line(f.severity, f.code, &file, &f.message))?;
        }
        let errors = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        say!(
            "{}",
            summary_line(
                store.root(),
                counted(records, "valid record"),
                errors,
                findings.len() - errors
            )
        )?;
    }
    Ok(if ok { EXIT_OK } else { EXIT_FINDINGS })
}

/// One finding for people: `severity[code] file: message` (`at` is ` file:` or ` file:line:`).
pub(super) fn finding_line(severity: Severity, code: &str, at: &str, message: &str) -> String {
    let severity = match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!("{severity}[{code}]{} {}", inert(at), inert(message))
}

/// The closing line: the folder, what it holds, and the counts.
pub(super) fn summary_line(
    root: &std::path::Path,
    records: String,
    errors: usize,
    warnings: usize,
) -> String {
    format!(
        "{}: {records}, {}, {}",
        inert(&root.display().to_string()),
        counted(errors, "error"),
        counted(warnings, "warning")
    )
}

/// `1 error`, `2 errors`.
pub(super) fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
