//! Helpers shared by the CLI tests.
#![allow(dead_code)]

use assert_cmd::Command;
use puzzlebench::results::Record;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The article's demo Hitori puzzle as a grid block with a name.
pub const HITORI_DEMO: &str =
    "# name: demo\n1 1 3 1 2\n4 4 2 5 1\n3 5 1 2 3\n2 2 4 4 5\n2 2 5 1 4\n";
/// The article's shading of the demo puzzle, row-major.
pub const HITORI_DEMO_MASK: &str = "#..#..#.......#.#.#.#....";
/// The Sudoku article's demo puzzle.
pub const SUDOKU_DEMO: &str =
    "000260701680070090190004500820100040004602900050003028009300074040050036703018000";

/// `bench-run` with no progress bar.
pub fn bench_run() -> Command {
    let mut c = Command::cargo_bin("bench-run").expect("bench-run is built");
    c.arg("--quiet");
    c
}

/// Write `text` to `dir/name` and return the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write fixture");
    p
}

/// Rows of a result file.
pub fn rows(path: &Path) -> Vec<Record> {
    puzzlebench::results::read::read_results(path)
        .expect("readable results")
        .rows
}

/// Rows with timing cleared, for determinism comparisons.
pub fn untimed(path: &Path) -> Vec<Record> {
    rows(path).iter().map(Record::without_timing).collect()
}

/// The repository's bundled datasets.
pub fn datasets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets")
}

/// A public corpus file under the shared corpora, or `None` (with a message) where absent.
pub fn corpus(rel: &str) -> Option<PathBuf> {
    puzzlebench::corpus::shared_corpus(rel)
}

/// Fails an `#[ignore = "needs …"]` test run without what it needs: a test that cannot run
/// is never an `ok` (`.ci/run` runs these where the tool or corpus is present).
pub fn needs(what: &str) -> ! {
    panic!("this test needs {what}, which is absent here (run it where it is present)")
}

/// Four Sudoku lines (the demo, then well-known easy grids).
pub fn sudoku_lines() -> String {
    let mut s = String::new();
    for l in [
        SUDOKU_DEMO,
        "530070000600195000098000060800060003400803001700020006060000280000419005000080079",
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
        "200080300060070084030500209000105408000000000402706000301007040720040060004010003",
    ] {
        s.push_str(l);
        s.push('\n');
    }
    s
}

/// Send SIGINT to a running `bench-run` once its journal holds `rows` lines, and collect its
/// output. Fails if the run ends first or writes nothing within 60 s.
#[cfg(unix)]
pub fn interrupt_after(
    mut child: std::process::Child,
    journal: &Path,
    rows: usize,
) -> std::process::Output {
    let start = Instant::now();
    while std::fs::read_to_string(journal).map_or(0, |t| t.lines().count()) < rows {
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the run finished before it could be interrupted"
        );
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no rows after 60 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = child.id().to_string();
    assert!(std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("kill runs")
        .success());
    child.wait_with_output().expect("output")
}

/// Data rows (lines after the header) of a file; 0 while it does not exist.
pub fn data_rows(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

/// Wait until the journal holds `n` rows while the run is still going.
pub fn wait_for_rows(child: &mut std::process::Child, journal: &Path, n: usize) {
    let start = Instant::now();
    while data_rows(journal) < n {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run finished before it could be interrupted"
        );
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no rows after 120 s"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}
