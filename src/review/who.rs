//! Who made a change: the user and host, and the tool, as recorded in the journal and on
//! proposals (the leaf `who`, which the session names too).

pub use crate::who::{Tool, Who};
