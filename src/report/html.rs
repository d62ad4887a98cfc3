//! `bench-report html`: one self-contained HTML page for a run: metadata, summary tables,
//! cactus and run-length plots per dataset, A/B comparisons with a per-puzzle scatter, ABC
//! convergence from a trace, and the comparison with a baseline.
//!
//! The page has no external resource: CSS and the SVG plots are inline, and a few lines of
//! vanilla JavaScript sort a table by a clicked column and filter long tables. It reads the
//! same way offline, from a CI artifact, or printed.
//!
//! Every section is a [`Doc`] built by the module that owns the computation
//! ([`summary`], [`ab`], [`export`]) and rendered to HTML here, as the same
//! doc is rendered to text and markdown for the terminal: the page and the terminal never
//! disagree, and no markdown is parsed back. The verdicts (baseline and A/B) come first, as
//! cards under the title. Sections are always present (with a sentence saying why one is
//! empty), under fixed ids: [`SECTIONS`]. A sweep of thousands of configurations gets a
//! compact page: the summary table shows the `MAX_PAGE_GROUPS` that solved most, plots draw
//! at most `plot::MAX_SERIES` lines, default A/B pairs stop at `MAX_DEFAULT_PAIRS`, each
//! with a note saying what was left out.

use crate::report::ab::{self, AbOptions, AbReport, Selector};
use crate::report::compare::TimeVerdict;
use crate::report::doc::{Block, Doc, Figure, Table};
use crate::report::gate::{gate, Band, GateError};
use crate::report::input::RunSet;
use crate::report::plot::{self, Pair, PlotData, ScatterSpec, Svg, Unit};
use crate::report::summary::{self, summarize_table, Detail, Extras};
use crate::report::table::{self, Job, RunTable, Totals};
use crate::report::{export, stats, Config};
use crate::results::read::ReadError;
use crate::results::RunMeta;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

/// One section of the page: its fixed id (a link target), its name in the navigation bar and
/// its heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageSection {
    /// The `id` of its `<section>`.
    pub id: &'static str,
    /// Its link in the navigation bar.
    pub nav: &'static str,
    /// Its `<h2>`.
    pub heading: &'static str,
}

/// The page's sections, in order: the one table the navigation, the ids and the headings
/// come from.
pub const SECTIONS: [PageSection; 7] = [
    PageSection {
        id: "meta",
        nav: "Runs",
        heading: "Runs",
    },
    PageSection {
        id: "summary",
        nav: "Summary",
        heading: "Summary",
    },
    PageSection {
        id: "plots",
        nav: "Plots",
        heading: "Cactus and run-length plots",
    },
    PageSection {
        id: "ab",
        nav: "A/B",
        heading: "A/B comparisons",
    },
    PageSection {
        id: "convergence",
        nav: "Convergence",
        heading: "ABC convergence",
    },
    PageSection {
        id: "baseline",
        nav: "Baseline",
        heading: "Baseline comparison",
    },
    PageSection {
        id: "history",
        nav: "History",
        heading: "Run history",
    },
];

/// A report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum HtmlError {
    /// An input could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A requested A/B comparison failed.
    #[error("--ab {pair}: {source}")]
    Ab {
        /// The pair as given.
        pair: String,
        /// Why (boxed: the error is large and rare).
        source: Box<ab::AbError>,
    },
    /// A plot failed.
    #[error(transparent)]
    Plot(#[from] plot::PlotError),
    /// The inputs cannot be reported together.
    #[error("{0}")]
    Refused(String),
}

impl From<GateError> for HtmlError {
    fn from(e: GateError) -> HtmlError {
        match e {
            GateError::Read(e) => HtmlError::Read(e),
            GateError::Refused(m) => HtmlError::Refused(m),
        }
    }
}

/// What to report.
#[derive(Clone, Debug, Default)]
pub struct HtmlOptions {
    /// Results CSVs or directories of them.
    pub files: Vec<PathBuf>,
    /// Baseline CSVs or directories, for the comparison section.
    pub baseline: Option<PathBuf>,
    /// A/B pairs; empty means every pair of strategies run with the same rules on a dataset.
    pub ab: Vec<(Selector, Selector)>,
    /// ABC trace for the convergence plot.
    pub trace: Option<PathBuf>,
    /// Page title.
    pub title: String,
    /// Past runs of the plan for the history section (`--history DIR`), read with `history_input`.
    pub history: Vec<PathBuf>,
    /// How the history's runs are read (the page's `--where`).
    pub history_input: crate::report::input::InputOptions,
    /// `--times fail`: the baseline card counts slowdowns, and time not compared, as
    /// `compare --times fail` does (same verdict, same words).
    pub time_regressions: bool,
    /// Swept parameters to draw success against (`--sweep`), in the plots section.
    pub sweep: Vec<String>,
}

