//! Workbench benchmarks (run with `cargo bench --bench tui`; results in docs/performance.md):
//! frame rendering and reload for a 10,000-record set (raised budgets) against a 200-record
//! set, scrolling, the watcher's commit-to-event latency for a 200-record set, and at 10,000
//! records the first screen and an outside commit's way to the screen (issue 27).

use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use memwb::formats::{EditorChange, Open, Shown};
use memwb::store::{MemoryType, Record, Store, StoreOptions, index, manifest};
use memwb::tui::app::{App, Event};
use memwb::tui::jobs::Job;
use memwb::tui::theme::Theme;
use memwb::tui::ui;
use memwb::watch::{WatchEvent, WatchOptions, Watcher};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn options(records: usize) -> StoreOptions {
    StoreOptions {
        max_index_lines: records.max(200),
        max_index_bytes: (records * 200).max(4096),
        ..StoreOptions::default()
    }
}

/// A workspace of `n` records, written directly (bench setup, not a transaction).
fn workspace(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path().join(".memory");
    std::fs::create_dir(&root).expect("mkdir");
    let mut files = Vec::with_capacity(n);
    let mut records = Vec::with_capacity(n);
    for i in 0..n {
        let record = Record::new(
            format!("record-{i:05}"),
            MemoryType::ALL[i % 4],
            format!("Description of record {i}"),
            format!("Body of record {i}.\nSecond line with some more words in it.\n"),
        )
        .expect("valid");
        let file = format!("record-{i:05}-{i:032x}.md");
        std::fs::write(root.join(&file), record.to_file_text()).expect("write");
        files.push(file);
        records.push(record);
    }
    let text = index::render(files.iter().map(String::as_str).zip(records.iter()));
    std::fs::write(root.join("MEMORY.md"), text).expect("index");
    std::fs::write(root.join("manifest.json"), manifest::render(&files)).expect("manifest");
    dir
}

struct Stats(Vec<Duration>);

impl Stats {
    fn pct(&self, p: f64) -> Duration {
        let mut v = self.0.clone();
        v.sort();
        v[((v.len() - 1) as f64 * p).round() as usize]
    }
    fn show(&self, what: &str) {
        println!(
            "{what:<48} p50 {:>9.3} ms   p95 {:>9.3} ms   (n={})",
            self.pct(0.5).as_secs_f64() * 1e3,
            self.pct(0.95).as_secs_f64() * 1e3,
            self.0.len()
        );
    }
}

fn time(n: usize, mut f: impl FnMut()) -> Stats {
    Stats(
        (0..n)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

fn key(app: &mut App, code: KeyCode) {
    app.update(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn bench_set(n: usize) {
    let dir = workspace(n);
    let store = Store::open(dir.path(), options(n)).expect("open");
    let inspection = Arc::new(store.inspect());
    assert_eq!(inspection.entries.len(), n);
    assert!(inspection.is_readable());
    let mut app = App::new(
        Open::from(store.clone()),
        Shown::from(inspection),
        Theme::from_env(),
    );
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("terminal");

    time(5, || {
        terminal.draw(|f| ui::render(f, &mut app)).expect("draw");
    });
    time(50, || {
        terminal.clear().expect("clear");
        terminal.draw(|f| ui::render(f, &mut app)).expect("draw");
    })
    .show(&format!("{n:>6} records: full frame 100x30 (top)"));
    key(&mut app, KeyCode::End);
    time(50, || {
        terminal.clear().expect("clear");
        terminal.draw(|f| ui::render(f, &mut app)).expect("draw");
    })
    .show(&format!("{n:>6} records: full frame 100x30 (bottom)"));
    key(&mut app, KeyCode::Home);
    time(200.min(n - 1), || {
        key(&mut app, KeyCode::Char('j'));
        terminal.draw(|f| ui::render(f, &mut app)).expect("draw");
    })
    .show(&format!("{n:>6} records: scroll one row + frame"));
    time(10, || {
        let inspection = Arc::new(store.inspect());
        app.set_shown(Shown::from(inspection));
    })
    .show(&format!("{n:>6} records: reload (inspect + panes)"));
    time(10, || {
        let inspection = Arc::new(store.inspect());
        std::hint::black_box(inspection);
    })
    .show(&format!("{n:>6} records:   of which inspect"));
}

fn bench_watch_latency() {
    let n = 200;
    let dir = workspace(n);
    let store = Store::open(dir.path(), options(n + 100)).expect("open");
    let (tx, rx) = mpsc::channel();
    let (_watcher, _) = Watcher::start(store.clone(), WatchOptions::default(), move |event| {
        if let WatchEvent::Committed(_) = event {
            let _ = tx.send(Instant::now());
        }
    })
    .expect("watch");
    let writer = Store::open(dir.path(), options(n + 100)).expect("open");
    let (mut whole, mut after) = (Vec::new(), Vec::new());
    for i in 0..60 {
        let record =
            Record::new(format!("extra-{i}"), MemoryType::Project, "added", "body").expect("valid");
        let start = Instant::now();
        writer.extend(vec![record]).expect("commit");
        // the commit point (the manifest's rename) lies between these two instants
        let returned = Instant::now();
        let seen = rx.recv_timeout(Duration::from_secs(10)).expect("event");
        whole.push(seen.saturating_duration_since(start));
        after.push(seen.saturating_duration_since(returned));
        while rx.try_recv().is_ok() {}
    }
    Stats(whole).show("200 records: txn start -> watcher event (bound)");
    Stats(after).show("200 records: txn return -> watcher event");
}

/// Resident memory of this process now, in bytes (Linux: `VmRSS` in `/proc/self/status`;
/// 0 elsewhere).
fn resident() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse::<usize>().ok()
        })
        .map_or(0, |kib| kib * 1024)
}

/// `runs` first screens, each timed up to its frame (the app is dropped untimed).
fn time_first_screens(runs: usize, workspace: &std::path::Path, n: usize) -> Stats {
    Stats(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                let app = first_screen(workspace, n);
                let took = start.elapsed();
                drop(app);
                took
            })
            .collect(),
    )
}

