//! Issue 40 item 2: comma lists for the ABC options and `--rules` are a sweep, one run whose
//! rows equal the single runs' (job numbers and timings aside), whatever `--threads` or
//! `--shard` says.

use crate::common::*;
use puzzlebench::results::Record;
use std::path::{Path, PathBuf};

/// `bench-run --no-summary --dataset datasets/DATASET ARGS --output OUT`, which must succeed.
fn run_on(dataset: &str, args: &[&str], out: &Path) {
    bench_run()
        .args(["--no-summary", "--dataset"])
        .arg(datasets().join(dataset))
        .args(args)
        .arg("--output")
        .arg(out)
        .assert()
        .success();
}

fn run(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let strategy = ["--strategy", "abc-hybrid,backtrack"];
    let strategy = if args.contains(&"--strategy") {
        &[][..]
    } else {
        &strategy[..]
    };
    bench_run()
        .args(["--no-summary", "--dataset"])
        .arg(datasets().join("sudoku-medium"))
        .args(strategy)
        .args(["--seeds", "2"])
        // A run of backtrack alone refuses an ABC option it would ignore.
        .args(if args.contains(&"backtrack") {
            &[][..]
        } else {
            &["--max-cycles", "200"][..]
        })
        .args(args)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    out
}

/// Rows without job numbers and timings, in a fixed order.
pub(crate) fn comparable(files: &[&Path]) -> Vec<Record> {
    let mut all: Vec<Record> = files
        .iter()
        .flat_map(|f| untimed(f))
        .map(|mut r| {
            r.job = 0;
            r
        })
        .collect();
    all.sort_by(|a, b| {
        (&a.strategy, a.params.as_str(), &a.puzzle_id, a.seed).cmp(&(
            &b.strategy,
            b.params.as_str(),
            &b.puzzle_id,
            b.seed,
        ))
    });
    all
}

#[test]
fn a_sweep_is_one_run_equal_to_its_single_runs_for_any_threads_and_shard() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sweep = ["--colony-size", "20,50", "--limit", "20,adaptive"];
    let grid = run(d, "grid.csv", &[&sweep[..], &["--threads", "2"]].concat());
    let rows = rows(&grid);
    // abc-hybrid at 4 points, backtrack (which takes none of them) once: 5 × 50 × 2.
    assert_eq!(rows.len(), 500);
    let mut singles = Vec::new();
    for (i, (c, l)) in [
        ("20", "20"),
        ("20", "adaptive"),
        ("50", "20"),
        ("50", "adaptive"),
    ]
    .into_iter()
    .enumerate()
    {
        let args = ["--strategy", "abc-hybrid", "--colony-size", c, "--limit", l];
        singles.push(run(d, &format!("s{i}.csv"), &args));
    }
    singles.push(run(d, "bt.csv", &["--strategy", "backtrack"]));
    let singles: Vec<&Path> = singles.iter().map(PathBuf::as_path).collect();
    let want = comparable(&singles);
    assert_eq!(comparable(&[&grid]), want);
    let one = run(d, "t1.csv", &[&sweep[..], &["--threads", "1"]].concat());
    assert_eq!(comparable(&[&one]), want);
    let a = run(d, "a.csv", &[&sweep[..], &["--shard", "1/2"]].concat());
    let b = run(d, "b.csv", &[&sweep[..], &["--shard", "2/2"]].concat());
    assert_eq!(comparable(&[&a, &b]), want);
    // Jobs are numbered 0.. across the whole grid, each once.
    let mut jobs: Vec<u64> = rows.iter().map(|r| r.job).collect();
    jobs.sort_unstable();
    assert_eq!(jobs, (0..500).collect::<Vec<_>>());
}

