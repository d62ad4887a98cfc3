//! Running jobs: one job to one row (timed, budgeted, verified, panic-isolated), and a rayon
//! pool that runs many.
//!
//! The executor is built so that jobs of a microsecond or two are not slowed by the harness:
//!
//! - the feed hands out jobs in chunks (one lock per chunk, not per job), sized by each worker
//!   so that a chunk takes about [`CHUNK_TARGET`] and never exceeds [`MAX_CHUNK`] jobs, and
//!   shrinking towards the end of the plan so the last jobs are spread over the threads;
//! - each worker fills one reused [`Record`] per job and formats its CSV line itself into a
//!   [`Batch`] buffer taken from a pool, so a job allocates nothing in the harness;
//! - a batch is handed over when its chunk is done, or earlier once it holds [`MAX_CHUNK`]
//!   rows or its first row is [`FLUSH_AFTER`] old, so slow jobs are never held back. The
//!   workers deliver the batches themselves, between jobs, one worker at a time: each batch is
//!   appended to the journal with one write (whole rows only) and then, reordered by position,
//!   to the plan-ordered file. There is no delivering thread to take a core from the workers
//!   or preempt a timed solve.
//!
//! Memory stays bounded whatever the plan or dataset size: puzzles are streamed from the
//! dataset as jobs are handed out ([`JobFeed`]), and workers never start a chunk more than
//! [`WINDOW`] jobs ahead of the first undelivered one, so the reorder buffer holds at most that
//! many rows.

use super::plan::{Job, Plan};
use crate::dataset::{Dataset, DatasetError, Puzzle, Puzzles};
use crate::results::{Claim, Columns, EndedBy, Record, Status};
use crate::seed::job_seed;
use crate::solver::{
    thread_cpu_s, Cut, End, Outcome, Rng, Solver, SolverError, Stop, Task, Worker,
};
use crate::verify::check_answer;
use rand::SeedableRng;
use std::collections::{BTreeMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, TryLockError};
use std::time::{Duration, Instant};

/// How far ahead of the first undelivered job workers may start a chunk.
pub(crate) const WINDOW: u64 = 1 << 14;

/// The most jobs in a chunk, and the most rows in a batch.
pub(crate) const MAX_CHUNK: usize = 256;

/// What a worker aims a chunk's run time at: long enough that one lock of the feed and one
/// batch per chunk cost nothing next to the jobs, short enough to keep batches flowing.
const CHUNK_TARGET: Duration = Duration::from_millis(1);

/// A batch is handed over at the latest once its first row is this old (slow jobs).
pub(crate) const FLUSH_AFTER: Duration = Duration::from_millis(100);

/// Per-run settings that shape every job.
#[derive(Clone, Debug)]
pub(crate) struct JobSettings {
    /// Wall-clock budget of one solve.
    pub timeout: Option<Duration>,
    /// Record ABC's best conflicts per cycle.
    pub trace: bool,
    /// Solves per job (`--repeat`); `wall_s` is their median. At least 1.
    pub repeat: u32,
    /// The columns rows are written with.
    pub columns: Columns,
    /// Unrecorded solves per worker and strategy before its first measured job (`--warmup`).
    pub warmup: u32,
    /// CPU-time budget of one solve (`--cpu-limit`): a built-in's thread CPU time, an
    /// external solver's process tree.
    pub cpu_limit: Option<Duration>,
    /// The dataset's files as messages name them, by [`Puzzle::file`] (a false "no solution"
    /// names the file that gives the solution).
    pub files: Arc<Vec<String>>,
}

impl Default for JobSettings {
    fn default() -> JobSettings {
        JobSettings {
            timeout: None,
            trace: false,
            repeat: 1,
            columns: Columns::default(),
            warmup: 0,
            cpu_limit: None,
            files: Arc::default(),
        }
    }
}

/// The most time one worker spends warming one strategy up, whatever `--warmup` and the
/// budgets say: enough for caches, branch predictors and the CPU's clock to settle on jobs of
/// milliseconds, and a grid of thousands of configurations does not pay minutes for it.
pub(crate) const WARMUP_BUDGET: Duration = Duration::from_secs(1);

/// Consecutive positions of the job list, run by one worker: their rows as CSV lines, ready
/// to append. Positions whose job was cut short by an interrupt have no row.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    /// Position of the first job.
    pub start: usize,
    /// One past the position of the last job.
    pub end: usize,
    /// The rows, whole CSV lines.
    pub rows: Vec<u8>,
    /// Trace lines of those jobs (`--trace`).
    pub trace: Vec<u8>,
    /// Rows per status, in [`Status::ALL`] order.
    pub counts: [u64; Status::ALL.len()],
}

impl Batch {
    /// Number of rows.
    pub fn len(&self) -> u64 {
        self.counts.iter().sum()
    }

    fn clear(&mut self, start: usize) {
        self.start = start;
        self.end = start;
        self.rows.clear();
        self.trace.clear();
        self.counts = [0; Status::ALL.len()];
    }
}

/// Text of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".to_string()
    }
}

/// `dst` set to `src`, reusing its buffer.
fn set_str(dst: &mut String, src: &str) {
    dst.clear();
    dst.push_str(src);
}

/// The median of `v` (sorted in place): the middle value, or the mean of the two middle ones.
fn median(v: &mut [f64]) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// How a job ended, for the worker loop.
pub(crate) enum JobEnd {
    /// The row is in [`Workers::record`].
    Row,
    /// The interrupt flag stopped it before it finished: no row; `--resume` runs it again.
    Interrupted,
}

/// A worker thread's workers, one slot per solver, started on first use. A worker that
/// panicked is dropped and started afresh for the next job; one that could not start is
/// retried on the next job (its jobs are `error` rows meanwhile).
pub(crate) struct Workers<'s> {
    solvers: &'s [Box<dyn Solver>],
    slots: Vec<Option<Box<dyn Worker + 's>>>,
    /// Each solver's `params`, computed once.
    params: Vec<crate::results::Params>,
    /// Each strategy's rule variant ([`crate::solver::Capabilities::rules`]), asked once.
    rules: Vec<String>,
    /// The row of the last job, reused from job to job.
    pub record: Record,
    /// The trace of the last job (`--trace`).
    pub trace: Vec<u32>,
    /// Which strategy and puzzle (its ordinal) the record's fixed cells were last filled for.
    filled_for: Option<(usize, u64)>,
    /// Those cells formatted as the start of a CSV line ([`Record::write_csv_head`]).
    head: Vec<u8>,
    /// Wall times of the repeats of one job.
    walls: Vec<f64>,
    /// Thread CPU times of the repeats of one job (built-in solves).
    cpus: Vec<f64>,
    /// Per solver: whether this worker thread has warmed it up.
    warmed: Vec<bool>,
    /// Warm-up solves done and their seconds.
    pub warmup_done: (u64, f64),
    /// How the worker cut the last solve short ([`Worker::take_cut`]).
    cut: Option<Cut>,
}

