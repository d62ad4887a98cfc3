//! All file I/O of the reports: reading results and trace CSVs and meta sidecars, with errors
//! that name the file, line and column; atomic, no-clobber writes.
//!
//! Rows are read by header name (`csv` + serde into [`Record`]), so files with or without the
//! optional `solutions`/`solution` columns read the same way. Deserialisation errors are
//! rewritten from the `csv` crate's byte-offset messages into
//! `results/x.csv:7: bad value "abc" in column nodes: expected an unsigned integer`.

use crate::harness::record::{Columns, Record};
use crate::report::meta::{meta_path, RunMeta};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A problem with an input or output file. Every variant names the file; those about a row
/// also name the 1-based line.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// Zero bytes, or nothing but whitespace.
    #[error("{path}: empty file (expected a CSV header line)")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A required column is not in the header.
    #[error("{path}:1: missing column {column} (header has: {header})")]
    MissingColumn {
        /// The file.
        path: PathBuf,
        /// The column looked for.
        column: String,
        /// The header found, comma-separated.
        header: String,
    },
    /// A header but no data rows.
    #[error("{path}: no rows (only a header)")]
    NoRows {
        /// The file.
        path: PathBuf,
    },
    /// A cell that does not parse as its column's type.
    #[error("{path}:{line}: bad value {value:?} in column {column}: expected {expected}")]
    BadValue {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// Column name.
        column: String,
        /// The cell as written.
        value: String,
        /// What the column holds.
        expected: String,
    },
    /// Rows that are well-formed but cannot be used here (e.g. a job outside the plan).
    #[error("{path}: {detail}")]
    Refused {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// A row that is not valid CSV or has the wrong number of fields.
    #[error("{path}:{line}: {detail}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        detail: String,
    },
    /// A meta sidecar that is not the JSON object expected.
    #[error("{path}:{line}:{column}: bad run metadata: {detail}")]
    Meta {
        /// The sidecar file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json reported.
        detail: String,
    },
    /// A directory given as input holds no `*.csv` file.
    #[error("{path}: directory holds no *.csv files")]
    EmptyDir {
        /// The directory.
        path: PathBuf,
    },
}

/// A problem writing an output file.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The destination exists and overwriting was not asked for.
    #[error("{path}: already exists (pass --force to overwrite)")]
    Exists {
        /// The destination.
        path: PathBuf,
    },
    /// An OS error while writing.
    #[error("{path}: cannot write: {source}")]
    Io {
        /// The file being written.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

/// One row of an ABC trace CSV (`bench-run --trace FILE`): the best conflict count of one
/// colony after a cycle. Cycle 0 is the state after initialisation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRow {
    /// Dataset name.
    pub dataset: String,
    /// Puzzle id.
    pub puzzle_id: String,
    /// Strategy name.
    pub strategy: String,
    /// Canonical parameter string.
    pub params: String,
    /// Seed of the run.
    pub seed: u64,
    /// Colony index.
    pub colony: u32,
    /// Cycle number, 0 = after initialisation.
    pub cycle: u64,
    /// Best conflict count among the colony's sources after that cycle.
    pub best_conflicts: u64,
}

/// Columns of a trace file, in order (as `bench-run --trace` writes them).
pub use crate::harness::output::TRACE_HEADER as TRACE_COLUMNS;

/// A results file as read: its rows and which optional columns its header had.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultsFile {
    /// The file read.
    pub path: PathBuf,
    /// Rows in file order.
    pub rows: Vec<Record>,
    /// Optional columns present in the header.
    pub columns: Columns,
}

/// What a column holds, in words, for error messages.
fn expected_for(column: &str) -> &'static str {
    match column {
        "seed"
        | "job"
        | "nodes"
        | "max_depth"
        | "backtracks"
        | "guesses"
        | "cycles"
        | "evaluations"
        | "scouts"
        | "best_conflicts"
        | "empties_after_presolve"
        | "solutions"
        | "cycle" => "an unsigned integer",
        "colony" => "an unsigned 32-bit integer",
        "verified" => "true or false",
        "status" => "one of solved, unsolved, timeout, error, wrong",
        "propagated" => "a fraction between 0 and 1",
        "wall_s" => "a non-negative number of seconds",
        _ => "text",
    }
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ReadError + '_ {
    move |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Turn a `csv` error into a located [`ReadError`].
