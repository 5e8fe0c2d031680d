//! What is typed and pasted: no control character written raw, long typing and pastes arriving
//! whole.

use super::*;

#[test]
fn the_in_pane_editor_writes_no_control_or_bidi_character_raw() {
    let body = "before \u{202e}reversed\u{202c} esc \u{1b}[2J c1 \u{9b}31m bell \u{7} after";
    let ws = workspace(vec![record("hostile", body)]);
    let mut pty = Pty::spawn(&[], ws.path());
    pty.wait_for("Record: hostile");
    pty.send(b"e");
    pty.wait_for("Edit hostile");
    pty.wait_for("esc ␛[2J");
    for raw in [
        "\u{202e}".as_bytes(),
        "\u{202c}".as_bytes(),
        b"\x1b[2J",
        "\u{9b}".as_bytes(),
        b"\x07",
    ] {
        assert!(
            !pty.raw.windows(raw.len()).any(|w| w == raw),
            "{raw:?} reached the terminal"
        );
    }
    pty.send(b"\x1b"); // Esc closes the unchanged editor
    pty.wait_for("Record: hostile");
    pty.send(b"q");
    assert!(pty.wait_exit().success());
    pty.assert_restored();
}

/// Typed input over the 1,024-byte read buffer arrives whole without another key press: 1,500
/// characters and the `C-s` after them, written at once, save all 1,500.
#[test]
fn typing_over_1_kib_at_once_arrives_whole() {
    let ws = workspace(vec![record("alpha", "end")]);
    let mut pty = Pty::spawn(&[], ws.path());
    pty.wait_for("Record: alpha");
    pty.send(b"e");
    pty.wait_for("Edit alpha");
    let typed = "x".repeat(1500);
    let mut bytes = typed.clone().into_bytes();
    bytes.push(0x13); // Ctrl-S, right behind the text
    pty.send(&bytes);
    wait_saved(&mut pty, ws.path(), "alpha", &format!("{typed}end"));
    assert_eq!(
        logged(&mut pty, "save alpha: written"),
        1,
        "{}",
        pty.screen()
    );
    pty.send(b"q");
    assert!(pty.wait_exit().success());
}

/// A bracketed paste arrives as one event: 10 KB into the editor body shows whole at once (its
/// exact size against the budget), and a paste within the budget saves whole; pasted text runs
/// no binding.
#[test]
fn a_10_kb_paste_arrives_whole_and_a_paste_saves() {
    let ws = workspace(vec![record("alpha", "end")]);
    let mut pty = Pty::spawn(&[], ws.path());
    pty.wait_for("Record: alpha");
    pty.send(b"e");
    pty.wait_for("Edit alpha");
    let before = record("alpha", "end").to_file_text().len();
    let big: String = "paste me q ".repeat(1000).chars().take(10_240).collect();
    let mut bytes = b"\x1b[200~".to_vec();
    bytes.extend_from_slice(big.as_bytes());
    bytes.extend_from_slice(b"\x1b[201~");
    pty.send(&bytes);
    pty.wait_for(&format!("{}/4096 bytes", before + big.len()));
    // too big to save: refused, nothing half-written
    pty.send(b"\x13");
    pty.wait_for("not saved");
    assert_eq!(body_of(ws.path(), "alpha"), "end");
    pty.send(b"\x1b");
    pty.wait_for("lose its unsaved changes");
    pty.send(b"y");
    pty.wait_for("Record: alpha");

    pty.send(b"e");
    pty.wait_for("Edit alpha");
    let fits: String = "line of text\r".repeat(150);
    let mut bytes = b"\x1b[200~".to_vec();
    bytes.extend_from_slice(fits.as_bytes());
    bytes.extend_from_slice(b"\x1b[201~\x13");
    pty.send(&bytes);
    wait_saved(
        &mut pty,
        ws.path(),
        "alpha",
        &format!("{}end", "line of text\n".repeat(150)),
    );
    assert_eq!(
        logged(&mut pty, "save alpha: written"),
        1,
        "{}",
        pty.screen()
    );
    pty.send(b"q");
    assert!(pty.wait_exit().success());
}