/// Why a job's row is an `error` row.
struct JobError(String);

impl<'s> Workers<'s> {
    pub(crate) fn new(solvers: &'s [Box<dyn Solver>]) -> Workers<'s> {
        Workers {
            solvers,
            slots: solvers.iter().map(|_| None).collect(),
            params: solvers.iter().map(|s| s.params()).collect(),
            rules: solvers.iter().map(|s| s.capabilities().rules).collect(),
            record: Record::default(),
            trace: Vec::new(),
            filled_for: None,
            head: Vec::new(),
            walls: Vec::new(),
            cpus: Vec::new(),
            warmed: vec![false; solvers.len()],
            warmup_done: (0, 0.0),
            cut: None,
        }
    }

    /// Reset the record for `job`, reusing its buffers: the strategy's and the puzzle's cells
    /// are only rewritten when they change (consecutive jobs share them).
    fn reset_record(&mut self, dataset: &str, job: Job, puzzle: &Puzzle) {
        let r = &mut self.record;
        let key = (job.strategy, job.puzzle);
        if self.filled_for != Some(key) {
            let solver = &self.solvers[job.strategy];
            set_str(&mut r.dataset, dataset);
            set_str(&mut r.puzzle_id, &puzzle.id);
            r.kind = puzzle.kind();
            r.size = puzzle.size();
            set_str(&mut r.strategy, solver.name());
            set_str(&mut r.rules, &self.rules[job.strategy]);
            r.params.clone_from(&self.params[job.strategy]);
            self.filled_for = Some(key);
            self.head.clear();
            r.write_csv_head(&mut self.head);
        }
        r.seed = job.seed;
        r.colony = job.colony;
        r.job = job.index;
        r.status = None;
        r.verified = false;
        r.counters = Default::default();
        r.wall_s = 0.0;
        r.repeats = None;
        r.cpu_s = None;
        r.max_rss_kib = None;
        r.startup_s = None;
        r.claim = None;
        r.ended_by = None;
        r.message.clear();
        r.stats = None;
        r.solution = None;
        self.trace.clear();
    }

    /// Run one job into [`Workers::record`] (and [`Workers::trace`]).
    pub(crate) fn run_job(
        &mut self,
        dataset: &str,
        job: Job,
        puzzle: &Puzzle,
        settings: &JobSettings,
        interrupt: &AtomicBool,
    ) -> JobEnd {
        self.reset_record(dataset, job, puzzle);
        self.cut = None;
        match self.solve(job, puzzle, settings, interrupt) {
            Err(JobError(message)) => {
                self.record.status = Some(Status::Error);
                self.record.message = message;
                if self.cut == Some(Cut::Signal) {
                    self.record.ended_by = Some(EndedBy::Signal);
                }
                JobEnd::Row
            }
            Ok((outcome, over_budget)) => {
                self.record.counters = outcome.counters;
                if self.solvers[job.strategy].measures() {
                    self.record.cpu_s = outcome.measured.cpu_s;
                }
                self.record.max_rss_kib = outcome.measured.max_rss_kib;
                self.record.stats = outcome.measured.stats;
                let interrupted = interrupt.load(Ordering::Relaxed);
                let Some(mut status) = job_status(
                    &mut self.record,
                    puzzle,
                    &outcome.end,
                    outcome.count_cut_short.as_ref(),
                    over_budget,
                    interrupted,
                    settings.columns.solution,
                ) else {
                    return JobEnd::Interrupted;
                };
                if let Some(m) = outcome.message {
                    self.record.message = m;
                }
                let builtin = !self.solvers[job.strategy].measures();
                ended_by(
                    &mut self.record,
                    &mut status,
                    &outcome.end,
                    outcome.count_cut_short.as_ref(),
                    self.cut,
                    settings.cpu_limit,
                    builtin,
                );
                if self.record.claim == Some(Claim::NoSolution) && status == Status::Unsolved {
                    if let Some(line) = known_solution(puzzle) {
                        let file = settings
                            .files
                            .get(puzzle.file)
                            .map_or("the dataset", String::as_str);
                        self.record.message = format!(
                            "claimed no solution, but the puzzle's file gives one ({file}, puzzle at line {line})"
                        );
                        status = Status::Wrong;
                    }
                }
                self.record.status = Some(status);
                JobEnd::Row
            }
        }
    }

    /// Start the strategy's worker if needed and let it prepare for the job (start-up the
    /// worker can tell apart, before the job's clock and budget start).
    fn start_worker(
        &mut self,
        job: Job,
        settings: &JobSettings,
        interrupt: &AtomicBool,
    ) -> Result<(), JobError> {
        let solver = &self.solvers[job.strategy];
        let slot = &mut self.slots[job.strategy];
        if slot.is_none() {
            match catch_unwind(AssertUnwindSafe(|| solver.start())) {
                Ok(Ok(w)) => *slot = Some(w),
                Ok(Err(e)) => return Err(JobError(format!("solver could not start: {e}"))),
                Err(p) => {
                    return Err(JobError(format!(
                        "solver panicked while starting: {}",
                        panic_message(p.as_ref())
                    )))
                }
            }
        }
        let Some(worker) = slot.as_mut() else {
            return Err(JobError("solver could not start".into()));
        };
        // Start-up the worker can tell apart (an external `ready` handshake) happens here,
        // before the job's clock and budget start.
        match catch_unwind(AssertUnwindSafe(|| {
            worker.prepare(settings.timeout, interrupt)
        })) {
            Ok(Ok(startup)) => self.record.startup_s = startup,
            Ok(Err(SolverError(e))) => return Err(JobError(e)),
            Err(p) => {
                *slot = None;
                return Err(JobError(format!(
                    "solver panicked while starting: {}",
                    panic_message(p.as_ref())
                )));
            }
        }
        Ok(())
    }

    /// Start the strategy's worker if needed, then solve the job `settings.repeat` times
    /// (fewer when a solve ends early: budget, interrupt, node limit). Sets `wall_s` (the
    /// median) and `repeats`; returns the outcome and, when a solve ended after the budget,
    /// the budget.
    fn solve(
        &mut self,
        job: Job,
        puzzle: &Puzzle,
        settings: &JobSettings,
        interrupt: &AtomicBool,
    ) -> Result<(Outcome, Option<Duration>), JobError> {
        self.start_worker(job, settings, interrupt)?;
        let Some(worker) = self.slots[job.strategy].as_mut() else {
            return Err(JobError("solver could not start".into()));
        };
        let seed = job_seed(job.seed, &puzzle.id, job.colony);
        if settings.warmup > 0 && !self.warmed[job.strategy] {
            self.warmed[job.strategy] = true;
            let (solves, took, healthy) =
                warm_up(worker.as_mut(), job, puzzle, seed, settings, interrupt);
            self.warmup_done.0 += solves;
            self.warmup_done.1 += took;
            if !healthy {
                // It failed or panicked while warming up: the measured job starts it afresh
                // and is judged on its own.
                self.slots[job.strategy] = None;
            }
            // A warm-up that ran into its budget may have ended an external solver's
            // process: start it again (and time its start-up) as for any job.
            return self.solve(job, puzzle, settings, interrupt);
        }
        let repeat = settings.repeat.max(1);
        self.walls.clear();
        self.cpus.clear();
        let mut first: Option<Outcome> = None;
        for i in 0..repeat {
            // Every repeat is the same job: same seed, same budget counted from its own start.
            let mut rng = Rng::seed_from_u64(seed);
            let mut task = Task {
                puzzle,
                job: job.index,
                seed,
                rng: &mut rng,
                stop: Stop::new(interrupt, settings.timeout),
                trace: (settings.trace && i == 0).then_some(&mut self.trace),
            };
            // The CPU clock is read outside the wall-clock window, so `wall_s` does not grow.
            let cpu0 = thread_cpu_s();
            let start = Instant::now();
            // The budget counts from the wall clock's start, not from the task's making
            // (the CPU clock read above lies between them).
            task.stop = Stop::counted_from(interrupt, settings.timeout, start)
                .with_cpu_limit(settings.cpu_limit);
            let result = catch_unwind(AssertUnwindSafe(|| worker.solve(&mut task)));
            let wall = start.elapsed();
            let cpu1 = thread_cpu_s();
            if result.is_ok() {
                self.cut = worker.take_cut();
            }
            self.walls.push(wall.as_secs_f64());
            self.record.wall_s = median(&mut self.walls);
            if let (Some(a), Some(b)) = (cpu0, cpu1) {
                self.cpus.push((b - a).max(0.0));
                self.record.cpu_s = Some(median(&mut self.cpus));
            }
            let outcome = match result {
                Ok(Ok(o)) => o,
                Ok(Err(SolverError(e))) => return Err(JobError(e)),
                Err(payload) => {
                    self.slots[job.strategy] = None;
                    return Err(JobError(format!(
                        "solver panicked: {}",
                        panic_message(payload.as_ref())
                    )));
                }
            };
            let over_budget = settings.timeout.filter(|t| wall > *t);
            let clean = matches!(outcome.end, End::Found(_) | End::NoSolution | End::GaveUp)
                && outcome.count_cut_short.is_none()
                && over_budget.is_none();
            if !clean {
                // The budget applies to each solve: the one that ran into it (or into the
                // interrupt, or the node limit) decides the row, and the repeats stop.
                self.record.repeats = (repeat > 1).then_some(i + 1);
                return Ok((outcome, over_budget));
            }
            match &first {
                None => first = Some(outcome),
                Some(f) if f.end == outcome.end && f.counters == outcome.counters => {}
                Some(f) => {
                    return Err(JobError(format!(
                        "solve {} of {repeat} ended differently from the first (counters {:?}, first {:?}); --repeat needs a deterministic solver",
                        i + 1,
                        outcome.counters,
                        f.counters
                    )))
                }
            }
        }
        self.record.repeats = (repeat > 1).then_some(repeat);
        match first {
            Some(o) => Ok((o, None)),
            None => Err(JobError("no solve ran".into())),
        }
    }
}

/// Solve `job` up to `settings.warmup` times, unrecorded, within [`WARMUP_BUDGET`] (and each
/// within the job's budget), so that the first measured job of a strategy on this worker does
/// not run cold. Returns the solves done, their seconds, and whether the worker is still fit
/// (no error, no panic).
fn warm_up(
    worker: &mut (dyn Worker + '_),
    job: Job,
    puzzle: &Puzzle,
    seed: u64,
    settings: &JobSettings,
    interrupt: &AtomicBool,
) -> (u64, f64, bool) {
    let began = Instant::now();
    let mut solves = 0;
    for _ in 0..settings.warmup {
        let left = WARMUP_BUDGET.saturating_sub(began.elapsed());
        if left.is_zero() || interrupt.load(Ordering::Relaxed) {
            break;
        }
        let budget = settings.timeout.map_or(left, |t| t.min(left));
        let mut rng = Rng::seed_from_u64(seed);
        let start = Instant::now();
        let mut task = Task {
            puzzle,
            job: job.index,
            seed,
            rng: &mut rng,
            stop: Stop::counted_from(interrupt, Some(budget), start),
            trace: None,
        };
        let result = catch_unwind(AssertUnwindSafe(|| worker.solve(&mut task)));
        solves += 1;
        match result {
            Ok(Ok(o)) if matches!(o.end, End::Found(_) | End::NoSolution | End::GaveUp) => {}
            // Cut short by its budget: warm enough, and the rest would be cut short too.
            Ok(Ok(_)) => break,
            Ok(Err(_)) | Err(_) => return (solves, began.elapsed().as_secs_f64(), false),
        }
    }
    (solves, began.elapsed().as_secs_f64(), true)
}

/// The status of a job that ran to an end, with the message that explains it; `None` when
/// the interrupt flag stopped it (it has no row and `--resume` runs it again).
fn job_status(
    record: &mut Record,
    puzzle: &Puzzle,
    end: &End,
    count_cut_short: Option<&End>,
    over_budget: Option<Duration>,
    interrupted: bool,
    record_solution: bool,
) -> Option<Status> {
    let status = match end {
        End::Found(answer) => {
            if record_solution {
                record.solution = Some(answer.to_cell_string());
            }
            match check_answer(&puzzle.data, answer) {
                Ok(()) => {
                    record.verified = true;
                    match count_cut_short {
                        Some(End::Stopped) if interrupted => return None,
                        Some(_) => {
                            record.message = format!(
                                "budget ran out while counting solutions; {} found so far",
                                record.counters.solutions.unwrap_or(0)
                            );
                            Status::Timeout
                        }
                        None => match over_budget {
                            // The budget is a promise about every row: a solve that ended
                            // after it is a timeout, however it ended.
                            Some(t) => {
                                record.message = format!(
                                    "solved in {:.6} s, over the {} s budget",
                                    record.wall_s,
                                    t.as_secs_f64()
                                );
                                Status::Timeout
                            }
                            None => Status::Solved,
                        },
                    }
                }
                Err(msg) => {
                    record.message = msg;
                    Status::Wrong
                }
            }
        }
        // One status for both, as DESIGN.md defines it; the `claim` column tells them
        // apart (and a claim on a puzzle whose file gives a solution becomes `wrong`).
        End::NoSolution => {
            record.message = "no solution: the search space was exhausted".into();
            record.claim = Some(Claim::NoSolution);
            Status::Unsolved
        }
        End::GaveUp => {
            record.message = "gave up: the cycle budget ran out without a solution".into();
            Status::Unsolved
        }
        End::NodeLimit => Status::Timeout,
        End::Stopped if interrupted => return None,
        End::Stopped => Status::Timeout,
    };
    Some(status)
}

/// The line of the puzzle's file when that file gives a solution for it.
fn known_solution(puzzle: &Puzzle) -> Option<usize> {
    use crate::dataset::PuzzleData;
    let given = match &puzzle.data {
        PuzzleData::Hitori { solution, .. } => solution.is_some(),
        PuzzleData::Sudoku { solution, .. } => solution.is_some(),
        PuzzleData::SudokuK { solution, .. } => solution.is_some(),
    };
    given.then_some(puzzle.line)
}

/// Fill the `ended_by` cell (which budget or limit the harness ended the job by), turning
/// the status into `memout` or `timeout` where a limit the worker or the CPU clock enforced
/// decides it.
fn ended_by(
    record: &mut Record,
    status: &mut Status,
    end: &End,
    count_cut_short: Option<&End>,
    cut: Option<Cut>,
    cpu_limit: Option<Duration>,
    builtin: bool,
) {
    let over_cpu = cpu_limit.is_some_and(|l| record.cpu_s.is_some_and(|c| c >= l.as_secs_f64()));
    record.ended_by = match cut {
        Some(Cut::Memory) => {
            *status = Status::Memout;
            Some(EndedBy::Memory)
        }
        Some(Cut::Cpu) => {
            *status = Status::Timeout;
            Some(EndedBy::Cpu)
        }
        Some(Cut::Signal) => Some(EndedBy::Signal),
        None => match (end, count_cut_short) {
            (_, Some(End::NodeLimit)) | (End::NodeLimit, _) => Some(EndedBy::NodeLimit),
            (End::Stopped, _) | (_, Some(End::Stopped)) if over_cpu => Some(EndedBy::Cpu),
            (End::Stopped, _) | (_, Some(End::Stopped)) => Some(EndedBy::Wall),
            (End::GaveUp, _) if builtin => Some(EndedBy::CycleLimit),
            _ if *status == Status::Timeout => Some(EndedBy::Wall),
            _ => None,
        },
    };
    // The CPU budget is a promise about every row, like the wall budget: a solve that used
    // more ended after it, however it ended.
    if record.ended_by.is_none() && over_cpu && *status != Status::Wrong {
        if let (Some(l), Some(c)) = (cpu_limit, record.cpu_s) {
            record.message = format!(
                "ended after {c:.6} s of CPU time, over the {} s CPU budget",
                l.as_secs_f64()
            );
        }
        *status = Status::Timeout;
        record.ended_by = Some(EndedBy::Cpu);
    }
}

/// Where finished batches go.
pub(crate) trait Sink {
    /// Called as soon as a batch is handed over (completion order).
    fn finished(&mut self, batch: &Batch) -> std::io::Result<()>;
    /// Called in plan order (ascending positions, each batch once).
    fn in_order(&mut self, batch: &Batch) -> std::io::Result<()>;
}

/// Hands out jobs in the order they run ([`Plan::schedule`]), each with its puzzle, streaming
/// the dataset: one pass over the puzzles of each kind (the schedule goes kind by kind, puzzle
/// by puzzle), so memory does not grow with the dataset. Consecutive jobs of one puzzle
/// (strategies, seeds, colonies) share it.
pub(crate) struct JobFeed<'a> {
    dataset: &'a Dataset,
    plan: &'a Plan,
    jobs: Box<dyn Iterator<Item = (u64, u64)> + Send + 'a>,
    /// The next of `jobs`, looked at to end a chunk at a pair group's boundary.
    peeked: Option<(u64, u64)>,
    /// Position of the next job in the job list.
    pos: usize,
    /// Jobs not handed out yet.
    left: u64,
    /// The stream for the current kind, and the puzzle it is on (with its ordinal).
    cursor: Option<Cursor<'a>>,
}

struct Cursor<'a> {
    kind: crate::dataset::PuzzleKind,
    stream: Puzzles<'a>,
    current: Option<(u64, Arc<Puzzle>)>,
}

