//! One benchmark run from a configuration to finished files, as a pipeline:
//!
//! 1. [`preflight`]: validate the options and every path (dataset, output, journal, trace,
//!    meta) — nothing is read or written before this passes;
//! 2. open the dataset and build the plan;
//! 3. build the run meta (and, for `--resume`, check it against the interrupted run's);
//! 4. take the output's lock and open the journal;
//! 5. execute the jobs;
//! 6. finish: the sorted CSV and its meta appear together, or the journal stays for `--resume`.
//!
//! `bench-run` is a thin front end over [`bench()`].

use super::output::{journal_path, with_suffix, JobSet, ResultWriter, Resumed};
use super::pin::{self, PinMode, Placement};
use super::plan::{fingerprint, Plan};
use super::progress::Progress;
use super::run::{execute, Batch, ExecuteError, JobFeed, JobSettings};
use crate::dataset::{self, Dataset};
use crate::results::meta::{self, meta_path, BuildInfo, HostProbe, Machine, SolverBuild};
use crate::results::read::read_meta_file;
use crate::results::write::{write_meta, WriteError};
use crate::results::{Columns, RunMeta, RunStatus, Shard, Status};
use crate::solver::{RunOption, Solver};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Everything a run needs. [`BenchConfig::new`] gives the defaults (`bench-run`'s); set the
/// public fields to change them.
pub struct BenchConfig {
    /// Dataset path.
    pub dataset: PathBuf,
    /// Solvers, in `--strategy` order.
    pub solvers: Vec<Box<dyn Solver>>,
    /// Base seed.
    pub seed: u64,
    /// Seeds per puzzle.
    pub seeds: u32,
    /// Colonies per (puzzle, seed) for randomised strategies.
    pub colonies: u32,
    /// Worker threads.
    pub threads: usize,
    /// Per-solve time budget (with `repeat` > 1 it applies to each solve).
    pub timeout: Option<Duration>,
    /// Solves per job, `wall_s` being their median (`--repeat`); at least 1. Only for
    /// deterministic solvers that support [`RunOption::Repeat`].
    pub repeat: u32,
    /// Per-job node budget (recorded in the meta; the solvers carry it).
    pub node_limit: Option<u64>,
    /// Output CSV; `None` picks `results/<dataset>_<strategies>_<time>.csv`.
    pub output: Option<PathBuf>,
    /// Optional columns (the `measured` ones are added when a solver measures).
    pub columns: Columns,
    /// ABC trace file.
    pub trace: Option<PathBuf>,
    /// Plan slice.
    pub shard: Shard,
    /// Continue an interrupted run.
    pub resume: bool,
    /// Overwrite existing results.
    pub force: bool,
    /// Show a progress bar (only drawn when stderr is a terminal).
    pub progress: bool,
    /// The command line, for the meta.
    pub command_line: Vec<String>,
    /// Content hash of the `--solvers` manifest, for the meta and `--resume`.
    pub manifest_hash: Option<String>,
    /// Provenance of each external solver (its `command` files' hashes), by name, for the
    /// meta's `build` and `--resume`.
    pub solver_builds: BTreeMap<String, SolverBuild>,
    /// `--resume-any-build`: continue a run made by another build of puzzlebench or against
    /// changed solver programs (recorded in the meta).
    pub resume_any_build: bool,
    /// `--warmup`: unrecorded solves per worker and strategy before its first measured job.
    pub warmup: u32,
    /// `--pin`: whether worker threads get CPUs of their own.
    pub pin: PinMode,
    /// `--cpu-limit`: CPU-time budget of one solve (a built-in's thread, an external
    /// solver's process tree).
    pub cpu_limit: Option<Duration>,
    /// `--memory-limit` in bytes: external solvers carry it (with their manifest's own) in
    /// their specs; recorded in the meta and checked against built-ins' estimates.
    pub memory_limit: Option<u64>,
    /// The `--plan` file's path and content, recorded in the meta (`plan`: path, hash,
    /// content).
    pub plan_file: Option<(String, String)>,
}

impl BenchConfig {
    /// A run of `solvers` over `dataset` with the defaults: seed 0, one seed, one colony, one
    /// thread per CPU, no budgets, the default output path, no progress bar, one warm-up
    /// solve, workers pinned where they can be.
    pub fn new(dataset: impl Into<PathBuf>, solvers: Vec<Box<dyn Solver>>) -> BenchConfig {
        BenchConfig {
            dataset: dataset.into(),
            solvers,
            seed: 0,
            seeds: 1,
            colonies: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            timeout: None,
            repeat: 1,
            node_limit: None,
            output: None,
            columns: Columns::default(),
            trace: None,
            shard: Shard::default(),
            resume: false,
            force: false,
            progress: false,
            command_line: std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            manifest_hash: None,
            solver_builds: BTreeMap::new(),
            resume_any_build: false,
            warmup: 1,
            pin: PinMode::Auto,
            cpu_limit: None,
            memory_limit: None,
            plan_file: None,
        }
    }
}

/// Why a run could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// Dataset problem.
    #[error(transparent)]
    Dataset(#[from] dataset::DatasetError),
    /// Plan problem.
    #[error(transparent)]
    Plan(#[from] super::plan::PlanError),
    /// Bad combination of options, or an output that would be overwritten.
    #[error("{0}")]
    Usage(String),
    /// Another process is writing the same output.
    #[error("{0}")]
    Locked(String),
    /// Reading or writing results failed.
    #[error("{0}")]
    Io(String),
}

/// How a run ended.
#[derive(Debug)]
pub struct BenchOutcome {
    /// The finished CSV (complete runs) or the journal (interrupted runs).
    pub path: PathBuf,
    /// Whether the run was interrupted (the CSV does not exist yet).
    pub interrupted: bool,
    /// Rows per status, this run's and resumed ones.
    pub status_counts: BTreeMap<Status, u64>,
    /// Jobs in this shard.
    pub jobs: u64,
    /// Jobs with a row.
    pub done: u64,
    /// The meta written beside the results.
    pub meta: RunMeta,
}

/// Every file a run touches, derived from the output path.
#[derive(Clone, Debug)]
pub struct RunPaths {
    /// The final CSV.
    pub output: PathBuf,
    /// Its meta sidecar, written with the CSV.
    pub meta: PathBuf,
    /// The journal of rows as they finish.
    pub journal: PathBuf,
    /// The meta of the run in progress, beside the journal.
    pub journal_meta: PathBuf,
    /// The lock held for the life of the run.
    pub lock: PathBuf,
    /// The trace, if asked for.
    pub trace: Option<PathBuf>,
}

impl RunPaths {
    /// The files of a run writing `output`.
    pub fn new(output: &Path, trace: Option<&Path>) -> RunPaths {
        let journal = journal_path(output);
        RunPaths {
            output: output.to_path_buf(),
            meta: meta_path(output),
            journal_meta: meta_path(&journal),
            journal,
            // On the meta's name, which `X.csv` and `X` share: two runs that would write one
            // meta can never run at once.
            lock: meta_path(output).with_extension("lock"),
            trace: trace.map(Path::to_path_buf),
        }
    }
}

fn default_output(cfg: &BenchConfig) -> PathBuf {
    let names: Vec<&str> = cfg.solvers.iter().map(|s| s.name()).collect();
    let stamp = meta::now_utc().replace([':', '-'], "");
    let shard = if cfg.shard.count > 1 {
        format!("_shard{}of{}", cfg.shard.index, cfg.shard.count)
    } else {
        String::new()
    };
    PathBuf::from("results").join(format!(
        "{}_{}_{}{}.csv",
        dataset::dataset_name(&cfg.dataset),
        names.join("+"),
        stamp.trim_end_matches('Z'),
        shard
    ))
}

/// A path made absolute and free of `..` and symlinks as far as it exists, for comparing.
fn resolved(p: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    match (p.parent(), p.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            resolved(parent).join(name)
        }
        _ => p.to_path_buf(),
    }
}

/// A trace path that exists (without `force`) or lies in a directory that does not: the
/// output's directory is made for it, but a trace's missing directory is most likely a typo,
/// and it would fail only after the run had started.
pub(super) fn check_trace_place(t: &Path, force: bool) -> Result<(), BenchError> {
    if t.exists() && !force {
        return Err(BenchError::Usage(format!(
            "{}: trace file already exists; choose another --trace or add --force",
            t.display()
        )));
    }
    if let Some(dir) = t.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(BenchError::Usage(format!(
                "--trace {}: the directory {} does not exist; create it or choose another path",
                t.display(),
                dir.display()
            )));
        }
    }
    Ok(())
}

