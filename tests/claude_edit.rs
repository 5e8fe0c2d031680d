//! The pure planning layer for Claude Code folders (`memwb::claude::edit`) on the fixture's
//! files: byte-for-byte round trips, one-field edits, the `modified` stamp, new file names,
//! MEMORY.md line edits and the `index --fix` plan.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use memwb::claude::LoadLimits;
use memwb::claude::edit::{
    self, Changes, FileWrite, NewMemory, TopicFile, TopicSummary, plan_index_fix,
};
use memwb::claude::index::{self, ARCHIVE_FILE};

mod edits;
mod memory_md;

const FIXTURE: &str = "tests/fixtures/claude";
const MEMORY: &str = "tests/fixtures/claude/config/projects/-home-dev-shop/memory";

fn now() -> Timestamp {
    "2026-10-02T11:12:13.456789Z".parse().unwrap()
}

fn read(file: &str) -> String {
    std::fs::read_to_string(Path::new(MEMORY).join(file)).unwrap()
}

fn topic_files() -> Vec<String> {
    walkdir::WalkDir::new(MEMORY)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(MEMORY).unwrap();
            rel.to_str().unwrap().replace('\\', "/")
        })
        .filter(|f| f.ends_with(".md") && f != "MEMORY.md")
        .collect()
}

fn new_memory(name: &str, kind: &str) -> NewMemory {
    NewMemory {
        name: name.into(),
        kind: kind.into(),
        description: format!("about {name}"),
        body: "The rule.\n\n**Why:** because.".into(),
    }
}

fn index_after(writes: &[FileWrite]) -> &str {
    let write = writes
        .iter()
        .find(|w| w.file == "MEMORY.md")
        .expect("a MEMORY.md write");
    assert_eq!(
        write.base.as_deref(),
        Some(read("MEMORY.md").as_str()),
        "based on the text read"
    );
    write.after.as_deref().unwrap()
}
