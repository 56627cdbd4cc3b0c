//! The schedule an audit runs on.
//!
//! Core never starts threads: an audit's independent stages are handed to
//! a [`Schedule`] the caller chooses. [`InOrder`] (the default, the page's)
//! runs them one after the other on the caller's thread; the binary
//! supplies one that runs them on its thread pool. Either way the results
//! are the same values in the same order: only the schedule differs.
//!
//! The trait is object-safe (`&dyn Schedule` travels through the audit and
//! the writers without making them generic); the typed helpers below build
//! `join`, `map` and friends on its few primitives. On a schedule of width
//! 1 they call the work directly: boxing tasks that run in order anyway
//! would cost a batch of small profiles an allocation per rule.

/// A task handed to a schedule: it borrows from the caller's stack.
pub type Task<'a> = Box<dyn FnOnce() + Send + 'a>;

/// How independent pieces of work are run.
pub trait Schedule: Sync {
    /// Run every task, in any order or side by side; return once all have
    /// run. A task's panic reaches the caller.
    fn run(&self, tasks: Vec<Task<'_>>);

    /// Into about how many pieces a long list is split: 1 when the pieces
    /// would run one after the other anyway.
    fn width(&self) -> usize;

    /// Let `value` go: dropped here, or elsewhere while the caller goes on
    /// (a large document's tree is hundreds of thousands of allocations).
    fn release(&self, value: Box<dyn Send>);

    /// `piece(0)`, `piece(1)`, … `piece(n - 1)`, each result handed to
    /// `emit` in that order. A schedule that runs pieces side by side
    /// hands a result on as soon as it and every one before it are ready,
    /// so the caller can write the first out while the rest are made.
    fn pieces(
        &self,
        n: usize,
        piece: &(dyn Fn(usize) -> Vec<String> + Sync),
        emit: &mut dyn FnMut(Vec<String>),
    );
}

/// Everything in order on the caller's thread.
#[derive(Debug, Clone, Copy, Default)]
pub struct InOrder;

impl Schedule for InOrder {
    fn run(&self, tasks: Vec<Task<'_>>) {
        for t in tasks {
            t();
        }
    }

    fn width(&self) -> usize {
        1
    }

    fn release(&self, value: Box<dyn Send>) {
        drop(value);
    }

    fn pieces(
        &self,
        n: usize,
        piece: &(dyn Fn(usize) -> Vec<String> + Sync),
        emit: &mut dyn FnMut(Vec<String>),
    ) {
        for i in 0..n {
            emit(piece(i));
        }
    }
}

/// Run `a` and `b` on `s`.
pub fn join<RA, RB>(
    s: &dyn Schedule,
    a: impl FnOnce() -> RA + Send,
    b: impl FnOnce() -> RB + Send,
) -> (RA, RB)
where
    RA: Send,
    RB: Send,
{
    if s.width() <= 1 {
        return (a(), b());
    }
    let (mut ra, mut rb) = (None, None);
    {
        let (sa, sb) = (&mut ra, &mut rb);
        s.run(vec![
            Box::new(move || *sa = Some(a())),
            Box::new(move || *sb = Some(b())),
        ]);
    }
    match (ra, rb) {
        (Some(ra), Some(rb)) => (ra, rb),
        // `run` returns only after every task ran (or passes its panic on).
        _ => unreachable!("a schedule returned before running every task"),
    }
}

/// Run `a`, `b` and `c` on `s`.
pub fn join3<RA, RB, RC>(
    s: &dyn Schedule,
    a: impl FnOnce() -> RA + Send,
    b: impl FnOnce() -> RB + Send,
    c: impl FnOnce() -> RC + Send,
) -> (RA, RB, RC)
where
    RA: Send,
    RB: Send,
    RC: Send,
{
    let ((ra, rb), rc) = join(s, || join(s, a, b), c);
    (ra, rb, rc)
}

/// How many items each of a list's pieces holds on `s`.
fn per_piece(s: &dyn Schedule, len: usize) -> usize {
    len.div_ceil(s.width().max(1)).max(1)
}

/// `items` mapped by `f` with their index, in order, on `s`.
pub fn map_indexed<'a, T, U>(
    s: &dyn Schedule,
    items: &'a [T],
    f: impl Fn(usize, &'a T) -> U + Sync,
) -> Vec<U>
where
    T: Sync,
    U: Send,
{
    if s.width() <= 1 {
        return items.iter().enumerate().map(|(i, x)| f(i, x)).collect();
    }
    let per = per_piece(s, items.len());
    let mut out: Vec<Vec<U>> = std::iter::repeat_with(Vec::new)
        .take(items.len().div_ceil(per))
        .collect();
    let f = &f;
    let tasks: Vec<Task<'_>> = items
        .chunks(per)
        .zip(out.iter_mut())
        .enumerate()
        .map(|(k, (chunk, slot))| -> Task<'_> {
            Box::new(move || {
                *slot = chunk
                    .iter()
                    .enumerate()
                    .map(|(i, x)| f(k * per + i, x))
                    .collect();
            })
        })
        .collect();
    s.run(tasks);
    out.into_iter().flatten().collect()
}

