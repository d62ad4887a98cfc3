//! The counters a solver reports, as one table.
//!
//! The `counters!` macro below is the only place a counter is named. It generates the [`Counters`] struct
//! (one optional field per counter), the column list, the CSV cell formatting and parsing, the
//! words error messages use, lookup by name (the external-solver protocol's `key=value`
//! statistics) and the comparison that `bench-report compare` runs. Adding a counter is one
//! line here; records, CSV files, resume, compare and the docs table follow.

use std::fmt;
use std::io::Write;

/// A counter's value type: whole numbers, or fractions (`propagated`).
pub trait CounterValue: Copy + PartialEq + fmt::Debug {
    /// The CSV cell.
    fn cell(self) -> String;
    /// The CSV cell, appended to `out` without allocating (the harness's hot path).
    fn write_cell(self, out: &mut Vec<u8>);
    /// Parse a CSV cell (never empty here: empty means "does not apply").
    fn parse_cell(s: &str) -> Option<Self>;
    /// As a number for statistics.
    fn as_f64(self) -> f64;
    /// As an exact integer, for a counter of whole numbers (`--where nodes=N`).
    fn as_integer(self) -> Option<u64> {
        None
    }
    /// What a cell must hold, in words.
    const EXPECTED: &'static str;
}

impl CounterValue for u64 {
    fn cell(self) -> String {
        self.to_string()
    }
    fn write_cell(self, out: &mut Vec<u8>) {
        // Writing into a Vec cannot fail.
        let _ = write!(out, "{self}");
    }
    fn parse_cell(s: &str) -> Option<u64> {
        s.parse().ok()
    }
    fn as_f64(self) -> f64 {
        self as f64
    }
    fn as_integer(self) -> Option<u64> {
        Some(self)
    }
    const EXPECTED: &'static str = "an unsigned integer";
}

/// A fraction from 0 to 1, written with four decimals.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Fraction(f64);

impl Fraction {
    /// `part / whole`, or `None` when `whole` is 0.
    pub fn of(part: u64, whole: u64) -> Option<Fraction> {
        (whole > 0).then(|| Fraction(part as f64 / whole as f64))
    }
    /// A fraction from a value in 0..=1; `None` outside it or for NaN.
    pub fn new(v: f64) -> Option<Fraction> {
        (0.0..=1.0).contains(&v).then_some(Fraction(v))
    }
    /// The value.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl CounterValue for Fraction {
    fn cell(self) -> String {
        format!("{:.4}", self.0)
    }
    fn write_cell(self, out: &mut Vec<u8>) {
        let _ = write!(out, "{:.4}", self.0);
    }
    fn parse_cell(s: &str) -> Option<Fraction> {
        s.parse::<f64>().ok().and_then(Fraction::new)
    }
    fn as_f64(self) -> f64 {
        self.0
    }
    const EXPECTED: &'static str = "a fraction between 0 and 1";
}

/// How a counter compares between a baseline and a new run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    /// Less is better (effort).
    Lower,
    /// More is better (work done by propagation rather than search).
    Higher,
    /// Neither direction is better (a count of solutions, a depth): any change is listed.
    Neither,
}

/// One counter of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterInfo {
    /// Column name, also the protocol key.
    pub name: &'static str,
    /// What it counts.
    pub doc: &'static str,
    /// Whether a decrease is an improvement.
    pub better: Better,
    /// Whether the column appears only on request (`solutions`: with `--count-solutions`).
    pub optional: bool,
    /// What a cell must hold, in words.
    pub expected: &'static str,
}

/// A difference in one counter between two rows.
#[derive(Clone, Debug, PartialEq)]
pub struct CounterDiff {
    /// The counter.
    pub info: CounterInfo,
    /// Baseline cell (empty: not applicable).
    pub old: String,
    /// New cell.
    pub new: String,
    /// Numeric values where both are present.
    pub values: Option<(f64, f64)>,
}

macro_rules! counters {
    ($( $name:ident : $ty:ty, $better:ident, $optional:expr, $doc:literal; )*) => {
        /// Counters a solver reports; `None` where a counter does not apply to it (an empty
        /// cell in the CSV, never a zero).
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct Counters {
            $( #[doc = $doc] pub $name: Option<$ty>, )*
        }

        /// Every counter, in column order.
        pub const COUNTERS: &[CounterInfo] = &[
            $( CounterInfo {
                name: stringify!($name),
                doc: $doc,
                better: Better::$better,
                optional: $optional,
                expected: <$ty as CounterValue>::EXPECTED,
            }, )*
        ];

        impl Counters {
            /// The cell of each counter, in [`COUNTERS`] order.
            pub fn cells(&self) -> [String; COUNTERS.len()] {
                [ $( self.$name.map(CounterValue::cell).unwrap_or_default(), )* ]
            }

            /// Append `,cell` for each counter in [`COUNTERS`] order (the optional ones only
            /// with `optional`): the same text as [`Counters::cells`], without allocating.
            pub fn write_cells(&self, optional: bool, out: &mut Vec<u8>) {
                $(
                    if optional || !$optional {
                        out.push(b',');
                        if let Some(v) = self.$name {
                            CounterValue::write_cell(v, out);
                        }
                    }
                )*
            }

            /// Each counter as a number, in [`COUNTERS`] order.
            pub fn values(&self) -> [Option<f64>; COUNTERS.len()] {
                [ $( self.$name.map(CounterValue::as_f64), )* ]
            }

            /// The counter named `name` as a number (`None`: absent, or no such counter).
            pub fn get(&self, name: &str) -> Option<f64> {
                match name {
                    $( stringify!($name) => self.$name.map(CounterValue::as_f64), )*
                    _ => None,
                }
            }

            /// The counter named `name` as an exact integer, for a counter of whole numbers.
            pub fn get_u64(&self, name: &str) -> Option<u64> {
                match name {
                    $( stringify!($name) => self.$name.and_then(CounterValue::as_integer), )*
                    _ => None,
                }
            }

            /// Set the counter named `name` from a cell. `Ok(false)`: no counter has that
            /// name; `Err`: it does, and the text is not a value of it (the error says what
            /// was expected). An empty cell clears it.
            pub fn set_by_name(&mut self, name: &str, text: &str) -> Result<bool, &'static str> {
                match name {
                    $( stringify!($name) => {
                        self.$name = if text.is_empty() {
                            None
                        } else {
                            Some(<$ty as CounterValue>::parse_cell(text)
                                .ok_or(<$ty as CounterValue>::EXPECTED)?)
                        };
                        Ok(true)
                    } )*
                    _ => Ok(false),
                }
            }

            /// Counters whose cells differ between `self` (baseline) and `new`.
            pub fn diffs(&self, new: &Counters) -> Vec<CounterDiff> {
                let (a, b) = (self.cells(), new.cells());
                let (va, vb) = (self.values(), new.values());
                (0..COUNTERS.len())
                    .filter(|&i| a[i] != b[i])
                    .map(|i| CounterDiff {
                        info: COUNTERS[i],
                        old: a[i].clone(),
                        new: b[i].clone(),
                        values: va[i].zip(vb[i]),
                    })
                    .collect()
            }
        }
    };
}

