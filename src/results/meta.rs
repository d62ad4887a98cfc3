//! The `*.meta.json` sidecar beside each results CSV: how the file was made (command, version,
//! git revision, machine, times), the plan it belongs to, and where the run stands, so that
//! `--resume` and `bench-report merge` can refuse files from another plan and say what differs.
//!
//! Readers treat every field as optional (`#[serde(default)]`) and keep fields they do not
//! know in [`RunMeta::extra`], so a newer `bench-run` can add fields without breaking older
//! reports, and `merge` passes them through.

use super::record::Columns;
use super::shard::Shard;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunStatus {
    /// Jobs are being run (or the process died without a word: a journal is left).
    Running,
    /// Every job of the shard has a row; the CSV is final.
    Complete,
    /// Stopped by Ctrl-C or SIGTERM; `--resume` continues it.
    Interrupted,
    /// Stopped by an error (writing failed, the dataset could not be read again); `--resume`
    /// continues it once the cause is fixed.
    Failed,
    /// The dataset changed under the run after some of its puzzles were solved: its rows
    /// cannot be trusted and `--resume` refuses them.
    DatasetChanged,
}

impl RunStatus {
    /// The spelling in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Complete => "complete",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Failed => "failed",
            RunStatus::DatasetChanged => "dataset-changed",
        }
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Run metadata. Every field may be missing in a file; missing means "unknown".
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunMeta {
    /// Tool that wrote the run (`puzzlebench`).
    pub tool: String,
    /// Tool version.
    pub version: String,
    /// Git revision of the solver code, where known.
    pub git_revision: Option<String>,
    /// The command line, one argument per element.
    pub command_line: Vec<String>,
    /// The file name of the results this meta describes (`X.csv` and `X` share the sidecar
    /// `X.meta.json`, so a reader checks that the meta it found is its own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub results_file: Option<String>,
    /// The `--dataset` path.
    pub dataset: String,
    /// The dataset's name (`dataset` column).
    pub dataset_name: Option<String>,
    /// Fingerprint of the dataset's puzzles and ids.
    pub dataset_hash: Option<String>,
    /// Puzzles in the dataset.
    pub puzzles: Option<u64>,
    /// Strategies run.
    pub strategies: Vec<String>,
    /// Each strategy as `name [rules] params`, the form `--resume` compares.
    pub solvers: Vec<String>,
    /// Each strategy's declared effort counter (`Solver::effort`), by strategy name: what
    /// reports measure effort in. Absent in metas written before it was added, and for
    /// strategies that declare none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub efforts: BTreeMap<String, String>,
    /// Content hash of the `--solvers` manifest, when the run had one.
    pub solvers_manifest_hash: Option<String>,
    /// Optional columns present in the results.
    pub columns: Option<Columns>,
    /// Base seed.
    pub seed: Option<u64>,
    /// Seeds per puzzle.
    pub seeds: Option<u64>,
    /// Colonies per (puzzle, seed).
    pub colonies: Option<u64>,
    /// Per-job time limit in seconds, `None` when the run had none.
    pub timeout_s: Option<f64>,
    /// Per-job node limit, `None` when the run had none.
    pub node_limit: Option<u64>,
    /// Worker threads.
    pub threads: Option<u64>,
    /// The shard this file holds; `None` (or 1 of 1) for a whole run.
    pub shard: Option<Shard>,
    /// Jobs in the whole plan (all shards).
    pub jobs_total: Option<u64>,
    /// Jobs in this file's shard.
    pub jobs_in_shard: Option<u64>,
    /// Hash of the plan; files with different hashes come from different plans.
    pub plan_hash: Option<String>,
    /// Start time (RFC 3339).
    pub started: Option<String>,
    /// End time (RFC 3339), `None` while running or when interrupted.
    pub finished: Option<String>,
    /// Where the run stands.
    pub status: Option<RunStatus>,
    /// Jobs with a row so far.
    pub jobs_done: Option<u64>,
    /// Rows per status once the run ended.
    pub status_counts: BTreeMap<String, u64>,
    /// Machine description (free-form object).
    pub machine: serde_json::Value,
    /// How busy the host was during the run (absent in metas written before it was added).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_state: Option<HostState>,
    /// The build that wrote the run and the external programs it ran (absent in metas
    /// written before it was added).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build: Option<BuildInfo>,
    /// In what order the jobs ran, how the workers were warmed up and on which CPUs they ran
    /// (absent in metas written before it was added: those ran jobs in plan order, sharded
    /// job by job, unpinned and cold).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution: Option<Execution>,
    /// The datasets of a run over several (a plan file's `[[dataset]]` tables), in job order;
    /// empty for a run of one dataset, which the fields above describe. In a run over
    /// several, `dataset` lists their names, `dataset_name` and `dataset_hash` are absent and
    /// `seed`, `seeds`, `colonies`, `timeout_s` and `node_limit` are set only where every
    /// dataset has the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub datasets: Vec<DatasetPart>,
    /// Fields this version does not know, kept so that `merge` passes them on.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// One dataset of a run over several ([`RunMeta::datasets`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DatasetPart {
    /// The dataset's path, as given.
    pub path: String,
    /// Its name (the `dataset` column of its rows).
    pub name: String,
    /// Fingerprint of its puzzles and ids.
    pub hash: String,
    /// Puzzles in it.
    pub puzzles: u64,
    /// Its configurations, as `name [rules] params`.
    pub solvers: Vec<String>,
    /// Base seed, seeds per puzzle and colonies of its jobs.
    pub seed: u64,
    /// Seeds per puzzle.
    pub seeds: u64,
    /// Colonies per (puzzle, seed).
    pub colonies: u64,
    /// Solves per job (`repeat`).
    pub repeat: u64,
    /// Its per-job time limit in seconds, `None` when it had none.
    pub timeout_s: Option<f64>,
    /// Its per-job node limit, `None` when it had none.
    pub node_limit: Option<u64>,
    /// Its first job's number in the run, and how many jobs it has (all shards).
    pub first_job: u64,
    /// Jobs of this dataset in the whole plan.
    pub jobs: u64,
}

