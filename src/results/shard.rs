//! `--shard K/N`: which slice of a plan a result file holds, and `--shard auto` / `auto/N`,
//! which take K (and N) from a scheduler's environment: a Slurm array task or a Kubernetes
//! Indexed Job.

use std::fmt;
use std::str::FromStr;

/// The K-th (1-based) of N slices; job `j` belongs to it iff `j % N == K - 1`. Round-robin
/// keeps the slices balanced even when job cost grows along the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// 1-based slice number.
    pub index: u32,
    /// Number of slices.
    pub count: u32,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 1, count: 1 }
    }
}

impl Shard {
    /// Whether job `j` is in this shard.
    pub fn contains(self, j: u64) -> bool {
        j % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// Which shard a job belongs to, from what a meta records (`Plan::layout`): each
/// strategy's first job and colonies, in plan order.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlanLayout {
    /// `(first job, colonies)` of each strategy's block.
    pub blocks: Vec<(u64, u32)>,
}

impl PlanLayout {
    /// Whether job `index` is in `shard` (as `Plan::shard_contains`).
    pub fn shard_contains(&self, shard: Shard, index: u64) -> bool {
        let Some(&(first, colonies)) = self.blocks.iter().rev().find(|(f, _)| *f <= index) else {
            return false;
        };
        ((index - first) / u64::from(colonies.max(1))) % u64::from(shard.count)
            == u64::from(shard.index - 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A `--shard` value that is not `K/N` with `1 <= K <= N`, `auto` or `auto/N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: expected K/N with 1 <= K <= N (e.g. 3/16), `auto` (a Slurm array task) or `auto/N` (a Kubernetes Indexed Job of N completions)")]
pub struct BadShard(pub String);

impl FromStr for Shard {
    type Err = BadShard;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadShard(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// What `--shard` was given. Only the `auto` forms read the environment, and only when
/// [`ShardSpec::resolve`] is called, so a plain `K/N` can never be overridden by a stray
/// variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardSpec {
    /// `K/N`, as given.
    Fixed(Shard),
    /// `auto`: a Slurm array task (`SLURM_ARRAY_TASK_ID`, `_COUNT`, `_MIN`, and `_MAX`,
    /// `_STEP` when set). Slurm passes N itself, so the submission alone decides it.
    SlurmArray,
    /// `auto/N`: a Kubernetes Indexed Job with N completions (`JOB_COMPLETION_INDEX`, 0-based).
    /// Kubernetes does not pass the completion count to the pod, hence the N.
    IndexedJob {
        /// Number of slices: the Job's `completions`.
        count: u32,
    },
}

impl FromStr for ShardSpec {
    type Err = BadShard;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t == "auto" {
            return Ok(ShardSpec::SlurmArray);
        }
        if let Some(n) = t.strip_prefix("auto/") {
            return match n.trim().parse::<u32>() {
                Ok(count) if count > 0 => Ok(ShardSpec::IndexedJob { count }),
                _ => Err(BadShard(s.to_string())),
            };
        }
        s.parse().map(ShardSpec::Fixed)
    }
}

impl fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardSpec::Fixed(s) => s.fmt(f),
            ShardSpec::SlurmArray => f.write_str("auto"),
            ShardSpec::IndexedJob { count } => write!(f, "auto/{count}"),
        }
    }
}

/// The slice a [`ShardSpec`] stands for, and the variables it was read from (empty for `K/N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedShard {
    /// The slice to run.
    pub shard: Shard,
    /// `(name, value)` of every environment variable read, in the order read.
    pub from: Vec<(&'static str, String)>,
}

impl ResolvedShard {
    /// `SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_COUNT=4, ...`: for saying where a slice came from.
    pub fn sources(&self) -> String {
        join_sources(&self.from)
    }
}

fn join_sources(from: &[(&'static str, String)]) -> String {
    from.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

const TASK_ID: &str = "SLURM_ARRAY_TASK_ID";
const TASK_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
const TASK_MIN: &str = "SLURM_ARRAY_TASK_MIN";
const TASK_MAX: &str = "SLURM_ARRAY_TASK_MAX";
const TASK_STEP: &str = "SLURM_ARRAY_TASK_STEP";
const COMPLETION_INDEX: &str = "JOB_COMPLETION_INDEX";

/// Why `--shard auto` or `auto/N` could not take a slice from the environment. Every message
/// names the variables and values concerned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardEnvError {
    /// A variable the form needs is not set.
    #[error(
        "--shard {spec}: {var} is not set, so this is not {what}{hint}; elsewhere give --shard K/N"
    )]
    Unset {
        /// The `--shard` value.
        spec: ShardSpec,
        /// The missing variable.
        var: &'static str,
        /// What the variable would show we run as.
        what: &'static str,
        /// A pointer to the other form, when the environment suggests it.
        hint: String,
    },
    /// A variable is set but is not a whole number in range.
    #[error("--shard {spec}: {var}={value:?} is not a whole number from 0 to 4294967295")]
    NotANumber {
        /// The `--shard` value.
        spec: ShardSpec,
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
    },
    /// The array's indices are not consecutive, so task IDs cannot number the slices.
    #[error("--shard auto: {sources}: a stepped or gapped Slurm array is refused, since its task IDs are not one slice each of consecutive numbers; submit a contiguous range such as --array=1-{count} (a throttle like %4 is fine), or give --shard K/N yourself")]
    NotContiguous {
        /// The array variables as read.
        sources: String,
        /// `SLURM_ARRAY_TASK_COUNT`.
        count: u32,
    },
    /// The index lies outside the slices it should number.
    #[error("--shard {spec}: {sources}: index out of range: {why}")]
    OutOfRange {
        /// The `--shard` value.
        spec: ShardSpec,
        /// The variables as read.
        sources: String,
        /// Which bound it breaks.
        why: String,
    },
}

impl ShardSpec {
    /// The slice to run. `env` looks a variable up (`None` when unset); only the `auto` forms
    /// call it. A pure function of `env`, so it is tested without touching the process's
    /// environment.
    pub fn resolve<F>(self, env: F) -> Result<ResolvedShard, ShardEnvError>
    where
        F: Fn(&str) -> Option<String>,
    {
        match self {
            ShardSpec::Fixed(shard) => Ok(ResolvedShard {
                shard,
                from: Vec::new(),
            }),
            ShardSpec::SlurmArray => slurm_array(Reader::new(self, &env)),
            ShardSpec::IndexedJob { count } => indexed_job(Reader::new(self, &env), count),
        }
    }
}

/// Reads the environment for one [`ShardSpec::resolve`] call, keeping what it read.
struct Reader<'a, F> {
    spec: ShardSpec,
    env: &'a F,
    from: Vec<(&'static str, String)>,
}

impl<'a, F: Fn(&str) -> Option<String>> Reader<'a, F> {
    fn new(spec: ShardSpec, env: &'a F) -> Self {
        Reader {
            spec,
            env,
            from: Vec::new(),
        }
    }

    /// The slice, with what was read.
    fn finish(self, shard: Shard) -> ResolvedShard {
        ResolvedShard {
            shard,
            from: self.from,
        }
    }

    /// `var` as a number, `None` when unset.
    fn number(&mut self, var: &'static str) -> Result<Option<u32>, ShardEnvError> {
        let Some(value) = (self.env)(var) else {
            return Ok(None);
        };
        // Digits only: `+3`, ` 3` or `3 ` would be accepted by `parse` or a trim, but no
        // scheduler writes them, so they mean something is wrong with the environment.
        let n = value
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| value.parse::<u32>().ok())
            .flatten();
        match n {
            Some(n) => {
                self.from.push((var, value));
                Ok(Some(n))
            }
            None => Err(ShardEnvError::NotANumber {
                spec: self.spec,
                var,
                value,
            }),
        }
    }

    /// `var` as a number; unset is an error saying what we are evidently not.
    fn required(&mut self, var: &'static str) -> Result<u32, ShardEnvError> {
        let what = match self.spec {
            ShardSpec::IndexedJob { .. } => {
                "a pod of a Kubernetes Indexed Job (completionMode: Indexed)"
            }
            _ => "a Slurm array task (submitted with sbatch --array=1-N)",
        };
        self.number(var)?.ok_or_else(|| ShardEnvError::Unset {
            spec: self.spec,
            var,
            what,
            hint: self.hint(),
        })
    }

    /// When the variables of the other form are set, the user probably picked the wrong one.
    fn hint(&self) -> String {
        match self.spec {
            ShardSpec::SlurmArray if (self.env)(COMPLETION_INDEX).is_some() => format!(
                " ({COMPLETION_INDEX} is set: for a Kubernetes Indexed Job use --shard auto/N with N its completions)"
            ),
            ShardSpec::IndexedJob { .. } if (self.env)(TASK_ID).is_some() => {
                format!(" ({TASK_ID} is set: for a Slurm array use --shard auto)")
            }
            _ => String::new(),
        }
    }

    fn out_of_range(&self, why: String) -> ShardEnvError {
        ShardEnvError::OutOfRange {
            spec: self.spec,
            sources: self.sources(),
            why,
        }
    }

    fn sources(&self) -> String {
        join_sources(&self.from)
    }
}

/// Slurm numbers array tasks from MIN (0, 1 or anything else) to MAX; task MIN + i is slice
/// i + 1 of COUNT, which holds only when the indices are consecutive.
fn slurm_array<F>(mut r: Reader<'_, F>) -> Result<ResolvedShard, ShardEnvError>
where
    F: Fn(&str) -> Option<String>,
{
    let id = r.required(TASK_ID)?;
    let count = r.required(TASK_COUNT)?;
    let min = r.required(TASK_MIN)?;
    // MAX and STEP are set by every Slurm of the last decade; when present they are checked,
    // because a gapped array (--array=1-3,7) would otherwise run with slices missing.
    let max = r.number(TASK_MAX)?;
    let step = r.number(TASK_STEP)?;
    if count == 0 {
        return Err(r.out_of_range(format!("{TASK_COUNT} must be at least 1")));
    }
    let contiguous = step.is_none_or(|s| s == 1 || count == 1)
        && max.is_none_or(|max| u64::from(max) + 1 == u64::from(min) + u64::from(count));
    if !contiguous {
        return Err(ShardEnvError::NotContiguous {
            sources: r.sources(),
            count,
        });
    }
    if id < min {
        return Err(r.out_of_range(format!("{TASK_ID} < {TASK_MIN}")));
    }
    let index = u64::from(id - min) + 1;
    if index > u64::from(count) {
        return Err(r.out_of_range(format!("{TASK_ID} > {TASK_MIN} + {TASK_COUNT} - 1")));
    }
    Ok(r.finish(Shard {
        index: index as u32,
        count,
    }))
}

/// Kubernetes numbers completions 0 .. N-1; completion i is slice i + 1 of N.
fn indexed_job<F>(mut r: Reader<'_, F>, count: u32) -> Result<ResolvedShard, ShardEnvError>
where
    F: Fn(&str) -> Option<String>,
{
    let i = r.required(COMPLETION_INDEX)?;
    if i >= count {
        return Err(r.out_of_range(format!(
            "{COMPLETION_INDEX} counts from 0, so it must be below N = {count}; is the Job's completions larger than the N of --shard auto/{count}?"
        )));
    }
    Ok(r.finish(Shard {
        index: i + 1,
        count,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn shard_parsing() {
        assert_eq!(
            "3/16".parse::<Shard>(),
            Ok(Shard {
                index: 3,
                count: 16
            })
        );
        for bad in ["0/4", "5/4", "3", "a/b", "1/0", "", "auto"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn shard_spec_parsing() {
        assert_eq!(
            "2/4".parse::<ShardSpec>(),
            Ok(ShardSpec::Fixed(Shard { index: 2, count: 4 }))
        );
        assert_eq!("auto".parse::<ShardSpec>(), Ok(ShardSpec::SlurmArray));
        assert_eq!(
            "auto/16".parse::<ShardSpec>(),
            Ok(ShardSpec::IndexedJob { count: 16 })
        );
        for bad in [
            "auto/0", "auto/", "auto/x", "Auto", "autox", "auto/-1", "0/4", "",
        ] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad} accepted");
        }
        for s in ["2/4", "auto", "auto/16"] {
            assert_eq!(
                s.parse::<ShardSpec>().map(|v| v.to_string()).as_deref(),
                Ok(s)
            );
        }
    }

    #[test]
    fn shards_partition_jobs() {
        let n = 3;
        let mut seen = vec![0u32; 100];
        for k in 1..=n {
            for j in 0..100u64 {
                if (Shard { index: k, count: n }).contains(j) {
                    seen[j as usize] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
    }

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    fn slurm(vars: &[(&str, &str)]) -> Result<ResolvedShard, ShardEnvError> {
        ShardSpec::SlurmArray.resolve(env(vars))
    }

    fn shard(index: u32, count: u32) -> Shard {
        Shard { index, count }
    }

    #[test]
    fn fixed_shard_reads_no_environment() {
        let r = ShardSpec::Fixed(shard(2, 4))
            .resolve(|k| panic!("{k} read for a fixed shard"))
            .expect("fixed");
        assert_eq!(r.shard, shard(2, 4));
        assert!(r.from.is_empty());
    }

    #[test]
    fn slurm_arrays_from_0_from_1_and_from_elsewhere_number_slices_from_1() {
        for (id, min, max, want) in [
            ("0", "0", "3", 1),
            ("3", "0", "3", 4),
            ("1", "1", "4", 1),
            ("4", "1", "4", 4),
            ("12", "10", "13", 3),
        ] {
            let r = slurm(&[
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_ARRAY_TASK_MIN", min),
                ("SLURM_ARRAY_TASK_MAX", max),
                ("SLURM_ARRAY_TASK_STEP", "1"),
            ])
            .expect("contiguous array");
            assert_eq!(r.shard, shard(want, 4), "task {id} of {min}-{max}");
            assert_eq!(
                r.sources(),
                format!("SLURM_ARRAY_TASK_ID={id}, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_MAX={max}, SLURM_ARRAY_TASK_STEP=1")
            );
        }
    }

    #[test]
    fn slurm_max_and_step_are_optional() {
        let r = slurm(&[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ])
        .expect("no MAX, no STEP");
        assert_eq!(r.shard, shard(2, 3));
        assert_eq!(r.from.len(), 3);
    }

    #[test]
    fn stepped_and_gapped_slurm_arrays_are_refused() {
        // --array=1-7:2 (step set), --array=1-3,7 (gap: MAX-MIN+1 = 7 for 4 tasks), and
        // --array=1,3,5,7 reported without a STEP.
        for vars in [
            [
                ("SLURM_ARRAY_TASK_MAX", "7"),
                ("SLURM_ARRAY_TASK_STEP", "2"),
            ],
            [
                ("SLURM_ARRAY_TASK_MAX", "7"),
                ("SLURM_ARRAY_TASK_STEP", "1"),
            ],
            [("SLURM_ARRAY_TASK_MAX", "7"), ("UNRELATED", "")],
            [
                ("SLURM_ARRAY_TASK_MAX", "4"),
                ("SLURM_ARRAY_TASK_STEP", "2"),
            ],
        ] {
            let mut all = vec![
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
            ];
            all.extend(vars);
            let e = slurm(&all).expect_err("not contiguous");
            assert!(
                matches!(e, ShardEnvError::NotContiguous { count: 4, .. }),
                "{vars:?}: {e}"
            );
            let msg = e.to_string();
            assert!(
                msg.contains("SLURM_ARRAY_TASK_MAX=") && msg.contains("--array=1-4"),
                "{msg}"
            );
        }
    }

    #[test]
    fn a_single_task_array_is_one_slice_whatever_its_step() {
        let r = slurm(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "1"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_MAX", "5"),
            ("SLURM_ARRAY_TASK_STEP", "3"),
        ])
        .expect("one task");
        assert_eq!(r.shard, shard(1, 1));
    }

    #[test]
    fn missing_slurm_variables_are_named() {
        let e = slurm(&[]).expect_err("no Slurm");
        assert!(matches!(
            e,
            ShardEnvError::Unset {
                var: "SLURM_ARRAY_TASK_ID",
                ..
            }
        ));
        assert!(e.to_string().contains("not a Slurm array task"), "{e}");
        let e = slurm(&[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ])
        .expect_err("no MIN");
        assert!(matches!(
            e,
            ShardEnvError::Unset {
                var: "SLURM_ARRAY_TASK_MIN",
                ..
            }
        ));
        // In a Kubernetes pod, `auto` points at `auto/N`.
        let e = slurm(&[("JOB_COMPLETION_INDEX", "0")]).expect_err("K8s, not Slurm");
        assert!(e.to_string().contains("--shard auto/N"), "{e}");
    }

    #[test]
    fn bad_slurm_values_are_named_with_their_value() {
        for (var, value) in [
            ("SLURM_ARRAY_TASK_ID", "x"),
            ("SLURM_ARRAY_TASK_ID", ""),
            ("SLURM_ARRAY_TASK_ID", " 1"),
            ("SLURM_ARRAY_TASK_COUNT", "-4"),
            ("SLURM_ARRAY_TASK_MIN", "1.0"),
            ("SLURM_ARRAY_TASK_MAX", "99999999999"),
            ("SLURM_ARRAY_TASK_STEP", "+1"),
        ] {
            let mut all = vec![
                ("SLURM_ARRAY_TASK_ID", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "4"),
                ("SLURM_ARRAY_TASK_STEP", "1"),
            ];
            all.retain(|(k, _)| *k != var);
            all.push((var, value));
            let e = slurm(&all).expect_err("bad value");
            assert_eq!(
                e,
                ShardEnvError::NotANumber {
                    spec: ShardSpec::SlurmArray,
                    var,
                    value: value.to_string()
                }
            );
            assert!(e.to_string().contains(&format!("{var}={value:?}")), "{e}");
        }
    }

    #[test]
    fn slurm_task_outside_its_array_is_refused() {
        for (id, count, min, max) in [
            ("0", "4", "1", "4"),
            ("5", "4", "1", "4"),
            ("1", "0", "1", "0"),
        ] {
            let e = slurm(&[
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_COUNT", count),
                ("SLURM_ARRAY_TASK_MIN", min),
                ("SLURM_ARRAY_TASK_MAX", max),
            ])
            .expect_err("outside");
            assert!(matches!(e, ShardEnvError::OutOfRange { .. }), "{id}: {e}");
            assert!(
                e.to_string().contains(&format!("SLURM_ARRAY_TASK_ID={id}")),
                "{e}"
            );
        }
    }

    #[test]
    fn indexed_job_completion_index_counts_from_0() {
        let k8s = |i: &str, n| {
            ShardSpec::IndexedJob { count: n }.resolve(env(&[("JOB_COMPLETION_INDEX", i)]))
        };
        assert_eq!(k8s("0", 4).expect("first").shard, shard(1, 4));
        let last = k8s("3", 4).expect("last");
        assert_eq!(last.shard, shard(4, 4));
        assert_eq!(last.sources(), "JOB_COMPLETION_INDEX=3");
        let e = k8s("4", 4).expect_err("past N");
        assert!(matches!(e, ShardEnvError::OutOfRange { .. }));
        assert!(
            e.to_string().contains("JOB_COMPLETION_INDEX=4") && e.to_string().contains("auto/4"),
            "{e}"
        );
        let e = k8s("one", 4).expect_err("not a number");
        assert!(
            e.to_string().contains(r#"JOB_COMPLETION_INDEX="one""#),
            "{e}"
        );
    }

    #[test]
    fn indexed_job_ignores_slurm_and_says_so_when_its_variable_is_missing() {
        let e = ShardSpec::IndexedJob { count: 4 }
            .resolve(env(&[("SLURM_ARRAY_TASK_ID", "1")]))
            .expect_err("no JOB_COMPLETION_INDEX");
        assert!(matches!(
            e,
            ShardEnvError::Unset {
                var: "JOB_COMPLETION_INDEX",
                ..
            }
        ));
        assert!(e.to_string().contains("use --shard auto)"), "{e}");
    }
}
