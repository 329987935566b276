//! Compact game logs: a self-play game as its opening and its moves with
//! their search scores, from which the [`Record`]s of the game are rebuilt
//! exactly (`rukav datagen --format games`, `rukav unpack`).
//!
//! A record file costs 64 bytes per position; a game log costs about 3
//! bytes per ply before compression, so a run of millions of positions can
//! be kept (and committed, and moved between machines) as game logs and
//! unpacked into records where a trainer needs them.
//!
//! # Format
//!
//! A file is a plain sequence of games, so that slices of a run
//! concatenate like record files. One game:
//!
//! | field | encoding |
//! |---|---|
//! | marker | one byte, `0xA7` |
//! | variant | one byte (`Variant::id`) |
//! | base | LEB128 length, then the FEN (ASCII) of the position the opening started from; length 0: the variant's start position |
//! | opening | LEB128 count, then each move's LEB128 index in `Position::legal_moves()` (the random plies) |
//! | result | one byte: 0 Black won, 1 draw, 2 White won |
//! | plies | LEB128 count |
//! | each ply | LEB128 index of the move played in `Position::legal_moves()`; then, if the ply is quiet (not in check, the move neither a capture nor a promotion), its search score, White's view, as a zigzag LEB128 difference from the last score written (0 before the first) |
//!
//! The score of a ply in check or whose move is a capture or a promotion is
//! not kept (it reads back as 0): it would cost about a third of the file.
//!
//! The move played is the search's best move, so each ply's position, move
//! and score are what a record of that ply holds; [`GameLog::records`]
//! keeps the plies that data generation keeps (not in check, best move
//! neither a capture nor a promotion, score within ±2000; in antichess and
//! giveaway also the captures and promotions, labelled from the next scored
//! ply).

use super::out::{Out, ToolError};
use super::record::{quiet_ply, Record, RECORD_SCORE_LIMIT};
use rukav::{Color, Move, Position, Variant};

/// First byte of every game in a log file (a check against reading
/// something else, or a file cut in the middle of a game).
const GAME_MARKER: u8 = 0xA7;

/// One self-play game: where it started, what was played, what it ended as.
#[derive(Clone, Debug)]
pub struct GameLog {
    /// The position the opening started from (a book position or the
    /// variant's start position).
    pub base: Position,
    /// The opening's random plies from `base`; the engine played from the
    /// position after them.
    pub opening: Vec<Move>,
    /// Result from White's view: 0 Black won, 1 draw, 2 White won.
    pub result: u8,
    /// Each ply's move (the search's best move) and search score (side to
    /// move's view), in order from [`GameLog::start`].
    pub plies: Vec<(Move, i32)>,
}

impl GameLog {
    /// The training records of the game: the plies whose position is not
    /// in check, whose best move is neither a capture nor a promotion and
    /// whose score is within ±2000, each with the game's result.
    ///
    /// Antichess, giveaway and suicide (`losers_win`) also keep the plies whose move
    /// is a capture or a promotion: a capture there is compulsory, and the
    /// search evaluates such positions statically too (pruning margins,
    /// quiescence with several captures to choose from), so an evaluation
    /// trained without them never sees them. Such a ply's score is not in
    /// the log; its label is the next scored ply's score, negated once per
    /// ply between them (the search of the later ply saw the same line a
    /// ply deeper). A capture ply with no scored ply after it is not kept.
    pub fn records(&self) -> Vec<Record> {
        let mut pos = self.start();
        let losers = pos.rules().losers_win;
        let mut positions = Vec::with_capacity(self.plies.len());
        for &(best, _) in &self.plies {
            positions.push(pos);
            pos.make_move(best);
        }
        // From the last ply back: each ply's side-to-move label, kept when
        // the ply is quiet (its own score) or, in losers variants, with the
        // label of the plies after it.
        let mut records = Vec::new();
        let mut label: Option<i32> = None;
        for (&(best, score), p) in self.plies.iter().zip(&positions).rev() {
            let quiet = quiet_ply(p, best);
            label = if quiet {
                Some(score)
            } else {
                label.map(|s| -s)
            };
            if quiet || losers {
                if let Some(s) = label.filter(|s| s.abs() < RECORD_SCORE_LIMIT) {
                    records.extend(Record::pack(p, s, best, self.result));
                }
            }
        }
        records.reverse();
        records
    }

