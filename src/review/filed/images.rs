//! Proposals that change whole files (Claude Code folders): each file's full text before and
//! after. What they say they do and whether they still apply (what the format refuses at
//! filing is its backend's). No I/O here: the current text of a file comes from the caller.

use crate::change::FileImage;
use crate::frontmatter;
use crate::memory::RecordInput;
use crate::redact::redact;

use super::{Kind, State};

/// What a file image does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Create,
    Edit,
    Delete,
}

pub fn change(image: &FileImage) -> Change {
    match (&image.before, &image.after) {
        (None, _) => Change::Create,
        (Some(_), None) => Change::Delete,
        (Some(_), Some(_)) => Change::Edit,
    }
}

/// The kind of proposal `files` make: new files only are an extraction, one that removes a
/// file a consolidation, anything else an edit.
pub fn kind_of(files: &[FileImage]) -> Kind {
    if files.iter().all(|f| change(f) == Change::Create) {
        Kind::Extraction
    } else if files.iter().any(|f| change(f) == Change::Delete) {
        Kind::Consolidation
    } else {
        Kind::Edit
    }
}

/// The name of the memory a file image holds: its frontmatter's `name` field, else its file
/// name without `.md`.
pub fn topic_name(file: &str, text: &str) -> String {
    let parsed = frontmatter::parse(text);
    match parsed.field("name") {
        Some(name) if !name.trim().is_empty() => name.to_owned(),
        _ => {
            let base = file.rsplit('/').next().unwrap_or(file);
            base.strip_suffix(".md").unwrap_or(base).to_owned()
        }
    }
}

/// The name of the memory an image is about: the one its before image holds, else the one
/// its after image would write.
pub(crate) fn image_name(image: &FileImage) -> String {
    let text = image.before.as_deref().or(image.after.as_deref());
    topic_name(&image.file, text.unwrap_or_default())
}

/// The names of what the proposal replaces or removes (before images), in order.
pub fn source_names(files: &[FileImage]) -> Vec<String> {
    files
        .iter()
        .filter_map(|f| f.before.as_deref().map(|text| topic_name(&f.file, text)))
        .collect()
}

/// The names of what it writes (after images), in order.
pub fn written_names(files: &[FileImage]) -> Vec<String> {
    files
        .iter()
        .filter_map(|f| f.after.as_deref().map(|text| topic_name(&f.file, text)))
        .collect()
}

/// The after images as the fields of records (`type` and `description` empty where the file
/// has none), for listings that show records.
pub fn written(files: &[FileImage]) -> Vec<RecordInput> {
    files
        .iter()
        .filter_map(|f| {
            let text = f.after.as_deref()?;
            let parsed = frontmatter::parse(text);
            Some(RecordInput {
                name: topic_name(&f.file, text),
                kind: parsed.kind().unwrap_or_default().to_owned(),
                description: parsed.field("description").unwrap_or_default().to_owned(),
                body: parsed.trimmed_body().to_owned(),
            })
        })
        .collect()
}

/// Whether a consolidation of `files` (made from the files as they are now) is already filed
/// among `proposals`: a pending one replaces exactly the same files, or a rejected one would
/// have replaced them with the same texts (as `formats::memory::already_filed` says for
/// `.memory` plans: a file changed since the rejection brings the group back).
pub fn already_filed<'a>(
    files: &[FileImage],
    proposals: &'a [super::Proposal],
) -> Option<&'a super::Proposal> {
    let sources = |files: &[FileImage]| -> std::collections::BTreeSet<String> {
        files
            .iter()
            .filter(|f| f.before.is_some())
            .map(|f| f.file.clone())
            .collect()
    };
    let wanted = sources(files);
    let same_texts = |filed: &[FileImage]| {
        filed.iter().filter(|f| f.before.is_some()).all(|f| {
            files
                .iter()
                .any(|new| new.file == f.file && is_copy_of(&f.before, &new.before))
        })
    };
    proposals.iter().find(|p| {
        let blocks = match p.status {
            super::ProposalStatus::Pending => true,
            super::ProposalStatus::Rejected => same_texts(&p.files),
            super::ProposalStatus::Approved => false,
        };
        p.kind == Kind::Consolidation
            && blocks
            && !p.files.is_empty()
            && sources(&p.files) == wanted
    })
}

/// The images as memwb's files keep them: every credential replaced by `[REDACTED]` (see
/// docs/audit.md; approving writes the redacted text, and a redacted before image stands for
/// the real text it was made from).
pub fn redacted(files: Vec<FileImage>) -> Vec<FileImage> {
    let clean = |text: Option<String>| text.map(|t| redact(&t).into_owned());
    files
        .into_iter()
        .map(|f| FileImage {
            file: f.file,
            before: clean(f.before),
            after: clean(f.after),
        })
        .collect()
}

/// Whether `stored` (a before image as kept) is the text `current`, or `current` redacted.
pub fn is_copy_of(stored: &Option<String>, current: &Option<String>) -> bool {
    match (stored, current) {
        (None, None) => true,
        (Some(stored), Some(current)) => stored == current || *stored == redact(current),
        _ => false,
    }
}

/// Ready, or stale with what changed: every file must still be as its before image says.
/// `current` reads a file's text now (`None`: absent); an error is a change too
/// (`State::cannot_be_read`). What changed is said by the memory's name, as on every format
/// (`State::was_changed`).
pub fn state(
    files: &[FileImage],
    current: impl Fn(&str) -> Result<Option<String>, String>,
) -> State {
    let mut changes = Vec::new();
    for image in files {
        match current(&image.file) {
            Err(_) => changes.push(State::cannot_be_read(&image_name(image))),
            Ok(now) if is_copy_of(&image.before, &now) => {}
            Ok(None) => changes.push(State::was_removed(&image_name(image))),
            Ok(Some(_)) if image.before.is_none() => {
                changes.push(State::exists_now(&image_name(image)))
            }
            Ok(Some(_)) => changes.push(State::was_changed(&image_name(image))),
        }
    }
    if changes.is_empty() {
        State::Ready
    } else {
        State::Stale(changes)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A file image from its name and texts (for the format backends' tests too).
    pub(crate) fn image(file: &str, before: Option<&str>, after: Option<&str>) -> FileImage {
        FileImage {
            file: file.into(),
            before: before.map(Into::into),
            after: after.map(Into::into),
        }
    }

    #[test]
    fn a_proposal_is_stale_when_a_file_moved_on() {
        let files = [
            image("a.md", Some("old"), Some("new")),
            image("b.md", None, Some("b")),
        ];
        let ready = state(&files, |f| Ok((f == "a.md").then(|| "old".to_owned())));
        assert_eq!(ready, State::Ready);
        let stale = state(&files, |f| {
            Ok(Some(if f == "a.md" { "edited" } else { "b" }.to_owned()))
        });
        assert_eq!(
            stale,
            State::Stale(vec!["\"a\" was changed".into(), "\"b\" exists now".into()])
        );
        let gone = state(&files[..1], |_| Ok(None));
        assert_eq!(gone, State::Stale(vec!["\"a\" was removed".into()]));
    }

    #[test]
    fn a_redacted_before_image_stands_for_the_real_text() {
        let secret = "key AKIAZ7Q3K2LMN4PQRS5T\n";
        let kept = redacted(vec![image("a.md", Some(secret), Some("clean"))]);
        let before = kept[0].before.clone();
        assert_ne!(
            before.as_deref(),
            Some(secret),
            "the credential is not kept"
        );
        assert!(is_copy_of(&before, &Some(secret.to_owned())));
        assert!(!is_copy_of(&before, &Some("other".to_owned())));
    }
}
