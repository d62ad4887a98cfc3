//! The strategy registry: strategy names and options become solver configurations, and each
//! solver's own result becomes a puzzle-neutral [`Outcome`] the harness can time, verify and
//! record. This is the only place that knows both the puzzle modules and the harness; a solver
//! can change without touching the harness, and the harness never looks inside a puzzle.

use crate::dataset::{PuzzleData, PuzzleKind};
use crate::hitori;
use crate::hitori::rules::Rules;
use crate::hitori::search::Strategy;
use crate::sudoku;
use crate::sudoku::abc::{AbcParams, Limit, Neighbourhood};
use rand_pcg::Pcg64Mcg;

/// Strategy names `--strategy` accepts, with the puzzle kind each solves.
pub const STRATEGY_NAMES: [(&str, PuzzleKind); 6] = [
    ("mrv", PuzzleKind::Hitori),
    ("row", PuzzleKind::Hitori),
    ("mrv-dyn", PuzzleKind::Hitori),
    ("abc", PuzzleKind::Sudoku),
    ("abc-hybrid", PuzzleKind::Sudoku),
    ("backtrack", PuzzleKind::Sudoku),
];

/// Options shared by every strategy of a run, validated before any job starts.
#[derive(Clone, Debug)]
pub struct SolverOptions {
    /// Hitori rule set.
    pub rules: Rules,
    /// Stop after this many solutions (1 = first solution; 2 proves uniqueness).
    pub max_solutions: u32,
    /// Search-node budget for the complete solvers (Hitori, Sudoku backtrack).
    pub node_limit: Option<u64>,
    /// ABC parameters (`presolve` is set per strategy).
    pub abc: AbcParams,
}

/// One configured solver: a strategy name with everything that shapes its results.
#[derive(Clone, Debug)]
pub enum SolverSpec {
    /// Hitori depth-first search.
    Hitori {
        /// Branching strategy.
        strategy: Strategy,
        /// Propagation rules.
        rules: Rules,
        /// Solutions to look for.
        max_solutions: u32,
        /// Node budget.
        node_limit: Option<u64>,
    },
    /// Sudoku Artificial Bee Colony (`abc`, or `abc-hybrid` when `params.presolve`).
    Abc {
        /// Colony parameters.
        params: AbcParams,
    },
    /// Sudoku backtracking baseline.
    Backtrack {
        /// Solutions to look for.
        max_solutions: u32,
        /// Node budget.
        node_limit: Option<u64>,
    },
}

/// A solver's answer, in the puzzle's own terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A Hitori shading.
    Hitori(hitori::grid::Shading),
    /// A filled Sudoku grid.
    Sudoku(sudoku::grid::Solution),
}

impl Answer {
    /// The answer as written in the `solution` column: a row-major `#`/`.` mask or 81 digits.
    pub fn to_cell_string(&self) -> String {
        match self {
            Answer::Hitori(s) => s.to_mask(),
            Answer::Sudoku(s) => s.iter().map(|&d| char::from(b'0' + d)).collect(),
        }
    }
}

/// How a solve ended, before verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The solver claims this answer.
    Found(Answer),
    /// The solver proved there is no solution.
    NoSolution,
    /// A metaheuristic used its whole cycle budget without a solution.
    GaveUp,
    /// A node budget ran out.
    NodeLimit,
    /// The stop check fired (time budget or interrupt; the harness knows which).
    Stopped,
}

/// Counters a solver reports; `None` where a counter does not apply to it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counters {
    /// Search nodes.
    pub nodes: Option<u64>,
    /// Deepest branching level.
    pub max_depth: Option<u64>,
    /// Failed branches.
    pub backtracks: Option<u64>,
    /// Cells fixed by propagation before the first branch.
    pub propagated_cells: Option<u64>,
    /// Guesses.
    pub guesses: Option<u64>,
    /// ABC cycles.
    pub cycles: Option<u64>,
    /// ABC fitness evaluations.
    pub evaluations: Option<u64>,
    /// ABC scouts sent.
    pub scouts: Option<u64>,
    /// ABC best conflict count.
    pub best_conflicts: Option<u64>,
    /// Blanks left after presolve (hybrid).
    pub empties_after_presolve: Option<u64>,
    /// Solutions counted (complete solvers).
    pub solutions: Option<u64>,
}

