//! The global timing option every format's lock shares (`--lock-timeout`) and the parser that
//! refuses values no user means. The budgets of a format's index are the format's own flags
//! (`formats::FormatArgs`: `--max-index-lines`, `--claude-index-lines`, ...).

use std::time::Duration;

use super::GLOBAL;

#[derive(clap::Args, Debug)]
#[command(next_help_heading = GLOBAL)]
pub(super) struct Budgets {
    /// Seconds to wait for a lock held by another process (at most a day).
    #[arg(
        long,
        global = true,
        env = "MEMWB_LOCK_TIMEOUT",
        default_value = "60",
        value_name = "SECS",
        value_parser = parse_lock_timeout
    )]
    pub(super) lock_timeout: Duration,
}

/// The longest `--lock-timeout`: beyond a day, a wait is a mistake, not a plan.
const MAX_LOCK_TIMEOUT_SECS: f64 = 86_400.0;

fn parse_lock_timeout(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!("{text:?} is not a non-negative number of seconds"));
    }
    if secs > MAX_LOCK_TIMEOUT_SECS {
        return Err(format!(
            "{text} seconds is more than a day; the most is {MAX_LOCK_TIMEOUT_SECS} (24 hours)"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_timeout_over_a_day_is_refused() {
        assert_eq!(parse_lock_timeout("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_lock_timeout("86400"), Ok(Duration::from_secs(86_400)));
        for bad in ["1e19", "1e20", "86400.5", "inf", "NaN", "-1", "soon"] {
            assert!(parse_lock_timeout(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_lock_timeout("1e19").unwrap_err(),
            "1e19 seconds is more than a day; the most is 86400 (24 hours)"
        );
    }
}
