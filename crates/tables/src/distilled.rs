//! A distilled table: the best move of each state that games meet most often, for one
//! or more solved tables, in a few megabytes instead of gigabytes.
//!
//! A [`Distiller`] watches the boards a player meets: for each one that a table
//! answers (as [`Table::play_query`] answers a player), it counts the state the board
//! is to the table and keeps the table's best move from it. [`Distiller::finish`]
//! keeps the most often met states that fit a size, and [`Distilled`] answers a board
//! met again with the move the table chose, without the table.
//!
//! A state is a table's state index ([`Table::play_state`]); each one kept costs three
//! bytes: the low 16 bits of its index (the high bits are the bucket it sits in, a
//! range of a sorted array) and a byte for its move and probability.

use std::collections::HashMap;

use ai2048_engine::{Board, Dir};

use crate::file::{header_len, Encoding, Header};
use crate::layout::Layout;
use crate::pattern::Symmetry;
use crate::table::{transform, Table};

/// The first bytes of a distilled table's file.
const MAGIC: &[u8; 8] = b"ai2048dt";
/// The first bytes of a distiller's saved counts.
const COUNTS_MAGIC: &[u8; 8] = b"ai2048dc";
/// The format version this build writes and reads.
pub const DISTILLED_VERSION: u32 = 1;
/// The bits of a state's index kept in each entry; the rest pick its bucket.
const LOW_BITS: u32 = 16;
/// The largest table distilled: its buckets' offsets take 4 bytes each, 16 MiB at most.
const MAX_BUCKETS: u64 = 1 << 22;
/// The levels of a kept probability: 6 bits beside the move's 2.
const LEVELS: f64 = 63.0;

message_error!(
    /// Why bytes are not a distilled table, or a table cannot be distilled.
    DistilledError
);

/// A distilled table: for the states games meet most often, the best move of the
/// table they belong to.
///
/// ```
/// use ai2048_engine::Board;
/// use ai2048_tables::{Distilled, Distiller, Layout, Table};
///
/// let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse()?, 16)?);
/// let tables = [("snake8-16".to_owned(), table)];
/// let mut distiller = Distiller::new(&tables);
/// let board: Board = "8192 4096 2048 1024/16 32 64 128/8 0 0 0/0 0 0 8".parse()?;
/// assert!(distiller.record(board));
/// let (distilled, _) = distiller.finish(1 << 20)?;
/// let answer = distilled.answer(board).expect("the board was met");
/// let (dir, p) = tables[0].1.play_query(board).unwrap().best().unwrap();
/// assert_eq!(answer.dir, dir);
/// assert!((answer.probability - p).abs() < 1.0 / 63.0);
/// // Bytes and back.
/// assert_eq!(Distilled::from_bytes(&distilled.to_bytes())?.answer(board), Some(answer));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Distilled {
    parts: Vec<Part>,
}

impl std::fmt::Debug for Distilled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<(&str, usize)> = self.names().zip(self.counts()).collect();
        f.debug_struct("Distilled").field("states", &parts).finish()
    }
}

/// The states kept of one table.
#[derive(Clone)]
struct Part {
    name: String,
    layout: Layout,
    /// Bucket `b` (the states whose index over 2^16 is `b`) holds entries
    /// `starts[b]..starts[b + 1]`.
    starts: Vec<u32>,
    /// Each entry's index, its low 16 bits, increasing within a bucket.
    lows: Vec<u16>,
    /// Each entry's move (in the table's frame, bits 0-1) and probability (bits 2-7).
    codes: Vec<u8>,
}

/// A distilled table's answer for a board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistilledAnswer {
    /// The table that answered: its place in [`Distilled::names`].
    pub part: usize,
    /// The table's best move.
    pub dir: Dir,
    /// Its success probability, to 1/63.
    pub probability: f64,
}

impl Part {
    fn new(name: String, layout: Layout) -> Result<Part, DistilledError> {
        let buckets = buckets(&layout).ok_or_else(|| {
            DistilledError(format!(
                "the table {name} has {} states: too many to distill (at most 2^38)",
                layout.len()
            ))
        })?;
        Ok(Part {
            name,
            layout,
            starts: vec![0; buckets + 1],
            lows: Vec::new(),
            codes: Vec::new(),
        })
    }

