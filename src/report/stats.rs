//! Descriptive statistics and the bootstrap used by summaries and comparisons.
//!
//! Percentiles use linear interpolation between order statistics, the definition of
//! Hyndman & Fan (1996) type 7, which is also the default of R's `quantile` and NumPy's
//! `percentile`: for sorted `x[0..n]` and `p` in `[0, 1]`, `h = (n - 1) p` and the value is
//! `x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h])`. So the median of an even count is
//! the mean of the two middle values, `p = 0` is the minimum and `p = 1` the maximum.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Seed of every bootstrap, fixed so that reports are reproducible byte for byte.
pub const BOOTSTRAP_SEED: u64 = 0x5eed_b007_57a9_0001;

/// Resamples per bootstrap.
pub const BOOTSTRAP_RESAMPLES: usize = 2000;

/// Values drawn per side over all resamples of one bootstrap. Groups so large that the asked
/// resamples would draw more use fewer (see [`resamples_for`]): at a million runs 2000
/// resamples are 2·10⁹ draws and minutes of work, for an interval already far narrower than
/// any noise band.
pub const BOOTSTRAP_DRAWS: usize = 200_000_000;

/// Fewest resamples a bootstrap uses, whatever the size.
pub const MIN_RESAMPLES: usize = 200;

/// Resamples used for `n` values when `asked` are asked for: `asked` while `asked * n` stays
/// within [`BOOTSTRAP_DRAWS`], else as many as fit, but at least [`MIN_RESAMPLES`].
pub fn resamples_for(asked: usize, n: usize) -> usize {
    if asked.saturating_mul(n) <= BOOTSTRAP_DRAWS {
        asked
    } else {
        (BOOTSTRAP_DRAWS / n.max(1)).clamp(MIN_RESAMPLES.min(asked), asked)
    }
}

/// Arithmetic mean; `None` for no values.
pub fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Percentile `p` in `[0, 1]` of values already sorted ascending (type 7, see the module doc).
/// `None` for no values.
pub fn percentile_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// Values sorted ascending (NaN-free input assumed; NaNs sort last).
pub fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// Percentile `p` in `[0, 1]` of unsorted values.
pub fn percentile(xs: &[f64], p: f64) -> Option<f64> {
    percentile_sorted(&sorted(xs), p)
}

/// Median (percentile 0.5).
pub fn median(xs: &[f64]) -> Option<f64> {
    percentile(xs, 0.5)
}

/// Penalised average runtime PAR-k in seconds: the mean over runs of the wall time of a
/// run solved within the time limit and of `k` times the limit for any other run (unsolved,
/// timeout, error, wrong, and a solve that ended after the limit: under that limit it would
/// not have been solved, so PAR-k never exceeds k times the limit). `runs` yields (solved,
/// wall seconds). `None` for no runs.
pub fn par_k(runs: impl IntoIterator<Item = (bool, f64)>, k: f64, limit_s: f64) -> Option<f64> {
    let (mut n, mut total) = (0usize, 0.0);
    for (solved, wall) in runs {
        n += 1;
        total += if solved && wall <= limit_s {
            wall
        } else {
            k * limit_s
        };
    }
    (n > 0).then(|| total / n as f64)
}

/// A point estimate with a confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Interval {
    /// Point estimate from the original samples.
    pub value: f64,
    /// Lower end of the interval.
    pub lo: f64,
    /// Upper end of the interval.
    pub hi: f64,
}

impl Interval {
    /// The ratio the other way round (`a / b` from `b / a`): the value and both ends
    /// inverted, the ends swapped.
    pub fn inverse(self) -> Interval {
        Interval {
            value: 1.0 / self.value,
            lo: 1.0 / self.hi,
            hi: 1.0 / self.lo,
        }
    }
}

/// The one ratio convention of every report (docs/reports.md, "Ratios and directions"): a
/// ratio between two named sides is said from the side that needs more, as a multiple of at
/// least 1 of the other, so no reader meets ×0.000170 where ×5,880 of the other is meant.
/// From the ratio `b / a`: `(more, less, ratio ≥ 1)`.
pub fn costlier<'a>(b_over_a: Interval, a: &'a str, b: &'a str) -> (&'a str, &'a str, Interval) {
    if b_over_a.value >= 1.0 {
        (b, a, b_over_a)
    } else {
        (a, b, b_over_a.inverse())
    }
}

