//! One benchmark run from a validated configuration to finished files: load, plan, check the
//! output (never overwrite, resume only the same plan), run, write, and describe the run in
//! its `.meta.json`. `bench-run` is a thin front end over [`bench()`].

use super::meta::{self, Machine, RunMeta};
use super::output::{journal_path, ResultWriter, Resumed};
use super::plan::{fingerprint, Plan, Shard};
use super::record::{Columns, Status};
use super::run::{execute, ExecuteError, JobFeed, JobResult, JobSettings};
use super::Solver;
use crate::dataset::{self, Dataset};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Everything a run needs, validated.
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
    /// Per-job time budget.
    pub timeout: Option<Duration>,
    /// Per-job node budget (recorded in the meta; the solvers carry it).
    pub node_limit: Option<u64>,
    /// Output CSV; `None` picks `results/<dataset>_<strategies>_<time>.csv`.
    pub output: Option<PathBuf>,
    /// Optional columns.
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
}

/// Why a run could not start or finish. All are the user's to fix, except `Io` during the run.
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

fn default_output(dataset: &Dataset, solvers: &[Box<dyn Solver>], shard: Shard) -> PathBuf {
    let names: Vec<&str> = solvers.iter().map(|s| s.name()).collect();
    let stamp = meta::now_utc().replace([':', '-'], "");
    let shard = if shard.count > 1 {
        format!("_shard{}of{}", shard.index, shard.count)
    } else {
        String::new()
    };
    PathBuf::from("results").join(format!(
        "{}_{}_{}{}.csv",
        dataset.name,
        names.join("+"),
        stamp.trim_end_matches('Z'),
        shard
    ))
}

/// The meta status of a run stopped because its dataset changed under it.
const CHANGED: &str = "dataset-changed";

