//! `cargo xtask`: the project's automation.
//!
//! - `cargo xtask bench [--full] [--profile NAME] [FILTER]`: build the side-by-side benchmark
//!   suite with the `bench` profile, run it, and print a table per workload
//!   (strata, arrow-rs, memcpy floor, ratio). The table is also written to
//!   `target/bench-report/report.md`, with an SVG chart of the ratios
//!   (`target/bench-report/ratios.svg`, drawn with plotters). Then, unless
//!   a filter excludes it, the many-column writer's peak-heap measurement: one process
//!   per implementation and column count (`benches/benches/peak_heap.rs`),
//!   then one process for the peak heap of the Arrow reads and of the
//!   mixed-table writer (`peak_heap -- reads`). Unless a filter excludes
//!   it, the async object-store reads (`benches/benches/object_store.rs`)
//!   again with strata and arrow-rs taking turns, with the requests and
//!   bytes each side asked of the store. Last, unless a filter excludes
//!   it, TPC-H at scale factor 1 through DataFusion (`benches/tpch`):
//!   strata's Parquet format against DataFusion's built-in one, taking
//!   turns, built with the `release` profile whatever `--profile` says (an
//!   LTO build of DataFusion takes too long on two cores; both sides share
//!   the one binary), one run a side (five with `--full`). Its tables are
//!   appended to the report. A filter of just `tpch` runs only it, three
//!   runs a side (five with `--full`).
//! - `cargo xtask corpus [DIR]`: read every Parquet file of the
//!   parquet-testing corpus (default `../shared/parquet-testing`) through
//!   strata's Arrow reader and print pass/fail per file.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Instant, SystemTime};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("bench") => bench(&args[1..]),
        Some("corpus") => corpus(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask bench [--full] [--profile NAME] [FILTER] | cargo xtask corpus [DIR]"
            );
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
    // `--profile release` skips the LTO build while iterating.
    let profile = args
        .iter()
        .position(|a| a == "--profile")
        .and_then(|i| args.get(i + 1))
        .map_or("bench", String::as_str);
    let filter: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| !a.starts_with("--") && (*i == 0 || args[i - 1] != "--profile"))
        .map(|(_, a)| a)
        .collect();
    let root = workspace_root();
    let started = SystemTime::now();
    let wants_tpch = filter.is_empty() || filter.iter().any(|f| f.contains("tpch"));
    if !filter.is_empty() && filter.iter().all(|f| f.contains("tpch")) {
        let report = tpch(&root, if full { 5 } else { 3 })?;
        println!("{report}");
        return write_report(&root, &report);
    }
    // How long each part of the run took, so that the build (slow with the
    // LTO profile) and the benchmarking itself can be told apart.
    let mut phases: Vec<(&str, f64)> = Vec::new();
    let mut mark = Instant::now();
    let mut lap = |phases: &mut Vec<(&'static str, f64)>, name: &'static str| {
        phases.push((name, mark.elapsed().as_secs_f64()));
        mark = Instant::now();
    };

    // Build first, apart from the run.
    let build = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&root)
        .args([
            "bench",
            "--profile",
            profile,
            "-p",
            "strata-benches",
            "--no-run",
        ])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !build.success() {
        return Err(format!("building the benchmarks failed: {build}"));
    }
    lap(&mut phases, "build");

    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(&root)
        .args(["bench", "--profile", profile, "-p", "strata-benches", "--"]);
    if full {
        cmd.args(["--warm-up-time", "3", "--measurement-time", "10"]);
    } else {
        // The quick run, about 3 minutes of benchmarking on 2 cores (5 under
        // heavy load): 10 samples (criterion's least) in about 0.3 s per
        // benchmark after a 0.1 s warm-up; workloads slower than 30 ms an
        // iteration take 10 iterations whatever the target (about 80 s of
        // the run). 1,000 bootstrap resamples instead of 100,000 for the
        // confidence intervals: the report takes the median point
        // estimate, which resampling does not change, and the analysis
        // took 0.3 s a benchmark, now milliseconds. The benches read
        // STRATA_BENCH_QUICK to use 10 samples where they set more.
        cmd.args([
            "--warm-up-time",
            "0.1",
            "--measurement-time",
            "0.3",
            "--sample-size",
            "10",
            "--nresamples",
            "1000",
        ])
        .env("STRATA_BENCH_QUICK", "1");
    }
    cmd.arg("--noplot");
    for f in &filter {
        cmd.arg(f.as_str());
    }
    let wants_peaks = filter.is_empty() || filter.iter().any(|f| "peak_heap".contains(f.as_str()));
    // Only the peak heap asked for: every criterion binary would still build
    // its inputs before filtering, so skip them.
    if filter.is_empty() || !wants_peaks {
        eprintln!("xtask: running {cmd:?}");
        let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
        if !status.success() {
            return Err(format!("benchmarks failed: {status}"));
        }
        lap(&mut phases, "criterion suite");
    }

    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let results = collect_results(&target_dir.join("criterion"), started)?;
    let (peaks, read_peaks) = if wants_peaks {
        let peaks = peak_heap(&root, profile)?;
        let reads = read_peaks(&root, profile)?;
        lap(&mut phases, "peak heap");
        (peaks, reads)
    } else {
        (Peaks::new(), Vec::new())
    };
    let wants_interleaved = filter.is_empty()
        || filter
            .iter()
            .any(|f| "arrow_optional_no_nulls".contains(f.as_str()));
    let interleaved = if wants_interleaved {
        let rows = optional_interleaved(&root, profile, if full { 60 } else { 30 })?;
        lap(&mut phases, "optional/required taking turns");
        rows
    } else {
        Vec::new()
    };
    let wants_sides = filter.is_empty() || filter.iter().any(|f| f.contains("arrow"));
    let sides = if wants_sides {
        let rows = sides_interleaved(&root, profile, if full { 20 } else { 12 })?;
        lap(&mut phases, "strata/arrow-rs taking turns");
        rows
    } else {
        Vec::new()
    };
    let wants_wide = filter.is_empty()
        || filter.iter().any(|f| {
            "footer_decode".contains(f.as_str())
                || "wide_open".contains(f.as_str())
                || f.contains("footer")
                || f.contains("wide_open")
        });
    let wide = if wants_wide {
        let rows = sides_turns(
            &root,
            profile,
            &["footer", "wide_open"],
            if full { 60 } else { 30 },
        )?;
        lap(&mut phases, "wide files taking turns");
        rows
    } else {
        Vec::new()
    };
    let wants_object_store = filter.is_empty()
        || filter
            .iter()
            .any(|f| "object_store".contains(f.as_str()) || f.contains("object_store"));
    let object_store = if wants_object_store {
        let rows = object_store_turns(&root, profile, if full { 20 } else { 12 })?;
        lap(&mut phases, "object store taking turns");
        rows
    } else {
        Vec::new()
    };
    let wants_row_filter = filter.is_empty()
        || filter
            .iter()
            .any(|f| "row_filter".contains(f.as_str()) || f.contains("row_filter"));
    let row_filter = if wants_row_filter {
        let rows = row_filter_turns(&root, profile, if full { 15 } else { 5 })?;
        lap(&mut phases, "row filters taking turns");
        rows
    } else {
        Vec::new()
    };
    let wants_encryption = filter.is_empty()
        || filter
            .iter()
            .any(|f| "encryption".contains(f.as_str()) || f.contains("encryption"));
    let encryption = if wants_encryption {
        let (rows, _) = feature_turns(&root, profile, "encryption", if full { 15 } else { 7 })?;
        lap(&mut phases, "encryption taking turns");
        rows
    } else {
        Vec::new()
    };
    let wants_cdc = filter.is_empty()
        || filter
            .iter()
            .any(|f| "cdc".contains(f.as_str()) || f.contains("cdc"));
    let cdc = if wants_cdc {
        let (rows, text) = feature_turns(&root, profile, "cdc", if full { 15 } else { 7 })?;
        lap(&mut phases, "content-defined chunking taking turns");
        let mut table = render_feature(&rows, CDC_INTRO, "chunked", "unchunked");
        table.push_str(&render_cdc_dedup(&text)?);
        table
    } else {
        String::new()
    };
    if results.is_empty()
        && peaks.is_empty()
        && wide.is_empty()
        && row_filter.is_empty()
        && encryption.is_empty()
        && cdc.is_empty()
    {
        return Err("no benchmark results found under target/criterion".into());
    }
    let mut report = render_report(&results);
    report.push_str(&render_sides(&sides));
    report.push_str(&render_wide(&wide));
    report.push_str(&render_interleaved(&interleaved));
    report.push_str(&render_object_store(&object_store));
    report.push_str(&render_row_filter(&row_filter));
    report.push_str(&render_feature(
        &encryption,
        ENCRYPTION_INTRO,
        "encrypted",
        "unencrypted",
    ));
    report.push_str(&cdc);
    report.push_str(&render_peaks(&peaks));
    report.push_str(&render_read_peaks(&read_peaks));
    if wants_tpch {
        // One run a side in the quick run keeps it near five minutes of
        // benchmarking; `cargo xtask bench tpch` takes three.
        report.push_str(&tpch(&root, if full { 5 } else { 1 })?);
        lap(&mut phases, "TPC-H through DataFusion (build and run)");
    }
    report.push_str(&render_phases(&phases));
    println!("{report}");
    let dir = target_dir.join("bench-report");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("report.md");
    std::fs::write(&path, &report).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("xtask: report written to {}", path.display());
    let svg = dir.join("ratios.svg");
    chart(&results, &peaks, &svg)?;
    eprintln!("xtask: chart written to {}", svg.display());
    eprintln!(
        "xtask: done in {:.0} s",
        started.elapsed().map(|d| d.as_secs_f64()).unwrap_or(0.0)
    );
    Ok(())
}