/// A solve's result as the harness sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How it ended.
    pub end: End,
    /// Its counters.
    pub counters: Counters,
    /// A budget (or the stop check) ended a solution count before it was complete: the answer
    /// may be right, but the `solutions` count is only a lower bound. The harness then writes
    /// a `timeout` row (still verified), never `solved`.
    pub count_cut_short: Option<End>,
}

/// Parse a comma-separated `--strategy` list into solver specs. Unknown names and options that
/// make no sense are refused here, before any work starts.
pub fn parse_strategies(list: &str, opts: &SolverOptions) -> Result<Vec<SolverSpec>, String> {
    let mut specs = Vec::new();
    let mut seen = Vec::new();
    for raw in list.split(',') {
        let name = raw.trim();
        if name.is_empty() {
            return Err(format!(
                "empty strategy name in {list:?}; expected a comma-separated list such as mrv,row"
            ));
        }
        if seen.contains(&name) {
            return Err(format!("strategy {name:?} is listed twice in {list:?}"));
        }
        seen.push(name);
        let spec = match name {
            "mrv" | "row" | "mrv-dyn" => SolverSpec::Hitori {
                strategy: name
                    .parse()
                    .map_err(|e: hitori::rules::UnknownName| e.to_string())?,
                rules: opts.rules,
                max_solutions: opts.max_solutions,
                node_limit: opts.node_limit,
            },
            "abc" | "abc-hybrid" => {
                let params = AbcParams {
                    presolve: name == "abc-hybrid",
                    ..opts.abc
                };
                params
                    .validate()
                    .map_err(|e| format!("strategy {name}: {e}"))?;
                SolverSpec::Abc { params }
            }
            "backtrack" => SolverSpec::Backtrack {
                max_solutions: opts.max_solutions,
                node_limit: opts.node_limit,
            },
            other => {
                let known: Vec<&str> = STRATEGY_NAMES.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown strategy {other:?}; expected one of {}",
                    known.join(", ")
                ));
            }
        };
        specs.push(spec);
    }
    Ok(specs)
}

fn limit_name(limit: Limit) -> String {
    match limit {
        Limit::Fixed(n) => n.to_string(),
        Limit::Adaptive => "adaptive".to_string(),
    }
}

