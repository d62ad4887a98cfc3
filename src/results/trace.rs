//! The ABC trace file (`bench-run --trace FILE`): per job, the best conflict count of the job's
//! colony after initialisation (cycle 0) and after each cycle.
//!
//! The format is a CSV kept small, because an ABC run does hundreds of thousands of cycles a
//! second and a row per cycle repeating the job's parameters wrote 193 MB in four seconds:
//!
//! ```text
//! job,cycle,best_conflicts,dataset,puzzle_id,strategy,params,seed,colony
//! 0,0,33,sudoku-demo,demo:1,abc,colony_size=100;limit=50,1,0
//! 0,1,32
//! 0,7,30
//! 0,118,0
//! 1,0,35,sudoku-demo,demo:1,abc,colony_size=100;limit=50,2,0
//! ```
//!
//! - A job's first row (cycle 0) names the run: dataset, puzzle, strategy, parameters, seed
//!   and colony. Its later rows hold only `job,cycle,best_conflicts`.
//! - Only cycles where the best count changed are written, plus the job's last cycle, so the
//!   count at any cycle is that of the last row at or before it and the last row says how
//!   long the run went on.
//! - A job's rows are consecutive and their cycles increase.
//!
//! The first format (`dataset,puzzle_id,strategy,params,seed,colony,cycle,best_conflicts`, one
//! row per cycle) is refused with a message saying to rerun the trace.

use super::read::ReadError;
use super::record::Record;
use super::write::csv_line;
use std::io::Write;
use std::path::Path;

/// Columns of a trace file's header, in order. Rows after a job's first hold only the first
/// three.
pub const TRACE_COLUMNS: [&str; 9] = [
    "job",
    "cycle",
    "best_conflicts",
    "dataset",
    "puzzle_id",
    "strategy",
    "params",
    "seed",
    "colony",
];

/// Fields of a cycle row that is not a job's first.
const SHORT_ROW: usize = 3;

/// One job's trace as read back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceRun {
    /// Plan index of the job (the results' `job` column).
    pub job: u64,
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
    /// `(cycle, best conflicts)` where the count changed, from cycle 0, and at the last cycle;
    /// cycles increase.
    pub points: Vec<(u64, u64)>,
}

/// Write one job's trace: `best[c]` is the best conflict count after cycle `c` (0 = after
/// initialisation). Nothing is written for an empty trace.
pub fn write_job<W: Write>(w: &mut W, r: &Record, best: &[u32]) -> std::io::Result<()> {
    let Some((&first, rest)) = best.split_first() else {
        return Ok(());
    };
    w.write_all(&csv_line([
        r.job.to_string().as_str(),
        "0",
        &first.to_string(),
        &r.dataset,
        &r.puzzle_id,
        &r.strategy,
        r.params.as_str(),
        &r.seed.to_string(),
        &r.colony.to_string(),
    ])?)?;
    let last = rest.len();
    let mut prev = first;
    for (i, &b) in rest.iter().enumerate() {
        let cycle = i + 1;
        if b != prev || cycle == last {
            // Integers only: no CSV quoting can be needed.
            writeln!(w, "{},{cycle},{b}", r.job)?;
        }
        prev = b;
    }
    Ok(())
}

fn bad(path: &Path, line: u64, detail: String) -> ReadError {
    ReadError::Malformed {
        path: path.to_path_buf(),
        line,
        detail,
    }
}

fn int<T: std::str::FromStr>(
    path: &Path,
    line: u64,
    column: &str,
    value: &str,
) -> Result<T, ReadError> {
    value.parse().map_err(|_| ReadError::BadValue {
        path: path.to_path_buf(),
        line,
        column: column.to_string(),
        value: value.to_string(),
        expected: "an unsigned integer".into(),
    })
}

/// Append the rows of trace file `path` (a run's, written by this version) to `out` with every
/// job number moved up by `shift`, and the header too when `header` is true. A run over
/// several datasets puts its parts' traces together this way, as it does their rows.
pub fn append_shifted<W: Write>(
    path: &Path,
    shift: u64,
    header: bool,
    out: &mut W,
) -> Result<(), ReadError> {
    use std::io::BufRead as _;
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut lines = std::io::BufReader::with_capacity(1 << 16, file).lines();
    let first = lines.next().transpose().map_err(io)?.unwrap_or_default();
    if first.split(',').ne(TRACE_COLUMNS) {
        return Err(bad(
            path,
            1,
            format!("not a trace header: expected {}", TRACE_COLUMNS.join(",")),
        ));
    }
    if header {
        writeln!(out, "{first}").map_err(io)?;
    }
    for (i, line) in lines.enumerate() {
        let line = line.map_err(io)?;
        // The job number is the first field and never quoted; the rest is copied as written.
        let (job, rest) = line.split_once(',').unwrap_or((&line, ""));
        let n = i as u64 + 2;
        let job: u64 = int(path, n, "job", job)?;
        writeln!(out, "{},{rest}", job + shift).map_err(io)?;
    }
    Ok(())
}

