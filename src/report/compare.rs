//! Baseline comparison: join two runs by job key and report what changed.
//!
//! Deterministic columns must match exactly (DESIGN §6): every status and counter difference
//! is listed, as better or worse. Wall times are noisy, so per group they are compared as the
//! ratio of medians new/base with a bootstrap 95% interval, and only an interval lying wholly
//! outside `1 ± noise_band` is called a slowdown or speedup.

use crate::report::claims::{ClaimCheck, Contradiction};
use crate::report::input::Efforts;
use crate::report::stats::{self, Interval};
use crate::report::{labels, GroupKey};
use crate::results::counters::Better;
use crate::results::read::key_cmp;
use crate::results::{Columns, Record, Status};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::Serialize;
use std::borrow::Borrow;
use std::fmt::Write as _;

/// The smallest band the gate uses unless told otherwise: the run-to-run variation of wall
/// times on a shared host is this large (issue 27: ×1.165 between two quiet runs 2 s apart).
pub const BAND_FLOOR: f64 = 0.25;

/// How to compare.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// Relative band around 1 inside which a time ratio is noise: the gate's one band
    /// (`gate::Band`), [`BAND_FLOOR`] by default.
    pub noise_band: f64,
    /// Where the band comes from, in words, for the reports.
    pub band_source: String,
    /// Why no wall time is judged (CPU models differ, see `host::HostCheck`); `None` judges
    /// them, each group against [`CompareOptions::host`].
    pub wall_not_judged: Option<String>,
    /// Each side's files' host loads: a group's wall slowdown (speedup) stands only when it
    /// stays outside the band with the new (baseline) times divided by the bound of
    /// [`crate::report::host::FileLoad::bound`].
    pub host: crate::report::host::HostLoads,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Bootstrap seed (fixed by default so reports are reproducible).
    pub seed: u64,
    /// Fewer joined runs than this in a group and times are not judged: a bootstrap of two or
    /// three values says nothing.
    pub min_time_runs: usize,
    /// Longest list printed per table in markdown before "… and N more".
    pub list_limit: usize,
    /// Name of the baseline in reports (e.g. its path).
    pub baseline_label: String,
    /// Name of the new run in reports.
    pub new_label: String,
    /// Whether a flagged slowdown counts as a regression. Off when the two runs come from
    /// different machines (e.g. a CI runner against a baseline made elsewhere): slowdowns are
    /// then still reported, but only deterministic counters and statuses decide the verdict.
    pub time_regressions: bool,
    /// The new run's effort units (its [`crate::report::input::RunSet::efforts`]).
    pub efforts: Efforts,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            noise_band: BAND_FLOOR,
            band_source: "default".to_string(),
            wall_not_judged: None,
            host: crate::report::host::HostLoads::default(),
            resamples: stats::BOOTSTRAP_RESAMPLES,
            seed: stats::BOOTSTRAP_SEED,
            min_time_runs: 5,
            list_limit: 20,
            baseline_label: "baseline".to_string(),
            new_label: "new".to_string(),
            time_regressions: true,
            efforts: Efforts::default(),
        }
    }
}

/// Whether a change is an improvement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Worse (a regression).
    Worse,
    /// A deterministic value differs and has no better side (`solutions`, `solution`, a
    /// counter that appeared or vanished). Counted as a regression: runs of one plan must
    /// agree exactly.
    Changed,
    /// Better.
    Better,
}

impl Direction {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Direction::Worse => "worse",
            Direction::Changed => "changed",
            Direction::Better => "better",
        }
    }
}

/// Which job of a group a change is about.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Job {
    /// Puzzle id.
    pub puzzle_id: String,
    /// Seed.
    pub seed: u64,
    /// Colony.
    pub colony: u32,
}

/// A job whose status differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatusChange {
    /// The job.
    #[serde(flatten)]
    pub job: Job,
    /// Baseline status.
    pub base: Option<Status>,
    /// New status.
    pub new: Option<Status>,
    /// By [`Status::rank`].
    pub direction: Direction,
}

/// A job whose deterministic counter differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CounterChange {
    /// The job.
    #[serde(flatten)]
    pub job: Job,
    /// Column name.
    pub counter: &'static str,
    /// Baseline cell (empty when absent).
    pub base: String,
    /// New cell.
    pub new: String,
    /// Smaller is better for effort counters, bigger for `propagated` and `verified`.
    pub direction: Direction,
}

/// What the time comparison of a group concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeVerdict {
    /// The whole interval lies above `1 + band`.
    Slowdown,
    /// The whole interval lies below `1 - band`.
    Speedup,
    /// The interval reaches into the noise band.
    Unchanged,
    /// Too few joined runs (or no positive baseline median) to judge.
    NotJudged,
    /// Wall times that others' CPU during a run could explain (see [`TimeChange::why`] and
    /// [`Comparison::wall_not_judged`]): shown, not judged.
    Noisy,
}

/// Time comparison of one group over its joined runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimeChange {
    /// Joined runs.
    pub runs: usize,
    /// Baseline median wall, seconds.
    pub base_median_s: Option<f64>,
    /// New median wall, seconds.
    pub new_median_s: Option<f64>,
    /// median(new) / median(base) with its bootstrap 95% interval.
    pub ratio: Option<Interval>,
    /// Conclusion.
    pub verdict: TimeVerdict,
    /// Why a [`TimeVerdict::Noisy`] verdict was not judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// Everything that changed in one group (dataset, kind, strategy, rules, params).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupComparison {
    /// Which group.
    #[serde(flatten)]
    pub key: GroupKey,
    /// Display name.
    pub label: String,
    /// Jobs present on both sides.
    pub joined: usize,
    /// Status changes, worse first.
    pub status_changes: Vec<StatusChange>,
    /// Counter changes, worse first.
    pub counter_changes: Vec<CounterChange>,
    /// Wall time comparison.
    pub time: TimeChange,
    /// CPU time (`cpu_s`) comparison over the joined jobs where both sides measured it;
    /// `None` when no pair has it. Judged on any host.
    pub cpu: Option<TimeChange>,
    /// Rows of the baseline with no partner in the new run.
    pub missing_in_new: Vec<Job>,
    /// Rows of the new run with no partner in the baseline.
    pub only_in_new: Vec<Job>,
    /// `nodes` or `cycles` mean of the new run (cycles over solved runs), for CI trackers.
    pub new_effort: Option<(&'static str, f64)>,
    /// Bootstrap 95% interval of the new run's median wall, for CI trackers.
    pub new_wall: Option<Interval>,
    /// New rows in the group.
    pub new_runs: usize,
}

