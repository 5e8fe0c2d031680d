//! The `.memory` engine's errors as the layers above ask about them: each answers for itself
//! ([`EngineFault`]: a conflict, a lock wait worth retrying, the way out) and travels as
//! `FormatError::Engine` or `ReadError::Engine`, so that nothing above the backend tells the
//! engines apart by type.

use crate::formats::{FormatError, ReadError};
use crate::review::error::EngineFault;
use crate::store::{RecordError, StoreError};

impl EngineFault for StoreError {
    fn is_conflict(&self) -> bool {
        matches!(self, Self::Conflict { .. })
    }

    fn is_transient(&self) -> bool {
        StoreError::is_transient(self)
    }

    fn hints(&self) -> Vec<String> {
        super::hints::for_store(self)
    }
}

/// A record that does not validate: refused as it is, never a conflict.
impl EngineFault for RecordError {
    fn is_conflict(&self) -> bool {
        false
    }
}

impl From<StoreError> for FormatError {
    fn from(error: StoreError) -> Self {
        Self::engine(error)
    }
}

impl From<RecordError> for FormatError {
    fn from(error: RecordError) -> Self {
        Self::engine(error)
    }
}

impl From<StoreError> for ReadError {
    fn from(error: StoreError) -> Self {
        Self::engine(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Cause, is_raced};

    #[test]
    fn a_store_error_read_or_written_reaches_a_front_end_as_the_engines_own() {
        let missing = || StoreError::RecordMissing {
            path: "/w/.memory/records/a.json".into(),
        };
        for error in [
            FormatError::from(missing()),
            FormatError::Read(ReadError::from(missing())),
        ] {
            assert!(!error.is_conflict());
            let (_, cause) = error.cause();
            let Cause::Engine(engine) = cause else {
                panic!("not the engine's error: {cause:?}");
            };
            assert!(matches!(
                engine.downcast_ref::<StoreError>(),
                Some(StoreError::RecordMissing { .. })
            ));
            assert_eq!(
                engine.hints(),
                [
                    "memwb repair a.json --from FIXED | --drop",
                    "memwb check shows the whole picture"
                ]
            );
            assert!(!is_raced(&engine));
        }
        let conflict = FormatError::from(StoreError::Conflict {
            detail: "a changed".into(),
        });
        assert!(conflict.is_conflict() && conflict.current_text().is_none());
    }
}
