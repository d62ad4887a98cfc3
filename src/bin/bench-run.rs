//! `bench-run`: run solvers over a dataset, one CSV row per job, summary on screen.
//! A thin front end: arguments become a validated `BenchConfig`, the library does the rest.

mod common;

use anyhow::{bail, Context, Result};
use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser};
use puzzlebench::builtin::{AbcGiven, SolverOptions, STRATEGY_NAMES};
use puzzlebench::external::manifest;
use puzzlebench::harness::{bench, BenchConfig, BenchError, BenchOutcome};
use puzzlebench::hitori::rules::Rules;
use puzzlebench::planfile::{Config as PlanConfig, DatasetTable, Entry, PlanFile, Setting};
use puzzlebench::report::input::{InputOptions, RunSet};
use puzzlebench::report::summary::{summarize_set, Detail, Format};
use puzzlebench::results::shard::ShardSpec;
use puzzlebench::results::{Columns, Status};
use puzzlebench::solver::{RunOption, Solver};
use puzzlebench::strategies::{resolve_sweep, MAX_SWEEP};
use puzzlebench::sudoku::abc::{AbcParams, Limit, Neighbourhood, MAX_COLONY_SIZE, MAX_CYCLES};
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

const EXAMPLES: &str = "\
Examples:
  bench-run --dataset datasets/hitori5 --strategy mrv,row
  bench-run --dataset datasets/sudoku-hard --strategy abc,abc-hybrid --seeds 20 --colonies 4
  bench-run --dataset corpus.txt --strategy backtrack --count-solutions 2 --output results/u.csv
  bench-run --dataset datasets/hitori10 --strategy mrv --shard 2/4 --output shard-2.csv
  bench-run --plan plans/colony-sweep.toml --dry-run
  bench-run --dataset datasets/hitori10 --strategy mrv --shard auto --output shard-$SLURM_ARRAY_TASK_ID.csv

Exit codes: 0 every job ran and no answer was wrong; 1 a row is `wrong` or `error`, or
writing failed; 2 bad input or options (nothing was run); 130 interrupted (resume with the
command printed).";

/// Benchmark constraint-puzzle solvers over a dataset: every answer independently verified,
/// one CSV row per job, a summary at the end.
#[derive(Parser, Debug, Clone)]
#[command(name = "bench-run", version, about, long_about = None, after_help = EXAMPLES)]
struct Args {
    /// Puzzle file, or directory of puzzle files (read in name order). Required, here or in
    /// the --plan file.
    #[arg(long, value_name = "PATH")]
    dataset: Option<PathBuf>,

    /// Benchmark definition (TOML, docs/running.md "Plan files"): options by their long
    /// names, `[[config]]` tables of configurations, lists as grids; one run. Flags given
    /// beside it override the file's values.
    #[arg(long, value_name = "FILE")]
    plan: Option<PathBuf>,

    /// Print the configurations, the job count and estimates of output size and time, and
    /// run nothing.
    #[arg(long)]
    dry_run: bool,

    /// Comma-separated strategies: Hitori `mrv`, `row`, `mrv-dyn`; Sudoku `abc`, `abc-hybrid`,
    /// `backtrack`, `abc-prop`, `restarts`; or names from the --solvers manifest. Each runs on the same puzzles of its
    /// kind. Required, here or in the --plan file.
    #[arg(long, value_name = "LIST")]
    strategy: Option<String>,

    /// TOML manifest of external solvers (programs speaking the line protocol of PROTOCOL.md);
    /// their names can then be used in --strategy.
    #[arg(long, value_name = "FILE")]
    solvers: Option<PathBuf>,

