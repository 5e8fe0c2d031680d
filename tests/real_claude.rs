//! memwb against the real Claude Code (the version pinned in `real_claude/client.rs`), run
//! headless (`claude -p`) against a mock Messages API on loopback. Each test proves one fact
//! memwb depends on (docs/claude-code.md, "Facts proved against the real client"); when one
//! fails on another version (`MEMWB_CLAUDE_CODE_VERSION=latest cargo test --test
//! real_claude`), it prints `fact changed on VERSION: ...`. Without the client installed the
//! tests skip with one line saying how to install it (and fail under `MEMWB_REQUIRE_ALL=1`,
//! as `.ci/run` sets after installing it).

#[path = "real_claude/client.rs"]
mod client;
use crate::common;
#[path = "real_claude/mock.rs"]
mod mock;

use std::path::Path;

use serde_json::{Value, json};

use client::{PINNED, Sandbox, git};
use mock::{Mock, text, tool};

mod folders;
mod hook;
mod loading;

/// Says which fact a failing test proved, when it fails (its drop runs while panicking).
struct Fact(&'static str);

impl Drop for Fact {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let version = client::client().map_or("?", |(_, v)| v.as_str());
            eprintln!(
                "fact changed on Claude Code {version}: {} (proved on {PINNED})",
                self.0
            );
        }
    }
}

/// The fact's guard, or `None` (the test returns) when the client is not installed.
fn fact(name: &'static str) -> Option<Fact> {
    match client::client() {
        Ok(_) => Some(Fact(name)),
        Err(why) => {
            common::skip(why);
            None
        }
    }
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}
