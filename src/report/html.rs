//! `bench-report html`: one self-contained HTML page for a run: metadata, summary tables,
//! cactus and run-length plots per dataset, A/B comparisons with a per-puzzle scatter, ABC
//! convergence from a trace, and the comparison with a baseline.
//!
//! The page has no external resource: CSS and the SVG plots are inline, and a few lines of
//! vanilla JavaScript sort a table by a clicked column and filter long tables. It reads the
//! same way offline, from a CI artifact, or printed.
//!
//! Every section is produced by the module that owns the computation, rendered as markdown
//! ([`summary`](super::summary), [`ab`], [`export`]) and turned into HTML by the small
//! converter here, so the page and the terminal never disagree. Sections are always present
//! (with a sentence saying why one is empty), under fixed ids: [`SECTION_IDS`].

use crate::report::ab::{self, AbFormat, AbOptions, AbReport, Selector};
use crate::report::gate::{gate, Band, GateError};
use crate::report::input::RunSet;
use crate::report::plot::{self, Pair, PlotData, ScatterSpec, Svg, Unit};
use crate::report::summary::{summarize_set, Detail, Format};
use crate::report::{export, stats};
use crate::results::read::{self as io, ReadError};
use crate::results::RunMeta;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Section ids of the page, in order.
pub const SECTION_IDS: [&str; 7] = [
    "meta",
    "summary",
    "plots",
    "ab",
    "convergence",
    "baseline",
    "history",
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
}

/// Parse an `--ab` pair `A:B`, each side a selector as in `bench-report ab`.
pub fn parse_pair(s: &str) -> Result<(Selector, Selector), String> {
    let Some((a, b)) = s.split_once(':') else {
        return Err(format!("{s:?} is not A:B (e.g. strategy=mrv:strategy=row)"));
    };
    Ok((a.parse()?, b.parse()?))
}

/// Escape text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

/// Inline markdown: `code` and **bold** on escaped text.
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", esc(part));
            continue;
        }
        for (j, p) in esc(part).split("**").enumerate() {
            if j % 2 == 1 {
                let _ = write!(out, "<strong>{p}</strong>");
            } else {
                out.push_str(p);
            }
        }
    }
    out
}

fn cells(line: &str) -> Vec<&str> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(str::trim).collect()
}

/// The markdown this crate's reports write (headings, lists, pipe tables, `<sub>` notes,
/// paragraphs) as HTML. Headings are shifted down by `shift` levels to nest in a section.
pub fn markdown_to_html(md: &str, shift: usize) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = md.lines().collect();
    let mut i = 0;
    let mut in_list = false;
    while i < lines.len() {
        let line = lines[i].trim_end();
        let is_item = line.starts_with("- ");
        if in_list && !is_item {
            out.push_str("</ul>\n");
            in_list = false;
        }
        if line.trim().is_empty() {
            i += 1;
            continue;
        }
        if let Some(h) = line.strip_prefix('#') {
            let level = 1 + h.chars().take_while(|c| *c == '#').count();
            let text = h.trim_start_matches('#').trim();
            let l = (level + shift).min(6);
            let _ = writeln!(out, "<h{l}>{}</h{l}>", inline(text));
        } else if is_item {
            if !in_list {
                out.push_str("<ul>\n");
                in_list = true;
            }
            let _ = writeln!(out, "<li>{}</li>", inline(&line[2..]));
        } else if line.starts_with('|') {
            let head = cells(line);
            let mut right = vec![false; head.len()];
            if let Some(sep) = lines.get(i + 1).filter(|l| l.contains("---")) {
                for (k, c) in cells(sep).iter().enumerate() {
                    if let Some(r) = right.get_mut(k) {
                        *r = c.ends_with(':');
                    }
                }
                i += 1;
            }
            out.push_str("<table class=\"sortable\">\n<thead><tr>");
            for h in &head {
                let _ = write!(out, "<th>{}</th>", inline(h));
            }
            out.push_str("</tr></thead>\n<tbody>\n");
            while let Some(row) = lines.get(i + 1).filter(|l| l.trim_start().starts_with('|')) {
                out.push_str("<tr>");
                for (k, c) in cells(row).iter().enumerate() {
                    let cls = if right.get(k).copied().unwrap_or(false) {
                        " class=\"num\""
                    } else {
                        ""
                    };
                    let _ = write!(out, "<td{cls}>{}</td>", inline(c));
                }
                out.push_str("</tr>\n");
                i += 1;
            }
            out.push_str("</tbody></table>\n");
        } else if let Some(note) = line.strip_prefix("<sub>") {
            let note = note.trim_end_matches("<br>").trim_end_matches("</sub>");
            let _ = writeln!(out, "<p class=\"note\">{}</p>", inline(note));
        } else {
            let _ = writeln!(out, "<p>{}</p>", inline(line));
        }
        i += 1;
    }
    if in_list {
        out.push_str("</ul>\n");
    }
    out
}

