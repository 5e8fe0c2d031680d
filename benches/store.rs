//! `cargo bench`: loading a 50- and a 200-record set, one `add` on each (bare, and journaled as
//! every memwb command does it), and the floor of the same disk (the bare file writes, fsyncs
//! and renames a commit needs, done directly).
//! Plain std, no harness: prints a table of medians and 95th percentiles.
//!
//! Environment: `MEMWB_BENCH_DIR` (where to create the stores; default: Cargo's target tmp
//! dir, i.e. the disk the project is on), `MEMWB_BENCH_ITERS` (scales iteration counts).
//! The figures and how to read them are in docs/performance.md.

use std::fs::{self, File, OpenOptions};
use std::hint::black_box;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use memwb::store::{MemoryType, Record, Store, StoreOptions};

/// The reference TypeScript MemoryStore loads a 50-record set in about this long.
const REFERENCE_LOAD_50: Duration = Duration::from_millis(30);

/// A little longer than the engine's settle time for trusting cached records by metadata.
const SETTLE: Duration =
    Duration::from_millis(memwb::store::RECORD_CACHE_SETTLE.as_millis() as u64 + 200);

struct Stats {
    median: Duration,
    p95: Duration,
    n: usize,
}

fn stats(mut samples: Vec<Duration>) -> Stats {
    samples.sort();
    let n = samples.len();
    let at = |q: f64| samples[((n as f64 - 1.0) * q).round() as usize];
    Stats {
        median: at(0.5),
        p95: at(0.95),
        n,
    }
}

fn time(iters: usize, mut f: impl FnMut()) -> Stats {
    for _ in 0..iters.div_ceil(10) {
        f();
    }
    stats(
        (0..iters)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

fn record(i: usize, tag: &str) -> Record {
    Record::new(
        format!("{tag}-{i:03}"),
        MemoryType::ALL[i % 4],
        format!("Fact {i} the agent should remember"),
        format!(
            "The body of record {i}.\n**Why:** realistic size.\n**How to apply:** {}",
            "Some words of guidance. ".repeat(6)
        ),
    )
    .unwrap_or_else(|e| panic!("bench record {i}: {e}"))
}

fn options(records: usize) -> StoreOptions {
    StoreOptions {
        // The default budget (200 lines, 4096 bytes) holds 50 short records; 200 need more.
        max_index_lines: records + 1,
        max_index_bytes: 1 << 20,
        ..StoreOptions::default()
    }
}

fn make_store(base: &Path, records: usize) -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir_in(base)
        .unwrap_or_else(|e| panic!("temp dir in {}: {e}", base.display()));
    let store = Store::open(dir.path(), options(records)).unwrap_or_else(|e| panic!("open: {e}"));
    store
        .extend((0..records).map(|i| record(i, "rec")).collect())
        .unwrap_or_else(|e| panic!("fill: {e}"));
    (dir, store)
}

/// What one `add` of one record must do at the least, in the engine's commit order: write the
/// record file exclusively, fsync it and read it back; fsync the directory; write, fsync and
/// rename a temp MEMORY.md and a temp manifest.json; fsync the directory.
fn floor_commit(root: &Path, record: &[u8], index: &[u8], manifest: &[u8], seq: usize) {
    let path = root.join(format!("floor-{seq}.md"));
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("create: {e}"));
    file.write_all(record)
        .unwrap_or_else(|e| panic!("write: {e}"));
    file.sync_all().unwrap_or_else(|e| panic!("fsync: {e}"));
    // The read-back the contract asks for, in its cheapest form: one pread on the same file.
    let mut back = vec![0; record.len() + 1];
    let n = file
        .read_at(&mut back, 0)
        .unwrap_or_else(|e| panic!("read back: {e}"));
    assert_eq!(&back[..n], record);
    drop(file);
    sync_dir(root);
    for (target, bytes) in [("MEMORY.md", index), ("manifest.json", manifest)] {
        let temp = root.join(format!(".floor-{seq}-{target}.tmp"));
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .unwrap_or_else(|e| panic!("create temp: {e}"));
        file.write_all(bytes)
            .unwrap_or_else(|e| panic!("write temp: {e}"));
        file.sync_all()
            .unwrap_or_else(|e| panic!("fsync temp: {e}"));
        fs::rename(&temp, root.join(target)).unwrap_or_else(|e| panic!("rename: {e}"));
    }
    sync_dir(root);
}

