//! `bench-report`: summaries, baseline comparison, plots and shard merging from saved
//! `bench-run` CSVs. A thin front end: parse the command line, open the inputs through
//! [`RunSet`] (the one reading every report shares), run the report from
//! `puzzlebench::report`, write through the one [`OutputGuard`].
//!
//! Exit codes: 0 success; 1 `compare` found a regression; 2 bad input (unreadable or
//! malformed file, merge refused) or usage error.

mod common;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use puzzlebench::report::ab::{self, AbFormat, AbOptions, Selector};
use puzzlebench::report::describe::convergence_groups;
use puzzlebench::report::filter::RowFilter;
use puzzlebench::report::gate::{gate, Band};
use puzzlebench::report::history::{self, History, HistoryFormat};
use puzzlebench::report::html::{self, HtmlOptions};
use puzzlebench::report::input::{InputOptions, RunSet};
use puzzlebench::report::merge::{check_gaps, merge_stream, MergeInput};
use puzzlebench::report::summary::{summarize_set, Detail, Format};
use puzzlebench::report::{export, plot};
use puzzlebench::results::counters::metric_name;
use puzzlebench::results::meta::meta_path;
use puzzlebench::results::read::read_trace;
use puzzlebench::results::write::OutputGuard;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  bench-report summary results/run.csv --format markdown
  bench-report ab results/run.csv --a strategy=mrv --b strategy=row
  bench-report compare results/baseline results/nightly --times warn --markdown-out report.md
  bench-report plot results/run.csv --out plots/
  bench-report html results/nightly --baseline results/baseline --out report/
  bench-report html results/run.csv --ab strategy=mrv:strategy=row --out report/
  bench-report merge shard-*.csv --output all.csv
  bench-report history results/nightly --format json

Exit codes: 0 success; 1 `compare` found a regression; 2 bad input or usage.";

#[derive(Parser)]
#[command(
    name = "bench-report",
    version,
    about = "Summaries, A/B comparisons, baseline checks, plots and shard merging for bench-run results",
    after_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// How a report reads its inputs (every report but `merge`).
#[derive(Args, Clone)]
struct Input {
    /// Only rows meeting every comma-separated term: key=value (text; `*` matches any
    /// characters) or key=N, key<N, key<=N, key>N, key>=N (seed, colony, wall_s, cpu_s,
    /// off_path, counters), e.g. `size=25x25,status=solved` or `puzzle_id=gen*,nodes>=10`.
    #[arg(long = "where", value_name = "TERMS")]
    filter: Option<RowFilter>,
    /// Count a job met in more than one input file every time (by default the same job
    /// twice, e.g. two runs of one plan in one directory, is refused with the files named).
    #[arg(long)]
    allow_duplicates: bool,
}

impl Input {
    fn options(&self, time_limit: Option<f64>) -> InputOptions {
        InputOptions {
            filter: self.filter.clone(),
            allow_duplicates: self.allow_duplicates,
            time_limit,
        }
    }

