//! The run table: one pass over a [`RunSet`] gives, per group ([`GroupKey`] order), its jobs
//! as compact rows sorted by (puzzle, seed, colony), the aggregates that add, and the set's
//! facts. The reports that look at whole groups (`summary`, `ab`, `html`) are views of it, and
//! [`pair`] is the one way two groups are matched run for run, so their figures cannot drift
//! apart. `compare` stays a streaming sorted join: its memory bound does not depend on the
//! number of rows.
//!
//! A row costs [`Job`] (40 bytes) and 8 bytes per metric the caller asked for
//! ([`TableSpec::metrics`]); the answer, the message, the stats and the other counters are
//! not held.

use crate::report::input::{Efforts, RunFile, RunSet, Streamed, TimeLimit};
use crate::report::GroupKey;
use crate::results::{ReadError, Record, Status};
use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};
use std::ops::AddAssign;

/// What a view needs of each row besides the fixed fields of [`Job`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableSpec {
    /// Metrics ([`Record::metric`] names) kept per job, beside wall time and effort.
    pub metrics: Vec<&'static str>,
    /// Gather per group the names of every metric its rows have ([`Group::names`]), for an
    /// error that lists what could have been asked for.
    pub names: bool,
}

/// One job of a group, as the views need it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job {
    /// Index into [`RunTable::puzzles`], whose order is the puzzle ids' text order.
    pub puzzle: u32,
    /// Colony.
    pub colony: u32,
    /// Seed.
    pub seed: u64,
    /// Wall time, seconds.
    pub wall: f64,
    /// Effort in the group's unit ([`Group::unit`]); NaN when the row has none in it.
    pub effort: f64,
    /// Status; `None` for a row without one.
    pub status: Option<Status>,
    /// Nothing was left to search after presolve (`empties_after_presolve` is 0).
    pub presolved: bool,
    /// Index of the row in the group's adding order: the metric values' slot.
    row: u32,
}

impl Job {
    /// A verified solve.
    pub fn solved(&self) -> bool {
        self.status == Some(Status::Solved)
    }

    /// The effort, when the row has one.
    pub fn effort(&self) -> Option<f64> {
        (!self.effort.is_nan()).then_some(self.effort)
    }

    /// The order jobs are kept and paired in.
    fn key(&self) -> (u32, u64, u32) {
        (self.puzzle, self.seed, self.colony)
    }
}

/// The counts and sums of a group, added a row at a time in reading order (so a float sum is
/// the same whatever view asks), and addable across groups.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Rows.
    pub runs: usize,
    /// Rows per status, in [`Status::ALL`] order.
    pub by_status: [usize; Status::ALL.len()],
    /// Sum of wall times.
    pub wall_sum: f64,
    /// Sum of efforts in the group's unit, over every row that has one.
    pub effort_sum: f64,
    /// PAR-2's sum over the solved rows against the set's time limit (a solve after the limit
    /// counts twice the limit, [`crate::report::stats::par_k`]'s rule); 0 without a limit.
    pub par2_solved_sum: f64,
}

impl Totals {
    /// Rows with status `s`.
    pub fn count(&self, s: Status) -> usize {
        Status::ALL
            .iter()
            .position(|&x| x == s)
            .map_or(0, |i| self.by_status[i])
    }

    /// Solved rows.
    pub fn solved(&self) -> usize {
        self.count(Status::Solved)
    }
}

impl AddAssign<&Totals> for Totals {
    fn add_assign(&mut self, o: &Totals) {
        self.runs += o.runs;
        for (a, b) in self.by_status.iter_mut().zip(o.by_status) {
            *a += b;
        }
        self.wall_sum += o.wall_sum;
        self.effort_sum += o.effort_sum;
        self.par2_solved_sum += o.par2_solved_sum;
    }
}

