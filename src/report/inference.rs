//! Tests and intervals for comparing two configurations on paired runs: Wilson intervals for
//! success rates, McNemar's exact test, the Wilcoxon signed-rank test, and Vargha and
//! Delaney's A12.
//!
//! Each follows the SciPy function named in its doc with that function's defaults, and is
//! checked against values SciPy computed (`scripts/stats_reference.py`, output pinned in
//! `scripts/stats_reference.json`, read by the tests below). The normal distribution is
//! computed here (no special-function crate) from a series and a continued fraction of
//! `erfc`, accurate to about 1e-14 relative, far below any p-value a report prints.

use std::f64::consts::{FRAC_2_SQRT_PI, PI, SQRT_2};

/// The 97.5th percentile of the standard normal distribution, `scipy.special.ndtri(0.975)`:
/// the `z` of every 95% interval here.
pub const Z95: f64 = 1.959963984540054;

/// `erfc(x)` for `x >= 0`.
fn erfc_nonneg(x: f64) -> f64 {
    if x < 2.0 {
        // erf(x) = 2/sqrt(pi) exp(-x^2) sum_k x^(2k+1) 2^k / (1 3 5 ... (2k+1)): every term
        // is positive, so nothing cancels; erfc = 1 - erf loses at most ~2 digits below 2.
        let x2 = x * x;
        let (mut term, mut sum) = (x, x);
        let mut k = 0.0;
        while term > sum * 1e-17 {
            k += 1.0;
            term *= 2.0 * x2 / (2.0 * k + 1.0);
            sum += term;
        }
        1.0 - FRAC_2_SQRT_PI * (-x2).exp() * sum
    } else {
        // erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2)/(x + (2/2)/(x + (3/2)/(x + ...)))),
        // evaluated by the modified Lentz method; it converges fast for x >= 2.
        let tiny = 1e-300;
        let (mut f, mut c, mut d) = (x, x, 0.0);
        for j in 1..5000 {
            let a = f64::from(j) / 2.0;
            d = x + a * d;
            d = if d.abs() < tiny { 1.0 / tiny } else { 1.0 / d };
            c = x + a / c;
            if c.abs() < tiny {
                c = tiny;
            }
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        exp_neg_square(x) / PI.sqrt() / f
    }
}

/// `exp(-x^2)` without the rounding error of `x * x`, which `exp` would magnify by `x^2`:
/// `x = h + l` with `h` a multiple of 2^-12, so `h^2` is exact and `x^2 = h^2 + l (x + h)`.
fn exp_neg_square(x: f64) -> f64 {
    let h = (x * 4096.0).trunc() / 4096.0;
    let l = x - h;
    (-h * h).exp() * (-l * (x + h)).exp()
}

/// Complementary error function.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        f64::NAN
    } else if x >= 0.0 {
        erfc_nonneg(x)
    } else {
        2.0 - erfc_nonneg(-x)
    }
}

/// Standard normal CDF, `scipy.special.ndtr`.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / SQRT_2)
}

/// Standard normal survival function `1 - cdf(x)`, accurate in the upper tail.
pub fn normal_sf(x: f64) -> f64 {
    normal_cdf(-x)
}

/// Wilson score 95% interval of a proportion `k / n`, without continuity correction, as
/// `scipy.stats.binomtest(k, n).proportion_ci(0.95, method="wilson")` (Newcombe 1998): `lo`
/// is exactly 0 when `k = 0` and `hi` exactly 1 when `k = n`. `None` when `n = 0` or `k > n`.
pub fn wilson(k: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 || k > n {
        return None;
    }
    let (kf, nf) = (k as f64, n as f64);
    let p = kf / nf;
    let q = 1.0 - p;
    let z = Z95;
    let denom = 2.0 * (nf + z * z);
    let center = (2.0 * nf * p + z * z) / denom;
    let delta = z / denom * (4.0 * nf * p * q + z * z).sqrt();
    let lo = if k == 0 { 0.0 } else { center - delta };
    let hi = if k == n { 1.0 } else { center + delta };
    Some((lo, hi))
}

