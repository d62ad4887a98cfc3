//! Messages say a thing once and say the right thing: an OS error is not repeated by the
//! error chain, a missing input is reported as missing (not as a missing meta beside it).

use assert_cmd::Command;

fn bench_report() -> Command {
    Command::cargo_bin("bench-report").expect("bench-report is built")
}

#[test]
fn a_missing_input_is_named_once_with_its_os_error_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.csv");
    let other = crate::common::write(dir.path(), "x.csv", "not used\n");
    for args in [
        vec![
            "compare".into(),
            missing.display().to_string(),
            other.display().to_string(),
        ],
        vec!["summary".into(), missing.display().to_string()],
    ] {
        let out = bench_report().args(&args).assert().code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert_eq!(
            err.matches("No such file or directory").count(),
            1,
            "{args:?}: {err}"
        );
        assert!(
            err.contains(&format!("{}: cannot read", missing.display())),
            "{err}"
        );
        assert!(!err.contains("meta"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