/// Compare the meta of an interrupted run with this one; `Err` names the first difference.
fn check_resumable(old: &RunMeta, new: &RunMeta) -> Result<(), String> {
    if old.status.as_deref() == Some(CHANGED) {
        return Err(
            "cannot resume: the dataset changed under that run after some of its puzzles were solved, so its rows cannot be trusted; start over with --force".into(),
        );
    }
    let show = |v: &dyn std::fmt::Debug| format!("{v:?}");
    let diffs: [(&str, String, String); 8] = [
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
        ("--shard", show(&old.shard), show(&new.shard)),
        (
            "optional columns",
            format!("{:?}", old.columns),
            format!("{:?}", new.columns),
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

/// Run a benchmark. `interrupt` stops handing out jobs when set (Ctrl-C); finished rows are kept.
pub fn bench(cfg: BenchConfig, interrupt: &AtomicBool) -> Result<BenchOutcome, BenchError> {
    let dataset = Dataset::open(&cfg.dataset)?;
    let plan = Plan::new(&dataset, &cfg.solvers, cfg.seed, cfg.seeds, cfg.colonies)?;
    let plan_hash = fingerprint(&dataset, &cfg.solvers, cfg.seed, cfg.seeds, cfg.colonies);
    let output = cfg
        .output
        .clone()
        .unwrap_or_else(|| default_output(&dataset, &cfg.solvers, cfg.shard));
    let meta_path = meta::meta_path(&output);
    let journal = journal_path(&output);
    if cfg.trace.is_some() && cfg.resume {
        return Err(BenchError::Usage(
            "--trace cannot be combined with --resume: traces of the earlier jobs were not kept; rerun without --resume".into(),
        ));
    }
    if output.exists() && !cfg.force {
        return Err(BenchError::Usage(format!(
            "{}: results already exist; choose another --output or add --force to overwrite",
            output.display()
        )));
    }
    if let Some(t) = cfg.trace.as_ref().filter(|t| t.exists() && !cfg.force) {
        return Err(BenchError::Usage(format!(
            "{}: trace file already exists; choose another --trace or add --force",
            t.display()
        )));
    }
    if cfg.resume && !journal.exists() {
        return Err(BenchError::Usage(format!(
            "--resume: {} does not exist, so there is no interrupted run to continue for {}",
            journal.display(),
            output.display()
        )));
    }
    if !cfg.resume && journal.exists() && !cfg.force {
        return Err(BenchError::Usage(format!(
            "{}: an interrupted run left its rows here; add --resume to continue it, or --force to start over",
            journal.display()
        )));
    }

    let jobs = plan.shard_len(cfg.shard);
    let mut meta = RunMeta {
        tool: "puzzlebench".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        git_revision: meta::git_revision(),
        command_line: cfg.command_line.clone(),
        dataset: cfg.dataset.display().to_string(),
        dataset_name: Some(dataset.name.clone()),
        dataset_hash: Some(dataset.content_hash()),
        puzzles: Some(dataset.len()),
        strategies: cfg.solvers.iter().map(|s| s.name().to_string()).collect(),
        solvers: cfg
            .solvers
            .iter()
            .map(|s| format!("{} [{}] {}", s.name(), s.rules(), s.params()))
            .collect(),
        columns: Some(cfg.columns),
        seed: Some(cfg.seed),
        seeds: Some(u64::from(cfg.seeds)),
        colonies: Some(u64::from(cfg.colonies)),
        timeout_s: cfg.timeout.map(|t| t.as_secs_f64()),
        node_limit: cfg.node_limit,
        threads: Some(cfg.threads as u64),
        shard: Some(cfg.shard),
        jobs_total: Some(plan.len()),
        jobs_in_shard: Some(jobs),
        plan_hash: Some(plan_hash),
        started: Some(meta::now_utc()),
        finished: None,
        status: Some("running".into()),
        jobs_done: Some(0),
        status_counts: BTreeMap::new(),
        machine: serde_json::to_value(Machine::current()).unwrap_or_default(),
        extra: serde_json::Map::new(),
    };

    let Resumed {
        done: done_before,
        mut counts,
    } = if cfg.resume {
        let old = meta::read(&meta_path).map_err(BenchError::Usage)?;
        check_resumable(&old, &meta).map_err(BenchError::Usage)?;
        meta.started = old.started;
        ResultWriter::resume_scan(&output, plan.len(), cfg.shard).map_err(BenchError::Usage)?
    } else {
        Resumed::default()
    };
    let already = done_before.len();

    let io = |e: std::io::Error| BenchError::Io(format!("{}: {e}", output.display()));
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    meta::write(&meta_path, &meta).map_err(io)?;
    let mut writer = ResultWriter::create(
        &output,
        cfg.columns,
        cfg.resume.then_some((plan.len(), cfg.shard)),
        cfg.trace.as_deref(),
    )
    .map_err(io)?;

    let bar = if cfg.progress && std::io::stderr().is_terminal() {
        let bar = ProgressBar::with_draw_target(Some(jobs), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} jobs {per_sec} ETA {eta} {msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_position(already);
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut solved = counts.get(&Status::Solved).copied().unwrap_or(0);
    let settings = JobSettings {
        timeout: cfg.timeout,
        trace: cfg.trace.is_some(),
    };
    let feed = JobFeed::new(
        &dataset,
        &plan,
        plan.shard_jobs(cfg.shard)
            .filter(move |j| !done_before.contains(*j)),
    );
    let executed = execute(
        &dataset.name,
        &cfg.solvers,
        feed,
        &settings,
        cfg.threads,
        interrupt,
        &mut writer,
        |r: &JobResult| {
            if let Some(s) = r.record.status {
                *counts.entry(s).or_default() += 1;
                if s == Status::Solved {
                    solved += 1;
                }
            }
            bar.inc(1);
            bar.set_message(format!("solved {solved}"));
        },
    );
    bar.finish_and_clear();
    let summary = match executed {
        Ok(s) => s,
        Err(e) => {
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
            meta.status = Some(if tainted { CHANGED } else { "failed" }.into());
            meta.finished = Some(meta::now_utc());
            let _ = writer.abandon();
            let _ = meta::write(&meta_path, &meta);
            return Err(BenchError::Io(e.to_string()));
        }
    };

    let done = already + summary.finished;
    let interrupted = done < jobs;
    meta.finished = Some(meta::now_utc());
    meta.jobs_done = Some(done);
    meta.status_counts = counts
        .iter()
        .map(|(s, n)| (s.as_str().to_string(), *n))
        .collect();
    let path = if interrupted {
        meta.status = Some("interrupted".into());
        writer.abandon().map_err(io)?;
        journal
    } else {
        meta.status = Some("complete".into());
        writer.finish().map_err(io)?
    };
    meta::write(&meta_path, &meta).map_err(io)?;
    Ok(BenchOutcome {
        path,
        interrupted,
        status_counts: counts,
        jobs,
        done,
        meta,
    })
}