/// `ln(n!) - ln(sqrt(2 pi n) (n/e)^n)`, the error of Stirling's formula (Loader 2000, as in
/// R's `dbinom`): summed logarithms up to 15, the asymptotic series above.
fn stirlerr(n: f64) -> f64 {
    if n <= 15.0 {
        let ln_fact: f64 = (2..=n as u32).map(|i| f64::from(i).ln()).sum();
        return ln_fact - 0.5 * (2.0 * PI * n).ln() - n * n.ln() + n;
    }
    let (s0, s1, s2, s3, s4) = (
        1.0 / 12.0,
        1.0 / 360.0,
        1.0 / 1260.0,
        1.0 / 1680.0,
        1.0 / 1188.0,
    );
    let nn = n * n;
    if n > 500.0 {
        (s0 - s1 / nn) / n
    } else if n > 80.0 {
        (s0 - (s1 - s2 / nn) / nn) / n
    } else if n > 35.0 {
        (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n
    } else {
        (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n
    }
}

/// `x ln(x / m) + m - x`, the deviance term of Loader's binomial density, by a series
/// when `x` is near `m` (where the direct formula cancels).
fn bd0(x: f64, m: f64) -> f64 {
    if (x - m).abs() < 0.1 * (x + m) {
        let mut v = (x - m) / (x + m);
        let mut s = (x - m) * v;
        let mut ej = 2.0 * x * v;
        v *= v;
        for j in 1..1000 {
            ej *= v;
            let s1 = s + ej / f64::from(2 * j + 1);
            if s1 == s {
                return s1;
            }
            s = s1;
        }
        s
    } else {
        x * (x / m).ln() + m - x
    }
}

/// `ln P(X = k)` for `X ~ Binomial(n, 1/2)`, `0 < k < n`, by Loader's saddle-point method,
/// accurate to a few ulp where summing `ln C(n, k)` term by term would lose ~1e-9 at
/// n = 10^5 to rounding in the growing sum.
fn ln_binom_half_pmf(k: f64, n: f64) -> f64 {
    let m = n / 2.0;
    let lc = stirlerr(n) - stirlerr(k) - stirlerr(n - k) - bd0(k, m) - bd0(n - k, m);
    let lf = (2.0 * PI).ln() + k.ln() + (-k / n).ln_1p();
    lc - 0.5 * lf
}

/// McNemar's exact test on paired successes: the two-sided binomial test of the discordant
/// pairs (`a_only` solved by A alone, `b_only` by B alone) against p = 1/2, as
/// `scipy.stats.binomtest(a_only, a_only + b_only, 0.5).pvalue`. For p = 1/2 the binomial is
/// symmetric, so the p-value is `min(1, 2 P(X <= min(a_only, b_only)))`. With no discordant
/// pair SciPy refuses (n = 0); here the p-value is 1, as nothing speaks against equality.
pub fn mcnemar_exact(a_only: u64, b_only: u64) -> f64 {
    let n = a_only + b_only;
    let k = a_only.min(b_only);
    if n == 0 || 2 * k == n {
        return 1.0;
    }
    let nf = n as f64;
    let ln_pmf = if k == 0 {
        -nf * std::f64::consts::LN_2
    } else {
        ln_binom_half_pmf(k as f64, nf)
    };
    // P(X <= k) = P(X = k) * sum_{j <= k} P(X = j) / P(X = k): the terms shrink by
    // j / (n - j + 1) each step down, so the sum is well scaled even when 2^-n underflows.
    let (mut term, mut sum) = (1.0f64, 1.0f64);
    let mut j = k;
    while j > 0 {
        term *= j as f64 / (nf - j as f64 + 1.0);
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
        j -= 1;
    }
    (2.0 * (ln_pmf + sum.ln()).exp()).min(1.0)
}

/// Holm's step-down adjustment of a family of p-values (`p.adjust(p, "holm")` in R,
/// `multipletests(p, method="holm")` in statsmodels): the i-th smallest of m is multiplied by
/// m - i + 1, kept at least as large as the one before it and at most 1, and returned in the
/// input's order. It controls the family-wise error rate under any dependence between the
/// tests (a dataset's tests and the all-datasets test share pairs), so a report that makes
/// many tests calls a difference clear only when its adjusted p is below the level.
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let m = ps.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| ps[i].total_cmp(&ps[j]));
    let mut adjusted = vec![1.0; m];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * ps[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// How [`wilcoxon`] computed its p-value: the choice SciPy's `method="auto"` makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WilcoxonMethod {
    /// The exact null distribution of the rank sum: at most 50 pairs, no ties, no zeros.
    Exact,
    /// Every sign flip of the differences enumerated: at most 13 pairs with ties or zeros.
    Permutation,
    /// The normal approximation with tie correction, no continuity correction: more than
    /// 50 pairs, or 14 to 50 pairs with ties or zeros.
    Asymptotic,
}

impl WilcoxonMethod {
    /// The name used in JSON and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            WilcoxonMethod::Exact => "exact",
            WilcoxonMethod::Permutation => "permutation",
            WilcoxonMethod::Asymptotic => "asymptotic",
        }
    }
}

