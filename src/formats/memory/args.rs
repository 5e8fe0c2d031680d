//! The command line's flags for `.memory` folders: the budgets of MEMORY.md the contract
//! shares with the reference agents. Declared by the backend, flattened into the command
//! line's folder flags through [`super::super::FormatArgs`].

use crate::store::{LockTiming, StoreOptions};

use crate::formats::Locking;

#[derive(clap::Args, Debug)]
pub(crate) struct IndexBudgets {
    /// Most lines (and so records) in MEMORY.md (at least 1).
    #[arg(
        long,
        global = true,
        env = "MEMWB_MAX_INDEX_LINES",
        default_value_t = 200,
        value_name = "N",
        value_parser = parse_budget
    )]
    max_index_lines: usize,
    /// Most UTF-8 bytes in MEMORY.md (at least 1).
    #[arg(
        long,
        global = true,
        env = "MEMWB_MAX_INDEX_BYTES",
        default_value_t = 4096,
        value_name = "BYTES",
        value_parser = parse_budget
    )]
    max_index_bytes: usize,
}

impl IndexBudgets {
    /// How a `.memory` store opens: these budgets, and the lock waited for as `locking` says.
    pub(crate) fn store_options(&self, locking: Locking) -> StoreOptions {
        StoreOptions {
            max_index_lines: self.max_index_lines,
            max_index_bytes: self.max_index_bytes,
            lock: LockTiming {
                timeout: locking.timeout,
                ..LockTiming::default()
            },
            on_lock_wait: locking.notice,
            ..StoreOptions::default()
        }
    }
}

fn parse_budget(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("a budget must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{text:?} is not a whole number")),
    }
}