/// The floor plus what the `.memory/.lock` protocol shared with the reference agents costs on
/// the same disk: `mkdir`, set and read back its mtime, and `rmdir` after the commit. For
/// information only: the goal is measured against the bare floor.
fn floor_commit_locked(root: &Path, record: &[u8], index: &[u8], manifest: &[u8], seq: usize) {
    let lock = root.join(".lock");
    fs::create_dir(&lock).unwrap_or_else(|e| panic!("mkdir lock: {e}"));
    let now = std::time::SystemTime::now();
    File::open(&lock)
        .and_then(|d| d.set_modified(now))
        .and_then(|()| fs::metadata(&lock))
        .unwrap_or_else(|e| panic!("touch lock: {e}"));
    floor_commit(root, record, index, manifest, seq);
    fs::remove_dir(&lock).unwrap_or_else(|e| panic!("rmdir lock: {e}"));
}

/// Untimed, after each sample's cleanup: syncs what the cleanup left dirty (the restored
/// manifest and index, the unlinked file, the lock directory's removal), so that no timed
/// sample's first fsync pays for the previous sample's leftovers.
fn flush(root: &Path) {
    for file in ["manifest.json", "MEMORY.md"] {
        File::open(root.join(file))
            .and_then(|f| f.sync_all())
            .unwrap_or_else(|e| panic!("fsync {file}: {e}"));
    }
    sync_dir(root);
}

fn sync_dir(dir: &Path) {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .unwrap_or_else(|e| panic!("fsync dir: {e}"));
}

