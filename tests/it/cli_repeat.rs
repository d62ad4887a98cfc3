//! `bench-run --repeat R`: repeated solves timed for a median `wall_s`, refused where a
//! repeat would not be the same solve, and the executor's rows independent of --threads.

use crate::common::*;
use std::path::Path;

/// A Sudoku file of the demo puzzle and a few variants with one given removed.
fn sudoku_file(dir: &Path) -> std::path::PathBuf {
    let mut text = String::new();
    for i in 0..12 {
        let mut p: Vec<u8> = SUDOKU_DEMO.bytes().collect();
        if let Some(c) = p
            .iter()
            .enumerate()
            .filter(|(_, b)| **b != b'0')
            .map(|(i, _)| i)
            .nth(i)
        {
            p[c] = b'0';
        }
        text.push_str(std::str::from_utf8(&p).expect("ascii"));
        text.push('\n');
    }
    write(dir, "s.txt", &text)
}

#[test]
fn repeat_adds_a_repeats_column_and_leaves_every_other_cell_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let data = sudoku_file(dir.path());
    let once = dir.path().join("once.csv");
    let nine = dir.path().join("nine.csv");
    for (out, repeat) in [(&once, "1"), (&nine, "9")] {
        bench_run()
            .args([
                "--strategy",
                "backtrack",
                "--seeds",
                "2",
                "--repeat",
                repeat,
            ])
            .arg("--dataset")
            .arg(&data)
            .arg("--output")
            .arg(out)
            .assert()
            .success();
    }
    let header = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert!(
        !header(&once).contains("repeats"),
        "R = 1 writes no repeats column"
    );
    assert!(
        header(&nine).contains(",wall_s,repeats,"),
        "{}",
        header(&nine)
    );
    let r = rows(&nine);
    assert_eq!(r.len(), 24);
    assert!(r.iter().all(|r| r.repeats == Some(9)));
    // Counters, statuses and everything else but the timing are those of a single solve.
    assert_eq!(untimed(&once), untimed(&nine));
    let meta = std::fs::read_to_string(dir.path().join("nine.meta.json")).unwrap();
    assert!(meta.contains("\"repeat\": 9"), "{meta}");
}

/// Run `args` over the Sudoku file and expect exit 2 with `message`, and nothing written.
fn refused(args: &[&str], message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let data = sudoku_file(dir.path());
    let solver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/fault.sh");
    let m = write(
        dir.path(),
        "m.toml",
        &format!(
            "[solver.ext]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"batch\"\n",
            solver.display()
        ),
    );
    bench_run()
        .args(args)
        .arg("--solvers")
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(dir.path().join("r.csv"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(message));
    assert!(!dir.path().join("r.csv").exists());
    assert!(
        !dir.path().join("r.csv.partial").exists(),
        "nothing was run"
    );
}

#[test]
fn repeat_is_refused_for_a_randomised_strategy_naming_it() {
    refused(
        &["--strategy", "backtrack,abc", "--repeat", "3"],
        "--repeat 3: applies to deterministic built-in strategies only, not to abc (randomised",
    );
}

#[test]
fn repeat_is_refused_for_an_external_solver_naming_it() {
    refused(
        &["--strategy", "ext", "--repeat", "2"],
        "not to ext (does not support repeated solves)",
    );
}

#[test]
fn rows_do_not_depend_on_threads_or_shards_with_the_batched_executor() {
    let dir = tempfile::tempdir().unwrap();
    let data = sudoku_file(dir.path());
    let hitori = write(dir.path(), "h.txt", HITORI_DEMO);
    let run = |name: &str, args: &[&str], data: &Path| {
        let out = dir.path().join(name);
        bench_run()
            .args(args)
            .arg("--dataset")
            .arg(data)
            .arg("--output")
            .arg(&out)
            .assert()
            .success();
        out
    };
    // Enough jobs that chunks grow past one job and batches interleave between threads.
    let args = ["--strategy", "backtrack", "--seeds", "300"];
    let one = run("t1.csv", &[&args[..], &["--threads", "1"]].concat(), &data);
    let two = run("t2.csv", &[&args[..], &["--threads", "2"]].concat(), &data);
    let four = run("t4.csv", &[&args[..], &["--threads", "4"]].concat(), &data);
    let want = untimed(&one);
    assert_eq!(want.len(), 3600);
    assert!(
        want.windows(2).all(|w| w[0].job + 1 == w[1].job),
        "plan order"
    );
    assert_eq!(untimed(&two), want);
    assert_eq!(untimed(&four), want);
    let shard = run(
        "s2.csv",
        &[&args[..], &["--threads", "2", "--shard", "2/3"]].concat(),
        &data,
    );
    let want_shard: Vec<_> = want.iter().filter(|r| r.job % 3 == 1).cloned().collect();
    assert_eq!(untimed(&shard), want_shard);
    let h1 = run(
        "h1.csv",
        &["--strategy", "mrv,row", "--seeds", "500", "--threads", "1"],
        &hitori,
    );
    let h2 = run(
        "h2.csv",
        &["--strategy", "mrv,row", "--seeds", "500", "--threads", "2"],
        &hitori,
    );
    assert_eq!(untimed(&h1), untimed(&h2));
}
