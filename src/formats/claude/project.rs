//! The project a Claude Code folder belongs to: `<config>/projects/<slug>/memory` names it by
//! its slug, which loses `/`, `.` and `_` alike, so the match walks the file system.

use std::path::{Path, PathBuf};

use crate::claude::locate::slug;
use crate::formats::Project;
use crate::fs::subdirectories as children;

/// How many directories [`project_of`] may list while matching one slug.
const MATCH_BUDGET: usize = 4096;

/// The project a slug stands for, with the existing directory it matches when there is one
/// (a slug loses `/`, `.` and `_` alike, so the match walks the file system from `/`).
pub(crate) fn project_of(slug_text: &str) -> Project {
    let mut budget = MATCH_BUDGET;
    let path = slug_text
        .strip_prefix('-')
        .and_then(|rest| match_slug(Path::new("/"), rest, &mut budget))
        .map(|p| p.display().to_string());
    Project {
        slug: slug_text.to_owned(),
        path,
    }
}

/// The slug of a folder at `<config>/projects/<slug>/memory`.
pub(crate) fn slug_of_folder(folder: &Path) -> Option<&str> {
    let slug_dir = folder.parent()?;
    let is_projects = slug_dir
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == "projects");
    if folder.file_name()? != "memory" || !is_projects {
        return None;
    }
    slug_dir.file_name()?.to_str()
}

/// The project of a folder at `<config>/projects/<slug>/memory`, when its slug matches an
/// existing directory ([`project_of`]).
pub(crate) fn project_of_folder(folder: &Path) -> Option<PathBuf> {
    project_of(slug_of_folder(folder)?).path.map(PathBuf::from)
}

fn match_slug(dir: &Path, rest: &str, budget: &mut usize) -> Option<PathBuf> {
    if rest.is_empty() {
        return Some(dir.to_owned());
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    for (child, name) in children(dir) {
        let part = slug(Path::new(&name));
        if rest == part {
            return Some(child);
        }
        if let Some(tail) = rest
            .strip_prefix(part.as_str())
            .and_then(|t| t.strip_prefix('-'))
            && let Some(found) = match_slug(&child, tail, budget)
        {
            return Some(found);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn a_slug_matches_its_directory() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = fs::canonicalize(dir.path()).expect("realpath");
        let project = real.join("my.proj").join("sub_dir");
        fs::create_dir_all(&project).expect("mkdir");
        let found = project_of(&slug(&project));
        assert_eq!(found.path, Some(project.display().to_string()));
        assert_eq!(project_of("-no-such-place-anywhere-42").path, None);
    }
}