    /// The position the engine started playing from: `base` after the
    /// opening's moves.
    pub fn start(&self) -> Position {
        let mut pos = self.base;
        for &m in &self.opening {
            pos.make_move(m);
        }
        pos
    }

    /// Appends the game's encoding to `out`. Fails when a move is not legal
    /// in its position or the rules are not the variant's defaults (a log
    /// holds the variant only, so either could not be read back).
    pub fn encode(&self, out: &mut Vec<u8>) -> Result<(), String> {
        let rules = *self.base.rules();
        let variant = self.base.variant();
        if rules != variant.rules() {
            return Err(format!("a game log holds {variant}'s default rules only"));
        }
        out.push(GAME_MARKER);
        out.push(variant.id());
        let fen = self.base.fen();
        if fen == Position::start_with(rules).fen() {
            write_varint(out, 0);
        } else {
            write_varint(out, fen.len() as u64);
            out.extend_from_slice(fen.as_bytes());
        }
        let mut pos = self.base;
        write_varint(out, self.opening.len() as u64);
        for &m in &self.opening {
            write_varint(out, move_index(&pos, m)?);
            pos.make_move(m);
        }
        out.push(self.result);
        write_varint(out, self.plies.len() as u64);
        let mut previous = 0i64;
        for &(best, score) in &self.plies {
            write_varint(out, move_index(&pos, best)?);
            if quiet_ply(&pos, best) {
                let white = i64::from(score) * i64::from(pos.side_to_move().sign());
                write_varint(out, zigzag(white - previous));
                previous = white;
            }
            pos.make_move(best);
        }
        Ok(())
    }

    /// Reads one game from `bytes` at `*at`, moving `*at` past it.
    pub fn decode(bytes: &[u8], at: &mut usize) -> Result<GameLog, String> {
        let start_offset = *at;
        let fail = |what: &str| format!("game at byte {start_offset}: {what}");
        if read_byte(bytes, at)? != GAME_MARKER {
            return Err(fail("no game marker (not a game log, or a damaged one)"));
        }
        let variant_id = read_byte(bytes, at)?;
        let variant = Variant::from_id(variant_id)
            .ok_or_else(|| fail(&format!("unknown variant {variant_id}")))?;
        let fen_length = usize::try_from(read_varint(bytes, at)?).map_err(|_| fail("base"))?;
        let base = if fen_length == 0 {
            Position::start_with(variant.rules())
        } else {
            let fen_bytes = bytes
                .get(*at..at.saturating_add(fen_length))
                .ok_or_else(|| fail("cut in its base position"))?;
            *at += fen_length;
            let fen = std::str::from_utf8(fen_bytes).map_err(|_| fail("base not text"))?;
            Position::from_fen(fen, variant.rules())
                .map_err(|e| fail(&format!("base '{fen}': {e}")))?
        };
        let mut pos = base;
        let opening_count = read_varint(bytes, at)?;
        let mut opening = Vec::with_capacity(opening_count.min(256) as usize);
        for ply in 0..opening_count {
            let m =
                read_move(&pos, bytes, at).map_err(|e| fail(&format!("opening ply {ply}: {e}")))?;
            opening.push(m);
            pos.make_move(m);
        }
        let result = read_byte(bytes, at)?;
        if result > 2 {
            return Err(fail(&format!("result {result}")));
        }
        let count = read_varint(bytes, at)?;
        let mut plies = Vec::with_capacity(count.min(4096) as usize);
        let mut previous = 0i64;
        for ply in 0..count {
            let best = read_move(&pos, bytes, at).map_err(|e| fail(&format!("ply {ply}: {e}")))?;
            let mut score = 0;
            if quiet_ply(&pos, best) {
                let white = previous.wrapping_add(unzigzag(read_varint(bytes, at)?));
                previous = white;
                let stm = if pos.side_to_move() == Color::White {
                    white
                } else {
                    white.wrapping_neg()
                };
                score =
                    i32::try_from(stm).map_err(|_| fail(&format!("ply {ply}: score {white}")))?;
            }
            plies.push((best, score));
            pos.make_move(best);
        }
        Ok(GameLog {
            base,
            opening,
            result,
            plies,
        })
    }
}