/// Parse an `--ab` pair `A:B`, each side a selector as in `bench-report ab`.
pub fn parse_pair(s: &str) -> Result<(Selector, Selector), String> {
    let Some((a, b)) = s.split_once(':') else {
        return Err(format!("{s:?} is not A:B (e.g. strategy=mrv:strategy=row)"));
    };
    Ok((a.parse()?, b.parse()?))
}

pub(crate) use crate::report::doc::esc;

/// Most configurations the page's summary table lists (the ones that solved most runs).
pub(crate) const MAX_PAGE_GROUPS: usize = 200;

/// Most A/B comparisons the page makes by default (`--ab` pairs are always made).
pub(crate) const MAX_DEFAULT_PAIRS: usize = 12;

/// Laid out for a 1366 px screen and up: tables scroll inside their box, plots sit in a grid,
/// and nothing needs a colour or an emoji font to read right (verdicts are words).
const CSS: &str = include_str!("assets/page.css");

/// Click a header to sort by that column (numbers by value); type in a filter box to hide
/// rows without the text.
const JS: &str = include_str!("assets/page.js");

/// Plots side by side; each id is derived one to one from its file name (see
/// [`plot::slug`]), so no two figures share one.
fn figures(svgs: &[&Svg]) -> Block {
    Block::Figures(
        svgs.iter()
            .map(|s| Figure {
                id: format!("fig-{}", s.name.trim_end_matches(".svg")),
                title: s.title.clone(),
                svg: s.svg.clone(),
                caption: String::new(),
            })
            .collect(),
    )
}

/// Run metadata of every input file, one row each, and each machine as a small table.
fn meta_doc(metas: &[(PathBuf, Option<RunMeta>)]) -> Doc {
    let mut d = Doc::default();
    let mut t = Table::new(
        &[
            "file",
            "dataset",
            "jobs",
            "seeds",
            "colonies",
            "time limit",
            "node limit",
            "threads",
            "status",
            "started",
            "finished",
            "version",
            "revision",
            "strategies",
        ],
        2,
    );
    for (p, m) in metas {
        let file = p.display().to_string();
        let Some(m) = m else {
            let mut row = vec![file, "no .meta.json beside the file".to_string()];
            row.resize(t.head.len(), "-".into());
            t.row(row);
            continue;
        };
        let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        t.row(vec![
            file,
            m.dataset_name.clone().unwrap_or_else(|| m.dataset.clone()),
            opt(m.jobs_in_shard.map(|j| match m.shard {
                Some(s) if s.count > 1 => format!("{j} (shard {}/{})", s.index, s.count),
                _ => j.to_string(),
            })),
            opt(m.seeds.map(|s| format!("{s} from {}", m.seed.unwrap_or(0)))),
            opt(m.colonies.map(|c| c.to_string())),
            opt(m.timeout_s.map(crate::report::fmt_secs)),
            opt(m.node_limit.map(|n| n.to_string())),
            opt(m.threads.map(|t| t.to_string())),
            opt(m.status.map(|s| s.as_str().to_string())),
            opt(m.started.clone()),
            opt(m.finished.clone()),
            m.version.clone(),
            opt(m.git_revision.clone()),
            m.solvers.join("; "),
        ]);
    }
    d.table(t);
    let machines: BTreeSet<String> = metas
        .iter()
        .filter_map(|(_, m)| m.as_ref())
        .filter(|m| m.machine.is_object())
        .map(|m| m.machine.to_string())
        .collect();
    for (i, m) in machines.iter().enumerate() {
        let Ok(serde_json::Value::Object(fields)) = serde_json::from_str(m) else {
            continue;
        };
        d.heading(
            3,
            if machines.len() > 1 {
                format!("Machine {}", i + 1)
            } else {
                "Machine".into()
            },
        );
        let mut t = Table::new(&["", ""], 2);
        t.head = vec!["property".into(), "value".into()];
        for (k, v) in fields {
            let v = match v {
                serde_json::Value::String(s) => s,
                v => v.to_string(),
            };
            t.row(vec![k, v]);
        }
        d.table(t);
    }
    d
}

