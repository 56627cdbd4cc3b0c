//! Where reports go: stdout (a closed pipe is not an error), stderr for
//! messages, or a file replaced atomically so a reader never sees half a
//! report.

use std::fs::{self, OpenOptions};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use isolint_core::sanitize::neutralize;

/// Whether the user asked for no colour (<https://no-color.org>: set and
/// not empty), or the terminal cannot show it.
pub fn color_disabled_by_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
        || std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}

/// Print `error: MESSAGE` on stderr. The message is neutralized: it may
/// quote file names or input the user does not control.
pub fn error(message: &str) {
    let message = neutralize(message);
    let label = if io::stderr().is_terminal() && !color_disabled_by_env() {
        "\x1b[1;31merror\x1b[0m"
    } else {
        "error"
    };
    let _ = writeln!(io::stderr().lock(), "{label}: {message}");
}

/// Print `note: MESSAGE` on stderr (a remark about the input, like a
/// compiler's).
pub fn remark(message: &str) {
    let _ = writeln!(io::stderr().lock(), "note: {}", neutralize(message));
}

/// Print `not declared: MESSAGE` on stderr: a profile field an imported
/// format cannot express.
pub fn not_declared(message: &str) {
    let _ = writeln!(io::stderr().lock(), "not declared: {}", neutralize(message));
}

/// Print an informational line on stderr.
pub fn note(message: &str) {
    let _ = writeln!(io::stderr().lock(), "isolint: {}", neutralize(message));
}

/// Write to stdout. A reader that went away (`isolint … | head`) is not an
/// error worth reporting; anything else is.
pub fn stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Replace `path` with `bytes` atomically: write a temporary file in the
/// same directory, flush it to disk, then rename it over the target. On any
/// failure the temporary file is removed and the target is untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// A file written in pieces that replaces its target only on
/// [`AtomicFile::commit`]; dropped uncommitted, it leaves no trace.
pub struct AtomicFile {
    path: PathBuf,
    dir: PathBuf,
    tmp: PathBuf,
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
    /// Open a temporary file next to `path`.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        if path.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory",
            ));
        }
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
                    return Ok(AtomicFile {
                        path: path.to_path_buf(),
                        dir,
                        tmp,
                        file: Some(Out::new(f)),
                        existing,
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => {
                    attempt += 1
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Hand what was written so far to the disk without waiting for it,
    /// so that [`AtomicFile::commit`]'s flush finds little left to do. A
    /// hint only: durability still comes from `commit`.
    pub fn start_writeback(&mut self) -> io::Result<()> {
        // Direct writes are on their way to the disk already.
        let Some(Out::Buffered(writer)) = &mut self.file else {
            return Ok(());
        };
        writer.flush()?;
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let fd = writer.get_ref().as_raw_fd();
            // SAFETY: `fd` is this file's open descriptor for the whole
            // call; offset 0 and length 0 mean "the whole file", and
            // SYNC_FILE_RANGE_WRITE only queues writeback without waiting.
            // Errors are ignored on purpose: `commit` still flushes fully.
            let _ = unsafe { libc::sync_file_range(fd, 0, 0, libc::SYNC_FILE_RANGE_WRITE) };
        }
        Ok(())
    }

    /// Flush to disk and rename over the target.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(writer) = self.file.take() else {
            return Err(io::Error::other("already committed"));
        };
        let done = (|| {
            let file = writer.into_file()?;
            if let Some(m) = &self.existing {
                // Keep the mode of the file being replaced.
                file.set_permissions(m.permissions())?;
            }
            file.sync_all()?;
            drop(file);
            fs::rename(&self.tmp, &self.path)
        })();
        if let Err(e) = done {
            let _ = fs::remove_file(&self.tmp);
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
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
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
        f.start_writeback().unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read(&target).unwrap(), data);
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
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