/// Result of [`wilcoxon`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wilcoxon {
    /// `min(R+, R-)`, SciPy's two-sided statistic.
    pub statistic: f64,
    /// Pairs with a non-zero difference (zeros are dropped, `zero_method="wilcox"`).
    pub nonzero: usize,
    /// Two-sided p-value. `None` where SciPy returns NaN: every difference is zero and there
    /// are more than 13 pairs (with 13 or fewer its permutation test gives 1, and so does this).
    pub p_value: Option<f64>,
    /// How the p-value was computed.
    pub method: WilcoxonMethod,
}

/// Midranks (1-based, ties get the mean of their ranks) of `xs`, and the tie-group sizes.
fn midranks(xs: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&i, &j| xs[i].total_cmp(&xs[j]));
    let mut ranks = vec![0.0; xs.len()];
    let mut ties = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && xs[order[end]] == xs[order[start]] {
            end += 1;
        }
        // Ranks start+1 ..= end share their mean.
        let r = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = r;
        }
        ties.push(end - start);
        start = end;
    }
    (ranks, ties)
}

/// Number of subsets of {1, ..., n} with each rank sum, as exact integers in f64 (at most
/// 2^50 for the n <= 50 used, below 2^53).
fn signed_rank_counts(n: usize) -> Vec<f64> {
    let max = n * (n + 1) / 2;
    let mut c = vec![0.0; max + 1];
    c[0] = 1.0;
    for i in 1..=n {
        for s in (i..=i * (i + 1) / 2).rev() {
            c[s] += c[s - i];
        }
    }
    c
}

