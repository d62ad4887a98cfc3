//! [`ExternalSolver`]: an external program as one more implementor of the solver seam, in
//! batch mode (one long-lived process per worker thread) or per-puzzle mode (one per job).

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::limits::{Tree, Watch, SAMPLE_EVERY};
use super::manifest::{ExternalSpec, Mode};
use super::process::{is_resource_exhaustion, is_subreaper, Proc, ReadEnd, GRACE};
use super::protocol::{encode_request, excerpt, parse_answer, split_stats, to_answer, Status};
use crate::results::Params;
use crate::solver::{
    Counters, Cut, End, Measured, Outcome, PuzzleKind, Solver, SolverError, Task, Worker,
};

/// Crashes or protocol breaks in a row after which a solver is not started again.
pub const GIVE_UP_AFTER: u32 = 5;

/// How stale the batch-mode reading of a solver's descendants' CPU time may be.
const DESCENDANTS_EVERY: Duration = Duration::from_millis(1);

/// How long a per-puzzle solver may take to exit after its answer line (when no job budget
/// ends sooner).
const EXIT_AFTER_ANSWER: Duration = Duration::from_secs(10);

/// An external solver declared in a manifest.
pub struct ExternalSolver {
    spec: ExternalSpec,
    /// Faults (crash, protocol break) in a row, over all of this solver's workers: a broken
    /// solver is given up once, not once per thread.
    faults: AtomicU32,
    last_fault: Mutex<String>,
    /// The restart-without-`ready` warning was given (once per solver and run).
    warned_restart: std::sync::atomic::AtomicBool,
}

impl ExternalSolver {
    /// Applies the run's `--memory-limit` on top of the manifest's own `memory_limit`:
    /// the lower of the two holds.
    pub fn with_run_memory_limit(mut self, run: Option<u64>) -> Self {
        self.spec.memory_limit = match (self.spec.memory_limit, run) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }

    /// Wraps a validated manifest entry.
    pub fn new(spec: ExternalSpec) -> Self {
        ExternalSolver {
            spec,
            faults: AtomicU32::new(0),
            last_fault: Mutex::new(String::new()),
            warned_restart: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The manifest entry.
    pub fn spec(&self) -> &ExternalSpec {
        &self.spec
    }

    fn fault(&self, message: String) -> SolverError {
        self.faults.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut last) = self.last_fault.lock() {
            last.clone_from(&message);
        }
        SolverError(message)
    }

    /// A failed start: the solver's fault (a missing or broken program), or puzzlebench's own
    /// when it ran out of descriptors or processes, which never counts towards giving the
    /// solver up.
    fn spawn_error(&self, e: &std::io::Error) -> SolverError {
        let program = self.spec.program.display();
        if is_resource_exhaustion(e) {
            return SolverError(format!(
                "puzzlebench could not start `{program}`: {e}; this is puzzlebench's own limit \
                 on open files or processes (see `ulimit -n` and `ulimit -u`, or lower \
                 --threads), not a fault of the solver"
            ));
        }
        self.fault(format!("cannot start `{program}`: {e}"))
    }

    fn given_up(&self) -> Option<SolverError> {
        if self.faults.load(Ordering::Relaxed) < GIVE_UP_AFTER {
            return None;
        }
        let last = self
            .last_fault
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        Some(SolverError(format!(
            "not run: `{}` crashed or broke the protocol on {GIVE_UP_AFTER} jobs in a row and \
             is not restarted again (last: {last})",
            self.spec.name
        )))
    }
}

impl Solver for ExternalSolver {
    fn name(&self) -> &str {
        &self.spec.name
    }
    fn kind(&self) -> PuzzleKind {
        self.spec.kind
    }
    fn params(&self) -> Params {
        Params::from_cell(&self.spec.params)
    }
    fn randomised(&self) -> bool {
        self.spec.randomised
    }
    fn measures(&self) -> bool {
        true
    }
    /// The manifest's `effort`.
    fn effort(&self) -> Option<&str> {
        self.spec.effort.as_deref()
    }
    /// The manifest's `cpus` (default 1).
    fn cpus(&self) -> usize {
        self.spec.cpus
    }
    /// The manifest's `orders` (default `[3]`) as grid sides; no rule variant, no option.
    fn capabilities(&self) -> crate::solver::Capabilities {
        let sides = self.spec.orders.iter().map(|k| k * k).collect();
        crate::solver::Capabilities::default().with_sizes(crate::solver::Sizes::Sides(sides))
    }
    /// The process is started before the first job, which knows the budget to pass on in
    /// `PUZZLEBENCH_TIMEOUT`: with `ready = true` in `ExternalWorker::prepare`, outside
    /// the job's clock; without it, inside the job, whose `wall_s` then holds the start-up.
    fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError> {
        Ok(Box::new(ExternalWorker {
            solver: self,
            proc: None,
            request: String::with_capacity(256),
            spawned: false,
            tree: None,
            descendants0: Cell::new(0.0),
            descendants_at: Cell::new(None),
            cut: Cell::new(None),
        }))
    }
}

struct ExternalWorker<'s> {
    solver: &'s ExternalSolver,
    /// Batch mode: the live process, None before the first job and after a fault or timeout.
    proc: Option<Proc>,
    request: String,
    /// A process was started before (the next start is a restart).
    spawned: bool,
    /// The live process's tree (`cpu_s` of the whole tree, the limits).
    tree: Option<Tree>,
    /// Batch mode: CPU time of the process's descendants when last read, and when.
    descendants0: Cell<f64>,
    descendants_at: Cell<Option<Instant>>,
    /// How the last job was cut short by a limit or a signal ([`Worker::take_cut`]).
    cut: Cell<Option<Cut>>,
}

