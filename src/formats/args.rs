//! What the command line gives every format's open alike: how a change waits for the folder's
//! lock. The flags each format declares for itself are flattened through the registration
//! (`FormatArgs`, src/formats/registry.rs).

use std::time::Duration;

use super::WaitNotice;

/// How a command waits for a folder's lock, whatever its format: at most `timeout`, and
/// `notice` is told once it has waited a second for another process.
pub(crate) struct Locking {
    pub(crate) timeout: Duration,
    pub(crate) notice: Option<WaitNotice>,
}
