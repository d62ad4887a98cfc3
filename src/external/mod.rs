//! External solvers: any program that speaks the line protocol of PROTOCOL.md, declared in a
//! `--solvers FILE` manifest and run as one more implementor of the solver seam.
//!
//! `manifest` reads and validates the TOML; `protocol` encodes requests and parses answers;
//! `process` owns one child process (pipes, deadlines, kill and reap); `worker` is the
//! [`ExternalSolver`] the harness runs.

pub mod manifest;
pub mod process;
pub mod protocol;
pub mod worker;

pub use manifest::{content_hash, ExternalSpec, ManifestError, Mode};
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
