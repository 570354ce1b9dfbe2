//! Networks made from networks: quantized or pruned for play, split into stages, or
//! joined from one-stage networks.

use super::{largest_exponent, table_starts, NTupleNetwork};
use crate::ntuple::stages::{Stages, StagesError};
use crate::ntuple::weights::Weights;
use crate::ntuple::Tuple;

impl NTupleNetwork {
    /// The same network with its weights as `i16`, one scale per table: half the
    /// memory, for play ([`NTupleNetwork::write_packed`] writes it so).
    #[must_use]
    pub fn quantized(&self) -> NTupleNetwork {
        self.quantized_to(0.0)
    }

    /// [`NTupleNetwork::quantized`], each weight rounded to a multiple of `step` (or
    /// of its table's finest scale, where that is coarser): the fewer the values the
    /// weights take, the better they compress, and an error of half a step in each of
    /// the few weights a board reads changes its value little.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    /// use ai2048_engine::Board;
    /// let net = NTupleNetwork::new(parse_tuples("0,1")?);
    /// let board: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// net.learn(board, 1000.0);
    /// let coarse = net.quantized_to(64.0);
    /// assert!(coarse.is_quantized());
    /// assert_eq!(coarse.value(board) % 64.0, 0.0);
    /// assert!((coarse.value(board) - net.value(board)).abs() <= 32.0 * 8.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn quantized_to(&self, step: f32) -> NTupleNetwork {
        let mut net = self.clone_without_weights();
        net.weights = self.weights.quantized(&self.table_starts(), step);
        net
    }

    /// The same network with every weight whose magnitude is below `below` set to 0,
    /// without coherence: rarely trained weights stay small, and zeros compress well.
    #[must_use]
    pub fn pruned(&self, below: f32) -> NTupleNetwork {
        let values: Vec<f32> = (0..self.weight_count())
            .map(|i| self.weight(i))
            .map(|w| if w.abs() < below { 0.0 } else { w })
            .collect();
        let mut net = self.clone_without_weights();
        net.weights = Weights::from_values(&values);
        net
    }

    /// The same network split into `stages`, every stage starting as a copy of this
    /// one-stage network's tables, so that each goes on from what the whole game
    /// taught (rather than from nothing, which few late positions would train). The
    /// coherence, if kept, is copied too.
    ///
    /// # Errors
    ///
    /// When the network already has more than one stage.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    /// use ai2048_engine::Board;
    /// let net = NTupleNetwork::new(parse_tuples("0,1")?);
    /// let late: Board = "16384 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// net.learn(late, 8.0);
    /// let split = net.split_into("16384".parse()?)?;
    /// assert_eq!(split.stages().count(), 2);
    /// assert_eq!(split.value(late), net.value(late));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn split_into(&self, stages: Stages) -> Result<NTupleNetwork, StagesError> {
        if self.stages.count() > 1 {
            return Err(StagesError::AlreadyStaged(self.stages.clone()));
        }
        let copies = stages.count();
        let values: Vec<f32> = (0..copies).flat_map(|_| self.weights.values()).collect();
        let plain = Weights::from_values(&values);
        let weights = match self.weights.coherence() {
            Some(c) => {
                let all: Vec<[f32; 2]> = (0..copies).flat_map(|_| c.iter().copied()).collect();
                plain.with_coherence(Some(&all))
            }
            None => plain,
        };
        let per_stage = vec![self.tuples().to_vec(); copies];
        let mut net =
            NTupleNetwork::from_parts(per_stage, stages, weights, self.games, self.notes.clone());
        net.carousel = self.carousel.clone();
        Ok(net)
    }

    /// Networks joined into one network of `stages`, the first network's tables for
    /// the first stage, the next network's for the next, and so on: networks trained
    /// apart, each on the part of the game it plays best, played as one. A network of
    /// stages of its own fills as many stages, which must begin where its own do (a
    /// late-game network split by `train --stages` joins under an opening network).
    /// The networks may read other tuples (a small network for the opening under a
    /// large one for the late game): the result is then
    /// [mixed](NTupleNetwork::is_mixed), each stage reading its own network's tuples.
    /// The result has no coherence (a network to play or to pack, not to go on
    /// training alike); its games are the parts' sum and its notes say which network
    /// each stage came from, after the parts' own notes. Entries that a stage can
    /// never read (those showing a tile that would put the board in a later stage)
    /// are set to 0, which changes no value and makes the packed file smaller.
    ///
    /// # Errors
    ///
    /// When the networks' stages do not number `stages`, or a staged network's own
    /// stages do not begin where the joined stages it fills do.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    /// use ai2048_engine::Board;
    /// let early = NTupleNetwork::new(parse_tuples("0,1")?);
    /// let late = NTupleNetwork::new(parse_tuples("0,1")?);
    /// let board: Board = "16384 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// late.learn(board, 8.0);
    /// let joined = NTupleNetwork::join(&[&early, &late], "16384".parse()?)?;
    /// assert_eq!(joined.value(board), late.value(board));
    /// let opening: Board = "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// assert_eq!(joined.value(opening), early.value(opening));
    /// // The opening's tables never see a 16384: those entries are dropped, and the
    /// // values do not change.
    /// early.learn(board, 8.0);
    /// let joined = NTupleNetwork::join(&[&early, &late], "16384".parse()?)?;
    /// assert!(joined.nonzero_weights() < early.nonzero_weights() + late.nonzero_weights());
    /// assert_eq!(joined.value(opening), early.value(opening));
    /// assert!(NTupleNetwork::join(&[&early], "16384".parse()?).is_err());
    /// // A late game of larger tuples: each stage reads its own.
    /// let large = NTupleNetwork::new(parse_tuples("0,1,2;4,5,6")?);
    /// large.learn(board, 8.0);
    /// let mixed = NTupleNetwork::join(&[&early, &large], "16384".parse()?)?;
    /// assert!(mixed.is_mixed());
    /// assert_eq!(mixed.value(board), large.value(board));
    /// assert_eq!(mixed.value(opening), early.value(opening));
    /// // A staged late game fills its own stages, which begin where the joined do.
    /// let later = large.split_into("32768".parse()?)?;
    /// let three = NTupleNetwork::join(&[&early, &later], "16384,32768".parse()?)?;
    /// assert_eq!(three.stages().count(), 3);
    /// assert_eq!(three.value(board), large.value(board));
    /// assert!(NTupleNetwork::join(&[&early, &later], "16384,49152".parse()?).is_err());
    /// assert!(NTupleNetwork::join(&[&early, &later], "16384".parse()?).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn join(parts: &[&NTupleNetwork], stages: Stages) -> Result<NTupleNetwork, StagesError> {
        let brought: usize = parts.iter().map(|p| p.stages.count()).sum();
        if brought != stages.count() {
            return Err(StagesError::PartsMismatch {
                parts: brought,
                stages: stages.count(),
            });
        }
        // The joined stage each part's first stage is: a staged part fills as many
        // stages as it has, and they must begin where its own do (its tables were
        // trained on just those boards).
        let firsts: Vec<usize> = parts
            .iter()
            .scan(0, |next, p| {
                let first = *next;
                *next += p.stages.count();
                Some(first)
            })
            .collect();
        for (i, (part, &first)) in parts.iter().zip(&firsts).enumerate() {
            let joined = &stages.thresholds()[first..first + part.stages.count() - 1];
            if part.stages.thresholds() != joined {
                return Err(StagesError::Misaligned {
                    part: i + 1,
                    own: part.stages.clone(),
                    joined: joined.to_vec(),
                });
            }
        }
        let mut values: Vec<f32> = parts.iter().flat_map(|p| p.weights.values()).collect();
        let per_stage: Vec<Vec<Tuple>> = parts
            .iter()
            .flat_map(|p| p.tables.iter().map(|t| t.tuples.clone()))
            .collect();
        // A board in a stage before the last sums its distinct tiles below the next
        // threshold, so it holds no tile of that threshold or more: the entries that
        // show one are never read there, and are dropped (zeros pack to nothing).
        let starts = table_starts(per_stage.iter().map(Vec::as_slice));
        let mut table = 0;
        for (tuples, &next) in per_stage.iter().zip(stages.thresholds()) {
            // The smallest exponent whose tile reaches the next threshold.
            let unreachable = (0..16u32)
                .find(|&e| 1u64 << e >= u64::from(next))
                .unwrap_or(16);
            for tuple in tuples {
                let (start, end) = (starts[table], starts[table + 1]);
                let cells = tuple.cells().len();
                for (entry, w) in values[start..end].iter_mut().enumerate() {
                    if largest_exponent(entry, cells) as u32 >= unreachable {
                        *w = 0.0;
                    }
                }
                table += 1;
            }
        }
        let mut net = NTupleNetwork::from_parts(
            per_stage,
            stages,
            Weights::from_values(&values),
            parts.iter().map(|p| p.games).sum(),
            String::new(),
        );
        for (i, part) in parts.iter().enumerate() {
            for line in part.notes.lines() {
                net.add_note(&format!("stage {}: {line}", i + 1));
            }
        }
        let thresholds = net.stages.thresholds().to_vec();
        for (part, &first) in parts.iter().zip(&firsts) {
            let from = match first {
                0 => "the opening".to_owned(),
                _ => format!("tile sum {}", thresholds[first - 1]),
            };
            let tuples = if part.tuples() == parts[0].tuples() {
                String::new()
            } else {
                format!(" of {} tuples", part.tuples().len())
            };
            let count = part.stages.count();
            let which = match count {
                1 => format!("stage {} (from {from}) is a network", first + 1),
                _ => format!(
                    "stages {} to {} (from {from}) are a network of {count} stages ({})",
                    first + 1,
                    first + count,
                    part.stages
                ),
            };
            net.add_note(&format!("joined: {which}{tuples} of {} games", part.games));
        }
        Ok(net)
    }

    /// A copy of everything but the weights, which are left empty.
    fn clone_without_weights(&self) -> NTupleNetwork {
        NTupleNetwork {
            tables: self.tables.clone(),
            stages: self.stages.clone(),
            weights: Weights::Plain(Box::new([])),
            games: self.games,
            notes: self.notes.clone(),
            // Training state, which the play formats do not keep.
            carousel: None,
        }
    }
}
