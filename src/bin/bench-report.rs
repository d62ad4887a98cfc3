//! `bench-report`: summaries, baseline comparison, plots and shard merging from saved
//! `bench-run` CSVs. A thin front end: parsing and file handling here, everything else in
//! `puzzlebench::report`.
//!
//! Exit codes: 0 success; 1 `compare` found a regression; 2 bad input (unreadable or
//! malformed file, merge refused) or usage error.

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use puzzlebench::harness::record::Record;
use puzzlebench::report::ab::{self, AbFormat, AbOptions, Selector};
use puzzlebench::report::compare::{compare, CompareOptions};
use puzzlebench::report::io::{
    expand_inputs, for_each_result, read_meta, read_results, read_trace, results_csv, write_atomic,
};
use puzzlebench::report::merge::{describe_jobs, merge};
use puzzlebench::report::meta::meta_path;
use puzzlebench::report::plot;
use puzzlebench::report::summary::{Format, SummaryBuilder, SummaryOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "bench-report",
    version,
    about = "Summaries, comparisons, plots and shard merging for bench-run results"
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
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Per-job time limit in seconds for PAR-2 (default: the meta's timeout_s).
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
    },
    /// Compare a new run with a baseline; exit 1 on a regression.
    Compare {
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
    },
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
        #[arg(long, value_enum, default_value_t = AbFormat::Text)]
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

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("bench-report: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Read every results file named (directories expanded), concatenated.
fn read_all(paths: &[PathBuf]) -> Result<Vec<Record>> {
    let mut rows = Vec::new();
    for p in expand_inputs(paths)? {
        rows.extend(read_results(&p)?.rows);
    }
    Ok(rows)
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
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Summary {
            files,
            format,
            time_limit,
        } => {
            if let Some(t) = time_limit {
                if !(t.is_finite() && t > 0.0) {
                    bail!("--time-limit must be a positive number of seconds, got {t}");
                }
            }
            // Streamed, so summarising a million-row file needs no copy of its rows.
            let mut builder = SummaryBuilder::default();
            for p in expand_inputs(&files)? {
                for_each_result(&p, |r| {
                    builder.add(&r);
                    Ok(())
                })?;
            }
            let (time_limit_s, time_limit_note) = match time_limit {
                Some(t) => (Some(t), None),
                None => meta_time_limit(&files)?,
            };
            let s = builder.finish(&SummaryOptions {
                time_limit_s,
                time_limit_note,
            });
            puzzlebench::cli::print(&s.render(format));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Compare {
            baseline,
            new,
            noise_band,
            times,
            markdown_out,
            github_benchmark_out,
            bmf_out,
        } => {
            if !(noise_band.is_finite() && (0.0..1.0).contains(&noise_band)) {
                bail!("--noise-band must be in [0, 1), got {noise_band}");
            }
            let base_rows = read_all(std::slice::from_ref(&baseline))?;
            let new_rows = read_all(std::slice::from_ref(&new))?;
            let c = compare(
                &base_rows,
                &new_rows,
                &CompareOptions {
                    noise_band,
                    baseline_label: baseline.display().to_string(),
                    new_label: new.display().to_string(),
                    time_regressions: times == "fail",
                    ..CompareOptions::default()
                },
            );
            let md = c.to_markdown();
            puzzlebench::cli::print(&md);
            let write = |p: &Path, bytes: &[u8]| -> Result<()> {
                write_atomic(p, bytes, true).with_context(|| format!("writing {}", p.display()))
            };
            if let Some(p) = markdown_out {
                write(&p, md.as_bytes())?;
            }
            if let Some(p) = github_benchmark_out {
                let j = serde_json::to_string_pretty(&c.to_github_action_benchmark())?;
                write(&p, j.as_bytes())?;
            }
            if let Some(p) = bmf_out {
                let j = serde_json::to_string_pretty(&c.to_bencher_bmf())?;
                write(&p, j.as_bytes())?;
            }
            Ok(if c.is_regression() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
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
            puzzlebench::cli::print(&report.render(format));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Plot { files, out, trace } => {
            // Read everything before writing anything: a bad input fails with no partial output.
            let rows = read_all(&files)?;
            let trace_rows = trace.as_deref().map(read_trace).transpose()?;
            std::fs::create_dir_all(&out)
                .with_context(|| format!("{}: cannot create directory", out.display()))?;
            let mut written = plot::cactus(&rows, &out)?;
            written.extend(plot::distribution(&rows, &out)?);
            if let Some(t) = trace_rows {
                written.extend(plot::convergence(&t, &out)?);
            }
            for p in written {
                puzzlebench::cli::print(&format!("{}\n", p.display()));
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Merge {
            files,
            output,
            allow_missing,
            force,
        } => {
            let out_meta = meta_path(&output);
            if !force {
                for p in [&output, &out_meta] {
                    if p.exists() {
                        bail!(
                            "{}: already exists (pass --force to overwrite)",
                            p.display()
                        );
                    }
                }
            }
            let mut inputs = Vec::new();
            let mut columns = puzzlebench::harness::record::Columns::default();
            for p in expand_inputs(&files)? {
                let f = read_results(&p)?;
                columns.solutions |= f.columns.solutions;
                columns.solution |= f.columns.solution;
                let meta = read_meta(&p)?;
                inputs.push((p, f.rows, meta));
            }
            let mut merged = merge(inputs)?;
            merged.columns.solutions |= columns.solutions;
            merged.columns.solution |= columns.solution;
            match merged.jobs_total {
                None if !allow_missing => bail!(
                    "cannot check for missing jobs: no input has a .meta.json with jobs_total \
                     (pass --allow-missing to merge anyway)"
                ),
                Some(total) if !merged.missing.is_empty() => {
                    let msg = format!(
                        "{} of {total} jobs missing: {}",
                        merged.missing.len(),
                        describe_jobs(&merged.missing, 20)
                    );
                    if !allow_missing {
                        bail!("{msg} (pass --allow-missing to write the merged file anyway)");
                    }
                    eprintln!("bench-report: warning: {msg}; merged meta says status interrupted");
                }
                _ => {}
            }
            write_atomic(&output, &results_csv(&merged.rows, merged.columns), force)?;
            let meta = serde_json::to_string_pretty(&merged.meta)? + "\n";
            write_atomic(&out_meta, meta.as_bytes(), force)?;
            puzzlebench::cli::print(&format!(
                "{}: {} rows ({})\n",
                output.display(),
                merged.rows.len(),
                merged.meta.status.as_deref().unwrap_or("unknown")
            ));
            Ok(ExitCode::SUCCESS)
        }
    }
}