    /// The code kept for state `index`, if it is kept.
    fn get(&self, index: u64) -> Option<u8> {
        let bucket = (index >> LOW_BITS) as usize;
        let range = *self.starts.get(bucket)? as usize..*self.starts.get(bucket + 1)? as usize;
        let low = (index & 0xFFFF) as u16;
        let at = self.lows[range.clone()].binary_search(&low).ok()?;
        Some(self.codes[range.start + at])
    }

    /// The bytes of this part in a file, without its name.
    fn bytes_len(&self) -> usize {
        header_len(&self.layout) + 8 + 4 * self.starts.len() + 3 * self.lows.len()
    }
}

/// How many buckets of 2^16 states `layout` takes, `None` if too many.
fn buckets(layout: &Layout) -> Option<usize> {
    let n = layout.len().div_ceil(1 << LOW_BITS);
    (n <= MAX_BUCKETS).then_some(n as usize)
}

/// Appends `name`'s length in a byte and its first 255 bytes at most (cut at a
/// character's boundary).
fn push_name(out: &mut Vec<u8>, name: &str) {
    let end = name_len(name);
    out.push(end as u8);
    out.extend_from_slice(&name.as_bytes()[..end]);
}

/// How many bytes of `name` [`push_name`] keeps.
fn name_len(name: &str) -> usize {
    let mut end = name.len().min(255);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// The header that names a table's layout in a distilled table or saved counts: a
/// table file's header, its values' fields unused.
fn table_header(layout: &Layout) -> Header {
    Header {
        layout: layout.clone(),
        encoding: Encoding::U8,
        layers_left: 0,
        crc: 0,
    }
}

/// A move in the table's frame and a probability, as one byte.
fn encode(dir: Dir, probability: f64) -> u8 {
    let level = (probability.clamp(0.0, 1.0) * LEVELS).round() as u8;
    level << 2 | dir as u8
}

/// The move and probability of a byte made by [`encode`].
fn decode(code: u8) -> (Dir, f64) {
    (
        Dir::ALL[usize::from(code & 3)],
        f64::from(code >> 2) / LEVELS,
    )
}

impl Distilled {
    /// The names of the tables distilled, in the order [`DistilledAnswer::part`]
    /// counts them.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().map(|p| p.name.as_str())
    }

    /// The layouts of the tables distilled, in the same order.
    pub fn layouts(&self) -> impl Iterator<Item = &Layout> {
        self.parts.iter().map(|p| &p.layout)
    }

    /// How many states are kept, over all tables.
    #[must_use]
    pub fn len(&self) -> usize {
        self.parts.iter().map(|p| p.lows.len()).sum()
    }

    /// Whether no state is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many states are kept of each table, in the order of [`Distilled::names`].
    pub fn counts(&self) -> impl Iterator<Item = usize> + '_ {
        self.parts.iter().map(|p| p.lows.len())
    }

    /// The move a table chose for `board`, if the board's state under one of the
    /// eight symmetries was kept, and the board stands as a player trusts the table
    /// with ([`Table::play_query`]); the likeliest of the answers if several are.
    #[must_use]
    pub fn answer(&self, board: Board) -> Option<DistilledAnswer> {
        self.answer_among(board, |_| true)
    }

    /// As [`Distilled::answer`], among the tables whose layout passes `accept`.
    #[must_use]
    pub fn answer_among(
        &self,
        board: Board,
        accept: impl Fn(&Layout) -> bool,
    ) -> Option<DistilledAnswer> {
        let exps = board.exponents();
        let mut best: Option<DistilledAnswer> = None;
        let parts = self.parts.iter().enumerate();
        for (part_index, part) in parts.filter(|(_, p)| accept(&p.layout)) {
            for sym in Symmetry::ALL {
                let image = transform(&exps, sym);
                let Some(state) = part.layout.state_of(&image) else {
                    continue;
                };
                if !part.layout.accepts(&image) {
                    continue;
                }
                let Some(code) = part.get(part.layout.index(state)) else {
                    continue;
                };
                let (seen, probability) = decode(code);
                let Some(dir) = Dir::ALL.into_iter().find(|&d| sym.dir(d) == seen) else {
                    continue;
                };
                if best.is_none_or(|b| probability > b.probability) {
                    best = Some(DistilledAnswer {
                        part: part_index,
                        dir,
                        probability,
                    });
                }
            }
        }
        best
    }

    /// The table as bytes: what [`Distilled::from_bytes`] reads, and a file holds.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.bytes_len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&DISTILLED_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.parts.len() as u32).to_le_bytes());
        for part in &self.parts {
            push_name(&mut out, &part.name);
            out.extend_from_slice(&table_header(&part.layout).to_bytes());
            out.extend_from_slice(&(part.lows.len() as u32).to_le_bytes());
            out.extend_from_slice(&(part.starts.len() as u32).to_le_bytes());
            for s in &part.starts {
                out.extend_from_slice(&s.to_le_bytes());
            }
            for l in &part.lows {
                out.extend_from_slice(&l.to_le_bytes());
            }
            out.extend_from_slice(&part.codes);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// How many bytes [`Distilled::to_bytes`] makes.
    #[must_use]
    pub fn bytes_len(&self) -> usize {
        16 + 4
            + self
                .parts
                .iter()
                .map(|p| 1 + name_len(&p.name) + p.bytes_len())
                .sum::<usize>()
    }

    /// Reads a distilled table from its bytes, checking all of them.
    ///
    /// # Errors
    ///
    /// Bytes that are not a distilled table, one of another version, truncated or
    /// damaged: the message says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Distilled, DistilledError> {
        let bad = |what: &str| DistilledError(format!("not a sound distilled table: {what}"));
        if bytes.len() < 20 || &bytes[..8] != MAGIC {
            return Err(DistilledError(
                "not an ai2048 distilled table (it does not start with `ai2048dt`)".to_owned(),
            ));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        let mut r = Reader { bytes: body, at: 8 };
        let version = r.u32()?;
        if version != DISTILLED_VERSION {
            return Err(DistilledError(format!(
                "a distilled table of format version {version}; this build reads version \
                 {DISTILLED_VERSION}"
            )));
        }
        if crc32fast::hash(body) != u32::from_le_bytes(sum.try_into().expect("4 bytes")) {
            return Err(bad("its checksum does not match (damaged or truncated)"));
        }
        let count = r.u32()?;
        let mut parts = Vec::new();
        for _ in 0..count {
            let (name, layout) = r.table().map_err(|e| bad(&e))?;
            let mut part = Part::new(name, layout)?;
            let entries = r.u32()? as usize;
            let starts = r.u32()? as usize;
            if starts != part.starts.len() {
                return Err(bad(&format!(
                    "the table {} has {starts} bucket offsets, not {}",
                    part.name,
                    part.starts.len()
                )));
            }
            for s in &mut part.starts {
                *s = r.u32()?;
            }
            part.lows = r
                .take(2 * entries)?
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            part.codes = r.take(entries)?.to_vec();
            let sound = part.starts.first() == Some(&0)
                && part.starts.last() == Some(&(entries as u32))
                && part.starts.windows(2).all(|w| {
                    w[0] <= w[1]
                        && part.lows[w[0] as usize..w[1] as usize]
                            .windows(2)
                            .all(|l| l[0] < l[1])
                });
            if !sound {
                return Err(bad(&format!(
                    "the table {}'s states are out of order",
                    part.name
                )));
            }
            parts.push(part);
        }
        if r.at != body.len() {
            return Err(bad("bytes left over after its last table"));
        }
        Ok(Distilled { parts })
    }
}

