//! SVG plots with plotters' SVG backend (no system libraries, no fonts needed: the SVG holds
//! `<text>` elements the viewer renders).
//!
//! - cactus: per dataset, x = runs solved, y = wall time of the k-th fastest solved run.
//! - distribution: per dataset, the run-length distribution of nodes (Hitori, Sudoku
//!   backtrack) or cycles (ABC): y = fraction of all runs solved within x. It is an ECDF of the
//!   solved runs' effort scaled by the success rate, so curves end at the solved fraction.
//! - convergence: ABC best conflicts per cycle, median with a p10–p90 band, per strategy.
//!
//! An axis switches to log scale when its data spans more than two decades. Log and linear
//! axes share one code path: values are mapped (log10 or identity) onto a linear axis with
//! explicit tick positions, and tick labels map back.

use crate::report::stats;
use crate::report::{labels, GroupKey};
use crate::results::TraceRow;
use crate::results::{Record, Status};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::ops::Range;

/// A plot could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// plotters failed while drawing.
    #[error("drawing {name}: {detail}")]
    Draw {
        /// File name of the plot.
        name: String,
        /// plotters' message.
        detail: String,
    },
}

/// A rendered plot: the file name it should get and the SVG text.
#[derive(Clone, Debug, PartialEq)]
pub struct Svg {
    /// File name, e.g. `hitori5-cactus.svg`.
    pub name: String,
    /// The document.
    pub svg: String,
}

const SIZE: (u32, u32) = (960, 600);
const FONT: &str = "sans-serif";

/// Tableau 10: distinct, colour-blind-friendlier than plotters' primaries.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A file-name-safe form of a dataset name.
fn slug(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if t.is_empty() {
        "dataset".to_string()
    } else {
        t
    }
}

/// Number for a tick label: short, no float noise.
fn fmt_tick(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let a = x.abs();
    if !(1e-3..1e6).contains(&a) {
        let e = a.log10().floor() as i32;
        let m = x / 10f64.powi(e);
        return if (m - m.round()).abs() < 1e-9 {
            format!("{}e{e}", m.round())
        } else {
            format!("{m:.1}e{e}")
        };
    }
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// One axis: data range, scale, ticks.
#[derive(Clone, Debug)]
struct Axis {
    log: bool,
    lo: f64,
    hi: f64,
}

impl Axis {
    /// Fit values; log when positive values span more than two decades. `from_zero` anchors
    /// a linear axis at 0 (counts, conflicts).
    fn fit(vals: &[f64], from_zero: bool, allow_log: bool) -> Axis {
        let finite: Vec<f64> = vals.iter().copied().filter(|v| v.is_finite()).collect();
        let pos: Vec<f64> = finite.iter().copied().filter(|v| *v > 0.0).collect();
        let (pmin, pmax) = (
            pos.iter().copied().fold(f64::INFINITY, f64::min),
            pos.iter().copied().fold(0.0, f64::max),
        );
        if allow_log && !pos.is_empty() && pmax / pmin > 100.0 {
            let lo = 10f64.powf(pmin.log10().floor());
            let hi = 10f64.powf(pmax.log10().ceil());
            return Axis { log: true, lo, hi };
        }
        let max = finite.iter().copied().fold(0.0, f64::max);
        let min = finite.iter().copied().fold(max, f64::min);
        let lo = if from_zero { min.min(0.0) } else { min };
        let mut hi = if max > lo { max } else { lo + 1.0 };
        hi += (hi - lo) * 0.04; // headroom so the top point is not on the frame
        Axis { log: false, lo, hi }
    }

    fn map(&self, v: f64) -> f64 {
        if self.log {
            v.max(self.lo).log10()
        } else {
            v
        }
    }

    fn range(&self) -> Range<f64> {
        self.map(self.lo)..self.map(self.hi)
    }

    /// Tick positions in mapped space: decades on a log axis, 1/2/5 steps on a linear one.
    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.map(self.lo).round() as i32,
                self.map(self.hi).round() as i32,
            );
            let step = ((b - a) / 8 + 1).max(1) as usize;
            (a..=b).step_by(step).map(f64::from).collect()
        } else {
            let span = self.hi - self.lo;
            let raw = span / 6.0;
            let mag = 10f64.powf(raw.log10().floor());
            let step = [1.0, 2.0, 5.0, 10.0]
                .iter()
                .map(|m| m * mag)
                .find(|s| span / s <= 8.0)
                .unwrap_or(10.0 * mag);
            let first = (self.lo / step).ceil() as i64;
            let last = (self.hi / step).floor() as i64;
            (first..=last).map(|k| k as f64 * step).collect()
        }
    }

    /// Minor grid lines: 2..9 within each decade on a log axis.
    fn minor(&self) -> Vec<f64> {
        if !self.log {
            return Vec::new();
        }
        let (a, b) = (
            self.map(self.lo).round() as i32,
            self.map(self.hi).round() as i32,
        );
        (a..b)
            .flat_map(|e| (2..10).map(move |m| (f64::from(m) * 10f64.powi(e)).log10()))
            .collect()
    }

    fn spec(&self) -> Ticked {
        Ticked {
            inner: self.range().into(),
            bold: self.ticks(),
            light: self.minor(),
        }
    }

    fn label(&self, mapped: f64) -> String {
        if self.log {
            fmt_tick(10f64.powf(mapped))
        } else {
            fmt_tick(mapped)
        }
    }

    fn desc(&self, what: &str) -> String {
        if self.log {
            format!("{what}, log scale")
        } else {
            what.to_string()
        }
    }
}