/// A successfully parsed answer, before measurements are added.
struct Parsed {
    end: End,
    counters: Counters,
    stats: Option<String>,
    message: Option<String>,
}

impl Worker for ExternalWorker<'_> {
    /// With `ready = true`: starts the process if none is running (the first job, and every
    /// job after a restart; every job in per-puzzle mode) and waits for its `ready` line,
    /// bounded by the start-up limit and the interrupt. Returns the start-up's seconds.
    fn prepare(
        &mut self,
        timeout: Option<Duration>,
        interrupt: &std::sync::atomic::AtomicBool,
    ) -> Result<Option<f64>, SolverError> {
        let spec = &self.solver.spec;
        if !spec.ready || self.proc.is_some() || self.solver.given_up().is_some() {
            return Ok(None);
        }
        let stop = || interrupt.load(Ordering::Relaxed);
        if stop() {
            return Ok(None);
        }
        let started = Instant::now();
        let mut proc = self.spawn(timeout)?;
        let limit = started + spec.startup_limit;
        match proc.read_line(Some(limit), &stop) {
            Ok(line) if line.strip_suffix(b"\r").unwrap_or(&line) == b"ready" => {
                let startup = started.elapsed().as_secs_f64();
                self.proc = Some(proc);
                Ok(Some(startup))
            }
            Ok(line) => Err(self.protocol_fault(
                proc,
                format!(
                    "expected the line `ready` after start-up (the manifest says `ready = true`), got {}",
                    excerpt(&line)
                ),
            )),
            // Interrupted while starting: the job has no row; the next run starts afresh.
            Err(ReadEnd::Stopped) => {
                proc.terminate(GRACE);
                Ok(None)
            }
            Err(ReadEnd::Deadline) => {
                let (_, killed) = proc.terminate(GRACE);
                proc.drain_stderr_after_exit();
                let mut m = format!(
                    "no `ready` line within the {} s start-up limit (`startup_limit`); solver ended ({})",
                    spec.startup_limit.as_secs_f64(),
                    if killed { "SIGTERM, then SIGKILL" } else { "SIGTERM" }
                );
                if let Some(tail) = proc.stderr_tail() {
                    m.push_str(&format!("; stderr: {tail}"));
                }
                Err(self.solver.fault(m))
            }
            Err(ReadEnd::Eof) => Err(self.died(proc, "closed its output", "before saying `ready`")),
            Err(ReadEnd::TooLong) => Err(self.protocol_fault(
                proc,
                "start-up line longer than the longest answer line, expected `ready`".into(),
            )),
            Err(ReadEnd::Closed) => Err(self.died(proc, "closed its input", "before saying `ready`")),
            Err(ReadEnd::Io(e)) => Err(self.protocol_fault(proc, format!("I/O error: {e}"))),
        }
    }

    fn take_cut(&mut self) -> Option<Cut> {
        self.cut.take()
    }

    fn solve(&mut self, task: &mut Task<'_>) -> Result<Outcome, SolverError> {
        if let Some(e) = self.solver.given_up() {
            return Err(e);
        }
        if task.interrupted() {
            return Ok(outcome(End::Stopped, Measured::default(), None));
        }
        if task.puzzle.kind() != self.solver.spec.kind {
            // The harness plans by kind; this guards a direct caller.
            return Err(SolverError(format!(
                "`{}` solves {} puzzles, not {}",
                self.solver.spec.name,
                self.solver.spec.kind,
                task.puzzle.kind()
            )));
        }
        if let Some(k) = task.puzzle.sudoku_order() {
            if !self.solver.spec.orders.contains(&k) {
                return Err(SolverError(format!(
                    "`{}` declares Sudoku orders {:?} in its manifest, not order {k} ({}); the job was not sent (add {k} to `orders`)",
                    self.solver.spec.name,
                    self.solver.spec.orders,
                    task.puzzle.size()
                )));
            }
        }
        self.request.clear();
        encode_request(task.job, task.seed, task.puzzle, &mut self.request);
        match self.solver.spec.mode {
            Mode::Batch => self.solve_batch(task),
            Mode::PerPuzzle => self.solve_once(task),
        }
    }
}