/// Reads little-endian numbers in order, as errors say a table is truncated.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DistilledError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end =
            end.ok_or_else(|| DistilledError("not a sound distilled table: truncated".to_owned()))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, DistilledError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    /// A table's name and layout, as [`push_name`] and [`table_header`] wrote them;
    /// the error says what is wrong, for the caller to say where.
    fn table(&mut self) -> Result<(String, Layout), String> {
        let truncated = |_| "truncated".to_owned();
        let len = usize::from(self.take(1).map_err(truncated)?[0]);
        let name = self.take(len).map_err(truncated)?;
        let name = String::from_utf8(name.to_vec()).map_err(|_| "a table's name is not UTF-8")?;
        let header = Header::from_bytes(std::path::Path::new(&name), &self.bytes[self.at..])
            .map_err(|e| format!("the table {name}'s header: {e}"))?;
        self.take(header_len(&header.layout)).map_err(truncated)?;
        Ok((name, header.layout))
    }

    fn u64(&mut self) -> Result<u64, DistilledError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

/// Counts the states that a player's boards are to a set of tables, to distill the
/// most often met into a [`Distilled`] table.
pub struct Distiller<'a> {
    tables: &'a [(String, Table)],
    /// (table, state index) to (times met, code).
    seen: HashMap<(u8, u64), (u32, u8)>,
    boards: u64,
    answered: u64,
}

