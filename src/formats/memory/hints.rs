//! The way out of a `.memory` engine error, as the command line's `hint:` lines.

use crate::formats::error::LS_LISTS;
use crate::store::StoreError;

/// What to run next for `error`; empty when there is no known way out.
pub(crate) fn for_store(error: &StoreError) -> Vec<String> {
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
