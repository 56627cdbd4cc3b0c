//! Today's date in UTC, from the system clock. Core is clock-free: a run
//! reads the clock once and passes the date in `AuditOptions::today`.

use std::time::{SystemTime, UNIX_EPOCH};

use isolint_core::Date;

/// The civil date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, the inverse of [`Date::days`]).
pub fn from_days(days: i64) -> Option<Date> {
    let z = days.checked_add(719_468)?;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    Some(Date {
        year: i32::try_from(year).ok()?,
        month: u32::try_from(month).ok()?,
        day: u32::try_from(day).ok()?,
    })
}

/// Today in UTC, or `None` when the clock is before 1970 (staleness checks
/// are then skipped rather than computed from a wrong date).
pub fn utc_today() -> Option<Date> {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).ok()?.as_secs();
    from_days(i64::try_from(secs / 86_400).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_core_days() {
        for s in [
            "1970-01-01",
            "2000-02-29",
            "2026-11-29",
            "2100-03-01",
            "1969-12-31",
            "2400-12-31",
        ] {
            let d = Date::parse(s).unwrap();
            assert_eq!(from_days(d.days()), Some(d), "{s}");
        }
        for n in -1000..40_000 {
            assert_eq!(from_days(n).unwrap().days(), n);
        }
    }

    #[test]
    fn the_clock_gives_a_plausible_date() {
        let d = utc_today().unwrap();
        assert!(d.year >= 2024, "{d}");
    }
}
