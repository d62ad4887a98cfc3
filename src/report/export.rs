//! A comparison as files for people and for CI dashboards: markdown for a job summary, and
//! the JSON that github-action-benchmark and Bencher take. Pure serialisation: the caller writes
//! the files.

use crate::report::compare::{
    cell, Comparison, CounterChange, GroupComparison, Job, StatusChange, TimeVerdict,
};
use crate::report::stats;
use crate::report::{fmt_secs, sig3};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Markdown for a terminal or a GitHub job summary: the verdict first, then tables, long
/// lists capped at the comparison's list limit with "… and N more".
pub fn markdown(c: &Comparison) -> String {
    markdown_capped(c, c.list_limit)
}

/// Markdown with every change listed (`--markdown-out`): the file is the complete record, only
/// the terminal is shortened.
pub fn markdown_full(c: &Comparison) -> String {
    markdown_capped(c, usize::MAX)
}

fn markdown_capped(c: &Comparison, cap: usize) -> String {
    let t = c.tally();
    let mut out = format!("## {}\n\n", c.headline());
    let _ = writeln!(
        out,
        "Baseline `{}` ({} rows) vs new `{}` ({} rows): {} jobs joined.\n",
        c.baseline_label, c.base_rows, c.new_label, c.new_rows, t.joined
    );
    if !c.duplicate_keys.is_empty() {
        let _ = writeln!(
            out,
            "⚠️ {} duplicate job keys (first row kept): {}\n",
            c.duplicate_keys.len(),
            capped_inline(&c.duplicate_keys, cap)
        );
    }

    for n in &c.notes {
        let _ = writeln!(out, "Note: {}\n", md(n));
    }
    markdown_wall_time(&mut out, c);
    markdown_cpu_time(&mut out, c);
    markdown_status_changes(&mut out, c, cap);
    markdown_counter_changes(&mut out, c, cap);
    markdown_job_lists(&mut out, c, cap);
    out
}

/// The wall-time table: every group, judged or not, so a reader sees what was left unjudged.
fn markdown_wall_time(out: &mut String, c: &Comparison) {
    out.push_str("### Wall time\n\n");
    let _ = writeln!(
        out,
        "Ratio of medians new/base over joined jobs, 95% percentile-bootstrap interval \
         (B = {}; groups over {} runs use fewer, B·n ≤ 2·10⁸); flagged only when the \
         whole interval lies outside 1 ± {} (noise band: {}).\n",
        c.resamples,
        stats::BOOTSTRAP_DRAWS / c.resamples.max(1),
        c.noise_band,
        md(&c.band_source)
    );
    if let Some(why) = &c.wall_not_judged {
        let _ = writeln!(out, "Wall times not judged: noisy host ({}).\n", md(why));
    }
    time_table(out, c, |g| Some(&g.time));
}

/// The CPU time table (`cpu_s`), where both sides measured it: judged on any host.
fn markdown_cpu_time(out: &mut String, c: &Comparison) {
    if c.groups.iter().all(|g| g.cpu.is_none()) {
        return;
    }
    out.push_str("### CPU time\n\n");
    let _ = writeln!(
        out,
        "Ratio of medians of `cpu_s` new/base over the joined jobs both sides measured, \
         judged as wall time is but on any host (others' load barely moves a run's own CPU \
         time).\n"
    );
    time_table(out, c, |g| g.cpu.as_ref());
}

fn time_table(
    out: &mut String,
    c: &Comparison,
    of: impl Fn(&GroupComparison) -> Option<&crate::report::compare::TimeChange>,
) {
    out.push_str("| dataset | strategy | runs | base median | new median | new/base | 95% interval | verdict |\n");
    out.push_str("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for g in &c.groups {
        let Some(t) = of(g) else { continue };
        let (r, ci) = match t.ratio {
            Some(i) => (
                format!("x{:.3}", i.value),
                format!("[{:.3}, {:.3}]", i.lo, i.hi),
            ),
            None => ("-".to_string(), "-".to_string()),
        };
        let verdict = match t.verdict {
            TimeVerdict::Slowdown => "🐢 slower",
            TimeVerdict::Speedup => "🚀 faster",
            TimeVerdict::Unchanged => "within noise",
            TimeVerdict::NotJudged => "not judged (too few runs)",
            TimeVerdict::Noisy => "not judged: noisy host",
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {r} | {ci} | {verdict} |",
            md(&g.key.dataset),
            md(&g.label),
            t.runs,
            t.base_median_s.map_or("-".to_string(), fmt_secs),
            t.new_median_s.map_or("-".to_string(), fmt_secs),
        );
    }
}

/// Status changes across all groups, at most `cap`.
fn markdown_status_changes(out: &mut String, c: &Comparison, cap: usize) {
    let status: Vec<(&GroupComparison, &StatusChange)> = c
        .groups
        .iter()
        .flat_map(|g| g.status_changes.iter().map(move |s| (g, s)))
        .collect();
    if !status.is_empty() {
        let _ = writeln!(out, "\n### Status changes ({})\n", status.len());
        out.push_str("| dataset | strategy | puzzle | seed | colony | baseline | new | change |\n");
        out.push_str("| --- | --- | --- | ---: | ---: | --- | --- | --- |\n");
        for (g, s) in status.iter().take(cap) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                md(&g.key.dataset),
                md(&g.label),
                md(&s.job.puzzle_id),
                s.job.seed,
                s.job.colony,
                cell(&s.base),
                cell(&s.new),
                s.direction.word()
            );
        }
        more(out, status.len(), cap);
    }
}

