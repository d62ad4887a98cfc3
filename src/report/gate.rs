//! The regression gate: a baseline and a new [`RunSet`] joined by [`compare_sorted`], with
//! the checks every caller of it needs (`bench-report compare` and the baseline section of
//! `bench-report html` both go through [`gate`], so they agree):
//!
//! * the two sides must hold the same puzzles (dataset fingerprints) and the same result
//!   columns; measurement columns
//!   ([`MEASUREMENT_COLUMNS`](crate::report::compare::MEASUREMENT_COLUMNS)) on one side only never refuse;
//! * the noise band is one number, computed here ([`Band`]) and rendered by every report;
//! * a wall-time verdict stands only where others' CPU during the runs cannot explain it
//!   (`HostCheck`, [`FileLoad::bound`]); CPU times, counters and statuses are always judged.

use crate::report::compare::{
    check_datasets, column_mismatch, compare_sorted, cpu_accounting_note, CompareOptions,
    Comparison,
};
use crate::report::input::{InputOptions, RunSet};
use crate::report::GroupKey;
use crate::results::{ReadError, RunMeta};
use std::path::PathBuf;

/// The smallest band the gate uses unless told otherwise: the run-to-run variation of wall
/// times on a shared host is this large (issue 27: ×1.165 between two quiet runs 2 s apart).
pub const BAND_FLOOR: f64 = 0.25;

/// The compare could not be made.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    /// An input could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The two sides cannot be compared (different puzzles, different result columns).
    #[error("{0}")]
    Refused(String),
}

/// The gate's noise band: a time ratio whose interval reaches into `1 ± value` is noise.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// Relative half-width.
    pub value: f64,
    /// Where it comes from, in words (shown under every time table).
    pub source: String,
}

impl Band {
    /// The default: [`BAND_FLOOR`].
    pub fn floor() -> Band {
        Band {
            value: BAND_FLOOR,
            source: format!("default floor {BAND_FLOOR}"),
        }
    }

    /// A band given on the command line (`--noise-band`), used as given.
    pub fn given(value: f64) -> Band {
        Band {
            value,
            source: "--noise-band".to_string(),
        }
    }

    /// The band a command line asks for: `--noise-band` as given (in `[0, 1)`), else measured
    /// from the `--calibrate` runs (each a CSV or directory), else [`Band::floor`].
    pub fn from_options(noise_band: Option<f64>, calibrate: &[PathBuf]) -> Result<Band, GateError> {
        if let Some(b) = noise_band {
            if !(b.is_finite() && (0.0..1.0).contains(&b)) {
                return Err(GateError::Refused(format!(
                    "--noise-band must be in [0, 1), got {}",
                    crate::number::show(b)
                )));
            }
            return Ok(Band::given(b));
        }
        if calibrate.is_empty() {
            return Ok(Band::floor());
        }
        let runs = calibrate
            .iter()
            .map(|r| RunSet::open(std::slice::from_ref(r), InputOptions::default()))
            .collect::<Result<Vec<_>, _>>()?;
        Band::calibrated(&runs)
    }

    /// The band measured from runs of one plan on one host (an A/A pair, or a history of
    /// nightly runs), compared in order, each with the next: twice the largest deviation of
    /// a group's ratio of median wall times from 1 (a third run may stray as far again the
    /// other way), and never less than [`BAND_FLOOR`].
    pub fn calibrated(runs: &[RunSet]) -> Result<Band, GateError> {
        let mut widest: f64 = 0.0;
        let mut groups = 0usize;
        for w in runs.windows(2) {
            let c = gate(&w[0], &w[1], &Band::floor(), ("a", "b"), false)?;
            for g in &c.groups {
                if let Some(r) = g.time.ratio {
                    widest = widest.max((r.value - 1.0).abs());
                    groups += 1;
                }
            }
        }
        if groups == 0 {
            return Err(GateError::Refused(format!(
                "--calibrate: the {} runs share no group with enough joined jobs to measure \
                 their variation (pass two or more runs of one plan)",
                runs.len()
            )));
        }
        let measured = 2.0 * widest;
        Ok(Band {
            value: measured.max(BAND_FLOOR),
            source: format!(
                "calibrated on {} runs: widest A/A ratio x{:.3} over {groups} group comparisons, \
                 band 2 x {:.3} = {:.3}{}",
                runs.len(),
                1.0 + widest,
                widest,
                measured,
                if measured < BAND_FLOOR {
                    format!(", raised to the floor {BAND_FLOOR}")
                } else {
                    String::new()
                }
            ),
        })
    }
}

