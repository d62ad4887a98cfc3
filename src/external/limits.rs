//! Resource limits over an external solver's whole process tree (`--cpu-limit`,
//! `--memory-limit`, a manifest's `memory_limit`), and the `/proc` readings they rest on.
//!
//! - **CPU time** of the tree: the leader's own CPU clock (nanoseconds), plus what the leader
//!   collected from descendants it reaped (`cutime` + `cstime` of `/proc/<pid>/stat`, which
//!   include their own reaped descendants), plus for every living descendant (found through
//!   `/proc/<pid>/task/*/children`) its own and its reaped descendants' time. Processes that
//!   left the tree and were adopted by puzzlebench (a subreaper) are counted while a limit is
//!   watched, found by their process group.
//! - **Memory** of the tree: the sum of the resident sets (`/proc/<pid>/statm`) of the same
//!   processes, sampled every [`SAMPLE_EVERY`] while a job with a limit runs; the peak is the
//!   largest sample (and at least the leader's `VmHWM`).
//!
//! Without a limit nothing is sampled during a job (no thread, no timer): the tree's CPU time
//! is read once per job, at its end. With one, the worker thread itself samples: its waits
//! for the solver's answer poll in slices of [`SAMPLE_EVERY`] and [`Watch::over`] runs
//! between them (no extra thread either way).

use std::cell::Cell;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

use crate::clock::ProcessClock;
use crate::solver::Cut;

/// How often the tree is sampled while a job with a CPU or memory limit runs. A 100 MB/s
/// allocator grows by 0.5 MB between samples; the stop is SIGKILL at once (no grace), so
/// the overshoot is what it allocates in one interval plus the kernel's time to kill it.
pub const SAMPLE_EVERY: Duration = Duration::from_millis(5);

/// The documented margin over `--memory-limit` a row's `max_rss_kib` may show: one sampling
/// interval of a fast allocator and the kill, with room to spare (measured overshoot is in
/// docs/running.md).
pub const MEMORY_MARGIN_KIB: u64 = 16 * 1024;

/// The smallest `--memory-limit` taken: below it no solver process (nor the harness's
/// pipes and start-up) fits, and every job would be a `memout`.
pub const MIN_MEMORY_LIMIT: u64 = 16 << 20;

/// Parses a memory size: a whole number with an optional binary unit, `K`, `M`, `G` or `T`
/// (also `KiB`…, `KB`…, case-insensitive); no unit means bytes. `Err` says what is expected.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let expected = "expected a size such as 512M or 4G (a whole number with K, M, G or T)";
    let n: u64 = num.parse().map_err(|_| format!("{s:?}: {expected}"))?;
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(format!("{s:?}: unknown unit {unit:?}; {expected}")),
    };
    let bytes = n
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("{s:?}: too large; {expected}"))?;
    if bytes < MIN_MEMORY_LIMIT {
        return Err(format!(
            "{s:?}: expected at least {} MiB: a smaller limit leaves no room for a solver process to start",
            MIN_MEMORY_LIMIT >> 20
        ));
    }
    Ok(bytes)
}

/// The `RLIMIT_DATA` backstop set on a solver with memory limit `limit` (bytes): far above
/// the limit plus [`MEMORY_MARGIN_KIB`], so that the sampler, not the program's own
/// allocation failure, ends a job that grows past the limit. Twice the limit plus 256 MiB:
/// the data segment counts memory reserved but not yet touched, which the resident set
/// does not.
pub fn data_backstop(limit: u64) -> u64 {
    limit.saturating_mul(2).saturating_add(256 << 20)
}

fn ticks_per_s() -> f64 {
    // SAFETY: sysconf has no memory effects.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as f64
    } else {
        100.0
    }
}

fn page_kib() -> u64 {
    // SAFETY: as above.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as u64 / 1024
    } else {
        4
    }
}

/// The fields of `/proc/<pid>/stat` the tree needs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stat {
    /// Own CPU time (user + system), seconds.
    pub own_s: f64,
    /// CPU time of reaped descendants (`cutime` + `cstime`), seconds.
    pub reaped_s: f64,
    /// Threads.
    pub threads: u64,
    /// Process group.
    pub pgrp: i64,
}

/// Parses the text of `/proc/<pid>/stat` (the command name may hold spaces and parentheses:
/// fields are counted from the last `)`).
pub fn parse_stat(text: &str) -> Option<Stat> {
    let rest = &text[text.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_ascii_whitespace().collect();
    // After the name: state(0) ppid(1) pgrp(2) … utime(11) stime(12) cutime(13) cstime(14) …
    // num_threads(17).
    let num = |i: usize| f.get(i)?.parse::<i64>().ok();
    let tick = ticks_per_s();
    Some(Stat {
        own_s: (num(11)? + num(12)?) as f64 / tick,
        reaped_s: (num(13)? + num(14)?).max(0) as f64 / tick,
        threads: num(17)?.max(0) as u64,
        pgrp: num(2)?,
    })
}

fn read_small(f: &File, buf: &mut [u8]) -> Option<usize> {
    f.read_at(buf, 0).ok()
}

fn stat_of(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&text)
}

