//! One reading of the inputs (issue 26 item 1): each inconsistency case of the issue, run
//! through every report, which now give one answer; and the gate's judgment of a noisy host
//! (issue 27 item 7) on hand-written metas.

use assert_cmd::Command;
use puzzlebench::results::{Columns, Record, Status};
use serde_json::json;
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn bench_report(args: &[&str], paths: &[&Path]) -> (i32, String, String) {
    let mut c = Command::cargo_bin("bench-report").expect("binary built");
    c.args(args);
    for p in paths {
        c.arg(p);
    }
    let out = c.output().expect("run bench-report");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// 20 Hitori jobs, mrv and row alternating, `scale` seconds each with a fixed wobble.
fn rows(scale: f64) -> Vec<Record> {
    (0..20u64)
        .map(|j| {
            let mut r = Record::sample(
                "h5",
                if j % 2 == 0 { "mrv" } else { "row" },
                &format!("h5:{}", j / 2 + 1),
                Status::Solved,
                scale * (1.0 + 0.03 * ((j * 7 % 5) as f64 - 2.0) / 2.0),
            );
            r.seed = 1;
            r.job = j;
            r.counters.nodes = Some(5 + j % 7);
            r
        })
        .collect()
}

fn csv(dir: &Path, name: &str, rows: &[Record], cols: Columns) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, puzzlebench::results::write::results_csv(rows, cols)).expect("write csv");
    p
}

/// A meta beside `csv` with the fields the reports read, `extra` merged in.
fn meta(csv: &Path, extra: serde_json::Value) {
    let mut m = json!({
        "tool": "puzzlebench", "dataset_name": "h5", "dataset_hash": "aaaa",
        "timeout_s": 1.0, "status": "complete", "threads": 1,
        "machine": {"cpu": "Test CPU", "cpus": 2}
    });
    for (k, v) in extra.as_object().expect("object") {
        m[k] = v.clone();
    }
    let text = serde_json::to_string_pretty(&m).expect("json");
    fs::write(puzzlebench::results::meta::meta_path(csv), text).expect("write meta");
}

fn dir(t: &TempDir, name: &str) -> PathBuf {
    let d = t.path().join(name);
    fs::create_dir_all(&d).expect("dir");
    d
}

const AB: [&str; 5] = ["ab", "--a", "strategy=mrv", "--b", "strategy=row"];

/// Every aggregating report on `input`: (name, exit code, stdout, stderr).
fn every_report(t: &TempDir, input: &Path) -> Vec<(&'static str, i32, String, String)> {
    let out = t.path().join(format!(
        "out-{}",
        input
            .file_name()
            .map_or("x".into(), |n| n.to_string_lossy().into_owned())
    ));
    let plots = out.join("plots");
    let html = out.join("html");
    let mut v = Vec::new();
    let (c, o, e) = bench_report(&["summary", "--format", "json"], &[input]);
    v.push(("summary", c, o, e));
    let (c, o, e) = bench_report(&AB, &[input]);
    v.push(("ab", c, o, e));
    let (c, o, e) = bench_report(&["plot", "--out"], &[&plots, input]);
    v.push(("plot", c, o, e));
    let (c, o, e) = bench_report(&["html", "--out"], &[&html, input]);
    let page = fs::read_to_string(html.join("index.html")).unwrap_or_default();
    v.push(("html", c, page + &o, e));
    let (c, o, e) = bench_report(&["compare"], &[input, input]);
    v.push(("compare", c, o, e));
    v
}

