//! # strata
//!
//! The facade crate: re-exports every layer of strata under one name.
#![deny(missing_docs)]

pub use strata_sink as sink;