/// Refuse a path that exists and is not a regular file: never write into, or replace, a
/// directory, a device, a FIFO, a socket or a link ([`crate::results::write::check_target`]).
pub(super) fn check_writable(what: &str, p: &Path) -> Result<(), BenchError> {
    crate::results::write::check_target(what, p).map_err(|e| BenchError::Usage(e.to_string()))
}

/// `--repeat R` needs R >= 1 and, for R > 1, deterministic solvers that support it: a
/// randomised solver's repeats are different runs, and an external one is not timed here.
fn check_repeat(cfg: &BenchConfig) -> Result<(), BenchError> {
    if cfg.repeat == 0 {
        return Err(BenchError::Usage("--repeat 0: expected at least 1".into()));
    }
    if cfg.repeat > 1 {
        let refused: Vec<String> = cfg
            .solvers
            .iter()
            .filter_map(|s| {
                if s.randomised() {
                    Some(format!(
                        "{} (randomised: each solve is a different run)",
                        s.name()
                    ))
                } else if !s.capabilities().options.has(RunOption::Repeat) {
                    Some(format!("{} (does not support repeated solves)", s.name()))
                } else {
                    None
                }
            })
            .collect();
        if !refused.is_empty() {
            return Err(BenchError::Usage(format!(
                "--repeat {}: applies to deterministic built-in strategies only, not to {}; drop --repeat or run those strategies separately",
                cfg.repeat,
                refused.join(", "),
            )));
        }
    }
    Ok(())
}

