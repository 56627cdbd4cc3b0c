//! Files replaced atomically, so a reader never sees half a report or an
//! export: a temporary file next to the target, flushed to disk, then
//! renamed over it. The CLI's `--output` and the dashboard's export both
//! write through here.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replace `path` with `bytes` atomically: write a temporary file in the
/// same directory, flush it to disk, then rename it over the target. On any
/// failure the temporary file is removed and the target is untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// The temporary files being written, removed if the process is
/// interrupted (see [`remove_temporaries_on_interrupt`]).
static PENDING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn pending(f: impl FnOnce(&mut Vec<PathBuf>)) {
    if let Ok(mut p) = PENDING.lock() {
        f(&mut p);
    }
}

/// Have an interrupt (`SIGINT`, `SIGTERM`, `SIGHUP`) remove the temporary
/// files being written, instead of leaving `.NAME.PID.N.tmp` files behind,
/// before the process ends by that signal as it would have without this
/// (a shell running a loop of audits then stops at Ctrl-C, as it stops
/// only for a command the signal ended). For the commands that write
/// exports; the dashboard handles these signals itself, to restore the
/// terminal.
pub fn remove_temporaries_on_interrupt() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let watcher = std::thread::Builder::new().name("interrupts".into());
        let _ = watcher.spawn(move || {
            if let Some(signal) = signals.forever().next() {
                pending(|files| {
                    for f in files.iter() {
                        let _ = fs::remove_file(f);
                    }
                });
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                // Only reached if the default action could not be taken.
                std::process::exit(128 + signal);
            }
        });
    }
}

/// A file written in pieces that replaces its target only on
/// [`AtomicFile::commit`]; dropped uncommitted, it leaves no trace.
///
/// A target that is a symbolic link keeps the link: the file it points
/// to is replaced. A target that is not a regular file (`/dev/null`, a
/// named pipe, a terminal) is written as it is, since there is nothing to
/// replace: renaming over it would put a regular file in place of a
/// device.
pub struct AtomicFile {
    path: PathBuf,
    dir: PathBuf,
    /// The temporary file; `None` when writing straight into a device or
    /// a pipe.
    tmp: Option<PathBuf>,
    file: Option<Out>,
    existing: Option<fs::Metadata>,
}

/// How the temporary file is written.
enum Out {
    Buffered(io::BufWriter<fs::File>),
    /// Around the page cache, from a thread of its own (Linux).
    #[cfg(target_os = "linux")]
    Direct(super::direct::DirectFile),
}

impl Out {
    fn new(file: fs::File) -> Out {
        #[cfg(target_os = "linux")]
        let file = match super::direct::DirectFile::new(file) {
            Ok(direct) => return Out::Direct(direct),
            Err(file) => file,
        };
        Out::Buffered(io::BufWriter::with_capacity(1 << 20, file))
    }

    /// Everything written, in the file.
    fn into_file(self) -> io::Result<fs::File> {
        match self {
            Out::Buffered(w) => w.into_inner().map_err(|e| e.into_error()),
            #[cfg(target_os = "linux")]
            Out::Direct(d) => d.finish(),
        }
    }
}

