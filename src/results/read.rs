//! Reading result files: results CSVs, trace CSVs and meta sidecars, with errors that name the
//! file, line and column.
//!
//! Results rows are read by header name through [`Record::set_cell`], which the counter table
//! drives, so files with or without the optional columns read the same way and a bad cell says
//! `results/x.csv:7: bad value "abc" in column nodes: expected an unsigned integer`.

use super::meta::{meta_path, RunMeta};
use super::record::{Columns, Record};
use super::trace::TraceRun;
use std::fs;
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

/// Stream a header-named CSV one row at a time: check the required columns, then hand each
/// row (with its 1-based line) to `each`. Returns the header and the number of rows.
fn for_each_row(
    path: &Path,
    required: &[&str],
    mut each: impl FnMut(&csv::StringRecord, &csv::StringRecord, u64) -> Result<(), ReadError>,
) -> Result<(csv::StringRecord, u64), ReadError> {
    let meta = fs::metadata(path).map_err(io_err(path))?;
    if !meta.is_file() {
        return Err(ReadError::Refused {
            path: path.to_path_buf(),
            detail: "not a regular file (expected a results CSV)".into(),
        });
    }
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
        rows += 1;
        each(&headers, &rec, line)?;
    }
    if rows == 0 {
        return Err(ReadError::NoRows {
            path: path.to_path_buf(),
        });
    }
    Ok((headers, rows))
}

/// Build a record from one CSV row.
fn record_of(
    path: &Path,
    headers: &csv::StringRecord,
    rec: &csv::StringRecord,
    line: u64,
) -> Result<Record, ReadError> {
    let mut r = Record::default();
    for (h, cell) in headers.iter().zip(rec.iter()) {
        r.set_cell(h, cell)
            .map_err(|expected| ReadError::BadValue {
                path: path.to_path_buf(),
                line,
                column: h.to_string(),
                value: cell.to_string(),
                expected: expected.to_string(),
            })?;
    }
    if r.status.is_none() {
        return Err(ReadError::BadValue {
            path: path.to_path_buf(),
            line,
            column: "status".into(),
            value: String::new(),
            expected: "one of solved, unsolved, timeout, error, wrong".into(),
        });
    }
    Ok(r)
}

/// Read one results CSV written by `bench-run`. Errors on a missing or empty file, a missing
/// required column, a bad cell (with line and column), or a file with no rows.
pub fn read_results(path: &Path) -> Result<ResultsFile, ReadError> {
    let mut rows = Vec::new();
    let (columns, _) = for_each_result(path, |r| {
        rows.push(r);
        Ok(())
    })?;
    Ok(ResultsFile {
        path: path.to_path_buf(),
        rows,
        columns,
    })
}

/// Stream the rows of a results CSV into `each` in file order, with the same checks as
/// [`read_results`], holding one row at a time. Returns the optional columns present and the
/// number of rows.
pub fn for_each_result(
    path: &Path,
    mut each: impl FnMut(Record) -> Result<(), ReadError>,
) -> Result<(Columns, u64), ReadError> {
    let required: Vec<&str> = Columns::default().header();
    let (headers, rows) = for_each_row(path, &required, |h, rec, line| {
        each(record_of(path, h, rec, line)?)
    })?;
    Ok((Columns::of_header(headers.iter()), rows))
}

/// Expand inputs: a file stays itself, a directory becomes its `*.csv` files sorted by name
/// (journals, temporary and lock files are not `*.csv`, so a results directory with a run in
/// progress reads as its finished files).
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

/// Read an ABC trace CSV (`bench-run --trace FILE`); the format is in [`super::trace`].
pub fn read_trace(path: &Path) -> Result<Vec<TraceRun>, ReadError> {
    super::trace::read_trace(path)
}

/// Read the sidecar of a results file. `Ok(None)` when there is none (meta is optional);
/// an error when it exists but is not a JSON object of the expected shape.
pub fn read_meta(results: &Path) -> Result<Option<RunMeta>, ReadError> {
    match read_meta_file(&meta_path(results)) {
        Err(ReadError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        other => other.map(Some),
    }
}

/// Read a meta sidecar by its own path.
pub fn read_meta_file(path: &Path) -> Result<RunMeta, ReadError> {
    let text = fs::read_to_string(path).map_err(io_err(path))?;
    serde_json::from_str(&text).map_err(|e| ReadError::Meta {
        line: e.line(),
        column: e.column(),
        detail: e.to_string(),
        path: path.to_path_buf(),
    })
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::record::Status;
    use crate::results::write::results_csv;

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pb-results-read-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).expect("temp dir");
        d
    }

    fn row(job: u64) -> Record {
        let mut r = Record::sample("d", "mrv", &format!("p:{job}"), Status::Solved, 0.001);
        r.job = job;
        r.counters.nodes = Some(8);
        r.counters.propagated = crate::results::counters::Fraction::new(0.25);
        r
    }

    #[test]
    fn round_trips_rows_with_and_without_optional_columns() {
        let d = tmpdir("rt");
        for cols in [Columns::default(), Columns::ALL] {
            let mut rows = vec![row(0), row(1)];
            if cols.solutions {
                rows[0].counters.solutions = Some(1);
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
        // A bad cell further down, after a message spanning two lines, names its own line:
        // header 1, row 0 on 2, row 1 on 3-4 (quoted newline), row 2 on 5.
        let mut rows = vec![row(0), row(1), row(2)];
        rows[1].message = "first\nsecond".into();
        let text = String::from_utf8(results_csv(&rows, Columns::default())).expect("utf8");
        let last = text.rfind(",8,").expect("row 2's nodes");
        let text = format!("{},x,{}", &text[..last], &text[last + 3..]);
        fs::write(&p, text).expect("write");
        let e = read_results(&p).expect_err("must fail").to_string();
        assert!(e.contains(":5: bad value \"x\" in column nodes"), "{e}");
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
}
