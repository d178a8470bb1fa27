//! strata as DataFusion's Parquet format, end to end through SQL, against
//! DataFusion's built-in Parquet (arrow-rs) as the oracle: the same
//! queries over the same files must give the same rows, whichever side
//! wrote the files.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use common::{run, scratch};

use datafusion::prelude::{SessionConfig, SessionContext};

/// A session reading and writing Parquet with strata.
fn strata_ctx(config: SessionConfig) -> SessionContext {
    let ctx = SessionContext::new_with_config(config);
    strata_datafusion::register_strata(&ctx).unwrap();
    ctx
}

/// A session with DataFusion's own Parquet format.
fn builtin_ctx(config: SessionConfig) -> SessionContext {
    SessionContext::new_with_config(config)
}

/// A table of `rows` rows with the common kinds of column, some nulls,
/// and a sorted key, as a SQL query over `generate_series`.
fn source_query(rows: usize) -> String {
    format!(
        "SELECT value AS id, \
            CAST(value % 7 AS INT) AS small, \
            CASE WHEN value % 5 = 0 THEN NULL ELSE value * 3 END AS maybe, \
            CAST(value AS DOUBLE) / 8 AS ratio, \
            'name-' || CAST(value % 13 AS VARCHAR) AS name, \
            CASE WHEN value % 4 = 0 THEN NULL ELSE repeat('x', CAST(value % 9 AS INT)) END AS note, \
            CAST(value % 2 = 0 AS BOOLEAN) AS even, \
            CAST('2024-01-01' AS DATE) + CAST(value % 400 AS INT) AS day, \
            CAST(value AS DECIMAL(12, 2)) / 100 AS price \
         FROM generate_series(1, {rows})"
    )
}

/// Write `query`'s rows to `path` with `ctx`'s Parquet format.
async fn write(ctx: &SessionContext, query: &str, path: &Path, options: &str) {
    let sql = format!("COPY ({query}) TO '{}' {options}", path.display());
    run(ctx, &sql).await;
}

const QUERIES: &[&str] = &[
    "SELECT count(*) FROM t",
    "SELECT * FROM t ORDER BY id LIMIT 20",
    "SELECT id, name FROM t WHERE id BETWEEN 990 AND 1010 ORDER BY id",
    "SELECT small, count(*), sum(maybe), min(note), max(note) FROM t GROUP BY small ORDER BY small",
    "SELECT name, avg(ratio), count(maybe) FROM t GROUP BY name ORDER BY name",
    "SELECT count(*) FROM t WHERE maybe IS NULL",
    "SELECT count(*) FROM t WHERE note IS NULL OR note = ''",
    "SELECT day, sum(price) FROM t WHERE even GROUP BY day ORDER BY day LIMIT 10",
    "SELECT id FROM t WHERE name = 'name-3' AND id > 2500 ORDER BY id DESC LIMIT 5",
    "SELECT max(id), min(id), max(price), min(day) FROM t",
    "SELECT note, count(*) FROM t GROUP BY note ORDER BY note NULLS FIRST",
    "SELECT id, ratio FROM t WHERE id % 1000 = 0 ORDER BY id",
];

/// The statement creating table `t` over `location`.
fn create_t(location: &Path) -> String {
    format!(
        "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '{}'",
        location.display()
    )
}

/// Table `t` over `location` in a strata session and one with
/// DataFusion's own reader, checked to read with what they should.
async fn both_over(
    location: &Path,
    config: impl Fn() -> SessionConfig,
) -> (SessionContext, SessionContext) {
    let ours = strata_ctx(config());
    let theirs = builtin_ctx(config());
    run(&ours, &create_t(location)).await;
    run(&theirs, &create_t(location)).await;
    assert_reads_with_strata(&ours, &theirs).await;
    (ours, theirs)
}

/// `ours` scans table `t` with strata and `theirs` with DataFusion's own
/// reader (the comparisons would prove nothing otherwise).
async fn assert_reads_with_strata(ours: &SessionContext, theirs: &SessionContext) {
    let plan = run(ours, "EXPLAIN SELECT * FROM t").await;
    assert!(plan.contains("reader=strata"), "{plan}");
    let plan = run(theirs, "EXPLAIN SELECT * FROM t").await;
    assert!(!plan.contains("reader=strata"), "{plan}");
}