impl<'a> Distiller<'a> {
    /// A distiller of `tables`, each with its name, having met no board yet.
    ///
    /// # Panics
    ///
    /// With more than 255 tables.
    #[must_use]
    pub fn new(tables: &'a [(String, Table)]) -> Distiller<'a> {
        assert!(tables.len() < 256, "at most 255 tables");
        Distiller {
            tables,
            seen: HashMap::new(),
            boards: 0,
            answered: 0,
        }
    }

    /// Counts `board`: the state it is to the table whose best move is likeliest
    /// among those that answer it as a player trusts them ([`Table::play_query`]).
    /// Returns whether one answered.
    pub fn record(&mut self, board: Board) -> bool {
        self.boards += 1;
        // As the default player picks (`answer_rank`).
        let mut best: Option<(usize, u64, Dir, (bool, f64))> = None;
        let own_from = crate::own_stage_from_on(board);
        for (t, (_, table)) in self.tables.iter().enumerate() {
            let Some((index, query)) = table.play_state(board) else {
                continue;
            };
            let Some((dir, p)) = query.best() else {
                continue;
            };
            let target = table.layout().target();
            let key = crate::answer_rank(query.own_stage, target, p, own_from);
            if best.is_none_or(|b| key > b.3) {
                best = Some((t, index, query.symmetry.dir(dir), key));
            }
        }
        let Some((t, index, dir, (_, p))) = best else {
            return false;
        };
        self.answered += 1;
        let entry = self
            .seen
            .entry((t as u8, index))
            .or_insert((0, encode(dir, p)));
        entry.0 = entry.0.saturating_add(1);
        true
    }

    /// Adds what `other` (a distiller of the same tables) counted.
    pub fn merge(&mut self, other: Distiller<'_>) {
        self.boards += other.boards;
        self.answered += other.answered;
        for (key, (n, code)) in other.seen {
            let entry = self.seen.entry(key).or_insert((0, code));
            entry.0 = entry.0.saturating_add(n);
        }
    }

    /// The boards counted, and how many of them a table answered.
    #[must_use]
    pub fn boards(&self) -> (u64, u64) {
        (self.boards, self.answered)
    }

    /// How many different states the answered boards were.
    #[must_use]
    pub fn states(&self) -> usize {
        self.seen.len()
    }

    /// The counts so far, as bytes that [`Distiller::load`] reads back: a long
    /// distillation saves them and goes on from them later.
    #[must_use]
    pub fn save(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 14 * self.seen.len());
        out.extend_from_slice(COUNTS_MAGIC);
        out.extend_from_slice(&DISTILLED_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.tables.len() as u32).to_le_bytes());
        for (name, table) in self.tables {
            push_name(&mut out, name);
            out.extend_from_slice(&table_header(table.layout()).to_bytes());
        }
        out.extend_from_slice(&self.boards.to_le_bytes());
        out.extend_from_slice(&self.answered.to_le_bytes());
        out.extend_from_slice(&(self.seen.len() as u64).to_le_bytes());
        let mut entries: Vec<_> = self.seen.iter().collect();
        entries.sort_unstable_by_key(|e| e.0);
        for (&(t, index), &(count, code)) in entries {
            out.push(t);
            out.extend_from_slice(&index.to_le_bytes());
            out.extend_from_slice(&count.to_le_bytes());
            out.push(code);
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// A distiller of `tables` that goes on from the counts [`Distiller::save`] made.
    ///
    /// ```
    /// use ai2048_tables::{Distiller, Layout, Table};
    ///
    /// let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse()?, 16)?);
    /// let tables = [("snake8-16".to_owned(), table)];
    /// let mut distiller = Distiller::new(&tables);
    /// distiller.record("8192 4096 2048 1024/16 32 64 128/8 0 0 0/0 0 0 8".parse()?);
    /// let again = Distiller::load(&tables, &distiller.save())?;
    /// assert_eq!((again.boards(), again.states()), ((1, 1), 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Bytes that are not saved counts, damaged or truncated ones, or counts of other
    /// tables: the message says which.
    pub fn load(
        tables: &'a [(String, Table)],
        bytes: &[u8],
    ) -> Result<Distiller<'a>, DistilledError> {
        let bad = |what: &str| DistilledError(format!("not sound saved counts: {what}"));
        if bytes.len() < 20 || &bytes[..8] != COUNTS_MAGIC {
            return Err(DistilledError(
                "not an ai2048 distillation's saved counts (it does not start with `ai2048dc`)"
                    .to_owned(),
            ));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(sum.try_into().expect("4 bytes")) {
            return Err(bad("their checksum does not match (damaged or truncated)"));
        }
        let mut r = Reader { bytes: body, at: 8 };
        let version = r.u32()?;
        if version != DISTILLED_VERSION {
            return Err(bad(&format!(
                "format version {version}, not {DISTILLED_VERSION}"
            )));
        }
        let count = r.u32()? as usize;
        let mut distiller = Distiller::new(tables);
        let names: Vec<&str> = tables.iter().map(|(n, _)| n.as_str()).collect();
        let mut saved = Vec::new();
        for _ in 0..count {
            saved.push(r.table().map_err(|e| bad(&e))?);
        }
        let same = saved.len() == tables.len()
            && saved
                .iter()
                .zip(tables)
                .all(|((n, l), (name, table))| n == name && l == table.layout());
        if !same {
            let saved: Vec<&str> = saved.iter().map(|(n, _)| n.as_str()).collect();
            return Err(DistilledError(format!(
                "the saved counts are of the tables {}, not of {}",
                saved.join(", "),
                names.join(", ")
            )));
        }
        distiller.boards = r.u64()?;
        distiller.answered = r.u64()?;
        let entries = r.u64()?;
        for _ in 0..entries {
            let t = r.take(1)?[0];
            let index = r.u64()?;
            let n = r.u32()?;
            let code = r.take(1)?[0];
            if usize::from(t) >= tables.len() || index >= tables[usize::from(t)].1.layout().len() {
                return Err(bad("a state out of its table's range"));
            }
            distiller.seen.insert((t, index), (n, code));
        }
        if r.at != body.len() {
            return Err(bad("bytes left over after the last state"));
        }
        Ok(distiller)
    }

    /// The distilled table of the most often met states that fit in `max_bytes`
    /// (the most often first, equals by table and index), and how many of the
    /// answered boards counted were of the states it keeps.
    ///
    /// # Errors
    ///
    /// A table too large to distill, or `max_bytes` too small for the tables' buckets
    /// alone.
    pub fn finish(self, max_bytes: usize) -> Result<(Distilled, u64), DistilledError> {
        let mut parts = self
            .tables
            .iter()
            .map(|(name, table)| Part::new(name.clone(), table.layout().clone()))
            .collect::<Result<Vec<_>, _>>()?;
        let empty = Distilled {
            parts: parts.clone(),
        };
        let room = max_bytes.checked_sub(empty.bytes_len()).ok_or_else(|| {
            DistilledError(format!(
                "{max_bytes} bytes hold not even the tables' buckets ({} bytes)",
                empty.bytes_len()
            ))
        })?;
        let mut entries: Vec<((u8, u64), (u32, u8))> = self.seen.into_iter().collect();
        entries.sort_unstable_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(&b.0)));
        entries.truncate(room / 3);
        let covered = entries.iter().map(|e| u64::from(e.1 .0)).sum();
        entries.sort_unstable_by_key(|e| e.0);
        for ((t, index), (_, code)) in entries {
            let part = &mut parts[usize::from(t)];
            let bucket = (index >> LOW_BITS) as usize;
            part.starts[bucket + 1] += 1;
            part.lows.push((index & 0xFFFF) as u16);
            part.codes.push(code);
        }
        for part in &mut parts {
            for b in 1..part.starts.len() {
                part.starts[b] += part.starts[b - 1];
            }
        }
        Ok((Distilled { parts }, covered))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> Vec<(String, Table)> {
        let layout = Layout::new("xxxx/xxxx/t.../....".parse().unwrap(), 16).unwrap();
        vec![("snake8-16".to_owned(), Table::solve(layout))]
    }