/// Waits until the record files of a workspace just written are older than the record cache's
/// settle time, as the files of a set in use are.
fn settle() {
    std::thread::sleep(memwb::store::RECORD_CACHE_SETTLE + Duration::from_millis(200));
}

/// Open, inspect, build the app and draw its first frame: what a person opening the workbench
/// waits for.
fn first_screen(workspace: &std::path::Path, n: usize) -> App {
    let store = Store::open(workspace, options(n)).expect("open");
    let inspection = Arc::new(store.inspect());
    let mut app = App::new(
        Open::from(store),
        Shown::from(inspection),
        Theme::from_env(),
    );
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("terminal");
    terminal.draw(|f| ui::render(f, &mut app)).expect("draw");
    app
}

/// The argument that makes this program the child of [`bench_first_screen`]'s memory figure.
const MEMORY_CHILD: &str = "--first-screen-memory";

/// In a fresh process (this program again), the first screen on the workspace at `args[0]`
/// with `args[1]` records: prints the resident memory it added. Only a fresh process tells:
/// in the bench's own process, the heap freed by the earlier runs is reused and the resident
/// size does not grow.
fn first_screen_memory_child(args: &[String]) {
    let (Some(workspace), Some(n)) = (args.first(), args.get(1).and_then(|n| n.parse().ok()))
    else {
        panic!("usage: {MEMORY_CHILD} WORKSPACE RECORDS");
    };
    let before = resident();
    let app = first_screen(std::path::Path::new(workspace), n);
    println!("{}", resident().saturating_sub(before));
    drop(app);
}

/// What a person opening the workbench on `n` records waits for: open, inspect, build the app
/// and draw its first frame (each time in a fresh store, so no record comes from a cache), on
/// a set that has settled and on one just written; and the memory the app holds then.
fn bench_first_screen(n: usize) {
    let dir = workspace(n);
    time_first_screens(30, dir.path(), n).show(&format!("{n:>6} records: first screen, new files"));
    settle();
    time_first_screens(30, dir.path(), n)
        .show(&format!("{n:>6} records: first screen (open..frame)"));
    let mut grown: Vec<usize> = (0..3)
        .map(|_| {
            let out = std::process::Command::new(std::env::current_exe().expect("exe"))
                .arg(MEMORY_CHILD)
                .arg(dir.path())
                .arg(n.to_string())
                .output()
                .expect("child");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse()
                .expect("bytes")
        })
        .collect();
    grown.sort();
    println!(
        "{:<48} {:.1} MiB (median of {}, fresh processes)",
        format!("{n:>6} records: resident memory it added"),
        grown[grown.len() / 2] as f64 / (1 << 20) as f64,
        grown.len()
    );
}