/// One configuration on one dataset.
#[derive(Clone, Debug)]
pub struct Group {
    /// Which rows.
    pub key: GroupKey,
    /// The group's number in first-seen order (the number [`RunTable::read`]'s hook was
    /// given for its rows).
    pub id: usize,
    /// Its jobs, sorted by (puzzle, seed, colony); repeated jobs (`--allow-duplicates`) are
    /// adjacent, in reading order.
    pub jobs: Vec<Job>,
    /// Counts and sums.
    pub totals: Totals,
    /// The effort unit: that of the first row with an effort (one unit a group: a row in
    /// another, from a strategy whose rows differ in counters, has none).
    pub unit: Option<&'static str>,
    /// The unit its strategy gives a row ([`Efforts::unit`]) even without a value in it (an
    /// `error` row): what `ab` names a side's effort by.
    pub strategy_unit: Option<&'static str>,
    /// Indices of the input files its rows came from.
    pub files: BTreeSet<usize>,
    /// The metric names its rows have, when the spec asks ([`TableSpec::names`]).
    pub names: BTreeSet<String>,
    /// Per job in adding order, the values of [`TableSpec::metrics`] (NaN: absent).
    values: Vec<f64>,
    /// Per metric of the spec, whether some row has it.
    present: Vec<bool>,
}

impl Group {
    fn new(key: GroupKey, id: usize, metrics: usize) -> Group {
        Group {
            key,
            id,
            jobs: Vec::new(),
            totals: Totals::default(),
            unit: None,
            strategy_unit: None,
            files: BTreeSet::new(),
            names: BTreeSet::new(),
            values: Vec::new(),
            present: vec![false; metrics],
        }
    }
}

/// What a table knows of its set besides the rows.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// The input files, with their metas and completeness.
    pub files: Vec<RunFile>,
    /// The agreed time limit.
    pub time_limit: TimeLimit,
    /// Each strategy's effort unit.
    pub efforts: Efforts,
    /// The `--where` filter the rows passed, as given.
    pub filter: Option<String>,
    /// What the pass saw (rows per file, counted repeats).
    pub streamed: Streamed,
}

/// The run table of a [`RunSet`]; see the module documentation.
#[derive(Clone, Debug)]
pub struct RunTable {
    /// Groups in [`GroupKey`] order.
    pub groups: Vec<Group>,
    /// Puzzle ids, sorted: a [`Job::puzzle`] indexes this.
    pub puzzles: Vec<String>,
    /// The set's facts.
    pub facts: Facts,
    spec: TableSpec,
}

impl RunTable {
    /// Read `set` once, keeping what `spec` asks for; each row also goes to `hook` with its
    /// group's first-seen number ([`Group::id`]), for what a view gathers beside the table.
    pub fn read(
        set: &RunSet,
        spec: TableSpec,
        mut hook: impl FnMut(usize, &Record),
    ) -> Result<RunTable, ReadError> {
        let mut b = TableBuilder::new(spec, set.efforts().clone(), set.time_limit().secs);
        let streamed = set.for_each(|r, file| {
            let g = b.add(r, file);
            hook(g, r);
            Ok(())
        })?;
        Ok(b.finish(Facts {
            files: set.files().to_vec(),
            time_limit: set.time_limit().clone(),
            efforts: set.efforts().clone(),
            filter: set.filter_text().map(str::to_string),
            streamed,
        }))
    }

    /// The value of metric `name` for `job` of `group`: wall time, a metric of the spec, or
    /// the effort when `name` is the group's unit.
    pub fn metric(&self, group: &Group, job: &Job, name: &str) -> Option<f64> {
        if name == "wall_s" {
            return Some(job.wall);
        }
        if let Some(i) = self.spec.metrics.iter().position(|&m| m == name) {
            let n = self.spec.metrics.len();
            let v = group.values[job.row as usize * n + i];
            return (!v.is_nan()).then_some(v);
        }
        if group.unit == Some(name) {
            return job.effort();
        }
        None
    }

    /// Whether some row of `group` has metric `name`: wall time always, a metric of the spec
    /// or the group's effort unit when a row has it, else never.
    pub fn has_metric(&self, group: &Group, name: &str) -> bool {
        if name == "wall_s" {
            return true;
        }
        match self.spec.metrics.iter().position(|&m| m == name) {
            Some(i) => group.present[i],
            None => group.unit == Some(name) && group.jobs.iter().any(|j| j.effort().is_some()),
        }
    }

    /// The puzzle id of `job`.
    pub fn puzzle(&self, job: &Job) -> &str {
        self.puzzles
            .get(job.puzzle as usize)
            .map_or("", String::as_str)
    }
}