impl SolverSpec {
    /// The strategy name, as written in the `strategy` column.
    pub fn name(&self) -> &'static str {
        match self {
            SolverSpec::Hitori { strategy, .. } => strategy.name(),
            SolverSpec::Abc { params } if params.presolve => "abc-hybrid",
            SolverSpec::Abc { .. } => "abc",
            SolverSpec::Backtrack { .. } => "backtrack",
        }
    }

    /// The puzzle kind this solver takes.
    pub fn kind(&self) -> PuzzleKind {
        match self {
            SolverSpec::Hitori { .. } => PuzzleKind::Hitori,
            _ => PuzzleKind::Sudoku,
        }
    }

    /// The `rules` column.
    pub fn rules(&self) -> &'static str {
        match self {
            SolverSpec::Hitori { rules, .. } => rules.name(),
            _ => "",
        }
    }

    /// The `params` column: every other parameter that shapes the rows, `key=value` sorted by key.
    pub fn params(&self) -> String {
        let mut kv: Vec<(&str, String)> = match self {
            SolverSpec::Hitori {
                max_solutions,
                node_limit,
                ..
            }
            | SolverSpec::Backtrack {
                max_solutions,
                node_limit,
            } => {
                let mut v = vec![("max_solutions", max_solutions.to_string())];
                if let Some(n) = node_limit {
                    v.push(("node_limit", n.to_string()));
                }
                v
            }
            SolverSpec::Abc { params } => vec![
                ("colony_size", params.colony_size.to_string()),
                ("limit", limit_name(params.limit)),
                ("max_cycles", params.max_cycles.to_string()),
                ("neighbourhood", params.neighbourhood.name().to_string()),
            ],
        };
        kv.sort();
        kv.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// Whether independent colonies (and seeds) change this solver's result.
    pub fn is_randomised(&self) -> bool {
        matches!(self, SolverSpec::Abc { .. })
    }

    /// Solve one puzzle. `stop` is the harness's budget/interrupt check; `trace` receives ABC's
    /// best conflicts per cycle when asked for.
    pub fn run(
        &self,
        data: &PuzzleData,
        rng: &mut Pcg64Mcg,
        stop: &mut dyn FnMut() -> bool,
        trace: Option<&mut Vec<u32>>,
    ) -> Result<Outcome, String> {
        match (self, data) {
            (
                SolverSpec::Hitori {
                    strategy,
                    rules,
                    max_solutions,
                    node_limit,
                },
                PuzzleData::Hitori { puzzle, .. },
            ) => {
                let cfg = hitori::search::SearchConfig {
                    strategy: *strategy,
                    rules: *rules,
                    max_solutions: *max_solutions,
                    node_limit: *node_limit,
                };
                let r = hitori::search::solve(puzzle, &cfg, stop);
                let early = match r.end {
                    hitori::search::SearchEnd::Complete => None,
                    hitori::search::SearchEnd::NodeLimit => Some(End::NodeLimit),
                    hitori::search::SearchEnd::Stopped => Some(End::Stopped),
                };
                let (end, count_cut_short) = exhaustive_end(
                    r.first.map(Answer::Hitori),
                    early,
                    *max_solutions,
                    r.solutions,
                );
                Ok(Outcome {
                    end,
                    counters: Counters {
                        nodes: Some(r.stats.nodes),
                        max_depth: Some(u64::from(r.stats.max_depth)),
                        backtracks: Some(r.stats.backtracks),
                        propagated_cells: Some(u64::from(r.stats.propagated)),
                        solutions: Some(u64::from(r.solutions)),
                        ..Counters::default()
                    },
                    count_cut_short,
                })
            }
            (SolverSpec::Abc { params }, PuzzleData::Sudoku { puzzle, .. }) => {
                let r = sudoku::abc::solve(puzzle, params, rng, stop, trace);
                let end = match (r.solution, r.end) {
                    (Some(s), _) => End::Found(Answer::Sudoku(s)),
                    (None, sudoku::abc::AbcEnd::PresolveContradiction) => End::NoSolution,
                    (None, sudoku::abc::AbcEnd::Stopped) => End::Stopped,
                    (None, _) => End::GaveUp,
                };
                Ok(Outcome {
                    end,
                    counters: Counters {
                        cycles: Some(r.cycles),
                        evaluations: Some(r.evaluations),
                        scouts: Some(r.scouts),
                        best_conflicts: Some(u64::from(r.best_conflicts)),
                        empties_after_presolve: r.empties_after_presolve.map(u64::from),
                        ..Counters::default()
                    },
                    count_cut_short: None,
                })
            }
            (
                SolverSpec::Backtrack {
                    max_solutions,
                    node_limit,
                },
                PuzzleData::Sudoku { puzzle, .. },
            ) => {
                let r = sudoku::backtrack::solve(puzzle, *max_solutions, *node_limit, stop);
                let early = match r.end {
                    sudoku::backtrack::BacktrackEnd::Complete => None,
                    sudoku::backtrack::BacktrackEnd::NodeLimit => Some(End::NodeLimit),
                    sudoku::backtrack::BacktrackEnd::Stopped => Some(End::Stopped),
                };
                let (end, count_cut_short) = exhaustive_end(
                    r.first.map(Answer::Sudoku),
                    early,
                    *max_solutions,
                    r.solutions,
                );
                Ok(Outcome {
                    end,
                    counters: Counters {
                        nodes: Some(r.nodes),
                        guesses: Some(r.guesses),
                        solutions: Some(u64::from(r.solutions)),
                        ..Counters::default()
                    },
                    count_cut_short,
                })
            }
            _ => Err(format!(
                "strategy {} cannot solve a {} puzzle",
                self.name(),
                match data {
                    PuzzleData::Hitori { .. } => "hitori",
                    PuzzleData::Sudoku { .. } => "sudoku",
                }
            )),
        }
    }
}