/// Builds and runs the TPC-H benchmark (`benches/tpch`) with the release
/// profile, `runs` times a side, and returns its Markdown tables.
fn tpch(root: &Path, runs: usize) -> Result<String, String> {
    let runs = runs.to_string();
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args(["bench", "--profile", "release", "-p", "strata-tpch-bench"])
        .args(["--", "--runs", runs.as_str()])
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!("the TPC-H benchmark failed: {}", out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Writes a report of only the TPC-H benchmark to
/// `target/bench-report/tpch.md`.
fn write_report(root: &Path, report: &str) -> Result<(), String> {
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let dir = target_dir.join("bench-report");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("tpch.md");
    std::fs::write(&path, report).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("xtask: report written to {}", path.display());
    Ok(())
}

/// One case of strata's optional-against-required reads timed with the two
/// reads taking turns: the case, then the fastest and median read of the
/// required and of the optional column, in nanoseconds.
struct Interleaved {
    case: String,
    reps: usize,
    required: (f64, f64),
    optional: (f64, f64),
}

/// The time each part of the run took, and the benchmarking's total
/// (everything but the build).
fn render_phases(phases: &[(&str, f64)]) -> String {
    let mut out = String::from("\n## Run time\n\n| part | seconds |\n|---|---:|\n");
    for (name, secs) in phases {
        out.push_str(&format!("| {name} | {secs:.0} |\n"));
    }
    let running: f64 = phases
        .iter()
        .filter(|(name, _)| *name != "build")
        .map(|(_, s)| s)
        .sum();
    out.push_str(&format!(
        "| benchmarking, all but the build | {running:.0} |\n"
    ));
    out
}

/// Runs a benchmark binary of `strata-benches` with `args` (after `--`)
/// and returns what it printed; lines starting with `echo` are shown as
/// they are parsed.
fn run_bench(
    root: &Path,
    profile: &str,
    bench: &str,
    args: &[&str],
    echo: &str,
) -> Result<String, String> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args(["bench", "--profile", profile, "-p", "strata-benches"])
        .args(["--bench", bench, "--"])
        .args(args)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!("{bench} {args:?} failed: {}", out.status));
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    for line in text.lines().filter(|l| l.starts_with(echo)) {
        eprintln!("xtask: {line}");
    }
    Ok(text)
}

/// The fields of one result line (`prefix key=value ...`).
struct Fields<'a> {
    line: &'a str,
    prefix: &'a str,
}

impl<'a> Fields<'a> {
    fn text(&self, key: &str) -> Result<&'a str, String> {
        line_field(self.line, key)
            .ok_or_else(|| format!("{}: no {key} in {:?}", self.prefix, self.line))
    }

    fn number(&self, key: &str) -> Result<f64, String> {
        self.text(key)?
            .parse()
            .map_err(|_| format!("{}: {key} is not a number in {:?}", self.prefix, self.line))
    }
}

