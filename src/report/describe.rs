//! The optional parts of a summary (`bench-report summary --counters`, `--best-of`,
//! `--trace`): the distribution of every counter, best-of-K portfolios of independent
//! colonies, and ABC convergence. They exist so that a script quoting figures (such as
//! `scripts/reproduce_table.py`) takes every mean, quantile and total from here instead of
//! computing its own from the CSV: one implementation of each statistic.

use crate::report::filter::off_path;
use crate::report::stats;
use crate::results::counters::{CounterInfo, COUNTERS};
use crate::results::{Record, Status, TraceRun};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Distribution of one column over a group's runs that report it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ColumnStats {
    /// Runs that report the column.
    pub runs: usize,
    /// Of those, runs where it is 0 (no node off the search path, no guess, no scout, …).
    pub zeros: usize,
    /// Sum over those runs.
    pub sum: f64,
    /// Mean.
    pub mean: f64,
    /// Smallest value.
    pub min: f64,
    /// 10th percentile (type 7).
    pub p10: f64,
    /// Median (type 7).
    pub median: f64,
    /// 90th percentile (type 7).
    pub p90: f64,
    /// Largest value.
    pub max: f64,
}

impl ColumnStats {
    /// Statistics of `vals` (sorted here); `None` for no values.
    pub fn of(mut vals: Vec<f64>) -> Option<ColumnStats> {
        vals.sort_by(f64::total_cmp);
        let q = |p| stats::percentile_sorted(&vals, p);
        Some(ColumnStats {
            runs: vals.len(),
            zeros: vals.iter().filter(|&&v| v == 0.0).count(),
            sum: vals.iter().sum(),
            mean: stats::mean(&vals)?,
            min: q(0.0)?,
            p10: q(0.1)?,
            median: q(0.5)?,
            p90: q(0.9)?,
            max: q(1.0)?,
        })
    }
}

/// Names of the columns [`ColumnsAcc`] describes, in order: every counter, then `off_path`
/// (nodes off the deepest search path, see [`off_path`]) and the timing columns.
fn column_names() -> impl Iterator<Item = &'static str> {
    COUNTERS.iter().map(|c| c.name).chain([
        "off_path",
        "wall_s",
        "cpu_s",
        "max_rss_kib",
        "startup_s",
    ])
}

/// Every column's values for a group, a row at a time (8 bytes a reported value), and those
/// of each numeric key of an external solver's `stats`.
#[derive(Clone, Debug, Default)]
pub struct ColumnsAcc {
    values: Vec<Vec<f64>>,
    stats: BTreeMap<String, Vec<f64>>,
}

impl ColumnsAcc {
    /// Account for one row.
    pub fn add(&mut self, r: &Record) {
        let n = COUNTERS.len();
        if self.values.is_empty() {
            self.values = vec![Vec::new(); n + 5];
        }
        let fixed = r.counters.values().into_iter().chain([
            off_path(r),
            Some(r.wall_s),
            r.cpu_s,
            r.max_rss_kib.map(|v| v as f64),
            r.startup_s,
        ]);
        for (col, v) in self.values.iter_mut().zip(fixed) {
            col.extend(v);
        }
        for k in r.stat_keys() {
            // A counter key (`solutions`) is its column already.
            if CounterInfo::named(k).is_none() {
                if let Some(v) = r.metric(k) {
                    match self.stats.get_mut(k) {
                        Some(col) => col.push(v),
                        None => {
                            self.stats.insert(k.to_string(), vec![v]);
                        }
                    }
                }
            }
        }
    }

    /// Statistics of each column and `stats` key some row reported, by name.
    pub fn finish(self) -> BTreeMap<String, ColumnStats> {
        let fixed = column_names()
            .zip(self.values)
            .filter_map(|(name, v)| Some((name.to_string(), ColumnStats::of(v)?)));
        let stats = self
            .stats
            .into_iter()
            .filter(|(k, _)| column_names().all(|c| c != k))
            .filter_map(|(k, v)| Some((k, ColumnStats::of(v)?)));
        fixed.chain(stats).collect()
    }
}

