//! Pinning worker threads to CPUs (`--pin`). A worker that floats between CPUs pays for
//! migrations, cold caches and a neighbour on its SMT sibling, and two workers may share a core
//! while another idles: timings then depend on the scheduler. Pinned, each worker (and the
//! external solver it starts, which inherits its thread's mask) has CPUs of its own, distinct
//! physical cores first.

use std::path::Path;

/// `--pin`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PinMode {
    /// Pin when every worker can have CPUs of its own; otherwise run unpinned with a note.
    #[default]
    Auto,
    /// Pin, and refuse a run whose workers cannot all have CPUs of their own.
    On,
    /// Never pin.
    Off,
}

impl PinMode {
    /// The spelling `--pin` takes and the meta records.
    pub fn as_str(self) -> &'static str {
        match self {
            PinMode::Auto => "auto",
            PinMode::On => "on",
            PinMode::Off => "off",
        }
    }
}

impl std::str::FromStr for PinMode {
    type Err = String;
    fn from_str(s: &str) -> Result<PinMode, String> {
        match s {
            "auto" => Ok(PinMode::Auto),
            "on" => Ok(PinMode::On),
            "off" => Ok(PinMode::Off),
            _ => Err(format!("expected auto, on or off, found {s:?}")),
        }
    }
}

/// Where the workers run: each worker's CPUs (empty: unpinned), and why not pinned.
#[derive(Debug, Default)]
pub struct Placement {
    /// The CPUs the process may run on.
    pub allowed: Vec<usize>,
    /// Each worker's CPUs; empty when the workers run unpinned.
    pub workers: Vec<Vec<usize>>,
    /// Why they run unpinned, when they do and it is worth saying.
    pub note: Option<String>,
    /// The claims on the workers' CPUs ([`claim`]), held while the run lasts.
    pub claims: Vec<std::fs::File>,
}

/// Where CPU claims live: one lock file per CPU, shared by every puzzlebench run on the host.
pub fn claims_dir() -> std::path::PathBuf {
    std::env::temp_dir().join("puzzlebench-cpus")
}

/// Claim CPUs for a run's workers, so that two runs side by side (two `--threads 1` runs, a
/// run and its rerun) are not pinned to the same CPU: each CPU has a lock file in `dir`,
/// held (`flock`) by the run pinned to it and released when that run ends, however it ends.
/// Returns `cpus` reordered with the CPUs this run claimed first (in their order), how many
/// it claimed, and the held locks. It claims at most `want`. Where the directory cannot be
/// used, nothing is claimed and every CPU counts as free.
pub fn claim(cpus: &[usize], want: usize, dir: &Path) -> (Vec<usize>, usize, Vec<std::fs::File>) {
    if std::fs::create_dir_all(dir).is_err() {
        return (cpus.to_vec(), cpus.len(), Vec::new());
    }
    let mut mine = Vec::new();
    let mut taken = Vec::new();
    let mut locks = Vec::new();
    for &c in cpus {
        if mine.len() == want {
            taken.push(c);
            continue;
        }
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(format!("cpu{c}.lock")));
        match lock {
            Ok(f) => match f.try_lock() {
                Ok(()) => {
                    mine.push(c);
                    locks.push(f);
                }
                Err(std::fs::TryLockError::WouldBlock) => taken.push(c),
                // A file system without locks: count the CPU as free.
                Err(std::fs::TryLockError::Error(_)) => mine.push(c),
            },
            Err(_) => mine.push(c),
        }
    }
    let n = mine.len();
    mine.extend(taken);
    (mine, n, locks)
}

/// The CPUs this process may run on (`sched_getaffinity`), ascending.
pub fn allowed_cpus() -> std::io::Result<Vec<usize>> {
    // SAFETY: `cpu_set_t` is plain data; zeroed is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: a valid out-pointer of the size passed; pid 0 is the calling thread.
    let r = unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    if r != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let max = 8 * std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `CPU_ISSET` reads the set within its size (`cpu < max`).
    Ok((0..max)
        .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
        .collect())
}

