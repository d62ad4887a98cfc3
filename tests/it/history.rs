//! CLI tests of `bench-report history` and `html --history` on real `bench-run` output: runs
//! ordered by their metas' start time, one point per run, the gate's marks (a slowdown made
//! deterministic by scaling a copied run's wall times), and the refusals.

use crate::common::{bench_run, datasets};
use assert_cmd::Command;
use puzzlebench::results::meta::meta_path;
use puzzlebench::results::read::read_results;
use std::fs;
use std::path::{Path, PathBuf};

fn report() -> Command {
    Command::cargo_bin("bench-report").expect("bench-report is built")
}

/// A real run of Hitori mrv and row on the bundled 5x5 dataset into `dir/hitori5.csv`, its
/// meta's start time set to `started` (real runs made one after another can share a second).
fn real_run(dir: &Path, strategies: &str, started: &str) -> PathBuf {
    let out = dir.join("hitori5.csv");
    bench_run()
        .args(["--strategy", strategies, "--dataset"])
        .arg(datasets().join("hitori5"))
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    edit_meta(&out, |m| m["started"] = started.into());
    out
}

fn edit_meta(csv: &Path, f: impl FnOnce(&mut serde_json::Value)) {
    let p = meta_path(csv);
    let mut m: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&p).expect("meta")).expect("meta json");
    f(&mut m);
    fs::write(&p, serde_json::to_string_pretty(&m).expect("json")).expect("write meta");
}

/// A copy of the run `src` into `dir` with every wall time times `factor`, started at
/// `started`; its meta loses the host state of the run it copies (the copy was not run on a
/// host), so the gate judges its wall times as on a quiet host.
fn scaled_copy(src: &Path, dir: &Path, factor: f64, started: &str) -> PathBuf {
    fs::create_dir_all(dir).expect("dir");
    let file = read_results(src).expect("readable");
    let out = dir.join("hitori5.csv");
    let mut text = file.columns.header().join(",").into_bytes();
    text.push(b'\n');
    for mut r in file.rows {
        r.wall_s *= factor;
        r.write_csv(file.columns, &mut text);
    }
    fs::write(&out, text).expect("csv");
    fs::copy(meta_path(src), meta_path(&out)).expect("meta");
    edit_meta(&out, |m| {
        m["started"] = started.into();
        if let Some(o) = m.as_object_mut() {
            o.remove("host_state");
        }
    });
    out
}

/// `nightly/{n1,n2,n3}`: two real runs (n1 started after n2, so names and times disagree) and
/// n3, n1 with every wall time three times longer, started last.
fn nights(root: &Path) -> PathBuf {
    let nightly = root.join("nightly");
    let n1 = real_run(&nightly.join("n1"), "mrv,row", "2026-12-02T03:17:00Z");
    real_run(&nightly.join("n2"), "mrv,row", "2026-12-01T03:17:00Z");
    scaled_copy(&n1, &nightly.join("n3"), 3.0, "2026-12-03T03:17:00Z");
    nightly
}