fn csv_err(path: &Path, e: csv::Error) -> ReadError {
    let line = e.position().map(|p| p.line()).unwrap_or(0);
    match e.into_kind() {
        csv::ErrorKind::Io(source) => ReadError::Io {
            path: path.to_path_buf(),
            source,
        },
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => ReadError::Malformed {
            path: path.to_path_buf(),
            line,
            detail: format!("expected {expected_len} fields like the header, found {len}"),
        },
        csv::ErrorKind::Utf8 { err, .. } => ReadError::Malformed {
            path: path.to_path_buf(),
            line,
            detail: format!("not UTF-8 text ({err})"),
        },
        other => ReadError::Malformed {
            path: path.to_path_buf(),
            line,
            detail: format!("{other:?}"),
        },
    }
}

/// Stream any header-named CSV into `each`, one row at a time, checking the required columns.
/// `check` may reject a parsed row with (column, expected) for semantic limits serde cannot
/// express. Returns the header and the number of rows.
fn for_each_csv<T: DeserializeOwned>(
    path: &Path,
    required: &[&str],
    check: impl Fn(&T) -> Option<&'static str>,
    mut each: impl FnMut(T) -> Result<(), ReadError>,
) -> Result<(csv::StringRecord, u64), ReadError> {
    let file = fs::File::open(path).map_err(io_err(path))?;
    let mut rdr =
        csv::ReaderBuilder::new().from_reader(std::io::BufReader::with_capacity(1 << 16, file));
    let headers = rdr.headers().map_err(|e| csv_err(path, e))?.clone();
    if headers.iter().all(|h| h.trim().is_empty()) {
        return Err(ReadError::Empty {
            path: path.to_path_buf(),
        });
    }
    for col in required {
        if !headers.iter().any(|h| h == *col) {
            return Err(ReadError::MissingColumn {
                path: path.to_path_buf(),
                column: (*col).to_string(),
                header: headers.iter().collect::<Vec<_>>().join(","),
            });
        }
    }
    let mut rows = 0u64;
    let mut rec = csv::StringRecord::new();
    while rdr.read_record(&mut rec).map_err(|e| csv_err(path, e))? {
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        let bad = |idx: usize, expected: &str| ReadError::BadValue {
            path: path.to_path_buf(),
            line,
            column: headers.get(idx).unwrap_or("?").to_string(),
            value: rec.get(idx).unwrap_or("").to_string(),
            expected: expected.to_string(),
        };
        let row: T = match rec.deserialize(Some(&headers)) {
            Ok(row) => row,
            Err(e) => {
                let field = match e.kind() {
                    csv::ErrorKind::Deserialize { err, .. } => err.field(),
                    _ => None,
                };
                return Err(match field {
                    Some(idx) => {
                        let idx = idx as usize;
                        bad(idx, expected_for(headers.get(idx).unwrap_or("")))
                    }
                    None => ReadError::Malformed {
                        path: path.to_path_buf(),
                        line,
                        detail: e.to_string(),
                    },
                });
            }
        };
        if let Some(col) = check(&row) {
            let idx = headers.iter().position(|h| h == col).unwrap_or(usize::MAX);
            return Err(bad(idx, expected_for(col)));
        }
        rows += 1;
        each(row)?;
    }
    if rows == 0 {
        return Err(ReadError::NoRows {
            path: path.to_path_buf(),
        });
    }
    Ok((headers, rows))
}

