//! The built-in strategies: strategy names and options become solver configurations, each an
//! implementor of the [`Solver`] seam, and each solver's own result becomes a puzzle-neutral
//! [`Outcome`]. This is the only place that knows both the puzzle modules and the seam; a
//! solver can change without touching the harness, and the harness never looks inside a puzzle.

use crate::dataset::PuzzleData;
use crate::hitori;
use crate::hitori::rules::Rules;
use crate::hitori::search::Strategy;
use crate::results::{Counters, Params};
use crate::solver::{
    Answer, Capabilities, End, Options, Outcome, PuzzleKind, RunOption, Sizes, Solver, SolverError,
    Task, Worker,
};
use crate::sudoku;
use crate::sudoku::abc::{AbcParams, Limit, Neighbourhood};

/// Strategy names `--strategy` accepts, with the puzzle kind each solves and what it is.
pub const STRATEGY_NAMES: [(&str, PuzzleKind, &str); 8] = [
    (
        "mrv",
        PuzzleKind::Hitori,
        "depth-first search branching on the cell whose number repeats most in its row and column",
    ),
    (
        "row",
        PuzzleKind::Hitori,
        "depth-first search branching on the first unknown cell in row order",
    ),
    (
        "mrv-dyn",
        PuzzleKind::Hitori,
        "like mrv, counting only duplicates among cells still unknown",
    ),
    (
        "abc",
        PuzzleKind::Sudoku,
        "Artificial Bee Colony over per-box permutations",
    ),
    (
        "abc-hybrid",
        PuzzleKind::Sudoku,
        "naked and hidden singles first, then ABC on what is left",
    ),
    (
        "backtrack",
        PuzzleKind::Sudoku,
        "bitboard backtracking with singles and locked candidates",
    ),
    (
        "abc-prop",
        PuzzleKind::Sudoku,
        "bee colony over value preferences decoded with singles propagation (any order 2-6)",
    ),
    (
        "restarts",
        PuzzleKind::Sudoku,
        "abc-prop's decoder from fresh random preferences only: the no-learning control",
    ),
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
    /// Which of `abc`'s values the user gave: `abc-prop` and `restarts` have their own
    /// defaults, used where a value was neither given nor differs from abc's.
    pub abc_given: AbcGiven,
    /// `--memory-limit` in bytes: external solvers carry it (with their manifest's own
    /// `memory_limit`, the lower holds); built-ins run in puzzlebench's own process.
    pub memory_limit: Option<u64>,
}

impl Default for SolverOptions {
    /// `bench-run`'s defaults: `full` rules, first solution, no node budget, default ABC.
    fn default() -> Self {
        SolverOptions {
            rules: Rules::Full,
            max_solutions: 1,
            node_limit: None,
            abc: AbcParams::default(),
            abc_given: AbcGiven::default(),
            memory_limit: None,
        }
    }
}