impl<'a> JobFeed<'a> {
    /// Feed `jobs` (`len` pairs of a job index of `plan` and its pair group's ordinal, in
    /// [`Plan::schedule`] order) with puzzles from `dataset`.
    pub fn new(
        dataset: &'a Dataset,
        plan: &'a Plan,
        jobs: impl Iterator<Item = (u64, u64)> + Send + 'a,
        len: u64,
    ) -> JobFeed<'a> {
        JobFeed {
            dataset,
            plan,
            jobs: Box::new(jobs),
            peeked: None,
            pos: 0,
            left: len,
            cursor: None,
        }
    }

    /// Append about `want` next jobs to `out` (nothing once the feed is dry), in whole pair
    /// groups: a group's jobs run back to back on one worker. Near the end of the plan chunks
    /// shrink, so that the last jobs are spread over the `threads` workers.
    pub fn next_chunk(
        &mut self,
        want: usize,
        threads: usize,
        out: &mut Vec<(usize, Job, Arc<Puzzle>)>,
    ) -> Result<(), DatasetError> {
        let spread = (self.left / (4 * threads.max(1) as u64)).max(1);
        let want = (want as u64).min(spread);
        let mut taken = 0u64;
        let mut group = None;
        loop {
            if self.peeked.is_none() {
                self.peeked = self.jobs.next();
            }
            let next_group = self.peeked.map(|(_, g)| g);
            // Stop at a group's boundary once enough jobs are taken.
            if taken >= want && next_group != group {
                break;
            }
            match self.next_job() {
                None => break,
                Some(Ok(item)) => out.push(item),
                Some(Err(e)) => return Err(e),
            }
            taken += 1;
            group = next_group;
        }
        Ok(())
    }

    /// The next job: its position in the job list, the job and its puzzle.
    #[allow(clippy::type_complexity)]
    pub fn next_job(&mut self) -> Option<Result<(usize, Job, Arc<Puzzle>), DatasetError>> {
        let Some((index, _)) = self.peeked.take().or_else(|| self.jobs.next()) else {
            // Check the rest of the file the last jobs came from, so that a file changed
            // under the run is noticed even when its last puzzles were not needed.
            let checked = self.cursor.take().map(|mut c| c.stream.finish_file());
            return match checked {
                Some(Err(e)) => Some(Err(e)),
                _ => None,
            };
        };
        let job = self.plan.job(index);
        let pos = self.pos;
        self.pos += 1;
        self.left = self.left.saturating_sub(1);
        let restart = match &self.cursor {
            None => true,
            Some(c) => {
                c.kind != job.kind || c.current.as_ref().is_some_and(|(o, _)| *o > job.puzzle)
            }
        };
        if restart {
            if let Some(Err(e)) = self.cursor.take().map(|mut c| c.stream.finish_file()) {
                return Some(Err(e));
            }
            self.cursor = Some(Cursor {
                kind: job.kind,
                stream: self.dataset.puzzles(Some(job.kind)),
                current: None,
            });
        }
        let cursor = self.cursor.as_mut()?;
        loop {
            if let Some((ordinal, p)) = &cursor.current {
                if *ordinal == job.puzzle {
                    return Some(Ok((pos, job, Arc::clone(p))));
                }
            }
            let next = cursor.current.as_ref().map_or(0, |(o, _)| o + 1);
            match cursor.stream.next() {
                Some(Ok(p)) => cursor.current = Some((next, Arc::new(p))),
                Some(Err(e)) => return Some(Err(e)),
                // The open-time read counted more puzzles than are there now.
                None => {
                    let path = self
                        .dataset
                        .files
                        .iter()
                        .rev()
                        .find(|f| f.kind() == job.kind)
                        .map(|f| f.path.clone())
                        .unwrap_or_else(|| self.dataset.path.clone());
                    return Some(Err(DatasetError::Changed {
                        path,
                        what: "puzzles",
                        after_use: true,
                    }));
                }
            }
        }
    }
}

