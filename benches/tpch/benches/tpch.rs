//! TPC-H through DataFusion: strata's Parquet format against DataFusion's
//! built-in Parquet, on the same files and the same session settings.
//!
//! The tables come from `tpchgen-arrow`, written once by strata and once
//! by arrow-rs (each writer's defaults) under `target/tpch/sf<SCALE>/`,
//! and kept there for the next run (delete `target/tpch` after a change
//! to either writer, or the runs keep reading the old files). For each
//! file set, at one partition and at one partition per core, the 22
//! queries run `--runs` times on each side, the two sides taking turns
//! (the first side alternates from run to run). A query's time is from its SQL text to its last batch:
//! planning and execution. Each side's first answer must equal the
//! other's, row for row, or the run fails.
//!
//! Prints one Markdown table per file set and partition count: each
//! query's median time on either side, their ratio (strata / built-in,
//! below 1 is faster), and what the scans read: bytes fetched, row
//! groups and pages pruned. `cargo xtask bench` runs it and appends the
//! tables to its report.
//!
//! Under each table, the CPU time of both sides (every thread of the
//! process, user and system, Linux only) in the same runs: how much of a
//! side's lead in time is less work and how much is work done on another
//! core. `--side strata` or `--side built-in` runs one side alone (with
//! `--explain` too) and prints only its times, to profile it.
//!
//! ```text
//! cargo bench --profile release -p strata-tpch-bench -- [--scale SF] [--runs N] [--query N]... [--partitions N]... [--explain] [--side strata|built-in]
//! ```
#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../../crates/strata-datafusion/tests/common/tpch_data.rs"]
mod tpch_data;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::physical_plan::metrics::MetricValue;
use datafusion::physical_plan::{ExecutionPlan, collect};
use datafusion::prelude::{SessionConfig, SessionContext};

use tpch_data::Writer;

/// The command line.
struct Options {
    scale: f64,
    runs: usize,
    queries: Vec<usize>,
    partitions: Vec<usize>,
    /// Print each query's `EXPLAIN ANALYZE` on both sides instead of
    /// timing it.
    explain: bool,
    /// Run only this side (`true`: strata), without comparing answers.
    only: Option<bool>,
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut opts = Options {
        scale: 1.0,
        runs: 3,
        queries: Vec::new(),
        partitions: Vec::new(),
        explain: false,
        only: None,
    };
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).map(String::as_str);
        let number = || -> usize {
            value
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{} needs a number", args[i]))
        };
        match args[i].as_str() {
            // What `cargo bench` passes to every benchmark binary.
            "--bench" => {
                i += 1;
                continue;
            }
            "--explain" => {
                opts.explain = true;
                i += 1;
                continue;
            }
            "--scale" => {
                opts.scale = value
                    .and_then(|v| v.parse().ok())
                    .filter(|s: &f64| *s > 0.0)
                    .expect("--scale needs a positive number")
            }
            "--runs" => opts.runs = number().max(1),
            "--query" => opts.queries.push(number()),
            "--partitions" => opts.partitions.push(number().max(1)),
            "--side" => {
                opts.only = match value {
                    Some("strata") => Some(true),
                    Some("built-in") => Some(false),
                    _ => panic!("--side needs strata or built-in"),
                }
            }
            "--help" | "-h" => {
                println!(
                    "tpch [--scale SF] [--runs N] [--query N]... [--partitions N]... [--explain] \
                     [--side strata|built-in]\n\
                     defaults: scale 1, 3 runs, all 22 queries, 1 and {cores} partitions"
                );
                std::process::exit(0);
            }
            other => panic!("unknown argument {other} (try --help)"),
        }
        i += 2;
    }
    if opts.queries.is_empty() {
        opts.queries = (1..=22).collect();
    }
    if opts.partitions.is_empty() {
        opts.partitions = vec![1];
        if cores > 1 {
            opts.partitions.push(cores);
        }
    }
    opts
}

/// The workspace's target directory.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"))
}

/// The tables of one file set, written on the first run and kept. A
/// marker written last tells a finished set from an interrupted one.
fn file_set(scale: f64, writer: Writer) -> PathBuf {
    let name = match writer {
        Writer::Strata => "strata",
        Writer::ArrowRs => "arrow-rs",
    };
    let dir = target_dir().join(format!("tpch/sf{scale}/{name}"));
    let done = dir.join("complete");
    if !done.exists() {
        let started = Instant::now();
        eprintln!("tpch: writing SF {scale} with {name} to {}", dir.display());
        let _ = std::fs::remove_dir_all(&dir);
        tpch_data::write_tables(&dir, scale, writer, None);
        std::fs::write(&done, b"").unwrap();
        eprintln!("tpch: written in {:.1} s", started.elapsed().as_secs_f64());
    }
    dir
}

