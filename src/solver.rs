//! The solver seam: what a solver is to the harness, and everything it hands back.
//!
//! Built-in strategies ([`crate::builtin`]), external programs speaking the line protocol
//! (`crate::external`) and a user's own Rust solver all implement [`Solver`]. A solver knows
//! nothing of CSV, threads or clocks: the harness gives each job a [`Task`] — the puzzle, a
//! seeded [`Rng`], a [`Stop`] check — and gets an [`Outcome`] back: how the solve ended, the
//! answer it claims (which the harness verifies independently), and its [`Counters`].
//!
//! A [`Solver`] is the configuration, shared by every worker thread; [`Solver::start`] makes one
//! [`Worker`] per thread, which is where per-thread state lives (an external solver's child
//! process, scratch buffers). A stateless solver returns a closure: any
//! `FnMut(&mut Task) -> Result<Outcome, SolverError>` is a worker.
//!
//! ```
//! use puzzlebench::solver::{Answer, End, Outcome, PuzzleData, PuzzleKind, Solver, SolverError, Task, Worker};
//!
//! /// Answers every Sudoku with the solution its dataset file gives, if any.
//! struct Oracle;
//!
//! impl Solver for Oracle {
//!     fn name(&self) -> &str {
//!         "oracle"
//!     }
//!     fn kind(&self) -> PuzzleKind {
//!         PuzzleKind::Sudoku
//!     }
//!     fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError> {
//!         Ok(Box::new(|task: &mut Task<'_>| {
//!             let end = match &task.puzzle.data {
//!                 PuzzleData::Sudoku { solution: Some(s), .. } => End::Found(Answer::Sudoku(**s)),
//!                 _ => End::GaveUp,
//!             };
//!             Ok(Outcome::new(end))
//!         }))
//!     }
//! }
//!
//! // The article's demo puzzle, followed by its solution.
//! let line = "000260701680070090190004500820100040004602900050003028009300074040050036703018000 \
//!             435269781682571493197834562826195347374682915951743628519326874248957136763418259";
//! let puzzle = puzzlebench::dataset::Puzzle::sudoku_from_line(line).expect("a valid line");
//! let mut rng = <puzzlebench::solver::Rng as puzzlebench::solver::rand::SeedableRng>::seed_from_u64(1);
//! let mut task = Task {
//!     puzzle: &puzzle,
//!     job: 0,
//!     seed: 1,
//!     rng: &mut rng,
//!     stop: puzzlebench::solver::Stop::never(),
//!     trace: None,
//! };
//! let outcome = Oracle.start()?.solve(&mut task)?;
//! assert!(matches!(outcome.end, End::Found(_)));
//! # Ok::<(), SolverError>(())
//! ```

use crate::results::Params;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use crate::dataset::{Puzzle, PuzzleData};
pub use crate::kind::PuzzleKind;
pub use crate::results::counters::{Counters, Fraction};
pub use rand;

/// The random number generator every job gets, seeded from the job's own seed. A concrete
/// type (no dynamic call per draw: ABC draws millions of numbers a second), re-exported so that
/// a solver crate does not need `rand_pcg` itself; draw with [`rand::Rng`].
pub type Rng = rand_pcg::Pcg64Mcg;

/// When a solve must stop: the run was interrupted (Ctrl-C, SIGTERM), or the job's time
/// budget ran out. Cheap to copy and to check; solvers poll [`Stop::check`] every so often
/// (every few thousand nodes, once per cycle).
#[derive(Clone, Copy, Debug)]
pub struct Stop<'a> {
    interrupt: &'a AtomicBool,
    deadline: Option<Instant>,
    timeout: Option<Duration>,
    /// `--cpu-limit`: the job's CPU-time budget, and the calling thread's CPU clock (seconds)
    /// at which it runs out. Built-ins run on the thread that polls the check, so the
    /// thread's own clock is the solve's CPU time; external workers enforce the budget over
    /// their process tree themselves ([`Stop::cpu_limit`]).
    cpu: Option<(Duration, f64)>,
}

