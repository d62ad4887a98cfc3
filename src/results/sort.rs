//! The one external sort and the one k-way merge of the result files.
//!
//! [`KWay`] merges sources that each yield items in order (sorted runs of a sort, or shard
//! files in job order) through one heap; [`ExternalSort`] buffers items, sorts full buffers
//! and spills them as run files, then merges the runs with [`KWay`]. A run file has one spill
//! format whatever the item: a headed CSV, one row per item, written and read back by the
//! item's [`Spill`] implementation, so a spilled row reads back through the same checks as an
//! input file. Memory is the buffer plus one item and one read buffer per run.
//!
//! Both are stable: items that compare equal come out in the order they went in (within a run
//! by a stable sort, across runs and sources by the source's index).

use super::read::{io_err, key_cmp, open_csv, record_of, CsvReader, ReadError, ResultsReader};
use super::record::{Columns, Record};
use std::cmp::Ordering;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs;
use std::io::{BufWriter, Write as _};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

/// Something that yields items in order, one at a time.
pub trait Source {
    /// What it yields.
    type Item: Ord;
    /// What can go wrong reading it.
    type Error;
    /// The next item, `None` at the end.
    fn pull(&mut self) -> Result<Option<Self::Item>, Self::Error>;
}

/// A k-way merge of ordered sources: the smallest head first, ties by source index.
///
/// A source is pulled for its next item on the call after the one that returned its previous
/// item, so the caller checks an item before the merge reads past it: an error in the item
/// comes before an error further down its source, as a reader going through the files would
/// meet them.
pub struct KWay<S: Source> {
    sources: Vec<S>,
    heap: BinaryHeap<Reverse<(S::Item, usize)>>,
    refill: Option<usize>,
}

impl<S: Source> KWay<S> {
    /// Start the merge: one head pulled from each source, in source order.
    pub fn new(mut sources: Vec<S>) -> Result<KWay<S>, S::Error> {
        let mut heap = BinaryHeap::with_capacity(sources.len());
        for (i, s) in sources.iter_mut().enumerate() {
            if let Some(item) = s.pull()? {
                heap.push(Reverse((item, i)));
            }
        }
        Ok(KWay {
            sources,
            heap,
            refill: None,
        })
    }

    /// The next item in order, with the index of its source.
    pub fn next_item(&mut self) -> Result<Option<(S::Item, usize)>, S::Error> {
        if let Some(i) = self.refill.take() {
            if let Some(item) = self.sources[i].pull()? {
                self.heap.push(Reverse((item, i)));
            }
        }
        let Some(Reverse((item, i))) = self.heap.pop() else {
            return Ok(None);
        };
        self.refill = Some(i);
        Ok(Some((item, i)))
    }

    /// The sources, in the order given.
    pub fn sources(&self) -> &[S] {
        &self.sources
    }
}

/// An item that can be spilled to a run file: one CSV row under a fixed header.
pub trait Spill: Sized {
    /// The run file's header.
    fn header() -> Vec<&'static str>;
    /// The item's cells, in header order.
    fn cells(&self) -> Vec<String>;
    /// The item back from a row of a run file (`line` is 1-based, for the error).
    fn read(
        path: &Path,
        headers: &csv::StringRecord,
        row: &csv::StringRecord,
        line: u64,
    ) -> Result<Self, ReadError>;
}

/// A spilled run being read back.
struct SpillReader<T> {
    path: PathBuf,
    rdr: CsvReader,
    headers: csv::StringRecord,
    row: csv::StringRecord,
    _item: PhantomData<T>,
}

impl<T: Spill> SpillReader<T> {
    fn open(path: PathBuf) -> Result<SpillReader<T>, ReadError> {
        let (rdr, headers) = open_csv(&path, &T::header())?;
        Ok(SpillReader {
            path,
            rdr,
            headers,
            row: csv::StringRecord::new(),
            _item: PhantomData,
        })
    }
}

/// One sorted run being merged: a spilled file, or the last buffer still in memory.
enum Run<T> {
    File(Box<SpillReader<T>>),
    Memory(std::vec::IntoIter<T>),
}

impl<T: Spill + Ord> Source for Run<T> {
    type Item = T;
    type Error = ReadError;
    fn pull(&mut self) -> Result<Option<T>, ReadError> {
        match self {
            Run::Memory(it) => Ok(it.next()),
            Run::File(r) => {
                let more = r.rdr.read_record(&mut r.row).map_err(|e| ReadError::Io {
                    path: r.path.clone(),
                    source: std::io::Error::other(e),
                })?;
                if !more {
                    return Ok(None);
                }
                let line = r.row.position().map_or(0, |p| p.line());
                T::read(&r.path, &r.headers, &r.row, line).map(Some)
            }
        }
    }
}

