//! Plan files: a benchmark definition in TOML (`bench-run --plan FILE`), one run.
//!
//! The top level sets `bench-run` options by their long names (`dataset`, `seeds`,
//! `timeout`, `colony-size`, …); a list value of a sweepable option is a grid. Each
//! `[[config]]` table is one configuration: a `strategy` (one name, built-in or from the
//! `solvers` manifest) and, optionally, its own values or lists of the solver options
//! (`rules`, `colony-size`, `limit`, `max-cycles`, `neighbourhood`) and the options that shape
//! its jobs ([`JOB_KEYS`]: seeds, budgets, repeats), which win over the top level's. Without
//! `[[config]]` the top level's `strategy` list is the configurations.
//! `[[dataset]]` tables make one run over several datasets: each names its `dataset` and may
//! set its own configurations (`strategy`, or `[[dataset.config]]` tables), seeds, colonies,
//! repeats, solution counting, budgets and solver options, winning over the top level's.
//!
//! This module only reads and checks the file: which keys exist, where they are, what type
//! each takes. Turning values into a run is the binary's (it hands them to the same option
//! parser the command line goes through, so a plan value and a flag are checked alike).

use std::fmt;

/// Options a plan may set at the top level, by their `bench-run` long names, with what each
/// takes.
const RUN_KEYS: &[(&str, Kind)] = &[
    ("dataset", Kind::Text),
    ("strategy", Kind::List),
    ("solvers", Kind::Text),
    ("rules", Kind::List),
    ("threads", Kind::Whole),
    ("pin", Kind::Text),
    ("warmup", Kind::Whole),
    ("seed", Kind::Whole),
    ("seeds", Kind::Whole),
    ("colonies", Kind::Whole),
    ("output", Kind::Text),
    ("quiet", Kind::Flag),
    ("count-solutions", Kind::List),
    ("record-solutions", Kind::Flag),
    ("node-limit", Kind::List),
    ("timeout", Kind::Number),
    ("cpu-limit", Kind::Number),
    ("memory-limit", Kind::Text),
    ("repeat", Kind::Whole),
    ("colony-size", Kind::List),
    ("limit", Kind::List),
    ("max-cycles", Kind::List),
    ("neighbourhood", Kind::List),
    ("trace", Kind::Text),
    ("no-summary", Kind::Flag),
];

/// What a configuration may set: its strategy and the solver options it sweeps or pins (and,
/// as any level, the [`JOB_KEYS`]).
const CONFIG_KEYS: &[&str] = &[
    "strategy",
    "rules",
    "colony-size",
    "limit",
    "max-cycles",
    "neighbourhood",
];

/// Options that shape a configuration's jobs and budgets, which a `[[dataset]]` and a
/// `[[config]]` may set as well as the top level. Configurations of one dataset that differ
/// in them run as parts of their own, one after another. Each takes one value, except
/// [`GRID_JOB_KEYS`].
pub const JOB_KEYS: &[&str] = &[
    "seed",
    "seeds",
    "colonies",
    "repeat",
    "count-solutions",
    "node-limit",
    "timeout",
    "cpu-limit",
    "memory-limit",
];

/// The job options a list may sweep: they are part of a configuration (its `params`
/// column), so each value makes configurations of its own. The others are not in the rows'
/// identity, so a list of them would run the same jobs twice.
pub const GRID_JOB_KEYS: &[&str] = &["count-solutions", "node-limit"];

/// Why a list of the single-valued `key` is refused, and what to do instead.
fn not_a_grid(key: &str) -> String {
    let instead = match key {
        "timeout" | "cpu-limit" => {
            " (run with the largest budget and read a smaller one with `bench-report summary \
             --time-limit SECS`)"
        }
        "seeds" | "colonies" => " (give the largest: its jobs hold the smaller ones')",
        "seed" => " (`seeds = K` runs the seed values SEED .. SEED+K-1)",
        _ => "",
    };
    format!(
        "`{key}` takes one value, not a list: rows do not record it, so a grid over it would \
         run the same jobs twice{instead}; the options a list sweeps are {}, {}",
        CONFIG_KEYS[1..].join(", "),
        GRID_JOB_KEYS.join(", ")
    )
}

