//! `memwb` (no subcommand), `memwb tui [DIR]` and `memwb demo`: the workbench.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;

use crate::store::Store;

#[derive(clap::Args, Debug, Default)]
pub struct TuiArgs {
    /// The workspace to open (default: `-C DIR`, else the current directory).
    pub dir: Option<PathBuf>,
}

#[derive(clap::Args, Debug, Default)]
pub struct DemoArgs {}

fn require_terminal() -> anyhow::Result<()> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "the workbench needs a terminal (stdin and stdout); for scripts use `memwb ls`, `memwb check` or `memwb watch`"
        );
    }
    Ok(())
}

/// Opens the workbench on `args.dir`, else on the workspace of `store`.
pub fn run(store: &Store, args: &TuiArgs) -> anyhow::Result<u8> {
    require_terminal()?;
    let store = match &args.dir {
        Some(dir) => Store::open(dir, store.options().clone())
            .with_context(|| format!("cannot open workspace {}", dir.display()))?,
        None => store.clone(),
    };
    crate::tui::run(store)?;
    Ok(0)
}

/// Copies the demo workspace to a fresh temporary directory, opens the workbench on it, and on
/// exit prints where it is.
pub fn demo(store: &Store, _args: &DemoArgs) -> anyhow::Result<u8> {
    require_terminal()?;
    let dir = crate::tui::demo::create()?;
    let demo_store = Store::open(&dir, store.options().clone())
        .with_context(|| format!("cannot open the demo workspace {}", dir.display()))?;
    let result = crate::tui::run(demo_store);
    say!("The demo workspace is in {}", dir.display())?;
    say!("Open it again with: memwb tui {}", dir.display())?;
    result?;
    Ok(0)
}
