//! One solver process: spawned in its own process group, fed and read through non-blocking
//! pipes with deadlines and interrupt checks, measured, and always killed and reaped.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::os::unix::process::CommandExt;
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

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
    /// The raw wait status.
    pub status: i32,
    /// User + system CPU seconds of the process and the children it reaped.
    pub cpu_s: f64,
    /// Peak resident set in KiB.
    pub max_rss_kib: u64,
}

impl ExitInfo {
    /// Exited with status 0.
    pub fn success(&self) -> bool {
        libc::WIFEXITED(self.status) && libc::WEXITSTATUS(self.status) == 0
    }

    /// `exited with status 3`, `killed by signal 11 (SIGSEGV)`.
    pub fn describe(&self) -> String {
        if libc::WIFEXITED(self.status) {
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
    cpu_clock: Option<libc::clockid_t>,
    /// `/proc/<pid>/status`, kept open and re-read with `pread` for `VmHWM`.
    status_file: Option<File>,
    /// The last `VmHWM` sample and when it was taken.
    hwm: Option<(Instant, u64)>,
}

/// On Linux, the solver is killed by the kernel when puzzlebench dies, however it dies: SIGKILL,
/// a crash, an abort. Ctrl-C and SIGTERM are handled by puzzlebench itself, which ends its
/// children; this covers the deaths it cannot handle. (The signal is tied to the thread that
/// started the child; worker threads outlive their solvers, so it fires only when they cannot.)
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut Command) {
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
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_cmd: &mut Command) {}

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
        die_with_parent(&mut cmd);
        let mut child = cmd.spawn()?;
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
            let mut clk: libc::clockid_t = 0;
            // SAFETY: plain FFI call with a valid out-pointer.
            if unsafe { libc::clock_getcpuclockid(pid, &mut clk) } == 0 {
                p.cpu_clock = Some(clk);
            }
            p.status_file = File::open(format!("/proc/{pid}/status")).ok();
        }
        Ok(p)
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
                    let slice = slice_until(deadline, stop)?;
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
            let slice = slice_until(deadline, stop)?;
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
            let slice = slice_until(deadline, stop)?;
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
            let slice = slice_until(deadline, stop)?;
            // Keep stderr flowing so a chatty solver is not blocked on a full pipe.
            self.poll_stderr();
            std::thread::sleep(nap.min(slice));
            nap = (nap * 2).min(Duration::from_millis(5));
        }
        Ok(self.reap())
    }

    /// Ends the process group: SIGTERM, up to `grace` for the leader to exit, then SIGKILL
    /// to the whole group (stragglers included), then reaps. Returns how the leader ended
    /// and whether SIGKILL was needed for it.
    pub fn terminate(&mut self, grace: Duration) -> (ExitInfo, bool) {
        if let Some(e) = self.exit {
            return (e, false);
        }
        // The leader is not yet reaped, so its pid (= the group id) cannot have been reused.
        // SAFETY: kill(2) with a negative pid signals that process group; no memory involved.
        unsafe { libc::kill(-self.pid, libc::SIGTERM) };
        let end = Instant::now() + grace;
        let mut nap = Duration::from_micros(100);
        let mut exited = self.has_exited();
        while !exited && Instant::now() < end {
            self.poll_stderr();
            std::thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(10));
            exited = self.has_exited();
        }
        // SAFETY: as above; the leader is at worst a zombie, still holding the group id.
        unsafe { libc::kill(-self.pid, libc::SIGKILL) };
        (self.reap(), !exited)
    }

    /// CPU time of the process so far (all its threads), in seconds.
    pub fn cpu_s(&self) -> Option<f64> {
        let clk = self.cpu_clock?;
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: valid clock id from clock_getcpuclockid and a valid out-pointer.
        if unsafe { libc::clock_gettime(clk, &mut ts) } != 0 {
            return None;
        }
        Some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
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
        let mut status = 0;
        // SAFETY: zeroed rusage is a valid out-buffer.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: valid pointers; our own child's pid.
            let r = unsafe { libc::wait4(self.pid, &mut status, 0, &mut ru) };
            if r == self.pid {
                break;
            }
            if r < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            // ECHILD: someone else reaped it (should not happen); report what we know.
            status = 0x7f00;
            break;
        }
        let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        let e = ExitInfo {
            status,
            cpu_s: tv(ru.ru_utime) + tv(ru.ru_stime),
            max_rss_kib: ru.ru_maxrss.max(0) as u64,
        };
        self.exit = Some(e);
        self.stdin = None;
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
fn slice_until(deadline: Option<Instant>, stop: &dyn Fn() -> bool) -> Result<Duration, ReadEnd> {
    if stop() {
        return Err(ReadEnd::Stopped);
    }
    match deadline {
        None => Ok(SLICE),
        Some(d) => {
            let now = Instant::now();
            if now >= d {
                Err(ReadEnd::Deadline)
            } else {
                Ok((d - now).min(SLICE))
            }
        }
    }
}