static NEVER: AtomicBool = AtomicBool::new(false);

impl<'a> Stop<'a> {
    /// A stop check on `interrupt` with an optional budget counted from now.
    pub fn new(interrupt: &'a AtomicBool, timeout: Option<Duration>) -> Stop<'a> {
        Stop::counted_from(interrupt, timeout, Instant::now())
    }

    /// The same with the budget counted from `start`: the harness passes the instant its
    /// wall clock starts, so a solve that runs to its deadline measures at least the budget.
    pub fn counted_from(
        interrupt: &'a AtomicBool,
        timeout: Option<Duration>,
        start: Instant,
    ) -> Stop<'a> {
        Stop {
            interrupt,
            deadline: timeout.map(|t| start + t),
            timeout,
            cpu: None,
        }
    }

    /// The same with a CPU-time budget of `limit`, counted from the calling thread's CPU clock
    /// now (`None`: no CPU budget). The check then reads that clock (a system call), which is
    /// why it is only done when a limit is given.
    pub fn with_cpu_limit(mut self, limit: Option<Duration>) -> Stop<'a> {
        self.cpu = limit.and_then(|l| Some((l, thread_cpu_s()? + l.as_secs_f64())));
        self
    }

    /// Whether the solve must stop now.
    pub fn check(&self) -> bool {
        self.interrupted() || self.deadline.is_some_and(|d| Instant::now() >= d) || self.cpu_spent()
    }

    /// Whether the CPU-time budget (if any) has run out on the calling thread.
    pub fn cpu_spent(&self) -> bool {
        self.cpu
            .is_some_and(|(_, end)| thread_cpu_s().is_some_and(|now| now >= end))
    }

    /// The job's CPU-time budget (`--cpu-limit`).
    pub fn cpu_limit(&self) -> Option<Duration> {
        self.cpu.map(|(l, _)| l)
    }

    /// Whether the run was interrupted (a job cut short by it gets no row and is rerun by
    /// `--resume`).
    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    /// When the job's time budget ends.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The job's time budget.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }
}

impl Stop<'static> {
    /// A check that never fires (tests, examples, benches).
    pub fn never() -> Stop<'static> {
        Stop {
            interrupt: &NEVER,
            deadline: None,
            timeout: None,
            cpu: None,
        }
    }
}

pub use crate::clock::thread_cpu_s;

/// One job, as a solver sees it.
pub struct Task<'a> {
    /// The puzzle (its id, content and, where the dataset gives one, known solution: a solver
    /// may of course not use it, and the harness checks answers against it).
    pub puzzle: &'a Puzzle,
    /// The plan's job number.
    pub job: u64,
    /// The job's own 64-bit seed, derived from the seed value, puzzle id and colony.
    pub seed: u64,
    /// A generator seeded from [`Task::seed`].
    pub rng: &'a mut Rng,
    /// When to stop.
    pub stop: Stop<'a>,
    /// With `--trace`: the solver may push its best score after initialisation and after each
    /// cycle (ABC's best conflicts). Solvers that have no such notion ignore it.
    pub trace: Option<&'a mut Vec<u32>>,
}

impl<'a> Task<'a> {
    /// A task with a stop check on `interrupt` and an optional budget counted from now, for
    /// tests, examples and harnesses of one's own (the harness builds its tasks itself).
    pub fn new(
        puzzle: &'a Puzzle,
        job: u64,
        seed: u64,
        rng: &'a mut Rng,
        interrupt: &'a AtomicBool,
        timeout: Option<Duration>,
    ) -> Task<'a> {
        Task {
            puzzle,
            job,
            seed,
            rng,
            stop: Stop::new(interrupt, timeout),
            trace: None,
        }
    }

    /// Whether the solve must stop now (see [`Stop::check`]).
    pub fn should_stop(&self) -> bool {
        self.stop.check()
    }

    /// Whether the run was interrupted.
    pub fn interrupted(&self) -> bool {
        self.stop.interrupted()
    }

    /// When the job's time budget ends.
    pub fn deadline(&self) -> Option<Instant> {
        self.stop.deadline()
    }

    /// The job's time budget.
    pub fn timeout(&self) -> Option<Duration> {
        self.stop.timeout()
    }

    /// The job's CPU-time budget (`--cpu-limit`).
    pub fn cpu_limit(&self) -> Option<Duration> {
        self.stop.cpu_limit()
    }
}