/// Best of K independent colonies: what K colonies of one (puzzle, seed) run side by side on
/// K cores deliver, from the rows of a run with `--colonies C`. Colonies `0..C` are cut into
/// disjoint blocks of K consecutive ones (`colony / K`); a block succeeds when any of its
/// colonies solved, at the cost of its fastest solving colony, and otherwise costs what its
/// longest colony ran (all K ran that long). Blocks with fewer than K colonies (C not a
/// multiple of K) are left out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestOf {
    /// Colonies per block.
    pub k: usize,
    /// Complete blocks.
    pub blocks: usize,
    /// Blocks where some colony solved.
    pub solved: usize,
    /// `100 * solved / blocks`.
    pub solved_pct: f64,
    /// The group's effort unit ([`crate::report::input::Efforts`]); `None` when its rows
    /// have none.
    pub unit: Option<&'static str>,
    /// ERT of a block in the unit: the blocks' costs summed, over the blocks solved; `None`
    /// when none was solved or a row lacks the counter.
    pub ert_effort: Option<f64>,
    /// ERT of a block in seconds of wall time, the same way.
    pub ert_s: Option<f64>,
}

/// One block's running best (fastest solving colony) and worst (longest colony).
#[derive(Clone, Copy, Debug)]
struct Block {
    colonies: usize,
    solved: bool,
    effort_missing: bool,
    best_effort: f64,
    worst_effort: f64,
    best_wall: f64,
    worst_wall: f64,
}

impl Default for Block {
    fn default() -> Block {
        Block {
            colonies: 0,
            solved: false,
            effort_missing: false,
            best_effort: f64::INFINITY,
            worst_effort: 0.0,
            best_wall: f64::INFINITY,
            worst_wall: 0.0,
        }
    }
}

/// The blocks of one K for a group, a row at a time.
#[derive(Clone, Debug)]
pub struct BestOfAcc {
    k: usize,
    unit: Option<&'static str>,
    blocks: HashMap<(u64, u64, u32), Block>,
}

impl BestOfAcc {
    /// Blocks of `k` colonies (`k >= 1`).
    pub fn new(k: usize) -> BestOfAcc {
        BestOfAcc {
            k: k.max(1),
            unit: None,
            blocks: HashMap::new(),
        }
    }

    /// Account for row `r` of puzzle `puzzle` (a hash of its id), whose effort is `effort`.
    pub fn add(&mut self, puzzle: u64, r: &Record, effort: Option<(&'static str, f64)>) {
        let k = u32::try_from(self.k).unwrap_or(u32::MAX);
        let b = self
            .blocks
            .entry((puzzle, r.seed, r.colony / k))
            .or_default();
        b.colonies += 1;
        if let Some((u, _)) = effort {
            self.unit.get_or_insert(u);
        }
        let effort = effort.filter(|e| Some(e.0) == self.unit).map(|e| e.1);
        b.effort_missing |= effort.is_none();
        let e = effort.unwrap_or(f64::NAN);
        b.worst_effort = b.worst_effort.max(e);
        b.worst_wall = b.worst_wall.max(r.wall_s);
        if r.status == Some(Status::Solved) {
            b.solved = true;
            b.best_effort = b.best_effort.min(e);
            b.best_wall = b.best_wall.min(r.wall_s);
        }
    }

    /// The portfolio figures.
    pub fn finish(self) -> BestOf {
        let full: Vec<&Block> = self
            .blocks
            .values()
            .filter(|b| b.colonies == self.k)
            .collect();
        let solved = full.iter().filter(|b| b.solved).count();
        let cost = |b: &&Block, best: f64, worst: f64| if b.solved { best } else { worst };
        let effort_total: f64 = full
            .iter()
            .map(|b| cost(b, b.best_effort, b.worst_effort))
            .sum();
        let wall_total: f64 = full
            .iter()
            .map(|b| cost(b, b.best_wall, b.worst_wall))
            .sum();
        let missing = full.iter().any(|b| b.effort_missing);
        let unit = self.unit.filter(|_| !full.is_empty());
        let per = |total: f64| (solved > 0).then(|| total / solved as f64);
        BestOf {
            k: self.k,
            blocks: full.len(),
            solved,
            solved_pct: if full.is_empty() {
                0.0
            } else {
                100.0 * solved as f64 / full.len() as f64
            },
            unit,
            ert_effort: if missing { None } else { per(effort_total) },
            ert_s: per(wall_total),
        }
    }
}

/// Best conflicts across a group's traced runs at one cycle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConvergencePoint {
    /// The cycle (0 = after initialisation). Points are given at every cycle where some run's
    /// best count changed; between two points nothing changes.
    pub cycle: u64,
    /// 10th percentile over every run (a run that stopped keeps its last count: 0 when solved).
    pub p10: f64,
    /// Median over every run.
    pub median: f64,
    /// 90th percentile over every run.
    pub p90: f64,
    /// Runs still unsolved (best conflicts > 0) at this cycle.
    pub unsolved: usize,
    /// 10th percentile over the unsolved runs only; `None` when every run is solved.
    pub unsolved_p10: Option<f64>,
    /// Median over the unsolved runs.
    pub unsolved_median: Option<f64>,
    /// 90th percentile over the unsolved runs.
    pub unsolved_p90: Option<f64>,
}