/// A grid over the job options in a configuration's identity (`--node-limit`,
/// `--count-solutions`): one run, equal to its single runs, on the command line and in a plan.
#[test]
fn a_sweep_of_node_limits_and_solution_counts_equals_its_single_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hitori = |name: &str, args: &[&str]| {
        let out = d.join(name);
        run_on("hitori-tail", args, &out);
        out
    };
    let sweep = [
        "--strategy",
        "mrv,row",
        "--node-limit",
        "2,1000",
        "--count-solutions",
        "1,2",
    ];
    let grid = hitori("grid.csv", &[&sweep[..], &["--threads", "2"]].concat());
    let rows = rows(&grid);
    let puzzles = rows.iter().filter(|r| r.strategy == "mrv").count() / 4;
    assert!(puzzles > 0);
    assert_eq!(rows.len(), 2 * 2 * 2 * puzzles);
    // The small budget stops some searches, so the points differ in their rows.
    assert!(
        (rows.iter()).any(|r| r.params.as_str().contains("node_limit=2")
            && r.status == Some(puzzlebench::results::Status::Timeout)),
        "no job met node limit 2"
    );
    let mut singles = Vec::new();
    for s in ["mrv", "row"] {
        for n in ["2", "1000"] {
            for k in ["1", "2"] {
                let args = ["--strategy", s, "--node-limit", n, "--count-solutions", k];
                singles.push(hitori(&format!("{s}{n}{k}.csv"), &args));
            }
        }
    }
    let singles: Vec<&Path> = singles.iter().map(PathBuf::as_path).collect();
    let want = comparable(&singles);
    assert_eq!(comparable(&[&grid]), want);
    let a = hitori("a.csv", &[&sweep[..], &["--shard", "1/2"]].concat());
    let b = hitori("b.csv", &[&sweep[..], &["--shard", "2/2"]].concat());
    assert_eq!(comparable(&[&a, &b]), want);
    // The same grid from a plan file: lists at the top level and in a configuration.
    let plan = d.join("budgets.toml");
    std::fs::write(
        &plan,
        format!(
            "dataset = {:?}\nnode-limit = [2, 1000]\nno-summary = true\n\
             [[config]]\nstrategy = \"mrv\"\ncount-solutions = [1, 2]\n\
             [[config]]\nstrategy = \"row\"\ncount-solutions = [1, 2]\n",
            datasets().join("hitori-tail")
        ),
    )
    .unwrap();
    let from_plan = d.join("plan.csv");
    bench_run()
        .arg("--plan")
        .arg(&plan)
        .arg("--output")
        .arg(&from_plan)
        .assert()
        .success();
    assert_eq!(comparable(&[&from_plan]), want);
    // A budget not in the rows' identity is refused as a list, with what to do instead.
    let a = bench_run()
        .args(["--strategy", "mrv", "--timeout", "1,2", "--dataset"])
        .arg(datasets().join("hitori-tail"))
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("--timeout"), "{err}");
    std::fs::write(
        &plan,
        format!(
            "dataset = {:?}\nstrategy = \"mrv\"\ntimeout = [1, 2]\n",
            datasets().join("hitori-tail")
        ),
    )
    .unwrap();
    let a = bench_run().arg("--plan").arg(&plan).assert().code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        err.contains("line 3") && err.contains("`timeout` takes one value"),
        "{err}"
    );
}