/// Builds a [`RunTable`] a row at a time ([`RunTable::read`] feeds it a set's rows).
#[derive(Debug)]
pub struct TableBuilder {
    groups: Vec<Group>,
    index: HashMap<GroupKey, usize>,
    puzzles: HashMap<String, u32>,
    last: Option<usize>,
    spec: TableSpec,
    efforts: Efforts,
    limit: Option<f64>,
}

impl TableBuilder {
    /// Effort by `efforts`; PAR-2's sums against `time_limit` (when a positive number).
    pub fn new(spec: TableSpec, efforts: Efforts, time_limit: Option<f64>) -> TableBuilder {
        TableBuilder {
            groups: Vec::new(),
            index: HashMap::new(),
            puzzles: HashMap::new(),
            last: None,
            spec,
            efforts,
            limit: time_limit.filter(|t| t.is_finite() && *t > 0.0),
        }
    }

    /// Add one row, read from input file `file`; returns its group's first-seen number.
    pub fn add(&mut self, r: &Record, file: usize) -> usize {
        // Rows of one group mostly come together: try the last group before building a key.
        let gi = match self.last.filter(|&i| self.groups[i].key.matches(r)) {
            Some(i) => i,
            None => {
                let key = GroupKey::of(r);
                let next = self.groups.len();
                let i = *self.index.entry(key.clone()).or_insert(next);
                if i == next {
                    self.groups
                        .push(Group::new(key, next, self.spec.metrics.len()));
                }
                i
            }
        };
        self.last = Some(gi);
        let next = u32::try_from(self.puzzles.len()).unwrap_or(u32::MAX);
        let puzzle = match self.puzzles.get(r.puzzle_id.as_str()) {
            Some(&p) => p,
            None => {
                self.puzzles.insert(r.puzzle_id.clone(), next);
                next
            }
        };
        let g = &mut self.groups[gi];
        add_row(g, r, file, puzzle, &self.efforts, self.limit, &self.spec);
        gi
    }

    /// The table, with the set's `facts`.
    pub fn finish(self, facts: Facts) -> RunTable {
        let mut groups = self.groups;
        // Puzzle numbers in text order, so jobs sort (and pair) in the order of the ids.
        let mut names: Vec<(String, u32)> = self.puzzles.into_iter().collect();
        names.sort();
        let mut renumber = vec![0u32; names.len()];
        for (new, (_, old)) in names.iter().enumerate() {
            renumber[*old as usize] = u32::try_from(new).unwrap_or(u32::MAX);
        }
        for g in &mut groups {
            for j in &mut g.jobs {
                j.puzzle = renumber[j.puzzle as usize];
            }
            // Stable: repeated jobs stay in reading order.
            g.jobs.sort_by_key(Job::key);
        }
        groups.sort_by(|a, b| a.key.cmp(&b.key));
        RunTable {
            groups,
            puzzles: names.into_iter().map(|(n, _)| n).collect(),
            facts,
            spec: self.spec,
        }
    }
}

fn add_row(
    g: &mut Group,
    r: &Record,
    file: usize,
    puzzle: u32,
    efforts: &Efforts,
    limit: Option<f64>,
    spec: &TableSpec,
) {
    let solved = r.status == Some(Status::Solved);
    let t = &mut g.totals;
    t.runs += 1;
    if let Some(i) = r
        .status
        .and_then(|s| Status::ALL.iter().position(|&x| x == s))
    {
        t.by_status[i] += 1;
    }
    t.wall_sum += r.wall_s;
    if let (true, Some(limit)) = (solved, limit) {
        t.par2_solved_sum += if r.wall_s <= limit {
            r.wall_s
        } else {
            2.0 * limit
        };
    }
    if g.strategy_unit.is_none() {
        g.strategy_unit = efforts.unit(r);
    }
    let effort = match efforts.of(r) {
        Some((unit, v)) if *g.unit.get_or_insert(unit) == unit => {
            t.effort_sum += v;
            v
        }
        _ => f64::NAN,
    };
    for (i, m) in spec.metrics.iter().enumerate() {
        let v = r.metric(m);
        g.present[i] |= v.is_some();
        g.values.push(v.unwrap_or(f64::NAN));
    }
    g.files.insert(file);
    if spec.names {
        let fixed = crate::results::COUNTERS.iter().map(|c| c.name);
        let fixed = fixed.chain(["cpu_s", "max_rss_kib", "startup_s"]);
        for k in fixed.chain(r.stat_keys()) {
            if !g.names.contains(k) && r.metric(k).is_some() {
                g.names.insert(k.to_string());
            }
        }
    }
    let row = u32::try_from(g.jobs.len()).unwrap_or(u32::MAX);
    g.jobs.push(Job {
        puzzle,
        colony: r.colony,
        seed: r.seed,
        wall: r.wall_s,
        effort,
        status: r.status,
        presolved: r.counters.empties_after_presolve == Some(0),
        row,
    });
}

