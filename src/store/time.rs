//! Time as the on-disk formats keep it: milliseconds since the Unix epoch, rounded as Node's
//! `fs.Stats#mtime` is (the lock protocol compares memwb's times with the reference's), and
//! shown as RFC 3339 in UTC.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the epoch, rounded to the nearest, as Node's `fs.Stats#mtime` is.
pub fn millis_rounded(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(d) => ((d.as_nanos() + 500_000) / 1_000_000) as i64,
        Err(e) => -(((e.duration().as_nanos() + 500_000) / 1_000_000) as i64),
    }
}

/// Now, in milliseconds since the epoch, rounded as [`millis_rounded`] does.
pub fn now_ms() -> i64 {
    millis_rounded(SystemTime::now())
}

/// Renders milliseconds since the epoch as RFC 3339 in UTC (times before the epoch as the
/// epoch).
pub fn format_ms(ms: i64) -> String {
    let time = UNIX_EPOCH + Duration::from_millis(ms.max(0) as u64);
    humantime::format_rfc3339_millis(time).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_the_nearest_millisecond_as_node_does() {
        assert_eq!(millis_rounded(UNIX_EPOCH + Duration::from_micros(1_499)), 1);
        assert_eq!(millis_rounded(UNIX_EPOCH + Duration::from_micros(1_500)), 2);
        assert_eq!(
            millis_rounded(UNIX_EPOCH - Duration::from_micros(1_500)),
            -2
        );
    }

    #[test]
    fn formats_as_rfc3339_utc() {
        assert_eq!(format_ms(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        assert_eq!(format_ms(-5), "1970-01-01T00:00:00.000Z");
    }
}