/// Step 1: check the options and every path before anything is read or written.
pub fn preflight(cfg: &BenchConfig) -> Result<RunPaths, BenchError> {
    let usage = |m: String| Err(BenchError::Usage(m));
    if cfg.solvers.is_empty() {
        return usage("no strategy given".into());
    }
    if cfg.threads == 0 || cfg.threads > MAX_THREADS {
        return usage(format!(
            "--threads {}: expected 1 to {MAX_THREADS}",
            cfg.threads
        ));
    }
    check_repeat(cfg)?;
    if cfg.trace.is_some() && cfg.resume {
        return usage("--trace cannot be combined with --resume: traces of the earlier jobs were not kept; rerun without --resume".into());
    }
    // The dataset must be a regular file or a directory (a FIFO would block in `open`).
    dataset::dataset_files(&cfg.dataset)?;
    let output = cfg.output.clone().unwrap_or_else(|| default_output(cfg));
    let paths = RunPaths::new(&output, cfg.trace.as_deref());
    let data = resolved(&cfg.dataset);
    // Every path the run creates, temporaries included: each one gets the same check.
    let output_tmp = with_suffix(&paths.output, ".tmp");
    let trace_tmp = paths.trace.as_deref().map(|t| with_suffix(t, ".tmp"));
    let mut ours = vec![
        ("output", &paths.output),
        ("output's temporary file", &output_tmp),
        ("journal", &paths.journal),
        ("meta file", &paths.meta),
        ("in-progress meta file", &paths.journal_meta),
        ("lock file", &paths.lock),
    ];
    if let Some(t) = &trace_tmp {
        ours.push(("trace's temporary file", t));
    }
    if let Some(t) = &paths.trace {
        ours.push(("trace", t));
    }
    for (what, p) in &ours {
        check_writable(what, p)?;
        let r = resolved(p);
        if r == data || r.starts_with(&data) && data.is_dir() {
            return usage(format!(
                "{}: the {what} would be written {} the dataset {}; write results elsewhere",
                p.display(),
                if r == data { "over" } else { "inside" },
                cfg.dataset.display()
            ));
        }
    }
    if let Some(t) = &paths.trace {
        let rt = resolved(t);
        for (what, p) in &ours[..ours.len() - 1] {
            if resolved(p) == rt {
                return usage(format!(
                    "--trace {}: the same file as the run's {what}; choose another name",
                    t.display()
                ));
            }
        }
        check_trace_place(t, cfg.force)?;
    }
    if output.extension().is_some_and(|e| e == "json") || output.ends_with(".meta.json") {
        return usage(format!(
            "{}: looks like a meta file; give the results a .csv name",
            output.display()
        ));
    }
    if output.exists() && !cfg.force {
        return usage(format!(
            "{}: results already exist; choose another --output or add --force to overwrite",
            output.display()
        ));
    }
    check_meta_owner(&paths)?;
    check_memory(cfg)?;
    check_memory_limit(cfg)?;
    Ok(paths)
}

/// `--memory-limit` for built-ins: they run inside puzzlebench's own process, where no limit
/// can be put on one job, so what a job of each would hold ([`Solver::memory_estimate`]) is
/// checked against the limit before anything runs.
fn check_memory_limit(cfg: &BenchConfig) -> Result<(), BenchError> {
    let Some(limit) = cfg.memory_limit else {
        return Ok(());
    };
    let mib = |b: u64| b.div_ceil(1 << 20);
    for s in cfg.solvers.iter().filter(|s| !s.measures()) {
        let need = s.memory_estimate(cfg.trace.is_some());
        if need > limit {
            return Err(BenchError::Usage(format!(
                "--memory-limit {} MiB: a job of the built-in {} needs about {} MiB{}; raise the limit or lower --colony-size",
                mib(limit),
                s.name(),
                mib(need),
                if cfg.trace.is_some() { " with its trace" } else { "" },
            )));
        }
    }
    Ok(())
}

/// Refuse a plan whose workers would need more memory at once than the machine has free
/// (`MemAvailable`): it would be killed, or abort, part-way. Solvers declare what a job holds
/// ([`Solver::memory_estimate`]); each worker holds one job.
fn check_memory(cfg: &BenchConfig) -> Result<(), BenchError> {
    let Some((per_job, name)) = cfg
        .solvers
        .iter()
        .map(|s| (s.memory_estimate(cfg.trace.is_some()), s.name()))
        .max_by_key(|(m, _)| *m)
    else {
        return Ok(());
    };
    let need = per_job.saturating_mul(cfg.threads as u64);
    let Some(available) = mem_available() else {
        return Ok(());
    };
    if need <= available {
        return Ok(());
    }
    let mib = |b: u64| b.div_ceil(1 << 20);
    Err(BenchError::Usage(format!(
        "the plan needs about {} MiB at once ({} workers x {} MiB for a job of {name}{}), but this machine has {} MiB available; lower --threads or --colony-size{}",
        mib(need),
        cfg.threads,
        mib(per_job),
        if cfg.trace.is_some() { " with its trace" } else { "" },
        mib(available),
        if cfg.trace.is_some() { ", --max-cycles, or drop --trace" } else { "" },
    )))
}

/// Free memory as the kernel estimates it (`MemAvailable` of /proc/meminfo), where known.
fn mem_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// `X.csv` and `X` share the meta `X.meta.json` (and its lock): refuse an output whose sidecar
/// already serves another results file or another run's journal, even with `--force`, which
/// is about this output's own files, never another run's.
fn check_meta_owner(paths: &RunPaths) -> Result<(), BenchError> {
    for other in meta::sharing_meta(&paths.output) {
        let journal = journal_path(&other);
        // Only a results file (or a journal) owns a meta: a directory `out/x/` beside
        // `out/x.csv` is someone's crate or dataset, and writes no `out/x.meta.json`.
        let held = [&other, &journal].into_iter().find(|p| p.is_file());
        if let Some(held) = held {
            return Err(BenchError::Usage(format!(
                "{}: its meta file {} belongs to {} too ({} exists); choose another --output",
                paths.output.display(),
                paths.meta.display(),
                other.display(),
                held.display()
            )));
        }
    }
    Ok(())
}

