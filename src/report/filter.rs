//! Row filters for `bench-report summary --where`: summarise a subset of a run (one size of a
//! mixed corpus, the solved runs only, one seed) without writing a filtered copy of the file.
//!
//! A filter is comma-separated terms, all of which a row must meet:
//!
//! * `key=value` on a text column (`dataset`, `puzzle_id`, `size`, `strategy`, `rules`,
//!   `status`, `kind`, `ended_by`, `claim`), a parameter of `params` or a key of an external solver's `stats`;
//!   `*` in the value matches any run of characters (`puzzle_id=generated:*`);
//! * `key=N`, `key<N`, `key<=N`, `key>N`, `key>=N` on a number: `seed`, `colony`, `wall_s`,
//!   `cpu_s`, `max_rss_kib`, `startup_s`, any counter, `off_path` (see [`off_path`]), or a
//!   numeric parameter or `stats` key (`difficulty>=3`). A row without the value does not
//!   match.
//!
//! Keys and values are checked when the filter is parsed (an unknown status, a comparison on
//! a text column, a number that is not one), except parameter and `stats` keys, which depend
//! on the data: [`RowFilter::unknown_params`] names those that no row had, so a misspelt key
//! is an error rather than an empty summary.

use crate::report::Vocabulary;
use crate::results::counters::{CounterInfo, CounterValue};
use crate::results::{Record, Status};
use std::collections::BTreeSet;

/// Nodes of a search tree that lie off its deepest path: `nodes - 1 - max_depth` (0 when the
/// search went straight down, never leaving the path it ended on). `None` unless the row
/// reports both counters.
pub fn off_path(r: &Record) -> Option<f64> {
    let (n, d) = (r.counters.nodes?, r.counters.max_depth?);
    Some(n as f64 - 1.0 - d as f64)
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// What a term looks at.
#[derive(Clone, Debug, PartialEq)]
enum Key {
    Dataset,
    PuzzleId,
    Size,
    Strategy,
    Rules,
    Kind,
    Status,
    /// `ended_by` (`wall`, `cpu`, `memory`, …; empty for a job that ended by itself).
    EndedBy,
    /// `claim` (`no-solution`).
    Claim,
    Seed,
    Colony,
    Job,
    /// `wall_s`, `cpu_s`, `max_rss_kib`, `startup_s`: [`Record::metric`].
    Timing(&'static str),
    OffPath,
    Counter(&'static str),
    /// A parameter, else a key of the `stats` column.
    Param(String),
}

impl Key {
    fn of(name: &str) -> Key {
        match name {
            "dataset" => Key::Dataset,
            "puzzle_id" => Key::PuzzleId,
            "size" => Key::Size,
            "strategy" => Key::Strategy,
            "rules" => Key::Rules,
            "kind" => Key::Kind,
            "status" => Key::Status,
            "ended_by" => Key::EndedBy,
            "claim" => Key::Claim,
            "seed" => Key::Seed,
            "colony" => Key::Colony,
            "job" => Key::Job,
            "wall_s" => Key::Timing("wall_s"),
            "cpu_s" => Key::Timing("cpu_s"),
            "max_rss_kib" => Key::Timing("max_rss_kib"),
            "startup_s" => Key::Timing("startup_s"),
            "off_path" => Key::OffPath,
            _ => match CounterInfo::named(name) {
                Some(c) => Key::Counter(c.name),
                None => Key::Param(name.to_string()),
            },
        }
    }

    fn numeric(&self) -> bool {
        matches!(
            self,
            Key::Seed | Key::Colony | Key::Job | Key::Timing(_) | Key::OffPath | Key::Counter(_)
        )
    }

    /// Keys whose values are whole numbers, compared as integers.
    fn integer(&self) -> bool {
        match self {
            Key::Seed | Key::Colony | Key::Job | Key::OffPath => true,
            Key::Counter(c) => {
                CounterInfo::named(c).is_some_and(|i| i.expected == <u64 as CounterValue>::EXPECTED)
            }
            _ => false,
        }
    }

    /// The values of a text key that are documented (a filter naming one that no row has
    /// is valid and keeps nothing); `None` where any value could be meant and only the rows
    /// can tell (dataset, puzzle_id, size, parameters, stats).
    fn documented(&self, known: &Vocabulary) -> Option<Vec<&'static str>> {
        Some(match self {
            Key::Strategy => known.strategies.iter().map(|s| s.0).collect(),
            Key::Rules => known.rules.clone(),
            Key::Kind => vec!["hitori", "sudoku"],
            Key::EndedBy => crate::results::EndedBy::ALL
                .iter()
                .map(|e| e.as_str())
                .collect(),
            Key::Claim => vec!["no-solution"],
            _ => return None,
        })
    }
}

/// The value a term compares with.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Text(String),
    Number(f64),
    /// A whole number on an integer key (`seed`, `colony`, `job`, a counter), compared
    /// exactly: seeds above 2^53 are not conflated as floats would be.
    Integer(i128),
}

#[derive(Clone, Debug, PartialEq)]
struct Term {
    name: String,
    key: Key,
    op: Op,
    value: Value,
    /// Some row met this term (on its own, whatever the other terms said).
    met: bool,
    /// For a text `=` term: the values of its key in the rows (at most [`VALUES_SHOWN`]),
    /// for the error when the value is in none of them.
    seen: BTreeSet<String>,
}

/// How many of the values the rows have an error message lists.
const VALUES_SHOWN: usize = 20;

/// A parsed `--where` filter.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowFilter {
    text: String,
    terms: Vec<Term>,
    /// Parameter keys met in some row.
    params_seen: BTreeSet<String>,
    /// Parameter keys of the rows, for the error naming the known ones.
    params_known: BTreeSet<String>,
}