fn rss_kib_of(pid: i32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/statm"))
        .ok()
        .and_then(|t| t.split_ascii_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * page_kib())
}

fn push_pids(text: &str, out: &mut Vec<i32>) {
    out.extend(
        text.split_ascii_whitespace()
            .filter_map(|p| p.parse::<i32>().ok()),
    );
}

/// Children of `pid` (of all its threads when it has more than one).
fn children_of(pid: i32, threads: u64, out: &mut Vec<i32>) {
    if threads <= 1 {
        if let Ok(t) = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")) {
            push_pids(&t, out);
        }
        return;
    }
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
                push_pids(&text, out);
            }
        }
    }
}

/// What one sample of a tree found.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TreeSample {
    /// CPU time of the tree beyond the leader's own clock, seconds: the leader's reaped
    /// descendants and the living descendants (their own and their reaped descendants').
    pub extra_cpu_s: f64,
    /// The leader's own CPU time from `/proc` (clock-tick resolution), seconds.
    pub own_cpu_s: f64,
    /// Resident memory of the tree, KiB.
    pub rss_kib: u64,
    /// Processes counted (the leader included).
    pub procs: usize,
}

/// The leader's `/proc` files, kept open: one `pread` each per sample.
pub struct TreeFiles {
    pid: i32,
    stat: File,
    statm: File,
    children: File,
}

impl TreeFiles {
    /// Opens the files of `pid` (`None` when `/proc` is not there).
    pub fn open(pid: i32) -> Option<TreeFiles> {
        Some(TreeFiles {
            pid,
            stat: File::open(format!("/proc/{pid}/stat")).ok()?,
            statm: File::open(format!("/proc/{pid}/statm")).ok()?,
            children: File::open(format!("/proc/{pid}/task/{pid}/children")).ok()?,
        })
    }

    /// Samples the tree. `memory`: also sum the resident sets (otherwise `rss_kib` is 0).
    /// `orphans`: also count processes of the leader's group that left the tree (adopted by
    /// puzzlebench as a subreaper), which costs a scan of puzzlebench's own children.
    pub fn sample(&self, memory: bool, orphans: bool) -> TreeSample {
        let mut buf = [0u8; 1024];
        let leader = read_small(&self.stat, &mut buf)
            .and_then(|n| std::str::from_utf8(&buf[..n]).ok().and_then(parse_stat))
            .unwrap_or_default();
        let mut s = TreeSample {
            extra_cpu_s: leader.reaped_s,
            own_cpu_s: leader.own_s,
            rss_kib: 0,
            procs: 1,
        };
        if memory {
            s.rss_kib = read_small(&self.statm, &mut buf)
                .and_then(|n| {
                    std::str::from_utf8(&buf[..n])
                        .ok()?
                        .split_ascii_whitespace()
                        .nth(1)?
                        .parse::<u64>()
                        .ok()
                })
                .map_or(0, |p| p * page_kib());
        }
        let mut todo = Vec::new();
        if leader.threads > 1 {
            children_of(self.pid, leader.threads, &mut todo);
        } else if let Some(n) = read_small(&self.children, &mut buf) {
            if n > 0 {
                push_pids(&String::from_utf8_lossy(&buf[..n]), &mut todo);
            }
        }
        let mut seen = vec![self.pid];
        if orphans {
            let mut own = Vec::new();
            children_of(std::process::id() as i32, 2, &mut own);
            for p in own {
                if p != self.pid && stat_of(p).is_some_and(|st| st.pgrp == i64::from(self.pid)) {
                    todo.push(p);
                }
            }
        }
        while let Some(p) = todo.pop() {
            if seen.contains(&p) || seen.len() > 4096 {
                continue;
            }
            seen.push(p);
            let Some(st) = stat_of(p) else { continue };
            s.extra_cpu_s += st.own_s + st.reaped_s;
            s.procs += 1;
            if memory {
                s.rss_kib += rss_kib_of(p);
            }
            children_of(p, st.threads, &mut todo);
        }
        s
    }
}

/// A solver process's tree, as the limits and `cpu_s` see it: the leader's `/proc` files and
/// its CPU-time clock (nanoseconds, all threads).
pub struct Tree {
    files: TreeFiles,
    clock: Option<ProcessClock>,
    /// Also count adopted orphans of the leader's group (puzzlebench is a subreaper).
    orphans: bool,
}

