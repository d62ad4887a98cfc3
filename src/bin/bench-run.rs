//! `bench-run`: run solvers over a dataset, one CSV row per job, summary on screen.
//! A thin front end: arguments become a validated `BenchConfig`, the library does the rest.

use anyhow::{bail, Context, Result};
use clap::Parser;
use puzzlebench::harness::bench::{bench, BenchConfig, BenchError};
use puzzlebench::harness::plan::Shard;
use puzzlebench::harness::record::{Columns, Status};
use puzzlebench::harness::Solver;
use puzzlebench::report::summary::{Format, SummaryBuilder, SummaryOptions};
use puzzlebench::solvers::{abc_params, parse_strategies, SolverOptions};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Benchmark constraint-puzzle solvers over a dataset: every answer independently verified,
/// one CSV row per job, a summary at the end.
#[derive(Parser, Debug)]
#[command(name = "bench-run", version, about, long_about = None)]
struct Args {
    /// Puzzle file, or directory of puzzle files (read in name order).
    #[arg(long, value_name = "PATH")]
    dataset: PathBuf,

    /// Comma-separated strategies: Hitori `mrv`, `row`; Sudoku `abc`, `abc-hybrid`, `backtrack`.
    /// Each runs on the same puzzles of its kind.
    #[arg(long, value_name = "LIST")]
    strategy: String,

    /// Hitori propagation rules: `basic` (the article's two rules) or `full` (adds sandwich,
    /// adjacent-pair and cut-vertex reasoning).
    #[arg(long, default_value = "full", value_name = "RULES")]
    rules: String,

    /// Worker threads [default: the number of CPUs]. Rows do not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// Base seed; run j of a puzzle uses seed value SEED + j.
    #[arg(long, default_value_t = 0, value_name = "N")]
    seed: u64,

    /// Independent runs per puzzle (seed values SEED .. SEED+K-1).
    #[arg(long, default_value_t = 1, value_name = "K")]
    seeds: u32,

    /// Independent ABC colonies per (puzzle, seed), one row each.
    #[arg(long, default_value_t = 1, value_name = "K")]
    colonies: u32,

    /// Result CSV [default: results/DATASET_STRATEGIES_UTC-TIME.csv]. Never overwritten
    /// without --force.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,

    /// No progress bar (it is also off when stderr is not a terminal).
    #[arg(long, short = 'q')]
    quiet: bool,

    /// Look for up to K solutions (2 proves uniqueness); adds a `solutions` column.
    #[arg(long, value_name = "K")]
    count_solutions: Option<u32>,

    /// Add a `solution` column: Hitori `#`/`.` mask or Sudoku 81 digits.
    #[arg(long)]
    record_solutions: bool,

    /// Search-node budget per job (Hitori, Sudoku backtrack); a job over it is a `timeout` row.
    #[arg(long, value_name = "N")]
    node_limit: Option<u64>,

    /// Wall-clock budget per job in seconds; a job over it is a `timeout` row.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,

    /// ABC colony size (food sources = half of it).
    #[arg(long, default_value_t = 100, value_name = "N")]
    colony_size: usize,

    /// ABC abandonment limit: a number, or `adaptive` (15 + 5 * the source's conflicts).
    #[arg(long, default_value = "50", value_name = "N|adaptive")]
    limit: String,

    /// ABC cycle budget per job; a colony that runs out is an `unsolved` row.
    #[arg(long, default_value_t = 2000, value_name = "N")]
    max_cycles: u64,

    /// ABC neighbour move: `box` (swap inside a box) or `cross-box` (swap across boxes in a line).
    #[arg(long, default_value = "box", value_name = "MOVE")]
    neighbourhood: String,

    /// Write ABC's best conflicts per cycle per job to this long CSV.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,

    /// Run only the K-th of N slices of the plan (job j is in slice K iff j % N == K-1).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,

    /// Continue the interrupted run that wrote --output: run only its missing jobs.
    #[arg(long)]
    resume: bool,

    /// Overwrite existing results (and discard an interrupted run's rows).
    #[arg(long)]
    force: bool,

    /// Skip the end-of-run summary (`bench-report summary FILE` gives the same table later).
    /// The summary streams the rows back but keeps two numbers per row for its medians, about
    /// 16 MB per million rows.
    #[arg(long)]
    no_summary: bool,
}