/// Pin the calling thread to `cpus`.
pub fn pin_current_thread(cpus: &[usize]) -> std::io::Result<()> {
    // SAFETY: `cpu_set_t` is plain data; zeroed is the empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let max = 8 * std::mem::size_of::<libc::cpu_set_t>();
    for &c in cpus.iter().filter(|&&c| c < max) {
        // SAFETY: `c` is within the set's size.
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    // SAFETY: a valid set of the size passed; pid 0 is the calling thread.
    let r = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    if r != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// `cpus` ordered so that distinct physical cores come before SMT siblings: the first CPU of
/// every (package, core) in ascending order, then the second of each, and so on. `topology`
/// gives a CPU's (package, core), `None` where unknown (then that CPU is its own core).
pub fn by_core(cpus: &[usize], topology: impl Fn(usize) -> Option<(u32, u32)>) -> Vec<usize> {
    let mut rank: Vec<(usize, usize)> = Vec::with_capacity(cpus.len());
    let mut seen: Vec<(Option<(u32, u32)>, usize)> = Vec::new();
    for &c in cpus {
        let core = topology(c);
        let nth = match core {
            None => 0,
            Some(_) => match seen.iter_mut().find(|(k, _)| *k == core) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    seen.push((core, 0));
                    0
                }
            },
        };
        rank.push((nth, c));
    }
    rank.sort_unstable();
    rank.into_iter().map(|(_, c)| c).collect()
}