/// A linear f64 axis with explicit tick positions. plotters' own `WithKeyPoints` opts out of
/// default label formatting, which the mesh's label formatter needs, hence this small wrapper.
struct Ticked {
    inner: RangedCoordf64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}

/// A line to draw: legend label, colour index, mapped points, and an optional band polygon.
struct Series {
    label: String,
    color: usize,
    points: Vec<(f64, f64)>,
    markers: bool,
    band: Option<Vec<(f64, f64)>>,
}

struct Chart<'a> {
    name: String,
    title: String,
    x: Axis,
    y: Axis,
    x_desc: &'a str,
    y_desc: &'a str,
    legend_at: SeriesLabelPosition,
    series: Vec<Series>,
}

fn draw(c: Chart) -> Result<Svg, PlotError> {
    let derr = |e: &dyn std::fmt::Display| PlotError::Draw {
        name: c.name.clone(),
        detail: e.to_string(),
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| derr(&e))?;
        let (x_lbl, y_lbl) = (c.x.clone(), c.y.clone());
        let x_fmt = move |v: &f64| x_lbl.label(*v);
        let y_fmt = move |v: &f64| y_lbl.label(*v);
        let mut chart = ChartBuilder::on(&root)
            .caption(&c.title, (FONT, 22))
            .margin(16)
            .x_label_area_size(52)
            .y_label_area_size(78)
            .build_cartesian_2d(c.x.spec(), c.y.spec())
            .map_err(|e| derr(&e))?;
        chart
            .configure_mesh()
            .x_desc(c.x.desc(c.x_desc))
            .y_desc(c.y.desc(c.y_desc))
            .axis_desc_style((FONT, 16))
            .label_style((FONT, 13))
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .bold_line_style(BLACK.mix(0.15))
            .light_line_style(BLACK.mix(0.06))
            .draw()
            .map_err(|e| derr(&e))?;
        for s in &c.series {
            let col = color(s.color);
            if let Some(band) = &s.band {
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        band.clone(),
                        col.mix(0.18).filled(),
                    )))
                    .map_err(|e| derr(&e))?;
            }
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    col.stroke_width(2),
                ))
                .map_err(|e| derr(&e))?
                .label(&s.label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 22, y)], col.stroke_width(3))
                });
            if s.markers {
                chart
                    .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, col.filled())))
                    .map_err(|e| derr(&e))?;
            }
        }
        chart
            .configure_series_labels()
            .position(c.legend_at)
            .label_font((FONT, 14))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .margin(12)
            .draw()
            .map_err(|e| derr(&e))?;
        root.present().map_err(|e| derr(&e))?;
    }
    Ok(Svg { name: c.name, svg })
}

