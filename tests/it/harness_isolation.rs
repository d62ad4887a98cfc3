//! The harness isolates failures: a panicking solver gives an `error` row and the batch goes
//! on; a wrong answer is a `wrong` row, never `solved`. The faulty solvers here are test-only
//! implementations of the `Solver` seam, not strategies of the release CLI.

use crate::common::*;
use puzzlebench::builtin::SolverSpec;
use puzzlebench::harness::{bench, BenchConfig, BenchError};
use puzzlebench::hitori::rules::Rules;
use puzzlebench::hitori::search::Strategy;
use puzzlebench::results::{Params, Status};
use puzzlebench::solver::{
    Answer, End, Outcome, PuzzleData, PuzzleKind, Solver, SolverError, Task, Worker,
};
use std::sync::atomic::AtomicBool;

/// Delegates to the real `mrv` solver, but panics on one puzzle or corrupts one answer.
struct Faulty {
    inner: SolverSpec,
    panic_on: &'static str,
    corrupt: bool,
}

impl Faulty {
    fn solve(&self, task: &mut Task<'_>) -> Result<Outcome, SolverError> {
        let mut out = self.inner.run(task)?;
        let PuzzleData::Hitori { puzzle, .. } = &task.puzzle.data else {
            return Err("not hitori".into());
        };
        if puzzle.value(0, 0) == 1 && puzzle.value(0, 1) == 1 && !self.panic_on.is_empty() {
            panic!("{}", self.panic_on);
        }
        if self.corrupt {
            // Shade every cell: breaks adjacency, so the verifier must reject it.
            let mask = "#".repeat(puzzle.width() * puzzle.height());
            let bad = puzzlebench::hitori::grid::Shading::from_mask(
                puzzle.width(),
                puzzle.height(),
                &mask,
            )
            .map_err(|e| SolverError(e.to_string()))?;
            out.end = End::Found(Answer::Hitori(bad));
        }
        Ok(out)
    }
}

impl Solver for Faulty {
    fn name(&self) -> &str {
        if self.corrupt {
            "corrupt"
        } else {
            "panicky"
        }
    }
    fn kind(&self) -> PuzzleKind {
        PuzzleKind::Hitori
    }
    fn capabilities(&self) -> puzzlebench::solver::Capabilities {
        puzzlebench::solver::Capabilities::default().with_rules("full")
    }
    fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError> {
        Ok(Box::new(|task: &mut Task<'_>| self.solve(task)))
    }
}

fn config(dir: &std::path::Path, solver: impl Solver + 'static) -> BenchConfig {
    let mut cfg = BenchConfig::new(dir.join("data"), vec![Box::new(solver)]);
    cfg.threads = 2;
    cfg.output = Some(dir.join("out.csv"));
    cfg.command_line = vec!["test".into()];
    cfg
}

fn mrv() -> SolverSpec {
    SolverSpec::Hitori {
        strategy: Strategy::Mrv,
        rules: Rules::Full,
        max_solutions: 1,
        node_limit: None,
    }
}

fn dataset(dir: &std::path::Path) {
    let d = dir.join("data");
    std::fs::create_dir(&d).unwrap();
    write(&d, "a.txt", HITORI_DEMO);
    write(&d, "b.txt", "2 1 2\n1 2 3\n3 3 1\n\n1 2\n2 1\n");
}

#[test]
fn a_panicking_solver_gives_an_error_row_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path());
    let cfg = config(
        dir.path(),
        Faulty {
            inner: mrv(),
            panic_on: "boom in the solver",
            corrupt: false,
        },
    );
    let outcome = bench(cfg, &AtomicBool::new(false)).expect("run completes");
    assert!(!outcome.interrupted);
    let r = rows(&dir.path().join("out.csv"));
    assert_eq!(r.len(), 3, "every job has a row");
    let demo = r.iter().find(|r| r.puzzle_id == "demo").unwrap();
    assert_eq!(demo.status, Some(Status::Error));
    assert!(!demo.verified);
    assert!(
        demo.message.contains("boom in the solver"),
        "{}",
        demo.message
    );
    for other in r.iter().filter(|r| r.puzzle_id != "demo") {
        assert_ne!(other.status, Some(Status::Error), "{other:?}");
    }
    assert_eq!(outcome.status_counts.get(&Status::Error), Some(&1));
}

#[test]
fn a_wrong_answer_is_a_wrong_row_not_solved() {
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path());
    let cfg = config(
        dir.path(),
        Faulty {
            inner: mrv(),
            panic_on: "",
            corrupt: true,
        },
    );
    bench(cfg, &AtomicBool::new(false)).expect("run completes");
    let r = rows(&dir.path().join("out.csv"));
    assert!(!r.is_empty());
    for row in &r {
        assert_eq!(row.status, Some(Status::Wrong), "{row:?}");
        assert!(!row.verified);
        assert!(row.message.contains("verifier"), "{}", row.message);
    }
}

