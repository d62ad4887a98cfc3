//! Result files. Nothing is lost and nothing partial passes for complete:
//!
//! * `FILE.partial` — the journal: rows appended as workers hand them over, one `write` per
//!   batch of whole rows (see `run` for when a batch is handed over), so a killed run leaves
//!   whole rows (a torn last line is dropped on resume). It is what `--resume` reads.
//! * `FILE.tmp` — the same rows in plan order. When jobs run in plan order (one strategy per
//!   puzzle kind, not resumed) it is written as the order allows; otherwise (strategies taking
//!   turns, see `plan`; a resumed run) the journal is sorted into it at the end, in passes
//!   over bounded slices of the job range, so no run holds all its rows in memory.
//! * `FILE` — appears only when the run is complete: `FILE.tmp` is renamed to it and the
//!   journal removed. An interrupted run leaves the journal and no `FILE`.
//!
//! The trace file (`--trace`) follows the same temporary-then-rename rule.

use super::run::{Batch, Sink};
use crate::results::read::ResultsReader;
use crate::results::trace::TRACE_COLUMNS;
use crate::results::write::{csv_line, open_target, OpenMode};
use crate::results::{Columns, ReadError, Shard, Status};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Rows held in memory per pass when a resumed run sorts its journal.
const SORT_CHUNK_ROWS: u64 = 1 << 17;

/// How much of the plan-ordered file is written between two starts of its writeback. Small,
/// since the starts cost the workers nothing (they run on a thread of their own, see
/// [`Writeback`]) and the final `fsync` waits for at most about this much.
const WRITEBACK_BYTES: u64 = 1 << 20;

/// Which jobs of a plan already have a row, as disjoint ranges of job numbers: memory grows
/// with the number of gaps between finished jobs (a run's journal is nearly in job order, so a
/// few hundred ranges at most), never with the size of the plan.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct JobSet {
    /// Start -> end (exclusive) of each range; ranges never touch or overlap.
    ranges: std::collections::BTreeMap<u64, u64>,
    /// Jobs `0..cap` can be members.
    cap: u64,
    len: u64,
}

impl JobSet {
    /// An empty set for jobs `0..jobs`.
    pub fn new(jobs: u64) -> JobSet {
        JobSet {
            ranges: std::collections::BTreeMap::new(),
            cap: jobs,
            len: 0,
        }
    }

    /// Whether job `j` is in the set.
    pub fn contains(&self, j: u64) -> bool {
        self.ranges
            .range(..=j)
            .next_back()
            .is_some_and(|(_, &end)| j < end)
    }

    /// Add job `j` (which must be below the size given to [`JobSet::new`]); false if it was
    /// already there or is out of range.
    pub fn insert(&mut self, j: u64) -> bool {
        if j >= self.cap || self.contains(j) {
            return false;
        }
        let before = self
            .ranges
            .range(..j)
            .next_back()
            .filter(|(_, &end)| end == j)
            .map(|(&start, _)| start);
        let after = self.ranges.get(&(j + 1)).copied();
        match (before, after) {
            (Some(start), Some(end)) => {
                self.ranges.remove(&(j + 1));
                self.ranges.insert(start, end);
            }
            (Some(start), None) => {
                self.ranges.insert(start, j + 1);
            }
            (None, Some(end)) => {
                self.ranges.remove(&(j + 1));
                self.ranges.insert(j, end);
            }
            (None, None) => {
                self.ranges.insert(j, j + 1);
            }
        }
        self.len += 1;
        true
    }

    /// Number of jobs in the set.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Number of ranges held (the set's memory).
    #[cfg(test)]
    fn ranges(&self) -> usize {
        self.ranges.len()
    }
}

/// What an interrupted run left: which jobs have rows, and how they ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Resumed {
    /// Jobs with a row.
    pub done: JobSet,
    /// Rows per status.
    pub counts: BTreeMap<Status, u64>,
}

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