/// An external merge sort: push items in any order, then draw them in order from
/// [`ExternalSort::finish`]. Up to `buffer` items stay in memory and never touch the disk;
/// beyond, each full buffer is sorted and spilled to a private temporary directory, removed
/// when the sorted items are dropped.
pub struct ExternalSort<T> {
    buf: Vec<T>,
    buffer: usize,
    purpose: &'static str,
    dir: Option<SpillDir>,
    runs: Vec<PathBuf>,
}

impl<T: Spill + Ord> ExternalSort<T> {
    /// A sort holding at most `buffer` items in memory (at least one); `purpose` names its
    /// temporary directory.
    pub fn new(purpose: &'static str, buffer: usize) -> ExternalSort<T> {
        ExternalSort {
            buf: Vec::new(),
            buffer: buffer.max(1),
            purpose,
            dir: None,
            runs: Vec::new(),
        }
    }

    /// Add one item.
    pub fn push(&mut self, item: T) -> Result<(), ReadError> {
        self.buf.push(item);
        if self.buf.len() >= self.buffer {
            self.spill()?;
        }
        Ok(())
    }

    /// Sort the buffer and write it as one run.
    fn spill(&mut self) -> Result<(), ReadError> {
        self.buf.sort();
        let dir = match &mut self.dir {
            Some(d) => d,
            None => self.dir.insert(SpillDir::new(self.purpose)?),
        };
        let path = dir.next_path("csv");
        let werr = |e: &dyn std::fmt::Display| ReadError::Io {
            path: path.clone(),
            source: std::io::Error::other(e.to_string()),
        };
        let file = fs::File::create(&path).map_err(|e| werr(&e))?;
        let mut w = csv::Writer::from_writer(BufWriter::with_capacity(1 << 16, file));
        w.write_record(T::header()).map_err(|e| werr(&e))?;
        for item in self.buf.drain(..) {
            w.write_record(item.cells()).map_err(|e| werr(&e))?;
        }
        w.into_inner()
            .map_err(|e| werr(e.error()))?
            .flush()
            .map_err(|e| werr(&e))?;
        self.runs.push(path);
        Ok(())
    }

    /// Everything pushed, in order (equal items in push order).
    pub fn finish(mut self) -> Result<Sorted<T>, ReadError> {
        let mut runs = Vec::with_capacity(self.runs.len() + 1);
        for p in std::mem::take(&mut self.runs) {
            runs.push(Run::File(Box::new(SpillReader::open(p)?)));
        }
        if !self.buf.is_empty() {
            self.buf.sort();
            runs.push(Run::Memory(std::mem::take(&mut self.buf).into_iter()));
        }
        Ok(Sorted {
            merge: KWay::new(runs)?,
            _dir: self.dir.take(),
        })
    }
}

/// The items of an [`ExternalSort`], in order.
pub struct Sorted<T: Spill + Ord> {
    // Declared before the directory: the run files close before it is removed.
    merge: KWay<Run<T>>,
    _dir: Option<SpillDir>,
}

impl<T: Spill + Ord> Sorted<T> {
    /// The next item.
    pub fn next_item(&mut self) -> Result<Option<T>, ReadError> {
        Ok(self.merge.next_item()?.map(|(item, _)| item))
    }
}

impl<T: Spill + Ord> Iterator for Sorted<T> {
    type Item = Result<T, ReadError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_item().transpose()
    }
}

/// A private temporary directory for spilled sort runs, removed with everything in it when
/// dropped (also on an error or a panic unwinding through the owner).
pub struct SpillDir {
    dir: PathBuf,
    files: u64,
}

