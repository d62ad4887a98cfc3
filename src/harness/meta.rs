//! The `.meta.json` sidecar: how a result file was made (command, version, git revision,
//! machine, times) and the plan it belongs to, so `--resume` and `bench-report merge` can
//! refuse files from another plan and say what differs.

use super::plan::Shard;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Run metadata. Unknown fields are ignored when reading, missing ones default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunMeta {
    /// Always `puzzlebench`.
    pub tool: String,
    /// Crate version.
    pub version: String,
    /// Git revision the binary was built from (`-dirty` with local changes), if known.
    pub git_revision: Option<String>,
    /// The command line, one argument per element.
    pub command_line: Vec<String>,
    /// The `--dataset` path.
    pub dataset: String,
    /// The dataset's name (`dataset` column).
    pub dataset_name: String,
    /// Fingerprint of the dataset's puzzles and ids.
    pub dataset_hash: String,
    /// Puzzles in the dataset.
    pub puzzles: u64,
    /// Strategies in run order.
    pub strategies: Vec<String>,
    /// Each strategy as `name [rules] params`, the form `--resume` compares.
    pub solvers: Vec<String>,
    /// Base seed.
    pub seed: u64,
    /// Seeds per puzzle.
    pub seeds: u32,
    /// Colonies per (puzzle, seed) for randomised strategies.
    pub colonies: u32,
    /// Per-job time budget in seconds.
    pub timeout_s: Option<f64>,
    /// Per-job node budget.
    pub node_limit: Option<u64>,
    /// Worker threads.
    pub threads: usize,
    /// The slice of the plan this file holds.
    pub shard: Shard,
    /// Jobs in the whole plan.
    pub jobs_total: u64,
    /// Jobs in this shard.
    pub jobs_in_shard: u64,
    /// Fingerprint of everything that determines the rows.
    pub plan_hash: String,
    /// Optional columns present.
    pub columns: super::record::Columns,
    /// Start time, UTC, ISO 8601.
    pub started: String,
    /// End time, UTC, ISO 8601, once ended.
    pub finished: Option<String>,
    /// `running`, `complete` or `interrupted`.
    pub status: String,
    /// Jobs finished so far.
    pub jobs_done: u64,
    /// Rows per status once ended.
    pub status_counts: std::collections::BTreeMap<String, u64>,
    /// Machine description.
    pub machine: Machine,
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

/// The sidecar path of a result file: `x.csv` -> `x.meta.json`; other names get `.meta.json` appended.
pub fn meta_path(csv: &Path) -> PathBuf {
    match csv.extension() {
        Some(e) if e == "csv" => csv.with_extension("meta.json"),
        _ => {
            let mut s = csv.as_os_str().to_owned();
            s.push(".meta.json");
            PathBuf::from(s)
        }
    }
}

/// Read a sidecar.
pub fn read(path: &Path) -> Result<RunMeta, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a run metadata file: {e}", path.display()))
}

/// Write a sidecar atomically (temporary file, then rename).
pub fn write(path: &Path, meta: &RunMeta) -> std::io::Result<()> {
    let json = serde_json::to_string_pretty(meta).map_err(std::io::Error::other)?;
    super::output::write_atomically(path, json.as_bytes())
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
    fn utc_formatting() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_utc(1_795_964_580), "2026-11-29T15:03:00Z");
    }

    #[test]
    fn sidecar_names() {
        assert_eq!(meta_path(Path::new("r/x.csv")), PathBuf::from("r/x.meta.json"));
        assert_eq!(meta_path(Path::new("r/x.out")), PathBuf::from("r/x.out.meta.json"));
    }
}