/// Wilcoxon signed-rank test of the paired differences `a[i] - b[i]`, two-sided, as
/// `scipy.stats.wilcoxon(a, b)` with its defaults in SciPy 1.17 (`zero_method="wilcox"`,
/// `correction=False`, `method="auto"`). `auto` picks, by the number of pairs `n` (zeros
/// included) and the absolute differences:
/// - `n > 50`: normal approximation;
/// - no ties and no zeros: the exact distribution,
///   `p = min(1, 2 min(P(T >= R+), P(T <= R+)))`;
/// - ties or zeros, `n <= 13`: all 2^n sign flips of the differences (SciPy's
///   `permutation_test`, exhaustive at that size);
/// - ties or zeros, `14 <= n <= 50`: normal approximation.
///
/// The approximation drops zero differences, ranks the rest by absolute value with midranks,
/// and uses `z = (R+ - n'(n'+1)/4) / sqrt((n'(n'+1)(2n'+1) - sum(t^3 - t)/2) / 24)` over the
/// `n'` non-zero differences and tie groups `t`, `p = 2 sf(|z|)`.
/// `None` when the sides are empty or differ in length.
pub fn wilcoxon(a: &[f64], b: &[f64]) -> Option<Wilcoxon> {
    if a.is_empty() || a.len() != b.len() {
        return None;
    }
    let n = a.len();
    let d: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(x, y)| x - y)
        .filter(|v| *v != 0.0)
        .collect();
    let n_zero = n - d.len();
    let abs: Vec<f64> = d.iter().map(|v| v.abs()).collect();
    let (ranks, ties) = midranks(&abs);
    let has_ties = ties.iter().any(|&t| t > 1);
    let rank_sum = |keep: fn(f64) -> bool| -> f64 {
        d.iter()
            .zip(&ranks)
            .filter(|(v, _)| keep(**v))
            .map(|(_, r)| r)
            .sum()
    };
    let (r_plus, r_minus) = (rank_sum(|v| v > 0.0), rank_sum(|v| v < 0.0));
    let method = if n > 50 {
        WilcoxonMethod::Asymptotic
    } else if !has_ties && n_zero == 0 {
        WilcoxonMethod::Exact
    } else if n <= 13 {
        WilcoxonMethod::Permutation
    } else {
        WilcoxonMethod::Asymptotic
    };
    let p_value = match method {
        WilcoxonMethod::Asymptotic => {
            let c = d.len() as f64;
            let tie_correct: f64 = ties.iter().map(|&t| (t * t * t - t) as f64).sum();
            let se = ((c * (c + 1.0) * (2.0 * c + 1.0) - tie_correct / 2.0) / 24.0).sqrt();
            let z = (r_plus - c * (c + 1.0) * 0.25) / se;
            // se = 0 (no non-zero difference) gives NaN, as in SciPy.
            let p = 2.0 * normal_sf(z.abs());
            (!p.is_nan()).then_some(p)
        }
        WilcoxonMethod::Exact => {
            let counts = signed_rank_counts(n);
            let total = 2f64.powi(n as i32);
            let k = r_plus as usize;
            let cdf: f64 = counts[..=k].iter().sum::<f64>() / total;
            let sf: f64 = counts[k..].iter().sum::<f64>() / total;
            Some((2.0 * cdf.min(sf)).clamp(0.0, 1.0))
        }
        WilcoxonMethod::Permutation => {
            // Flipping the sign of a difference moves its rank between R+ and R-; zeros
            // stay zero, so each subset of the non-zero differences stands for 2^zeros
            // flips, a factor that cancels. SciPy compares with a relative tolerance of
            // 100 eps; the rank sums here are exact halves, so it never matters.
            let gamma = (r_plus * f64::EPSILON * 100.0).abs();
            let m = d.len();
            let (mut le, mut ge) = (0u64, 0u64);
            for mask in 0u32..(1 << m) {
                let s: f64 = (0..m)
                    .filter(|&i| mask & (1 << i) != 0)
                    .map(|i| ranks[i])
                    .sum();
                le += u64::from(s <= r_plus + gamma);
                ge += u64::from(s >= r_plus - gamma);
            }
            let total = f64::from(1u32 << m);
            Some((2.0 * (le.min(ge) as f64) / total).clamp(0.0, 1.0))
        }
    };
    Some(Wilcoxon {
        statistic: r_plus.min(r_minus),
        nonzero: d.len(),
        p_value,
        method,
    })
}

