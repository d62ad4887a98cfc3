//! Numbers as messages print them: a value a user gave (`startup_limit = 1e300`) or a column
//! holds (`big=1e308`) is shown in scientific form when plain digits would run long, never as
//! 300 digits.

/// `v` for a message: plain (`0.5`, `60`, `123456`) below 10¹⁵ in magnitude and at or above
/// 10⁻⁶, scientific in the shortest form that reads back as `v` (`1e300`, `2.5e-9`)
/// otherwise; `inf`, `-inf` and `NaN` as they are.
pub fn show(v: f64) -> String {
    if v.is_finite() && v != 0.0 && !(1e-6..1e15).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::show;

    // Issue 38: `startup_limit = 1e300` was refused with a 301-digit number.
    #[test]
    fn large_and_tiny_values_are_scientific() {
        assert_eq!(show(1e300), "1e300");
        assert_eq!(show(-1.5e20), "-1.5e20");
        assert_eq!(show(f64::MAX), "1.7976931348623157e308");
        assert_eq!(show(2.5e-9), "2.5e-9");
        assert_eq!(show(0.5), "0.5");
        assert_eq!(show(60.0), "60");
        assert_eq!(show(123_456.0), "123456");
        assert_eq!(show(0.0), "0");
        assert_eq!(show(f64::INFINITY), "inf");
        for v in [1e300, 3e-7, 1e15, 7.0] {
            assert!(show(v).len() < 25, "{v}");
            assert_eq!(show(v).parse::<f64>(), Ok(v));
        }
    }
}