/// Run options that only some solvers honour. The harness refuses an option that no selected
/// solver supports, and applies one that only some support to those (saying so once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunOption {
    /// A per-job search-node budget.
    NodeLimit,
    /// Counting solutions up to a limit (proving uniqueness).
    CountSolutions,
    /// A per-cycle trace of the best score.
    Trace,
    /// The colony parameters (colony size, abandonment limit, cycle budget, neighbourhood).
    AbcParams,
    /// Repeated solves of one job, each timed: the solver must give the same outcome and
    /// counters every time.
    Repeat,
}

impl RunOption {
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of [`RunOption`]s: small, `Copy`, built with [`Options::with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options(u8);

impl Options {
    /// No option.
    pub const NONE: Options = Options(0);

    /// The set of `options`.
    pub fn of(options: &[RunOption]) -> Options {
        options.iter().fold(Options::NONE, |set, &o| set.with(o))
    }

    /// The same set with `option` too.
    #[must_use]
    pub fn with(self, option: RunOption) -> Options {
        Options(self.0 | option.bit())
    }

    /// Whether `option` is in the set.
    pub fn has(self, option: RunOption) -> bool {
        self.0 & option.bit() != 0
    }
}

/// The puzzle sizes a solver takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Sizes {
    /// Its kind's usual sizes ([`PuzzleKind::usual_sides`]).
    #[default]
    Usual,
    /// These grid sides only (`[9, 16, 25]` for Sudoku of orders 3, 4 and 5).
    Sides(Vec<usize>),
}

impl Sizes {
    /// The grid sides it takes where a kind restricts them: `None` for any size.
    pub fn sides(&self, kind: PuzzleKind) -> Option<Vec<usize>> {
        match self {
            Sizes::Sides(s) => Some(s.clone()),
            Sizes::Usual => kind.usual_sides(),
        }
    }
}

/// What a solver takes and applies, declared as data ([`Solver::capabilities`]): the harness
/// checks a run against it before any job runs (a size or an option the solver does not
/// take is refused or set aside, naming it) and writes `rules` in every row. A new field comes
/// with a default that keeps every existing solver's behaviour, so the struct is built
/// through [`Capabilities::default`] and its `with_*` methods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Capabilities {
    /// The rule variant it solves under (the `rules` column: Hitori's `full` or `basic`),
    /// empty where its kind has one set of rules.
    pub rules: String,
    /// The run options it honours.
    pub options: Options,
    /// The puzzle sizes it takes.
    pub sizes: Sizes,
}

impl Capabilities {
    /// The same with this rule variant.
    #[must_use]
    pub fn with_rules(mut self, rules: impl Into<String>) -> Capabilities {
        self.rules = rules.into();
        self
    }

    /// The same honouring these options.
    #[must_use]
    pub fn with_options(mut self, options: Options) -> Capabilities {
        self.options = options;
        self
    }

    /// The same taking these sizes.
    #[must_use]
    pub fn with_sizes(mut self, sizes: Sizes) -> Capabilities {
        self.sizes = sizes;
        self
    }
}

/// A configuration as the harness names it in messages and plan identities:
/// `name [rules] params`.
pub fn config_id(s: &dyn Solver) -> String {
    format!("{} [{}] {}", s.name(), s.capabilities().rules, s.params())
}

/// A solver failed on a job (or could not start): the job becomes an `error` row with this
/// message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SolverError(pub String);

impl From<String> for SolverError {
    fn from(s: String) -> Self {
        SolverError(s)
    }
}

impl From<&str> for SolverError {
    fn from(s: &str) -> Self {
        SolverError(s.to_string())
    }
}

/// A configured solver: what the harness plans with, records in every row, and starts one
/// [`Worker`] from on each worker thread.
///
/// Evolution: the trait only grows by methods with a default that keeps every existing
/// solver's behaviour (what a solver takes is data in [`Capabilities`], which grows the same
/// way), so a solver crate written against one version builds against the next. What is
/// specific to one puzzle kind or to the command line stays out of it.
pub trait Solver: Send + Sync {
    /// Strategy name (`strategy` column; what `--strategy` selects).
    fn name(&self) -> &str;
    /// The kind of puzzle it takes.
    fn kind(&self) -> PuzzleKind;
    /// What it takes and applies: its rule variant, the run options it honours, the sizes it
    /// takes. Asked once per run, before any job; the default is the usual sizes, no option,
    /// no rule variant.
    fn capabilities(&self) -> Capabilities {
        Capabilities::default()
    }
    /// Every other parameter that shapes its rows (`params` column).
    fn params(&self) -> Params {
        Params::default()
    }
    /// Whether seeds and colonies change its results (colonies are planned only for these).
    fn randomised(&self) -> bool {
        false
    }
    /// Whether it reports CPU time, peak memory and free-form statistics per job
    /// ([`Measured`]); a run with such a solver has the `cpu_s`, `max_rss_kib` and `stats`
    /// columns.
    fn measures(&self) -> bool {
        false
    }
    /// The counter its effort is measured in, recorded per strategy in the run's meta
    /// (`efforts`): reports compare two strategies on effort only when they declare the same
    /// unit. A counter name (`nodes`, `cycles`, `evaluations`, …) or, for an external solver,
    /// a key of its `stats`; `None` when it declares none.
    fn effort(&self) -> Option<&str> {
        None
    }
    /// CPUs one of its workers uses at once (an external program's `cpus = N`): when the
    /// harness pins its workers, each gets that many CPUs of its own.
    fn cpus(&self) -> usize {
        1
    }
    /// Bytes one of its workers may hold for a job at once (working state such as a colony,
    /// and with `trace` the job's trace), for the harness's estimate of a plan's memory before
    /// anything runs; 0 when small.
    fn memory_estimate(&self, trace: bool) -> u64 {
        let _ = trace;
        0
    }
    /// A worker for the calling thread; called once per worker thread before its first job.
    /// An error makes every job of that worker an `error` row with its message.
    fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError>;
}

/// Solves jobs on one thread.
pub trait Worker {
    /// Solve one job. `Err` makes it an `error` row; a panic is caught and does the same.
    fn solve(&mut self, task: &mut Task<'_>) -> Result<Outcome, SolverError>;

    /// Called before each job's clock and budget start: a worker whose start-up can be told
    /// apart from its work (an external program's `ready` handshake) does it here, so that
    /// the start-up is charged to no job. Returns the start-up's seconds when one was measured
    /// (the `startup_s` column); `Err` makes the job an `error` row. `timeout` is the job's
    /// budget; `interrupt` is the run's Ctrl-C flag, which a long start-up must heed.
    fn prepare(
        &mut self,
        _timeout: Option<std::time::Duration>,
        _interrupt: &std::sync::atomic::AtomicBool,
    ) -> Result<Option<f64>, SolverError> {
        Ok(None)
    }

    /// Why the worker itself cut the last job short, where the harness cannot see it in the
    /// outcome: an external worker that enforced a CPU or memory limit on its process tree,
    /// or whose process died of a signal. Taken (reset) by the harness after each solve.
    fn take_cut(&mut self) -> Option<Cut> {
        None
    }
}

/// How a worker cut a job short ([`Worker::take_cut`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The CPU-time budget ran out (the outcome is [`End::Stopped`]).
    Cpu,
    /// The process tree went over the memory limit and was stopped (the outcome is
    /// [`End::Stopped`]); the peak is in the outcome's `max_rss_kib`.
    Memory,
    /// The process died of a signal the harness did not send (an `Err` outcome).
    Signal,
}

impl<F> Worker for F
where
    F: FnMut(&mut Task<'_>) -> Result<Outcome, SolverError>,
{
    fn solve(&mut self, task: &mut Task<'_>) -> Result<Outcome, SolverError> {
        self(task)
    }
}

/// A solver's answer, in the puzzle's own terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A Hitori shading.
    Hitori(crate::hitori::grid::Shading),
    /// A filled Sudoku grid.
    Sudoku(crate::sudoku::grid::Solution),
    /// A filled Sudoku grid of order K other than 3: values `1..=K²`, row-major.
    SudokuK(Vec<u8>),
}

impl Answer {
    /// The answer as written in the `solution` column: a row-major `#`/`.` mask or 81 digits.
    pub fn to_cell_string(&self) -> String {
        match self {
            Answer::Hitori(s) => s.to_mask(),
            Answer::Sudoku(s) => s.iter().map(|&d| char::from(b'0' + d)).collect(),
            Answer::SudokuK(s) => {
                let order = (2..=6).find(|k: &usize| k.pow(4) == s.len()).unwrap_or(0);
                crate::sudoku::order::to_line(order, s)
            }
        }
    }
}

/// How a solve ended, before verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The solver claims this answer (the harness verifies it: a rejected one is `wrong`).
    Found(Answer),
    /// The solver proved there is no solution (`unsolved`).
    NoSolution,
    /// The solver gave up within its own budget, e.g. ABC's cycles (`unsolved`).
    GaveUp,
    /// A node budget ran out (`timeout`).
    NodeLimit,
    /// The stop check fired: `timeout`, or no row at all when the run was interrupted.
    Stopped,
}