/// The index of `m` in the legal moves of `pos`.
fn move_index(pos: &Position, m: Move) -> Result<u64, String> {
    pos.legal_moves()
        .iter()
        .position(|legal| *legal == m)
        .map(|i| i as u64)
        .ok_or_else(|| format!("move {} is not legal in {}", m.0, pos.fen()))
}

/// Reads a move written by [`move_index`] for `pos`.
fn read_move(pos: &Position, bytes: &[u8], at: &mut usize) -> Result<Move, String> {
    let index = read_varint(bytes, at)?;
    let moves = pos.legal_moves();
    usize::try_from(index)
        .ok()
        .and_then(|i| moves.get(i).copied())
        .ok_or_else(|| format!("move {index} of {}", moves.len()))
}

/// Reads every game of a log (`bytes` whole games; anything else is an error).
pub fn decode_all(bytes: &[u8]) -> Result<Vec<GameLog>, String> {
    let mut at = 0;
    let mut games = Vec::new();
    while at < bytes.len() {
        games.push(GameLog::decode(bytes, &mut at)?);
    }
    Ok(games)
}

/// Maps a signed number to an unsigned one, small magnitudes to small numbers.
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// The inverse of [`zigzag`].
fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// Appends `value` as LEB128: seven bits a byte, high bit set on all but the last.
fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads one byte at `*at`.
fn read_byte(bytes: &[u8], at: &mut usize) -> Result<u8, String> {
    let byte = *bytes
        .get(*at)
        .ok_or_else(|| format!("log cut at byte {}", *at))?;
    *at += 1;
    Ok(byte)
}

/// Reads a LEB128 number of at most 64 bits at `*at`.
fn read_varint(bytes: &[u8], at: &mut usize) -> Result<u64, String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = read_byte(bytes, at)?;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(format!("number too long before byte {}", *at))
}

/// The largest game log `rukav unpack` inflates from one zlib file.
const MAX_INFLATED_BYTES: usize = 1 << 32;

/// The game log in `bytes`: as it is, or inflated when it is zlib data
/// (a log starts with [`GAME_MARKER`], a zlib stream with 0x78).
pub fn inflate_if_compressed(bytes: Vec<u8>) -> Result<Vec<u8>, String> {
    if bytes.first() != Some(&0x78) {
        return Ok(bytes);
    }
    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&bytes, MAX_INFLATED_BYTES)
        .map_err(|e| format!("not a game log, and not zlib data that inflates: {e:?}"))
}

