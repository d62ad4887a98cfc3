//! Issue 40 item 1: a plan file (`bench-run --plan FILE`) is one run, equal to the command
//! line it stands for, resumable, shardable, overridden by flags beside it, and refused
//! (exit 2, naming the line) where it is wrong, before anything runs.

use crate::cli_sweep::comparable;
use crate::common::*;
use std::path::{Path, PathBuf};

/// Two configurations, one of them a 2 × 2 grid (5 in all), on sudoku-medium.
fn plan(dir: &Path, seeds: u32, max_cycles: u32) -> PathBuf {
    write(
        dir,
        "plan.toml",
        &format!(
            "# a sweep and a baseline\n\
             dataset = {:?}\n\
             seeds = {seeds}\n\
             max-cycles = {max_cycles}\n\
             no-summary = true\n\
             \n\
             [[config]]\n\
             strategy = \"abc-hybrid\"\n\
             colony-size = [20, 50]\n\
             limit = [20, \"adaptive\"]\n\
             \n\
             [[config]]\n\
             strategy = \"backtrack\"\n",
            datasets().join("sudoku-medium").display().to_string()
        ),
    )
}

fn run_plan(plan: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    bench_run()
        .arg("--plan")
        .arg(plan)
        .args(extra)
        .arg("--output")
        .arg(out)
        .output()
        .expect("bench-run runs")
}

/// `bench-run --plan PLAN --output OUT` on one thread, started and left running (to be
/// interrupted).
fn spawn_plan(plan: &Path, out: &Path) -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("bench-run"))
        .args(["--quiet", "--threads", "1", "--plan"])
        .arg(plan)
        .arg("--output")
        .arg(out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn")
}

/// The plan run as `n` shards on one thread each (into `dir`), merged back with
/// `bench-report merge`: the merged rows without timings.
fn shards_merged(plan: &Path, dir: &Path, n: u32) -> Vec<puzzlebench::results::Record> {
    let shards: Vec<PathBuf> = (1..=n)
        .map(|k| {
            let out = dir.join(format!("shard-{k}-of-{n}.csv"));
            let args = ["--shard", &format!("{k}/{n}"), "--threads", "1"];
            let o = run_plan(plan, &out, &args);
            assert!(o.status.success(), "{o:?}");
            out
        })
        .collect();
    let merged = dir.join(format!("merged-{n}.csv"));
    assert_cmd::Command::cargo_bin("bench-report")
        .unwrap()
        .arg("merge")
        .args(&shards)
        .arg("--output")
        .arg(&merged)
        .assert()
        .success();
    untimed(&merged)
}

#[test]
fn a_plan_is_the_command_line_it_stands_for_in_one_piece_or_three_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = plan(d, 2, 200);
    let whole = d.join("whole.csv");
    assert!(run_plan(&p, &whole, &["--threads", "2"]).status.success());
    let cli = d.join("cli.csv");
    bench_run()
        .args(["--no-summary", "--dataset"])
        .arg(datasets().join("sudoku-medium"))
        .args(["--strategy", "abc-hybrid,backtrack", "--seeds", "2"])
        .args(["--max-cycles", "200", "--colony-size", "20,50"])
        .args(["--limit", "20,adaptive", "--output"])
        .arg(&cli)
        .assert()
        .success();
    // Same configurations in the same order: the same jobs, numbers included.
    assert_eq!(untimed(&whole), untimed(&cli));
    assert_eq!(rows(&whole).len(), 500);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let out = d.join(format!("shard-{k}.csv"));
            let args = ["--shard", &format!("{k}/3"), "--threads", "1"];
            assert!(run_plan(&p, &out, &args).status.success());
            out
        })
        .collect();
    let shards: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    assert_eq!(comparable(&shards), comparable(&[&whole]));
    // The meta records the plan: its path, hash and content.
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("whole.meta.json")).expect("meta"))
            .expect("json");
    let text = std::fs::read_to_string(&p).unwrap();
    assert_eq!(meta["plan"]["content"], text.as_str());
    assert_eq!(
        meta["plan"]["hash"],
        puzzlebench::external::content_hash(text.as_bytes()).as_str()
    );
}