impl ExternalWorker<'_> {
    fn spawn(&mut self, timeout: Option<Duration>) -> Result<Proc, SolverError> {
        let spec = &self.solver.spec;
        let restart = std::mem::replace(&mut self.spawned, true);
        // A batch solver without the handshake restarted under a wall budget: its start-up
        // is charged to the next job, which a small --timeout may not survive (issue 37).
        if restart
            && spec.mode == Mode::Batch
            && !spec.ready
            && timeout.is_some()
            && !self.solver.warned_restart.swap(true, Ordering::Relaxed)
        {
            eprintln!(
                "bench-run: warning: `{}` was restarted and has no `ready = true` in its manifest: \
                 each restart's start-up is charged to the next job's --timeout budget \
                 (see PROTOCOL.md §3)",
                spec.name
            );
        }
        let proc = Proc::spawn(spec, timeout).map_err(|e| self.solver.spawn_error(&e))?;
        self.tree = Tree::open(proc.pid(), is_subreaper());
        self.descendants0.set(0.0);
        self.descendants_at.set(None);
        Ok(proc)
    }

    /// Batch mode, no limit watched: the job's CPU time, the leader's clock over the job
    /// plus what its descendants (reaped and living) used since they were last read. They
    /// are read at most once every [`DESCENDANTS_EVERY`]: reading `/proc` costs ~2.5 us, half
    /// a microsecond job's own figure, so jobs shorter than that share a read and the
    /// descendants' time lands in the job that reads it (at most 1 ms late).
    fn batch_cpu(&self, leader0: Option<f64>, leader1: Option<f64>) -> Option<f64> {
        let leader = delta(leader0, leader1)?;
        let Some(tree) = &self.tree else {
            return Some(leader);
        };
        let at = Instant::now();
        if self
            .descendants_at
            .get()
            .is_some_and(|t| at.duration_since(t) < DESCENDANTS_EVERY)
        {
            return Some(leader);
        }
        self.descendants_at.set(Some(at));
        let now = tree.descendants_cpu_s();
        let before = self.descendants0.replace(now);
        Some(leader + (now - before).max(0.0))
    }

    /// A limit was passed: the tree is killed at once (no grace: a fast allocator would go
    /// on growing) and the job gets a row saying which limit, with the tree's figures.
    fn limit_stop(
        &self,
        mut proc: Proc,
        w: &Watch<'_>,
        cut: Cut,
        leader_rss: Option<u64>,
    ) -> Outcome {
        let cpu = w.cpu_s();
        let (exit, _) = proc.terminate(std::time::Duration::ZERO);
        self.cut.set(Some(cut));
        let (cpu_s, rss) = match self.solver.spec.mode {
            Mode::Batch => (cpu, leader_rss.unwrap_or(0)),
            Mode::PerPuzzle => (cpu.max(exit.cpu_s), exit.max_rss_kib),
        };
        let peak = w.peak_kib();
        let message = match cut {
            Cut::Memory => format!(
                "the solver's process tree reached {:.1} MiB resident, over the {} MiB memory \
                 limit (sampled every {} ms); solver ended (SIGKILL)",
                peak as f64 / 1024.0,
                w.memory_limit_kib().unwrap_or(0) / 1024,
                SAMPLE_EVERY.as_millis()
            ),
            _ => format!(
                "the solver's process tree used {cpu:.3} s of CPU time, over the {} s CPU-time \
                 limit (--cpu-limit); solver ended (SIGKILL)",
                w.cpu_limit_s().unwrap_or(0.0)
            ),
        };
        let measured = Measured {
            cpu_s: Some(cpu_s),
            max_rss_kib: Some(if cut == Cut::Memory {
                peak
            } else {
                peak.max(rss)
            }),
            stats: None,
        };
        outcome(End::Stopped, measured, Some(message))
    }

    fn solve_batch(&mut self, task: &mut Task<'_>) -> Result<Outcome, SolverError> {
        let deadline = task.deadline();
        let mut proc = match self.proc.take() {
            Some(p) => p,
            None => self.spawn(task.timeout())?,
        };
        // Output nobody asked for, or an exit between jobs, belongs to no job: this one
        // reports it.
        let pending = proc.pending_output();
        if !pending.is_empty() {
            let what = format!("unexpected output before the request: {}", excerpt(pending));
            return Err(self.protocol_fault(proc, what));
        }
        if proc.stdout_closed() {
            return Err(self.died(proc, "closed its output", "between jobs"));
        }
        proc.clear_stderr();
        let memory_limit = self.solver.spec.memory_limit;
        let watch = Watch::start(self.tree.as_ref(), task.cpu_limit(), memory_limit, false);
        if watch.is_some() {
            proc.set_slice(SAMPLE_EVERY);
        }
        let stop = || task.interrupted() || watch.as_ref().is_some_and(Watch::over);
        let cpu0 = proc.cpu_s();
        let read = proc
            .write_all(self.request.as_bytes(), deadline, &stop)
            .and_then(|()| proc.read_line(deadline, &stop));
        let line = match read {
            Ok(line) => line,
            Err(end) => {
                let cpu = match &watch {
                    Some(w) => Some(w.cpu_now_s()),
                    None => self.batch_cpu(cpu0, proc.cpu_s()),
                };
                return self.read_failed(proc, end, task, cpu, watch.as_ref());
            }
        };
        let measured = Measured {
            cpu_s: match &watch {
                Some(w) => Some(w.cpu_now_s()),
                None => self.batch_cpu(cpu0, proc.cpu_s()),
            },
            max_rss_kib: proc
                .peak_rss_kib()
                .map(|k| k.max(watch.as_ref().map_or(0, Watch::peak_kib))),
            stats: None,
        };
        match self.interpret(&line, task, &mut proc) {
            Ok(parsed) => {
                self.proc = Some(proc);
                self.solver.faults.store(0, Ordering::Relaxed);
                Ok(finish(parsed, measured))
            }
            Err(Interpret::Fault(what)) => Err(self.protocol_fault(proc, what)),
            Err(Interpret::Reported(e)) => {
                self.proc = Some(proc);
                self.solver.faults.store(0, Ordering::Relaxed);
                Err(e)
            }
        }
    }

    fn solve_once(&mut self, task: &mut Task<'_>) -> Result<Outcome, SolverError> {
        let deadline = task.deadline();
        let mut proc = match self.proc.take() {
            Some(p) => p,
            None => self.spawn(task.timeout())?,
        };
        let memory_limit = self.solver.spec.memory_limit;
        let watch = Watch::start(self.tree.as_ref(), task.cpu_limit(), memory_limit, true);
        if watch.is_some() {
            proc.set_slice(SAMPLE_EVERY);
        }
        let stop = || task.interrupted() || watch.as_ref().is_some_and(Watch::over);
        let read = proc
            .write_all(self.request.as_bytes(), deadline, &stop)
            .and_then(|()| {
                proc.close_stdin();
                proc.read_line(deadline, &stop)
            });
        let line = match read {
            Ok(line) => line,
            Err(end) => {
                let cpu = watch.as_ref().map(Watch::cpu_now_s);
                return self.read_failed(proc, end, task, cpu, watch.as_ref());
            }
        };
        // The tree as the answer came: descendants still living are killed with the leader
        // and their CPU time would be lost to the leader's rusage.
        let tree_cpu = match &watch {
            Some(w) => w.cpu_now_s(),
            None => self.tree.as_ref().map_or(0.0, |t| t.sample(false, false).0),
        };
        let parsed = match self.interpret(&line, task, &mut proc) {
            Ok(p) => Ok(p),
            Err(Interpret::Fault(what)) => return Err(self.protocol_fault(proc, what)),
            Err(Interpret::Reported(e)) => Err(e),
        };
        // The answer is in; the process must now exit cleanly. Its end is the process's exit,
        // not the end of its output: a helper it leaves holding stdout is ended with it.
        let cap = Instant::now() + EXIT_AFTER_ANSWER;
        let limit = Some(deadline.map_or(cap, |d| d.min(cap)));
        let exit = proc.wait_exit_reading(limit, &stop).and_then(|exit| {
            let rest = proc.pending_output();
            if rest.iter().all(|b| b.is_ascii_whitespace()) {
                Ok(exit)
            } else {
                Err(ReadEnd::Io(std::io::Error::other(format!(
                    "output after the answer line: {}",
                    excerpt(rest)
                ))))
            }
        });
        let exit = match exit {
            Ok(e) => e,
            Err(ReadEnd::Deadline) if deadline.is_some_and(|d| Instant::now() >= d) => {
                return self.read_failed(
                    proc,
                    ReadEnd::Deadline,
                    task,
                    Some(tree_cpu),
                    watch.as_ref(),
                )
            }
            Err(ReadEnd::Deadline) => {
                let what = format!(
                    "answered but did not exit within {} s",
                    EXIT_AFTER_ANSWER.as_secs()
                );
                return Err(self.protocol_fault(proc, what));
            }
            Err(ReadEnd::Io(e)) if e.kind() == std::io::ErrorKind::Other => {
                return Err(self.protocol_fault(proc, e.to_string()))
            }
            Err(end) => return self.read_failed(proc, end, task, Some(tree_cpu), watch.as_ref()),
        };
        if !exit.success() {
            return Err(self.died(proc, "ended", "after answering"));
        }
        self.solver.faults.store(0, Ordering::Relaxed);
        let parsed = parsed?;
        let measured = Measured {
            cpu_s: Some(exit.cpu_s.max(tree_cpu)),
            max_rss_kib: Some(
                exit.max_rss_kib
                    .max(watch.as_ref().map_or(0, Watch::peak_kib)),
            ),
            stats: None,
        };
        Ok(finish(parsed, measured))
    }

    /// Checks one answer line against the task.
    fn interpret(
        &self,
        line: &[u8],
        task: &Task<'_>,
        proc: &mut Proc,
    ) -> Result<Parsed, Interpret> {
        let a = parse_answer(line).map_err(Interpret::Fault)?;
        if a.job != task.job {
            return Err(Interpret::Fault(format!(
                "answer for job {}, expected job {}",
                a.job, task.job
            )));
        }
        let mut counters = Counters::default();
        let stats = split_stats(a.stats, &mut counters).map_err(Interpret::Fault)?;
        let (end, message) = match a.status {
            Status::Solved => {
                let answer = to_answer(task.puzzle, a.answer).map_err(Interpret::Fault)?;
                (End::Found(answer), None)
            }
            Status::Unsolved => (End::NoSolution, None),
            Status::Unknown => (
                End::GaveUp,
                Some("the solver gave up (status `unknown`)".to_string()),
            ),
            Status::Error => {
                let mut m = "the solver reported an error".to_string();
                if !a.stats.is_empty() {
                    m.push_str(&format!(" ({})", a.stats));
                }
                if let Some(tail) = proc.stderr_tail() {
                    m.push_str(&format!("; stderr: {tail}"));
                }
                return Err(Interpret::Reported(SolverError(m)));
            }
        };
        Ok(Parsed {
            end,
            counters,
            stats,
            message,
        })
    }

    /// The answer never came: a timeout, an interrupt, or a fault.
    fn read_failed(
        &self,
        mut proc: Proc,
        end: ReadEnd,
        task: &Task<'_>,
        cpu: Option<f64>,
        watch: Option<&Watch<'_>>,
    ) -> Result<Outcome, SolverError> {
        match end {
            ReadEnd::Stopped => {
                if let Some((w, cut)) = watch.and_then(|w| Some((w, w.cut()?))) {
                    let rss = match self.solver.spec.mode {
                        Mode::Batch => proc.peak_rss_kib(),
                        Mode::PerPuzzle => None,
                    };
                    return Ok(self.limit_stop(proc, w, cut, rss));
                }
                proc.terminate(GRACE);
                Ok(outcome(End::Stopped, Measured::default(), None))
            }
            ReadEnd::Deadline => {
                let (exit, killed) = proc.terminate(GRACE);
                let budget = task.timeout().map_or(0.0, |t| t.as_secs_f64());
                let how = if killed {
                    "SIGTERM, then SIGKILL"
                } else {
                    "SIGTERM"
                };
                let measured = match self.solver.spec.mode {
                    Mode::Batch => Measured {
                        cpu_s: cpu,
                        ..Measured::default()
                    },
                    Mode::PerPuzzle => Measured {
                        cpu_s: Some(exit.cpu_s.max(cpu.unwrap_or(0.0))),
                        max_rss_kib: Some(exit.max_rss_kib),
                        stats: None,
                    },
                };
                let message =
                    format!("no answer within the {budget} s budget; solver ended ({how})");
                Ok(outcome(End::Stopped, measured, Some(message)))
            }
            ReadEnd::Eof => Err(self.died(proc, "closed its output", "before answering")),
            ReadEnd::Closed => {
                Err(self.died(proc, "closed its input", "before reading the whole request"))
            }
            ReadEnd::TooLong => Err(self.protocol_fault(
                proc,
                format!(
                    "answer line longer than {} bytes",
                    super::protocol::MAX_LINE
                ),
            )),
            ReadEnd::Io(e) => Err(self.protocol_fault(proc, format!("I/O error: {e}"))),
        }
    }

    /// The solver broke the protocol: kill it (the next job starts a fresh one).
    fn protocol_fault(&self, mut proc: Proc, what: String) -> SolverError {
        proc.terminate(GRACE);
        proc.drain_stderr_after_exit();
        let mut m = format!("protocol error: {what}");
        if self.solver.spec.mode == Mode::Batch {
            m.push_str(" (solver restarted)");
        }
        if let Some(tail) = proc.stderr_tail() {
            m.push_str(&format!("; stderr: {tail}"));
        }
        self.solver.fault(m)
    }

    /// The solver ended (or closed a pipe: `what`) on its own; report how it ended. When it
    /// did not exit and puzzlebench ended it, the message says so rather than blaming the
    /// signal puzzlebench sent.
    fn died(&self, mut proc: Proc, what: &str, when: &str) -> SolverError {
        // It normally has exited already; a short wait lets a closing process finish.
        let mut m = match proc.wait_exit(Some(Instant::now() + GRACE), &|| false) {
            Ok(exit) => {
                if exit.reaped && libc::WIFSIGNALED(exit.status) {
                    self.cut.set(Some(Cut::Signal));
                }
                format!("the solver {} {when}", exit.describe())
            }
            Err(_) => {
                let (exit, killed) = proc.terminate(GRACE);
                let how = if killed {
                    "SIGTERM, then SIGKILL"
                } else {
                    "SIGTERM"
                };
                let mut m = format!(
                    "the solver {what} {when} but did not exit within {} ms; puzzlebench ended it ({how})",
                    GRACE.as_millis()
                );
                if !exit.reaped {
                    m.push_str(&format!("; it {}", exit.describe()));
                }
                m
            }
        };
        proc.drain_stderr_after_exit();
        if let Some(tail) = proc.stderr_tail() {
            m.push_str(&format!("; stderr: {tail}"));
        }
        self.solver.fault(m)
    }
}