/// Why [`execute`] stopped before the end.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ExecuteError {
    /// Starting the pool or writing results failed.
    #[error("{0}")]
    Io(String),
    /// The dataset could not be read again as it was first read.
    #[error(transparent)]
    Dataset(#[from] DatasetError),
}

/// What [`execute`] ended with. Whether the run was cut short is the caller's to judge:
/// it knows how many jobs there were.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ExecuteSummary {
    /// Jobs finished and delivered.
    pub finished: u64,
    /// Warm-up solves done, and their seconds.
    pub warmup: (u64, f64),
    /// Why a worker runs unpinned although it was to be pinned (the kernel refused).
    pub pin_failed: Option<String>,
}

/// Run the jobs of `feed` on a rayon pool of `threads` workers, worker `i` pinned to
/// `pins[i]` when `pins` is not empty (a worker the kernel will not pin runs unpinned, and
/// the summary says why). Stops taking new jobs once
/// `interrupt` is set. A sink I/O error or a dataset that cannot be read again stops the run
/// and is returned. `progress` sees every batch once, in completion order.
///
/// The workers deliver their batches themselves (see [`Shared::hand_over`]): there is no
/// delivering thread, so `threads` workers are all the threads that work, and no thread of
/// the harness preempts a timed solve when there are as many workers as cores.
#[allow(clippy::too_many_arguments)]
pub(crate) fn execute(
    dataset_name: &str,
    solvers: &[Box<dyn Solver>],
    feed: JobFeed<'_>,
    settings: &JobSettings,
    threads: usize,
    pins: &[Vec<usize>],
    interrupt: &AtomicBool,
    sink: &mut (dyn Sink + Send),
    mut progress: impl FnMut(&Batch) + Send,
) -> Result<ExecuteSummary, (ExecuteError, u64)> {
    let threads = threads.max(1);
    let pins: Vec<Vec<usize>> = pins.to_vec();
    let failed = Arc::new(Mutex::new(None::<String>));
    let failed_in = Arc::clone(&failed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(move |i| {
            if let Some(cpus) = pins.get(i) {
                if let Err(e) = super::pin::pin_current_thread(cpus) {
                    let mut f = failed_in.lock().unwrap_or_else(PoisonError::into_inner);
                    f.get_or_insert_with(|| {
                        format!("the kernel refused to pin worker {i} to CPU {cpus:?}: {e}")
                    });
                }
            }
        })
        .build()
        .map_err(|e| {
            (
                ExecuteError::Io(format!("cannot start {threads} worker threads: {e}")),
                0,
            )
        })?;
    let shared = Shared {
        feed: Mutex::new(feed),
        feed_error: Mutex::new(None),
        delivered: AtomicU64::new(0),
        abort: AtomicBool::new(false),
        pool: Mutex::new(Vec::new()),
        handed: Mutex::new(VecDeque::with_capacity(threads)),
        delivery: Mutex::new(Delivery {
            sink,
            progress: &mut progress,
            pending: BTreeMap::new(),
            next_out: 0,
            finished: 0,
            io_error: None,
        }),
        threads,
        warmup: Mutex::new((0, 0.0)),
    };
    pool.in_place_scope(|scope| {
        for _ in 0..threads {
            let shared = &shared;
            scope.spawn(move |_| {
                work(dataset_name, solvers, shared, settings, interrupt);
            });
        }
    });
    // Every worker has returned. A batch is never left queued (whoever queues one either
    // delivers or leaves it to a worker that looks again after delivering), but a worker
    // that stopped on an abort may have left some: they are delivered here all the same.
    // The pool's threads have all started by now (each ran a worker).
    drop(pool);
    let pin_failed = failed.lock().unwrap_or_else(PoisonError::into_inner).take();
    let Shared {
        feed_error,
        handed,
        delivery,
        warmup,
        ..
    } = shared;
    let warmup = warmup.into_inner().unwrap_or_else(PoisonError::into_inner);
    let mut d = delivery
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    for b in handed.into_inner().unwrap_or_else(PoisonError::into_inner) {
        d.deliver(b, None);
    }
    // After an interrupt some positions were never run; deliver what is left in order.
    if d.io_error.is_none() {
        for (_, b) in std::mem::take(&mut d.pending) {
            if let Err(e) = d.sink.in_order(&b) {
                d.io_error = Some(e);
                break;
            }
        }
    }
    let finished = d.finished;
    if let Some(e) = d.io_error {
        return Err((
            ExecuteError::Io(format!("writing results failed: {e}")),
            finished,
        ));
    }
    if let Some(e) = feed_error
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
    {
        return Err((e.into(), finished));
    }
    Ok(ExecuteSummary {
        finished,
        warmup,
        pin_failed,
    })
}

/// What the worker threads share.
struct Shared<'a> {
    feed: Mutex<JobFeed<'a>>,
    feed_error: Mutex<Option<DatasetError>>,
    /// Positions before this one have been handed to `Sink::in_order`: bounds how far ahead
    /// workers go.
    delivered: AtomicU64,
    /// Set when the feed or the sink failed, so workers stop taking jobs.
    abort: AtomicBool,
    /// Written batches, cleared and handed back to the workers to fill again.
    pool: Mutex<Vec<Batch>>,
    /// Batches handed over and not yet delivered: at most one per worker.
    handed: Mutex<VecDeque<Batch>>,
    /// The sink and the reorder buffer: the worker holding this lock delivers.
    delivery: Mutex<Delivery<'a>>,
    /// Worker threads.
    threads: usize,
    /// Warm-up solves done by the workers that have returned, and their seconds.
    warmup: Mutex<(u64, f64)>,
}

