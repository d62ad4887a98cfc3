//! One solver process: spawned in its own process group, fed and read through non-blocking
//! pipes with deadlines and interrupt checks, measured, and always killed and reaped.
//!
//! Stopping does not depend on the program's cooperation: the leader is signalled by pid as
//! well as by group (a program may leave its group), every wait is bounded, and when the
//! front end has made puzzlebench a child subreaper ([`become_subreaper`]) the descendants a
//! solver leaves behind are adopted by puzzlebench and ended ([`sweep_orphans`]). Reaping
//! those never takes a solver leader's exit status: leaders are waited for by pid only, and
//! the sweep skips the pids in the leader registry (spawns and sweeps exclude each other).

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::os::unix::process::CommandExt;
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, RwLock};
use std::time::{Duration, Instant};

use crate::clock::ProcessClock;

use super::manifest::{ExternalSpec, Mode};
use super::protocol::MAX_LINE;

/// How often, at most, a wait re-checks the interrupt flag.
const SLICE: Duration = Duration::from_millis(20);
/// How much of the solver's stderr is kept (its tail).
const STDERR_KEEP: usize = 64 * 1024;
/// How many of its last stderr lines go into a message.
const STDERR_LINES: usize = 20;
/// How stale a batch-mode peak-memory sample may be.
const HWM_EVERY: Duration = Duration::from_millis(1);
/// Time between SIGTERM and SIGKILL.
pub const GRACE: Duration = Duration::from_millis(200);
/// How long a process may take to be reapable after SIGKILL before puzzlebench stops waiting
/// for it (a process in uninterruptible sleep); it is then left to the orphan sweep.
const REAP_LIMIT: Duration = Duration::from_secs(5);

/// Set by [`become_subreaper`]: orphaned descendants of solvers are re-parented to this
/// process, which then ends and reaps them.
static SUBREAPER: AtomicBool = AtomicBool::new(false);
/// The soft `RLIMIT_NOFILE` before [`raise_nofile_limit`] raised it (0: not raised); solver
/// processes get it back.
static NOFILE_SOFT: AtomicU64 = AtomicU64::new(0);
/// Pids of solver leaders spawned and not yet reaped: the orphan sweep never touches them.
static LEADERS: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());
/// Spawns hold it shared (from fork until the pid is registered), the sweep exclusively, so
/// a just-forked leader is never taken for an orphan.
static SPAWN_GATE: RwLock<()> = RwLock::new(());

/// Makes this process a child subreaper (Linux `PR_SET_CHILD_SUBREAPER`): processes a solver
/// leaves behind (a daemon it forked, a helper that called `setsid`) become its children
/// when their parent dies, and are ended when a solver process ends. For the front end
/// (`bench-run`) only: a library user's process may have children of its own.
pub fn become_subreaper() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with integer arguments only.
        if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        SUBREAPER.store(true, Ordering::SeqCst);
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    Err(io::Error::other("child subreapers are a Linux feature"))
}

/// Whether [`become_subreaper`] was called (orphans of solvers are adopted by this process).
pub fn is_subreaper() -> bool {
    SUBREAPER.load(Ordering::Relaxed)
}

/// The soft and hard `RLIMIT_NOFILE`.
pub fn nofile_limit() -> io::Result<(u64, u64)> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: valid out-pointer.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((lim.rlim_cur, lim.rlim_max))
}

/// Raises the soft `RLIMIT_NOFILE` to the hard limit (each solver pipe is a descriptor, and
/// `ulimit -n` defaults are low); the solvers started afterwards get the original soft limit
/// back. Returns (original soft, new soft, hard).
pub fn raise_nofile_limit() -> io::Result<(u64, u64, u64)> {
    let (soft, hard) = nofile_limit()?;
    // An unlimited hard limit cannot be the soft one for descriptors: the kernel's ceiling is.
    let ceiling = std::fs::read_to_string("/proc/sys/fs/nr_open")
        .ok()
        .and_then(|t| t.trim().parse::<u64>().ok())
        .unwrap_or(1 << 20);
    let target = if hard == libc::RLIM_INFINITY {
        ceiling
    } else {
        hard
    };
    if target > soft {
        let lim = libc::rlimit {
            rlim_cur: target,
            rlim_max: hard,
        };
        // SAFETY: valid pointer to an initialised rlimit.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) } != 0 {
            return Err(io::Error::last_os_error());
        }
        NOFILE_SOFT.store(soft.max(1), Ordering::SeqCst);
    }
    let (now, _) = nofile_limit()?;
    Ok((soft, now, hard))
}