const CSS: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{background:#22313f;color:#fff;padding:18px 28px}
header h1{margin:0 0 6px;font-size:24px}
header p{margin:2px 0;color:#d5dde5}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:8px 28px;z-index:1}
nav a{margin-right:18px;color:#1f5f99;text-decoration:none;font-weight:600}
main{padding:8px 28px 40px;max-width:1500px}
section{background:#fff;border:1px solid #e2e2e2;border-radius:6px;padding:8px 20px 16px;margin:18px 0}
h2{border-bottom:2px solid #22313f;padding-bottom:4px}
.verdicts{display:flex;flex-wrap:wrap;gap:10px}
.card{border-radius:6px;padding:10px 14px;border:1px solid #ccc;background:#f4f6f8;flex:1 1 320px}
.card.bad{background:#fdecea;border-color:#e0a49c}
.card.good{background:#eaf6ec;border-color:#9cc9a4}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;white-space:nowrap}
th{background:#eef1f4;cursor:pointer;user-select:none}
th.asc::after{content:' \\25B2'}th.desc::after{content:' \\25BC'}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even) td{background:#fafbfc}
.note{font-size:12px;color:#555;margin:3px 0}
.plots{display:flex;flex-wrap:wrap;gap:14px}
figure{margin:0;flex:1 1 860px;max-width:980px}
figure svg{width:100%;height:auto;border:1px solid #eee}
.filter{margin:6px 0;padding:4px 8px;width:280px}
.scroll{overflow-x:auto}
td.wrap{white-space:normal;min-width:260px;max-width:560px}
code{background:#f0f0f0;padding:0 3px;border-radius:3px}
";

/// Click a header to sort by that column (numbers by value); type in a filter box to hide
/// rows without the text.
const JS: &str = "\
document.querySelectorAll('table.sortable').forEach(function(t){
  var body=t.tBodies[0]; if(!body) return;
  if(body.rows.length>12){var f=document.createElement('input');f.className='filter';
    f.placeholder='filter rows\\u2026';t.parentNode.insertBefore(f,t);
    f.addEventListener('input',function(){var q=f.value.toLowerCase();
      Array.prototype.forEach.call(body.rows,function(r){
        r.style.display=r.textContent.toLowerCase().indexOf(q)<0?'none':'';});});}
  Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){
    th.addEventListener('click',function(){
      var asc=!th.classList.contains('asc');
      Array.prototype.forEach.call(th.parentNode.cells,function(c){c.classList.remove('asc','desc');});
      th.classList.add(asc?'asc':'desc');
      var key=function(r){var s=r.cells[i]?r.cells[i].textContent.trim():'';
        var m=s.replace(/^x/,'').match(/^-?[0-9.]+(e-?[0-9]+)?/);
        if(!m) return [1,s];
        var v=parseFloat(m[0]);var u=s.slice(m[0].length).trim();
        var k={ns:1e-9,'\\u00b5s':1e-6,ms:1e-3,s:1}[u.split(' ')[0]];
        return [0,k?v*k:v];};
      var rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(a,b){var x=key(a),y=key(b);
        var c=x[0]-y[0]||(x[1]<y[1]?-1:x[1]>y[1]?1:0);return asc?c:-c;});
      rows.forEach(function(r){body.appendChild(r);});});});});
";

/// A plot inline: plotters writes a bare `<svg>` root (no XML declaration), valid in HTML.
fn figure(out: &mut String, s: &Svg) {
    let _ = writeln!(
        out,
        "<figure id=\"fig-{}\" aria-label=\"{}\">{}</figure>",
        esc(s.name.trim_end_matches(".svg")),
        esc(&s.title),
        s.svg.trim()
    );
}

/// Run metadata of every input file, one row each.
fn meta_table(metas: &[(PathBuf, Option<RunMeta>)]) -> String {
    let mut out = String::from(
        "<div class=\"scroll\"><table class=\"sortable\"><thead><tr><th>file</th><th>dataset</th>\
         <th>strategies</th><th>jobs</th><th>seeds</th><th>colonies</th><th>time limit</th>\
         <th>node limit</th><th>threads</th><th>status</th><th>started</th><th>finished</th>\
         <th>version</th><th>revision</th></tr></thead><tbody>\n",
    );
    for (p, m) in metas {
        // The file name, with the whole path on hover: paths would crowd out the columns.
        let _ = write!(
            out,
            "<tr><td title=\"{}\">{}</td>",
            esc(&p.display().to_string()),
            esc(&p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            ))
        );
        let Some(m) = m else {
            out.push_str("<td colspan=\"13\">no .meta.json beside the file</td></tr>\n");
            continue;
        };
        let opt = |v: Option<String>| esc(&v.unwrap_or_else(|| "-".into()));
        let cells = [
            esc(m.dataset_name.as_deref().unwrap_or(&m.dataset)),
            esc(&m.solvers.join("; ")),
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
            esc(&m.version),
            opt(m.git_revision.clone()),
        ];
        for (i, c) in cells.into_iter().enumerate() {
            // The strategies cell holds long parameter strings: let it wrap.
            let cls = if i == 1 { " class=\"wrap\"" } else { "" };
            let _ = write!(out, "<td{cls}>{c}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    let machines: BTreeSet<String> = metas
        .iter()
        .filter_map(|(_, m)| m.as_ref())
        .filter(|m| !m.machine.is_null())
        .map(|m| m.machine.to_string())
        .collect();
    for m in machines {
        let _ = writeln!(
            out,
            "<p class=\"note\">machine: <code>{}</code></p>",
            esc(&m)
        );
    }
    out
}

/// Default A/B pairs: per dataset, every two configurations with the same rules and different
/// strategies; the selectors name strategy, rules and each parameter, so they match exactly.
fn default_pairs(configs: &BTreeMap<String, BTreeSet<(String, String, String)>>) -> Vec<String> {
    let sel = |c: &(String, String, String)| {
        let mut s = format!("strategy={}", c.0);
        if !c.1.is_empty() {
            let _ = write!(s, ",rules={}", c.1);
        }
        for t in c.2.split(';').filter(|t| t.contains('=')) {
            let _ = write!(s, ",{t}");
        }
        s
    };
    let mut pairs = BTreeSet::new();
    for cs in configs.values() {
        let cs: Vec<_> = cs.iter().collect();
        for (i, a) in cs.iter().enumerate() {
            for b in &cs[i + 1..] {
                if a.1 == b.1 && a.0 != b.0 {
                    pairs.insert(format!("{}:{}", sel(a), sel(b)));
                }
            }
        }
    }
    pairs.into_iter().collect()
}

/// Per puzzle of one dataset, the median over its paired runs of each side's value (a run
/// that did not solve counts as infinitely long, so a puzzle most runs failed is unsolved).
fn puzzle_pairs(
    rows: &ab::Rows,
    rep: &AbReport,
    dataset: &str,
    value: impl Fn(&ab::Row) -> Option<f64>,
) -> Vec<Pair> {
    let is = |r: &ab::Row, s: &ab::Side| {
        r.dataset == dataset
            && r.strategy == s.strategy
            && r.rules == s.rules
            && r.params == s.params
    };
    type Key<'a> = (&'a str, u64, u32);
    let side = |s: &ab::Side| -> BTreeMap<Key, f64> {
        rows.rows
            .iter()
            .filter(|r| is(r, s))
            .map(|r| {
                let v = if r.solved { value(r) } else { None };
                (
                    (r.puzzle_id.as_str(), r.seed, r.colony),
                    v.unwrap_or(f64::INFINITY),
                )
            })
            .collect()
    };
    let (a, b) = (side(&rep.a), side(&rep.b));
    let mut per_puzzle: BTreeMap<&str, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for (k, va) in &a {
        if let Some(vb) = b.get(k) {
            let e = per_puzzle.entry(k.0).or_default();
            e.0.push(*va);
            e.1.push(*vb);
        }
    }
    let med = |v: &[f64]| stats::percentile_sorted(&stats::sorted(v), 0.5).unwrap_or(f64::INFINITY);
    per_puzzle
        .values()
        .map(|(va, vb)| {
            let (ma, mb) = (med(va), med(vb));
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

/// The A/B section for one pair: scatter plots per dataset (time, and effort when both sides
/// count the same unit), then the report as markdown.
fn ab_block(
    out: &mut String,
    rows: &ab::Rows,
    rep: &AbReport,
    limit: Option<f64>,
    n: usize,
) -> Result<(), HtmlError> {
    let (na, nb) = side_names(rep);
    let _ = writeln!(
        out,
        "<div class=\"ab\" id=\"ab-{n}\"><h3>{} vs {}</h3>",
        esc(&na),
        esc(&nb)
    );
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
            let pairs = puzzle_pairs(rows, rep, ds, |r| match metric {
                "nodes" => r.nodes.map(|v| v as f64),
                "cycles" => r.cycles.map(|v| v as f64),
                _ => Some(r.wall_s),
            });
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
    out.push_str("<div class=\"plots\">\n");
    for s in &svgs {
        figure(out, s);
    }
    out.push_str("</div>\n");
    out.push_str(&markdown_to_html(&rep.render(AbFormat::Markdown), 2));
    out.push_str("</div>\n");
    Ok(())
}

/// What the page gathers in the summary's streamed pass, besides the summary.
#[derive(Default)]
struct Pass {
    plots: PlotData,
    /// (strategy, rules, params) run on each dataset.
    configs: BTreeMap<String, BTreeSet<(String, String, String)>>,
    runs: u64,
    solved: u64,
}

impl Pass {
    fn add(&mut self, r: &crate::results::Record) {
        self.plots.add(r);
        self.runs += 1;
        self.solved += u64::from(r.status == Some(crate::results::Status::Solved));
        let set = self.configs.entry(r.dataset.clone()).or_default();
        if !set
            .iter()
            .any(|c| c.0 == r.strategy && c.1 == r.rules && c.2 == r.params.as_str())
        {
            set.insert((
                r.strategy.clone(),
                r.rules.clone(),
                r.params.as_str().to_string(),
            ));
        }
    }
}

/// The baseline section and its headline card.
fn baseline_section(
    opts: &HtmlOptions,
    new: &RunSet,
    baseline: Option<&RunSet>,
    band: &Band,
) -> Result<(String, String), HtmlError> {
    let (Some(b), Some(base)) = (&opts.baseline, baseline) else {
        return Ok((
            String::new(),
            "<p>No baseline given (<code>--baseline DIR</code>).</p>\n".into(),
        ));
    };
    let labels = (b.display().to_string(), joined(&opts.files, " "));
    // The same gate as `compare` (same refusals, band and host check); the page reports, the
    // exit code of `compare` is the gate, so slowdowns are shown but not called a regression.
    let mut c = gate(base, new, band, (&labels.0, &labels.1), false)?;
    c.time_regressions = false;
    let card = format!(
        "<div class=\"card {}\"><strong>Baseline:</strong> {}</div>",
        if c.is_regression() { "bad" } else { "good" },
        esc(&c.headline())
    );
    Ok((card, markdown_to_html(&export::markdown(&c), 1)))
}

fn joined(paths: &[PathBuf], sep: &str) -> String {
    paths
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// The A/B section: the pairs asked for, else the default pairs (whose failures are noted,
/// not fatal: they were not asked for).
fn ab_section(
    opts: &HtmlOptions,
    configs: &BTreeMap<String, BTreeSet<(String, String, String)>>,
    set: &RunSet,
) -> Result<String, HtmlError> {
    let time_limit = set.time_limit().secs;
    let explicit = !opts.ab.is_empty();
    let pairs: Vec<(String, Selector, Selector)> = if explicit {
        opts.ab
            .iter()
            .map(|(a, b)| (format!("{a}:{b}"), a.clone(), b.clone()))
            .collect()
    } else {
        default_pairs(configs)
            .into_iter()
            .filter_map(|p| parse_pair(&p).ok().map(|(a, b)| (p, a, b)))
            .collect()
    };
    if pairs.is_empty() {
        return Ok(
            "<p>No two strategies were run with the same rules on one dataset; pass \
                   <code>--ab A:B</code> to compare configurations.</p>\n"
                .into(),
        );
    }
    let rows = ab::load_rows(set).map_err(|e| HtmlError::Refused(e.to_string()))?;
    let mut out = String::new();
    if !explicit {
        out.push_str(
            "<p class=\"note\">Default pairs: every two strategies run with the same rules \
             on a dataset (choose with <code>--ab A:B</code>).</p>\n",
        );
    }
    out.push_str("<ul>\n");
    let mut blocks = String::new();
    for (n, (label, a, b)) in pairs.into_iter().enumerate() {
        match ab::ab(&rows, &AbOptions::new(a, b)) {
            Ok(rep) => {
                let (na, nb) = side_names(&rep);
                let _ = writeln!(
                    out,
                    "<li><a href=\"#ab-{n}\">{} vs {}</a>: {}</li>",
                    esc(&na),
                    esc(&nb),
                    esc(&rep.overall.verdict)
                );
                ab_block(&mut blocks, &rows, &rep, time_limit, n)?;
            }
            Err(source) if explicit => {
                return Err(HtmlError::Ab {
                    pair: label,
                    source: Box::new(source),
                })
            }
            Err(e) => {
                let _ = writeln!(
                    out,
                    "<li><code>{}</code>: not compared: {}</li>",
                    esc(&label),
                    esc(&e.to_string())
                );
            }
        }
    }
    out.push_str("</ul>\n");
    out.push_str(&blocks);
    Ok(out)
}

fn convergence_section(trace: Option<&std::path::Path>) -> Result<String, HtmlError> {
    let Some(t) = trace else {
        return Ok(
            "<p>No trace given (<code>bench-run --trace FILE</code>, then \
                   <code>--trace FILE</code> here).</p>\n"
                .into(),
        );
    };
    let Some(svg) = plot::render_convergence(&io::read_trace(t)?)? else {
        return Ok("<p>The trace holds no runs.</p>\n".into());
    };
    let mut out = format!(
        "<p class=\"note\">From <code>{}</code>.</p><div class=\"plots\">\n",
        esc(&t.display().to_string())
    );
    figure(&mut out, &svg);
    out.push_str("</div>\n");
    Ok(out)
}

/// Cactus and run-length plots, grouped under a heading per dataset.
fn plots_section(plots: &PlotData) -> Result<String, HtmlError> {
    let mut svgs = plots.cactus()?;
    svgs.extend(plots.distributions()?);
    svgs.sort_by(|a, b| a.name.cmp(&b.name));
    let mut by_ds: BTreeMap<String, Vec<&Svg>> = BTreeMap::new();
    for s in &svgs {
        let ds = s.title.split(':').next().unwrap_or("").to_string();
        by_ds.entry(ds).or_default().push(s);
    }
    let mut out = String::new();
    for (ds, ss) in by_ds {
        let _ = writeln!(out, "<h3>{}</h3><div class=\"plots\">", esc(&ds));
        for s in ss {
            figure(&mut out, s);
        }
        out.push_str("</div>\n");
    }
    Ok(out)
}

/// The page around the sections: head with the inline CSS, header, navigation, the headline
/// cards, one `<section>` per [`SECTION_IDS`] entry, the inline script.
fn page(title: &str, subtitle: &str, cards: &str, bodies: [String; 7]) -> String {
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n<header><h1>{t}</h1>\
         <p>{}</p></header>\n<nav>",
        esc(subtitle),
        t = esc(title)
    );
    let names = [
        "Runs",
        "Summary",
        "Plots",
        "A/B",
        "Convergence",
        "Baseline",
        "History",
    ];
    for (id, name) in SECTION_IDS.iter().zip(names) {
        let _ = write!(page, "<a href=\"#{id}\">{name}</a>");
    }
    let _ = write!(
        page,
        "</nav>\n<main>\n<div class=\"verdicts\">{cards}</div>\n"
    );
    let headings = [
        "Runs",
        "Summary",
        "Cactus and run-length plots",
        "A/B comparisons",
        "ABC convergence",
        "Baseline comparison",
        "Run history",
    ];
    for ((id, h), body) in SECTION_IDS.iter().zip(headings).zip(bodies) {
        let _ = write!(
            page,
            "<section id=\"{id}\">\n<h2>{h}</h2>\n{body}</section>\n"
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
    // One streamed pass for the summary, the plots and the configurations per dataset.
    let mut pass = Pass::default();
    let (summary, _) = summarize_set(set, Detail::default(), Vec::new(), |r| pass.add(r))?;
    pass.plots.set_budget(set.budget());
    let (baseline_card, baseline_html) = baseline_section(opts, set, baseline, band)?;
    let cards = format!(
        "<div class=\"card\"><strong>{} runs, {} solved</strong> ({}) in {} files, {} \
         datasets</div>{baseline_card}",
        pass.runs,
        pass.solved,
        if pass.runs > 0 {
            format!("{:.1}%", 100.0 * pass.solved as f64 / pass.runs as f64)
        } else {
            "-".into()
        },
        metas.len(),
        pass.configs.len()
    );
    let bodies = [
        meta_table(&metas),
        markdown_to_html(&summary.render(Format::Markdown), 1),
        plots_section(&pass.plots)?,
        ab_section(opts, &pass.configs, set)?,
        convergence_section(opts.trace.as_deref())?,
        baseline_html,
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
    fn markdown_tables_lists_and_notes_become_html() {
        let md = "## Head\n\n- a `x<y`\n- **b**\n\n| k | n |\n| --- | ---: |\n| a&b | 1 |\n\n<sub>note</sub><br>\n";
        let h = markdown_to_html(md, 1);
        assert!(h.contains("<h3>Head</h3>"), "{h}");
        assert!(h.contains("<li>a <code>x&lt;y</code></li>"), "{h}");
        assert!(h.contains("<li><strong>b</strong></li>"), "{h}");
        assert!(
            h.contains("<td>a&amp;b</td><td class=\"num\">1</td>"),
            "{h}"
        );
        assert!(h.contains("<p class=\"note\">note</p>"), "{h}");
        assert_eq!(h.matches("<table").count(), h.matches("</table>").count());
    }

    #[test]
    fn default_pairs_compare_strategies_under_the_same_rules() {
        let mut c = BTreeMap::new();
        let cfg = |s: &str, r: &str, p: &str| (s.to_string(), r.to_string(), p.to_string());
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
        assert_eq!(
            default_pairs(&c),
            vec![
                "strategy=abc,limit=50:strategy=abc-hybrid,limit=50",
                "strategy=mrv,rules=full:strategy=row,rules=full",
            ]
        );
        assert!(parse_pair("strategy=mrv").is_err());
    }
}
