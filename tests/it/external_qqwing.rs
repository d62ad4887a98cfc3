//! Debian's qqwing through scripts/peers/qqwing and scripts/peers/peers.toml, answers checked
//! by puzzlebench's verifier. `#[ignore]`d: `.ci/run` runs it where qqwing and python3 are.

use std::path::{Path, PathBuf};
use std::process::Command;

use puzzlebench::dataset::{load_file, PuzzleData};
use puzzlebench::external::load_solvers;
use puzzlebench::solver::{Answer, End, Rng, Solver, Task};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn available() -> bool {
    let on_path = |p: &str| {
        std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(p).is_file()))
    };
    if !(on_path("qqwing") || Path::new("/usr/games/qqwing").is_file()) {
        crate::common::needs("qqwing (apt-get install qqwing)");
    }
    if !Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        crate::common::needs("python3 (the adapter's interpreter)");
    }
    true
}

#[test]
#[ignore = "needs qqwing and python3"]
fn qqwing_solves_verified_through_the_peers_manifest() {
    if !available() {
        return;
    }
    let solvers = load_solvers(
        &root().join("scripts/peers/peers.toml"),
        &["backtrack", "abc"],
    )
    .expect("peers.toml is valid");
    let qq = solvers
        .iter()
        .find(|s| s.name() == "qqwing")
        .expect("qqwing entry");
    let mut puzzles = load_file(&root().join("datasets/sudoku-demo/demo.txt"), 0).expect("demo");
    puzzles.extend(
        load_file(&root().join("datasets/sudoku-hard/generated.txt"), 0)
            .expect("hard")
            .into_iter()
            .take(5),
    );
    let mut worker = qq.start().expect("start");
    for (job, p) in puzzles.iter().enumerate() {
        let mut rng = Rng::new(0);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut task = Task::new(p, job as u64, 0, &mut rng, &stop, None);
        let o = worker
            .solve(&mut task)
            .unwrap_or_else(|e| panic!("{}: {e}", p.id));
        let (PuzzleData::Sudoku { puzzle, .. }, End::Found(Answer::Sudoku(s))) = (&p.data, &o.end)
        else {
            panic!("{}: {:?}", p.id, o.end)
        };
        puzzlebench::sudoku::verify(puzzle, s).expect("qqwing's answer verifies");
        assert!(
            o.counters.guesses.is_some() && o.counters.backtracks.is_some(),
            "{:?}",
            o.counters
        );
        let stats = o.measured.stats.expect("stats");
        assert!(
            stats.contains("qqwing_cpu_s=") && stats.contains("difficulty="),
            "{stats}"
        );
    }
}
