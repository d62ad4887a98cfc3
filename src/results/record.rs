//! One CSV row per job: the schema shared by `bench-run` (writer) and `bench-report` (reader).
//!
//! Columns are fixed and named; numbers are raw (no units in the cells, the unit is in the
//! name: `wall_s` is seconds). A counter that does not apply to a row's solver is an empty
//! cell, never a zero. Optional columns appear only when a run asks for them: `solutions`
//! (`--count-solutions`), `repeats` (`--repeat R` with R > 1), `cpu_s` (runs since it was
//! added), `max_rss_kib` and `stats` (a run with an external solver), `startup_s` (a run with an
//! external solver, since it was added), `solution` (`--record-solutions`). Readers find columns by header name, so a file with or
//! without the optional columns reads the same way.

use super::counters::{Counters, COUNTERS};
use crate::kind::PuzzleKind;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How a job ended. `wrong` means the solver claimed an answer the independent verifier
/// rejected: a bug, never counted as solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A verified solution was found.
    Solved,
    /// The solver proved there is no solution, or (metaheuristics) gave up within its budget.
    Unsolved,
    /// A node, cycle or time budget ran out first.
    Timeout,
    /// The solver panicked or failed; see `message`.
    Error,
    /// The solver's answer failed verification, or it claimed no solution on a puzzle whose
    /// dataset file gives one.
    Wrong,
    /// The solver's process tree went over `--memory-limit` and was stopped.
    Memout,
}

impl Status {
    /// Every status, in the order reports list them.
    pub const ALL: [Status; 6] = [
        Status::Solved,
        Status::Unsolved,
        Status::Timeout,
        Status::Error,
        Status::Wrong,
        Status::Memout,
    ];

    /// The spelling used in CSV cells.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolved => "unsolved",
            Status::Timeout => "timeout",
            Status::Error => "error",
            Status::Wrong => "wrong",
            Status::Memout => "memout",
        }
    }

    /// Rank used by `bench-report compare`: a higher rank is a better outcome.
    pub fn rank(self) -> u8 {
        match self {
            Status::Solved => 3,
            Status::Unsolved => 2,
            Status::Timeout | Status::Memout => 1,
            Status::Error | Status::Wrong => 0,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Status::ALL
            .into_iter()
            .find(|st| st.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown status {s:?}, expected one of solved, unsolved, timeout, error, wrong, memout"
                )
            })
    }
}

/// What a solver claimed besides an answer (the `claim` column): told apart from giving up
/// without reading messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Claim {
    /// A proof that the puzzle has no solution (built-in `End::NoSolution`, protocol
    /// `unsolved`).
    NoSolution,
}

impl Claim {
    /// The spelling used in CSV cells.
    pub fn as_str(self) -> &'static str {
        match self {
            Claim::NoSolution => "no-solution",
        }
    }
}

impl FromStr for Claim {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "no-solution" => Ok(Claim::NoSolution),
            _ => Err("no-solution or empty"),
        }
    }
}

/// Why the harness ended a job (the `ended_by` column, benchexec's `terminationreason`);
/// `None` for a job that ended by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndedBy {
    /// The wall-clock budget (`--timeout`).
    Wall,
    /// The CPU-time budget (`--cpu-limit`).
    Cpu,
    /// The memory limit (`--memory-limit`).
    Memory,
    /// The node budget (`--node-limit`).
    NodeLimit,
    /// A built-in's cycle budget (ABC's cycles).
    CycleLimit,
    /// The solver died of a signal it was not sent by the harness.
    Signal,
}

impl EndedBy {
    /// Every value, in the order reports list them.
    pub const ALL: [EndedBy; 6] = [
        EndedBy::Wall,
        EndedBy::Cpu,
        EndedBy::Memory,
        EndedBy::NodeLimit,
        EndedBy::CycleLimit,
        EndedBy::Signal,
    ];

    /// The spelling used in CSV cells.
    pub fn as_str(self) -> &'static str {
        match self {
            EndedBy::Wall => "wall",
            EndedBy::Cpu => "cpu",
            EndedBy::Memory => "memory",
            EndedBy::NodeLimit => "node-limit",
            EndedBy::CycleLimit => "cycle-limit",
            EndedBy::Signal => "signal",
        }
    }
}

