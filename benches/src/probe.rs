//! Interleaved timing for the probes (`benches/examples`, the `arrow`
//! bench's `--interleaved-optional` mode): the cases of a
//! comparison take turns within each repetition, so that on a shared
//! machine they meet the same neighbours (criterion times one case after
//! another, minutes apart).

use std::time::{Duration, Instant};

/// Run every closure of `cases` once per repetition, in order, `reps`
/// times; returns the fastest and the median time of each case.
pub fn interleaved(reps: usize, cases: &mut [&mut dyn FnMut()]) -> Vec<(Duration, Duration)> {
    let mut times = vec![Vec::with_capacity(reps); cases.len()];
    for _ in 0..reps {
        for (case, t) in cases.iter_mut().zip(&mut times) {
            let start = Instant::now();
            case();
            t.push(start.elapsed());
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort();
            (
                t.first().copied().unwrap_or_default(),
                t.get(t.len() / 2).copied().unwrap_or_default(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::interleaved;

    #[test]
    fn every_case_runs_once_per_repetition_in_turn() {
        let order = std::cell::RefCell::new(Vec::new());
        let mut a = || order.borrow_mut().push('a');
        let mut b = || order.borrow_mut().push('b');
        let stats = interleaved(3, &mut [&mut a, &mut b]);
        assert_eq!(stats.len(), 2);
        assert_eq!(order.into_inner(), ['a', 'b', 'a', 'b', 'a', 'b']);
        for (min, median) in stats {
            assert!(min <= median);
        }
    }
}