enum Interpret {
    /// A protocol break: the job is an `error` and the process is ended.
    Fault(String),
    /// The solver's own `error` status: the job is an `error`, the process lives on.
    Reported(SolverError),
}

fn delta(before: Option<f64>, after: Option<f64>) -> Option<f64> {
    Some((after? - before?).max(0.0))
}

fn outcome(end: End, measured: Measured, message: Option<String>) -> Outcome {
    Outcome {
        end,
        counters: Counters::default(),
        count_cut_short: None,
        measured,
        message,
    }
}

fn finish(p: Parsed, mut measured: Measured) -> Outcome {
    measured.stats = p.stats;
    Outcome {
        end: p.end,
        counters: p.counters,
        count_cut_short: None,
        measured,
        message: p.message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::PuzzleKind;

    fn solver() -> ExternalSolver {
        ExternalSolver::new(ExternalSpec {
            name: "t".into(),
            kind: PuzzleKind::Sudoku,
            program: "/bin/true".into(),
            args: Vec::new(),
            mode: Mode::Batch,
            randomised: false,
            env: Vec::new(),
            workdir: None,
            params: String::new(),
            ready: false,
            startup_limit: super::super::manifest::DEFAULT_STARTUP_LIMIT,
            orders: vec![3],
            effort: None,
            cpus: 1,
            memory_limit: None,
        })
    }

    #[test]
    fn running_out_of_descriptors_is_puzzlebenchs_fault_not_the_solvers() {
        let s = solver();
        for errno in [libc::EMFILE, libc::ENFILE, libc::EAGAIN] {
            for _ in 0..GIVE_UP_AFTER + 1 {
                let e = s.spawn_error(&std::io::Error::from_raw_os_error(errno));
                assert!(e.0.contains("puzzlebench's own limit"), "{}", e.0);
            }
        }
        assert!(s.given_up().is_none(), "never given up for our own limits");
        // A program that cannot start is the solver's fault, and counts.
        for _ in 0..GIVE_UP_AFTER {
            let e = s.spawn_error(&std::io::Error::from_raw_os_error(libc::ENOENT));
            assert!(e.0.contains("cannot start `/bin/true`"), "{}", e.0);
        }
        let given = s
            .given_up()
            .expect("given up after the solver's own faults");
        assert!(given.0.contains("not restarted again"), "{}", given.0);
    }
}
