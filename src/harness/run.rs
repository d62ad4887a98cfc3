//! Running jobs: one job to one [`Record`] (timed, budgeted, verified, panic-isolated), and a
//! rayon pool that runs many, handing each result to a [`Sink`] twice: at once in completion
//! order (for the crash-safe journal) and again in plan order (for the sorted result file).
//!
//! Memory stays bounded whatever the plan or dataset size: puzzles are streamed from the
//! dataset as jobs are handed out ([`JobFeed`]), and workers never run more than [`WINDOW`] jobs
//! ahead of the first unfinished one, so the reorder buffer holds at most that many rows.

use super::plan::{Job, Plan};
use super::seed::job_seed;
use crate::dataset::{Dataset, DatasetError, Puzzle, Puzzles};
use crate::results::{Record, Status};
use crate::solver::{End, Rng, Solver, Stop, Task, Worker};
use crate::verify::check_answer;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How far ahead of the first unfinished job workers may go.
pub(crate) const WINDOW: u64 = 1 << 14;

/// Per-run settings that shape every job.
#[derive(Clone, Debug, Default)]
pub(crate) struct JobSettings {
    /// Wall-clock budget of one job.
    pub timeout: Option<Duration>,
    /// Record ABC's best conflicts per cycle.
    pub trace: bool,
}

/// A finished job.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JobResult {
    /// Its row.
    pub record: Record,
    /// Best conflicts after initialisation and after each cycle (with `--trace`, ABC only).
    pub trace: Option<Vec<u32>>,
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

/// A worker thread's workers, one slot per solver, started on first use. A worker that
/// panicked is dropped and started afresh for the next job; one that could not start is
/// retried on the next job (its jobs are `error` rows meanwhile).
pub(crate) struct Workers<'s> {
    solvers: &'s [Box<dyn Solver>],
    slots: Vec<Option<Box<dyn Worker + 's>>>,
}