/// Every line of `text` that starts with `prefix` and a space, made into a
/// `T` by `build`; an error if a field is missing or there is no such line.
fn parse_lines<T>(
    text: &str,
    prefix: &str,
    build: impl Fn(&Fields<'_>) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let cases = text
        .lines()
        .filter(|l| l.strip_prefix(prefix).is_some_and(|r| r.starts_with(' ')))
        .map(|line| build(&Fields { line, prefix }))
        .collect::<Result<Vec<T>, String>>()?;
    if cases.is_empty() {
        return Err(format!("{prefix}: no result lines in {text:?}"));
    }
    Ok(cases)
}

/// Runs the `arrow` benchmark binary's interleaved optional/required
/// measurement (`--interleaved-optional REPS`) and parses its lines.
fn optional_interleaved(
    root: &Path,
    profile: &str,
    reps: usize,
) -> Result<Vec<Interleaved>, String> {
    let reps = reps.to_string();
    let text = run_bench(
        root,
        profile,
        "arrow",
        &["--interleaved-optional", &reps],
        "optional_interleaved ",
    )?;
    parse_interleaved(&text)
}

/// The `optional_interleaved` lines of the `arrow` bench's output.
fn parse_interleaved(text: &str) -> Result<Vec<Interleaved>, String> {
    parse_lines(text, "optional_interleaved", |f| {
        Ok(Interleaved {
            case: f.text("case")?.to_string(),
            reps: f.number("reps")? as usize,
            required: (
                f.number("required_min_ns")?,
                f.number("required_median_ns")?,
            ),
            optional: (
                f.number("optional_min_ns")?,
                f.number("optional_median_ns")?,
            ),
        })
    })
}

fn render_interleaved(cases: &[Interleaved]) -> String {
    let Some(first) = cases.first() else {
        return String::new();
    };
    let mut out = format!(
        "\n## strata: optional column without nulls / required, interleaved\n\n\
         The `arrow_optional_no_nulls` files read by strata, the required and the optional \
         column taking turns, {} reads each (criterion's table above times the two minutes \
         apart). Target: at most 1.05.\n\n\
         | case | required min | optional min | ratio of mins | required median | optional median | ratio of medians |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
        first.reps
    );
    for c in cases {
        out.push_str(&format!(
            "| {} | {} | {} | {:.3} | {} | {} | {:.3} |\n",
            c.case,
            fmt_time(c.required.0),
            fmt_time(c.optional.0),
            c.optional.0 / c.required.0,
            fmt_time(c.required.1),
            fmt_time(c.optional.1),
            c.optional.1 / c.required.1,
        ));
    }
    out
}

/// One Arrow API case timed with strata and arrow-rs taking turns: its
/// group and case, then the fastest and median run of each, in
/// nanoseconds.
struct Sides {
    group: String,
    case: String,
    reps: usize,
    strata: (f64, f64),
    arrow_rs: (f64, f64),
    /// The floor's (fastest, median), where the case has one (memcpy of
    /// the same bytes, taking turns with the readers).
    memcpy: Option<(f64, f64)>,
}

/// Runs the Arrow API bench binaries (`arrow`, `arrow_shapes`) in their
/// side-by-side mode (`--interleaved-sides REPS`: every case strata and
/// arrow-rs taking turns) and parses their lines.
fn sides_interleaved(root: &Path, profile: &str, reps: usize) -> Result<Vec<Sides>, String> {
    sides_turns(root, profile, &["arrow", "arrow_shapes"], reps)
}

/// The `sides_interleaved` lines of `benches` run with strata and arrow-rs
/// taking turns, `reps` times a case.
fn sides_turns(
    root: &Path,
    profile: &str,
    benches: &[&str],
    reps: usize,
) -> Result<Vec<Sides>, String> {
    let reps = reps.to_string();
    let mut text = String::new();
    for &bench in benches {
        text.push_str(&run_bench(
            root,
            profile,
            bench,
            &["--interleaved-sides", &reps],
            "sides_interleaved ",
        )?);
    }
    parse_sides(&text)
}

/// The ratio a wide-file case aims at, where the project has set one.
fn wide_target(group: &str, case: &str) -> Option<f64> {
    match (group, case) {
        ("footer_decode", "1000cols_x_10rg") => Some(0.67),
        ("wide_open", _) => Some(0.2),
        _ => None,
    }
}

/// The wide-file cases taking turns, each beside its target ratio.
fn render_wide(cases: &[Sides]) -> String {
    let Some(first) = cases.first() else {
        return String::new();
    };
    let mut out = format!(
        "\n## Wide files, strata and arrow-rs taking turns\n\n\
         Footer decode (with the schema descriptor) and opening a 10,000-column file to read \
         10 of its columns, each run {} times by strata and by arrow-rs in turn (after one \
         untimed run of each). ratio = strata / arrow-rs; the target is the ratio aimed at.\n\n\
         | group | case | strata median | arrow-rs median | ratio of medians | ratio of mins | target |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
        first.reps
    );
    for c in cases {
        let target = wide_target(&c.group, &c.case).map_or("".to_string(), |t| format!("{t:.2}"));
        out.push_str(&format!("{} {target} |\n", sides_row(c)));
    }
    out
}

/// The `sides_interleaved` lines of the Arrow API benches' output.
fn parse_sides(text: &str) -> Result<Vec<Sides>, String> {
    parse_lines(text, "sides_interleaved", |f| {
        Ok(Sides {
            group: f.text("group")?.to_string(),
            case: f.text("case")?.to_string(),
            reps: f.number("reps")? as usize,
            strata: (f.number("strata_min_ns")?, f.number("strata_median_ns")?),
            arrow_rs: (
                f.number("arrow_rs_min_ns")?,
                f.number("arrow_rs_median_ns")?,
            ),
            memcpy: match line_field(f.line, "memcpy_min_ns") {
                Some(_) => Some((f.number("memcpy_min_ns")?, f.number("memcpy_median_ns")?)),
                None => None,
            },
        })
    })
}

/// A case's cells in a taking-turns table: group, case, both medians, the
/// ratio of medians and of fastest runs, without the line end (a table
/// may add cells after them).
fn sides_row(c: &Sides) -> String {
    format!(
        "| {} | {} | {} | {} | {:.2} | {:.2} |",
        c.group,
        c.case,
        fmt_time(c.strata.1),
        fmt_time(c.arrow_rs.1),
        c.strata.1 / c.arrow_rs.1,
        c.strata.0 / c.arrow_rs.0,
    )
}

/// The side-by-side table and its read and write geomeans (of the ratios
/// of medians; a write group's name ends in `_write`).
fn render_sides(cases: &[Sides]) -> String {
    let Some(first) = cases.first() else {
        return String::new();
    };
    let mut out = format!(
        "\n## Arrow API, strata and arrow-rs taking turns\n\n\
         The Arrow API cases above again, each run {} times by strata and by arrow-rs \
         in turn (after one untimed run of each), so that both meet the same load on a \
         shared machine; criterion's tables time one implementation after the other. \
         ratio = strata / arrow-rs.\n\n\
         | group | case | strata median | arrow-rs median | ratio of medians | ratio of mins |\n\
         |---|---|---:|---:|---:|---:|\n",
        first.reps
    );
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    let (mut read_mins, mut write_mins) = (Vec::new(), Vec::new());
    for c in cases {
        let median = c.strata.1 / c.arrow_rs.1;
        let min = c.strata.0 / c.arrow_rs.0;
        out.push_str(&format!("{}\n", sides_row(c)));
        if c.group.ends_with("_write") {
            writes.push(median);
            write_mins.push(min);
        } else {
            reads.push(median);
            read_mins.push(min);
        }
    }
    out.push_str(
        "\n| taking turns | cases | geomean ratio of medians | geomean ratio of mins |\n\
         |---|---:|---:|---:|\n",
    );
    for (what, medians, mins) in [
        ("read", &reads, &read_mins),
        ("write", &writes, &write_mins),
    ] {
        if !medians.is_empty() {
            out.push_str(&format!(
                "| {what} | {} | {:.2} | {:.2} |\n",
                medians.len(),
                geomean(medians),
                geomean(mins)
            ));
        }
    }
    let floors: Vec<(&Sides, (f64, f64))> =
        cases.iter().filter_map(|c| Some((c, c.memcpy?))).collect();
    if !floors.is_empty() {
        out.push_str(
            "\nstrata against the floor in the same turns (memcpy of the same bytes \
             into a batch-sized buffer); ratio = strata / memcpy.\n\n\
             | group | case | strata median | memcpy median | ratio of medians | ratio of mins |\n\
             |---|---|---:|---:|---:|---:|\n",
        );
        for (c, (f_min, f_median)) in floors {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {:.2} | {:.2} |\n",
                c.group,
                c.case,
                fmt_time(c.strata.1),
                fmt_time(f_median),
                c.strata.1 / f_median,
                c.strata.0 / f_min,
            ));
        }
    }
    out
}