    /// Boards of the table's chain with the moving cells filled pseudo-randomly.
    fn boards(n: usize) -> Vec<Board> {
        let mut x: u64 = 0x2048;
        (0..n)
            .map(|_| {
                let mut cells = String::from("8192 4096 2048 1024/16 32 64 128");
                for i in 0..8 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let tile = [0, 0, 2, 4, 8][(x % 5) as usize];
                    cells.push(if i % 4 == 0 { '/' } else { ' ' });
                    cells.push_str(&tile.to_string());
                }
                cells.parse().unwrap()
            })
            .collect()
    }

    #[test]
    fn a_kept_state_answers_as_its_table_and_the_rest_not_at_all() {
        let tables = tables();
        let boards = boards(3000);
        let mut distiller = Distiller::new(&tables);
        let answered = boards.iter().filter(|&&b| distiller.record(b)).count();
        assert!(answered > 1000, "{answered}");
        // Room for 100 states: the most often met.
        let empty = Distiller::new(&tables)
            .finish(1 << 20)
            .unwrap()
            .0
            .bytes_len();
        let (distilled, covered) = distiller.finish(empty + 300).unwrap();
        assert!(covered >= 100);
        assert_eq!(distilled.len(), 100);
        let (mut kept, mut missed) = (0, 0);
        for &board in &boards {
            let query = tables[0].1.play_query(board).and_then(|q| q.best());
            match distilled.answer(board) {
                Some(answer) => {
                    let (dir, p) = query.expect("only answered boards are kept");
                    // The same move, or one the table values as much.
                    let q = tables[0]
                        .1
                        .play_query(board)
                        .unwrap()
                        .value(answer.dir)
                        .unwrap();
                    assert!(answer.dir == dir || (q - p).abs() < 1e-9, "{board:?}");
                    assert!((answer.probability - p).abs() <= 0.5 / LEVELS + 1e-9);
                    kept += 1;
                }
                None => missed += 1,
            }
        }
        assert!(kept >= 100 && missed > 0, "{kept} kept, {missed} missed");
    }

    #[test]
    fn damaged_truncated_or_foreign_bytes_are_refused_with_a_reason() {
        let tables = tables();
        let mut distiller = Distiller::new(&tables);
        for b in boards(500) {
            distiller.record(b);
        }
        let bytes = distiller.finish(1 << 20).unwrap().0.to_bytes();
        assert!(Distilled::from_bytes(&bytes).is_ok());
        let mut damaged = bytes.clone();
        damaged[bytes.len() / 2] ^= 1;
        let err = Distilled::from_bytes(&damaged).unwrap_err().to_string();
        assert!(err.contains("checksum"), "{err}");
        let err = Distilled::from_bytes(&bytes[..bytes.len() - 10])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("checksum") || err.contains("truncated"),
            "{err}"
        );
        let err = Distilled::from_bytes(b"ai2048et and more bytes")
            .unwrap_err()
            .to_string();
        assert!(err.contains("not an ai2048 distilled table"), "{err}");
        let mut future = bytes.clone();
        future[8] = 9;
        let err = Distilled::from_bytes(&future).unwrap_err().to_string();
        assert!(err.contains("version 9"), "{err}");
    }
}
