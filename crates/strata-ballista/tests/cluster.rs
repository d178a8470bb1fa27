//! strata on a real Ballista cluster: one scheduler and two executors,
//! each its own `strata-ballista` process on 127.0.0.1 ports.
//!
//! The 22 TPC-H queries at scale factor 0.01, over tables written by
//! strata, are planned in a client session where strata reads Parquet,
//! sent to the scheduler as physical plans, split into stages and run by
//! the executors, which read the files with strata. Every answer must
//! equal single-process DataFusion's over the same files with its
//! built-in Parquet. A `COPY ... TO` through the cluster writes with
//! strata's sink on an executor, and the file it writes must read back
//! as the rows copied. A file removed between planning and reading makes
//! the query fail on the executors, and the error, naming the file,
//! reaches the client.
//!
//! Every process the test starts is stopped when the test ends, also when
//! it fails: the cluster's guard kills them as it is dropped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../strata-datafusion/tests/common/tpch_data.rs"]
mod tpch_data;

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ballista_core::config::BallistaConfig;
use ballista_core::execution_plans::execute_physical_plan;
use ballista_core::extension::SessionConfigExt;
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion_proto::protobuf::PhysicalPlanNode;
use futures::TryStreamExt;
use tpch_data::Writer;

const SCALE: f64 = 0.01;

/// How long one query may take through the cluster before the test fails.
const QUERY_DEADLINE: Duration = Duration::from_secs(180);

/// How long a process may take to open its port.
const START_DEADLINE: Duration = Duration::from_secs(60);

/// A fresh, empty directory for this test run.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strata-ballista-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A port no one listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The scheduler and executors, stopped when dropped.
struct Cluster {
    processes: Vec<(String, Child, PathBuf)>,
    scheduler_port: u16,
}

impl Cluster {
    /// One scheduler and two executors, each logging to a file in `dir`.
    fn start(dir: &Path) -> Self {
        let mut cluster = Cluster {
            processes: Vec::new(),
            scheduler_port: free_port(),
        };
        let port = cluster.scheduler_port.to_string();
        cluster.spawn(
            dir,
            "scheduler",
            &["scheduler", "--port", &port],
            port.parse().unwrap(),
        );
        for n in 1..=2 {
            let (flight, grpc) = (free_port(), free_port());
            let work = dir.join(format!("executor-{n}"));
            std::fs::create_dir_all(&work).unwrap();
            cluster.spawn(
                dir,
                &format!("executor-{n}"),
                &[
                    "executor",
                    "--scheduler-port",
                    &port,
                    "--flight-port",
                    &flight.to_string(),
                    "--grpc-port",
                    &grpc.to_string(),
                    "--concurrent-tasks",
                    "2",
                    "--work-dir",
                    work.to_str().unwrap(),
                ],
                flight,
            );
        }
        cluster
    }

