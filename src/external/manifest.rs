//! The `--solvers FILE` manifest: one TOML table per external solver, parsed and validated
//! into [`ExternalSpec`]s before any job runs.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::solver::PuzzleKind;

/// How puzzlebench drives the solver's process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// One long-lived process per worker thread, one request line after another.
    Batch,
    /// One process per job: the request on stdin, the answer on stdout, then exit.
    PerPuzzle,
}

impl Mode {
    /// The manifest spelling, also given to the solver as `PUZZLEBENCH_MODE`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Batch => "batch",
            Mode::PerPuzzle => "per-puzzle",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One validated solver entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    /// The strategy name (the TOML table's name).
    pub name: String,
    /// The puzzle family it solves.
    pub kind: PuzzleKind,
    /// The executable, resolved: absolute, or relative to the current directory as given.
    pub program: PathBuf,
    /// The arguments after `command[0]`.
    pub args: Vec<String>,
    /// How the process is driven.
    pub mode: Mode,
    /// Whether seeds matter.
    pub randomised: bool,
    /// Extra environment, sorted by key.
    pub env: Vec<(String, String)>,
    /// Working directory, resolved against the manifest's directory.
    pub workdir: Option<PathBuf>,
    /// The `params` column, canonical `key=value;…` sorted by key (or the free text given).
    pub params: String,
    /// The program prints the line `ready` once started (`ready = true`): its start-up is
    /// waited for before a job's clock starts, and measured.
    pub ready: bool,
    /// The longest start-up waited for with `ready` (`startup_limit`, seconds; default 60).
    pub startup_limit: std::time::Duration,
    /// Sudoku orders it takes (`orders = [3, 4, 5]`; default `[3]`, 9x9 only): a job of
    /// another order is never sent to it.
    pub orders: Vec<usize>,
    /// The counter or `stats` key its effort is measured in (`effort = "nodes"`), recorded
    /// in the run's meta so that reports compare it on effort with strategies of that unit.
    pub effort: Option<String>,
    /// CPUs one solve uses at once (`cpus = N`, default 1): a pinned worker is given that
    /// many, and its process inherits them.
    pub cpus: usize,
    /// The memory limit on its process tree while it serves a job, bytes: the manifest's
    /// `memory_limit` (`"512M"`) or `--memory-limit`, whichever is lower.
    pub memory_limit: Option<u64>,
}

