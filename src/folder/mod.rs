//! The memory folders on a machine: finding every folder of every format ([`sets`]) and
//! summing each up the same way, over [`crate::formats::Backend`]; which format a folder is
//! and how it opens are the backends' ([`crate::formats::detect`], [`crate::formats::open`]).

pub mod sets;