/// Keys that are not parameters, for error messages.
const FIXED_KEYS: &str = "dataset, puzzle_id, size, strategy, rules, kind, status, seed, colony, job, wall_s, cpu_s, max_rss_kib, startup_s, off_path or a counter";

impl std::str::FromStr for RowFilter {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut terms = Vec::new();
        for raw in s.split(',') {
            let t = raw.trim();
            if t.is_empty() {
                return Err(format!(
                    "{s:?}: empty term (terms are comma-separated key=value, key<=N, …)"
                ));
            }
            terms.push(parse_term(t)?);
        }
        Ok(RowFilter {
            text: s.to_string(),
            terms,
            ..RowFilter::default()
        })
    }
}

fn parse_term(t: &str) -> Result<Term, String> {
    // Two-character operators first, so `<=` is not read as `<` followed by `=…`.
    let ops = [
        ("<=", Op::Le),
        (">=", Op::Ge),
        ("<", Op::Lt),
        (">", Op::Gt),
        ("=", Op::Eq),
    ];
    let Some((at, len, op)) = ops
        .iter()
        .filter_map(|(sym, op)| t.find(sym).map(|i| (i, sym.len(), *op)))
        .min_by_key(|&(i, len, _)| (i, std::cmp::Reverse(len)))
    else {
        return Err(format!(
            "{t:?}: expected key=value, key<N, key<=N, key>N or key>=N"
        ));
    };
    let (name, value) = (t[..at].trim(), t[at + len..].trim());
    if name.is_empty() {
        return Err(format!("{t:?}: no key before the operator"));
    }
    let key = Key::of(name);
    // A parameter or `stats` key compares as a number when the operator says so.
    let numeric = key.numeric() || (matches!(key, Key::Param(_)) && op != Op::Eq);
    let value = if numeric && key.integer() {
        match (value.parse::<i128>(), value.parse::<f64>()) {
            (Ok(v), _) => Value::Integer(v),
            // `nodes<1e4`, `seed<=2.5`: a comparison with a fraction or an exponent.
            (_, Ok(v)) if v.is_finite() => Value::Number(v),
            _ => return Err(format!("{t:?}: {name} is a number, got {value:?}")),
        }
    } else if numeric {
        match value.parse::<f64>() {
            Ok(v) if v.is_finite() => Value::Number(v),
            _ => return Err(format!("{t:?}: {name} is a number, got {value:?}")),
        }
    } else if op != Op::Eq {
        return Err(format!(
            "{t:?}: {name} is text; only = applies (numbers: seed, colony, timings, off_path, counters, numeric parameters and stats)"
        ));
    } else if key == Key::Status && value.parse::<Status>().is_err() {
        return Err(format!(
            "{t:?}: status is solved, unsolved, timeout, error, wrong or memout"
        ));
    } else if key == Key::EndedBy && value.parse::<crate::results::EndedBy>().is_err() {
        return Err(format!(
            "{t:?}: ended_by is {}",
            crate::results::record::ENDED_BY_EXPECTED
        ));
    } else if key == Key::Claim && value != "no-solution" {
        return Err(format!("{t:?}: claim is no-solution"));
    } else {
        Value::Text(value.to_string())
    };
    Ok(Term {
        name: name.to_string(),
        key,
        op,
        value,
        met: false,
        seen: BTreeSet::new(),
    })
}