/// The most worker threads a run may have.
pub const MAX_THREADS: usize = 1024;

/// Compare the meta of an interrupted run with this one; `Err` names the first difference.
fn check_resumable(old: &RunMeta, new: &RunMeta) -> Result<(), String> {
    if old.status == Some(RunStatus::DatasetChanged) {
        return Err(
            "cannot resume: the dataset changed under that run after some of its puzzles were solved, so its rows cannot be trusted; start over with --force".into(),
        );
    }
    fn show<T: std::fmt::Display>(v: &Option<T>) -> String {
        v.as_ref().map_or("none".into(), T::to_string)
    }
    let repeat = |m: &RunMeta| m.extra.get("repeat").map_or("1".into(), |v| v.to_string());
    let diffs: [(&str, String, String); 10] = [
        (
            "--solvers manifest contents",
            show(&old.solvers_manifest_hash),
            show(&new.solvers_manifest_hash),
        ),
        (
            "dataset contents",
            show(&old.dataset_hash),
            show(&new.dataset_hash),
        ),
        ("strategies", old.solvers.join(", "), new.solvers.join(", ")),
        ("--seed", show(&old.seed), show(&new.seed)),
        ("--seeds", show(&old.seeds), show(&new.seeds)),
        ("--colonies", show(&old.colonies), show(&new.colonies)),
        ("--timeout", show(&old.timeout_s), show(&new.timeout_s)),
        ("--repeat", repeat(old), repeat(new)),
        ("--shard", show(&old.shard), show(&new.shard)),
        (
            "optional columns",
            old.columns.map_or("none".into(), |c| c.names().join(", ")),
            new.columns.map_or("none".into(), |c| c.names().join(", ")),
        ),
    ];
    for (what, a, b) in diffs {
        if a != b {
            return Err(format!(
                "cannot resume: {what} differ from the interrupted run (was {a}, now {b})"
            ));
        }
    }
    if old.plan_hash != new.plan_hash {
        return Err(format!(
            "cannot resume: the plan differs from the interrupted run (plan {} vs {})",
            show(&old.plan_hash),
            show(&new.plan_hash)
        ));
    }
    Ok(())
}

/// `--resume` by another build, or against changed solver programs, is refused unless
/// `any_build` (`--resume-any-build`), which records what differed in `new`'s meta.
fn check_same_build(old: &RunMeta, new: &mut RunMeta, any_build: bool) -> Result<(), String> {
    let Some(build) = new.build.as_mut() else {
        return Ok(());
    };
    let diffs = match &old.build {
        None => vec![
            "the interrupted run's meta names no build (an older puzzlebench made it)".to_string(),
        ],
        Some(o) => build.differences(o),
    };
    if diffs.is_empty() {
        return Ok(());
    }
    let what = diffs.join("; ");
    if any_build {
        build.resumed_across = Some(what);
        return Ok(());
    }
    Err(format!(
        "cannot resume: the interrupted run was made by another build or ran other solver programs ({what}); \
         its rows and the new ones would not measure the same thing. Start over with --force, \
         or add --resume-any-build to continue anyway (the meta records it)"
    ))
}

/// Step 3: the meta describing this run.
fn run_meta(cfg: &BenchConfig, dataset: &Dataset, plan: &Plan, columns: Columns) -> RunMeta {
    RunMeta {
        tool: "puzzlebench".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        git_revision: meta::git_revision(),
        command_line: cfg.command_line.clone(),
        results_file: None,
        dataset: cfg.dataset.display().to_string(),
        dataset_name: Some(dataset.name.clone()),
        dataset_hash: Some(dataset.content_hash()),
        puzzles: Some(dataset.len()),
        strategies: cfg.solvers.iter().map(|s| s.name().to_string()).collect(),
        solvers: cfg
            .solvers
            .iter()
            .map(|s| crate::solver::config_id(s.as_ref()))
            .collect(),
        efforts: cfg
            .solvers
            .iter()
            .filter_map(|s| Some((s.name().to_string(), s.effort()?.to_string())))
            .collect(),
        solvers_manifest_hash: cfg.manifest_hash.clone(),
        columns: Some(columns),
        seed: Some(cfg.seed),
        seeds: Some(u64::from(cfg.seeds)),
        colonies: Some(u64::from(cfg.colonies)),
        timeout_s: cfg.timeout.map(|t| t.as_secs_f64()),
        node_limit: cfg.node_limit,
        threads: Some(cfg.threads as u64),
        shard: Some(cfg.shard),
        jobs_total: Some(plan.len()),
        jobs_in_shard: Some(plan.shard_len(cfg.shard)),
        plan_hash: Some(fingerprint(
            dataset,
            &cfg.solvers,
            cfg.seed,
            cfg.seeds,
            cfg.colonies,
        )),
        started: Some(meta::now_utc()),
        finished: None,
        status: Some(RunStatus::Running),
        jobs_done: Some(0),
        status_counts: BTreeMap::new(),
        machine: serde_json::to_value(Machine::current()).unwrap_or_default(),
        host_state: None,
        execution: None,
        datasets: Vec::new(),
        build: Some(BuildInfo {
            solvers: cfg.solver_builds.clone(),
            ..BuildInfo::current()
        }),
        // `repeat` has no field of its own in the meta; absent means 1.
        extra: (cfg.repeat > 1)
            .then(|| ("repeat".to_string(), serde_json::Value::from(cfg.repeat)))
            .into_iter()
            .chain(cfg.plan_file.as_ref().map(|(path, text)| {
                let plan = serde_json::json!({
                    "path": path,
                    "hash": crate::external::content_hash(text.as_bytes()),
                    "content": text,
                });
                ("plan".to_string(), plan)
            }))
            .collect(),
    }
}

