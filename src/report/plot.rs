//! SVG plots with plotters' SVG backend (no system libraries, no fonts needed: the SVG holds
//! `<text>` elements the viewer renders).
//!
//! - cactus: per dataset, x = runs solved, y = wall time of the k-th fastest solved run, with
//!   the time limit drawn when the run had one.
//! - distribution: per dataset, the run-length distribution of nodes (Hitori, Sudoku
//!   backtrack) or cycles (ABC): y = fraction of all runs solved within x. It is an ECDF of the
//!   solved runs' effort scaled by the success rate, so curves end at the solved fraction; the
//!   x axis ends at the budget (node limit, or ABC's `max_cycles`) when it is known.
//! - scatter: one configuration against another per puzzle, log-log, with 1×, 2× and 10× lines.
//! - convergence: ABC best conflicts per cycle, median with a p10–p90 band, per strategy.
//!
//! Readability rules every plot follows: the legend sits below the plot area and never covers
//! data; time axes read `10 µs`, `1 ms`, `2 s`; count axes have integer ticks (`10k`, `1M`);
//! each series has its own colour, dash pattern and marker shape, so overlapping curves stay
//! apart in grey print too; titles name the dataset.
//!
//! Plots keep only what they draw: [`PlotData`] takes rows one at a time and keeps, per
//! series, the solved runs' values (one number each, up to [`EXACT_CAP`], then a log-binned
//! histogram), never the rows.
//!
//! An axis switches to log scale when its data spans more than two decades. Log and linear
//! axes share one code path: values are mapped (log10 or identity) onto a linear axis with
//! explicit tick positions, and tick labels map back.

use crate::report::input::Efforts;
use crate::report::{describe, stats};
use crate::report::{labels, GroupKey};
use crate::results::TraceRun;
use crate::results::{Record, Status};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::{BTreeMap, BTreeSet};
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
    /// The plot's title, for a caption or a heading.
    pub title: String,
    /// The document.
    pub svg: String,
}

/// Width and height of the plot area's canvas; the legend strip is added below it.
const SIZE: (u32, u32) = (960, 560);
const FONT: &str = "sans-serif";
/// Legend rows are this many pixels apart.
const LEGEND_ROW: u32 = 24;
/// Points drawn per series at most: more would only thicken the line and the file.
const MAX_DRAWN: usize = 1500;
/// Markers per series on a long line (every point gets one when there are fewer).
const MARKERS: usize = 10;
/// Values kept exactly per series; beyond this a log-binned histogram takes over, so memory
/// stays bounded however many rows are plotted.
pub const EXACT_CAP: usize = 50_000;
/// Histogram resolution once binned: 2.3% per bin, below what a plot can show.
const BINS_PER_DECADE: f64 = 100.0;

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

/// Dash (length, gap) in pixels per series; `None` is a solid line. Cycles out of step with
/// the palette so that series 0 and 10 still differ.
const DASHES: [Option<(u32, u32)>; 4] = [None, Some((10, 5)), Some((3, 4)), Some((16, 5))];

/// Marker shapes, cycled per series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Circle,
    Triangle,
    Square,
    Cross,
    Diamond,
}

const SHAPES: [Shape; 5] = [
    Shape::Circle,
    Shape::Triangle,
    Shape::Square,
    Shape::Cross,
    Shape::Diamond,
];

/// A file-name-safe form of a dataset name, one to one: a name of letters, digits and `-_.`
/// is kept as it is; any other name gets its safe characters plus a hash of the whole name,
/// so `a<b`, `a>b` and `a b` never share a file or an element id.
pub(crate) fn slug(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
    if !s.is_empty() && s.chars().all(safe) && !s.starts_with('.') {
        return s.to_string();
    }
    let t: String = s.chars().filter(|&c| safe(c)).take(40).collect();
    let mut h = crate::hash::StableHasher::default();
    h.write_str(s);
    format!("{}~{:08x}", t.trim_start_matches('.'), h.finish() as u32)
}

/// Up to three significant digits, trailing zeros dropped (`2.5`, `10`, `0.12`).
fn short(v: f64) -> String {
    let s = crate::report::sig3(v);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// What an axis measures: decides tick positions and labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Seconds, labelled `10 µs`, `1 ms`, `2 s`.
    Seconds,
    /// A count (nodes, cycles, runs, conflicts): integer ticks, `10k`, `1M`.
    Count,
    /// A fraction in [0, 1], labelled as a percentage.
    Fraction,
}

impl Unit {
    fn label(self, v: f64) -> String {
        match self {
            Unit::Seconds => fmt_time(v),
            Unit::Count => fmt_count(v),
            Unit::Fraction => format!("{}%", short(v * 100.0)),
        }
    }
}

/// A time tick label with a unit chosen by magnitude.
fn fmt_time(s: f64) -> String {
    if s == 0.0 {
        return "0".to_string();
    }
    let a = s.abs();
    let (v, unit) = if a < 1e-6 {
        (s * 1e9, "ns")
    } else if a < 1e-3 {
        (s * 1e6, "µs")
    } else if a < 1.0 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    };
    format!("{} {unit}", short(v))
}

