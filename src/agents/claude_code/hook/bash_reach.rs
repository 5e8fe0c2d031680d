//! Which protected paths an expanded word may name. A word is a path as written (resolved
//! against each directory the command may be in, lexically and through the links that
//! exist now), or, when part of it is only known at run time, every path that starts with
//! its known prefix, or any path at all.

use std::path::{Path, PathBuf};

use super::Guarded;
use super::bash::normalize;
use super::bash_word::{Seg, known_text};

/// The directories a command may run in: the session's, and each one a `cd` or `pushd`
/// in it names (kept all, whatever order they run in: a `cd` may fail or sit in a
/// branch). `None` in the list: a directory only known at run time.
#[derive(Debug, Clone)]
pub(crate) struct Cwds(pub Vec<Option<PathBuf>>);

/// The first protected entry (index into the list) the word may name.
pub(crate) fn touched(word: &[Seg], cwds: &Cwds, protected: &[Guarded]) -> Option<usize> {
    if protected.is_empty() {
        return None;
    }
    if let Some(text) = known_text(word) {
        return cwds_for(&text, cwds)
            .into_iter()
            .find_map(|base| match base {
                None => Some(0),
                Some(base) => exact(&base.join(&text), protected),
            });
    }
    let first_unknown = word.iter().position(|s| !matches!(s, Seg::Lit(_)))?;
    let (known, rest) = word.split_at(first_unknown);
    let climbs = known_text(
        &rest
            .iter()
            .map(|s| if let Seg::Lit(c) = s { *c } else { 'x' })
            .map(Seg::Lit)
            .collect::<Vec<_>>(),
    )
    .is_some_and(|t| t.split('/').any(|part| part == ".."));
    if rest.contains(&Seg::Open) || climbs {
        return Some(0);
    }
    let prefix = known_text(known).unwrap_or_default();
    cwds_for(&prefix, cwds)
        .into_iter()
        .find_map(|base| match base {
            None => Some(0),
            Some(base) => {
                let joined = if prefix.starts_with('/') {
                    prefix.clone()
                } else {
                    format!("{}/{prefix}", base.display())
                };
                prefixed(&joined, protected)
            }
        })
}

/// Whether the command's own directory is in, or is, a protected folder.
pub(crate) fn cwd_inside(cwds: &Cwds, protected: &[Guarded]) -> Option<usize> {
    cwds.0.iter().find_map(|cwd| match cwd {
        None => (!protected.is_empty()).then_some(0),
        Some(cwd) => forms(cwd).into_iter().find_map(|form| {
            protected
                .iter()
                .position(|g| g.aliases.iter().any(|alias| form.starts_with(alias)))
        }),
    })
}

/// The bases a word is resolved against: `/` for an absolute one.
fn cwds_for(text: &str, cwds: &Cwds) -> Vec<Option<PathBuf>> {
    if text.starts_with('/') {
        vec![Some(PathBuf::from("/"))]
    } else {
        cwds.0.clone()
    }
}

/// A path as written: in a protected entry, or above one.
fn exact(path: &Path, protected: &[Guarded]) -> Option<usize> {
    forms(path).into_iter().find_map(|form| {
        protected.iter().position(|g| {
            g.aliases
                .iter()
                .any(|alias| form.starts_with(alias) || alias.starts_with(&form))
        })
    })
}

/// Every path that starts with `prefix` (as text): one may be in or above a protected entry.
fn prefixed(prefix: &str, protected: &[Guarded]) -> Option<usize> {
    let (dir, stem) = prefix.rsplit_once('/').unwrap_or(("", prefix));
    let mut forms_of_prefix = vec![normalize(Path::new(prefix)).to_string_lossy().into_owned()];
    let dir_path = if dir.is_empty() {
        Path::new("/")
    } else {
        Path::new(dir)
    };
    for dir_form in forms(dir_path) {
        let mut text = dir_form.to_string_lossy().into_owned();
        if !text.ends_with('/') {
            text.push('/');
        }
        text.push_str(stem);
        forms_of_prefix.push(text);
    }
    forms_of_prefix.into_iter().find_map(|form| {
        protected.iter().position(|g| {
            g.aliases.iter().any(|alias| {
                alias.to_string_lossy().starts_with(form.as_str())
                    || Path::new(&form).starts_with(alias)
            })
        })
    })
}

/// The path lexically normalised, and where it lands through the links that exist now
/// (the longest existing ancestor canonicalised, `..` after it taken as written).
pub(crate) fn forms(path: &Path) -> Vec<PathBuf> {
    let lexical = normalize(path);
    let mut out = vec![lexical];
    let mut existing = path.to_path_buf();
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let mut landed = real;
            for part in rest.iter().rev() {
                landed.push(part);
            }
            let landed = normalize(&landed);
            if !out.contains(&landed) {
                out.push(landed);
            }
            break;
        }
        match (existing.file_name(), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_owned());
                existing = parent.to_path_buf();
            }
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::claude_code::hook::bash_word::literal;

    fn memory() -> Vec<Guarded> {
        vec![Guarded {
            aliases: vec![PathBuf::from(
                "/nonexistent-home/u/.claude/projects/p/memory",
            )],
        }]
    }

    fn cwds(dir: &str) -> Cwds {
        Cwds(vec![Some(PathBuf::from(dir))])
    }

    #[test]
    fn exact_paths_in_or_above_the_folder_touch_it() {
        let at = cwds("/nonexistent-home/u/app");
        for word in [
            "/nonexistent-home/u/.claude/projects/p/memory/a.md",
            "/nonexistent-home/u/.claude",
            "../.claude/projects/p/memory",
            "/",
        ] {
            assert_eq!(touched(&literal(word), &at, &memory()), Some(0), "{word}");
        }
        for word in [
            "/nonexistent-home/u/.claude/projects/p/memory-old/a.md",
            "src/a.md",
            "-rf",
        ] {
            assert_eq!(touched(&literal(word), &at, &memory()), None, "{word}");
        }
    }

    #[test]
    fn globs_touch_by_prefix_and_open_words_touch_everything() {
        let at = cwds("/nonexistent-home/u/app");
        let mut glob = literal("/nonexistent-home/u/.cl");
        glob.push(Seg::Wild);
        assert_eq!(touched(&glob, &at, &memory()), Some(0));
        let mut elsewhere = literal("/tmp/x");
        elsewhere.push(Seg::Wild);
        assert_eq!(touched(&elsewhere, &at, &memory()), None);
        let mut climbing = elsewhere.clone();
        climbing.extend(literal("/../../nonexistent-home"));
        assert_eq!(touched(&climbing, &at, &memory()), Some(0));
        let mut variable = literal("/tmp/");
        variable.push(Seg::Open);
        assert_eq!(touched(&variable, &at, &memory()), Some(0));
    }
}
