//! Records the git revision the binaries were built from, for each run's `.meta.json`: the
//! commit, with `-dirty` when tracked files differ from it.
//!
//! Current on every build: this script reruns when HEAD, the branch it names, the index or
//! any tracked source of the build changes (issue 36: a tree edited after the last run of this
//! script recorded the clean revision).
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // What the revision depends on, wherever git keeps it (in a worktree `.git` is a file and
    // HEAD, the index and the refs live under the main repository's git directory). Only
    // paths that exist are watched: a missing one would rerun this script every build.
    let mut watch = Vec::new();
    for what in ["HEAD", "index", "packed-refs"] {
        watch.extend(git(&["rev-parse", "--git-path", what]));
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch.extend(git(&["rev-parse", "--git-path", &branch]));
    }
    // An edit to a tracked source makes the tree dirty without touching the index: cargo
    // watches a directory by the newest mtime beneath it.
    watch.extend(
        ["src", "Cargo.toml", "Cargo.lock", "benches", "examples"]
            .iter()
            .map(|s| s.to_string()),
    );
    for p in watch {
        if std::path::Path::new(&p).exists() {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    let rev = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_default();
    let dirty = Command::new("git")
        // No optional locks: `status` would otherwise refresh the index, and so rerun this
        // script on the next build.
        .args([
            "--no-optional-locks",
            "status",
            "--porcelain",
            "--untracked-files=no",
        ])
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