impl Tree {
    /// Opens the tree of the solver leader `pid` (`None` without `/proc`).
    pub fn open(pid: i32, orphans: bool) -> Option<Tree> {
        let files = TreeFiles::open(pid)?;
        Some(Tree {
            files,
            clock: ProcessClock::of(pid),
            orphans,
        })
    }

    /// CPU time of the whole tree so far (seconds) and one sample of it (`memory`: with
    /// the resident sets summed). `watched`: also count adopted orphans (a limit is on).
    pub fn sample(&self, memory: bool, watched: bool) -> (f64, TreeSample) {
        let s = self.files.sample(memory, watched && self.orphans);
        let own = self
            .clock
            .and_then(ProcessClock::cpu_s)
            .unwrap_or(s.own_cpu_s);
        (own + s.extra_cpu_s, s)
    }

    /// The CPU time of the tree beyond the leader's own clock (reaped and living
    /// descendants), seconds: the one `/proc` read a job without limits makes, at its end.
    pub fn descendants_cpu_s(&self) -> f64 {
        self.files.sample(false, false).extra_cpu_s
    }
}

/// The limits of one job, checked against its tree between waits ([`Watch::over`]).
pub struct Watch<'t> {
    tree: &'t Tree,
    cpu_limit_s: Option<f64>,
    memory_limit_kib: Option<u64>,
    /// Tree CPU time when the job started.
    cpu0: f64,
    next: Cell<Instant>,
    cpu_s: Cell<f64>,
    peak_kib: Cell<u64>,
    samples: Cell<u64>,
    cut: Cell<Option<Cut>>,
}

impl<'t> Watch<'t> {
    /// Starts watching a job (one sample now, for the CPU base); `None` when neither limit
    /// is given, so that a run without limits samples nothing.
    /// `whole_life`: the job is the process's whole life (per-puzzle mode), so its CPU
    /// time counts from zero, not from now.
    pub fn start(
        tree: Option<&'t Tree>,
        cpu_limit: Option<Duration>,
        memory_limit: Option<u64>,
        whole_life: bool,
    ) -> Option<Watch<'t>> {
        if cpu_limit.is_none() && memory_limit.is_none() {
            return None;
        }
        let tree = tree?;
        let (now, s) = tree.sample(memory_limit.is_some(), true);
        let cpu0 = if whole_life { 0.0 } else { now };
        Some(Watch {
            tree,
            cpu_limit_s: cpu_limit.map(|d| d.as_secs_f64()),
            memory_limit_kib: memory_limit.map(|b| b / 1024),
            cpu0,
            next: Cell::new(Instant::now() + SAMPLE_EVERY),
            cpu_s: Cell::new(0.0),
            peak_kib: Cell::new(s.rss_kib),
            samples: Cell::new(1),
            cut: Cell::new(None),
        })
    }

    /// Samples the tree if [`SAMPLE_EVERY`] has passed since the last sample; true once a
    /// limit is passed (the job must be stopped; [`Watch::cut`] says which).
    pub fn over(&self) -> bool {
        if self.cut.get().is_some() {
            return true;
        }
        let now = Instant::now();
        if now < self.next.get() {
            return false;
        }
        self.next.set(now + SAMPLE_EVERY);
        self.sample_now();
        self.cut.get().is_some()
    }

    fn sample_now(&self) {
        let (cpu, s) = self.tree.sample(self.memory_limit_kib.is_some(), true);
        self.samples.set(self.samples.get() + 1);
        let used = (cpu - self.cpu0).max(0.0);
        self.cpu_s.set(self.cpu_s.get().max(used));
        self.peak_kib.set(self.peak_kib.get().max(s.rss_kib));
        if self.memory_limit_kib.is_some_and(|l| s.rss_kib > l) {
            self.cut.set(Some(Cut::Memory));
        } else if self.cpu_limit_s.is_some_and(|l| used >= l) {
            self.cut.set(Some(Cut::Cpu));
        }
    }

    /// Which limit was passed, if one was.
    pub fn cut(&self) -> Option<Cut> {
        self.cut.get()
    }

    /// The tree's CPU time during the job at the last sample, seconds.
    pub fn cpu_s(&self) -> f64 {
        self.cpu_s.get()
    }

    /// The tree's CPU time during the job now (one more sample), seconds.
    pub fn cpu_now_s(&self) -> f64 {
        if self.cut.get().is_none() {
            self.sample_now();
        }
        self.cpu_s.get()
    }

    /// The largest resident memory of the tree sampled during the job, KiB (0 without a
    /// memory limit: the resident sets are then not read).
    pub fn peak_kib(&self) -> u64 {
        self.peak_kib.get()
    }

    /// The memory limit, KiB.
    pub fn memory_limit_kib(&self) -> Option<u64> {
        self.memory_limit_kib
    }

    /// The CPU-time limit, seconds.
    pub fn cpu_limit_s(&self) -> Option<f64> {
        self.cpu_limit_s
    }
}