#[test]
fn an_interrupted_plan_resumes_to_the_one_piece_run_and_flags_beside_it_win() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = plan(d, 20, 2000);
    let whole = d.join("whole.csv");
    assert!(run_plan(&p, &whole, &[]).status.success());
    let out = d.join("cut.csv");
    let child = spawn_plan(&p, &out);
    let first = interrupt_after(child, &d.join("cut.csv.partial"), 20);
    assert_eq!(first.status.code(), Some(130), "{first:?}");
    let resumed = run_plan(&p, &out, &["--resume"]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(comparable(&[&out]), comparable(&[&whole]));
    // A flag beside the plan overrides its value (seeds 20 -> 1), the rest stays.
    let one = d.join("one.csv");
    assert!(run_plan(&p, &one, &["--seeds", "1"]).status.success());
    assert_eq!(rows(&one).len(), 250);
    // --strategy beside it replaces the configurations.
    let bt = d.join("bt.csv");
    let o = run_plan(&p, &bt, &["--strategy", "backtrack", "--seeds", "1"]);
    assert!(o.status.success(), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("replaces the 2 [[config]] tables"), "{err}");
    // The plan's max-cycles is a default for its tables; with none left it is set aside...
    assert!(err.contains("the plan's --colony-size/--limit/--max-cycles/--neighbourhood applies to no strategy in this run (backtrack); set aside"), "{err}");
    assert_eq!(rows(&bt).len(), 50);
    // ...but the same value given on the command line is a request nothing honours.
    let o = run_plan(
        &p,
        &bt,
        &["--strategy", "backtrack", "--max-cycles", "2000", "--force"],
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("does not apply to any strategy"));
}

#[test]
fn a_dry_run_says_what_would_run_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let p = plan(dir.path(), 2, 200);
    let out = dir.path().join("never.csv");
    let o = run_plan(
        &p,
        &out,
        &["--dry-run", "--timeout", "0.5", "--threads", "2"],
    );
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    for want in [
        "5 configurations on sudoku-medium (50 puzzles)",
        "abc-hybrid [] colony_size=50;limit=adaptive;max_cycles=200;neighbourhood=box",
        "jobs: 500 (seeds 2",
        // 500 jobs at 0.5 s on 2 workers.
        "time: at most about 125 s",
        "nothing was run",
    ] {
        assert!(text.contains(want), "no {want:?} in:\n{text}");
    }
    assert!(!out.exists() && !dir.path().join("never.csv.partial").exists());
}

#[test]
fn a_bad_plan_is_refused_naming_its_line_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let data = datasets().join("sudoku-medium").display().to_string();
    let head = format!("dataset = {data:?}\nseeds = 2\n");
    for (body, says) in [
        ("colour = 3\n", "plan.toml, line 3: unknown key `colour`"),
        ("seeds2 = 1\nthreads = 0\n", "unknown key `seeds2`"),
        ("threads = 0\n", "plan.toml, line 3: `threads`: invalid value '0'"),
        (
            "[[config]]\nstrategy = \"abc\"\ncolony-size = [20, 7]\n",
            "the [[config]] at line 3: ABC parameters (--colony-size 7, --limit 50): colony size must be an even number",
        ),
        (
            "[[config]]\nstrategy = \"abc\"\nlimit = []\n",
            "line 5: `limit` = []: an empty list",
        ),
        (
            "[[config]]\nstrategy = \"nosuch\"\n",
            "the [[config]] at line 3",
        ),
        (
            "[[config]]\nstrategy = \"backtrack\"\n[[config]]\nstrategy = \"backtrack\"\n",
            "makes backtrack [] max_solutions=1 again",
        ),
        (
            "[[config]]\nstrategy = \"abc\"\nthreads = 1\n",
            "line 5: `threads` applies to the whole run",
        ),
        (
            "[[config]]\nstrategy = \"abc\"\nseeds = [1, 2]\n",
            "line 5: `seeds` takes one value, not a list",
        ),
        (
            "[[config]]\nstrategy = \"abc\"\ntimeout = -1\n",
            "line 5: `timeout`",
        ),
        (
            "resume = true\n",
            "line 3: `resume` is given on the command line",
        ),
    ] {
        let p = write(dir.path(), "plan.toml", &format!("{head}{body}"));
        let out = dir.path().join("never.csv");
        let o = run_plan(&p, &out, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{body}: {err}");
        assert!(err.contains(says), "{body}: {err}");
        assert!(!out.exists(), "{body} wrote results");
    }
    // A plan without a dataset, and a plan that is not there.
    let p = write(dir.path(), "plan.toml", "strategy = \"mrv\"\n");
    let o = run_plan(&p, &dir.path().join("n.csv"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--dataset is required"));
    let o = run_plan(
        &dir.path().join("absent.toml"),
        &dir.path().join("n.csv"),
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("absent.toml: cannot read it"));
}

/// The plan docs/running.md shows is the one the repository ships, and it runs.
#[test]
fn the_documented_plan_is_the_shipped_one_and_it_dry_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = std::fs::read_to_string(root.join("plans/colony-sweep.toml")).unwrap();
    let doc = std::fs::read_to_string(root.join("docs/running.md")).unwrap();
    let at = doc.find("### Plan files").expect("the section");
    let block = &doc[at..];
    let start = block.find("```toml\n").expect("a toml block") + 8;
    let end = start + block[start..].find("```").expect("its end");
    assert_eq!(&block[start..end], shipped);
    let o = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench-run"))
        .args(["--plan", "plans/colony-sweep.toml", "--dry-run"])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("9 configurations on sudoku-medium") && text.contains("jobs: 2250"),
        "{text}"
    );
}