fn fmt(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

/// A copy of `store`'s `.memory` in a fresh workspace: loads from it are cold (no handle is
/// kept on it between samples, so each `Store::open` starts with an empty record cache).
fn copy_store(base: &Path, store: &Store) -> tempfile::TempDir {
    let dir = tempfile::tempdir_in(base).unwrap_or_else(|e| panic!("temp dir: {e}"));
    let to = dir.path().join(".memory");
    fs::create_dir(&to).unwrap_or_else(|e| panic!("mkdir: {e}"));
    for entry in fs::read_dir(store.root()).unwrap_or_else(|e| panic!("read dir: {e}")) {
        let entry = entry.unwrap_or_else(|e| panic!("entry: {e}"));
        if entry.file_type().map(|t| t.is_file()).unwrap_or(false) {
            fs::copy(entry.path(), to.join(entry.file_name()))
                .unwrap_or_else(|e| panic!("copy: {e}"));
        }
    }
    dir
}

/// Loads of `store`'s set: cold (a fresh handle on a copy, as a one-shot `memwb` process
/// reads it: open, read, parse and validate all), warm (the long-lived `store`), and parsing
/// its texts alone from memory.
fn loads(base: &Path, store: &Store, size: usize, iters: &dyn Fn(usize) -> usize) -> [Stats; 3] {
    let copy = copy_store(base, store);
    let cold = time(iters(500), || {
        let fresh = Store::open(copy.path(), options(size)).unwrap_or_else(|e| panic!("open: {e}"));
        black_box(fresh.read().unwrap_or_else(|e| panic!("read: {e}")));
    });
    let warm = time(iters(500), || {
        black_box(store.read().unwrap_or_else(|e| panic!("read: {e}")));
    });
    let set = store.read().unwrap_or_else(|e| panic!("read: {e}"));
    let texts: Vec<String> = set.records().map(Record::to_file_text).collect();
    let parse = time(iters(500), || {
        for text in &texts {
            black_box(memwb::store::codec::parse(text.as_bytes()).ok());
        }
    });
    [cold, warm, parse]
}

fn median_of(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

struct CommitRatio {
    size: usize,
    /// `"add"` or `"journaled add"`.
    what: &'static str,
    of_medians: f64,
    pairwise: f64,
    pairs: usize,
}

/// Journal bytes one journaled change adds (an add, an edit, a removal of one record) on a set
/// of `records`, filled in transactions of 200 (the most one takes).
fn journal_bytes(base: &Path, records: usize) -> [u64; 3] {
    use memwb::formats::memory::journal::journaled;
    use memwb::review::{EntryMeta, Journal};
    let dir = tempfile::tempdir_in(base).unwrap_or_else(|e| panic!("temp dir: {e}"));
    let store = Store::open(dir.path(), options(records + 2)).unwrap_or_else(|e| panic!("{e}"));
    let all: Vec<Record> = (0..records).map(|i| record(i, "rec")).collect();
    for batch in all.chunks(200) {
        store
            .extend(batch.to_vec())
            .unwrap_or_else(|e| panic!("fill: {e}"));
    }
    let journal = Journal::of(&store).path();
    let len = || fs::metadata(&journal).map_or(0, |m| m.len());
    let mut sizes = [0; 3];
    let mut last = len();
    let mut step = |i: usize,
                    change: &dyn Fn(
        &Store,
    )
        -> Result<memwb::store::Commit, memwb::store::StoreError>| {
        journaled(&store, EntryMeta::default(), None, change).unwrap_or_else(|e| panic!("{e}"));
        sizes[i] = len() - last;
        last = len();
    };
    step(0, &|s| s.extend(vec![record(records, "new")]));
    let first = all[0].clone();
    step(1, &|s| s.replace(&first, record(0, "rec-edited")));
    let second = all[1].clone();
    step(2, &|s| s.remove(std::slice::from_ref(&second)));
    sizes
}

fn claude_topic(i: usize, edit: &str) -> String {
    format!(
        "---\nname: note-{i}\ndescription: note number {i}{edit}\nmetadata:\n  type: project\n---\n\nA body for note {i}.\n"
    )
}

fn claude_index_line(i: usize, edit: &str) -> String {
    format!("- [note-{i}](project_note_{i}.md) — note number {i}{edit}\n")
}

/// Journal bytes one journaled change adds on a Claude Code folder of `topics` files listed in
/// MEMORY.md (an edit of a topic file and its index line, an add, a removal), each beside what
/// the previous layout wrote for the same entry: MEMORY.md whole, before and after, in `files`
/// instead of its changed lines in `lines` (the rest of the line is the same serialization).
fn claude_journal_bytes(base: &Path, topics: usize) -> [(u64, u64); 3] {
    use memwb::claude::{ClaudeFolder, FileImage, FileWrite, LoadLimits};
    use memwb::formats::claude::journal::{journal_of, journaled};
    use memwb::review::EntryMeta;
    let dir = tempfile::tempdir_in(base).unwrap_or_else(|e| panic!("temp dir: {e}"));
    let memory = dir.path().join("memory");
    fs::create_dir(&memory).unwrap_or_else(|e| panic!("mkdir: {e}"));
    let mut index = String::from("# Memory index\n\n");
    for i in 0..topics {
        fs::write(
            memory.join(format!("project_note_{i}.md")),
            claude_topic(i, ""),
        )
        .unwrap_or_else(|e| panic!("fill: {e}"));
        index.push_str(&claude_index_line(i, ""));
    }
    fs::write(memory.join("MEMORY.md"), &index).unwrap_or_else(|e| panic!("fill: {e}"));
    let folder = ClaudeFolder::open(&memory, LoadLimits::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .with_state_root(dir.path().join("state"));
    let journal = journal_of(&folder).unwrap_or_else(|e| panic!("{e}")).path();
    let len = || fs::metadata(&journal).map_or(0, |m| m.len());
    let change = |topic: FileWrite, index_before: &str, index_after: &str| {
        let last = len();
        let writes = vec![
            topic,
            FileWrite {
                file: "MEMORY.md".into(),
                base: Some(index_before.to_owned()),
                after: Some(index_after.to_owned()),
            },
        ];
        let (_, entry) =
            journaled(&folder, writes, EntryMeta::default()).unwrap_or_else(|e| panic!("{e}"));
        let entry = entry.unwrap_or_else(|| panic!("no entry"));
        let now = len() - last;
        let lines = format!(
            ",\"lines\":{}",
            serde_json::to_string(&entry.lines).unwrap_or_default()
        );
        let whole = FileImage {
            file: "MEMORY.md".into(),
            before: Some(index_before.to_owned()),
            after: Some(index_after.to_owned()),
        };
        let whole = format!(",{}", serde_json::to_string(&whole).unwrap_or_default());
        (now + whole.len() as u64 - lines.len() as u64, now)
    };
    let middle = topics / 2;
    let edited = index.replace(
        &claude_index_line(middle, ""),
        &claude_index_line(middle, ", edited"),
    );
    let set = change(
        FileWrite {
            file: format!("project_note_{middle}.md"),
            base: Some(claude_topic(middle, "")),
            after: Some(claude_topic(middle, ", edited")),
        },
        &index,
        &edited,
    );
    let added = format!("{edited}{}", claude_index_line(topics, ""));
    let add = change(
        FileWrite {
            file: format!("project_note_{topics}.md"),
            base: None,
            after: Some(claude_topic(topics, "")),
        },
        &edited,
        &added,
    );
    let rm = change(
        FileWrite {
            file: "project_note_0.md".into(),
            base: Some(claude_topic(0, "")),
            after: None,
        },
        &added,
        &added.replace(&claude_index_line(0, ""), ""),
    );
    [set, add, rm]
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing: run briefly then.
    let quick = !std::env::args().any(|a| a == "--bench");
    // `cargo bench --bench store -- load` runs the groups whose name holds `load` (the loads
    // and parsing); `add` the commits against the floor; `journal` the journal bytes.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let wanted = |group: &str| filters.is_empty() || filters.iter().any(|f| group.contains(f));
    let scale: f64 = std::env::var("MEMWB_BENCH_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if quick { 0.02 } else { 1.0 });
    let iters = |n: usize| ((n as f64 * scale) as usize).max(3);
    let base = std::env::var_os("MEMWB_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    fs::create_dir_all(&base).unwrap_or_else(|e| panic!("{}: {e}", base.display()));

    let mut rows: Vec<(String, Stats)> = Vec::new();
    let mut ratios = Vec::new();
    let mut cold_load_200 = None;
    let stores: Vec<_> = [50, 200]
        .into_iter()
        .map(|size| (size, make_store(&base, size)))
        .collect();
    // The engine trusts a parsed record by its file's metadata only once the file is a few
    // seconds old (see src/store/cache.rs); a long-lived handle on a set that was not written
    // in the last seconds is the case measured as "warm". Wait that long once.
    if !quick && wanted("load") {
        std::thread::sleep(SETTLE);
    }
    for (size, (_dir, store)) in &stores {
        let size = *size;
        assert_eq!(store.read().map(|s| s.len()).ok(), Some(size));
        if wanted("load") {
            let [cold, warm, parse] = loads(&base, store, size, &iters);
            if size == 200 {
                cold_load_200 = Some(cold.median);
            }
            rows.push((format!("load {size}, cold (fresh handle)"), cold));
            rows.push((format!("load {size}, warm (long-lived handle)"), warm));
            rows.push((format!("  parsing {size} records alone"), parse));
        }
        if !wanted("add") {
            continue;
        }
        let set = store.read().unwrap_or_else(|e| panic!("read: {e}"));
        // The floor writes an index and manifest of the same size as the add's.
        let mut bigger = set.clone();
        bigger.entries.push(memwb::store::StoredRecord {
            file: format!("floor-{}.md", "0".repeat(32)),
            record: record(0, "floor"),
        });
        let record_bytes = record(0, "floor").to_file_text().into_bytes();
        let index = bigger.index_text().into_bytes();
        let manifest = memwb::store::manifest::render(&bigger.files()).into_bytes();

        // Samples of `add` and of the floor alternate (and which goes first alternates too), so
        // that both see the same disk weather; each add is also compared with its own floor.
        // The added record is removed again (untimed) so that every add commits onto a set of
        // exactly `size` records; the floor's file is unlinked likewise. Each cleanup is synced
        // (untimed) before the next sample starts.
        let warmup = iters(300).div_ceil(10);
        let (mut adds, mut floors, mut locked) = (Vec::new(), Vec::new(), Vec::new());
        let mut journaled = Vec::new();
        let (manifest_now, index_now) = (
            memwb::store::manifest::render(&set.files()),
            set.index_text(),
        );
        for seq in 0..iters(300) + warmup {
            let add = || {
                let added = record(seq, "added");
                let start = Instant::now();
                let commit = store
                    .extend(vec![added.clone()])
                    .unwrap_or_else(|e| panic!("add: {e}"));
                let took = start.elapsed();
                black_box(commit);
                store
                    .remove(&[added])
                    .unwrap_or_else(|e| panic!("remove: {e}"));
                flush(store.root());
                took
            };
            // The same add through the journal (an fsynced intent before the commit point, an
            // unsynced mark after it), as `memwb add` and the workbench make it.
            let journaled_add = || {
                let added = record(seq, "journaled");
                let start = Instant::now();
                let commit = memwb::formats::memory::journal::journaled_op(
                    store,
                    memwb::review::Op::Add,
                    |s| s.extend(vec![added.clone()]),
                )
                .unwrap_or_else(|e| panic!("journaled add: {e}"));
                let took = start.elapsed();
                black_box(commit);
                store
                    .remove(&[added])
                    .unwrap_or_else(|e| panic!("remove: {e}"));
                flush(store.root());
                took
            };
            let floor = |with_lock: bool| {
                let start = Instant::now();
                if with_lock {
                    floor_commit_locked(store.root(), &record_bytes, &index, &manifest, seq);
                } else {
                    floor_commit(store.root(), &record_bytes, &index, &manifest, seq);
                }
                let took = start.elapsed();
                fs::remove_file(store.root().join(format!("floor-{seq}.md")))
                    .unwrap_or_else(|e| panic!("unlink: {e}"));
                // Put the real manifest and index back for the next add.
                fs::write(store.manifest_path(), &manifest_now)
                    .unwrap_or_else(|e| panic!("manifest: {e}"));
                fs::write(store.index_path(), &index_now).unwrap_or_else(|e| panic!("index: {e}"));
                flush(store.root());
                took
            };
            if seq % 2 == 0 {
                adds.push(add());
                floors.push(floor(false));
                journaled.push(journaled_add());
                locked.push(floor(true));
            } else {
                locked.push(floor(true));
                journaled.push(journaled_add());
                floors.push(floor(false));
                adds.push(add());
            }
        }
        let locked = stats(locked.split_off(warmup));
        let (adds, floors) = (adds.split_off(warmup), floors.split_off(warmup));
        let journaled = journaled.split_off(warmup);
        let pairwise = |timed: &[Duration]| {
            median_of(
                timed
                    .iter()
                    .zip(&floors)
                    .map(|(a, f)| a.as_secs_f64() / f.as_secs_f64())
                    .collect(),
            )
        };
        let (add_pairwise, journaled_pairwise) = (pairwise(&adds), pairwise(&journaled));
        let pairs = adds.len();
        let (add, floor, journaled) = (stats(adds), stats(floors), stats(journaled));
        for (what, timed, pairwise) in [
            ("add", &add, add_pairwise),
            ("journaled add", &journaled, journaled_pairwise),
        ] {
            ratios.push(CommitRatio {
                size,
                what,
                of_medians: timed.median.as_secs_f64() / floor.median.as_secs_f64(),
                pairwise,
                pairs,
            });
        }
        rows.push((format!("add 1 to {size} records"), add));
        rows.push((format!("  journaled add 1 to {size}"), journaled));
        rows.push((format!("floor: bare commit syscalls ({size})"), floor));
        rows.push(("  floor + .lock dir (information)".to_owned(), locked));
    }

    println!();
    println!(
        "store benchmark ({} build), stores in {}",
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        base.display()
    );
    println!("{:<40} {:>10} {:>10} {:>6}", "", "median", "p95", "n");
    for (label, s) in &rows {
        println!(
            "{label:<40} {:>10} {:>10} {:>6}",
            fmt(s.median),
            fmt(s.p95),
            s.n
        );
    }
    println!();
    for r in ratios {
        println!(
            "{} / floor, {} records: {:.2}x (median of {} paired ratios; ratio of medians {:.2}x); goal: within 1.3x",
            r.what, r.size, r.pairwise, r.pairs, r.of_medians
        );
    }
    if let Some(load200) = cold_load_200 {
        println!(
            "cold load of 200 records vs the reference's ~30 ms for 50: 1/{:.0} (goal: under 1/20, i.e. {})",
            REFERENCE_LOAD_50.as_secs_f64() / load200.as_secs_f64(),
            fmt(REFERENCE_LOAD_50 / 20)
        );
    }
    println!();
    if !wanted("journal") {
        return;
    }
    let sizes: &[usize] = if quick { &[50] } else { &[50, 1_000, 10_000] };
    println!("journal bytes per change (goal: a few KB whatever the set's size)");
    for &size in sizes {
        let [add, set, rm] = journal_bytes(&base, size);
        println!("{size:>6} records: add {add} B, set {set} B, rm {rm} B");
    }
    let topics: &[usize] = if quick { &[20] } else { &[20, 200, 2_000] };
    println!("journal bytes per change on a Claude Code folder (previous layout -> now)");
    for &count in topics {
        let [set, add, rm] = claude_journal_bytes(&base, count);
        println!(
            "{count:>6} topic files: set {} -> {} B, add {} -> {} B, rm {} -> {} B",
            set.0, set.1, add.0, add.1, rm.0, rm.1
        );
    }
}