impl AtomicFile {
    /// Open a temporary file next to `path` (next to the file it links
    /// to, when it is a link), or `path` itself when it is not a regular
    /// file.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ))
            }
            Ok(m) if !m.is_file() => {
                let file = OpenOptions::new().write(true).open(path)?;
                return Ok(AtomicFile {
                    path: path.to_path_buf(),
                    dir: PathBuf::from("."),
                    tmp: None,
                    file: Some(Out::Buffered(io::BufWriter::with_capacity(1 << 16, file))),
                    existing: None,
                });
            }
            _ => {}
        }
        let path = &followed(path);
        let file_name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "names no file"))?;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let existing = fs::metadata(path).ok();
        let mut attempt = 0u32;
        loop {
            let mut name = std::ffi::OsString::from(".");
            name.push(file_name);
            name.push(format!(".{}.{attempt}.tmp", std::process::id()));
            let tmp = dir.join(name);
            match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(f) => {
                    pending(|files| files.push(tmp.clone()));
                    return Ok(AtomicFile {
                        path: path.to_path_buf(),
                        dir,
                        tmp: Some(tmp),
                        file: Some(Out::new(f)),
                        existing,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => {
                    attempt += 1
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Flush to disk and rename over the target (or only flush, into a
    /// device or a pipe).
    pub fn commit(mut self) -> io::Result<()> {
        let Some(writer) = self.file.take() else {
            return Err(io::Error::other("already committed"));
        };
        let Some(tmp) = self.tmp.take() else {
            return writer.into_file().map(drop);
        };
        let done = self.replace(writer, &tmp);
        pending(|files| files.retain(|f| *f != tmp));
        done
    }

    fn replace(&self, writer: Out, tmp: &Path) -> io::Result<()> {
        let done = (|| {
            let file = writer.into_file()?;
            if let Some(m) = &self.existing {
                // Keep the mode of the file being replaced.
                file.set_permissions(m.permissions())?;
            }
            file.sync_all()?;
            drop(file);
            fs::rename(tmp, &self.path)
        })();
        if let Err(e) = done {
            let _ = fs::remove_file(tmp);
            return Err(e);
        }
        // Make the rename itself durable; not every platform can open a
        // directory for this, so a failure here is not an error.
        if let Ok(d) = fs::File::open(&self.dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// Whether `a` and `b` are the same regular file (links followed): a
/// report written to `b` would replace `a`.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) if x.is_file() && y.is_file() => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                x.dev() == y.dev() && x.ino() == y.ino()
            }
            #[cfg(not(unix))]
            {
                matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(p), Ok(q)) if p == q)
            }
        }
        _ => false,
    }
}

/// `path` with its symbolic links followed (relative ones from the
/// directory holding the link), as far as they lead: the file a write
/// through the link would reach, which may not exist yet. Gives up after
/// 40 links, as the kernel does, and then writes where it stopped.
pub fn followed(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        let is_link = fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink());
        let Some(target) = is_link.then(|| fs::read_link(&p).ok()).flatten() else {
            break;
        };
        // An absolute target replaces the directory; a relative one is
        // taken from the link's own directory.
        p = match p.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    p
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(Out::Buffered(f)) => f.write(buf),
            #[cfg(target_os = "linux")]
            Some(Out::Direct(f)) => f.write(buf),
            None => Err(io::Error::other("already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(Out::Buffered(f)) => f.flush(),
            #[cfg(target_os = "linux")]
            Some(Out::Direct(f)) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let (Some(_), Some(tmp)) = (self.file.take(), &self.tmp) {
            let _ = fs::remove_file(tmp);
            pending(|files| files.retain(|f| f != tmp));
        }
    }
}

/// A fix (`isolint fix --apply`, the dashboard's `f`) writes only a
/// regular file named as an input: not standard input, not a directory,
/// not through a symbolic link (the write would land in a file nobody
/// named). The error names the file (`shown`).
pub fn refuse_to_write(path: &Path, is_stdin: bool, shown: &str) -> Result<(), String> {
    if is_stdin {
        return Err("--apply cannot write standard input; name the file".to_string());
    }
    let meta = std::fs::symlink_metadata(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    if meta.file_type().is_symlink() {
        return Err(format!(
            "{shown}: is a symbolic link; --apply writes only the files named, so name its target"
        ));
    }
    if !meta.is_file() {
        return Err(format!(
            "{shown}: is not a regular file; --apply writes only the files named"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        fs::write(
            &target,
            "an older, much longer content that must disappear entirely",
        )
        .unwrap();
        write_atomically(&target, b"[]\n").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"[]\n");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.json"]);
    }

    #[test]
    fn a_long_export_replaces_its_target_whole_with_the_target_s_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        // Several of the direct writer's blocks and an odd tail, written in
        // the pieces directory mode writes.
        let alphabet = b"{}[],\n \"ab";
        let data: Vec<u8> = (0..3_500_001usize)
            .map(|i| alphabet[i % alphabet.len()])
            .collect();
        let mut f = AtomicFile::create(&target).unwrap();
        for piece in data.chunks(16_411) {
            f.write_all(piece).unwrap();
        }
        f.commit().unwrap();
        assert_eq!(fs::read(&target).unwrap(), data);
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// `-o /dev/null` (or a named pipe, or a terminal) is written into: a
    /// rename over it would put a regular file in place of the device,
    /// for everyone on the machine. Tried with a named pipe, which this
    /// test can make and remove on its own.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_pipe_or_a_device_is_written_into_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::from(0o600)).unwrap();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(&fifo).unwrap())
        };
        let mut f = AtomicFile::create(&fifo).unwrap();
        f.write_all(b"through ").unwrap();
        f.write_all(b"the pipe\n").unwrap();
        f.commit().unwrap();
        // (Checked before waiting for the reader, which would wait forever
        // on a pipe nobody opened.)
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        assert_eq!(reader.join().unwrap(), b"through the pipe\n");
    }

    #[test]
    fn a_link_is_kept_and_the_file_it_names_is_replaced() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let reports = dir.path().join("reports");
        fs::create_dir(&reports).unwrap();
        fs::write(reports.join("real.json"), "old").unwrap();
        let link = dir.path().join("latest.json");
        symlink("reports/real.json", &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            fs::read_to_string(reports.join("real.json")).unwrap(),
            "new"
        );
        // A link to a file not there yet creates it, through a second link.
        symlink("reports/next.json", dir.path().join("next.json")).unwrap();
        symlink("next.json", dir.path().join("again.json")).unwrap();
        write_atomically(&dir.path().join("again.json"), b"first").unwrap();
        assert_eq!(
            fs::read_to_string(reports.join("next.json")).unwrap(),
            "first"
        );
        for l in ["next.json", "again.json", "latest.json"] {
            let m = fs::symlink_metadata(dir.path().join(l)).unwrap();
            assert!(m.file_type().is_symlink(), "{l}");
        }
        let mut names: Vec<_> = fs::read_dir(&reports)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["next.json", "real.json"]);
    }

    #[test]
    fn atomic_write_refuses_a_directory_and_a_missing_parent() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_atomically(dir.path(), b"x").is_err());
        let missing = dir.path().join("no/such/dir/out.json");
        assert!(write_atomically(&missing, b"x").is_err());
        assert!(!missing.exists());
    }

    #[test]
    fn an_uncommitted_file_leaves_the_target_and_no_trace() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.json");
        fs::write(&target, "old").unwrap();
        {
            let mut f = AtomicFile::create(&target).unwrap();
            f.write_all(b"half a rep").unwrap();
        }
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let mut f = AtomicFile::create(&target).unwrap();
        f.write_all(b"new ").unwrap();
        f.write_all(b"content").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new content");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
