//! Finding the Python interpreter with pyarrow that the peer checks of
//! this crate's tests drive.

use std::path::PathBuf;
use std::process::Command;

/// The interpreter with pyarrow: `STRATA_PYTHON`, else `python3` if it
/// has pyarrow, else `None` (skipped, with a message).
pub fn pyarrow() -> Option<PathBuf> {
    let py = std::env::var_os("STRATA_PYTHON").map_or_else(|| "python3".into(), PathBuf::from);
    let ok = Command::new(&py)
        .args(["-c", "import pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("STRATA_PYTHON").is_none(),
            "STRATA_PYTHON={} cannot import pyarrow",
            py.display()
        );
        eprintln!("skipped: no Python with pyarrow (set STRATA_PYTHON)");
        return None;
    }
    Some(py)
}

/// The interpreter with pyarrow and DuckDB, as [`pyarrow`] finds it;
/// `None` (skipped, with a message) where DuckDB is missing.
#[allow(dead_code)]
pub fn with_duckdb() -> Option<PathBuf> {
    let py = pyarrow()?;
    let has_duckdb = Command::new(&py)
        .args(["-c", "import duckdb"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_duckdb {
        assert!(
            std::env::var_os("STRATA_PYTHON").is_none(),
            "STRATA_PYTHON cannot import duckdb"
        );
        eprintln!("skipped: no duckdb in the Python found");
        return None;
    }
    Some(py)
}

/// Run `script` (Python source) with `py` and `args` (its
/// `sys.argv[1:]`); its standard output. Fails the test, with the
/// script's errors, if it fails.
#[allow(dead_code)]
pub fn run_script<S: AsRef<std::ffi::OsStr>>(
    py: &std::path::Path,
    script: &str,
    args: &[S],
) -> String {
    let out = Command::new(py)
        .args(["-c", script])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