/// Writes a run's result files (see the module docs).
pub(crate) struct ResultWriter {
    path: PathBuf,
    columns: Columns,
    journal: File,
    /// The plan-ordered file; `None` when resuming (it is sorted from the journal at the end).
    ordered: Option<BufWriter<File>>,
    /// Row bytes appended to the ordered file, and how many of them had been when its
    /// writeback was last started.
    ordered_bytes: (u64, u64),
    /// Bytes between two starts of that writeback ([`WRITEBACK_BYTES`]).
    writeback_every: u64,
    /// The thread that starts it; `None` when resuming, or once stopped.
    writeback: Option<Writeback>,
    /// For the final sort of the journal: the plan's size and the shard.
    sort: Option<(u64, Shard)>,
    /// Rows per pass of that sort.
    sort_chunk: u64,
    trace: Option<(PathBuf, BufWriter<File>)>,
}

/// Cut a torn last line (the process died mid-write) off a journal. Reads only the tail.
fn cut_torn_line(f: &mut File) -> std::io::Result<()> {
    let len = f.seek(SeekFrom::End(0))?;
    let mut end = len;
    let mut buf = vec![0u8; 1 << 16];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..(end - start) as usize];
        f.seek(SeekFrom::Start(start))?;
        f.read_exact(chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            let keep = start + i as u64 + 1;
            if keep < len {
                f.set_len(keep)?;
            }
            return Ok(());
        }
        end = start;
    }
    f.set_len(0)
}