/// Whether a cgroup v2 `memory.max` could be set on solvers: a cgroup v2 hierarchy, with the
/// `memory` controller in puzzlebench's own group and that group writable (delegated).
/// `Ok(path)` of the group, or why not. Detected once at the start of a run and recorded
/// in the meta; the limit itself is enforced by sampling either way.
pub fn detect_cgroup() -> Result<String, String> {
    let text = std::fs::read_to_string("/proc/self/cgroup")
        .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
    let Some(path) = text.lines().find_map(|l| l.strip_prefix("0::")) else {
        return Err("no cgroup v2 hierarchy (no `0::` line in /proc/self/cgroup)".into());
    };
    let dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let controllers = std::fs::read_to_string(dir.join("cgroup.controllers")).map_err(|e| {
        format!(
            "cannot read {}: {e}",
            dir.join("cgroup.controllers").display()
        )
    })?;
    if !controllers.split_ascii_whitespace().any(|c| c == "memory") {
        return Err(format!(
            "the memory controller is not enabled for {}",
            dir.display()
        ));
    }
    let c = std::ffi::CString::new(dir.as_os_str().to_string_lossy().as_bytes())
        .map_err(|_| "cgroup path with a NUL byte".to_string())?;
    // SAFETY: a valid C string; access(2) has no memory effects.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK) } != 0 {
        return Err(format!("{} is not writable (not delegated)", dir.display()));
    }
    Ok(dir.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units_and_bad_ones_say_what_is_expected() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("4gib"), Ok(4 << 30));
        assert_eq!(parse_size("65536K"), Ok(64 << 20));
        assert_eq!(parse_size("1T"), Ok(1 << 40));
        for (bad, says) in [
            ("0", "at least 16 MiB"),
            ("10X", "unknown unit"),
            ("1M", "at least 16 MiB"),
            ("-5M", "expected a size"),
            ("", "expected a size"),
            ("1.5G", "unknown unit"),
            ("99999999999999T", "too large"),
        ] {
            let e = parse_size(bad).expect_err(bad);
            assert!(
                e.contains(says) && e.contains(&format!("{bad:?}")),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn stat_fields_are_counted_from_the_last_parenthesis() {
        let t = "123 (a) b (c)) S 1 123 123 0 -1 4194560 100 0 0 0 250 50 30 20 20 0 3 0 1 2 3";
        let s = parse_stat(t).expect("parses");
        let tick = ticks_per_s();
        assert_eq!(s.pgrp, 123);
        assert!((s.own_s - 300.0 / tick).abs() < 1e-9);
        assert!((s.reaped_s - 50.0 / tick).abs() < 1e-9);
        assert_eq!(s.threads, 3);
        assert_eq!(parse_stat("no parens"), None);
    }

    #[test]
    fn the_backstop_sits_above_limit_and_margin() {
        for l in [MIN_MEMORY_LIMIT, 256 << 20, 4 << 30] {
            assert!(data_backstop(l) > l + MEMORY_MARGIN_KIB * 1024);
        }
    }

    #[test]
    fn without_limits_nothing_is_watched() {
        let me = std::process::id() as i32;
        let tree = Tree::open(me, false).expect("/proc");
        assert!(Watch::start(Some(&tree), None, None, false).is_none());
        let w = Watch::start(Some(&tree), None, Some(1 << 40), false).expect("watched");
        assert!(!w.over() && w.cut().is_none());
        assert!(w.peak_kib() > 0);
        let w =
            Watch::start(Some(&tree), Some(Duration::from_nanos(1)), None, true).expect("watched");
        // The whole life of this process is far more than a nanosecond of CPU.
        std::thread::sleep(SAMPLE_EVERY);
        assert!(w.over());
        assert_eq!(w.cut(), Some(Cut::Cpu));
    }

    #[test]
    fn a_tree_sample_counts_a_living_child() {
        // This process's own tree: a child `sleep` is found through the children file.
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .expect("sleep");
        let me = std::process::id() as i32;
        let files = TreeFiles::open(me).expect("/proc");
        // The test harness is multi-threaded: the sample reads every thread's children.
        let s = files.sample(true, false);
        let _ = child.kill();
        let _ = child.wait();
        assert!(s.procs >= 2, "{s:?}");
        assert!(s.rss_kib > 0, "{s:?}");
    }
}