/// The lock on a run's output, held until dropped; dropping it removes the lock file, so a
/// finished run leaves only its results and meta.
///
/// Removal keeps the one-writer guarantee because the file is removed while locked, and a
/// run that takes the lock checks that the path still names the file it locked
/// ([`lock_output`]): a run that opened the file just before its removal finds it gone and
/// opens the path again, so two runs never hold locks on two different files of one name.
pub(super) struct OutputLock {
    file: File,
    path: PathBuf,
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        if same_file(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether `path` names the file `file` has open (not a file created since another removed it).
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Step 4a: take the output's lock, or say who holds it.
pub(super) fn lock_output(paths: &RunPaths) -> Result<OutputLock, BenchError> {
    if let Some(dir) = paths.lock.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| BenchError::Io(format!("{}: cannot create: {e}", dir.display())))?;
    }
    let io = |e: std::io::Error| BenchError::Io(format!("{}: {e}", paths.lock.display()));
    let mut file = loop {
        let file = crate::results::write::open_target(
            "lock file",
            &paths.lock,
            crate::results::write::OpenMode::ReadWrite,
        )
        .map_err(|e| BenchError::Io(e.to_string()))?;
        match file.try_lock() {
            // The run that held it may have removed it between our open and our lock.
            Ok(()) if !same_file(&file, &paths.lock) => continue,
            Ok(()) => break file,
            Err(e) => break lock_refused(paths, e)?,
        }
    };
    file.set_len(0).map_err(io)?;
    writeln!(
        file,
        "pid {}, started {}",
        std::process::id(),
        meta::now_utc()
    )
    .map_err(io)?;
    Ok(OutputLock {
        file,
        path: paths.lock.clone(),
    })
}

/// Why the lock could not be taken: another run holds it (named from the lock's text), or
/// the error.
fn lock_refused(paths: &RunPaths, e: std::fs::TryLockError) -> Result<File, BenchError> {
    match e {
        std::fs::TryLockError::WouldBlock => {
            let holder = std::fs::read_to_string(&paths.lock).unwrap_or_default();
            let holder = holder.trim();
            Err(BenchError::Locked(format!(
                "{}: another bench-run is writing these results ({}); wait for it to end, or choose another --output",
                paths.output.display(),
                if holder.is_empty() { "holder unknown" } else { holder }
            )))
        }
        std::fs::TryLockError::Error(e) => {
            Err(BenchError::Io(format!("{}: {e}", paths.lock.display())))
        }
    }
}

/// The error of a run that failed part-way, with what the user can do: resume once a passing
/// cause is fixed, or not at all when the dataset changed (`--resume` refuses other
/// contents; `tainted`: puzzles of the changed file were solved, so its rows are suspect).
fn failed_run_error(e: &ExecuteError, tainted: bool, rows: u64, journal: &Path) -> BenchError {
    if tainted {
        return BenchError::Io(format!(
            "{e}; its rows cannot be trusted, so this run cannot be resumed: start a new run of \
             the same command with --force"
        ));
    }
    if matches!(
        e,
        ExecuteError::Dataset(dataset::DatasetError::Changed { .. })
    ) {
        return BenchError::Io(format!(
            "{e}; a run cannot be resumed against other contents: the {rows} finished rows so \
             far are kept in {}; put the dataset back as it was when the run started and run \
             the same command with --resume, or start a new run with --force",
            journal.display()
        ));
    }
    BenchError::Io(format!(
        "{e}; the {rows} finished rows so far are kept in {}; once the cause is fixed (e.g. disk \
         space freed), run the same command with --resume to finish the run",
        journal.display()
    ))
}

/// Where the run's workers will run (`--pin`): each its own CPUs (as many as its most
/// demanding solver declares, [`Solver::cpus`]) from the process's allowed set, distinct
/// physical cores first; unpinned, with a note saying why, when they cannot all be pinned or
/// the kernel will not pin; `Err` for `--pin on` when they cannot.
pub fn placement(cfg: &BenchConfig) -> Result<Placement, BenchError> {
    if cfg.pin == PinMode::Off {
        return Ok(Placement::default());
    }
    let allowed = match pin::allowed_cpus() {
        Ok(a) => a,
        Err(e) => {
            let note = format!("workers not pinned: cannot read the allowed CPUs: {e}");
            if cfg.pin == PinMode::On {
                return Err(BenchError::Usage(format!("--pin on: {note}")));
            }
            return Ok(Placement {
                note: Some(note),
                ..Placement::default()
            });
        }
    };
    let per_worker = cfg.solvers.iter().map(|s| s.cpus()).max().unwrap_or(1);
    let need = cfg.threads.saturating_mul(per_worker);
    let ordered = pin::by_core(&allowed, pin::sysfs_topology);
    let (ordered, free, claims) = pin::claim(&ordered, need, &pin::claims_dir());
    let mut p =
        pin::place(cfg.pin, cfg.threads, per_worker, &ordered, free).map_err(BenchError::Usage)?;
    if !p.workers.is_empty() {
        p.claims = claims;
    }
    // Ask the kernel once, on a thread of our own, before any worker relies on it.
    if let Some(first) = p.workers.first().cloned() {
        let probe = std::thread::spawn(move || pin::pin_current_thread(&first));
        let refused = match probe.join() {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e.to_string()),
            Err(_) => Some("the probe thread panicked".to_string()),
        };
        if let Some(e) = refused {
            let note = format!("workers not pinned: the kernel refused to pin a thread: {e}");
            if cfg.pin == PinMode::On {
                return Err(BenchError::Usage(format!("--pin on: {note}")));
            }
            p.workers.clear();
            p.note = Some(note);
        }
    }
    Ok(p)
}