/// Counter changes across all groups, at most `cap`.
fn markdown_counter_changes(out: &mut String, c: &Comparison, cap: usize) {
    let counters: Vec<(&GroupComparison, &CounterChange)> = c
        .groups
        .iter()
        .flat_map(|g| g.counter_changes.iter().map(move |c| (g, c)))
        .collect();
    if !counters.is_empty() {
        let _ = writeln!(out, "\n### Counter changes ({})\n", counters.len());
        out.push_str(
            "| dataset | strategy | puzzle | seed | colony | counter | baseline | new | change |\n",
        );
        out.push_str("| --- | --- | --- | ---: | ---: | --- | ---: | ---: | --- |\n");
        let mut sorted = counters;
        // Worse first across all groups, so the cap never hides a regression behind
        // improvements.
        sorted.sort_by_key(|(_, c)| c.direction);
        for (g, c) in sorted.iter().take(cap) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                md(&g.key.dataset),
                md(&g.label),
                md(&c.job.puzzle_id),
                c.job.seed,
                c.job.colony,
                c.counter,
                md(&c.base),
                md(&c.new),
                c.direction.word()
            );
        }
        more(out, sorted.len(), cap);
    }
}

/// The jobs only one run has, missing from new first.
fn markdown_job_lists(out: &mut String, c: &Comparison, cap: usize) {
    for (title, pick) in [("Rows missing from new", true), ("Rows only in new", false)] {
        let rows: Vec<(&GroupComparison, &Job)> = c
            .groups
            .iter()
            .flat_map(|g| {
                let list = if pick {
                    &g.missing_in_new
                } else {
                    &g.only_in_new
                };
                list.iter().map(move |j| (g, j))
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n### {title} ({})\n", rows.len());
        out.push_str("| dataset | strategy | puzzle | seed | colony |\n");
        out.push_str("| --- | --- | --- | ---: | ---: |\n");
        for (g, j) in rows.iter().take(cap) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                md(&g.key.dataset),
                md(&g.label),
                md(&j.puzzle_id),
                j.seed,
                j.colony
            );
        }
        more(out, rows.len(), cap);
    }
}

fn bench_name(g: &GroupComparison) -> String {
    // Always with parameters: tracker names must not change when another group appears.
    format!("{}/{}", g.key.dataset, g.key.label(true))
}

/// Entries for [github-action-benchmark] with `tool: customSmallerIsBetter`: a JSON array
/// of `{"name", "unit", "value", "range"?, "extra"?}` objects, where `range` and `extra`
/// are free-form strings shown in the chart tooltip (see the action's README, section
/// "Examples" / custom benchmarks). Per group of the new run: the median wall time
/// (unit `s`, range = half-width of its bootstrap 95% interval) and the mean of nodes or
/// cycles (unit = the counter name).
///
/// [github-action-benchmark]: https://github.com/benchmark-action/github-action-benchmark
pub fn github_action_benchmark(c: &Comparison) -> Value {
    let mut out = Vec::new();
    for g in &c.groups {
        let name = bench_name(g);
        if let Some(w) = g.new_wall {
            let mut extra = format!(
                "n={} runs; 95% interval [{}, {}] s",
                g.new_runs,
                sig3(w.lo),
                sig3(w.hi)
            );
            if let Some(r) = g.time.ratio {
                let _ = write!(
                    extra,
                    "; new/base x{:.3} [{:.3}, {:.3}]",
                    r.value, r.lo, r.hi
                );
            }
            out.push(json!({
                "name": format!("{name} median wall"),
                "unit": "s",
                "value": w.value,
                "range": format!("± {}", sig3((w.hi - w.lo) / 2.0)),
                "extra": extra,
            }));
        }
        if let Some((metric, mean)) = g.new_effort {
            out.push(json!({
                "name": format!("{name} mean {metric}"),
                "unit": metric,
                "value": mean,
            }));
        }
    }
    Value::Array(out)
}

/// [Bencher Metric Format] JSON: `{ "<benchmark>": { "<measure>": { "value", "lower_value",
/// "upper_value" } } }`. Per group of the new run: `latency` (Bencher's built-in Latency
/// measure, in nanoseconds) = median wall with its bootstrap 95% interval as lower/upper
/// value, and `nodes` or `cycles` (custom measures, created on first upload) = the mean.
///
/// [Bencher Metric Format]: https://bencher.dev/docs/reference/bencher-metric-format/
pub fn bencher_bmf(c: &Comparison) -> Value {
    let mut out = serde_json::Map::new();
    for g in &c.groups {
        let mut measures = serde_json::Map::new();
        if let Some(w) = g.new_wall {
            measures.insert(
                "latency".to_string(),
                json!({
                    "value": w.value * 1e9,
                    "lower_value": w.lo * 1e9,
                    "upper_value": w.hi * 1e9,
                }),
            );
        }
        if let Some((metric, mean)) = g.new_effort {
            measures.insert(metric.to_string(), json!({ "value": mean }));
        }
        if !measures.is_empty() {
            out.insert(bench_name(g), Value::Object(measures));
        }
    }
    Value::Object(out)
}

/// Escape a table cell.
fn md(s: &str) -> String {
    s.replace('|', "\\|")
}

fn more(out: &mut String, total: usize, cap: usize) {
    if total > cap {
        let _ = writeln!(out, "\n… and {} more", total - cap);
    }
}

fn capped_inline(items: &[String], cap: usize) -> String {
    let mut s = items
        .iter()
        .take(cap)
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > cap {
        let _ = write!(s, " … and {} more", items.len() - cap);
    }
    s
}