impl SpillDir {
    /// A new directory under the system temporary directory (`TMPDIR`).
    pub fn new(purpose: &str) -> Result<SpillDir, ReadError> {
        let base = std::env::temp_dir();
        // pid + a process-wide counter + time: unique without a dependency on `tempfile`.
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = base.join(format!(
            "puzzlebench-{purpose}-{}-{n}-{nanos}",
            std::process::id()
        ));
        fs::create_dir(&dir).map_err(io_err(&dir))?;
        Ok(SpillDir { dir, files: 0 })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// A fresh file path inside the directory.
    pub fn next_path(&mut self, ext: &str) -> PathBuf {
        self.files += 1;
        self.dir.join(format!("run-{:06}.{ext}", self.files))
    }
}

impl Drop for SpillDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Rows held in memory before a sorted run is spilled to disk by [`KeySorted`]: about
/// 50 MB of records. Inputs up to this size are sorted in memory and never touch the disk.
pub const SORT_BUFFER_ROWS: usize = 100_000;

/// A row ordered by its job key ([`key_cmp`]), spilled with every column so it reads back
/// unchanged and through the same cell checks as an input file.
struct ByKey(Record);

impl PartialEq for ByKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for ByKey {}
impl PartialOrd for ByKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ByKey {
    fn cmp(&self, other: &Self) -> Ordering {
        key_cmp(&self.0, &other.0)
    }
}

impl Spill for ByKey {
    fn header() -> Vec<&'static str> {
        Columns::ALL.header()
    }
    fn cells(&self) -> Vec<String> {
        self.0.fields(Columns::ALL)
    }
    fn read(
        path: &Path,
        headers: &csv::StringRecord,
        row: &csv::StringRecord,
        line: u64,
    ) -> Result<Self, ReadError> {
        record_of(path, headers, row, line).map(ByKey)
    }
}

/// The rows of several results files in join-key order ([`key_cmp`]), whatever order the files
/// hold them in, through the one [`ExternalSort`]: rows are read in file order into a buffer
/// of `buffer_rows`, a full buffer is sorted and spilled as a CSV with every column, and the
/// runs are merged. Memory is the buffer plus one row and one read buffer per run, whatever
/// the number of rows; the disk holds one copy of the input while the rows are drawn. Rows
/// with equal keys keep their input order.
pub struct KeySorted {
    rows: Sorted<ByKey>,
    columns: Columns,
    count: u64,
}

impl KeySorted {
    /// Read, check and sort `paths` (already expanded: files only).
    pub fn open(paths: &[PathBuf], buffer_rows: usize) -> Result<KeySorted, ReadError> {
        let mut sort = ExternalSort::new("sort", buffer_rows);
        let mut columns = Columns::default();
        let mut count = 0u64;
        for p in paths {
            let mut rdr = ResultsReader::open(p)?;
            let c = rdr.columns();
            columns.solutions |= c.solutions;
            columns.solution |= c.solution;
            columns.measured |= c.measured;
            while let Some((r, _)) = rdr.next_row()? {
                count += 1;
                sort.push(ByKey(r))?;
            }
        }
        Ok(KeySorted {
            rows: sort.finish()?,
            columns,
            count,
        })
    }

    /// Optional columns any input has.
    pub fn columns(&self) -> Columns {
        self.columns
    }

    /// Rows in all inputs.
    pub fn rows(&self) -> u64 {
        self.count
    }

    /// The next row in key order.
    pub fn next_row(&mut self) -> Result<Option<Record>, ReadError> {
        Ok(self.rows.next_item()?.map(|ByKey(r)| r))
    }
}

impl Iterator for KeySorted {
    type Item = Result<Record, ReadError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_row().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::write::results_csv;
    use crate::results::Status;

    /// A key and where it came from: sorted by key only, so the order of equal keys shows
    /// whether the sort is stable.
    #[derive(Debug, PartialEq, Eq)]
    struct Item(u64, u64);

    impl PartialOrd for Item {
        fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Item {
        fn cmp(&self, other: &Self) -> std::cmp::Ordering {
            self.0.cmp(&other.0)
        }
    }

    impl Spill for Item {
        fn header() -> Vec<&'static str> {
            vec!["key", "at"]
        }
        fn cells(&self) -> Vec<String> {
            vec![self.0.to_string(), self.1.to_string()]
        }
        fn read(
            path: &Path,
            _: &csv::StringRecord,
            row: &csv::StringRecord,
            line: u64,
        ) -> Result<Self, ReadError> {
            let num = |i: usize| {
                row.get(i)
                    .and_then(|c| c.parse().ok())
                    .ok_or_else(|| ReadError::BadValue {
                        path: path.to_path_buf(),
                        line,
                        column: Item::header()[i].to_string(),
                        value: row.get(i).unwrap_or("").to_string(),
                        expected: "an unsigned integer".into(),
                    })
            };
            Ok(Item(num(0)?, num(1)?))
        }
    }

    fn sorted(keys: &[u64], buffer: usize) -> Vec<(u64, u64)> {
        let mut s = ExternalSort::new("test", buffer);
        for (at, &k) in keys.iter().enumerate() {
            s.push(Item(k, at as u64)).expect("push");
        }
        s.finish()
            .expect("finish")
            .map(|i| i.map(|Item(k, at)| (k, at)).expect("item"))
            .collect()
    }