/// Both sessions over `path`, every query compared.
async fn compare_queries(path: &Path, config: impl Fn() -> SessionConfig) {
    let (ours, theirs) = both_over(path, config).await;
    for query in QUERIES {
        let expected = run(&theirs, query).await;
        let actual = run(&ours, query).await;
        assert_eq!(actual, expected, "{query} over {}", path.display());
    }
}

#[tokio::test]
async fn queries_over_files_written_by_datafusion_match_builtin_parquet() {
    let dir = scratch("read");
    let file = dir.join("data.parquet");
    let writer = builtin_ctx(SessionConfig::new());
    write(
        &writer,
        &source_query(5000),
        &file,
        "OPTIONS ('format.max_row_group_size' '1000')",
    )
    .await;
    compare_queries(&file, SessionConfig::new).await;
    // One partition and several: DataFusion splits the file by byte
    // range, and every row group must be read by exactly one partition.
    compare_queries(&file, || SessionConfig::new().with_target_partitions(1)).await;
    compare_queries(&file, || {
        SessionConfig::new()
            .with_target_partitions(4)
            .with_repartition_file_min_size(1)
    })
    .await;
    // Filters run inside the scan, on both sides.
    compare_queries(&file, pushdown_config).await;
}

/// A session configuration with filters pushed into the scan.
fn pushdown_config() -> SessionConfig {
    SessionConfig::new().set_bool("datafusion.execution.parquet.pushdown_filters", true)
}

#[tokio::test]
async fn pushed_down_filters_run_inside_the_scan() {
    let dir = scratch("pushdown");
    let table = dir.join("table/");
    std::fs::create_dir_all(&table).unwrap();
    let writer = strata_ctx(SessionConfig::new());
    // Two files, the second with a column the first lacks.
    write(&writer, &source_query(3000), &table.join("a.parquet"), "").await;
    write(
        &writer,
        &format!("SELECT *, id % 10 AS extra FROM ({})", source_query(2000)),
        &table.join("b.parquet"),
        "",
    )
    .await;
    let ours = strata_ctx(pushdown_config());
    let theirs = builtin_ctx(pushdown_config());
    let create = format!(
        "CREATE EXTERNAL TABLE t (id BIGINT, small INT, name VARCHAR, note VARCHAR, extra BIGINT) \
         STORED AS PARQUET LOCATION '{}'",
        table.display()
    );
    run(&ours, &create).await;
    run(&theirs, &create).await;
    assert_reads_with_strata(&ours, &theirs).await;
    let plan = run(&ours, "EXPLAIN SELECT id FROM t WHERE small = 3").await;
    assert!(
        !plan.contains("FilterExec"),
        "the filter runs in the scan:\n{plan}"
    );
    // 715 of the 5,000 rows have small = 3 (429 and 286 in the two files).
    let plan = run(&ours, "EXPLAIN ANALYZE SELECT id FROM t WHERE small = 3").await;
    // (DataFusion prints counts past a thousand rounded.)
    assert!(plan.contains("output_rows=715,"), "{plan}");
    assert!(plan.contains("pushdown_rows_pruned=4.29 K"), "{plan}");
    for query in [
        "SELECT id, note FROM t WHERE small = 3 AND note LIKE 'xx%' ORDER BY id, note",
        "SELECT count(*) FROM t WHERE extra = 4",
        "SELECT count(*) FROM t WHERE extra IS NULL",
        "SELECT count(*), min(id) FROM t WHERE note IS NULL AND id > 100",
        "SELECT id FROM t WHERE small = 1 ORDER BY id DESC LIMIT 3",
    ] {
        assert_eq!(
            run(&ours, query).await,
            run(&theirs, query).await,
            "{query}"
        );
    }
}

#[tokio::test]
async fn queries_over_files_written_by_strata_match_builtin_parquet() {
    let dir = scratch("write");
    let writer = strata_ctx(SessionConfig::new());
    // Written by strata, as one file and as a directory of several.
    let file = dir.join("data.parquet");
    write(
        &writer,
        &source_query(5000),
        &file,
        "OPTIONS ('format.max_row_group_size' '700', 'format.compression' 'snappy')",
    )
    .await;
    compare_queries(&file, SessionConfig::new).await;
    let parts = dir.join("parts/");
    std::fs::create_dir_all(&parts).unwrap();
    let partitioned = strata_ctx(SessionConfig::new().with_target_partitions(3));
    write(
        &partitioned,
        &source_query(5000),
        &parts,
        "STORED AS PARQUET",
    )
    .await;
    compare_queries(&parts, SessionConfig::new).await;
}