/// The result of [`compare_sorted`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// Per group, sorted by key.
    pub groups: Vec<GroupComparison>,
    /// Baseline rows read.
    pub base_rows: usize,
    /// New rows read.
    pub new_rows: usize,
    /// Keys seen more than once on one side (only the first row is compared).
    pub duplicate_keys: Vec<String>,
    /// Rows of the new run whose answer the verifier rejected: a bug, so always a regression,
    /// even when the baseline had the same row.
    pub wrong_in_new: usize,
    /// "No solution" claims of the new run that a verified solve of the same puzzle (on
    /// either side, by any configuration) refutes: wrong answers, so regressions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contradictions: Vec<Contradiction>,
    /// The noise band used.
    pub noise_band: f64,
    /// Where the band comes from.
    pub band_source: String,
    /// Why wall times were not judged, when they were not (a noisy host).
    pub wall_not_judged: Option<String>,
    /// Notes on what could not be checked (dataset contents without a meta, host state).
    pub notes: Vec<String>,
    /// Bootstrap resamples used.
    pub resamples: usize,
    /// Baseline name.
    pub baseline_label: String,
    /// New run name.
    pub new_label: String,
    /// Whether flagged slowdowns count as a regression (see [`CompareOptions::time_regressions`]).
    pub time_regressions: bool,
    /// Markdown list cap.
    #[serde(skip)]
    pub(crate) list_limit: usize,
}

pub(crate) fn cell<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(T::to_string).unwrap_or_default()
}

/// Every counter of the table, then `verified` and `solution`: each difference is a change,
/// better or worse where the counter has a direction.
fn counter_diffs(b: &Record, n: &Record, job: &Job, out: &mut Vec<CounterChange>) {
    let change = |counter: &'static str, base: String, new: String, direction| CounterChange {
        job: job.clone(),
        counter,
        base,
        new,
        direction,
    };
    for d in b.counters.diffs(&n.counters) {
        let direction = match (d.info.better, d.values) {
            (Better::Lower, Some((x, y))) if y < x => Direction::Better,
            (Better::Higher, Some((x, y))) if y > x => Direction::Better,
            (Better::Lower | Better::Higher, Some(_)) => Direction::Worse,
            _ => Direction::Changed,
        };
        out.push(change(d.info.name, d.old, d.new, direction));
    }
    if b.verified != n.verified {
        let direction = if n.verified {
            Direction::Better
        } else {
            Direction::Worse
        };
        out.push(change(
            "verified",
            b.verified.to_string(),
            n.verified.to_string(),
            direction,
        ));
    }
    if b.solution != n.solution {
        out.push(change(
            "solution",
            cell(&b.solution),
            cell(&n.solution),
            Direction::Changed,
        ));
    }
}

/// Joined pairs a group keeps for its time statistics: beyond this many, a seeded uniform
/// sample of this size (reservoir sampling), so memory stays bounded however many rows the
/// runs hold. 250,000 pairs (6 MB) give a median within a fraction of a percent, far inside
/// any noise band; groups up to this size are judged on every pair, exactly as before.
pub const TIME_SAMPLE_CAP: usize = 250_000;

/// A uniform sample of at most `cap` values from a stream (Algorithm R), deterministic for a
/// seed. Below the cap it holds every value, in stream order.
struct Reservoir<T> {
    items: Vec<T>,
    seen: u64,
    cap: usize,
    rng: Pcg64Mcg,
}

impl<T> Reservoir<T> {
    fn new(cap: usize, seed: u64) -> Self {
        Reservoir {
            items: Vec::new(),
            seen: 0,
            cap: cap.max(1),
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }

    fn push(&mut self, x: T) {
        self.seen += 1;
        if self.items.len() < self.cap {
            self.items.push(x);
        } else {
            let j = self.rng.random_range(0..self.seen);
            if j < self.cap as u64 {
                self.items[j as usize] = x;
            }
        }
    }
}

/// The mean effort of a group's solved rows (as the summary's effort), as an exact sum.
#[derive(Default)]
struct EffortSum {
    unit: Option<&'static str>,
    sum: f64,
    n: u64,
}

impl EffortSum {
    fn add(&mut self, effort: Option<(&'static str, f64)>, solved: bool) {
        let Some((unit, v)) = effort else { return };
        if *self.unit.get_or_insert(unit) == unit && solved {
            self.sum += v;
            self.n += 1;
        }
    }

    fn mean(&self) -> Option<(&'static str, f64)> {
        Some((self.unit?, self.sum / self.n as f64)).filter(|_| self.n > 0)
    }
}

/// A group's running state while the two sorted streams are joined: the changes found, and
/// per row only what the time statistics need.
struct Acc {
    key: GroupKey,
    joined: usize,
    status_changes: Vec<StatusChange>,
    counter_changes: Vec<CounterChange>,
    missing: Vec<Job>,
    only_new: Vec<Job>,
    pairs: Reservoir<(f64, f64)>,
    cpu_pairs: Reservoir<(f64, f64)>,
    new_walls: Reservoir<f64>,
    new_runs: usize,
    effort: EffortSum,
}

impl Acc {
    fn new(key: GroupKey, seed: u64) -> Acc {
        Acc {
            key,
            joined: 0,
            status_changes: Vec::new(),
            counter_changes: Vec::new(),
            missing: Vec::new(),
            only_new: Vec::new(),
            pairs: Reservoir::new(TIME_SAMPLE_CAP, seed),
            cpu_pairs: Reservoir::new(TIME_SAMPLE_CAP, seed ^ 2),
            new_walls: Reservoir::new(TIME_SAMPLE_CAP, seed ^ 1),
            new_runs: 0,
            effort: EffortSum::default(),
        }
    }