/// The percentile-bootstrap 95% interval around `value`: the 2.5th and 97.5th percentiles of
/// the resampled estimates `draws`. `None` when there are none.
fn interval95(value: f64, mut draws: Vec<f64>) -> Option<Interval> {
    draws.sort_by(f64::total_cmp);
    Some(Interval {
        value,
        lo: percentile_sorted(&draws, 0.025)?,
        hi: percentile_sorted(&draws, 0.975)?,
    })
}

/// Median of one resample. Selection rather than a sort (linear, not n log n) gives the same
/// order statistics, so the same value as [`median`] of the resample.
fn resample_median(rng: &mut Pcg64Mcg, xs: &[f64], buf: &mut Vec<f64>) -> f64 {
    buf.clear();
    buf.extend((0..xs.len()).map(|_| xs[rng.random_range(0..xs.len())]));
    median_in_place(buf)
}

/// Median (type 7) of `buf`, reordering it; NaN for no values. Selection rather than a sort.
fn median_in_place(buf: &mut [f64]) -> f64 {
    let n = buf.len();
    if n == 0 {
        return f64::NAN;
    }
    let lo = (n - 1) / 2;
    let (_, &mut a, right) = buf.select_nth_unstable_by(lo, f64::total_cmp);
    if n % 2 == 1 {
        return a;
    }
    // Type 7 at p = 0.5 for even n: halfway between the two middle order statistics.
    let b = right.iter().copied().fold(f64::INFINITY, f64::min);
    a + 0.5 * (b - a)
}

/// Percentile-bootstrap 95% interval of `median(new) / median(base)`: each side is resampled
/// with replacement, independently, `resamples` times from a [`Pcg64Mcg`] seeded with `seed`,
/// and the interval is the 2.5th and 97.5th percentiles of the resampled ratios. `None` when
/// either side is empty or the base median is not positive. Resamples whose base median is
/// zero are dropped (they have no ratio). Large samples use fewer resamples
/// ([`resamples_for`] of the larger side).
pub fn bootstrap_ratio_of_medians(
    base: &[f64],
    new: &[f64],
    resamples: usize,
    seed: u64,
) -> Option<Interval> {
    let value = median(new)? / median(base)?;
    if !value.is_finite() {
        return None;
    }
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let (mut bb, mut nb) = (
        Vec::with_capacity(base.len()),
        Vec::with_capacity(new.len()),
    );
    let resamples = resamples_for(resamples, base.len().max(new.len()));
    let mut ratios = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        let b = resample_median(&mut rng, base, &mut bb);
        let n = resample_median(&mut rng, new, &mut nb);
        let r = n / b;
        if r.is_finite() {
            ratios.push(r);
        }
    }
    interval95(value, ratios)
}

/// Ratios of one paired sample's sides, `b` over `a`, each with a paired-bootstrap 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PairedRatios {
    /// `mean(b) / mean(a)`; `None` when `mean(a)` is zero.
    pub mean: Option<Interval>,
    /// `median(b) / median(a)`; `None` when `median(a)` is zero.
    pub median: Option<Interval>,
}

/// Paired percentile-bootstrap 95% intervals of `mean(b) / mean(a)` and
/// `median(b) / median(a)`, where `a[i]` and `b[i]` are one pair (the same puzzle run two
/// ways). Each resample draws pair indices with replacement from a [`Pcg64Mcg`] seeded with
/// `seed`, so both sides keep their pairing and the interval reflects the pairs' correlation;
/// both ratios come from the same resamples. Resamples whose denominator is zero are dropped.
/// `None` when the sides are empty or differ in length. Large samples use fewer resamples
/// ([`resamples_for`]).
pub fn bootstrap_paired_ratios(
    a: &[f64],
    b: &[f64],
    resamples: usize,
    seed: u64,
) -> Option<PairedRatios> {
    let n = a.len();
    if n == 0 || b.len() != n {
        return None;
    }
    let ratio = |num: Option<f64>, den: Option<f64>| {
        let r = num? / den?;
        r.is_finite().then_some(r)
    };
    let mean_value = ratio(mean(b), mean(a));
    let median_value = ratio(median(b), median(a));
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let resamples = resamples_for(resamples, n);
    let (mut ab, mut bb) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let (mut means, mut medians) = (Vec::with_capacity(resamples), Vec::with_capacity(resamples));
    for _ in 0..resamples {
        ab.clear();
        bb.clear();
        for _ in 0..n {
            let i = rng.random_range(0..n);
            ab.push(a[i]);
            bb.push(b[i]);
        }
        // Equal counts on both sides, so the ratio of sums is the ratio of means.
        let r = bb.iter().sum::<f64>() / ab.iter().sum::<f64>();
        if r.is_finite() {
            means.push(r);
        }
        let r = median_in_place(&mut bb) / median_in_place(&mut ab);
        if r.is_finite() {
            medians.push(r);
        }
    }
    Some(PairedRatios {
        mean: mean_value.and_then(|v| interval95(v, means)),
        median: median_value.and_then(|v| interval95(v, medians)),
    })
}