/// Whether a `[[dataset]]` table may set `key`: its dataset, its configurations, the options
/// that shape its jobs and its budgets. Threads, outputs and the like are the run's.
fn dataset_key(key: &str) -> bool {
    key == "dataset" || CONFIG_KEYS.contains(&key) || JOB_KEYS.contains(&key)
}

/// Whether a `[[config]]` table may set `key`.
fn config_key(key: &str) -> bool {
    CONFIG_KEYS.contains(&key) || JOB_KEYS.contains(&key)
}

/// The keys a level may set, for messages.
fn keys_text(dataset: bool) -> String {
    let first: &[&str] = if dataset { &["dataset"] } else { &[] };
    (first.iter().chain(CONFIG_KEYS).chain(JOB_KEYS))
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// Options that belong to one invocation, not to the benchmark: given on the command line.
const COMMAND_LINE_ONLY: &[&str] = &[
    "plan",
    "resume",
    "resume-any-build",
    "force",
    "shard",
    "dry-run",
];

/// Most configurations a plan's grids may make together.
pub const MAX_CONFIGS: usize = 10_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Text,
    Whole,
    Number,
    Flag,
    /// One value or a list of values (a grid).
    List,
}

/// A value as `bench-run` would read it from its command line: `--key VALUE` (list items
/// joined by commas), or a bare `--key` for a true flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `--key VALUE`.
    Value(String),
    /// `--key` (a flag that is true); a false flag is left out.
    Flag,
}

/// One option set in the file, with the line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The long option name (`colony-size`).
    pub key: String,
    /// Its value.
    pub setting: Setting,
    /// 1-based line of the key in the file.
    pub line: usize,
}

/// A configuration: its strategy and the solver options it sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The strategy name.
    pub strategy: String,
    /// Its own solver options (`strategy` excluded).
    pub options: Vec<Entry>,
    /// 1-based line of its `[[config]]` header.
    pub line: usize,
}

/// One `[[dataset]]` table: a dataset of the run with its own options and configurations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetTable {
    /// Its options (`dataset` among them), in file order.
    pub options: Vec<Entry>,
    /// Its `[[dataset.config]]` tables (empty: its own `strategy`, else the top level's
    /// configurations).
    pub configs: Vec<Config>,
    /// 1-based line of its `[[dataset]]` header.
    pub line: usize,
}

/// A read and checked plan file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanFile {
    /// Top-level options, in file order.
    pub run: Vec<Entry>,
    /// The `[[config]]` tables, in file order (empty: the top level's `strategy` list).
    pub configs: Vec<Config>,
    /// The `[[dataset]]` tables, in file order (empty: the top level's `dataset`).
    pub datasets: Vec<DatasetTable>,
    /// The file's content hash, for the meta.
    pub hash: String,
}

/// Why a plan file was refused: the file, the line where known, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFileError {
    /// The file as given.
    pub path: String,
    /// 1-based line, where one applies.
    pub line: Option<usize>,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for PlanFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}, line {l}: {}", self.path, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for PlanFileError {}