impl<'s> Workers<'s> {
    pub(crate) fn new(solvers: &'s [Box<dyn Solver>]) -> Workers<'s> {
        Workers {
            solvers,
            slots: solvers.iter().map(|_| None).collect(),
        }
    }

    /// Run one job. Returns `None` when the interrupt flag stopped it before it finished: such
    /// a job has no row and is run again by `--resume`.
    pub(crate) fn run_job(
        &mut self,
        dataset: &str,
        job: Job,
        puzzle: &Puzzle,
        settings: &JobSettings,
        interrupt: &AtomicBool,
    ) -> Option<JobResult> {
        let solver = &self.solvers[job.strategy];
        let mut record = Record {
            dataset: dataset.to_string(),
            puzzle_id: puzzle.id.clone(),
            kind: puzzle.kind(),
            size: puzzle.size(),
            strategy: solver.name().to_string(),
            rules: solver.rules().to_string(),
            params: solver.params(),
            seed: job.seed,
            colony: job.colony,
            job: job.index,
            ..Record::default()
        };
        let error = |mut record: Record, message: String| {
            record.status = Some(Status::Error);
            record.message = message;
            Some(JobResult {
                record,
                trace: None,
            })
        };
        let slot = &mut self.slots[job.strategy];
        if slot.is_none() {
            match catch_unwind(AssertUnwindSafe(|| solver.start())) {
                Ok(Ok(w)) => *slot = Some(w),
                Ok(Err(e)) => return error(record, format!("solver could not start: {e}")),
                Err(p) => {
                    return error(
                        record,
                        format!(
                            "solver panicked while starting: {}",
                            panic_message(p.as_ref())
                        ),
                    )
                }
            }
        }
        let worker = slot.as_mut()?;
        let seed = job_seed(job.seed, &puzzle.id, job.colony);
        let mut rng = Rng::seed_from_u64(seed);
        let mut trace = settings.trace.then(Vec::new);
        let start = Instant::now();
        let mut task = Task {
            puzzle,
            job: job.index,
            seed,
            rng: &mut rng,
            stop: Stop::new(interrupt, settings.timeout),
            trace: trace.as_mut(),
        };
        let result = catch_unwind(AssertUnwindSafe(|| worker.solve(&mut task)));
        record.wall_s = start.elapsed().as_secs_f64();
        let outcome = match result {
            Ok(Ok(o)) => o,
            Ok(Err(e)) => return error(record, e.to_string()),
            Err(payload) => {
                *slot = None;
                return error(
                    record,
                    format!("solver panicked: {}", panic_message(payload.as_ref())),
                );
            }
        };
        let over_budget = settings.timeout.filter(|t| record.wall_s > t.as_secs_f64());
        record.counters = outcome.counters;
        record.cpu_s = outcome.measured.cpu_s;
        record.max_rss_kib = outcome.measured.max_rss_kib;
        record.stats = outcome.measured.stats;
        let interrupted = interrupt.load(Ordering::Relaxed);
        let status = job_status(
            &mut record,
            puzzle,
            &outcome.end,
            outcome.count_cut_short.as_ref(),
            over_budget,
            interrupted,
        )?;
        if let Some(m) = outcome.message {
            record.message = m;
        }
        record.status = Some(status);
        Some(JobResult { record, trace })
    }
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
) -> Option<Status> {
    let status = match end {
        End::Found(answer) => {
            record.solution = Some(answer.to_cell_string());
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
        // One status for both, as DESIGN.md defines it; the message tells them apart.
        End::NoSolution => {
            record.message = "no solution: the search space was exhausted".into();
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

/// Where finished jobs go.
pub(crate) trait Sink {
    /// Called as soon as a job finishes (completion order).
    fn finished(&mut self, result: &JobResult) -> std::io::Result<()>;
    /// Called in plan order (ascending position in the job list).
    fn in_order(&mut self, result: JobResult) -> std::io::Result<()>;
}

/// Hands out jobs in plan order, each with its puzzle, streaming the dataset: one pass over
/// the puzzles of a strategy's kind per strategy, so memory does not grow with the dataset.
/// Consecutive jobs of one puzzle (seeds, colonies) share it.
pub(crate) struct JobFeed<'a> {
    dataset: &'a Dataset,
    plan: &'a Plan,
    jobs: Box<dyn Iterator<Item = u64> + Send + 'a>,
    /// Position of the next job in the job list.
    pos: usize,
    /// The stream for the current strategy, and the puzzle it is on (with its ordinal).
    cursor: Option<Cursor<'a>>,
}

struct Cursor<'a> {
    strategy: usize,
    stream: Puzzles<'a>,
    current: Option<(u64, Arc<Puzzle>)>,
}

impl<'a> JobFeed<'a> {
    /// Feed `jobs` (job indices of `plan`, ascending) with puzzles from `dataset`.
    pub fn new(
        dataset: &'a Dataset,
        plan: &'a Plan,
        jobs: impl Iterator<Item = u64> + Send + 'a,
    ) -> JobFeed<'a> {
        JobFeed {
            dataset,
            plan,
            jobs: Box::new(jobs),
            pos: 0,
            cursor: None,
        }
    }

    /// The next job: its position in the job list, the job and its puzzle.
    #[allow(clippy::type_complexity)]
    pub fn next_job(&mut self) -> Option<Result<(usize, Job, Arc<Puzzle>), DatasetError>> {
        let Some(index) = self.jobs.next() else {
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
        let restart = match &self.cursor {
            None => true,
            Some(c) => {
                c.strategy != job.strategy
                    || c.current.as_ref().is_some_and(|(o, _)| *o > job.puzzle)
            }
        };
        if restart {
            if let Some(Err(e)) = self.cursor.take().map(|mut c| c.stream.finish_file()) {
                return Some(Err(e));
            }
            self.cursor = Some(Cursor {
                strategy: job.strategy,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ExecuteSummary {
    /// Jobs finished and delivered.
    pub finished: u64,
}

/// Run the jobs of `feed` on a rayon pool of `threads` workers. Stops taking new jobs once
/// `interrupt` is set. A sink I/O error or a dataset that cannot be read again stops the run
/// and is returned.
#[allow(clippy::too_many_arguments)]
pub(crate) fn execute(
    dataset_name: &str,
    solvers: &[Box<dyn Solver>],
    feed: JobFeed<'_>,
    settings: &JobSettings,
    threads: usize,
    interrupt: &AtomicBool,
    sink: &mut dyn Sink,
    mut progress: impl FnMut(&JobResult),
) -> Result<ExecuteSummary, (ExecuteError, u64)> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
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
    };
    let (tx, rx) = mpsc::channel::<(usize, Option<JobResult>)>();
    let (io_error, finished) = pool.in_place_scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let shared = &shared;
            scope.spawn(move |_| {
                work(dataset_name, solvers, shared, settings, interrupt, &tx);
            });
        }
        drop(tx);
        deliver(&rx, &shared, sink, &mut progress)
    });
    if let Some(e) = io_error {
        return Err((
            ExecuteError::Io(format!("writing results failed: {e}")),
            finished,
        ));
    }
    if let Some(e) = shared
        .feed_error
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
    {
        return Err((e.into(), finished));
    }
    Ok(ExecuteSummary { finished })
}

/// What the worker threads and the delivering thread share.
struct Shared<'a> {
    feed: Mutex<JobFeed<'a>>,
    feed_error: Mutex<Option<DatasetError>>,
    /// How many positions have been handed to `Sink::in_order`: bounds how far ahead workers go.
    delivered: AtomicU64,
    /// Set when the feed or the sink failed, so workers stop taking jobs.
    abort: AtomicBool,
}

/// One worker thread: takes jobs from the feed until it runs dry, the run is interrupted or
/// aborted, or the delivering side hung up.
fn work(
    dataset_name: &str,
    solvers: &[Box<dyn Solver>],
    shared: &Shared<'_>,
    settings: &JobSettings,
    interrupt: &AtomicBool,
    tx: &mpsc::Sender<(usize, Option<JobResult>)>,
) {
    let mut workers = Workers::new(solvers);
    loop {
        if interrupt.load(Ordering::Relaxed) || shared.abort.load(Ordering::Relaxed) {
            break;
        }
        // The feed only parses the next puzzle line when a job moves to a new puzzle:
        // little work under the lock next to a solve.
        let next = shared
            .feed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next_job();
        let (pos, job, puzzle) = match next {
            None => break,
            Some(Ok(item)) => item,
            Some(Err(e)) => {
                *shared
                    .feed_error
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = Some(e);
                shared.abort.store(true, Ordering::Relaxed);
                break;
            }
        };
        while pos as u64 >= shared.delivered.load(Ordering::Acquire) + WINDOW {
            if shared.abort.load(Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let r = workers.run_job(dataset_name, job, &puzzle, settings, interrupt);
        drop(puzzle);
        if tx.send((pos, r)).is_err() {
            break;
        }
    }
}

/// The delivering side: hands each result to the sink at once, and again in plan order
/// through a reorder buffer. Returns the first write error and how many jobs finished.
fn deliver(
    rx: &mpsc::Receiver<(usize, Option<JobResult>)>,
    shared: &Shared<'_>,
    sink: &mut dyn Sink,
    progress: &mut impl FnMut(&JobResult),
) -> (Option<std::io::Error>, u64) {
    let mut io_error: Option<std::io::Error> = None;
    let mut finished = 0u64;
    // The reorder buffer: results waiting for an earlier position to finish.
    let mut pending: BTreeMap<usize, Option<JobResult>> = BTreeMap::new();
    let mut next_out = 0usize;
    for (pos, r) in rx.iter() {
        if io_error.is_some() {
            continue;
        }
        if let Some(res) = &r {
            if let Err(e) = sink.finished(res) {
                io_error = Some(e);
                shared.abort.store(true, Ordering::Relaxed);
                continue;
            }
            finished += 1;
            progress(res);
        }
        pending.insert(pos, r);
        while let Some(r) = pending.remove(&next_out) {
            // A job cut short by the interrupt has no row; everything after it in plan
            // order is still delivered, so the journal and the ordered file agree.
            if let Some(res) = r {
                if let Err(e) = sink.in_order(res) {
                    io_error = Some(e);
                    shared.abort.store(true, Ordering::Relaxed);
                    break;
                }
            }
            next_out += 1;
            shared.delivered.store(next_out as u64, Ordering::Release);
        }
    }
    // After an interrupt some positions were never taken; deliver what is left in order.
    if io_error.is_none() {
        for (_, r) in pending {
            if let Some(res) = r {
                if let Err(e) = sink.in_order(res) {
                    io_error = Some(e);
                    break;
                }
            }
        }
    }
    (io_error, finished)
}
