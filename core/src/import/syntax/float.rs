//! The two questions the importers ask of a float, answered without
//! `f64::from_str`: whether a text is one, and which whole number it rounds
//! to. Both answers are exactly those of the standard library's parser
//! (correctly rounded, ties to even), which the tests below hold them to;
//! the page would otherwise carry that parser's code and its power tables
//! for two checks that need neither.

use std::cmp::Ordering;

/// Whether `f64::from_str` accepts `text`.
pub fn is_float(text: &str) -> bool {
    let body = sign(text).1;
    ["inf", "infinity", "nan"]
        .iter()
        .any(|w| body.eq_ignore_ascii_case(w))
        || decimal(text).is_some()
}

/// The value of `text` read as an `f64`, if it parses and is finite, whole
/// and at most `1e30` in magnitude; what `f as i128` then gives.
pub fn whole(text: &str) -> Option<i128> {
    let Decimal {
        neg,
        int,
        frac,
        exp,
    } = decimal(text)?;
    let digits = [int, frac].concat();
    // Leading zeros move the point; trailing ones change nothing, and
    // without them any digit after the point makes a fraction.
    let trimmed = digits.trim_start_matches('0');
    let lead = digits.len() - trimmed.len();
    let point = exp.saturating_add(int.len() as i64 - lead as i64);
    let magnitude = rounded(trimmed.trim_end_matches('0').as_bytes(), point)?;
    // The magnitude is at most 1e30, far inside i128.
    #[allow(clippy::cast_possible_wrap)]
    let w = magnitude as i128;
    Some(if neg { -w } else { w })
}

/// A number in `f64::from_str`'s grammar: its sign, the digits before and
/// after the point, and the exponent (saturating).
struct Decimal<'a> {
    neg: bool,
    int: &'a str,
    frac: &'a str,
    exp: i64,
}

fn sign(text: &str) -> (bool, &str) {
    match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    }
}

fn decimal(text: &str) -> Option<Decimal<'_>> {
    let (neg, body) = sign(text);
    let digits_end = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (int, rest) = body.split_at(digits_end(body));
    let (frac, rest) = match rest.strip_prefix('.') {
        Some(after) => after.split_at(digits_end(after)),
        None => ("", rest),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let exp = if rest.is_empty() {
        0
    } else {
        let (eneg, e) = sign(rest.strip_prefix(['e', 'E'])?);
        if e.is_empty() || !e.bytes().all(|d| d.is_ascii_digit()) {
            return None;
        }
        let v = e.bytes().fold(0i64, |v, d| {
            v.saturating_mul(10).saturating_add(i64::from(d - b'0'))
        });
        if eneg {
            -v
        } else {
            v
        }
    };
    Some(Decimal {
        neg,
        int,
        frac,
        exp,
    })
}

/// The f64 nearest to `1e30`, the largest magnitude [`whole`] accepts.
const LIMIT: u128 = 1_000_000_000_000_000_019_884_624_838_656;

/// The magnitude `0.digits × 10^point` rounds to as an `f64` (nearest, ties
/// to even), if that is a whole number no larger than [`LIMIT`]. `digits`
/// has no leading or trailing zeros.
fn rounded(digits: &[u8], point: i64) -> Option<u128> {
    if digits.is_empty() {
        return Some(0);
    }
    // 10^31 and above round past the limit.
    if point > 31 {
        return None;
    }
    let split = usize::try_from(point.max(0)).ok()?.min(digits.len());
    let (int, frac) = digits.split_at(split);
    let int = int
        .iter()
        .map(|d| u128::from(d - b'0'))
        .chain(std::iter::repeat_n(
            0,
            usize::try_from(point).unwrap_or(0) - split,
        ))
        .fold(0u128, |v, d| v * 10 + d);
    // The fraction: `zeros` zero digits, then these. Past the longest bound
    // compared below, more leading zeros change no comparison.
    let zeros = usize::try_from(point.saturating_neg().clamp(0, 1100)).unwrap_or(0);
    if int >= 1 << 53 {
        // Every f64 from here up is whole: round to 53 significant bits.
        let drop = 128 - int.leading_zeros() - 53;
        let low = int & ((1 << drop) - 1);
        let half = 1 << (drop - 1);
        let kept = int >> drop;
        let up = low > half || (low == half && (!frac.is_empty() || kept & 1 == 1));
        let v = (kept + u128::from(up)) << drop;
        return (v <= LIMIT).then_some(v);
    }
    // Below 2^53 the result is whole only if it is `int` or `int + 1`:
    // the fraction must lie within half a step of the f64s next to them
    // (2^-k), ties going to the even mantissa (which `int` and `int + 1`
    // have unless the step is 1). Zero's upper neighbour is the smallest
    // subnormal, 2^-1074; one's lower neighbour is 1 - 2^-53.
    if int == 0 {
        // 2^-1075 has 323 zeros after the point: a fraction with fewer is
        // above it and cannot round to zero.
        if zeros > 320 && cmp_frac(zeros, frac, half_smallest()) != Ordering::Greater {
            return Some(0);
        }
        let bound = one_minus(&half_power(54));
        return (cmp_frac(zeros, frac, &bound) != Ordering::Less).then_some(1);
    }
    let k = 53 - (127 - int.leading_zeros());
    match cmp_frac(zeros, frac, &half_power(k)) {
        Ordering::Less => return Some(int),
        Ordering::Equal if k > 1 || int & 1 == 0 => return Some(int),
        _ => {}
    }
    let bound = one_minus(&half_power(k));
    (cmp_frac(zeros, frac, &bound) != Ordering::Less).then_some(int + 1)
}

