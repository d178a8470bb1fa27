//! `cargo xtask`: the project's automation.
//!
//! - `cargo xtask bench [--full] [FILTER]`: build the side-by-side benchmark
//!   suite with the `bench` profile, run it, and print a table per workload
//!   (strata, arrow-rs, memcpy floor, ratio). The table is also written to
//!   `target/bench-report/report.md`.
#![deny(missing_docs)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::SystemTime;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("bench") => bench(&args[1..]),
        _ => {
            eprintln!("usage: cargo xtask bench [--full] [FILTER]");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("xtask: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn bench(args: &[String]) -> Result<(), String> {
    let full = args.iter().any(|a| a == "--full");
    let filter: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let root = workspace_root();
    let started = SystemTime::now();

    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(&root)
        .args(["bench", "--profile", "bench", "-p", "strata-benches", "--"]);
    if full {
        cmd.args(["--warm-up-time", "3", "--measurement-time", "10"]);
    } else {
        cmd.args(["--warm-up-time", "0.5", "--measurement-time", "1.5"]);
    }
    cmd.arg("--noplot");
    for f in &filter {
        cmd.arg(f.as_str());
    }
    eprintln!("xtask: running {cmd:?}");
    let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("benchmarks failed: {status}"));
    }

    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let results = collect_results(&target_dir.join("criterion"), started)?;
    if results.is_empty() {
        return Err("no benchmark results found under target/criterion".into());
    }
    let report = render_report(&results);
    println!("{report}");
    let dir = target_dir.join("bench-report");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("report.md");
    std::fs::write(&path, &report).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("xtask: report written to {}", path.display());
    Ok(())
}

/// group -> case -> implementation -> median nanoseconds.
type Results = BTreeMap<String, BTreeMap<String, BTreeMap<String, f64>>>;

fn collect_results(dir: &Path, since: SystemTime) -> Result<Results, String> {
    let mut results = Results::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "new") {
                    read_one(&p, since, &mut results);
                } else {
                    stack.push(p);
                }
            }
        }
    }
    Ok(results)
}

fn read_one(dir: &Path, since: SystemTime, results: &mut Results) {
    let estimates = dir.join("estimates.json");
    let fresh = std::fs::metadata(&estimates)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= since);
    if !fresh {
        return;
    }
    let read = |p: PathBuf| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()
    };
    let (Some(bench), Some(est)) = (read(dir.join("benchmark.json")), read(estimates)) else {
        return;
    };
    let group = bench["group_id"].as_str().unwrap_or("?").to_string();
    let function = bench["function_id"].as_str().unwrap_or("?");
    let (imp, case) = function.split_once('/').unwrap_or((function, ""));
    let Some(median) = est["median"]["point_estimate"].as_f64() else {
        return;
    };
    results
        .entry(group)
        .or_default()
        .entry(case.to_string())
        .or_default()
        .insert(imp.to_string(), median);
}

fn fmt_time(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn render_report(results: &Results) -> String {
    let mut out = String::from("# strata side-by-side benchmarks\n\n");
    out.push_str("Median time per iteration from one run. ratio = strata / arrow-rs (below 1 is faster).\n\n");
    let mut all_ratios = Vec::new();
    for (group, cases) in results {
        out.push_str(&format!("## {group}\n\n| case | strata | arrow-rs | memcpy | ratio |\n|---|---:|---:|---:|---:|\n"));
        let mut ratios = Vec::new();
        for (case, imps) in cases {
            let cell = |k: &str| {
                imps.get(k)
                    .map(|&v| fmt_time(v))
                    .unwrap_or_else(|| "-".into())
            };
            let ratio = match (imps.get("strata"), imps.get("arrow-rs")) {
                (Some(s), Some(a)) if *a > 0.0 => {
                    ratios.push(s / a);
                    format!("{:.2}", s / a)
                }
                _ => "-".into(),
            };
            out.push_str(&format!(
                "| {case} | {} | {} | {} | {ratio} |\n",
                cell("strata"),
                cell("arrow-rs"),
                cell("memcpy")
            ));
        }
        if !ratios.is_empty() {
            out.push_str(&format!("\ngeomean ratio: {:.2}\n", geomean(&ratios)));
            all_ratios.extend(ratios);
        }
        out.push('\n');
    }
    if !all_ratios.is_empty() {
        out.push_str(&format!(
            "Overall geomean ratio (strata / arrow-rs) over {} cases: {:.2}\n",
            all_ratios.len(),
            geomean(&all_ratios)
        ));
    }
    out
}

fn geomean(v: &[f64]) -> f64 {
    let sum: f64 = v.iter().map(|x| x.ln()).sum();
    (sum / v.len() as f64).exp()
}
