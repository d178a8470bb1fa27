//! Cache hints: tell the CPU which memory a loop will read soon, so that
//! the misses of several lookups overlap instead of each waiting its turn.
//!
//! A hint never changes what a program computes; it only moves memory into
//! the cache earlier. On targets without a prefetch instruction it does
//! nothing.

/// Ask the CPU to bring the cache line holding `slice[index]` into its
/// caches; does nothing when `index` is out of bounds.
///
/// ```
/// let table = vec![0u64; 1024];
/// strata_sink::cache::prefetch(&table, 700);
/// strata_sink::cache::prefetch(&table, 5000); // out of bounds: no-op
/// ```
#[inline(always)]
pub fn prefetch<T>(slice: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = slice.get(index) {
        x86::prefetch(std::ptr::from_ref(item).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, index);
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};

    #[inline(always)]
    pub(super) fn prefetch(at: *const i8) {
        // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 CPU has (it
        // is part of the architecture's baseline). A prefetch is a hint: it
        // never faults and never reads into the program's state, whatever
        // the address; callers pass the address of a live element anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(at) }
    }
}

#[cfg(test)]
mod tests {
    use super::prefetch;

    #[test]
    fn a_prefetch_at_any_index_leaves_the_data_alone() {
        let table: Vec<u64> = (0..4096).collect();
        for index in [0, 1, 7, 8, 4095, 4096, usize::MAX] {
            prefetch(&table, index);
        }
        prefetch::<u64>(&[], 0);
        // Elements of no size have no memory behind them.
        prefetch(&[(); 3], 1);
        assert!(table.iter().enumerate().all(|(i, &v)| v == i as u64));
    }
}
