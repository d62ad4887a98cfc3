//! `bench-report`: summaries, baseline comparison, plots and shard merging from saved
//! `bench-run` CSVs. A thin front end: parsing and file handling here, everything else in
//! `puzzlebench::report`.
//!
//! Exit codes: 0 success; 1 `compare` found a regression; 2 bad input (unreadable or
//! malformed file, merge refused) or usage error.

mod common;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use puzzlebench::report::ab::{self, AbFormat, AbOptions, Selector};
use puzzlebench::report::compare::{
    check_datasets, column_mismatch, compare_sorted, CompareOptions,
};
use puzzlebench::report::describe::convergence_groups;
use puzzlebench::report::export;
use puzzlebench::report::filter::RowFilter;
use puzzlebench::report::html::{self, HtmlOptions};
use puzzlebench::report::merge::{check_gaps, merge_stream, MergeInput};
use puzzlebench::report::plot;
use puzzlebench::report::summary::{
    Detail, DuplicateJobs, Format, Incomplete, SummaryBuilder, SummaryOptions,
};
use puzzlebench::results::meta::{meta_path, RunStatus};
use puzzlebench::results::read::{
    expand_inputs, for_each_result, read_meta, read_trace, KeySorted, SORT_BUFFER_ROWS,
};
use puzzlebench::results::write::{write_atomic, AtomicFile};
use puzzlebench::results::RunMeta;
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
        /// Per-job time limit in seconds for PAR-2 (default: the meta's timeout_s).
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// Count a job met in more than one input every time (by default the same job twice,
        /// e.g. two runs of one plan in one directory, is refused with the files named).
        #[arg(long)]
        allow_duplicates: bool,
        /// Only rows meeting every comma-separated term: key=value (text; `*` matches any
        /// characters) or key=N, key<N, key<=N, key>N, key>=N (seed, colony, wall_s,
        /// off_path, counters), e.g. `size=25x25,status=solved` or `puzzle_id=gen*,nodes>=10`.
        #[arg(long = "where", value_name = "TERMS")]
        filter: Option<RowFilter>,
        /// Add each counter's (and off_path's, wall_s's) runs, sum, mean, min, p10, median,
        /// p90 and max per group.
        #[arg(long)]
        counters: bool,
        /// Add best-of-K portfolios of colonies per group, e.g. `--best-of 1,2,4,8,16`.
        #[arg(long, value_name = "K,...", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..))]
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
        /// Output format.
        #[arg(long, default_value = "text")]
        format: AbFormat,
        /// Per-job time limit in seconds for PAR-2/PAR-10 (default: the meta's timeout_s).
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
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
        /// Replace SVGs that already exist in the directory.
        #[arg(long)]
        force: bool,
    },
    /// One self-contained HTML page: metadata, summary, plots, A/B, convergence, baseline.
    Html(HtmlArgs),
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
    /// Replace an existing DIR/index.html.
    #[arg(long)]
    force: bool,
}