    /// Starts `strata-ballista` with `args` and waits until it listens on
    /// `port` (or has exited, which fails the test).
    fn spawn(&mut self, dir: &Path, name: &str, args: &[&str], port: u16) {
        let log = dir.join(format!("{name}.log"));
        let out = std::fs::File::create(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_strata-ballista"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .unwrap_or_else(|e| panic!("starting the {name}: {e}"));
        self.processes.push((name.to_owned(), child, log));
        let started = Instant::now();
        loop {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return;
            }
            let (_, child, log) = self.processes.last_mut().unwrap();
            if let Some(status) = child.try_wait().unwrap() {
                panic!("the {name} exited ({status}):\n{}", tail(log));
            }
            assert!(
                started.elapsed() < START_DEADLINE,
                "the {name} did not open port {port}:\n{}",
                tail(log)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.scheduler_port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Executors first, then the scheduler; killed, not asked, so that
        // a wedged process cannot keep the test from ending.
        for (name, child, log) in self.processes.iter_mut().rev() {
            if std::thread::panicking() {
                eprintln!("--- {name} log:\n{}", tail(log));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The last lines of a process's log.
fn tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// A session over the TPC-H tables in `dir`: the client's, with strata as
/// its Parquet format and Ballista's settings, or the single-process
/// reference with DataFusion's built-in Parquet.
async fn session(dir: &Path, client: bool) -> SessionContext {
    let ctx = if client {
        let config = SessionConfig::new_with_ballista().with_target_partitions(4);
        let ctx = SessionContext::new_with_config(config);
        strata_datafusion::register_strata(&ctx).unwrap();
        ctx
    } else {
        SessionContext::new_with_config(SessionConfig::new().with_target_partitions(4))
    };
    tpch_data::register_tables(&ctx, dir).await;
    ctx
}

/// `sql` planned by `client` and run by the cluster.
async fn run_on_cluster(cluster: &Cluster, client: &SessionContext, sql: &str) -> Vec<RecordBatch> {
    let plan = plan(client, sql).await;
    try_run_on_cluster(cluster, client, plan)
        .await
        .unwrap_or_else(|e| panic!("{e}\n{sql}"))
}

/// The physical plan of `sql` in `client`, which must read with strata.
async fn plan(client: &SessionContext, sql: &str) -> Arc<dyn ExecutionPlan> {
    let plan = client
        .sql(sql)
        .await
        .unwrap_or_else(|e| panic!("{e}\n{sql}"))
        .create_physical_plan()
        .await
        .unwrap_or_else(|e| panic!("{e}\n{sql}"));
    let display = datafusion::physical_plan::displayable(plan.as_ref())
        .indent(true)
        .to_string();
    assert!(
        display.contains("reader=strata"),
        "the plan reads with strata:\n{display}"
    );
    plan
}

/// `plan` run by the cluster, or the error the cluster gave.
async fn try_run_on_cluster(
    cluster: &Cluster,
    client: &SessionContext,
    plan: Arc<dyn ExecutionPlan>,
) -> datafusion::error::Result<Vec<RecordBatch>> {
    let codec = strata_ballista::physical_codec();
    let run = async {
        let stream = execute_physical_plan::<PhysicalPlanNode>(
            cluster.url(),
            &BallistaConfig::default(),
            plan,
            codec.as_ref(),
            client.session_id(),
            client.copied_config(),
        )
        .await?;
        stream.try_collect::<Vec<_>>().await
    };
    tokio::time::timeout(QUERY_DEADLINE, run)
        .await
        .unwrap_or_else(|_| panic!("no answer in {QUERY_DEADLINE:?}"))
}

async fn run_locally(ctx: &SessionContext, sql: &str) -> Vec<RecordBatch> {
    ctx.sql(sql)
        .await
        .unwrap_or_else(|e| panic!("{e}\n{sql}"))
        .collect()
        .await
        .unwrap_or_else(|e| panic!("{e}\n{sql}"))
}

fn printed(batches: &[RecordBatch]) -> String {
    pretty_format_batches(batches).unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tpch_and_copy_through_a_three_process_cluster() {
    let dir = scratch("cluster");
    let data = dir.join("tpch");
    // Row groups of 10,000 rows: lineitem's seven are spread over the
    // executors' tasks.
    tpch_data::write_tables(&data, SCALE, Writer::Strata, Some(10_000));
    let cluster = Cluster::start(&dir);
    let client = session(&data, true).await;
    let reference = session(&data, false).await;

    let queries = Path::new(env!("CARGO_MANIFEST_DIR")).join("../strata-datafusion/tests/tpch");
    for n in 1..=22 {
        let sql = tpch_data::query(&queries, n);
        let expected = printed(&run_locally(&reference, &sql).await);
        let actual = printed(&run_on_cluster(&cluster, &client, &sql).await);
        assert_eq!(actual, expected, "Q{n} through the cluster");
        // A table's border, header and border, then its rows.
        assert!(expected.lines().count() > 4, "Q{n} has rows at this scale");
    }

    // Both executors ran stages: each keeps its shuffle output, one
    // directory per job, in its work directory until the scheduler asks
    // for it to be removed (minutes after the job).
    for n in 1..=2 {
        let work = dir.join(format!("executor-{n}"));
        let jobs = std::fs::read_dir(&work).unwrap().count();
        assert!(jobs > 0, "executor {n} ran no stage ({})", work.display());
    }

    // A write through the cluster: strata's sink on an executor.
    let copied = dir.join("copied.parquet");
    let copy = format!(
        "COPY (SELECT * FROM orders WHERE o_orderpriority = '1-URGENT') TO '{}' STORED AS PARQUET",
        copied.display()
    );
    let written = printed(&run_on_cluster(&cluster, &client, &copy).await);
    let check = "SELECT count(*), sum(o_totalprice), min(o_comment) FROM orders \
                 WHERE o_orderpriority = '1-URGENT'";
    let expected = printed(&run_locally(&reference, check).await);
    assert!(copied.exists(), "the executor wrote {}", copied.display());
    let reread = SessionContext::new();
    reread
        .sql(&format!(
            "CREATE EXTERNAL TABLE orders STORED AS PARQUET LOCATION '{}'",
            copied.display()
        ))
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let actual = printed(&run_locally(&reread, check).await);
    assert_eq!(actual, expected, "the copied rows");
    let count = expected
        .lines()
        .nth(3)
        .unwrap()
        .split('|')
        .nth(1)
        .unwrap()
        .trim()
        .to_owned();
    assert!(
        written.contains(&count),
        "COPY reports {count} rows:\n{written}"
    );

    // A file gone between planning and reading: the executor's error
    // comes back to the client, naming the file, and no rows do.
    let gone = dir.join("gone.parquet");
    run_locally(
        &reference,
        &format!(
            "COPY (SELECT * FROM nation) TO '{}' STORED AS PARQUET",
            gone.display()
        ),
    )
    .await;
    client
        .sql(&format!(
            "CREATE EXTERNAL TABLE gone STORED AS PARQUET LOCATION '{}'",
            gone.display()
        ))
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let doomed = plan(&client, "SELECT n_name FROM gone ORDER BY n_name").await;
    std::fs::remove_file(&gone).unwrap();
    let error = try_run_on_cluster(&cluster, &client, doomed)
        .await
        .expect_err("a read of a missing file fails");
    assert!(error.to_string().contains("gone.parquet"), "{error}");

    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}