impl PlanFile {
    /// Read `text` (the content of the file `path` names, for messages).
    pub fn parse(path: &str, text: &str) -> Result<PlanFile, PlanFileError> {
        let err = |line: Option<usize>, message: String| PlanFileError {
            path: path.to_string(),
            line,
            message,
        };
        let table: toml::Table = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start));
            err(line, format!("not a TOML plan: {}", e.message()))
        })?;
        let sections = Sections::new(text);
        let mut run = Vec::new();
        let mut configs = Vec::new();
        let mut datasets = Vec::new();
        for (key, value) in &table {
            let line = sections.key_line(Section::Top, key);
            if key == "config" {
                let Some(list) = value
                    .as_array()
                    .filter(|_| sections.has(Section::Config(0)))
                else {
                    return Err(err(
                        line,
                        "`config` is an array of tables: write each configuration as a \
                         [[config]] table"
                            .into(),
                    ));
                };
                for (i, c) in list.iter().enumerate() {
                    configs.push(
                        config(c, Section::Config(i), &sections).map_err(|(l, m)| err(l, m))?,
                    );
                }
                continue;
            }
            if key == "dataset" && (value.is_array() || value.is_table()) {
                let list = value.as_array().filter(|a| {
                    sections.has(Section::Dataset(0)) && a.iter().all(|v| v.is_table())
                });
                let Some(list) = list else {
                    return Err(err(
                        line,
                        "`dataset` is one path; for several datasets write a [[dataset]] table \
                         for each, with its own `dataset = \"PATH\"`"
                            .into(),
                    ));
                };
                for (d, t) in list.iter().enumerate() {
                    datasets.push(dataset_table(t, d, &sections).map_err(|(l, m)| err(l, m))?);
                }
                continue;
            }
            if COMMAND_LINE_ONLY.contains(&key.as_str()) {
                return Err(err(
                    line,
                    format!("`{key}` is given on the command line (bench-run --plan FILE --{key}), not in a plan"),
                ));
            }
            let Some(&(_, kind)) = RUN_KEYS.iter().find(|(k, _)| k == key) else {
                return Err(err(line, unknown(key, RUN_KEYS.iter().map(|k| k.0))));
            };
            let setting = setting(key, value, kind).map_err(|m| err(line, m))?;
            if let Some(setting) = setting {
                run.push(Entry {
                    key: key.clone(),
                    setting,
                    line: line.unwrap_or(0),
                });
            }
        }
        let has_strategy = run.iter().any(|e| e.key == "strategy");
        if !configs.is_empty() && has_strategy {
            return Err(err(
                sections.key_line(Section::Top, "strategy"),
                "a plan names its configurations either in a top-level `strategy` list or in \
                 [[config]] tables, not both"
                    .into(),
            ));
        }
        let size = plan_size(&run, &configs, &datasets);
        if size > MAX_CONFIGS {
            return Err(err(
                None,
                format!("the grids make {size} configurations; at most {MAX_CONFIGS}"),
            ));
        }
        Ok(PlanFile {
            run,
            configs,
            datasets,
            hash: crate::external::content_hash(text.as_bytes()),
        })
    }

    /// The top-level value of `key`, if set.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.run.iter().find(|e| e.key == key)
    }
}

/// An upper bound on the configurations of the whole plan: each dataset's grids (its own
/// configurations, else the top level's), or the top level's when there are no datasets.
fn plan_size(run: &[Entry], configs: &[Config], datasets: &[DatasetTable]) -> usize {
    if datasets.is_empty() {
        return grid_size(run, configs);
    }
    let mut size = 0usize;
    for d in datasets {
        // A dataset's own values win over the top level's.
        let mut merged: Vec<Entry> = d.options.clone();
        merged.extend(
            (run.iter())
                .filter(|e| !d.options.iter().any(|o| o.key == e.key))
                .cloned(),
        );
        let own = if d.configs.is_empty() && !d.options.iter().any(|e| e.key == "strategy") {
            configs
        } else {
            &d.configs
        };
        size = size.saturating_add(grid_size(&merged, own));
    }
    size
}

/// An upper bound on the configurations of the plan's grids (before strategies that ignore
/// an option are counted once).
fn grid_size(run: &[Entry], configs: &[Config]) -> usize {
    let items = |e: &Entry| match &e.setting {
        Setting::Value(v) => v.split(',').count(),
        Setting::Flag => 1,
    };
    let sweep = |own: &[Entry]| {
        (CONFIG_KEYS[1..].iter().chain(GRID_JOB_KEYS)).fold(1usize, |n, k| {
            let e = own
                .iter()
                .find(|e| e.key == *k)
                .or_else(|| run.iter().find(|e| e.key == *k));
            n.saturating_mul(e.map_or(1, items))
        })
    };
    if configs.is_empty() {
        let strategies = run.iter().find(|e| e.key == "strategy").map_or(1, items);
        strategies.saturating_mul(sweep(&[]))
    } else {
        configs
            .iter()
            .fold(0usize, |n, c| n.saturating_add(sweep(&c.options)))
    }
}