/// Which shared ABC parameters were given explicitly (a `bench-run` flag or plan key), so
/// that a value equal to abc's default still reaches `abc-prop` when asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AbcGiven {
    /// `--colony-size` was given.
    pub colony_size: bool,
    /// `--limit` was given.
    pub limit: bool,
    /// `--max-cycles` was given.
    pub max_cycles: bool,
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
    /// Sudoku propagation-aware colony (`abc-prop`) or its control (`restarts`).
    Prop {
        /// Colony parameters.
        params: sudoku::prop::PropParams,
    },
    /// Sudoku backtracking baseline.
    Backtrack {
        /// Solutions to look for.
        max_solutions: u32,
        /// Node budget.
        node_limit: Option<u64>,
    },
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
            "abc-prop" | "restarts" => SolverSpec::Prop {
                params: prop_params(name, opts)?,
            },
            other => {
                let known: Vec<&str> = STRATEGY_NAMES.iter().map(|(n, _, _)| *n).collect();
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

/// `abc-prop`'s or `restarts`' parameters from the shared ABC options.
fn prop_params(name: &str, opts: &SolverOptions) -> Result<sudoku::prop::PropParams, String> {
    let limit = match opts.abc.limit {
        Limit::Fixed(n) => n,
        Limit::Adaptive => {
            return Err(format!(
            "strategy {name}: --limit adaptive applies to abc and abc-hybrid only; give a number"
        ))
        }
    };
    if opts.abc.neighbourhood != Neighbourhood::Box {
        return Err(format!(
            "strategy {name}: --neighbourhood applies to abc and abc-hybrid only"
        ));
    }
    // Their own defaults where a shared value was not given and is at abc's: 5 sources
    // (colony 10), limit by order (10 for 9x9: best of a sweep over 100 forum_hardest puzzles;
    // 30 for 25x25), and cycles bounded by --timeout.
    let dflt = AbcParams::default();
    let given = opts.abc_given;
    let colony_size = if !given.colony_size && opts.abc.colony_size == dflt.colony_size {
        PROP_COLONY
    } else {
        opts.abc.colony_size
    };
    let limit = if !given.limit && opts.abc.limit == dflt.limit {
        PROP_LIMIT
    } else {
        limit
    };
    let max_cycles = if !given.max_cycles && opts.abc.max_cycles == dflt.max_cycles {
        PROP_MAX_CYCLES
    } else {
        opts.abc.max_cycles
    };
    let mode = if name == "restarts" {
        sudoku::prop::Mode::Restarts
    } else {
        sudoku::prop::Mode::Colony
    };
    Ok(sudoku::prop::PropParams {
        colony_size,
        limit,
        max_cycles,
        mode,
    })
}

/// `abc-prop`'s and `restarts`' colony size when `--colony-size` is left at abc's 100.
pub const PROP_COLONY: usize = 10;
/// `abc-prop`'s abandonment limit when `--limit` is left at abc's 50: 0, by order (10 * (K-2),
/// at least 10).
pub const PROP_LIMIT: u32 = 0;
/// `abc-prop`'s and `restarts`' cycle budget when `--max-cycles` is left at abc's 2000.
pub const PROP_MAX_CYCLES: u64 = 10_000_000;

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
            SolverSpec::Prop { params } if params.mode == sudoku::prop::Mode::Restarts => {
                "restarts"
            }
            SolverSpec::Prop { .. } => "abc-prop",
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
    pub fn params(&self) -> Params {
        let kv: Vec<(&str, String)> = match self {
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
            SolverSpec::Prop { params } => {
                let mut v = vec![
                    ("colony_size", params.colony_size.to_string()),
                    ("max_cycles", params.max_cycles.to_string()),
                ];
                if params.mode == sudoku::prop::Mode::Colony {
                    let limit = match params.limit {
                        0 => "by-order".to_string(),
                        l => l.to_string(),
                    };
                    v.push(("limit", limit));
                }
                v
            }
        };
        Params::from_pairs(kv)
    }

    /// Whether independent colonies (and seeds) change this solver's result.
    pub fn is_randomised(&self) -> bool {
        matches!(self, SolverSpec::Abc { .. } | SolverSpec::Prop { .. })
    }

    /// Solve one job, in buffers allocated for it alone (a [`Solver::start`] worker keeps
    /// them from job to job instead).
    pub fn run(&self, task: &mut Task<'_>) -> Result<Outcome, SolverError> {
        self.run_in(&mut WorkerScratch::default(), task)
    }

    /// The jobs no other arm of [`SolverSpec::run_in`] takes: `abc-prop` and `restarts` on a
    /// Sudoku of any order, the refusal of an order other than 3 by every other strategy, and
    /// the refusal of a puzzle of the wrong kind.
    fn any_order(
        &self,
        task: &mut Task<'_>,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Outcome, SolverError> {
        let puzzle = task.puzzle;
        match (self, &puzzle.data) {
            (SolverSpec::Prop { params }, PuzzleData::Sudoku { .. } | PuzzleData::SudokuK { .. }) => {
                Some(Ok(run_prop(params, &puzzle.data, task, stop)))
            }
            (_, PuzzleData::SudokuK { puzzle, .. }) => Some(Err(SolverError(format!(
                "strategy {} solves 9x9 Sudoku (order 3) only, not order {} ({}x{}); abc-prop and restarts take any order 2-6",
                self.name(),
                puzzle.order(),
                puzzle.side(),
                puzzle.side()
            )))),
            _ => None,
        }
        .unwrap_or_else(|| {
            Err(SolverError(format!(
                "strategy {} cannot solve a {} puzzle",
                self.name(),
                puzzle.kind()
            )))
        })
    }

    /// Solve one job in `scratch`, whatever earlier jobs left in it.
    fn run_in(
        &self,
        scratch: &mut WorkerScratch,
        task: &mut Task<'_>,
    ) -> Result<Outcome, SolverError> {
        let stop = task.stop;
        let stop = &mut || stop.check();
        match (self, &task.puzzle.data) {
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
                let r = hitori::search::solve_with(&mut scratch.hitori, puzzle, &cfg, stop);
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
                let cells = (puzzle.width() * puzzle.height()) as u64;
                Ok(Outcome {
                    count_cut_short,
                    ..Outcome::new(end).with_counters(Counters {
                        nodes: Some(r.stats.nodes),
                        max_depth: Some(u64::from(r.stats.max_depth)),
                        backtracks: Some(r.stats.backtracks),
                        propagated: crate::results::counters::Fraction::of(
                            u64::from(r.stats.propagated),
                            cells,
                        ),
                        solutions: Some(u64::from(r.solutions)),
                        ..Counters::default()
                    })
                })
            }
            (SolverSpec::Abc { params }, PuzzleData::Sudoku { puzzle, .. }) => {
                let r =
                    sudoku::abc::solve(puzzle, params, task.rng, stop, task.trace.as_deref_mut());
                let end = match (r.solution, r.end) {
                    (Some(s), _) => End::Found(Answer::Sudoku(s)),
                    (None, sudoku::abc::AbcEnd::PresolveContradiction) => End::NoSolution,
                    (None, sudoku::abc::AbcEnd::Stopped) => End::Stopped,
                    (None, _) => End::GaveUp,
                };
                Ok(Outcome::new(end).with_counters(Counters {
                    cycles: Some(r.cycles),
                    evaluations: Some(r.evaluations),
                    scouts: Some(r.scouts),
                    best_conflicts: Some(u64::from(r.best_conflicts)),
                    empties_after_presolve: r.empties_after_presolve.map(u64::from),
                    ..Counters::default()
                }))
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
                    count_cut_short,
                    ..Outcome::new(end).with_counters(Counters {
                        nodes: Some(r.nodes),
                        guesses: Some(r.guesses),
                        solutions: Some(u64::from(r.solutions)),
                        ..Counters::default()
                    })
                })
            }
            _ => self.any_order(task, stop),
        }
    }
}