impl ResultWriter {
    /// Start the files for `path`. `resume` keeps the journal of an interrupted run and
    /// appends to it; otherwise the journal is created afresh. `sort` (the plan's size and the
    /// shard) sorts the journal into plan order at the end instead of writing rows in the
    /// order they are delivered (jobs that do not run in plan order; every resumed run).
    pub fn create(
        path: &Path,
        columns: Columns,
        resume: bool,
        sort: Option<(u64, Shard)>,
        trace: Option<&Path>,
    ) -> std::io::Result<ResultWriter> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let jpath = journal_path(path);
        let mode = if !resume {
            OpenMode::Truncate
        } else {
            OpenMode::Append
        };
        let mut journal = open_target("journal", &jpath, mode).map_err(std::io::Error::other)?;
        if !resume || journal.metadata()?.len() == 0 {
            journal.write_all(&csv_line(columns.header())?)?;
        }
        let (ordered, writeback) = match sort {
            Some(_) => (None, None),
            None => {
                let tmp = with_suffix(path, ".tmp");
                let f = open_target("output's temporary file", &tmp, OpenMode::Truncate)
                    .map_err(std::io::Error::other)?;
                let writeback = Writeback::spawn(f.try_clone()?)?;
                let mut w = BufWriter::new(f);
                w.write_all(&csv_line(columns.header())?)?;
                (Some(w), Some(writeback))
            }
        };
        let trace = match trace {
            Some(t) => {
                let tmp = with_suffix(t, ".tmp");
                let f = open_target("trace's temporary file", &tmp, OpenMode::Truncate)
                    .map_err(std::io::Error::other)?;
                let mut w = BufWriter::new(f);
                w.write_all(&csv_line(TRACE_COLUMNS)?)?;
                Some((t.to_path_buf(), w))
            }
            None => None,
        };
        Ok(ResultWriter {
            path: path.to_path_buf(),
            columns,
            journal,
            ordered,
            ordered_bytes: (0, 0),
            writeback_every: WRITEBACK_BYTES,
            writeback,
            sort,
            sort_chunk: SORT_CHUNK_ROWS,
            trace,
        })
    }

    /// The columns rows are written with.
    pub fn columns(&self) -> Columns {
        self.columns
    }

    /// Read what an interrupted run left in `path`'s journal, one row at a time: which jobs
    /// have rows and how they ended. A torn last line (the process died mid-write) is cut off
    /// the journal first. Every row must be a job of this plan (`plan_len` jobs) and shard
    /// (`in_shard`),
    /// appear once, and say of itself what the plan says of that job (`identity`: its
    /// puzzle, strategy, seed and colony): a row kept on trust would be published as that
    /// job's result. A refusal names the journal's line.
    pub fn resume_scan(
        path: &Path,
        plan_len: u64,
        in_shard: &dyn Fn(u64) -> bool,
        identity: &dyn Fn(&crate::results::Record) -> Result<(), String>,
    ) -> Result<Resumed, String> {
        let jpath = journal_path(path);
        let mut f =
            open_target("journal", &jpath, OpenMode::ReadWrite).map_err(|e| e.to_string())?;
        cut_torn_line(&mut f).map_err(|e| format!("{}: {e}", jpath.display()))?;
        drop(f);
        let mut resumed = Resumed {
            done: JobSet::new(plan_len),
            counts: BTreeMap::new(),
        };
        let mut rows = match ResultsReader::open(&jpath) {
            Ok(r) => r,
            // Interrupted before the header was written: nothing to keep.
            Err(ReadError::Empty { .. }) => return Ok(resumed),
            Err(e) => return Err(e.to_string()),
        };
        loop {
            let (r, line) = match rows.next_row() {
                Ok(Some(row)) => row,
                Ok(None) => return Ok(resumed),
                // Interrupted before the first row finished: nothing to keep.
                Err(ReadError::NoRows { .. }) => return Ok(resumed),
                Err(e) => return Err(e.to_string()),
            };
            let job = r.job;
            let refuse = |detail: String| format!("{}:{line}: {detail}", jpath.display());
            if job >= plan_len || !in_shard(job) {
                return Err(refuse(format!(
                    "holds job {job}, which is not in this plan (cannot resume)"
                )));
            }
            identity(&r).map_err(|d| refuse(format!("job {job}: {d} (cannot resume)")))?;
            if !resumed.done.insert(job) {
                return Err(refuse(format!(
                    "holds job {job} twice; it was not written by one run"
                )));
            }
            if let Some(s) = r.status {
                *resumed.counts.entry(s).or_default() += 1;
            }
        }
    }

    /// Sort the journal by job into `FILE.tmp`: one pass per slice of the job range, each
    /// holding at most about `sort_chunk` ([`SORT_CHUNK_ROWS`]) rows.
    fn sort_journal(&self, plan_len: u64, shard: Shard) -> std::io::Result<()> {
        let jpath = journal_path(&self.path);
        let tmp = with_suffix(&self.path, ".tmp");
        let f = open_target("output's temporary file", &tmp, OpenMode::Truncate)
            .map_err(std::io::Error::other)?;
        let mut out = BufWriter::new(f);
        out.write_all(&csv_line(self.columns.header())?)?;
        let width = self
            .sort_chunk
            .max(1)
            .saturating_mul(u64::from(shard.count));
        let mut wtr = csv::Writer::from_writer(&mut out);
        // Passes jump over job ranges with no rows, so their number follows the rows kept,
        // not the size of the plan.
        let mut lo = 0u64;
        while lo < plan_len {
            let hi = lo.saturating_add(width);
            let mut next: Option<u64> = None;
            let mut rdr = csv::Reader::from_path(&jpath).map_err(std::io::Error::other)?;
            let job_col = rdr
                .byte_headers()
                .map_err(std::io::Error::other)?
                .iter()
                .position(|h| h == b"job")
                .ok_or_else(|| std::io::Error::other("journal has no job column"))?;
            let mut slice: Vec<(u64, csv::ByteRecord)> = Vec::new();
            for rec in rdr.byte_records() {
                let rec = rec.map_err(std::io::Error::other)?;
                let job = rec
                    .get(job_col)
                    .and_then(|b| std::str::from_utf8(b).ok())
                    .and_then(|t| t.parse::<u64>().ok())
                    .ok_or_else(|| std::io::Error::other("journal row without a job number"))?;
                if (lo..hi).contains(&job) {
                    slice.push((job, rec));
                } else if job >= hi {
                    next = Some(next.map_or(job, |n| n.min(job)));
                }
            }
            slice.sort_unstable_by_key(|(j, _)| *j);
            for (_, rec) in &slice {
                wtr.write_byte_record(rec).map_err(std::io::Error::other)?;
            }
            match next {
                Some(n) => lo = n,
                None => break,
            }
        }
        wtr.flush()?;
        drop(wtr);
        out.flush()?;
        out.get_ref().sync_all()
    }

    /// Finish: complete `FILE.tmp` (a resumed run sorts its journal into it), then rename the
    /// temporary files into place and remove the journal.
    ///
    /// The journal is not synced: it is removed once `FILE` is in place, and until then it
    /// is as durable as it was all through the run (never synced; a kill leaves it whole in
    /// the page cache, and `--resume` copes with a torn tail). Syncing it only made the run
    /// wait, at its very end and on one thread, for a disk write of rows about to be deleted.
    pub fn finish(mut self) -> std::io::Result<PathBuf> {
        self.stop_writeback();
        match (self.ordered.take(), self.sort) {
            (Some(mut w), _) => {
                w.flush()?;
                w.get_ref().sync_all()?;
            }
            (None, Some((plan_len, shard))) => self.sort_journal(plan_len, shard)?,
            (None, None) => {}
        }
        std::fs::rename(with_suffix(&self.path, ".tmp"), &self.path)?;
        if let Some((t, mut w)) = self.trace.take() {
            w.flush()?;
            std::fs::rename(with_suffix(&t, ".tmp"), &t)?;
        }
        std::fs::remove_file(journal_path(&self.path))?;
        Ok(self.path)
    }

    /// Abandon after an interrupt: the journal stays for `--resume`; temporary files go.
    pub fn abandon(mut self) -> std::io::Result<()> {
        self.stop_writeback();
        let ResultWriter {
            path,
            journal,
            ordered,
            trace,
            ..
        } = self;
        journal.sync_all()?;
        if let Some(w) = ordered {
            drop(w);
            std::fs::remove_file(with_suffix(&path, ".tmp"))?;
        }
        if let Some((t, w)) = trace {
            drop(w);
            std::fs::remove_file(with_suffix(&t, ".tmp"))?;
        }
        Ok(())
    }
}

