//! The agent program `memwb hooks` acts on: its `--mode` values and their help are the
//! agent's own.

use super::*;

/// `args` fail as a usage error (exit 2) that says why, and leave `path` as it was.
fn refused_untouched(home: &Path, args: &[&str], path: &Path, why: &str) {
    let before = fs::read(path).ok();
    let out = memwb(home, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(why), "{args:?}: {stderr}");
    assert_eq!(fs::read(path).ok(), before, "{args:?} changed the file");
}

#[test]
fn a_mode_the_agent_does_not_install_is_refused() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    ok(memwb(
        home.path(),
        &["hooks", "install", "--mode", "record"],
    ));
    refused_untouched(
        home.path(),
        &["hooks", "install", "--mode", "off"],
        &path,
        "invalid value 'off' for '--mode <MODE>'",
    );
}

#[test]
fn the_help_gives_each_agent_and_its_modes_in_its_own_words() {
    let home = tempfile::tempdir().expect("temp");
    let help = |args: &[&str]| {
        let said = ok(memwb(home.path(), args));
        said.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let hook = help(&["hook", "claude", "-h"]);
    assert!(
        hook.contains(
            "The mode when neither MEMWB_CLAUDE_MODE nor memwb's config file sets one: review, record or off. [possible values: review, record, off]"
        ),
        "{hook}"
    );
    let install = help(&["hooks", "install", "-h"]);
    assert!(
        install.contains(
            "--mode <MODE> review: memory writes become proposals (the default); record: memory writes go through and are journaled. [possible values: review, record]"
        ),
        "{install}"
    );
}