/// Default A/B pairs: per dataset, every two configurations with the same rules and different
/// strategies; the selectors name strategy, rules and each parameter, so they match exactly.
/// At most `cap` are made (in dataset and configuration order, then sorted); the second value
/// is how many there are in all, counted without listing them (a sweep may have millions).
fn default_pairs(configs: &BTreeMap<String, BTreeSet<Config>>, cap: usize) -> (Vec<String>, u64) {
    let mut pairs = BTreeSet::new();
    let mut total = 0u64;
    for cs in configs.values() {
        // Per rule set, the configurations of each strategy.
        let mut by_rules: BTreeMap<&str, BTreeMap<&str, Vec<&Config>>> = BTreeMap::new();
        for c in cs {
            by_rules
                .entry(c.rules.as_str())
                .or_default()
                .entry(c.strategy.as_str())
                .or_default()
                .push(c);
        }
        for strategies in by_rules.values() {
            let n: u64 = strategies.values().map(|v| v.len() as u64).sum();
            let same: u64 = strategies.values().map(|v| (v.len() as u64).pow(2)).sum();
            total += (n * n - same) / 2;
            let groups: Vec<&Vec<&Config>> = strategies.values().collect();
            'fill: for (i, ga) in groups.iter().enumerate() {
                for gb in &groups[i + 1..] {
                    for a in ga.iter() {
                        for b in gb.iter() {
                            if pairs.len() >= cap {
                                break 'fill;
                            }
                            pairs.insert(format!("{}:{}", a.selector(), b.selector()));
                        }
                    }
                }
            }
        }
    }
    (pairs.into_iter().collect(), total)
}

/// Per puzzle of one dataset, the median over its paired runs of each side's value (a run
/// that did not solve counts as infinitely long, so a puzzle most runs failed is unsolved).
fn puzzle_pairs(table: &RunTable, rep: &AbReport, dataset: &str, metric: &str) -> Vec<Pair> {
    let group = |s: &ab::Side| {
        table.groups.iter().find(|g| {
            let c = &g.key.config;
            g.key.dataset == dataset
                && c.strategy == s.strategy
                && c.rules == s.rules
                && c.params.as_str() == s.params
        })
    };
    let (Some(ga), Some(gb)) = (group(&rep.a), group(&rep.b)) else {
        return Vec::new();
    };
    let value = |g, j: &Job| {
        let v = if j.solved() {
            table.metric(g, j, metric)
        } else {
            None
        };
        v.unwrap_or(f64::INFINITY)
    };
    let med = |v: &[f64]| stats::percentile_sorted(&stats::sorted(v), 0.5).unwrap_or(f64::INFINITY);
    let paired = table::pair(ga, gb);
    paired
        .pairs
        .chunk_by(|x, y| x.0.puzzle == y.0.puzzle)
        .map(|same| {
            let va: Vec<f64> = same.iter().map(|p| value(ga, p.0)).collect();
            let vb: Vec<f64> = same.iter().map(|p| value(gb, p.1)).collect();
            let (ma, mb) = (med(&va), med(&vb));
            Pair {
                a: ma,
                b: mb,
                a_solved: ma.is_finite(),
                b_solved: mb.is_finite(),
            }
        })
        .collect()
}

/// The two sides' names for headings: strategy and rules when those tell them apart, else
/// the report's own labels (which add the parameters that differ).
fn side_names(rep: &AbReport) -> (String, String) {
    let short = |s: &ab::Side| {
        if s.rules.is_empty() {
            s.strategy.clone()
        } else {
            format!("{} {}", s.strategy, s.rules)
        }
    };
    let (a, b) = (short(&rep.a), short(&rep.b));
    if a == b {
        (rep.a.label.clone(), rep.b.label.clone())
    } else {
        (a, b)
    }
}