fn by_dataset(rows: &[Record]) -> BTreeMap<&str, Vec<&Record>> {
    let mut m: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        m.entry(r.dataset.as_str()).or_default().push(r);
    }
    m
}

fn groups<'a>(rows: &[&'a Record]) -> (Vec<GroupKey>, Vec<Vec<&'a Record>>) {
    let mut m: BTreeMap<GroupKey, Vec<&Record>> = BTreeMap::new();
    for r in rows {
        m.entry(GroupKey::of(r)).or_default().push(r);
    }
    m.into_iter().unzip()
}

/// Cactus plots, one per dataset: `<dataset>-cactus.svg`.
pub fn render_cactus(rows: &[Record]) -> Result<Vec<Svg>, PlotError> {
    let mut out = Vec::new();
    for (dataset, rs) in by_dataset(rows) {
        let (keys, gs) = groups(&rs);
        let names = labels(&keys);
        let solved: Vec<Vec<f64>> = gs
            .iter()
            .map(|g| {
                stats::sorted(
                    &g.iter()
                        .filter(|r| r.status == Some(Status::Solved))
                        .map(|r| r.wall_s)
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        let all_t: Vec<f64> = solved.iter().flatten().copied().collect();
        let max_n = solved.iter().map(Vec::len).max().unwrap_or(0);
        let x = Axis::fit(&[0.0, max_n.max(1) as f64], true, false);
        let y = Axis::fit(&all_t, true, true);
        let series = solved
            .iter()
            .enumerate()
            .map(|(i, ts)| Series {
                label: format!("{} ({}/{} solved)", names[i], ts.len(), gs[i].len()),
                color: i,
                points: ts
                    .iter()
                    .enumerate()
                    .map(|(k, t)| ((k + 1) as f64, y.map(*t)))
                    .collect(),
                markers: ts.len() <= 60,
                band: None,
            })
            .collect();
        out.push(draw(Chart {
            name: format!("{}-cactus.svg", slug(dataset)),
            title: format!("{dataset}: runs solved within a time"),
            x,
            y,
            x_desc: "runs solved (count)",
            y_desc: "wall time of k-th fastest solved run (s)",
            legend_at: SeriesLabelPosition::UpperLeft,
            series,
        })?);
    }
    Ok(out)
}

/// Run-length distributions, per dataset and metric: `<dataset>-nodes.svg` for groups that
/// count nodes, `<dataset>-cycles.svg` for ABC groups (a Sudoku dataset run with both gets
/// both).
pub fn render_distribution(rows: &[Record]) -> Result<Vec<Svg>, PlotError> {
    let mut out = Vec::new();
    for (dataset, rs) in by_dataset(rows) {
        let (keys, gs) = groups(&rs);
        let names = labels(&keys);
        for metric in ["nodes", "cycles"] {
            let effort = |r: &Record| {
                if metric == "cycles" {
                    r.counters.cycles
                } else {
                    r.counters.nodes
                }
            };
            // ABC rows carry no nodes, Hitori rows no cycles; a group counts cycles if any of
            // its rows does.
            let chosen: Vec<usize> = (0..gs.len())
                .filter(|&i| {
                    let abc = gs[i].iter().any(|r| r.counters.cycles.is_some());
                    (metric == "cycles") == abc && gs[i].iter().any(|r| effort(r).is_some())
                })
                .collect();
            if chosen.is_empty() {
                continue;
            }
            let vals: Vec<Vec<f64>> = chosen
                .iter()
                .map(|&i| {
                    gs[i]
                        .iter()
                        .filter(|r| r.status == Some(Status::Solved))
                        .filter_map(|r| effort(r).map(|v| v as f64))
                        .collect()
                })
                .collect();
            let all: Vec<f64> = vals.iter().flatten().copied().collect();
            let x = Axis::fit(&all, true, true);
            let y = Axis {
                log: false,
                lo: 0.0,
                hi: 1.04,
            };
            let series = chosen
                .iter()
                .zip(&vals)
                .enumerate()
                .map(|(ci, (&gi, v))| {
                    let runs = gs[gi].len() as f64;
                    let scale = v.len() as f64 / runs;
                    let mut pts = vec![(x.map(x.lo), 0.0)];
                    let mut prev = 0.0;
                    for (val, f) in stats::ecdf(v) {
                        let xv = x.map(val);
                        pts.push((xv, prev));
                        prev = f * scale;
                        pts.push((xv, prev));
                    }
                    pts.push((x.map(x.hi), prev));
                    Series {
                        label: format!("{} ({}/{} solved)", names[gi], v.len(), gs[gi].len()),
                        color: ci,
                        points: pts,
                        markers: false,
                        band: None,
                    }
                })
                .collect();
            out.push(draw(Chart {
                name: format!("{}-{metric}.svg", slug(dataset)),
                title: format!("{dataset}: {metric} to solve (run-length distribution)"),
                x,
                y,
                x_desc: if metric == "cycles" {
                    "ABC cycles"
                } else {
                    "search nodes"
                },
                y_desc: "fraction of runs solved within x",
                legend_at: SeriesLabelPosition::LowerRight,
                series,
            })?);
        }
    }
    Ok(out)
}

/// Per-cycle p10, median and p90 of best conflicts over a group's runs. A run's value
/// carries forward past its last trace row, so runs that stop early (solved: 0 conflicts)
/// keep counting instead of vanishing from the statistics.
fn convergence_stats(runs: &[Vec<(u64, f64)>]) -> Vec<(f64, f64, f64, f64)> {
    let mut cycles: Vec<u64> = runs.iter().flatten().map(|p| p.0).collect();
    cycles.sort_unstable();
    cycles.dedup();
    let mut pos = vec![0usize; runs.len()];
    let mut out = Vec::with_capacity(cycles.len());
    let mut buf = Vec::with_capacity(runs.len());
    for c in cycles {
        buf.clear();
        for (r, p) in runs.iter().zip(pos.iter_mut()) {
            while *p + 1 < r.len() && r[*p + 1].0 <= c {
                *p += 1;
            }
            if r.first().is_some_and(|f| f.0 <= c) {
                buf.push(r[*p].1);
            }
        }
        buf.sort_by(f64::total_cmp);
        if let (Some(lo), Some(med), Some(hi)) = (
            stats::percentile_sorted(&buf, 0.1),
            stats::percentile_sorted(&buf, 0.5),
            stats::percentile_sorted(&buf, 0.9),
        ) {
            out.push((c as f64, lo, med, hi));
        }
    }
    out
}

/// ABC convergence from trace rows: `convergence.svg`, one median line with a p10–p90 band
/// per (dataset, strategy, params). `None` when there are no trace rows.
pub fn render_convergence(trace: &[TraceRow]) -> Result<Option<Svg>, PlotError> {
    type RunKey<'a> = (&'a str, u64, u32);
    let mut by_group: BTreeMap<GroupKey, BTreeMap<RunKey, Vec<(u64, f64)>>> = BTreeMap::new();
    for t in trace {
        let key = GroupKey {
            dataset: t.dataset.clone(),
            kind: crate::kind::PuzzleKind::Sudoku,
            strategy: t.strategy.clone(),
            rules: String::new(),
            params: crate::results::Params::from_cell(&t.params),
        };
        by_group
            .entry(key)
            .or_default()
            .entry((t.puzzle_id.as_str(), t.seed, t.colony))
            .or_default()
            .push((t.cycle, t.best_conflicts as f64));
    }
    if by_group.is_empty() {
        return Ok(None);
    }
    let keys: Vec<GroupKey> = by_group.keys().cloned().collect();
    let mut names = labels(&keys);
    let datasets: std::collections::BTreeSet<&str> =
        keys.iter().map(|k| k.dataset.as_str()).collect();
    if datasets.len() > 1 {
        for (n, k) in names.iter_mut().zip(&keys) {
            *n = format!("{}: {n}", k.dataset);
        }
    }
    let mut curves = Vec::new();
    for (runs, name) in by_group.into_values().zip(names) {
        let mut runs: Vec<Vec<(u64, f64)>> = runs.into_values().collect();
        for r in &mut runs {
            r.sort_by_key(|p| p.0);
        }
        curves.push((name, runs.len(), convergence_stats(&runs)));
    }
    let xs: Vec<f64> = curves
        .iter()
        .flat_map(|c| c.2.iter().map(|p| p.0))
        .collect();
    let ys: Vec<f64> = curves
        .iter()
        .flat_map(|c| c.2.iter().map(|p| p.3))
        .collect();
    let x = Axis::fit(&xs, true, false);
    let y = Axis::fit(&ys, true, false);
    let series = curves
        .into_iter()
        .enumerate()
        .map(|(i, (name, n, pts))| {
            let mut band: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.3)).collect();
            band.extend(pts.iter().rev().map(|p| (p.0, p.1)));
            Series {
                label: format!("{name} (median of {n} runs)"),
                color: i,
                points: pts.iter().map(|p| (p.0, p.2)).collect(),
                markers: false,
                band: Some(band),
            }
        })
        .collect();
    draw(Chart {
        name: "convergence.svg".to_string(),
        title: "ABC convergence: best conflicts per cycle (shaded: p10-p90)".to_string(),
        x,
        y,
        x_desc: "cycle",
        y_desc: "best conflicts",
        legend_at: SeriesLabelPosition::UpperRight,
        series,
    })
    .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_goes_log_only_beyond_two_decades() {
        let a = Axis::fit(&[0.5, 40.0], true, true);
        assert!(!a.log);
        let a = Axis::fit(&[0.001, 2.0], true, true);
        assert!(a.log && a.lo == 0.001 && a.hi == 10.0, "{a:?}");
        assert_eq!(a.ticks(), vec![-3.0, -2.0, -1.0, 0.0, 1.0]);
        assert_eq!(a.label(-3.0), "0.001");
        assert_eq!(
            Axis::fit(&[0.0, 37.0], true, false).ticks(),
            vec![0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0]
        );
        assert_eq!(fmt_tick(1e-6), "1e-6");
        assert_eq!(fmt_tick(0.25), "0.25");
        assert_eq!(fmt_tick(2000.0), "2000");
    }

    #[test]
    fn convergence_carries_finished_runs_forward() {
        // Run A solves at cycle 2 and stops; run B stays at 4.
        let runs = vec![vec![(0, 6.0), (1, 3.0), (2, 0.0)], vec![(0, 8.0), (3, 4.0)]];
        let s = convergence_stats(&runs);
        assert_eq!(s.len(), 4);
        assert_eq!(s[0], (0.0, 6.2, 7.0, 7.8));
        assert_eq!(s[3].2, 2.0); // median of 0 (carried) and 4
    }

    #[test]
    fn one_series_and_legend_entry_per_group() {
        let mut rows = Vec::new();
        for (s, f) in [("mrv", 1.0), ("row", 3.0)] {
            for i in 0..10 {
                let mut r = Record::sample(
                    "h/5",
                    s,
                    &format!("p{i}"),
                    Status::Solved,
                    f * 0.001 * (i + 1) as f64,
                );
                r.counters.nodes = Some((f as u64) * (i + 1));
                rows.push(r);
            }
        }
        let svgs = render_cactus(&rows).expect("cactus");
        assert_eq!(svgs.len(), 1);
        assert_eq!(svgs[0].name, "h_5-cactus.svg");
        for label in ["mrv basic (10/10 solved)", "row basic (10/10 solved)"] {
            assert_eq!(
                svgs[0].svg.matches(&format!(">\n{label}\n</text>")).count(),
                1,
                "{label}"
            );
        }
        // One data line (width 2) per group, in the group's colour; legend samples are width 3.
        for col in ["#1F77B4", "#FF7F0E"] {
            let line = format!("stroke=\"{col}\" stroke-width=\"2\"");
            assert_eq!(svgs[0].svg.matches(&line).count(), 1, "{col}");
        }
        assert_eq!(svgs[0].svg.matches("stroke-width=\"2\"").count(), 2);
        let d = render_distribution(&rows).expect("distribution");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].name, "h_5-nodes.svg");
    }
}