    /// A baseline row and its partner in the new run.
    fn pair(&mut self, b: &Record, n: &Record) {
        let job = job_of(n);
        if b.status != n.status {
            let rank = |s: Option<Status>| s.map_or(0, Status::rank);
            let direction = match rank(n.status).cmp(&rank(b.status)) {
                std::cmp::Ordering::Greater => Direction::Better,
                std::cmp::Ordering::Less => Direction::Worse,
                // error <-> wrong share a rank but are different failures.
                std::cmp::Ordering::Equal => Direction::Changed,
            };
            self.status_changes.push(StatusChange {
                job: job.clone(),
                base: b.status,
                new: n.status,
                direction,
            });
        }
        counter_diffs(b, n, &job, &mut self.counter_changes);
        self.joined += 1;
        self.pairs.push((b.wall_s, n.wall_s));
        if let (Some(x), Some(y)) = (b.cpu_s, n.cpu_s) {
            self.cpu_pairs.push((x, y));
        }
    }

    /// A row of the new run (paired or not), with its effort.
    fn new_row(&mut self, n: &Record, effort: Option<(&'static str, f64)>) {
        self.new_runs += 1;
        self.new_walls.push(n.wall_s);
        self.effort.add(effort, n.status == Some(Status::Solved));
    }
}

fn job_of(r: &Record) -> Job {
    Job {
        puzzle_id: r.puzzle_id.clone(),
        seed: r.seed,
        colony: r.colony,
    }
}

/// One group's changes between the runs: statuses and counters job by job, time over the
/// joined pairs, and the new run's own effort and wall time.
fn compare_group(mut a: Acc, label: String, opts: &CompareOptions, band: f64) -> GroupComparison {
    a.status_changes
        .sort_by(|x, y| (x.direction, &x.job).cmp(&(y.direction, &y.job)));
    a.counter_changes
        .sort_by(|x, y| (x.direction, &x.job, x.counter).cmp(&(y.direction, &y.job, y.counter)));
    let mut time = time_change(&a.pairs.items, a.joined, opts, band);
    host_verdict(&mut time, &a.key, opts, band);
    let cpu = (!a.cpu_pairs.items.is_empty())
        .then(|| time_change(&a.cpu_pairs.items, a.cpu_pairs.items.len(), opts, band));
    GroupComparison {
        cpu,
        label,
        joined: a.joined,
        status_changes: a.status_changes,
        counter_changes: a.counter_changes,
        time,
        missing_in_new: a.missing,
        only_in_new: a.only_new,
        new_effort: a.effort.mean(),
        new_wall: stats::bootstrap_median(&a.new_walls.items, opts.resamples, opts.seed),
        new_runs: a.new_runs,
        key: a.key,
    }
}

/// A group's wall verdict against the hosts: on different CPU models none is judged; a
/// slowdown whose interval's low end, divided by the new run's inflation bound, reaches into
/// the band could be others' CPU, and so could a speedup whose high end, times the baseline's
/// bound, does. Those are [`TimeVerdict::Noisy`], with the figures in [`TimeChange::why`].
fn host_verdict(time: &mut TimeChange, key: &GroupKey, opts: &CompareOptions, band: f64) {
    use crate::report::host::HostLoads;
    if let Some(why) = &opts.wall_not_judged {
        if time.verdict != TimeVerdict::NotJudged {
            time.verdict = TimeVerdict::Noisy;
            time.why = Some(why.clone());
        }
        return;
    }
    let Some(ci) = time.ratio else { return };
    let (side, load, edge) = match time.verdict {
        TimeVerdict::Slowdown => match HostLoads::of(&opts.host.new, key) {
            Some(l) if ci.lo / l.inflation <= 1.0 + band => ("new", l, ci.lo),
            _ => return,
        },
        TimeVerdict::Speedup => match HostLoads::of(&opts.host.base, key) {
            Some(l) if ci.hi * l.inflation >= 1.0 - band => ("baseline", l, ci.hi),
            _ => return,
        },
        _ => return,
    };
    time.verdict = TimeVerdict::Noisy;
    time.why = Some(format!(
        "the interval's {} end x{edge:.3} is within what others' CPU could explain: {} ({side})",
        if side == "new" { "low" } else { "high" },
        load.why
    ));
}

/// The time verdict of a group: judged only with enough pairs, and only outside the noise band.
/// `pairs` may be a sample of the `joined` pairs (see [`TIME_SAMPLE_CAP`]).
fn time_change(
    pairs: &[(f64, f64)],
    joined: usize,
    opts: &CompareOptions,
    band: f64,
) -> TimeChange {
    let bw: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let nw: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let ratio = (pairs.len() >= opts.min_time_runs.max(1))
        .then(|| stats::bootstrap_ratio_of_medians(&bw, &nw, opts.resamples, opts.seed))
        .flatten();
    let verdict = match ratio {
        None => TimeVerdict::NotJudged,
        Some(ci) if ci.lo > 1.0 + band => TimeVerdict::Slowdown,
        Some(ci) if ci.hi < 1.0 - band => TimeVerdict::Speedup,
        Some(_) => TimeVerdict::Unchanged,
    };
    TimeChange {
        runs: joined,
        base_median_s: stats::median(&bw),
        new_median_s: stats::median(&nw),
        ratio,
        verdict,
        why: None,
    }
}

/// The groups of a join, found by a linear scan that tries the last group first: rows come
/// in key order, so consecutive rows mostly share a group, and runs have few groups.
struct Groups {
    accs: Vec<Acc>,
    last: usize,
    seed: u64,
}

impl Groups {
    fn of(&mut self, r: &Record) -> &mut Acc {
        if !self.accs.get(self.last).is_some_and(|a| a.key.matches(r)) {
            self.last = match self.accs.iter().position(|a| a.key.matches(r)) {
                Some(i) => i,
                None => {
                    self.accs.push(Acc::new(GroupKey::of(r), self.seed));
                    self.accs.len() - 1
                }
            };
        }
        &mut self.accs[self.last]
    }
}

/// One side of the join: the next row whose key differs from the row before it; rows with a
/// key already seen are noted as duplicates and skipped (the first is compared).
struct Side<I> {
    rows: I,
    prev: Option<Record>,
    rows_read: usize,
    /// Rows with status `wrong`, duplicates included.
    wrong: usize,
    dups: Vec<String>,
    name: &'static str,
}

impl<I, R, E> Side<I>
where
    I: Iterator<Item = Result<R, E>>,
    R: Borrow<Record>,
{
    fn new(rows: I, name: &'static str) -> Self {
        Side {
            rows,
            prev: None,
            rows_read: 0,
            wrong: 0,
            dups: Vec::new(),
            name,
        }
    }

    fn next(&mut self) -> Result<Option<Record>, E> {
        for row in self.rows.by_ref() {
            let row = row?;
            let r: &Record = row.borrow();
            self.rows_read += 1;
            self.wrong += usize::from(r.status == Some(Status::Wrong));
            if let Some(p) = &self.prev {
                if key_cmp(p, r) == std::cmp::Ordering::Equal {
                    self.dups.push(format!(
                        "{}: {} {} {} seed {} colony {}",
                        self.name, r.dataset, r.puzzle_id, r.strategy, r.seed, r.colony
                    ));
                    continue;
                }
            }
            let r = r.clone();
            self.prev = Some(r.clone());
            return Ok(Some(r));
        }
        Ok(None)
    }
}

/// Compare a baseline run with a new run, job by job (joined on [`Record::key`]), from two
/// streams each sorted by [`key_cmp`] (see [`crate::results::sort::KeySorted`]). Memory is
/// bounded by the number of groups and of changes found, not by the rows: per group at most
/// [`TIME_SAMPLE_CAP`] wall-time pairs. Stops at the first error of either stream.
pub fn compare_sorted<I, J, R, S, E>(
    base: I,
    new: J,
    opts: &CompareOptions,
) -> Result<Comparison, E>
where
    I: Iterator<Item = Result<R, E>>,
    J: Iterator<Item = Result<S, E>>,
    R: Borrow<Record>,
    S: Borrow<Record>,
{
    let (mut bs, mut ns) = (Side::new(base, "baseline"), Side::new(new, "new"));
    let mut groups = Groups {
        accs: Vec::new(),
        last: 0,
        seed: opts.seed,
    };
    let mut claims = ClaimCheck::default();
    // The group number of the row just given to `groups.of`, for the claims check.
    let id = |g: &Groups| u32::try_from(g.last).unwrap_or(u32::MAX);
    let (mut b, mut n) = (bs.next()?, ns.next()?);
    loop {
        let order = match (&b, &n) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => key_cmp(x, y),
        };
        match (order, &b, &n) {
            (std::cmp::Ordering::Less, Some(x), _) => {
                groups.of(x).missing.push(job_of(x));
                claims.solve(id(&groups), x);
                b = bs.next()?;
            }
            (std::cmp::Ordering::Greater, _, Some(y)) => {
                let g = groups.of(y);
                g.only_new.push(job_of(y));
                g.new_row(y, opts.efforts.of(y));
                claims.add(id(&groups), y);
                n = ns.next()?;
            }
            (_, Some(x), Some(y)) => {
                let g = groups.of(y);
                g.pair(x, y);
                g.new_row(y, opts.efforts.of(y));
                claims.solve(id(&groups), x);
                claims.add(id(&groups), y);
                (b, n) = (bs.next()?, ns.next()?);
            }
            _ => break,
        }
    }
    // Rows with a repeated key still count, as they did when every row was held: a wrong
    // answer is a bug wherever it is.
    let wrong_in_new = ns.wrong;
    let mut accs: Vec<(usize, Acc)> = groups.accs.into_iter().enumerate().collect();
    accs.sort_by(|x, y| x.1.key.cmp(&y.1.key));
    let keys: Vec<GroupKey> = accs.iter().map(|(_, a)| a.key.clone()).collect();
    let names = labels(&keys);
    let mut label_of = vec![String::new(); names.len()];
    for ((i, _), name) in accs.iter().zip(&names) {
        label_of[*i].clone_from(name);
    }
    let contradictions = claims.finish(|i| label_of.get(i as usize).cloned().unwrap_or_default());
    let band = opts.noise_band.abs();
    let groups = accs
        .into_iter()
        .zip(names)
        .map(|((_, a), label)| compare_group(a, label, opts, band))
        .collect();
    let mut dups = bs.dups;
    dups.extend(ns.dups);
    Ok(Comparison {
        groups,
        base_rows: bs.rows_read,
        new_rows: ns.rows_read,
        duplicate_keys: dups,
        wrong_in_new,
        contradictions,
        noise_band: band,
        band_source: opts.band_source.clone(),
        wall_not_judged: opts.wall_not_judged.clone(),
        notes: Vec::new(),
        resamples: opts.resamples,
        baseline_label: opts.baseline_label.clone(),
        new_label: opts.new_label.clone(),
        time_regressions: opts.time_regressions,
        list_limit: opts.list_limit.max(1),
    })
}

/// Counts behind the verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Status changes for the worse (or between error and wrong).
    pub status_worse: usize,
    /// Status changes for the better.
    pub status_better: usize,
    /// Counter changes for the worse, or without an order.
    pub counters_worse: usize,
    /// Counter changes for the better.
    pub counters_better: usize,
    /// Groups flagged slower.
    pub slowdowns: usize,
    /// Groups flagged faster.
    pub speedups: usize,
    /// Groups whose CPU time is flagged higher.
    pub cpu_slowdowns: usize,
    /// Groups whose CPU time is flagged lower.
    pub cpu_speedups: usize,
    /// Groups whose wall time was not judged for a noisy host.
    pub noisy: usize,
    /// Groups whose time was not compared at all: wall time not judged for the host, and no
    /// CPU time judged ([`GroupComparison::time_not_compared`]).
    pub time_not_compared: usize,
    /// Baseline rows missing from the new run.
    pub missing_in_new: usize,
    /// New rows without a baseline partner.
    pub only_in_new: usize,
    /// Jobs on both sides.
    pub joined: usize,
}

impl GroupComparison {
    /// Why neither time of this group was compared, when its wall time was not judged for
    /// the host (others' CPU could explain the change, or the CPU models differ) and no CPU
    /// time was judged (no `cpu_s` on both sides, or too few pairs of it).
    pub fn time_not_compared(&self) -> Option<String> {
        if self.time.verdict != TimeVerdict::Noisy {
            return None;
        }
        let cpu = match &self.cpu {
            None => "no cpu_s on both sides",
            Some(c) if c.verdict == TimeVerdict::NotJudged => "too few cpu_s pairs",
            Some(_) => return None,
        };
        let wall = match self.time.ratio {
            Some(r) => format!("wall x{:.3} could be others' CPU", r.value),
            None => "wall not judged".to_string(),
        };
        Some(format!(
            "{} {} ({wall}, {cpu})",
            self.key.dataset, self.label
        ))
    }

