//! The text of dates, times, timestamps and decimals, as arrow-rs prints
//! them (it formats with chrono and num-bigint; strata computes the same
//! text without either).
//!
//! Dates and timestamps are in the proleptic Gregorian calendar, UTC. A
//! year is four digits, zero-padded, from 0 to 9999, and otherwise signed
//! and padded to five characters (`-0001`, `+10000`), as chrono's `%Y`
//! writes it; arrow-rs panics past chrono's years (-262144 to 262143),
//! strata carries the calendar on.

/// Days since 1970-01-01 as (year, month, day): Howard Hinnant's
/// `civil_from_days`, in `i64` so every input is in range.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11]
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32; // [1, 31]
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32; // [1, 12]
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// `%Y-%m-%d` of a day count.
fn ymd(days: i64) -> String {
    let (year, month, day) = civil_from_days(days);
    if (0..10_000).contains(&year) {
        format!("{year:04}-{month:02}-{day:02}")
    } else {
        format!("{year:+05}-{month:02}-{day:02}")
    }
}

/// A date: days since 1970-01-01, as `2010-01-02`.
pub(crate) fn date(days: i64) -> String {
    ymd(days)
}

/// A timestamp of `value` units since 1970-01-01 00:00 UTC, `per_second`
/// units a second (1,000 or 1,000,000), as
/// `2010-01-02 00:12:54.000 +00:00` (three fraction digits for
/// milliseconds, six for microseconds).
pub(crate) fn timestamp(value: i128, per_second: i128) -> String {
    let seconds = value.div_euclid(per_second);
    let fraction = value.rem_euclid(per_second);
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    // |value| < 2^63, so the day count fits an i64.
    let days = i64::try_from(days).unwrap_or_default();
    let (h, m, s) = (of_day / 3600, of_day % 3600 / 60, of_day % 60);
    let width = if per_second == 1_000 { 3 } else { 6 };
    format!(
        "{} {h:02}:{m:02}:{s:02}.{fraction:0width$} +00:00",
        ymd(days)
    )
}

/// Milliseconds since midnight as `HH:MM:SS.mmm`. A negative value is
/// taken as the unsigned number of the same bits, as arrow-rs does.
pub(crate) fn time_millis(value: i32) -> String {
    let total = i64::from(value) as u64;
    let (h, m, s, ms) = (
        total / 3_600_000,
        total % 3_600_000 / 60_000,
        total % 60_000 / 1000,
        total % 1000,
    );
    format!("{h:02}:{m:02}:{s:02}.{ms:03}")
}

/// Microseconds since midnight as `HH:MM:SS.uuuuuu` (negative values as
/// in [`time_millis`]).
pub(crate) fn time_micros(value: i64) -> String {
    let total = value as u64;
    let (h, m, s, us) = (
        total / 3_600_000_000,
        total % 3_600_000_000 / 60_000_000,
        total % 60_000_000 / 1_000_000,
        total % 1_000_000,
    );
    format!("{h:02}:{m:02}:{s:02}.{us:06}")
}

/// The decimal digits of the big-endian two's complement integer `bytes`
/// (no bytes is 0), with a leading `-` when negative.
fn signed_digits(bytes: &[u8]) -> String {
    if bytes.len() <= 16 {
        let negative = bytes.first().is_some_and(|b| b & 0x80 != 0);
        let mut wide = if negative { [0xFF; 16] } else { [0; 16] };
        wide[16 - bytes.len()..].copy_from_slice(bytes);
        return i128::from_be_bytes(wide).to_string();
    }
    let negative = bytes[0] & 0x80 != 0;
    // The magnitude, big-endian: two's complement negated when negative.
    let mut magnitude = bytes.to_vec();
    if negative {
        let mut carry = true;
        for b in magnitude.iter_mut().rev() {
            *b = !*b;
            if carry {
                let (sum, overflow) = b.overflowing_add(1);
                *b = sum;
                carry = overflow;
            }
        }
    }
    // Base 10^9 digits by repeated division of 32-bit limbs.
    let mut limbs: Vec<u32> = Vec::with_capacity(magnitude.len() / 4 + 1);
    let head = magnitude.len() % 4;
    if head > 0 {
        limbs.push(
            magnitude[..head]
                .iter()
                .fold(0, |acc, &b| acc << 8 | u32::from(b)),
        );
    }
    for chunk in magnitude[head..].chunks_exact(4) {
        limbs.push(u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]));
    }
    let mut groups = Vec::new();
    let mut start = limbs.iter().position(|&l| l != 0).unwrap_or(limbs.len());
    while start < limbs.len() {
        let mut remainder = 0u64;
        for limb in &mut limbs[start..] {
            let value = remainder << 32 | u64::from(*limb);
            *limb = (value / 1_000_000_000) as u32;
            remainder = value % 1_000_000_000;
        }
        groups.push(remainder as u32);
        while start < limbs.len() && limbs[start] == 0 {
            start += 1;
        }
    }
    let mut out = String::with_capacity(groups.len() * 9 + 1);
    if negative {
        out.push('-');
    }
    match groups.split_last() {
        None => out.push('0'),
        Some((most, rest)) => {
            out.push_str(&most.to_string());
            for group in rest.iter().rev() {
                out.push_str(&format!("{group:09}"));
            }
        }
    }
    out
}

