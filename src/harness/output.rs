//! Result files. Nothing is lost and nothing partial passes for complete:
//!
//! * `FILE.partial` — the journal: every row appended the moment its job finishes, one
//!   `write` per row, so a killed run leaves whole rows (a torn last line is dropped on
//!   resume). It is what `--resume` reads.
//! * `FILE.tmp` — the same rows in plan order, written as the order allows.
//! * `FILE` — appears only when the run is complete: `FILE.tmp` is renamed to it and the
//!   journal removed. An interrupted run leaves the journal and no `FILE`.
//!
//! The trace file (`--trace`) follows the same temporary-then-rename rule.

use super::record::{Columns, Record};
use super::run::{JobResult, Sink};
use crate::report::io::{read_results, ReadError};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Header of the `--trace` long CSV.
pub const TRACE_HEADER: [&str; 8] = [
    "dataset",
    "puzzle_id",
    "strategy",
    "params",
    "seed",
    "colony",
    "cycle",
    "best_conflicts",
];

/// `path` with a suffix appended to its file name.
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The journal of a result file.
pub fn journal_path(path: &Path) -> PathBuf {
    with_suffix(path, ".partial")
}

/// One CSV line (with its newline) for the given cells.
fn csv_line<I, S>(cells: I) -> std::io::Result<Vec<u8>>
where
    I: IntoIterator<Item = S>,
    S: AsRef<[u8]>,
{
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(cells).map_err(std::io::Error::other)?;
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// Writes a run's result files (see the module docs).
pub struct ResultWriter {
    path: PathBuf,
    columns: Columns,
    journal: File,
    ordered: BufWriter<File>,
    /// Rows from an earlier interrupted run, by job index, merged in plan order.
    resumed: BTreeMap<u64, Record>,
    trace: Option<(PathBuf, BufWriter<File>)>,
}

impl ResultWriter {
    /// Start the files for `path`. With `resumed` rows (from [`ResultWriter::resume_rows`]),
    /// the journal is kept and appended to; otherwise it is created afresh.
    pub fn create(
        path: &Path,
        columns: Columns,
        resumed: BTreeMap<u64, Record>,
        trace: Option<&Path>,
    ) -> std::io::Result<ResultWriter> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let jpath = journal_path(path);
        let journal = if resumed.is_empty() {
            let mut f = File::create(&jpath)?;
            f.write_all(&csv_line(columns.header())?)?;
            f
        } else {
            OpenOptions::new().append(true).open(&jpath)?
        };
        let mut ordered = BufWriter::new(File::create(with_suffix(path, ".tmp"))?);
        ordered.write_all(&csv_line(columns.header())?)?;
        let trace = match trace {
            Some(t) => {
                let mut w = BufWriter::new(File::create(with_suffix(t, ".tmp"))?);
                w.write_all(&csv_line(TRACE_HEADER)?)?;
                Some((t.to_path_buf(), w))
            }
            None => None,
        };
        Ok(ResultWriter {
            path: path.to_path_buf(),
            columns,
            journal,
            ordered,
            resumed,
            trace,
        })
    }

    /// The rows an interrupted run left in `path`'s journal, by job index. A torn last line
    /// (the process died mid-write) is cut off the journal first.
    pub fn resume_rows(path: &Path) -> Result<BTreeMap<u64, Record>, String> {
        let jpath = journal_path(path);
        let io = |e: std::io::Error| format!("{}: {e}", jpath.display());
        let mut f = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&jpath)
            .map_err(io)?;
        let mut bytes = Vec::new();
        f.read_to_end(&mut bytes).map_err(io)?;
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if keep < bytes.len() {
            f.set_len(keep as u64).map_err(io)?;
        }
        let rows = match read_results(&jpath) {
            Ok(file) => file.rows,
            // Interrupted before the first row finished: nothing to keep.
            Err(ReadError::NoRows { .. }) => Vec::new(),
            Err(e) => return Err(e.to_string()),
        };
        let mut map = BTreeMap::new();
        for r in rows {
            let job = r.job;
            if map.insert(job, r).is_some() {
                return Err(format!(
                    "{}: holds job {job} twice; it was not written by one run",
                    jpath.display()
                ));
            }
        }
        Ok(map)
    }

    fn write_ordered(&mut self, r: &Record) -> std::io::Result<()> {
        let line = csv_line(r.fields(self.columns))?;
        self.ordered.write_all(&line)
    }

    /// Finish: write the remaining resumed rows, then rename the temporary files into place
    /// and remove the journal.
    pub fn finish(mut self) -> std::io::Result<PathBuf> {
        for r in std::mem::take(&mut self.resumed).into_values() {
            self.write_ordered(&r)?;
        }
        self.ordered.flush()?;
        self.ordered.get_ref().sync_all()?;
        std::fs::rename(with_suffix(&self.path, ".tmp"), &self.path)?;
        if let Some((t, mut w)) = self.trace.take() {
            w.flush()?;
            std::fs::rename(with_suffix(&t, ".tmp"), &t)?;
        }
        std::fs::remove_file(journal_path(&self.path))?;
        Ok(self.path)
    }

    /// Abandon after an interrupt: the journal stays for `--resume`; temporary files go.
    pub fn abandon(self) -> std::io::Result<()> {
        let ResultWriter {
            path,
            journal,
            ordered,
            trace,
            ..
        } = self;
        journal.sync_all()?;
        drop(ordered);
        std::fs::remove_file(with_suffix(&path, ".tmp"))?;
        if let Some((t, w)) = trace {
            drop(w);
            std::fs::remove_file(with_suffix(&t, ".tmp"))?;
        }
        Ok(())
    }
}

impl Sink for ResultWriter {
    fn finished(&mut self, result: &JobResult) -> std::io::Result<()> {
        // One write per row: a process killed between writes leaves only whole rows.
        let line = csv_line(result.record.fields(self.columns))?;
        self.journal.write_all(&line)
    }

    fn in_order(&mut self, result: JobResult) -> std::io::Result<()> {
        let job = result.record.job;
        while let Some(entry) = self.resumed.first_entry() {
            if *entry.key() > job {
                break;
            }
            let r = entry.remove();
            self.write_ordered(&r)?;
        }
        self.write_ordered(&result.record)?;
        if let (Some((_, w)), Some(trace)) = (self.trace.as_mut(), &result.trace) {
            let r = &result.record;
            for (cycle, bc) in trace.iter().enumerate() {
                let line = csv_line([
                    r.dataset.as_str(),
                    r.puzzle_id.as_str(),
                    r.strategy.as_str(),
                    r.params.as_str(),
                    &r.seed.to_string(),
                    &r.colony.to_string(),
                    &cycle.to_string(),
                    &bc.to_string(),
                ])?;
                w.write_all(&line)?;
            }
        }
        Ok(())
    }
}
