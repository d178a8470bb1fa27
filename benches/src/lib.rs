//! Shared data generators for strata's side-by-side benchmarks.
//!
//! Every workload is built once here and handed to both strata and arrow-rs,
//! so the two always decode the same bytes.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod data;
pub mod probe;