impl RunMeta {
    /// Each dataset's `(name, fingerprint)` the meta records: the one of a single-dataset run
    /// (its name may be unknown in old metas), or each of a run over several.
    pub fn fingerprints(&self) -> Vec<(Option<&str>, &str)> {
        if !self.datasets.is_empty() {
            return (self.datasets.iter())
                .map(|d| (Some(d.name.as_str()), d.hash.as_str()))
                .collect();
        }
        (self.dataset_hash.as_deref())
            .map(|h| (self.dataset_name.as_deref(), h))
            .into_iter()
            .collect()
    }

    /// The fingerprint of the dataset named `name` in this run: a single-dataset run's own,
    /// or that of the part so named.
    pub fn fingerprint_of(&self, name: &str) -> Option<&str> {
        if self.datasets.is_empty() {
            return self.dataset_hash.as_deref();
        }
        (self.datasets.iter())
            .find(|d| d.name == name)
            .map(|d| d.hash.as_str())
    }
}

/// The other results paths whose sidecar is `results`'s own (`X.csv`, `X.CSV` and `X` all
/// use `X.meta.json`), `results` itself left out.
pub fn sharing_meta(results: &Path) -> Vec<PathBuf> {
    let meta = meta_path(results);
    let Some(stem) = meta
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".meta.json"))
    else {
        return Vec::new();
    };
    let dir = meta.parent().unwrap_or(Path::new(""));
    [
        stem.to_string(),
        format!("{stem}.csv"),
        format!("{stem}.CSV"),
    ]
    .into_iter()
    .map(|n| dir.join(n))
    .filter(|p| p != results && meta_path(p) == meta)
    .collect()
}

/// The file name a meta records as its results' ([`RunMeta::results_file`]).
pub fn results_file_name(results: &Path) -> Option<String> {
    results
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
}

/// The sidecar path for a results file: `x.csv` -> `x.meta.json`; a name without a `.csv`
/// extension gets `.meta.json` appended.
pub fn meta_path(results: &Path) -> PathBuf {
    let is_csv = results
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if is_csv {
        results.with_extension("meta.json")
    } else {
        let mut s = results.as_os_str().to_owned();
        s.push(".meta.json");
        PathBuf::from(s)
    }
}