/// What an `ended_by` cell may hold, for messages.
pub const ENDED_BY_EXPECTED: &str =
    "one of wall, cpu, memory, node-limit, cycle-limit, signal, or empty";

impl FromStr for EndedBy {
    type Err = &'static str;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndedBy::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or(ENDED_BY_EXPECTED)
    }
}

/// A strategy's parameters in the canonical `key=value;key=value` form (keys sorted), as the
/// `params` column holds them. Part of every join key.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Params(String);

impl Params {
    /// Build from pairs, in any order; keys are sorted.
    pub fn from_pairs<K: Into<String>, V: ToString>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Params {
        let mut kv: Vec<(String, String)> = pairs
            .into_iter()
            .map(|(k, v)| (k.into(), v.to_string()))
            .collect();
        kv.sort();
        Params(
            kv.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(";"),
        )
    }

    /// A cell as written in a file (taken as it is).
    pub fn from_cell(cell: &str) -> Params {
        Params(cell.to_string())
    }

    /// The canonical text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The `key=value` pairs, in order.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0
            .split(';')
            .filter(|t| !t.is_empty())
            .map(|t| t.split_once('=').unwrap_or((t, "")))
    }

    /// The value of `key`, if the parameters have it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What identifies a job across runs, shards and baselines:
/// (dataset, puzzle, strategy, rules, params, seed, colony).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JobKey {
    /// Dataset name.
    pub dataset: String,
    /// Puzzle id.
    pub puzzle_id: String,
    /// Strategy name.
    pub strategy: String,
    /// Rule set.
    pub rules: String,
    /// Parameters.
    pub params: Params,
    /// Seed value.
    pub seed: u64,
    /// Colony index.
    pub colony: u32,
}

impl JobKey {
    /// The key borrowed: its order and fingerprint without a clone.
    pub fn as_ref(&self) -> JobKeyRef<'_> {
        JobKeyRef {
            dataset: &self.dataset,
            puzzle_id: &self.puzzle_id,
            strategy: &self.strategy,
            rules: &self.rules,
            params: self.params.as_str(),
            seed: self.seed,
            colony: self.colony,
        }
    }

    /// The one 64-bit job hash (see [`JobKeyRef::fingerprint`]).
    pub fn fingerprint(&self) -> u64 {
        self.as_ref().fingerprint()
    }
}

/// A job's key borrowed from its row ([`Record::job_key`]): [`JobKey`]'s fields in its order,
/// so sorting, joining and hashing millions of rows clones no string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JobKeyRef<'a> {
    /// Dataset name.
    pub dataset: &'a str,
    /// Puzzle id.
    pub puzzle_id: &'a str,
    /// Strategy name.
    pub strategy: &'a str,
    /// Rule set.
    pub rules: &'a str,
    /// Parameters, canonical text.
    pub params: &'a str,
    /// Seed value.
    pub seed: u64,
    /// Colony index.
    pub colony: u32,
}

impl JobKeyRef<'_> {
    /// The one job hash, over every field of the key (strings length-prefixed, so no two keys
    /// share their bytes), stable across runs and platforms: what the duplicate checks of the
    /// input layer and of `merge` compare. Equal keys give equal fingerprints; a collision of
    /// different keys is possible (64 bits), so a check that refuses compares the keys too.
    pub fn fingerprint(&self) -> u64 {
        let mut h = crate::hash::StableHasher::default();
        for s in [
            self.dataset,
            self.puzzle_id,
            self.strategy,
            self.rules,
            self.params,
        ] {
            h.write_str(s);
        }
        h.write_u64(self.seed);
        h.write_u64(u64::from(self.colony));
        h.finish()
    }

    /// The key owned.
    pub fn to_key(&self) -> JobKey {
        JobKey {
            dataset: self.dataset.to_string(),
            puzzle_id: self.puzzle_id.to_string(),
            strategy: self.strategy.to_string(),
            rules: self.rules.to_string(),
            params: Params::from_cell(self.params),
            seed: self.seed,
            colony: self.colony,
        }
    }
}

impl fmt::Display for JobKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.dataset, self.puzzle_id, self.strategy)?;
        if !self.rules.is_empty() {
            write!(f, " [{}]", self.rules)?;
        }
        write!(f, " seed {}", self.seed)?;
        if self.colony > 0 {
            write!(f, " colony {}", self.colony)?;
        }
        Ok(())
    }
}