/// One async object-store read (`benches/benches/object_store.rs`) by
/// strata (its defaults, and asking for 8 bytes first) and arrow-rs
/// taking turns: times (fastest, median, ns), the requests and bytes one
/// read asked of the store (strata, strata 8 bytes first, arrow-rs), and
/// strata's push decoder's peak buffered bytes on the same read beside
/// the largest row group's projected column chunks.
struct ObjectStoreCase {
    case: String,
    reps: usize,
    strata: (f64, f64),
    strata_hint8: (f64, f64),
    arrow_rs: (f64, f64),
    requests: (f64, f64, f64),
    bytes: (f64, f64, f64),
    peak: f64,
    largest: f64,
}

/// Runs the `object_store` bench's side-by-side mode
/// (`--interleaved-sides REPS`) and parses its `object_store` lines.
fn object_store_turns(
    root: &Path,
    profile: &str,
    reps: usize,
) -> Result<Vec<ObjectStoreCase>, String> {
    let reps = reps.to_string();
    let text = run_bench(
        root,
        profile,
        "object_store",
        &["--interleaved-sides", &reps],
        "object_store",
    )?;
    parse_object_store(&text)
}

/// The `object_store` lines of the `object_store` bench's output.
fn parse_object_store(text: &str) -> Result<Vec<ObjectStoreCase>, String> {
    parse_lines(text, "object_store", |f| {
        Ok(ObjectStoreCase {
            case: f.text("case")?.to_string(),
            reps: f.number("reps")? as usize,
            strata: (f.number("strata_min_ns")?, f.number("strata_median_ns")?),
            strata_hint8: (
                f.number("strata_hint8_min_ns")?,
                f.number("strata_hint8_median_ns")?,
            ),
            arrow_rs: (
                f.number("arrow_rs_min_ns")?,
                f.number("arrow_rs_median_ns")?,
            ),
            requests: (
                f.number("strata_requests")?,
                f.number("strata_hint8_requests")?,
                f.number("arrow_rs_requests")?,
            ),
            bytes: (
                f.number("strata_bytes")?,
                f.number("strata_hint8_bytes")?,
                f.number("arrow_rs_bytes")?,
            ),
            peak: f.number("push_peak_buffered")?,
            largest: f.number("largest_row_group_projected")?,
        })
    })
}

/// The object-store table: requests, bytes and times of both sides.
fn render_object_store(cases: &[ObjectStoreCase]) -> String {
    let Some(first) = cases.first() else {
        return String::new();
    };
    let mut out = format!(
        "\n## Async reads through object_store, strata and arrow-rs taking turns\n\n\
         Each read goes through an in-memory store that waits 20 ms per request; \
         requests and bytes are one read's, times from {} reads of each side in turn. \
         strata reads with its defaults (the last 64 KiB first, kept) and, as \
         \"strata 8\", asking for 8 bytes first as arrow-rs does. \
         Targets: strata no more requests or bytes than arrow-rs, time at most 0.8x. \
         Peak buffered: strata's push decoder driven directly on the same read \
         (`buffered_bytes()`), beside the largest row group's projected chunks.\n\n\
         | case | requests strata / strata 8 / arrow-rs | bytes strata / strata 8 / arrow-rs | \
         strata median | strata 8 median | arrow-rs median | ratio of medians (strata 8) | \
         ratio of mins (strata 8) | peak buffered | largest row group projected |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
        first.reps
    );
    for c in cases {
        out.push_str(&format!(
            "| {} | {} / {} / {} | {} / {} / {} | {} | {} | {} | {:.2} ({:.2}) | {:.2} ({:.2}) | {} | {} |\n",
            c.case,
            c.requests.0,
            c.requests.1,
            c.requests.2,
            c.bytes.0,
            c.bytes.1,
            c.bytes.2,
            fmt_time(c.strata.1),
            fmt_time(c.strata_hint8.1),
            fmt_time(c.arrow_rs.1),
            c.strata.1 / c.arrow_rs.1,
            c.strata_hint8.1 / c.arrow_rs.1,
            c.strata.0 / c.arrow_rs.0,
            c.strata_hint8.0 / c.arrow_rs.0,
            fmt_bytes(c.peak),
            fmt_bytes(c.largest),
        ));
    }
    out
}

/// One case of the `row_filter` bench's side-by-side mode: the rows kept,
/// and the fastest and median read of strata's row filter, arrow-rs's,
/// and strata reading everything then filtering, in nanoseconds.
struct RowFilterCase {
    case: String,
    reps: usize,
    rows: f64,
    strata: (f64, f64),
    arrow_rs: (f64, f64),
    read_then_filter: (f64, f64),
}

/// Runs the `row_filter` bench's side-by-side mode
/// (`--interleaved-sides REPS`) and parses its `row_filter` lines.
fn row_filter_turns(root: &Path, profile: &str, reps: usize) -> Result<Vec<RowFilterCase>, String> {
    let reps = reps.to_string();
    let text = run_bench(
        root,
        profile,
        "row_filter",
        &["--interleaved-sides", &reps],
        "row_filter",
    )?;
    parse_row_filter(&text)
}

fn parse_row_filter(text: &str) -> Result<Vec<RowFilterCase>, String> {
    parse_lines(text, "row_filter", |f| {
        Ok(RowFilterCase {
            case: f.text("case")?.to_string(),
            reps: f.number("reps")? as usize,
            rows: f.number("rows")?,
            strata: (f.number("strata_min_ns")?, f.number("strata_median_ns")?),
            arrow_rs: (
                f.number("arrow_rs_min_ns")?,
                f.number("arrow_rs_median_ns")?,
            ),
            read_then_filter: (
                f.number("read_then_filter_min_ns")?,
                f.number("read_then_filter_median_ns")?,
            ),
        })
    })
}

/// The row-filter table: strata's filter against arrow-rs's, and against
/// strata reading everything and filtering afterwards.
fn render_row_filter(cases: &[RowFilterCase]) -> String {
    let Some(first) = cases.first() else {
        return String::new();
    };
    let mut out = format!(
        "\n## Row filters, strata and arrow-rs taking turns\n\n\
         A 10M-row table (INT64 key, timestamp, two strings, two doubles); a predicate \
         on the key keeps the share of rows the case names, scattered; the other five \
         columns are returned. strata's and arrow-rs's `with_row_filter` on the same \
         file (arrow-rs's, default properties), and strata reading all six columns \
         then filtering; {} reads of each in turn. Targets: at most 0.5x arrow-rs's \
         time at 0.1% and 1%, 0.67x at 10% and 50%.\n\n\
         | case | rows kept | strata median | arrow-rs median | ratio of medians | \
         ratio of mins | strata read all, then filter | filter / read all |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
        first.reps
    );
    for c in cases {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} | {:.2} | {} | {:.2} |\n",
            c.case,
            c.rows,
            fmt_time(c.strata.1),
            fmt_time(c.arrow_rs.1),
            c.strata.1 / c.arrow_rs.1,
            c.strata.0 / c.arrow_rs.0,
            fmt_time(c.read_then_filter.1),
            c.strata.1 / c.read_then_filter.1,
        ));
    }
    out
}