/// A count tick label: an integer, with k/M/G above ten thousand.
fn fmt_count(v: f64) -> String {
    let a = v.abs();
    let (x, suffix) = if a >= 1e9 {
        (v / 1e9, "G")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e4 {
        (v / 1e3, "k")
    } else {
        (v.round(), "")
    };
    format!("{}{suffix}", short(x))
}

/// One axis: data range, scale, ticks.
#[derive(Clone, Debug)]
struct Axis {
    unit: Unit,
    log: bool,
    lo: f64,
    hi: f64,
}

impl Axis {
    /// Fit values; log when positive values span more than two decades. `from_zero` anchors
    /// a linear axis at 0. `end` (a budget) fixes the upper end when it is not below the data.
    fn fit(unit: Unit, vals: &[f64], from_zero: bool, allow_log: bool, end: Option<f64>) -> Axis {
        let finite = || vals.iter().copied().filter(|v| v.is_finite());
        let pos = || finite().filter(|v| *v > 0.0);
        let pmin = pos().fold(f64::INFINITY, f64::min);
        let pmax = pos().fold(0.0, f64::max);
        let end = end.filter(|e| e.is_finite() && *e > 0.0 && *e >= pmax);
        let top = end.unwrap_or(pmax);
        if allow_log && pmax > 0.0 && top / pmin > 100.0 {
            let lo = 10f64.powf(pmin.log10().floor());
            let hi = end.unwrap_or_else(|| 10f64.powf(pmax.log10().ceil()));
            return Axis {
                unit,
                log: true,
                lo,
                hi,
            };
        }
        let max = finite().fold(0.0, f64::max);
        let min = finite().fold(max, f64::min);
        let lo = if from_zero { min.min(0.0) } else { min };
        let hi = match end {
            Some(e) => e,
            None => {
                let hi = if max > lo { max } else { lo + 1.0 };
                // Headroom so the top point is not on the frame; a whole step for small
                // counts, so a curve that jumps at the largest count is not on the edge.
                let room = (hi - lo) * 0.04;
                hi + if unit == Unit::Count {
                    room.max(1.0)
                } else {
                    room
                }
            }
        };
        Axis {
            unit,
            log: false,
            lo,
            hi,
        }
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

    /// Tick positions in mapped space: decades on a log axis (and its end, when that is a
    /// budget off the decades), 1/2/5 steps on a linear one, never fractional for counts.
    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (self.map(self.lo), self.map(self.hi));
            let (first, last) = (a.ceil() as i32, (b + 1e-9).floor() as i32);
            let step = ((last - first) / 8 + 1).max(1) as usize;
            let mut t: Vec<f64> = (first..=last).step_by(step).map(f64::from).collect();
            if t.last().is_none_or(|l| b - l > 0.15) {
                t.push(b);
            }
            t
        } else {
            let span = self.hi - self.lo;
            let raw = span / 6.0;
            let mag = 10f64.powf(raw.log10().floor());
            let mut step = [1.0, 2.0, 5.0, 10.0]
                .iter()
                .map(|m| m * mag)
                .find(|s| span / s <= 8.0)
                .unwrap_or(10.0 * mag);
            if self.unit == Unit::Count {
                step = step.max(1.0).round();
            }
            let first = (self.lo / step).ceil() as i64;
            let last = (self.hi / step + 1e-9).floor() as i64;
            (first..=last).map(|k| k as f64 * step).collect()
        }
    }

    /// Minor grid lines: 2..9 within each decade on a log axis.
    fn minor(&self) -> Vec<f64> {
        if !self.log {
            return Vec::new();
        }
        let (a, b) = (self.map(self.lo), self.map(self.hi));
        (a.floor() as i32..b.ceil() as i32)
            .flat_map(|e| (2..10).map(move |m| (f64::from(m) * 10f64.powi(e)).log10()))
            .filter(|m| *m > a && *m < b)
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
            self.unit.label(10f64.powf(mapped))
        } else {
            self.unit.label(mapped)
        }
    }

    fn desc(&self, what: &str) -> String {
        if self.log {
            format!("{what} (log scale)")
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

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Draw {
    /// A line (with its dash pattern) and markers on its points, or a few along it.
    Line,
    /// A step line (ECDF, convergence) with a few markers along it.
    Steps,
    /// Markers only.
    Points,
}

/// A series to draw: legend label, style index, mapped points, an optional band polygon.
struct Series {
    label: String,
    style: usize,
    points: Vec<(f64, f64)>,
    draw: Draw,
    band: Option<Vec<(f64, f64)>>,
}

/// A reference line (time limit, budget, 1×/2×/10× diagonal): mapped points and a label.
struct Guide {
    label: String,
    points: Vec<(f64, f64)>,
    dashed: bool,
    /// Where the label goes, and which of its corners sits there: labels hang inside the
    /// plot area so the frame never cuts them.
    label_at: (f64, f64),
    anchor: (HPos, VPos),
}

struct Chart<'a> {
    name: String,
    title: String,
    x: Axis,
    y: Axis,
    x_desc: &'a str,
    y_desc: &'a str,
    series: Vec<Series>,
    guides: Vec<Guide>,
}

type Area<'b> = DrawingArea<SVGBackend<'b>, plotters::coord::Shift>;

/// Draw one marker of `shape` at pixel `(x, y)`.
fn marker(area: &Area, shape: Shape, at: (i32, i32), col: RGBColor) -> Result<(), String> {
    let filled = col.filled();
    let stroke = col.stroke_width(2);
    let (x, y) = at;
    let r = match shape {
        Shape::Circle => area.draw(&Circle::new(at, 4, filled)),
        Shape::Triangle => area.draw(&Polygon::new(
            vec![(x, y - 5), (x + 5, y + 4), (x - 5, y + 4)],
            filled,
        )),
        Shape::Square => area.draw(&Rectangle::new([(x - 4, y - 4), (x + 4, y + 4)], filled)),
        Shape::Cross => area
            .draw(&PathElement::new(
                vec![(x - 4, y - 4), (x + 4, y + 4)],
                stroke,
            ))
            .and_then(|_| {
                area.draw(&PathElement::new(
                    vec![(x - 4, y + 4), (x + 4, y - 4)],
                    stroke,
                ))
            }),
        Shape::Diamond => area.draw(&Polygon::new(
            vec![(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)],
            filled,
        )),
    };
    r.map_err(|e| e.to_string())
}

/// Where a line's markers go (mapped coordinates): on every point of a short line, else
/// about [`MARKERS`] spread evenly along x on the line (whose x never decreases), shifted per
/// series so that coinciding lines do not stack them.
fn marker_points(s: &Series, of: usize) -> Vec<(f64, f64)> {
    let pts = &s.points;
    if s.draw == Draw::Points || (s.draw == Draw::Line && pts.len() <= 3 * MARKERS) {
        return pts.clone();
    }
    let (Some(first), Some(last)) = (pts.first(), pts.last()) else {
        return Vec::new();
    };
    let span = last.0 - first.0;
    let shift = (s.style % of.max(1)) as f64 / of.max(1) as f64;
    let mut out = Vec::with_capacity(MARKERS);
    let mut i = 0;
    for k in 0..MARKERS {
        let x = first.0 + span * (k as f64 + 0.5 * (1.0 + shift)) / (MARKERS as f64 + 1.0);
        while i + 1 < pts.len() && pts[i + 1].0 <= x {
            i += 1;
        }
        // On a step line the value holds until the next point; on a line, interpolate.
        let y = match (s.draw, pts.get(i + 1)) {
            (Draw::Line, Some(n)) if n.0 > pts[i].0 => {
                pts[i].1 + (n.1 - pts[i].1) * (x - pts[i].0) / (n.0 - pts[i].0)
            }
            _ => pts[i].1,
        };
        out.push((x, y));
    }
    out
}

/// The legend strip: one entry per series (line sample with its dash and marker), in as many
/// columns as fit.
fn draw_legend(area: &Area, series: &[Series]) -> Result<(), String> {
    let width = area.dim_in_pixel().0 as i32;
    let longest = series
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(0) as i32;
    let entry = 60 + longest * 8;
    let cols = ((width - 40) / entry).max(1) as usize;
    for (i, s) in series.iter().enumerate() {
        let (col_i, row) = ((i % cols) as i32, (i / cols) as i32);
        let x = 40 + col_i * entry;
        let y = 12 + row * LEGEND_ROW as i32;
        let c = color(s.style);
        if s.draw != Draw::Points {
            match DASHES[s.style % DASHES.len()] {
                None => area
                    .draw(&PathElement::new(
                        vec![(x, y), (x + 36, y)],
                        c.stroke_width(2),
                    ))
                    .map_err(|e| e.to_string())?,
                Some((on, off)) => {
                    let mut a = x;
                    while a < x + 36 {
                        let b = (a + on as i32).min(x + 36);
                        area.draw(&PathElement::new(vec![(a, y), (b, y)], c.stroke_width(2)))
                            .map_err(|e| e.to_string())?;
                        a = b + off as i32;
                    }
                }
            }
        }
        marker(area, SHAPES[s.style % SHAPES.len()], (x + 18, y), c)?;
        area.draw(&Text::new(
            s.label.clone(),
            (x + 46, y - 8),
            (FONT, 15).into_font().color(&BLACK),
        ))
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn legend_height(series: &[Series], width: u32) -> u32 {
    if series.is_empty() {
        return 0;
    }
    let longest = series
        .iter()
        .map(|s| s.label.chars().count())
        .max()
        .unwrap_or(0) as u32;
    let cols = ((width - 40) / (60 + longest * 8)).max(1) as usize;
    let rows = series.len().div_ceil(cols) as u32;
    rows * LEGEND_ROW + 8
}

fn draw(c: Chart) -> Result<Svg, PlotError> {
    let derr = |e: &dyn std::fmt::Display| PlotError::Draw {
        name: c.name.clone(),
        detail: e.to_string(),
    };
    let legend_h = legend_height(&c.series, SIZE.0);
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (SIZE.0, SIZE.1 + legend_h)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| derr(&e))?;
        let (plot_area, legend_area) = root.split_vertically(SIZE.1);
        let (x_lbl, y_lbl) = (c.x.clone(), c.y.clone());
        let x_fmt = move |v: &f64| x_lbl.label(*v);
        let y_fmt = move |v: &f64| y_lbl.label(*v);
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(&c.title, (FONT, 22))
            .margin(16)
            // Room for the last x tick label (a budget or an axis end off the decades).
            .margin_right(40)
            .x_label_area_size(52)
            .y_label_area_size(84)
            .build_cartesian_2d(c.x.spec(), c.y.spec())
            .map_err(|e| derr(&e))?;
        chart
            .configure_mesh()
            .x_desc(c.x.desc(c.x_desc))
            .y_desc(c.y.desc(c.y_desc))
            .axis_desc_style((FONT, 16))
            .label_style((FONT, 14))
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .bold_line_style(BLACK.mix(0.15))
            .light_line_style(BLACK.mix(0.06))
            .draw()
            .map_err(|e| derr(&e))?;
        for g in &c.guides {
            let style = BLACK.mix(0.55).stroke_width(1);
            if g.dashed {
                chart
                    .draw_series(DashedLineSeries::new(g.points.iter().copied(), 6, 4, style))
                    .map_err(|e| derr(&e))?;
            } else {
                chart
                    .draw_series(LineSeries::new(g.points.iter().copied(), style))
                    .map_err(|e| derr(&e))?;
            }
            let style = (FONT, 13)
                .into_font()
                .color(&BLACK.mix(0.7))
                .pos(Pos::new(g.anchor.0, g.anchor.1));
            chart
                .draw_series(std::iter::once(Text::new(
                    format!(" {} ", g.label),
                    g.label_at,
                    style,
                )))
                .map_err(|e| derr(&e))?;
        }
        let n_series = c.series.len();
        for s in &c.series {
            let col = color(s.style);
            if let Some(band) = &s.band {
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        band.clone(),
                        col.mix(0.15).filled(),
                    )))
                    .map_err(|e| derr(&e))?;
            }
            if s.draw != Draw::Points {
                let pts = s.points.iter().copied();
                match DASHES[s.style % DASHES.len()] {
                    None => chart
                        .draw_series(LineSeries::new(pts, col.stroke_width(2)))
                        .map(|_| ()),
                    Some((on, off)) => chart
                        .draw_series(DashedLineSeries::new(
                            pts,
                            on as i32,
                            off as i32,
                            col.stroke_width(2),
                        ))
                        .map(|_| ()),
                }
                .map_err(|e| derr(&e))?;
            }
            let area = chart.plotting_area();
            let shape = SHAPES[s.style % SHAPES.len()];
            for p in marker_points(s, n_series) {
                let px = area.map_coordinate(&p);
                marker(&root, shape, px, col).map_err(|e| derr(&e))?;
            }
        }
        draw_legend(&legend_area, &c.series).map_err(|e| derr(&e))?;
        root.present().map_err(|e| derr(&e))?;
    }
    Ok(Svg {
        name: c.name,
        title: c.title,
        svg,
    })
}