/// Run a benchmark. `interrupt` stops handing out jobs when set (Ctrl-C); finished rows are kept.
pub fn bench(cfg: BenchConfig, interrupt: &AtomicBool) -> Result<BenchOutcome, BenchError> {
    let paths = preflight(&cfg)?;
    let placement = placement(&cfg)?;
    let dataset = Dataset::open(&cfg.dataset)?;
    let plan = Plan::new(&dataset, &cfg.solvers, cfg.seed, cfg.seeds, cfg.colonies)?;
    let columns = Columns {
        measured: cfg.columns.measured || cfg.solvers.iter().any(|s| s.measures()),
        repeats: cfg.columns.repeats || cfg.repeat > 1,
        // Every solve's CPU time; start-ups where a solver has a process to start.
        cpu: true,
        startup: cfg.columns.startup || cfg.solvers.iter().any(|s| s.measures()),
        // Why each job ended and what its solver claimed.
        outcome: true,
        ..cfg.columns
    }
    .canonical();
    let mut meta = run_meta(&cfg, &dataset, &plan, columns);
    meta.execution = Some(meta::Execution {
        order: "pair-groups".into(),
        layout: plan.layout(),
        warmup: meta::Warmup {
            per_worker: cfg.warmup,
            budget_s: super::run::WARMUP_BUDGET.as_secs_f64(),
            ..meta::Warmup::default()
        },
        pinning: meta::Pinning {
            mode: cfg.pin.as_str().into(),
            allowed: placement.allowed.clone(),
            workers: placement.workers.clone(),
            note: placement.note.clone(),
        },
        limits: meta::Limits {
            cpu_limit_s: cfg.cpu_limit.map(|d| d.as_secs_f64()),
            memory_limit_bytes: cfg.memory_limit,
            cpu_accounting: meta::CPU_ACCOUNTING_TREE.into(),
            memory_sample_ms: cfg
                .memory_limit
                .map(|_| crate::external::limits::SAMPLE_EVERY.as_secs_f64() * 1e3),
            cgroup: match crate::external::limits::detect_cgroup() {
                Ok(path) => {
                    format!("available ({path}); not used: limits are enforced by sampling")
                }
                Err(why) => format!("not available: {why}"),
            },
        },
    });
    meta.results_file = meta::results_file_name(&paths.output);
    let _lock = lock_output(&paths)?;
    // Again under the lock, which `X.csv` and `X` share: a run of the other name may have
    // started or finished since the preflight.
    check_meta_owner(&paths)?;
    // Under the lock, so that a second `--resume` while the first run is still creating its
    // journal is told about that run, not that there is nothing to resume.
    if cfg.resume && !paths.journal.exists() {
        return Err(BenchError::Usage(format!(
            "--resume: {} does not exist, so there is no interrupted run to continue for {}",
            paths.journal.display(),
            paths.output.display()
        )));
    }
    // Checked again under the lock: another run may have finished or started meanwhile.
    if !cfg.resume && paths.journal.exists() && !cfg.force {
        return Err(BenchError::Usage(format!(
            "{}: an interrupted run left its rows here; add --resume to continue it, or --force to start over",
            paths.journal.display()
        )));
    }
    let resumed = if cfg.resume {
        resume_state(
            &paths,
            &mut meta,
            (&cfg.solvers, &dataset, &plan),
            cfg.shard,
            cfg.resume_any_build,
        )?
    } else {
        Resumed::default()
    };
    // Rows are written as they come only when jobs run in plan order; otherwise the journal
    // is sorted at the end.
    let sort = (cfg.resume || !plan.runs_in_order()).then_some((plan.len(), cfg.shard));
    let writer = open_output(&paths, &meta, columns, cfg.resume, sort)?;
    execute_and_finish(
        &cfg, &dataset, &plan, &paths, meta, writer, resumed, interrupt, &placement,
    )
}

/// Step 3b (`--resume`): the interrupted run's meta must describe the same plan; then scan its
/// journal.
fn resume_state(
    paths: &RunPaths,
    meta: &mut RunMeta,
    (solvers, dataset, plan): (&[Box<dyn Solver>], &Dataset, &Plan),
    shard: Shard,
    any_build: bool,
) -> Result<Resumed, BenchError> {
    // Older versions kept the in-progress meta at the final meta's path.
    let old = read_meta_file(&paths.journal_meta)
        .or_else(|_| read_meta_file(&paths.meta))
        .map_err(|e| BenchError::Usage(format!("--resume: {e}")))?;
    check_same_build(&old, meta, any_build).map_err(BenchError::Usage)?;
    check_resumable(&old, meta).map_err(BenchError::Usage)?;
    meta.started = old.started;
    let identity = job_identity(solvers, dataset, plan)?;
    ResultWriter::resume_scan(
        &paths.output,
        plan.len(),
        &|j| plan.shard_contains(shard, j),
        &identity,
    )
    .map_err(BenchError::Usage)
}