/// Values measured about a solve that are not counters: they vary between runs like
/// `wall_s`, and are never part of a join key or an exact-match check.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// CPU time of the solve, seconds.
    pub cpu_s: Option<f64>,
    /// Peak resident memory, KiB.
    pub max_rss_kib: Option<u64>,
    /// Free-form `key=value;…` statistics, written verbatim.
    pub stats: Option<String>,
}

/// A solve's result as the harness sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How it ended.
    pub end: End,
    /// Its counters.
    pub counters: Counters,
    /// A budget (or the stop check) ended a solution count before it was complete: the answer
    /// may be right, but `solutions` is only a lower bound. The harness then writes a
    /// `timeout` row (still verified), never `solved`.
    pub count_cut_short: Option<End>,
    /// Measured values (external solvers).
    pub measured: Measured,
    /// Replaces the harness's default message for the row (e.g. why a solver gave up).
    pub message: Option<String>,
}

impl Outcome {
    /// An outcome with no counters.
    pub fn new(end: End) -> Outcome {
        Outcome {
            end,
            counters: Counters::default(),
            count_cut_short: None,
            measured: Measured::default(),
            message: None,
        }
    }

    /// The same outcome with these counters.
    pub fn with_counters(self, counters: Counters) -> Outcome {
        Outcome { counters, ..self }
    }
}