/// One row of a results CSV.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    /// Dataset name (the directory or file stem given to `--dataset`).
    pub dataset: String,
    /// Stable puzzle id: `<file stem>:<1-based index>` or a name given in the file.
    pub puzzle_id: String,
    /// Puzzle family.
    pub kind: PuzzleKind,
    /// `WxH`, e.g. `5x5` or `9x9`.
    pub size: String,
    /// Strategy name as given on the command line.
    pub strategy: String,
    /// Hitori rule set (`basic` or `full`); empty where it does not apply.
    pub rules: String,
    /// The strategy's other parameters. Part of the join key.
    pub params: Params,
    /// The seed value of this run: base `--seed` plus the seed index. `--seed S --seeds 1`
    /// reproduces every row whose seed is S.
    pub seed: u64,
    /// Colony index (0-based) for randomised solvers; 0 elsewhere.
    pub colony: u32,
    /// Job index in the run's plan (0-based); finished files are sorted by it.
    pub job: u64,
    /// How the job ended (`None` only in a record being built).
    pub status: Option<Status>,
    /// Whether the independent verifier accepted the answer.
    pub verified: bool,
    /// The solver's counters.
    pub counters: Counters,
    /// Wall time of the solve in seconds; with `--repeat R`, the median of the R solves.
    pub wall_s: f64,
    /// Solves timed for `wall_s` (`--repeat R`, optional column): R, or fewer when a solve ran
    /// into the budget and the repeats stopped there.
    pub repeats: Option<u32>,
    /// CPU time of the solve in seconds (optional column): an external solver's process
    /// CPU for the job, or a built-in solve's thread CPU time, read outside the `wall_s`
    /// window. With `--repeat R`, the median of the R solves.
    pub cpu_s: Option<f64>,
    /// Peak resident memory of an external solver, KiB (optional column).
    pub max_rss_kib: Option<u64>,
    /// Seconds an external solver took to start before this job, from its start to its
    /// `ready` line (optional column, a timing like `wall_s`). Empty where no start-up was
    /// measured: jobs that reused a running process, and solvers without the `ready`
    /// handshake, whose start-up is unknown and lands inside the next job's `wall_s`.
    pub startup_s: Option<f64>,
    /// What the solver claimed besides an answer (optional column `claim`): `no-solution`
    /// for a proof of infeasibility, empty otherwise.
    pub claim: Option<Claim>,
    /// Which budget or limit the harness ended the job by (optional column `ended_by`);
    /// empty for a job that ended by itself.
    pub ended_by: Option<EndedBy>,
    /// Why the row ended as it did, where that needs words; empty otherwise.
    pub message: String,
    /// An external solver's own statistics, `key=value;…`, verbatim (optional column).
    pub stats: Option<String>,
    /// The answer (Hitori `#`/`.` mask, Sudoku 81 digits) with `--record-solutions`.
    pub solution: Option<String>,
}

/// Which optional columns a file carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Columns {
    /// Include `solutions`.
    pub solutions: bool,
    /// Include `solution`.
    pub solution: bool,
    /// Include `cpu_s`, `max_rss_kib` and `stats` (runs with an external solver).
    #[serde(default)]
    pub measured: bool,
    /// Include `repeats` (`--repeat R` with R > 1).
    #[serde(default)]
    pub repeats: bool,
    /// Include `cpu_s` without the other `measured` columns (built-in solves' CPU time).
    #[serde(default)]
    pub cpu: bool,
    /// Include `startup_s` (runs with an external solver).
    #[serde(default)]
    pub startup: bool,
    /// Include `claim` and `ended_by` (runs since they were added).
    #[serde(default)]
    pub outcome: bool,
}

/// The columns before the counters.
const HEAD: [&str; 12] = [
    "dataset",
    "puzzle_id",
    "kind",
    "size",
    "strategy",
    "rules",
    "params",
    "seed",
    "colony",
    "job",
    "status",
    "verified",
];

impl Columns {
    /// Every optional column on.
    pub const ALL: Columns = Columns {
        solutions: true,
        solution: true,
        measured: true,
        repeats: true,
        // Implied by `measured` (canonical form: see [`Columns::canonical`]).
        cpu: false,
        startup: true,
        outcome: true,
    };