fn config(args: &Args) -> Result<BenchConfig> {
    let positive = |flag: &str, v: Option<u64>| -> Result<()> {
        if v == Some(0) {
            bail!("{flag} must be at least 1, found 0");
        }
        Ok(())
    };
    positive("--count-solutions", args.count_solutions.map(u64::from))?;
    positive("--node-limit", args.node_limit)?;
    positive("--threads", args.threads.map(|t| t as u64))?;
    positive("--max-cycles", Some(args.max_cycles))?;
    let timeout = match args.timeout {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => Some(Duration::from_secs_f64(t)),
        Some(t) => bail!("--timeout must be a positive number of seconds, found {t}"),
    };
    let rules = args
        .rules
        .parse()
        .map_err(|_| anyhow::anyhow!("--rules {:?}: expected \"basic\" or \"full\"", args.rules))?;
    let abc = abc_params(
        args.colony_size,
        &args.limit,
        args.max_cycles,
        &args.neighbourhood,
    )
    .map_err(anyhow::Error::msg)?;
    let opts = SolverOptions {
        rules,
        max_solutions: args.count_solutions.unwrap_or(1),
        node_limit: args.node_limit,
        abc,
    };
    let specs = parse_strategies(&args.strategy, &opts).map_err(anyhow::Error::msg)?;
    let has_abc = specs.iter().any(|s| s.is_randomised());
    if args.trace.is_some() && !has_abc {
        bail!(
            "--trace records ABC convergence, but no ABC strategy is in --strategy {}",
            args.strategy
        );
    }
    if args.colonies > 1 && !has_abc {
        bail!(
            "--colonies applies to ABC strategies only, and --strategy {} has none",
            args.strategy
        );
    }
    let shard: Shard = match &args.shard {
        Some(s) => s.parse().map_err(anyhow::Error::msg)?,
        None => Shard::default(),
    };
    let solvers: Vec<Box<dyn Solver>> = specs
        .into_iter()
        .map(|s| Box::new(s) as Box<dyn Solver>)
        .collect();
    Ok(BenchConfig {
        dataset: args.dataset.clone(),
        solvers,
        seed: args.seed,
        seeds: args.seeds,
        colonies: args.colonies,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        timeout,
        node_limit: args.node_limit,
        output: args.output.clone(),
        columns: Columns {
            solutions: args.count_solutions.is_some(),
            solution: args.record_solutions,
        },
        trace: args.trace.clone(),
        shard,
        resume: args.resume,
        force: args.force,
        progress: !args.quiet,
        command_line: std::env::args().collect(),
    })
}

/// Ctrl-C / SIGTERM: the first stops handing out jobs (running ones stop at their next
/// budget check); a second exits at once. Rows already on disk are whole lines either way.
fn install_interrupt() -> Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    let presses = Arc::new(AtomicU32::new(0));
    let f = flag.clone();
    ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) >= 1 {
            eprintln!("\nbench-run: second interrupt, exiting now");
            std::process::exit(130);
        }
        eprintln!("\nbench-run: interrupted; finishing running jobs (interrupt again to exit now)");
        f.store(true, Ordering::SeqCst);
    })
    .context("cannot install the Ctrl-C handler")?;
    Ok(flag)
}

fn run() -> Result<ExitCode> {
    let args = Args::parse();
    let no_summary = args.no_summary;
    let cfg = match config(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("bench-run: error: {e:#}");
            return Ok(ExitCode::from(2));
        }
    };
    let interrupt = install_interrupt()?;
    let outcome = match bench(cfg, &interrupt) {
        Ok(o) => o,
        Err(e @ BenchError::Io(_)) => {
            eprintln!("bench-run: error: {e}");
            return Ok(ExitCode::from(1));
        }
        Err(e) => {
            eprintln!("bench-run: error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if outcome.interrupted {
        let mut cmd: Vec<String> = outcome.meta.command_line.clone();
        if !cmd
            .iter()
            .any(|a| a == "--output" || a == "-o" || a.starts_with("--output="))
        {
            cmd.push("--output".into());
            cmd.push(outcome.path.with_extension("").display().to_string());
        }
        cmd.push("--resume".into());
        eprintln!(
            "bench-run: interrupted after {} of {} jobs; the finished rows are in {}",
            outcome.done,
            outcome.jobs,
            outcome.path.display()
        );
        eprintln!("bench-run: to finish the run: {}", cmd.join(" "));
        return Ok(ExitCode::from(130));
    }
    if no_summary {
        puzzlebench::cli::print(&format!("results: {}\n", outcome.path.display()));
        return Ok(exit_code(&outcome.status_counts));
    }
    // Streamed: the summary keeps a few numbers per row, never the rows.
    let mut builder = SummaryBuilder::default();
    puzzlebench::report::io::for_each_result(&outcome.path, |r| {
        builder.add(&r);
        Ok(())
    })?;
    let opts = SummaryOptions {
        time_limit_s: outcome.meta.timeout_s,
        time_limit_note: outcome
            .meta
            .timeout_s
            .is_none()
            .then(|| "the run had no --timeout".to_string()),
    };
    puzzlebench::cli::print(&builder.finish(&opts).render(Format::Text));
    puzzlebench::cli::print(&format!("results: {}\n", outcome.path.display()));
    Ok(exit_code(&outcome.status_counts))
}

/// 1 when any row is `wrong` or `error`, else 0.
fn exit_code(counts: &std::collections::BTreeMap<Status, u64>) -> ExitCode {
    let bad = [Status::Wrong, Status::Error]
        .iter()
        .map(|s| counts.get(s).copied().unwrap_or(0))
        .sum::<u64>();
    if bad > 0 {
        eprintln!("bench-run: {bad} job(s) ended `wrong` or `error`; see the message column");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bench-run: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