/// A session over the tables in `dir`, with strata as its Parquet format
/// or DataFusion's own.
async fn session(dir: &Path, strata: bool, partitions: usize) -> SessionContext {
    let config = SessionConfig::new().with_target_partitions(partitions);
    let ctx = SessionContext::new_with_config(config);
    if strata {
        strata_datafusion::register_strata(&ctx).unwrap();
    }
    tpch_data::register_tables(&ctx, dir).await;
    ctx
}

/// What the scans of one query read, summed over the plan's scans.
#[derive(Debug, Default, Clone, Copy)]
struct Scanned {
    bytes: usize,
    row_groups_pruned: usize,
    pages_pruned: usize,
}

impl Scanned {
    fn of(plan: &Arc<dyn ExecutionPlan>) -> Self {
        let mut total = Self::default();
        total.add(plan);
        total
    }

    fn add(&mut self, plan: &Arc<dyn ExecutionPlan>) {
        for metric in plan.metrics().iter().flat_map(|m| m.iter()) {
            let (name, value) = match metric.value() {
                MetricValue::Count { name, count } => (name.as_ref(), count.value()),
                MetricValue::PruningMetrics {
                    name,
                    pruning_metrics,
                } => (name.as_ref(), pruning_metrics.pruned()),
                _ => continue,
            };
            match name {
                "bytes_scanned" => self.bytes += value,
                "row_groups_pruned_statistics" | "row_groups_pruned_bloom_filter" => {
                    self.row_groups_pruned += value
                }
                "page_index_pages_pruned" => self.pages_pruned += value,
                _ => {}
            }
        }
        for child in plan.children() {
            self.add(child);
        }
    }
}

/// One run of `sql`: its time from text to last batch, its batches and
/// what its scans read.
async fn run(ctx: &SessionContext, sql: &str) -> (Duration, Vec<RecordBatch>, Scanned) {
    let started = Instant::now();
    let frame = ctx.sql(sql).await.unwrap_or_else(|e| panic!("{e}\n{sql}"));
    let plan = frame
        .create_physical_plan()
        .await
        .unwrap_or_else(|e| panic!("{e}\n{sql}"));
    let batches = collect(Arc::clone(&plan), ctx.task_ctx())
        .await
        .unwrap_or_else(|e| panic!("{e}\n{sql}"));
    (started.elapsed(), batches, Scanned::of(&plan))
}

/// The CPU time of this process so far, every thread, user and system:
/// `utime` and `stime` of `/proc/self/stat`, in the kernel's fixed
/// 100-a-second ticks. `None` where there is no such file.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may
    // hold spaces: state is the first, utime the 12th and stime the 13th.
    let fields: Vec<&str> = stat
        .get(stat.rfind(')')? + 1..)?
        .split_whitespace()
        .collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// One query's row of a table.