/// One `[[dataset]]` table (the `d`-th).
fn dataset_table(
    value: &toml::Value,
    d: usize,
    sections: &Sections,
) -> Result<DatasetTable, (Option<usize>, String)> {
    let header = sections.header_line(Section::Dataset(d));
    let Some(t) = value.as_table() else {
        return Err((header, "a [[dataset]] entry must be a table".into()));
    };
    let mut options = Vec::new();
    let mut configs = Vec::new();
    for (key, v) in t {
        let line = sections.key_line(Section::Dataset(d), key).or(header);
        if key == "config" {
            let Some(list) = v
                .as_array()
                .filter(|_| sections.has(Section::DatasetConfig(d, 0)))
            else {
                return Err((
                    line,
                    "`config` of a dataset is an array of tables: write each configuration as \
                     a [[dataset.config]] table after its [[dataset]]"
                        .into(),
                ));
            };
            for (i, c) in list.iter().enumerate() {
                configs.push(config(c, Section::DatasetConfig(d, i), sections)?);
            }
            continue;
        }
        if !dataset_key(key) {
            let hint = if RUN_KEYS.iter().any(|k| k.0 == key) {
                format!(
                    "`{key}` applies to the whole run: set it at the top level (a [[dataset]] \
                     sets {})",
                    keys_text(true)
                )
            } else {
                let all = keys_text(true);
                unknown(key, all.split(", ").chain(["config"]))
            };
            return Err((line, hint));
        }
        let kind = RUN_KEYS
            .iter()
            .find(|k| k.0 == key)
            .map_or(Kind::List, |k| k.1);
        if let Some(setting) = setting(key, v, kind).map_err(|m| (line, m))? {
            options.push(Entry {
                key: key.clone(),
                setting,
                line: line.unwrap_or(0),
            });
        }
    }
    if !options.iter().any(|e| e.key == "dataset") {
        return Err((
            header,
            "this [[dataset]] has no `dataset` (the path of its puzzle file or directory)".into(),
        ));
    }
    if !configs.is_empty() {
        if let Some(e) = options.iter().find(|e| e.key == "strategy") {
            return Err((
                Some(e.line),
                "a [[dataset]] names its configurations either in a `strategy` list or in \
                 [[dataset.config]] tables, not both"
                    .into(),
            ));
        }
    }
    Ok(DatasetTable {
        options,
        configs,
        line: header.unwrap_or(0),
    })
}

fn config(
    value: &toml::Value,
    section: Section,
    sections: &Sections,
) -> Result<Config, (Option<usize>, String)> {
    let header = sections.header_line(section);
    let Some(t) = value.as_table() else {
        return Err((header, "a [[config]] entry must be a table".into()));
    };
    let mut strategy = None;
    let mut options = Vec::new();
    for (key, v) in t {
        let line = sections.key_line(section, key).or(header);
        if !config_key(key) {
            let hint = if RUN_KEYS.iter().any(|k| k.0 == key) {
                // What a configuration cannot set is the run's, or (`dataset`) its level's.
                let (what, level) = match (key.as_str(), section) {
                    ("dataset", Section::DatasetConfig(..)) => ("its dataset", "its [[dataset]]"),
                    ("dataset", _) => ("the dataset", "the top level or in a [[dataset]]"),
                    _ => ("the whole run", "the top level"),
                };
                format!(
                    "`{key}` applies to {what}: set it at {level} (a configuration sets {})",
                    keys_text(false)
                )
            } else {
                let all = keys_text(false);
                unknown(key, all.split(", "))
            };
            return Err((line, hint));
        }
        if key == "strategy" {
            match v.as_str() {
                Some(s) if !s.trim().is_empty() && !s.contains(',') => strategy = Some(s.to_string()),
                _ => {
                    return Err((
                        line,
                        "`strategy` of a configuration is one name (e.g. \"abc-hybrid\"); list several as several [[config]] tables".into(),
                    ))
                }
            }
            continue;
        }
        // A job option takes what it takes at the top level (one value, or a list of a
        // [`GRID_JOB_KEYS`] option); a solver option may be a grid.
        let kind = RUN_KEYS
            .iter()
            .find(|k| k.0 == key && JOB_KEYS.contains(&k.0))
            .map_or(Kind::List, |k| k.1);
        if let Some(setting) = setting(key, v, kind).map_err(|m| (line, m))? {
            options.push(Entry {
                key: key.clone(),
                setting,
                line: line.unwrap_or(0),
            });
        }
    }
    let Some(strategy) = strategy else {
        return Err((header, "this [[config]] has no `strategy`".into()));
    };
    Ok(Config {
        strategy,
        options,
        line: header.unwrap_or(0),
    })
}