#[tokio::test]
async fn insert_into_appends_files_strata_reads_back() {
    let dir = scratch("insert");
    let table = dir.join("table/");
    std::fs::create_dir_all(&table).unwrap();
    let ctx = strata_ctx(SessionConfig::new());
    run(
        &ctx,
        &format!(
            "CREATE EXTERNAL TABLE t (id BIGINT, name VARCHAR) STORED AS PARQUET LOCATION '{}'",
            table.display()
        ),
    )
    .await;
    run(&ctx, "INSERT INTO t VALUES (1, 'one'), (2, 'two')").await;
    run(&ctx, "INSERT INTO t VALUES (3, NULL)").await;
    let rows = run(&ctx, "SELECT id, name FROM t ORDER BY id").await;
    let theirs = builtin_ctx(SessionConfig::new());
    run(&theirs, &create_t(&table)).await;
    assert_eq!(
        rows,
        run(&theirs, "SELECT id, name FROM t ORDER BY id").await
    );
    assert!(rows.contains("| 3  |"), "{rows}");
    let files = std::fs::read_dir(&table).unwrap().count();
    assert_eq!(files, 2, "one file per INSERT");
}

#[tokio::test]
async fn copy_options_reach_the_writer() {
    let dir = scratch("options");
    let file = dir.join("zstd.parquet");
    let ctx = strata_ctx(SessionConfig::new());
    write(
        &ctx,
        &source_query(3000),
        &file,
        "OPTIONS ('format.compression' 'zstd(5)', 'format.max_row_group_size' '1000', \
         'format.metadata::origin' 'test', 'format.dictionary_enabled::name' 'false')",
    )
    .await;
    let bytes = bytes::Bytes::from(std::fs::read(&file).unwrap());
    let reader =
        strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(bytes).unwrap();
    let metadata = reader.metadata();
    assert_eq!(metadata.num_row_groups(), 3);
    let kv = metadata.file_metadata().key_value_metadata().unwrap();
    assert!(
        kv.iter()
            .any(|k| k.key == "origin" && k.value.as_deref() == Some("test"))
    );
    // The footer names the codec, not its level.
    for group in metadata.row_groups() {
        for chunk in group.columns() {
            assert!(
                chunk.compression().to_string().starts_with("ZSTD("),
                "{:?}: {}",
                chunk.column_path(),
                chunk.compression()
            );
        }
    }
    let name = metadata
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .position(|c| c.name() == "name")
        .unwrap();
    let id = metadata
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .position(|c| c.name() == "id")
        .unwrap();
    let dictionary = |column: usize| {
        metadata
            .row_group(0)
            .column(column)
            .dictionary_page_offset()
            .is_some()
    };
    assert!(!dictionary(name), "dictionary_enabled::name is false");
    assert!(dictionary(id), "the other columns keep the default");
    // An option strata does not know is an error, not silently ignored.
    let bad = format!(
        "COPY (SELECT 1 AS x) TO '{}' OPTIONS ('format.compression' 'lzma')",
        dir.join("bad.parquet").display()
    );
    let err = ctx.sql(&bad).await.unwrap().collect().await.unwrap_err();
    assert!(err.to_string().contains("lzma"), "{err}");
}

#[tokio::test]
async fn filters_prune_row_groups_by_statistics() {
    let dir = scratch("prune");
    let file = dir.join("sorted.parquet");
    let ctx = strata_ctx(SessionConfig::new().with_target_partitions(1));
    write(
        &ctx,
        &source_query(10_000),
        &file,
        "OPTIONS ('format.max_row_group_size' '1000')",
    )
    .await;
    run(&ctx, &create_t(&file)).await;
    let plan = run(&ctx, "EXPLAIN ANALYZE SELECT name FROM t WHERE id = 4321").await;
    assert!(plan.contains("row_groups_pruned_statistics=9"), "{plan}");
    assert!(plan.contains("row_groups_matched_statistics=1"), "{plan}");
    // The kept row group was decoded, and the time it took is counted.
    assert!(plan.contains("decode_time="), "{plan}");
    assert!(!plan.contains("decode_time=0ns"), "{plan}");
    let rows = run(&ctx, "SELECT name FROM t WHERE id = 4321").await;
    assert!(rows.contains("name-5"), "{rows}");
    // Nothing matches: every row group is pruned, no row is read.
    let plan = run(&ctx, "EXPLAIN ANALYZE SELECT name FROM t WHERE id > 20000").await;
    assert!(plan.contains("row_groups_pruned_statistics=10"), "{plan}");
}