/// The decimal digits of 2^-k after the point (exactly k of them).
fn half_power(k: u32) -> Vec<u8> {
    let mut d = vec![5u8];
    for _ in 1..k {
        let mut carry = 0;
        for x in &mut d {
            let v = carry * 10 + *x;
            *x = v / 2;
            carry = v % 2;
        }
        d.push(carry * 5);
    }
    d
}

/// The digits of 2^-1075, half the smallest subnormal, made once: working
/// them out costs far more than comparing a number with them, and a file
/// may hold many tiny numbers.
fn half_smallest() -> &'static [u8] {
    static DIGITS: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    DIGITS.get_or_init(|| half_power(1075))
}

/// The digits of 1 - x for the digits of a fraction x that ends in 5.
fn one_minus(x: &[u8]) -> Vec<u8> {
    let mut d: Vec<u8> = x.iter().map(|v| 9 - v).collect();
    if let Some(last) = d.last_mut() {
        *last += 1;
    }
    d
}

/// Compares the fraction of `zeros` zero digits then `frac` (ASCII) with
/// the fraction of the digits `bound`.
fn cmp_frac(zeros: usize, frac: &[u8], bound: &[u8]) -> Ordering {
    let len = (zeros + frac.len()).max(bound.len());
    (0..len)
        .map(|i| {
            let a = i
                .checked_sub(zeros)
                .and_then(|j| frac.get(j))
                .map_or(0, |d| d - b'0');
            (a, bound.get(i).copied().unwrap_or(0))
        })
        .find(|(a, b)| a != b)
        .map_or(Ordering::Equal, |(a, b)| a.cmp(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the importers computed with the standard library's parser.
    fn std_whole(text: &str) -> Option<i128> {
        let f: f64 = text.parse().ok()?;
        if !f.is_finite() || f.fract() != 0.0 || f.abs() > 1e30 {
            return None;
        }
        #[allow(clippy::cast_possible_truncation)]
        Some(f as i128)
    }

    fn same(text: &str) {
        assert_eq!(is_float(text), text.parse::<f64>().is_ok(), "{text:?}");
        assert_eq!(whole(text), std_whole(text), "{text:?}");
    }

    #[test]
    fn edges_agree_with_the_standard_parser() {
        let cases = [
            "", "+", "-", ".", "e", "e5", "1e", "1e+", "1e-", ".e1", "1.e1", ".5e1", "1.", ".5",
            "0", "-0", "0.0", "-0.0", "00.00e0", "0e99999999999999999999", "1e-99999999999999999",
            "1e400", "1e-400", "inf", "-INF", "+Infinity", "infinit", "nan", "NaN", "-nan", "+-1",
            "--1", "1e+-1", "1ee1", "1.2.3", "1_0", " 1", "1 ", "0x10", "1e30", "1e30.0",
            "1000000000000000019884624838656", "1000000000000000019884624838657",
            "1000000000000000042420637374017.5", "1.0000000000000001e30", "9.999999999999999e29",
            "4503599627370496.5", "4503599627370497.5", "4503599627370495.5",
            "9007199254740993", "9007199254740995", "9007199254740993.0000001",
            "9007199254740992.9999", "0.9999999999999999444888487687421729788184165954589843751",
            "0.99999999999999994448884876874217297881841659545898437499",
            "0.99999999999999994448884876874217297881841659545898437500", "0.5", "1.5", "2.5",
            "0.49999999999999999999", "2.0000000000000004440892098500626161694526672363281249",
            "2.0000000000000004440892098500626161694526672363281250",
            "2.0000000000000004440892098500626161694526672363281251",
            "3.9999999999999997779553950749686919152736663818359375",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
            "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328126e-324",
            "2.47032822920623272e-324", "2.47032822920623273e-324", "5e-324", "1e-323",
            "123456789012345678901234567890", "12345678901234567890123456789012",
            "0.000000000000000000000000000000000000000000000000000000000000000000000000001e75",
            "1e-1", "100e-2", "12300e-2", "12345e-2",
        ];
        for c in cases {
            same(c);
        }
    }

    proptest! {
        #[test]
        fn any_text_of_float_characters(text in "[-+]?[0-9]{0,25}(\\.[0-9]{0,25})?([eE][-+]?[0-9]{1,3})?") {
            same(&text);
        }

        #[test]
        fn near_whole_numbers(n in 0u64..(1 << 60), frac in "[0-9]{0,30}", e in -40i32..40) {
            same(&format!("{n}.{frac}"));
            same(&format!("{n}.{frac}e{e}"));
            same(&format!("0.{frac}e{e}"));
        }

        #[test]
        fn halfway_cases(n in 0u64..(1 << 56), s in 0u32..8) {
            // Odd multiples of a half step between f64s from 2^50 up.
            let x = u128::from(n) << s;
            same(&format!("{x}.5"));
            same(&format!("{x}.50000000000000000001"));
            same(&format!("{x}.49999999999999999999"));
            same(&format!("{}", x * 2 + 1));
            same(&format!("{}e1", x * 2 + 1));
        }

        #[test]
        fn any_short_text(text in "[-+.eE0-9a-zA-Z]{0,12}") {
            same(&text);
        }
    }
}