/// How a run's jobs were executed ([`RunMeta::execution`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Execution {
    /// The job order: `pair-groups` (each pair group — one puzzle, seed and colony under
    /// every strategy of its kind — back to back on one worker, the strategies taking turns
    /// being first; shards take whole groups).
    pub order: String,
    /// The plan's layout, for telling a job's shard without the dataset
    /// ([`PlanLayout`](super::shard::PlanLayout)).
    pub layout: super::shard::PlanLayout,
    /// Unrecorded warm-up solves: asked per worker and strategy, and done.
    pub warmup: Warmup,
    /// Where the workers ran.
    pub pinning: Pinning,
    /// The resource limits and how CPU time and memory were accounted.
    pub limits: Limits,
}

/// How an external solver's `cpu_s` is counted since `--cpu-limit` was added: the whole
/// process tree (the leader's CPU clock, the reaped descendants' rusage the leader collects,
/// and `/proc` for the living descendants). Runs before it (no `limits` in the meta) counted
/// the leader process only.
pub const CPU_ACCOUNTING_TREE: &str = "process-tree";

/// Limits of a run ([`Execution::limits`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// `--cpu-limit`, seconds per solve.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_limit_s: Option<f64>,
    /// `--memory-limit`, bytes, on each external solver's process tree (a manifest's
    /// `memory_limit` may set a lower one per solver).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_limit_bytes: Option<u64>,
    /// How external solvers' `cpu_s` was counted ([`CPU_ACCOUNTING_TREE`]); empty in metas
    /// of runs before it, whose figure was the leader process's alone.
    pub cpu_accounting: String,
    /// How the memory limit was enforced: the `/proc` sampling interval (ms), and whether
    /// a cgroup v2 `memory.max` was available (detected at start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_sample_ms: Option<f64>,
    /// `available` or `not available: <why>` (cgroup v2 with a writable delegated group).
    pub cgroup: String,
}

/// Warm-up solves of a run ([`Execution::warmup`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Warmup {
    /// `--warmup`: solves per worker and strategy before its first measured job.
    pub per_worker: u32,
    /// The most seconds one worker spends warming one strategy up.
    pub budget_s: f64,
    /// Warm-up solves done, over all workers and strategies.
    pub solves: u64,
    /// Seconds they took.
    pub seconds: f64,
}

/// Worker placement of a run ([`Execution::pinning`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Pinning {
    /// `--pin`: `auto`, `on` or `off`.
    pub mode: String,
    /// The CPUs the process was allowed (`sched_getaffinity`).
    pub allowed: Vec<usize>,
    /// Each worker's CPUs, by worker; empty when the workers ran unpinned.
    pub workers: Vec<Vec<usize>>,
    /// Why the workers ran unpinned, when they did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Where a run ran.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Machine {
    /// Host name.
    pub hostname: String,
    /// Operating system.
    pub os: String,
    /// CPU architecture.
    pub arch: String,
    /// CPU model, where the OS says.
    pub cpu: String,
    /// Logical CPUs available.
    pub cpus: usize,
}