/// The A/B block for one pair: scatter plots per dataset (time, and effort when both sides
/// count the same unit), then the report's own document.
fn ab_block(
    d: &mut Doc,
    rows: &RunTable,
    rep: &AbReport,
    limit: Option<f64>,
    n: usize,
) -> Result<(), HtmlError> {
    let (na, nb) = side_names(rep);
    let mut svgs = Vec::new();
    for sec in &rep.datasets {
        let Some(ds) = sec.dataset.as_deref() else {
            continue;
        };
        let mut measures: Vec<(&str, Unit, &str)> = vec![("wall_s", Unit::Seconds, "wall time")];
        if sec.effort_unit_a.is_some() && sec.effort_unit_a == sec.effort_unit_b {
            if let Some(u) = sec.effort_unit_a {
                measures.push((u, Unit::Count, u));
            }
        }
        for (metric, unit, measure) in measures {
            let pairs = puzzle_pairs(rows, rep, ds, metric);
            if pairs.is_empty() {
                continue;
            }
            svgs.push(plot::render_scatter(
                &ScatterSpec {
                    name: format!("ab{n}-{}-{metric}.svg", plot::slug(ds)),
                    title: format!("{ds}: {measure} per puzzle, {na} (x) vs {nb} (y)"),
                    a: &na,
                    b: &nb,
                    unit,
                    measure,
                    limit: if unit == Unit::Seconds { limit } else { None },
                },
                &pairs,
            )?);
        }
    }
    let mut block = rep.doc();
    // The figures after the sides' list, before the first dataset's section.
    let at = block
        .0
        .iter()
        .position(|b| matches!(b, Block::Heading(3, _)))
        .unwrap_or(block.0.len());
    block
        .0
        .insert(at, figures(&svgs.iter().collect::<Vec<_>>()));
    d.append(block, 1);
    Ok(())
}

/// A verdict card: `good` green, `bad` red, neither grey; the words carry the meaning.
fn card(class: &str, what: &str, text: &str) -> String {
    format!(
        "<div class=\"card {class}\"><strong>{}</strong> {}</div>",
        esc(what),
        esc(text)
    )
}

/// The baseline section and its verdict card.
fn baseline_section(
    opts: &HtmlOptions,
    new: &RunSet,
    baseline: Option<&RunSet>,
    band: &Band,
) -> Result<(String, Doc), HtmlError> {
    let (Some(b), Some(base)) = (&opts.baseline, baseline) else {
        let mut d = Doc::default();
        d.para(
            crate::report::doc::Inline::text("No baseline given (")
                .code("--baseline DIR")
                .plain(")."),
        );
        return Ok((String::new(), d));
    };
    let labels = (b.display().to_string(), joined(&opts.files, " "));
    // The same gate as `compare` (same refusals, band, host check and `--times`), so the
    // card's verdict is `compare`'s, word for word; it then names what was flagged.
    let mut c = gate(base, new, band, (&labels.0, &labels.1), false)?;
    c.time_regressions = opts.time_regressions;
    let class = if c.exit_code() == 0 { "good" } else { "bad" };
    let mut text = c.headline();
    for (verdict, what) in [
        (TimeVerdict::Slowdown, "Slower"),
        (TimeVerdict::Speedup, "Faster"),
    ] {
        let named: Vec<String> = c.groups.iter().filter_map(|g| g.flagged(verdict)).collect();
        if !named.is_empty() {
            text.push_str(&format!(". {what}: {}", named.join("; ")));
        }
    }
    Ok((
        card(class, "Baseline:", &text),
        export::doc(&c, c.list_limit),
    ))
}