    /// This group's judged time changes of `verdict` in words, in the one ratio convention
    /// (docs/reports.md): "sudoku-hard backtrack: new needs x7.26 [6.69, 7.60] the wall time of
    /// the baseline", a speedup as "the baseline needs xk the … time of new" (for the HTML card).
    pub fn flagged(&self, verdict: TimeVerdict) -> Option<String> {
        let part = |what: &str, t: &TimeChange| {
            let r = t.ratio.filter(|_| t.verdict == verdict)?;
            Some(if r.value >= 1.0 {
                format!(
                    "new needs x{:.2} [{:.2}, {:.2}] the {what} time of the baseline",
                    r.value, r.lo, r.hi
                )
            } else {
                format!(
                    "the baseline needs x{:.2} [{:.2}, {:.2}] the {what} time of new",
                    1.0 / r.value,
                    1.0 / r.hi,
                    1.0 / r.lo
                )
            })
        };
        let parts: Vec<String> = [
            part("wall", &self.time),
            self.cpu.as_ref().and_then(|c| part("CPU", c)),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty())
            .then(|| format!("{} {}: {}", self.key.dataset, self.label, parts.join(", ")))
    }
}

/// `bench-report compare`'s exit codes beyond 0 (pass) and 1 (regression): 2 is bad input
/// (and a comparison that joined no job), 3 is time not compared under `--times fail`.
pub const EXIT_TIME_NOT_COMPARED: u8 = 3;

impl Comparison {
    /// No job joined and nothing missing: there was nothing to compare (a filter or input
    /// that kept no common job). Never a pass.
    pub fn nothing_compared(&self) -> bool {
        self.tally().joined == 0 && !self.is_regression()
    }

