//! One CSV row per job: the schema shared by `bench-run` (writer) and `bench-report` (reader).
//!
//! Columns are fixed and named; numbers are raw (no units in the cells, the unit is in the
//! name: `wall_s` is seconds). A counter that does not apply to a row's solver is an empty
//! cell, never a zero. Two columns are optional: `solutions` (present when the run counted
//! solutions) and `solution` (present with `--record-solutions`). Readers find columns by
//! header name, so a file with or without the optional columns reads the same way.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How a job ended. `wrong` means the solver claimed an answer the independent verifier
/// rejected: a bug, never counted as solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A verified solution was found.
    Solved,
    /// The solver proved there is no solution, or (metaheuristics) gave up within its budget.
    Unsolved,
    /// A node, cycle or time budget ran out first.
    Timeout,
    /// The solver panicked or failed; see `message`.
    Error,
    /// The solver's answer failed verification.
    Wrong,
}

impl Status {
    /// Every status, in the order reports list them.
    pub const ALL: [Status; 5] = [
        Status::Solved,
        Status::Unsolved,
        Status::Timeout,
        Status::Error,
        Status::Wrong,
    ];

    /// The spelling used in CSV cells.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolved => "unsolved",
            Status::Timeout => "timeout",
            Status::Error => "error",
            Status::Wrong => "wrong",
        }
    }

    /// Rank used by `bench-report compare`: a higher rank is a better outcome.
    pub fn rank(self) -> u8 {
        match self {
            Status::Solved => 3,
            Status::Unsolved => 2,
            Status::Timeout => 1,
            Status::Error | Status::Wrong => 0,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Status::ALL
            .into_iter()
            .find(|st| st.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown status {s:?}, expected one of solved, unsolved, timeout, error, wrong"
                )
            })
    }
}

/// One row of a results CSV. Field order is column order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Dataset name (the directory or file stem given to `--dataset`).
    pub dataset: String,
    /// Stable puzzle id: `<file stem>:<1-based index>` or a name given in the file.
    pub puzzle_id: String,
    /// `hitori` or `sudoku`.
    pub kind: String,
    /// `WxH`, e.g. `5x5` or `9x9`.
    pub size: String,
    /// Strategy name as given on the command line (`mrv`, `row`, `abc`, `abc-hybrid`, `backtrack`).
    pub strategy: String,
    /// Hitori rule set (`basic` or `full`); empty for Sudoku.
    pub rules: String,
    /// The strategy's other parameters in canonical `key=value;key=value` form (sorted keys),
    /// e.g. `colony_size=100;limit=50;max_cycles=2000;neighbourhood=box`. Part of the join key.
    pub params: String,
    /// The seed value of this run: base `--seed` plus the seed index. `--seed S --seeds 1`
    /// reproduces every row whose seed is S.
    pub seed: u64,
    /// Colony index (0-based) for ABC; 0 elsewhere.
    pub colony: u32,
    /// Job index in the run's plan (0-based); finished files are sorted by it.
    pub job: u64,
    /// How the job ended.
    pub status: Option<Status>,
    /// Whether the independent verifier accepted the answer (`true` only for `solved`).
    pub verified: bool,
    /// Search nodes (Hitori: recursive search calls, root included; Sudoku backtrack: nodes).
    pub nodes: Option<u64>,
    /// Deepest branching level reached (Hitori).
    pub max_depth: Option<u64>,
    /// Failed branches undone (Hitori).
    pub backtracks: Option<u64>,
    /// Fraction of cells fixed by propagation before the first branch (Hitori), 0..=1.
    pub propagated: Option<f64>,
    /// Guesses: branches beyond the first at a choice point (Sudoku backtrack).
    pub guesses: Option<u64>,
    /// ABC: 1-based cycle in which a zero-conflict source first existed (0 when the start or
    /// presolve already solved it); the cycles run when unsolved.
    pub cycles: Option<u64>,
    /// ABC: fitness evaluations (initial sources, neighbours, scouts).
    pub evaluations: Option<u64>,
    /// ABC: sources abandoned and replaced by scouts.
    pub scouts: Option<u64>,
    /// ABC: best conflict count at the end (0 when solved).
    pub best_conflicts: Option<u64>,
    /// ABC hybrid: blanks left after naked/hidden singles.
    pub empties_after_presolve: Option<u64>,
    /// Solutions found, counting up to `--count-solutions K` (optional column).
    pub solutions: Option<u64>,
    /// Wall time of the solve in seconds (the only non-deterministic column besides `message`
    /// on a panic).
    pub wall_s: f64,
    /// Error text for `error` and `wrong` rows; empty otherwise.
    pub message: String,
    /// The answer (Hitori `#`/`.` mask, Sudoku 81 digits) with `--record-solutions` (optional column).
    pub solution: Option<String>,
}