/// Whether `text` matches `pattern`, where `*` matches any run of characters.
pub fn glob(pattern: &str, text: &str) -> bool {
    let Some((head, rest)) = pattern.split_once('*') else {
        return pattern == text;
    };
    let Some(mut tail) = text.strip_prefix(head) else {
        return false;
    };
    let parts: Vec<&str> = rest.split('*').collect();
    let (last, middle) = parts.split_last().unwrap_or((&"", &[]));
    for p in middle {
        match tail.find(p) {
            Some(i) => tail = &tail[i + p.len()..],
            None => return false,
        }
    }
    tail.len() >= last.len() && tail.ends_with(last)
}

impl RowFilter {
    /// The filter as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether row `r` meets every term.
    pub fn matches(&mut self, r: &Record) -> bool {
        for (k, _) in r.params.pairs() {
            if !self.params_known.contains(k) {
                self.params_known.insert(k.to_string());
            }
        }
        for k in r.stat_keys() {
            if !self.params_known.contains(k) {
                self.params_known.insert(k.to_string());
            }
        }
        let mut all = true;
        for t in &mut self.terms {
            let have_text = match &t.key {
                Key::Param(p) => r.params.get(p).or_else(|| r.stat(p)),
                key => text_of(key, r),
            };
            let ok = match (&t.key, &t.value) {
                (Key::Param(p), v) => match have_text {
                    Some(have) => {
                        if !self.params_seen.contains(p) {
                            self.params_seen.insert(p.clone());
                        }
                        match v {
                            Value::Text(v) => glob(v, have),
                            Value::Number(v) => have
                                .trim()
                                .parse::<f64>()
                                .is_ok_and(|x| compare(x, t.op, *v)),
                            Value::Integer(_) => false,
                        }
                    }
                    None => false,
                },
                (_, Value::Text(v)) => have_text.is_some_and(|have| glob(v, have)),
                (key, Value::Number(v)) => number_of(key, r).is_some_and(|x| compare(x, t.op, *v)),
                (key, Value::Integer(v)) => {
                    integer_of(key, r).is_some_and(|x| compare(x, t.op, *v))
                }
            };
            if let (false, Value::Text(_), Some(have)) = (t.met || ok, &t.value, have_text) {
                if t.seen.len() < VALUES_SHOWN && !t.seen.contains(have) {
                    t.seen.insert(have.to_string());
                }
            }
            t.met |= ok;
            // Keep going past a failed term so every parameter key of the row is noted.
            all &= ok;
        }
        all
    }

    /// What is wrong with the filter in the light of the rows, once every row was matched:
    /// a key no row has ([`RowFilter::unknown_params`]), or a text value no row has that is not
    /// a documented value of its column ([`RowFilter::unknown_values`]). `None` when the
    /// filter is valid (it may still keep no row).
    pub fn check(&self, known: &Vocabulary) -> Option<String> {
        self.unknown_params().or_else(|| self.unknown_values(known))
    }