/// Read any header-named CSV into `T` (see [`for_each_csv`]).
fn read_csv<T: DeserializeOwned>(
    path: &Path,
    required: &[&str],
    check: impl Fn(&T) -> Option<&'static str>,
) -> Result<(Vec<T>, csv::StringRecord), ReadError> {
    let mut rows = Vec::new();
    let (headers, _) = for_each_csv(path, required, check, |r| {
        rows.push(r);
        Ok(())
    })?;
    Ok((rows, headers))
}

/// Semantic checks serde cannot do: a `status` cell must be filled, times must be real.
fn check_record(r: &Record) -> Option<&'static str> {
    if r.status.is_none() {
        return Some("status");
    }
    if !(r.wall_s.is_finite() && r.wall_s >= 0.0) {
        return Some("wall_s");
    }
    if r.propagated.is_some_and(|p| !(0.0..=1.0).contains(&p)) {
        return Some("propagated");
    }
    None
}

/// Read one results CSV written by `bench-run`. Errors on a missing or empty file, a missing
/// required column, a bad cell (with line and column), or a file with no rows.
pub fn read_results(path: &Path) -> Result<ResultsFile, ReadError> {
    let required: Vec<&str> = Columns::default().header();
    let (rows, headers) = read_csv::<Record>(path, &required, check_record)?;
    let has = |c: &str| headers.iter().any(|h| h == c);
    Ok(ResultsFile {
        path: path.to_path_buf(),
        rows,
        columns: Columns {
            solutions: has("solutions"),
            solution: has("solution"),
        },
    })
}

/// Stream the rows of a results CSV into `each` in file order, with the same checks as
/// [`read_results`], holding one row at a time. Returns the optional columns present and the
/// number of rows.
pub fn for_each_result(
    path: &Path,
    each: impl FnMut(Record) -> Result<(), ReadError>,
) -> Result<(Columns, u64), ReadError> {
    let required: Vec<&str> = Columns::default().header();
    let (headers, rows) = for_each_csv::<Record>(path, &required, check_record, each)?;
    let has = |c: &str| headers.iter().any(|h| h == c);
    Ok((
        Columns {
            solutions: has("solutions"),
            solution: has("solution"),
        },
        rows,
    ))
}

/// Expand inputs: a file stays itself, a directory becomes its `*.csv` files sorted by name.
pub fn expand_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ReadError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = fs::read_dir(p)
                .map_err(io_err(p))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.is_file() && f.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv"))
                })
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(ReadError::EmptyDir { path: p.clone() });
            }
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Read an ABC trace CSV (`bench-run --trace FILE`).
pub fn read_trace(path: &Path) -> Result<Vec<TraceRow>, ReadError> {
    read_csv::<TraceRow>(path, &TRACE_COLUMNS, |_| None).map(|(rows, _)| rows)
}

/// Read the sidecar of a results file. `Ok(None)` when there is none (meta is optional);
/// an error when it exists but is not a JSON object of the expected shape.
pub fn read_meta(results: &Path) -> Result<Option<RunMeta>, ReadError> {
    let path = meta_path(results);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(ReadError::Io { path, source }),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| ReadError::Meta {
            line: e.line(),
            column: e.column(),
            detail: e.to_string(),
            path,
        })
}

/// Serialise rows as `bench-run` does: header for `cols`, then [`Record::fields`].
pub fn results_csv(rows: &[Record], cols: Columns) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    // Writing into a Vec cannot fail; the errors are mapped away only to satisfy the type.
    let _ = w.write_record(cols.header());
    for r in rows {
        let _ = w.write_record(r.fields(cols));
    }
    w.into_inner().unwrap_or_default()
}

