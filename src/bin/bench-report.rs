//! `bench-report`: summaries, baseline comparison, plots and shard merging from saved
//! `bench-run` CSVs. A thin front end: parse the command line, open the inputs through
//! [`RunSet`] (the one reading every report shares), run the report from
//! `puzzlebench::report`, write through the one
//! [`OutputGuard`](puzzlebench::results::write::OutputGuard).
//!
//! Exit codes: 0 success; 1 `compare` found a regression; 2 bad input (unreadable or
//! malformed file, merge refused, a `--where` that keeps nothing to compare, a comparison
//! that joined no job) or usage error; 3 `compare --times fail` could compare neither wall nor
//! CPU time of some group (and found no regression).

mod common;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use puzzlebench::report::ab::{self, AbFormat, AbOptions, Selector};
use puzzlebench::report::filter::RowFilter;
use puzzlebench::report::gate::{gate, Band};
use puzzlebench::report::history::{self, History, HistoryFormat};
use puzzlebench::report::html::{self, HtmlOptions};
use puzzlebench::report::input::{InputOptions, RunSet};
use puzzlebench::report::summary::{summarize_set, Detail, Format, PivotMetric};
use puzzlebench::report::table::RunTable;
use puzzlebench::report::{self, export, merge, plot};
use puzzlebench::results::counters::metric_name;
use puzzlebench::results::trace::read_trace;
use std::path::PathBuf;
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

