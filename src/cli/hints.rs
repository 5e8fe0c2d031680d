//! The way out of an error: `hint:` lines printed under the `error:` line.

use crate::formats::{FormatError, ReadError};
use crate::review::ReviewError;
use crate::store::StoreError;

const LS_LISTS: &str = "memwb ls lists the memories";

/// What to run next, for the errors that have a known way out.
pub(super) fn for_error(error: &anyhow::Error) -> Vec<String> {
    for cause in error.chain() {
        if let Some(review) = cause.downcast_ref::<ReviewError>() {
            if let Some(store) = review.engine_error::<StoreError>() {
                return for_store(store);
            }
            return match review {
                ReviewError::ProposalNotFound { .. } => {
                    vec!["memwb proposals --all lists every proposal".into()]
                }
                ReviewError::EntryNotFound { .. } => {
                    vec!["memwb log lists the journal entries".into()]
                }
                _ => Vec::new(),
            };
        }
        if let Some(store) = cause.downcast_ref::<StoreError>() {
            return for_store(store);
        }
        if let Some(FormatError::Read(ReadError::NotFound { .. })) = cause.downcast_ref() {
            return vec![LS_LISTS.into()];
        }
    }
    Vec::new()
}

fn for_store(error: &StoreError) -> Vec<String> {
    match error {
        StoreError::RecordInvalid { path, .. } | StoreError::RecordMissing { path } => {
            let file = path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string());
            vec![
                format!("memwb repair {file} --from FIXED | --drop"),
                "memwb check shows the whole picture".into(),
            ]
        }
        StoreError::NotListed { .. } => {
            vec!["memwb check lists every manifest entry and how it reads".into()]
        }
        StoreError::NotFound { .. } => vec![LS_LISTS.into()],
        StoreError::AmbiguousName { files, .. } => {
            let file = files.last().map(String::as_str).unwrap_or("FILE");
            vec![
                format!("address one by its file: memwb set {file} --name NEW, memwb rm {file}"),
                format!("or repair one: memwb repair {file} --from FIXED | --drop"),
            ]
        }
        _ => Vec::new(),
    }
}