/// The values of one series, kept for drawing: exact up to [`EXACT_CAP`], then counted in
/// log bins (values ≤ 0 in a bin of their own).
#[derive(Clone, Debug, Default)]
pub struct Values {
    exact: Vec<f64>,
    bins: Option<BTreeMap<i64, u64>>,
    n: u64,
}

impl Values {
    fn bin(v: f64) -> i64 {
        if v > 0.0 {
            (v.log10() * BINS_PER_DECADE).floor() as i64
        } else {
            i64::MIN
        }
    }

    fn unbin(b: i64) -> f64 {
        if b == i64::MIN {
            0.0
        } else {
            10f64.powf((b as f64 + 0.5) / BINS_PER_DECADE)
        }
    }

    /// Add a value (non-finite values are ignored).
    pub fn push(&mut self, v: f64) {
        if !v.is_finite() {
            return;
        }
        self.n += 1;
        if let Some(bins) = &mut self.bins {
            *bins.entry(Self::bin(v)).or_default() += 1;
            return;
        }
        self.exact.push(v);
        if self.exact.len() > EXACT_CAP {
            let mut bins = BTreeMap::new();
            for x in self.exact.drain(..) {
                *bins.entry(Self::bin(x)).or_default() += 1;
            }
            self.exact = Vec::new();
            self.bins = Some(bins);
        }
    }