    fn open(&self, paths: &[PathBuf], time_limit: Option<f64>) -> Result<RunSet> {
        let set = RunSet::open(paths, self.options(time_limit))?;
        for n in set.notes() {
            eprintln!("bench-report: note: {n}");
        }
        Ok(set)
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Per-strategy table: runs, solved, nodes or cycles, wall time, PAR-2, ratios.
    Summary {
        /// Results CSVs (or directories of them).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output format: text, markdown, csv or json.
        #[arg(long, default_value = "text")]
        format: Format,
        /// Per-job time limit in seconds for PAR-2 (default: the metas' timeout_s when every
        /// file has a meta and they agree).
        #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = common::non_negative)]
        time_limit: Option<f64>,
        #[command(flatten)]
        input: Input,
        /// Add each counter's (and off_path's, wall_s's) runs, sum, mean, min, p10, median,
        /// p90 and max per group.
        #[arg(long)]
        counters: bool,
        /// Add best-of-K portfolios of colonies per group, e.g. `--best-of 1,2,4,8,16`.
        #[arg(long, value_name = "K,...", value_delimiter = ',', allow_negative_numbers = true, value_parser = common::whole::<u32>(1, u32::MAX.into()))]
        best_of: Vec<u32>,
        /// ABC trace CSV (bench-run --trace): add per-cycle convergence; repeatable.
        #[arg(long, value_name = "FILE")]
        trace: Vec<PathBuf>,
    },
    /// Compare a new run with a baseline; exit 1 on a regression.
    Compare(CompareArgs),
    /// A/B: two configurations on the same runs, with intervals and paired tests.
    Ab {
        /// Results CSVs (or directories of them) holding both configurations.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Side A: comma-separated key=value over strategy, rules or one params key.
        #[arg(long, value_name = "SELECTOR")]
        a: Selector,
        /// Side B, likewise (e.g. --a strategy=mrv --b strategy=row).
        #[arg(long, value_name = "SELECTOR")]
        b: Selector,
        /// Name for side A in tables and verdicts (default: its strategy, plus the rules and
        /// parameters that tell the sides apart).
        #[arg(long, value_name = "NAME")]
        a_label: Option<String>,
        /// Name for side B, likewise.
        #[arg(long, value_name = "NAME")]
        b_label: Option<String>,
        /// Output format.
        #[arg(long, default_value = "text")]
        format: AbFormat,
        /// Per-job time limit in seconds for PAR-2/PAR-10 (default: as `summary`).
        #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = common::non_negative)]
        time_limit: Option<f64>,
        /// Also compare these on the pairs both solved: counters, timing columns or keys of
        /// an external solver's stats (e.g. --metric guesses,evaluations).
        #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
        metric: Vec<String>,
        #[command(flatten)]
        input: Input,
    },
    /// SVG plots: cactus, nodes/cycles distributions, ABC convergence.
    Plot {
        /// Results CSVs (or directories of them).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Directory for the SVGs (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// ABC trace CSV (bench-run --trace) for the convergence plot.
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        /// Draw the run-length distribution of this counter, timing column or stats key
        /// instead of each strategy's effort.
        #[arg(long, value_name = "NAME")]
        metric: Option<String>,
        #[command(flatten)]
        input: Input,
        /// Replace SVGs that already exist in the directory.
        #[arg(long)]
        force: bool,
    },
    /// One self-contained HTML page: metadata, summary, plots, A/B, convergence, baseline.
    Html(HtmlArgs),
    /// Runs of one plan in start-time order: per group one point per run (never pooled),
    /// marked where `compare` against the run before finds a change.
    #[command(after_help = HISTORY_HELP)]
    History {
        /// Runs: each a results CSV (with its .meta.json) or a directory of them; a directory
        /// holding no CSV but subdirectories that do (NIGHTLY_OUT) stands for those, one run each.
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// Output format: text, markdown or json.
        #[arg(long, default_value = "text")]
        format: HistoryFormat,
        #[command(flatten)]
        band: BandArgs,
        #[command(flatten)]
        input: Input,
    },
    /// Merge shard CSVs into one run, refusing duplicates and mixed plans.
    Merge {
        /// Shard CSVs (each with its .meta.json).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Merged CSV to write (its .meta.json is written beside it).
        #[arg(long, value_name = "FILE")]
        output: PathBuf,
        /// Write the merged file even when jobs of the plan are missing.
        #[arg(long)]
        allow_missing: bool,
        /// Overwrite an existing output.
        #[arg(long)]
        force: bool,
    },
}

/// `bench-report html` options.
#[derive(Args)]
struct HtmlArgs {
    /// Results CSVs (or directories of them).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Directory for index.html (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Baseline CSV or directory for the comparison section.
    #[arg(long, value_name = "DIR")]
    baseline: Option<PathBuf>,
    /// A/B pair `A:B`, each a selector as in `ab` (e.g. strategy=mrv:strategy=row);
    /// repeatable. Default: every two strategies run with the same rules on a dataset.
    #[arg(long, value_name = "A:B", value_parser = html::parse_pair)]
    ab: Vec<(Selector, Selector)>,
    /// ABC trace CSV (bench-run --trace) for the convergence plot.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Page title.
    #[arg(long, default_value = "puzzlebench report")]
    title: String,
    /// Per-job time limit in seconds for PAR-k (default: as `summary`).
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = common::non_negative)]
    time_limit: Option<f64>,
    #[command(flatten)]
    band: BandArgs,
    #[command(flatten)]
    input: Input,
    /// Past runs of this plan for a trend section (read as `history` reads its runs, e.g.
    /// the nightly's NIGHTLY_OUT); repeatable.
    #[arg(long, value_name = "DIR")]
    history: Vec<PathBuf>,
    /// Replace an existing DIR/index.html.
    #[arg(long)]
    force: bool,
}

