//! What the peer tests share: finding the Python interpreter they drive
//! (pyarrow, DuckDB and the other writers): `STRATA_PYTHON` when set
//! (`.ci/run` sets it to its venv), else a `python3` on the `PATH` that
//! has the modules; a fresh directory for the files they exchange; and
//! the message of a caught panic.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// A fresh directory `strata-{name}-{pid}-{nanos}` under the system temp
/// dir.
pub fn fresh_dir(name: &str) -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("strata-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temp dir");
    dir
}

/// The interpreter for the test `test`, which needs `modules` (each with a
/// `__version__`), or `None` after printing why the test is skipped.
///
/// With `STRATA_PYTHON` set, an interpreter that cannot run or cannot
/// import `required` (a subset of `modules`) fails the test: CI would
/// otherwise pass without the peers. One that has `required` but not the
/// rest of `modules` skips, saying what `.ci/run` installs.
pub fn find_python(test: &str, modules: &[&str], required: &[&str]) -> Option<PathBuf> {
    let probe = |py: &Path, modules: &[&str]| {
        let versions: Vec<String> = modules
            .iter()
            .map(|m| format!("'{m}', {m}.__version__"))
            .collect();
        let script = format!(
            "import {}; print({})",
            modules.join(", "),
            versions.join(", ")
        );
        Command::new(py).args(["-c", &script]).output()
    };
    let names = modules.join(", ");
    if let Some(p) = std::env::var_os("STRATA_PYTHON") {
        let py = PathBuf::from(p);
        let out = probe(&py, modules)
            .unwrap_or_else(|e| panic!("STRATA_PYTHON={} cannot be run: {e}", py.display()));
        if out.status.success() {
            eprintln!(
                "{test}: using STRATA_PYTHON={} ({})",
                py.display(),
                String::from_utf8_lossy(&out.stdout).trim()
            );
            return Some(py);
        }
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let has_required = probe(&py, required).is_ok_and(|o| o.status.success());
        assert!(
            has_required && required.len() < modules.len(),
            "STRATA_PYTHON={} cannot import {}:\n{stderr}",
            py.display(),
            required.join(", ")
        );
        eprintln!(
            "SKIPPED {test}: STRATA_PYTHON={} cannot import all of {names} ({}); .ci/run \
             installs them in its venv",
            py.display(),
            stderr.lines().last().unwrap_or("").trim()
        );
        return None;
    }
    let py = PathBuf::from("python3");
    match probe(&py, modules) {
        Ok(out) if out.status.success() => {
            eprintln!(
                "{test}: using python3 from PATH ({})",
                String::from_utf8_lossy(&out.stdout).trim()
            );
            Some(py)
        }
        _ => {
            eprintln!(
                "SKIPPED {test}: set STRATA_PYTHON to a Python with {names} installed (or make \
                 `python3` able to import them); .ci/run does this"
            );
            None
        }
    }
}

/// The message of a panic caught by `catch_unwind` (empty when it carried
/// neither a `String` nor a `&str`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}
