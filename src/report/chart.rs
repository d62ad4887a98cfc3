//! The chart toolkit the plots are drawn with (plotters' SVG backend: no system libraries,
//! no fonts needed; the SVG holds `<text>` elements the viewer renders): colours, dash
//! patterns and marker shapes per series, number and time formatting, axes with explicit
//! ticks, series and reference lines, the legend below the plot area, [`draw`] a [`Chart`]
//! into an [`Svg`], and [`Values`], the bounded store of one series' values.
//!
//! An axis switches to log scale when its data spans more than two decades. Log and linear
//! axes share one code path: values are mapped (log10 or identity) onto a linear axis with
//! explicit tick positions, and tick labels map back.

use crate::report::stats;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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
    /// An input (rows or trace) could not be read.
    #[error(transparent)]
    Read(#[from] crate::results::ReadError),
    /// `plot --metric NAME` names what no row has.
    #[error("--metric {0}: no row has it (expected a counter, a timing column or a stats key)")]
    NoMetric(String),
    /// `plot --sweep PARAM` cannot draw that parameter.
    #[error("--sweep {param}: {why}")]
    Sweep {
        /// The parameter asked for.
        param: String,
        /// Why not: no configuration has it, or a value is not a number.
        why: String,
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
pub(crate) const SIZE: (u32, u32) = (960, 560);
const FONT: &str = "sans-serif";
/// Legend rows are this many pixels apart.
const LEGEND_ROW: u32 = 24;
/// Points drawn per series at most: more would only thicken the line and the file.
const MAX_DRAWN: usize = 1500;
/// Markers per series on a long line (every point gets one when there are fewer).
const MARKERS: usize = 10;
/// Values kept exactly per series; beyond this a log-binned histogram takes over, so memory
/// stays bounded however many rows are plotted.
pub(crate) const EXACT_CAP: usize = 50_000;
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
pub(crate) enum Unit {
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
pub(crate) fn fmt_time(s: f64) -> String {
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
pub(crate) fn fmt_count(v: f64) -> String {
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
pub(crate) struct Axis {
    pub(crate) unit: Unit,
    pub(crate) log: bool,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

impl Axis {
    /// Fit values; log when positive values span more than two decades. `from_zero` anchors
    /// a linear axis at 0. `end` (a budget) fixes the upper end when it is not below the data.
    pub(crate) fn fit(
        unit: Unit,
        vals: &[f64],
        from_zero: bool,
        allow_log: bool,
        end: Option<f64>,
    ) -> Axis {
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

    pub(crate) fn map(&self, v: f64) -> f64 {
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
pub(crate) enum Draw {
    /// A line (with its dash pattern) and markers on its points, or a few along it.
    Line,
    /// A step line (ECDF, convergence) with a few markers along it.
    Steps,
    /// Markers only.
    Points,
}

/// A series to draw: legend label, style index, mapped points, an optional band polygon.
pub(crate) struct Series {
    pub(crate) label: String,
    pub(crate) style: usize,
    pub(crate) points: Vec<(f64, f64)>,
    pub(crate) draw: Draw,
    pub(crate) band: Option<Vec<(f64, f64)>>,
}

/// A reference line (time limit, budget, 1×/2×/10× diagonal): mapped points and a label.
pub(crate) struct Guide {
    pub(crate) label: String,
    pub(crate) points: Vec<(f64, f64)>,
    pub(crate) dashed: bool,
    /// Where the label goes, and which of its corners sits there: labels hang inside the
    /// plot area so the frame never cuts them.
    pub(crate) label_at: (f64, f64),
    pub(crate) anchor: (HPos, VPos),
}

pub(crate) struct Chart<'a> {
    pub(crate) name: String,
    pub(crate) title: String,
    pub(crate) x: Axis,
    pub(crate) y: Axis,
    pub(crate) x_desc: &'a str,
    pub(crate) y_desc: &'a str,
    pub(crate) series: Vec<Series>,
    pub(crate) guides: Vec<Guide>,
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

pub(crate) fn draw(c: Chart) -> Result<Svg, PlotError> {
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
pub(crate) struct Values {
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

    pub(crate) fn max(&self) -> Option<f64> {
        self.ranked().last().map(|p| p.1)
    }
}

/// At most [`MAX_DRAWN`] points, evenly spread, the last kept.
pub(crate) fn thin<T: Copy>(all: Vec<T>) -> Vec<T> {
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
}