/// Descriptors one worker thread holds open for an external solver process: its three pipes
/// and `/proc/<pid>/status`, the three `/proc` files of its tree (`stat`, `statm`,
/// `children`: [`super::limits::Tree`]), plus the pipes that exist only while it is being started.
pub const FDS_PER_PROCESS: u64 = 4 + 3 + 5;
/// Descriptors a run needs besides its solvers' (dataset, results, journal, lock, standard
/// streams, the executable's own).
pub const FDS_BASE: u64 = 64;

/// Whether `errno` of a failed start is puzzlebench's own resource limit (descriptors or
/// processes), not the solver's fault.
pub fn is_resource_exhaustion(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EMFILE | libc::ENFILE | libc::EAGAIN | libc::ENOMEM)
    )
}

/// Why a wait for a line ended without one.
#[derive(Debug)]
pub enum ReadEnd {
    /// The stop check fired (interrupt).
    Stopped,
    /// The deadline passed.
    Deadline,
    /// stdout reached end of file.
    Eof,
    /// More than [`MAX_LINE`] bytes without a newline.
    TooLong,
    /// The solver closed its stdin before taking the whole request.
    Closed,
    /// An unexpected I/O error.
    Io(io::Error),
}

/// How the process ended, from `wait4`.
#[derive(Clone, Copy, Debug)]
pub struct ExitInfo {
    /// The raw wait status (meaningless when `reaped` is false).
    pub status: i32,
    /// False when the process could not be reaped within `REAP_LIMIT` of SIGKILL.
    pub reaped: bool,
    /// User + system CPU seconds of the process and the children it reaped.
    pub cpu_s: f64,
    /// Peak resident set in KiB.
    pub max_rss_kib: u64,
}

impl ExitInfo {
    /// Exited with status 0.
    pub fn success(&self) -> bool {
        self.reaped && libc::WIFEXITED(self.status) && libc::WEXITSTATUS(self.status) == 0
    }

    /// `exited with status 3`, `killed by signal 11 (SIGSEGV)`.
    pub fn describe(&self) -> String {
        if !self.reaped {
            format!("did not end within {} s of SIGKILL", REAP_LIMIT.as_secs())
        } else if libc::WIFEXITED(self.status) {
            format!("exited with status {}", libc::WEXITSTATUS(self.status))
        } else if libc::WIFSIGNALED(self.status) {
            let sig = libc::WTERMSIG(self.status);
            format!("killed by signal {sig} ({})", signal_name(sig))
        } else {
            format!("ended with wait status {:#x}", self.status)
        }
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        _ => "?",
    }
}

/// A running solver process. Dropping it kills its process group and reaps it.
pub struct Proc {
    pid: libc::pid_t,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    stdout_eof: bool,
    stderr: Option<ChildStderr>,
    /// stdout bytes read but not yet returned as a line.
    out: Vec<u8>,
    /// `out[..scanned]` holds no newline.
    scanned: usize,
    /// The tail of stderr, at most [`STDERR_KEEP`] bytes.
    err: Vec<u8>,
    exit: Option<ExitInfo>,
    /// The process's CPU-time clock (all threads, nanoseconds), for batch-mode per-job CPU.
    cpu_clock: Option<ProcessClock>,
    /// `/proc/<pid>/status`, kept open and re-read with `pread` for `VmHWM`.
    status_file: Option<File>,
    /// The longest wait between interrupt checks ([`SLICE`]; shorter while a limit is
    /// watched, so that the stop check samples the tree often enough).
    slice: Duration,
    /// The last `VmHWM` sample and when it was taken.
    hwm: Option<(Instant, u64)>,
}

