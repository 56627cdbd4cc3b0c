//! Sorting that is small in the browser page's WebAssembly.
//!
//! The standard library's sorts are fast but large: each element type they
//! are used with adds its own copy of their code to the wasm. On `wasm32` these
//! functions sort with one shared, non-generic heapsort over indices (ties
//! broken by position, so the result is exactly a stable sort's) and then
//! move the elements into place; everywhere else they are the standard
//! library's sorts. Both give the same order, so reports do not depend on
//! the target.

use std::cmp::Ordering;

/// Stable sort by a comparison function, like `slice::sort_by`.
#[inline]
pub fn sort_by<T>(v: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if cfg!(target_arch = "wasm32") {
        compact_sort_by(v, &mut compare);
    } else {
        v.sort_by(compare);
    }
}

/// Stable sort, like `slice::sort`.
#[inline]
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Stable sort by a key, like `slice::sort_by_key`.
#[inline]
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// The compact stable sort (used on every target by the tests).
pub fn compact_sort_by<T>(v: &mut [T], compare: &mut dyn FnMut(&T, &T) -> Ordering) {
    let order = {
        let items = &*v;
        sorted_order(
            items.len(),
            &mut |a, b| match (items.get(a), items.get(b)) {
                (Some(x), Some(y)) => compare(x, y).then(a.cmp(&b)) == Ordering::Less,
                _ => false,
            },
        )
    };
    permute(v, order);
}

/// The indices `0..n` in the order `less` (a strict total order) sorts them,
/// by heapsort: O(n log n) comparisons, no extra code per element type.
fn sorted_order(n: usize, less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    for root in (0..n / 2).rev() {
        sift_down(&mut idx, root, n, less);
    }
    for end in (1..n).rev() {
        idx.swap(0, end);
        sift_down(&mut idx, 0, end, less);
    }
    idx
}

fn sift_down(
    idx: &mut [usize],
    mut root: usize,
    end: usize,
    less: &mut dyn FnMut(usize, usize) -> bool,
) {
    let at = |idx: &[usize], i: usize| idx.get(i).copied().unwrap_or(0);
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && less(at(idx, child), at(idx, child + 1)) {
            child += 1;
        }
        if !less(at(idx, root), at(idx, child)) {
            return;
        }
        idx.swap(root, child);
        root = child;
    }
}

/// Rearrange `v` so that the new `v[i]` is the old `v[order[i]]`, following
/// the permutation's cycles with swaps: O(n).
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..order.len() {
        let mut i = start;
        while let Some(slot) = order.get_mut(i) {
            let src = std::mem::replace(slot, DONE);
            if src == DONE || src == start {
                break;
            }
            v.swap(i, src);
            i = src;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn compact<T>(v: &mut [T], mut f: impl FnMut(&T, &T) -> Ordering) {
        compact_sort_by(v, &mut f);
    }

    #[test]
    fn small_cases() {
        for n in 0..40usize {
            let mut v: Vec<usize> = (0..n).map(|i| (i * 7919) % 13).collect();
            let mut want = v.clone();
            want.sort();
            compact(&mut v, usize::cmp);
            assert_eq!(v, want);
        }
    }

    proptest! {
        #[test]
        fn same_order_as_the_standard_stable_sort(v in proptest::collection::vec((0u8..6, any::<u16>()), 0..300)) {
            // Sorting by the first field only: ties must keep their order.
            let mut want = v.clone();
            want.sort_by_key(|x| x.0);
            let mut got = v.clone();
            compact(&mut got, |a, b| a.0.cmp(&b.0));
            prop_assert_eq!(&got, &want);
            let mut got = v;
            sort_by_key(&mut got, |x| x.0);
            prop_assert_eq!(got, want);
        }

        #[test]
        fn strings_sort_like_std(v in proptest::collection::vec("[a-c/]{0,4}", 0..100)) {
            let mut want = v.clone();
            want.sort();
            let mut got = v;
            compact(&mut got, String::cmp);
            prop_assert_eq!(got, want);
        }
    }
}