impl Machine {
    /// Describe this machine.
    pub fn current() -> Machine {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let cpu = read("/proc/cpuinfo")
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default();
        Machine {
            hostname: read("/proc/sys/kernel/hostname").trim().to_string(),
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            cpu,
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// The host's load over a run: what the run's own processes took against what the whole
/// host did, so that a reader can tell a quiet run from one that shared its CPUs. Every
/// field is optional when read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HostState {
    /// 1-minute load average at the start (`/proc/loadavg`).
    pub load1_start: Option<f64>,
    /// 1-minute load average at the end.
    pub load1_end: Option<f64>,
    /// The run's elapsed seconds.
    pub wall_s: Option<f64>,
    /// This process's user + system CPU seconds over the run, with its reaped children
    /// (the external solvers).
    pub run_cpu_s: Option<f64>,
    /// The host's busy + steal CPU seconds over the run (`/proc/stat`, all CPUs).
    pub host_busy_cpu_s: Option<f64>,
    /// `host_busy_cpu_s - run_cpu_s`, at least 0: what others took while the run ran. A short
    /// burst the load average smooths away shows here.
    pub others_cpu_s: Option<f64>,
}

/// The readings taken at a run's start, to be turned into a [`HostState`] at its end.
#[derive(Clone, Debug)]
pub struct HostProbe {
    at: std::time::Instant,
    load1: Option<f64>,
    own_cpu: f64,
    host_busy: Option<f64>,
}

impl HostProbe {
    /// Takes the start readings.
    pub fn start() -> HostProbe {
        HostProbe {
            at: std::time::Instant::now(),
            load1: load1(),
            own_cpu: own_cpu_s(),
            host_busy: host_busy_cpu_s(),
        }
    }

    /// The host state from the start until now.
    pub fn finish(&self) -> HostState {
        let run_cpu = own_cpu_s() - self.own_cpu;
        let busy = match (self.host_busy, host_busy_cpu_s()) {
            (Some(a), Some(b)) => Some((b - a).max(0.0)),
            _ => None,
        };
        HostState {
            load1_start: self.load1,
            load1_end: load1(),
            wall_s: Some(self.at.elapsed().as_secs_f64()),
            run_cpu_s: Some(run_cpu.max(0.0)),
            host_busy_cpu_s: busy,
            others_cpu_s: busy.map(|b| (b - run_cpu).max(0.0)),
        }
    }
}

/// The 1-minute load average, from `/proc/loadavg`.
fn load1() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// User + system CPU seconds of this process and of the children it has reaped.
fn own_cpu_s() -> f64 {
    let get = |who: libc::c_int| {
        // SAFETY: zeroed rusage is a valid out-buffer for getrusage.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: valid pointer; RUSAGE_SELF/RUSAGE_CHILDREN are valid selectors.
        if unsafe { libc::getrusage(who, &mut ru) } != 0 {
            return 0.0;
        }
        let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        tv(ru.ru_utime) + tv(ru.ru_stime)
    };
    get(libc::RUSAGE_SELF) + get(libc::RUSAGE_CHILDREN)
}

/// The host's busy + steal CPU seconds since boot, all CPUs (`/proc/stat`'s `cpu` line).
fn host_busy_cpu_s() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    parse_busy(&text)
}

/// Busy ticks of a `/proc/stat` text in seconds: user, nice, system, irq, softirq and steal
/// (guest time is already inside user and nice; idle and iowait are not busy).
fn parse_busy(text: &str) -> Option<f64> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let at = |i: usize| v.get(i).copied().unwrap_or(0);
    let ticks = at(0) + at(1) + at(2) + at(5) + at(6) + at(7);
    // SAFETY: sysconf has no memory effects.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let hz = if hz > 0 { hz as f64 } else { 100.0 };
    Some(ticks as f64 / hz)
}

/// What built a run: this program and the external solvers it ran. `--resume` compares it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildInfo {
    /// Crate version.
    pub version: String,
    /// Git revision compiled in, where known.
    pub git_revision: Option<String>,
    /// `release` or `debug`.
    pub profile: String,
    /// Hash of the running executable's bytes (`/proc/self/exe`): the crate's stable 64-bit
    /// hash ([`crate::hash::StableHasher`]), 16 hex digits.
    pub exe_hash: Option<String>,
    /// Per external solver (by name): the manifest's hash and each `command` file's.
    pub solvers: std::collections::BTreeMap<String, SolverBuild>,
    /// Set when `--resume-any-build` continued a run made by another build or program: what
    /// differed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumed_across: Option<String>,
}

/// One external solver's provenance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SolverBuild {
    /// Content hash of the manifest that declared it.
    pub manifest_hash: Option<String>,
    /// Each `command` element that is an existing file (the program, a script), by the path
    /// as resolved, with the hash of its bytes (as [`BuildInfo::exe_hash`]).
    pub files: std::collections::BTreeMap<String, String>,
}