/// Two datasets with their own options: hitori5 under the top level's two configurations
/// (repeat 2), sudoku-medium under its own: a 3 × 2 abc-hybrid grid and backtrack, seed 3.
fn two_datasets(dir: &Path) -> PathBuf {
    write(
        dir,
        "two.toml",
        &format!(
            "seeds = 2\n\
             no-summary = true\n\
             \n\
             [[config]]\n\
             strategy = \"mrv\"\n\
             \n\
             [[config]]\n\
             strategy = \"row\"\n\
             \n\
             [[dataset]]\n\
             dataset = {:?}\n\
             repeat = 2\n\
             \n\
             [[dataset]]\n\
             dataset = {:?}\n\
             seed = 3\n\
             \n\
             [[dataset.config]]\n\
             strategy = \"abc-hybrid\"\n\
             colony-size = [10, 20, 40]\n\
             limit = [20, \"adaptive\"]\n\
             max-cycles = 200\n\
             \n\
             [[dataset.config]]\n\
             strategy = \"backtrack\"\n",
            datasets().join("hitori5").display().to_string(),
            datasets().join("sudoku-medium").display().to_string()
        ),
    )
}

/// The rows of [`two_datasets`] as two runs of their own, the second's jobs numbered after
/// the first's.
fn singles_of_two_datasets(d: &Path) -> Vec<puzzlebench::results::Record> {
    let h = d.join("h.csv");
    bench_run()
        .args(["--no-summary", "--dataset"])
        .arg(datasets().join("hitori5"))
        .args([
            "--strategy",
            "mrv,row",
            "--seeds",
            "2",
            "--repeat",
            "2",
            "--output",
        ])
        .arg(&h)
        .assert()
        .success();
    let s = d.join("s.csv");
    bench_run()
        .args(["--no-summary", "--dataset"])
        .arg(datasets().join("sudoku-medium"))
        .args([
            "--strategy",
            "abc-hybrid,backtrack",
            "--seed",
            "3",
            "--seeds",
            "2",
        ])
        .args([
            "--colony-size",
            "10,20,40",
            "--limit",
            "20,adaptive",
            "--max-cycles",
            "200",
        ])
        .arg("--output")
        .arg(&s)
        .assert()
        .success();
    let mut singles = untimed(&h);
    singles.extend(untimed(&s).into_iter().map(|mut r| {
        r.job += 164;
        r
    }));
    singles
}