/// `items` mapped by `f` by reference, in order, on `s`.
pub fn map_ref<'a, T, U>(s: &dyn Schedule, items: &'a [T], f: impl Fn(&'a T) -> U + Sync) -> Vec<U>
where
    T: Sync,
    U: Send,
{
    map_indexed(s, items, |_, x| f(x))
}

/// `items` mapped by `f`, in order, on `s`.
pub fn map<T, U>(s: &dyn Schedule, items: Vec<T>, f: impl Fn(T) -> U + Sync) -> Vec<U>
where
    T: Send,
    U: Send,
{
    if s.width() <= 1 {
        return items.into_iter().map(f).collect();
    }
    let per = per_piece(s, items.len());
    let mut chunks: Vec<Vec<T>> = Vec::new();
    let mut rest = items.into_iter().peekable();
    while rest.peek().is_some() {
        chunks.push(rest.by_ref().take(per).collect());
    }
    let mut out: Vec<Vec<U>> = std::iter::repeat_with(Vec::new)
        .take(chunks.len())
        .collect();
    let f = &f;
    let tasks: Vec<Task<'_>> = chunks
        .into_iter()
        .zip(out.iter_mut())
        .map(|(chunk, slot)| -> Task<'_> {
            Box::new(move || *slot = chunk.into_iter().map(f).collect())
        })
        .collect();
    s.run(tasks);
    out.into_iter().flatten().collect()
}

/// `f` of every item, in place, on `s`.
pub fn for_each_mut<T: Send>(s: &dyn Schedule, items: &mut [T], f: impl Fn(&mut T) + Sync) {
    if s.width() <= 1 {
        items.iter_mut().for_each(f);
        return;
    }
    let per = per_piece(s, items.len());
    let f = &f;
    let tasks: Vec<Task<'_>> = items
        .chunks_mut(per)
        .map(|chunk| -> Task<'_> { Box::new(move || chunk.iter_mut().for_each(f)) })
        .collect();
    s.run(tasks);
}

/// `items` mapped by `f`, in order, one task per item: for few items of
/// very uneven cost (the rules), where a piece of several could leave one
/// thread alone with the long ones.
pub fn map_each<T, U>(s: &dyn Schedule, items: &[T], f: impl Fn(&T) -> U + Sync) -> Vec<U>
where
    T: Sync,
    U: Send,
{
    if s.width() <= 1 {
        return items.iter().map(f).collect();
    }
    let mut out: Vec<Option<U>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    let f = &f;
    let tasks: Vec<Task<'_>> = items
        .iter()
        .zip(out.iter_mut())
        .map(|(x, slot)| -> Task<'_> { Box::new(move || *slot = Some(f(x))) })
        .collect();
    s.run(tasks);
    out.into_iter().flatten().collect()
}

/// Runs the tasks last to first: a schedule that keeps no order of its
/// own, as a pool does not, for tests that the schedule changes nothing.
#[cfg(test)]
pub(crate) struct Backwards;

#[cfg(test)]
impl Schedule for Backwards {
    fn run(&self, tasks: Vec<Task<'_>>) {
        for t in tasks.into_iter().rev() {
            t();
        }
    }
    fn width(&self) -> usize {
        3
    }
    fn release(&self, value: Box<dyn Send>) {
        drop(value);
    }
    fn pieces(
        &self,
        n: usize,
        piece: &(dyn Fn(usize) -> Vec<String> + Sync),
        emit: &mut dyn FnMut(Vec<String>),
    ) {
        let mut made: Vec<Vec<String>> = (0..n).rev().map(piece).collect();
        made.reverse();
        made.into_iter().for_each(emit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every helper gives the in-order results on any schedule, for lists
    /// shorter than, as long as and longer than the schedule's width.
    #[test]
    fn helpers_keep_order_on_any_schedule() {
        for s in [&InOrder as &dyn Schedule, &Backwards] {
            for n in [0usize, 1, 2, 3, 4, 7, 100] {
                let items: Vec<usize> = (0..n).collect();
                let want: Vec<usize> = items.iter().map(|x| x * 3).collect();
                assert_eq!(map_ref(s, &items, |x| x * 3), want);
                assert_eq!(map(s, items.clone(), |x| x * 3), want);
                assert_eq!(map_each(s, &items, |x| x * 3), want);
                assert_eq!(map_indexed(s, &items, |i, x| i + x * 2), want);
                let mut m = items.clone();
                for_each_mut(s, &mut m, |x| *x *= 3);
                assert_eq!(m, want);
            }
            assert_eq!(join(s, || 1, || "b"), (1, "b"));
            assert_eq!(join3(s, || 1, || 2, || 3), (1, 2, 3));
            let mut got = Vec::new();
            s.pieces(5, &|i| vec![i.to_string()], &mut |p| got.extend(p));
            assert_eq!(got, ["0", "1", "2", "3", "4"]);
        }
    }
}
