//! Deterministic near-duplicate detection: no model. Memories whose content words (name,
//! description and body, in every script, without stopwords) mostly agree are grouped
//! ([`similar_groups`], pairs or cliques, never chains). Each format's backend makes a group
//! of its memories and the merged draft the reviewer edits (on `.memory`,
//! `formats::memory::find_groups`).

mod similar;
mod words;

pub use similar::{MIN_SHARED, SIMILARITY, Similar, similar_groups};