/// The thread that starts the plan-ordered file's writeback, so that no worker waits for it: the
/// call queues the disk writes and can block while the device's queue is full (for milliseconds,
/// with the other worker stuck behind the delivering one; see docs/performance.md). The delivering
/// worker only sends it an offset. It writes no rows: what a SIGKILL can lose is unchanged
/// (docs/promises.md).
struct Writeback {
    /// Offsets to start the writeback from; closed to stop the thread.
    to: std::sync::mpsc::Sender<u64>,
    /// Returns how many writebacks it started.
    thread: std::thread::JoinHandle<u64>,
    /// How many were asked of it.
    asked: u64,
}

impl Writeback {
    /// Starts the thread for `file` (a handle of its own on the plan-ordered file).
    fn spawn(file: File) -> std::io::Result<Writeback> {
        let (to, from) = std::sync::mpsc::channel::<u64>();
        let thread = std::thread::Builder::new()
            .name("writeback".into())
            .spawn(move || {
                let mut started = 0;
                for offset in from {
                    start_writeback(&file, offset);
                    started += 1;
                }
                started
            })?;
        Ok(Writeback {
            to,
            thread,
            asked: 0,
        })
    }
}

impl ResultWriter {
    /// Ends the writeback thread once it has started every writeback asked of it; returns
    /// how many it started (0 when there is no thread).
    fn stop_writeback(&mut self) -> u64 {
        let Some(Writeback { to, thread, .. }) = self.writeback.take() else {
            return 0;
        };
        drop(to);
        // The thread only makes one system call, whose error it ignores: it cannot panic.
        thread.join().unwrap_or(0)
    }
}

/// Start writing `file`'s dirty pages from `offset` to its end to disk, without waiting for
/// them (Linux `sync_file_range(SYNC_FILE_RANGE_WRITE)`, what RocksDB's `bytes_per_sync`
/// does). Asked of the [`Writeback`] thread every [`WRITEBACK_BYTES`] of the plan-ordered
/// file, so the disk writes run beside the solves and the `fsync` in [`ResultWriter::finish`]
/// waits for the last MiB or so only, not for the whole file, at the end of a run when the
/// other threads have stopped. Only a hint: durability still rests
/// on that `fsync`, and an error here (a filesystem without the call) changes nothing, so it
/// is ignored.
fn start_writeback(file: &File, offset: u64) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let offset = libc::off64_t::try_from(offset).unwrap_or(0);
        // SAFETY: the descriptor is open for as long as `file` is borrowed; the call only
        // queues writes of the page cache and touches no memory of ours.
        unsafe {
            libc::sync_file_range(file.as_raw_fd(), offset, 0, libc::SYNC_FILE_RANGE_WRITE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, offset);
}

/// A write error with the file it happened to, so a full disk names the file.
fn on(path: &Path) -> impl FnOnce(std::io::Error) -> std::io::Error + '_ {
    move |e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Test-only fault injection: the journal of a given output fails with ENOSPC (a full disk)
/// after a number of batches, as a real device would, without filling one.
#[cfg(test)]
pub(crate) mod fault {
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    static JOURNAL_FULL_AFTER: Mutex<Vec<(PathBuf, u64)>> = Mutex::new(Vec::new());