/// Percentile-bootstrap 95% interval of the median of `xs` (same scheme as
/// [`bootstrap_ratio_of_medians`], one side). `None` for no values.
pub fn bootstrap_median(xs: &[f64], resamples: usize, seed: u64) -> Option<Interval> {
    let value = median(xs)?;
    let resamples = resamples_for(resamples, xs.len());
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut buf = Vec::with_capacity(xs.len());
    let meds = (0..resamples).map(|_| resample_median(&mut rng, xs, &mut buf));
    interval95(value, meds.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costlier_names_the_side_that_needs_more_with_a_ratio_of_at_least_one() {
        let iv = |value, lo, hi| Interval { value, lo, hi };
        // B needs a quarter of A: said as A needing ×4 [2, 8] of B.
        assert_eq!(
            costlier(iv(0.25, 0.125, 0.5), "a", "b"),
            ("a", "b", iv(4.0, 2.0, 8.0))
        );
        assert_eq!(
            costlier(iv(3.0, 2.0, 5.0), "a", "b"),
            ("b", "a", iv(3.0, 2.0, 5.0))
        );
        // Equal: B is named (its ratio to A is already ≥ 1).
        assert_eq!(costlier(iv(1.0, 0.5, 2.0), "a", "b").0, "b");
    }

    #[test]
    fn resample_median_equals_the_median_of_the_resample() {
        for n in [1usize, 2, 3, 4, 7, 10, 101] {
            let xs: Vec<f64> = (0..n).map(|i| ((i * 37) % 11) as f64 + 0.5).collect();
            let mut rng = Pcg64Mcg::seed_from_u64(9);
            let mut check = rng.clone();
            let mut buf = Vec::new();
            for _ in 0..20 {
                let got = resample_median(&mut rng, &xs, &mut buf);
                let drawn: Vec<f64> = (0..n).map(|_| xs[check.random_range(0..n)]).collect();
                assert_eq!(Some(got), median(&drawn), "n = {n}");
            }
        }
    }

    #[test]
    fn large_samples_use_fewer_resamples() {
        assert_eq!(resamples_for(2000, 1000), 2000);
        assert_eq!(resamples_for(2000, 100_000), 2000);
        assert_eq!(resamples_for(2000, 1_000_000), 200);
        assert_eq!(resamples_for(2000, 500_000), 400);
        assert_eq!(resamples_for(2000, 100_000_000), MIN_RESAMPLES);
        assert_eq!(resamples_for(50, 100_000_000), 50, "never more than asked");
    }

    #[test]
    fn mean_and_median() {
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
        assert_eq!(mean(&[]), None);
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn percentiles_interpolate_linearly_type7() {
        // 1..=10: h = 9 p. p10: h = 0.9 -> 1 + 0.9 = 1.9; p90: h = 8.1 -> 9 + 0.1 = 9.1.
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-12);
        assert!(close(percentile(&xs, 0.1), 1.9));
        assert!(close(percentile(&xs, 0.9), 9.1));
        assert_eq!(percentile(&xs, 0.0), Some(1.0));
        assert_eq!(percentile(&xs, 1.0), Some(10.0));
        // Four values 10, 20, 30, 40: p90 h = 2.7 -> 30 + 0.7 * 10 = 37.
        assert!(close(percentile(&[40.0, 10.0, 30.0, 20.0], 0.9), 37.0));
        assert_eq!(percentile(&[7.0], 0.9), Some(7.0));
        assert_eq!(percentile(&[], 0.5), None);
    }

    #[test]
    fn par_k_penalises_every_unsolved_run() {
        let runs = [(true, 1.0), (false, 3.0), (true, 2.0), (false, 0.5)];
        // (1 + 2 * 10 + 2 + 2 * 10) / 4
        assert_eq!(par_k(runs, 2.0, 10.0), Some(43.0 / 4.0));
        assert_eq!(par_k(runs, 10.0, 10.0), Some(203.0 / 4.0));
        assert_eq!(par_k([], 2.0, 10.0), None);
        // A solve that ended after the limit counts as unsolved at the limit.
        assert_eq!(par_k([(true, 12.0), (true, 4.0)], 2.0, 10.0), Some(12.0));
        assert_eq!(par_k([(true, 10.0)], 2.0, 10.0), Some(10.0));
    }

    #[test]
    fn bootstrap_of_constant_samples_is_exact() {
        let base = [2.0; 15];
        let new = [3.0; 15];
        let ci = bootstrap_ratio_of_medians(&base, &new, 500, 1).expect("ratio");
        assert_eq!((ci.value, ci.lo, ci.hi), (1.5, 1.5, 1.5));
        assert_eq!(bootstrap_ratio_of_medians(&[0.0], &new, 10, 1), None);
        assert_eq!(bootstrap_ratio_of_medians(&[], &new, 10, 1), None);
    }

    #[test]
    fn paired_bootstrap_keeps_pairs_together() {
        // b is exactly 1.25 a on every pair, so every paired resample has ratio 1.25 however
        // spread a is; an unpaired bootstrap would give a wide interval here.
        let a: Vec<f64> = (1..=40).map(|i| f64::from(i * i)).collect();
        let b: Vec<f64> = a.iter().map(|x| x * 1.25).collect();
        let r = bootstrap_paired_ratios(&a, &b, 500, 4).expect("ratios");
        for ci in [r.mean.expect("mean"), r.median.expect("median")] {
            assert!((ci.value - 1.25).abs() < 1e-12, "{ci:?}");
            assert!((ci.lo - 1.25).abs() < 1e-12 && (ci.hi - 1.25).abs() < 1e-12);
        }
        assert_eq!(bootstrap_paired_ratios(&a, &b[1..], 10, 1), None);
        assert_eq!(bootstrap_paired_ratios(&[], &[], 10, 1), None);
        let zero = bootstrap_paired_ratios(&[0.0, 0.0, 0.0], &[1.0, 2.0, 3.0], 10, 1);
        assert_eq!(
            zero,
            Some(PairedRatios {
                mean: None,
                median: None
            })
        );
    }

    #[test]
    fn paired_bootstrap_is_seeded_and_covers_its_estimate() {
        let a: Vec<f64> = (0..60).map(|i| 10.0 + f64::from((i * 37) % 17)).collect();
        let b: Vec<f64> = a
            .iter()
            .enumerate()
            .map(|(i, x)| x * (1.1 + 0.05 * ((i % 5) as f64 - 2.0)))
            .collect();
        let r1 = bootstrap_paired_ratios(&a, &b, 1000, 7).expect("ratios");
        let r2 = bootstrap_paired_ratios(&a, &b, 1000, 7).expect("ratios");
        assert_eq!(r1, r2);
        for ci in [r1.mean.expect("mean"), r1.median.expect("median")] {
            assert!(ci.lo <= ci.value && ci.value <= ci.hi, "{ci:?}");
            assert!(ci.lo > 1.0 && ci.hi < 1.25, "{ci:?}");
        }
    }

    #[test]
    fn bootstrap_interval_covers_estimate_and_is_deterministic() {
        let base: Vec<f64> = (0..20).map(|i| 1.0 + 0.01 * f64::from(i)).collect();
        let new: Vec<f64> = base.iter().map(|x| x * 1.5).collect();
        let a = bootstrap_ratio_of_medians(&base, &new, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED)
            .expect("ratio");
        let b = bootstrap_ratio_of_medians(&base, &new, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED)
            .expect("ratio");
        assert_eq!(a, b);
        assert!((a.value - 1.5).abs() < 1e-12);
        assert!(a.lo <= a.value && a.value <= a.hi);
        assert!(a.lo > 1.3 && a.hi < 1.7, "{a:?}");
        let m = bootstrap_median(&base, 500, 3).expect("median");
        assert!(m.lo <= m.value && m.value <= m.hi);
    }
}