    /// Text `=` terms whose value no row had (alone, whatever the other terms said) and that
    /// name no documented value of their column (a strategy, rule set or kind puzzlebench
    /// knows, a status), each with the values the rows have: a typo, not an empty selection.
    pub fn unknown_values(&self, known: &Vocabulary) -> Option<String> {
        let bad: Vec<String> = self
            .terms
            .iter()
            .filter(|t| !t.met && t.key != Key::Status)
            .filter_map(|t| {
                let Value::Text(v) = &t.value else {
                    return None;
                };
                if let Some(doc) = t.key.documented(known) {
                    if doc.iter().any(|d| glob(v, d)) {
                        return None;
                    }
                }
                let have: Vec<&str> = t.seen.iter().map(String::as_str).collect();
                Some(format!(
                    "{}={v} matches no row{}; the rows have {} {}{}",
                    t.name,
                    t.key.documented(known).map_or(String::new(), |d| format!(
                        " and is not a {} puzzlebench knows ({})",
                        t.name,
                        d.join(", ")
                    )),
                    t.name,
                    if have.is_empty() {
                        "none".to_string()
                    } else {
                        have.join(", ")
                    },
                    if have.len() >= VALUES_SHOWN {
                        ", …"
                    } else {
                        ""
                    }
                ))
            })
            .collect();
        (!bad.is_empty()).then(|| format!("--where: {}", bad.join("; ")))
    }

    /// Parameter keys of the filter that no row had, with the keys the rows did have; call
    /// after every row was matched. `None` when every key was met.
    pub fn unknown_params(&self) -> Option<String> {
        let missing: Vec<&str> = self
            .terms
            .iter()
            .filter_map(|t| match &t.key {
                Key::Param(p) if !self.params_seen.contains(p) => Some(t.name.as_str()),
                _ => None,
            })
            .collect();
        if missing.is_empty() {
            return None;
        }
        let known: Vec<&str> = self.params_known.iter().map(String::as_str).collect();
        Some(format!(
            "--where: no row has a column, parameter or stats key {}; keys are {FIXED_KEYS}, or a parameter or stats key of the rows ({})",
            missing.join(", "),
            if known.is_empty() { "none".to_string() } else { known.join(", ") }
        ))
    }
}

fn text_of<'a>(key: &Key, r: &'a Record) -> Option<&'a str> {
    Some(match key {
        Key::Dataset => &r.dataset,
        Key::PuzzleId => &r.puzzle_id,
        Key::Size => &r.size,
        Key::Strategy => &r.strategy,
        Key::Rules => &r.rules,
        Key::Kind => r.kind.name(),
        Key::Status => r.status?.as_str(),
        Key::EndedBy => r.ended_by?.as_str(),
        Key::Claim => r.claim?.as_str(),
        _ => return None,
    })
}

/// An integer key's value, exactly.
fn integer_of(key: &Key, r: &Record) -> Option<i128> {
    match key {
        Key::Seed => Some(i128::from(r.seed)),
        Key::Colony => Some(i128::from(r.colony)),
        Key::Job => Some(i128::from(r.job)),
        Key::OffPath => Some(i128::from(r.counters.nodes?) - 1 - i128::from(r.counters.max_depth?)),
        Key::Counter(c) => r.counters.get_u64(c).map(i128::from),
        _ => None,
    }
}

fn number_of(key: &Key, r: &Record) -> Option<f64> {
    match key {
        Key::Seed => Some(r.seed as f64),
        Key::Colony => Some(f64::from(r.colony)),
        Key::Job => Some(r.job as f64),
        Key::Timing(t) => r.metric(t),
        Key::OffPath => off_path(r),
        Key::Counter(c) => r.counters.get(c),
        _ => None,
    }
}

