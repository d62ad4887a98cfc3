//! One run over several datasets (a plan file's `[[dataset]]` tables): one results CSV and
//! one meta, resumable, shardable and mergeable like a run of one dataset.
//!
//! Each dataset is run as a part by [`bench()`] — its own plan, pair groups, fair order,
//! journal and resume — into `<output>.parts/`, one after the other. When the last part is
//! complete, the parts are put together: their rows in part order, each part's job numbers
//! moved past the parts before it (so jobs are numbered across datasets in file order), the
//! optional columns their union, and one meta whose `datasets` list says where each part's
//! jobs are. Then the parts go. An interrupted run leaves its finished parts and the
//! interrupted part's journal; `--resume` keeps the first, continues the second and runs the
//! rest. A shard (`--shard K/N`) is slice K of every part, so `bench-report merge` puts
//! shards together as it does for one dataset (the meta's layout covers every part).

use super::bench::{bench, lock_output, BenchConfig, BenchError, BenchOutcome, RunPaths};
use super::output::journal_path;
use super::plan::{Plan, MAX_JOBS};
use crate::dataset::Dataset;
use crate::results::meta::{self, DatasetPart, Execution, RunMeta, RunStatus};
use crate::results::read::{for_each_result, read_meta};
use crate::results::write::{write_meta, AtomicFile};
use crate::results::{Columns, PlanLayout, Status};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Where a run writing `output` keeps its parts until they are put together.
pub fn parts_dir(output: &Path) -> PathBuf {
    let mut name = output
        .file_stem()
        .map(|s| s.to_os_string())
        .unwrap_or_default();
    name.push(".parts");
    output.with_file_name(name)
}

/// Run `parts` (one configuration per dataset, in file order) as one run writing `output`.
/// Every part is checked before any runs (its options, dataset and plan); `force` and
/// `resume` are the run's.
pub fn bench_datasets(
    mut parts: Vec<BenchConfig>,
    output: &Path,
    force: bool,
    resume: bool,
    interrupt: &AtomicBool,
) -> Result<BenchOutcome, BenchError> {
    let usage = |m: String| Err(BenchError::Usage(m));
    if parts.is_empty() {
        return usage("the plan names no dataset".into());
    }
    // One run, one trace: each part traces into the parts directory and the traces are put
    // together with the rows.
    let trace = parts.iter().find_map(|p| p.trace.clone());
    if let Some(t) = &trace {
        if let Some(p) = parts
            .iter()
            .find(|p| p.trace.as_ref().is_some_and(|o| o != t))
        {
            return usage(format!(
                "--trace: one run writes one trace, but dataset {} names {} and another {}",
                p.dataset.display(),
                p.trace.as_deref().unwrap_or(t).display(),
                t.display()
            ));
        }
        check_trace(t, output, force, resume)?;
    }
    let paths = RunPaths::new(output, None);
    let dir = parts_dir(output);
    if output.exists() && !force {
        return usage(if resume {
            format!(
                "--resume: {} is complete; there is nothing to continue (--force to run it again)",
                output.display()
            )
        } else {
            format!(
                "{} exists; pass --force to overwrite it or --output for another file",
                output.display()
            )
        });
    }
    if dir.exists() && !resume && !force {
        return usage(format!(
            "{}: an interrupted run of this plan left its parts here; add --resume to continue \
             it, or --force to start over",
            dir.display()
        ));
    }
    if resume && !dir.exists() {
        return usage(format!(
            "--resume: {} does not exist, so there is no interrupted run to continue for {}",
            dir.display(),
            output.display()
        ));
    }
    if output.extension().is_some_and(|e| e == "json") {
        return usage(format!(
            "{}: looks like a meta file; give the results a .csv name",
            output.display()
        ));
    }
    super::bench::check_writable("output", output)?;
    let plans = plan_parts(&mut parts, &dir, force, resume)?;
    let _lock = lock_output(&paths)?;
    if force && !resume && dir.exists() {
        std::fs::remove_dir_all(&dir)
            .map_err(|e| BenchError::Io(format!("{}: cannot remove it: {e}", dir.display())))?;
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| BenchError::Io(format!("{}: cannot create it: {e}", dir.display())))?;
    let mut outcomes: Vec<BenchOutcome> = Vec::with_capacity(parts.len());
    let n = parts.len();
    for (i, p) in parts.into_iter().enumerate() {
        let plan = &plans[i];
        if plan.done {
            outcomes.push(finished_part(&plan.part)?);
            continue;
        }
        if p.progress {
            eprintln!("bench-run: part {} of {n}: {}", i + 1, plan.path.display());
        }
        let o = bench(p, interrupt)?;
        if o.interrupted {
            let before: u64 = outcomes.iter().map(|o| o.done).sum();
            let later: u64 = plans[i + 1..].iter().map(|p| p.shard_jobs).sum();
            return Ok(BenchOutcome {
                done: before + o.done,
                jobs: plans[..i].iter().map(|p| p.shard_jobs).sum::<u64>() + o.jobs + later,
                path: dir,
                ..o
            });
        }
        outcomes.push(o);
    }
    put_together(&outcomes, &plans, output, &dir, trace.as_deref())
}