impl BuildInfo {
    /// This executable's build, without solvers.
    pub fn current() -> BuildInfo {
        BuildInfo {
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_revision: git_revision(),
            profile: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }
            .to_string(),
            exe_hash: exe_hash(),
            solvers: Default::default(),
            resumed_across: None,
        }
    }

    /// What differs from `old` (this is the new build), one phrase per difference; empty
    /// when the builds are the same. `resumed_across` is not compared.
    pub fn differences(&self, old: &BuildInfo) -> Vec<String> {
        let mut out = Vec::new();
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "unknown".into());
        if old.version != self.version {
            out.push(format!("version {} -> {}", old.version, self.version));
        }
        if old.git_revision != self.git_revision {
            out.push(format!(
                "git revision {} -> {}",
                show(&old.git_revision),
                show(&self.git_revision)
            ));
        }
        if old.profile != self.profile {
            out.push(format!("build profile {} -> {}", old.profile, self.profile));
        }
        if old.exe_hash != self.exe_hash {
            out.push(format!(
                "executable hash {} -> {}",
                short(&old.exe_hash),
                short(&self.exe_hash)
            ));
        }
        let names: std::collections::BTreeSet<&String> =
            old.solvers.keys().chain(self.solvers.keys()).collect();
        for name in names {
            let (a, b) = (old.solvers.get(name), self.solvers.get(name));
            let (Some(a), Some(b)) = (a, b) else {
                continue; // a solver added or removed shows as a strategy difference
            };
            let files: std::collections::BTreeSet<&String> =
                a.files.keys().chain(b.files.keys()).collect();
            for f in files {
                match (a.files.get(f), b.files.get(f)) {
                    (Some(x), Some(y)) if x == y => {}
                    (x, y) => out.push(format!(
                        "solver `{name}`: {f} {} -> {}",
                        short(&x.cloned()),
                        short(&y.cloned())
                    )),
                }
            }
        }
        out
    }
}

fn short(h: &Option<String>) -> String {
    match h {
        Some(h) => h.chars().take(12).collect(),
        None => "none".into(),
    }
}

/// The hash of the running executable's bytes, computed once per process.
pub fn exe_hash() -> Option<String> {
    static HASH: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    HASH.get_or_init(|| file_hash(Path::new("/proc/self/exe")))
        .clone()
}

/// The stable hash of a file's bytes, 16 hex digits; None when it cannot be read.
pub fn file_hash(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).ok()?;
    let mut h = crate::hash::StableHasher::default();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => h.write_bytes(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(format!("{:016x}", h.finish()))
}

/// The git revision compiled in by `build.rs`, if any.
pub fn git_revision() -> Option<String> {
    let rev = env!("PUZZLEBENCH_GIT_REV");
    (!rev.is_empty()).then(|| rev.to_string())
}

