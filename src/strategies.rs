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

/// Most configurations one sweep may make (the cross product of its value lists).
pub const MAX_SWEEP: usize = 10_000;

/// A sweep: [`resolve_with_manifest`] once per options value of `grid` (the cross product of
/// the swept option lists, built by the caller), each distinct configuration (name, rules,
/// params) kept once: a strategy that ignores a swept option (an external solver, `abc-prop`
/// with `--limit`, Sudoku with `--rules`) appears once, not once per value. Ordered strategy
/// by strategy as `list` names them, then in `grid` order. One value list is a sweep of one.
pub fn resolve_sweep(
    list: &str,
    grid: &[SolverOptions],
    manifest: Option<(&Path, &str)>,
) -> Result<Vec<Box<dyn Solver>>, StrategyError> {
    if grid.is_empty() {
        return Err(StrategyError::Invalid("a sweep with no values".into()));
    }
    if grid.len() > MAX_SWEEP {
        return Err(StrategyError::Invalid(format!(
            "a sweep of {} configurations; at most {MAX_SWEEP} (use fewer values per option)",
            grid.len()
        )));
    }
    let mut all: Vec<(usize, usize, Box<dyn Solver>)> = Vec::new();
    for (g, opts) in grid.iter().enumerate() {
        for (k, s) in resolve_with_manifest(list, opts, manifest)?
            .into_iter()
            .enumerate()
        {
            all.push((k, g, s));
        }
    }
    all.sort_by_key(|&(k, g, _)| (k, g));
    let mut seen = std::collections::HashSet::new();
    Ok(all
        .into_iter()
        .filter(|(_, _, s)| {
            seen.insert((
                s.name().to_string(),
                s.capabilities().rules,
                s.params().as_str().to_string(),
            ))
        })
        .map(|(_, _, s)| s)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_keeps_each_distinct_configuration_once_strategy_by_strategy() {
        use crate::sudoku::abc::Neighbourhood;
        let point = |colony_size, neighbourhood| {
            let mut o = SolverOptions::default();
            o.abc.colony_size = colony_size;
            o.abc.neighbourhood = neighbourhood;
            o
        };
        let grid = [
            point(20, Neighbourhood::Box),
            point(20, Neighbourhood::CrossBox),
            point(50, Neighbourhood::Box),
            point(50, Neighbourhood::CrossBox),
        ];
        let s = resolve_sweep("abc,backtrack", &grid, None).expect("known");
        let got: Vec<String> = s
            .iter()
            .map(|s| format!("{} {}", s.name(), s.params().as_str()))
            .collect();
        // abc: all four, in grid order; backtrack, which takes none of them, once.
        assert_eq!(got.len(), 5, "{got:?}");
        assert!(got[..4].iter().all(|g| g.starts_with("abc ")), "{got:?}");
        assert!(got[4].starts_with("backtrack"), "{got:?}");
        assert!(
            got[1].contains("colony_size=20") && got[1].contains("neighbourhood=cross-box"),
            "{got:?}"
        );
        // An option a strategy refuses alone is refused in a sweep too.
        let e = resolve_sweep("abc,abc-prop", &grid, None)
            .err()
            .map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("--neighbourhood applies to abc and abc-hybrid")));
        assert!(resolve_sweep("abc", &[], None).is_err());
        let big = vec![SolverOptions::default(); MAX_SWEEP + 1];
        let e = resolve_sweep("abc", &big, None)
            .err()
            .map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("at most 10000")));
    }

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
