//! Entering and leaving the terminal's full-screen mode. Restored on exit, on error (the guard's
//! drop) and on panic (the hook).

use std::io::{self, Stdout, Write};
use std::sync::Once;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

pub fn enter() -> io::Result<Term> {
    install_panic_hook();
    enable_raw_mode()?;
    let mut stdout = io::stdout();
    if let Err(e) = execute!(
        stdout,
        EnterAlternateScreen,
        EnableMouseCapture,
        // A paste arrives as one event (Event::Paste), not as keystrokes that could run bindings.
        EnableBracketedPaste,
        cursor::Hide
    ) {
        restore();
        return Err(e);
    }
    Terminal::new(CrosstermBackend::new(stdout))
}

/// Leaves full-screen mode. Safe to call more than once.
pub fn restore() {
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
}

/// Leaves full-screen mode for good from another thread than the UI's (the signal handler's,
/// right before the process exits): stdout stays locked from here on, so that no part of a
/// frame the UI thread is drawing lands on the restored screen.
pub fn restore_for_exit() {
    let mut out = io::stdout().lock();
    restore();
    let _ = out.flush();
    // held until the process exits
    std::mem::forget(out);
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Restores the terminal when dropped, whatever way the workbench ends.
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}
