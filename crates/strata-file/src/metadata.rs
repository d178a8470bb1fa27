//! Choices about how much of a file's metadata a reader loads, with
//! arrow-rs's names (`parquet::file::metadata`).
//!
//! The footer itself is strata-format's [`FileMetaData`]
//! (`strata_format::metadata`), which every reader decodes; what is
//! optional is the page index (column and offset indexes), which lives
//! outside the footer and costs a read per column chunk.
//!
//! [`FileMetaData`]: strata_format::metadata::FileMetaData

pub use strata_format::metadata::{KeyValue, SortingColumn};

/// Whether a reader loads a page index (the column index or the offset
/// index of each column chunk).
///
/// ```
/// use strata_file::metadata::PageIndexPolicy;
///
/// assert_eq!(PageIndexPolicy::default(), PageIndexPolicy::Skip);
/// assert_eq!(PageIndexPolicy::from(true), PageIndexPolicy::Required);
/// assert!(PageIndexPolicy::Optional.loads());
/// assert!(!PageIndexPolicy::Skip.loads());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PageIndexPolicy {
    /// Do not load it.
    #[default]
    Skip,
    /// Load it where the file has one.
    Optional,
    /// Load it; a file without one is still read (as arrow-rs does), a
    /// page index that cannot be decoded is an error.
    Required,
}

impl PageIndexPolicy {
    /// Whether the index is loaded at all.
    pub fn loads(self) -> bool {
        self != Self::Skip
    }
}

impl From<bool> for PageIndexPolicy {
    /// `true` is [`Required`](Self::Required), `false`
    /// [`Skip`](Self::Skip).
    fn from(load: bool) -> Self {
        if load { Self::Required } else { Self::Skip }
    }
}
