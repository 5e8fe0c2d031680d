//! memwb: audit and curate the file memory of coding agents.
//!
//! [`store`] is the engine: the `.memory/` on-disk contract shared with the reference agents.
pub mod cli;
pub mod store;
