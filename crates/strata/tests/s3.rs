//! Reading and writing (a multipart upload) through a real S3-compatible
//! HTTP endpoint on localhost: moto's standalone server (`moto[server]`,
//! which `.ci/run` installs in its venv), reached through `object_store`'s
//! `AmazonS3` client. The test starts the server on a free loopback port and stops it
//! when done.
//!
//! The interpreter is `$STRATA_PYTHON` (CI sets it; there it is an error
//! if moto cannot be imported), else `python3` if it can import moto, else
//! the test is skipped with a message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use bytes::Bytes;
use futures::TryStreamExt;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use strata::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection, RowSelector,
};
use strata::arrow::async_reader::{ParquetObjectReader, ParquetRecordBatchStreamBuilder};
use strata::arrow::async_writer::{AsyncArrowWriter, ParquetObjectWriter};
use strata::arrow::{ArrowWriter, ProjectionMask};
use strata::file::metadata::PageIndexPolicy;
use strata::file::properties::WriterProperties;

/// The rows of `batches` as one batch (the stream's batches end with each
/// row group; the synchronous reader's go on across them).
fn concat(batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

/// The Python that has moto, or why there is none.
fn python() -> Result<String, String> {
    let can_import = |py: &str| {
        Command::new(py)
            .args(["-c", "import moto.server"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    match std::env::var("STRATA_PYTHON") {
        Ok(py) => {
            assert!(
                can_import(&py),
                "$STRATA_PYTHON ({py}) cannot import moto.server"
            );
            Ok(py)
        }
        Err(_) if can_import("python3") => Ok("python3".into()),
        Err(_) => Err("no Python with moto (set STRATA_PYTHON)".into()),
    }
}

/// moto's server on a loopback port, stopped on drop.
struct Moto {
    child: Child,
    port: u16,
}

impl Moto {
    fn start(python: &str) -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(python)
            .args([
                "-m",
                "moto.server",
                "-H",
                "127.0.0.1",
                "-p",
                &port.to_string(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut moto = Self { child, port };
        let deadline = Instant::now() + Duration::from_secs(60);
        while moto.request("GET", "/").is_err() {
            assert!(
                Instant::now() < deadline,
                "moto did not start on port {port}"
            );
            if let Ok(Some(status)) = moto.child.try_wait() {
                panic!("moto exited: {status}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        moto
    }

    /// A bare HTTP request (moto needs no signature for these).
    fn request(&mut self, method: &str, path: &str) -> std::io::Result<String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port))?;
        s.set_read_timeout(Some(Duration::from_secs(10)))?;
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            self.port
        )?;
        let mut out = String::new();
        s.read_to_string(&mut out)?;
        Ok(out)
    }

    fn store(&self, bucket: &str) -> Arc<dyn ObjectStore> {
        Arc::new(
            AmazonS3Builder::new()
                .with_endpoint(format!("http://127.0.0.1:{}", self.port))
                .with_allow_http(true)
                .with_bucket_name(bucket)
                .with_region("us-east-1")
                .with_access_key_id("strata")
                .with_secret_access_key("strata")
                .with_virtual_hosted_style_request(false)
                .build()
                .unwrap(),
        )
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn table(rows: i64) -> RecordBatch {
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..rows));
    let names: ArrayRef = Arc::new(StringArray::from_iter(
        (0..rows).map(|i| (i % 5 != 0).then(|| format!("name {}", i % 101))),
    ));
    RecordBatch::try_from_iter([("id", ids), ("name", names)]).unwrap()
}

fn write(batch: &RecordBatch) -> Bytes {
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(4000))
        .set_data_page_row_count_limit(500)
        .set_write_batch_size(500)
        .build();
    let mut out = Vec::new();
    let mut w = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
    Bytes::from(out)
}

#[test]
fn reads_through_a_real_s3_endpoint() {
    let python = match python() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let mut moto = Moto::start(&python);
    let created = moto.request("PUT", "/strata-test").unwrap();
    assert!(created.starts_with("HTTP/1.1 200"), "bucket: {created}");
    let store = moto.store("strata-test");
    let batch = table(20_000);
    let data = write(&batch);
    let selection = RowSelection::from(vec![
        RowSelector::skip(1234),
        RowSelector::select(100),
        RowSelector::skip(9000),
        RowSelector::select(7),
    ]);
    let expected_selected: Vec<RecordBatch> =
        ParquetRecordBatchReaderBuilder::try_new_with_options(
            data.clone(),
            ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional),
        )
        .unwrap()
        .with_projection(ProjectionMask::leaves(
            &strata::arrow::arrow_to_parquet_schema(&batch.schema()).unwrap(),
            [1],
        ))
        .with_row_selection(selection.clone())
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let path = Path::from("tables/t.parquet");
        store.put(&path, data.clone().into()).await.unwrap();

        // The whole file, the footer found by a suffix request.
        let read: Vec<RecordBatch> = ParquetRecordBatchStreamBuilder::new(
            ParquetObjectReader::new(Arc::clone(&store), path.clone()),
        )
        .await
        .unwrap()
        .with_batch_size(20_000)
        .build()
        .unwrap()
        .try_collect()
        .await
        .unwrap();
        // Batches end with each row group, as arrow-rs's stream's do.
        assert_eq!(concat(&read), batch);

        // One column, a sparse selection over the page index.
        let reader = ParquetObjectReader::new(Arc::clone(&store), path.clone())
            .with_file_size(data.len() as u64)
            .with_footer_size_hint(16 * 1024);
        let builder = ParquetRecordBatchStreamBuilder::new_with_options(
            reader,
            ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional),
        )
        .await
        .unwrap();
        let mask = ProjectionMask::leaves(builder.parquet_schema(), [1]);
        let read: Vec<RecordBatch> = builder
            .with_projection(mask)
            .with_row_selection(selection)
            .build()
            .unwrap()
            .try_collect()
            .await
            .unwrap();
        assert_eq!(concat(&read), concat(&expected_selected));

        // Written back through a multipart upload (the file is larger
        // than the writer's 10 MiB buffer), and read by arrow-rs.
        let big = {
            let rows = 3_000_000i64;
            let values: ArrayRef = Arc::new(Int64Array::from_iter_values(
                (0..rows).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64)),
            ));
            RecordBatch::try_from_iter([("v", values)]).unwrap()
        };
        let out = Path::from("tables/written.parquet");
        let sink = ParquetObjectWriter::new(Arc::clone(&store), out.clone());
        let props = WriterProperties::builder()
            .set_dictionary_enabled(false)
            .set_max_row_group_row_count(Some(1_000_000))
            .build();
        let mut writer = AsyncArrowWriter::try_new(sink, big.schema(), Some(props)).unwrap();
        writer.write(&big).await.unwrap();
        writer.close().await.unwrap();
        let uploaded = store.get(&out).await.unwrap().bytes().await.unwrap();
        assert!(uploaded.len() > 20 << 20, "{} bytes", uploaded.len());
        let read: Vec<RecordBatch> =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(uploaded)
                .unwrap()
                .with_batch_size(3_000_000)
                .build()
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
        assert_eq!(read, vec![big]);

        // A missing object is an error from the store, not a panic.
        let missing = ParquetRecordBatchStreamBuilder::new(ParquetObjectReader::new(
            Arc::clone(&store),
            Path::from("tables/none.parquet"),
        ))
        .await;
        assert!(missing.is_err());
    });
}