counters! {
    nodes: u64, Lower, false,
        "Search nodes (Hitori: calls of the recursive search, root included; Sudoku backtrack: nodes).";
    max_depth: u64, Lower, false, "Deepest branching level reached (root = 0).";
    backtracks: u64, Lower, false, "Branches that failed and were undone.";
    propagated: Fraction, Higher, false,
        "Fraction of cells fixed by propagation before the first branch.";
    guesses: u64, Lower, false, "Branches beyond the first at a choice point.";
    cycles: u64, Lower, false,
        "ABC: 1-based cycle in which a zero-conflict source first existed (0: solved at the start or by presolve); the cycles run when unsolved.";
    evaluations: u64, Lower, false, "ABC: fitness evaluations (initial sources, neighbours, scouts).";
    scouts: u64, Lower, false, "ABC: sources abandoned and replaced by scouts.";
    best_conflicts: u64, Lower, false, "ABC: best conflict count at the end (0 when solved).";
    empties_after_presolve: u64, Lower, false, "ABC hybrid: blanks left after naked and hidden singles.";
    solutions: u64, Neither, true, "Solutions found, counting up to `--count-solutions K`.";
}

/// A metric's name as a `&'static str`, for the reports' `Copy` types: a counter's or a
/// timing column's own name, else (a `stats` key, which only files and flags name) one copy
/// kept for the life of the process. The distinct names a process meets are few (the effort
/// units its inputs declare and the `--metric`s it is given), so the copies are too.
pub fn metric_name(name: &str) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::{Mutex, OnceLock};
    if let Some(c) = CounterInfo::named(name) {
        return c.name;
    }
    if let Some(t) = ["wall_s", "cpu_s", "max_rss_kib", "startup_s"]
        .into_iter()
        .find(|t| *t == name)
    {
        return t;
    }
    static NAMES: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
    // A poisoned lock still holds a valid set: a panic elsewhere cannot corrupt it.
    let mut names = NAMES
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(n) = names.get(name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(n);
    n
}

impl CounterInfo {
    /// The counter named `name`.
    pub fn named(name: &str) -> Option<CounterInfo> {
        COUNTERS.iter().copied().find(|c| c.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_drives_cells_and_parsing() {
        let c = Counters {
            nodes: Some(8),
            propagated: Fraction::new(0.25),
            ..Counters::default()
        };
        let cells = c.cells();
        assert_eq!(cells[0], "8");
        assert_eq!(cells[3], "0.2500");
        assert!(cells[1].is_empty());
        let mut back = Counters::default();
        for (info, cell) in COUNTERS.iter().zip(cells.iter()) {
            assert_eq!(back.set_by_name(info.name, cell), Ok(true));
        }
        assert_eq!(back, c);
        assert_eq!(back.set_by_name("colour", "1"), Ok(false));
        assert_eq!(back.set_by_name("nodes", "-1"), Err("an unsigned integer"));
        assert_eq!(
            back.set_by_name("propagated", "1.5"),
            Err("a fraction between 0 and 1")
        );
        assert_eq!(c.get("nodes"), Some(8.0));
        assert_eq!(c.get("cycles"), None);
    }

    #[test]
    fn metric_names_are_kept_once() {
        assert_eq!(metric_name("nodes"), "nodes");
        assert!(std::ptr::eq(metric_name("nodes"), COUNTERS[0].name));
        let a = metric_name(&String::from("decodes"));
        let b = metric_name(&String::from("decodes"));
        assert_eq!(a, "decodes");
        assert!(std::ptr::eq(a, b), "one copy per name");
    }

    #[test]
    fn diffs_name_each_changed_counter() {
        let a = Counters {
            nodes: Some(8),
            guesses: Some(1),
            ..Counters::default()
        };
        let b = Counters {
            nodes: Some(9),
            guesses: None,
            ..Counters::default()
        };
        let d = a.diffs(&b);
        let names: Vec<&str> = d.iter().map(|x| x.info.name).collect();
        assert_eq!(names, ["nodes", "guesses"]);
        assert_eq!(d[0].values, Some((8.0, 9.0)));
        assert_eq!(d[1].values, None);
        assert_eq!(COUNTERS.iter().filter(|c| c.optional).count(), 1);
    }
}