    #[test]
    fn spilled_and_in_memory_sorts_agree_and_are_stable() {
        let keys: Vec<u64> = (0..1000u64).map(|i| (i * 7919) % 37).collect();
        let mut want: Vec<(u64, u64)> = keys.iter().copied().zip(0..).collect();
        want.sort_by_key(|&(k, _)| k); // stable: equal keys by position
        for buffer in [1, 3, 64, 999, 1000, 5000] {
            assert_eq!(sorted(&keys, buffer), want, "buffer {buffer}");
        }
        assert!(sorted(&[], 4).is_empty());
    }

    #[test]
    fn the_spill_directory_goes_with_the_sorted_items() {
        let mut s = ExternalSort::new("test-dir", 2);
        for k in [5, 3, 9, 1, 4] {
            s.push(Item(k, 0)).expect("push");
        }
        let dir = s
            .dir
            .as_ref()
            .map(|d| d.path().to_path_buf())
            .expect("spilled");
        assert!(dir.is_dir());
        let mut items = s.finish().expect("finish");
        assert_eq!(items.next_item().expect("item"), Some(Item(1, 0)));
        drop(items);
        assert!(!dir.exists(), "{} left behind", dir.display());
    }

    #[test]
    fn a_damaged_run_file_is_an_error_naming_it() {
        let mut s = ExternalSort::new("test-bad", 2);
        for k in [2, 1] {
            s.push(Item(k, 0)).expect("push");
        }
        let run = s.runs[0].clone();
        fs::write(&run, "key,at\n1,x\n").expect("overwrite the run");
        let e = s.finish().err().expect("a bad cell").to_string();
        assert!(
            e.contains(&run.display().to_string()) && e.contains("\"x\""),
            "{e}"
        );
    }

    /// A source that yields its items, then fails.
    struct Failing(Vec<u64>);
    impl Source for Failing {
        type Item = u64;
        type Error = String;
        fn pull(&mut self) -> Result<Option<u64>, String> {
            if self.0.is_empty() {
                return Err("end of source".into());
            }
            Ok(Some(self.0.remove(0)))
        }
    }

    #[test]
    fn k_way_reads_past_an_item_only_when_asked_for_the_next() {
        let mut m = KWay::new(vec![Failing(vec![1, 4]), Failing(vec![2, 3])]).expect("heads");
        assert_eq!(m.next_item(), Ok(Some((1, 0))));
        assert_eq!(m.next_item(), Ok(Some((2, 1))));
        assert_eq!(m.next_item(), Ok(Some((3, 1))));
        // Source 1 is pulled again only now, and it fails: before 4 from source 0.
        assert_eq!(m.next_item(), Err("end of source".to_string()));
        assert_eq!(m.sources().len(), 2);
    }

    #[test]
    fn key_sorted_spills_and_keeps_equal_keys_in_input_order() {
        let d = std::env::temp_dir().join(format!("pb-key-sorted-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).expect("temp dir");
        let row = |job: u64| {
            let mut r = Record::sample("d", "mrv", &format!("p:{job}"), Status::Solved, 0.001);
            r.job = job;
            r.counters.nodes = Some(8);
            r
        };
        // Two files, keys out of order, one job in both (told apart by its wall time), and
        // a row with every optional column, so what is spilled must read back whole.
        let mut a: Vec<Record> = [5, 1, 4].into_iter().map(row).collect();
        let mut b: Vec<Record> = [3, 1, 0, 2].into_iter().map(row).collect();
        a[1].wall_s = 0.5;
        b[1].wall_s = 0.7;
        b[0].counters.solutions = Some(2);
        b[0].solution = Some("#....".into());
        b[0].cpu_s = Some(0.25);
        let (pa, pb) = (d.join("a.csv"), d.join("b.csv"));
        fs::write(&pa, results_csv(&a, Columns::default())).expect("write a");
        fs::write(&pb, results_csv(&b, Columns::ALL)).expect("write b");
        let mut want: Vec<Record> = a.iter().chain(&b).cloned().collect();
        want.sort_by(key_cmp);
        for buffer in [1, 2, 3, 100] {
            let sorted = KeySorted::open(&[pa.clone(), pb.clone()], buffer).expect("sorted");
            assert_eq!(sorted.rows(), 7);
            let got: Vec<Record> = sorted.map(|r| r.expect("row")).collect();
            assert_eq!(got, want, "buffer {buffer}");
            let walls: Vec<f64> = got
                .iter()
                .filter(|r| r.job == 1)
                .map(|r| r.wall_s)
                .collect();
            assert_eq!(
                walls,
                [0.5, 0.7],
                "buffer {buffer}: equal keys in input order"
            );
        }
    }
}