type SolveFn = dyn Fn(&mut Task<'_>) -> Result<Outcome, SolverError> + Send + Sync;

/// A solver made from a function: for tests (a mock that panics, answers wrong, sleeps) and
/// quick experiments. The function is shared by every worker.
pub struct FnSolver {
    name: String,
    kind: PuzzleKind,
    randomised: bool,
    solve: Box<SolveFn>,
}

impl FnSolver {
    /// A deterministic solver named `name` for `kind` puzzles.
    pub fn new(
        name: impl Into<String>,
        kind: PuzzleKind,
        solve: impl Fn(&mut Task<'_>) -> Result<Outcome, SolverError> + Send + Sync + 'static,
    ) -> FnSolver {
        FnSolver {
            name: name.into(),
            kind,
            randomised: false,
            solve: Box::new(solve),
        }
    }

    /// Mark it randomised (seeds and colonies matter).
    pub fn randomised(mut self) -> FnSolver {
        self.randomised = true;
        self
    }
}

impl Solver for FnSolver {
    fn name(&self) -> &str {
        &self.name
    }
    fn kind(&self) -> PuzzleKind {
        self.kind
    }
    fn randomised(&self) -> bool {
        self.randomised
    }
    fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError> {
        Ok(Box::new(|task: &mut Task<'_>| (self.solve)(task)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closure_is_a_worker_and_stop_fires_on_interrupt_or_deadline() {
        let s = FnSolver::new("gives-up", PuzzleKind::Sudoku, |_t: &mut Task<'_>| {
            Ok(Outcome::new(End::GaveUp))
        });
        let mut w = s.start().expect("start");
        assert!(crate::dataset::Puzzle::sudoku_from_line("").is_err());
        let flag = AtomicBool::new(false);
        let stop = Stop::new(&flag, None);
        assert!(!stop.check());
        flag.store(true, Ordering::Relaxed);
        assert!(stop.check() && stop.interrupted());
        let expired = Stop::new(&NEVER, Some(Duration::ZERO));
        assert!(expired.check() && !expired.interrupted());
        assert!(!Stop::never().check());
        // The budget counts from the instant given (the harness's wall-clock start).
        let t0 = Instant::now();
        let b = Stop::counted_from(&NEVER, Some(Duration::from_millis(300)), t0);
        assert_eq!(b.deadline(), Some(t0 + Duration::from_millis(300)));
        assert_eq!(Stop::counted_from(&NEVER, None, t0).deadline(), None);
        let p = crate::dataset::Puzzle::sudoku_from_line(&".".repeat(81)).expect("blank grid");
        let mut rng = <Rng as rand::SeedableRng>::seed_from_u64(1);
        let mut task = Task {
            puzzle: &p,
            job: 0,
            seed: 1,
            rng: &mut rng,
            stop: Stop::never(),
            trace: None,
        };
        assert_eq!(w.solve(&mut task).expect("solve").end, End::GaveUp);
        let caps = s.capabilities();
        assert!(
            !s.measures() && !caps.options.has(RunOption::Trace) && s.params().as_str().is_empty()
        );
        assert_eq!(caps.sizes.sides(PuzzleKind::Sudoku), Some(vec![9]));
        assert_eq!(caps.sizes.sides(PuzzleKind::Hitori), None);
    }

    #[test]
    fn an_option_set_holds_what_was_put_in_and_nothing_else() {
        let all = [
            RunOption::NodeLimit,
            RunOption::CountSolutions,
            RunOption::Trace,
            RunOption::AbcParams,
            RunOption::Repeat,
        ];
        for (i, &o) in all.iter().enumerate() {
            let one = Options::NONE.with(o);
            for (j, &p) in all.iter().enumerate() {
                assert_eq!(one.has(p), i == j, "{o:?} / {p:?}");
            }
        }
        let some = Options::of(&[RunOption::Trace, RunOption::Repeat]);
        assert!(some.has(RunOption::Trace) && some.has(RunOption::Repeat));
        assert!(!some.has(RunOption::NodeLimit) && !Options::NONE.has(RunOption::Trace));
        let caps = Capabilities::default()
            .with_rules("basic")
            .with_options(some)
            .with_sizes(Sizes::Sides(vec![16]));
        assert_eq!(caps.rules, "basic");
        assert_eq!(caps.sizes.sides(PuzzleKind::Hitori), Some(vec![16]));
    }
}
