//! The `*.meta.json` sidecar that `bench-run` writes beside each results CSV, as reports read it.
//!
//! Reports treat every field as optional (`#[serde(default)]`) and keep fields they do not know
//! in [`RunMeta::extra`], so a newer `bench-run` can add fields without breaking older reports,
//! and `merge` passes them through.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Which part of a plan a file holds: jobs `j` with `j % count == index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based shard number.
    pub index: u64,
    /// Number of shards the plan was split into.
    pub count: u64,
}

impl Shard {
    /// Whether job `job` belongs to this shard.
    pub fn holds(self, job: u64) -> bool {
        self.count > 0 && job % self.count == self.index.wrapping_sub(1)
    }
}

/// Run metadata. Every field may be missing in a file; missing means "unknown".
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunMeta {
    /// Tool that wrote the run (`bench-run`).
    pub tool: String,
    /// Tool version.
    pub version: String,
    /// Git revision of the solver code, where known.
    pub git_revision: Option<String>,
    /// The command line, one argument per element.
    pub command_line: Vec<String>,
    /// Dataset name or path.
    pub dataset: String,
    /// Strategies run.
    pub strategies: Vec<String>,
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
    /// `complete`, `interrupted` or `running`.
    pub status: Option<String>,
    /// Machine description (free-form object).
    pub machine: serde_json::Value,
    /// Fields this version does not know, kept so that `merge` passes them on.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(m.shard.is_some_and(|s| s.holds(4) && !s.holds(3)));
    }
}