    /// How many values were added.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// Whether no value was added.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// `(k, v)`: the k-th smallest value is v (k from 1), at most `MAX_DRAWN` of them
    /// evenly spread over k, always including the last.
    pub fn ranked(&self) -> Vec<(u64, f64)> {
        let all: Vec<(u64, f64)> = match &self.bins {
            None => stats::sorted(&self.exact)
                .into_iter()
                .enumerate()
                .map(|(i, v)| (i as u64 + 1, v))
                .collect(),
            Some(bins) => {
                let mut k = 0;
                bins.iter()
                    .map(|(&b, &c)| {
                        k += c;
                        (k, Self::unbin(b))
                    })
                    .collect()
            }
        };
        thin(all)
    }

    fn max(&self) -> Option<f64> {
        self.ranked().last().map(|p| p.1)
    }
}

/// At most [`MAX_DRAWN`] points, evenly spread, the last kept.
fn thin<T: Copy>(all: Vec<T>) -> Vec<T> {
    if all.len() <= MAX_DRAWN {
        return all;
    }
    let n = all.len();
    let mut out: Vec<T> = (0..MAX_DRAWN - 1)
        .map(|i| all[i * (n - 1) / (MAX_DRAWN - 1)])
        .collect();
    out.push(all[n - 1]);
    out
}

/// What is known of a run's budget (from the metas).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    /// Per-job time limit in seconds.
    pub timeout_s: Option<f64>,
    /// Per-job node limit.
    pub node_limit: Option<u64>,
}

impl Budget {
    /// The limits all `metas` agree on: a limit one run lacked or set differently is unknown.
    pub fn agreed(metas: &[&crate::results::RunMeta]) -> Budget {
        fn one<T: PartialEq + Copy>(vals: impl Iterator<Item = Option<T>>) -> Option<T> {
            let mut first = None;
            for (i, v) in vals.enumerate() {
                if i == 0 {
                    first = v;
                } else if v != first {
                    return None;
                }
            }
            first
        }
        Budget {
            timeout_s: one(metas.iter().map(|m| m.timeout_s)),
            node_limit: one(metas.iter().map(|m| m.node_limit)),
        }
    }
}

/// One strategy configuration's plotted values.
#[derive(Clone, Debug, Default)]
struct GroupVals {
    runs: u64,
    wall: Values,
    /// The group's effort unit (or the `--metric` asked for) and its solved runs' values.
    unit: Option<&'static str>,
    effort: Values,
}

/// Most lines one plot draws: more could not be told apart (a sweep of thousands of
/// configurations draws the ones that solved most, and says so in the title).
pub const MAX_SERIES: usize = 12;

/// The groups of one dataset a plot draws, and how many it leaves out.
type Drawn<'a> = (Vec<(&'a GroupKey, &'a GroupVals)>, usize);

/// A title's note on the configurations a plot leaves out.
fn omitted_note(omitted: usize, drawn: usize) -> String {
    if omitted == 0 {
        String::new()
    } else {
        format!(
            " [the {drawn} of {} configurations that solved most]",
            drawn + omitted
        )
    }
}

/// Everything the cactus and distribution plots draw, built one row at a time.
#[derive(Clone, Debug, Default)]
pub struct PlotData {
    groups: Vec<(GroupKey, GroupVals)>,
    /// Position of each group in `groups`.
    index: std::collections::HashMap<GroupKey, usize>,
    /// Index of the group the last row went to: rows come in runs of one group.
    last: usize,
    budget: Budget,
    efforts: Efforts,
    metric: Option<&'static str>,
}

impl PlotData {
    /// Plot each group's effort in its strategy's unit ([`Efforts`]; by default the built-in
    /// strategies' units).
    pub fn with_efforts(efforts: Efforts) -> PlotData {
        PlotData {
            efforts,
            ..PlotData::default()
        }
    }

    /// Draw the run-length distributions of `metric` (a counter, a timing column or a `stats`
    /// key; [`Record::metric`]) for every group instead of its effort.
    pub fn metric(&mut self, metric: &str) {
        self.metric = Some(crate::results::counters::metric_name(metric));
    }

    /// Take one row.
    pub fn add(&mut self, r: &Record) {
        let i = match self.groups.get(self.last) {
            Some((k, _)) if k.matches(r) => self.last,
            _ => {
                let key = GroupKey::of(r);
                let next = self.groups.len();
                let i = *self.index.entry(key.clone()).or_insert(next);
                if i == next {
                    self.groups.push((key, GroupVals::default()));
                }
                i
            }
        };
        self.last = i;
        let g = &mut self.groups[i].1;
        g.runs += 1;
        let value = match self.metric {
            Some(m) => r.metric(m).map(|v| (m, v)),
            None => self.efforts.of(r),
        };
        if let Some((u, _)) = value {
            g.unit.get_or_insert(u);
        }
        if r.status == Some(Status::Solved) {
            g.wall.push(r.wall_s);
            if let Some((_, v)) = value.filter(|(u, _)| Some(*u) == g.unit) {
                g.effort.push(v);
            }
        }
    }