/// A value as the option's command-line text; `None` for a false flag.
fn setting(key: &str, v: &toml::Value, kind: Kind) -> Result<Option<Setting>, String> {
    let scalar = |v: &toml::Value| -> Result<String, String> {
        match v {
            toml::Value::String(s) if !s.is_empty() => Ok(s.clone()),
            toml::Value::Integer(i) => Ok(i.to_string()),
            toml::Value::Float(f) if kind == Kind::Number || kind == Kind::List => {
                Ok(f.to_string())
            }
            _ => Err(format!(
                "`{key}` = {}: expected {}",
                show(v),
                match kind {
                    Kind::Text => "a string",
                    Kind::Whole => "a whole number",
                    Kind::Number => "a number of seconds",
                    Kind::List | Kind::Flag => "a number or a string",
                }
            )),
        }
    };
    match (kind, v) {
        (Kind::Flag, toml::Value::Boolean(b)) => Ok(b.then_some(Setting::Flag)),
        (Kind::Flag, _) => Err(format!("`{key}` = {}: expected true or false", show(v))),
        (Kind::Text | Kind::Whole | Kind::Number, toml::Value::Array(_))
            if JOB_KEYS.contains(&key) =>
        {
            Err(not_a_grid(key))
        }
        (Kind::Whole, toml::Value::Integer(i)) if *i >= 0 => {
            Ok(Some(Setting::Value(i.to_string())))
        }
        (Kind::Whole, _) => Err(format!("`{key}` = {}: expected a whole number", show(v))),
        (Kind::Text, toml::Value::String(_)) | (Kind::Number, _) => {
            scalar(v).map(|s| Some(Setting::Value(s)))
        }
        (Kind::Text, _) => Err(format!("`{key}` = {}: expected a string", show(v))),
        (Kind::List, toml::Value::Array(items)) => {
            if items.is_empty() {
                return Err(format!(
                    "`{key}` = []: an empty list makes no configuration; give at least one value"
                ));
            }
            let texts = items.iter().map(scalar).collect::<Result<Vec<_>, _>>()?;
            if let Some(t) = texts.iter().find(|t| t.contains(',')) {
                return Err(format!(
                    "`{key}`: the value {t:?} holds a comma; give list items one by one"
                ));
            }
            Ok(Some(Setting::Value(texts.join(","))))
        }
        (Kind::List, _) => scalar(v).map(|s| Some(Setting::Value(s))),
    }
}

/// A value for a message, as the file would spell it.
fn show(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("{s:?}"),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
        toml::Value::Array(a) => format!("[{}]", a.iter().map(show).collect::<Vec<_>>().join(", ")),
        toml::Value::Table(_) => "a table".to_string(),
    }
}

fn unknown<'a>(key: &str, known: impl Iterator<Item = &'a str>) -> String {
    format!(
        "unknown key `{key}`; expected one of {}",
        known.collect::<Vec<_>>().join(", ")
    )
}

fn line_of(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())].matches('\n').count() + 1
}

/// A part of the file its keys belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    /// Before any table header.
    Top,
    /// The `i`-th `[[config]]` table.
    Config(usize),
    /// The `d`-th `[[dataset]]` table.
    Dataset(usize),
    /// The `i`-th `[[dataset.config]]` table of the `d`-th dataset.
    DatasetConfig(usize, usize),
    /// Any other table: its keys are no one's here.
    Other,
}

/// Where the file's keys are: the top level, then each table, by line. A key's line is found
/// by its `key =` at the start of a line of its section (the TOML parser keeps no positions
/// of a parsed table's keys).
struct Sections {
    /// Lines of the file.
    lines: Vec<String>,
    /// Line index (0-based) where each section starts: top level at 0, then the headers.
    starts: Vec<(Section, usize)>,
}

impl Sections {
    fn new(text: &str) -> Sections {
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut starts = vec![(Section::Top, 0)];
        let (mut configs, mut datasets, mut inner) = (0, 0, 0);
        for (i, l) in lines.iter().enumerate() {
            let t: String = l.trim().chars().filter(|c| !c.is_whitespace()).collect();
            let section = if t.starts_with("[[config]]") {
                configs += 1;
                Section::Config(configs - 1)
            } else if t.starts_with("[[dataset]]") {
                datasets += 1;
                inner = 0;
                Section::Dataset(datasets - 1)
            } else if t.starts_with("[[dataset.config]]") && datasets > 0 {
                inner += 1;
                Section::DatasetConfig(datasets - 1, inner - 1)
            } else if t.starts_with('[') {
                Section::Other
            } else {
                continue;
            };
            starts.push((section, i));
        }
        Sections { lines, starts }
    }

