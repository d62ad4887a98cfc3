//! Small helpers shared by the binaries (each binary includes this module; it is not part of
//! the library).
#![allow(dead_code)]

use std::io::Write;

/// An error and its causes on one line, `outer: inner`, leaving out a cause whose text the
/// message already holds (typed errors spell out their I/O cause, so `{e:#}` said it twice).
pub fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

/// Write text to stdout. A closed pipe (`bench-run ... | head`) is not an error worth a
/// panic, which `print!` would raise; other write errors are ignored for the same reason:
/// results are in files, stdout only shows them.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// The command line as text, whatever bytes the arguments hold (`std::env::args` would panic
/// on an argument that is not UTF-8).
pub fn command_line() -> Vec<String> {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

/// A `--timeout`-style duration in seconds: finite, at least a millisecond (the harness checks
/// budgets about that often), at most a year.
pub fn parse_secs(s: &str) -> Result<std::time::Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: expected a number of seconds, e.g. 0.5"))?;
    if !(0.001..=31_536_000.0).contains(&v) {
        return Err(format!(
            "{s:?}: expected a number of seconds from 0.001 to 31536000"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(v))
}

/// A whole-number option from `min` to `max`. Negative numbers reach the parser (the option
/// is declared with `allow_negative_numbers`) and are refused as values, "expected a
/// non-negative number", instead of clap's "unexpected argument '-1'".
pub fn whole<T>(min: u64, max: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: TryFrom<u64>,
{
    move |s: &str| {
        let range = if max == u64::MAX {
            format!("{min} or more")
        } else {
            format!("from {min} to {max}")
        };
        let t = s.trim();
        if t.starts_with('-') {
            return Err(format!(
                "{s:?}: expected a non-negative whole number ({range})"
            ));
        }
        let v: u64 = t
            .parse()
            .map_err(|_| format!("{s:?}: expected a whole number ({range})"))?;
        if !(min..=max).contains(&v) {
            return Err(format!("{s:?}: expected a whole number {range}"));
        }
        T::try_from(v).map_err(|_| format!("{s:?}: expected a whole number {range}"))
    }
}

/// A non-negative number of any size (`--noise-band`-style).
pub fn non_negative(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: expected a non-negative number"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("{s:?}: expected a non-negative number"));
    }
    Ok(v)
}

/// What the reports know of the built-in solvers ([`puzzlebench::report::Vocabulary`]): each
/// strategy with its effort unit (the fallback for a results file whose meta records none)
/// and the Hitori rule sets, so a `--where strategy=abc` keeping no row is an empty
/// selection, not a typo. The library's reports name no solver; the binaries hand this in.
pub fn vocabulary() -> puzzlebench::report::Vocabulary {
    use puzzlebench::builtin::{builtin_effort, STRATEGY_NAMES};
    puzzlebench::report::Vocabulary {
        strategies: STRATEGY_NAMES
            .iter()
            .filter_map(|&(name, _, _)| Some((name, builtin_effort(name)?)))
            .collect(),
        rules: puzzlebench::hitori::Rules::ALL
            .iter()
            .map(|r| r.name())
            .collect(),
    }
}
