//! `memwb sets [ROOT...] [--json]`: every memory folder found, one row each.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::EXIT_OK;
use super::output::{inert, print_json, print_untrusted};
use crate::content::report::summarize_checked;
use crate::folder::sets::discover;
use crate::formats::{OpenOptions, Summary, agent_config};

#[derive(clap::Args, Debug, Default)]
pub(super) struct SetsArgs {
    /// Folders to search (recursively) for memory folders of either format, by their shape.
    #[arg(value_name = "ROOT")]
    pub roots: Vec<PathBuf>,
    /// Print a JSON array of {"format","path","project","records","errors","warnings","index","last_change"}.
    #[arg(long)]
    pub json: bool,
}

/// How long a scan runs before a progress line appears (on a terminal only).
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

/// Every folder found under Claude Code's config folder and the roots, summed up with the
/// counts `check --all` gives.
pub(super) fn find_all(roots: &[PathBuf], options: &OpenOptions) -> Vec<Summary> {
    let config = agent_config();
    let started = Instant::now();
    let show_progress = std::io::stderr().is_terminal();
    let mut shown = false;
    let mut progress = |dir: &std::path::Path| {
        if show_progress && started.elapsed() > PROGRESS_AFTER {
            shown = true;
            let text = inert(&dir.display().to_string());
            let text: String = text.chars().take(100).collect();
            eprint!("\r\x1b[2Kscanning {text}");
        }
    };
    let discovery = discover(config.as_deref(), roots, &mut progress);
    if shown {
        eprint!("\r\x1b[2K");
    }
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
    summarize_checked(&discovery.found, options, &|| {})
}

pub(super) fn run(args: &SetsArgs, options: &OpenOptions) -> anyhow::Result<u8> {
    let rows = find_all(&args.roots, options);
    if args.json {
        print_json(&rows)?;
        return Ok(EXIT_OK);
    }
    let mut text = String::new();
    for row in &rows {
        let project = match &row.project {
            Some(p) => match &p.path {
                Some(path) => format!("  project {path}"),
                None => format!("  project {} (no such directory)", p.slug),
            },
            None => String::new(),
        };
        let index = row.index.as_ref().map_or_else(
            || "no MEMORY.md".to_owned(),
            |i| {
                format!(
                    "index {}/{} lines {}/{} {}",
                    i.lines, i.max_lines, i.size, i.max_size, i.unit
                )
            },
        );
        text.push_str(&format!(
            "{:6}  {}  {}, {} errors, {} warnings, {index}, changed {}{project}\n",
            row.format.as_str(),
            row.path,
            super::output::counted(row.records, "memory", "memories"),
            row.errors,
            row.warnings,
            row.last_change.as_deref().unwrap_or("never"),
        ));
    }
    if rows.is_empty() {
        text.push_str("no memory folders found\n");
    }
    print_untrusted(&text)?;
    Ok(EXIT_OK)
}