/// Current UTC time as ISO 8601 (`2026-11-29T15:03:00Z`).
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Format seconds since the Unix epoch as ISO 8601 UTC.
pub fn format_utc(secs: u64) -> String {
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil-from-days (Howard Hinnant's algorithm): proleptic Gregorian calendar.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_that_share_a_meta_are_found() {
        assert_eq!(
            sharing_meta(Path::new("r/coll")),
            [PathBuf::from("r/coll.csv"), PathBuf::from("r/coll.CSV")]
        );
        assert_eq!(
            sharing_meta(Path::new("r/coll.csv")),
            [PathBuf::from("r/coll"), PathBuf::from("r/coll.CSV")]
        );
        assert_eq!(
            sharing_meta(Path::new("x.out")),
            [PathBuf::from("x.out.csv"), PathBuf::from("x.out.CSV")]
        );
    }

    #[test]
    fn meta_path_replaces_csv_or_appends() {
        assert_eq!(
            meta_path(Path::new("results/x.csv")),
            PathBuf::from("results/x.meta.json")
        );
        assert_eq!(
            meta_path(Path::new("results/x.out")),
            PathBuf::from("results/x.out.meta.json")
        );
        assert_eq!(meta_path(Path::new("x")), PathBuf::from("x.meta.json"));
    }

    #[test]
    fn reads_partial_meta_and_keeps_unknown_fields() {
        let m: RunMeta = serde_json::from_str(
            r#"{"tool":"bench-run","timeout_s":null,"shard":{"index":2,"count":3},
                "jobs_total":30,"plan_hash":"abc","future_field":[1,2]}"#,
        )
        .expect("valid meta");
        assert_eq!(m.tool, "bench-run");
        assert_eq!(m.timeout_s, None);
        assert_eq!(m.shard, Some(Shard { index: 2, count: 3 }));
        assert_eq!(m.jobs_total, Some(30));
        assert_eq!(
            m.extra.get("future_field"),
            Some(&serde_json::json!([1, 2]))
        );
        assert!(m.shard.is_some_and(|s| s.contains(4) && !s.contains(3)));
    }
    #[test]
    fn host_state_and_build_are_recorded_and_optional() {
        let m: RunMeta = serde_json::from_str(r#"{"tool":"x"}"#).expect("old meta");
        assert_eq!((m.host_state, m.build), (None, None));
        let probe = HostProbe::start();
        // Some CPU of our own, so that run_cpu_s has something to see.
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        assert_ne!(x, 1);
        let h = probe.finish();
        assert!(h.load1_start.is_some() && h.load1_end.is_some(), "{h:?}");
        assert!(h.wall_s.is_some_and(|w| w > 0.0), "{h:?}");
        let (busy, own, others) = (
            h.host_busy_cpu_s.expect("busy"),
            h.run_cpu_s.expect("own"),
            h.others_cpu_s.expect("others"),
        );
        assert!(
            others >= 0.0 && (others - (busy - own).max(0.0)).abs() < 1e-9,
            "{h:?}"
        );
        let json = serde_json::to_string(&h).expect("json");
        for key in [
            "load1_start",
            "load1_end",
            "wall_s",
            "run_cpu_s",
            "host_busy_cpu_s",
            "others_cpu_s",
        ] {
            assert!(json.contains(&format!("\"{key}\"")), "{json}");
        }
    }

    #[test]
    fn proc_stat_busy_counts_busy_and_steal_not_idle() {
        // user nice system idle iowait irq softirq steal
        let text = "cpu  100 10 50 9999 500 5 5 30 0 0\ncpu0 1 2 3 4\n";
        // SAFETY: sysconf has no memory effects.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
        let busy = parse_busy(text).expect("cpu line");
        assert!((busy - 200.0 / hz).abs() < 1e-9, "{busy}");
        assert_eq!(parse_busy("intr 5\n"), None);
    }

    #[test]
    fn builds_name_what_differs() {
        let a = BuildInfo::current();
        assert!(a.exe_hash.as_ref().is_some_and(|h| h.len() == 16), "{a:?}");
        assert!(a.differences(&a).is_empty());
        let mut b = a.clone();
        b.git_revision = Some("feedbeef".into());
        b.solvers.insert(
            "py".into(),
            SolverBuild {
                manifest_hash: Some("m".into()),
                files: [("/x/solver.py".to_string(), "1111".to_string())].into(),
            },
        );
        let mut c = b.clone();
        c.exe_hash = Some("0000000000000000".into());
        if let Some(s) = c.solvers.get_mut("py") {
            s.files.insert("/x/solver.py".into(), "2222".into());
        }
        let d = c.differences(&b).join("; ");
        assert!(
            d.contains("executable hash") && d.contains("solver `py`: /x/solver.py 1111 -> 2222"),
            "{d}"
        );
        assert!(b.differences(&a).join(";").contains("git revision"));
    }

    #[test]
    fn utc_formatting() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_795_964_580), "2026-11-29T15:03:00Z");
    }

    #[test]
    fn run_status_spellings_are_the_files_own() {
        for (s, text) in [
            (RunStatus::Running, "\"running\""),
            (RunStatus::Complete, "\"complete\""),
            (RunStatus::Interrupted, "\"interrupted\""),
            (RunStatus::Failed, "\"failed\""),
            (RunStatus::DatasetChanged, "\"dataset-changed\""),
        ] {
            assert_eq!(serde_json::to_string(&s).expect("json"), text);
            assert_eq!(serde_json::from_str::<RunStatus>(text).expect("parse"), s);
        }
    }
}