/// Rewrites a dataset file during its first solve, as another process might mid-run.
struct Rewrites {
    inner: SolverSpec,
    path: std::path::PathBuf,
    text: &'static str,
    /// Put the file's modification time back, hiding the change from a metadata check.
    keep_mtime: bool,
    done: AtomicBool,
}

impl Solver for Rewrites {
    // The real `mrv` solver's identity, so a resume with it sees the same plan.
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn kind(&self) -> PuzzleKind {
        self.inner.kind()
    }
    fn capabilities(&self) -> puzzlebench::solver::Capabilities {
        self.inner.capabilities()
    }
    fn params(&self) -> Params {
        self.inner.params()
    }
    fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError> {
        Ok(Box::new(|task: &mut Task<'_>| {
            if !self.done.swap(true, std::sync::atomic::Ordering::SeqCst) {
                let io = |e: std::io::Error| SolverError(e.to_string());
                let mtime = std::fs::metadata(&self.path).and_then(|m| m.modified());
                std::fs::write(&self.path, self.text).map_err(io)?;
                if self.keep_mtime {
                    let f = std::fs::File::options().write(true).open(&self.path);
                    f.and_then(|f| f.set_modified(mtime?)).map_err(io)?;
                }
            }
            self.inner.run(task)
        }))
    }
}

/// Run `mrv` on one thread over the test dataset while its first solve swaps the two puzzles
/// of `data/b.txt` (same size); the run must fail.
fn run_rewriting(dir: &std::path::Path, keep_mtime: bool) -> BenchError {
    let mut cfg = config(
        dir,
        Rewrites {
            inner: mrv(),
            path: dir.join("data").join("b.txt"),
            text: "1 2\n2 1\n\n2 1 2\n1 2 3\n3 3 1\n",
            keep_mtime,
            done: AtomicBool::new(false),
        },
    );
    cfg.threads = 1;
    bench(cfg, &AtomicBool::new(false)).expect_err("the dataset changed")
}

#[test]
fn a_dataset_file_changed_mid_run_fails_the_run_and_keeps_its_rows_for_resume() {
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path());
    let b = dir.path().join("data").join("b.txt");
    let original = std::fs::read_to_string(&b).unwrap();
    let e = run_rewriting(dir.path(), false);
    assert!(
        e.to_string().contains(
            "b.txt: the file changed while puzzlebench was reading it (its size and modification time differ"
        ),
        "{e}"
    );
    // Issue 38: the advice was "once the cause is fixed (e.g. disk space freed)".
    assert!(
        e.to_string()
            .contains("a run cannot be resumed against other contents")
            && e.to_string().contains("put the dataset back as it was")
            && !e.to_string().contains("disk space"),
        "{e}"
    );
    let out = dir.path().join("out.csv");
    assert!(!out.exists(), "no result file passes for complete");
    let journal = dir.path().join("out.csv.partial");
    let kept = rows(&journal);
    assert_eq!(kept.len(), 1, "the job finished before the change is kept");
    assert_eq!(kept[0].puzzle_id, "demo");
    // The in-progress meta lives beside the journal; no final meta claims a result.
    assert!(!dir.path().join("out.meta.json").exists());
    let meta = std::fs::read_to_string(dir.path().join("out.csv.partial.meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"failed\""), "{meta}");
    assert!(
        meta.contains("\"jobs_done\": 1"),
        "the kept row is counted: {meta}"
    );

    // With the file restored, --resume runs the rest and the run completes.
    std::fs::write(&b, original).unwrap();
    let mut cfg = config(dir.path(), mrv());
    cfg.resume = true;
    bench(cfg, &AtomicBool::new(false)).expect("resumed run completes");
    let r = rows(&out);
    let ids: Vec<&str> = r.iter().map(|r| r.puzzle_id.as_str()).collect();
    assert_eq!(ids, ["demo", "b:1", "b:2"]);
    assert!(r.iter().all(|r| r.status == Some(Status::Solved)));
}

#[test]
fn a_change_seen_only_after_its_puzzles_were_solved_cannot_be_resumed() {
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path());
    // Same size and modification time: only the fingerprint at the end of the file tells.
    let e = run_rewriting(dir.path(), true);
    assert!(
        e.to_string().contains(
            "b.txt: the file changed while puzzlebench was reading it (its puzzles differ"
        ),
        "{e}"
    );
    assert!(e.to_string().contains("already handed out"), "{e}");
    assert!(
        e.to_string()
            .contains("this run cannot be resumed: start a new run"),
        "{e}"
    );
    assert!(!dir.path().join("out.csv").exists());
    let meta = std::fs::read_to_string(dir.path().join("out.csv.partial.meta.json")).unwrap();
    assert!(meta.contains("\"status\": \"dataset-changed\""), "{meta}");
    let mut cfg = config(dir.path(), mrv());
    cfg.resume = true;
    let e = bench(cfg, &AtomicBool::new(false)).expect_err("rows are suspect");
    assert!(
        e.to_string()
            .starts_with("cannot resume: the dataset changed under that run"),
        "{e}"
    );
}