fn joined(paths: &[PathBuf], sep: &str) -> String {
    paths
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// The A/B section and one verdict card per comparison: the pairs asked for, else the
/// default pairs (whose failures are noted, not fatal: they were not asked for).
fn ab_section(
    opts: &HtmlOptions,
    configs: &BTreeMap<String, BTreeSet<Config>>,
    rows: &RunTable,
) -> Result<(Vec<String>, Doc), HtmlError> {
    use crate::report::doc::Inline;
    let time_limit = rows.facts.time_limit.secs;
    let explicit = !opts.ab.is_empty();
    let mut d = Doc::default();
    let pairs: Vec<(String, Selector, Selector)> = if explicit {
        opts.ab
            .iter()
            .map(|(a, b)| (format!("{a}:{b}"), a.clone(), b.clone()))
            .collect()
    } else {
        let (all, total) = default_pairs(configs, MAX_DEFAULT_PAIRS);
        d.note(
            Inline::text(
                "Default pairs: every two strategies run with the same rules on a dataset \
                 (choose with ",
            )
            .code("--ab A:B")
            .plain(")."),
        );
        if total > all.len() as u64 {
            d.note(format!(
                "{total} default pairs; the first {} are compared.",
                all.len()
            ));
        }
        all.into_iter()
            .filter_map(|p| parse_pair(&p).ok().map(|(a, b)| (p, a, b)))
            .collect()
    };
    if pairs.is_empty() {
        d.0.clear();
        d.para(
            Inline::text("No two strategies were run with the same rules on one dataset; pass ")
                .code("--ab A:B")
                .plain(" to compare configurations."),
        );
        return Ok((Vec::new(), d));
    }
    let mut cards = Vec::new();
    let mut failed = Vec::new();
    let mut blocks = Doc::default();
    let mut reports = Vec::new();
    for (label, a, b) in pairs {
        match ab::ab(rows, &AbOptions::new(a, b)) {
            Ok(rep) => reports.push(rep),
            Err(source) if explicit => {
                return Err(HtmlError::Ab {
                    pair: label,
                    source: Box::new(source),
                })
            }
            Err(e) => failed.push(
                Inline::text("")
                    .code(label)
                    .plain(format!(": not compared: {e}")),
            ),
        }
    }
    // The page makes every pair's tests at once: one Holm family, said on the page.
    let family = format!(
        "the {} A/B pair{} of this page",
        reports.len(),
        if reports.len() == 1 { "" } else { "s" }
    );
    ab::adjust_holm(&mut reports, &family);
    if let Some(first) = reports.first().filter(|r| r.holm_tests > 1) {
        d.note(format!(
            "p-values are Holm-adjusted over the {} tests of {family} (McNemar and Wilcoxon, \
             per dataset and pair); each is shown raw and adjusted, and a verdict calls a \
             difference clear on the adjusted value.",
            first.holm_tests
        ));
    }
    for (n, rep) in reports.iter().enumerate() {
        let (na, nb) = side_names(rep);
        cards.push(card(
            "",
            &format!("A/B {na} vs {nb}:"),
            &rep.overall.verdict,
        ));
        ab_block(&mut blocks, rows, rep, time_limit, n)?;
    }
    d.list(failed);
    d.append(blocks, 0);
    Ok((cards, d))
}

fn convergence_section(
    trace: Option<&std::path::Path>,
    kept: Option<&crate::report::input::KeptJobs>,
) -> Result<Doc, HtmlError> {
    use crate::report::doc::Inline;
    let mut d = Doc::default();
    let Some(t) = trace else {
        d.para(
            Inline::text("No trace given (")
                .code("bench-run --trace FILE")
                .plain(", then ")
                .code("--trace FILE")
                .plain(" here)."),
        );
        return Ok(d);
    };
    let runs = crate::report::input::KeptJobs::retain(kept, crate::results::trace::read_trace(t)?);
    let Some(svg) = plot::render_convergence(&runs)? else {
        d.para(if kept.is_some() {
            "No run of the trace is of a row --where kept."
        } else {
            "The trace holds no runs."
        });
        return Ok(d);
    };
    d.note(
        Inline::text("From ")
            .code(t.display().to_string())
            .plain("."),
    );
    d.push(figures(&[&svg]));
    Ok(d)
}

/// Cactus and run-length plots, grouped under a heading per dataset, then the sweep plots.
fn plots_section(plots: &PlotData, sweeps: &[Svg]) -> Result<Doc, HtmlError> {
    let mut svgs = plots.cactus()?;
    svgs.extend(plots.distributions()?);
    svgs.sort_by(|a, b| a.name.cmp(&b.name));
    let mut by_ds: BTreeMap<String, Vec<&Svg>> = BTreeMap::new();
    for s in &svgs {
        let ds = s.title.split(':').next().unwrap_or("").to_string();
        by_ds.entry(ds).or_default().push(s);
    }
    let mut d = Doc::default();
    for (ds, ss) in by_ds {
        d.heading(3, ds);
        d.push(figures(&ss));
    }
    if !sweeps.is_empty() {
        d.heading(3, "Sweeps");
        d.push(figures(&sweeps.iter().collect::<Vec<_>>()));
    }
    Ok(d)
}

/// The page around the sections: head with the inline CSS, header, navigation, the verdict
/// cards, one `<section>` per [`SECTIONS`] entry, the inline script.
fn page(title: &str, subtitle: &str, cards: &str, bodies: [Doc; 7]) -> String {
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n<header><h1>{t}</h1>\
         <p>{}</p></header>\n<nav>",
        esc(subtitle),
        t = esc(title)
    );
    for sec in &SECTIONS {
        let _ = write!(page, "<a href=\"#{}\">{}</a>", sec.id, sec.nav);
    }
    let _ = write!(
        page,
        "</nav>\n<main>\n<div class=\"verdicts\">{cards}</div>\n"
    );
    for (sec, body) in SECTIONS.iter().zip(bodies) {
        let _ = write!(
            page,
            "<section id=\"{}\">\n<h2>{}</h2>\n{}</section>\n",
            sec.id,
            sec.heading,
            body.html(1)
        );
    }
    let _ = write!(page, "</main>\n<script>\n{JS}</script>\n</body>\n</html>\n");
    page
}

