//! The workbench: a terminal UI on one memory folder of either format (a workspace's
//! `.memory`, or Claude Code's auto memory), through [`crate::formats::Open`].
//!
//! One event enum ([`app::Event`]) is fed by terminal input, the watcher ([`crate::watch`])
//! and finished background jobs, and drained before each render ([`run_on`]). Each pane is a small
//! component in [`panes`]; the keymap ([`keymap`]) is data that drives dispatch, the hints bar
//! and the help overlay. All untrusted text goes through [`sanitize`].

pub mod app;
pub mod demo;
pub mod editor;
pub mod error;
pub mod evals;
pub mod external;
pub mod jobs;
pub mod keymap;
pub(crate) mod layout;
pub(crate) mod line_input;
pub(crate) mod merge;
pub mod panes;
pub mod perform;
pub mod query;
pub mod review;
pub mod run;
pub use crate::sanitize;
pub mod terminal;
pub mod text;
pub mod theme;
pub mod ui;
pub mod watching;

pub use error::TuiError;
pub use run::run_on;

/// Sends logs to a file, never to the screen: `$MEMWB_LOG` or `<temp dir>/memwb.log`, level
/// from `RUST_LOG` (default `info`). Does nothing when a subscriber is already set.
pub fn init_logging() {
    let path = std::env::var_os("MEMWB_LOG")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("memwb.log"));
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    else {
        return;
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init();
}