#[tokio::test]
async fn equality_and_in_prune_row_groups_by_bloom_filters() {
    let dir = scratch("bloom");
    let file = dir.join("bloom.parquet");
    let ctx = strata_ctx(SessionConfig::new().with_target_partitions(1));
    write(
        &ctx,
        &source_query(4000),
        &file,
        "OPTIONS ('format.max_row_group_size' '1000', 'format.bloom_filter_on_write' 'true')",
    )
    .await;
    let (ctx, theirs) = both_over(&file, || SessionConfig::new().with_target_partitions(1)).await;
    // 'name-55' lies between every row group's bounds ('name-0' and
    // 'name-9'), so only the Bloom filters rule the row groups out.
    for (query, pruned) in [
        ("SELECT count(*) FROM t WHERE name = 'name-55'", 4),
        (
            "SELECT count(*) FROM t WHERE name IN ('name-55', 'name-77')",
            4,
        ),
        (
            "SELECT count(*) FROM t WHERE name IN ('name-55', 'name-7')",
            0,
        ),
        (
            "SELECT count(*) FROM t WHERE small = 3 AND name = 'name-4'",
            0,
        ),
        // Within the second row group's bounds only: the statistics rule
        // out three row groups, the Bloom filter the fourth.
        ("SELECT count(*) FROM t WHERE maybe = 4001", 1),
    ] {
        let plan = run(&ctx, &format!("EXPLAIN ANALYZE {query}")).await;
        let metric = format!("row_groups_pruned_bloom_filter={pruned}");
        assert!(plan.contains(&metric), "{query}: {metric}\n{plan}");
        assert_eq!(run(&ctx, query).await, run(&theirs, query).await, "{query}");
    }
}

#[tokio::test]
async fn filters_prune_pages_by_the_column_index() {
    let dir = scratch("pages");
    let file = dir.join("pages.parquet");
    let ctx = strata_ctx(SessionConfig::new().with_target_partitions(1));
    // Two row groups of ten 100-row pages each.
    write(
        &ctx,
        &source_query(2000),
        &file,
        "OPTIONS ('format.max_row_group_size' '1000', 'format.data_page_row_count_limit' '100', \
         'format.write_batch_size' '100')",
    )
    .await;
    let (ctx, theirs) = both_over(&file, || SessionConfig::new().with_target_partitions(1)).await;
    let query = "SELECT id, name, note FROM t WHERE id BETWEEN 1250 AND 1420 ORDER BY id";
    let plan = run(&ctx, &format!("EXPLAIN ANALYZE {query}")).await;
    assert!(plan.contains("row_groups_pruned_statistics=1"), "{plan}");
    // The third to fifth pages of the second row group hold the rows;
    // the other 7 are skipped.
    assert!(plan.contains("page_index_pages_pruned=7"), "{plan}");
    assert!(plan.contains("page_index_rows_pruned=700"), "{plan}");
    assert_eq!(run(&ctx, query).await, run(&theirs, query).await);
    // A filter on two columns prunes by each conjunct on one column.
    let query = "SELECT id FROM t WHERE id < 1500 AND id >= 1400 AND small = 3 ORDER BY id";
    assert_eq!(run(&ctx, query).await, run(&theirs, query).await);
}

