//! Running jobs: one job to one [`Record`] (timed, budgeted, verified, panic-isolated), and a
//! rayon pool that runs many, handing each result to a [`Sink`] twice: at once in completion
//! order (for the crash-safe journal) and again in plan order (for the sorted result file).
//!
//! Memory stays bounded whatever the plan size: workers never run more than [`WINDOW`] jobs
//! ahead of the first unfinished one, so the reorder buffer holds at most that many rows.

use super::plan::{Job, Plan};
use super::record::{Record, Status};
use super::seed::job_rng;
use super::Solver;
use crate::dataset::Dataset;
use crate::solvers::{check_answer, End};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How far ahead of the first unfinished job workers may go.
pub const WINDOW: u64 = 1 << 14;

/// Per-run settings that shape every job.
#[derive(Clone, Debug, Default)]
pub struct JobSettings {
    /// Wall-clock budget of one job.
    pub timeout: Option<Duration>,
    /// Record ABC's best conflicts per cycle.
    pub trace: bool,
}

/// A finished job.
#[derive(Clone, Debug, PartialEq)]
pub struct JobResult {
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

/// Run one job. Returns `None` when the interrupt flag stopped it before it finished: such a
/// job has no row and is run again by `--resume`.
pub fn run_job(
    dataset: &Dataset,
    solvers: &[Box<dyn Solver>],
    job: Job,
    settings: &JobSettings,
    interrupt: &AtomicBool,
) -> Option<JobResult> {
    let solver = &solvers[job.strategy];
    let puzzle = &dataset.puzzles[job.puzzle];
    let mut record = Record {
        dataset: dataset.name.clone(),
        puzzle_id: puzzle.id.clone(),
        kind: puzzle.kind().name().to_string(),
        size: puzzle.size(),
        strategy: solver.name().to_string(),
        rules: solver.rules().to_string(),
        params: solver.params(),
        seed: job.seed,
        colony: job.colony,
        job: job.index,
        ..Record::default()
    };
    let mut rng = job_rng(job.seed, &puzzle.id, job.colony);
    let mut trace = settings.trace.then(Vec::new);
    let start = Instant::now();
    let deadline = settings.timeout.map(|t| start + t);
    let mut stop =
        || interrupt.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let result = catch_unwind(AssertUnwindSafe(|| {
        solver.solve(&puzzle.data, &mut rng, &mut stop, trace.as_mut())
    }));
    record.wall_s = start.elapsed().as_secs_f64();
    let outcome = match result {
        Ok(Ok(o)) => o,
        Ok(Err(msg)) => {
            record.status = Some(Status::Error);
            record.message = msg;
            return Some(JobResult {
                record,
                trace: None,
            });
        }
        Err(payload) => {
            record.status = Some(Status::Error);
            record.message = format!("solver panicked: {}", panic_message(payload.as_ref()));
            return Some(JobResult {
                record,
                trace: None,
            });
        }
    };
    let c = &outcome.counters;
    record.nodes = c.nodes;
    record.max_depth = c.max_depth;
    record.backtracks = c.backtracks;
    record.propagated = c
        .propagated_cells
        .map(|n| n as f64 / puzzle.cell_count() as f64);
    record.guesses = c.guesses;
    record.cycles = c.cycles;
    record.evaluations = c.evaluations;
    record.scouts = c.scouts;
    record.best_conflicts = c.best_conflicts;
    record.empties_after_presolve = c.empties_after_presolve;
    record.solutions = c.solutions;
    record.status = Some(match &outcome.end {
        End::Found(answer) => {
            record.solution = Some(answer.to_cell_string());
            match check_answer(&puzzle.data, answer) {
                Ok(()) => {
                    record.verified = true;
                    match &outcome.count_cut_short {
                        None => Status::Solved,
                        Some(End::Stopped) if interrupt.load(Ordering::Relaxed) => return None,
                        Some(_) => {
                            record.message = format!(
                                "budget ran out while counting solutions; {} found so far",
                                c.solutions.unwrap_or(0)
                            );
                            Status::Timeout
                        }
                    }
                }
                Err(msg) => {
                    record.message = msg;
                    Status::Wrong
                }
            }
        }
        End::NoSolution | End::GaveUp => Status::Unsolved,
        End::NodeLimit => Status::Timeout,
        End::Stopped if interrupt.load(Ordering::Relaxed) => return None,
        End::Stopped => Status::Timeout,
    });
    Some(JobResult { record, trace })
}

/// Where finished jobs go.
pub trait Sink {
    /// Called as soon as a job finishes (completion order).
    fn finished(&mut self, result: &JobResult) -> std::io::Result<()>;
    /// Called in plan order (ascending position in the job list).
    fn in_order(&mut self, result: JobResult) -> std::io::Result<()>;
}

/// What [`execute`] ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecuteSummary {
    /// Jobs finished and delivered.
    pub finished: u64,
    /// Whether the interrupt flag cut the run short.
    pub interrupted: bool,
}

/// Run `jobs` (job indices of `plan`, ascending) on a rayon pool of `threads` workers.
/// Stops taking new jobs once `interrupt` is set. A sink I/O error stops the run and is returned.
#[allow(clippy::too_many_arguments)]
pub fn execute(
    dataset: &Dataset,
    solvers: &[Box<dyn Solver>],
    plan: &Plan,
    jobs: &[u64],
    settings: &JobSettings,
    threads: usize,
    interrupt: &AtomicBool,
    sink: &mut dyn Sink,
    mut progress: impl FnMut(&JobResult),
) -> Result<ExecuteSummary, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {threads} worker threads: {e}"))?;
    let next = AtomicUsize::new(0);
    let delivered = AtomicU64::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Option<JobResult>)>();
    let mut io_error: Option<std::io::Error> = None;
    let mut finished = 0u64;
    pool.in_place_scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, delivered, abort) = (&next, &delivered, &abort);
            scope.spawn(move |_| loop {
                if interrupt.load(Ordering::Relaxed) || abort.load(Ordering::Relaxed) {
                    break;
                }
                let pos = next.fetch_add(1, Ordering::Relaxed);
                if pos >= jobs.len() {
                    break;
                }
                while pos as u64 >= delivered.load(Ordering::Acquire) + WINDOW {
                    if abort.load(Ordering::Relaxed) {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                let r = run_job(dataset, solvers, plan.job(jobs[pos]), settings, interrupt);
                if tx.send((pos, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
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
                    abort.store(true, Ordering::Relaxed);
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
                        abort.store(true, Ordering::Relaxed);
                        break;
                    }
                }
                next_out += 1;
                delivered.store(next_out as u64, Ordering::Release);
            }
        }
        // After an interrupt some positions were never taken; deliver what is left in order.
        if io_error.is_none() {
            for (_, r) in std::mem::take(&mut pending) {
                if let Some(res) = r {
                    if let Err(e) = sink.in_order(res) {
                        io_error = Some(e);
                        break;
                    }
                }
            }
        }
    });
    if let Some(e) = io_error {
        return Err(format!("writing results failed: {e}"));
    }
    Ok(ExecuteSummary {
        finished,
        interrupted: interrupt.load(Ordering::Relaxed) && (finished as usize) < jobs.len(),
    })
}
