//! Tables on huge pages: a network's tables are hundreds of megabytes read at random,
//! and a transposition table tens, so with the usual 4 KiB pages nearly every lookup
//! also misses the TLB, the cache of address translations. On Linux, a table's memory
//! is allocated (fresh pages that nothing has touched yet) and advised as
//! `MADV_HUGEPAGE` before it is filled, so
//! the kernel backs them with 2 MiB pages where it can (transparent huge pages, when
//! the system allows them: `always` or `madvise` in
//! `/sys/kernel/mm/transparent_hugepage/enabled`). Elsewhere, or when the kernel
//! declines, the tables are the same, on small pages.

#[cfg(not(target_arch = "wasm32"))]
use std::collections::TryReserveError;
use std::sync::atomic::AtomicU32;

/// The size of a huge page on x86-64 and most AArch64 kernels.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Tables smaller than this stay on small pages.
#[cfg(target_os = "linux")]
const WORTH_IT: usize = 4 * HUGE_PAGE;

/// Asks the kernel to back the whole huge pages inside `table` with huge pages.
/// Returns whether it was asked and agreed.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub(crate) fn advise<T>(table: &[T]) -> bool {
    let bytes = std::mem::size_of_val(table);
    if bytes < WORTH_IT {
        return false;
    }
    let start = table.as_ptr() as usize;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end <= first {
        return false;
    }
    // SAFETY: [first, end) lies inside `table`'s allocation, which this process owns
    // and keeps mapped while the borrow lasts. MADV_HUGEPAGE changes how the kernel
    // backs those pages, never their contents, so no Rust value can observe it.
    unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) == 0 }
}

/// Huge pages are a Linux matter; elsewhere tables stay as they are.
#[cfg(not(target_os = "linux"))]
pub(crate) fn advise<T>(_table: &[T]) -> bool {
    false
}

/// An empty table with room for `len` values, on huge pages where the system gives
/// them: fresh memory, which costs address space and no memory until it is filled.
///
/// # Errors
///
/// When the system refuses that much.
// WebAssembly, where asking for memory is having it, grows its tables instead.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn try_with_capacity<T>(len: usize) -> Result<Vec<T>, TryReserveError> {
    let mut table = Vec::new();
    table.try_reserve_exact(len)?;
    advise(table.spare_capacity_mut());
    Ok(table)
}

/// `len` values from `value(i)`, on huge pages where the system gives them.
pub(crate) fn filled<T>(len: usize, value: impl Fn(usize) -> T) -> Vec<T> {
    let mut table = Vec::with_capacity(len); // fresh memory, untouched until filled
    advise(table.spare_capacity_mut());
    table.extend((0..len).map(value));
    table
}

/// `len` atomics holding the bits `value(i)` gives, on huge pages where the system
/// gives them.
pub(crate) fn atomics(len: usize, value: impl Fn(usize) -> u32) -> Box<[AtomicU32]> {
    filled(len, |i| AtomicU32::new(value(i))).into_boxed_slice()
}

/// `len` triples of atomics holding the bits `value(i)` gives, on huge pages where the
/// system gives them.
pub(crate) fn atomic_triples(
    len: usize,
    value: impl Fn(usize) -> [u32; 3],
) -> Box<[[AtomicU32; 3]]> {
    filled(len, |i| value(i).map(AtomicU32::new)).into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn tables_hold_what_they_are_filled_with() {
        let n = 5 << 20;
        let t = atomics(n, |i| i as u32 * 3);
        assert_eq!(t.len(), n);
        assert_eq!(t[n - 1].load(Relaxed), (n as u32 - 1) * 3);
        let c = atomic_triples(3, |i| [i as u32, 7, 9]);
        assert_eq!(c[2].each_ref().map(|a| a.load(Relaxed)), [2, 7, 9]);
        let q = filled(10, |i| -(i as i16));
        assert_eq!(q[9], -9);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn large_tables_are_advised_where_the_system_allows() {
        let setting = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .unwrap_or_default();
        let allowed = setting.contains("[always]") || setting.contains("[madvise]");
        let big = vec![0u32; 8 << 20];
        assert_eq!(advise(&big), allowed, "THP setting {setting:?}");
        // Small tables are left alone.
        assert!(!advise(&[0u32; 1000]));
    }
}