/// The share of a run's CPU capacity (`cpus × wall_s`) that others may take before any of it
/// counts against the run: kernel threads, daemons, the harness's own
/// bookkeeping that `getrusage` and `/proc/stat` see differently, and `/proc/stat`'s sampled
/// accounting (a tick charges its whole 10 ms to whatever ran at that instant).
pub const HOST_SLACK_SHARE: f64 = 0.05;

/// The ticks per CPU by which `/proc/stat`'s busy time may be off: each reading is truncated
/// to a tick, and the run's own first and last ticks may be charged to anyone.
pub const HOST_SLACK_TICKS: f64 = 2.0;

/// Seconds per `/proc/stat` tick (`USER_HZ`, 100 on Linux).
fn tick_s() -> f64 {
    // SAFETY: sysconf has no memory effects.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if hz > 0 {
        1.0 / hz as f64
    } else {
        0.01
    }
}

/// How much others' CPU during one file's run could have inflated its job times.
#[derive(Clone, Debug, PartialEq)]
pub struct FileLoad {
    /// The file.
    pub path: String,
    /// Its meta's dataset name and strategies: the groups it holds.
    pub dataset: Option<String>,
    /// Strategies of the file's meta.
    pub strategies: Vec<String>,
    /// Others' CPU seconds beyond the slack, at most the run's time off a CPU: what could
    /// have come out of the run's own threads.
    pub excess_s: f64,
    /// The largest factor by which that excess could have raised the median job time of a
    /// group in the file (1 when there is no excess, infinite when it could account for all
    /// of the run's time); see [`FileLoad::bound`].
    pub inflation: f64,
    /// The figures, in words.
    pub why: String,
}

impl FileLoad {
    /// The bound from a meta's host state. Others' CPU beyond the slack (`2 ticks × cpus + 5%
    /// × cpus × wall`) could have come out of the run's threads, but never more than the time
    /// they were off a CPU (`threads × wall − run_cpu`, all of `threads × wall` when the meta
    /// has no `run_cpu_s`): that is the excess. To raise a median by ×f others must slow at
    /// least half of the jobs by (f − 1) each, so `f ≤ 1 + 2 × excess / (threads × wall −
    /// excess)`. Spare CPUs are no shelter: a bursty load fills them and the run's threads alike.
    pub fn bound(path: &str, m: &RunMeta) -> Option<FileLoad> {
        let h = m.host_state.as_ref()?;
        let threads = m.threads?.max(1) as f64;
        let cpus = m.machine.get("cpus").and_then(serde_json::Value::as_u64)? as f64;
        let (wall, others) = (h.wall_s?, h.others_cpu_s?);
        let own = threads * wall;
        let off = (own - h.run_cpu_s.unwrap_or(0.0)).max(0.0);
        let slack = HOST_SLACK_TICKS * cpus * tick_s() + HOST_SLACK_SHARE * cpus * wall;
        let excess = (others - slack).clamp(0.0, off);
        let inflation = if excess <= 0.0 {
            1.0
        } else if excess >= own {
            f64::INFINITY
        } else {
            1.0 + 2.0 * excess / (own - excess)
        };
        let t = if threads == 1.0 { "" } else { "s" };
        Some(FileLoad {
            path: path.to_string(),
            dataset: m.dataset_name.clone(),
            strategies: m.strategies.clone(),
            excess_s: excess,
            inflation,
            why: format!(
                "others took {others:.2} s of CPU during {path} ({wall:.3} s, {threads} \
                 thread{t} on {cpus} CPUs, {off:.2} s off a CPU, {slack:.2} s slack): up to \
                 {excess:.2} s could have come out of the run, enough to raise median job \
                 times up to {}",
                if inflation.is_finite() {
                    format!("x{inflation:.2}")
                } else {
                    "any factor".to_string()
                }
            ),
        })
    }

    fn holds(&self, key: &GroupKey) -> bool {
        self.dataset.as_deref().is_none_or(|d| d == key.dataset)
            && (self.strategies.is_empty() || self.strategies.contains(&key.config.strategy))
    }
}

/// The host loads of both sides' files, for the per-group wall verdict.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostLoads {
    /// The baseline's files with a host state.
    pub base: Vec<FileLoad>,
    /// The new run's files with a host state.
    pub new: Vec<FileLoad>,
}