/// What each job's row must say of itself, for checking a journal's rows: the dataset,
/// puzzle, strategy, rules, params, seed and colony the plan gives that job. The puzzles' ids
/// are read once (a resumed run only).
fn job_identity<'a>(
    solvers: &'a [Box<dyn Solver>],
    dataset: &'a Dataset,
    plan: &'a Plan,
) -> Result<impl Fn(&crate::results::Record) -> Result<(), String> + 'a, BenchError> {
    let mut ids: BTreeMap<dataset::PuzzleKind, Vec<String>> = BTreeMap::new();
    for p in dataset.puzzles(None) {
        let p = p?;
        ids.entry(p.kind()).or_default().push(p.id);
    }
    let params: Vec<_> = solvers.iter().map(|s| s.params()).collect();
    let rules: Vec<String> = solvers.iter().map(|s| s.capabilities().rules).collect();
    Ok(move |r: &crate::results::Record| {
        let job = plan.job(r.job);
        let solver = &solvers[job.strategy];
        let puzzle = ids
            .get(&job.kind)
            .and_then(|v| v.get(job.puzzle as usize))
            .map_or("?", String::as_str);
        let want = (
            dataset.name.as_str(),
            puzzle,
            solver.name(),
            rules[job.strategy].as_str(),
            &params[job.strategy],
            job.seed,
            job.colony,
        );
        let got = (
            r.dataset.as_str(),
            r.puzzle_id.as_str(),
            r.strategy.as_str(),
            r.rules.as_str(),
            &r.params,
            r.seed,
            r.colony,
        );
        if want == got {
            return Ok(());
        }
        Err(format!(
            "the row is for dataset {}, puzzle {}, strategy {} [{}] {}, seed {}, colony {}, but this plan's job {} is dataset {}, puzzle {}, strategy {} [{}] {}, seed {}, colony {}",
            got.0, got.1, got.2, got.3, got.4, got.5, got.6, r.job, want.0, want.1, want.2, want.3, want.4, want.5, want.6
        ))
    })
}

/// Step 4b: the in-progress meta beside the journal, then the journal itself.
fn open_output(
    paths: &RunPaths,
    meta: &RunMeta,
    columns: Columns,
    resume: bool,
    sort: Option<(u64, Shard)>,
) -> Result<ResultWriter, BenchError> {
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e: std::io::Error| BenchError::Io(format!("{}: {e}", p.display()))
    };
    write_meta(&paths.journal_meta, meta).map_err(|e| BenchError::Io(e.to_string()))?;
    ResultWriter::create(&paths.output, columns, resume, sort, paths.trace.as_deref()).map_err(
        |e| {
            // A fresh run that could not open its files has no rows: leave nothing behind that a
            // later run would take for an interrupted one (a `running` meta, an empty journal).
            if !resume {
                let tmp = |p: &Path| crate::harness::output::with_suffix(p, ".tmp");
                let mut ours = vec![paths.journal_meta.clone(), paths.journal.clone()];
                ours.push(tmp(&paths.output));
                ours.extend(paths.trace.as_deref().map(tmp));
                for p in ours {
                    let _ = std::fs::remove_file(p);
                }
            }
            // Our own refusals (a link or FIFO put there after the preflight) name their path.
            if e.get_ref().is_some_and(|inner| inner.is::<WriteError>()) {
                return BenchError::Io(e.to_string());
            }
            io(&paths.journal)(e)
        },
    )
}

/// What every job of the run is given besides its puzzle.
fn job_settings(cfg: &BenchConfig, dataset: &Dataset, columns: Columns) -> JobSettings {
    JobSettings {
        timeout: cfg.timeout,
        trace: cfg.trace.is_some(),
        repeat: cfg.repeat,
        columns,
        warmup: cfg.warmup,
        cpu_limit: cfg.cpu_limit,
        files: std::sync::Arc::new(
            dataset
                .files
                .iter()
                .map(|f| f.path.display().to_string())
                .collect(),
        ),
    }
}