/// Where a part writes its trace.
fn part_trace(part: &Path) -> PathBuf {
    part.with_extension("trace.csv")
}

/// The run's trace path, checked before anything runs as a run of one dataset checks it.
fn check_trace(t: &Path, output: &Path, force: bool, resume: bool) -> Result<(), BenchError> {
    let usage = |m: String| Err(BenchError::Usage(m));
    if resume {
        return usage("--trace cannot be combined with --resume: traces of the earlier jobs were not kept; rerun without --resume".into());
    }
    let same = |a: &Path, b: &Path| {
        a == b
            || std::fs::canonicalize(a)
                .ok()
                .zip(std::fs::canonicalize(b).ok())
                .is_some_and(|(x, y)| x == y)
    };
    if same(t, output) || same(t, &meta::meta_path(output)) {
        return usage(format!(
            "--trace {}: the same file as the run's output or meta; choose another name",
            t.display()
        ));
    }
    super::bench::check_trace_place(t, force)?;
    super::bench::check_writable("trace", t)
}

/// Two parts that would run the same jobs: the same configuration on the same dataset with
/// seeds in common. Returns the parts' indices and the configuration (`name [rules] params`).
pub fn overlapping_jobs(parts: &[BenchConfig]) -> Option<(usize, usize, String)> {
    let seeds = |c: &BenchConfig| c.seed..c.seed.saturating_add(u64::from(c.seeds));
    let ids = |c: &BenchConfig| -> Vec<String> {
        (c.solvers.iter())
            .map(|s| crate::solver::config_id(s.as_ref()))
            .collect()
    };
    for (j, b) in parts.iter().enumerate() {
        for (i, a) in parts[..j].iter().enumerate() {
            let (sa, sb) = (seeds(a), seeds(b));
            if a.dataset != b.dataset || sa.start >= sb.end || sb.start >= sa.end {
                continue;
            }
            let theirs = ids(b);
            if let Some(s) = ids(a).into_iter().find(|s| theirs.contains(s)) {
                return Some((i, j, s));
            }
        }
    }
    None
}