/// How an exhaustive search (Hitori, Sudoku backtrack) ended, from its first answer and how it
/// stopped before exhausting the tree (`early`, `None` when it did not), and — for a solution
/// count (K > 1) that found something but was stopped early — how the count was cut short.
fn exhaustive_end(
    first: Option<Answer>,
    early: Option<End>,
    max_solutions: u32,
    found: u32,
) -> (End, Option<End>) {
    let cut = early
        .clone()
        .filter(|_| max_solutions > 1 && found > 0 && found < max_solutions);
    let end = match (first, early) {
        (Some(answer), _) => End::Found(answer),
        (None, None) => End::NoSolution,
        (None, Some(e)) => e,
    };
    (end, cut)
}

/// Check an answer with the puzzle's independent verifier, then against the dataset's known
/// solution where the file gives one. `Err` says what is wrong; it makes the row `wrong`.
pub fn check_answer(data: &PuzzleData, answer: &Answer) -> Result<(), String> {
    match (data, answer) {
        (PuzzleData::Hitori { puzzle, solution }, Answer::Hitori(shading)) => {
            hitori::verify::verify(puzzle, shading).map_err(|v| format!("verifier: {v}"))?;
            match solution {
                Some(known) if known != shading => Err(format!(
                    "valid by the rules but differs from the dataset's solution {} (the puzzle is not unique, or the file's solution is wrong)",
                    known.to_mask()
                )),
                _ => Ok(()),
            }
        }
        (PuzzleData::Sudoku { puzzle, solution }, Answer::Sudoku(grid)) => {
            sudoku::verify::verify(puzzle, grid).map_err(|v| format!("verifier: {v}"))?;
            match solution {
                Some(known) if **known != *grid => Err(
                    "valid by the rules but differs from the dataset's solution (the puzzle is not unique, or the file's solution is wrong)"
                        .to_string(),
                ),
                _ => Ok(()),
            }
        }
        _ => Err("answer is for another kind of puzzle".to_string()),
    }
}

/// ABC options as `bench-run` gives them, parsed (kept here so the CLI stays thin).
pub fn abc_params(
    colony_size: usize,
    limit: &str,
    max_cycles: u64,
    neighbourhood: &str,
) -> Result<AbcParams, String> {
    let limit: Limit = limit
        .parse()
        .map_err(|_| format!("--limit {limit:?}: expected a whole number >= 1 or \"adaptive\""))?;
    let neighbourhood: Neighbourhood = neighbourhood.parse().map_err(|_| {
        format!("--neighbourhood {neighbourhood:?}: expected \"box\" or \"cross-box\"")
    })?;
    let p = AbcParams {
        colony_size,
        limit,
        max_cycles,
        neighbourhood,
        presolve: false,
    };
    p.validate()?;
    Ok(p)
}

impl crate::harness::Solver for SolverSpec {
    fn name(&self) -> &str {
        SolverSpec::name(self)
    }
    fn kind(&self) -> PuzzleKind {
        SolverSpec::kind(self)
    }
    fn rules(&self) -> &str {
        SolverSpec::rules(self)
    }
    fn params(&self) -> String {
        SolverSpec::params(self)
    }
    fn is_randomised(&self) -> bool {
        SolverSpec::is_randomised(self)
    }
    fn solve(
        &self,
        data: &PuzzleData,
        rng: &mut Pcg64Mcg,
        stop: &mut dyn FnMut() -> bool,
        trace: Option<&mut Vec<u32>>,
    ) -> Result<Outcome, String> {
        self.run(data, rng, stop, trace)
    }
}
