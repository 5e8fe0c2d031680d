//! The store engine: the `.memory/` contract, shared byte for byte with the reference agents.
pub mod codec;
pub mod record;
pub mod yaml_scalar;

pub use codec::ParseError;
pub use record::{MemoryType, Record, RecordError, RecordInput};