/// Every part's plan, before anything runs: its jobs number the next part's first job. Each
/// part to run is checked as a run of its own ([`super::bench::preflight`]).
fn plan_parts(
    parts: &mut [BenchConfig],
    dir: &Path,
    force: bool,
    resume: bool,
) -> Result<Vec<PartPlan>, BenchError> {
    let usage = |m: String| Err(BenchError::Usage(m));
    if let Some((i, j, s)) = overlapping_jobs(parts) {
        return usage(format!(
            "parts {} and {} both run {} on {} with seeds in common: its jobs would run twice",
            i + 1,
            j + 1,
            s.trim_end(),
            parts[i].dataset.display()
        ));
    }
    let mut plans: Vec<PartPlan> = Vec::with_capacity(parts.len());
    let mut first = 0u64;
    for (i, p) in parts.iter_mut().enumerate() {
        let data = Dataset::open(&p.dataset)?;
        let plan = Plan::new(&data, &p.solvers, p.seed, p.seeds, p.colonies)?;
        // Two parts may read one dataset (configurations that differ in their job options);
        // two different datasets of one name could not be told apart in the rows.
        if let Some(other) =
            (plans.iter()).find(|o| o.name == data.name && o.hash != data.content_hash())
        {
            return usage(format!(
                "datasets {} and {} are both named {}: their rows could not be told apart; \
                 give a dataset's configurations in one [[dataset]] table",
                other.path.display(),
                p.dataset.display(),
                data.name
            ));
        }
        let part = dir.join(format!("{:02}-{}.csv", i + 1, data.name));
        let done = resume
            && read_meta(&part)
                .ok()
                .flatten()
                .is_some_and(|m| m.status == Some(RunStatus::Complete))
            && part.exists();
        p.resume = resume && !done && journal_path(&part).exists();
        p.force = force && !resume;
        p.output = Some(part.clone());
        // The parts directory does not exist yet: the part's trace path is checked here with
        // the run's (`check_trace`) and again when the part starts.
        let trace = p.trace.take();
        if !done {
            super::bench::preflight(p)?;
        }
        p.trace = trace.map(|_| part_trace(&part));
        plans.push(PartPlan {
            first,
            jobs: plan.len(),
            shard_jobs: plan.shard_len(p.shard),
            name: data.name.clone(),
            hash: data.content_hash(),
            path: p.dataset.clone(),
            part,
            done,
        });
        first = first
            .checked_add(plan.len())
            .filter(|&t| t <= MAX_JOBS)
            .ok_or_else(|| {
                BenchError::Usage(format!(
                    "the plan's datasets hold more than {MAX_JOBS} jobs together; split it"
                ))
            })?;
    }
    Ok(plans)
}

/// One part's place in the run.
struct PartPlan {
    /// Its first job's number in the run.
    first: u64,
    /// Its jobs (all shards) and this shard's.
    jobs: u64,
    shard_jobs: u64,
    /// Its dataset's name, content fingerprint and path.
    name: String,
    hash: String,
    path: PathBuf,
    /// Its results file under the parts directory.
    part: PathBuf,
    /// Finished by an earlier invocation (`--resume`).
    done: bool,
}

/// The outcome of a part finished by an earlier invocation.
fn finished_part(part: &Path) -> Result<BenchOutcome, BenchError> {
    let meta = read_meta(part)
        .map_err(|e| BenchError::Io(e.to_string()))?
        .unwrap_or_default();
    let mut counts = BTreeMap::new();
    for (k, v) in &meta.status_counts {
        if let Ok(s) = k.parse::<Status>() {
            counts.insert(s, *v);
        }
    }
    Ok(BenchOutcome {
        path: part.to_path_buf(),
        interrupted: false,
        status_counts: counts,
        jobs: meta.jobs_in_shard.unwrap_or(0),
        done: meta.jobs_done.unwrap_or(0),
        meta,
    })
}