// Issue 40: one plan over two datasets is one run — one CSV, one meta, jobs numbered across
// the datasets in file order — equal to each dataset's own run, for any --threads, after an
// interruption and --resume, and as three shards merged back.
#[test]
fn a_plan_over_two_datasets_is_one_run_whole_resumed_or_sharded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = two_datasets(d);
    let whole = d.join("whole.csv");
    let o = run_plan(&p, &whole, &["--threads", "2"]);
    assert!(o.status.success(), "{o:?}");
    assert!(!d.join("whole.parts").exists(), "the parts are gone");
    let all = untimed(&whole);
    // hitori5: 41 puzzles × 2 seeds × 2; sudoku-medium: 50 × 2 × (6 + 1).
    assert_eq!(all.len(), 164 + 700);
    let jobs: Vec<u64> = all.iter().map(|r| r.job).collect();
    assert_eq!(
        jobs,
        (0..864).collect::<Vec<u64>>(),
        "numbered in file order"
    );
    let timed = rows(&whole);
    assert!(timed[..164]
        .iter()
        .all(|r| r.dataset == "hitori5" && r.repeats == Some(2)));
    assert!(timed[164..]
        .iter()
        .all(|r| r.dataset == "sudoku-medium" && r.repeats.is_none()));
    // Each dataset's rows are its own run's, job numbers moved past the datasets before it.
    assert_eq!(all, singles_of_two_datasets(d));
    // One meta: both datasets with their fingerprints, where each one's jobs are, the plan.
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("whole.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["jobs_total"], 864);
    assert_eq!(meta["datasets"][1]["name"], "sudoku-medium");
    assert_eq!(meta["datasets"][1]["first_job"], 164);
    assert_eq!(meta["datasets"][1]["seed"], 3);
    assert_eq!(meta["datasets"][0]["repeat"], 2);
    assert!(meta["seed"].is_null(), "the datasets' seeds differ");
    assert_eq!(
        meta["plan"]["content"],
        std::fs::read_to_string(&p).unwrap().as_str()
    );
    // One thread gives the same rows.
    let one = d.join("one.csv");
    assert!(run_plan(&p, &one, &["--threads", "1"]).status.success());
    assert_eq!(untimed(&one), all);
    // Interrupted in the second dataset, then resumed: the one-piece run.
    let cut = d.join("cut.csv");
    let child = spawn_plan(&p, &cut);
    let part = d.join("cut.parts").join("02-sudoku-medium.csv.partial");
    let first = interrupt_after(child, &part, 20);
    assert_eq!(first.status.code(), Some(130), "{first:?}");
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(err.contains("--resume") && err.contains("cut.csv"), "{err}");
    assert!(d.join("cut.parts").join("01-hitori5.csv").exists());
    // Without --resume the interrupted run is not overwritten.
    let again = run_plan(&p, &cut, &[]);
    assert_eq!(again.status.code(), Some(2), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stderr).contains("add --resume"));
    let resumed = run_plan(&p, &cut, &["--resume"]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(untimed(&cut), all);
    // Three shards, merged back.
    assert_eq!(shards_merged(&p, d, 3), all);
    // The reports read it as one run of two datasets.
    let o = assert_cmd::Command::cargo_bin("bench-report")
        .unwrap()
        .args(["summary", "--format", "csv"])
        .arg(&whole)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("hitori5,") && text.contains("sudoku-medium,"),
        "{text}"
    );
}