/// Command-line arguments of `rukav unpack`.
#[derive(clap::Args, Debug, Clone)]
pub struct UnpackArgs {
    /// Game logs (`datagen --format games`) to read, in order, plain or
    /// zlib-compressed (`nets/data/*.games.z`); `-` reads standard input.
    #[arg(required = true)]
    pub inputs: Vec<std::path::PathBuf>,
    /// The record file to write (replaced if it exists).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// `rukav unpack`: rebuilds the record file that `datagen` would have
/// written from the game logs of the same run.
pub fn main(args: UnpackArgs) -> Result<(), ToolError> {
    use std::io::{Read, Write};
    let file =
        std::fs::File::create(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut writer = std::io::BufWriter::new(file);
    let (mut games, mut positions) = (0u64, 0u64);
    for input in &args.inputs {
        let mut bytes = Vec::new();
        let read = if input.as_os_str() == "-" {
            std::io::stdin().read_to_end(&mut bytes)
        } else {
            std::fs::File::open(input).and_then(|mut f| f.read_to_end(&mut bytes))
        };
        read.map_err(|e| format!("{}: {e}", input.display()))?;
        let bytes =
            inflate_if_compressed(bytes).map_err(|e| format!("{}: {e}", input.display()))?;
        let logs = decode_all(&bytes).map_err(|e| format!("{}: {e}", input.display()))?;
        for log in &logs {
            for record in log.records() {
                writer
                    .write_all(&record.bytes)
                    .map_err(|e| format!("{}: {e}", args.out.display()))?;
                positions += 1;
            }
        }
        games += logs.len() as u64;
    }
    writer
        .flush()
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    writeln!(
        Out::lock(),
        "{games} games, {positions} positions written to {}",
        args.out.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short crazyhouse game with a drop, a capture and a check, after
    /// an opening of two plies from `base`.
    fn sample_from(base: Position) -> GameLog {
        let mut pos = base;
        let mut opening = Vec::new();
        for uci in ["h2h3", "h7h6"] {
            let m = pos.parse_uci_move(uci).expect("legal in the sample");
            opening.push(m);
            pos.make_move(m);
        }
        let mut plies = Vec::new();
        for (i, uci) in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "P@e4"]
            .iter()
            .enumerate()
        {
            let m = pos.parse_uci_move(uci).expect("legal in the sample");
            plies.push((m, [15, -40, 300, -2500, 70, -64000, 1999][i]));
            pos.make_move(m);
        }
        GameLog {
            base,
            opening,
            result: 2,
            plies,
        }
    }

    fn sample() -> GameLog {
        sample_from(Position::start_with(Variant::Crazyhouse.rules()))
    }

    #[test]
    fn antichess_keeps_capture_plies_labelled_by_the_next_scored_ply() {
        let mut pos = Position::start_with(Variant::Antichess.rules());
        let base = pos;
        let mut plies = Vec::new();
        // e3 and b5 are quiet; Bxb5 is compulsory, with no score in a log;
        // e6 is quiet again; the last ply, Bxd7, is a compulsory capture
        // with no scored ply after it.
        for (uci, score) in [
            ("e2e3", 15),
            ("b7b5", -40),
            ("f1b5", 0),
            ("e7e6", 120),
            ("b5d7", 0),
        ] {
            let m = pos.parse_uci_move(uci).expect("legal in the sample");
            plies.push((m, score));
            pos.make_move(m);
        }
        let log = GameLog {
            base,
            opening: Vec::new(),
            result: 0,
            plies,
        };
        let mut bytes = Vec::new();
        log.encode(&mut bytes).unwrap();
        let read = decode_all(&bytes).unwrap();
        for records in [log.records(), read[0].records()] {
            let scores: Vec<i32> = records.iter().map(|r| r.score_white()).collect();
            // Bxb5 (White to move) gets minus e6's score (Black's view
            // 120): -120 for White; the last capture has nothing after it.
            assert_eq!(scores, vec![15, 40, -120, -120]);
        }
        // Crazyhouse keeps the quiet plies only (the other tests' sample).
        assert!(sample().records().len() < sample().plies.len());
    }

    #[test]
    fn a_game_reads_back_as_written() {
        let book = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 4 3";
        let games = [
            sample(),
            sample_from(Position::from_fen(book, Variant::Crazyhouse.rules()).unwrap()),
        ];
        let mut bytes = Vec::new();
        for game in &games {
            game.encode(&mut bytes).unwrap();
        }
        let back = decode_all(&bytes).unwrap();
        assert_eq!(back.len(), 2);
        for (log, game) in back.iter().zip(&games) {
            assert_eq!(log.base.fen(), game.base.fen());
            assert_eq!(log.opening, game.opening);
            assert_eq!(log.start().fen(), game.start().fen());
            assert_eq!(log.result, game.result);
            // The moves come back; the scores of the plies that cannot be
            // records (the two captures, the check) come back as 0.
            let moves: Vec<Move> = game.plies.iter().map(|p| p.0).collect();
            assert_eq!(log.plies.iter().map(|p| p.0).collect::<Vec<_>>(), moves);
            let scores: Vec<i32> = log.plies.iter().map(|p| p.1).collect();
            assert_eq!(scores, vec![15, -40, 0, 0, 70, -64000, 0]);
            let records =
                |g: &GameLog| -> Vec<[u8; 64]> { g.records().iter().map(|r| r.bytes).collect() };
            assert_eq!(records(log), records(game));
        }
        assert_eq!(back[1].start().fullmove_number(), 4);
    }

    #[test]
    fn records_keep_the_quiet_plies_within_the_score_limit() {
        let records = sample().records();
        // e2e4, d7d5 (quiet), e4d5 capture, d8d5 capture, b1c3 quiet,
        // d5e5 check, P@e4 blocks... the check: in check, not kept.
        let scores: Vec<i32> = records.iter().map(|r| r.score_white()).collect();
        assert_eq!(scores, vec![15, 40, 70]);
        assert!(records.iter().all(|r| r.result_white() == 1.0));
    }

    #[test]
    fn damaged_logs_are_errors_not_panics() {
        let mut bytes = Vec::new();
        sample().encode(&mut bytes).unwrap();
        for cut in 0..bytes.len() {
            assert!(
                decode_all(&bytes[..cut]).is_err() || cut == 0,
                "cut at {cut}"
            );
        }
        let mut other = bytes.clone();
        other[0] = 0;
        assert!(decode_all(&other).is_err());
        // marker, variant, empty base, two opening moves, result, ply
        // count: then the first ply's move index.
        assert_eq!(&bytes[..3], &[GAME_MARKER, Variant::Crazyhouse.id(), 0]);
        let mut bad_move = bytes.clone();
        bad_move[8] = 0x7f;
        assert!(decode_all(&bad_move).is_err());
        assert!(decode_all(&[
            GAME_MARKER,
            1,
            0xff,
            0xff,
            0xff,
            0xff,
            0xff,
            0xff,
            0xff,
            0xff,
            0xff,
            0xff
        ])
        .is_err());
    }

    /// Every game log committed under `nets/data/` reads back whole, with
    /// the games and positions its `.sums` file lists (the SHA-256 of the
    /// unpacked records is for `sha256sum` after `rukav unpack`).
    #[test]
    fn committed_game_logs_decode_to_their_listed_counts() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/data");
        let entries = std::fs::read_dir(&dir).expect("nets/data holds the committed runs");
        let mut listed = std::collections::BTreeMap::new();
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "sums") {
                for line in std::fs::read_to_string(&path).unwrap().lines() {
                    let fields: Vec<&str> = line.split_whitespace().collect();
                    if fields.is_empty() || fields[0].starts_with('#') {
                        continue;
                    }
                    assert_eq!(fields.len(), 4, "{}: {line}", path.display());
                    let games: usize = fields[1].parse().unwrap();
                    let positions: usize = fields[2].parse().unwrap();
                    listed.insert(fields[0].to_string(), (games, positions));
                }
            }
        }
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.ends_with(".games.z") {
                continue;
            }
            let (games, positions) = *listed
                .get(&name)
                .unwrap_or_else(|| panic!("{name} is not in a .sums file"));
            let bytes = inflate_if_compressed(std::fs::read(entry.path()).unwrap()).unwrap();
            let logs = decode_all(&bytes).unwrap();
            assert_eq!(logs.len(), games, "{name}");
            let records: usize = logs.iter().map(|log| log.records().len()).sum();
            assert_eq!(records, positions, "{name}");
            seen += 1;
        }
        assert!(seen > 0, "no committed game log was read");
        assert_eq!(seen, listed.len(), "a listed file is missing");
    }

    #[test]
    fn compressed_logs_inflate() {
        let mut bytes = Vec::new();
        sample().encode(&mut bytes).unwrap();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&bytes, 9);
        assert_eq!(inflate_if_compressed(packed.clone()).unwrap(), bytes);
        assert_eq!(inflate_if_compressed(bytes.clone()).unwrap(), bytes);
        assert!(inflate_if_compressed(packed[..packed.len() / 2].to_vec()).is_err());
    }

    #[test]
    fn varints_and_zigzag_round_trip() {
        for value in [0i64, 1, -1, 63, -64, 64, 1 << 40, i64::MAX, i64::MIN] {
            let mut out = Vec::new();
            write_varint(&mut out, zigzag(value));
            let mut at = 0;
            assert_eq!(unzigzag(read_varint(&out, &mut at).unwrap()), value);
            assert_eq!(at, out.len());
        }
    }
}