/// The parts as one run: rows renumbered and written under the union of their columns, one
/// meta; then the parts go.
fn put_together(
    outcomes: &[BenchOutcome],
    plans: &[PartPlan],
    output: &Path,
    dir: &Path,
    trace: Option<&Path>,
) -> Result<BenchOutcome, BenchError> {
    let io = |e: String| BenchError::Io(e);
    if let Some(t) = trace {
        put_traces_together(outcomes, plans, t)?;
    }
    let metas: Vec<&RunMeta> = outcomes.iter().map(|o| &o.meta).collect();
    let columns = metas
        .iter()
        .filter_map(|m| m.columns)
        .fold(Columns::default(), Columns::union);
    let mut file = AtomicFile::create(output, true).map_err(|e| io(e.to_string()))?;
    let mut buf = Vec::with_capacity(1 << 16);
    buf.extend(crate::results::write::csv_line(columns.header()).map_err(|e| io(e.to_string()))?);
    let mut status_counts: BTreeMap<Status, u64> = BTreeMap::new();
    let mut rows = 0u64;
    for (o, p) in outcomes.iter().zip(plans) {
        // A shard may hold no job of a small dataset: its part is a header alone.
        if o.meta.jobs_in_shard == Some(0) {
            continue;
        }
        let first = p.first;
        for_each_result(&o.path, |mut r| {
            r.job += first;
            r.write_csv(columns, &mut buf);
            if let Some(st) = r.status {
                *status_counts.entry(st).or_default() += 1;
            }
            rows += 1;
            if buf.len() >= 1 << 16 {
                file.write_all(&buf)
                    .map_err(|e| crate::results::ReadError::Io {
                        path: output.to_path_buf(),
                        source: e,
                    })?;
                buf.clear();
            }
            Ok(())
        })
        .map_err(|e| io(e.to_string()))?;
    }
    file.write_all(&buf)
        .map_err(|e| io(format!("{}: {e}", output.display())))?;
    let meta = joined_meta(&metas, plans, columns, output, &status_counts, rows);
    file.commit().map_err(|e| io(e.to_string()))?;
    write_meta(&meta::meta_path(output), &meta).map_err(|e| io(e.to_string()))?;
    std::fs::remove_dir_all(dir)
        .map_err(|e| io(format!("{}: cannot remove the parts: {e}", dir.display())))?;
    Ok(BenchOutcome {
        path: output.to_path_buf(),
        interrupted: false,
        status_counts,
        jobs: rows,
        done: rows,
        meta,
    })
}

/// The parts' traces as the run's, job numbers moved as the rows' are (a part with no ABC
/// job, or no job in this shard, wrote none).
fn put_traces_together(
    outcomes: &[BenchOutcome],
    plans: &[PartPlan],
    trace: &Path,
) -> Result<(), BenchError> {
    let io = |e: String| BenchError::Io(e);
    let mut file = AtomicFile::create(trace, true).map_err(|e| io(e.to_string()))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut file);
    let mut header = true;
    for (o, p) in outcomes.iter().zip(plans) {
        let t = part_trace(&o.path);
        if !t.exists() {
            continue;
        }
        crate::results::trace::append_shifted(&t, p.first, header, &mut w)
            .map_err(|e| io(e.to_string()))?;
        header = false;
    }
    if header {
        let h = crate::results::trace::TRACE_COLUMNS.join(",");
        writeln!(w, "{h}").map_err(|e| io(format!("{}: {e}", trace.display())))?;
    }
    w.flush()
        .map_err(|e| io(format!("{}: {e}", trace.display())))?;
    drop(w);
    file.commit().map_err(|e| io(e.to_string()))
}

/// The same value in every part, or none.
fn agreed<T: PartialEq + Copy>(metas: &[&RunMeta], f: impl Fn(&RunMeta) -> Option<T>) -> Option<T> {
    let first = f(metas.first()?)?;
    metas.iter().all(|m| f(m) == Some(first)).then_some(first)
}