/// Vargha and Delaney's A12 of `a` against `b`: `P(A > B) + P(A = B) / 2` for a value drawn
/// from each, i.e. `U / (n m)` with `U` the Mann-Whitney statistic of `a` as
/// `scipy.stats.mannwhitneyu(a, b).statistic` (midranks over both samples). Above 0.5, `a`
/// tends to be larger; 0.5 is no tendency. `None` when either side is empty.
pub fn a12(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let all: Vec<f64> = a.iter().chain(b).copied().collect();
    let (ranks, _) = midranks(&all);
    let n = a.len() as f64;
    let r_a: f64 = ranks[..a.len()].iter().sum();
    let u = r_a - n * (n + 1.0) / 2.0;
    Some(u / (n * b.len() as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_matches_r_p_adjust() {
        // R 4.3: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02.
        let got = holm(&[0.01, 0.04, 0.03, 0.005]);
        for (g, want) in got.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!((g - want).abs() < 1e-12, "{got:?}");
        }
        // Capped at 1, a family of one unchanged, none empty.
        assert_eq!(holm(&[0.6, 0.7]), [1.0, 1.0]);
        assert_eq!(holm(&[0.02]), [0.02]);
        assert!(holm(&[]).is_empty());
        // Ties keep their adjusted values equal.
        let t = holm(&[0.01, 0.01, 0.5]);
        assert_eq!(t[0], t[1]);
        assert!((t[0] - 0.03).abs() < 1e-12, "{t:?}");
    }
    use serde_json::Value;

    /// The SciPy values pinned by `scripts/stats_reference.py`.
    fn reference() -> Value {
        serde_json::from_str(include_str!("../../scripts/stats_reference.json"))
            .expect("stats_reference.json is valid JSON")
    }

    fn floats(v: &Value) -> Vec<f64> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|x| x.as_f64().expect("number"))
            .collect()
    }

    fn num(v: &Value) -> f64 {
        v.as_f64().expect("number")
    }

    /// Relative agreement, or absolute below 1e-300 where f64 runs out of precision.
    fn close(got: f64, want: f64, rel: f64) -> bool {
        got == want || (got - want).abs() <= rel * want.abs().max(1e-300)
    }

    #[test]
    fn reference_was_made_with_the_scipy_whose_defaults_we_follow() {
        let r = reference();
        assert_eq!(r["scipy"], "1.17.1");
    }

    #[test]
    fn normal_cdf_matches_scipy_ndtr() {
        for c in reference()["ndtr"].as_array().expect("cases") {
            let (x, want) = (num(&c["x"]), num(&c["p"]));
            let got = normal_cdf(x);
            // Rounding x / sqrt(2) moves the result by ~x^2 ulp, in SciPy as here.
            let tol = 1e-14 * (1.0 + x * x);
            assert!(close(got, want, tol), "ndtr({x}) = {want}, got {got}");
        }
        assert_eq!(normal_cdf(0.0), 0.5);
        assert!((normal_sf(Z95) - 0.025).abs() < 1e-15);
    }

    #[test]
    fn wilcoxon_matches_scipy() {
        for c in reference()["wilcoxon"].as_array().expect("cases") {
            let name = c["name"].as_str().expect("name");
            let (a, b) = (floats(&c["a"]), floats(&c["b"]));
            let w = wilcoxon(&a, &b).expect("paired samples");
            let expected_method = match name.split(' ').next() {
                Some("exact") => WilcoxonMethod::Exact,
                Some("permutation") => WilcoxonMethod::Permutation,
                _ => WilcoxonMethod::Asymptotic,
            };
            assert_eq!(w.method, expected_method, "{name}");
            let want = num(&c["pvalue"]);
            let got = w.p_value.expect("p-value");
            assert!(close(got, want, 1e-11), "{name}: SciPy {want}, got {got}");
            // The test is symmetric in its two samples.
            let back = wilcoxon(&b, &a).expect("paired").p_value.expect("p");
            assert!(close(back, want, 1e-11), "{name} reversed");
        }
    }

    #[test]
    fn wilcoxon_edge_cases_follow_scipy() {
        // All differences zero: SciPy gives p = 1 with 13 pairs or fewer (permutation test)
        // and NaN above (the normal approximation divides by a zero variance).
        let z5 = wilcoxon(&[1.0; 5], &[1.0; 5]).expect("paired");
        assert_eq!((z5.p_value, z5.nonzero), (Some(1.0), 0));
        let z20 = wilcoxon(&[2.0; 20], &[2.0; 20]).expect("paired");
        assert_eq!(z20.p_value, None);
        assert_eq!(z20.method, WilcoxonMethod::Asymptotic);
        // scipy.stats.wilcoxon([1, 2, 3], [0, 0, 0]): exact, p = 0.25, statistic 0.
        let w = wilcoxon(&[1.0, 2.0, 3.0], &[0.0; 3]).expect("paired");
        assert_eq!((w.p_value, w.statistic), (Some(0.25), 0.0));
        assert_eq!(wilcoxon(&[], &[]), None);
        assert_eq!(wilcoxon(&[1.0], &[1.0, 2.0]), None);
    }

    #[test]
    fn a12_matches_scipy_mannwhitneyu() {
        for c in reference()["a12"].as_array().expect("cases") {
            let name = c["name"].as_str().expect("name");
            let (a, b) = (floats(&c["a"]), floats(&c["b"]));
            let want = num(&c["a12"]);
            let got = a12(&a, &b).expect("non-empty");
            assert!(close(got, want, 1e-12), "{name}: SciPy {want}, got {got}");
            // A12 of b against a is the complement.
            let back = a12(&b, &a).expect("non-empty");
            assert!((got + back - 1.0).abs() < 1e-12, "{name}");
        }
        assert_eq!(a12(&[], &[1.0]), None);
    }

    #[test]
    fn mcnemar_matches_scipy_binomtest() {
        for c in reference()["mcnemar"].as_array().expect("cases") {
            let a = c["a_only"].as_u64().expect("count");
            let b = c["b_only"].as_u64().expect("count");
            let want = num(&c["pvalue"]);
            let got = mcnemar_exact(a, b);
            assert!(
                close(got, want, 1e-11),
                "({a}, {b}): SciPy {want}, got {got}"
            );
        }
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // Exact rational value of 2 P(X <= 49999), X ~ Binomial(100000, 1/2), from Python
        // integers (SciPy's own value is 1e-15 off).
        assert!(close(
            mcnemar_exact(49_999, 50_001),
            0.9974768737858033,
            1e-13
        ));
    }

    #[test]
    fn binomial_pmf_matches_small_exact_values() {
        // C(10, 3) / 2^10, C(40, 17) / 2^40, C(1000, 480) / 2^1000 (exact, from Python).
        let cases = [
            (3.0, 10.0, 120.0 / 1024.0),
            (17.0, 40.0, 88732378800.0 / 1099511627776.0),
            (480.0, 1000.0, 0.011340982371187728),
        ];
        for (k, n, want) in cases {
            let got = ln_binom_half_pmf(k, n).exp();
            assert!(close(got, want, 1e-13), "pmf({k}; {n}) = {want}, got {got}");
        }
    }

    #[test]
    fn wilson_matches_scipy_proportion_ci() {
        for c in reference()["wilson"].as_array().expect("cases") {
            let k = c["k"].as_u64().expect("k");
            let n = c["n"].as_u64().expect("n");
            let (lo, hi) = wilson(k, n).expect("n > 0");
            let (wl, wh) = (num(&c["lo"]), num(&c["hi"]));
            assert!(close(lo, wl, 1e-12), "{k}/{n}: lo SciPy {wl}, got {lo}");
            assert!(close(hi, wh, 1e-12), "{k}/{n}: hi SciPy {wh}, got {hi}");
        }
        assert_eq!(wilson(0, 0), None);
        assert_eq!(wilson(3, 2), None);
    }

    #[test]
    fn signed_rank_counts_are_the_subset_sums() {
        // Subsets of {1, 2, 3}: sums 0, 1, 2, 3, 3, 4, 5, 6.
        assert_eq!(
            signed_rank_counts(3),
            vec![1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0]
        );
        let c = signed_rank_counts(50);
        assert_eq!(c.iter().sum::<f64>(), 2f64.powi(50));
    }
}