/// Run `abc-prop` or `restarts` on a Sudoku of any order.
fn run_prop(
    params: &sudoku::prop::PropParams,
    data: &PuzzleData,
    task: &mut Task<'_>,
    stop: &mut dyn FnMut() -> bool,
) -> Outcome {
    let (order, cells): (usize, &[u8]) = match data {
        PuzzleData::SudokuK { puzzle, .. } => (puzzle.order(), puzzle.cells()),
        PuzzleData::Sudoku { puzzle, .. } => (3, puzzle.cells()),
        PuzzleData::Hitori { .. } => (0, &[]),
    };
    let r = sudoku::prop::solve(
        order,
        cells,
        params,
        task.rng,
        stop,
        task.trace.as_deref_mut(),
    );
    let answer = r
        .solution
        .clone()
        .map(|s| match <[u8; 81]>::try_from(s.as_slice()) {
            Ok(nine) if order == 3 => Answer::Sudoku(nine),
            _ => Answer::SudokuK(s),
        });
    prop_outcome(&r, answer)
}

/// `abc-prop`'s or `restarts`' outcome, with `answer` the solution in the puzzle's own type.
fn prop_outcome(r: &sudoku::prop::PropResult, answer: Option<Answer>) -> Outcome {
    let end = match (answer, r.end) {
        (Some(a), _) => End::Found(a),
        (None, sudoku::prop::PropEnd::NoSolution) => End::NoSolution,
        (None, sudoku::prop::PropEnd::Stopped) => End::Stopped,
        (None, _) => End::GaveUp,
    };
    Outcome::new(end).with_counters(Counters {
        cycles: Some(r.cycles),
        evaluations: Some(r.evaluations),
        scouts: Some(r.scouts),
        best_conflicts: Some(u64::from(r.best)),
        ..Counters::default()
    })
}

