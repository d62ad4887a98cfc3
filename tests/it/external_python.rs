//! The Python reference solvers of examples/external/ through the external worker, in both
//! modes, with every answer checked by puzzlebench's own verifiers. Skipped (with a message)
//! where `python3` is absent.

use std::path::PathBuf;
use std::process::Command;

use puzzlebench::dataset::{load_file, Puzzle, PuzzleData};
use puzzlebench::external::{load_solvers, ExternalSolver};
use puzzlebench::solver::{Answer, End, Rng, Solver, Task};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn have_python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        crate::common::needs("python3");
    }
    ok
}

fn solvers() -> Vec<ExternalSolver> {
    load_solvers(
        &root().join("examples/external/solvers.toml"),
        &["backtrack"],
    )
    .expect("the example manifest is valid")
}

fn puzzles(files: &[&str], take: usize) -> Vec<Puzzle> {
    files
        .iter()
        .flat_map(|f| {
            load_file(&root().join(f), 0)
                .expect("dataset loads")
                .into_iter()
                .take(take)
        })
        .collect()
}

/// Runs every puzzle through `solver` and verifies each answer.
fn solve_all(solver: &ExternalSolver, puzzles: &[Puzzle]) {
    let mut worker = solver.start().expect("start");
    for (job, p) in puzzles.iter().enumerate() {
        let mut rng = Rng::new(7);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut task = Task::new(p, job as u64, 99, &mut rng, &stop, None);
        let o = worker
            .solve(&mut task)
            .unwrap_or_else(|e| panic!("{} on {}: {e}", solver.name(), p.id));
        assert!(
            o.counters.nodes.is_some_and(|n| n > 0),
            "{}: nodes reported",
            p.id
        );
        assert!(o.measured.cpu_s.is_some(), "{}: cpu measured", p.id);
        match (&p.data, o.end) {
            (PuzzleData::Sudoku { puzzle, .. }, End::Found(Answer::Sudoku(s))) => {
                puzzlebench::sudoku::verify(puzzle, &s).expect("verified sudoku answer")
            }
            (PuzzleData::Hitori { puzzle, .. }, End::Found(Answer::Hitori(s))) => {
                puzzlebench::hitori::verify(puzzle, &s).expect("verified hitori answer")
            }
            (_, end) => panic!("{} on {}: {end:?}", solver.name(), p.id),
        }
    }
}

#[test]
fn example_manifest_declares_both_kinds_in_both_modes() {
    let names: Vec<String> = solvers().iter().map(|s| s.name().to_string()).collect();
    assert_eq!(
        names,
        ["py-hitori", "py-hitori-each", "py-sudoku", "py-sudoku-each"]
    );
    let s = solvers();
    assert_eq!(s[2].params().as_str(), "lang=python;search=dfs-mrv");
}

#[test]
#[ignore = "needs python3"]
fn python_sudoku_solver_in_both_modes() {
    if !have_python() {
        return;
    }
    let ps = puzzles(
        &[
            "datasets/sudoku-demo/demo.txt",
            "datasets/sudoku-easy/generated.txt",
        ],
        4,
    );
    for s in solvers()
        .iter()
        .filter(|s| s.name().starts_with("py-sudoku"))
    {
        solve_all(s, &ps);
    }
}

#[test]
#[ignore = "needs python3"]
fn python_hitori_solver_in_both_modes() {
    if !have_python() {
        return;
    }
    let ps = puzzles(
        &[
            "datasets/hitori5/demo.txt",
            "datasets/hitori5/generated.tsv",
        ],
        4,
    );
    for s in solvers()
        .iter()
        .filter(|s| s.name().starts_with("py-hitori"))
    {
        solve_all(s, &ps);
    }
}
