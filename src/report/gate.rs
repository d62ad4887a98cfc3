//! The regression gate: a baseline and a new [`RunSet`] joined by [`compare_sorted`], with
//! the checks every caller of it needs (`bench-report compare` and the baseline section of
//! `bench-report html` both go through [`gate`], so they agree):
//!
//! * the two sides must hold the same puzzles (dataset fingerprints) and the same result
//!   columns; measurement columns
//!   ([`MEASUREMENT_COLUMNS`](crate::report::compare::MEASUREMENT_COLUMNS)) on one side only never refuse;
//! * the noise band is one number, computed here ([`Band`]) and rendered by every report;
//! * a wall-time verdict stands only where others' CPU during the runs cannot explain it
//!   ([`crate::report::host`], [`FileLoad::bound`]); CPU times, counters and statuses are always judged.

pub use crate::report::compare::BAND_FLOOR;
use crate::report::compare::{
    check_datasets, column_mismatch, compare_sorted, cpu_accounting_note, CompareOptions,
    Comparison,
};
use crate::report::host::HostCheck;
pub use crate::report::host::{FileLoad, HostLoads};
use crate::report::input::{InputOptions, RunSet};
use crate::results::ReadError;
use std::path::PathBuf;

/// The compare could not be made.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    /// An input could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The two sides cannot be compared (different puzzles, different result columns).
    #[error("{0}")]
    Refused(String),
}

/// The gate's noise band: a time ratio whose interval reaches into `1 ± value` is noise.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// Relative half-width.
    pub value: f64,
    /// Where it comes from, in words (shown under every time table).
    pub source: String,
}

impl Band {
    /// The default: [`BAND_FLOOR`].
    pub fn floor() -> Band {
        Band {
            value: BAND_FLOOR,
            source: format!("default floor {BAND_FLOOR}"),
        }
    }

    /// A band given on the command line (`--noise-band`), used as given.
    pub fn given(value: f64) -> Band {
        Band {
            value,
            source: "--noise-band".to_string(),
        }
    }

    /// The band a command line asks for: `--noise-band` as given (in `[0, 1)`), else measured
    /// from the `--calibrate` runs (each a CSV or directory), else [`Band::floor`].
    pub fn from_options(noise_band: Option<f64>, calibrate: &[PathBuf]) -> Result<Band, GateError> {
        if let Some(b) = noise_band {
            if !(b.is_finite() && (0.0..1.0).contains(&b)) {
                return Err(GateError::Refused(format!(
                    "--noise-band must be in [0, 1), got {}",
                    crate::number::show(b)
                )));
            }
            return Ok(Band::given(b));
        }
        if calibrate.is_empty() {
            return Ok(Band::floor());
        }
        let runs = calibrate
            .iter()
            .map(|r| RunSet::open(std::slice::from_ref(r), InputOptions::default()))
            .collect::<Result<Vec<_>, _>>()?;
        Band::calibrated(&runs)
    }

    /// The band measured from runs of one plan on one host (an A/A pair, or a history of
    /// nightly runs), compared in order, each with the next: twice the largest deviation of
    /// a group's ratio of median wall times from 1 (a third run may stray as far again the
    /// other way), and never less than [`BAND_FLOOR`].
    pub fn calibrated(runs: &[RunSet]) -> Result<Band, GateError> {
        let mut widest: f64 = 0.0;
        let mut groups = 0usize;
        for w in runs.windows(2) {
            let c = gate(&w[0], &w[1], &Band::floor(), ("a", "b"), false)?;
            for g in &c.groups {
                if let Some(r) = g.time.ratio {
                    widest = widest.max((r.value - 1.0).abs());
                    groups += 1;
                }
            }
        }
        if groups == 0 {
            return Err(GateError::Refused(format!(
                "--calibrate: the {} runs share no group with enough joined jobs to measure \
                 their variation (pass two or more runs of one plan)",
                runs.len()
            )));
        }
        let measured = 2.0 * widest;
        Ok(Band {
            value: measured.max(BAND_FLOOR),
            source: format!(
                "calibrated on {} runs: widest A/A ratio x{:.3} over {groups} group comparisons, \
                 band 2 x {:.3} = {:.3}{}",
                runs.len(),
                1.0 + widest,
                widest,
                measured,
                if measured < BAND_FLOOR {
                    format!(", raised to the floor {BAND_FLOOR}")
                } else {
                    String::new()
                }
            ),
        })
    }
}

/// Compare `new` with `base` under `band`: refuse different puzzles (unless
/// `force_datasets`, then a note) and different result columns, check the host
/// (`HostCheck`: wall times of a noisy host are shown, not judged), then join the two
/// key-sorted streams. What could not be checked is in [`Comparison::notes`].
pub fn gate(
    base: &RunSet,
    new: &RunSet,
    band: &Band,
    labels: (&str, &str),
    force_datasets: bool,
) -> Result<Comparison, GateError> {
    let host = HostCheck::of(base, new);
    let opts = CompareOptions {
        noise_band: band.value,
        band_source: band.source.clone(),
        wall_not_judged: host.noisy,
        host: host.loads,
        baseline_label: labels.0.to_string(),
        new_label: labels.1.to_string(),
        efforts: new.efforts().clone(),
        ..CompareOptions::default()
    };
    let datasets = check_datasets(base.files(), new.files());
    let mut notes = datasets.unchecked;
    notes.extend(cpu_accounting_note(base.files(), new.files()));
    match datasets.mismatch {
        Some(m) if !force_datasets => return Err(GateError::Refused(m)),
        Some(m) => notes.push(format!("{m}; compared anyway (--force)")),
        None => {}
    }
    let (b, n) = (base.sorted()?, new.sorted()?);
    if let Some(m) = column_mismatch(b.columns(), n.columns()) {
        return Err(GateError::Refused(m));
    }
    let mut c = compare_sorted(b, n, &opts)?;
    notes.extend(host.notes);
    notes.extend(base.notes().iter().chain(new.notes()).cloned());
    c.notes = notes;
    Ok(c)
}