/// The meta of the whole run from its parts' metas.
fn joined_meta(
    metas: &[&RunMeta],
    plans: &[PartPlan],
    columns: Columns,
    output: &Path,
    status_counts: &BTreeMap<Status, u64>,
    rows: u64,
) -> RunMeta {
    let mut m = metas.first().map(|m| (*m).clone()).unwrap_or_default();
    m.results_file = meta::results_file_name(output);
    m.dataset = plans
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    m.dataset_name = None;
    m.dataset_hash = None;
    m.puzzles = Some(metas.iter().filter_map(|p| p.puzzles).sum());
    let mut strategies = Vec::new();
    let mut solvers = Vec::new();
    m.efforts = BTreeMap::new();
    for p in metas {
        for s in &p.strategies {
            if !strategies.contains(s) {
                strategies.push(s.clone());
            }
        }
        for s in &p.solvers {
            if !solvers.contains(s) {
                solvers.push(s.clone());
            }
        }
        m.efforts.extend(p.efforts.clone());
    }
    m.strategies = strategies;
    m.solvers = solvers;
    m.columns = Some(columns);
    m.seed = agreed(metas, |p| p.seed);
    m.seeds = agreed(metas, |p| p.seeds);
    m.colonies = agreed(metas, |p| p.colonies);
    // A time limit the datasets do not share is no run's limit: reports then leave PAR-k out,
    // saying why, unless given one.
    m.timeout_s = agreed(metas, |p| p.timeout_s);
    m.node_limit = agreed(metas, |p| p.node_limit);
    m.jobs_total = Some(plans.iter().map(|p| p.jobs).sum());
    m.jobs_in_shard = Some(rows);
    m.jobs_done = Some(rows);
    // One plan: the parts' plans in order.
    let mut h = crate::hash::StableHasher::default();
    for p in metas {
        h.write_str(p.plan_hash.as_deref().unwrap_or(""));
        h.write_u64(0);
    }
    m.plan_hash = Some(format!("{:016x}", h.finish()));
    m.started = metas.iter().filter_map(|p| p.started.clone()).min();
    m.finished = metas.iter().filter_map(|p| p.finished.clone()).max();
    m.status = Some(RunStatus::Complete);
    m.status_counts = status_counts
        .iter()
        .map(|(s, n)| (s.as_str().to_string(), *n))
        .collect();
    m.host_state = joined_host_state(metas);
    m.execution = joined_execution(metas, plans);
    m.datasets = metas
        .iter()
        .zip(plans)
        .map(|(p, plan)| DatasetPart {
            path: p.dataset.clone(),
            name: plan.name.clone(),
            hash: p.dataset_hash.clone().unwrap_or_default(),
            puzzles: p.puzzles.unwrap_or(0),
            solvers: p.solvers.clone(),
            seed: p.seed.unwrap_or(0),
            seeds: p.seeds.unwrap_or(1),
            colonies: p.colonies.unwrap_or(1),
            repeat: p.extra.get("repeat").and_then(|v| v.as_u64()).unwrap_or(1),
            timeout_s: p.timeout_s,
            node_limit: p.node_limit,
            first_job: plan.first,
            jobs: plan.jobs,
        })
        .collect();
    m.extra.remove("repeat");
    m
}

/// The parts' execution as the run's: the first part's order, warm-up and pinning, the layouts
/// one after the other, the limits where every part has the same.
fn joined_execution(metas: &[&RunMeta], plans: &[PartPlan]) -> Option<Execution> {
    metas
        .first()
        .and_then(|f| f.execution.clone())
        .map(|e| Execution {
            layout: PlanLayout {
                blocks: metas
                    .iter()
                    .zip(plans)
                    .flat_map(|(p, plan)| {
                        let first = plan.first;
                        (p.execution.iter())
                            .flat_map(|x| x.layout.blocks.iter())
                            .map(move |&(b, colonies)| (first + b, colonies))
                    })
                    .collect(),
            },
            limits: meta::Limits {
                cpu_limit_s: agreed(metas, |p| {
                    p.execution.as_ref().and_then(|x| x.limits.cpu_limit_s)
                }),
                memory_limit_bytes: agreed(metas, |p| {
                    p.execution
                        .as_ref()
                        .and_then(|x| x.limits.memory_limit_bytes)
                }),
                ..e.limits.clone()
            },
            ..e
        })
}

/// The host's state over the parts.
fn joined_host_state(metas: &[&RunMeta]) -> Option<meta::HostState> {
    // Others' CPU and the run's own add up over parts run one after the other.
    metas.iter().try_fold(meta::HostState::default(), |acc, p| {
        let h = p.host_state.as_ref()?;
        let add = |a: Option<f64>, b: Option<f64>| Some(a.unwrap_or(0.0) + b?);
        Some(meta::HostState {
            load1_start: acc.load1_start.or(h.load1_start),
            load1_end: h.load1_end,
            wall_s: add(acc.wall_s, h.wall_s),
            run_cpu_s: add(acc.run_cpu_s, h.run_cpu_s),
            host_busy_cpu_s: add(acc.host_busy_cpu_s, h.host_busy_cpu_s),
            others_cpu_s: add(acc.others_cpu_s, h.others_cpu_s),
        })
    })
}