#[test]
fn a_bad_dataset_table_is_refused_naming_its_line_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let h = datasets().join("hitori5").display().to_string();
    // Another dataset of the same name: the first demo puzzle alone.
    let other_dir = dir.path().join("other").join("hitori5");
    std::fs::create_dir_all(&other_dir).unwrap();
    let demo = std::fs::read_to_string(datasets().join("hitori5/demo.txt")).unwrap();
    std::fs::write(other_dir.join("demo.txt"), demo).unwrap();
    std::fs::write(
        other_dir.join("generated.tsv"),
        std::fs::read_to_string(datasets().join("hitori5/generated.tsv"))
            .unwrap()
            .lines()
            .take(3)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .unwrap();
    let other = other_dir.display().to_string();
    for (body, says) in [
        (
            format!("[[dataset]]\ndataset = {h:?}\nstrategy = \"mrv\"\nthreads = 1\n"),
            "plan.toml, line 4: `threads` applies to the whole run",
        ),
        (
            "[[dataset]]\nstrategy = \"mrv\"\n".to_string(),
            "plan.toml, line 1: this [[dataset]] has no `dataset`",
        ),
        (
            format!("[[dataset]]\ndataset = {h:?}\nstrategy = \"abc\"\n"),
            "strategy abc solves sudoku puzzles, but dataset hitori5 holds none",
        ),
        (
            format!("[[dataset]]\ndataset = {h:?}\nstrategy = \"mrv\"\nseeds = 0\n"),
            "line 4: `seeds`",
        ),
        (
            format!(
                "[[dataset]]\ndataset = {h:?}\nstrategy = \"mrv\"\n[[dataset]]\ndataset = {h:?}\nstrategy = \"mrv,row\"\n"
            ),
            "the [[dataset]] at line 1 and the [[dataset]] at line 4 both run mrv [full] max_solutions=1 on",
        ),
        (
            format!(
                "[[dataset]]\ndataset = {h:?}\nstrategy = \"mrv\"\n[[dataset]]\ndataset = {other:?}\nstrategy = \"row\"\n"
            ),
            "both named hitori5",
        ),
    ] {
        let p = write(dir.path(), "plan.toml", &body);
        let out = dir.path().join("never.csv");
        let o = run_plan(&p, &out, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{body}: {err}");
        assert!(err.contains(says), "{body}: {err}");
        assert!(!out.exists() && !dir.path().join("never.parts").exists(), "{body} ran");
    }
}

/// The nightly plan docs/running.md shows is the one the suite runs.
#[test]
fn the_documented_nightly_plan_is_the_shipped_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = std::fs::read_to_string(root.join("plans/nightly.toml")).unwrap();
    let doc = std::fs::read_to_string(root.join("docs/running.md")).unwrap();
    let at = doc.find("#### Several datasets").expect("the section");
    let block = &doc[at..];
    let start = block.find("```toml\n").expect("a toml block") + 8;
    let end = start + block[start..].find("```").expect("its end");
    assert_eq!(&block[start..end], shipped);
    let suite = std::fs::read_to_string(root.join("scripts/suite.sh")).unwrap();
    assert!(suite.contains("--plan plans/nightly.toml"), "{suite}");
    let o = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench-run"))
        .args(["--plan", "plans/nightly.toml", "--dry-run"])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("part 6 of 6 (the [[dataset]] at line")
            && text.contains("4 configurations on hitori5")
            && text.contains("in all: 804 jobs in 6 parts over 6 datasets"),
        "{text}"
    );
}

// A budget set per dataset is that dataset's; the meta keeps one run-wide limit only where
// every dataset has it, and each dataset's own in its `datasets` entry.
#[test]
fn budgets_per_dataset_are_each_datasets_own() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plan = |t2: &str| {
        write(
            d,
            "budgets.toml",
            &format!(
                "no-summary = true\ntimeout = 5\n\
                 [[dataset]]\ndataset = {:?}\nstrategy = \"mrv\"\n\
                 [[dataset]]\ndataset = {:?}\nstrategy = \"backtrack\"\nnode-limit = 1000\n{t2}",
                datasets().join("hitori5").display().to_string(),
                datasets().join("sudoku-demo").display().to_string()
            ),
        )
    };
    let meta = |out: &Path| -> serde_json::Value {
        let m = out.with_extension("meta.json");
        serde_json::from_str(&std::fs::read_to_string(m).unwrap()).unwrap()
    };
    let same = d.join("same.csv");
    assert!(run_plan(&plan(""), &same, &[]).status.success());
    let m = meta(&same);
    assert_eq!(
        m["timeout_s"], 5.0,
        "both datasets ran under the top level's limit"
    );
    assert!(
        m["node_limit"].is_null(),
        "only one dataset had a node limit"
    );
    assert_eq!(m["datasets"][1]["node_limit"], 1000);
    assert!(m["datasets"][0]["node_limit"].is_null());
    let differ = d.join("differ.csv");
    let o = run_plan(&plan("timeout = 2\n"), &differ, &[]);
    assert!(o.status.success(), "{o:?}");
    let m = meta(&differ);
    assert!(m["timeout_s"].is_null(), "the datasets' limits differ");
    assert_eq!(m["datasets"][0]["timeout_s"], 5.0);
    assert_eq!(m["datasets"][1]["timeout_s"], 2.0);
    // PAR-k needs one limit: the summary says why there is none.
    let o = assert_cmd::Command::cargo_bin("bench-report")
        .unwrap()
        .arg("summary")
        .arg(&differ)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("PAR-2 omitted")
            && text.contains("ran under different time limits (hitori5: 5 s, sudoku-demo: 2 s)"),
        "{text}"
    );
}

