//! Helpers shared by the integration tests: a counting global allocator
//! (per thread, so the harness's other threads do not disturb a
//! measurement) and a deterministic page mutator.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the heap bytes in use by the current thread, and their peak.
pub struct ThreadCounting;

thread_local! {
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn note(delta: isize) {
    let _ = IN_USE.try_with(|c| {
        let v = c.get() + delta;
        c.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counters are plain thread-local cells that never allocate.
unsafe impl GlobalAlloc for ThreadCounting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            note(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize));
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            note(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// Run `f` and return the peak heap growth (bytes) on this thread during it.
pub fn peak_growth(f: impl FnOnce()) -> isize {
    let base = IN_USE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    f();
    PEAK.with(Cell::get) - base
}

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// One random corruption of `page`.
pub fn mutate(page: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut p = page.to_vec();
    match rng.below(6) {
        0 => p.truncate(rng.below(page.len() + 1)),
        1 => {
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(p.len());
                if let Some(b) = p.get_mut(i) {
                    *b = rng.next() as u8;
                }
            }
        }
        2 => {
            let i = rng.below(p.len());
            if let Some(b) = p.get_mut(i) {
                *b ^= 1 << rng.below(8);
            }
        }
        3 => {
            // Overwrite a header-ish byte with an extreme.
            let i = rng.below(p.len().min(16));
            if let Some(b) = p.get_mut(i) {
                *b = [0x00, 0x7F, 0x80, 0xFF, 0x21, 0x41][rng.below(6)];
            }
        }
        4 => {
            let extra = rng.below(16);
            for _ in 0..extra {
                p.push(rng.next() as u8);
            }
        }
        _ => {
            p.truncate(rng.below(page.len() + 1));
            let i = rng.below(p.len());
            if let Some(b) = p.get_mut(i) {
                *b = rng.next() as u8;
            }
        }
    }
    p
}

/// Heap bytes in use by this thread.
pub fn in_use() -> isize {
    IN_USE.with(Cell::get)
}