/// Build the page from the new run's [`RunSet`] (and the baseline's, for the comparison
/// section, judged with the gate's `band`); the caller writes the returned HTML.
pub fn report(
    opts: &HtmlOptions,
    set: &RunSet,
    baseline: Option<&RunSet>,
    band: &Band,
) -> Result<String, HtmlError> {
    let metas: Vec<(PathBuf, Option<RunMeta>)> = set
        .files()
        .iter()
        .map(|f| (f.path.clone(), f.meta.clone()))
        .collect();
    // One pass: the run table (the summary and the A/B pairs are its views) and the plots.
    let mut extras = Extras::new(Detail::default(), set.efforts().clone());
    let mut kept = set.kept_jobs().filter(|_| opts.trace.is_some());
    let table = RunTable::read(set, summary::table_spec(), |g, r| {
        extras.add(g, r);
        if let Some(k) = kept.as_mut() {
            k.add(r);
        }
    })?;
    let mut plots = PlotData::of_table(&table, None);
    let mut summary = summarize_table(&table, extras, Vec::new());
    let mut configs: BTreeMap<String, BTreeSet<Config>> = BTreeMap::new();
    let mut totals = Totals::default();
    for g in &table.groups {
        let set = configs.entry(g.key.dataset.clone()).or_default();
        set.insert(g.key.config.clone());
        totals += &g.totals;
    }
    let (runs, solved) = (totals.runs, totals.solved());
    // Sweeps from every configuration, before the page keeps the top ones.
    let mut sweeps = Vec::new();
    for p in &opts.sweep {
        sweeps.extend(plot::render_sweep(&summary, p)?);
    }
    summary.keep_top(MAX_PAGE_GROUPS);
    plots.set_budget(set.budget());
    let (baseline_card, baseline_doc) = baseline_section(opts, set, baseline, band)?;
    let (ab_cards, ab_doc) = ab_section(opts, &configs, &table)?;
    let mut cards = baseline_card;
    cards.push_str(&card(
        "",
        &format!(
            "{} runs, {} solved ({})",
            runs,
            solved,
            if runs > 0 {
                format!("{:.1}%", 100.0 * solved as f64 / runs as f64)
            } else {
                "-".into()
            }
        ),
        &format!("in {} files, {} datasets", metas.len(), configs.len()),
    ));
    for c in &ab_cards {
        cards.push_str(c);
    }
    let bodies = [
        meta_doc(&metas),
        summary.doc(),
        plots_section(&plots, &sweeps)?,
        ab_doc,
        convergence_section(opts.trace.as_deref(), kept.as_ref())?,
        baseline_doc,
        crate::report::history::html_section(&opts.history, &opts.history_input, band)
            .map_err(|e| HtmlError::Refused(e.to_string()))?,
    ];
    let title = if opts.title.is_empty() {
        "puzzlebench report"
    } else {
        &opts.title
    };
    Ok(page(title, &joined(&opts.files, ", "), &cards, bodies))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_pairs_compare_strategies_under_the_same_rules() {
        let mut c = BTreeMap::new();
        let cfg = |s: &str, r: &str, p: &str| Config {
            strategy: s.to_string(),
            rules: r.to_string(),
            params: crate::results::Params::from_cell(p),
        };
        c.insert(
            "h".to_string(),
            BTreeSet::from([
                cfg("mrv", "full", ""),
                cfg("row", "full", ""),
                cfg("mrv", "basic", ""),
            ]),
        );
        c.insert(
            "s".to_string(),
            BTreeSet::from([
                cfg("abc", "", "limit=50"),
                cfg("abc-hybrid", "", "limit=50"),
            ]),
        );
        let both: Vec<String> = [
            "strategy=abc,limit=50:strategy=abc-hybrid,limit=50",
            "strategy=mrv,rules=full:strategy=row,rules=full",
        ]
        .map(String::from)
        .into();
        assert_eq!(default_pairs(&c, 12), (both, 2));
        // Capped: the count still says how many there are.
        assert_eq!(default_pairs(&c, 1).1, 2);
        assert_eq!(default_pairs(&c, 1).0.len(), 1);
        assert!(parse_pair("strategy=mrv").is_err());
    }
}
