//! The command line's flags for Claude Code folders: `--claude` (its workspace's auto
//! memory) and the load limits of MEMORY.md. Declared by the backend, flattened into the
//! command line's folder flags through [`super::super::FormatArgs`].

use crate::claude::{LoadLimits, SizeUnit};

#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    /// Use the workspace's Claude Code auto memory.
    #[arg(long, global = true)]
    claude: bool,
    /// Lines of MEMORY.md Claude Code loads.
    #[arg(
        long,
        global = true,
        env = "MEMWB_CLAUDE_INDEX_LINES",
        default_value_t = LoadLimits::default().lines,
        value_name = "N"
    )]
    claude_index_lines: usize,
    /// Size of MEMORY.md Claude Code loads, in --claude-index-unit.
    #[arg(
        long,
        global = true,
        env = "MEMWB_CLAUDE_INDEX_SIZE",
        default_value_t = LoadLimits::default().size,
        value_name = "N"
    )]
    claude_index_size: usize,
    /// How the size is counted: utf16 (JavaScript string length) or bytes.
    #[arg(
        long,
        global = true,
        env = "MEMWB_CLAUDE_INDEX_UNIT",
        default_value = "utf16",
        value_name = "UNIT"
    )]
    claude_index_unit: SizeUnit,
}

impl Args {
    /// `--claude`: the workspace's folder of this format is asked for.
    pub(crate) fn asked(&self) -> bool {
        self.claude
    }

    pub(crate) fn limits(&self) -> LoadLimits {
        LoadLimits {
            lines: self.claude_index_lines,
            size: self.claude_index_size,
            unit: self.claude_index_unit,
        }
    }
}
