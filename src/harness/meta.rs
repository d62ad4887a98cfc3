//! Writing the `.meta.json` sidecar: how a result file was made (command, version, git
//! revision, machine, times) and the plan it belongs to, so `--resume` and
//! `bench-report merge` can refuse files from another plan and say what differs. The type is
//! [`crate::report::meta::RunMeta`], shared with the readers.

pub use crate::report::meta::{meta_path, RunMeta};
use serde::{Deserialize, Serialize};
use std::path::Path;

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

/// Read a sidecar.
pub fn read(path: &Path) -> Result<RunMeta, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a run metadata file: {e}", path.display()))
}

/// Write a sidecar atomically (temporary file, then rename).
pub fn write(path: &Path, meta: &RunMeta) -> std::io::Result<()> {
    let json = serde_json::to_string_pretty(meta).map_err(std::io::Error::other)?;
    crate::report::io::write_atomic(path, json.as_bytes(), true).map_err(std::io::Error::other)
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
}