/// On Linux, the solver is killed by the kernel when puzzlebench dies, however it dies: SIGKILL,
/// a crash, an abort. Ctrl-C and SIGTERM are handled by puzzlebench itself, which ends its
/// children; this covers the deaths it cannot handle. (The signal is tied to the thread that
/// started the child; worker threads outlive their solvers, so it fires only when they cannot.)
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut Command, data_limit: Option<u64>) {
    let parent = std::process::id();
    // SAFETY: the closure runs in the forked child before exec and calls only async-signal-safe
    // functions (prctl, getppid), allocating nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            // The parent died between fork and prctl: nobody would reap or stop this solver.
            if libc::getppid() as u32 != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            restore_nofile();
            set_data_limit(data_limit);
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(cmd: &mut Command, data_limit: Option<u64>) {
    // SAFETY: the closure calls only async-signal-safe functions (getrlimit, setrlimit).
    unsafe {
        cmd.pre_exec(move || {
            restore_nofile();
            set_data_limit(data_limit);
            Ok(())
        });
    }
}

/// In a forked child before exec: the `RLIMIT_DATA` backstop of a memory limit (soft limit
/// only, never above the hard one; [`super::limits::data_backstop`]). Async-signal-safe.
fn set_data_limit(limit: Option<u64>) {
    let Some(want) = limit else { return };
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: valid pointers; a failure leaves the inherited limit.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_DATA, &mut lim) == 0 {
            lim.rlim_cur = want.min(lim.rlim_max);
            libc::setrlimit(libc::RLIMIT_DATA, &lim);
        }
    }
}

/// In a forked child before exec: the solver gets the soft descriptor limit puzzlebench was
/// started with, not the raised one. Async-signal-safe (two syscalls, no allocation).
fn restore_nofile() {
    let soft = NOFILE_SOFT.load(Ordering::Relaxed);
    if soft == 0 {
        return;
    }
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: valid pointers; failures leave the raised limit, which is harmless.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
            lim.rlim_cur = soft;
            libc::setrlimit(libc::RLIMIT_NOFILE, &lim);
        }
    }
}

/// Removes `pid` from the leader registry.
fn unregister(pid: libc::pid_t) {
    if let Ok(mut l) = LEADERS.lock() {
        l.retain(|&p| p != pid);
    }
}

/// The children of this process, from `/proc/self/task/*/children` (or, where the kernel
/// lacks that file, a scan of every process's parent).
fn own_children() -> Vec<libc::pid_t> {
    let mut out = Vec::new();
    let mut found_file = false;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for t in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
                found_file = true;
                out.extend(
                    text.split_whitespace()
                        .filter_map(|p| p.parse::<libc::pid_t>().ok()),
                );
            }
        }
    }
    if found_file {
        return out;
    }
    let me = std::process::id() as libc::pid_t;
    if let Ok(procs) = std::fs::read_dir("/proc") {
        for p in procs.flatten() {
            let Some(pid) = p.file_name().to_str().and_then(|n| n.parse().ok()) else {
                continue;
            };
            let stat = std::fs::read_to_string(p.path().join("stat")).unwrap_or_default();
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|f| f.parse::<libc::pid_t>().ok());
            if ppid == Some(me) {
                out.push(pid);
            }
        }
    }
    out
}

/// Ends and reaps the processes this (subreaper) process adopted: descendants solvers left
/// behind. Solver leaders (registered pids) are never touched. Repeats until none is left
/// or `wait` has passed (killing an adopted process re-parents its own children here);
/// returns how many were reaped. Does nothing unless [`become_subreaper`] was called.
pub fn sweep_orphans(wait: Duration) -> usize {
    if !SUBREAPER.load(Ordering::SeqCst) {
        return 0;
    }
    let end = Instant::now() + wait;
    let mut reaped = 0;
    let mut nap = Duration::from_micros(200);
    loop {
        let orphans: Vec<libc::pid_t> = {
            // Exclusive: no spawn is between fork and registration.
            let _gate = SPAWN_GATE.write().unwrap_or_else(|e| e.into_inner());
            let leaders = LEADERS.lock().map(|l| l.clone()).unwrap_or_default();
            let orphans: Vec<libc::pid_t> = own_children()
                .into_iter()
                .filter(|p| !leaders.contains(p))
                .collect();
            for &pid in &orphans {
                // SAFETY: kill(2) on our own unreaped child: the pid cannot have been reused.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            orphans
        };
        if orphans.is_empty() {
            return reaped;
        }
        for pid in orphans {
            let mut status = 0;
            // SAFETY: waitpid on a specific non-leader child; WNOHANG never blocks.
            if unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } == pid {
                reaped += 1;
            }
        }
        if Instant::now() >= end {
            return reaped;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(10));
    }
}

