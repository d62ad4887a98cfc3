//! `--strategy` names to solvers: each name is a built-in strategy ([`crate::builtin`]) or an
//! entry of the `--solvers` manifest ([`crate::external`]). Strategy names stay strings known
//! at run time, so a manifest adds names without a new build.

use crate::builtin::{parse_strategies, SolverOptions, STRATEGY_NAMES};
use crate::external::{manifest, solvers_from_text, ExternalSolver, ManifestError};
use crate::solver::Solver;
use std::path::Path;

/// Why a strategy list cannot be resolved.
#[derive(Debug, thiserror::Error)]
pub enum StrategyError {
    /// The manifest is unreadable or invalid.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// A name is empty, repeated or unknown, or a built-in's options are impossible.
    #[error("{0}")]
    Invalid(String),
}

/// Resolve a comma-separated list, in order. `manifest` is the `--solvers` file, if any; its
/// entries may not reuse a built-in name.
pub fn resolve(
    list: &str,
    opts: &SolverOptions,
    manifest: Option<&Path>,
) -> Result<Vec<Box<dyn Solver>>, StrategyError> {
    match manifest {
        Some(p) => resolve_with_manifest(list, opts, Some((p, &manifest::read_text(p)?))),
        None => resolve_with_manifest(list, opts, None),
    }
}

/// [`resolve`] with the manifest's text already read (by [`manifest::read_text`]), so that a
/// caller that also hashes it reads the file once.
pub fn resolve_with_manifest(
    list: &str,
    opts: &SolverOptions,
    manifest: Option<(&Path, &str)>,
) -> Result<Vec<Box<dyn Solver>>, StrategyError> {
    let builtins: Vec<&str> = STRATEGY_NAMES.iter().map(|(n, _, _)| *n).collect();
    let mut externals: Vec<Option<ExternalSolver>> = match manifest {
        Some((p, text)) => solvers_from_text(p, text, &builtins)?
            .into_iter()
            .map(Some)
            .collect(),
        None => Vec::new(),
    };
    let mut out: Vec<Box<dyn Solver>> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for raw in list.split(',') {
        let name = raw.trim();
        if name.is_empty() {
            return Err(StrategyError::Invalid(format!(
                "empty strategy name in {list:?}; expected a comma-separated list such as mrv,row"
            )));
        }
        if seen.contains(&name) {
            return Err(StrategyError::Invalid(format!(
                "strategy {name:?} is listed twice in {list:?}"
            )));
        }
        seen.push(name);
        if builtins.contains(&name) {
            let spec = parse_strategies(name, opts)
                .map_err(StrategyError::Invalid)?
                .pop()
                .ok_or_else(|| StrategyError::Invalid(format!("strategy {name:?}")))?;
            out.push(Box::new(spec));
            continue;
        }
        let found = externals
            .iter_mut()
            .find(|e| e.as_ref().is_some_and(|e| e.name() == name))
            .and_then(Option::take);
        match found {
            Some(e) => out.push(Box::new(e.with_run_memory_limit(opts.memory_limit))),
            None => {
                let mut known: Vec<String> = builtins.iter().map(|s| s.to_string()).collect();
                known.extend(externals.iter().flatten().map(|e| e.name().to_string()));
                let hint = if manifest.is_none() {
                    " (an external solver needs --solvers FILE)"
                } else {
                    ""
                };
                return Err(StrategyError::Invalid(format!(
                    "unknown strategy {name:?}; expected one of {}{hint}",
                    known.join(", ")
                )));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_names_resolve_in_order_and_unknown_ones_are_refused() {
        let s = resolve("backtrack,mrv", &SolverOptions::default(), None).expect("known");
        let names: Vec<&str> = s.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["backtrack", "mrv"]);
        let e = resolve("qqwing", &SolverOptions::default(), None)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains("unknown strategy \"qqwing\"") && e.contains("--solvers"),
            "{e}"
        );
        assert!(resolve("mrv,mrv", &SolverOptions::default(), None).is_err());
        assert!(resolve("mrv,", &SolverOptions::default(), None).is_err());
    }
}
