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
    pub status_counts: std::collections::BTreeMap<String, u64>,
    /// Machine description (free-form object).
    pub machine: serde_json::Value,
    /// Fields this version does not know, kept so that `merge` passes them on.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
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