/// `bench-report compare` options.
#[derive(Args)]
struct CompareArgs {
    /// Baseline CSV or directory of CSVs.
    baseline: PathBuf,
    /// New CSV or directory of CSVs.
    new: PathBuf,
    /// Relative band around 1 within which a time ratio counts as noise.
    #[arg(long, default_value_t = 0.10)]
    noise_band: f64,
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

/// The time limit for PAR-2 from the metas, or why there is none.
fn meta_time_limit(paths: &[PathBuf]) -> Result<(Option<f64>, Option<String>)> {
    let mut seen: Vec<(PathBuf, Option<f64>)> = Vec::new();
    for p in expand_inputs(paths)? {
        if let Some(m) = read_meta(&p)? {
            seen.push((p, m.timeout_s));
        }
    }
    let Some((first_path, first)) = seen.first().cloned() else {
        return Ok((
            None,
            Some(
                "no time limit known: no .meta.json beside the files (pass --time-limit SECS)"
                    .into(),
            ),
        ));
    };
    if let Some((p, t)) = seen.iter().find(|(_, t)| *t != first) {
        let show = |t: Option<f64>| t.map_or("none".to_string(), |t| format!("{t} s"));
        return Ok((
            None,
            Some(format!(
                "the files' time limits differ ({}: {}, {}: {}); pass --time-limit SECS",
                first_path.display(),
                show(first),
                p.display(),
                show(*t)
            )),
        ));
    }
    Ok(match first {
        Some(t) => (Some(t), None),
        None => (
            None,
            Some("the run had no --timeout (pass --time-limit SECS)".into()),
        ),
    })
}

fn run() -> Result<ExitCode> {
    match Cli::parse().cmd {
        Cmd::Summary {
            files,
            format,
            time_limit,
            allow_duplicates,
            filter,
            counters,
            best_of,
            trace,
        } => {
            let detail = Detail {
                counters,
                best_of: best_of.into_iter().map(|k| k as usize).collect(),
            };
            let opts = SummaryArgs {
                format,
                time_limit,
                allow_duplicates,
                filter,
                detail,
                trace,
            };
            summary(&files, opts)
        }
        Cmd::Compare(args) => compare_cmd(args),
        Cmd::Ab {
            files,
            a,
            b,
            format,
            time_limit,
        } => {
            let opts = AbOptions {
                time_limit_s: time_limit,
                ..AbOptions::new(a, b)
            };
            let report = ab::ab(&ab::load_rows(&files)?, &opts)?;
            common::print(&report.render(format));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Plot {
            files,
            out,
            trace,
            force,
        } => plot_cmd(&files, &out, trace.as_deref(), force),
        Cmd::Html(args) => html_cmd(args),
        Cmd::Merge {
            files,
            output,
            allow_missing,
            force,
        } => merge_cmd(&files, &output, allow_missing, force),
    }
}

/// The files a report reads (with their metas): never a destination.
fn inputs_of(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in expand_inputs(paths)? {
        out.push(resolved(&meta_path(&p)));
        out.push(resolved(&p));
    }
    Ok(out)
}

/// A path made absolute and free of `..` and symlinks as far as it exists, for comparing.
fn resolved(p: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    match (p.parent(), p.file_name()) {
        (Some(parent), Some(name)) if !parent.as_os_str().is_empty() => resolved(parent).join(name),
        (_, Some(name)) => resolved(Path::new(".")).join(name),
        _ => p.to_path_buf(),
    }
}

/// Write a report output: never over one of the inputs, never over an existing file without
/// `--force`, never into anything but a regular file.
fn write_output(path: &Path, bytes: &[u8], force: bool, inputs: &[PathBuf]) -> Result<()> {
    if inputs.contains(&resolved(path)) {
        bail!(
            "{}: is one of the inputs (or an input's meta); choose another output",
            path.display()
        );
    }
    write_atomic(path, bytes, force)?;
    Ok(())
}

/// Why an input holds only part of its run, if it does: a `.partial` journal (the run was
/// interrupted or is still running), or a meta whose status is not `complete`.
fn incompleteness(p: &Path) -> Result<Option<(String, Option<u64>)>> {
    let name = p.to_string_lossy();
    let (results, journal) = match name.strip_suffix(".partial") {
        Some(stem) => (PathBuf::from(stem), true),
        None => (p.to_path_buf(), false),
    };
    let meta = if results.exists() || journal {
        read_meta(&results).ok().flatten()
    } else {
        None
    };
    let jobs = meta.as_ref().and_then(|m| m.jobs_in_shard.or(m.jobs_total));
    let status = meta.as_ref().and_then(|m| m.status);
    if journal {
        let said = status.map_or(String::new(), |s| format!(", meta status {s}"));
        return Ok(Some((
            format!("the journal of an unfinished run{said}"),
            jobs,
        )));
    }
    Ok(match status {
        Some(s) if s != RunStatus::Complete => Some((format!("meta status {s}"), jobs)),
        _ => None,
    })
}

/// `bench-report summary` options beyond the files.
struct SummaryArgs {
    format: Format,
    time_limit: Option<f64>,
    allow_duplicates: bool,
    filter: Option<RowFilter>,
    detail: Detail,
    trace: Vec<PathBuf>,
}

fn summary(files: &[PathBuf], a: SummaryArgs) -> Result<ExitCode> {
    let SummaryArgs {
        format,
        time_limit,
        allow_duplicates,
        mut filter,
        detail,
        trace,
    } = a;
    if let Some(t) = time_limit {
        if !(t.is_finite() && t > 0.0) {
            bail!("--time-limit must be a positive number of seconds, got {t}");
        }
    }
    // Read the traces first: a bad trace file fails before the (possibly long) row pass.
    let mut traced = Vec::new();
    for t in &trace {
        traced.push(convergence_groups(&read_trace(t)?));
    }
    // Streamed, so summarising a million-row file needs no copy of its rows.
    let mut builder = SummaryBuilder::new(detail);
    let mut dups = DuplicateJobs::default();
    let (mut seen, mut kept) = (0u64, 0u64);
    let inputs = expand_inputs(files)?;
    for (i, p) in inputs.iter().enumerate() {
        let (_, rows) = for_each_result(p, |r| {
            if let Some(first) = dups.check(&r, i) {
                if !allow_duplicates {
                    return Err(puzzlebench::results::ReadError::Refused {
                        path: p.clone(),
                        detail: format!(
                            "job {} is also in {}: the inputs repeat jobs (two runs of one plan?); pass --allow-duplicates to count both",
                            r.key(),
                            inputs[first].display()
                        ),
                    });
                }
            }
            seen += 1;
            if filter.as_mut().is_none_or(|f| f.matches(&r)) {
                kept += 1;
                builder.add(&r);
            }
            Ok(())
        })?;
        if let Some((reason, jobs)) = incompleteness(p)? {
            let i = Incomplete {
                file: p.display().to_string(),
                rows,
                jobs,
                reason,
            };
            // CSV has no place for it: say it where a person will see it.
            if format == Format::Csv {
                eprintln!("bench-report: warning: {}", i.describe());
            }
            builder.incomplete(i);
        }
    }
    builder.duplicates_counted(dups.repeats);
    if let Some(f) = &filter {
        if let Some(msg) = f.unknown_params() {
            bail!("{msg}");
        }
        if kept == 0 {
            eprintln!(
                "bench-report: warning: --where {} matched none of the {seen} rows",
                f.text()
            );
        }
        builder.filtered(f.text());
    }
    for groups in traced {
        builder.convergence(groups);
    }
    let (time_limit_s, time_limit_note) = match time_limit {
        Some(t) => (Some(t), None),
        None => meta_time_limit(files)?,
    };
    let s = builder.finish(&SummaryOptions {
        time_limit_s,
        time_limit_note,
    });
    common::print(&s.render(format));
    Ok(ExitCode::SUCCESS)
}

fn compare_cmd(a: CompareArgs) -> Result<ExitCode> {
    if !(a.noise_band.is_finite() && (0.0..1.0).contains(&a.noise_band)) {
        bail!("--noise-band must be in [0, 1), got {}", a.noise_band);
    }
    let inputs = inputs_of(&[a.baseline.clone(), a.new.clone()])?;
    // Refuse clobbering before the (possibly long) comparison runs.
    for p in [&a.markdown_out, &a.github_benchmark_out, &a.bmf_out]
        .into_iter()
        .flatten()
    {
        if inputs.contains(&resolved(p)) {
            bail!(
                "{}: is one of the inputs; choose another output",
                p.display()
            );
        }
        if p.exists() && !a.force {
            bail!(
                "{}: already exists (pass --force to overwrite)",
                p.display()
            );
        }
    }
    let with_metas = |p: &PathBuf| -> Result<Vec<(PathBuf, Option<RunMeta>)>> {
        let mut v = Vec::new();
        for f in expand_inputs(std::slice::from_ref(p))? {
            // A missing file is the error to report, not the missing meta beside it.
            if let Err(e) = std::fs::metadata(&f) {
                bail!("{}: cannot read: {e}", f.display());
            }
            let m = read_meta(&f)?;
            v.push((f, m));
        }
        Ok(v)
    };
    let (base_files, new_files) = (with_metas(&a.baseline)?, with_metas(&a.new)?);
    let datasets = check_datasets(&base_files, &new_files);
    for note in &datasets.unchecked {
        eprintln!("bench-report: note: {note}");
    }
    match datasets.mismatch {
        Some(m) if !a.force => bail!("{m}"),
        Some(m) => eprintln!("bench-report: warning: {m}; compared anyway (--force)"),
        None => {}
    }
    // Each side is sorted by job key as it is read (in memory up to SORT_BUFFER_ROWS rows, in
    // sorted runs on disk beyond), then the two are joined as streams: memory does not grow
    // with the number of rows.
    let paths =
        |f: &[(PathBuf, Option<RunMeta>)]| f.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    let base = KeySorted::open(&paths(&base_files), SORT_BUFFER_ROWS)?;
    let new = KeySorted::open(&paths(&new_files), SORT_BUFFER_ROWS)?;
    if let Some(m) = column_mismatch(base.columns(), new.columns()) {
        bail!("{m}");
    }
    let c = compare_sorted(
        base,
        new,
        &CompareOptions {
            noise_band: a.noise_band,
            baseline_label: a.baseline.display().to_string(),
            new_label: a.new.display().to_string(),
            time_regressions: a.times == "fail",
            ..CompareOptions::default()
        },
    )?;
    let md = export::markdown(&c);
    common::print(&md);
    if let Some(p) = &a.markdown_out {
        // The file holds every change; the terminal copy above stops each list at 20.
        let full = export::markdown_full(&c);
        write_output(p, full.as_bytes(), a.force, &inputs)?;
    }
    if let Some(p) = &a.github_benchmark_out {
        let j = puzzlebench::report::to_json_pretty(&export::github_action_benchmark(&c))?;
        write_output(p, j.as_bytes(), a.force, &inputs)?;
    }
    if let Some(p) = &a.bmf_out {
        let j = puzzlebench::report::to_json_pretty(&export::bencher_bmf(&c))?;
        write_output(p, j.as_bytes(), a.force, &inputs)?;
    }
    Ok(if c.is_regression() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn plot_cmd(files: &[PathBuf], out: &Path, trace: Option<&Path>, force: bool) -> Result<ExitCode> {
    // Read and render everything before writing anything: a bad input leaves no partial output.
    // Rows are streamed: the plots keep only the values they draw.
    let mut data = plot::PlotData::default();
    let mut metas = Vec::new();
    for p in expand_inputs(files)? {
        for_each_result(&p, |r| {
            data.add(&r);
            Ok(())
        })?;
        metas.extend(read_meta(&p)?);
    }
    data.set_budget(plot::Budget::agreed(&metas.iter().collect::<Vec<_>>()));
    let trace_rows = trace.map(read_trace).transpose()?;
    let mut svgs = data.cactus()?;
    svgs.extend(data.distributions()?);
    if let Some(t) = trace_rows {
        svgs.extend(plot::render_convergence(&t)?);
    }
    let mut inputs = inputs_of(files)?;
    inputs.extend(trace.map(resolved));
    std::fs::create_dir_all(out)
        .with_context(|| format!("{}: cannot create directory", out.display()))?;
    for s in &svgs {
        let p = out.join(&s.name);
        if p.exists() && !force {
            bail!(
                "{}: already exists (pass --force to overwrite)",
                p.display()
            );
        }
    }
    for s in svgs {
        let p = out.join(&s.name);
        write_output(&p, s.svg.as_bytes(), force, &inputs)?;
        common::print(&format!("{}\n", p.display()));
    }
    Ok(ExitCode::SUCCESS)
}

fn html_cmd(a: HtmlArgs) -> Result<ExitCode> {
    let index = a.out.join("index.html");
    let mut inputs = inputs_of(&a.files)?;
    if let Some(b) = &a.baseline {
        inputs.extend(inputs_of(std::slice::from_ref(b))?);
    }
    inputs.extend(a.trace.as_deref().map(resolved));
    // Refuse before the (possibly long) report is built.
    if inputs.contains(&resolved(&index)) {
        bail!(
            "{}: is one of the inputs; choose another --out",
            index.display()
        );
    }
    if index.exists() && !a.force {
        bail!(
            "{}: already exists (pass --force to overwrite)",
            index.display()
        );
    }
    let page = html::report(&HtmlOptions {
        files: a.files,
        baseline: a.baseline,
        ab: a.ab,
        trace: a.trace,
        title: a.title,
    })?;
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("{}: cannot create directory", a.out.display()))?;
    write_output(&index, page.as_bytes(), a.force, &inputs)?;
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
    let inputs = inputs_of(files)?;
    for p in [output, out_meta.as_path()] {
        if inputs.contains(&resolved(p)) {
            bail!(
                "{}: is one of the inputs; choose another output",
                p.display()
            );
        }
        if !force && p.exists() {
            bail!(
                "{}: already exists (pass --force to overwrite)",
                p.display()
            );
        }
    }
    let mut shards = Vec::new();
    for p in expand_inputs(files)? {
        let meta = read_meta(&p)?;
        shards.push(MergeInput {
            path: p,
            meta,
            rows: None,
        });
    }
    // Rows go straight from the inputs to a temporary file beside the output, published only
    // when every check has passed: memory does not grow with the rows.
    let mut out = Some(AtomicFile::create(output, force)?);
    let mut csv_out: Option<csv::Writer<AtomicFile>> = None;
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
    write_output(&out_meta, meta.as_bytes(), force, &inputs)?;
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