fn json(args: &[&Path]) -> serde_json::Value {
    let out = report()
        .arg("history")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn history_json_has_one_point_per_run_in_start_time_order_with_the_gates_marks() {
    let d = tempfile::tempdir().expect("tempdir");
    let nightly = nights(d.path());
    let v = json(&[&nightly]);
    let groups = v["groups"].as_array().expect("groups");
    let names: Vec<(&str, &str)> = groups
        .iter()
        .map(|g| {
            (
                g["dataset"].as_str().unwrap_or(""),
                g["strategy"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(names, [("hitori5", "mrv"), ("hitori5", "row")]);
    for g in groups {
        let pts = g["points"].as_array().expect("points");
        let dirs: Vec<&str> = pts
            .iter()
            .map(|p| p["path"].as_str().map_or("", |s| &s[s.len() - 2..]))
            .collect();
        assert_eq!(dirs, ["n2", "n1", "n3"], "{g}");
        for p in pts {
            // Each run's own 41 puzzles: never pooled.
            assert_eq!(
                (p["runs"].as_u64(), p["solved"].as_u64()),
                (Some(41), Some(41))
            );
            assert!(p["median_wall_s"].as_f64().is_some_and(|w| w > 0.0), "{p}");
            assert!(p["commit"].is_string(), "{p}");
        }
        assert_eq!(pts[0]["started"], "2026-12-01T03:17:00Z");
        assert!(pts[0]["change"].is_null(), "{g}");
        // n1 against n2 is a real rerun: no counter or status may differ.
        assert!(!pts[1]["changes"]
            .as_array()
            .is_some_and(|c| c.iter().any(|x| x == "counters" || x == "status")));
        assert_eq!(pts[2]["change"], "slower", "{g}");
        assert_eq!(pts[2]["regression"], true, "{g}");
        let ratio = pts[2]["wall_ratio"]["value"].as_f64().expect("ratio");
        assert!((ratio - 3.0).abs() < 1e-9, "{ratio}");
    }
    // `compare` says the same of the last pair: a slowdown, exit 1.
    let out = report()
        .arg("compare")
        .arg(nightly.join("n1"))
        .arg(nightly.join("n3"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 groups slower"));
}

#[test]
fn history_text_names_the_runs_and_a_table_per_group() {
    let d = tempfile::tempdir().expect("tempdir");
    let nightly = nights(d.path());
    let out = report()
        .arg("history")
        .arg(nightly.join("n1"))
        .arg(nightly.join("n3"))
        .arg(nightly.join("n2"))
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("History of 3 runs of one plan"), "{text}");
    assert!(text.contains("noise band 0.25"), "{text}");
    for heading in ["hitori5 / mrv full:", "hitori5 / row full:"] {
        assert!(text.contains(heading), "{heading}: {text}");
    }
    let slow: Vec<&str> = text.lines().filter(|l| l.starts_with("#3 ")).collect();
    assert_eq!(slow.len(), 3, "{text}");
    assert!(
        slow[1..].iter().all(|l| l.ends_with("slower (regression)")),
        "{text}"
    );
}

#[test]
fn history_refuses_another_plan_and_a_run_without_meta() {
    let d = tempfile::tempdir().expect("tempdir");
    let nightly = nights(d.path());
    let other = real_run(&d.path().join("other"), "mrv", "2026-11-30T03:17:00Z");
    let out = report()
        .arg("history")
        .arg(&other)
        .arg(nightly.join("n1"))
        .arg(nightly.join("n2"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}: plan_hash", other.display()))
            && err.contains("not a plan of the newest run"),
        "{err}"
    );
    fs::remove_file(meta_path(&nightly.join("n2/hitori5.csv"))).expect("rm meta");
    let out = report()
        .arg("history")
        .arg(nightly.join("n1"))
        .arg(nightly.join("n2"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let csv = nightly.join("n2/hitori5.csv");
    assert!(
        err.contains(&format!("{}: no .meta.json beside it", csv.display())),
        "{err}"
    );
}

#[test]
fn html_history_adds_a_trend_section_with_one_chart_per_group() {
    let d = tempfile::tempdir().expect("tempdir");
    let nightly = nights(d.path());
    let out = d.path().join("page");
    report()
        .arg("html")
        .arg(nightly.join("n3"))
        .arg("--history")
        .arg(&nightly)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let html = fs::read_to_string(out.join("index.html")).expect("page");
    let start = html
        .find("<section id=\"history\">")
        .expect("history section");
    let section = &html[start..start + html[start..].find("</section>").expect("closed")];
    assert_eq!(section.matches("<svg").count(), 2, "{section}");
    assert!(section.contains("3 runs of one plan"), "{section}");
    // The caption lists each marked run: #3 is the slowed copy. (#2, a real rerun on a host
    // the other tests load, may be marked too; that is the gate's call, not this test's.)
    let caption = section
        .split("hitori5 / mrv full: ")
        .nth(1)
        .and_then(|c| c.split('<').next())
        .expect("the mrv group's caption");
    assert!(
        caption.split("; ").any(|m| m == "#3 slower"),
        "{caption}: {section}"
    );
    assert!(html.contains("<a href=\"#history\">History</a>"));
}