    /// The header for this selection of optional columns.
    pub fn header(self) -> Vec<&'static str> {
        let mut h: Vec<&'static str> = HEAD.to_vec();
        h.extend(
            COUNTERS
                .iter()
                .filter(|c| !c.optional || self.solutions)
                .map(|c| c.name),
        );
        h.push("wall_s");
        if self.repeats {
            h.push("repeats");
        }
        if self.measured || self.cpu {
            h.push("cpu_s");
        }
        if self.measured {
            h.push("max_rss_kib");
        }
        if self.startup {
            h.push("startup_s");
        }
        if self.outcome {
            h.push("claim");
            h.push("ended_by");
        }
        h.push("message");
        if self.measured {
            h.push("stats");
        }
        if self.solution {
            h.push("solution");
        }
        h
    }

    /// The optional columns a header has.
    pub fn of_header<'a>(mut header: impl Iterator<Item = &'a str>) -> Columns {
        let mut c = Columns::default();
        header.try_for_each(|h| {
            match h {
                "solutions" => c.solutions = true,
                "solution" => c.solution = true,
                "repeats" => c.repeats = true,
                "cpu_s" => c.cpu = true,
                "max_rss_kib" | "stats" => c.measured = true,
                "startup_s" => c.startup = true,
                "claim" | "ended_by" => c.outcome = true,
                _ => {}
            }
            Some(())
        });
        // `measured` implies `cpu_s`: `cpu` says only that a file without the others has it.
        c.cpu &= !c.measured;
        c
    }

    /// Every optional column either has: the columns of one file holding both's rows.
    pub fn union(self, other: Columns) -> Columns {
        Columns {
            solutions: self.solutions || other.solutions,
            solution: self.solution || other.solution,
            measured: self.measured || other.measured,
            repeats: self.repeats || other.repeats,
            cpu: self.cpu || other.cpu,
            startup: self.startup || other.startup,
            outcome: self.outcome || other.outcome,
        }
        .canonical()
    }

    /// The same selection in its canonical form (`cpu` is implied by `measured`), so that
    /// two selections writing the same header compare equal.
    pub fn canonical(self) -> Columns {
        Columns {
            cpu: self.cpu && !self.measured,
            ..self
        }
    }

    /// Names of the optional columns present, for messages.
    pub fn names(self) -> Vec<&'static str> {
        Columns::ALL
            .header()
            .into_iter()
            .filter(|c| !Columns::default().header().contains(c) && self.header().contains(c))
            .collect()
    }
}

/// A CSV cell as the `csv` crate writes it by default: quoted when it holds a comma, a quote
/// or a line break, with quotes doubled.
struct Cell<'a>(&'a str);

impl fmt::Display for Cell<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        if !s.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
            return f.write_str(s);
        }
        f.write_str("\"")?;
        for (i, part) in s.split('"').enumerate() {
            if i > 0 {
                f.write_str("\"\"")?;
            }
            f.write_str(part)?;
        }
        f.write_str("\"")
    }
}

/// Free text from a solver (a panic message, an external solver's stderr or statistics) as a
/// cell, with NUL bytes replaced: the readers refuse NULs as corruption.
fn write_text_cell(text: &str, out: &mut Vec<u8>) {
    use std::io::Write;
    let _ = if text.contains('\0') {
        write!(out, "{}", Cell(&text.replace('\0', "\u{fffd}")))
    } else {
        write!(out, "{}", Cell(text))
    };
}

impl Record {
    /// The text of an external solver's statistic `key` (the `stats` column's `key=value`
    /// pairs), as the solver wrote it.
    pub fn stat(&self, key: &str) -> Option<&str> {
        self.stats
            .as_deref()?
            .split(';')
            .filter_map(|p| p.split_once('='))
            .find_map(|(k, v)| (k == key).then_some(v))
    }

    /// The keys of the `stats` column, in their order.
    pub fn stat_keys(&self) -> impl Iterator<Item = &str> {
        self.stats
            .as_deref()
            .unwrap_or_default()
            .split(';')
            .filter_map(|p| p.split_once('=').map(|(k, _)| k))
            .filter(|k| !k.is_empty())
    }

