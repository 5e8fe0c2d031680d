//! A Claude Code folder of the tests' own making, for the engine's tests (no binary needed):
//! the folder at `<temp>/memory` with the files a test gives it, and memwb's state directory
//! in a temporary folder of its own.

use std::collections::BTreeMap;
use std::path::PathBuf;

use memwb::claude::{ClaudeFolder, LoadLimits};
use memwb::store::IoHooks;

pub struct ClaudeDir {
    /// The folder's parent, also the `HOME` the binary runs with.
    pub home: tempfile::TempDir,
    pub state: tempfile::TempDir,
}

impl ClaudeDir {
    /// A folder holding `files` (relative name, text).
    pub fn with(files: &[(&str, &str)]) -> Self {
        let home = tempfile::tempdir().expect("temp dir");
        let memory = home.path().join("memory");
        std::fs::create_dir(&memory).expect("mkdir");
        for (file, text) in files {
            std::fs::write(memory.join(file), text).expect("write");
        }
        Self {
            home,
            state: tempfile::tempdir().expect("state dir"),
        }
    }

    pub fn memory(&self) -> PathBuf {
        self.home.path().join("memory")
    }

    /// The folder as the engine opens it, its state in `state`.
    pub fn folder(&self) -> ClaudeFolder {
        ClaudeFolder::open(&self.memory(), LoadLimits::default())
            .expect("open")
            .with_state_root(self.state.path().to_owned())
    }

    /// [`ClaudeDir::folder`] with every write step passing `hooks`.
    pub fn folder_with(&self, hooks: IoHooks) -> ClaudeFolder {
        self.folder().with_hooks(hooks)
    }

    /// The text of `file` (`None`: absent or not text).
    pub fn read(&self, file: &str) -> Option<String> {
        std::fs::read_to_string(self.memory().join(file)).ok()
    }

    /// Every file in the folder, by relative path, with its bytes.
    pub fn tree(&self) -> BTreeMap<String, Vec<u8>> {
        super::tree(&self.memory())
    }

    /// `memwb --memory-dir <memory>` isolated as `common::cli::memwb_claude` runs it, not
    /// started: arguments still to add.
    #[cfg(feature = "cli")]
    pub fn command(&self) -> std::process::Command {
        super::cli::claude_command(self.home.path(), &self.memory(), self.state.path())
    }
}
