//! Times: milliseconds since 1970 in the database, RFC 3339 in answers.

use std::num::NonZeroU8;
use std::time::{SystemTime, UNIX_EPOCH};

use time::format_description::well_known::iso8601::{Config, EncodedConfig, TimePrecision};
use time::format_description::well_known::Iso8601;
use time::OffsetDateTime;

/// Milliseconds since 1970-01-01 UTC, now.
#[must_use]
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// RFC 3339 as the answers write it: the date, the time to the millisecond, and `Z`.
const ANSWER_TIME: EncodedConfig = Config::DEFAULT
    .set_year_is_six_digits(false)
    .set_time_precision(TimePrecision::Second {
        decimal_digits: NonZeroU8::new(3),
    })
    .encode();

/// `ms` since 1970 as an RFC 3339 time in UTC, to the millisecond, formatted by the
/// `time` crate. A time outside the years 0 to 9999, which RFC 3339 cannot write (no
/// clock of this server gives one, but a damaged database could), is written as the
/// nearest it can, logged as an error.
///
/// ```
/// use ai2048_web::scores::rfc3339;
/// assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
/// assert_eq!(rfc3339(1_795_000_000_123), "2026-11-18T11:06:40.123Z");
/// ```
#[must_use]
pub fn rfc3339(ms: i64) -> String {
    let writable = ms.clamp(YEAR_0, YEAR_10000 - 1);
    if writable != ms {
        tracing::error!(ms, "a stored time outside the years 0 to 9999");
    }
    let at = OffsetDateTime::UNIX_EPOCH + time::Duration::milliseconds(writable);
    at.format(&Iso8601::<ANSWER_TIME>)
        .unwrap_or_else(|e| format!("(a time that does not format: {e})"))
}

/// Milliseconds since 1970 of 0000-01-01T00:00:00Z.
const YEAR_0: i64 = -62_167_219_200_000;
/// Milliseconds since 1970 of 10000-01-01T00:00:00Z.
const YEAR_10000: i64 = 253_402_300_800_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(rfc3339(4_102_444_800_000), "2100-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(YEAR_0), "0000-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(YEAR_10000 - 1), "9999-12-31T23:59:59.999Z");
    }

    /// Times RFC 3339 cannot write (a damaged row) are written as the nearest it can,
    /// and nothing panics.
    #[test]
    fn times_out_of_range_do_not_panic() {
        assert_eq!(rfc3339(i64::MIN), "0000-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(i64::MAX), "9999-12-31T23:59:59.999Z");
    }
}