impl Shared<'_> {
    fn stopping(&self, interrupt: &AtomicBool) -> bool {
        interrupt.load(Ordering::Relaxed) || self.abort.load(Ordering::Relaxed)
    }

    /// A batch to fill, starting at position `start`.
    fn batch(&self, start: usize) -> Batch {
        let mut b = self
            .pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        b.clear(start);
        b
    }

    fn recycle(&self, b: Batch) {
        self.pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(b);
    }

    fn next_handed(&self) -> Option<Batch> {
        self.handed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front()
    }

    /// Hand a finished batch over, between two jobs of the calling worker. It is queued, and
    /// the worker then delivers the queue unless another worker is delivering already, in
    /// which case it goes back to its jobs at once. A worker that finds the queue full (one
    /// batch per worker) waits to deliver instead: a slow disk holds the workers back, and
    /// the rows handed over but not yet written stay few (the SIGKILL bound in the README).
    ///
    /// No batch is stranded: a batch queued while another worker delivers found the lock
    /// taken, and that worker looks at the queue again after releasing it.
    // Out of line: it runs once a batch, and benches/harness-profile.sh finds it by name.
    #[inline(never)]
    fn hand_over(&self, batch: Batch) {
        let mut own = {
            let mut q = self.handed.lock().unwrap_or_else(PoisonError::into_inner);
            if q.len() < self.threads {
                q.push_back(batch);
                None
            } else {
                Some(batch)
            }
        };
        loop {
            let mut d = if own.is_some() {
                self.delivery.lock().unwrap_or_else(PoisonError::into_inner)
            } else {
                match self.delivery.try_lock() {
                    Ok(d) => d,
                    Err(TryLockError::Poisoned(p)) => p.into_inner(),
                    Err(TryLockError::WouldBlock) => return,
                }
            };
            if let Some(b) = own.take() {
                d.deliver(b, Some(self));
            }
            while let Some(b) = self.next_handed() {
                d.deliver(b, Some(self));
            }
            drop(d);
            if self
                .handed
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .is_empty()
            {
                return;
            }
        }
    }
}

