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
            let severity = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let file = f
                .file
                .as_deref()
                .map(|f| format!(" {f}:"))
                .unwrap_or_default();
            say!(
                "{severity}[{}]{} {}",
                f.code,
                inert(&file),
                inert(&f.message)
            )?;
        }
        let errors = findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        say!(
            "{}: {}, {}, {}",
            inert(&store.root().display().to_string()),
            counted(records, "valid record"),
            counted(errors, "error"),
            counted(findings.len() - errors, "warning")
        )?;
    }
    Ok(if ok { EXIT_OK } else { EXIT_FINDINGS })
}

/// `1 error`, `2 errors`.
pub(super) fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