impl HostLoads {
    /// The largest bound among one side's files holding `key` (among all of the side's files
    /// when none names it); `None` when no file of the side recorded its host state.
    pub fn of<'a>(side: &'a [FileLoad], key: &GroupKey) -> Option<&'a FileLoad> {
        let max = |it: &mut dyn Iterator<Item = &'a FileLoad>| {
            it.max_by(|a, b| a.inflation.total_cmp(&b.inflation))
        };
        max(&mut side.iter().filter(|f| f.holds(key))).or_else(|| max(&mut side.iter()))
    }
}

/// What the host check found: a reason to judge no wall time at all (different CPU models),
/// else each file's load, judged per group (see [`FileLoad::bound`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct HostCheck {
    /// Why no wall time can be judged, when none can.
    pub noisy: Option<String>,
    /// Each side's file loads.
    pub loads: HostLoads,
    /// What could not be checked (metas without host state or CPU model).
    pub notes: Vec<String>,
}

fn cpu_model(m: &RunMeta) -> Option<&str> {
    m.machine
        .get("cpu")
        .and_then(serde_json::Value::as_str)
        .filter(|s| !s.is_empty())
}

impl HostCheck {
    /// Wall times are not judged at all when the CPU models of the two sides differ. Else
    /// each file's host state bounds how much others' CPU could have raised its job times
    /// ([`FileLoad::bound`]); a group's wall verdict stands only where that bound cannot
    /// explain it (`compare::CompareOptions::host`).
    pub fn of(base: &RunSet, new: &RunSet) -> HostCheck {
        let mut out = HostCheck::default();
        let models = |s: &RunSet| {
            let mut v: Vec<String> = s.metas().filter_map(cpu_model).map(String::from).collect();
            v.sort();
            v.dedup();
            v
        };
        let (mb, mn) = (models(base), models(new));
        if !mb.is_empty() && !mn.is_empty() && mb != mn {
            out.noisy = Some(format!(
                "CPU models differ: baseline {}, new {}",
                mb.join(" / "),
                mn.join(" / ")
            ));
            return out;
        }
        for (set, loads, side) in [
            (base, &mut out.loads.base, "baseline"),
            (new, &mut out.loads.new, "new"),
        ] {
            for f in set.files() {
                let Some(m) = &f.meta else { continue };
                match FileLoad::bound(&f.path.display().to_string(), m) {
                    Some(l) => loads.push(l),
                    None if side == "new" => out.notes.push(format!(
                        "{}: its meta records no host state (host_state, threads, machine.cpus); \
                         wall times judged as on a quiet host",
                        f.path.display()
                    )),
                    None => {}
                }
            }
        }
        out
    }
}

/// Compare `new` with `base` under `band`: refuse different puzzles (unless
/// `force_datasets`, then a note) and different result columns, check the host
/// (`HostCheck`: wall times of a noisy host are shown, not judged), then join the two
/// key-sorted streams. What could not be checked is in [`Comparison::notes`].
pub fn gate(
    base: &RunSet,
    new: &RunSet,
    band: &Band,
    labels: (&str, &str),
    force_datasets: bool,
) -> Result<Comparison, GateError> {
    let host = HostCheck::of(base, new);
    let opts = CompareOptions {
        noise_band: band.value,
        band_source: band.source.clone(),
        wall_not_judged: host.noisy,
        host: host.loads,
        baseline_label: labels.0.to_string(),
        new_label: labels.1.to_string(),
        efforts: new.efforts().clone(),
        ..CompareOptions::default()
    };
    let datasets = check_datasets(base.files(), new.files());
    let mut notes = datasets.unchecked;
    notes.extend(cpu_accounting_note(base.files(), new.files()));
    match datasets.mismatch {
        Some(m) if !force_datasets => return Err(GateError::Refused(m)),
        Some(m) => notes.push(format!("{m}; compared anyway (--force)")),
        None => {}
    }
    let (b, n) = (base.sorted()?, new.sorted()?);
    if let Some(m) = column_mismatch(b.columns(), n.columns()) {
        return Err(GateError::Refused(m));
    }
    let mut c = compare_sorted(b, n, &opts)?;
    notes.extend(host.notes);
    notes.extend(base.notes().iter().chain(new.notes()).cloned());
    c.notes = notes;
    Ok(c)
}