    /// Whether some row had a value of the metric plotted (its effort, or the
    /// [`PlotData::metric`] asked for).
    pub fn has_metric(&self) -> bool {
        self.groups.iter().any(|(_, g)| g.unit.is_some())
    }

    /// Set the budget known from the metas (drawn as limits, and the ECDF axes end there).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Groups per dataset, in name order, groups sorted within; at most [`MAX_SERIES`] a
    /// dataset (those that solved most runs), with the number left out.
    fn by_dataset(&self) -> BTreeMap<&str, Drawn<'_>> {
        let mut m: BTreeMap<&str, Drawn<'_>> = BTreeMap::new();
        for (k, g) in &self.groups {
            m.entry(k.dataset.as_str()).or_default().0.push((k, g));
        }
        for (v, omitted) in m.values_mut() {
            if v.len() > MAX_SERIES {
                v.sort_by(|a, b| b.1.wall.len().cmp(&a.1.wall.len()).then(a.0.cmp(b.0)));
                *omitted = v.len() - MAX_SERIES;
                v.truncate(MAX_SERIES);
            }
            v.sort_by(|a, b| a.0.cmp(b.0));
        }
        m
    }

    /// Cactus plots, one per dataset: `<dataset>-cactus.svg`.
    pub fn cactus(&self) -> Result<Vec<Svg>, PlotError> {
        let mut out = Vec::new();
        for (dataset, (gs, omitted)) in self.by_dataset() {
            let keys: Vec<GroupKey> = gs.iter().map(|g| g.0.clone()).collect();
            let names = labels(&keys);
            let ranked: Vec<Vec<(u64, f64)>> = gs.iter().map(|g| g.1.wall.ranked()).collect();
            let all_t: Vec<f64> = ranked.iter().flatten().map(|p| p.1).collect();
            let runs = gs.iter().map(|g| g.1.runs).max().unwrap_or(0);
            let x = Axis::fit(Unit::Count, &[0.0, runs.max(1) as f64], true, false, None);
            let limit = self.budget.timeout_s;
            let mut ys = all_t.clone();
            ys.extend(limit);
            let y = Axis::fit(Unit::Seconds, &ys, true, true, None);
            let series = ranked
                .iter()
                .enumerate()
                .map(|(i, pts)| Series {
                    label: format!(
                        "{} ({}/{} solved)",
                        names[i],
                        gs[i].1.wall.len(),
                        gs[i].1.runs
                    ),
                    style: i,
                    points: pts.iter().map(|&(k, t)| (k as f64, y.map(t))).collect(),
                    draw: Draw::Line,
                    band: None,
                })
                .collect();
            let guides = limit
                .map(|t| Guide {
                    label: format!("time limit {}", fmt_time(t)),
                    points: vec![(x.lo, y.map(t)), (x.hi, y.map(t))],
                    dashed: true,
                    label_at: (x.lo, y.map(t)),
                    anchor: (HPos::Left, VPos::Bottom),
                })
                .into_iter()
                .collect();
            out.push(draw(Chart {
                name: format!("{}-cactus.svg", slug(dataset)),
                title: format!(
                    "{dataset}: runs solved within a time (cactus){}",
                    omitted_note(omitted, gs.len())
                ),
                x,
                y,
                x_desc: "runs solved",
                y_desc: "wall time of the k-th fastest solved run",
                series,
                guides,
            })?);
        }
        Ok(out)
    }

    /// Run-length distributions, per dataset and effort unit: `<dataset>-nodes.svg` for the
    /// groups measured in nodes, `<dataset>-cycles.svg` for those in cycles, and so on (a
    /// Sudoku dataset run with `abc` and `abc-prop` gets a cycles and an evaluations plot);
    /// with [`PlotData::metric`], one per dataset of that metric.
    pub fn distributions(&self) -> Result<Vec<Svg>, PlotError> {
        let mut out = Vec::new();
        for (dataset, (gs, omitted)) in self.by_dataset() {
            let keys: Vec<GroupKey> = gs.iter().map(|g| g.0.clone()).collect();
            let names = labels(&keys);
            let units: BTreeSet<&'static str> = gs.iter().filter_map(|g| g.1.unit).collect();
            for metric in units {
                let chosen: Vec<usize> = (0..gs.len())
                    .filter(|&i| gs[i].1.unit == Some(metric))
                    .collect();
                out.push(self.distribution(dataset, metric, &gs, &names, &chosen, omitted)?);
            }
        }
        Ok(out)
    }

    /// One run-length distribution: the `chosen` groups of `dataset` measured in `metric`.
    fn distribution(
        &self,
        dataset: &str,
        metric: &'static str,
        gs: &[(&GroupKey, &GroupVals)],
        names: &[String],
        chosen: &[usize],
        omitted: usize,
    ) -> Result<Svg, PlotError> {
        // The budget: the node limit, or the largest max_cycles of the groups.
        let (budget, what, desc) = match metric {
            "cycles" => (
                chosen
                    .iter()
                    .filter_map(|&i| gs[i].0.params.get("max_cycles"))
                    .filter_map(|v| v.parse::<f64>().ok())
                    .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v)))),
                "max_cycles",
                "ABC cycles",
            ),
            "nodes" => (
                self.budget.node_limit.map(|n| n as f64),
                "node limit",
                "search nodes",
            ),
            m => (None, "", m),
        };
        let vals = |i: usize| &gs[i].1.effort;
        let mut all: Vec<f64> = chosen.iter().filter_map(|&i| vals(i).max()).collect();
        all.extend(
            chosen
                .iter()
                .filter_map(|&i| vals(i).ranked().first().map(|p| p.1)),
        );
        all.extend(budget);
        let unit = if metric.ends_with("_s") {
            Unit::Seconds
        } else {
            Unit::Count
        };
        let x = Axis::fit(unit, &all, true, true, budget);
        let y = Axis {
            unit: Unit::Fraction,
            log: false,
            lo: 0.0,
            hi: 1.04,
        };
        let series = chosen
            .iter()
            .enumerate()
            .map(|(si, &gi)| {
                let v = vals(gi);
                let label = format!("{} ({}/{} solved)", names[gi], v.len(), gs[gi].1.runs);
                ecdf_series(&x, v, gs[gi].1.runs, label, si)
            })
            .collect();
        let guides = budget
            .map(|b| Guide {
                label: format!("{what} {}", fmt_count(b)),
                points: vec![(x.map(b), 0.0), (x.map(b), 1.0)],
                dashed: true,
                label_at: (x.map(b), 1.0),
                anchor: (HPos::Right, VPos::Top),
            })
            .into_iter()
            .collect();
        draw(Chart {
            name: format!("{}-{}.svg", slug(dataset), slug(metric)),
            title: format!(
                "{dataset}: {metric} to solve (run-length distribution){}",
                omitted_note(omitted, gs.len())
            ),
            x,
            y,
            x_desc: desc,
            y_desc: "runs solved within x",
            series,
            guides,
        })
    }
}

