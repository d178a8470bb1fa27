//! Open a wide file and read a few of its columns, in a loop:
//! `wide_probe strata|arrow|strata-skip|arrow-skip|both|both-skip COLUMNS ROW_GROUPS READ_COLUMNS REPS`.
//! `both` (and `both-skip`) takes turns: 20 rounds of `REPS` opens a side,
//! then the best and median round of each and their ratio.
//! `floor` takes turns between arrow-rs's whole open and two parts of any
//! open that honours the footer and its embedded Arrow schema: walking the
//! footer's Thrift without decoding it, and mapping the schema to Arrow
//! with that embedded schema (base64, flatbuffer verification, fields).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![forbid(unsafe_code)]

use std::hint::black_box;

use bytes::Bytes;

#[path = "../benches/common/wide.rs"]
mod wide;

/// Open `file` with one side, read the columns `leaves` to the end; the
/// rows read.
fn open_and_read(which: &str, file: &Bytes, leaves: &[usize]) -> usize {
    match which {
        "strata" => wide::strata_open(file, leaves, false).0,
        "strata-skip" => wide::strata_open(file, leaves, true).0,
        "arrow" => wide::arrow_open(file, leaves, false).0,
        "arrow-skip" => wide::arrow_open(file, leaves, true).0,
        _ => panic!(
            "strata|arrow|strata-skip|arrow-skip|both|both-skip|floor|write-strata|write-arrow"
        ),
    }
}

/// Milliseconds per open over `reps` opens.
fn round(which: &str, file: &Bytes, leaves: &[usize], reps: usize) -> f64 {
    let start = std::time::Instant::now();
    for _ in 0..reps {
        black_box(open_and_read(which, file, leaves));
    }
    start.elapsed().as_secs_f64() * 1e3 / reps as f64
}

/// The fastest and the median of `times`.
fn best_and_median(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[0], times[times.len() / 2])
}

/// Milliseconds of `work` per run over `reps` runs.
fn time_ms(reps: usize, mut work: impl FnMut()) -> f64 {
    let start = std::time::Instant::now();
    for _ in 0..reps {
        work();
    }
    start.elapsed().as_secs_f64() * 1e3 / reps as f64
}

/// The `floor` mode (see the top of the file).
fn floor(file: &Bytes, leaves: &[usize], reps: usize) {
    let tail = file.len() - 8;
    let footer_len = u32::from_le_bytes(file[tail..tail + 4].try_into().unwrap()) as usize;
    let footer = &file[tail - footer_len..tail];
    let metadata = strata_file::metadata::ParquetMetaDataReader::decode_metadata(footer).unwrap();
    let (mut open, mut walk, mut schema) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..20 {
        open.push(round("arrow", file, leaves, reps));
        walk.push(time_ms(reps, || {
            let mut r = strata_format::thrift::CompactReader::new(black_box(footer));
            r.skip(strata_format::thrift::FieldType::Struct).unwrap();
            black_box(r.position());
        }));
        schema.push(time_ms(reps, || {
            let file_metadata = metadata.file_metadata();
            black_box(
                strata_arrow::parquet_to_arrow_schema(
                    file_metadata.schema_descr(),
                    file_metadata.key_value_metadata.as_ref(),
                )
                .unwrap(),
            );
        }));
    }
    let [(_, open), (_, walk), (_, schema)] = [open, walk, schema].map(best_and_median);
    eprintln!(
        "floor (medians): arrow-rs open {open:.2} ms; footer walk {walk:.2} ms ({:.2}); Arrow schema with the embedded one {schema:.2} ms ({:.2}); both {:.2}",
        walk / open,
        schema / open,
        (walk + schema) / open
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map(String::as_str).unwrap_or("strata");
    let columns: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let row_groups: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let read: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let reps: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(20);
    let path = std::env::temp_dir().join(format!("strata_wide_{columns}_{row_groups}.parquet"));
    let file = match std::fs::read(&path) {
        Ok(b) => Bytes::from(b),
        Err(_) => {
            let f = strata_benches::data::wide_file(columns, row_groups);
            std::fs::write(&path, &f).unwrap();
            f
        }
    };
    let leaves: Vec<usize> = (0..read).map(|k| k * (columns / read)).collect();
    if which.starts_with("write-") {
        let batch = strata_benches::data::wide_batch(columns, 1000);
        let start = std::time::Instant::now();
        let mut len = 0;
        for _ in 0..reps {
            let mut out = Vec::new();
            if which == "write-strata" {
                let mut w =
                    strata_arrow::ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
                for _ in 0..row_groups {
                    w.write(&batch).unwrap();
                    w.flush().unwrap();
                }
                w.close().unwrap();
            } else {
                let mut w =
                    parquet::arrow::ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
                for _ in 0..row_groups {
                    w.write(&batch).unwrap();
                    w.flush().unwrap();
                }
                w.close().unwrap();
            }
            len = out.len();
        }
        eprintln!(
            "{which}: {:.2} ms/write ({len} bytes)",
            start.elapsed().as_secs_f64() * 1e3 / reps as f64
        );
        return;
    }
    if which == "floor" {
        floor(&file, &leaves, reps);
        return;
    }
    if let Some(skip) = which.strip_prefix("both") {
        let (ours, theirs) = (format!("strata{skip}"), format!("arrow{skip}"));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..20 {
            a.push(round(&ours, &file, &leaves, reps));
            b.push(round(&theirs, &file, &leaves, reps));
        }
        let [(a_best, a_median), (b_best, b_median)] = [a, b].map(best_and_median);
        eprintln!(
            "{which}: best: strata {a_best:.2} ms, arrow-rs {b_best:.2} ms, ratio {:.2}; median: strata {a_median:.2} ms, arrow-rs {b_median:.2} ms, ratio {:.2}",
            a_best / b_best,
            a_median / b_median
        );
        return;
    }
    let ms = round(which, &file, &leaves, reps);
    let rows = open_and_read(which, &file, &leaves);
    eprintln!(
        "{which}: {ms:.2} ms/open+read ({} bytes, {rows} rows)",
        file.len()
    );
}