// Issue 40: a configuration may set the options that shape its jobs (seeds, budgets, …), the
// narrowest level winning. Configurations of one dataset that differ in them run as parts of
// their own, in one run whose rows are each part's own run, for any --threads or --shard.
#[test]
fn job_options_per_configuration_split_a_dataset_into_parts_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = datasets().join("sudoku-medium");
    let p = write(
        d,
        "per-config.toml",
        &format!(
            "dataset = {:?}\nno-summary = true\nmax-cycles = 100\nseed = 4\n\
             [[config]]\nstrategy = \"backtrack\"\nnode-limit = 50\n\
             [[config]]\nstrategy = \"abc-hybrid\"\nseeds = 2\ncolony-size = [20, 40]\n\
             [[config]]\nstrategy = \"abc\"\nseeds = 2\n",
            data.display().to_string()
        ),
    );
    let o = run_plan(&p, &d.join("dry.csv"), &["--dry-run"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{o:?}");
    assert!(
        text.contains("part 1 of 2 (the top level, the [[config]] at line 5)")
            && text.contains("part 2 of 2 (the top level, the [[config]] at lines 8, 12)")
            && text.contains("in all: 350 jobs in 2 parts over 1 dataset"),
        "{text}"
    );
    let whole = d.join("whole.csv");
    let o = run_plan(&p, &whole, &["--threads", "2"]);
    assert!(o.status.success(), "{o:?}");
    let all = untimed(&whole);
    assert_eq!(all.len(), 50 + 300);
    // Each part is the command line it stands for.
    let single = |name: &str, args: &[&str]| {
        let out = d.join(name);
        bench_run()
            .args(["--no-summary", "--seed", "4", "--dataset"])
            .arg(&data)
            .args(args)
            .arg("--output")
            .arg(&out)
            .assert()
            .success();
        untimed(&out)
    };
    let mut expected = single("bt.csv", &["--strategy", "backtrack", "--node-limit", "50"]);
    expected.extend(
        single(
            "abc.csv",
            &[
                "--strategy",
                "abc-hybrid",
                "--colony-size",
                "20,40",
                "--seeds",
                "2",
                "--max-cycles",
                "100",
            ],
        )
        .into_iter()
        .chain(single(
            "abc2.csv",
            &["--strategy", "abc", "--seeds", "2", "--max-cycles", "100"],
        ))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|mut r| {
            r.job += 50;
            r
        }),
    );
    let key = |r: &puzzlebench::results::Record| {
        (
            r.puzzle_id.clone(),
            r.strategy.clone(),
            r.params.clone(),
            r.seed,
            r.colony,
        )
    };
    let mut got = all.clone();
    for rows in [&mut got, &mut expected] {
        rows.iter_mut().for_each(|r| r.job = 0);
        rows.sort_by_key(key);
    }
    assert_eq!(got, expected, "the parts' rows are their single runs'");
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("whole.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["datasets"][0]["node_limit"], 50);
    assert_eq!(meta["datasets"][1]["seeds"], 2);
    assert_eq!(meta["datasets"][1]["first_job"], 50);
    // One thread, and two shards merged back, give the same rows.
    let one = d.join("one.csv");
    assert!(run_plan(&p, &one, &["--threads", "1"]).status.success());
    assert_eq!(untimed(&one), all);
    assert_eq!(shards_merged(&p, d, 2), all);
    // Flags beside --plan win over every configuration's values: nothing left to split.
    let flags = ["--seeds", "1", "--node-limit", "50", "--dry-run"];
    let o = run_plan(&p, &d.join("flat.csv"), &flags);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{o:?}");
    assert!(
        !text.contains("part 1 of") && text.contains("jobs: 200 (seeds 1,"),
        "{text}"
    );
}

/// What stands in, in a dry run, for an input a shipped plan names that the repository does
/// not hold: a public corpus, or puzzles a script makes before it runs the plan.
enum StandIn {
    /// Hitori puzzles (a copy of a bundled file).
    Hitori,
    /// 9x9 Sudoku lines (a copy of a bundled file).
    Sudoku,
    /// A bundled dataset, linked under the name the plan gives it.
    Bundled(&'static str),
    /// A directory of K²xK² Sudoku puzzles (bench-gen's, as the ACS instances are).
    Order(u32),
}

/// The stand-in for `path` of a shipped plan, or `None` for a path no script makes (a
/// missing input is then the plan's fault).
fn stand_in(path: &str) -> Option<StandIn> {
    // scripts/reproduce.sh: the corpora linked into, and its own inputs written to,
    // results/reproduce/ before the plans run.
    const CORPORA: &str = "results/reproduce/corpora/";
    const GIVENS: &str = "results/reproduce/givens/";
    Some(match path {
        "results/reproduce/corpora/tud-singles-5to25.tsv" => StandIn::Hitori,
        p if p.starts_with(CORPORA) || p.starts_with(GIVENS) => StandIn::Sudoku,
        // scripts/abc_prop_vs_acs.sh runs its plan in OUTDIR, where it puts these.
        "sudoku-hard" => StandIn::Bundled("sudoku-hard"),
        "qq.txt"
        | "fh100.txt"
        | "puzzles6_forum_hardest_1106.txt"
        | "puzzles3_magictour_top1465.txt" => StandIn::Sudoku,
        "d16" => StandIn::Order(4),
        "d25" => StandIn::Order(5),
        _ => return None,
    })
}

/// The `dataset` paths of a plan file: the top level's and each `[[dataset]]` table's.
fn plan_datasets(plan: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(plan).unwrap();
    let table: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", plan.display()));
    match table.get("dataset") {
        None => Vec::new(),
        Some(toml::Value::String(one)) => vec![one.clone()],
        Some(toml::Value::Array(tables)) => (tables.iter())
            .map(|t| {
                let d = t.get("dataset").and_then(toml::Value::as_str);
                d.unwrap_or_else(|| panic!("{}: a [[dataset]] without one", plan.display()))
                    .to_string()
            })
            .collect(),
        Some(v) => panic!("{}: dataset = {v:?}", plan.display()),
    }
}

/// Every plan the repository ships (plans/*.toml, the nightly suite's, the reproduction's, the
/// ACS comparison's) parses and dry-runs: exit 0 and its job count. The bundled datasets are
/// the repository's own (one missing is a failure); the inputs its scripts make or link in
/// first are stood in for by puzzles of the same kind, so this runs on a fresh clone, where
/// ../shared is absent.
#[test]
fn every_shipped_plan_parses_and_dry_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut plans: Vec<PathBuf> = std::fs::read_dir(root.join("plans"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    plans.sort();
    // colony-sweep, nightly, the reproduction's three and the ACS comparison's.
    assert!(plans.len() >= 6, "{plans:?}");
    for plan in &plans {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::os::unix::fs::symlink(datasets(), d.join("datasets")).unwrap();
        for path in plan_datasets(plan) {
            if Path::new(&path).starts_with("datasets") {
                assert!(root.join(&path).exists(), "{}: no {path}", plan.display());
                continue;
            }
            let to = d.join(&path);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            let copy = |from: &str| std::fs::copy(datasets().join(from), &to).map(|_| ());
            match stand_in(&path) {
                Some(StandIn::Hitori) => copy("hitori5/generated.tsv").unwrap(),
                Some(StandIn::Sudoku) => copy("sudoku-medium/generated.txt").unwrap(),
                Some(StandIn::Bundled(name)) => {
                    std::os::unix::fs::symlink(datasets().join(name), &to).unwrap()
                }
                Some(StandIn::Order(k)) => {
                    std::fs::create_dir(&to).unwrap();
                    assert_cmd::Command::cargo_bin("bench-gen")
                        .unwrap()
                        .args(["sudoku", "--order", &k.to_string(), "--given-pct", "45"])
                        .args(["--count", "2", "--out"])
                        .arg(to.join("g.txt"))
                        .assert()
                        .success();
                }
                None => panic!(
                    "{} names {path}, neither a bundled dataset nor an input a script makes \
                     (give it a stand-in here)",
                    plan.display()
                ),
            }
        }
        let o = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench-run"))
            .arg("--plan")
            .arg(plan)
            .arg("--dry-run")
            .current_dir(d)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}: {o:?}", plan.display());
        // A plan of several parts ends with the total; one of one part says its jobs.
        let jobs = (text
            .split_once("in all: ")
            .or_else(|| text.split_once("jobs: ")))
        .and_then(|(_, rest)| rest.split(' ').next()?.parse::<u64>().ok());
        assert!(
            jobs.is_some_and(|n| n > 0) && text.contains("nothing was run"),
            "{}: no job count in\n{text}",
            plan.display()
        );
        // The reproduction's plan runs on bundled data only: its count is exact, each job once.
        if plan.ends_with("plans/reproduce.toml") {
            assert!(
                text.contains("in all: 12054 jobs in 13 parts over 7 datasets"),
                "{text}"
            );
        }
    }
}

#[test]
fn a_plan_of_several_parts_writes_one_trace_of_its_single_runs() {
    use puzzlebench::results::trace::read_trace;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (demo, hitori, easy) = (
        datasets().join("sudoku-demo"),
        datasets().join("hitori5"),
        datasets().join("sudoku-easy"),
    );
    let trace = d.join("whole.trace.csv");
    // Four parts: two on sudoku-demo (the configurations' seeds differ), a Hitori part that
    // traces nothing, then sudoku-easy.
    let p = write(
        d,
        "traced.toml",
        &format!(
            "trace = {:?}\nno-summary = true\nmax-cycles = 60\n\
             [[dataset]]\ndataset = {:?}\n\
             [[dataset.config]]\nstrategy = \"abc\"\nseeds = 2\n\
             [[dataset.config]]\nstrategy = \"abc\"\nlimit = 10\nseeds = 1\n\
             [[dataset]]\ndataset = {:?}\nstrategy = \"mrv\"\n\
             [[dataset]]\ndataset = {:?}\nstrategy = \"abc\"\n",
            trace.display().to_string(),
            demo.display().to_string(),
            hitori.display().to_string(),
            easy.display().to_string()
        ),
    );
    let whole = d.join("whole.csv");
    let o = run_plan(&p, &whole, &["--threads", "2"]);
    assert!(o.status.success(), "{o:?}");
    let rows = untimed(&whole);
    let runs = read_trace(&trace).expect("the run's trace");
    // One trace run per ABC row, numbered as the rows are.
    let abc: Vec<_> = rows.iter().filter(|r| r.strategy == "abc").collect();
    assert_eq!(runs.len(), abc.len());
    assert!(abc.len() > 3 && rows.len() > abc.len(), "{}", rows.len());
    for t in &runs {
        let r = (abc.iter())
            .find(|r| {
                r.puzzle_id == t.puzzle_id && r.seed == t.seed && r.params.as_str() == t.params
            })
            .expect("a row for every trace run");
        assert_eq!((r.job, &r.dataset), (t.job, &t.dataset), "{t:?}");
    }
    // And each run's curve is that of its single run.
    let single = |name: &str, data: &Path, args: &[&str]| {
        let (out, tr) = (
            d.join(format!("{name}.csv")),
            d.join(format!("{name}.trace.csv")),
        );
        bench_run()
            .args(["--no-summary", "--max-cycles", "60", "--strategy", "abc"])
            .arg("--dataset")
            .arg(data)
            .args(args)
            .arg("--output")
            .arg(&out)
            .arg("--trace")
            .arg(&tr)
            .assert()
            .success();
        read_trace(&tr).expect("single trace")
    };
    let mut singles = single("a", &demo, &["--seeds", "2"]);
    singles.extend(single("b", &demo, &["--limit", "10"]));
    singles.extend(single("c", &easy, &[]));
    let key = |t: &puzzlebench::results::trace::TraceRun| {
        (
            t.dataset.clone(),
            t.puzzle_id.clone(),
            t.params.clone(),
            t.seed,
            t.points.clone(),
        )
    };
    let mut a: Vec<_> = runs.iter().map(key).collect();
    let mut b: Vec<_> = singles.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    // The trace is checked as a run of one dataset checks it, before anything runs.
    let again = d.join("again.csv");
    let o = run_plan(&p, &again, &[]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("trace file already exists"));
    let o = run_plan(&p, &again, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(!again.exists() && !d.join("again.parts").exists());
}