/// The run-length step line of one group: the fraction of all `runs` solved within x.
fn ecdf_series(x: &Axis, v: &Values, runs: u64, label: String, style: usize) -> Series {
    let runs = runs.max(1) as f64;
    let mut pts = vec![(x.map(x.lo), 0.0)];
    let mut prev = 0.0;
    for (k, val) in v.ranked() {
        let xv = x.map(val);
        pts.push((xv, prev));
        prev = k as f64 / runs;
        pts.push((xv, prev));
    }
    pts.push((x.map(x.hi), prev));
    Series {
        label,
        style,
        points: pts,
        draw: Draw::Steps,
        band: None,
    }
}

/// Cactus plots of rows held in memory (see [`PlotData::cactus`]).
pub fn render_cactus(rows: &[Record]) -> Result<Vec<Svg>, PlotError> {
    let mut d = PlotData::default();
    rows.iter().for_each(|r| d.add(r));
    d.cactus()
}

/// Run-length distributions of rows held in memory (see [`PlotData::distributions`]).
pub fn render_distribution(rows: &[Record]) -> Result<Vec<Svg>, PlotError> {
    let mut d = PlotData::default();
    rows.iter().for_each(|r| d.add(r));
    d.distributions()
}

/// One puzzle in an A-against-B scatter: each side's value, and whether it solved (a side
/// that did not is drawn at the plot's edge with a cross).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    /// A's value.
    pub a: f64,
    /// B's value.
    pub b: f64,
    /// Whether A solved.
    pub a_solved: bool,
    /// Whether B solved.
    pub b_solved: bool,
}

/// What a scatter shows.
#[derive(Clone, Debug)]
pub struct ScatterSpec<'a> {
    /// File name.
    pub name: String,
    /// Title (names the dataset).
    pub title: String,
    /// A's label (x axis).
    pub a: &'a str,
    /// B's label (y axis).
    pub b: &'a str,
    /// What the values are: seconds or a count.
    pub unit: Unit,
    /// Axis description of the measure, e.g. "wall time".
    pub measure: &'a str,
    /// Where unsolved runs go (the time limit); the largest value × 2 when unknown.
    pub limit: Option<f64>,
}

/// Where a scatter draws a value on its log axis from `lo` up: a solved run that needed none
/// of the measure (0 cycles: solved by presolve) sits at the axis floor with the solved
/// points; only an unsolved run goes to the `edge` ("not solved").
fn scatter_value(v: f64, solved: bool, lo: f64, edge: f64) -> f64 {
    match (solved, v > 0.0) {
        (true, true) => v.max(lo),
        (true, false) => lo,
        (false, _) => edge,
    }
}

/// A log-log scatter of A (x) against B (y), one point per puzzle, with the 1× diagonal and
/// 2× and 10× lines either side of it. Points above the diagonal are puzzles where B needs
/// more than A.
pub fn render_scatter(spec: &ScatterSpec, pairs: &[Pair]) -> Result<Svg, PlotError> {
    let solved_vals: Vec<f64> = pairs
        .iter()
        .flat_map(|p| [(p.a, p.a_solved), (p.b, p.b_solved)])
        .filter(|v| v.1 && v.0 > 0.0 && v.0.is_finite())
        .map(|v| v.0)
        .collect();
    let max = solved_vals.iter().copied().fold(0.0, f64::max);
    let min = solved_vals.iter().copied().fold(f64::INFINITY, f64::min);
    let any_failed = pairs.iter().any(|p| !(p.a_solved && p.b_solved));
    let edge = spec
        .limit
        .filter(|l| *l >= max)
        .unwrap_or(if max > 0.0 { max * 2.0 } else { 1.0 });
    let lo = if min.is_finite() {
        10f64.powf(min.log10().floor())
    } else {
        edge / 100.0
    };
    let hi = if any_failed {
        edge * 1.5
    } else {
        10f64.powf(max.max(lo * 10.0).log10().ceil())
    };
    let axis = Axis {
        unit: spec.unit,
        log: true,
        lo,
        hi,
    };
    let clamp = |v: f64, solved: bool| axis.map(scatter_value(v, solved, lo, edge));
    let (mut both, mut failed) = (Vec::new(), Vec::new());
    for p in pairs {
        let pt = (clamp(p.a, p.a_solved), clamp(p.b, p.b_solved));
        if p.a_solved && p.b_solved {
            both.push(pt);
        } else {
            failed.push(pt);
        }
    }
    let guides = ratio_guides(
        axis.map(lo),
        axis.map(hi),
        any_failed.then(|| axis.map(edge)),
    );
    let n_both = both.len();
    let mut series = vec![Series {
        label: format!("{n_both} puzzles both solved"),
        style: 0,
        points: both,
        draw: Draw::Points,
        band: None,
    }];
    if !failed.is_empty() {
        series.push(Series {
            label: format!(
                "{} puzzles not solved by one side (drawn at {})",
                failed.len(),
                if spec.limit.is_some_and(|l| l >= max) {
                    "the time limit"
                } else {
                    "2× the largest value"
                }
            ),
            style: 3,
            points: failed,
            draw: Draw::Points,
            band: None,
        });
    }
    let x_desc = format!("{}: {}", spec.a, spec.measure);
    let y_desc = format!("{}: {}", spec.b, spec.measure);
    draw(Chart {
        name: spec.name.clone(),
        title: spec.title.clone(),
        x: axis.clone(),
        y: axis,
        x_desc: &x_desc,
        y_desc: &y_desc,
        series,
        guides,
    })
}