    /// The journal of `output` accepts `batches` more batches, then reports a full disk once.
    pub(crate) fn fill_disk_after(output: &Path, batches: u64) {
        if let Ok(mut v) = JOURNAL_FULL_AFTER.lock() {
            v.push((output.to_path_buf(), batches));
        }
    }

    /// Whether this batch write to `output`'s journal fails.
    pub(super) fn disk_full(output: &Path) -> bool {
        let Ok(mut v) = JOURNAL_FULL_AFTER.lock() else {
            return false;
        };
        let Some(i) = v.iter().position(|(p, _)| p == output) else {
            return false;
        };
        // Fires once: after it, space is "freed" and writes succeed again.
        if v[i].1 == 0 {
            v.remove(i);
            return true;
        }
        v[i].1 -= 1;
        false
    }
}

impl Sink for ResultWriter {
    fn finished(&mut self, batch: &Batch) -> std::io::Result<()> {
        #[cfg(test)]
        if fault::disk_full(&self.path) {
            let e = std::io::Error::from_raw_os_error(libc::ENOSPC);
            return Err(on(&journal_path(&self.path))(e));
        }
        // One write per batch of whole rows: a process killed between writes leaves only
        // whole rows, and one killed inside a write at worst a torn last line, which
        // `resume_scan` cuts off.
        // The path is built only on error: this runs once per batch.
        self.journal
            .write_all(&batch.rows)
            .map_err(|e| on(&journal_path(&self.path))(e))
    }

