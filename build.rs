//! Records the git revision the binaries were built from, for each run's `.meta.json`.
use std::process::Command;

fn main() {
    // Watch git's HEAD only where it is a file we can see (in a worktree `.git` is a file and
    // these paths do not exist; watching a missing path would rerun this script every build).
    if std::path::Path::new(".git/HEAD").is_file() {
        println!("cargo:rerun-if-changed=.git/HEAD");
        println!("cargo:rerun-if-changed=.git/refs/heads");
    } else {
        println!("cargo:rerun-if-changed=build.rs");
    }
    let rev = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let dirty = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=no"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .is_some_and(|o| !o.stdout.is_empty());
    let rev = if !rev.is_empty() && dirty {
        format!("{rev}-dirty")
    } else {
        rev
    };
    println!("cargo:rustc-env=PUZZLEBENCH_GIT_REV={rev}");
}