/// A decimal's text, as arrow-rs writes it: the unscaled value `bytes`
/// with the point `scale` digits from the right, zeros added in front as
/// needed (`0.04`, `-0.04`), never an exponent. With a scale of 0 the
/// point ends the text (`12345.`), as in arrow-rs. arrow-rs panics on a
/// negative scale; strata writes the unscaled digits, that many zeros and
/// the point.
pub(crate) fn decimal(bytes: &[u8], scale: i32) -> String {
    let mut digits = signed_digits(bytes);
    let sign = usize::from(digits.starts_with('-'));
    if scale < 0 {
        digits.extend(std::iter::repeat_n('0', scale.unsigned_abs() as usize));
        digits.push('.');
        return digits;
    }
    let len = digits.len() - sign;
    let scale = scale as usize;
    if len <= scale {
        let zeros = "0".repeat(scale - len);
        digits.insert_str(sign, &format!("0.{zeros}"));
    } else {
        digits.insert(sign + len - scale, '.');
    }
    digits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_match_the_calendar_and_chrono_years() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(14611), "2010-01-02");
        assert_eq!(date(-1), "1969-12-31");
        assert_eq!(date(-719_528), "0000-01-01");
        assert_eq!(date(-719_529), "-0001-12-31");
        assert_eq!(date(2_932_897), "+10000-01-01");
        assert_eq!(date(i64::from(i32::MIN)), "-5877641-06-23");
        assert_eq!(date(11_016), "2000-02-29");
    }

    #[test]
    fn timestamps_floor_before_the_epoch() {
        assert_eq!(timestamp(-1, 1000), "1969-12-31 23:59:59.999 +00:00");
        assert_eq!(
            timestamp(1_262_391_174_000, 1000),
            "2010-01-02 00:12:54.000 +00:00"
        );
        assert_eq!(
            timestamp(1_262_391_174_000_001, 1_000_000),
            "2010-01-02 00:12:54.000001 +00:00"
        );
        // Extreme values print; the day count stays in range.
        assert!(timestamp(i128::from(i64::MIN), 1000).ends_with("+00:00"));
        assert!(timestamp(i128::from(i64::MAX), 1_000_000).starts_with("+294247-"));
    }

    #[test]
    fn times_wrap_negative_values_as_arrow_rs() {
        assert_eq!(time_millis(3_723_004), "01:02:03.004");
        assert_eq!(time_micros(3_723_000_005), "01:02:03.000005");
        assert_eq!(time_millis(-1), "5124095576030:25:51.615");
    }

    #[test]
    fn decimals_of_any_width() {
        assert_eq!(decimal(&4i32.to_be_bytes(), 2), "0.04");
        assert_eq!(decimal(&(-4i32).to_be_bytes(), 2), "-0.04");
        assert_eq!(decimal(&12345i64.to_be_bytes(), 2), "123.45");
        assert_eq!(decimal(&12345i64.to_be_bytes(), 0), "12345.");
        assert_eq!(decimal(&[207, 200], 8), "-0.00012344");
        assert_eq!(decimal(&[45], 5), "0.00045");
        assert_eq!(decimal(&[], 2), "0.00");
        assert_eq!(decimal(&[0x80], 0), "-128.");
        assert_eq!(decimal(&12i32.to_be_bytes(), -2), "1200.");
        // Wider than 128 bits: 2^128 and its negation.
        let mut wide = vec![0u8; 17];
        wide[0] = 1;
        assert_eq!(
            decimal(&wide, 3),
            "340282366920938463463374607431768211.456"
        );
        let negated: Vec<u8> = {
            let mut v: Vec<u8> = wide.iter().map(|b| !b).collect();
            let mut carry = true;
            for b in v.iter_mut().rev() {
                if carry {
                    let (s, o) = b.overflowing_add(1);
                    *b = s;
                    carry = o;
                }
            }
            let mut with_sign = vec![0xFF];
            with_sign.extend(v);
            with_sign
        };
        assert_eq!(
            decimal(&negated, 0),
            "-340282366920938463463374607431768211456."
        );
        assert_eq!(decimal(&[0u8; 20], 1), "0.0");
    }
}