/// One case of a feature's side-by-side mode (`encryption`, `cdc`): the
/// fastest and median time of strata and arrow-rs with the feature on, and
/// the median of each without it, in nanoseconds.
struct FeatureCase {
    case: String,
    reps: usize,
    strata: (f64, f64),
    arrow_rs: (f64, f64),
    strata_plain: f64,
    arrow_rs_plain: f64,
}

/// Runs bench `bench`'s side-by-side mode; its cases and its whole output
/// (which may hold more lines).
fn feature_turns(
    root: &Path,
    profile: &str,
    bench: &str,
    reps: usize,
) -> Result<(Vec<FeatureCase>, String), String> {
    let reps = reps.to_string();
    let text = run_bench(root, profile, bench, &["--interleaved-sides", &reps], bench)?;
    Ok((parse_feature(&text, bench)?, text))
}

/// The `bench` lines of a feature's side-by-side output.
fn parse_feature(text: &str, bench: &str) -> Result<Vec<FeatureCase>, String> {
    parse_lines(text, bench, |f| {
        Ok(FeatureCase {
            case: f.text("case")?.to_string(),
            reps: f.number("reps")? as usize,
            strata: (f.number("strata_min_ns")?, f.number("strata_median_ns")?),
            arrow_rs: (
                f.number("arrow_rs_min_ns")?,
                f.number("arrow_rs_median_ns")?,
            ),
            strata_plain: f.number("strata_plain_median_ns")?,
            arrow_rs_plain: f.number("arrow_rs_plain_median_ns")?,
        })
    })
}

/// A feature's table: strata with it against arrow-rs with it, and each
/// against itself without it. `intro` is the section's heading and text;
/// `on` and `off` name the two settings in the column heads.
fn render_feature(cases: &[FeatureCase], intro: &str, on: &str, off: &str) -> String {
    let Some(first) = cases.first() else {
        return String::new();
    };
    let mut out = format!(
        "{intro} {} turns of each.\n\n\
         | case | strata median | arrow-rs median | ratio of medians | ratio of mins | \
         strata {off} | strata {on} / {off} | arrow-rs {on} / {off} |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
        first.reps
    );
    for c in cases {
        out.push_str(&format!(
            "| {} | {} | {} | {:.2} | {:.2} | {} | {:.2} | {:.2} |\n",
            c.case,
            fmt_time(c.strata.1),
            fmt_time(c.arrow_rs.1),
            c.strata.1 / c.arrow_rs.1,
            c.strata.0 / c.arrow_rs.0,
            fmt_time(c.strata_plain),
            c.strata.1 / c.strata_plain,
            c.arrow_rs.1 / c.arrow_rs_plain,
        ));
    }
    out
}

const ENCRYPTION_INTRO: &str = "\n## Encryption, strata and arrow-rs taking turns\n\n\
    The 1M-row mixed table written and read with AES_GCM_V1 (every column under the \
    footer key, encrypted footer), and without encryption; both read the file arrow-rs \
    wrote. Target: strata encrypted at most 0.67x arrow-rs encrypted, read and write.";

const CDC_INTRO: &str = "\n## Content-defined chunking, strata and arrow-rs taking turns\n\n\
    The 1M-row mixed table written in batches of 8,192 rows with \
    `set_content_defined_chunking(Some(CdcOptions::default()))`, and without it.";

/// The `cdc` bench's deduplication lines as a table: for each writer and
/// setting, the share of the edited file's data page bytes (1% of rows
/// inserted in the middle) found byte for byte in the original's.
fn render_cdc_dedup(text: &str) -> Result<String, String> {
    let rows = parse_lines(text, "cdc_dedup", |f| {
        Ok((
            f.text("writer")?.to_string(),
            f.text("chunking")? == "true",
            f.number("pages")?,
            f.number("shared_pages")?,
            f.number("bytes")?,
            f.number("shared_bytes")?,
        ))
    })?;
    let mut out = String::from(
        "\nDeduplication: the same table with 10,000 new rows inserted in the middle, \
         written again; of the second file's data pages, those byte for byte among the \
         first's.\n\n\
         | writer | chunking | data pages | shared pages | shared bytes |\n\
         |---|---|---:|---:|---:|\n",
    );
    for (writer, chunking, pages, shared, bytes, shared_bytes) in rows {
        out.push_str(&format!(
            "| {writer} | {} | {pages} | {shared} | {:.1}% |\n",
            if chunking { "content-defined" } else { "off" },
            100.0 * shared_bytes / bytes.max(1.0)
        ));
    }
    Ok(out)
}

/// The value of `key=value` among the space-separated fields of a result
/// line that a benchmark binary prints for xtask.
fn line_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

/// Column counts of the many-column writer's peak-heap measurement.
const PEAK_COLUMNS: [usize; 3] = [100, 1_000, 10_000];

/// columns -> implementation -> (bytes live after `try_new`, peak bytes).
type Peaks = BTreeMap<usize, BTreeMap<String, (f64, f64)>>;

/// Runs the peak-heap binary once per implementation and column count, each
/// in its own process (the counting allocator is process-wide).
fn peak_heap(root: &Path, profile: &str) -> Result<Peaks, String> {
    let mut peaks = Peaks::new();
    for columns in PEAK_COLUMNS {
        for imp in ["strata", "arrow-rs"] {
            let text = run_bench(
                root,
                profile,
                "peak_heap",
                &[imp, &columns.to_string()],
                "peak_heap impl=",
            )?;
            let line = text
                .lines()
                .find(|l| l.starts_with("peak_heap impl="))
                .ok_or_else(|| format!("peak_heap {imp} {columns}: no result line in {text:?}"))?;
            let field = |key: &str| -> Result<f64, String> {
                line_field(line, key)
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| format!("peak_heap: no {key} in {line:?}"))
            };
            peaks
                .entry(columns)
                .or_default()
                .insert(imp.to_string(), (field("after_try_new")?, field("peak")?));
        }
    }
    Ok(peaks)
}

/// Peak heap of one Arrow read case or mixed-table write, per
/// implementation: (what, case, strata bytes, arrow-rs bytes).
struct ReadPeak {
    what: String,
    case: String,
    strata: f64,
    arrow_rs: f64,
}

/// Runs `peak_heap reads` (every read case and the mixed-table writer,
/// both implementations, in one process: the counting allocator counts
/// the bytes asked for, so measurements one after another do not disturb
/// each other) and pairs its lines up.
fn read_peaks(root: &Path, profile: &str) -> Result<Vec<ReadPeak>, String> {
    let text = run_bench(root, profile, "peak_heap", &["reads"], "peak_")?;
    let mut rows: Vec<ReadPeak> = Vec::new();
    for (prefix, what, key) in [
        ("peak_read", "read", "case"),
        ("peak_write_mixed", "write mixed", "codec"),
    ] {
        let lines = parse_lines(&text, prefix, |f| {
            Ok((
                f.text("impl")?.to_string(),
                f.text(key)?.to_string(),
                f.number("peak")?,
            ))
        })?;
        for (imp, case, peak) in lines {
            let at = match rows.iter().position(|r| r.what == what && r.case == case) {
                Some(at) => at,
                None => {
                    rows.push(ReadPeak {
                        what: what.to_string(),
                        case: case.clone(),
                        strata: f64::NAN,
                        arrow_rs: f64::NAN,
                    });
                    rows.len() - 1
                }
            };
            match imp.as_str() {
                "strata" => rows[at].strata = peak,
                _ => rows[at].arrow_rs = peak,
            }
        }
    }
    Ok(rows)
}