/// Per-cycle best conflicts of traced runs. A run's value carries forward past its last trace
/// row (and between rows: the trace holds only the cycles where the count changed), so runs
/// that stop early (solved: 0 conflicts) keep counting instead of vanishing from the
/// statistics; the last point is the runs' final state.
pub fn convergence(runs: &[&[(u64, u64)]]) -> Vec<ConvergencePoint> {
    let mut cycles: Vec<u64> = runs.iter().flat_map(|r| r.iter()).map(|p| p.0).collect();
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
                buf.push(r[*p].1 as f64);
            }
        }
        buf.sort_by(f64::total_cmp);
        let q = |v: &[f64], p| stats::percentile_sorted(v, p);
        // Sorted, so the unsolved runs (count > 0) are the tail.
        let unsolved = &buf[buf.partition_point(|&v| v <= 0.0)..];
        if let (Some(p10), Some(median), Some(p90)) = (q(&buf, 0.1), q(&buf, 0.5), q(&buf, 0.9)) {
            out.push(ConvergencePoint {
                cycle: c,
                p10,
                median,
                p90,
                unsolved: unsolved.len(),
                unsolved_p10: q(unsolved, 0.1),
                unsolved_median: q(unsolved, 0.5),
                unsolved_p90: q(unsolved, 0.9),
            });
        }
    }
    out
}

/// The convergence of one (dataset, strategy, params) of a trace file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConvergenceGroup {
    /// Dataset.
    pub dataset: String,
    /// Strategy.
    pub strategy: String,
    /// Canonical parameter string.
    pub params: String,
    /// Traced runs (jobs).
    pub runs: usize,
    /// Per-cycle statistics.
    pub points: Vec<ConvergencePoint>,
}

/// One run's `(cycle, best conflicts)` change points.
type TracePoints<'a> = &'a [(u64, u64)];