    /// Hitori propagation rules: `basic` (the article's two rules) or `full` (adds sandwich,
    /// adjacent-pair and cut-vertex reasoning). A comma list (`basic,full`) is a sweep.
    #[arg(
        long,
        default_value = "full",
        value_name = "RULES",
        value_delimiter = ','
    )]
    rules: Vec<Rules>,

    /// Worker threads, 1 to 1024 [default: the number of CPUs]. Rows do not depend on it.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = common::whole::<u16>(1, 1024))]
    threads: Option<u16>,

    /// Pin each worker thread to CPUs of its own (distinct physical cores first): `auto` pins
    /// when there are no more workers than allowed CPUs and otherwise runs unpinned with a
    /// note; `on` refuses a run that cannot be pinned; `off` never pins.
    #[arg(long, default_value = "auto", value_name = "MODE", value_parser = ["auto", "on", "off"])]
    pin: String,

    /// Unrecorded warm-up solves per worker and strategy before its first measured job (the
    /// job itself, within about 1 s per worker and strategy).
    #[arg(long, default_value_t = 1, value_name = "N", allow_negative_numbers = true, value_parser = common::whole::<u32>(0, 1000))]
    warmup: u32,

    /// Base seed; run j of a puzzle uses seed value SEED + j.
    #[arg(long, default_value_t = 0, value_name = "N", allow_negative_numbers = true, value_parser = common::whole::<u64>(0, u64::MAX))]
    seed: u64,

    /// Independent runs per puzzle (seed values SEED .. SEED+K-1).
    #[arg(long, default_value_t = 1, value_name = "K", allow_negative_numbers = true, value_parser = common::whole::<u32>(1, u32::MAX.into()))]
    seeds: u32,

    /// Independent ABC colonies per (puzzle, seed), one row each. A plan may hold at most
    /// 2^32 jobs (strategies x puzzles x seeds x colonies).
    #[arg(long, default_value_t = 1, value_name = "K", allow_negative_numbers = true, value_parser = common::whole::<u32>(1, u32::MAX.into()))]
    colonies: u32,

    /// Result CSV [default: results/DATASET_STRATEGIES_UTC-TIME.csv]. Never overwritten
    /// without --force; never a directory, a device or a path inside the dataset.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,

    /// No progress bar (it is also off when stderr is not a terminal).
    #[arg(long, short = 'q')]
    quiet: bool,

    /// Look for up to K solutions (2 proves uniqueness); adds a `solutions` column. A comma
    /// list (`1,2`) is a sweep.
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_delimiter = ',', value_parser = common::whole::<u32>(1, u32::MAX.into()))]
    count_solutions: Vec<u32>,

    /// Add a `solution` column: Hitori `#`/`.` mask or Sudoku 81 digits.
    #[arg(long)]
    record_solutions: bool,

    /// Search-node budget per job (Hitori, Sudoku backtrack); a job over it is a `timeout` row.
    /// It is part of the configuration (`node_limit` in `params`), so a comma list
    /// (`1000,100000`) is a sweep.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_delimiter = ',', value_parser = common::whole::<u64>(1, u64::MAX))]
    node_limit: Vec<u64>,

    /// Wall-clock budget per job in seconds (at least 0.001); a job that ends after it is a
    /// `timeout` row.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = common::parse_secs)]
    timeout: Option<Duration>,

    // Resource limits (issue 37), kept together.
    /// CPU-time budget per job in seconds (at least 0.001): a built-in's thread CPU time, an
    /// external solver's whole process tree (children and grandchildren included). A job
    /// that uses more is a `timeout` row with `ended_by` `cpu`. Either of --timeout and
    /// --cpu-limit may be given, or both.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = common::parse_secs)]
    cpu_limit: Option<Duration>,

    /// Memory limit on each external solver's process tree while it serves a job, e.g. 512M
    /// or 4G (at least 16M): a tree whose resident memory passes it is stopped, the job is a
    /// `memout` row, and the solver is restarted for the next job. For built-ins the plan's
    /// memory estimate is checked against it before the run.
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true, value_parser = puzzlebench::external::limits::parse_size)]
    memory_limit: Option<u64>,

    /// Solve each job R times and record the median wall time in `wall_s` (and R in a
    /// `repeats` column): steadier timings for microsecond jobs. Counters must be identical
    /// across the solves; --timeout applies to each. Deterministic built-in strategies only.
    #[arg(long, default_value_t = 1, value_name = "R", allow_negative_numbers = true, value_parser = common::whole::<u32>(1, 1000))]
    repeat: u32,

    // The ABC options and --rules take comma lists: a sweep, one configuration per point of
    // the lists' cross product (strategies that ignore an option run once), in one run.
    /// ABC colony size (food sources = half of it), an even number from 4 to 100000; default
    /// 100 for abc and abc-hybrid, 10 for abc-prop and restarts. A comma list (`20,50,100`) is
    /// a sweep.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_delimiter = ',', value_parser = common::whole::<usize>(4, MAX_COLONY_SIZE as u64))]
    colony_size: Vec<usize>,

    /// ABC abandonment limit: a number, or `adaptive` (15 + 5 * the source's conflicts);
    /// default 50 for abc and abc-hybrid, by order for abc-prop and restarts. A comma list
    /// (`20,adaptive`) is a sweep.
    #[arg(
        long,
        value_name = "N|adaptive",
        allow_negative_numbers = true,
        value_delimiter = ','
    )]
    limit: Vec<Limit>,

    /// ABC cycle budget per job; a colony that runs out is an `unsolved` row. Default 2000
    /// for abc and abc-hybrid; abc-prop and restarts are bounded by --timeout. A comma list
    /// is a sweep.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_delimiter = ',', value_parser = common::whole::<u64>(1, MAX_CYCLES))]
    max_cycles: Vec<u64>,

    /// ABC neighbour move: `box` (swap inside a box) or `cross-box` (swap across boxes in a
    /// line). A comma list is a sweep.
    #[arg(
        long,
        default_value = "box",
        value_name = "MOVE",
        value_delimiter = ','
    )]
    neighbourhood: Vec<Neighbourhood>,

    /// Write ABC's best conflicts per cycle per job to this long CSV.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,

    /// Run only the K-th of N slices of the plan (job j is in slice K iff j % N == K-1).
    /// `auto` takes K and N from a Slurm array task (SLURM_ARRAY_TASK_ID, _COUNT, _MIN; a
    /// stepped or gapped array is refused); `auto/N` takes K from a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX + 1). The slice taken is said on stderr; the environment is read
    /// only for these two forms.
    #[arg(long, value_name = "K/N|auto|auto/N")]
    shard: Option<ShardSpec>,

    /// Continue the interrupted run that wrote --output: run only its missing jobs.
    #[arg(long)]
    resume: bool,

    /// With --resume: continue even though the run was made by another build of puzzlebench
    /// or its external solvers' files changed (refused otherwise); the meta records it.
    #[arg(long, requires = "resume")]
    resume_any_build: bool,

    /// Overwrite existing results (and discard an interrupted run's rows).
    #[arg(long)]
    force: bool,

    /// Skip the end-of-run summary (`bench-report summary FILE` gives the same table later).
    /// The summary streams the rows back but keeps a few numbers per row for its medians and
    /// its like-with-like ratios, about 70 MB per million rows.
    #[arg(long)]
    no_summary: bool,
}

/// Refuse an option no selected strategy honours; name the ones that ignore it otherwise.
/// The flag(s) a user writes for a run option (the library's [`RunOption`] knows no CLI).
fn flag(option: RunOption) -> &'static str {
    match option {
        RunOption::NodeLimit => "--node-limit",
        RunOption::CountSolutions => "--count-solutions",
        RunOption::Trace => "--trace",
        RunOption::AbcParams => "--colony-size/--limit/--max-cycles/--neighbourhood",
        RunOption::Repeat => "--repeat",
    }
}