fn render_read_peaks(rows: &[ReadPeak]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "## Peak heap of Arrow reads and of the mixed-table writer\n\n\
         Bytes live at most while reading a file whole (each batch dropped before the next; the \
         file already in memory), or from `try_new` to `close` of the 1M-row mixed table, a \
         counting allocator in one process. Files written by arrow-rs, read by both. \
         ratio = strata / arrow-rs (target: at most 1).\n\n\
         | what | case | strata peak | arrow-rs peak | ratio |\n|---|---|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} |\n",
            r.what,
            r.case,
            fmt_bytes(r.strata),
            fmt_bytes(r.arrow_rs),
            r.strata / r.arrow_rs
        ));
    }
    out.push('\n');
    out
}

fn fmt_bytes(b: f64) -> String {
    if b >= 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    } else {
        format!("{:.1} KiB", b / 1024.0)
    }
}

fn render_peaks(peaks: &Peaks) -> String {
    if peaks.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "## peak_heap\n\nThe many-column writer: peak heap of an Arrow writer (PARQUET_2_0, default properties) \
         over nullable Utf8 columns, from `try_new` to `close` of a 4-row batch; one process per \
         measurement. ratio = strata peak / arrow-rs peak.\n\n\
         | columns | strata peak | arrow-rs peak | ratio | strata after try_new | arrow-rs after try_new |\n\
         |---:|---:|---:|---:|---:|---:|\n",
    );
    for (columns, imps) in peaks {
        let cell = |k: &str, peak: bool| {
            imps.get(k)
                .map(|&(t, p)| fmt_bytes(if peak { p } else { t }))
                .unwrap_or_else(|| "-".into())
        };
        let ratio = match (imps.get("strata"), imps.get("arrow-rs")) {
            (Some(s), Some(a)) if a.1 > 0.0 => format!("{:.2}", s.1 / a.1),
            _ => "-".into(),
        };
        out.push_str(&format!(
            "| {columns} | {} | {} | {ratio} | {} | {} |\n",
            cell("strata", true),
            cell("arrow-rs", true),
            cell("strata", false),
            cell("arrow-rs", false)
        ));
    }
    out.push('\n');
    out
}

