//! CLI tests of `bench-report html` on real `bench-run` output: the page is one self-contained,
//! well-formed document with every section, and the command refuses what it must.

use assert_cmd::Command;
use predicates::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn bin(name: &str) -> Command {
    Command::cargo_bin(name).expect("binary built")
}

fn datasets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets")
}

/// A small run directory: Hitori mrv and row (one file), ABC with a trace (another).
fn runs(d: &TempDir) -> (PathBuf, PathBuf) {
    let dir = d.path().join("run");
    bin("bench-run")
        .args([
            "--quiet",
            "--strategy",
            "mrv,row",
            "--rules",
            "basic",
            "--dataset",
        ])
        .arg(datasets().join("hitori5"))
        .arg("--output")
        .arg(dir.join("hitori5.csv"))
        .assert()
        .success();
    let trace = d.path().join("trace.csv");
    bin("bench-run")
        .args(["--quiet", "--strategy", "abc", "--seeds", "3", "--dataset"])
        .arg(datasets().join("sudoku-demo"))
        .arg("--output")
        .arg(dir.join("demo.csv"))
        .arg("--trace")
        .arg(&trace)
        .assert()
        .success();
    (dir, trace)
}

const VOID: [&str; 4] = ["meta", "br", "input", "img"];

/// Check that tags nest and close (script bodies skipped, void and `/>` tags allowed);
/// returns the element names in document order.
fn check_well_formed(html: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        let end = rest.find('>').expect("every tag closes with >");
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') || tag.starts_with('?') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(open, name.trim(), "</{name}> closes <{open}>");
            continue;
        }
        let name = tag
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .expect("tag name")
            .to_ascii_lowercase();
        names.push(name.clone());
        if name == "script" {
            let close = rest.find("</script>").expect("script closed");
            rest = &rest[close + "</script>".len()..];
            continue;
        }
        if !tag.ends_with('/') && !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    names
}

#[test]
fn html_report_is_self_contained_with_every_section() {
    let d = TempDir::new().expect("tmp");
    let (run, trace) = runs(&d);
    let out = d.path().join("report");
    bin("bench-report")
        .arg("html")
        .arg(&run)
        .arg("--baseline")
        .arg(&run)
        .arg("--trace")
        .arg(&trace)
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("index.html"));
    let html = fs::read_to_string(out.join("index.html")).expect("index.html");
    let names = check_well_formed(&html);
    for id in puzzlebench::report::html::SECTIONS.map(|s| s.id) {
        assert!(html.contains(&format!("<section id=\"{id}\">")), "{id}");
        assert!(html.contains(&format!("href=\"#{id}\"")), "nav link {id}");
    }
    // Plots: a cactus and a run-length plot per dataset, the default A/B pair's scatter
    // (mrv vs row under the same rules), the convergence plot.
    for fig in [
        "fig-hitori5-cactus",
        "fig-hitori5-nodes",
        "fig-sudoku-demo-cactus",
        "fig-sudoku-demo-cycles",
        "fig-ab0-hitori5-wall_s",
        "fig-ab0-hitori5-nodes",
        "fig-convergence",
    ] {
        assert!(html.contains(&format!("id=\"{fig}\"")), "{fig}");
    }
    let svgs = names.iter().filter(|n| *n == "svg").count();
    assert_eq!(svgs, html.matches("<figure").count());
    assert!(svgs >= 7);
    // Offline: the only URL is the SVG namespace; nothing is loaded from anywhere.
    let without_ns = html.replace("http://www.w3.org/2000/svg", "");
    assert!(!without_ns.contains("http:") && !without_ns.contains("https:"));
    assert!(!html.contains(" src=") && !html.contains("<link"));
    // The sections hold the reports: summary table, A/B verdict, baseline headline.
    assert!(html.contains("<td>mrv basic</td>"), "summary row");
    assert!(html.contains("Verdict"), "A/B verdict");
    assert!(
        html.contains("Baseline:</strong>"),
        "baseline headline card"
    );
}

#[test]
fn html_refuses_overwrite_bad_pairs_and_old_traces() {
    let d = TempDir::new().expect("tmp");
    let (run, _) = runs(&d);
    let out = d.path().join("report");
    let html = |extra: &[&str]| {
        let mut c = bin("bench-report");
        c.arg("html").arg(&run).arg("--out").arg(&out).args(extra);
        c
    };
    html(&[]).assert().success();
    let first = fs::read_to_string(out.join("index.html")).expect("index");
    html(&[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists (pass --force"));
    html(&["--force", "--ab", "strategy=mrv:strategy=row"])
        .assert()
        .success();
    let second = fs::read_to_string(out.join("index.html")).expect("index");
    assert_ne!(first, second, "--force replaced the page");
    assert!(!second.contains("Default pairs"), "explicit pair only");
    html(&["--force", "--ab", "strategy=mrv:strategy=nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--ab strategy=mrv:strategy=nope"));
    html(&["--force", "--ab", "strategy=mrv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not A:B"));
    let old = d.path().join("old-trace.csv");
    fs::write(
        &old,
        "dataset,puzzle_id,strategy,params,seed,colony,cycle,best_conflicts\nd,p,abc,,1,0,0,3\n",
    )
    .expect("old trace");
    html(&["--force", "--trace"])
        .arg(&old)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("first format").and(predicate::str::contains("rerun")));
    // An input is never a destination: a results file named index.html in --out.
    let clash = d.path().join("clash");
    fs::create_dir_all(&clash).expect("dir");
    fs::copy(run.join("demo.csv"), clash.join("index.html")).expect("copy");
    bin("bench-report")
        .arg("html")
        .arg(clash.join("index.html"))
        .arg("--out")
        .arg(&clash)
        .arg("--force")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is one of the inputs"));
}

#[test]
fn html_convergence_is_of_the_rows_where_keeps() {
    let d = TempDir::new().expect("tmp");
    let (run, trace) = runs(&d);
    let page = |filter: &str, out: &str| {
        let out = d.path().join(out);
        bin("bench-report")
            .arg("html")
            .arg(&run)
            .arg("--trace")
            .arg(&trace)
            .args(["--where", filter, "--out"])
            .arg(&out)
            .assert()
            .success();
        fs::read_to_string(out.join("index.html")).expect("index.html")
    };
    let abc = page("strategy=abc", "abc");
    assert!(abc.contains("id=\"fig-convergence\""));
    // The Hitori rows alone: no ABC job kept, so no trace run is drawn.
    let hitori = page("dataset=hitori5", "hitori");
    assert!(!hitori.contains("id=\"fig-convergence\""));
    assert!(hitori.contains("No run of the trace is of a row --where kept."));
}