fn check_option(
    solvers: &[Box<dyn Solver>],
    option: RunOption,
    used: bool,
    plan: Option<&Loaded>,
) -> Result<()> {
    if !used {
        return Ok(());
    }
    let (honour, ignore): (Vec<&dyn Solver>, Vec<&dyn Solver>) = solvers
        .iter()
        .map(|s| s.as_ref())
        .partition(|s| s.capabilities().options.has(option));
    // A plan's value is a default for its configurations: when `--strategy` beside the plan
    // (or the plan's own tables) leave it nothing to apply to, it is set aside, not an error.
    // Given on the command line it is the user's request, and a request nothing honours is.
    let from_plan_only = plan.is_some_and(|p| {
        flag(option).split('/').all(|f| {
            let id = f.trim_start_matches("--").replace('-', "_");
            !p.cli_keys.contains(&id)
        })
    });
    if honour.is_empty() && from_plan_only {
        eprintln!(
            "bench-run: note: the plan's {} applies to no strategy in this run ({}); set aside",
            flag(option),
            names(&ignore)
        );
        return Ok(());
    }
    if honour.is_empty() {
        bail!(
            "{} does not apply to any strategy in this run ({})",
            flag(option),
            names(&ignore)
        );
    }
    if !ignore.is_empty() {
        eprintln!(
            "bench-run: note: {} applies to {} only, not to {}",
            flag(option),
            names(&honour),
            names(&ignore)
        );
    }
    Ok(())
}

fn names(s: &[&dyn Solver]) -> String {
    s.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
}

/// Refuse a value given twice in one option's list (it would make one configuration twice).
fn once<T: PartialEq + std::fmt::Debug>(flag: &str, values: &[T]) -> Result<()> {
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            bail!("{flag}: the value {v:?} is listed twice; each value of a sweep once");
        }
    }
    Ok(())
}

/// A swept option's points: each value given, or one point at the default (`None`).
fn points<T: Copy>(values: &[T]) -> Vec<Option<T>> {
    if values.is_empty() {
        vec![None]
    } else {
        values.iter().copied().map(Some).collect()
    }
}