/// How long a `ready` start-up may take when the manifest does not say.
pub const DEFAULT_STARTUP_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Why a manifest was refused; each names the file and, where there is one, the table and key.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// The file could not be read.
    #[error("{path}: cannot read the solver manifest: {source}")]
    Read {
        /// The manifest.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not TOML, or a key of the wrong type or unknown (serde's message names it).
    #[error("{path}: {message}")]
    Syntax {
        /// The manifest.
        path: PathBuf,
        /// The TOML parser's message, with the line and key.
        message: String,
    },
    /// No `[solver.NAME]` table at all.
    #[error("{path}: no solvers declared (expected one or more `[solver.NAME]` tables)")]
    Empty {
        /// The manifest.
        path: PathBuf,
    },
    /// Not a regular file, too large, or not UTF-8 text.
    #[error("{path}: {detail}")]
    Refused {
        /// The manifest.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// A value that parses but is not acceptable.
    #[error("{path}: [solver.{solver}] {key}: {message}")]
    Invalid {
        /// The manifest.
        path: PathBuf,
        /// The table name.
        solver: String,
        /// The offending key.
        key: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// The `orders` key: Sudoku orders 2-6, default `[3]`; Sudoku solvers only.
fn parse_orders(raw: Option<Vec<i64>>, kind: PuzzleKind) -> Result<Vec<usize>, String> {
    match raw {
        None => Ok(vec![3]),
        Some(_) if kind != PuzzleKind::Sudoku => Err("applies to Sudoku solvers only".into()),
        Some(o) if o.is_empty() || o.iter().any(|k| !(2..=6).contains(k)) => Err(format!(
            "{o:?}: expected Sudoku orders 2 to 6, e.g. [3, 4, 5]"
        )),
        Some(o) => {
            // A repeat is a slip (a typo for another order, or a merge), and the refusals that
            // list the orders would list it twice.
            let repeat = o
                .iter()
                .enumerate()
                .find_map(|(i, k)| o[..i].contains(k).then_some(*k));
            if let Some(k) = repeat {
                return Err(format!(
                    "{o:?}: order {k} is listed more than once; list each order once, e.g. [3, 4, 5]"
                ));
            }
            Ok(o.into_iter().map(|k| k as usize).collect())
        }
    }
}

/// The `effort` key: a counter or `stats` key, as the protocol's stats pairs spell keys.
fn parse_effort(raw: Option<String>) -> Result<Option<String>, String> {
    match raw {
        Some(k)
            if k.is_empty()
                || !k
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')) =>
        {
            Err(format!(
                "{k:?}: expected a counter or stats key of letters, digits, `_`, `-` and `.`, e.g. \"nodes\""
            ))
        }
        k => Ok(k),
    }
}

/// The file's shape; `deny_unknown_fields` makes a misspelt key an error, not a silent default.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    #[serde(default)]
    solver: BTreeMap<String, RawSolver>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSolver {
    kind: RawKind,
    command: Vec<String>,
    mode: Mode,
    #[serde(default)]
    randomised: bool,
    #[serde(default)]
    env: BTreeMap<String, String>,
    workdir: Option<String>,
    params: Option<RawParams>,
    #[serde(default)]
    ready: bool,
    startup_limit: Option<f64>,
    orders: Option<Vec<i64>>,
    effort: Option<String>,
    cpus: Option<i64>,
    memory_limit: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum RawKind {
    Sudoku,
    Hitori,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawParams {
    Text(String),
    Table(BTreeMap<String, toml::Value>),
}

/// The largest manifest read: a manifest is a few tables, and `--solvers /dev/zero` must not
/// read until memory runs out.
pub const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// Read a manifest's text, once: a regular file (a FIFO or device is refused at once, without
/// blocking), at most [`MAX_MANIFEST_BYTES`], UTF-8.
pub fn read_text(path: &Path) -> Result<String, ManifestError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let read_err = |source| ManifestError::Read {
        path: path.to_path_buf(),
        source,
    };
    let refused = |detail: String| ManifestError::Refused {
        path: path.to_path_buf(),
        detail,
    };
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one forever.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(read_err)?;
    let meta = file.metadata().map_err(read_err)?;
    if !meta.is_file() {
        return Err(refused(
            "not a regular file (a directory, FIFO or device); give the solver manifest as a TOML file".into(),
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_MANIFEST_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    if bytes.len() as u64 > MAX_MANIFEST_BYTES {
        return Err(refused(format!(
            "larger than {} KiB; a solver manifest is a small TOML file",
            MAX_MANIFEST_BYTES / 1024
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        refused(format!(
            "not UTF-8 text (invalid byte at offset {}); a solver manifest is a TOML file",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads and validates a manifest; `builtins` are the built-in strategy names it must not reuse.
pub fn load(path: &Path, builtins: &[&str]) -> Result<Vec<ExternalSpec>, ManifestError> {
    parse(path, &read_text(path)?, builtins)
}

/// The longest piece of a manifest line an error message quotes.
const QUOTE_BYTES: usize = 200;

/// A TOML syntax error as `line L, column C: message`, quoting at most [`QUOTE_BYTES`] of the
/// line (a one-line manifest of a megabyte must not fill the terminal).
fn syntax_message(text: &str, e: &toml::de::Error) -> String {
    let Some(span) = e.span() else {
        return e.message().trim_end().to_string();
    };
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line_no = text[..start].matches('\n').count() + 1;
    let column = text[line_start..start].chars().count() + 1;
    // A window of the line around the error, cut at character boundaries.
    let mut from = start.saturating_sub(QUOTE_BYTES / 2).max(line_start);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let mut to = (from + QUOTE_BYTES).min(line_end);
    while !text.is_char_boundary(to) {
        to -= 1;
    }
    let quoted: String = text[from..to]
        .chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    let (pre, post) = (
        if from > line_start { "…" } else { "" },
        if to < line_end { "…" } else { "" },
    );
    format!(
        "line {line_no}, column {column}: {}\n  | {pre}{quoted}{post}",
        e.message().trim_end()
    )
}

/// Refuse a control character (NUL, newline, escape, ...) in a value that ends up in a CSV
/// cell, a command line or the environment: every row of the run would be unreadable.
fn check_plain(value: &str) -> Result<(), String> {
    match value.char_indices().find(|(_, c)| c.is_control()) {
        None => Ok(()),
        Some((at, c)) => Err(format!(
            "holds the control character U+{:04X} at byte {at}; values must be plain text",
            u32::from(c)
        )),
    }
}

/// Validates manifest `text` as if read from `path` (relative commands and workdirs resolve
/// against `path`'s directory).
pub fn parse(
    path: &Path,
    text: &str,
    builtins: &[&str],
) -> Result<Vec<ExternalSpec>, ManifestError> {
    let raw: RawManifest = toml::from_str(text).map_err(|e| ManifestError::Syntax {
        path: path.to_path_buf(),
        message: syntax_message(text, &e),
    })?;
    if raw.solver.is_empty() {
        return Err(ManifestError::Empty {
            path: path.to_path_buf(),
        });
    }
    let base = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut out = Vec::with_capacity(raw.solver.len());
    for (name, s) in raw.solver {
        let invalid = |key: &'static str, message: String| ManifestError::Invalid {
            path: path.to_path_buf(),
            solver: name.clone(),
            key,
            message,
        };
        let memory_limit = memory_limit(&name, s.memory_limit.as_deref(), builtins)
            .map_err(|m| invalid("memory_limit", m))?;
        check_name(&name, builtins).map_err(|m| invalid("name", m))?;
        let kind = match s.kind {
            RawKind::Sudoku => PuzzleKind::Sudoku,
            RawKind::Hitori => PuzzleKind::Hitori,
        };
        for arg in &s.command {
            check_plain(arg).map_err(|m| invalid("command", m))?;
        }
        let Some((first, rest)) = s.command.split_first() else {
            return Err(invalid("command", "the command is empty".into()));
        };
        if first.is_empty() {
            return Err(invalid("command", "the program name is empty".into()));
        }
        let program = resolve_program(first, &base).map_err(|m| invalid("command", m))?;
        if let Some(w) = &s.workdir {
            check_plain(w).map_err(|m| invalid("workdir", m))?;
        }
        let workdir = match s.workdir {
            None => None,
            Some(w) => {
                let dir = base.join(&w);
                if !dir.is_dir() {
                    return Err(invalid(
                        "workdir",
                        format!("`{}` is not a directory", dir.display()),
                    ));
                }
                Some(dir)
            }
        };
        check_env(&s.env).map_err(|m| invalid("env", m))?;
        let params = match s.params {
            None => String::new(),
            Some(RawParams::Text(t)) => t,
            Some(RawParams::Table(t)) => canonical_params(&t).map_err(|m| invalid("params", m))?,
        };
        if params.contains(['\n', '\r']) {
            return Err(invalid("params", "must be one line".into()));
        }
        check_plain(&params).map_err(|m| invalid("params", m))?;
        let startup_limit =
            startup_limit(s.ready, s.startup_limit).map_err(|m| invalid("startup_limit", m))?;
        let orders = parse_orders(s.orders, kind).map_err(|m| invalid("orders", m))?;
        let effort = parse_effort(s.effort).map_err(|m| invalid("effort", m))?;
        let cpus = match s.cpus {
            None => 1,
            Some(n @ 1..=1024) => n as usize,
            Some(n) => {
                return Err(invalid(
                    "cpus",
                    format!("{n}: expected the CPUs one solve uses at once, 1 to 1024"),
                ))
            }
        };
        out.push(ExternalSpec {
            memory_limit,
            effort,
            cpus,
            orders,
            name,
            kind,
            program,
            args: rest.to_vec(),
            mode: s.mode,
            randomised: s.randomised,
            env: s.env.into_iter().collect(),
            workdir,
            params,
            ready: s.ready,
            startup_limit,
        });
    }
    Ok(out)
}

/// The `memory_limit` key: a size (`"512M"`), and never on a built-in's name (built-ins run
/// inside puzzlebench's own process).
fn memory_limit(name: &str, text: Option<&str>, builtins: &[&str]) -> Result<Option<u64>, String> {
    let Some(text) = text else { return Ok(None) };
    if builtins.contains(&name) {
        return Err(format!(
            "`{name}` is a built-in strategy: built-ins run inside puzzlebench's own process, \
             where no per-solver limit can be set (--memory-limit checks their memory \
             estimate); `memory_limit` is for external solvers"
        ));
    }
    super::limits::parse_size(text).map(Some)
}

/// A table's name: it goes into CSV cells and `--strategy a,b` lists, so a safe alphabet, and
/// never a built-in's (BTreeMap keys are unique, and TOML refuses a repeated table, so only
/// built-ins can clash).
fn check_name(name: &str, builtins: &[&str]) -> Result<(), String> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !ok {
        return Err("a solver name may hold only letters, digits, `-`, `_` and `.`".into());
    }
    if builtins.contains(&name) {
        return Err(format!(
            "`{name}` is a built-in strategy; choose another name"
        ));
    }
    Ok(())
}

/// The `env` table: valid variable names, plain values.
fn check_env(env: &BTreeMap<String, String>) -> Result<(), String> {
    for (key, value) in env {
        if key.is_empty() || key.contains('=') || key.contains('\0') {
            return Err(format!(
                "`{}` is not a valid variable name",
                key.escape_debug()
            ));
        }
        check_plain(key)
            .and_then(|()| check_plain(value))
            .map_err(|m| format!("{}: {m}", key.escape_debug()))?;
    }
    Ok(())
}

/// The `startup_limit` key: only with `ready = true`, at least a millisecond.
fn startup_limit(ready: bool, secs: Option<f64>) -> Result<std::time::Duration, String> {
    match secs {
        None => Ok(DEFAULT_STARTUP_LIMIT),
        Some(secs) if !ready => Err(format!(
            "{} given without `ready = true`: only a start-up that says it is done can be waited for",
            crate::number::show(secs)
        )),
        Some(secs) => std::time::Duration::try_from_secs_f64(secs)
            .ok()
            .filter(|d| *d >= std::time::Duration::from_millis(1))
            .ok_or_else(|| {
                format!(
                    "{} is not a number of seconds of at least 0.001 (and at most about 584 billion years)",
                    crate::number::show(secs)
                )
            }),
    }
}

/// `command[0]`: with a `/` it is a path (relative ones against the manifest's directory);
/// a bare name is looked up on `PATH`, as a shell would.
fn resolve_program(first: &str, base: &Path) -> Result<PathBuf, String> {
    if first.contains('/') {
        let p = base.join(first);
        return if is_executable(&p) {
            Ok(p)
        } else if p.exists() {
            Err(format!("`{}` is not an executable file", p.display()))
        } else {
            Err(format!("`{}` does not exist", p.display()))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(first))
        .find(|p| is_executable(p))
        .ok_or_else(|| format!("`{first}` was not found on PATH"))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A params table as the `params` column writes it: `key=value` sorted by key, `;`-joined.
fn canonical_params(t: &BTreeMap<String, toml::Value>) -> Result<String, String> {
    let mut parts = Vec::with_capacity(t.len());
    for (k, v) in t {
        let text = match v {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            _ => {
                return Err(format!(
                    "`{k}`: only strings, numbers and booleans are allowed"
                ))
            }
        };
        // `;` and `=` delimit the column's pairs; letting them in would make it ambiguous.
        if k.contains([';', '=']) || text.contains([';', '=']) {
            return Err(format!("`{k}`: keys and values may not contain `;` or `=`"));
        }
        parts.push(format!("{k}={text}"));
    }
    Ok(parts.join(";"))
}

/// A stable 64-bit FNV-1a hash of the manifest bytes, as 16 hex digits, for the run meta.
pub fn content_hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir_with_exe() -> (tempfile::TempDir, PathBuf) {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("bin")).expect("mkdir");
        let exe = dir.path().join("bin/solve");
        std::fs::write(&exe, "#!/bin/sh\n").expect("write");
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        std::fs::write(dir.path().join("bin/data"), "x").expect("write");
        let manifest = dir.path().join("peers.toml");
        (dir, manifest)
    }

    fn err(text: &str) -> String {
        let (_d, m) = dir_with_exe();
        match parse(&m, text, &["backtrack", "abc"]) {
            Ok(v) => panic!("accepted: {v:?}"),
            Err(e) => e.to_string(),
        }
    }

    const OK: &str = "[solver.mine]\nkind = \"sudoku\"\ncommand = [\"bin/solve\", \"--fast\"]\nmode = \"batch\"\n";

    #[test]
    fn full_entry_parses_and_resolves_against_the_manifest() {
        let (d, m) = dir_with_exe();
        let text = format!(
            "{OK}randomised = true\nenv = {{ B = \"2\", A = \"1\" }}\nworkdir = \"bin\"\nparams = {{ z = 1, a = \"x\", f = true }}\n\
             [solver.other]\nkind = \"hitori\"\ncommand = [\"sh\"]\nmode = \"per-puzzle\"\nparams = \"free text\"\n"
        );
        let specs = parse(&m, &text, &["backtrack"]).expect("valid");
        assert_eq!(specs.len(), 2);
        let s = &specs[0];
        assert_eq!(s.name, "mine");
        assert_eq!(s.kind, PuzzleKind::Sudoku);
        assert_eq!(s.program, d.path().join("bin/solve"));
        assert_eq!(s.args, vec!["--fast".to_string()]);
        assert_eq!(s.mode, Mode::Batch);
        assert!(s.randomised);
        assert_eq!(
            s.env,
            vec![("A".into(), "1".into()), ("B".into(), "2".into())]
        );
        assert_eq!(s.workdir.as_deref(), Some(d.path().join("bin").as_path()));
        assert_eq!(s.params, "a=x;f=true;z=1");
        let o = &specs[1];
        assert_eq!(
            (o.kind, o.mode, o.randomised),
            (PuzzleKind::Hitori, Mode::PerPuzzle, false)
        );
        assert!(
            o.program.is_absolute(),
            "bare name found on PATH: {:?}",
            o.program
        );
        assert_eq!(o.params, "free text");
        assert!(!s.ready && !o.ready, "no handshake unless declared");
        assert_eq!(s.startup_limit, DEFAULT_STARTUP_LIMIT);
    }

    #[test]
    fn ready_and_its_start_up_limit_are_read() {
        let (_d, m) = dir_with_exe();
        let specs = parse(&m, &format!("{OK}ready = true\n"), &[]).expect("valid");
        assert!(specs[0].ready);
        assert_eq!(specs[0].startup_limit, DEFAULT_STARTUP_LIMIT);
        let text = format!("{OK}ready = true\nstartup_limit = 2.5\n");
        let specs = parse(&m, &text, &[]).expect("valid");
        assert_eq!(
            specs[0].startup_limit,
            std::time::Duration::from_millis(2500)
        );
        let e = err(&format!("{OK}startup_limit = 5\n"));
        assert!(
            e.contains("[solver.mine] startup_limit") && e.contains("ready"),
            "{e}"
        );
        for bad in ["0", "-1", "nan", "inf"] {
            let e = err(&format!("{OK}ready = true\nstartup_limit = {bad}\n"));
            assert!(e.contains("[solver.mine] startup_limit"), "{bad}: {e}");
        }
        // Issue 38: 1e300 was refused with a 301-digit number.
        for (bad, shown) in [("1e300", "1e300"), ("-1e30", "-1e30"), ("1e-9", "1e-9")] {
            let e = err(&format!("{OK}ready = true\nstartup_limit = {bad}\n"));
            assert!(e.contains(&format!("startup_limit: {shown} is not")), "{e}");
            assert!(e.len() < 300, "{e}");
        }
        let e = err(&format!("{OK}startup_limit = 1e300\n"));
        assert!(e.contains("1e300 given without"), "{e}");
        let e = err(&format!("{OK}ready = \"yes\"\n"));
        assert!(e.contains("ready"), "{e}");
    }

    #[test]
    fn builtin_name_clash_is_refused() {
        let e = err(&OK.replace("mine", "backtrack"));
        assert!(
            e.contains("[solver.backtrack] name") && e.contains("built-in"),
            "{e}"
        );
    }

    #[test]
    fn memory_limit_is_a_size_and_never_for_a_built_in() {
        let (_d, m) = dir_with_exe();
        let specs = parse(&m, &format!("{OK}memory_limit = \"512M\"\n"), &[]).expect("valid");
        assert_eq!(specs[0].memory_limit, Some(512 << 20));
        assert_eq!(parse(&m, OK, &[]).expect("valid")[0].memory_limit, None);
        let e = err(&format!("{OK}memory_limit = \"10X\"\n"));
        assert!(
            e.contains("[solver.mine] memory_limit") && e.contains("unknown unit"),
            "{e}"
        );
        let e = err(&format!("{OK}memory_limit = \"0\"\n"));
        assert!(e.contains("at least 16 MiB"), "{e}");
        let e = err(&format!("{OK}memory_limit = \"1G\"\n").replace("mine", "backtrack"));
        assert!(
            e.contains("[solver.backtrack] memory_limit") && e.contains("built-in"),
            "{e}"
        );
    }

    #[test]
    fn duplicate_table_is_refused() {
        let e = err(&format!("{OK}{OK}"));
        assert!(e.contains("peers.toml") && e.contains("mine"), "{e}");
    }

    #[test]
    fn empty_command_is_refused() {
        let e = err(&OK.replace("[\"bin/solve\", \"--fast\"]", "[]"));
        assert!(
            e.contains("[solver.mine] command: the command is empty"),
            "{e}"
        );
    }

    #[test]
    fn orders_default_to_9x9_and_are_checked() {
        let (_d, m) = dir_with_exe();
        let specs = parse(&m, OK, &["backtrack"]).expect("valid");
        assert_eq!(specs[0].orders, vec![3]);
        let specs = parse(&m, &format!("{OK}orders = [3, 4, 5]\n"), &["backtrack"]).expect("valid");
        assert_eq!(specs[0].orders, vec![3, 4, 5]);
        let e = err(&format!("{OK}orders = [3, 7]\n"));
        assert!(
            e.contains("[solver.mine] orders") && e.contains("2 to 6"),
            "{e}"
        );
        let e = err(&format!("{OK}orders = []\n"));
        assert!(e.contains("orders"), "{e}");
        // Issue 38: a repeated order was kept, and refusals then listed it twice.
        for list in ["[3, 3]", "[4, 3, 5, 4]", "[2, 2, 2]"] {
            let e = err(&format!("{OK}orders = {list}\n"));
            assert!(
                e.contains("[solver.mine] orders") && e.contains("is listed more than once"),
                "{e}"
            );
        }
    }

    #[test]
    fn cpus_is_a_count_of_one_or_more() {
        let (_d, m) = dir_with_exe();
        assert_eq!(parse(&m, OK, &[]).expect("valid")[0].cpus, 1);
        assert_eq!(
            parse(&m, &format!("{OK}cpus = 4\n"), &[]).expect("valid")[0].cpus,
            4
        );
        for bad in ["0", "-2", "100000"] {
            let e = parse(&m, &format!("{OK}cpus = {bad}\n"), &[])
                .expect_err(bad)
                .to_string();
            assert!(
                e.contains("[solver.mine] cpus") && e.contains("1 to 1024"),
                "{e}"
            );
        }
        let e = parse(&m, &format!("{OK}cpus = \"two\"\n"), &[])
            .expect_err("text")
            .to_string();
        assert!(e.contains("cpus"), "{e}");
    }

    #[test]
    fn effort_names_a_counter_or_stats_key() {
        let (_d, m) = dir_with_exe();
        let specs = parse(&m, OK, &["backtrack"]).expect("valid");
        assert_eq!(specs[0].effort, None);
        let specs = parse(&m, &format!("{OK}effort = \"decodes\"\n"), &["backtrack"]).expect("ok");
        assert_eq!(specs[0].effort.as_deref(), Some("decodes"));
        for bad in ["", "a b", "x=1", "n;m"] {
            let e = err(&format!("{OK}effort = {bad:?}\n"));
            assert!(
                e.contains("[solver.mine] effort") && e.contains("expected a counter"),
                "{e}"
            );
        }
    }

    #[test]
    fn missing_executable_is_refused() {
        let e = err(&OK.replace("bin/solve", "bin/nope"));
        assert!(
            e.contains("[solver.mine] command") && e.contains("does not exist"),
            "{e}"
        );
        let e = err(&OK.replace("bin/solve", "bin/data"));
        assert!(e.contains("not an executable"), "{e}");
        let e = err(&OK.replace("bin/solve", "no-such-program-pb"));
        assert!(e.contains("not found on PATH"), "{e}");
    }

    #[test]
    fn unknown_key_is_refused_with_its_name() {
        let e = err(&format!("{OK}timeout = 3\n"));
        assert!(e.contains("peers.toml") && e.contains("timeout"), "{e}");
        let e = err("[solvers.x]\n");
        assert!(e.contains("solvers"), "{e}");
    }

    #[test]
    fn bad_values_are_refused() {
        let e = err(&OK.replace("\"batch\"", "\"pipelined\""));
        assert!(e.contains("pipelined"), "{e}");
        let e = err(&OK.replace("\"sudoku\"", "\"kakuro\""));
        assert!(e.contains("kakuro"), "{e}");
        let e = err(&OK.replace("kind = \"sudoku\"\n", ""));
        assert!(e.contains("kind"), "{e}");
        let e = err(&format!("{OK}workdir = \"nowhere\"\n"));
        assert!(e.contains("[solver.mine] workdir"), "{e}");
        let e = err(&format!("{OK}params = {{ a = \"x;y\" }}\n"));
        assert!(e.contains("[solver.mine] params"), "{e}");
        let e = err(&format!("{OK}params = {{ a = [1] }}\n"));
        assert!(e.contains("[solver.mine] params"), "{e}");
        let e = err(&OK.replace("mine", "\"my solver\""));
        assert!(e.contains("name"), "{e}");
        let e = err(&format!("{OK}env = {{ \"A=B\" = \"1\" }}\n"));
        assert!(e.contains("[solver.mine] env"), "{e}");
    }

    #[test]
    fn no_solvers_is_refused() {
        let e = err("");
        assert!(e.contains("no solvers declared"), "{e}");
        let e = err("not toml [");
        assert!(e.contains("peers.toml"), "{e}");
    }

    #[test]
    fn unreadable_file_names_it() {
        let e = load(Path::new("/nonexistent/peers.toml"), &[]).expect_err("missing file");
        assert!(
            e.to_string()
                .starts_with("/nonexistent/peers.toml: cannot read"),
            "{e}"
        );
    }

    #[test]
    fn control_characters_are_refused_where_they_are() {
        let cases = [
            (
                "params = \"a\\u0000b\"\n",
                "[solver.mine] params: holds the control character U+0000 at byte 1",
            ),
            (
                "params = { k = \"x\\u001by\" }\n",
                "[solver.mine] params: holds the control character U+001B",
            ),
            (
                "env = { A = \"1\\u0000\" }\n",
                "[solver.mine] env: A: holds the control character U+0000 at byte 1",
            ),
            (
                "workdir = \"bin\\u0007\"\n",
                "[solver.mine] workdir: holds the control character U+0007",
            ),
        ];
        for (extra, want) in cases {
            let e = err(&format!("{OK}{extra}"));
            assert!(e.contains(want), "{extra}: {e}");
        }
        let e = err("[solver.mine]\nkind = \"sudoku\"\ncommand = [\"bin/solve\", \"a\\u0000\"]\nmode = \"batch\"\n");
        assert!(
            e.contains("[solver.mine] command: holds the control character U+0000"),
            "{e}"
        );
    }

    #[test]
    fn a_syntax_error_quotes_at_most_a_short_piece_of_its_line() {
        let long = format!("{OK}params = \"{}\" x = 1\n", "y".repeat(100_000));
        let e = err(&long);
        assert!(e.contains("line 5, column"), "{e}");
        assert!(
            e.len() < 600,
            "{} bytes: {}",
            e.len(),
            &e[..600.min(e.len())]
        );
        assert!(e.contains("…"), "the cut is marked: {e}");
    }

    #[test]
    fn only_small_regular_files_are_read() {
        let e = load(Path::new("/dev/zero"), &[]).expect_err("a device");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let d = tempfile::tempdir().expect("tempdir");
        let fifo = d.path().join("fifo.toml");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        // Returns at once: nothing ever writes to this FIFO.
        let e = load(&fifo, &[]).expect_err("a FIFO");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let big = d.path().join("big.toml");
        let text = format!("{OK}# {}\n", "x".repeat(MAX_MANIFEST_BYTES as usize));
        std::fs::write(&big, text).expect("write");
        let e = load(&big, &[]).expect_err("too large");
        assert!(e.to_string().contains("larger than 1024 KiB"), "{e}");
        let bad = d.path().join("latin1.toml");
        std::fs::write(&bad, b"# caf\xe9\n").expect("write");
        let e = load(&bad, &[]).expect_err("not UTF-8");
        assert!(
            e.to_string()
                .contains("not UTF-8 text (invalid byte at offset 5)"),
            "{e}"
        );
    }

    #[test]
    fn content_hash_is_stable() {
        assert_eq!(content_hash(b""), "cbf29ce484222325");
        assert_eq!(content_hash(b"a"), "af63dc4c8601ec8c");
        assert_ne!(content_hash(OK.as_bytes()), content_hash(b"x"));
    }
}