/// Float filters over NaNs (of either sign) and both zeros give the rows
/// DataFusion gives over the same rows in memory, where Arrow compares
/// floats in total order (`-NaN < -0.0 < +0.0 < NaN`): pruning by the
/// statistics and the column index keeps every row group and page that
/// holds a NaN or the other zero, and still prunes the others.
#[tokio::test]
async fn float_filters_see_nans_and_both_zeros() {
    let dir = scratch("floats");
    let file = dir.join("floats.parquet");
    let ctx = strata_ctx(SessionConfig::new().with_target_partitions(1));
    // Ten row groups of 50 rows, pages of 10: numbers; numbers with a NaN
    // every 10 rows; both zeros; -0.0 only; +0.0 only; NaNs of both signs.
    let rows = "SELECT value AS id, CASE \
            WHEN value <= 100 THEN CAST(value AS DOUBLE) \
            WHEN value <= 200 THEN CASE WHEN value % 10 = 0 THEN CAST('NaN' AS DOUBLE) \
                ELSE CAST(value AS DOUBLE) END \
            WHEN value <= 300 THEN CASE WHEN value % 2 = 0 THEN -CAST(0 AS DOUBLE) \
                ELSE CAST(0 AS DOUBLE) END \
            WHEN value <= 350 THEN -CAST(0 AS DOUBLE) \
            WHEN value <= 400 THEN CAST(0 AS DOUBLE) \
            ELSE CASE WHEN value % 2 = 0 THEN CAST('NaN' AS DOUBLE) \
                ELSE -CAST('NaN' AS DOUBLE) END END AS x \
        FROM generate_series(1, 500)";
    write(
        &ctx,
        rows,
        &file,
        "OPTIONS ('format.max_row_group_size' '50', 'format.data_page_row_count_limit' '10', \
         'format.write_batch_size' '10')",
    )
    .await;
    run(&ctx, &create_t(&file)).await;
    run(&ctx, &format!("CREATE TABLE m AS {rows}")).await;
    let filters = [
        "x > 1000",
        "x < -1000",
        "x = 0.0",
        "x < 0.0",
        "x > CAST('-0.0' AS DOUBLE)",
        "x <= CAST('-0.0' AS DOUBLE)",
        "x >= 150",
        "x > 95 AND x < 105",
        "isnan(x)",
    ];
    for filter in filters {
        let query = |table: &str| format!("SELECT id FROM {table} WHERE {filter} ORDER BY id");
        let expected = run(&ctx, &query("m")).await;
        assert_eq!(run(&ctx, &query("t")).await, expected, "{filter}");
    }
    // The row groups of numbers only and of zeros only lie below 1000;
    // those holding NaNs may not.
    let plan = run(&ctx, "EXPLAIN ANALYZE SELECT id FROM t WHERE x > 1000").await;
    assert!(plan.contains("row_groups_pruned_statistics=6"), "{plan}");
}

#[tokio::test]
async fn bad_files_in_a_listing_are_errors_naming_the_file() {
    let dir = scratch("bad");
    let good = dir.join("a_good.parquet");
    let ctx = strata_ctx(SessionConfig::new());
    write(&ctx, &source_query(100), &good, "").await;
    let bytes = std::fs::read(&good).unwrap();
    let other = dir.join("other.parquet");
    write(&ctx, "SELECT 'text' AS id", &other, "").await;
    let cases: [(&str, Vec<u8>); 4] = [
        ("z_schema_mismatch.parquet", std::fs::read(&other).unwrap()),
        ("truncated.parquet", bytes[..bytes.len() / 2].to_vec()),
        ("not_parquet.parquet", b"id,name\n1,a\n".to_vec()),
        ("short.parquet", b"PAR1".to_vec()),
    ];
    for (name, content) in cases {
        let listing = dir.join(format!("listing_{name}/"));
        std::fs::create_dir_all(&listing).unwrap();
        std::fs::copy(&good, listing.join("a_good.parquet")).unwrap();
        std::fs::write(listing.join(name), &content).unwrap();
        let ctx = strata_ctx(SessionConfig::new());
        let create = create_t(&listing);
        // Schema inference reads every footer: the bad one fails it.
        let err = match ctx.sql(&create).await {
            Err(e) => e.to_string(),
            Ok(df) => match df.collect().await {
                Err(e) => e.to_string(),
                Ok(_) => match ctx.sql("SELECT count(*) FROM t").await {
                    Err(e) => e.to_string(),
                    Ok(df) => df
                        .collect()
                        .await
                        .map(|_| String::new())
                        .unwrap_or_else(|e| e.to_string()),
                },
            },
        };
        assert!(err.contains(name), "{name}: {err}");
    }
    // A file whose footer reads but whose first page header is garbage
    // fails the scan, not the planning: the error names it too.
    let listing = dir.join("listing_bad_page/");
    std::fs::create_dir_all(&listing).unwrap();
    std::fs::copy(&good, listing.join("a_good.parquet")).unwrap();
    let mut broken = bytes.clone();
    let footer = strata_arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
        bytes::Bytes::from(bytes.clone()),
    )
    .unwrap();
    let chunk = footer.metadata().row_group(0).column(0);
    let start = usize::try_from(
        chunk
            .dictionary_page_offset()
            .unwrap_or_else(|| chunk.data_page_offset()),
    )
    .unwrap();
    broken[start..start + 16].fill(0xFF);
    std::fs::write(listing.join("bad_page.parquet"), &broken).unwrap();
    let ctx = strata_ctx(SessionConfig::new());
    run(&ctx, &create_t(&listing)).await;
    let err = ctx
        .sql("SELECT * FROM t")
        .await
        .unwrap()
        .collect()
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("bad_page.parquet"), "{err}");

    // DataFusion lists no empty object, so an empty file is no error:
    // the table is the good file alone.
    let listing = dir.join("listing_empty/");
    std::fs::create_dir_all(&listing).unwrap();
    std::fs::copy(&good, listing.join("a_good.parquet")).unwrap();
    std::fs::write(listing.join("empty.parquet"), b"").unwrap();
    let ctx = strata_ctx(SessionConfig::new());
    run(&ctx, &create_t(&listing)).await;
    assert!(
        run(&ctx, "SELECT count(*) FROM t")
            .await
            .contains("| 100      |")
    );
}

