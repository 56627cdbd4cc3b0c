//! Optional data parallelism for large documents.
//!
//! With the `parallel` feature (the CLI turns it on) a large profile's
//! independent stages run on rayon's pool; without it (the browser page)
//! everything runs in order on the caller's thread. Either way the results
//! are the same values in the same order: only the schedule differs.

/// Run `a` and `b`, in parallel when `wide` and the feature allow it.
pub(crate) fn join<A, B, RA, RB>(wide: bool, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    #[cfg(feature = "parallel")]
    if wide {
        return rayon::join(a, b);
    }
    let _ = wide;
    (a(), b())
}

/// Run `a`, `b` and `c`, in parallel when `wide` and the feature allow it.
pub(crate) fn join3<A, B, C, RA, RB, RC>(wide: bool, a: A, b: B, c: C) -> (RA, RB, RC)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    C: FnOnce() -> RC + Send,
    RA: Send,
    RB: Send,
    RC: Send,
{
    let ((ra, rb), rc) = join(wide, || join(wide, a, b), c);
    (ra, rb, rc)
}

/// `items` mapped by `f`, in order; in parallel when `wide` and the
/// feature allow it.
pub(crate) fn map<T, U, F>(wide: bool, items: Vec<T>, f: F) -> Vec<U>
where
    T: Send,
    U: Send,
    F: Fn(T) -> U + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if wide {
        use rayon::prelude::*;
        return items.into_par_iter().map(f).collect();
    }
    let _ = wide;
    items.into_iter().map(f).collect()
}

/// `items` mapped by `f` by reference, in order; in parallel when `wide`
/// and the feature allow it.
pub(crate) fn map_ref<T, U, F>(wide: bool, items: &[T], f: F) -> Vec<U>
where
    T: Sync,
    U: Send,
    F: Fn(&T) -> U + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if wide {
        use rayon::prelude::*;
        return items.par_iter().map(f).collect();
    }
    let _ = wide;
    items.iter().map(f).collect()
}

/// `items` mapped by `f` with their index, in order; in parallel when
/// `wide` and the feature allow it.
pub(crate) fn map_indexed<'a, T, U, F>(wide: bool, items: &'a [T], f: F) -> Vec<U>
where
    T: Sync,
    U: Send,
    F: Fn(usize, &'a T) -> U + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if wide {
        use rayon::prelude::*;
        return items.par_iter().enumerate().map(|(i, x)| f(i, x)).collect();
    }
    let _ = wide;
    items.iter().enumerate().map(|(i, x)| f(i, x)).collect()
}

/// `f` of every item with its index, in place; in parallel when `wide`
/// and the feature allow it.
pub(crate) fn for_each_indexed<T, F>(wide: bool, items: &mut [T], f: F)
where
    T: Send,
    F: Fn(usize, &mut T) + Sync + Send,
{
    #[cfg(feature = "parallel")]
    if wide {
        use rayon::prelude::*;
        items.par_iter_mut().enumerate().for_each(|(i, x)| f(i, x));
        return;
    }
    let _ = wide;
    items.iter_mut().enumerate().for_each(|(i, x)| f(i, x));
}

/// Drop `value`, off the caller's path when `wide` and the feature allow
/// it: a large document's tree is hundreds of thousands of allocations,
/// and the caller has a report to write meanwhile.
pub(crate) fn drop_later<T: Send + 'static>(wide: bool, value: T) {
    #[cfg(feature = "parallel")]
    if wide {
        rayon::spawn(move || drop(value));
        return;
    }
    let _ = wide;
    drop(value);
}

