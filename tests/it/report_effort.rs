//! Run facts every report shares (issue 26 items 2 and 6), on a real run with two external
//! solvers and a built-in one: each strategy's declared effort unit is recorded in the meta and
//! measured in by `summary`, `ab`, `plot` and `compare`; an external solver's `stats` keys work
//! like counters in `--where`, `summary --counters`, `ab --metric` and `plot --metric`.

use crate::common::{bench_run, rows, write, SUDOKU_DEMO};
use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

const DEMO_SOLUTION: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

fn report() -> Command {
    Command::cargo_bin("bench-report").expect("bench-report is built")
}

/// `abc-prop` (effort: evaluations) and two external solvers `peer` and `peer2` declaring
/// their effort in their `decodes` statistic, each run on the demo Sudoku with six seeds.
/// The test solver reports `decodes` = job * 10 + 3 (peer2: job * 20 + 3), `level` = job % 2
/// and `tag` = t<job>. Returns the results CSV.
fn run(dir: &Path) -> PathBuf {
    let data = write(dir, "demo.txt", &format!("{SUDOKU_DEMO}\n"));
    let fault = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/fault.sh");
    let entry = |name: &str, mult: u32| {
        format!(
            "[solver.{name}]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"batch\"\n\
             randomised = true\neffort = \"decodes\"\n\
             env = {{ FAULT = \"stats\", MULT = \"{mult}\", ANSWER = \"{DEMO_SOLUTION}\" }}\n",
            fault.display()
        )
    };
    let m = write(
        dir,
        "peers.toml",
        &format!("{}{}", entry("peer", 10), entry("peer2", 20)),
    );
    let out = dir.join("r.csv");
    let o = bench_run()
        .args([
            "--strategy",
            "abc-prop,peer,peer2",
            "--seeds",
            "6",
            "--solvers",
        ])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // bench-run's own summary measures in the declared units too.
    let printed = String::from_utf8_lossy(&o.stdout);
    for (strategy, unit) in [("abc-prop", "evaluations"), ("peer", "decodes")] {
        assert!(
            printed.lines().any(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.get(1) == Some(&strategy) && w.contains(&unit)
            }),
            "{strategy} in {unit}: {printed}"
        );
    }
    out
}

fn json(cmd: &mut Command) -> Value {
    let out = cmd.output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The jobs of `strategy` in the run (the stats are functions of the job number).
fn jobs(out: &Path, strategy: &str) -> Vec<f64> {
    rows(out)
        .iter()
        .filter(|r| r.strategy == strategy)
        .map(|r| r.job as f64)
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// `bench-report plot OUT --out DIR/plots EXTRA…`; returns the plots' directory.
fn plot(out: &Path, dir: &Path, extra: &[&str]) -> PathBuf {
    let plots = dir.join("plots");
    report()
        .arg("plot")
        .arg(out)
        .arg("--out")
        .arg(&plots)
        .args(extra)
        .assert()
        .success();
    plots
}

fn group<'a>(summary: &'a Value, strategy: &str) -> &'a Value {
    summary["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .find(|g| g["strategy"] == strategy)
        .unwrap_or_else(|| panic!("no group {strategy}: {summary}"))
}

#[test]
fn declared_effort_units_are_recorded_and_every_report_measures_in_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run(dir.path());
    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("r.meta.json")).expect("meta"),
    )
    .expect("meta JSON");
    assert_eq!(
        meta["efforts"],
        serde_json::json!({"abc-prop": "evaluations", "peer": "decodes", "peer2": "decodes"})
    );

    let s = json(report().arg("summary").arg(&out).args(["--format", "json"]));
    assert_eq!(group(&s, "abc-prop")["effort"]["metric"], "evaluations");
    let (m1, m2) = (
        mean(&jobs(&out, "peer")) * 10.0 + 3.0,
        mean(&jobs(&out, "peer2")) * 20.0 + 3.0,
    );
    let peer = &group(&s, "peer")["effort"];
    assert_eq!(
        (&peer["metric"], &peer["mean"]),
        (&"decodes".into(), &m1.into())
    );
    assert_eq!(group(&s, "peer2")["effort"]["mean"], m2);
    assert_eq!(group(&s, "peer")["ert"]["unit"], "decodes");

    // The externals share a unit, so A/B compares them on it; abc-prop against one of them
    // does not, and says why.
    let ab = json(report().arg("ab").arg(&out).args([
        "--a",
        "strategy=peer",
        "--b",
        "strategy=peer2",
        "--format",
        "json",
    ]));
    let c = &ab["overall"]["comparisons"][0];
    assert_eq!(
        (&c["metric"], &c["mean_a"], &c["mean_b"]),
        (&"decodes".into(), &m1.into(), &m2.into())
    );
    assert_eq!(ab["overall"]["effort_unit_b"], "decodes");
    let ab = report()
        .arg("ab")
        .arg(&out)
        .args(["--a", "strategy=abc-prop", "--b", "strategy=peer"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&ab.stdout);
    assert!(
        text.contains("different effort units (A counts evaluations, B counts decodes)"),
        "{text}"
    );

    // Plots: one run-length distribution per unit.
    let plots = plot(&out, dir.path(), &[]);
    for f in [
        "demo-evaluations.svg",
        "demo-decodes.svg",
        "demo-cactus.svg",
    ] {
        assert!(plots.join(f).is_file(), "{f} missing");
    }
    assert!(
        !plots.join("demo-cycles.svg").exists(),
        "abc-prop's effort is not cycles"
    );
}