/// A horizontal bar per case: strata's time over arrow-rs's, with the
/// parity line at 1 and the 1.5x-faster target at 0.67.
fn chart(results: &Results, peaks: &Peaks, path: &Path) -> Result<(), String> {
    use plotters::prelude::*;
    let mut bars: Vec<(String, f64)> = Vec::new();
    for (group, cases) in results {
        for (case, imps) in cases {
            if let (Some(s), Some(a)) = (imps.get("strata"), imps.get("arrow-rs"))
                && *a > 0.0
            {
                bars.push((format!("{group}/{case}"), s / a));
            }
        }
    }
    for (columns, imps) in peaks {
        if let (Some(s), Some(a)) = (imps.get("strata"), imps.get("arrow-rs"))
            && a.1 > 0.0
        {
            bars.push((format!("peak_heap/{columns}cols (bytes)"), s.1 / a.1));
        }
    }
    if bars.is_empty() {
        return Ok(());
    }
    let height = 60 + 22 * bars.len() as u32;
    let root = SVGBackend::new(path, (1000, height)).into_drawing_area();
    let err = |e: &dyn std::fmt::Display| format!("chart: {e}");
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let max = bars.iter().map(|b| b.1).fold(1.2f64, f64::max) * 1.05;
    let n = bars.len() as i32;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "strata / arrow-rs: time, or peak heap bytes (below 1: strata better)",
            ("sans-serif", 16),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(330)
        .build_cartesian_2d(0f64..max, 0..n)
        .map_err(|e| err(&e))?;
    let labels: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    chart
        .configure_mesh()
        .y_labels(bars.len())
        .y_label_formatter(&|y| {
            usize::try_from(n - 1 - *y)
                .ok()
                .and_then(|i| labels.get(i))
                .cloned()
                .unwrap_or_default()
        })
        .x_desc("ratio")
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(bars.iter().enumerate().map(|(i, (_, r))| {
            let y = n - 1 - i as i32;
            let color = if *r <= 1.0 {
                GREEN.mix(0.7)
            } else {
                RED.mix(0.7)
            };
            Rectangle::new([(0.0, y), (*r, y + 1)], color.filled())
        }))
        .map_err(|e| err(&e))?;
    for (x, color) in [(1.0, BLACK), (0.67, BLUE)] {
        chart
            .draw_series(LineSeries::new(vec![(x, 0), (x, n)], color))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// Read every Parquet file under `dir` through the Arrow reader.
fn corpus(args: &[String]) -> Result<(), String> {
    use strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let dir = args
        .first()
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/parquet-testing"));
    if !dir.is_dir() {
        return Err(format!("corpus not found at {}", dir.display()));
    }
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)
            .map_err(|e| format!("{}: {e}", d.display()))?
            .flatten()
        {
            let p = entry.path();
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            if p.is_dir() {
                stack.push(p);
            } else if name.ends_with(".parquet") || name.ends_with(".parquet.encrypted") {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut pass, mut fail) = (0, 0);
    for path in &files {
        let shown = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let outcome = std::panic::catch_unwind(|| -> Result<usize, String> {
            let data = std::fs::read(path).map_err(|e| e.to_string())?;
            let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(data))
                .map_err(|e| e.to_string())?
                .build()
                .map_err(|e| e.to_string())?;
            let mut rows = 0;
            for batch in reader {
                rows += batch.map_err(|e| e.to_string())?.num_rows();
            }
            Ok(rows)
        });
        match outcome {
            Ok(Ok(rows)) => {
                pass += 1;
                println!("pass  {shown} ({rows} rows)");
            }
            Ok(Err(e)) => {
                fail += 1;
                println!("FAIL  {shown}: {e}");
            }
            Err(_) => {
                fail += 1;
                println!("PANIC {shown}");
            }
        }
    }
    println!("{pass} passed, {fail} failed, {} files", files.len());
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
    out.push_str("Median time per iteration from one run. ratio = strata / arrow-rs (below 1 is faster); strata / memcpy is the distance from the floor.\n\n");
    let mut all_ratios = Vec::new();
    for (group, cases) in results {
        out.push_str(&format!("## {group}\n\n| case | strata | arrow-rs | memcpy | ratio | strata / memcpy |\n|---|---:|---:|---:|---:|---:|\n"));
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
            let floor = match (imps.get("strata"), imps.get("memcpy")) {
                (Some(s), Some(m)) if *m > 0.0 => format!("{:.2}", s / m),
                _ => "-".into(),
            };
            out.push_str(&format!(
                "| {case} | {} | {} | {} | {ratio} | {floor} |\n",
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
    out.push_str(&render_targets(results));
    out
}

/// The suite's headline figures: the geomean ratio of the Arrow API reads
/// and writes (groups `arrow_*`, a write group's name ends in `_write`),
/// and strata's optional column without nulls against the required one,
/// case by case (`opt_*` against `req_*`, `optional/*` against
/// `required/*`, in the same group).
fn render_targets(results: &Results) -> String {
    let mut out = String::new();
    let (mut reads, mut writes) = (Vec::new(), Vec::new());
    for (group, cases) in results.iter().filter(|(g, _)| g.starts_with("arrow_")) {
        for imps in cases.values() {
            if let (Some(s), Some(a)) = (imps.get("strata"), imps.get("arrow-rs"))
                && *a > 0.0
            {
                if group.ends_with("_write") {
                    &mut writes
                } else {
                    &mut reads
                }
                .push(s / a);
            }
        }
    }
    if !reads.is_empty() || !writes.is_empty() {
        out.push_str("\n## Arrow API geomeans (strata / arrow-rs)\n\n| | cases | geomean ratio |\n|---|---:|---:|\n");
        for (what, v) in [("read", &reads), ("write", &writes)] {
            if !v.is_empty() {
                out.push_str(&format!("| {what} | {} | {:.2} |\n", v.len(), geomean(v)));
            }
        }
    }
    let mut pairs = String::new();
    for (group, cases) in results {
        for (case, imps) in cases {
            let required = if let Some(rest) = case.strip_prefix("opt_") {
                format!("req_{rest}")
            } else if let Some(rest) = case.strip_prefix("optional/") {
                format!("required/{rest}")
            } else {
                continue;
            };
            let req = cases.get(&required).and_then(|r| r.get("strata"));
            if let (Some(o), Some(r)) = (imps.get("strata"), req)
                && *r > 0.0
            {
                pairs.push_str(&format!(
                    "| {group} | {case} | {} | {} | {:.2} |\n",
                    fmt_time(*o),
                    fmt_time(*r),
                    o / r
                ));
            }
        }
    }
    if !pairs.is_empty() {
        out.push_str("\n## strata: optional column without nulls / required column\n\n| group | case | optional | required | ratio |\n|---|---|---:|---:|---:|\n");
        out.push_str(&pairs);
    }
    out
}

fn geomean(v: &[f64]) -> f64 {
    let sum: f64 = v.iter().map(|x| x.ln()).sum();
    (sum / v.len() as f64).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(rows: &[(&str, &str, &str, f64)]) -> Results {
        let mut r = Results::new();
        for &(group, case, imp, ns) in rows {
            r.entry(group.into())
                .or_default()
                .entry(case.into())
                .or_default()
                .insert(imp.into(), ns);
        }
        r
    }

    #[test]
    fn interleaved_lines_parse_and_render_as_ratios() {
        let text = "Running benches\n\
            optional_interleaved case=1k/utf8/8192 reps=10 required_min_ns=2000 \
            required_median_ns=4000 optional_min_ns=2100 optional_median_ns=3000\n\
            noise\n";
        let cases = parse_interleaved(text).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(
            (cases[0].case.as_str(), cases[0].reps),
            ("1k/utf8/8192", 10)
        );
        assert_eq!(
            (cases[0].required, cases[0].optional),
            ((2000.0, 4000.0), (2100.0, 3000.0))
        );
        let table = render_interleaved(&cases);
        assert!(table.contains("10 reads each"), "{table}");
        assert!(
            table.contains(
                "| 1k/utf8/8192 | 2.00 µs | 2.10 µs | 1.050 | 4.00 µs | 3.00 µs | 0.750 |"
            ),
            "{table}"
        );
        // A line without a field, or no line at all, is an error.
        assert!(parse_interleaved("optional_interleaved case=x reps=1\n").is_err());
        assert!(parse_interleaved("nothing here\n").is_err());
        assert_eq!(render_interleaved(&[]), "");
    }

    #[test]
    fn run_time_leaves_the_build_out_of_the_benchmarking_total() {
        let table = render_phases(&[
            ("build", 400.0),
            ("criterion suite", 150.0),
            ("peak heap", 4.4),
        ]);
        assert!(table.contains("| build | 400 |"), "{table}");
        assert!(table.contains("| criterion suite | 150 |"), "{table}");
        assert!(
            table.contains("| benchmarking, all but the build | 154 |"),
            "{table}"
        );
    }

    #[test]
    fn side_by_side_lines_parse_and_render_with_geomeans() {
        let text = "Running\n\
            sides_interleaved group=arrow_mixed_read case=zstd reps=8 strata_min_ns=50 \
            strata_median_ns=60 arrow_rs_min_ns=100 arrow_rs_median_ns=120\n\
            sides_interleaved group=arrow_nested_read case=list reps=8 strata_min_ns=200 \
            strata_median_ns=240 arrow_rs_min_ns=100 arrow_rs_median_ns=120\n\
            sides_interleaved group=arrow_mixed_write case=zstd reps=8 strata_min_ns=90 \
            strata_median_ns=75 arrow_rs_min_ns=100 arrow_rs_median_ns=100\n";
        let cases = parse_sides(text).unwrap();
        assert_eq!(cases.len(), 3);
        assert_eq!(
            (
                cases[2].group.as_str(),
                cases[2].case.as_str(),
                cases[2].reps
            ),
            ("arrow_mixed_write", "zstd", 8)
        );
        assert_eq!(
            (cases[0].strata, cases[0].arrow_rs),
            ((50.0, 60.0), (100.0, 120.0))
        );
        let table = render_sides(&cases);
        assert!(table.contains("run 8 times"), "{table}");
        assert!(
            table.contains("| arrow_mixed_read | zstd | 60.0 ns | 120.0 ns | 0.50 | 0.50 |"),
            "{table}"
        );
        // Reads: medians 0.5 and 2.0 (geomean 1.00), mins 0.5 and 2.0;
        // the write alone: 0.75 and 0.90.
        assert!(table.contains("| read | 2 | 1.00 | 1.00 |"), "{table}");
        assert!(table.contains("| write | 1 | 0.75 | 0.90 |"), "{table}");
        assert!(parse_sides("sides_interleaved group=g case=c reps=1\n").is_err());
        // No floor in these lines: no floor table.
        assert!(cases.iter().all(|c| c.memcpy.is_none()));
        assert!(!table.contains("against the floor"), "{table}");
    }

    #[test]
    fn wide_file_lines_render_beside_their_targets() {
        let text = "sides_interleaved group=footer_decode case=1000cols_x_10rg reps=30 \
            strata_min_ns=600 strata_median_ns=700 arrow_rs_min_ns=1000 arrow_rs_median_ns=1000\n\
            sides_interleaved group=footer_decode case=100cols_x_1rg reps=30 strata_min_ns=5 \
            strata_median_ns=6 arrow_rs_min_ns=10 arrow_rs_median_ns=10\n\
            sides_interleaved group=wide_open case=10000cols_read10 reps=30 strata_min_ns=900 \
            strata_median_ns=950 arrow_rs_min_ns=1000 arrow_rs_median_ns=1000\n";
        let table = render_wide(&parse_sides(text).unwrap());
        assert!(table.contains("run 30 times"), "{table}");
        assert!(
            table.contains(
                "| footer_decode | 1000cols_x_10rg | 700.0 ns | 1.00 µs | 0.70 | 0.60 | 0.67 |"
            ),
            "{table}"
        );
        // A case without a target leaves the column empty.
        assert!(
            table.contains("| footer_decode | 100cols_x_1rg | 6.0 ns | 10.0 ns | 0.60 | 0.50 |  |"),
            "{table}"
        );
        assert!(
            table.contains(
                "| wide_open | 10000cols_read10 | 950.0 ns | 1.00 µs | 0.95 | 0.90 | 0.20 |"
            ),
            "{table}"
        );
        assert!(render_wide(&[]).is_empty());
    }

    #[test]
    fn row_filter_lines_parse_and_render() {
        let text = "noise\nrow_filter case=keep_1pct reps=5 rows=100000 strata_min_ns=100 \
                    strata_median_ns=200 arrow_rs_min_ns=400 arrow_rs_median_ns=500 \
                    read_then_filter_min_ns=800 read_then_filter_median_ns=1000 \
                    ratio_of_medians=0.400\n";
        let cases = parse_row_filter(text).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].rows, 100_000.0);
        let table = render_row_filter(&cases);
        assert!(table.contains("| keep_1pct | 100000 |"), "{table}");
        assert!(table.contains("| 0.40 | 0.25 |"), "{table}");
        assert!(table.ends_with("| 0.20 |\n"), "{table}");
        assert!(parse_row_filter("row_filter case=x reps=1\n").is_err());
    }

    #[test]
    fn feature_lines_parse_and_render() {
        let text = "noise\ncdc case=write reps=7 strata_min_ns=100 strata_median_ns=200 \
                    arrow_rs_min_ns=400 arrow_rs_median_ns=500 strata_plain_median_ns=100 \
                    arrow_rs_plain_median_ns=250 ratio_of_medians=0.400\n\
                    cdc_dedup writer=strata chunking=true pages=10 shared_pages=8 bytes=1000 \
                    shared_bytes=832\n";
        let cases = parse_feature(text, "cdc").unwrap();
        assert_eq!(cases.len(), 1);
        let table = render_feature(&cases, CDC_INTRO, "chunked", "unchunked");
        assert!(table.contains("| write |"), "{table}");
        assert!(table.contains("strata chunked / unchunked"), "{table}");
        assert!(table.contains("| 0.40 | 0.25 |"), "{table}");
        assert!(table.ends_with("| 2.00 | 2.00 |\n"), "{table}");
        assert!(parse_feature("cdc case=x reps=1\n", "cdc").is_err());
        assert!(parse_feature(text, "encryption").is_err());
        let dedup = render_cdc_dedup(text).unwrap();
        assert!(
            dedup.ends_with("| strata | content-defined | 10 | 8 | 83.2% |\n"),
            "{dedup}"
        );
    }

    #[test]
    fn object_store_lines_parse_and_render() {
        let text = "object_store_io case=c file_bytes=9\n\
            object_store case=mixed_full_scan reps=4 strata_min_ns=50 strata_median_ns=60 \
            strata_hint8_min_ns=80 strata_hint8_median_ns=90 \
            arrow_rs_min_ns=100 arrow_rs_median_ns=120 ratio_of_medians=0.500 \
            strata_requests=3 strata_bytes=1000 strata_hint8_requests=4 strata_hint8_bytes=990 \
            arrow_rs_requests=4 arrow_rs_bytes=1200 \
            push_peak_buffered=900 largest_row_group_projected=950\n";
        let cases = parse_object_store(text).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(
            (cases[0].requests, cases[0].bytes),
            ((3.0, 4.0, 4.0), (1000.0, 990.0, 1200.0))
        );
        let table = render_object_store(&cases);
        assert!(table.contains("from 4 reads"), "{table}");
        assert!(
            table.contains(
                "| mixed_full_scan | 3 / 4 / 4 | 1000 / 990 / 1200 | 60.0 ns | 90.0 ns | 120.0 ns | \
                 0.50 (0.75) | 0.50 (0.80) |"
            ),
            "{table}"
        );
        assert!(parse_object_store("object_store case=c reps=1\n").is_err());
        assert_eq!(render_object_store(&[]), "");
    }

    #[test]
    fn a_side_by_side_line_with_a_floor_gets_a_floor_table() {
        let text = "sides_interleaved group=arrow_int64_plain_read case=4M reps=12 \
            strata_min_ns=300 strata_median_ns=330 arrow_rs_min_ns=400 \
            arrow_rs_median_ns=440 memcpy_min_ns=250 memcpy_median_ns=300\n";
        let cases = parse_sides(text).unwrap();
        assert_eq!(cases[0].memcpy, Some((250.0, 300.0)));
        let table = render_sides(&cases);
        assert!(
            table.contains("| arrow_int64_plain_read | 4M | 330.0 ns | 300.0 ns | 1.10 | 1.20 |"),
            "{table}"
        );
        // A floor whose median is missing is an error, not a silent skip.
        let bad = text.replace(" memcpy_median_ns=300", "");
        assert!(parse_sides(&bad).is_err());
        assert!(parse_sides("nothing\n").is_err());
        assert_eq!(render_sides(&[]), "");
    }

    #[test]
    fn targets_pair_optional_with_required_and_split_reads_from_writes() {
        let r = results(&[
            ("arrow_mixed_read", "none", "strata", 50.0),
            ("arrow_mixed_read", "none", "arrow-rs", 100.0),
            ("arrow_nested_read", "list", "strata", 200.0),
            ("arrow_nested_read", "list", "arrow-rs", 100.0),
            ("arrow_mixed_write", "none", "strata", 30.0),
            ("arrow_mixed_write", "none", "arrow-rs", 60.0),
            ("record_read", "opt_1k_b8192", "strata", 11.0),
            ("record_read", "req_1k_b8192", "strata", 10.0),
            ("record_read", "opt_100k_b8192", "strata", 5.0),
            (
                "arrow_optional_no_nulls",
                "optional/1k/utf8/8192",
                "strata",
                9.0,
            ),
            (
                "arrow_optional_no_nulls",
                "required/1k/utf8/8192",
                "strata",
                10.0,
            ),
            // Not an Arrow group: not in the geomeans.
            ("footer_decode", "x", "strata", 1.0),
            ("footer_decode", "x", "arrow-rs", 100.0),
        ]);
        let t = render_targets(&r);
        // Reads: 0.5 and 2.0, geomean 1.00 (the optional group has no
        // arrow-rs side here); writes: 0.5.
        assert!(t.contains("| read | 2 | 1.00 |"), "{t}");
        assert!(t.contains("| write | 1 | 0.50 |"), "{t}");
        assert!(
            t.contains("| record_read | opt_1k_b8192 | 11.0 ns | 10.0 ns | 1.10 |"),
            "{t}"
        );
        assert!(
            t.contains("| optional/1k/utf8/8192 | 9.0 ns | 10.0 ns | 0.90 |"),
            "{t}"
        );
        // No required side: no row.
        assert!(!t.contains("opt_100k_b8192"), "{t}");
    }
}
