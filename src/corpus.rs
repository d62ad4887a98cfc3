//! Where the public corpora are: the one place tests, benches and examples look for
//! `../shared/corpora/` (the repository's neighbour on CI), or `$PUZZLEBENCH_SHARED/corpora/`
//! when that is set. Callers skip, with the message this prints, where a corpus is absent.

use std::path::PathBuf;

/// The path of `rel` (e.g. `sudoku/puzzles3_magictour_top1465.txt`) under the shared corpora:
/// `$PUZZLEBENCH_SHARED/corpora/rel` when the variable is set, else `shared/corpora/rel` beside
/// the repository, else two levels up (a git worktree kept in a folder beside it). `None`, with
/// a `SKIP:` line on stderr, when none exists.
pub fn shared_corpus(rel: &str) -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("PUZZLEBENCH_SHARED") {
        candidates.push(PathBuf::from(dir).join("corpora").join(rel));
    }
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    candidates.push(repo.join("../shared/corpora").join(rel));
    candidates.push(repo.join("../../shared/corpora").join(rel));
    let found = candidates.iter().find(|p| p.is_file()).cloned();
    if found.is_none() {
        eprintln!(
            "SKIP: corpus {rel} not found (looked in {}); set PUZZLEBENCH_SHARED or put shared/ beside the repository",
            candidates
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    found
}

/// The text of a shared corpus file (see [`shared_corpus`]); `None` when absent or unreadable.
pub fn shared_corpus_text(rel: &str) -> Option<String> {
    let path = shared_corpus(rel)?;
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) => {
            eprintln!("SKIP: {}: cannot read: {e}", path.display());
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absent_corpus_is_none() {
        assert_eq!(shared_corpus("no/such/file.txt"), None);
    }
}
