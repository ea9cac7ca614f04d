//! A CPU clock for the benchmarks that compare speeds.

use std::time::Instant;

/// A clock that only runs while this thread is on a CPU: the machine is shared, and wall
/// time would count the other engineers' builds. Linux's per-thread schedstat gives it in
/// nanoseconds; elsewhere this falls back to wall time.
pub struct CpuClock {
    pub wall: Instant,
    cpu: Option<u64>,
}

fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

impl CpuClock {
    pub fn start() -> CpuClock {
        CpuClock {
            wall: Instant::now(),
            cpu: thread_cpu_ns(),
        }
    }

    pub fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}
