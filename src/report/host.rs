//! The host under a run: how much others' CPU during each file's run could have inflated its
//! job times ([`FileLoad::bound`]), and whether two sides ran on the same CPU model
//! (`HostCheck`). The gate ([`crate::report::gate`]) and `compare`'s per-group wall verdict
//! ([`crate::report::compare::CompareOptions::host`]) read it; it reads only metas.

use crate::report::input::RunSet;
use crate::report::GroupKey;
use crate::results::RunMeta;

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
