//! The carousel in the network file (version 4): its stage thresholds, then a pool
//! per threshold, each position as its board's 64 low bits and 16 high bits.

use std::io::Read;

use ai2048_engine::Board;

use super::{Checked, NetworkError};
use crate::ntuple::carousel::{Carousel, Pool, POOL_CAPACITY};

/// The board whose [`Board::low_bits`] and [`Board::high_bits`] these are, if any.
fn board_from_bits(low: u64, high: u16) -> Option<Board> {
    let exps = core::array::from_fn(|i| {
        ((low >> (60 - 4 * i)) & 0xF) as u8 | ((((high >> (15 - i)) & 1) as u8) << 4)
    });
    Board::from_exponents(exps)
        .ok()
        .filter(|b| b.low_bits() == low && b.high_bits() == high)
}

/// The bytes of a carousel, as version 4 writes it.
pub(super) fn carousel_bytes(carousel: &Carousel) -> Vec<u8> {
    let thresholds = carousel.stages().thresholds();
    let mut bytes = (thresholds.len() as u32).to_le_bytes().to_vec();
    for t in thresholds {
        bytes.extend_from_slice(&t.to_le_bytes());
    }
    for pool in carousel.pools() {
        bytes.extend_from_slice(&pool.entered.to_le_bytes());
        bytes.extend_from_slice(&(pool.boards.len() as u32).to_le_bytes());
        for b in &pool.boards {
            bytes.extend_from_slice(&b.low_bits().to_le_bytes());
            bytes.extend_from_slice(&b.high_bits().to_le_bytes());
        }
    }
    bytes
}

impl<R: Read> Checked<R> {
    /// The carousel: its stages, then a pool per stage threshold.
    pub(super) fn carousel(&mut self) -> Result<Carousel, NetworkError> {
        let stages = self.stages()?;
        let mut pools = Vec::new();
        for stage in 1..stages.count() {
            let what = format!("the carousel's pool {stage}");
            let entered = u64::from_le_bytes(self.bytes(&what)?);
            let len = self.u32(&what)? as usize;
            if len > POOL_CAPACITY || len as u64 > entered {
                return Err(NetworkError::Corrupt(format!(
                    "{what} holds {len} positions of {entered} entries (at most {POOL_CAPACITY})"
                )));
            }
            let mut boards = Vec::with_capacity(len);
            for _ in 0..len {
                let low = u64::from_le_bytes(self.bytes(&what)?);
                let high = u16::from_le_bytes(self.bytes(&what)?);
                let board = board_from_bits(low, high).ok_or_else(|| {
                    NetworkError::Corrupt(format!(
                        "{what} holds a position that is not a board ({low:016x}, {high:04x})"
                    ))
                })?;
                boards.push(board);
            }
            pools.push(Pool { boards, entered });
        }
        Carousel::with_pools(stages, pools)
            .map_err(|e| NetworkError::Corrupt(format!("the carousel: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{fix_checksum, trained};
    use super::super::{VERSION_CAROUSEL, VERSION_PLAIN};
    use super::*;
    use crate::ntuple::NTupleNetwork;

    #[test]
    fn a_carousel_reads_back_and_damage_to_it_is_named() {
        let mut net = trained();
        assert_eq!(net.to_bytes()[8..12], VERSION_PLAIN.to_le_bytes());
        let mut carousel = Carousel::new("512,2048".parse().expect("stages")).expect("stages");
        let mut rng = ai2048_engine::Rng::new(1);
        let high: Board = "65536 512 0 0/0 0 0 0/0 0 0 0/0 0 0 2"
            .parse()
            .expect("a board");
        carousel.enter(2, high, &mut rng);
        net.set_carousel(Some(carousel));
        let mut bytes = net.to_bytes();
        assert_eq!(bytes[8..12], VERSION_CAROUSEL.to_le_bytes());
        let back = NTupleNetwork::read_from(&bytes[..]).expect("reads back");
        assert_eq!(back.carousel(), net.carousel());
        assert_eq!(back.carousel().expect("kept").pools()[1].boards, [high]);
        // The packed form is for play: no carousel.
        assert!(net.quantized().carousel().is_none());
        // The last pool's count of positions says 5000.
        let n = bytes.len() - 8 - 10 - 4;
        bytes[n..n + 4].copy_from_slice(&5000u32.to_le_bytes());
        fix_checksum(&mut bytes);
        let err = NTupleNetwork::read_from(&bytes[..])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("the carousel's pool 2 holds 5000 positions"),
            "{err}"
        );
        // A position with a tile above 131072.
        let mut bytes = net.to_bytes();
        let n = bytes.len() - 8 - 2;
        bytes[n..n + 2].copy_from_slice(&0xFFFFu16.to_le_bytes());
        fix_checksum(&mut bytes);
        let err = NTupleNetwork::read_from(&bytes[..])
            .unwrap_err()
            .to_string();
        assert!(err.contains("is not a board"), "{err}");
    }
}
