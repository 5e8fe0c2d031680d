//! Time as the on-disk formats keep it: milliseconds since the Unix epoch, rounded as Node's
//! `fs.Stats#mtime` is (the lock protocol compares memwb's times with the reference's), and
//! shown as RFC 3339 in UTC.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the epoch, rounded to the nearest, as Node's `fs.Stats#mtime` is.
pub(crate) fn millis_rounded(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(d) => ((d.as_nanos() + 500_000) / 1_000_000) as i64,
        Err(e) => -(((e.duration().as_nanos() + 500_000) / 1_000_000) as i64),
    }
}

/// Now, in milliseconds since the epoch, rounded as `millis_rounded` does.
pub(crate) fn now_ms() -> i64 {
    millis_rounded(SystemTime::now())
}

/// Renders milliseconds since the epoch as RFC 3339 in UTC (times before the epoch as the
/// epoch).
pub(crate) fn format_ms(ms: i64) -> String {
    let time = UNIX_EPOCH + Duration::from_millis(ms.max(0) as u64);
    rfc3339(time, Precision::Millis)
}

/// How many fractional digits [`rfc3339`] shows.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Precision {
    Seconds,
    Millis,
    Nanos,
}

/// `time` as RFC 3339 in UTC with a fixed number of fractional digits (a time jiff cannot
/// represent, beyond the year 9999, as its seconds since the epoch).
pub(crate) fn rfc3339(time: SystemTime, precision: Precision) -> String {
    let format = match precision {
        Precision::Seconds => "%Y-%m-%dT%H:%M:%SZ",
        Precision::Millis => "%Y-%m-%dT%H:%M:%S%.3fZ",
        Precision::Nanos => "%Y-%m-%dT%H:%M:%S%.9fZ",
    };
    match jiff::Timestamp::try_from(time) {
        Ok(at) => at.strftime(format).to_string(),
        Err(_) => format!("{:?}", time.duration_since(UNIX_EPOCH).unwrap_or_default()),
    }
}

/// A duration as a person reads it: `30s`, `1m 30s`, `1s 500ms`.
pub(crate) fn friendly(duration: Duration) -> String {
    match jiff::SignedDuration::try_from(duration) {
        Ok(d) => format!("{d:#}"),
        Err(_) => format!("{duration:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_keeps_its_digits_fixed() {
        let at = UNIX_EPOCH + Duration::new(1_767_225_600, 5_000_000);
        assert_eq!(format_ms(1_767_225_600_005), "2026-01-01T00:00:00.005Z");
        assert_eq!(rfc3339(at, Precision::Seconds), "2026-01-01T00:00:00Z");
        assert_eq!(
            rfc3339(at, Precision::Nanos),
            "2026-01-01T00:00:00.005000000Z"
        );
        assert_eq!(format_ms(-5), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn durations_read_as_a_person_says_them() {
        assert_eq!(friendly(Duration::from_secs(30)), "30s");
        assert_eq!(friendly(Duration::from_millis(1_500)), "1s 500ms");
        assert_eq!(friendly(Duration::from_secs(90)), "1m 30s");
    }

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