/// Write `bytes` to `path` atomically: a temporary file in the same directory, flushed to
/// disk, then renamed over the destination, so a reader never sees half a file. Refuses to
/// replace an existing file unless `force`.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<(), WriteError> {
    let werr = |source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    };
    if !force && path.exists() {
        return Err(WriteError::Exists {
            path: path.to_path_buf(),
        });
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_string());
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let result = (|| {
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(werr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::record::Status;

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pb-report-io-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).expect("temp dir");
        d
    }

    fn row(job: u64) -> Record {
        Record {
            dataset: "d".into(),
            puzzle_id: format!("p:{job}"),
            kind: "hitori".into(),
            size: "5x5".into(),
            strategy: "mrv".into(),
            rules: "basic".into(),
            job,
            status: Some(Status::Solved),
            verified: true,
            nodes: Some(8),
            propagated: Some(0.25),
            wall_s: 0.001,
            ..Record::default()
        }
    }

    #[test]
    fn round_trips_rows_with_and_without_optional_columns() {
        let d = tmpdir("rt");
        for cols in [
            Columns::default(),
            Columns {
                solutions: true,
                solution: true,
            },
        ] {
            let mut rows = vec![row(0), row(1)];
            if cols.solutions {
                rows[0].solutions = Some(1);
                rows[0].solution = Some("#....".into());
            }
            let p = d.join("x.csv");
            fs::write(&p, results_csv(&rows, cols)).expect("write");
            let f = read_results(&p).expect("read");
            assert_eq!(f.columns, cols);
            assert_eq!(f.rows, rows);
        }
    }

    #[test]
    fn bad_cell_names_file_line_column_and_value() {
        let d = tmpdir("bad");
        let p = d.join("x.csv");
        let mut text =
            String::from_utf8(results_csv(&[row(0), row(1)], Columns::default())).expect("utf8");
        text = text.replacen(",8,", ",abc,", 2);
        fs::write(&p, text).expect("write");
        let e = read_results(&p).expect_err("must fail").to_string();
        assert!(
            e.ends_with(":2: bad value \"abc\" in column nodes: expected an unsigned integer"),
            "{e}"
        );
        assert!(e.starts_with(&p.display().to_string()), "{e}");
    }

    #[test]
    fn empty_header_only_missing_column_and_short_row() {
        let d = tmpdir("shapes");
        let p = d.join("x.csv");
        fs::write(&p, "").expect("write");
        assert!(matches!(read_results(&p), Err(ReadError::Empty { .. })));
        fs::write(&p, results_csv(&[], Columns::default())).expect("write");
        assert!(matches!(read_results(&p), Err(ReadError::NoRows { .. })));
        fs::write(&p, "dataset,puzzle_id\nd,p\n").expect("write");
        assert!(matches!(
            read_results(&p),
            Err(ReadError::MissingColumn { ref column, .. }) if column == "kind"
        ));
        let mut text = String::from_utf8(results_csv(&[row(0)], Columns::default())).expect("utf8");
        text.push_str("d,p\n");
        fs::write(&p, text).expect("write");
        let e = read_results(&p).expect_err("short row").to_string();
        assert!(
            e.contains(":3: expected 24 fields like the header, found 2"),
            "{e}"
        );
    }

    #[test]
    fn empty_status_and_nan_time_are_refused() {
        let d = tmpdir("sem");
        let p = d.join("x.csv");
        let mut r = row(0);
        r.status = None;
        fs::write(&p, results_csv(&[r], Columns::default())).expect("write");
        let e = read_results(&p).expect_err("status").to_string();
        assert!(e.contains(":2: bad value \"\" in column status"), "{e}");
        let mut r = row(0);
        r.wall_s = f64::NAN;
        fs::write(&p, results_csv(&[r], Columns::default())).expect("write");
        let e = read_results(&p).expect_err("nan").to_string();
        assert!(e.contains("in column wall_s"), "{e}");
    }

    #[test]
    fn atomic_write_refuses_to_clobber_without_force() {
        let d = tmpdir("atomic");
        let p = d.join("out.csv");
        write_atomic(&p, b"one", false).expect("first write");
        assert!(matches!(
            write_atomic(&p, b"two", false),
            Err(WriteError::Exists { .. })
        ));
        write_atomic(&p, b"two", true).expect("forced");
        assert_eq!(fs::read(&p).expect("read"), b"two");
        let leftovers = fs::read_dir(&d).expect("dir").count();
        assert_eq!(leftovers, 1, "no temp file left behind");
    }
}