Exit codes: 0 success; 1 `compare` found a regression; 2 bad input or usage (or nothing
compared); 3 `compare --times fail` could not compare the time of some group.";

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
#[derive(Args, Clone, Default)]
struct Input {
    /// Only rows meeting every comma-separated term: key=value (text; `*` matches any
    /// characters) or key=N, key<N, key<=N, key>N, key>=N (seed, colony, timings, off_path,
    /// counters, numeric params or stats keys), e.g. `size=25x25,status=solved,nodes>=10`.
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
            require_rows: false,
            vocabulary: common::vocabulary(),
        }
    }

    /// Open `paths` for `summary` (a `--where` keeping nothing is a count of 0).
    fn open(&self, paths: &[PathBuf], time_limit: Option<f64>) -> Result<RunSet> {
        self.open_with(paths, self.options(time_limit))
    }

    /// Open `paths` for a report with nothing to compare or draw without rows (`compare`,
    /// `ab`, `plot`, `html`): a `--where` keeping none is an error.
    fn open_rows(&self, paths: &[PathBuf], time_limit: Option<f64>) -> Result<RunSet> {
        let opts = InputOptions {
            require_rows: true,
            ..self.options(time_limit)
        };
        self.open_with(paths, opts)
    }

    fn open_with(&self, paths: &[PathBuf], opts: InputOptions) -> Result<RunSet> {
        let set = RunSet::open(paths, opts)?;
        for n in set.notes() {
            eprintln!("bench-report: note: {n}");
        }
        Ok(set)
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Per-strategy table: runs, solved, effort (each strategy's unit), wall time, PAR-2, ratios.
    Summary(SummaryArgs),
    /// Compare a new run with a baseline; exit 1 on a regression.
    Compare(CompareArgs),
    /// A/B: two configurations on the same runs, with intervals and paired tests.
    Ab(AbArgs),
    /// SVG plots: cactus, effort distributions (one per unit), ABC convergence.
    Plot(PlotArgs),
    /// One self-contained HTML page: metadata, summary, plots, A/B, convergence, baseline.
    Html(HtmlArgs),
    /// Runs of one plan in start-time order: per group one point per run (never pooled),
    /// marked where `compare` against the run before finds a change.
    #[command(after_help = history::CLI_HELP)]
    History(HistoryArgs),
    /// Merge shard CSVs into one run, refusing duplicates and mixed plans.
    Merge(MergeArgs),
}

/// `bench-report summary` options.
#[derive(Args)]
struct SummaryArgs {
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
    /// Add a table of solved runs by one or two swept parameters per strategy, e.g.
    /// `--by colony_size,limit` (text and markdown).
    #[arg(long, value_name = "PARAM[,PARAM]", value_delimiter = ',')]
    by: Vec<String>,
    /// What the --by table shows: `solved` (solved runs of runs), `ert` (expected effort to
    /// a solve), `effort` (mean effort of solved runs) or `wall` (median wall time).
    #[arg(long, value_name = "METRIC", default_value = "solved", requires = "by")]
    by_metric: PivotMetric,
}

/// `bench-report ab` options.
#[derive(Args)]
struct AbArgs {
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
    /// Also compare these on the pairs both solved: counters, timing columns or keys of an
    /// external solver's stats (e.g. --metric guesses,evaluations).
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    metric: Vec<String>,
    #[command(flatten)]
    input: Input,
}

/// `bench-report plot` options.
#[derive(Args)]
struct PlotArgs {
    /// Results CSVs (or directories of them).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Directory for the SVGs (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// ABC trace CSV (bench-run --trace) for the convergence plot.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Draw the run-length distribution of this counter, timing column or stats key instead
    /// of each strategy's effort.
    #[arg(long, value_name = "NAME")]
    metric: Option<String>,
    /// Also draw the success rate (Wilson 95% band) against this swept parameter, one line
    /// per value of the other parameters that vary (`--sweep colony_size`); repeatable.
    #[arg(long, value_name = "PARAM")]
    sweep: Vec<String>,
    #[command(flatten)]
    input: Input,
    /// Replace SVGs that already exist in the directory.
    #[arg(long)]
    force: bool,
}

/// `bench-report history` options.
#[derive(Args)]
struct HistoryArgs {
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
}

/// `bench-report merge` options.
#[derive(Args)]
struct MergeArgs {
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
    times: TimesArg,
    #[command(flatten)]
    input: Input,
    /// Add the sweep plot of this parameter to the plots section (as `plot --sweep`);
    /// repeatable.
    #[arg(long, value_name = "PARAM")]
    sweep: Vec<String>,
    /// Past runs of this plan for a trend section (read as `history` reads its runs, e.g.
    /// the nightly's NIGHTLY_OUT); repeatable.
    #[arg(long, value_name = "DIR")]
    history: Vec<PathBuf>,
    /// Replace an existing DIR/index.html.
    #[arg(long)]
    force: bool,
}

/// The gate's noise band (`compare`, and `html`'s baseline section).
#[derive(Args)]
struct BandArgs {
    /// Relative band around 1 within which a time ratio counts as noise (default: measured
    /// with --calibrate, else 0.25; never below 0.25 unless given here). Not with
    /// --calibrate: the two are alternatives, and neither silently wins.
    #[arg(long, value_name = "FRACTION", allow_negative_numbers = true, value_parser = common::non_negative, conflicts_with = "calibrate")]
    noise_band: Option<f64>,
    /// Measure the band from two or more runs of one plan on this host (an A/A pair, or past
    /// nightly runs), each a CSV or directory, compared in order.
    #[arg(long, value_name = "RUN", num_args = 2..)]
    calibrate: Vec<PathBuf>,
}

/// How time changes count (`compare`, and `html`'s baseline section).
#[derive(Args)]
struct TimesArg {
    /// `fail`: a flagged slowdown is a regression (same machine as the baseline), and a
    /// group whose time could not be compared at all exits 3; `warn`: slowdowns are reported
    /// but only counters and statuses decide the exit code (baseline made on another machine).
    #[arg(long, default_value = "fail", value_parser = ["fail", "warn"])]
    times: String,
}

impl TimesArg {
    fn fail(&self) -> bool {
        self.times == "fail"
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
    #[command(flatten)]
    times: TimesArg,
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
        Cmd::Summary(a) => {
            let best_of = a.best_of.into_iter().map(|k| k as usize).collect();
            let detail = Detail {
                counters: a.counters,
                best_of,
            };
            // Read the traces first: a bad trace file fails before the (possibly long) row pass.
            let traced = (a.trace.iter())
                .map(|t| Ok(read_trace(t)?))
                .collect::<Result<_>>()?;
            if !a.by.is_empty() && matches!(a.format, Format::Csv | Format::Json) {
                anyhow::bail!(
                    "--by shapes the text and markdown tables; csv and json list every configuration with its params"
                );
            }
            let set = a.input.open(&a.files, a.time_limit)?;
            let (mut s, st) = summarize_set(&set, detail, traced)?;
            if !a.by.is_empty() {
                s.pivot_by(&a.by, a.by_metric)
                    .map_err(|e| anyhow::anyhow!(e))?;
            }
            if let Some(w) = set.empty_filter(&st) {
                eprintln!("bench-report: warning: {w}");
            }
            if a.format == Format::Csv {
                // CSV has no place for it: say it where a person will see it.
                for i in &s.incomplete {
                    eprintln!("bench-report: warning: {}", i.describe());
                }
                for w in s.contradiction_warnings() {
                    eprintln!("bench-report: warning: {w}");
                }
            }
            common::print(&s.render(a.format));
        }
        Cmd::Compare(a) => return compare_cmd(a),
        Cmd::Ab(a) => {
            let set = a.input.open_rows(&a.files, a.time_limit)?;
            let opts = AbOptions {
                labels: (a.a_label, a.b_label),
                metrics: a.metric.iter().map(|m| metric_name(m)).collect(),
                ..AbOptions::new(a.a, a.b)
            };
            let table = RunTable::read(&set, ab::table_spec(&opts), |_, _| {})?;
            common::print(&ab::ab(&table, &opts)?.render(a.format));
        }
        Cmd::Plot(a) => plot_cmd(a)?,
        Cmd::Html(a) => html_cmd(a)?,
        Cmd::History(a) => {
            let runs = history::open_runs(&a.runs, &a.input.options(None))?;
            let band = Band::from_options(a.band.noise_band, &a.band.calibrate)?;
            let h = History::build(&runs, &band)?;
            if let (Some(f), true) = (&a.input.filter, h.groups.is_empty()) {
                anyhow::bail!(
                    "--where {} matched no row of the {} runs: nothing to draw",
                    f.text(),
                    h.runs.len()
                );
            }
            if a.format == HistoryFormat::Json {
                // Text and markdown carry the notes; JSON has no place for them.
                for n in &h.notes {
                    eprintln!("bench-report: note: {n}");
                }
            }
            common::print(&h.render(a.format));
        }
        Cmd::Merge(a) => {
            // No --where, and never duplicates: a merge is a run, not a selection of one.
            let set = Input::default().open(&a.files, None)?;
            let m = merge::merge_files(&set, &a.output, a.allow_missing, a.force)?;
            if let Some(w) = m.warning {
                eprintln!("bench-report: warning: {w}");
            }
            common::print(&m.summary);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn compare_cmd(a: CompareArgs) -> Result<ExitCode> {
    let band = Band::from_options(a.band.noise_band, &a.band.calibrate)?;
    let base = a.input.open_rows(std::slice::from_ref(&a.baseline), None)?;
    let new = a.input.open_rows(std::slice::from_ref(&a.new), None)?;
    let guard = report::output_guard(&[&base, &new], &[], a.force);
    let outputs = export::Outputs {
        markdown: a.markdown_out,
        github_benchmark: a.github_benchmark_out,
        bmf: a.bmf_out,
    };
    // Refuse clobbering before the (possibly long) comparison runs.
    guard.check_all(outputs.paths())?;
    let names = (
        a.baseline.display().to_string(),
        a.new.display().to_string(),
    );
    let mut c = gate(&base, &new, &band, (&names.0, &names.1), a.force)?;
    c.time_regressions = a.times.fail();
    // The report carries its notes; stderr gets those not said already when opening.
    let said: Vec<_> = base.notes().iter().chain(new.notes()).collect();
    for n in c.notes.iter().filter(|n| !said.contains(n)) {
        eprintln!("bench-report: note: {n}");
    }
    // The terminal copy stops each list at 20; --markdown-out holds every change.
    common::print(&export::markdown(&c));
    for (p, text) in outputs.render(&c)? {
        guard.write(&p, text.as_bytes())?;
    }
    if c.nothing_compared() {
        eprintln!("bench-report: error: {}", c.headline());
    }
    Ok(ExitCode::from(c.exit_code()))
}

fn plot_cmd(a: PlotArgs) -> Result<()> {
    let set = a.input.open_rows(&a.files, None)?;
    let mut svgs = plot::render_set(&set, a.trace.as_deref(), a.metric.as_deref())?;
    if !a.sweep.is_empty() {
        let (summary, _) = summarize_set(&set, Detail::default(), Vec::new())?;
        for p in &a.sweep {
            svgs.extend(plot::render_sweep(&summary, p)?);
        }
    }
    let files: Vec<_> = (svgs.iter())
        .map(|s| (a.out.join(&s.name), s.svg.as_bytes()))
        .collect();
    let guard = report::output_guard(&[&set], &[a.trace.as_deref()], a.force);
    guard.write_all(Some(&a.out), &files)?;
    for (p, _) in &files {
        common::print(&format!("{}\n", p.display()));
    }
    Ok(())
}

fn html_cmd(a: HtmlArgs) -> Result<()> {
    let index = a.out.join("index.html");
    let band = Band::from_options(a.band.noise_band, &a.band.calibrate)?;
    let new = a.input.open_rows(&a.files, a.time_limit)?;
    let baseline = (a.baseline.as_ref())
        .map(|b| a.input.open_rows(std::slice::from_ref(b), None))
        .transpose()?;
    let mut sets = vec![&new];
    sets.extend(baseline.as_ref());
    let guard = report::output_guard(&sets, &[a.trace.as_deref()], a.force);
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
            time_regressions: a.times.fail(),
            sweep: a.sweep,
        },
        &new,
        baseline.as_ref(),
        &band,
    )?;
    guard.write_all(Some(&a.out), &[(index.clone(), page.as_bytes())])?;
    common::print(&format!("{}\n", index.display()));
    Ok(())
}