/// A CPU's (package, core) from sysfs.
pub fn sysfs_topology(cpu: usize) -> Option<(u32, u32)> {
    let dir = format!("/sys/devices/system/cpu/cpu{cpu}/topology");
    let read = |f: &str| -> Option<u32> {
        std::fs::read_to_string(Path::new(&dir).join(f))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    Some((read("physical_package_id")?, read("core_id")?))
}

/// Place `threads` workers needing `per_worker` CPUs each on `allowed` (ordered by
/// [`by_core`], the first `free` of them not claimed by another run) under `mode`. `Err` (for
/// `--pin on` only) says why they cannot all be pinned. Under `auto`, workers that would share
/// a CPU with another pinned run are left unpinned (the scheduler then balances them), with a
/// note.
pub fn place(
    mode: PinMode,
    threads: usize,
    per_worker: usize,
    allowed: &[usize],
    free: usize,
) -> Result<Placement, String> {
    let per_worker = per_worker.max(1);
    let need = threads.saturating_mul(per_worker);
    let mut p = Placement {
        allowed: {
            let mut a = allowed.to_vec();
            a.sort_unstable();
            a
        },
        ..Placement::default()
    };
    if mode == PinMode::Off {
        return Ok(p);
    }
    if need > allowed.len() {
        let what = if per_worker > 1 {
            format!("{threads} workers × {per_worker} CPUs each = {need} CPUs")
        } else {
            format!("{threads} workers")
        };
        let msg = format!(
            "{what}, but the process may run on {} CPU(s) ({})",
            allowed.len(),
            list(&p.allowed)
        );
        if mode == PinMode::On {
            return Err(format!(
                "--pin on: {msg}; use --threads {} or fewer, or --pin auto/off",
                allowed.len() / per_worker
            ));
        }
        p.note = Some(format!("workers not pinned: {msg}"));
        return Ok(p);
    }
    if need > free && mode == PinMode::Auto {
        p.note = Some(format!(
            "workers not pinned: {need} CPU(s) needed, {free} of the {} allowed not already \
             taken by other pinned puzzlebench runs",
            allowed.len()
        ));
        return Ok(p);
    }
    p.workers = allowed
        .chunks(per_worker)
        .take(threads)
        .map(|c| {
            let mut c = c.to_vec();
            c.sort_unstable();
            c
        })
        .collect();
    Ok(p)
}

/// CPUs as a short list (`0-3,8`).
pub fn list(cpus: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let mut j = i;
        while j + 1 < cpus.len() && cpus[j + 1] == cpus[j] + 1 {
            j += 1;
        }
        out.push(if j > i {
            format!("{}-{}", cpus[i], cpus[j])
        } else {
            cpus[i].to_string()
        });
        i = j + 1;
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn physical_cores_come_before_their_smt_siblings() {
        // Two cores with two threads each, numbered as Linux often does (0,1 = cores; 2,3 =
        // their siblings), and as others do (0,1 on one core).
        let linux = |c: usize| Some((0, (c % 2) as u32));
        assert_eq!(by_core(&[0, 1, 2, 3], linux), [0, 1, 2, 3]);
        let paired = |c: usize| Some((0, (c / 2) as u32));
        assert_eq!(by_core(&[0, 1, 2, 3], paired), [0, 2, 1, 3]);
        assert_eq!(by_core(&[5, 7], |_| None), [5, 7]);
    }

    #[test]
    fn workers_get_cpus_of_their_own_or_run_unpinned_with_a_note() {
        let p = place(PinMode::Auto, 2, 1, &[0, 1], 2).expect("auto");
        assert_eq!(p.workers, [vec![0], vec![1]]);
        assert_eq!(p.note, None);
        let p = place(PinMode::Auto, 3, 1, &[0, 1], 2).expect("auto");
        assert!(p.workers.is_empty());
        let note = p.note.expect("a note");
        assert!(
            note.contains("3 workers") && note.contains("2 CPU(s) (0-1)"),
            "{note}"
        );
        let e = place(PinMode::On, 3, 1, &[0, 1], 2).expect_err("on refuses");
        assert!(e.contains("--threads 2 or fewer"), "{e}");
        let p = place(PinMode::Auto, 2, 2, &[0, 2, 1, 3], 4).expect("auto");
        assert_eq!(p.workers, [vec![0, 2], vec![1, 3]]);
        let e = place(PinMode::On, 2, 2, &[0, 1, 2], 3).expect_err("on refuses");
        assert!(e.contains("2 workers × 2 CPUs each = 4 CPUs"), "{e}");
        let p = place(PinMode::Off, 1, 1, &[0], 1).expect("off");
        assert!(p.workers.is_empty() && p.note.is_none());
        // Another run holds CPU 0: auto leaves two workers unpinned, on pins them anyway.
        let p = place(PinMode::Auto, 2, 1, &[1, 0], 1).expect("auto");
        assert!(p.workers.is_empty());
        assert!(p.note.is_some_and(|n| n.contains("1 of the 2 allowed")));
        let p = place(PinMode::On, 2, 1, &[1, 0], 1).expect("on");
        assert_eq!(p.workers, [vec![1], vec![0]]);
    }

    #[test]
    fn two_runs_side_by_side_claim_different_cpus() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (a, n, held) = claim(&[0, 1, 2], 1, dir.path());
        assert_eq!((a.as_slice(), n), (&[0, 1, 2][..], 1));
        let (b, n, _held_b) = claim(&[0, 1, 2], 1, dir.path());
        assert_eq!(
            (b.as_slice(), n),
            (&[1, 0, 2][..], 1),
            "CPU 0 is the first run's"
        );
        drop(held);
        let (c, n, _) = claim(&[0, 1, 2], 2, dir.path());
        assert_eq!(
            (c.as_slice(), n),
            (&[0, 2, 1][..], 2),
            "CPU 1 is still the second run's"
        );
    }

    #[test]
    fn this_thread_can_be_pinned_to_an_allowed_cpu_and_back() {
        let allowed = allowed_cpus().expect("sched_getaffinity");
        assert!(!allowed.is_empty());
        std::thread::spawn(move || {
            pin_current_thread(&allowed[..1]).expect("pin");
            assert_eq!(allowed_cpus().expect("after"), allowed[..1]);
        })
        .join()
        .expect("thread");
    }

    #[test]
    fn cpu_lists_are_short() {
        assert_eq!(list(&[0, 1, 2, 3, 8, 10, 11]), "0-3,8,10-11");
        assert_eq!(list(&[]), "");
    }
}
