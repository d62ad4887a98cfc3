//! Writing result files: CSV lines and whole files, atomically and never over something that
//! is not ours to replace.

use super::meta::RunMeta;
use super::record::{Columns, Record};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A problem writing an output file.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The destination exists and overwriting was not asked for.
    #[error("{path}: already exists (pass --force to overwrite)")]
    Exists {
        /// The destination.
        path: PathBuf,
    },
    /// The destination is not a regular file (a directory, device, FIFO, socket or link).
    #[error("{path}: not a regular file; puzzlebench only writes new paths or regular files")]
    NotAFile {
        /// The destination.
        path: PathBuf,
    },
    /// A path puzzlebench would create or replace holds something it must not touch.
    #[error("{path}: the {what} {detail}")]
    Refused {
        /// The path.
        path: PathBuf,
        /// What the path was for (`output`, `journal`, `temporary file`, ...).
        what: String,
        /// What is wrong with it.
        detail: String,
    },
    /// The destination is one of the inputs of the command (or an input's meta).
    #[error("{path}: is one of the inputs (or an input's meta); choose another output")]
    IsInput {
        /// The destination.
        path: PathBuf,
    },
    /// The directory the outputs go in could not be created.
    #[error("{path}: cannot create directory: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
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

/// The one check every path puzzlebench creates goes through (outputs, temporaries, journal,
/// lock, meta, trace, report files): it may be a new path, or an existing regular file, and
/// nothing else — never a directory, a FIFO (opening it would block), a device, a socket, or
/// a symbolic link (writing through a link puzzlebench did not make would clobber its target).
/// `what` names the path's role in the message.
pub fn check_target(what: &str, path: &Path) -> Result<(), WriteError> {
    let refuse = |detail: &str| {
        Err(WriteError::Refused {
            path: path.to_path_buf(),
            what: what.to_string(),
            detail: detail.to_string(),
        })
    };
    match fs::symlink_metadata(path) {
        Err(_) => Ok(()),
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) if m.is_dir() => refuse("is a directory; give a file name"),
        Ok(m) if m.file_type().is_symlink() => refuse(
            "is a symbolic link; puzzlebench writes only new paths or regular files, never through a link",
        ),
        Ok(_) => refuse(
            "exists and is not a regular file (a FIFO, device or socket); puzzlebench writes only new paths or regular files",
        ),
    }
}

/// How [`open_target`] opens a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenMode {
    /// Create or empty it, for writing.
    Truncate,
    /// Create it or append to it.
    Append,
    /// Create it or keep it, for reading and writing (a lock file).
    ReadWrite,
}