/// Read a trace file, one [`TraceRun`] per job in file order.
pub fn read_trace(path: &Path) -> Result<Vec<TraceRun>, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(false)
        .from_reader(std::io::BufReader::with_capacity(1 << 16, file));
    let mut rec = csv::StringRecord::new();
    let csv_err = |e: csv::Error| {
        let line = e.position().map_or(0, |p| p.line());
        bad(path, line, e.to_string())
    };
    if !rdr.read_record(&mut rec).map_err(csv_err)? {
        return Err(ReadError::Empty {
            path: path.to_path_buf(),
        });
    }
    if rec.get(0) == Some("dataset") && rec.iter().any(|h| h == "params") {
        return Err(ReadError::Refused {
            path: path.to_path_buf(),
            detail: "a trace in the first format (one row per cycle, parameters repeated), \
                     which this version no longer reads; rerun bench-run --trace to write \
                     the compact format"
                .into(),
        });
    }
    if !rec.iter().eq(TRACE_COLUMNS) {
        return Err(bad(
            path,
            1,
            format!(
                "not a trace header: expected {}, found {}",
                TRACE_COLUMNS.join(","),
                rec.iter().collect::<Vec<_>>().join(",")
            ),
        ));
    }
    let mut runs: Vec<TraceRun> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while rdr.read_record(&mut rec).map_err(csv_err)? {
        let line = rec.position().map_or(0, |p| p.line());
        let job: u64 = int(path, line, "job", &rec[0])?;
        if rec.len() != SHORT_ROW && rec.len() != TRACE_COLUMNS.len() {
            return Err(bad(
                path,
                line,
                format!(
                    "expected {SHORT_ROW} fields (a cycle) or {} (a job's first row), found {}",
                    TRACE_COLUMNS.len(),
                    rec.len()
                ),
            ));
        }
        let cycle: u64 = int(path, line, "cycle", &rec[1])?;
        let best: u64 = int(path, line, "best_conflicts", &rec[2])?;
        if rec.len() == TRACE_COLUMNS.len() {
            if !seen.insert(job) {
                return Err(bad(path, line, format!("job {job} starts a second time")));
            }
            runs.push(TraceRun {
                job,
                dataset: rec[3].to_string(),
                puzzle_id: rec[4].to_string(),
                strategy: rec[5].to_string(),
                params: rec[6].to_string(),
                seed: int(path, line, "seed", &rec[7])?,
                colony: int(path, line, "colony", &rec[8])?,
                points: vec![(cycle, best)],
            });
            continue;
        }
        let Some(run) = runs.last_mut().filter(|r| r.job == job) else {
            return Err(bad(
                path,
                line,
                format!("a cycle row of job {job} without that job's first row just before"),
            ));
        };
        if run.points.last().is_some_and(|p| p.0 >= cycle) {
            return Err(bad(
                path,
                line,
                format!("cycle {cycle} of job {job} does not follow the one before"),
            ));
        }
        run.points.push((cycle, best));
    }
    if runs.is_empty() {
        return Err(ReadError::NoRows {
            path: path.to_path_buf(),
        });
    }
    Ok(runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Params;

    fn record(job: u64) -> Record {
        Record {
            job,
            dataset: "d".into(),
            puzzle_id: "p,1".into(),
            strategy: "abc".into(),
            params: Params::from_cell("colony_size=100;limit=50"),
            seed: 7,
            colony: 1,
            ..Record::default()
        }
    }

    #[test]
    fn only_changes_and_the_last_cycle_are_written_and_read_back() {
        let mut buf = csv_line(TRACE_COLUMNS).expect("header");
        write_job(&mut buf, &record(3), &[9, 9, 7, 7, 7, 4, 4]).expect("write");
        write_job(&mut buf, &record(4), &[5]).expect("write");
        let text = String::from_utf8(buf.clone()).expect("utf8");
        assert_eq!(
            text,
            "job,cycle,best_conflicts,dataset,puzzle_id,strategy,params,seed,colony\n\
             3,0,9,d,\"p,1\",abc,colony_size=100;limit=50,7,1\n3,2,7\n3,5,4\n3,6,4\n\
             4,0,5,d,\"p,1\",abc,colony_size=100;limit=50,7,1\n"
        );
        let d = tempfile::tempdir().expect("tempdir");
        let p = d.path().join("t.csv");
        std::fs::write(&p, &buf).expect("write file");
        let runs = read_trace(&p).expect("read");
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].puzzle_id, "p,1");
        assert_eq!(runs[0].params, "colony_size=100;limit=50");
        assert_eq!((runs[0].seed, runs[0].colony), (7, 1));
        assert_eq!(runs[0].points, vec![(0, 9), (2, 7), (5, 4), (6, 4)]);
        assert_eq!(runs[1].points, vec![(0, 5)]);
    }

    #[test]
    fn old_format_and_orphan_rows_are_refused_with_the_reason() {
        let d = tempfile::tempdir().expect("tempdir");
        let p = d.path().join("t.csv");
        std::fs::write(
            &p,
            "dataset,puzzle_id,strategy,params,seed,colony,cycle,best_conflicts\nd,p,abc,,1,0,0,3\n",
        )
        .expect("write");
        let e = read_trace(&p).expect_err("old format").to_string();
        assert!(e.contains("first format") && e.contains("rerun"), "{e}");
        std::fs::write(
            &p,
            "job,cycle,best_conflicts,dataset,puzzle_id,strategy,params,seed,colony\n2,5,1\n",
        )
        .expect("write");
        let e = read_trace(&p).expect_err("orphan").to_string();
        assert!(e.contains(":2:") && e.contains("job 2"), "{e}");
        std::fs::write(
            &p,
            "job,cycle,best_conflicts,dataset,puzzle_id,strategy,params,seed,colony\n\
             2,0,3,d,p,abc,,1,0\n2,0,1\n",
        )
        .expect("write");
        let e = read_trace(&p).expect_err("cycle order").to_string();
        assert!(e.contains(":3:") && e.contains("does not follow"), "{e}");
    }
}
