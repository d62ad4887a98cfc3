//! Small helpers shared by the binaries.

use std::io::Write;

/// Write text to stdout. A closed pipe (`bench-run ... | head`) is not an error worth a
/// panic, which `print!` would raise; other write errors are ignored for the same reason:
/// results are in files, stdout only shows them.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}
