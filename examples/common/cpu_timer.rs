//! The timer the speed examples share (`#[path]`-included; not an example of its own).

use puzzlebench::clock::thread_cpu_s;

/// A timer for speed measurements. The machine is shared, so besides wall time it reads this
/// thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`, nanosecond-precise), which time spent waiting
/// for a core does not inflate. Not `/proc/thread-self/schedstat`: on this project's host it
/// read about a third less than this clock for the same pass.
pub struct Timer {
    wall: std::time::Instant,
    cpu_s: Option<f64>,
}

impl Timer {
    pub fn start() -> Timer {
        Timer {
            cpu_s: thread_cpu_s(),
            wall: std::time::Instant::now(),
        }
    }

    /// Seconds elapsed: on-CPU time where available, else wall time.
    pub fn secs(&self) -> f64 {
        match (self.cpu_s, thread_cpu_s()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}
