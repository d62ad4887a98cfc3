//! The backtracking baseline against the public tdoku corpora in `sudoku/` of the shared corpora
//! (`$PUZZLEBENCH_SHARED/corpora`, see `puzzlebench::corpus`):
//! every answer checked by the independent verifier, and multi-solution puzzles recognised.
//! `#[ignore]`d: `.ci/run` runs them where the shared corpora are present.

use puzzlebench::sudoku::backtrack::{self, BacktrackEnd};
use puzzlebench::sudoku::parse::parse_lines;
use puzzlebench::sudoku::verify::verify;

/// Text of a corpus file under `sudoku/`, or None with a message when absent.
fn corpus(file: &str) -> Option<String> {
    puzzlebench::corpus::shared_corpus_text(&format!("sudoku/{file}"))
}

/// Solves the first `limit` puzzles of `file` with a uniqueness check; each must have exactly
/// one solution, which the verifier accepts.
fn solves_uniquely(file: &str, limit: usize) {
    let Some(text) = corpus(file) else {
        crate::common::needs(&format!("the shared Sudoku corpus sudoku/{file}"));
    };
    let puzzles = parse_lines(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut n = 0;
    for p in puzzles.iter().take(limit) {
        let r = backtrack::solve(&p.puzzle, 2, None, &mut || false);
        assert_eq!(r.end, BacktrackEnd::Complete, "{file}:{}", p.line);
        assert_eq!(r.solutions, 1, "{file}:{} {}", p.line, p.puzzle.to_line());
        let s = r.first.expect("a solution");
        assert_eq!(verify(&p.puzzle, &s), Ok(()), "{file}:{}", p.line);
        n += 1;
    }
    assert_eq!(n, puzzles.len().min(limit));
}

#[test]
#[ignore = "needs the shared Sudoku corpora (PUZZLEBENCH_SHARED)"]
fn all_17_clue_prefix() {
    solves_uniquely("puzzles2_17_clue.txt", 5_000);
}

#[test]
#[ignore = "needs the shared Sudoku corpora (PUZZLEBENCH_SHARED)"]
fn all_top1465() {
    solves_uniquely("puzzles3_magictour_top1465.txt", usize::MAX);
}

#[test]
#[ignore = "needs the shared Sudoku corpora (PUZZLEBENCH_SHARED)"]
fn forum_hardest_1905_prefix() {
    solves_uniquely("puzzles5_forum_hardest_1905_11+.txt", 5_000);
}

#[test]
#[ignore = "needs the shared Sudoku corpora (PUZZLEBENCH_SHARED)"]
fn all_forum_hardest_1106() {
    solves_uniquely("puzzles6_forum_hardest_1106.txt", usize::MAX);
}

#[test]
#[ignore = "needs the shared Sudoku corpora (PUZZLEBENCH_SHARED)"]
fn serg_benchmark_puzzles_have_several_solutions() {
    let file = "puzzles7_serg_benchmark.txt";
    let Some(text) = corpus(file) else {
        crate::common::needs(&format!("the shared Sudoku corpus sudoku/{file}"));
    };
    let puzzles = parse_lines(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(puzzles.len(), 10_000);
    for p in &puzzles {
        let r = backtrack::solve(&p.puzzle, 2, None, &mut || false);
        assert_eq!(r.solutions, 2, "{file}:{} {}", p.line, p.puzzle.to_line());
        assert_eq!(r.end, BacktrackEnd::Complete);
        let s = r.first.expect("a solution");
        assert_eq!(verify(&p.puzzle, &s), Ok(()), "{file}:{}", p.line);
    }
}
