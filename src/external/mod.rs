//! External solvers: any program that speaks the line protocol of PROTOCOL.md, declared in a
//! `--solvers FILE` manifest and run as one more implementor of the solver seam.
//!
//! `manifest` reads and validates the TOML; `protocol` encodes requests and parses answers;
//! `process` owns one child process (pipes, deadlines, kill and reap); `worker` is the
//! [`ExternalSolver`] the harness runs.

pub mod limits;
pub mod manifest;
pub mod process;
pub mod protocol;
pub mod worker;

pub use manifest::{content_hash, ExternalSpec, ManifestError, Mode};
pub use process::{become_subreaper, raise_nofile_limit, sweep_orphans};
pub use worker::{ExternalSolver, GIVE_UP_AFTER};

/// Reads a manifest and wraps each entry as a solver; `builtins` are the names it may not use.
pub fn load_solvers(
    path: &std::path::Path,
    builtins: &[&str],
) -> Result<Vec<ExternalSolver>, ManifestError> {
    solvers_from_text(path, &manifest::read_text(path)?, builtins)
}

/// The solvers of a manifest already read ([`manifest::read_text`]) from `path`.
pub fn solvers_from_text(
    path: &std::path::Path,
    text: &str,
    builtins: &[&str],
) -> Result<Vec<ExternalSolver>, ManifestError> {
    Ok(manifest::parse(path, text, builtins)?
        .into_iter()
        .map(ExternalSolver::new)
        .collect())
}

/// Provenance of a manifest entry: the hash of every `command` element that is an existing
/// file (`["python3", "solver.py"]` hashes the interpreter and the script), by path. A
/// relative argument is taken where the solver runs (its `workdir`, else the current
/// directory), as the program itself will open it.
pub fn command_files(spec: &ExternalSpec) -> std::collections::BTreeMap<String, String> {
    let base = spec
        .workdir
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("."));
    let mut out = std::collections::BTreeMap::new();
    let candidates =
        std::iter::once(spec.program.clone()).chain(spec.args.iter().map(|a| base.join(a)));
    for path in candidates {
        if !path.is_file() {
            continue;
        }
        let shown = path.canonicalize().unwrap_or(path);
        if let Some(h) = crate::results::meta::file_hash(&shown) {
            out.insert(shown.display().to_string(), h);
        }
    }
    out
}
