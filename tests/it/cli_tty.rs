//! The progress bar as a user at a terminal sees it: drawn on a real pseudo-terminal, with the
//! plan's job count, cleared before the closing message, absent under `--quiet`, and cleared
//! before the interrupt messages when Ctrl-C is typed (the terminal's own ^C, sent through the
//! pty's line discipline, not a signal sent by hand). The pty comes from util-linux `script`;
//! where it is missing the tests say so and skip. Linux only (`script`'s options differ
//! elsewhere).
#![cfg(target_os = "linux")]

use crate::common::*;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `script` runs `args` on a fresh pty, copying what the program writes to the terminal to its
/// own stdout (`-q`: no banner; `-e`: its exit status is the program's). None where `script` is
/// not installed.
fn on_a_terminal(args: &[String]) -> Option<Command> {
    let found = Command::new("script")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        crate::common::needs("util-linux `script` (a pseudo-terminal)");
    }
    let bin = assert_cmd::cargo::cargo_bin("bench-run");
    let line = std::iter::once(bin.display().to_string())
        .chain(args.iter().cloned())
        .map(|a| shell_quote(&a))
        .collect::<Vec<_>>()
        .join(" ");
    let mut c = Command::new("script");
    c.args(["-q", "-e", "-c", &line, "/dev/null"]);
    Some(c)
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A run of ABC jobs long enough for the bar to be drawn more than once on an idle machine.
fn abc_args(data: &Path, out: &Path, seeds: u32, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "--strategy",
        "abc",
        "--max-cycles",
        "1500",
        "--threads",
        "2",
        "--no-summary",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    a.extend(["--seeds".to_string(), seeds.to_string()]);
    a.extend(["--dataset".to_string(), data.display().to_string()]);
    a.extend(["--output".to_string(), out.display().to_string()]);
    a.extend(extra.iter().map(ToString::to_string));
    a
}

/// Everything after the last drawing of the bar (whose text always holds "/TOTAL jobs").
fn after_last_bar(screen: &str, total: usize) -> &str {
    let mark = format!("/{total} jobs");
    let at = screen
        .rfind(&mark)
        .unwrap_or_else(|| panic!("the bar ({mark}) was never drawn: {screen:?}"));
    &screen[at + mark.len()..]
}

/// The bytes on the terminal's current line just before `message`: what a user would see to
/// its left. A line starts after a newline or after the erase-line sequence the bar clears with.
fn left_of<'a>(screen: &'a str, message: &str) -> &'a str {
    let at = screen
        .find(message)
        .unwrap_or_else(|| panic!("{message:?} not on the terminal: {screen:?}"));
    let before = &screen[..at];
    let start = [
        before.rfind('\n').map(|i| i + 1),
        before.rfind("\x1b[2K").map(|i| i + 4),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(0);
    &before[start..]
}

fn screen(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
#[ignore = "needs util-linux script (a pseudo-terminal)"]
fn the_bar_counts_the_plan_and_is_cleared_before_the_closing_message() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let out = dir.path().join("r.csv");
    let Some(mut cmd) = on_a_terminal(&abc_args(&data, &out, 50, &[])) else {
        return;
    };
    let output = cmd.stdin(Stdio::null()).output().unwrap();
    let screen = screen(&output);
    assert!(output.status.success(), "{screen:?}");
    assert_eq!(rows(&out).len(), 200);
    // Drawn with the plan's total and the solved count; cleared, then the closing line at the
    // start of a clean line, and no bar after it.
    assert!(screen.contains(" jobs "), "{screen:?}");
    assert!(screen.contains("solved "), "{screen:?}");
    let tail = after_last_bar(&screen, 200);
    assert!(
        tail.contains("\x1b[2K"),
        "the bar was not cleared: {tail:?}"
    );
    assert_eq!(left_of(tail, "results: "), "", "{tail:?}");
}

#[test]
#[ignore = "needs util-linux script (a pseudo-terminal)"]
fn quiet_draws_no_bar_even_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let out = dir.path().join("r.csv");
    let Some(mut cmd) = on_a_terminal(&abc_args(&data, &out, 20, &["--quiet"])) else {
        return;
    };
    let output = cmd.stdin(Stdio::null()).output().unwrap();
    let screen = screen(&output);
    assert!(output.status.success(), "{screen:?}");
    assert_eq!(rows(&out).len(), 80);
    assert!(!screen.contains(" jobs "), "{screen:?}");
    assert!(!screen.contains("\x1b[2K"), "{screen:?}");
}

#[test]
#[ignore = "needs util-linux script (a pseudo-terminal)"]
fn ctrl_c_at_the_terminal_clears_the_bar_before_the_interrupt_messages() {
    let dir = tempfile::tempdir().unwrap();
    // 50 puzzles ABC rarely solves in 1,500 cycles: 10,000 jobs of about a millisecond each,
    // far more than run before the keystroke, even on an idle machine.
    let data = datasets().join("sudoku-medium");
    let out = dir.path().join("r.csv");
    let journal = dir.path().join("r.csv.partial");
    let Some(mut cmd) = on_a_terminal(&abc_args(&data, &out, 200, &[])) else {
        return;
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_rows(&mut child, &journal, 20);
    // `script` copies its stdin to the pty; the line discipline turns ^C into SIGINT for the
    // foreground process group, as a keyboard would.
    let mut keyboard = child.stdin.take().unwrap();
    keyboard.write_all(b"\x03").unwrap();
    keyboard.flush().unwrap();
    let output = child.wait_with_output().unwrap();
    drop(keyboard);
    let screen = screen(&output);
    assert_eq!(output.status.code(), Some(130), "{screen:?}");
    assert!(!out.exists());
    let tail = after_last_bar(&screen, 10_000);
    // The final report and the resume command, each at the start of a clean line: no bar
    // text left beside them, and none drawn after.
    assert_eq!(
        left_of(tail, "bench-run: interrupted after "),
        "",
        "{tail:?}"
    );
    assert_eq!(
        left_of(tail, "bench-run: to finish the run: "),
        "",
        "{tail:?}"
    );
    assert!(tail.contains("--resume"), "{tail:?}");
}