/// Convergence per (dataset, strategy, params) of trace runs, sorted by those.
pub fn convergence_groups(trace: &[TraceRun]) -> Vec<ConvergenceGroup> {
    let mut by: BTreeMap<(&str, &str, &str), Vec<TracePoints>> = BTreeMap::new();
    for t in trace {
        by.entry((&t.dataset, &t.strategy, &t.params))
            .or_default()
            .push(&t.points);
    }
    by.into_iter()
        .map(|((dataset, strategy, params), runs)| ConvergenceGroup {
            dataset: dataset.to_string(),
            strategy: strategy.to_string(),
            params: params.to_string(),
            runs: runs.len(),
            points: convergence(&runs),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::input::Efforts;
    use crate::results::counters::Counters;

    #[test]
    fn column_stats_are_type7_with_sum() {
        // 1..=10: h = 9p; p10 = 1 + 0.9 * 1 = 1.9, median 5.5, p90 = 9 + 0.1 = 9.1.
        let s = ColumnStats::of((1..=10).rev().map(f64::from).collect()).unwrap();
        assert_eq!((s.runs, s.zeros), (10, 0));
        assert_eq!(s.sum, 55.0);
        assert_eq!(s.mean, 5.5);
        assert_eq!((s.min, s.max), (1.0, 10.0));
        assert!((s.p10 - 1.9).abs() < 1e-12 && (s.p90 - 9.1).abs() < 1e-12);
        assert_eq!(s.median, 5.5);
        assert_eq!(ColumnStats::of(Vec::new()), None);
    }

    #[test]
    fn columns_cover_counters_off_path_and_wall() {
        let mut acc = ColumnsAcc::default();
        for (nodes, depth, wall) in [(8u64, 7u64, 0.5), (12, 7, 1.5)] {
            let mut r = Record::sample("h", "mrv", "p", Status::Solved, wall);
            r.counters = Counters {
                nodes: Some(nodes),
                max_depth: Some(depth),
                ..Counters::default()
            };
            acc.add(&r);
        }
        let m = acc.finish();
        assert_eq!(m["nodes"].mean, 10.0);
        // 8 - 1 - 7 = 0 (a single path) and 12 - 1 - 7 = 4.
        let off = &m["off_path"];
        assert_eq!((off.min, off.max, off.sum, off.zeros), (0.0, 4.0, 4.0, 1));
        assert_eq!(m["wall_s"].sum, 2.0);
        assert!(!m.contains_key("cycles"));
    }

    /// Rows of one puzzle and seed, colony `c` solving in `cycles[c]` (None: unsolved after
    /// 100 cycles), each taking a tenth of its cycles in milliseconds.
    fn colonies(cycles: &[Option<u64>]) -> Vec<Record> {
        cycles
            .iter()
            .enumerate()
            .map(|(c, v)| {
                let status = if v.is_some() {
                    Status::Solved
                } else {
                    Status::Unsolved
                };
                let n = v.unwrap_or(100);
                let mut r = Record::sample("s", "abc", "p", status, n as f64 * 1e-4);
                r.colony = c as u32;
                r.counters.cycles = Some(n);
                r
            })
            .collect()
    }

    #[test]
    fn best_of_k_takes_the_fastest_solver_of_each_block() {
        let rows = colonies(&[
            Some(40),
            None,
            None,
            Some(10),
            None,
            None,
            None,
            None,
            Some(30),
        ]);
        let run = |k| {
            let mut acc = BestOfAcc::new(k);
            rows.iter()
                .for_each(|r| acc.add(1, r, Efforts::default().of(r)));
            acc.finish()
        };
        // K = 1: 9 runs, 3 solved; (40 + 10 + 30 + 6 * 100) / 3 = 226.67.
        let one = run(1);
        assert_eq!((one.blocks, one.solved), (9, 3));
        assert!((one.ert_effort.unwrap() - 680.0 / 3.0).abs() < 1e-9);
        // K = 2: blocks {0,1} 40, {2,3} 10, {4,5} 100, {6,7} 100; colony 8 is a partial block.
        let two = run(2);
        assert_eq!((two.blocks, two.solved, two.unit), (4, 2, Some("cycles")));
        assert_eq!(two.ert_effort, Some(125.0));
        assert!((two.ert_s.unwrap() - 0.0125).abs() < 1e-12);
        // K = 4: {0..3} 10, {4..7} 100.
        let four = run(4);
        assert_eq!(
            (four.blocks, four.solved, four.ert_effort),
            (2, 1, Some(110.0))
        );
        assert_eq!(four.solved_pct, 50.0);
        // No block solved: no ERT.
        let mut none = BestOfAcc::new(3);
        colonies(&[None, None, None])
            .iter()
            .for_each(|r| none.add(1, r, Efforts::default().of(r)));
        let n = none.finish();
        assert_eq!(
            (n.blocks, n.solved, n.ert_effort, n.ert_s),
            (1, 0, None, None)
        );
    }

    #[test]
    fn convergence_carries_values_forward_and_splits_out_unsolved_runs() {
        // Run A solves at cycle 2; run B falls to 4 at cycle 3 and ends there unsolved.
        let a: &[(u64, u64)] = &[(0, 10), (2, 0)];
        let b: &[(u64, u64)] = &[(0, 20), (3, 4)];
        let pts = convergence(&[a, b]);
        let cycles: Vec<u64> = pts.iter().map(|p| p.cycle).collect();
        assert_eq!(cycles, [0, 2, 3]);
        assert_eq!((pts[0].median, pts[0].unsolved), (15.0, 2));
        assert_eq!(
            (pts[1].median, pts[1].unsolved, pts[1].unsolved_median),
            (10.0, 1, Some(20.0))
        );
        let last = &pts[2];
        assert_eq!((last.p10, last.median, last.p90), (0.4, 2.0, 3.6));
        assert_eq!((last.unsolved, last.unsolved_median), (1, Some(4.0)));
        let solved_all = convergence(&[a]);
        assert_eq!(solved_all[1].unsolved_median, None);
    }
}
