//! Reading result files: results CSVs, trace CSVs and meta sidecars, with errors that name the
//! file, line and column.
//!
//! Results rows are read by header name through [`Record::set_cell`], which the counter table
//! drives, so files with or without the optional columns read the same way and a bad cell says
//! `results/x.csv:7: bad value "abc" in column nodes: expected an unsigned integer`.

use super::meta::{meta_path, RunMeta};
use super::record::{Columns, Record};
use std::cmp::Ordering;
use std::fs;
use std::io::BufReader;
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
    #[error("{path}: directory holds no *.csv files{hint}")]
    EmptyDir {
        /// The directory.
        path: PathBuf,
        /// Where the results are instead, when its subdirectories hold some (the parent of
        /// nightly runs): which run to name. Empty otherwise.
        hint: String,
    },
}

impl ReadError {
    /// [`ReadError::EmptyDir`] for `dir`, saying which of its subdirectories hold results
    /// files: given the parent of nightly runs, the user is told to name one night.
    pub fn empty_dir(dir: &Path) -> ReadError {
        let mut runs: Vec<PathBuf> = fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|d| {
                d.is_dir()
                    && fs::read_dir(d).into_iter().flatten().any(|f| {
                        f.is_ok_and(|f| {
                            let f = f.path();
                            f.is_file()
                                && f.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv"))
                        })
                    })
            })
            .collect();
        runs.sort();
        let hint = match runs.as_slice() {
            [] => String::new(),
            [one] => format!(
                "; its subdirectory {} holds results: name it (one run a directory)",
                one.display()
            ),
            [.., last] => format!(
                "; {} of its subdirectories hold results, one run each (the parent of nightly \
                 runs?): name the run to use, e.g. the last by name, {} (`bench-report \
                 history {}` reads them all)",
                runs.len(),
                last.display(),
                dir.display()
            ),
        };
        ReadError::EmptyDir {
            path: dir.to_path_buf(),
            hint,
        }
    }
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

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ReadError + '_ {
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

/// A reader that turns each CRLF line end into LF, so the CSV parser counts lines right.
///
/// The `csv` crate ends a record at the `\r` of a CRLF and counts the `\n` only when it
/// reads the next record, so every line after the header of a CRLF file (as a spreadsheet
/// saves it) was reported one too low. A `\r` not followed by `\n` is kept as it is.
pub(crate) struct LfLines<R> {
    inner: R,
    /// A `\r` ended the last chunk: whether it is dropped depends on the next byte.
    pending_cr: bool,
}

impl<R: std::io::BufRead> LfLines<R> {
    pub(crate) fn new(inner: R) -> LfLines<R> {
        LfLines {
            inner,
            pending_cr: false,
        }
    }
}

impl<R: std::io::BufRead> std::io::Read for LfLines<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let chunk = self.inner.fill_buf()?;
        if chunk.is_empty() {
            // End of input: a `\r` held back is the file's last byte; give it back.
            if std::mem::take(&mut self.pending_cr) {
                out[0] = b'\r';
                return Ok(1);
            }
            return Ok(0);
        }
        let mut n = 0;
        if self.pending_cr {
            self.pending_cr = false;
            if chunk[0] != b'\n' {
                out[0] = b'\r';
                n = 1;
            }
        }
        let mut used = 0;
        while used < chunk.len() && n < out.len() {
            let rest = &chunk[used..];
            let run = rest.iter().position(|&b| b == b'\r').unwrap_or(rest.len());
            let take = run.min(out.len() - n);
            out[n..n + take].copy_from_slice(&rest[..take]);
            n += take;
            used += take;
            if take < run || used == chunk.len() {
                break;
            }
            // At a `\r`: dropped before a `\n`, held back at the chunk's end, else kept.
            used += 1;
            match chunk.get(used) {
                Some(b'\n') => {}
                Some(_) => {
                    if n == out.len() {
                        used -= 1;
                        break;
                    }
                    out[n] = b'\r';
                    n += 1;
                }
                None => self.pending_cr = true,
            }
        }
        self.inner.consume(used);
        if n == 0 && self.pending_cr {
            // Only the held-back `\r` was consumed: read on so that 0 still means the end.
            return self.read(out);
        }
        Ok(n)
    }
}

/// The CSV reader of a results file: buffered, CRLF read as LF.
pub(crate) type CsvReader = csv::Reader<LfLines<BufReader<fs::File>>>;

/// Open a header-named CSV for streaming: a regular file, a non-empty header holding every
/// `required` column.
pub(crate) fn open_csv(
    path: &Path,
    required: &[&str],
) -> Result<(CsvReader, csv::StringRecord), ReadError> {
    let meta = fs::metadata(path).map_err(io_err(path))?;
    if !meta.is_file() {
        return Err(ReadError::Refused {
            path: path.to_path_buf(),
            detail: "not a regular file (expected a results CSV)".into(),
        });
    }
    let file = fs::File::open(path).map_err(io_err(path))?;
    let mut rdr = csv::ReaderBuilder::new()
        .from_reader(LfLines::new(BufReader::with_capacity(1 << 16, file)));
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
    Ok((rdr, headers))
}