#[tokio::test]
async fn read_and_register_parquet_read_with_strata() {
    let dir = scratch("helpers");
    let ctx = strata_ctx(SessionConfig::new());
    let parts = dir.join("parts/");
    std::fs::create_dir_all(&parts).unwrap();
    write(&ctx, &source_query(500), &parts.join("a.parquet"), "").await;
    write(&ctx, &source_query(300), &parts.join("b.parquet"), "").await;
    // A fresh session: the helpers work without register_strata too.
    let fresh = SessionContext::new();
    let df = strata_datafusion::read_parquet(&fresh, parts.to_str().unwrap())
        .await
        .unwrap();
    let plan = df
        .clone()
        .explain(false, false)
        .unwrap()
        .collect()
        .await
        .unwrap();
    let plan = datafusion::arrow::util::pretty::pretty_format_batches(&plan)
        .unwrap()
        .to_string();
    assert!(plan.contains("reader=strata"), "{plan}");
    assert_eq!(df.count().await.unwrap(), 800);
    strata_datafusion::register_parquet(&fresh, "t", parts.join("b.parquet").to_str().unwrap())
        .await
        .unwrap();
    let rows = run(&fresh, "SELECT count(*), max(id) FROM t").await;
    assert!(rows.contains("| 300      | 300"), "{rows}");
}

#[tokio::test]
async fn footers_are_kept_in_the_session_cache_until_the_file_changes() {
    let dir = scratch("metadata-cache");
    let file = dir.join("t.parquet");
    let ctx = strata_ctx(SessionConfig::new().with_target_partitions(1));
    write(&ctx, &source_query(3000), &file, "").await;
    let cache = ctx.runtime_env().cache_manager.get_file_metadata_cache();
    let location = object_store_path(&file);
    assert!(cache.get(&location).is_none(), "nothing read yet");
    // Without the page index enabled, inferring the schema decodes and
    // caches the footer alone.
    run(
        &ctx,
        "SET datafusion.execution.parquet.enable_page_index = false",
    )
    .await;
    run(&ctx, &create_t(&file)).await;
    let entry = cache.get(&location).expect("the footer is cached");
    assert_eq!(entry.file_metadata.extra_info()["page_index"], "false");
    assert!(entry.file_metadata.memory_size() > 0);
    let sum = "SELECT sum(id), count(maybe) FROM t WHERE id > 100";
    assert!(run(&ctx, sum).await.contains("4496450"));
    let entry = cache.get(&location).expect("the footer is cached");
    assert_eq!(entry.file_metadata.extra_info()["page_index"], "false");
    // With it enabled (the default), planning loads the page index too,
    // as DataFusion's own reader does with a cache: the cached footer
    // gains it, and a filter over the new table reads the same rows.
    run(
        &ctx,
        "SET datafusion.execution.parquet.enable_page_index = true",
    )
    .await;
    run(&ctx, &create_t(&file).replace(" t ", " t2 ")).await;
    let entry = cache.get(&location).expect("the footer is cached");
    assert_eq!(entry.file_metadata.extra_info()["page_index"], "true");
    let sum2 = sum.replace("FROM t ", "FROM t2 ");
    assert!(run(&ctx, &sum2).await.contains("4496450"));
    // The file rewritten with other rows (another size): the cached
    // footer no longer matches it, and the scan reads the new one.
    std::fs::remove_file(&file).unwrap();
    write(&ctx, &source_query(2000), &file, "").await;
    assert!(
        run(&ctx, sum).await.contains("1995950"),
        "the new file's rows"
    );
}

/// The object store path of a local file, as DataFusion keys its caches.
fn object_store_path(file: &Path) -> datafusion::object_store::path::Path {
    datafusion::object_store::path::Path::from_absolute_path(file).unwrap()
}