/// The delivering side: hands each batch to the sink at once, and again in plan order
/// through a reorder buffer. Whoever holds it (a worker, or `execute` at the end) delivers.
struct Delivery<'a> {
    sink: &'a mut (dyn Sink + Send),
    progress: &'a mut (dyn FnMut(&Batch) + Send),
    /// The reorder buffer: batches waiting for an earlier position, by their first position.
    pending: BTreeMap<usize, Batch>,
    /// The first position not yet handed to `Sink::in_order`.
    next_out: usize,
    /// Rows handed to `Sink::finished`.
    finished: u64,
    /// The first write error; nothing more is written after it.
    io_error: Option<std::io::Error>,
}

impl Delivery<'_> {
    /// Deliver `batch`, and every batch of the reorder buffer it lets out. `shared` (absent
    /// once the workers are gone) takes the written batches back and learns of progress and
    /// errors.
    fn deliver(&mut self, batch: Batch, shared: Option<&Shared<'_>>) {
        if self.io_error.is_some() {
            return;
        }
        if let Err(e) = self.sink.finished(&batch) {
            self.fail(e, shared);
            return;
        }
        self.finished += batch.len();
        (self.progress)(&batch);
        self.pending.insert(batch.start, batch);
        while let Some(b) = self.pending.remove(&self.next_out) {
            // A job cut short by the interrupt has no row; everything after it in plan
            // order is still delivered, so the journal and the ordered file agree.
            let written = self.sink.in_order(&b);
            self.next_out = b.end;
            if let Some(shared) = shared {
                shared.recycle(b);
            }
            if let Err(e) = written {
                self.fail(e, shared);
                return;
            }
            if let Some(shared) = shared {
                shared
                    .delivered
                    .store(self.next_out as u64, Ordering::Release);
            }
        }
    }

    fn fail(&mut self, e: std::io::Error, shared: Option<&Shared<'_>>) {
        self.io_error = Some(e);
        if let Some(shared) = shared {
            shared.abort.store(true, Ordering::Relaxed);
        }
    }
}