const HISTORY_HELP: &str = "\
A run is one input: a results CSV with its .meta.json, or a directory of them (one night of
scripts/nightly.sh). A directory with no CSV of its own whose subdirectories hold CSVs (the
nightly's NIGHTLY_OUT/<UTC stamp>/ layout) stands for those subdirectories, one run each.
Runs are ordered by their metas' start time. Every run must have the newest run's plan
(its files' plan_hash): a run named here of another plan is refused (exit 2); one found in a
parent directory, or one that did not finish, is left out with a note. Marks: status,
counters, missing, slower, faster, cpu-slower, cpu-faster, added, as `compare` finds them
between each run and the one before (same --noise-band / --calibrate).";

/// The gate's noise band (`compare`, and `html`'s baseline section).
#[derive(Args)]
struct BandArgs {
    /// Relative band around 1 within which a time ratio counts as noise (default: measured
    /// with --calibrate, else 0.25; never below 0.25 unless given here).
    #[arg(long, value_name = "FRACTION", allow_negative_numbers = true, value_parser = common::non_negative)]
    noise_band: Option<f64>,
    /// Measure the band from two or more runs of one plan on this host (an A/A pair, or past
    /// nightly runs), each a CSV or directory, compared in order.
    #[arg(long, value_name = "RUN", num_args = 2..)]
    calibrate: Vec<PathBuf>,
}

impl BandArgs {
    fn band(&self) -> Result<Band> {
        if let Some(b) = self.noise_band {
            if !(b.is_finite() && (0.0..1.0).contains(&b)) {
                bail!("--noise-band must be in [0, 1), got {b}");
            }
            return Ok(Band::given(b));
        }
        if self.calibrate.is_empty() {
            return Ok(Band::floor());
        }
        let mut runs = Vec::new();
        for r in &self.calibrate {
            runs.push(RunSet::open(
                std::slice::from_ref(r),
                InputOptions::default(),
            )?);
        }
        Ok(Band::calibrated(&runs)?)
    }
}

/// `bench-report compare` options.
#[derive(Args)]
struct CompareArgs {
    /// Baseline CSV or directory of CSVs.
    baseline: PathBuf,
    /// New CSV or directory of CSVs.
    new: PathBuf,
    #[command(flatten)]
    band: BandArgs,
    /// `fail`: a flagged slowdown is a regression (same machine as the baseline);
    /// `warn`: slowdowns are reported but only counters and statuses decide the exit code
    /// (baseline made on another machine).
    #[arg(long, default_value = "fail", value_parser = ["fail", "warn"])]
    times: String,
    /// Also write the markdown report here (e.g. $GITHUB_STEP_SUMMARY).
    #[arg(long, value_name = "FILE")]
    markdown_out: Option<PathBuf>,
    /// Write github-action-benchmark `customSmallerIsBetter` JSON here.
    #[arg(long, value_name = "FILE")]
    github_benchmark_out: Option<PathBuf>,
    /// Write Bencher Metric Format JSON here.
    #[arg(long, value_name = "FILE")]
    bmf_out: Option<PathBuf>,
    #[command(flatten)]
    input: Input,
    /// Replace output files that already exist, and compare even when the metas show the
    /// two runs used different dataset contents (a warning instead of exit 2).
    #[arg(long)]
    force: bool,
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bench-report: error: {}", common::error_text(&e));
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode> {
    match Cli::parse().cmd {
        Cmd::Summary {
            files,
            format,
            time_limit,
            input,
            counters,
            best_of,
            trace,
        } => {
            let detail = Detail {
                counters,
                best_of: best_of.into_iter().map(|k| k as usize).collect(),
            };
            // Read the traces first: a bad trace file fails before the (possibly long) row pass.
            let mut traced = Vec::new();
            for t in &trace {
                traced.push(convergence_groups(&read_trace(t)?));
            }
            let set = input.open(&files, time_limit)?;
            let (s, st) = summarize_set(&set, detail, traced, |_| {})?;
            warn_empty_filter(&set, st.kept, st.seen);
            if format == Format::Csv {
                // CSV has no place for it: say it where a person will see it.
                for i in &s.incomplete {
                    eprintln!("bench-report: warning: {}", i.describe());
                }
            }
            common::print(&s.render(format));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Compare(args) => compare_cmd(args),
        Cmd::Ab {
            files,
            a,
            b,
            a_label,
            b_label,
            format,
            time_limit,
            metric,
            input,
        } => {
            let set = input.open(&files, time_limit)?;
            let opts = AbOptions {
                labels: (a_label, b_label),
                metrics: metric.iter().map(|m| metric_name(m)).collect(),
                ..AbOptions::new(a, b)
            };
            let report = ab::ab(&ab::AbInput::read(&set)?, &opts)?;
            common::print(&report.render(format));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Plot {
            files,
            out,
            trace,
            metric,
            input,
            force,
        } => plot_cmd(
            &input.open(&files, None)?,
            &out,
            (trace.as_deref(), metric.as_deref()),
            force,
        ),
        Cmd::Html(args) => html_cmd(args),
        Cmd::History {
            runs,
            format,
            band,
            input,
        } => {
            let runs = history::open_runs(&runs, &input.options(None))?;
            let h = History::build(&runs, &band.band()?)?;
            if format == HistoryFormat::Json {
                // Text and markdown carry the notes; JSON has no place for them.
                for n in &h.notes {
                    eprintln!("bench-report: note: {n}");
                }
            }
            common::print(&h.render(format));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Merge {
            files,
            output,
            allow_missing,
            force,
        } => merge_cmd(&files, &output, allow_missing, force),
    }
}

fn warn_empty_filter(set: &RunSet, kept: u64, seen: u64) {
    if let (Some(f), 0) = (set.filter_text(), kept) {
        eprintln!("bench-report: warning: --where {f} matched none of the {seen} rows");
    }
}

/// The files a command reads, for the output guard.
fn read_paths(sets: &[&RunSet], others: &[Option<&Path>]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = sets
        .iter()
        .flat_map(|s| s.files().iter().map(|f| f.path.clone()))
        .collect();
    v.extend(others.iter().flatten().map(|p| p.to_path_buf()));
    v
}

fn compare_cmd(a: CompareArgs) -> Result<ExitCode> {
    let band = a.band.band()?;
    let base = a.input.open(std::slice::from_ref(&a.baseline), None)?;
    let new = a.input.open(std::slice::from_ref(&a.new), None)?;
    let guard = OutputGuard::new(&read_paths(&[&base, &new], &[]), a.force);
    // Refuse clobbering before the (possibly long) comparison runs.
    let outs = [&a.markdown_out, &a.github_benchmark_out, &a.bmf_out];
    for p in outs.into_iter().flatten() {
        guard.check(p)?;
    }
    let labels = (
        a.baseline.display().to_string(),
        a.new.display().to_string(),
    );
    let mut c = gate(&base, &new, &band, (&labels.0, &labels.1), a.force)?;
    c.time_regressions = a.times == "fail";
    // The report carries its notes; stderr gets those not said already when opening.
    for n in c
        .notes
        .iter()
        .filter(|n| !base.notes().contains(n) && !new.notes().contains(n))
    {
        eprintln!("bench-report: note: {n}");
    }
    common::print(&export::markdown(&c));
    if let Some(p) = &a.markdown_out {
        // The file holds every change; the terminal copy above stops each list at 20.
        guard.write(p, export::markdown_full(&c).as_bytes())?;
    }
    if let Some(p) = &a.github_benchmark_out {
        let j = puzzlebench::report::to_json_pretty(&export::github_action_benchmark(&c))?;
        guard.write(p, j.as_bytes())?;
    }
    if let Some(p) = &a.bmf_out {
        let j = puzzlebench::report::to_json_pretty(&export::bencher_bmf(&c))?;
        guard.write(p, j.as_bytes())?;
    }
    Ok(if c.is_regression() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn plot_cmd(
    set: &RunSet,
    out: &Path,
    (trace, metric): (Option<&Path>, Option<&str>),
    force: bool,
) -> Result<ExitCode> {
    // Read and render everything before writing anything: a bad input leaves no partial output.
    // Rows are streamed: the plots keep only the values they draw.
    let mut data = plot::PlotData::with_efforts(set.efforts().clone());
    if let Some(m) = metric {
        data.metric(m);
    }
    set.for_each(|r, _| {
        data.add(r);
        Ok(())
    })?;
    if let Some(m) = metric.filter(|_| !data.has_metric()) {
        bail!("--metric {m}: no row has it (expected a counter, a timing column or a stats key)");
    }
    data.set_budget(set.budget());
    let trace_rows = trace.map(read_trace).transpose()?;
    let mut svgs = data.cactus()?;
    svgs.extend(data.distributions()?);
    if let Some(t) = trace_rows {
        svgs.extend(plot::render_convergence(&t)?);
    }
    let guard = OutputGuard::new(&read_paths(&[set], &[trace]), force);
    for s in &svgs {
        guard.check(&out.join(&s.name))?;
    }
    std::fs::create_dir_all(out)
        .with_context(|| format!("{}: cannot create directory", out.display()))?;
    for s in svgs {
        let p = out.join(&s.name);
        guard.write(&p, s.svg.as_bytes())?;
        common::print(&format!("{}\n", p.display()));
    }
    Ok(ExitCode::SUCCESS)
}

fn html_cmd(a: HtmlArgs) -> Result<ExitCode> {
    let index = a.out.join("index.html");
    let band = a.band.band()?;
    let new = a.input.open(&a.files, a.time_limit)?;
    let baseline = match &a.baseline {
        Some(b) => Some(a.input.open(std::slice::from_ref(b), None)?),
        None => None,
    };
    let mut sets = vec![&new];
    sets.extend(baseline.as_ref());
    let guard = OutputGuard::new(&read_paths(&sets, &[a.trace.as_deref()]), a.force);
    // Refuse before the (possibly long) report is built.
    guard.check(&index)?;
    let page = html::report(
        &HtmlOptions {
            files: a.files,
            baseline: a.baseline,
            ab: a.ab,
            trace: a.trace,
            title: a.title,
            history: a.history,
            history_input: a.input.options(None),
        },
        &new,
        baseline.as_ref(),
        &band,
    )?;
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("{}: cannot create directory", a.out.display()))?;
    guard.write(&index, page.as_bytes())?;
    common::print(&format!("{}\n", index.display()));
    Ok(ExitCode::SUCCESS)
}

fn merge_cmd(
    files: &[PathBuf],
    output: &Path,
    allow_missing: bool,
    force: bool,
) -> Result<ExitCode> {
    let out_meta = meta_path(output);
    // No --where, and never duplicates: a merge is a run, not a selection of one.
    let set = RunSet::open(files, InputOptions::default())?;
    for n in set.notes() {
        eprintln!("bench-report: note: {n}");
    }
    let guard = OutputGuard::new(&read_paths(&[&set], &[]), force);
    guard.check(output)?;
    guard.check(&out_meta)?;
    let shards: Vec<MergeInput> = set
        .files()
        .iter()
        .map(|f| MergeInput {
            path: f.path.clone(),
            meta: f.meta.clone(),
            rows: None,
        })
        .collect();
    // Rows go straight from the inputs to a temporary file beside the output, published only
    // when every check has passed: memory does not grow with the rows.
    let mut out = Some(guard.create(output)?);
    let mut csv_out: Option<csv::Writer<_>> = None;
    let werr =
        |e: csv::Error| std::io::Error::other(format!("{}: cannot write: {e}", output.display()));
    let merged = merge_stream(&shards, |r, cols| {
        let w = match (&mut csv_out, out.take()) {
            (Some(w), _) => w,
            (None, Some(f)) => {
                let mut w = csv::Writer::from_writer(f);
                w.write_record(cols.header()).map_err(werr)?;
                csv_out.insert(w)
            }
            (None, None) => return Err(std::io::Error::other("output already closed")),
        };
        w.write_record(r.fields(cols)).map_err(werr)
    })?;
    if let Some(warning) = check_gaps(merged.jobs_total, &merged.missing, allow_missing)? {
        eprintln!("bench-report: warning: {warning}");
    }
    match csv_out {
        Some(w) => w
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {}", output.display(), e.error()))?
            .commit()?,
        // Every input has a row (an empty one is refused), so rows always arrive.
        None => bail!("{}: no rows to merge", output.display()),
    }
    let mut merged_meta = merged.meta.clone();
    merged_meta.results_file = puzzlebench::results::meta::results_file_name(output);
    let meta = serde_json::to_string_pretty(&merged_meta)? + "\n";
    guard.write(&out_meta, meta.as_bytes())?;
    // Without the metas the plan's size is unknown, so the merge cannot call itself complete;
    // its meta says `interrupted` (never `complete` on a guess), and the message says why.
    let status = match merged.jobs_total {
        None => "completeness unknown: not every input has a .meta.json; meta says interrupted",
        Some(_) => merged.meta.status.map_or("unknown", |s| s.as_str()),
    };
    common::print(&format!(
        "{}: {} rows ({status})\n",
        output.display(),
        merged.rows,
    ));
    Ok(ExitCode::SUCCESS)
}
