//! CPU clocks, a foundation module: the harness, the solver seam and the puzzles' own speed
//! tests all read the same clock, and nothing here reaches up (tests/it/layering.rs).

/// The calling thread's CPU time in seconds (`CLOCK_THREAD_CPUTIME_ID`, nanosecond-precise),
/// which time spent waiting for a core does not inflate. `None` where the clock cannot be
/// read (it always can on Linux).
pub fn thread_cpu_s() -> Option<f64> {
    read_s(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// The CPU clock of another process (all its threads), as `clock_getcpuclockid(3)` gives it:
/// read without a `/proc` parse, so a watcher can sample it often.
#[derive(Clone, Copy, Debug)]
pub struct ProcessClock(libc::clockid_t);

impl ProcessClock {
    /// The clock of process `pid`; `None` if the process is gone or not ours to read.
    pub fn of(pid: libc::pid_t) -> Option<ProcessClock> {
        let mut clk: libc::clockid_t = 0;
        // SAFETY: plain FFI call with a valid out-pointer to a live `clockid_t`.
        (unsafe { libc::clock_getcpuclockid(pid, &mut clk) } == 0).then_some(ProcessClock(clk))
    }

    /// The process's CPU time so far, in seconds; `None` once it has been reaped.
    pub fn cpu_s(self) -> Option<f64> {
        read_s(self.0)
    }
}

fn read_s(clk: libc::clockid_t) -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clk` is a predefined clock id or one from clock_getcpuclockid, and the
    // out-pointer is a valid, live `timespec`.
    if unsafe { libc::clock_gettime(clk, &mut ts) } != 0 {
        return None;
    }
    Some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

#[cfg(test)]
mod tests {
    use super::{thread_cpu_s, ProcessClock};

    #[test]
    fn thread_cpu_time_grows_with_work_and_never_goes_back() {
        let start = thread_cpu_s().expect("thread CPU clock");
        // Spin until the clock has moved: a thread that works accumulates CPU time.
        let mut x = 0u64;
        let mut now = start;
        while now <= start {
            for i in 0..10_000u64 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
            }
            now = thread_cpu_s().expect("thread CPU clock");
        }
        std::hint::black_box(x);
        assert!(now > start);
        assert!(thread_cpu_s().expect("thread CPU clock") >= now);
    }

    #[test]
    fn own_process_clock_reads_at_least_this_threads_time() {
        let clock = ProcessClock::of(std::process::id() as libc::pid_t).expect("own clock");
        let process = clock.cpu_s().expect("process CPU time");
        let thread = thread_cpu_s().expect("thread CPU time");
        // The process clock sums all threads, this one included (read before it, so allow
        // the clock's own nanoseconds).
        assert!(
            process + 1e-3 >= thread,
            "process {process} < thread {thread}"
        );
    }
}