    fn in_order(&mut self, batch: &Batch) -> std::io::Result<()> {
        if let Some(w) = self.ordered.as_mut() {
            let tmp = |e| on(&with_suffix(&self.path, ".tmp"))(e);
            w.write_all(&batch.rows).map_err(tmp)?;
            let (written, started) = &mut self.ordered_bytes;
            *written += batch.rows.len() as u64;
            if *written - *started >= self.writeback_every {
                // The rows still in the buffer go to the kernel first. The range starts where
                // the last one did, a header's length early (clean pages are skipped).
                w.flush().map_err(tmp)?;
                if let Some(wb) = self.writeback.as_mut() {
                    // The thread ends only in `stop_writeback`, which takes it first.
                    let _ = wb.to.send(*started);
                    wb.asked += 1;
                }
                *started = *written;
            }
        }
        if let Some((t, w)) = self.trace.as_mut() {
            w.write_all(&batch.trace).map_err(on(t))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::read::read_results;
    use crate::results::Record;

    /// A batch holding one solved row for `job`.
    fn result(job: u64, message: &str) -> Batch {
        let record = Record {
            dataset: "d".into(),
            puzzle_id: format!("p:{job}"),
            kind: crate::kind::PuzzleKind::Sudoku,
            size: "9x9".into(),
            strategy: "backtrack".into(),
            job,
            status: Some(Status::Solved),
            message: message.into(),
            ..Record::default()
        };
        let mut b = Batch::default();
        record.write_csv(Columns::default(), &mut b.rows);
        b.counts[0] = 1;
        b
    }

    #[test]
    fn a_resumed_run_sorts_its_journal_in_bounded_passes() {
        let d = tempfile::tempdir().expect("tempdir");
        let out = d.path().join("r.csv");
        let shard = Shard { index: 2, count: 3 };
        let plan_len = 40;
        // First run: some jobs of shard 2/3 (j % 3 == 1), finished out of order, then stopped.
        let mut w =
            ResultWriter::create(&out, Columns::default(), false, None, None).expect("create");
        for j in [4, 1, 13, 7] {
            w.finished(&result(j, "first, run")).expect("row");
        }
        w.abandon().expect("abandon");
        // A torn last line, as a killed process leaves.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(journal_path(&out))
            .expect("open");
        f.write_all(b"d,p:10,sudoku,9x").expect("torn");
        drop(f);
        let resumed =
            ResultWriter::resume_scan(&out, plan_len, &|j| shard.contains(j), &|_| Ok(()))
                .expect("scan");
        assert_eq!(resumed.done.len(), 4);
        assert!(resumed.done.contains(13) && !resumed.done.contains(10));
        assert_eq!(resumed.counts.get(&Status::Solved), Some(&4));
        // Second run: the rest, with a message holding a newline; sorted 2 rows per pass.
        let mut w = ResultWriter::create(
            &out,
            Columns::default(),
            true,
            Some((plan_len, shard)),
            None,
        )
        .expect("resume");
        w.sort_chunk = 2;
        let rest: Vec<u64> = (0..plan_len)
            .filter(|j| shard.contains(*j) && !resumed.done.contains(*j))
            .rev()
            .collect();
        for &j in &rest {
            w.finished(&result(j, "second\nrun")).expect("row");
        }
        assert_eq!(w.finish().expect("finish"), out);
        let rows = read_results(&out).expect("read").rows;
        let jobs: Vec<u64> = rows.iter().map(|r| r.job).collect();
        let want: Vec<u64> = (0..plan_len).filter(|j| shard.contains(*j)).collect();
        assert_eq!(jobs, want);
        assert_eq!(rows[1].message, "first, run");
        assert_eq!(rows[3].message, "second\nrun");
        assert!(!journal_path(&out).exists());
    }

    #[test]
    fn starting_the_writeback_as_the_file_grows_keeps_every_row_in_order() {
        // Writeback started every 100 bytes (a row is about 90), flushing the buffer each
        // time: the finished file holds every row once, in order, whole.
        let d = tempfile::tempdir().expect("tempdir");
        let out = d.path().join("r.csv");
        let mut w =
            ResultWriter::create(&out, Columns::default(), false, None, None).expect("create");
        w.writeback_every = 100;
        for j in 0..50 {
            let b = result(j, "");
            w.finished(&b).expect("journal");
            w.in_order(&b).expect("ordered");
        }
        assert!(w.ordered_bytes.1 > 0, "the writeback was asked for");
        // The thread started every writeback asked of it (once stopped, there is none left
        // to stop).
        let asked = w.writeback.as_ref().map_or(0, |wb| wb.asked);
        assert!(asked >= 20, "{asked} writebacks asked for");
        assert_eq!(w.stop_writeback(), asked);
        assert_eq!(w.stop_writeback(), 0);
        w.finish().expect("finish");
        let jobs: Vec<u64> = read_results(&out)
            .expect("read")
            .rows
            .iter()
            .map(|r| r.job)
            .collect();
        assert_eq!(jobs, (0..50).collect::<Vec<_>>());
        assert!(!journal_path(&out).exists());
    }

    #[test]
    fn resume_refuses_rows_outside_the_plan_or_twice() {
        let d = tempfile::tempdir().expect("tempdir");
        let out = d.path().join("r.csv");
        let mut w =
            ResultWriter::create(&out, Columns::default(), false, None, None).expect("create");
        w.finished(&result(5, "")).expect("row");
        w.finished(&result(5, "")).expect("row");
        w.abandon().expect("abandon");
        let e = ResultWriter::resume_scan(&out, 10, &|_| true, &|_| Ok(())).expect_err("twice");
        assert!(
            e.ends_with("r.csv.partial:3: holds job 5 twice; it was not written by one run"),
            "{e}"
        );
        let e = ResultWriter::resume_scan(&out, 4, &|_| true, &|_| Ok(())).expect_err("outside");
        assert!(e.contains("holds job 5, which is not in this plan"), "{e}");
        let e = ResultWriter::resume_scan(&out, 10, &|j| j % 2 == 0, &|_| Ok(()))
            .expect_err("other shard");
        assert!(e.contains("holds job 5, which is not in this plan"), "{e}");
    }

    #[test]
    fn job_set() {
        let mut s = JobSet::new(130);
        assert_eq!(s.len(), 0);
        assert!(s.insert(0) && s.insert(64) && s.insert(129));
        assert!(!s.insert(64));
        assert!(!s.insert(130), "outside the set's range");
        assert_eq!(s.len(), 3);
        assert!(s.contains(129) && !s.contains(1) && !s.contains(1000));
        // Ranges merge as the gaps fill, whatever the order.
        for j in (1..64).rev().chain(65..129) {
            assert!(s.insert(j), "{j}");
        }
        assert_eq!((s.len(), s.ranges()), (130, 1));
        // A plan of 2^32 jobs costs nothing up front.
        let mut big = JobSet::new(1 << 32);
        for j in (0..1000u64).map(|i| i * 2) {
            big.insert(j);
        }
        assert_eq!(big.ranges(), 1000);
        assert!(big.contains(1998) && !big.contains(1999));
    }
}
