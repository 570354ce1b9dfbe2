//! Asking the memory for a table entry before it is read.
//!
//! A network's tables are hundreds of megabytes read at random, so most of its lookups
//! wait for main memory. Code that knows which entries it will read next (the four
//! moves' afterstates, the next afterstate a backward pass learns) asks for them first,
//! so that their fetches overlap with the work in between rather than following it.

/// Hints that `entry` will be read soon, so that its cache line is fetched now. A hint
/// only: it changes no value, and elsewhere than on x86-64 it does nothing.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn prefetch<T>(entry: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch never faults and has no effect a program can observe
        // besides timing; `entry` is a live reference in any case.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(core::ptr::from_ref(entry).cast::<i8>()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = entry;
}
