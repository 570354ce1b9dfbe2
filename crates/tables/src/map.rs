//! The one unsafe call of the crate: mapping a table file into memory.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;

/// Maps `file` read-only.
pub(crate) fn map(file: &File) -> io::Result<memmap2::Mmap> {
    // SAFETY: the mapping is read-only, and the crate never writes a table file in
    // place: builds write a temporary file and rename it over the old one, so a mapped
    // file keeps its bytes. Another program that truncated the file under us could
    // still make a read fault; that is the usual caveat of any mapped file.
    unsafe { memmap2::Mmap::map(file) }
}
