//! TPC-H through DataFusion, strata's Parquet format against DataFusion's
//! built-in one: the benchmark is `benches/tpch.rs`, run by `cargo xtask
//! bench` (or `cargo bench --profile release -p strata-tpch-bench`).
//! This library is empty; it exists because a package needs a target
//! besides its benchmarks.
#![forbid(unsafe_code)]