// Issue 26: a run copied twice into one directory was refused by `summary`, counted twice by
// `html` (whose A/B section refused it).
#[test]
fn a_run_copied_twice_is_refused_by_every_report_unless_allowed() {
    let t = TempDir::new().expect("tmp");
    let d = dir(&t, "twice");
    for name in ["a.csv", "copy.csv"] {
        let p = csv(&d, name, &rows(0.001), Columns::default());
        meta(&p, json!({}));
    }
    for (name, code, _, err) in every_report(&t, &d) {
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains("the inputs repeat jobs") && err.contains("copy.csv"),
            "{name}: {err}"
        );
    }
    let (code, out, err) = bench_report(
        &["summary", "--format", "json", "--allow-duplicates"],
        &[&d],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["duplicate_jobs"], 20, "{out}");
    let runs: u64 = v["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| g["runs"].as_u64().expect("runs"))
        .sum();
    let html = t.path().join("html-dups");
    let (code, _, err) = bench_report(&["html", "--allow-duplicates", "--out"], &[&html, &d]);
    assert_eq!(code, 0, "{err}");
    let page = fs::read_to_string(html.join("index.html")).expect("page");
    assert_eq!(runs, 40);
    assert!(
        page.contains("40 runs, 40 solved"),
        "html and summary count alike"
    );
}

// Issue 26: different puzzles under one dataset name: `compare` refused, `html --baseline`
// said "No regression: identical results".
#[test]
fn different_puzzles_under_one_name_are_refused_everywhere() {
    let t = TempDir::new().expect("tmp");
    // Within one input.
    let d = dir(&t, "mixed");
    let a = csv(&d, "a.csv", &rows(0.001)[..10], Columns::default());
    meta(&a, json!({}));
    let b = csv(&d, "b.csv", &rows(0.001)[10..], Columns::default());
    meta(&b, json!({"dataset_hash": "bbbb"}));
    for (name, code, _, err) in every_report(&t, &d) {
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains("different puzzles under one dataset name"),
            "{name}: {err}"
        );
    }
    // Across the baseline and the new run: `compare` and `html --baseline` agree.
    let base = dir(&t, "base");
    let p = csv(&base, "r.csv", &rows(0.001), Columns::default());
    meta(&p, json!({}));
    let new = dir(&t, "new");
    let p = csv(&new, "r.csv", &rows(0.001), Columns::default());
    meta(&p, json!({"dataset_hash": "bbbb"}));
    let (code, _, err) = bench_report(&["compare"], &[&base, &new]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("different dataset contents"), "{err}");
    let html = t.path().join("html-base");
    let (code, _, err) = bench_report(
        &["html", "--out"],
        &[&html, &new, Path::new("--baseline"), &base],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("different dataset contents"), "{err}");
}