/// What one worker thread keeps from job to job: the solvers' buffers, so that a job of a
/// few microseconds spends none of them in the allocator. Empty (and allocation-free) until a
/// solver that uses it runs.
#[derive(Default)]
struct WorkerScratch {
    /// Hitori search buffers.
    hitori: hitori::search::Scratch,
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

/// The effort counter of a built-in strategy, by its name (the one table: [`Solver::effort`]
/// answers from it, and reports use it for files whose meta predates the `efforts` record):
/// search nodes for the Hitori searches and the backtracking baseline, cycles for the
/// article's colony (`abc`, `abc-hybrid`), fitness evaluations (decodes) for the
/// propagation-aware colony and its restarts control, whose cycles differ in cost.
pub fn builtin_effort(strategy: &str) -> Option<&'static str> {
    match strategy {
        "abc" | "abc-hybrid" => Some("cycles"),
        "abc-prop" | "restarts" => Some("evaluations"),
        "backtrack" => Some("nodes"),
        s if s.parse::<Strategy>().is_ok() => Some("nodes"),
        _ => None,
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

impl Solver for SolverSpec {
    fn name(&self) -> &str {
        SolverSpec::name(self)
    }
    fn kind(&self) -> PuzzleKind {
        SolverSpec::kind(self)
    }
    fn params(&self) -> Params {
        SolverSpec::params(self)
    }
    fn randomised(&self) -> bool {
        SolverSpec::is_randomised(self)
    }
    fn capabilities(&self) -> Capabilities {
        let options = match self {
            SolverSpec::Hitori { .. } | SolverSpec::Backtrack { .. } => Options::of(&[
                RunOption::NodeLimit,
                RunOption::CountSolutions,
                RunOption::Repeat,
            ]),
            SolverSpec::Abc { .. } | SolverSpec::Prop { .. } => {
                Options::of(&[RunOption::Trace, RunOption::AbcParams])
            }
        };
        // The propagation colony decodes any order; the others are written for 9x9.
        let sizes = match self {
            SolverSpec::Prop { .. } => Sizes::Sides(vec![4, 9, 16, 25, 36]),
            _ => Sizes::Usual,
        };
        Capabilities::default()
            .with_rules(SolverSpec::rules(self))
            .with_options(options)
            .with_sizes(sizes)
    }
    fn effort(&self) -> Option<&str> {
        builtin_effort(SolverSpec::name(self))
    }
    fn memory_estimate(&self, trace: bool) -> u64 {
        match self {
            // A traced job keeps its per-cycle scores (4 bytes) and their CSV lines (about
            // 20 bytes) until it ends.
            SolverSpec::Abc { params } => {
                let traced = params.max_cycles.saturating_add(1).saturating_mul(24);
                params.memory_bytes() + if trace { traced } else { 0 }
            }
            // A source is a preference per cell (at most 36x36 of them, a byte each, and its
            // decode's state): 4 KiB a bee bounds every order.
            SolverSpec::Prop { params } => {
                let traced = params.max_cycles.saturating_add(1).saturating_mul(24);
                (params.colony_size as u64).saturating_mul(4096) + if trace { traced } else { 0 }
            }
            SolverSpec::Hitori { .. } | SolverSpec::Backtrack { .. } => 0,
        }
    }
    fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError> {
        let mut scratch = WorkerScratch::default();
        Ok(Box::new(move |task: &mut Task<'_>| {
            self.run_in(&mut scratch, task)
        }))
    }
}
