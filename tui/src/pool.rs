//! The audit's [`Schedule`] on rayon's thread pool: a large document's
//! independent stages run side by side, and its working data is freed on
//! the pool while the caller writes the report.

use isolint_core::par::Task;
use isolint_core::Schedule;

/// Rayon's global pool.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pool;

impl Schedule for Pool {
    fn run(&self, tasks: Vec<Task<'_>>) {
        let mut tasks = tasks;
        match tasks.len() {
            0 => {}
            1 => {
                if let Some(t) = tasks.pop() {
                    t();
                }
            }
            2 => {
                if let (Some(b), Some(a)) = (tasks.pop(), tasks.pop()) {
                    rayon::join(a, b);
                }
            }
            // One task at a time to the pool, first to last: the caller
            // hands the longest first (the rules), so no thread is left
            // alone with a long one at the end.
            _ => rayon::in_place_scope(|scope| {
                for t in tasks {
                    scope.spawn(move |_| t());
                }
            }),
        }
    }

    fn width(&self) -> usize {
        4 * rayon::current_num_threads().max(1)
    }

    fn release(&self, value: Box<dyn Send>) {
        rayon::spawn(move || drop(value));
    }

    /// On one of the pool's own threads (which would wait on its own
    /// queue) every piece is made first, then emitted: the same calls.
    fn pieces(
        &self,
        n: usize,
        piece: &(dyn Fn(usize) -> Vec<String> + Sync),
        emit: &mut dyn FnMut(Vec<String>),
    ) {
        if rayon::current_thread_index().is_some() {
            let items: Vec<usize> = (0..n).collect();
            isolint_core::par::map_each(self, &items, |&i| piece(i))
                .into_iter()
                .for_each(emit);
            return;
        }
        // At most this many pieces are queued or being made at once: each
        // piece queued as one is emitted keeps the pool busy, and a
        // piece's memory, freed once emitted, is taken again by the next
        // one instead of fresh pages (a 10k x 10k export's pieces are
        // megabytes).
        let ahead = 2 * rayon::current_num_threads().max(1);
        rayon::in_place_scope(|scope| {
            let (tx, rx) = std::sync::mpsc::channel();
            let mut queue = 0..n;
            let mut spawn_next = || {
                if let Some(i) = queue.next() {
                    let tx = tx.clone();
                    scope.spawn(move |_| {
                        // A panic is sent on too, so the caller stops
                        // waiting for the result and passes the panic on.
                        let result =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| piece(i)));
                        // The receiver outlives every task: this cannot fail.
                        let _ = tx.send((i, result));
                    });
                }
            };
            for _ in 0..ahead {
                spawn_next();
            }
            let mut ready: Vec<Option<Vec<String>>> =
                std::iter::repeat_with(|| None).take(n).collect();
            let mut next = 0;
            while next < n {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces come in order, each once, whether the caller is outside the
    /// pool (handed on as they are ready) or one of its threads (made
    /// first); a panic in one reaches the caller.
    #[test]
    fn pieces_come_in_order_and_panics_pass_on() {
        // Uneven work, so later pieces often finish first.
        let piece = |i: usize| {
            let mut acc = i as u64;
            for k in 0..((i % 7) * 2_000) as u64 {
                acc = std::hint::black_box(acc.wrapping_mul(31).wrapping_add(k));
            }
            std::hint::black_box(acc);
            vec![i.to_string()]
        };
        let want: Vec<String> = (0..257).map(|i| i.to_string()).collect();
        let mut got = Vec::new();
        Pool.pieces(257, &piece, &mut |p| got.push(p[0].clone()));
        assert_eq!(got, want);
        let from_worker = rayon::scope(|_| {
            let mut got = Vec::new();
            Pool.pieces(257, &piece, &mut |p| got.push(p[0].clone()));
            got
        });
        assert_eq!(from_worker, want);
        let caught = std::panic::catch_unwind(|| {
            Pool.pieces(
                200,
                &|i| {
                    assert_ne!(i, 37, "piece 37 fails");
                    vec![]
                },
                &mut |_| {},
            );
        });
        assert!(caught.is_err());
    }

    /// The typed helpers give the in-order results on the pool.
    #[test]
    fn helpers_keep_order_on_the_pool() {
        use isolint_core::par;
        let items: Vec<u64> = (0..1000).collect();
        let want: Vec<u64> = items.iter().map(|x| x * 3).collect();
        assert_eq!(par::map_ref(&Pool, &items, |x| x * 3), want);
        assert_eq!(par::map(&Pool, items.clone(), |x| x * 3), want);
        assert_eq!(par::map_each(&Pool, &items, |x| x * 3), want);
        assert_eq!(par::join3(&Pool, || 1, || 2, || 3), (1, 2, 3));
    }
}