/// Two groups matched run for run: the jobs (same puzzle, seed and colony) both ran, in job
/// order, and the count each ran that the other did not. The one pairing of the reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Paired<'t> {
    /// `(a's job, b's job)` per common job.
    pub pairs: Vec<(&'t Job, &'t Job)>,
    /// Jobs of `a` with no partner in `b`.
    pub only_a: usize,
    /// Jobs of `b` with no partner in `a`.
    pub only_b: usize,
}

/// The merge-join of two groups' sorted jobs. A job repeated on one side
/// (`--allow-duplicates`) pairs once, by its last copy read; its other copies count as
/// unpaired.
pub fn pair<'t>(a: &'t Group, b: &'t Group) -> Paired<'t> {
    // The end of the run of copies of the job at `i`.
    fn run_end(jobs: &[Job], i: usize) -> usize {
        let k = jobs[i].key();
        i + jobs[i..].iter().take_while(|j| j.key() == k).count()
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Paired::default();
    while i < a.jobs.len() && j < b.jobs.len() {
        match a.jobs[i].key().cmp(&b.jobs[j].key()) {
            Ordering::Less => {
                out.only_a += 1;
                i += 1;
            }
            Ordering::Greater => {
                out.only_b += 1;
                j += 1;
            }
            Ordering::Equal => {
                let (ie, je) = (run_end(&a.jobs, i), run_end(&b.jobs, j));
                out.pairs.push((&a.jobs[ie - 1], &b.jobs[je - 1]));
                out.only_a += ie - i - 1;
                out.only_b += je - j - 1;
                (i, j) = (ie, je);
            }
        }
    }
    out.only_a += a.jobs.len() - i;
    out.only_b += b.jobs.len() - j;
    out
}

/// The first job `g` holds twice (only with `--allow-duplicates`), in job order.
pub fn repeated(g: &Group) -> Option<&Job> {
    g.jobs
        .windows(2)
        .find(|w| w[0].key() == w[1].key())
        .map(|w| &w[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(strategy: &str, puzzle: &str, seed: u64, solved: bool, wall: f64) -> Record {
        let status = if solved {
            Status::Solved
        } else {
            Status::Timeout
        };
        let mut r = Record::sample("d", strategy, puzzle, status, wall);
        r.seed = seed;
        r.counters.nodes = Some(seed + 1);
        r
    }

    fn table(rows: &[Record], limit: Option<f64>) -> RunTable {
        let spec = TableSpec {
            metrics: vec!["cycles"],
            names: true,
        };
        let mut b = TableBuilder::new(spec, Efforts::default(), limit);
        for r in rows {
            b.add(r, 0);
        }
        b.finish(Facts::default())
    }

    #[test]
    fn groups_sort_by_key_and_jobs_by_puzzle_text_seed_colony() {
        // Read out of order, puzzles first seen as p9 then p10: jobs sort by the ids' text.
        let rows = [
            rec("row", "p9", 1, true, 0.5),
            rec("mrv", "p9", 0, true, 0.1),
            rec("mrv", "p10", 0, false, 0.2),
            rec("row", "p10", 0, true, 0.3),
        ];
        let t = table(&rows, None);
        let names: Vec<&str> = t
            .groups
            .iter()
            .map(|g| g.key.config.strategy.as_str())
            .collect();
        assert_eq!(names, ["mrv", "row"]);
        assert_eq!(t.puzzles, ["p10", "p9"]);
        let row = &t.groups[1];
        let keys: Vec<(&str, u64)> = row.jobs.iter().map(|j| (t.puzzle(j), j.seed)).collect();
        assert_eq!(keys, [("p10", 0), ("p9", 1)]);
        // First-seen numbers survive the sort, for the views' per-group side data.
        assert_eq!((t.groups[0].id, t.groups[1].id), (1, 0));
        assert_eq!(row.unit, Some("nodes"));
        assert_eq!(t.metric(row, &row.jobs[1], "nodes"), Some(2.0));
        assert_eq!(t.metric(row, &row.jobs[1], "wall_s"), Some(0.5));
        assert_eq!(t.metric(row, &row.jobs[1], "cycles"), None);
        assert!(!t.has_metric(row, "cycles") && t.has_metric(row, "nodes"));
        assert!(row.names.contains("nodes") && !row.names.contains("cycles"));
    }

    #[test]
    fn totals_add_in_reading_order_and_add_across_groups() {
        let rows = [
            rec("mrv", "a", 0, true, 0.5),
            rec("mrv", "b", 0, true, 3.0),
            rec("mrv", "c", 0, false, 0.25),
            rec("row", "a", 0, true, 1.0),
        ];
        let t = table(&rows, Some(2.0));
        let mrv = &t.groups[0].totals;
        assert_eq!(
            (mrv.runs, mrv.solved(), mrv.count(Status::Timeout)),
            (3, 2, 1)
        );
        assert_eq!(mrv.wall_sum, 3.75);
        assert_eq!(mrv.effort_sum, 3.0);
        // A solve after the 2 s limit counts as twice the limit.
        assert_eq!(mrv.par2_solved_sum, 0.5 + 4.0);
        let mut all = Totals::default();
        for g in &t.groups {
            all += &g.totals;
        }
        assert_eq!((all.runs, all.solved(), all.wall_sum), (4, 3, 4.75));
    }

    #[test]
    fn pair_is_a_merge_join_counting_the_unpaired() {
        let rows = [
            rec("mrv", "a", 0, true, 0.1),
            rec("mrv", "b", 0, true, 0.1),
            rec("mrv", "b", 1, true, 0.1),
            rec("mrv", "d", 0, true, 0.1),
            rec("row", "a", 0, true, 0.2),
            rec("row", "b", 1, true, 0.2),
            rec("row", "c", 0, true, 0.2),
        ];
        let t = table(&rows, None);
        let p = pair(&t.groups[0], &t.groups[1]);
        let keys: Vec<(&str, u64)> = p.pairs.iter().map(|(x, _)| (t.puzzle(x), x.seed)).collect();
        assert_eq!(keys, [("a", 0), ("b", 1)]);
        assert!(p.pairs.iter().all(|(x, y)| x.key() == y.key()));
        assert_eq!((p.only_a, p.only_b), (2, 1));
        // The other way round: the same pairs, sides swapped.
        let q = pair(&t.groups[1], &t.groups[0]);
        assert_eq!((q.pairs.len(), q.only_a, q.only_b), (2, 1, 2));
    }

    #[test]
    fn a_repeated_job_pairs_once_by_its_last_copy() {
        let rows = [
            rec("mrv", "a", 0, true, 0.1),
            rec("mrv", "a", 0, false, 0.7),
            rec("row", "a", 0, true, 0.2),
        ];
        let t = table(&rows, None);
        let mrv = &t.groups[0];
        assert_eq!(repeated(mrv).map(|j| j.wall), Some(0.1));
        assert!(repeated(&t.groups[1]).is_none());
        let p = pair(mrv, &t.groups[1]);
        assert_eq!(p.pairs.len(), 1);
        assert_eq!(p.pairs[0].0.wall, 0.7);
        assert_eq!((p.only_a, p.only_b), (1, 0));
    }

    #[test]
    fn a_row_in_another_unit_has_no_effort() {
        // An undeclared strategy: the unit comes from the counters a row has.
        let mut first = rec("ext", "a", 0, true, 0.1);
        first.counters.nodes = None;
        first.counters.cycles = Some(7);
        let second = rec("ext", "b", 0, true, 0.1);
        let t = table(&[first, second], None);
        let g = &t.groups[0];
        assert_eq!(g.unit, Some("cycles"));
        let efforts: Vec<Option<f64>> = g.jobs.iter().map(Job::effort).collect();
        assert_eq!(efforts, [Some(7.0), None]);
        assert_eq!(g.totals.effort_sum, 7.0);
        assert_eq!(t.metric(g, &g.jobs[0], "cycles"), Some(7.0));
    }
}
