//! What a side-query (an extraction, a consolidation, `memwb propose`) may be asked about: the
//! memories it is shown, as records, and those it cannot be shown, with why. A folder's
//! backend reads them (`formats::Proposing::candidates`); the session shows them to a model.

use crate::memory::Refusal;
use crate::store::Record;

/// The memories a side-query may be asked about, as the records it is shown, and those it
/// cannot be shown, with why.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    pub records: Vec<Record>,
    pub left_out: Vec<Refusal>,
    /// The index as an agent is given it (what an extractor is shown).
    pub catalog: String,
}