/// Open a file puzzlebench writes, with the guarantees of [`check_target`] made at `open`
/// itself, where no race can slip past them: `O_NOFOLLOW` (a symbolic link put there is
/// refused, never followed), `O_NONBLOCK` (a FIFO put there fails at once instead of
/// blocking) and a check that what was opened is a regular file. `O_NONBLOCK` has no effect
/// on a regular file's reads and writes.
pub fn open_target(what: &str, path: &Path, mode: OpenMode) -> Result<fs::File, WriteError> {
    use std::os::unix::fs::OpenOptionsExt;
    check_target(what, path)?;
    let mut o = fs::OpenOptions::new();
    o.create(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    match mode {
        OpenMode::Truncate => o.write(true).truncate(true),
        OpenMode::Append => o.append(true),
        OpenMode::ReadWrite => o.read(true).write(true).truncate(false),
    };
    let refused = |detail: &str| WriteError::Refused {
        path: path.to_path_buf(),
        what: what.to_string(),
        detail: detail.to_string(),
    };
    let file = o.open(path).map_err(|source| match source.raw_os_error() {
        Some(libc::ELOOP) => refused("is a symbolic link; puzzlebench never writes through a link"),
        Some(libc::ENXIO) => {
            refused("is a FIFO with no reader; puzzlebench writes only regular files")
        }
        _ => WriteError::Io {
            path: path.to_path_buf(),
            source,
        },
    })?;
    let m = file.metadata().map_err(|source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if !m.is_file() {
        return Err(refused(
            "is not a regular file (a FIFO, device or socket); puzzlebench writes only regular files",
        ));
    }
    Ok(file)
}

/// One CSV line (with its newline) for the given cells.
pub fn csv_line<I, S>(cells: I) -> std::io::Result<Vec<u8>>
where
    I: IntoIterator<Item = S>,
    S: AsRef<[u8]>,
{
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(cells).map_err(std::io::Error::other)?;
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
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
    let mut f = AtomicFile::create(path, force)?;
    f.write_all(bytes).map_err(|source| WriteError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    f.commit()
}

/// A file written as a stream and published atomically: rows go to a temporary file in the
/// destination's directory, and [`AtomicFile::commit`] flushes it to disk and renames it over
/// the destination. Dropped without a commit (an error half-way), the temporary file is
/// removed and the destination is untouched. The same refusals as [`write_atomic`].
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<fs::File>>,
}

impl AtomicFile {
    /// Start writing `path` (refused when it exists and `force` is off, or is not a regular
    /// file).
    pub fn create(path: &Path, force: bool) -> Result<AtomicFile, WriteError> {
        match fs::symlink_metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(WriteError::NotAFile {
                    path: path.to_path_buf(),
                })
            }
            Ok(_) if !force => {
                return Err(WriteError::Exists {
                    path: path.to_path_buf(),
                })
            }
            _ => {}
        }
        // The temporary is created with O_EXCL (`create_new`), which never follows a link.
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".to_string());
        let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|source| WriteError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            file: Some(std::io::BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Flush, sync and rename into place.
    pub fn commit(mut self) -> Result<(), WriteError> {
        let werr = |source| WriteError::Io {
            path: self.path.clone(),
            source,
        };
        let done = match self.file.take() {
            Some(w) => w
                .into_inner()
                .map_err(|e| e.into_error())
                .and_then(|f| f.sync_all())
                .and_then(|()| fs::rename(&self.tmp, &self.path)),
            None => Err(std::io::Error::other("already committed")),
        };
        if done.is_err() {
            let _ = fs::remove_file(&self.tmp);
        }
        done.map_err(werr)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(std::io::Error::other("already committed")),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// The one overwrite guard of a command's outputs: never over one of its inputs (or an
/// input's meta), never over an existing file without `--force`, never into anything but a
/// regular file ([`AtomicFile::create`]). Outputs are checked before any work is done
/// ([`OutputGuard::check`]) and written through the same guard ([`OutputGuard::write`]).
#[derive(Clone, Debug, Default)]
pub struct OutputGuard {
    inputs: Vec<PathBuf>,
    force: bool,
}

impl OutputGuard {
    /// A guard for a command reading `inputs` (results files; their metas are guarded too, and
    /// any other file given, e.g. a trace).
    pub fn new(inputs: &[PathBuf], force: bool) -> OutputGuard {
        let mut v = Vec::new();
        for p in inputs {
            v.push(resolved(&super::meta::meta_path(p)));
            v.push(resolved(p));
        }
        OutputGuard { inputs: v, force }
    }

    /// Refuse `path` now if it could not be written later.
    pub fn check(&self, path: &Path) -> Result<(), WriteError> {
        let err = |f: fn(PathBuf) -> WriteError| Err(f(path.to_path_buf()));
        if self.inputs.contains(&resolved(path)) {
            return err(|path| WriteError::IsInput { path });
        }
        // The one path check of every file puzzlebench creates (issue 28).
        check_target("report output", path)?;
        match fs::symlink_metadata(path) {
            Ok(_) if !self.force => err(|path| WriteError::Exists { path }),
            _ => Ok(()),
        }
    }

    /// Refuse now any of `paths` that could not be written later (before a long report runs).
    pub fn check_all<'a>(
        &self,
        paths: impl IntoIterator<Item = &'a Path>,
    ) -> Result<(), WriteError> {
        paths.into_iter().try_for_each(|p| self.check(p))
    }

    /// Write several files: every path is checked before any is written, then `dir` (when
    /// given) is created, then each file is written atomically.
    pub fn write_all(
        &self,
        dir: Option<&Path>,
        files: &[(PathBuf, &[u8])],
    ) -> Result<(), WriteError> {
        self.check_all(files.iter().map(|(p, _)| p.as_path()))?;
        if let Some(d) = dir {
            fs::create_dir_all(d).map_err(|source| WriteError::Dir {
                path: d.to_path_buf(),
                source,
            })?;
        }
        files.iter().try_for_each(|(p, b)| self.write(p, b))
    }

    /// Check `path`, then write `bytes` to it atomically.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
        self.check(path)?;
        write_atomic(path, bytes, self.force)
    }

    /// Check `path`, then open it for an atomic streamed write.
    pub fn create(&self, path: &Path) -> Result<AtomicFile, WriteError> {
        self.check(path)?;
        AtomicFile::create(path, self.force)
    }
}

/// A path made absolute and free of `..` and symlinks as far as it exists, for comparing.
fn resolved(p: &Path) -> PathBuf {
    if let Ok(c) = fs::canonicalize(p) {
        return c;
    }
    match (p.parent(), p.file_name()) {
        (Some(parent), Some(name)) if !parent.as_os_str().is_empty() => resolved(parent).join(name),
        (_, Some(name)) => resolved(Path::new(".")).join(name),
        _ => p.to_path_buf(),
    }
}

/// Write a meta sidecar atomically (replacing the previous state of the same run).
pub fn write_meta(path: &Path, meta: &RunMeta) -> Result<(), WriteError> {
    let json = serde_json::to_string_pretty(meta).map_err(|e| WriteError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    })?;
    write_atomic(path, json.as_bytes(), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmpdir(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("pb-results-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).expect("temp dir");
        d
    }

    #[test]
    fn targets_are_new_paths_or_regular_files_only() {
        use std::os::unix::fs::symlink;
        let d = tmpdir("targets");
        let victim = d.join("victim.txt");
        fs::write(&victim, "keep me").expect("victim");
        let link = d.join("out.csv.tmp");
        symlink(&victim, &link).expect("symlink");
        let fifo = d.join("fifo.tmp");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
        for mode in [OpenMode::Truncate, OpenMode::Append, OpenMode::ReadWrite] {
            let e = open_target("temporary file", &link, mode).expect_err("a link");
            assert!(e.to_string().contains("symbolic link"), "{e}");
            // Returns at once (O_NONBLOCK) instead of waiting for a reader.
            let e = open_target("temporary file", &fifo, mode).expect_err("a FIFO");
            assert!(e.to_string().contains("not a regular file"), "{e}");
            let e = open_target("journal", Path::new("/dev/null"), mode).expect_err("a device");
            assert!(e.to_string().contains("/dev/null: the journal"), "{e}");
            let e = open_target("lock file", &d, mode).expect_err("a directory");
            assert!(e.to_string().contains("is a directory"), "{e}");
        }
        assert_eq!(fs::read_to_string(&victim).expect("victim"), "keep me");
        // A new path and an existing regular file are fine.
        let fresh = d.join("fresh.csv");
        open_target("output", &fresh, OpenMode::Truncate).expect("new path");
        fs::write(&fresh, "old").expect("write");
        open_target("output", &fresh, OpenMode::Append).expect("regular file");
        assert_eq!(fs::read_to_string(&fresh).expect("read"), "old");
        open_target("output", &fresh, OpenMode::Truncate).expect("regular file");
        assert_eq!(fs::read_to_string(&fresh).expect("read"), "");
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

    #[test]
    fn output_guard_refuses_inputs_their_metas_and_existing_files() {
        let d = tmpdir("guard");
        let input = d.join("run.csv");
        fs::write(&input, "x").expect("input");
        let g = OutputGuard::new(std::slice::from_ref(&input), true);
        let via_dots = d.join("sub").join("..").join("run.csv");
        fs::create_dir_all(d.join("sub")).expect("sub");
        assert!(matches!(
            g.check(&via_dots),
            Err(WriteError::IsInput { .. })
        ));
        assert!(matches!(
            g.check(&d.join("run.meta.json")),
            Err(WriteError::IsInput { .. })
        ));
        assert!(matches!(
            g.check(&d.join("sub")),
            Err(WriteError::Refused { .. })
        ));
        let out = d.join("out.md");
        g.write(&out, b"1").expect("new path");
        g.write(&out, b"2").expect("forced");
        let strict = OutputGuard::new(&[input], false);
        assert!(matches!(
            strict.write(&out, b"3"),
            Err(WriteError::Exists { .. })
        ));
        assert_eq!(fs::read(&out).expect("read"), b"2");
    }

    #[test]
    fn write_all_checks_every_output_before_writing_any() {
        let d = tmpdir("write_all");
        let dir = d.join("plots");
        let g = OutputGuard::new(&[], false);
        let (a, b) = (dir.join("a.svg"), dir.join("b.svg"));
        let files = [(a.clone(), &b"A"[..]), (b.clone(), &b"B"[..])];
        g.write_all(Some(&dir), &files).expect("new directory");
        assert_eq!(fs::read(&b).expect("b"), b"B");
        fs::remove_file(&a).expect("rm a");
        let again = [(a.clone(), &b"A2"[..]), (b.clone(), &b"B2"[..])];
        let e = g.write_all(Some(&dir), &again).expect_err("b exists");
        assert!(matches!(e, WriteError::Exists { path } if path == b));
        assert!(!a.exists(), "nothing written when one output is refused");
        let blocked = d.join("file");
        fs::write(&blocked, "x").expect("file");
        let inside = [(blocked.join("c.svg"), &b"C"[..])];
        let e = OutputGuard::new(&[], true).write_all(Some(&blocked), &inside);
        assert!(
            matches!(
                e,
                Err(WriteError::Dir { .. }) | Err(WriteError::Refused { .. })
            ),
            "{e:?}"
        );
    }
}