/// The next chunk size of a worker whose last chunk ran `jobs` jobs in `took`: about
/// [`CHUNK_TARGET`] of work, growing at most fourfold per chunk, within 1..=[`MAX_CHUNK`].
fn next_chunk_size(jobs: usize, took: Duration) -> usize {
    let per_job = took.as_secs_f64() / jobs.max(1) as f64;
    let fit = if per_job > 0.0 {
        (CHUNK_TARGET.as_secs_f64() / per_job) as usize
    } else {
        MAX_CHUNK
    };
    fit.clamp(1, (jobs * 4).clamp(1, MAX_CHUNK))
}

/// One worker thread: takes chunks from the feed until it runs dry or the run is interrupted
/// or aborted; hands its rows over in batches.
fn work(
    dataset_name: &str,
    solvers: &[Box<dyn Solver>],
    shared: &Shared<'_>,
    settings: &JobSettings,
    interrupt: &AtomicBool,
) {
    let mut workers = Workers::new(solvers);
    work_jobs(dataset_name, &mut workers, shared, settings, interrupt);
    let mut w = shared.warmup.lock().unwrap_or_else(PoisonError::into_inner);
    w.0 += workers.warmup_done.0;
    w.1 += workers.warmup_done.1;
}

/// The worker loop of [`work`].
fn work_jobs(
    dataset_name: &str,
    workers: &mut Workers<'_>,
    shared: &Shared<'_>,
    settings: &JobSettings,
    interrupt: &AtomicBool,
) {
    let mut chunk: Vec<(usize, Job, Arc<Puzzle>)> = Vec::with_capacity(MAX_CHUNK);
    // Start with one job: nothing is known yet of how long a job takes.
    let mut want = 1;
    loop {
        if shared.stopping(interrupt) {
            return;
        }
        chunk.clear();
        // The feed parses a puzzle line only when a job moves to a new puzzle: little work
        // under the lock, taken once per chunk.
        let fed = shared
            .feed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next_chunk(want, shared.threads, &mut chunk);
        if let Err(e) = fed {
            *shared
                .feed_error
                .lock()
                .unwrap_or_else(PoisonError::into_inner) = Some(e);
            shared.abort.store(true, Ordering::Relaxed);
            return;
        }
        let Some(&(first, _, _)) = chunk.first() else {
            return;
        };
        while first as u64 >= shared.delivered.load(Ordering::Acquire) + WINDOW {
            if shared.stopping(interrupt) {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let started = Instant::now();
        let mut batch = shared.batch(first);
        let mut batch_started = started;
        let mut ran = 0;
        for (pos, job, puzzle) in chunk.drain(..) {
            if shared.stopping(interrupt) {
                break;
            }
            let end = workers.run_job(dataset_name, job, &puzzle, settings, interrupt);
            batch.end = pos + 1;
            ran += 1;
            if let JobEnd::Row = end {
                add_row(&mut batch, workers, settings);
            }
            let now = Instant::now();
            let full = batch.len() as usize >= MAX_CHUNK;
            if full || now.duration_since(batch_started) >= FLUSH_AFTER {
                let next = shared.batch(pos + 1);
                shared.hand_over(std::mem::replace(&mut batch, next));
                batch_started = now;
            }
        }
        if batch.end > batch.start {
            shared.hand_over(batch);
        } else {
            shared.recycle(batch);
        }
        want = next_chunk_size(ran, started.elapsed());
    }
}

/// Append the worker's last row (and trace) to `batch`.
fn add_row(batch: &mut Batch, workers: &Workers<'_>, settings: &JobSettings) {
    let r = &workers.record;
    batch.rows.extend_from_slice(&workers.head);
    r.write_csv_tail(settings.columns, &mut batch.rows);
    if let Some(i) = r
        .status
        .and_then(|s| Status::ALL.iter().position(|x| *x == s))
    {
        batch.counts[i] += 1;
    }
    if settings.trace {
        // Writing into a Vec cannot fail. Only ABC traces, and its jobs are long: the lines
        // may allocate.
        let _ = crate::results::trace::write_job(&mut batch.trace, r, &workers.trace);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::FnSolver;
    use std::sync::atomic::AtomicU32;

    const DEMO: &str =
        "000260701680070090190004500820100040004602900050003028009300074040050036703018000";

    fn job() -> Job {
        Job {
            index: 7,
            strategy: 0,
            kind: crate::kind::PuzzleKind::Sudoku,
            puzzle: 0,
            seed: 1,
            colony: 0,
        }
    }

    /// Run one job of `solver` with `--repeat repeat`.
    fn run(solver: FnSolver, repeat: u32) -> Record {
        let solvers: Vec<Box<dyn Solver>> = vec![Box::new(solver)];
        let mut w = Workers::new(&solvers);
        let puzzle = Puzzle::sudoku_from_line(DEMO).expect("demo");
        let settings = JobSettings {
            repeat,
            ..JobSettings::default()
        };
        let end = w.run_job("d", job(), &puzzle, &settings, &AtomicBool::new(false));
        assert!(matches!(end, JobEnd::Row));
        w.record.clone()
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut [5.0]), 5.0);
    }

    #[test]
    fn repeat_records_the_median_solve_and_how_many_ran() {
        // The first of three solves sleeps; the median is one of the quick ones, far below
        // the mean (a third of the sleep) or the maximum.
        let calls = Arc::new(AtomicU32::new(0));
        let c = Arc::clone(&calls);
        let slept = Arc::new(Mutex::new(Duration::ZERO));
        let s = Arc::clone(&slept);
        let solver = FnSolver::new("slow-first", crate::kind::PuzzleKind::Sudoku, move |_| {
            if c.fetch_add(1, Ordering::SeqCst) == 0 {
                let t = Instant::now();
                std::thread::sleep(Duration::from_millis(300));
                *s.lock().expect("lock") = t.elapsed();
            }
            Ok(Outcome::new(End::NoSolution))
        });
        let r = run(solver, 3);
        assert_eq!(calls.load(Ordering::SeqCst), 3);
        assert_eq!(r.repeats, Some(3));
        assert_eq!(r.status, Some(Status::Unsolved));
        let slow = slept.lock().expect("lock").as_secs_f64();
        assert!(
            r.wall_s < slow / 3.0,
            "median {} vs slow solve {slow}",
            r.wall_s
        );
        // Without --repeat: one solve, no repeats cell.
        let once = FnSolver::new("once", crate::kind::PuzzleKind::Sudoku, |_| {
            Ok(Outcome::new(End::NoSolution))
        });
        assert_eq!(run(once, 1).repeats, None);
    }

    #[test]
    fn built_in_solves_record_thread_cpu_time_not_sleep() {
        // A solve that burns CPU has it in `cpu_s`; one that sleeps has far less CPU than wall.
        let busy = FnSolver::new("busy", crate::kind::PuzzleKind::Sudoku, |_| {
            let t = crate::solver::Stop::never();
            let mut x = 1u64;
            let start = Instant::now();
            while start.elapsed() < Duration::from_millis(30) && !t.check() {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            Ok(Outcome::new(End::NoSolution))
        });
        let r = run(busy, 1);
        assert!(r.cpu_s.is_some_and(|c| c > 0.0), "{:?}", r.cpu_s);
        let sleepy = FnSolver::new("sleepy", crate::kind::PuzzleKind::Sudoku, |_| {
            std::thread::sleep(Duration::from_millis(100));
            Ok(Outcome::new(End::NoSolution))
        });
        let r = run(sleepy, 1);
        let cpu = r.cpu_s.expect("cpu measured");
        assert!(cpu < r.wall_s / 2.0, "cpu {cpu} vs wall {}", r.wall_s);
        // Timings are not part of a row's identity.
        assert_eq!(r.without_timing().cpu_s, None);
    }

    #[test]
    fn repeats_with_different_counters_make_an_error_row() {
        let calls = Arc::new(AtomicU32::new(0));
        let c = Arc::clone(&calls);
        let solver = FnSolver::new("drifting", crate::kind::PuzzleKind::Sudoku, move |_| {
            let n = c.fetch_add(1, Ordering::SeqCst);
            let counters = crate::results::counters::Counters {
                nodes: Some(10 + u64::from(n / 2)),
                ..Default::default()
            };
            Ok(Outcome::new(End::NoSolution).with_counters(counters))
        });
        let r = run(solver, 5);
        assert_eq!(r.status, Some(Status::Error));
        assert!(
            r.message
                .starts_with("solve 3 of 5 ended differently from the first"),
            "{}",
            r.message
        );
        assert_eq!(
            calls.load(Ordering::SeqCst),
            3,
            "the repeats stop at the first difference"
        );
    }

    #[test]
    fn a_solve_that_hits_the_node_limit_ends_the_repeats() {
        let calls = Arc::new(AtomicU32::new(0));
        let c = Arc::clone(&calls);
        let solver = FnSolver::new("limited", crate::kind::PuzzleKind::Sudoku, move |_| {
            c.fetch_add(1, Ordering::SeqCst);
            Ok(Outcome::new(End::NodeLimit))
        });
        let r = run(solver, 9);
        assert_eq!(r.status, Some(Status::Timeout));
        assert_eq!((calls.load(Ordering::SeqCst), r.repeats), (1, Some(1)));
    }

    #[test]
    fn chunks_grow_towards_the_target_and_stay_in_bounds() {
        assert_eq!(
            next_chunk_size(1, Duration::from_micros(2)),
            4,
            "at most fourfold"
        );
        assert_eq!(next_chunk_size(256, Duration::from_micros(500)), MAX_CHUNK);
        assert_eq!(
            next_chunk_size(64, Duration::from_millis(64)),
            1,
            "slow jobs: one"
        );
        assert_eq!(
            next_chunk_size(0, Duration::ZERO),
            1,
            "nothing ran: start over"
        );
    }

    /// A sink that records what it was given, and now and then is slow, so that workers
    /// find the delivery busy (and go back to their jobs) or the queue full (and wait).
    struct Recording {
        finished: Vec<(usize, usize, u64)>,
        in_order: Vec<(usize, usize)>,
        calls: u64,
    }

    impl Sink for Recording {
        fn finished(&mut self, batch: &Batch) -> std::io::Result<()> {
            self.calls += 1;
            if self.calls.is_multiple_of(5) {
                std::thread::sleep(Duration::from_millis(2));
            }
            self.finished.push((batch.start, batch.end, batch.len()));
            Ok(())
        }
        fn in_order(&mut self, batch: &Batch) -> std::io::Result<()> {
            self.in_order.push((batch.start, batch.end));
            Ok(())
        }
    }

    #[test]
    fn workers_deliver_every_batch_once_and_in_plan_order() {
        // Eight workers (more than this machine's cores) over 3 x 700 jobs of a few
        // microseconds, against a sink that sleeps on every fifth batch.
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("three.txt");
        let line = DEMO.to_string();
        std::fs::write(&file, format!("{line}\n{line}\n{line}\n")).expect("write");
        let dataset = Dataset::open(&file).expect("dataset");
        let solvers: Vec<Box<dyn Solver>> = vec![Box::new(
            FnSolver::new(
                "spin",
                crate::kind::PuzzleKind::Sudoku,
                |_t: &mut Task<'_>| {
                    std::hint::black_box((0..200u32).sum::<u32>());
                    Ok(Outcome::new(End::GaveUp))
                },
            )
            .randomised(),
        )];
        let plan = Plan::new(&dataset, &solvers, 0, 700, 1).expect("plan");
        let jobs = plan.len();
        let feed = JobFeed::new(&dataset, &plan, plan.schedule(Default::default()), jobs);
        let mut sink = Recording {
            finished: Vec::new(),
            in_order: Vec::new(),
            calls: 0,
        };
        let mut seen = 0u64;
        let summary = execute(
            "three",
            &solvers,
            feed,
            &JobSettings::default(),
            8,
            &[],
            &AtomicBool::new(false),
            &mut sink,
            |b: &Batch| seen += b.len(),
        )
        .map_err(|(e, _)| e.to_string())
        .expect("run");
        assert_eq!(summary.finished, jobs);
        assert_eq!(seen, jobs, "progress sees every row once");
        // Completion order: each position in exactly one batch, each batch a full one.
        let mut got: Vec<_> = sink.finished.iter().map(|&(a, b, _)| (a, b)).collect();
        got.sort_unstable();
        let mut next = 0;
        for &(a, b) in &got {
            assert_eq!(a, next, "positions {next}..{a} missing or repeated");
            next = b;
        }
        assert_eq!(next as u64, jobs);
        assert!(sink.finished.iter().all(|&(a, b, n)| n == (b - a) as u64));
        // Plan order: the same batches, ascending and contiguous.
        assert_eq!(sink.in_order, got);
        assert!(sink.finished.len() > 8, "{} batches", sink.finished.len());
    }
}