    /// A number of the row by name, the one lookup every report's `--metric`, `--where` and
    /// effort use: a counter, a timing column (`wall_s`, `cpu_s`, `max_rss_kib`,
    /// `startup_s`), or a statistic of the `stats` column whose value is a finite number.
    /// `None` where the row has no such number.
    pub fn metric(&self, name: &str) -> Option<f64> {
        match name {
            "wall_s" => Some(self.wall_s),
            "cpu_s" => self.cpu_s,
            "max_rss_kib" => self.max_rss_kib.map(|v| v as f64),
            "startup_s" => self.startup_s,
            _ => self.counters.get(name).or_else(|| {
                self.stat(name)?
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
            }),
        }
    }

    /// The key that identifies a job across runs, shards and baselines, owned (a message, a
    /// map key); [`Record::job_key`] borrows it.
    pub fn key(&self) -> JobKey {
        self.job_key().to_key()
    }

    /// The job key borrowed from this row.
    pub fn job_key(&self) -> JobKeyRef<'_> {
        JobKeyRef {
            dataset: &self.dataset,
            puzzle_id: &self.puzzle_id,
            strategy: &self.strategy,
            rules: &self.rules,
            params: self.params.as_str(),
            seed: self.seed,
            colony: self.colony,
        }
    }
    /// The cells of this row for the given column selection, in header order (the cells
    /// of [`Record::write_csv`]'s line, unquoted).
    pub fn fields(&self, cols: Columns) -> Vec<String> {
        let mut line = Vec::with_capacity(256);
        self.write_csv(cols, &mut line);
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.as_slice());
        let mut rec = csv::StringRecord::new();
        // The line was written just above from UTF-8 cells: it always reads back.
        match rdr.read_record(&mut rec) {
            Ok(true) => rec.iter().map(str::to_string).collect(),
            _ => Vec::new(),
        }
    }

    /// Append this row as one CSV line (with its newline) for the given column selection,
    /// quoted as the `csv` crate quotes. Allocates nothing (unless a message holds a NUL):
    /// workers format their rows with it into a reused buffer.
    pub fn write_csv(&self, cols: Columns, out: &mut Vec<u8>) {
        self.write_csv_head(out);
        self.write_csv_tail(cols, out);
    }

    /// The first seven cells of [`Record::write_csv`]'s line (dataset to params), with the
    /// comma after them: the same for every seed and colony of a puzzle and strategy, so the
    /// harness formats them once per puzzle and copies them.
    pub fn write_csv_head(&self, out: &mut Vec<u8>) {
        use std::io::Write;
        // Writing into a Vec cannot fail, so the results of `write!` are ignored.
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},",
            Cell(&self.dataset),
            Cell(&self.puzzle_id),
            self.kind.name(),
            Cell(&self.size),
            Cell(&self.strategy),
            Cell(&self.rules),
            Cell(self.params.as_str()),
        );
    }

    /// The rest of [`Record::write_csv`]'s line after [`Record::write_csv_head`]: from the
    /// seed to the end of the line.
    pub fn write_csv_tail(&self, cols: Columns, out: &mut Vec<u8>) {
        use std::io::Write;
        let _ = write!(out, "{},{},{},", self.seed, self.colony, self.job);
        if let Some(s) = self.status {
            out.extend_from_slice(s.as_str().as_bytes());
        }
        out.extend_from_slice(if self.verified { b",true" } else { b",false" });
        self.counters.write_cells(cols.solutions, out);
        let _ = write!(out, ",{:.9}", self.wall_s);
        if cols.repeats {
            out.push(b',');
            if let Some(n) = self.repeats {
                let _ = write!(out, "{n}");
            }
        }
        if cols.measured || cols.cpu {
            out.push(b',');
            if let Some(c) = self.cpu_s {
                // Nine decimals, as `wall_s`: a built-in solve of 1-2 µs needs the nanoseconds.
                let _ = write!(out, "{c:.9}");
            }
        }
        if cols.measured {
            out.push(b',');
            if let Some(m) = self.max_rss_kib {
                let _ = write!(out, "{m}");
            }
        }
        if cols.startup {
            out.push(b',');
            if let Some(s) = self.startup_s {
                let _ = write!(out, "{s:.6}");
            }
        }
        if cols.outcome {
            out.push(b',');
            if let Some(c) = self.claim {
                out.extend_from_slice(c.as_str().as_bytes());
            }
            out.push(b',');
            if let Some(e) = self.ended_by {
                out.extend_from_slice(e.as_str().as_bytes());
            }
        }
        out.push(b',');
        write_text_cell(&self.message, out);
        if cols.measured {
            out.push(b',');
            write_text_cell(self.stats.as_deref().unwrap_or_default(), out);
        }
        if cols.solution {
            let _ = write!(
                out,
                ",{}",
                Cell(self.solution.as_deref().unwrap_or_default())
            );
        }
        out.push(b'\n');
    }

    /// A well-formed row for tests and examples: `strategy` on `puzzle` of `dataset`, with
    /// `status` in `wall_s` seconds. The kind follows the strategy's name (`abc…` and
    /// `backtrack` are Sudoku, the rest Hitori); counters are empty for the caller to fill.
    pub fn sample(
        dataset: &str,
        strategy: &str,
        puzzle: &str,
        status: Status,
        wall_s: f64,
    ) -> Record {
        let kind = if strategy.starts_with("abc") || strategy == "backtrack" {
            PuzzleKind::Sudoku
        } else {
            PuzzleKind::Hitori
        };
        Record {
            dataset: dataset.into(),
            puzzle_id: puzzle.into(),
            kind,
            size: if kind == PuzzleKind::Hitori {
                "5x5"
            } else {
                "9x9"
            }
            .into(),
            strategy: strategy.into(),
            rules: if kind == PuzzleKind::Hitori {
                "basic"
            } else {
                ""
            }
            .into(),
            status: Some(status),
            verified: status == Status::Solved,
            wall_s,
            ..Record::default()
        }
    }

    /// The row with its timing columns cleared: what must be identical across runs of one plan.
    pub fn without_timing(&self) -> Record {
        Record {
            wall_s: 0.0,
            repeats: None,
            cpu_s: None,
            max_rss_kib: None,
            startup_s: None,
            ..self.clone()
        }
    }

    /// Set the column `name` from its cell. `Err` carries what the column must hold.
    pub fn set_cell(&mut self, name: &str, cell: &str) -> Result<(), &'static str> {
        fn num<T: FromStr>(cell: &str, what: &'static str) -> Result<T, &'static str> {
            cell.parse().map_err(|_| what)
        }
        fn opt_num<T: FromStr>(cell: &str, what: &'static str) -> Result<Option<T>, &'static str> {
            if cell.is_empty() {
                Ok(None)
            } else {
                num(cell, what).map(Some)
            }
        }
        const UINT: &str = "an unsigned integer";
        // No writer of ours puts a NUL in a file (messages are cleaned on the way out): a NUL
        // is a corrupt or foreign row, and must not reach a finished CSV through `--resume`.
        if cell.contains('\0') {
            return Err("text without NUL bytes");
        }
        match name {
            "dataset" => self.dataset = cell.to_string(),
            "puzzle_id" => self.puzzle_id = cell.to_string(),
            "kind" => self.kind = num(cell, "hitori or sudoku")?,
            "size" => self.size = cell.to_string(),
            "strategy" => self.strategy = cell.to_string(),
            "rules" => self.rules = cell.to_string(),
            "params" => self.params = Params::from_cell(cell),
            "seed" => self.seed = num(cell, UINT)?,
            "colony" => self.colony = num(cell, "an unsigned 32-bit integer")?,
            "job" => self.job = num(cell, UINT)?,
            "status" => {
                self.status = Some(num(
                    cell,
                    "one of solved, unsolved, timeout, error, wrong, memout",
                )?)
            }
            "verified" => self.verified = num(cell, "true or false")?,
            "wall_s" => {
                let v: f64 = num(cell, "a non-negative number of seconds")?;
                if !(v.is_finite() && v >= 0.0) {
                    return Err("a non-negative number of seconds");
                }
                self.wall_s = v;
            }
            "cpu_s" => {
                let v: Option<f64> = opt_num(cell, "a non-negative number of seconds")?;
                if v.is_some_and(|v| !(v.is_finite() && v >= 0.0)) {
                    return Err("a non-negative number of seconds");
                }
                self.cpu_s = v;
            }
            "startup_s" => {
                let v: Option<f64> = opt_num(cell, "a non-negative number of seconds")?;
                if v.is_some_and(|v| !(v.is_finite() && v >= 0.0)) {
                    return Err("a non-negative number of seconds");
                }
                self.startup_s = v;
            }
            "max_rss_kib" => self.max_rss_kib = opt_num(cell, UINT)?,
            "repeats" => self.repeats = opt_num(cell, "an unsigned 32-bit integer")?,
            "claim" => {
                self.claim = if cell.is_empty() {
                    None
                } else {
                    Some(num(cell, "no-solution or empty")?)
                }
            }
            "ended_by" => {
                self.ended_by = if cell.is_empty() {
                    None
                } else {
                    Some(num(cell, ENDED_BY_EXPECTED)?)
                }
            }
            "message" => self.message = cell.to_string(),
            "stats" => self.stats = (!cell.is_empty()).then(|| cell.to_string()),
            "solution" => self.solution = (!cell.is_empty()).then(|| cell.to_string()),
            counter => {
                self.counters.set_by_name(counter, cell)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_reads_counters_timings_and_numeric_stats() {
        let mut r = Record::sample("d", "ext", "p", Status::Solved, 0.25);
        r.counters.nodes = Some(5);
        r.cpu_s = Some(0.5);
        r.stats = Some("decodes=12;tag=t1;bad=nan;big=1e3;empty=".into());
        assert_eq!(r.metric("nodes"), Some(5.0));
        assert_eq!(r.metric("wall_s"), Some(0.25));
        assert_eq!(r.metric("cpu_s"), Some(0.5));
        assert_eq!(r.metric("startup_s"), None);
        assert_eq!(r.metric("decodes"), Some(12.0));
        assert_eq!(r.metric("big"), Some(1000.0));
        for none in ["tag", "bad", "empty", "cycles", "nosuch"] {
            assert_eq!(r.metric(none), None, "{none}");
        }
        assert_eq!(r.stat("tag"), Some("t1"));
        assert_eq!(r.stat("empty"), Some(""));
        assert_eq!(
            r.stat_keys().collect::<Vec<_>>(),
            ["decodes", "tag", "bad", "big", "empty"]
        );
        r.stats = None;
        assert_eq!((r.stat("tag"), r.stat_keys().count()), (None, 0));
    }

    #[test]
    fn header_has_optional_columns_only_when_asked() {
        let base = Columns::default().header();
        for c in [
            "solutions",
            "solution",
            "repeats",
            "cpu_s",
            "max_rss_kib",
            "startup_s",
            "claim",
            "ended_by",
            "stats",
        ] {
            assert!(!base.contains(&c), "{c}");
            assert!(Columns::ALL.header().contains(&c), "{c}");
        }
        assert_eq!(base.len(), Columns::ALL.header().len() - 9);
        // The column order the files have always had.
        assert_eq!(
            base.join(","),
            "dataset,puzzle_id,kind,size,strategy,rules,params,seed,colony,job,status,verified,\
             nodes,max_depth,backtracks,propagated,guesses,cycles,evaluations,scouts,\
             best_conflicts,empties_after_presolve,wall_s,message"
        );
        assert_eq!(
            Columns::of_header(Columns::ALL.header().into_iter()),
            Columns::ALL
        );
        assert_eq!(
            Columns::ALL.names(),
            [
                "solutions",
                "repeats",
                "cpu_s",
                "max_rss_kib",
                "startup_s",
                "claim",
                "ended_by",
                "stats",
                "solution"
            ]
        );
        // Built-in runs carry `cpu_s` alone; it reads back as such.
        let cpu = Columns {
            cpu: true,
            ..Columns::default()
        };
        let h = cpu.header();
        assert!(h.contains(&"cpu_s") && !h.contains(&"max_rss_kib"), "{h:?}");
        assert_eq!(Columns::of_header(h.into_iter()), cpu);
    }

    #[test]
    fn fields_match_header_and_read_back() {
        let mut r = Record {
            dataset: "d".into(),
            kind: PuzzleKind::Sudoku,
            status: Some(Status::Solved),
            params: Params::from_pairs([("b", 2), ("a", 1)]),
            cpu_s: Some(0.5),
            max_rss_kib: Some(1024),
            startup_s: Some(0.25),
            stats: Some("x=1".into()),
            solution: Some("1".repeat(81)),
            repeats: Some(9),
            claim: Some(Claim::NoSolution),
            ended_by: Some(EndedBy::NodeLimit),
            ..Record::default()
        };
        r.counters.solutions = Some(1);
        r.counters.nodes = Some(3);
        let cols = Columns::ALL;
        let header = cols.header();
        let fields = r.fields(cols);
        assert_eq!(fields.len(), header.len());
        let mut back = Record::default();
        for (h, f) in header.iter().zip(&fields) {
            back.set_cell(h, f).expect("cell");
        }
        assert_eq!(back, r);
        assert_eq!(r.params.as_str(), "a=1;b=2");
        assert_eq!(r.params.get("b"), Some("2"));
        assert_eq!(back.set_cell("nodes", "x"), Err("an unsigned integer"));
        assert_eq!(
            back.set_cell("wall_s", "NaN"),
            Err("a non-negative number of seconds")
        );
        assert_eq!(back.set_cell("ended_by", "oom"), Err(ENDED_BY_EXPECTED));
        assert_eq!(back.set_cell("claim", "none"), Err("no-solution or empty"));
        for e in EndedBy::ALL {
            back.set_cell("ended_by", e.as_str()).expect("ended_by");
            assert_eq!(back.ended_by, Some(e));
        }
        back.set_cell("ended_by", "").expect("empty");
        assert_eq!(back.ended_by, None);
    }

    #[test]
    fn a_file_without_the_outcome_columns_reads_as_before() {
        let old: Vec<&str> = Columns::default().header();
        assert!(!Columns::of_header(old.into_iter()).outcome);
        let new = Columns {
            outcome: true,
            ..Columns::default()
        };
        let h = new.header();
        let at = h.iter().position(|c| *c == "claim").expect("claim");
        assert_eq!(&h[at..at + 3], ["claim", "ended_by", "message"]);
        assert_eq!(Columns::of_header(h.into_iter()), new);
    }

    #[test]
    fn write_csv_quotes_as_the_csv_crate_does() {
        let texts = [
            "",
            "plain",
            "a,b",
            "say \"hi\"",
            "\"",
            "two\nlines",
            "cr\rhere",
            " spaced ",
            "#hash",
            "ünïcode, «quoted»",
        ];
        for (i, t) in texts.iter().enumerate() {
            let mut r = Record {
                dataset: t.to_string(),
                puzzle_id: format!("{t}:{i}"),
                size: t.to_string(),
                strategy: t.to_string(),
                rules: t.to_string(),
                params: Params::from_cell(t),
                // Only free text from solvers has its NULs replaced.
                message: format!("{t}\0end"),
                stats: Some(t.to_string()),
                solution: Some(t.to_string()),
                status: Some(Status::ALL[i % 6]),
                verified: i % 2 == 0,
                wall_s: i as f64 * 1.25e-6,
                cpu_s: (i % 3 == 0).then_some(0.5),
                repeats: (i % 2 == 1).then_some(i as u32),
                ..Record::default()
            };
            r.counters.nodes = Some(i as u64);
            r.counters.propagated = crate::results::counters::Fraction::new(0.123456);
            r.counters.solutions = Some(2);
            for cols in [Columns::default(), Columns::ALL] {
                let mut line = Vec::new();
                r.write_csv(cols, &mut line);
                let fields = r.fields(cols);
                assert_eq!(fields.len(), cols.header().len(), "{t:?}");
                // The csv crate, given the same cells, writes the same bytes.
                let mut w = csv::Writer::from_writer(Vec::new());
                w.write_record(&fields).expect("write");
                assert_eq!(
                    String::from_utf8_lossy(&w.into_inner().expect("flush")),
                    String::from_utf8_lossy(&line),
                    "{t:?}"
                );
                // And the cells are the row's values (NUL replaced).
                let mut back = Record::default();
                for (h, f) in cols.header().iter().zip(&fields) {
                    back.set_cell(h, f).expect("cell");
                }
                assert_eq!(back.message, format!("{t}\u{fffd}end"));
                assert_eq!(back.puzzle_id, r.puzzle_id);
                assert_eq!(back.counters.nodes, r.counters.nodes);
                if cols == Columns::ALL {
                    assert_eq!(back.repeats, r.repeats);
                    assert_eq!(back.solution, r.solution.clone().filter(|s| !s.is_empty()));
                }
            }
        }
    }

    #[test]
    fn status_round_trips() {
        for s in Status::ALL {
            assert_eq!(s.as_str().parse::<Status>(), Ok(s));
        }
        assert!("done".parse::<Status>().is_err());
    }
}