impl Proc {
    /// Starts `spec`'s command with the protocol's environment, in a new process group.
    pub fn spawn(spec: &ExternalSpec, timeout: Option<Duration>) -> io::Result<Proc> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .env("PUZZLEBENCH_KIND", spec.kind.name())
            .env("PUZZLEBENCH_MODE", spec.mode.name())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Own group: a terminal's Ctrl-C reaches puzzlebench only, and one kill(-pgid)
            // reaches the solver's own children too.
            .process_group(0);
        match timeout {
            Some(t) => cmd.env("PUZZLEBENCH_TIMEOUT", format!("{}", t.as_secs_f64())),
            None => cmd.env_remove("PUZZLEBENCH_TIMEOUT"),
        };
        if let Some(dir) = &spec.workdir {
            cmd.current_dir(dir);
        }
        die_with_parent(
            &mut cmd,
            spec.memory_limit.map(super::limits::data_backstop),
        );
        let mut child = {
            let _gate = SPAWN_GATE.read().unwrap_or_else(|e| e.into_inner());
            let child = cmd.spawn()?;
            if let Ok(mut l) = LEADERS.lock() {
                l.push(child.id() as libc::pid_t);
            }
            child
        };
        let pid = child.id() as libc::pid_t;
        // std's Child neither kills nor waits on drop; from here on Proc owns the pid.
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(io::Error::other("spawned without pipes"));
        };
        let mut p = Proc {
            pid,
            stdin: Some(stdin),
            stdout,
            stdout_eof: false,
            stderr: Some(stderr),
            out: Vec::with_capacity(4096),
            scanned: 0,
            err: Vec::new(),
            exit: None,
            cpu_clock: None,
            status_file: None,
            hwm: None,
            slice: SLICE,
        };
        // If any of this fails, `p`'s Drop kills and reaps the child.
        if let Some(s) = &p.stdin {
            set_nonblocking(s.as_raw_fd())?;
        }
        set_nonblocking(p.stdout.as_raw_fd())?;
        if let Some(e) = &p.stderr {
            set_nonblocking(e.as_raw_fd())?;
        }
        if spec.mode == Mode::Batch {
            p.cpu_clock = ProcessClock::of(pid);
            p.status_file = File::open(format!("/proc/{pid}/status")).ok();
        }
        Ok(p)
    }

    /// Sets the longest wait between stop checks (at most 20 ms, the default).
    pub fn set_slice(&mut self, slice: Duration) {
        self.slice = slice.min(SLICE);
    }

    /// The process id (also its process group id).
    pub fn pid(&self) -> libc::pid_t {
        self.pid
    }

    /// Writes all of `bytes` to the solver's stdin, waiting (in slices) while the pipe is full.
    pub fn write_all(
        &mut self,
        mut bytes: &[u8],
        deadline: Option<Instant>,
        stop: &dyn Fn() -> bool,
    ) -> Result<(), ReadEnd> {
        while !bytes.is_empty() {
            let Some(stdin) = self.stdin.as_mut() else {
                return Err(ReadEnd::Closed);
            };
            match stdin.write(bytes) {
                Ok(0) => return Err(ReadEnd::Closed),
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let slice = slice_until(deadline, stop, self.slice)?;
                    self.poll_once(true, slice).map_err(ReadEnd::Io)?;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(ReadEnd::Closed),
                Err(e) => return Err(ReadEnd::Io(e)),
            }
        }
        Ok(())
    }

    /// Closes the solver's stdin (per-puzzle mode: the request is all it gets).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the next stdout line (returned without its `\n`).
    pub fn read_line(
        &mut self,
        deadline: Option<Instant>,
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<u8>, ReadEnd> {
        loop {
            if let Some(i) = self.out[self.scanned..].iter().position(|&b| b == b'\n') {
                let end = self.scanned + i;
                let line = self.out[..end].to_vec();
                self.out.drain(..=end);
                self.scanned = 0;
                return Ok(line);
            }
            self.scanned = self.out.len();
            if self.out.len() > MAX_LINE {
                return Err(ReadEnd::TooLong);
            }
            if self.stdout_eof {
                return Err(ReadEnd::Eof);
            }
            let slice = slice_until(deadline, stop, self.slice)?;
            self.poll_once(false, slice).map_err(ReadEnd::Io)?;
        }
    }

    /// Bytes read from stdout past the last line returned: output nobody asked for. (Not
    /// polled for: stray output still in the pipe shows up as the next job's answer line and
    /// is refused there, and a syscall per job is saved.)
    pub fn pending_output(&self) -> &[u8] {
        &self.out
    }

    /// Whether stdout has reached end of file (as far as has been read).
    pub fn stdout_closed(&self) -> bool {
        self.stdout_eof
    }

    /// Reads stdout to end of file; Ok(the bytes after the last line) or why it stopped.
    pub fn read_to_eof(
        &mut self,
        deadline: Option<Instant>,
        stop: &dyn Fn() -> bool,
    ) -> Result<Vec<u8>, ReadEnd> {
        while !self.stdout_eof {
            if self.out.len() > MAX_LINE {
                return Err(ReadEnd::TooLong);
            }
            let slice = slice_until(deadline, stop, self.slice)?;
            self.poll_once(false, slice).map_err(ReadEnd::Io)?;
        }
        Ok(std::mem::take(&mut self.out))
    }

    /// Waits (in short sleeps) for the process to exit, then reaps it.
    pub fn wait_exit(
        &mut self,
        deadline: Option<Instant>,
        stop: &dyn Fn() -> bool,
    ) -> Result<ExitInfo, ReadEnd> {
        let mut nap = Duration::from_micros(50);
        while !self.has_exited() {
            let slice = slice_until(deadline, stop, self.slice)?;
            // Keep stderr flowing so a chatty solver is not blocked on a full pipe.
            self.poll_stderr();
            std::thread::sleep(nap.min(slice));
            nap = (nap * 2).min(Duration::from_millis(5));
        }
        Ok(self.reap())
    }

    /// Waits (in short polls) for the process to exit while reading its stdout, then takes
    /// what stdout holds at that moment without waiting for end of file (a helper the process
    /// left behind may hold the pipe open) and reaps it. The bytes read after the last line
    /// are in [`Proc::pending_output`].
    pub fn wait_exit_reading(
        &mut self,
        deadline: Option<Instant>,
        stop: &dyn Fn() -> bool,
    ) -> Result<ExitInfo, ReadEnd> {
        let mut nap = Duration::from_micros(50);
        while !self.has_exited() {
            if self.out.len() > MAX_LINE {
                return Err(ReadEnd::TooLong);
            }
            let slice = slice_until(deadline, stop, self.slice)?;
            self.poll_once(false, nap.min(slice)).map_err(ReadEnd::Io)?;
            nap = (nap * 2).min(Duration::from_millis(5));
        }
        // Everything the process wrote before it exited is in the pipe by now.
        if !self.stdout_eof {
            self.read_stdout().map_err(ReadEnd::Io)?;
        }
        Ok(self.reap())
    }

    /// Ends the process: SIGTERM to the leader (by pid, in case it left its group) and its
    /// group, up to `grace` for the leader to exit, then SIGKILL to both (stragglers
    /// included), then a bounded reap and the orphan sweep. Returns how the leader ended and
    /// whether SIGKILL was needed for it.
    pub fn terminate(&mut self, grace: Duration) -> (ExitInfo, bool) {
        if let Some(e) = self.exit {
            return (e, false);
        }
        self.signal(libc::SIGTERM);
        let end = Instant::now() + grace;
        let mut nap = Duration::from_micros(100);
        let mut exited = self.has_exited();
        while !exited && Instant::now() < end {
            self.poll_stderr();
            std::thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(10));
            exited = self.has_exited();
        }
        self.signal(libc::SIGKILL);
        (self.reap(), !exited)
    }

    /// Sends `sig` to the leader by pid and to its process group. The leader is not yet
    /// reaped, so its pid (= the group id) cannot have been reused.
    fn signal(&self, sig: libc::c_int) {
        // SAFETY: kill(2) on our own unreaped child and its group; no memory involved.
        unsafe {
            libc::kill(self.pid, sig);
            libc::kill(-self.pid, sig);
        }
    }

    /// CPU time of the process so far (all its threads), in seconds.
    pub fn cpu_s(&self) -> Option<f64> {
        self.cpu_clock?.cpu_s()
    }

    /// Peak resident memory so far (`VmHWM`), in KiB, sampled at most once a
    /// millisecond: reading `/proc/<pid>/status` costs ~10 us, half the per-job budget, so
    /// jobs shorter than that share the sample of a job less than 1 ms before (the peak
    /// only ever grows, so the figure lags by at most 1 ms and is never too high).
    pub fn peak_rss_kib(&mut self) -> Option<u64> {
        let now = Instant::now();
        if let Some((at, kib)) = self.hwm {
            if now.duration_since(at) < HWM_EVERY {
                return Some(kib);
            }
        }
        let f = self.status_file.as_ref()?;
        let mut buf = [0u8; 4096];
        // One pread from offset 0: /proc regenerates the whole file on every read, so a
        // second read (to see end of file) would cost as much again. `status` is ~1.5 KiB.
        let n = f.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kib = line["VmHWM:".len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        self.hwm = Some((now, kib));
        Some(kib)
    }

    /// The last lines of stderr, joined with ` | `, at most ~2000 characters; None if empty.
    pub fn stderr_tail(&mut self) -> Option<String> {
        self.poll_stderr();
        let text = String::from_utf8_lossy(&self.err);
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        if lines.is_empty() {
            return None;
        }
        let mut out = lines[lines.len().saturating_sub(STDERR_LINES)..].join(" | ");
        if out.chars().count() > 2000 {
            let skip = out.chars().count() - 2000;
            out = format!("…{}", out.chars().skip(skip).collect::<String>());
        }
        Some(out)
    }

    /// After the process has ended: waits briefly for stderr's end of file, so the message of
    /// a crash carries what the solver printed just before it.
    pub fn drain_stderr_after_exit(&mut self) {
        let end = Instant::now() + Duration::from_millis(100);
        while self.stderr.is_some() && Instant::now() < end {
            if self.poll_once(false, Duration::from_millis(5)).is_err() {
                break;
            }
        }
    }

    /// Forgets the stderr kept so far (batch mode: each job's message carries its own). What
    /// is still in the pipe is not read first, to save a syscall per job: at worst a message
    /// carries a line the previous job wrote after its answer.
    pub fn clear_stderr(&mut self) {
        self.err.clear();
    }

    fn has_exited(&self) -> bool {
        if self.exit.is_some() {
            return true;
        }
        // SAFETY: zeroed siginfo_t is a valid out-buffer for waitid.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // WNOWAIT: look, but leave the zombie for wait4 (and its pid reserved for kill).
        // SAFETY: valid pointer; P_PID with our own child's pid.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                self.pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: si_pid is valid to read after a successful waitid.
        r == 0 && unsafe { info.si_pid() } != 0
    }

    fn reap(&mut self) -> ExitInfo {
        if let Some(e) = self.exit {
            return e;
        }
        // The leader has ended (or is about to): whatever is left in its group (a helper
        // holding stdout) goes with it. Sent while the leader is unreaped, so that the group id
        // cannot belong to another process yet.
        // SAFETY: kill(2) on a group whose leader is our unreaped child.
        unsafe { libc::kill(-self.pid, libc::SIGKILL) };
        let mut status = 0;
        // SAFETY: zeroed rusage is a valid out-buffer.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        let end = Instant::now() + REAP_LIMIT;
        let mut nap = Duration::from_micros(50);
        let mut reaped = true;
        loop {
            // SAFETY: valid pointers; our own child's pid; WNOHANG never blocks.
            let r = unsafe { libc::wait4(self.pid, &mut status, libc::WNOHANG, &mut ru) };
            if r == self.pid {
                break;
            }
            if r < 0 {
                if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                // ECHILD: someone else reaped it (should not happen); report what we know.
                status = 0x7f00;
                break;
            }
            if Instant::now() >= end {
                // Never block without bound: SIGKILL it again and leave it to the sweep.
                // SAFETY: as above.
                unsafe { libc::kill(self.pid, libc::SIGKILL) };
                reaped = false;
                break;
            }
            std::thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(5));
        }
        // Reaped, or given up on: either way the sweep may reap it from now on.
        unregister(self.pid);
        let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        let e = ExitInfo {
            status,
            reaped,
            cpu_s: tv(ru.ru_utime) + tv(ru.ru_stime),
            max_rss_kib: ru.ru_maxrss.max(0) as u64,
        };
        self.exit = Some(e);
        self.stdin = None;
        // Descendants that left the group were re-parented here when the leader died.
        sweep_orphans(Duration::from_millis(200));
        e
    }

    fn poll_stderr(&mut self) {
        if self.stderr.is_some() {
            let _ = self.read_stderr();
        }
    }

    /// One poll(2) over stdout, stderr and (when writing) stdin, for at most `slice`; reads
    /// whatever became readable.
    fn poll_once(&mut self, want_write: bool, slice: Duration) -> io::Result<()> {
        let mut fds = [libc::pollfd {
            fd: -1,
            events: 0,
            revents: 0,
        }; 3];
        if !self.stdout_eof {
            fds[0] = pollfd(self.stdout.as_raw_fd(), libc::POLLIN);
        }
        if let Some(e) = &self.stderr {
            fds[1] = pollfd(e.as_raw_fd(), libc::POLLIN);
        }
        if want_write {
            if let Some(s) = &self.stdin {
                fds[2] = pollfd(s.as_raw_fd(), libc::POLLOUT);
            }
        }
        let ts = libc::timespec {
            tv_sec: slice.as_secs() as libc::time_t,
            tv_nsec: slice.subsec_nanos() as libc::c_long,
        };
        // SAFETY: fds is a valid array of 3 pollfd (fd -1 entries are ignored by the kernel).
        let r = unsafe { libc::ppoll(fds.as_mut_ptr(), 3, &ts, std::ptr::null()) };
        if r < 0 {
            let e = io::Error::last_os_error();
            return if e.kind() == io::ErrorKind::Interrupted {
                Ok(())
            } else {
                Err(e)
            };
        }
        if fds[0].revents != 0 {
            self.read_stdout()?;
        }
        if fds[1].revents != 0 {
            self.read_stderr()?;
        }
        Ok(())
    }

    fn read_stdout(&mut self) -> io::Result<()> {
        let mut buf = [0u8; 16 * 1024];
        loop {
            match self.stdout.read(&mut buf) {
                Ok(0) => {
                    self.stdout_eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.out.extend_from_slice(&buf[..n]);
                    // Enough to judge the line; never buffer without bound.
                    if n < buf.len() || self.out.len() > MAX_LINE {
                        return Ok(());
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn read_stderr(&mut self) -> io::Result<()> {
        let Some(stderr) = self.stderr.as_mut() else {
            return Ok(());
        };
        let mut buf = [0u8; 16 * 1024];
        loop {
            match stderr.read(&mut buf) {
                Ok(0) => {
                    self.stderr = None;
                    return Ok(());
                }
                Ok(n) => {
                    self.err.extend_from_slice(&buf[..n]);
                    if self.err.len() > STDERR_KEEP {
                        let cut = self.err.len() - STDERR_KEEP;
                        self.err.drain(..cut);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if self.exit.is_some() {
            return;
        }
        // A well-behaved batch solver exits at end of input: give it a moment before signals.
        self.stdin = None;
        let end = Instant::now() + Duration::from_millis(100);
        let mut nap = Duration::from_micros(100);
        while !self.has_exited() && Instant::now() < end {
            self.poll_stderr();
            std::thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(10));
        }
        self.terminate(GRACE);
    }
}

fn pollfd(fd: i32, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd,
        events,
        revents: 0,
    }
}

fn set_nonblocking(fd: i32) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The next wait slice: at most [`SLICE`], never past the deadline; Err when it is time to
/// stop.
fn slice_until(
    deadline: Option<Instant>,
    stop: &dyn Fn() -> bool,
    slice: Duration,
) -> Result<Duration, ReadEnd> {
    if stop() {
        return Err(ReadEnd::Stopped);
    }
    match deadline {
        None => Ok(slice),
        Some(d) => {
            let now = Instant::now();
            if now >= d {
                Err(ReadEnd::Deadline)
            } else {
                Ok((d - now).min(slice))
            }
        }
    }
}
