//! Reading many record files on every core: a cold audit of a large set spends its time in one
//! `openat` + `fstat` + `read` + parse per file, each independent of the others.

use std::num::NonZeroUsize;
use std::thread;

/// Below this many items the threads cost more than they save (a record takes a few
/// microseconds to read and parse; a thread about as much as ten of them to start).
const MIN_PARALLEL_ITEMS: usize = 256;

/// `items.iter().map(f).collect()`, computed in contiguous chunks, one per available core
/// (the calling thread takes the first), in the same order. Small inputs, one core, or a
/// thread that cannot be started: computed on the calling thread.
pub(super) fn map_in_order<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .min(items.len() / MIN_PARALLEL_ITEMS);
    if workers < 2 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(workers);
    let f = &f;
    thread::scope(|scope| {
        let mut chunks = items.chunks(chunk);
        let first = chunks.next().unwrap_or_default();
        let others: Vec<_> = chunks
            .map(|part| {
                let spawned = thread::Builder::new()
                    .spawn_scoped(scope, move || part.iter().map(f).collect::<Vec<R>>());
                (part, spawned)
            })
            .collect();
        let mut out: Vec<R> = first.iter().map(f).collect();
        for (part, spawned) in others {
            match spawned.map(|handle| handle.join()) {
                Ok(Ok(results)) => out.extend(results),
                // Not started: done here. A panic in `f` is a bug; it is raised here too.
                Err(_) => out.extend(part.iter().map(f)),
                Ok(Err(panic)) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::{MIN_PARALLEL_ITEMS, map_in_order};

    #[test]
    fn the_results_come_back_in_the_order_of_the_items() {
        for len in [
            0,
            1,
            MIN_PARALLEL_ITEMS - 1,
            2 * MIN_PARALLEL_ITEMS + 7,
            10_001,
        ] {
            let items: Vec<usize> = (0..len).collect();
            let threads = std::sync::Mutex::new(std::collections::HashSet::new());
            let doubled = map_in_order(&items, |i| {
                if let Ok(mut seen) = threads.lock() {
                    seen.insert(std::thread::current().id());
                }
                i * 2
            });
            assert_eq!(doubled, items.iter().map(|i| i * 2).collect::<Vec<_>>());
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let used = threads.lock().map(|t| t.len()).unwrap_or(0);
            if len < 2 * MIN_PARALLEL_ITEMS || cores < 2 {
                assert!(used <= 1, "{len} items on one thread, used {used}");
            } else {
                assert!(used >= 2, "{len} items spread over the cores, used {used}");
            }
        }
    }
}