/// Stream a header-named CSV one row at a time: check the required columns, then hand each
/// row (with its 1-based line) to `each`. Returns the header and the number of rows.
fn for_each_row(
    path: &Path,
    required: &[&str],
    mut each: impl FnMut(&csv::StringRecord, &csv::StringRecord, u64) -> Result<(), ReadError>,
) -> Result<(csv::StringRecord, u64), ReadError> {
    let (mut rdr, headers) = open_csv(path, required)?;
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
pub(crate) fn record_of(
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

/// A results CSV read one row at a time, for callers that pull rows (a k-way merge, a join)
/// instead of being pushed them: the same checks as [`read_results`], one row in memory.
pub struct ResultsReader {
    path: PathBuf,
    rdr: CsvReader,
    headers: csv::StringRecord,
    columns: Columns,
    rec: csv::StringRecord,
    rows: u64,
}

impl ResultsReader {
    /// Open a results file and check its header.
    pub fn open(path: &Path) -> Result<ResultsReader, ReadError> {
        let required: Vec<&str> = Columns::default().header();
        let (rdr, headers) = open_csv(path, &required)?;
        Ok(ResultsReader {
            path: path.to_path_buf(),
            columns: Columns::of_header(headers.iter()),
            rdr,
            headers,
            rec: csv::StringRecord::new(),
            rows: 0,
        })
    }

    /// The file read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Optional columns present in the header.
    pub fn columns(&self) -> Columns {
        self.columns
    }

    /// The next row and its 1-based line, `None` at the end. A file that ends without any row
    /// is an error ([`ReadError::NoRows`]), as for [`read_results`].
    pub fn next_row(&mut self) -> Result<Option<(Record, u64)>, ReadError> {
        let more = self
            .rdr
            .read_record(&mut self.rec)
            .map_err(|e| csv_err(&self.path, e))?;
        if !more {
            if self.rows == 0 {
                return Err(ReadError::NoRows {
                    path: self.path.clone(),
                });
            }
            return Ok(None);
        }
        self.rows += 1;
        let line = self.rec.position().map(|p| p.line()).unwrap_or(0);
        record_of(&self.path, &self.headers, &self.rec, line).map(|r| Some((r, line)))
    }
}

impl Iterator for ResultsReader {
    type Item = Result<(Record, u64), ReadError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_row().transpose()
    }
}

/// The order of [`crate::results::JobKey`] (dataset, puzzle, strategy, rules, params, seed,
/// colony), compared in place: sorting millions of rows must not clone a key per comparison.
pub fn key_cmp(a: &Record, b: &Record) -> Ordering {
    a.job_key().cmp(&b.job_key())
}

/// The entries of a directory, sorted by path: the one walker of the inputs (the input
/// layer's file expansion and `history`'s run discovery), so both see a directory alike.
/// Entries that vanish or cannot be read while listing are left out.
pub fn dir_entries(dir: &Path) -> Result<Vec<PathBuf>, ReadError> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io_err(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    v.sort();
    Ok(v)
}

/// Read the sidecar of a results file. `Ok(None)` when there is none (meta is optional);
/// an error when it exists but is not a JSON object of the expected shape.
/// A meta that names the other results file of its name (`X.csv` and `X` share
/// `X.meta.json`) is refused: it describes that file's run, not this one's. A meta naming
/// some unrelated file is accepted: the pair was renamed together (`a.csv` and
/// `a.meta.json` moved to `b.csv` and `b.meta.json`).
pub fn read_meta(results: &Path) -> Result<Option<RunMeta>, ReadError> {
    let path = meta_path(results);
    let meta = match read_meta_file(&path) {
        Err(ReadError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None)
        }
        other => other?,
    };
    let dir = results.parent().unwrap_or(Path::new(""));
    let sibling = |name: &String| super::meta::sharing_meta(results).contains(&dir.join(name));
    match &meta.results_file {
        Some(theirs) if sibling(theirs) => Err(ReadError::Refused {
            path: results.to_path_buf(),
            detail: format!(
                "its meta file {} describes another results file, {theirs} (X.csv and X share X.meta.json)",
                path.display()
            ),
        }),
        _ => Ok(Some(meta)),
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

    /// Everything `LfLines` yields, read `step` bytes at a time from chunks of `cap` bytes.
    fn through_lf_lines(input: &[u8], cap: usize, step: usize) -> Vec<u8> {
        use std::io::Read;
        let mut r = LfLines::new(BufReader::with_capacity(cap, input));
        let mut out = Vec::new();
        let mut buf = vec![0u8; step];
        loop {
            let n = r.read(&mut buf).expect("in-memory read");
            if n == 0 {
                return out;
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    #[test]
    fn lf_lines_drops_only_the_cr_of_a_crlf_whatever_the_chunking() {
        let input = b"a,b\r\n1,\"x\ry\"\r\n\r2,3\r\r\n4\r";
        let want = b"a,b\n1,\"x\ry\"\n\r2,3\r\n4\r".to_vec();
        for cap in 1..=input.len() + 1 {
            for step in 1..=4 {
                assert_eq!(
                    through_lf_lines(input, cap, step),
                    want,
                    "chunks of {cap}, reads of {step}"
                );
            }
        }
    }

    #[test]
    fn a_crlf_file_names_the_right_line() {
        let d = tmpdir("crlf");
        let mut rows: Vec<Record> = (0..5).map(row).collect();
        rows[3].counters.nodes = Some(1);
        let text = String::from_utf8(results_csv(&rows, Columns::default())).expect("utf8");
        // Row 3 is on line 5 (header on line 1); break its nodes cell.
        let broken: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i == 4 {
                    l.replacen(",1,", ",x,", 1)
                } else {
                    l.to_string()
                }
            })
            .collect();
        for (name, eol) in [("lf.csv", "\n"), ("crlf.csv", "\r\n")] {
            let p = d.join(name);
            fs::write(&p, broken.join(eol) + eol).expect("write");
            let err = read_results(&p).expect_err("a bad cell");
            assert!(
                err.to_string()
                    .contains(&format!("{name}:5: bad value \"x\"")),
                "{err}"
            );
        }
        // And a clean CRLF file reads back the same rows as the LF one.
        let p = d.join("clean.csv");
        fs::write(&p, text.replace('\n', "\r\n")).expect("write");
        assert_eq!(read_results(&p).expect("reads").rows, rows);
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