    /// The exit code of the verdict: 1 a regression, 2 nothing compared, 3 (with
    /// `--times fail`) a group whose time could not be compared at all, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.is_regression() {
            1
        } else if self.nothing_compared() {
            2
        } else if self.time_regressions && self.tally().time_not_compared > 0 {
            EXIT_TIME_NOT_COMPARED
        } else {
            0
        }
    }

    /// The groups whose time was not compared, in words ([`GroupComparison::time_not_compared`]).
    fn not_compared_words(&self) -> Option<String> {
        let v: Vec<String> = self
            .groups
            .iter()
            .filter_map(GroupComparison::time_not_compared)
            .collect();
        (!v.is_empty()).then(|| v.join("; "))
    }

    /// Counts of each kind of change.
    pub fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for g in &self.groups {
            for s in &g.status_changes {
                match s.direction {
                    Direction::Better => t.status_better += 1,
                    _ => t.status_worse += 1,
                }
            }
            for c in &g.counter_changes {
                match c.direction {
                    Direction::Better => t.counters_better += 1,
                    _ => t.counters_worse += 1,
                }
            }
            match g.time.verdict {
                TimeVerdict::Slowdown => t.slowdowns += 1,
                TimeVerdict::Speedup => t.speedups += 1,
                TimeVerdict::Noisy => t.noisy += 1,
                _ => {}
            }
            t.time_not_compared += usize::from(g.time_not_compared().is_some());
            match g.cpu.as_ref().map(|c| c.verdict) {
                Some(TimeVerdict::Slowdown) => t.cpu_slowdowns += 1,
                Some(TimeVerdict::Speedup) => t.cpu_speedups += 1,
                _ => {}
            }
            t.missing_in_new += g.missing_in_new.len();
            t.only_in_new += g.only_in_new.len();
            t.joined += g.joined;
        }
        t
    }

    /// A counter or status got worse (or changed without an order), a group is flagged
    /// slower, or baseline rows are missing from the new run. Rows only in the new run and
    /// improvements are not regressions.
    pub fn is_regression(&self) -> bool {
        let t = self.tally();
        let slow = if self.time_regressions {
            t.slowdowns + t.cpu_slowdowns
        } else {
            0
        };
        t.status_worse
            + t.counters_worse
            + slow
            + t.missing_in_new
            + self.wrong_in_new
            + self.contradictions.len()
            > 0
    }

    /// One line: the verdict and what it rests on.
    pub fn headline(&self) -> String {
        let t = self.tally();
        // "1 status got worse", "3 statuses got worse": counts with the noun agreeing.
        let say = |items: &[(usize, &str, &str)]| -> Vec<String> {
            items
                .iter()
                .filter(|i| i.0 > 0)
                .map(|&(n, noun, what)| match n {
                    1 => format!("{n} {noun} {what}"),
                    _ if noun.ends_with('s') => format!("{n} {noun}es {what}"),
                    _ => format!("{n} {noun}s {what}"),
                })
                .collect()
        };
        // With `--times warn`, slowdowns are noted with the improvements, not counted as bad.
        let (judged, noted) = match self.time_regressions {
            true => ((t.slowdowns, t.cpu_slowdowns), 0),
            false => ((0, 0), t.slowdowns + t.cpu_slowdowns),
        };
        let bad = say(&[
            (
                self.wrong_in_new,
                "row",
                "of the new run wrong (answers the verifier rejected)",
            ),
            (
                self.contradictions.len(),
                "no-solution claim",
                "of the new run refuted by a verified solve",
            ),
            (t.status_worse, "status", "worse"),
            (t.counters_worse, "counter value", "worse or changed"),
            (judged.0, "group", "slower"),
            (judged.1, "group", "slower in CPU time"),
            (t.missing_in_new, "row", "missing from new"),
        ]);
        let mut good = say(&[
            (t.status_better, "status", "better"),
            (t.counters_better, "counter value", "better"),
            (t.speedups, "group", "faster"),
            (t.cpu_speedups, "group", "faster in CPU time"),
            (t.only_in_new, "row", "only in new"),
            (noted, "group", "slower (not judged: --times warn)"),
        ]);
        if let Some(why) = &self.wall_not_judged {
            good.push(format!("wall times not judged: noisy host ({why})"));
        }
        let not_compared = self.not_compared_words();
        if self.is_regression() {
            good.extend(not_compared.map(|nc| format!("time not compared: {nc}")));
            let mut s = format!("REGRESSION: {}", bad.join(", "));
            if !good.is_empty() {
                let _ = write!(s, " (also {})", good.join(", "));
            }
            s
        } else if self.nothing_compared() {
            format!(
                "NOTHING COMPARED: no job of the baseline ({} rows) was joined with one of the \
                 new run ({} rows)",
                self.base_rows, self.new_rows
            )
        } else if let Some(nc) = not_compared.as_ref().filter(|_| self.time_regressions) {
            let mut s = format!("TIME NOT COMPARED: {nc}; no status or counter regression");
            if !good.is_empty() {
                let _ = write!(s, " (also {})", good.join(", "));
            }
            s
        } else if let Some(nc) = not_compared {
            good.push(format!("time not compared: {nc} (--times warn)"));
            format!("No regression ({})", good.join(", "))
        } else if good.is_empty() {
            "No regression: identical results, times within the noise band".to_string()
        } else {
            format!("No regression ({})", good.join(", "))
        }
    }
}

