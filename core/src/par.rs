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

/// Drop `value`, off the caller's path when `wide` and the feature allow
/// it: a large document's tree is hundreds of thousands of allocations,
/// and the caller has a report to write meanwhile.
#[cfg(feature = "parallel")]
pub(crate) fn drop_later<T: Send + 'static>(wide: bool, value: T) {
    if wide {
        rayon::spawn(move || drop(value));
    } else {
        drop(value);
    }
}