#[test]
fn stats_keys_work_like_counters_in_every_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run(dir.path());

    // --where on a stats key: numeric comparison, and = on its text.
    let (j1, j2) = (jobs(&out, "peer"), jobs(&out, "peer2"));
    let cut = j1[3] * 10.0 + 3.0;
    let s = json(report().arg("summary").arg(&out).args([
        "--where",
        &format!("decodes>={cut}"),
        "--format",
        "json",
    ]));
    assert_eq!(group(&s, "peer")["runs"], 3, "the last three of six jobs");
    let above = j2.iter().filter(|&&j| j * 20.0 + 3.0 >= cut).count();
    assert_eq!(group(&s, "peer2")["runs"], above);
    assert_eq!(
        s["groups"].as_array().expect("groups").len(),
        2,
        "abc-prop has no decodes"
    );
    let s = json(report().arg("summary").arg(&out).args([
        "--where",
        &format!("tag=t{},strategy=peer", j1[0]),
        "--format",
        "json",
    ]));
    assert_eq!(group(&s, "peer")["runs"], 1);
    assert_eq!(s["groups"].as_array().expect("groups").len(), 1);

    // summary --counters: each numeric stats key has its statistics; `tag` is text.
    let s = json(
        report()
            .arg("summary")
            .arg(&out)
            .args(["--counters", "--format", "json"]),
    );
    let counters = &group(&s, "peer")["counters"];
    assert_eq!(counters["decodes"]["runs"], 6);
    let odd = j1.iter().filter(|&&j| j % 2.0 == 1.0).count() as f64;
    assert_eq!(counters["level"]["sum"], odd);
    assert!(counters.get("tag").is_none(), "{counters}");

    // ab --metric on a stats key.
    let ab = json(report().arg("ab").arg(&out).args([
        "--a",
        "strategy=peer",
        "--b",
        "strategy=peer2",
        "--metric",
        "level",
        "--format",
        "json",
    ]));
    let metrics: Vec<&str> = ab["overall"]["comparisons"]
        .as_array()
        .expect("comparisons")
        .iter()
        .filter_map(|c| c["metric"].as_str())
        .collect();
    assert_eq!(metrics, ["decodes", "level", "wall_s"]);

    // plot --metric on a stats key.
    let plots = plot(&out, dir.path(), &["--metric", "level"]);
    assert!(plots.join("demo-level.svg").is_file());
    assert!(!plots.join("demo-decodes.svg").exists());

    // A misspelt key is an error naming what the rows have, never an empty report.
    for args in [
        &["summary", "--where", "decdoes>=1"][..],
        &[
            "ab",
            "--a",
            "strategy=peer",
            "--b",
            "strategy=peer2",
            "--metric",
            "decdoes",
        ],
        &["plot", "--out", "unused", "--metric", "decdoes"],
    ] {
        let o = report()
            .args(&args[..1])
            .arg(&out)
            .args(&args[1..])
            .current_dir(dir.path())
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("decdoes"), "{args:?}: {err}");
        assert!(!dir.path().join("unused").exists(), "nothing written");
    }
}

// Issue 38: `summary --counters` on `big=1e308` printed 309-digit cells and `-` for the sum,
// which overflows. Such values are in scientific form, and an overflowing sum says so.
#[test]
fn huge_stats_values_are_scientific_and_an_overflowing_sum_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("decodes="), "{text}");
    std::fs::write(&out, text.replace("decodes=", "big=1e308;decodes=")).unwrap();
    let o = report()
        .args(["summary", "--counters"])
        .arg(&out)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let row = stdout
        .lines()
        .find(|l| l.split_whitespace().nth(2) == Some("big"))
        .unwrap_or_else(|| panic!("no `big` row: {stdout}"));
    assert!(
        row.contains("1.00e308") && row.contains("overflow"),
        "{row}"
    );
    assert!(
        row.split_whitespace().all(|w| w.len() < 30),
        "a cell of plain digits: {row}"
    );
}