/// The options' cross product, each point validated, before any solver is built.
fn sweep(args: &Args) -> Result<Vec<SolverOptions>> {
    once("--rules", &args.rules)?;
    once("--colony-size", &args.colony_size)?;
    once("--limit", &args.limit)?;
    once("--max-cycles", &args.max_cycles)?;
    once("--neighbourhood", &args.neighbourhood)?;
    once("--count-solutions", &args.count_solutions)?;
    once("--node-limit", &args.node_limit)?;
    // An option not given is one point at its default; each strategy knows whether a value
    // was given (abc-prop's own defaults differ from abc's).
    let given = AbcGiven {
        colony_size: !args.colony_size.is_empty(),
        limit: !args.limit.is_empty(),
        max_cycles: !args.max_cycles.is_empty(),
    };
    let (colony_sizes, limits, cycles) = (
        points(&args.colony_size),
        points(&args.limit),
        points(&args.max_cycles),
    );
    // The complete solvers' budgets are swept too: both are part of a configuration's
    // `params`, so each value is a configuration of its own.
    let (counts, node_limits) = (points(&args.count_solutions), points(&args.node_limit));
    let dflt = AbcParams::default();
    let size = [
        args.rules.len(),
        colony_sizes.len(),
        limits.len(),
        cycles.len(),
        args.neighbourhood.len(),
        counts.len(),
        node_limits.len(),
    ]
    .iter()
    .try_fold(1usize, |n, &k| n.checked_mul(k))
    .filter(|&n| n <= MAX_SWEEP);
    let Some(size) = size else {
        bail!("the option lists make more than {MAX_SWEEP} configurations; give fewer values");
    };
    let mut grid = Vec::with_capacity(size);
    for &rules in &args.rules {
        for &colony_size in &colony_sizes {
            for &limit in &limits {
                for &max_cycles in &cycles {
                    for &neighbourhood in &args.neighbourhood {
                        let (colony_size, limit, max_cycles) = (
                            colony_size.unwrap_or(dflt.colony_size),
                            limit.unwrap_or(dflt.limit),
                            max_cycles.unwrap_or(dflt.max_cycles),
                        );
                        let abc = AbcParams {
                            colony_size,
                            limit,
                            max_cycles,
                            neighbourhood,
                            presolve: false,
                        };
                        abc.validate().map_err(|e| {
                            anyhow::anyhow!(
                                "ABC parameters (--colony-size {colony_size}, --limit {}): {e}",
                                limit_text(limit)
                            )
                        })?;
                        for &count in &counts {
                            for &node_limit in &node_limits {
                                grid.push(SolverOptions {
                                    rules,
                                    max_solutions: count.unwrap_or(1),
                                    node_limit,
                                    abc,
                                    abc_given: given,
                                    memory_limit: args.memory_limit,
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(grid)
}

/// A `--plan` file as read: where it is, its text (for the meta), the checked file, and the
/// options of each of its configurations.
struct Loaded {
    path: PathBuf,
    text: String,
    /// Each `[[config]]`'s header line and its options: the file's top level, overridden by
    /// the configuration's own values, overridden by the command line.
    configs: Vec<(usize, Args)>,
    /// The options given on the command line (clap ids, `colony_size`), which the file's
    /// values do not replace.
    cli_keys: Vec<String>,
    /// The `[[dataset]]` tables, in file order (empty: the top level's one dataset).
    datasets: Vec<Segment>,
}

/// One part of a plan run over several datasets: a `[[dataset]]` table, or the
/// configurations of one dataset that agree on the options shaping their jobs
/// ([`puzzlebench::planfile::JOB_KEYS`]), as options.
#[derive(Clone, Debug)]
struct Segment {
    /// Where it is in the file, for messages (`the [[dataset]] at line 12`).
    place: String,
    /// The file's top level, overridden by the table's values, overridden by the command
    /// line.
    args: Args,
    /// Its configurations (its own `[[dataset.config]]` tables, else the top level's), each
    /// with its options as for [`Loaded::configs`].
    configs: Vec<(usize, Args)>,
}

/// The options of a configuration that shape its jobs and budgets, which every configuration
/// of one part shares.
fn job_options(a: &Args) -> impl PartialEq + std::fmt::Debug {
    (
        (
            a.seed,
            a.seeds,
            a.colonies,
            a.repeat,
            a.count_solutions.clone(),
        ),
        (a.node_limit.clone(), a.timeout, a.cpu_limit, a.memory_limit),
    )
}

/// A level's configurations as parts: one per set of job options, in the order each first
/// appears, each holding its configurations in file order. `level` is the level's own
/// options; a part's are those with its configurations' job options and strategies.
fn split_by_job_options(place: &str, level: &Args, configs: Vec<(usize, Args)>) -> Vec<Segment> {
    let mut parts: Vec<Segment> = Vec::new();
    for (line, a) in configs {
        match parts.iter_mut().find(|p| {
            p.configs
                .first()
                .is_some_and(|(_, b)| job_options(b) == job_options(&a))
        }) {
            Some(p) => p.configs.push((line, a)),
            None => parts.push(Segment {
                place: String::new(),
                args: level.clone(),
                configs: vec![(line, a)],
            }),
        }
    }
    let split = parts.len() > 1;
    for p in &mut parts {
        let Some((_, first)) = p.configs.first() else {
            continue;
        };
        p.place = if split {
            let lines: Vec<String> = p.configs.iter().map(|(l, _)| l.to_string()).collect();
            format!(
                "{place}, the [[config]] at line{} {}",
                if lines.len() > 1 { "s" } else { "" },
                lines.join(", ")
            )
        } else {
            place.to_string()
        };
        let a = &mut p.args;
        (a.seed, a.seeds, a.colonies, a.repeat) =
            (first.seed, first.seeds, first.colonies, first.repeat);
        (a.count_solutions, a.node_limit, a.timeout) = (
            first.count_solutions.clone(),
            first.node_limit.clone(),
            first.timeout,
        );
        (a.cpu_limit, a.memory_limit) = (first.cpu_limit, first.memory_limit);
        let names: Vec<&str> = (p.configs.iter())
            .filter_map(|(_, c)| c.strategy.as_deref())
            .collect();
        a.strategy = Some(names.join(","));
    }
    if parts.is_empty() {
        parts.push(Segment {
            place: place.to_string(),
            args: level.clone(),
            configs: Vec::new(),
        });
    }
    parts
}

/// Top-level configurations that differ in their job options run as parts of their own;
/// when they agree, the run's options are their job options (a `count-solutions` every table
/// sets adds the `solutions` column, as the flag does) and there are no parts.
fn top_level_parts(args: &mut Args, configs: &[(usize, Args)]) -> Vec<Segment> {
    let mut parts = split_by_job_options("the top level", args, configs.to_vec());
    if parts.len() > 1 {
        return parts;
    }
    if let Some(one) = parts.pop() {
        *args = one.args;
    }
    Vec::new()
}

/// A plan entry as `bench-run` arguments.
fn push_entry(argv: &mut Vec<OsString>, e: &Entry) {
    argv.push(format!("--{}", e.key).into());
    if let Setting::Value(v) = &e.setting {
        argv.push(v.into());
    }
}

/// The first line of a clap error, without its `error: ` prefix.
fn clap_message(e: &clap::Error) -> String {
    let text = e.to_string();
    let line = text.lines().next().unwrap_or("");
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

/// Every value of the file through the option parser, one by one, so a bad one is named with
/// its line.
fn check_entries(file: &PlanFile, shown: &str) -> Result<()> {
    let nested = (file.datasets.iter())
        .flat_map(|d| (d.options.iter()).chain(d.configs.iter().flat_map(|c| c.options.iter())));
    for e in (file.run.iter())
        .chain(file.configs.iter().flat_map(|c| c.options.iter()))
        .chain(nested)
    {
        let mut argv: Vec<OsString> = vec!["bench-run".into()];
        push_entry(&mut argv, e);
        for (k, placeholder) in [("dataset", "-"), ("strategy", "-")] {
            if e.key != k {
                argv.extend([format!("--{k}").into(), placeholder.into()]);
            }
        }
        Args::try_parse_from(argv).map_err(|err| {
            anyhow::anyhow!(
                "{shown}, line {}: `{}`: {}",
                e.line,
                e.key,
                clap_message(&err)
            )
        })?;
    }
    Ok(())
}

/// The options: the command line, and with `--plan` the file's values under it (a flag given
/// on the command line wins). Every value of the file goes through the same parser as a flag,
/// one by one first, so a bad one is named with its line.
fn load_args() -> Result<(Args, Option<Loaded>)> {
    let matches = Args::command().get_matches();
    let cli = Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let Some(path) = cli.plan.clone() else {
        return Ok((cli, None));
    };
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("--plan {}: cannot read it", path.display()))?;
    let shown = path.display().to_string();
    let file = PlanFile::parse(&shown, &text)?;
    let on_cli =
        |key: &str| matches.value_source(&key.replace('-', "_")) == Some(ValueSource::CommandLine);
    check_entries(&file, &shown)?;
    let rest: Vec<OsString> = std::env::args_os().skip(1).collect();
    // The narrowest level wins: a configuration's value over its dataset's over the top
    // level's, and the command line over all of them.
    let argv = |dataset: Option<&DatasetTable>, config: Option<&PlanConfig>| {
        let by_config = |k: &str| config.is_some_and(|c| c.options.iter().any(|e| e.key == k));
        let by_dataset = |k: &str| dataset.is_some_and(|d| d.options.iter().any(|e| e.key == k));
        let mut v: Vec<OsString> = vec!["bench-run".into()];
        for e in (file.run.iter())
            .filter(|e| !on_cli(&e.key) && !by_dataset(&e.key) && !by_config(&e.key))
        {
            push_entry(&mut v, e);
        }
        for e in (dataset.iter().flat_map(|d| d.options.iter())).filter(|e| {
            !on_cli(&e.key) && !by_config(&e.key) && (config.is_none() || e.key != "strategy")
        }) {
            push_entry(&mut v, e);
        }
        if let Some(c) = config {
            for e in c.options.iter().filter(|e| !on_cli(&e.key)) {
                push_entry(&mut v, e);
            }
            v.extend(["--strategy".into(), c.strategy.clone().into()]);
        }
        v.extend(rest.iter().cloned());
        v
    };
    let parse = |v: Vec<OsString>| {
        Args::try_parse_from(v).map_err(|e| anyhow::anyhow!("--plan {shown}: {}", clap_message(&e)))
    };
    // Each level's configurations as options, and the `--strategy` list they make.
    let configs_of = |dataset: Option<&DatasetTable>, tables: &[PlanConfig], args: &mut Args| {
        let mut configs = Vec::new();
        if on_cli("strategy") {
            return Ok(configs);
        }
        for c in tables {
            configs.push((c.line, parse(argv(dataset, Some(c)))?));
        }
        if !configs.is_empty() {
            let names: Vec<&str> = tables.iter().map(|c| c.strategy.as_str()).collect();
            args.strategy = Some(names.join(","));
        }
        Ok::<_, anyhow::Error>(configs)
    };
    let tables = file.configs.len() + file.datasets.iter().map(|d| d.configs.len()).sum::<usize>();
    if on_cli("strategy") && tables > 0 {
        eprintln!("bench-run: note: --strategy replaces the {tables} [[config]] tables of {shown}");
    }
    let mut args = parse(argv(None, None))?;
    let configs = configs_of(None, &file.configs, &mut args)?;
    let mut datasets = Vec::new();
    if on_cli("dataset") && !file.datasets.is_empty() {
        eprintln!(
            "bench-run: note: --dataset replaces the {} [[dataset]] tables of {shown}",
            file.datasets.len()
        );
    } else {
        for d in &file.datasets {
            let mut a = parse(argv(Some(d), None))?;
            // A table with its own `strategy` list or configurations uses them; else the
            // top level's configurations are its.
            let own_strategy = d.options.iter().any(|e| e.key == "strategy");
            let tables = if d.configs.is_empty() && !own_strategy {
                &file.configs
            } else {
                &d.configs
            };
            let configs = configs_of(Some(d), tables, &mut a)?;
            let place = format!("the [[dataset]] at line {}", d.line);
            datasets.extend(split_by_job_options(&place, &a, configs));
        }
    }
    if datasets.is_empty() && !configs.is_empty() {
        datasets = top_level_parts(&mut args, &configs);
    }
    let cli_keys = matches
        .ids()
        .filter(|id| matches.value_source(id.as_str()) == Some(ValueSource::CommandLine))
        .map(|id| id.as_str().to_string())
        .collect();
    Ok((
        args,
        Some(Loaded {
            path,
            text,
            configs,
            cli_keys,
            datasets,
        }),
    ))
}

/// The options points of a run and the solvers they make.
type Configurations = (Vec<SolverOptions>, Vec<Box<dyn Solver>>);

/// The solvers of a plan's `[[config]]` tables, in file order, each table's grid resolved
/// as a command-line sweep; a configuration two tables both make is refused.
fn plan_solvers(p: &Loaded, manifest: Option<(&std::path::Path, &str)>) -> Result<Configurations> {
    let mut grid = Vec::new();
    let mut solvers: Vec<Box<dyn Solver>> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (line, a) in &p.configs {
        let at = || format!("{}, the [[config]] at line {line}", p.path.display());
        let strategy = a.strategy.as_deref().unwrap_or_default();
        let g = sweep(a).with_context(at)?;
        for s in resolve_sweep(strategy, &g, manifest).with_context(at)? {
            let id = puzzlebench::solver::config_id(s.as_ref());
            if let Some(prev) = seen.insert(id.clone(), *line) {
                bail!(
                    "{}: the [[config]] at line {line} makes {id} again (the one at line {prev} makes it); each configuration once",
                    p.path.display()
                );
            }
            solvers.push(s);
        }
        grid.extend(g);
    }
    Ok((grid, solvers))
}

/// Bytes a results row takes, about: measured on `sudoku-medium` rows of `abc-hybrid`
/// (365,675 bytes for 1,500 rows on 2026-12-06), Hitori rows being shorter; a recorded
/// solution adds its cells.
const ROW_BYTES: u64 = 250;

/// `--dry-run`: what the run would be, and nothing run; the jobs it would run.
fn dry_run(cfg: &BenchConfig) -> Result<u64> {
    use puzzlebench::dataset::Dataset;
    use puzzlebench::harness::plan::Plan;
    let dataset = Dataset::open(&cfg.dataset)?;
    let plan = Plan::new(&dataset, &cfg.solvers, cfg.seed, cfg.seeds, cfg.colonies)?;
    let jobs = plan.shard_len(cfg.shard);
    let mut out = format!(
        "{} configurations on {} ({} puzzles):\n",
        cfg.solvers.len(),
        dataset.name,
        dataset.len()
    );
    for s in &cfg.solvers {
        out.push_str(&format!(
            "  {}\n",
            puzzlebench::solver::config_id(s.as_ref())
        ));
    }
    out.push_str(&format!(
        "jobs: {jobs}{} (seeds {}, colonies {}, repeat {})\n",
        if jobs == plan.len() {
            String::new()
        } else {
            format!(" of the plan's {} (shard {})", plan.len(), cfg.shard)
        },
        cfg.seeds,
        cfg.colonies,
        cfg.repeat
    ));
    let solution = if cfg.columns.solution {
        " plus the recorded solutions"
    } else {
        ""
    };
    out.push_str(&format!(
        "output: about {:.1} MB of rows ({ROW_BYTES} bytes a row{solution})\n",
        (jobs * ROW_BYTES) as f64 / 1e6
    ));
    out.push_str(&match cfg.timeout.or(cfg.cpu_limit) {
        Some(t) => format!(
            "time: at most about {:.0} s (every job at its {:.3} s budget, {} time{}, on {} workers; warm-up aside)\n",
            jobs as f64 * t.as_secs_f64() * f64::from(cfg.repeat) / cfg.threads as f64,
            t.as_secs_f64(),
            cfg.repeat,
            if cfg.repeat == 1 { "" } else { "s" },
            cfg.threads
        ),
        None => "time: no bound (no --timeout or --cpu-limit: a job runs until it ends or meets its node or cycle budget)\n".to_string(),
    });
    let per_job = (cfg.solvers.iter())
        .map(|s| s.memory_estimate(cfg.trace.is_some()))
        .max()
        .unwrap_or(0);
    out.push_str(&format!(
        "memory: about {} MiB for the solvers' jobs ({} workers at the largest estimate, {} KiB)\n",
        (per_job * cfg.threads as u64).div_ceil(1 << 20),
        cfg.threads,
        per_job.div_ceil(1024)
    ));
    out.push_str("nothing was run (--dry-run)\n");
    common::print(&out);
    Ok(jobs)
}

fn limit_text(l: Limit) -> String {
    match l {
        Limit::Fixed(n) => n.to_string(),
        Limit::Adaptive => "adaptive".into(),
    }
}

/// The run's trace: a plan's `trace` set aside (no strategy of this part traces) writes no
/// file for the part.
fn traced(args: &Args, solvers: &[Box<dyn Solver>]) -> Option<std::path::PathBuf> {
    let any = solvers
        .iter()
        .any(|s| s.capabilities().options.has(RunOption::Trace));
    args.trace.clone().filter(|_| any)
}

fn config(args: &Args, plan: Option<&Loaded>) -> Result<BenchConfig> {
    // First, so that a task started outside its array fails before anything is loaded.
    let shard = match args.shard {
        Some(spec) => Some(
            spec.resolve(|var| std::env::var_os(var).map(|v| v.to_string_lossy().into_owned()))?,
        ),
        None => None,
    };
    let Some(dataset) = &args.dataset else {
        bail!("--dataset is required (on the command line, or as `dataset` in a --plan file)");
    };
    let Some(strategy) = &args.strategy else {
        bail!("--strategy is required (on the command line, or in a --plan file as `strategy` or [[config]] tables)");
    };
    // Read once: the solvers and the meta's hash come from the same bytes.
    let manifest = match &args.solvers {
        Some(p) => Some((p.as_path(), manifest::read_text(p)?)),
        None => None,
    };
    let manifest_ref = manifest.as_ref().map(|(p, t)| (*p, t.as_str()));
    let (grid, solvers) = match plan.filter(|p| !p.configs.is_empty()) {
        None => {
            let grid = sweep(args)?;
            let solvers = resolve_sweep(strategy, &grid, manifest_ref)?;
            (grid, solvers)
        }
        Some(p) => plan_solvers(p, manifest_ref)?,
    };
    let manifest_hash = manifest
        .as_ref()
        .map(|(_, text)| puzzlebench::external::content_hash(text.as_bytes()));
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    check_descriptors(&solvers, threads)?;
    let solver_builds = solver_builds(args, &solvers, manifest_hash.as_deref())?;
    check_option(
        &solvers,
        RunOption::NodeLimit,
        !args.node_limit.is_empty(),
        plan,
    )?;
    check_option(
        &solvers,
        RunOption::CountSolutions,
        !args.count_solutions.is_empty(),
        plan,
    )?;
    check_option(&solvers, RunOption::Trace, args.trace.is_some(), plan)?;
    let abc_set = grid
        .iter()
        .any(|o| o.abc != AbcParams::default() || o.abc_given != AbcGiven::default());
    check_option(&solvers, RunOption::AbcParams, abc_set, plan)?;
    if args.colonies > 1 && !solvers.iter().any(|s| s.randomised()) {
        bail!(
            "--colonies applies to randomised strategies (abc, abc-hybrid, abc-prop, restarts) only, and --strategy {strategy} has none"
        );
    }
    let mut cfg = BenchConfig::new(dataset.clone(), solvers);
    cfg.plan_file = plan.map(|p| (p.path.display().to_string(), p.text.clone()));
    cfg.seed = args.seed;
    cfg.seeds = args.seeds;
    cfg.colonies = args.colonies;
    if let Some(t) = args.threads {
        cfg.threads = usize::from(t);
    }
    cfg.timeout = args.timeout;
    cfg.repeat = args.repeat;
    // The meta's one budget; a sweep's values are in each configuration's `params`.
    cfg.node_limit = match args.node_limit[..] {
        [n] => Some(n),
        _ => None,
    };
    cfg.output = args.output.clone();
    cfg.columns = Columns {
        solutions: !args.count_solutions.is_empty(),
        solution: args.record_solutions,
        ..Columns::default()
    };
    cfg.trace = traced(args, &cfg.solvers);
    if let Some(s) = &shard {
        cfg.shard = s.shard;
        if !s.from.is_empty() {
            // In a cluster log this line is what ties the task to its slice.
            eprintln!(
                "bench-run: --shard {}: running slice {} (from {})",
                args.shard.map_or(String::new(), |a| a.to_string()),
                s.shard,
                s.sources()
            );
        }
    }
    cfg.resume = args.resume;
    cfg.force = args.force;
    cfg.progress = !args.quiet;
    cfg.command_line = common::command_line();
    cfg.manifest_hash = manifest_hash;
    cfg.solver_builds = solver_builds;
    cfg.resume_any_build = args.resume_any_build;
    cfg.warmup = args.warmup;
    cfg.cpu_limit = args.cpu_limit;
    cfg.memory_limit = args.memory_limit;
    set_pinning(&mut cfg, &args.pin)?;
    Ok(cfg)
}

/// `--pin`, checked before the run; a note on why the workers run unpinned is said once here
/// (the meta records it too).
fn set_pinning(cfg: &mut BenchConfig, pin: &str) -> Result<()> {
    cfg.pin = pin
        .parse()
        .map_err(|e: String| anyhow::anyhow!("--pin: {e}"))?;
    let placed = puzzlebench::harness::bench::placement(cfg).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(note) = placed.note {
        eprintln!("bench-run: note: {note}");
    }
    Ok(())
}

/// Refuses a `--threads` whose external solver processes cannot all have their pipes under
/// the descriptor limit (already raised to the hard limit), with the numbers.
fn check_descriptors(solvers: &[Box<dyn Solver>], threads: usize) -> Result<()> {
    use puzzlebench::external::process::{nofile_limit, FDS_BASE, FDS_PER_PROCESS};
    let external = solvers.iter().filter(|s| s.measures()).count() as u64;
    if external == 0 {
        return Ok(());
    }
    let Ok((soft, hard)) = nofile_limit() else {
        return Ok(());
    };
    // Descriptors already open (inherited ones included) are not available to the run.
    let open_now = std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count() as u64);
    let base = FDS_BASE + open_now;
    let per_thread = external * FDS_PER_PROCESS;
    let need = base + threads as u64 * per_thread;
    if need > soft {
        let most = soft.saturating_sub(base) / per_thread;
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        // The advice is something the user can do: a thread count that fits both the limit
        // and the CPUs the run may use, or (when not even one thread fits) a limit to set.
        let advice = if most >= 1 {
            format!(
                "use --threads {} (the most that fit both the limit and the {cpus} CPU(s) \
                 this process may use), or raise the limit to {need} (`ulimit -n {need}`; \
                 above the hard limit only root can)",
                most.min(cpus)
            )
        } else {
            let one = base + per_thread;
            format!(
                "not even --threads 1 fits (it needs about {one}): raise the limit to at \
                 least {one} (`ulimit -n {one}`; above the hard limit only root can)"
            )
        };
        bail!(
            "--threads {threads} needs about {need} open files for its {external} external \
             solver(s) ({per_thread} a thread, {base} for the run), but the limit is {soft} \
             (hard limit {hard}); {advice}",
        );
    }
    Ok(())
}

/// Each external solver's provenance (its `command` files' hashes) for the meta.
fn solver_builds(
    args: &Args,
    solvers: &[Box<dyn Solver>],
    manifest_hash: Option<&str>,
) -> Result<std::collections::BTreeMap<String, puzzlebench::results::meta::SolverBuild>> {
    let mut out = std::collections::BTreeMap::new();
    let Some(path) = &args.solvers else {
        return Ok(out);
    };
    let specs = puzzlebench::external::manifest::load(path, &[])?;
    for spec in specs {
        if !solvers.iter().any(|s| s.name() == spec.name) {
            continue;
        }
        let files = puzzlebench::external::command_files(&spec);
        let build = puzzlebench::results::meta::SolverBuild {
            manifest_hash: manifest_hash.map(str::to_string),
            files,
        };
        out.insert(spec.name, build);
    }
    Ok(out)
}

/// The command that finishes an interrupted run: rebuilt from the parsed options (so `-oFILE`,
/// `--output=FILE` or an earlier `--resume` give a valid command), with the output the run
/// actually wrote and without `--force` (which would discard the rows kept). `--shard auto`
/// becomes the slice it resolved to, so the command also works after the array task is gone
/// (on a login node, or in a new task whose variables differ).
fn resume_command(outcome: &BenchOutcome, output: String) -> String {
    let mut cmd = Vec::new();
    let mut args = outcome.meta.command_line.iter().peekable();
    if let Some(program) = args.next() {
        cmd.push(program.clone());
    }
    while let Some(a) = args.next() {
        // `--trace` too: traces are not resumable (`--resume` refuses it).
        if a == "--output" || a == "-o" || a == "--trace" {
            args.next();
            continue;
        }
        if let Some(shard) = outcome.meta.shard {
            if a == "--shard" {
                args.next();
                cmd.extend(["--shard".to_string(), shard.to_string()]);
                continue;
            }
            if a.starts_with("--shard=") {
                cmd.push(format!("--shard={shard}"));
                continue;
            }
        }
        let dropped = a.starts_with("--output=")
            || a.starts_with("--trace=")
            || (a.starts_with("-o") && a.len() > 2)
            || a == "--resume"
            || a == "--force";
        if !dropped {
            cmd.push(a.clone());
        }
    }
    cmd.extend(["--output".to_string(), output, "--resume".to_string()]);
    cmd.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Quote an argument for a POSIX shell where it needs it.
fn shell_quote(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+%@".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// Ctrl-C / SIGTERM: the first stops handing out jobs (running ones stop at their next
/// budget check); a second exits at once. Rows already on disk are whole lines either way.
fn install_interrupt() -> Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    let presses = Arc::new(AtomicU32::new(0));
    let f = flag.clone();
    // At a terminal the progress bar owns the current line: clear it (and the echoed `^C`)
    // before the message, so the bar is redrawn below it instead of being left on screen twice.
    let fresh_line = if std::io::stderr().is_terminal() {
        "\r\x1b[2K"
    } else {
        "\n"
    };
    ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) >= 1 {
            eprintln!("{fresh_line}bench-run: second interrupt, exiting now");
            std::process::exit(130);
        }
        eprintln!(
            "{fresh_line}bench-run: interrupted; finishing running jobs (interrupt again to exit now)"
        );
        f.store(true, Ordering::SeqCst);
    })
    .context("cannot install the Ctrl-C handler")?;
    Ok(flag)
}

fn run() -> Result<ExitCode> {
    let (args, plan) = match load_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bench-run: error: {}", common::error_text(&e));
            return Ok(ExitCode::from(2));
        }
    };
    // External solvers: what they leave behind is adopted here and ended, and each worker's
    // pipes have the descriptors they need (the solvers get the original limit back).
    if let Err(e) = puzzlebench::external::become_subreaper() {
        eprintln!("bench-run: note: cannot adopt what external solvers leave behind: {e}");
    }
    if let Err(e) = puzzlebench::external::raise_nofile_limit() {
        eprintln!("bench-run: note: cannot raise the open-file limit: {e}");
    }
    if let Some(p) = plan.as_ref().filter(|p| !p.datasets.is_empty()) {
        return run_datasets(&args, p);
    }
    let cfg = match config(&args, plan.as_ref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("bench-run: error: {}", common::error_text(&e));
            return Ok(ExitCode::from(2));
        }
    };
    if args.dry_run {
        return match dry_run(&cfg) {
            Ok(_) => Ok(ExitCode::SUCCESS),
            Err(e) => {
                eprintln!("bench-run: error: {}", common::error_text(&e));
                Ok(ExitCode::from(2))
            }
        };
    }
    let interrupt = install_interrupt()?;
    let outcome = bench(cfg, &interrupt);
    // Anything a solver left behind that is still here ends with the run.
    puzzlebench::external::sweep_orphans(Duration::from_secs(1));
    finish(&args, outcome, None)
}

/// A plan with `[[dataset]]` tables: one configuration per dataset, run as one
/// ([`puzzlebench::harness::datasets`]).
fn run_datasets(args: &Args, plan: &Loaded) -> Result<ExitCode> {
    let mut cfgs = Vec::new();
    for (i, seg) in plan.datasets.iter().enumerate() {
        let view = Loaded {
            path: plan.path.clone(),
            text: plan.text.clone(),
            configs: seg.configs.clone(),
            cli_keys: plan.cli_keys.clone(),
            datasets: Vec::new(),
        };
        match config(&seg.args, Some(&view)) {
            Ok(c) => cfgs.push(c),
            Err(e) => {
                eprintln!(
                    "bench-run: error: {}, {} (part {} of {}): {}",
                    plan.path.display(),
                    seg.place,
                    i + 1,
                    plan.datasets.len(),
                    common::error_text(&e)
                );
                return Ok(ExitCode::from(2));
            }
        }
    }
    if let Err(e) = same_jobs_twice(plan, &cfgs) {
        eprintln!("bench-run: error: {}: {e}", plan.path.display());
        return Ok(ExitCode::from(2));
    }
    if args.dry_run {
        let mut jobs = 0;
        for (i, cfg) in cfgs.iter().enumerate() {
            common::print(&format!(
                "part {} of {} ({}):\n",
                i + 1,
                cfgs.len(),
                plan.datasets[i].place
            ));
            match dry_run(cfg) {
                Ok(n) => jobs += n,
                Err(e) => {
                    eprintln!("bench-run: error: {}", common::error_text(&e));
                    return Ok(ExitCode::from(2));
                }
            }
        }
        let distinct: std::collections::BTreeSet<_> = cfgs.iter().map(|c| &c.dataset).collect();
        common::print(&format!(
            "in all: {jobs} jobs in {} parts over {} dataset{}, one results file of about {:.1} MB\n",
            cfgs.len(),
            distinct.len(),
            if distinct.len() == 1 { "" } else { "s" },
            (jobs * ROW_BYTES) as f64 / 1e6
        ));
        return Ok(ExitCode::SUCCESS);
    }
    let output = args.output.clone().unwrap_or_else(|| {
        let stem = plan
            .path
            .file_stem()
            .map_or("plan".into(), |s| s.to_string_lossy());
        let stamp = puzzlebench::results::meta::now_utc().replace([':', '-'], "");
        let shard = cfgs
            .first()
            .filter(|c| c.shard.count > 1)
            .map_or(String::new(), |c| {
                format!("_shard{}of{}", c.shard.index, c.shard.count)
            });
        PathBuf::from("results").join(format!("{stem}_{}{shard}.csv", stamp.trim_end_matches('Z')))
    });
    let interrupt = install_interrupt()?;
    let outcome = puzzlebench::harness::datasets::bench_datasets(
        cfgs,
        &output,
        args.force,
        args.resume,
        &interrupt,
    );
    puzzlebench::external::sweep_orphans(Duration::from_secs(1));
    finish(args, outcome, Some(&output))
}

/// Refuse a plan whose parts would run one job twice: the same configuration on the same
/// dataset with overlapping seeds (two `[[dataset]]` tables, or job options that split one).
fn same_jobs_twice(plan: &Loaded, cfgs: &[BenchConfig]) -> std::result::Result<(), String> {
    match puzzlebench::harness::datasets::overlapping_jobs(cfgs) {
        None => Ok(()),
        Some((i, j, s)) => Err(format!(
            "{} and {} both run {} on {} with seeds in common, so its jobs would run twice; \
             give one of them other seeds or another configuration",
            plan.datasets[i].place,
            plan.datasets[j].place,
            s.trim_end(),
            cfgs[i].dataset.display()
        )),
    }
}

/// Say how the run ended: the interruption and how to resume, or the summary; the exit code.
/// `output` is the run's CSV where the outcome's path is not it (a run over several datasets,
/// interrupted, names its parts directory).
fn finish(
    args: &Args,
    outcome: Result<BenchOutcome, BenchError>,
    output: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let outcome = match outcome {
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
        eprintln!(
            "bench-run: interrupted after {} of {} jobs; the finished rows are in {}",
            outcome.done,
            outcome.jobs,
            outcome.path.display()
        );
        let to = output.map_or_else(
            || {
                (outcome.path.to_string_lossy())
                    .trim_end_matches(".partial")
                    .to_string()
            },
            |p| p.display().to_string(),
        );
        eprintln!(
            "bench-run: to finish the run: {}",
            resume_command(&outcome, to)
        );
        return Ok(ExitCode::from(130));
    }
    if args.no_summary {
        common::print(&format!("results: {}\n", outcome.path.display()));
        return Ok(exit_code(&outcome.status_counts));
    }
    // The run's file read back as `bench-report summary` reads it (one input layer, one
    // table), so the end-of-run summary is the report's, figure for figure.
    let set = RunSet::open(std::slice::from_ref(&outcome.path), InputOptions::default())?;
    let (summary, _) = summarize_set(&set, Detail::default(), Vec::new())?;
    common::print(&summary.render(Format::Text));
    common::print(&format!("results: {}\n", outcome.path.display()));
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
    // Keep the strategy list in --help in step with the registry.
    debug_assert!(STRATEGY_NAMES.len() == 8);
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bench-run: error: {}", common::error_text(&e));
            ExitCode::from(2)
        }
    }
}