/// Optional columns that measure rather than result: present on one side only, they never
/// make `compare` refuse (they are compared where both sides have them).
pub const MEASUREMENT_COLUMNS: [&str; 5] =
    ["repeats", "cpu_s", "max_rss_kib", "startup_s", "stats"];

/// Optional columns one side has and the other lacks: comparing them would report every value
/// of the column as changed, so the caller refuses the comparison with this message instead.
pub fn column_mismatch(baseline: Columns, new: Columns) -> Option<String> {
    let (b, n) = (baseline.names(), new.names());
    let only = |a: &[&str], other: &[&str]| -> Vec<String> {
        a.iter()
            // `repeats` says how `wall_s` was measured and the measurement columns are
            // timings, not results: compared where both sides have them, never refused.
            .filter(|c| !other.contains(c) && !MEASUREMENT_COLUMNS.contains(c) && **c != "solution")
            .map(|c| c.to_string())
            .collect()
    };
    let (only_b, only_n) = (only(&b, &n), only(&n, &b));
    if only_b.is_empty() && only_n.is_empty() {
        return None;
    }
    let parts: Vec<String> = [
        (only_b, "the baseline", "the new run"),
        (only_n, "the new run", "the baseline"),
    ]
    .into_iter()
    .filter(|(only, ..)| !only.is_empty())
    .map(|(only, has, lacks)| format!("{has} has {} and {lacks} does not", only.join(", ")))
    .collect();
    Some(format!(
        "the files carry different optional columns: {} (run both with the same --count-solutions, or compare like with like)",
        parts.join("; ")
    ))
}

/// How a run's meta says external solvers' `cpu_s` was counted: `process-tree` since issue
/// 37, `leader process` for a meta from before (no `cpu_accounting`); `None` without a meta.
fn cpu_accounting(f: &crate::report::input::RunFile) -> Option<String> {
    let m = f.meta.as_ref()?;
    let a = m
        .execution
        .as_ref()
        .map(|e| e.limits.cpu_accounting.as_str())
        .unwrap_or_default();
    Some(if a.is_empty() {
        "leader process".to_string()
    } else {
        a.to_string()
    })
}

/// A note when the two sides counted external solvers' `cpu_s` differently (a baseline made
/// before the whole process tree was counted): their `cpu_s` figures are not like for like.
pub fn cpu_accounting_note(
    baseline: &[crate::report::input::RunFile],
    new: &[crate::report::input::RunFile],
) -> Option<String> {
    let side = |files: &[crate::report::input::RunFile]| {
        let mut v: Vec<String> = files.iter().filter_map(cpu_accounting).collect();
        v.sort();
        v.dedup();
        v
    };
    let (b, n) = (side(baseline), side(new));
    if b.is_empty() || n.is_empty() || b == n {
        return None;
    }
    Some(format!(
        "cpu_s of external solvers was counted differently: baseline over the {}, new over \
         the {}; an external solver's cpu_s is not like for like between them",
        b.join(" and "),
        n.join(" and ")
    ))
}

/// Whether the two runs solved the same puzzles, from their metas' dataset hashes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatasetCheck {
    /// Two files of one dataset name (one per side) whose hashes differ: the comparison
    /// would set unrelated puzzles side by side. Both files and hashes named.
    pub mismatch: Option<String>,
    /// Files the check could not cover (no meta, or no hash in it), one line each.
    pub unchecked: Vec<String>,
}

