//! The whole public Hitori corpus (3,150 puzzles, 5x5 to 25x25): every puzzle solved with
//! `mrv` + `full`, the answer equal to the given mask and accepted by the verifier, and
//! uniqueness proved by counting up to 2. `#[ignore]`d: `.ci/run` runs it where the shared
//! corpora are present.
//!
//! Run: `cargo test --release --test it hitori_corpus -- --ignored`.

use std::path::PathBuf;
use std::time::Instant;

use puzzlebench::hitori::{parse_singles, solve, verify, Rules, SearchConfig, SearchEnd, Strategy};

fn corpus_path() -> Option<PathBuf> {
    puzzlebench::corpus::shared_corpus("hitori/tud-singles-5to25.tsv")
}

#[test]
#[ignore = "needs the shared Hitori corpus hitori/tud-singles-5to25.tsv (PUZZLEBENCH_SHARED)"]
fn whole_corpus_solved_equal_to_given_verified_and_unique() {
    let Some(path) = corpus_path() else {
        crate::common::needs("the shared Hitori corpus hitori/tud-singles-5to25.tsv");
    };
    let text = std::fs::read_to_string(&path).expect("corpus readable");
    let puzzles = parse_singles(&text).expect("corpus parses");
    assert_eq!(puzzles.len(), 3150);
    let start = Instant::now();
    for p in &puzzles {
        let cfg = SearchConfig {
            strategy: Strategy::Mrv,
            rules: Rules::Full,
            max_solutions: 1,
            node_limit: None,
        };
        let res = solve(&p.puzzle, &cfg, &mut || false);
        assert_eq!(res.end, SearchEnd::Complete, "line {}", p.line);
        let sol = res
            .first
            .unwrap_or_else(|| panic!("line {}: no solution found", p.line));
        assert_eq!(
            Some(&sol),
            p.solution.as_ref(),
            "line {}: differs from the given mask",
            p.line
        );
        assert_eq!(verify(&p.puzzle, &sol), Ok(()), "line {}", p.line);
        let count = solve(
            &p.puzzle,
            &SearchConfig {
                max_solutions: 2,
                ..cfg
            },
            &mut || false,
        );
        assert_eq!(
            (count.end, count.solutions),
            (SearchEnd::Complete, 1),
            "line {}: not proved unique",
            p.line
        );
    }
    eprintln!(
        "{} corpus puzzles solved, verified and proved unique in {:.2} s",
        puzzles.len(),
        start.elapsed().as_secs_f64()
    );
}