struct Row {
    query: usize,
    strata: Duration,
    builtin: Duration,
    strata_read: Scanned,
    builtin_read: Scanned,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn render(title: &str, rows: &[Row]) -> String {
    let mut out = format!(
        "\n### {title}\n\n\
         | query | strata ms | built-in ms | ratio | MiB read strata / built-in \
         | row groups pruned | pages pruned |\n\
         |---|---:|---:|---:|---:|---:|---:|\n"
    );
    for r in rows {
        out.push_str(&format!(
            "| Q{} | {:.1} | {:.1} | {:.2} | {:.1} / {:.1} | {} / {} | {} / {} |\n",
            r.query,
            ms(r.strata),
            ms(r.builtin),
            ms(r.strata) / ms(r.builtin),
            mib(r.strata_read.bytes),
            mib(r.builtin_read.bytes),
            r.strata_read.row_groups_pruned,
            r.builtin_read.row_groups_pruned,
            r.strata_read.pages_pruned,
            r.builtin_read.pages_pruned,
        ));
    }
    let strata: Duration = rows.iter().map(|r| r.strata).sum();
    let builtin: Duration = rows.iter().map(|r| r.builtin).sum();
    let bytes = |f: fn(&Row) -> usize| rows.iter().map(f).sum::<usize>();
    out.push_str(&format!(
        "| **total** | {:.1} | {:.1} | **{:.2}** | {:.1} / {:.1} | | |\n",
        ms(strata),
        ms(builtin),
        ms(strata) / ms(builtin),
        mib(bytes(|r| r.strata_read.bytes)),
        mib(bytes(|r| r.builtin_read.bytes)),
    ));
    out
}

#[tokio::main]
async fn main() {
    let opts = options();
    let started = Instant::now();
    // One side alone prints its times as it goes and no tables.
    let mut report = match opts.only {
        Some(_) => String::new(),
        None => format!(
            "\n## TPC-H SF {} through DataFusion: strata's format against the built-in Parquet\n\n\
             Median of {} runs, the two sides taking turns; time from SQL text to last batch. \
             Ratio is strata / built-in.\n",
            opts.scale, opts.runs
        ),
    };
    for writer in [Writer::Strata, Writer::ArrowRs] {
        let dir = file_set(opts.scale, writer);
        for &partitions in &opts.partitions {
            let ours = session(&dir, true, partitions).await;
            let theirs = session(&dir, false, partitions).await;
            let mut rows = Vec::new();
            // Each side's CPU time over all its runs of every query.
            let mut cpu_used = (Some(Duration::ZERO), Some(Duration::ZERO));
            for &n in &opts.queries {
                let sql = tpch_data::query(&query_dir(), n);
                if opts.explain {
                    for (strata, side, ctx) in
                        [(true, "strata", &ours), (false, "built-in", &theirs)]
                    {
                        if opts.only.is_some_and(|only| only != strata) {
                            continue;
                        }
                        let (_, batches, _) = run(ctx, &format!("EXPLAIN ANALYZE {sql}")).await;
                        let text = pretty_format_batches(&batches).unwrap();
                        eprintln!("tpch: Q{n} {side}, {partitions} partition(s):\n{text}");
                    }
                    continue;
                }
                let mut times = (Vec::new(), Vec::new());
                let mut answers = (None, None);
                let mut read = (Scanned::default(), Scanned::default());
                for run_index in 0..opts.runs {
                    for side in 0..2 {
                        let strata = (side + run_index) % 2 == 0;
                        if opts.only.is_some_and(|only| only != strata) {
                            continue;
                        }
                        let ctx = if strata { &ours } else { &theirs };
                        let cpu_before = cpu_time();
                        let (time, batches, scanned) = run(ctx, &sql).await;
                        let cpu = cpu_time()
                            .zip(cpu_before)
                            .map(|(after, before)| after.saturating_sub(before));
                        let (t, a, r, c) = if strata {
                            (&mut times.0, &mut answers.0, &mut read.0, &mut cpu_used.0)
                        } else {
                            (&mut times.1, &mut answers.1, &mut read.1, &mut cpu_used.1)
                        };
                        t.push(time);
                        *r = scanned;
                        *c = c.zip(cpu).map(|(sum, run)| sum + run);
                        if a.is_none() {
                            *a = Some(pretty_format_batches(&batches).unwrap().to_string());
                        }
                    }
                }
                if let Some(strata) = opts.only {
                    let (side, t) = if strata {
                        ("strata", &mut times.0)
                    } else {
                        ("built-in", &mut times.1)
                    };
                    eprintln!("tpch: Q{n} {side} {:.1} ms", ms(median(t)));
                    continue;
                }
                assert_eq!(
                    answers.0,
                    answers.1,
                    "Q{n} differs between strata and the built-in reader over {} at {partitions} partitions",
                    dir.display()
                );
                let row = Row {
                    query: n,
                    strata: median(&mut times.0),
                    builtin: median(&mut times.1),
                    strata_read: read.0,
                    builtin_read: read.1,
                };
                eprintln!(
                    "tpch: Q{n} {:.1} ms / {:.1} ms",
                    ms(row.strata),
                    ms(row.builtin)
                );
                rows.push(row);
            }
            if opts.explain || opts.only.is_some() {
                continue;
            }
            let written = match writer {
                Writer::Strata => "files written by strata",
                Writer::ArrowRs => "files written by arrow-rs",
            };
            report.push_str(&render(
                &format!("{written}, {partitions} partition(s)"),
                &rows,
            ));
            if let (Some(strata), Some(builtin)) = cpu_used {
                let runs = opts.runs as f64;
                report.push_str(&format!(
                    "\nCPU time a run of the queries above, every thread: strata {:.0} ms, \
                     built-in {:.0} ms, ratio {:.2}.\n",
                    ms(strata) / runs,
                    ms(builtin) / runs,
                    ms(strata) / ms(builtin)
                ));
            }
        }
    }
    let answers = if opts.only.is_some() {
        "One side alone, answers not compared"
    } else {
        "Every answer equal on both sides"
    };
    report.push_str(&format!(
        "\n{answers}. Benchmark run time: {:.0} s.\n",
        started.elapsed().as_secs_f64()
    ));
    println!("{report}");
}

/// The query texts, kept with the TPC-H test.
fn query_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/strata-datafusion/tests/tpch")
}