fn compare<T: PartialOrd>(x: T, op: Op, v: T) -> bool {
    match op {
        Op::Eq => x == v,
        Op::Lt => x < v,
        Op::Le => x <= v,
        Op::Gt => x > v,
        Op::Ge => x >= v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::counters::Counters;
    use crate::results::Params;

    fn row(puzzle: &str, status: Status, nodes: u64, depth: u64) -> Record {
        let mut r = Record::sample("hitori5", "mrv", puzzle, status, 0.001);
        r.params = Params::from_pairs([("limit", "50")]);
        r.counters = Counters {
            nodes: Some(nodes),
            max_depth: Some(depth),
            ..Counters::default()
        };
        r
    }

    #[test]
    fn terms_are_anded_with_globs_and_comparisons() {
        let mut f: RowFilter = "puzzle_id=generated:*,status=solved,nodes>=5,size=5x5"
            .parse()
            .unwrap();
        assert!(f.matches(&row("generated:3", Status::Solved, 5, 4)));
        assert!(!f.matches(&row("generated:3", Status::Solved, 4, 3)));
        assert!(!f.matches(&row("demo", Status::Solved, 9, 4)));
        assert!(!f.matches(&row("generated:3", Status::Unsolved, 9, 4)));
        let mut p: RowFilter = "limit=50,off_path=0".parse().unwrap();
        assert!(p.matches(&row("a", Status::Solved, 5, 4)));
        assert!(!p.matches(&row("a", Status::Solved, 6, 4)));
        assert_eq!(p.unknown_params(), None);
        // A row without the counter never meets a comparison on it.
        let mut c: RowFilter = "cycles<10".parse().unwrap();
        assert!(!c.matches(&row("a", Status::Solved, 1, 0)));
    }

    #[test]
    fn bad_terms_say_what_was_expected() {
        let err = |s: &str| s.parse::<RowFilter>().unwrap_err();
        assert!(
            err("nodes").contains("expected key=value"),
            "{}",
            err("nodes")
        );
        assert!(err("nodes>=many").contains("nodes is a number"));
        assert!(err("size<9x9").contains("size is text"));
        assert!(err("status=done").contains("status is solved, unsolved"));
        assert!(err("strategy=mrv,").contains("empty term"));
        assert!(err("=3").contains("no key"));
    }

    #[test]
    fn an_unknown_parameter_key_is_named_with_the_known_ones() {
        let mut f: RowFilter = "limt=50".parse().unwrap();
        assert!(!f.matches(&row("a", Status::Solved, 1, 0)));
        let msg = f.unknown_params().unwrap();
        assert!(msg.contains("limt") && msg.contains("(limit)"), "{msg}");
    }

    #[test]
    fn stats_keys_and_numeric_parameters_filter_like_counters() {
        let with = |stats: &str| {
            let mut r = row("a", Status::Solved, 1, 0);
            r.stats = Some(stats.into());
            r
        };
        let mut f: RowFilter = "decodes>=10,level=hard*,limit<60".parse().unwrap();
        assert!(f.matches(&with("decodes=12;level=hardest")));
        assert!(!f.matches(&with("decodes=9;level=hardest")));
        assert!(!f.matches(&with("decodes=x;level=hardest")), "not a number");
        assert!(!f.matches(&with("level=hardest")), "no decodes");
        assert_eq!(f.unknown_params(), None);
        let mut c: RowFilter = "cpu_s<1".parse().unwrap();
        let mut r = row("a", Status::Solved, 1, 0);
        assert!(!c.matches(&r), "no cpu_s");
        r.cpu_s = Some(0.5);
        assert!(c.matches(&r));
        // A key no row has, among parameters and stats, is named with those the rows had.
        let mut m: RowFilter = "decdoes>1".parse().unwrap();
        assert!(!m.matches(&with("decodes=12")));
        let msg = m.unknown_params().unwrap();
        assert!(
            msg.contains("stats key decdoes") && msg.contains("(decodes, limit)"),
            "{msg}"
        );
        assert!("decodes>=many"
            .parse::<RowFilter>()
            .unwrap_err()
            .contains("decodes is a number"));
    }

    // Issue 36: `--where seed=N` compared seeds as floats, conflating seeds above 2^53.
    #[test]
    fn integer_keys_compare_exactly() {
        let seeded = |seed: u64| {
            let mut r = row("a", Status::Solved, 1, 0);
            r.seed = seed;
            r
        };
        let big = (1u64 << 53) + 1;
        let mut f: RowFilter = format!("seed={big}").parse().unwrap();
        assert!(f.matches(&seeded(big)));
        assert!(!f.matches(&seeded(1 << 53)), "2^53 is not 2^53 + 1");
        let mut lt: RowFilter = format!("seed<{big}").parse().unwrap();
        assert!(lt.matches(&seeded(1 << 53)) && !lt.matches(&seeded(big)));
        let mut m: RowFilter = "seed=18446744073709551615".parse().unwrap();
        assert!(m.matches(&seeded(u64::MAX)) && !m.matches(&seeded(u64::MAX - 1)));
        // Counters too; a fraction bound still works, and a fractional counter stays a float.
        let mut n: RowFilter = "nodes<1e1,job=0".parse().unwrap();
        assert!(n.matches(&row("a", Status::Solved, 9, 0)));
        let mut p: RowFilter = "propagated=1".parse().unwrap();
        let mut r = row("a", Status::Solved, 1, 0);
        r.counters.propagated = crate::results::counters::Fraction::new(1.0);
        assert!(p.matches(&r));
    }

    // Issue 36: `compare base new --where strategy=mvr` (a typo) compared nothing and passed.
    #[test]
    fn a_value_no_row_has_is_named_unless_documented() {
        // The caller's vocabulary (the binary gives the built-in strategies and rule sets).
        let known = Vocabulary {
            strategies: vec![("mrv", "nodes"), ("abc", "cycles")],
            rules: vec!["basic", "full"],
        };
        let mut f: RowFilter = "strategy=mvr".parse().unwrap();
        assert!(!f.matches(&row("a", Status::Solved, 1, 0)));
        let msg = f.check(&known).expect("a typo");
        assert!(
            msg.contains("strategy=mvr matches no row")
                && msg.contains("not a strategy puzzlebench knows")
                && msg.ends_with("the rows have strategy mrv"),
            "{msg}"
        );
        let mut d: RowFilter = "dataset=hitori6".parse().unwrap();
        assert!(!d.matches(&row("a", Status::Solved, 1, 0)));
        assert!(d
            .check(&known)
            .is_some_and(|m| m.contains("the rows have dataset hitori5")));
        // Documented values are valid filters that keep nothing: a strategy, a status.
        for ok in ["strategy=abc", "status=wrong", "kind=sudoku", "rules=full"] {
            let mut f: RowFilter = ok.parse().unwrap();
            assert!(!f.matches(&row("a", Status::Solved, 1, 0)), "{ok}");
            assert_eq!(f.check(&known), None, "{ok}");
        }
        // Without a vocabulary, only the statuses and kinds are known: a strategy or rule set
        // no row has is a typo.
        for typo in ["strategy=abc", "rules=full"] {
            let mut f: RowFilter = typo.parse().unwrap();
            assert!(!f.matches(&row("a", Status::Solved, 1, 0)), "{typo}");
            assert!(
                f.check(&Vocabulary::default())
                    .is_some_and(|m| m.contains("matches no row")),
                "{typo}"
            );
        }
        let mut k: RowFilter = "kind=sudoku".parse().unwrap();
        assert!(!k.matches(&row("a", Status::Solved, 1, 0)));
        assert_eq!(k.check(&Vocabulary::default()), None);
        // A value some row has is fine even when the other terms reject that row.
        let mut both: RowFilter = "strategy=mrv,status=wrong".parse().unwrap();
        assert!(!both.matches(&row("a", Status::Solved, 1, 0)));
        assert_eq!(both.check(&known), None);
    }

    #[test]
    fn glob_matches_any_run_of_characters() {
        assert!(glob("generated:*", "generated:12"));
        assert!(glob("*", ""));
        assert!(glob("a*c*e", "abcde"));
        assert!(glob("top*:1", "top1465-first20:1"));
        assert!(!glob("top*:1", "top1465-first20:11"));
        assert!(!glob("a*b*b", "ab"));
        assert!(glob("5x5", "5x5") && !glob("5x5", "15x15"));
    }
}