#[test]
fn a_repeated_or_bad_sweep_value_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (
            &["--colony-size", "20,20"][..],
            "--colony-size: the value 20 is listed twice",
        ),
        (&["--limit", "20,often"][..], "often"),
        (&["--colony-size", "20,7"][..], "7"),
        (&["--rules", "basic,basic"][..], "--rules: the value"),
        (
            &["--node-limit", "5,5"][..],
            "--node-limit: the value 5 is listed twice",
        ),
        (&["--count-solutions", "1,0"][..], "--count-solutions"),
    ] {
        let out = dir.path().join("never.csv");
        let a = bench_run()
            .args(["--strategy", "abc", "--dataset"])
            .arg(datasets().join("sudoku-medium"))
            .args(args)
            .arg("--output")
            .arg(&out)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

/// abc-hybrid over colony sizes `sizes` × limits 20 and adaptive, 2 seeds, 200 cycles.
fn colony_grid(dir: &Path, sizes: &str) -> PathBuf {
    let args = ["--strategy", "abc-hybrid", "--colony-size", sizes];
    run(
        dir,
        "grid.csv",
        &[&args[..], &["--limit", "20,adaptive"]].concat(),
    )
}

/// Issue 40 item 3: `summary --by` pivots a sweep's solved runs by one or two of its parameters.
#[test]
fn summary_by_two_swept_parameters_tabulates_solved_runs_and_refuses_what_it_cannot_tell_apart() {
    let dir = tempfile::tempdir().unwrap();
    let grid = colony_grid(dir.path(), "20,100");
    let summary = |extra: &[&str]| {
        assert_cmd::Command::cargo_bin("bench-report")
            .unwrap()
            .arg("summary")
            .args(extra)
            .arg(&grid)
            .assert()
    };
    let a = summary(&["--by", "colony_size,limit"]).success();
    let out = String::from_utf8_lossy(&a.get_output().stdout).into_owned();
    let at = out
        .find("solved runs by colony_size and limit")
        .unwrap_or_else(|| panic!("no pivot in:\n{out}"));
    let table = &out[at..];
    assert!(
        table.contains("limit=20") && table.contains("limit=adaptive"),
        "{table}"
    );
    // 50 puzzles × 2 seeds at each point; colony size 20 before 100 (numeric order).
    let line = |v: &str| {
        table
            .lines()
            .position(|l| l.trim_start().starts_with(v) && l.contains("/100 ("))
            .unwrap_or_else(|| panic!("no {v} row in:\n{table}"))
    };
    assert!(line("20 ") < line("100 "), "{table}");
    for (args, says) in [
        (&["--by", "colony_sizes"][..], "no configuration has"),
        (&["--by", "colony_size"][..], "does not tell apart"),
        (&["--format", "csv", "--by", "limit"][..], "--by"),
        (&["--by", "limit,limit"][..], "two distinct"),
    ] {
        let a = summary(args).code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(
            a.get_output().stdout.is_empty(),
            "{args:?} printed a summary"
        );
    }
}

/// Issue 40 item 3: `plot --sweep` and `html --sweep` draw success against a swept parameter.
#[test]
fn plot_and_html_draw_a_sweep_and_refuse_a_parameter_that_is_not_a_number() {
    let dir = tempfile::tempdir().unwrap();
    let grid = colony_grid(dir.path(), "20,50");
    let report = || assert_cmd::Command::cargo_bin("bench-report").unwrap();
    let out = dir.path().join("plots");
    report()
        .args(["plot", "--sweep", "colony_size", "--out"])
        .arg(&out)
        .arg(&grid)
        .assert()
        .success();
    let svg = std::fs::read_to_string(out.join("sudoku-medium-abc-hybrid-sweep-colony_size.svg"))
        .expect("sweep plot");
    assert!(svg.contains("limit=adaptive (2 points, 200 runs)"), "{svg}");
    let page = dir.path().join("page");
    report()
        .args(["html", "--sweep", "colony_size", "--out"])
        .arg(&page)
        .arg(&grid)
        .assert()
        .success();
    let html = std::fs::read_to_string(page.join("index.html")).unwrap();
    assert!(html.contains("Sweeps") && html.contains("runs solved against colony_size"));
    // A word among the values, or a name no configuration has: exit 2, nothing written.
    for (p, says) in [
        ("limit", "not a number"),
        ("colony", "no configuration has it"),
    ] {
        let bad = dir.path().join(format!("bad-{p}"));
        let a = report()
            .args(["plot", "--sweep", p, "--out"])
            .arg(&bad)
            .arg(&grid)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(err.contains(says), "{p}: {err}");
        assert!(!bad.exists(), "{p}: wrote {}", bad.display());
    }
}

/// `abc-prop` has its own defaults (colony 10, limit by order); a value given on the command
/// line reaches it even when it equals abc's default, alone or as a point of a sweep, and an
/// ABC value given explicitly to a run with no ABC strategy is refused.
#[test]
fn an_abc_value_given_at_abcs_default_still_reaches_abc_prop() {
    let dir = tempfile::tempdir().unwrap();
    let params = |name: &str, args: &[&str]| -> Vec<String> {
        let out = dir.path().join(name);
        run_on(
            "sudoku-easy",
            &[&["--strategy", "abc-prop"][..], args].concat(),
            &out,
        );
        let mut p: Vec<String> = untimed(&out)
            .into_iter()
            .map(|r| r.params.as_str().to_string())
            .collect();
        p.sort();
        p.dedup();
        p
    };
    assert_eq!(
        params("default.csv", &[]),
        ["colony_size=10;limit=by-order;max_cycles=10000000"]
    );
    assert_eq!(
        params("given.csv", &["--colony-size", "100", "--limit", "50"]),
        ["colony_size=100;limit=50;max_cycles=10000000"]
    );
    assert_eq!(
        params(
            "sweep.csv",
            &["--colony-size", "10,100", "--max-cycles", "2000"]
        ),
        [
            "colony_size=100;limit=by-order;max_cycles=2000",
            "colony_size=10;limit=by-order;max_cycles=2000"
        ]
    );
    let a = bench_run()
        .args([
            "--strategy",
            "backtrack",
            "--colony-size",
            "100",
            "--dataset",
        ])
        .arg(datasets().join("sudoku-easy"))
        .arg("--output")
        .arg(dir.path().join("never.csv"))
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(err.contains("does not apply to any strategy"), "{err}");
}