    fn has(&self, section: Section) -> bool {
        self.starts.iter().any(|s| s.0 == section)
    }

    /// The 1-based line of a table's header.
    fn header_line(&self, section: Section) -> Option<usize> {
        (self.starts.iter())
            .find(|s| s.0 == section)
            .map(|s| s.1 + 1)
    }

    fn key_line(&self, section: Section, key: &str) -> Option<usize> {
        let at = self.starts.iter().position(|s| s.0 == section)?;
        let from = self.starts[at].1;
        let to = self.starts.get(at + 1).map_or(self.lines.len(), |s| s.1);
        (from..to)
            .find(|&i| {
                let l = self.lines[i].trim_start();
                let l = l.strip_prefix('"').unwrap_or(l);
                l.strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start_matches('"').trim_start().starts_with('='))
                    || (section == Section::Top && key == "config" && l.starts_with("config"))
            })
            .map(|i| i + 1)
            .or_else(|| {
                // `[config]` as a plain table, or another spelling: the header line.
                (key == "config" || key == "dataset").then(|| {
                    self.lines
                        .iter()
                        .position(|l| l.trim_start().starts_with(&format!("[{key}")))
                        .map(|i| i + 1)
                })?
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, value: &str, line: usize) -> Entry {
        Entry {
            key: key.into(),
            setting: Setting::Value(value.into()),
            line,
        }
    }

    const PLAN: &str = r#"# a sweep and a baseline
dataset = "datasets/sudoku-medium"
seeds = 2
max-cycles = 200
timeout = 1.5
quiet = true
record-solutions = false

[[config]]
strategy = "abc-hybrid"
colony-size = [20, 50]
limit = [20, "adaptive"]

[[config]]
strategy = "backtrack"
"#;

    #[test]
    fn reads_options_configurations_and_grids_as_command_line_text() {
        let p = PlanFile::parse("p.toml", PLAN).expect("plan");
        let v = |k: &str| p.get(k).map(|e| (e.setting.clone(), e.line));
        assert_eq!(
            v("dataset"),
            Some((Setting::Value("datasets/sudoku-medium".into()), 2))
        );
        assert_eq!(v("timeout"), Some((Setting::Value("1.5".into()), 5)));
        assert_eq!(v("quiet"), Some((Setting::Flag, 6)));
        // A false flag is as good as absent.
        assert_eq!(v("record-solutions"), None);
        assert_eq!(p.configs.len(), 2);
        let c = &p.configs[0];
        assert_eq!((c.strategy.as_str(), c.line), ("abc-hybrid", 9));
        assert_eq!(
            c.options,
            [
                entry("colony-size", "20,50", 11),
                entry("limit", "20,adaptive", 12),
            ]
        );
        assert_eq!(
            (p.configs[1].strategy.as_str(), p.configs[1].options.len()),
            ("backtrack", 0)
        );
        assert_eq!(grid_size(&p.run, &p.configs), 5);
        // The budgets in a configuration's identity sweep too, at any level.
        let budgets = format!("{PLAN}count-solutions = [1, 2]\nnode-limit = [10, 100, 1000]\n");
        let b = PlanFile::parse("p.toml", &budgets).expect("plan");
        assert_eq!(
            b.configs[1].options,
            [
                entry("count-solutions", "1,2", 16),
                entry("node-limit", "10,100,1000", 17)
            ]
        );
        assert_eq!(grid_size(&b.run, &b.configs), 4 + 6);
        // The hash follows the bytes.
        let q = PlanFile::parse("p.toml", &PLAN.replace("seeds = 2", "seeds = 3")).expect("plan");
        assert_ne!(p.hash, q.hash);
    }

    #[test]
    fn reads_dataset_tables_with_their_own_options_and_configurations() {
        let text = r#"repeat = 3
threads = 2

[[config]]
strategy = "mrv"

[[dataset]]
dataset = "datasets/hitori5"
rules = ["full", "basic"]

[[dataset]]
dataset = "datasets/sudoku-demo"
seeds = 4

[[dataset.config]]
strategy = "abc"
colony-size = [10, 20]

[[dataset.config]]
strategy = "backtrack"
"#;
        let p = PlanFile::parse("p.toml", text).expect("plan");
        assert_eq!(p.configs.len(), 1);
        assert_eq!(p.datasets.len(), 2);
        let (a, b) = (&p.datasets[0], &p.datasets[1]);
        assert_eq!(a.line, 7);
        assert_eq!(
            a.options,
            [
                entry("dataset", "datasets/hitori5", 8),
                entry("rules", "full,basic", 9),
            ]
        );
        assert!(a.configs.is_empty(), "the top level's [[config]] applies");
        assert_eq!((b.line, b.configs.len()), (11, 2));
        assert_eq!(
            (b.configs[0].strategy.as_str(), b.configs[0].line),
            ("abc", 15)
        );
        assert_eq!(b.configs[0].options[0].line, 17);
        assert_eq!(b.configs[1].line, 19);
        assert_eq!(b.options[1], entry("seeds", "4", 13));
    }

    #[test]
    fn refuses_what_a_plan_cannot_hold_naming_the_line_and_what_is_expected() {
        for (text, line, says) in [
            ("seeds = 2\ncolour = 3\n", Some(2), "unknown key `colour`"),
            ("dataset = [\"a\", \"b\"]\n", Some(1), "write a [[dataset]] table"),
            ("resume = true\n", Some(1), "on the command line"),
            ("seeds = -1\n", Some(1), "expected a whole number"),
            ("seeds = 2\nlimit = []\n", Some(2), "an empty list"),
            ("quiet = 1\n", Some(1), "expected true or false"),
            ("[[config]]\ncolony-size = 20\n", Some(1), "has no `strategy`"),
            ("[[config]]\nstrategy = \"abc\"\nthreads = 3\n", Some(3), "applies to the whole run"),
            ("[[config]]\nstrategy = \"abc\"\nseeds = [3]\n", Some(3), "`seeds` takes one value"),
            ("timeout = [1, 10]\n", Some(1), "`bench-report summary --time-limit SECS`"),
            ("[[dataset]]\ndataset = \"d\"\ncpu-limit = [1]\n", Some(3), "the same jobs twice"),
            ("[[dataset]]\nseeds = 2\n", Some(1), "has no `dataset`"),
            ("[[dataset]]\ndataset = \"d\"\nthreads = 3\n", Some(3), "applies to the whole run"),
            ("[[dataset]]\ndataset = \"d\"\ncolour = 3\n", Some(3), "unknown key `colour`"),
            // TOML itself refuses a key that is both a value and an array of tables.
            ("dataset = \"d\"\n[[dataset]]\ndataset = \"e\"\n", Some(2), "not a TOML plan"),
            (
                "[[dataset]]\ndataset = \"d\"\nstrategy = \"abc\"\n[[dataset.config]]\nstrategy = \"mrv\"\n",
                Some(3),
                "not both",
            ),
            (
                "[[dataset]]\ndataset = \"d\"\n[[dataset.config]]\nstrategy = \"abc\"\nthreads = 4\n",
                Some(5),
                "`threads` applies to the whole run: set it at the top level",
            ),
            (
                "[[dataset]]\ndataset = \"d\"\n[[dataset.config]]\nstrategy = \"abc\"\ndataset = \"e\"\n",
                Some(5),
                "`dataset` applies to its dataset: set it at its [[dataset]]",
            ),
            ("[[config]]\nstrategy = \"abc,mrv\"\n", Some(2), "one name"),
            ("strategy = \"mrv\"\n[[config]]\nstrategy = \"row\"\n", Some(1), "not both"),
            ("[config]\nstrategy = \"row\"\n", Some(1), "[[config]] table"),
            ("seeds = \n", Some(1), "not a TOML plan"),
            (
                "colony-size = [4,6,8,10,12,14,16,18,20,22,24]\nlimit = [1,2,3,4,5,6,7,8,9,10,11]\nmax-cycles = [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93]\n",
                None,
                "at most 10000",
            ),
        ] {
            let e = PlanFile::parse("p.toml", text).expect_err(text);
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.message.contains(says), "{text}: {e}");
            assert!(e.to_string().starts_with("p.toml"), "{e}");
        }
    }
}