// Issue 26: one file without its meta: `summary` and `html` used a 1 s limit, `ab` left
// PAR-2 out.
#[test]
fn a_file_without_meta_leaves_par2_out_in_every_report() {
    let t = TempDir::new().expect("tmp");
    let d = dir(&t, "nometa");
    let a = csv(&d, "a.csv", &rows(0.001)[..10], Columns::default());
    meta(&a, json!({}));
    csv(&d, "b.csv", &rows(0.001)[10..], Columns::default());
    let (code, out, err) = bench_report(&["summary", "--format", "json"], &[&d]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(v["time_limit_s"].is_null(), "{out}");
    let said = |text: &str| text.contains("no .meta.json beside") && text.contains("b.csv");
    assert!(said(&out), "summary says why: {out}");
    let mut ab = AB.to_vec();
    ab.extend(["--format", "json"]);
    let (code, out, err) = bench_report(&ab, &[&d]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(v["time_limit_s"].is_null(), "{out}");
    assert!(said(&out), "ab says why: {out}");
    let html = t.path().join("html");
    let (code, _, err) = bench_report(&["html", "--out"], &[&html, &d]);
    assert_eq!(code, 0, "{err}");
    let page = fs::read_to_string(html.join("index.html")).expect("page");
    assert!(said(&page), "html says why");
    assert!(!page.contains("PAR-2 (s)"), "no PAR-2 column on the page");
    // One limit given: every report uses it.
    let (_, out, _) = bench_report(&["summary", "--format", "json", "--time-limit", "2"], &[&d]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["time_limit_s"], 2.0);
}

// Issue 26: a `--trace` file saved in the results directory made `summary DIR` and `html DIR`
// fail with "missing column kind".
#[test]
fn a_trace_in_the_directory_is_skipped_with_a_note() {
    let t = TempDir::new().expect("tmp");
    let d = dir(&t, "traced");
    let p = csv(&d, "run.csv", &rows(0.001), Columns::default());
    meta(&p, json!({}));
    fs::write(
        d.join("trace.csv"),
        "job,cycle,best_conflicts,dataset,puzzle_id,strategy,params,seed,colony\n0,1,5,h5,h5:1,abc,,1,0\n",
    )
    .expect("trace");
    fs::write(d.join("run.csv.lock"), "").expect("lock");
    for (name, code, _, err) in every_report(&t, &d) {
        assert_eq!(code, 0, "{name}: {err}");
        assert!(err.contains("trace.csv: an ABC trace"), "{name}: {err}");
        assert!(err.contains("run.csv.lock: the lock file"), "{name}: {err}");
    }
}

/// A baseline and a new run of `scale` seconds a job (the new one's meta given), with
/// `cpu_s` on the new side only when asked.
fn gate_pair(
    t: &TempDir,
    new_scale: f64,
    new_meta: serde_json::Value,
    cpu: Option<f64>,
) -> (PathBuf, PathBuf) {
    let base = dir(t, "gbase");
    let mut b = rows(0.001);
    let mut n = rows(new_scale);
    if let Some(c) = cpu {
        for (x, y) in b.iter_mut().zip(n.iter_mut()) {
            x.cpu_s = Some(0.001);
            y.cpu_s = Some(c);
        }
    }
    let cols = Columns {
        measured: cpu.is_some(),
        ..Columns::default()
    };
    let p = csv(&base, "r.csv", &b, cols);
    meta(&p, json!({}));
    let new = dir(t, "gnew");
    let p = csv(&new, "r.csv", &n, cols);
    meta(&p, new_meta);
    (base, new)
}

fn busy() -> serde_json::Value {
    // 1 thread on 2 CPUs for 1 s, 0.1 s of it off a CPU; others took 1.6 s.
    json!({"host_state": {"load1_start": 1.9, "load1_end": 2.1, "wall_s": 1.0,
        "run_cpu_s": 0.9, "host_busy_cpu_s": 2.5, "others_cpu_s": 1.6}})
}

// Issue 27 item 7: the same binary under background load failed the gate. Issue 36: a wall
// change others' CPU could explain is not judged, and with no CPU time to judge instead the
// group's time is not compared: exit 3 under `--times fail`, never a pass.
#[test]
fn wall_slowdown_others_could_explain_is_not_judged_and_not_a_pass() {
    let t = TempDir::new().expect("tmp");
    let (base, new) = gate_pair(&t, 0.0015, busy(), None);
    let (code, out, err) = bench_report(&["compare"], &[&base, &new]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.starts_with(
            "## TIME NOT COMPARED: h5 mrv basic (wall x1.500 could be others' CPU, no cpu_s \
             on both sides); h5 row basic"
        ),
        "{out}"
    );
    assert!(out.contains("not judged: noisy host |"), "{out}");
    assert!(
        out.contains("within what others' CPU could explain: others took 1.60 s of CPU"),
        "{out}"
    );
    assert!(out.contains("up to x1.22 (new)"), "{out}");
    let (code, out, _) = bench_report(&["compare", "--times", "warn"], &[&base, &new]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("## No regression (time not compared: h5 mrv basic"),
        "{out}"
    );
    // html --baseline says the same with the same --times.
    let page_of = |times: &str| {
        let o = t.path().join(format!("page-{times}"));
        let (code, _, err) = bench_report(
            &[
                "html",
                "--baseline",
                base.to_str().unwrap_or_default(),
                "--times",
                times,
                "--out",
                o.to_str().unwrap_or_default(),
            ],
            &[&new],
        );
        assert_eq!(code, 0, "{err}");
        fs::read_to_string(o.join("index.html")).expect("page")
    };
    assert!(page_of("fail").contains("card bad\"><strong>Baseline:</strong> TIME NOT COMPARED"));
    assert!(page_of("warn")
        .contains("card good\"><strong>Baseline:</strong> No regression (time not compared"));
    // A slowdown beyond what the busy host could explain (x10 against at most x1.22) fails.
    let t = TempDir::new().expect("tmp");
    let (base, new) = gate_pair(&t, 0.01, busy(), None);
    let (code, out, _) = bench_report(&["compare"], &[&base, &new]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("2 groups slower"), "{out}");
    // The same figures on a quiet host (others took 0.2 s, 0.14 s of it slack) still fail.
    let t = TempDir::new().expect("tmp");
    let quiet = json!({"host_state": {"wall_s": 1.0, "others_cpu_s": 0.2}});
    let (base, new) = gate_pair(&t, 0.0015, quiet, None);
    let (code, out, _) = bench_report(&["compare"], &[&base, &new]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("2 groups slower"), "{out}");
    let o = t.path().join("page");
    let (code, _, err) = bench_report(
        &[
            "html",
            "--baseline",
            base.to_str().unwrap_or_default(),
            "--out",
            o.to_str().unwrap_or_default(),
        ],
        &[&new],
    );
    assert_eq!(code, 0, "{err}");
    let page = fs::read_to_string(o.join("index.html")).expect("page");
    assert!(
        page.contains("REGRESSION: 2 groups slower. Slower: h5 mrv basic: new needs x1.50 ["),
        "{page}"
    );
}

// Issue 36: /proc/stat counts 10 ms ticks, so on a run of a few milliseconds one tick of
// anyone's CPU read as a noisy host and a 3x slower run passed.
#[test]
fn one_tick_of_others_cpu_is_never_noisy() {
    let t = TempDir::new().expect("tmp");
    // 2 ms of wall, 1 thread on 2 CPUs, and one 10 ms tick charged to others.
    let tick = json!({"host_state": {"wall_s": 0.002, "run_cpu_s": 0.002, "others_cpu_s": 0.01}});
    let (base, new) = gate_pair(&t, 0.003, tick, None);
    let (code, out, _) = bench_report(&["compare"], &[&base, &new]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("2 groups slower") && !out.contains("noisy"),
        "{out}"
    );
}

#[test]
fn cpu_slowdown_fails_even_on_a_busy_host_and_cpu_models_must_match() {
    let t = TempDir::new().expect("tmp");
    let (base, new) = gate_pair(&t, 0.001, busy(), Some(0.002));
    let (code, out, _) = bench_report(&["compare"], &[&base, &new]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("2 groups slower in CPU time") && out.contains("### CPU time"),
        "{out}"
    );
    // Another CPU model: wall times not judged, whatever the load.
    let t = TempDir::new().expect("tmp");
    let (base, new) = gate_pair(
        &t,
        0.0015,
        json!({"machine": {"cpu": "Other CPU", "cpus": 2}}),
        None,
    );
    let (code, out, _) = bench_report(&["compare"], &[&base, &new]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("noisy host (CPU models differ: baseline Test CPU, new Other CPU)"),
        "{out}"
    );
}

#[test]
fn measurement_columns_on_one_side_only_never_refuse() {
    let t = TempDir::new().expect("tmp");
    let base = dir(&t, "b");
    let p = csv(&base, "r.csv", &rows(0.001), Columns::default());
    meta(&p, json!({}));
    let new = dir(&t, "n");
    let mut n = rows(0.001);
    for r in &mut n {
        r.cpu_s = Some(0.001);
        r.max_rss_kib = Some(1000);
        r.stats = Some("evals=3".into());
    }
    let cols = Columns {
        measured: true,
        repeats: true,
        ..Columns::default()
    };
    let p = csv(&new, "r.csv", &n, cols);
    meta(&p, json!({}));
    let (code, out, err) = bench_report(&["compare"], &[&base, &new]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        !out.contains("### CPU time"),
        "compared only where both have it: {out}"
    );
}

#[test]
fn the_band_is_the_gates_and_is_rendered() {
    let t = TempDir::new().expect("tmp");
    // x1.2: inside the default band of 0.25, outside an explicit 0.10.
    let (base, new) = gate_pair(&t, 0.0012, json!({}), None);
    let (code, out, _) = bench_report(&["compare"], &[&base, &new]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("1 ± 0.25 (noise band: default floor 0.25)"),
        "{out}"
    );
    let (code, out, _) = bench_report(&["compare", "--noise-band", "0.1"], &[&base, &new]);
    assert_eq!(code, 1, "{out}");
    // Calibrated from an A/A pair whose runs differ by x1.2: band 2 x 0.2 = 0.4.
    let (code, out, err) = bench_report(
        &["compare"],
        &[&base, &new, Path::new("--calibrate"), &base, &new],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("calibrated on 2 runs"), "{out}");
    let html = t.path().join("page");
    let (code, _, err) = bench_report(
        &["html", "--out"],
        &[&html, &new, Path::new("--baseline"), &base],
    );
    assert_eq!(code, 0, "{err}");
    let page = fs::read_to_string(html.join("index.html")).expect("page");
    assert!(
        page.contains("noise band: default floor 0.25"),
        "the page renders the gate's band"
    );
}

// Issue 36: `compare base new --where strategy=mvr` (a typo) printed "No regression: identical
// results" with 0 jobs joined; `plot`, `html`, `history` and `ab` were silent on a filter that
// kept nothing.
#[test]
fn nothing_compared_is_never_a_pass() {
    let t = TempDir::new().expect("tmp");
    let d = dir(&t, "run");
    let p = csv(&d, "r.csv", &rows(0.001), Columns::default());
    meta(
        &p,
        json!({"started": "2026-12-01T00:00:00Z", "plan_hash": "p1"}),
    );
    let each = |filter: &str| -> Vec<(&'static str, i32, String)> {
        let w = ["--where", filter];
        let plots = t.path().join(format!("plots-{filter}"));
        let html = t.path().join(format!("html-{filter}"));
        let mut v = Vec::new();
        let mut run = |name, args: &[&str], paths: &[&Path]| {
            let mut a = args.to_vec();
            a.splice(1..1, w);
            let (c, o, e) = bench_report(&a, paths);
            v.push((name, c, o + &e));
        };
        run("summary", &["summary", "--format", "csv"], &[&d]);
        run("ab", &AB, &[&d]);
        run("plot", &["plot", "--out"], &[&plots, &d]);
        run("html", &["html", "--out"], &[&html, &d]);
        run("history", &["history"], &[&d]);
        run("compare", &["compare"], &[&d, &d]);
        v
    };
    // A value no row has and puzzlebench does not know: exit 2 everywhere, naming the term
    // and the values the rows have.
    for (name, code, text) in each("strategy=mvr") {
        assert_eq!(code, 2, "{name}: {text}");
        assert!(
            text.contains("strategy=mvr matches no row")
                && text.contains("the rows have strategy mrv, row"),
            "{name}: {text}"
        );
    }
    // A valid filter that keeps nothing: a count of 0 in summary, exit 2 where there is
    // nothing to compare or draw.
    for (name, code, text) in each("status=wrong") {
        if name == "summary" {
            assert_eq!(code, 0, "{text}");
            assert!(text.contains("matched none of the 20 rows"), "{text}");
            assert_eq!(
                text.lines().filter(|l| l.starts_with("h5,")).count(),
                0,
                "{text}"
            );
        } else {
            assert_eq!(code, 2, "{name}: {text}");
            assert!(
                text.contains("--where status=wrong matched no"),
                "{name}: {text}"
            );
        }
    }
    // Two runs that share no job: never "No regression" (an empty file is refused already).
    let other = dir(&t, "other");
    let mut r = rows(0.001);
    for x in &mut r {
        x.seed = 2;
    }
    let p = csv(&other, "r.csv", &r, Columns::default());
    meta(&p, json!({}));
    let (code, out, err) = bench_report(&["compare"], &[&d, &other]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("## REGRESSION: 20 rows missing from new (also 20 rows only in new)"),
        "{out}"
    );
}
