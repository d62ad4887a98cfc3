//! The `*.meta.json` sidecar that `bench-run` writes beside each results CSV, as reports read it.
//!
//! Reports treat every field as optional (`#[serde(default)]`) and keep fields they do not know
//! in [`RunMeta::extra`], so a newer `bench-run` can add fields without breaking older reports,
//! and `merge` passes them through.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub use crate::harness::plan::Shard;

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
    /// Optional columns present in the results.
    pub columns: Option<crate::harness::record::Columns>,
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
        assert!(m.shard.is_some_and(|s| s.contains(4) && !s.contains(3)));
    }
}
