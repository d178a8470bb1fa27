//! The command's error: a message, or a closed output pipe (which ends the
//! command quietly, as `strata cat big.parquet | head` expects).

use std::error::Error;
use std::io;

/// An error of a subcommand.
#[derive(Debug)]
pub enum CliError {
    /// Something went wrong; the message is shown as `strata: <message>`.
    Message(String),
    /// Standard output was closed by the reader.
    BrokenPipe,
}

/// A result with [`CliError`].
pub type Result<T> = std::result::Result<T, CliError>;

impl CliError {
    /// An error with a message.
    pub fn msg(message: impl Into<String>) -> Self {
        Self::Message(message.into())
    }
}

/// Any error converts, keeping its message; a broken pipe anywhere in its
/// source chain becomes [`CliError::BrokenPipe`].
impl<E: Error + 'static> From<E> for CliError {
    fn from(e: E) -> Self {
        let mut current: Option<&(dyn Error + 'static)> = Some(&e);
        while let Some(err) = current {
            if let Some(io) = err.downcast_ref::<io::Error>()
                && io.kind() == io::ErrorKind::BrokenPipe
            {
                return Self::BrokenPipe;
            }
            current = err.source();
        }
        // arrow-rs's IoError keeps the io::Error as a field, not a source.
        let message = e.to_string();
        if message.contains("Broken pipe") {
            return Self::BrokenPipe;
        }
        Self::Message(message)
    }
}

/// Open a file for reading, naming it in the error.
pub fn open(path: &std::path::Path) -> Result<std::fs::File> {
    std::fs::File::open(path)
        .map_err(|e| CliError::msg(format!("cannot open {}: {e}", path.display())))
}
