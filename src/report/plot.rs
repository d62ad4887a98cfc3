//! SVG plots of results: what each plot shows, drawn with the `chart` toolkit.
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
//! Plots are views of the run table ([`RunTable`]): `PlotData` keeps, per series, the solved
//! runs' values (one number each, up to `EXACT_CAP`, then a log-binned histogram).
//!
//! The drawing itself (axes, ticks, legend, markers, SVG) is the `chart`
//! toolkit's.

use crate::report::describe;
use crate::report::input::Budget;
use crate::report::table::{RunTable, TableSpec};
use crate::report::{labels, GroupKey};
use crate::results::TraceRun;
#[cfg(test)]
use crate::results::{Record, Status};
use plotters::style::text_anchor::{HPos, VPos};
use std::collections::{BTreeMap, BTreeSet};

pub(crate) use crate::report::chart::slug;
use crate::report::chart::*;
pub use crate::report::chart::{PlotError, Svg};
pub(crate) use crate::report::chart::{Unit, Values};

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
pub(crate) const MAX_SERIES: usize = 12;

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

/// Everything the cactus and distribution plots draw: a view of the run table.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlotData {
    groups: Vec<(GroupKey, GroupVals)>,
    budget: Budget,
}

impl PlotData {
    /// The plotted values of `table`'s groups: the solved runs' wall times, and their effort
    /// in the group's unit, or their values of `metric` (a counter, a timing column or a
    /// `stats` key, [`crate::results::Record::metric`]; the table read with it, see
    /// [`table_spec`]) when given.
    pub fn of_table(table: &RunTable, metric: Option<&'static str>) -> PlotData {
        let groups = table.groups.iter().map(|g| {
            let mut v = GroupVals {
                runs: g.totals.runs as u64,
                unit: match metric {
                    Some(m) => table.has_metric(g, m).then_some(m),
                    None => g.unit,
                },
                ..GroupVals::default()
            };
            for j in g.jobs.iter().filter(|j| j.solved()) {
                v.wall.push(j.wall);
                let value = match metric {
                    Some(m) => table.metric(g, j, m),
                    None => j.effort(),
                };
                if let Some(x) = value.filter(|_| v.unit.is_some()) {
                    v.effort.push(x);
                }
            }
            (g.key.clone(), v)
        });
        PlotData {
            groups: groups.collect(),
            budget: Budget::default(),
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
                    .filter_map(|&i| gs[i].0.config.params.get("max_cycles"))
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

/// Every plot of a run (`bench-report plot`): cactus and distributions of the set's rows
/// (each group's effort in its strategy's unit, or `metric` when given), streamed, and the
/// convergence plot of `trace`. All are rendered before the caller writes any, so a bad input
/// leaves no partial output.
pub fn render_set(
    set: &crate::report::input::RunSet,
    trace: Option<&std::path::Path>,
    metric: Option<&str>,
) -> Result<Vec<Svg>, PlotError> {
    let metric = metric.map(crate::results::counters::metric_name);
    let mut kept = set.kept_jobs().filter(|_| trace.is_some());
    let table = RunTable::read(set, table_spec(metric), |_, r| {
        if let Some(k) = kept.as_mut() {
            k.add(r);
        }
    })?;
    let mut data = PlotData::of_table(&table, metric);
    if let Some(m) = metric.filter(|_| !data.has_metric()) {
        return Err(PlotError::NoMetric(m.to_string()));
    }
    data.set_budget(set.budget());
    let trace_rows = (trace.map(crate::results::trace::read_trace).transpose()?)
        .map(|t| crate::report::input::KeptJobs::retain(kept.as_ref(), t));
    let mut svgs = data.cactus()?;
    svgs.extend(data.distributions()?);
    if let Some(t) = trace_rows {
        svgs.extend(render_convergence(&t)?);
    }
    Ok(svgs)
}

/// The run-table columns the cactus and distribution plots read: `metric`'s, when one is
/// plotted instead of the effort.
pub fn table_spec(metric: Option<&'static str>) -> TableSpec {
    TableSpec {
        metrics: metric.into_iter().filter(|m| *m != "wall_s").collect(),
        names: false,
    }
}

/// One configuration of a sweep plot: its value of the swept parameter and its summary.
type SweepPoint<'a> = (f64, &'a crate::report::summary::GroupSummary);

/// Sweep plots (`plot --sweep PARAM`): per dataset and strategy (and rules) whose
/// configurations carry `param` with numeric values, the success rate against the parameter,
/// shaded with its Wilson 95% interval, one line per value of the other parameters that vary
/// there: `<dataset>-<strategy>-sweep-<param>.svg`. An error when no configuration has the
/// parameter or a value of it is not a number.
pub fn render_sweep(
    summary: &crate::report::summary::Summary,
    param: &str,
) -> Result<Vec<Svg>, PlotError> {
    let refuse = |why: String| PlotError::Sweep {
        param: param.to_string(),
        why,
    };
    let mut buckets: BTreeMap<(&str, &str, &str), Vec<SweepPoint>> = BTreeMap::new();
    for g in &summary.groups {
        let Some(v) = g.key.config.params.get(param) else {
            continue;
        };
        let x = v
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| {
                refuse(format!(
                    "{} on {} has {param}={v}, not a number",
                    g.key.config.strategy, g.key.dataset
                ))
            })?;
        let k = (
            g.key.dataset.as_str(),
            g.key.config.strategy.as_str(),
            g.key.config.rules.as_str(),
        );
        buckets.entry(k).or_default().push((x, g));
    }
    if buckets.is_empty() {
        return Err(refuse("no configuration has it".to_string()));
    }
    let mut out = Vec::new();
    for ((dataset, strategy, rules), points) in buckets {
        let xs: Vec<f64> = points.iter().map(|p| p.0).collect();
        let x = Axis::fit(Unit::Count, &xs, true, true, None);
        let y = Axis {
            unit: Unit::Fraction,
            log: false,
            lo: 0.0,
            hi: 1.04,
        };
        let series = sweep_series(&points, strategy, param, &x);
        let rules_slug = if rules.is_empty() {
            String::new()
        } else {
            format!("-{}", slug(rules))
        };
        let rules = if rules.is_empty() {
            String::new()
        } else {
            format!(" {rules}")
        };
        out.push(draw(Chart {
            name: format!(
                "{}-{}{rules_slug}-sweep-{}.svg",
                slug(dataset),
                slug(strategy),
                slug(param)
            ),
            title: format!(
                "{dataset}: {strategy}{rules} runs solved against {param} (shaded: Wilson 95%)"
            ),
            x,
            y,
            x_desc: param,
            y_desc: "runs solved",
            series,
            guides: Vec::new(),
        })?);
    }
    Ok(out)
}

/// A sweep plot's lines: the bucket's points grouped by the values of the other parameters
/// that vary among them, each line in parameter order with its Wilson band.
fn sweep_series(points: &[SweepPoint], strategy: &str, param: &str, x: &Axis) -> Vec<Series> {
    use crate::report::summary::GroupSummary;
    // The other parameters, kept where they vary within the bucket: one line per value.
    let others = |g: &GroupSummary| -> Vec<(String, String)> {
        crate::report::param_pairs(g.key.config.params.as_str())
            .filter(|(k, _)| *k != param)
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let all: Vec<Vec<(String, String)>> = points.iter().map(|p| others(p.1)).collect();
    let varying: BTreeSet<&str> = all
        .iter()
        .flatten()
        .filter(|kv| !all.iter().all(|o| o.contains(kv)))
        .map(|kv| kv.0.as_str())
        .collect();
    let mut lines: BTreeMap<String, Vec<(f64, &GroupSummary)>> = BTreeMap::new();
    for (p, o) in points.iter().zip(&all) {
        let label: Vec<String> = (o.iter())
            .filter(|kv| varying.contains(kv.0.as_str()))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        lines.entry(label.join(";")).or_default().push(*p);
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(i, (label, mut pts))| {
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let at = |p: &(f64, &GroupSummary), pct: f64| (x.map(p.0), pct / 100.0);
            let mut band: Vec<(f64, f64)> = pts.iter().map(|p| at(p, p.1.solved_hi_pct)).collect();
            band.extend(pts.iter().rev().map(|p| at(p, p.1.solved_lo_pct)));
            let runs: usize = pts.iter().map(|p| p.1.runs).sum();
            Series {
                label: format!(
                    "{} ({} points, {runs} runs)",
                    if label.is_empty() { strategy } else { &label },
                    pts.len()
                ),
                style: i,
                points: pts.iter().map(|p| at(p, p.1.solved_pct)).collect(),
                draw: Draw::Line,
                band: Some(band),
            }
        })
        .collect()
}

/// One puzzle in an A-against-B scatter: each side's value, and whether it solved (a side
/// that did not is drawn at the plot's edge with a cross).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pair {
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
pub(crate) struct ScatterSpec<'a> {
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
pub(crate) fn render_scatter(spec: &ScatterSpec, pairs: &[Pair]) -> Result<Svg, PlotError> {
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
    let puzzles = |n: usize| format!("{n} puzzle{}", if n == 1 { "" } else { "s" });
    let mut series = vec![Series {
        label: format!("{} both solved", puzzles(both.len())),
        style: 0,
        points: both,
        draw: Draw::Points,
        band: None,
    }];
    if !failed.is_empty() {
        series.push(Series {
            label: format!(
                "{} not solved by one side (drawn at {})",
                puzzles(failed.len()),
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
pub(crate) fn render_convergence(trace: &[TraceRun]) -> Result<Option<Svg>, PlotError> {
    let mut by_group: BTreeMap<GroupKey, Vec<&[(u64, u64)]>> = BTreeMap::new();
    for t in trace {
        let key = GroupKey {
            dataset: t.dataset.clone(),
            kind: crate::kind::PuzzleKind::Sudoku,
            config: crate::report::Config {
                strategy: t.strategy.clone(),
                rules: String::new(),
                params: crate::results::Params::from_cell(&t.params),
            },
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

    /// Every row of `rows` in one [`PlotData`].
    fn data(rows: &[Record]) -> PlotData {
        use crate::report::table::{Facts, TableBuilder};
        let mut b = TableBuilder::new(table_spec(None), Default::default(), None);
        rows.iter().for_each(|r| {
            b.add(r, 0);
        });
        PlotData::of_table(&b.finish(Facts::default()), None)
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
        let svgs = data(&two_groups()).cactus().expect("cactus");
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
        let d = data(&two_groups()).distributions().expect("distribution");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].name, svgs[0].name.replace("-cactus", "-nodes"));
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
    fn sweep_draws_one_line_per_other_value_with_its_band_and_refuses_words() {
        use crate::report::summary::{summarize, tests::sweep_rows};
        let opts = crate::report::input::TimeLimit {
            secs: None,
            note: None,
        };
        let s = summarize(&sweep_rows(), &opts);
        let svgs = render_sweep(&s, "colony_size").expect("sweep");
        assert_eq!(svgs.len(), 1);
        let svg = &svgs[0];
        assert_eq!(svg.name, "s-abc-hybrid-sweep-colony_size.svg");
        assert!(svg.title.contains("against colony_size"), "{}", svg.title);
        // One legend entry per limit, each over its two points (2 runs each).
        for label in [
            "limit=20 (2 points, 4 runs)",
            "limit=adaptive (2 points, 4 runs)",
        ] {
            assert!(svg.svg.contains(label), "no {label}");
        }
        // `limit` has a word among its values: no axis for it.
        let e = render_sweep(&s, "limit").expect_err("words");
        assert!(
            e.to_string().contains("limit=adaptive, not a number"),
            "{e}"
        );
        let e = render_sweep(&s, "nope").expect_err("absent");
        assert!(e.to_string().contains("no configuration has it"), "{e}");
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
        assert!(svg.svg.contains(">\n1 puzzle both solved\n</text>"));
        assert!(svg.svg.contains("drawn at the time limit"));
    }
}