/// `f` of every item on rayon's pool, each result handed to `emit` on the
/// caller's thread in the items' order, as soon as it and every result
/// before it are ready: the caller can pass the first results on (to a
/// file) while the pool still works on the rest. Items are queued first
/// to last, so they tend to finish in order.
///
/// On one of the pool's own threads (which would wait on its own queue)
/// everything is mapped first, then emitted: the same calls to `emit`.
#[cfg(feature = "parallel")]
pub(crate) fn map_in_order<'a, T, U, F>(items: &'a [T], f: F, mut emit: impl FnMut(U))
where
    T: Sync,
    U: Send,
    F: Fn(usize, &'a T) -> U + Sync + Send,
{
    if rayon::current_thread_index().is_some() {
        map_indexed(true, items, f).into_iter().for_each(emit);
        return;
    }
    let f = &f;
    // At most this many items are queued or being mapped at once: each
    // item queued as one is emitted keeps the pool busy, and a result's
    // memory, freed once emitted, is taken again by the next one instead
    // of fresh pages (a 10k x 10k export's pieces are megabytes).
    let ahead = 2 * rayon::current_num_threads().max(1);
    rayon::in_place_scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut queue = items.iter().enumerate();
        let mut spawn_next = || {
            if let Some((i, item)) = queue.next() {
                let tx = tx.clone();
                scope.spawn(move |_| {
                    // A panic is sent on too, so the caller stops waiting
                    // for the result and passes the panic on.
                    let result =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(i, item)));
                    // The receiver outlives every task: this cannot fail.
                    let _ = tx.send((i, result));
                });
            }
        };
        for _ in 0..ahead {
            spawn_next();
        }
        let mut ready: Vec<Option<U>> = std::iter::repeat_with(|| None).take(items.len()).collect();
        let mut next = 0;
        while next < items.len() {
            // Every queued task sends once, and `tx` is still held here.
            let Ok((i, result)) = rx.recv() else {
                break;
            };
            let result = result.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            if let Some(slot) = ready.get_mut(i) {
                *slot = Some(result);
            }
            while let Some(result) = ready.get_mut(next).and_then(Option::take) {
                emit(result);
                next += 1;
                spawn_next();
            }
        }
    });
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use super::*;

    /// Results come in the items' order, each once, whether the caller is
    /// outside the pool (results handed on as they are ready) or one of
    /// its threads (mapped first): the same calls as a plain map.
    #[test]
    fn map_in_order_emits_every_result_in_order() {
        let items: Vec<u64> = (0..257).collect();
        // Uneven work, so later items often finish first.
        let f = |i: usize, x: &u64| {
            let spin = (i % 7) * 2_000;
            let mut acc = *x;
            for k in 0..spin as u64 {
                acc = std::hint::black_box(acc.wrapping_mul(31).wrapping_add(k));
            }
            (i, *x * 3, acc)
        };
        let want: Vec<(usize, u64)> = items.iter().enumerate().map(|(i, x)| (i, x * 3)).collect();
        let mut got = Vec::new();
        map_in_order(&items, f, |(i, y, _)| got.push((i, y)));
        assert_eq!(got, want);
        let from_worker = rayon::scope(|_| {
            let mut got = Vec::new();
            map_in_order(&items, f, |(i, y, _)| got.push((i, y)));
            got
        });
        assert_eq!(from_worker, want);
        let mut none = 0;
        map_in_order(&[] as &[u64], f, |_| none += 1);
        assert_eq!(none, 0);
    }

    /// Items are mapped at most a few ahead of the last one emitted (so
    /// the memory of emitted results is taken again), and a panic in one
    /// is passed on to the caller instead of leaving it waiting.
    #[test]
    fn map_in_order_stays_close_to_what_it_emitted_and_passes_panics_on() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let items: Vec<u64> = (0..200).collect();
        let emitted = AtomicUsize::new(0);
        let ahead = 2 * rayon::current_num_threads().max(1);
        let far = AtomicUsize::new(0);
        map_in_order(
            &items,
            |i, _| {
                far.fetch_max(i + 1 - emitted.load(Ordering::SeqCst), Ordering::SeqCst);
                i
            },
            |i| {
                assert_eq!(i, emitted.load(Ordering::SeqCst));
                emitted.fetch_add(1, Ordering::SeqCst);
            },
        );
        assert_eq!(emitted.load(Ordering::SeqCst), items.len());
        let far = far.load(Ordering::SeqCst);
        assert!(
            far >= 1 && far <= ahead,
            "{far} items ahead, at most {ahead}"
        );

        let caught = std::panic::catch_unwind(|| {
            map_in_order(
                &items,
                |i, _| {
                    assert_ne!(i, 37, "item 37 fails");
                    i
                },
                |_| {},
            );
        });
        assert!(caught.is_err());
    }
}
