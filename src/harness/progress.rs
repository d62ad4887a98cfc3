//! The progress bar on stderr: jobs done of the shard's jobs, rate, ETA and solved so far. None
//! when stderr is not a terminal, or with `--quiet`.
//!
//! A resumed run's earlier rows are shown as a count beside the bar, not as progress made in
//! the first second, so the rate and the ETA describe this run's own jobs.

use crate::results::Status;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};

/// The bar, or nothing.
pub(crate) struct Progress {
    bar: ProgressBar,
    solved: AtomicU64,
}

impl Progress {
    /// A bar over `jobs - already` jobs, when `enabled` and stderr is a terminal.
    pub(crate) fn new(
        enabled: bool,
        jobs: u64,
        already: u64,
        counts: &BTreeMap<Status, u64>,
    ) -> Progress {
        let bar = if enabled && std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(
                Some(jobs.saturating_sub(already)),
                ProgressDrawTarget::stderr(),
            );
            let resumed = if already > 0 {
                format!("({already} resumed) ")
            } else {
                String::new()
            };
            let template = format!(
                "{{elapsed_precise}} [{{wide_bar}}] {resumed}{{pos}}/{{len}} jobs {{rate}} ETA {{eta}} {{msg}}"
            );
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(
                    style
                        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{:.0}/s", s.per_sec());
                        })
                        .progress_chars("=> "),
                );
            }
            bar
        } else {
            ProgressBar::hidden()
        };
        Progress {
            bar,
            solved: AtomicU64::new(counts.get(&Status::Solved).copied().unwrap_or(0)),
        }
    }

    /// More jobs finished: `counts` rows per status, in [`Status::ALL`] order. Called once
    /// per batch, not per job: the bar is redrawn a few times a second at most anyway.
    pub(crate) fn finished(&self, counts: &[u64; Status::ALL.len()]) {
        if self.bar.is_hidden() {
            return;
        }
        let solved_now = Status::ALL
            .iter()
            .zip(counts)
            .filter(|(s, _)| **s == Status::Solved)
            .map(|(_, n)| *n)
            .sum::<u64>();
        let solved = self.solved.fetch_add(solved_now, Ordering::Relaxed) + solved_now;
        self.bar.inc(counts.iter().sum());
        self.bar.set_message(format!("solved {solved}"));
    }

    /// Remove the bar from the screen (once, whatever happens after).
    pub(crate) fn clear(&self) {
        self.bar.finish_and_clear();
    }
}