/// The workbench commits one record onto `n` itself (a save in the editor) and draws the frame
/// that shows it: the job, the reading after it, the panes, the frame. `incremental`: the job
/// reads on top of the reading shown (as the workbench runs it), else the whole folder.
fn bench_own_commit(n: usize, incremental: bool) {
    let dir = workspace(n);
    let store = Store::open(dir.path(), options(n + 100)).expect("open");
    let mut app = App::new(
        Open::from(store.clone()),
        Shown::from(Arc::new(store.inspect())),
        Theme::from_env(),
    );
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("terminal");
    let mut samples = Vec::new();
    for i in 0..30 {
        let job = Job::from(EditorChange::SaveFields {
            file: None,
            base: None,
            fields: [
                format!("own-{i}"),
                "project".into(),
                "added".into(),
                "body".into(),
            ],
        });
        // The job runs on a clone of the app's open folder, as the workbench binds it: the
        // clones share what is kept between readings (the journal's tail as last read).
        let open = app.backend.clone();
        let start = Instant::now();
        let done = if incremental {
            let shown = app.shown.clone();
            job.run_from(&open, Some((&shown, app.watch_readings)))
        } else {
            job.run(&open)
        };
        assert!(done.result.is_ok(), "{:?}", done.result);
        app.update(Event::Job(Box::new(done)));
        terminal.draw(|f| ui::render(f, &mut app)).expect("draw");
        samples.push(start.elapsed());
    }
    let how = if incremental {
        "reads what changed"
    } else {
        "reads everything"
    };
    Stats(samples).show(&format!("{n:>6} records: own commit -> on screen ({how})"));
}

/// Another process commits one record onto `n`; the workbench's watcher reloads and the app
/// draws the frame that shows it: from the commit's return to that frame. `settled`: the set's
/// files are older than the record cache's settle time (a set in use); otherwise just written.
fn bench_outside_commit(n: usize, settled: bool) {
    let dir = workspace(n);
    if settled {
        settle();
    }
    let store = Store::open(dir.path(), options(n + 100)).expect("open");
    let inspection = Arc::new(store.inspect());
    let mut app = App::new(
        Open::from(store.clone()),
        Shown::from(inspection),
        Theme::from_env(),
    );
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("terminal");
    let (tx, rx) = mpsc::channel();
    let (_watcher, _) = Watcher::start(store.clone(), WatchOptions::default(), move |event| {
        if let WatchEvent::Committed(change) = event {
            let _ = tx.send(change.inspection);
        }
    })
    .expect("watch");
    let writer = Store::open(dir.path(), options(n + 100)).expect("open");
    let mut samples = Vec::new();
    for i in 0..30 {
        let record = Record::new(format!("outside-{i}"), MemoryType::Project, "added", "body")
            .expect("valid");
        writer.extend(vec![record]).expect("commit");
        let returned = Instant::now();
        let inspection = rx.recv_timeout(Duration::from_secs(30)).expect("event");
        app.set_shown(Shown::from(inspection));
        terminal.draw(|f| ui::render(f, &mut app)).expect("draw");
        samples.push(returned.elapsed());
        while rx.try_recv().is_ok() {}
    }
    let files = if settled { "settled" } else { "new" };
    Stats(samples).show(&format!(
        "{n:>6} records: outside commit -> on screen ({files})"
    ));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == MEMORY_CHILD) {
        return first_screen_memory_child(&args[at + 1..]);
    }
    if !args.iter().any(|a| a == "--bench") {
        return; // run by `cargo test --all-targets`: building it is the check
    }
    // `cargo bench --bench tui -- claude` runs what holds `claude` in its name (`-- undo`: the
    // Claude Code undo case alone).
    let filters: Vec<&str> = args[1..]
        .iter()
        .map(String::as_str)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |group: &str| filters.is_empty() || filters.iter().any(|f| group.contains(f));
    println!(
        "memwb workbench benchmarks ({} cores)",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    let groups: [(&str, &dyn Fn()); 5] = [
        ("store 200", &|| bench_set(200)),
        ("store 10000", &|| bench_set(10_000)),
        ("store watch", &bench_watch_latency),
        ("store first screen", &|| bench_first_screen(10_000)),
        ("store commits", &|| {
            bench_outside_commit(10_000, false);
            bench_outside_commit(10_000, true);
            bench_own_commit(10_000, false);
            bench_own_commit(10_000, true);
        }),
    ];
    for (group, run) in groups {
        if wanted(group) {
            run();
        }
    }
    claude::bench(&std::env::temp_dir(), &filters);
}

// In a folder of its own: `benches/claude.rs` would be a bench target of its own.
#[path = "tui/claude.rs"]
mod claude;