/// Every column name in order, optional ones included.
pub const ALL_COLUMNS: [&str; 26] = [
    "dataset",
    "puzzle_id",
    "kind",
    "size",
    "strategy",
    "rules",
    "params",
    "seed",
    "colony",
    "job",
    "status",
    "verified",
    "nodes",
    "max_depth",
    "backtracks",
    "propagated",
    "guesses",
    "cycles",
    "evaluations",
    "scouts",
    "best_conflicts",
    "empties_after_presolve",
    "solutions",
    "wall_s",
    "message",
    "solution",
];

/// Columns whose values may differ between two runs of the same plan.
pub const TIMING_COLUMNS: [&str; 1] = ["wall_s"];

/// Which optional columns a file carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Columns {
    /// Include `solutions`.
    pub solutions: bool,
    /// Include `solution`.
    pub solution: bool,
}

impl Columns {
    /// The header for this selection of optional columns.
    pub fn header(self) -> Vec<&'static str> {
        ALL_COLUMNS
            .iter()
            .copied()
            .filter(|c| {
                (*c != "solutions" || self.solutions) && (*c != "solution" || self.solution)
            })
            .collect()
    }
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(T::to_string).unwrap_or_default()
}

impl Record {
    /// The key that identifies a job across runs, shards and baselines.
    pub fn key(&self) -> (String, String, String, String, String, u64, u32) {
        (
            self.dataset.clone(),
            self.puzzle_id.clone(),
            self.strategy.clone(),
            self.rules.clone(),
            self.params.clone(),
            self.seed,
            self.colony,
        )
    }

    /// The cells of this row for the given column selection, in header order.
    pub fn fields(&self, cols: Columns) -> Vec<String> {
        let mut out = vec![
            self.dataset.clone(),
            self.puzzle_id.clone(),
            self.kind.clone(),
            self.size.clone(),
            self.strategy.clone(),
            self.rules.clone(),
            self.params.clone(),
            self.seed.to_string(),
            self.colony.to_string(),
            self.job.to_string(),
            opt(&self.status),
            self.verified.to_string(),
            opt(&self.nodes),
            opt(&self.max_depth),
            opt(&self.backtracks),
            self.propagated
                .map(|p| format!("{p:.4}"))
                .unwrap_or_default(),
            opt(&self.guesses),
            opt(&self.cycles),
            opt(&self.evaluations),
            opt(&self.scouts),
            opt(&self.best_conflicts),
            opt(&self.empties_after_presolve),
        ];
        if cols.solutions {
            out.push(opt(&self.solutions));
        }
        out.push(format!("{:.9}", self.wall_s));
        out.push(self.message.clone());
        if cols.solution {
            out.push(self.solution.clone().unwrap_or_default());
        }
        out
    }

    /// The row with its timing columns cleared: what must be identical across runs of one plan.
    pub fn without_timing(&self) -> Record {
        Record {
            wall_s: 0.0,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_has_optional_columns_only_when_asked() {
        let base = Columns::default().header();
        assert!(!base.contains(&"solutions") && !base.contains(&"solution"));
        assert_eq!(base.len(), ALL_COLUMNS.len() - 2);
        let all = Columns {
            solutions: true,
            solution: true,
        }
        .header();
        assert_eq!(all, ALL_COLUMNS.to_vec());
    }

    #[test]
    fn fields_match_header_length() {
        let r = Record::default();
        for cols in [
            Columns::default(),
            Columns {
                solutions: true,
                solution: false,
            },
            Columns {
                solutions: false,
                solution: true,
            },
            Columns {
                solutions: true,
                solution: true,
            },
        ] {
            assert_eq!(r.fields(cols).len(), cols.header().len());
        }
    }

    #[test]
    fn status_round_trips() {
        for s in Status::ALL {
            assert_eq!(s.as_str().parse::<Status>(), Ok(s));
        }
        assert!("done".parse::<Status>().is_err());
    }
}