/// The scatter's reference lines in mapped (log10) space from `ml` to `mh`: the 1× diagonal,
/// 2× and 10× either side, and the "not solved" lines at `edge` when some puzzle is drawn
/// there.
fn ratio_guides(ml: f64, mh: f64, edge: Option<f64>) -> Vec<Guide> {
    let mut guides = vec![Guide {
        label: "1×".into(),
        points: vec![(ml, ml), (mh, mh)],
        dashed: false,
        label_at: (mh, mh),
        anchor: (HPos::Right, VPos::Top),
    }];
    for f in [2f64, 10.0] {
        let d = f.log10();
        // Above the diagonal B needs f× what A needs; below, A needs f× B.
        guides.push(Guide {
            label: format!("B {}×", f),
            points: vec![(ml, ml + d), (mh - d, mh)],
            dashed: true,
            label_at: (mh - d, mh),
            anchor: (HPos::Right, VPos::Top),
        });
        guides.push(Guide {
            label: format!("A {}×", f),
            points: vec![(ml + d, ml), (mh, mh - d)],
            dashed: true,
            label_at: (mh, mh - d),
            anchor: (HPos::Right, VPos::Top),
        });
    }
    if let Some(e) = edge {
        guides.push(Guide {
            label: "not solved".into(),
            points: vec![(e, ml), (e, mh)],
            dashed: true,
            label_at: (e, ml),
            anchor: (HPos::Right, VPos::Bottom),
        });
        guides.push(Guide {
            label: "not solved".into(),
            points: vec![(ml, e), (mh, e)],
            dashed: true,
            label_at: (ml, e),
            anchor: (HPos::Left, VPos::Bottom),
        });
    }
    guides
}

/// Per-cycle (cycle, p10, median, p90) of best conflicts over a group's runs, from
/// [`describe::convergence`] (the same figures `bench-report summary --trace` prints).
fn convergence_stats(runs: &[&[(u64, u64)]]) -> Vec<(f64, f64, f64, f64)> {
    describe::convergence(runs)
        .into_iter()
        .map(|p| (p.cycle as f64, p.p10, p.median, p.p90))
        .collect()
}

/// A step line through `(x, y)` points: the value holds until the next x.
fn steps(pts: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (x, y) in pts {
        if let Some(&(_, py)) = out.last() {
            out.push((x, py));
        }
        out.push((x, y));
    }
    out
}