/// Compare the dataset hashes of the baseline's and the new run's files (each with its meta,
/// when it has one). Files are matched by the meta's dataset name; a meta without a name is
/// matched with every file of the other side.
pub fn check_datasets(
    baseline: &[crate::report::input::RunFile],
    new: &[crate::report::input::RunFile],
) -> DatasetCheck {
    let mut out = DatasetCheck::default();
    let hashed =
        |files: &'_ [crate::report::input::RunFile], side: &str, unchecked: &mut Vec<String>| {
            let mut v = Vec::new();
            for f in files {
                let p = &f.path;
                let why = match f.meta.as_ref().map(|m| m.fingerprints()) {
                    Some(prints) if !prints.is_empty() => {
                        for (name, h) in prints {
                            v.push((p.clone(), name.map(String::from), h.to_string()));
                        }
                        continue;
                    }
                    Some(_) => "its .meta.json has no dataset_hash, so it",
                    None => "no .meta.json beside it, so it",
                };
                unchecked.push(format!(
                "{} ({side}): {why} cannot be checked to hold the same puzzles as the other side",
                p.display()
            ));
            }
            v
        };
    let b = hashed(baseline, "baseline", &mut out.unchecked);
    let n = hashed(new, "new", &mut out.unchecked);
    for (pb, nb, hb) in &b {
        for (pn, nn, hn) in &n {
            let same_name = match (nb, nn) {
                (Some(x), Some(y)) => x == y,
                _ => true,
            };
            if same_name && hb != hn && out.mismatch.is_none() {
                out.mismatch = Some(format!(
                    "different dataset contents{}: baseline {} has dataset_hash {hb}, new {} has \
                     {hn}; the runs did not solve the same puzzles (pass --force to compare anyway)",
                    nb.as_ref().or(nn.as_ref()).map_or(String::new(), |d| format!(" for {d}")),
                    pb.display(),
                    pn.display()
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leader_only_baseline_is_noted_against_a_process_tree_run() {
        use crate::report::input::RunFile;
        use crate::results::meta::{Execution, Limits, RunMeta, CPU_ACCOUNTING_TREE};
        let file = |accounting: Option<&str>| RunFile {
            path: "r.csv".into(),
            meta: Some(RunMeta {
                execution: accounting.map(|a| Execution {
                    limits: Limits {
                        cpu_accounting: a.into(),
                        ..Limits::default()
                    },
                    ..Execution::default()
                }),
                ..RunMeta::default()
            }),
            incomplete: None,
        };
        let tree = [file(Some(CPU_ACCOUNTING_TREE))];
        assert_eq!(cpu_accounting_note(&tree, &tree), None);
        let note = cpu_accounting_note(&[file(None)], &tree).expect("noted");
        assert!(
            note.contains("baseline over the leader process") && note.contains("process-tree"),
            "{note}"
        );
        let no_meta = [RunFile {
            meta: None,
            ..file(None)
        }];
        assert_eq!(cpu_accounting_note(&no_meta, &tree), None);
    }

    /// Compare a baseline run with a new run held in memory, rows in any order (sorted here by
    /// key, stably, so the first of duplicate keys in file order is the one compared).
    fn compare(baseline: &[Record], new: &[Record], opts: &CompareOptions) -> Comparison {
        fn sorted(rows: &[Record]) -> Vec<&Record> {
            let mut v: Vec<&Record> = rows.iter().collect();
            v.sort_by(|a, b| key_cmp(a, b));
            v
        }
        let (b, n) = (sorted(baseline), sorted(new));
        let ok = Ok::<&Record, std::convert::Infallible>;
        match compare_sorted(b.into_iter().map(ok), n.into_iter().map(ok), opts) {
            Ok(c) => c,
            Err(never) => match never {},
        }
    }

    fn run(times: &[f64]) -> Vec<Record> {
        times
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let mut r = Record::sample("h", "mrv", &format!("p{i}"), Status::Solved, t);
                r.counters.nodes = Some(10 + i as u64);
                r.counters.propagated = crate::results::counters::Fraction::new(0.5);
                r
            })
            .collect()
    }

    fn noisy(n: usize, scale: f64) -> Vec<f64> {
        // Deterministic "noise": +-3% in a fixed pattern.
        (0..n)
            .map(|i| {
                scale * (1.0 + 0.01 * i as f64) * (1.0 + 0.03 * ((i * 7 % 5) as f64 - 2.0) / 2.0)
            })
            .collect()
    }

    #[test]
    fn markdown_tables_list_changes_worse_first_up_to_the_cap() {
        let base = run(&noisy(20, 0.01));
        let mut new = base.clone();
        new[1].status = Some(Status::Timeout);
        new[3].counters.nodes = Some(1);
        new[5].counters.nodes = Some(2000);
        new.remove(7);
        let c = compare(&base, &new, &CompareOptions::default());
        let md = crate::report::export::doc(&c, usize::MAX).markdown();
        let line = |needle: &str| -> String {
            (md.lines().find(|l| l.contains(needle)).unwrap_or_default()).to_string()
        };
        assert!(md.contains("### Status changes (1)"), "{md}");
        assert_eq!(
            line("| dataset | strategy | puzzle | seed | colony | baseline |"),
            "| dataset | strategy | puzzle | seed | colony | baseline | new | change |"
        );
        assert_eq!(
            line("| p1 |"),
            "| h | mrv basic | p1 | 0 | 0 | solved | timeout | worse |"
        );
        assert!(md.contains("### Counter changes (2)"), "{md}");
        assert_eq!(
            line("| counter |"),
            "| dataset | strategy | puzzle | seed | colony | counter | baseline | new | change |"
        );
        // Worse first: p5's 15 -> 2000 before p3's 13 -> 1.
        let (p5, p3) = (md.find("| p5 |"), md.find("| p3 |"));
        assert!(p5.is_some() && p5 < p3, "{md}");
        assert_eq!(
            line("| p3 |"),
            "| h | mrv basic | p3 | 0 | 0 | nodes | 13 | 1 | better |"
        );
        assert!(md.contains("### Rows missing from new (1)"), "{md}");
        assert_eq!(line("| p7 |"), "| h | mrv basic | p7 | 0 | 0 |");
        let capped = crate::report::export::doc(&c, 1).markdown();
        assert!(
            capped.contains("| p5 |") && !capped.contains("| p3 |"),
            "{capped}"
        );
        assert!(capped.contains("… and 1 more"), "{capped}");
    }

    #[test]
    fn identical_runs_are_no_regression() {
        let base = run(&noisy(20, 0.01));
        let c = compare(&base, &base, &CompareOptions::default());
        assert!(!c.is_regression());
        assert_eq!(c.groups.len(), 1);
        assert_eq!(c.groups[0].time.verdict, TimeVerdict::Unchanged);
        assert!(
            c.headline().starts_with("No regression: identical"),
            "{}",
            c.headline()
        );
    }

    // Issue 36: a comparison that joined no job said "No regression: identical results".
    #[test]
    fn nothing_joined_is_never_a_pass() {
        let c = compare(&[], &[], &CompareOptions::default());
        assert!(c.nothing_compared() && !c.is_regression());
        assert_eq!(c.exit_code(), 2);
        assert!(
            c.headline().starts_with("NOTHING COMPARED"),
            "{}",
            c.headline()
        );
    }

    #[test]
    fn a_wrong_row_fails_the_gate_even_against_itself() {
        let mut base = run(&noisy(20, 0.01));
        base[2].status = Some(Status::Wrong);
        let c = compare(&base, &base, &CompareOptions::default());
        assert_eq!(c.wrong_in_new, 1);
        assert!(c.is_regression());
        assert!(
            c.headline().contains("1 row of the new run wrong"),
            "{}",
            c.headline()
        );
    }

    #[test]
    fn a_column_on_one_side_only_is_named() {
        let with = Columns {
            solutions: true,
            ..Columns::default()
        };
        let m = column_mismatch(with, Columns::default()).expect("mismatch");
        assert!(m.contains("the baseline has solutions"), "{m}");
        assert_eq!(column_mismatch(with, with), None);
        // The recorded answers are compared only where both have them.
        let sol = Columns {
            solution: true,
            ..Columns::default()
        };
        assert_eq!(column_mismatch(sol, Columns::default()), None);
    }

    #[test]
    fn worse_counter_is_named_with_puzzle_and_direction() {
        let base = run(&noisy(20, 0.01));
        let mut new = base.clone();
        new[3].counters.nodes = Some(99);
        new[4].counters.propagated = crate::results::counters::Fraction::new(0.75);
        let c = compare(&base, &new, &CompareOptions::default());
        assert!(c.is_regression());
        let ch = &c.groups[0].counter_changes;
        assert_eq!(ch.len(), 2);
        assert_eq!(
            (ch[0].counter, ch[0].job.puzzle_id.as_str()),
            ("nodes", "p3")
        );
        assert_eq!((ch[0].base.as_str(), ch[0].new.as_str()), ("13", "99"));
        assert_eq!(ch[0].direction, Direction::Worse);
        assert_eq!(
            (ch[1].counter, ch[1].direction),
            ("propagated", Direction::Better)
        );
        let md = crate::report::export::markdown(&c);
        assert!(
            md.starts_with("## REGRESSION: 1 counter value worse or changed"),
            "{md}"
        );
        assert!(
            md.contains("| h | mrv basic | p3 | 0 | 0 | nodes | 13 | 99 | worse |"),
            "{md}"
        );
    }

    #[test]
    fn better_counter_alone_is_not_a_regression() {
        let base = run(&noisy(20, 0.01));
        let mut new = base.clone();
        new[0].counters.nodes = Some(1);
        let c = compare(&base, &new, &CompareOptions::default());
        assert!(!c.is_regression());
        assert_eq!(c.tally().counters_better, 1);
    }

    #[test]
    fn status_worse_and_better() {
        let base = run(&noisy(10, 0.01));
        let mut new = base.clone();
        new[2].status = Some(Status::Timeout);
        let c = compare(&base, &new, &CompareOptions::default());
        assert!(c.is_regression());
        let s = &c.groups[0].status_changes[0];
        assert_eq!(
            (s.base, s.new, s.direction),
            (
                Some(Status::Solved),
                Some(Status::Timeout),
                Direction::Worse
            )
        );
        let c = compare(&new, &base, &CompareOptions::default());
        assert!(!c.is_regression());
        assert_eq!(c.groups[0].status_changes[0].direction, Direction::Better);
    }

    #[test]
    fn slowdown_flagged_only_when_interval_clears_band() {
        let base = run(&noisy(20, 0.01));
        let slow = run(&noisy(20, 0.015));
        let c = compare(&base, &slow, &CompareOptions::default());
        let t = &c.groups[0].time;
        assert_eq!(t.verdict, TimeVerdict::Slowdown, "{t:?}");
        assert!(c.is_regression());
        let ci = t.ratio.expect("ratio");
        assert!(ci.lo > 1.1 && (ci.value - 1.5).abs() < 0.05, "{ci:?}");

        // x1.05 with noise of its own: interval reaches into the band.
        let mut t105: Vec<f64> = noisy(20, 0.0105);
        t105.reverse();
        let c = compare(&base, &run(&t105), &CompareOptions::default());
        assert_eq!(c.groups[0].time.verdict, TimeVerdict::Unchanged);
        assert!(!c.is_regression());

        let fast = run(&noisy(20, 0.005));
        let c = compare(&base, &fast, &CompareOptions::default());
        assert_eq!(c.groups[0].time.verdict, TimeVerdict::Speedup);
        assert!(!c.is_regression());
    }

    #[test]
    fn too_few_runs_are_not_judged() {
        let c = compare(
            &run(&[0.01, 0.01]),
            &run(&[1.0, 1.0]),
            &CompareOptions::default(),
        );
        assert_eq!(c.groups[0].time.verdict, TimeVerdict::NotJudged);
        assert!(!c.is_regression());
    }

    #[test]
    fn missing_rows_are_listed_and_regress_only_when_missing_from_new() {
        let base = run(&noisy(8, 0.01));
        let new: Vec<Record> = base[..6].to_vec();
        let c = compare(&base, &new, &CompareOptions::default());
        assert!(c.is_regression());
        let m: Vec<&str> = c.groups[0]
            .missing_in_new
            .iter()
            .map(|j| j.puzzle_id.as_str())
            .collect();
        assert_eq!(m, ["p6", "p7"]);
        assert!(crate::report::export::markdown(&c).contains("### Rows missing from new (2)"));
        let c = compare(&new, &base, &CompareOptions::default());
        assert!(!c.is_regression());
        assert_eq!(c.tally().only_in_new, 2);
    }

    #[test]
    fn long_lists_are_capped() {
        let base = run(&noisy(30, 0.01));
        let mut new = base.clone();
        for r in &mut new {
            r.counters.nodes = r.counters.nodes.map(|n| n + 1);
        }
        let opts = CompareOptions {
            list_limit: 5,
            ..CompareOptions::default()
        };
        let md = crate::report::export::markdown(&compare(&base, &new, &opts));
        assert!(md.contains("… and 25 more"), "{md}");
    }

    #[test]
    fn exports_for_ci_trackers() {
        let base = run(&noisy(20, 0.01));
        let c = compare(&base, &base, &CompareOptions::default());
        let gab = crate::report::export::github_action_benchmark(&c);
        let arr = gab.as_array().expect("array");
        assert_eq!(arr.len(), 2);
        assert_eq!(arr[0]["name"], "h/mrv basic median wall");
        assert_eq!(arr[0]["unit"], "s");
        assert!(arr[0]["value"].as_f64().is_some_and(|v| v > 0.0));
        assert!(arr[0]["range"]
            .as_str()
            .is_some_and(|r| r.starts_with("± ")));
        assert_eq!(arr[1]["name"], "h/mrv basic mean nodes");
        assert_eq!(arr[1]["value"], 19.5);
        let bmf = crate::report::export::bencher_bmf(&c);
        let lat = &bmf["h/mrv basic"]["latency"];
        let (v, lo, hi) = (
            lat["value"].as_f64().unwrap_or(-1.0),
            lat["lower_value"].as_f64().unwrap_or(-1.0),
            lat["upper_value"].as_f64().unwrap_or(-1.0),
        );
        assert!(lo <= v && v <= hi && v > 1e6, "{lat}");
        assert_eq!(bmf["h/mrv basic"]["nodes"]["value"], 19.5);
    }
}