/// Steps 5 and 6.
#[allow(clippy::too_many_arguments)]
fn execute_and_finish(
    cfg: &BenchConfig,
    dataset: &Dataset,
    plan: &Plan,
    paths: &RunPaths,
    mut meta: RunMeta,
    mut writer: ResultWriter,
    resumed: Resumed,
    interrupt: &AtomicBool,
    placement: &Placement,
) -> Result<BenchOutcome, BenchError> {
    let Resumed {
        done: done_before,
        mut counts,
    } = resumed;
    let already = done_before.len();
    let jobs = plan.shard_len(cfg.shard);
    let host = HostProbe::start();
    let progress = Progress::new(cfg.progress, jobs, already, &counts);
    let settings = job_settings(cfg, dataset, writer.columns());
    let pending = pending_jobs(plan, cfg.shard, done_before);
    let feed = JobFeed::new(dataset, plan, pending, jobs - already);
    let executed = execute(
        &dataset.name,
        &cfg.solvers,
        feed,
        &settings,
        cfg.threads,
        &placement.workers,
        interrupt,
        &mut writer,
        |b: &Batch| {
            for (s, n) in Status::ALL.iter().zip(b.counts) {
                if n > 0 {
                    *counts.entry(*s).or_default() += n;
                }
            }
            progress.finished(&b.counts);
        },
    );
    progress.clear();
    let io = |e: std::io::Error| BenchError::Io(format!("{}: {e}", paths.output.display()));
    let summary = match executed {
        Ok(s) => s,
        Err((e, finished)) => {
            // The rows so far stay in the journal, and the meta says the run failed rather
            // than still running. A `--resume` can continue once the cause is fixed, unless
            // the dataset changed after some of its puzzles were solved: those rows are suspect.
            let tainted = matches!(
                e,
                ExecuteError::Dataset(dataset::DatasetError::Changed {
                    after_use: true,
                    ..
                })
            );
            meta.status = Some(if tainted {
                RunStatus::DatasetChanged
            } else {
                RunStatus::Failed
            });
            meta.finished = Some(meta::now_utc());
            meta.host_state = Some(host.finish());
            meta.jobs_done = Some(already + finished);
            let _ = writer.abandon();
            let _ = write_meta(&paths.journal_meta, &meta);
            return Err(failed_run_error(
                &e,
                tainted,
                already + finished,
                &paths.journal,
            ));
        }
    };
    let done = already + summary.finished;
    let interrupted = done < jobs;
    record_execution(&mut meta, &summary);
    meta.finished = Some(meta::now_utc());
    meta.host_state = Some(host.finish());
    meta.jobs_done = Some(done);
    meta.status_counts = counts
        .iter()
        .map(|(s, n)| (s.as_str().to_string(), *n))
        .collect();
    let path = if interrupted {
        meta.status = Some(RunStatus::Interrupted);
        writer.abandon().map_err(io)?;
        write_meta(&paths.journal_meta, &meta).map_err(|e| BenchError::Io(e.to_string()))?;
        paths.journal.clone()
    } else {
        meta.status = Some(RunStatus::Complete);
        let p = writer.finish().map_err(io)?;
        // The final meta is written with the CSV; the in-progress one goes with the journal.
        write_meta(&paths.meta, &meta).map_err(|e| BenchError::Io(e.to_string()))?;
        let _ = std::fs::remove_file(&paths.journal_meta);
        p
    };
    Ok(BenchOutcome {
        path,
        interrupted,
        status_counts: counts,
        jobs,
        done,
        meta,
    })
}

/// What the workers did beside the jobs: warm-up solves, and a pinning the kernel refused.
fn record_execution(meta: &mut RunMeta, summary: &super::run::ExecuteSummary) {
    if let Some(e) = meta.execution.as_mut() {
        (e.warmup.solves, e.warmup.seconds) = summary.warmup;
        if let Some(why) = &summary.pin_failed {
            e.pinning.note = Some(why.clone());
        }
    }
}

/// The shard's jobs that have no row yet, in the order they run, with their pair groups.
fn pending_jobs(
    plan: &Plan,
    shard: Shard,
    done: JobSet,
) -> impl Iterator<Item = (u64, u64)> + Send {
    plan.schedule(shard)
        .filter(move |(j, _)| !done.contains(*j))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::read::read_results;

    /// A full disk mid-run: the error names the file, says the rows so far are kept and how
    /// to resume; the meta counts those rows; `--resume` then finishes the run.
    #[test]
    fn a_full_disk_keeps_the_rows_so_far_and_says_how_to_resume() {
        let dir = tempfile::tempdir().expect("tempdir");
        let data = dir.path().join("s.txt");
        let demo =
            "000260701680070090190004500820100040004602900050003028009300074040050036703018000";
        std::fs::write(&data, demo).expect("write");
        let out = dir.path().join("r.csv");
        let config = |resume: bool| {
            let opts = crate::builtin::SolverOptions::default();
            let solvers = crate::strategies::resolve("backtrack", &opts, None).expect("backtrack");
            let mut cfg = BenchConfig::new(&data, solvers);
            (cfg.output, cfg.threads, cfg.seeds, cfg.resume) = (Some(out.clone()), 1, 8000, resume);
            cfg
        };
        super::super::output::fault::fill_disk_after(&out, 2);
        let never = AtomicBool::new(false);
        let err = bench(config(false), &never).expect_err("the disk fills");
        let msg = err.to_string();
        let journal = paths_of(&out).journal;
        assert!(msg.contains(&format!("{}: ", journal.display())), "{msg}");
        assert!(msg.contains("No space left on device"), "{msg}");
        assert!(
            msg.contains("finished rows so far are kept in") && msg.contains("--resume"),
            "{msg}"
        );
        let kept = read_results(&journal).expect("journal reads").rows.len() as u64;
        assert!(kept > 0 && kept < 8000, "{kept}");
        let meta =
            crate::results::read::read_meta_file(&paths_of(&out).journal_meta).expect("meta");
        assert_eq!(meta.status, Some(RunStatus::Failed));
        assert_eq!(meta.jobs_done, Some(kept));
        assert!(msg.contains(&format!("the {kept} finished rows")), "{msg}");
        // Space is back (the fault fires once per registration): --resume completes the run.
        let done = bench(config(true), &never).expect("resume finishes");
        assert!(!done.interrupted);
        assert_eq!(read_results(&out).expect("csv").rows.len(), 8000);
    }

    fn paths_of(out: &Path) -> RunPaths {
        RunPaths::new(out, None)
    }
}