/// ABC convergence from trace runs: `convergence.svg`, one median line with a p10–p90 band
/// per (dataset, strategy, params). `None` when there are no runs.
pub fn render_convergence(trace: &[TraceRun]) -> Result<Option<Svg>, PlotError> {
    let mut by_group: BTreeMap<GroupKey, Vec<&[(u64, u64)]>> = BTreeMap::new();
    for t in trace {
        let key = GroupKey {
            dataset: t.dataset.clone(),
            kind: crate::kind::PuzzleKind::Sudoku,
            strategy: t.strategy.clone(),
            rules: String::new(),
            params: crate::results::Params::from_cell(&t.params),
        };
        by_group.entry(key).or_default().push(&t.points);
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
    let x = Axis::fit(Unit::Count, &xs, true, false, None);
    let y = Axis::fit(Unit::Count, &ys, true, false, None);
    let series = curves
        .into_iter()
        .enumerate()
        .map(|(i, (name, n, pts))| {
            let mut band = steps(pts.iter().map(|p| (p.0, p.3)));
            band.extend(steps(pts.iter().map(|p| (p.0, p.1))).into_iter().rev());
            Series {
                label: format!("{name} (median of {n} runs)"),
                style: i,
                points: thin(steps(pts.iter().map(|p| (p.0, p.2)))),
                draw: Draw::Steps,
                band: Some(thin(band)),
            }
        })
        .collect();
    let on: Vec<&str> = datasets.into_iter().collect();
    draw(Chart {
        name: "convergence.svg".to_string(),
        title: format!(
            "{}: ABC best conflicts per cycle (shaded: p10-p90)",
            on.join(", ")
        ),
        x,
        y,
        x_desc: "cycle",
        y_desc: "best conflicts",
        series,
        guides: Vec::new(),
    })
    .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_goes_log_only_beyond_two_decades() {
        let a = Axis::fit(Unit::Seconds, &[0.5, 40.0], true, true, None);
        assert!(!a.log);
        let a = Axis::fit(Unit::Seconds, &[0.001, 2.0], true, true, None);
        assert!(a.log && a.lo == 0.001 && a.hi == 10.0, "{a:?}");
        assert_eq!(a.ticks(), vec![-3.0, -2.0, -1.0, 0.0, 1.0]);
        assert_eq!(a.label(-3.0), "1 ms");
        assert_eq!(a.label(-5.0), "10 µs");
        assert_eq!(a.label(0.0), "1 s");
        assert_eq!(
            Axis::fit(Unit::Count, &[0.0, 37.0], true, false, None).ticks(),
            vec![0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0]
        );
    }

    #[test]
    fn count_ticks_are_integers_and_the_budget_ends_the_axis() {
        let a = Axis::fit(Unit::Count, &[0.0, 3.0], true, false, None);
        assert!(
            a.ticks().iter().all(|t| t.fract() == 0.0),
            "{:?}",
            a.ticks()
        );
        assert_eq!(a.label(2.0), "2");
        assert_eq!(fmt_count(25_000.0), "25k");
        assert_eq!(fmt_count(3_000_000.0), "3M");
        let a = Axis::fit(Unit::Count, &[3.0, 900.0], true, true, Some(2000.0));
        assert!(a.log && a.hi == 2000.0, "{a:?}");
        assert_eq!(a.label(*a.ticks().last().expect("tick")), "2000");
        let a = Axis::fit(Unit::Count, &[3.0, 9.0], true, true, Some(20.0));
        assert!(!a.log && a.hi == 20.0, "{a:?}");
    }

    #[test]
    fn values_bin_beyond_the_cap_and_keep_their_order() {
        let mut v = Values::default();
        for i in 0..(EXACT_CAP as u64 + 10) {
            v.push((i % 1000 + 1) as f64);
        }
        assert!(v.bins.is_some() && v.exact.is_empty());
        let r = v.ranked();
        assert!(r.len() <= MAX_DRAWN);
        assert_eq!(r.last().map(|p| p.0), Some(EXACT_CAP as u64 + 10));
        let top = r.last().map_or(0.0, |p| p.1);
        assert!((top / 1000.0 - 1.0).abs() < 0.03, "{top}");
        assert!(r.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
    }

    #[test]
    fn convergence_carries_finished_runs_forward() {
        // Run A solves at cycle 2 and stops; run B stays at 4 from cycle 3 (its trace holds
        // only the changes).
        let a = [(0, 6), (1, 3), (2, 0)];
        let b = [(0, 8), (3, 4)];
        let s = convergence_stats(&[&a, &b]);
        assert_eq!(s.len(), 4);
        assert_eq!(s[0], (0.0, 6.2, 7.0, 7.8));
        assert_eq!(s[2].2, 4.0); // median of 0 and 8 (B unchanged since cycle 0)
        assert_eq!(s[3].2, 2.0); // median of 0 (carried) and 4
    }

    fn two_groups() -> Vec<Record> {
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
        rows
    }

    #[test]
    fn each_group_has_its_own_style_and_a_legend_entry_below_the_plot() {
        let svgs = render_cactus(&two_groups()).expect("cactus");
        assert_eq!(svgs.len(), 1);
        // "h/5" is not a safe file name: its safe characters and a hash of the whole name.
        assert!(
            svgs[0].name.starts_with("h5~") && svgs[0].name.ends_with("-cactus.svg"),
            "{}",
            svgs[0].name
        );
        assert!(svgs[0].title.contains("h/5"));
        let svg = &svgs[0].svg;
        let y_of = |label: &str| -> i32 {
            let at = svg
                .find(&format!(">\n{label}\n</text>"))
                .unwrap_or_else(|| panic!("{label} in legend"));
            let tag = &svg[svg[..at].rfind("<text").expect("text tag")..at];
            let y = tag.split("y=\"").nth(1).expect("y attribute");
            y[..y.find('"').expect("quote")].parse().expect("number")
        };
        for label in ["mrv basic (10/10 solved)", "row basic (10/10 solved)"] {
            assert_eq!(svg.matches(&format!(">\n{label}\n</text>")).count(), 1);
            // The legend is in the strip under the plot canvas, never over the data.
            assert!(y_of(label) >= SIZE.1 as i32, "{label}");
        }
        // mrv: one solid polyline; row: dashed (many short segments) in its own colour.
        assert_eq!(
            svg.matches("stroke=\"#1F77B4\" stroke-width=\"2\"").count(),
            2
        ); // line + legend
        assert!(svg.matches("stroke=\"#FF7F0E\" stroke-width=\"2\"").count() > 4);
        // Time ticks carry units, not exponents.
        assert!(svg.contains(" ms\n</text>"), "time unit on ticks");
        let exponent = svg
            .as_bytes()
            .windows(3)
            .any(|w| w[0].is_ascii_digit() && w[1] == b'e' && (w[2] == b'-' || w[2] == b'+'));
        assert!(!exponent, "no exponent labels");
        let d = render_distribution(&two_groups()).expect("distribution");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].name, svgs[0].name.replace("-cactus", "-nodes"));
    }

    #[test]
    fn file_names_are_one_to_one_with_dataset_names() {
        let names = ["a<b", "a>b", "a b", "a_b", "ab", "", ".", "a/b", "a\nb"];
        let slugs: std::collections::BTreeSet<String> = names.iter().map(|n| slug(n)).collect();
        assert_eq!(slugs.len(), names.len(), "{slugs:?}");
        assert_eq!(slug("hitori-5x5_v1.2"), "hitori-5x5_v1.2");
        for s in &slugs {
            assert!(
                !s.is_empty() && !s.starts_with('.') && !s.contains('/'),
                "{s}"
            );
        }
    }

    #[test]
    fn a_solved_run_with_no_effort_is_drawn_at_the_floor_not_as_unsolved() {
        assert_eq!(scatter_value(0.0, true, 1e-3, 2.0), 1e-3);
        assert_eq!(scatter_value(5e-4, true, 1e-3, 2.0), 1e-3);
        assert_eq!(scatter_value(0.5, true, 1e-3, 2.0), 0.5);
        assert_eq!(scatter_value(0.0, false, 1e-3, 2.0), 2.0);
        assert_eq!(scatter_value(0.5, false, 1e-3, 2.0), 2.0);
    }

    #[test]
    fn scatter_draws_unsolved_at_the_limit_and_the_ratio_lines() {
        let pairs = [
            Pair {
                a: 0.001,
                b: 0.002,
                a_solved: true,
                b_solved: true,
            },
            Pair {
                a: 0.01,
                b: 5.0,
                a_solved: true,
                b_solved: false,
            },
        ];
        let svg = render_scatter(
            &ScatterSpec {
                name: "s.svg".into(),
                title: "d: A vs B".into(),
                a: "mrv",
                b: "row",
                unit: Unit::Seconds,
                measure: "wall time",
                limit: Some(1.0),
            },
            &pairs,
        )
        .expect("scatter");
        // Guide labels are padded with a space each side, clear of their line.
        for label in ["1×", "B 2×", "A 10×", "not solved"] {
            assert!(
                svg.svg.contains(&format!(">\n {label} \n</text>")),
                "{label}"
            );
        }
        assert!(svg.svg.contains(">\n1 puzzles both solved\n</text>"));
        assert!(svg.svg.contains("drawn at the time limit"));
    }
}
