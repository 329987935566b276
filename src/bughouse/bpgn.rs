//! BPGN (bughouse PGN): writing a [`Game`] and reading it back by replaying
//! it through the model.
//!
//! Written form:
//!
//! ```text
//! [Event "Rukav arena"]
//! [WhiteA "..."] [BlackA "..."] [WhiteB "..."] [BlackB "..."]
//! [TimeControl "180+2"]
//! [Result "1-0"]
//!
//! 1A. e4 {179.8} 1B. d4 {179.9} 1a. e5 {179.1} 1b. Nf6 {178.3} ...
//! 4A. Qxf7# {171.2} {BlackA checkmated} 1-0
//! ```
//!
//! Moves are in real-time order, each numbered with the mover's move number
//! and its board letter (upper case White, lower case Black), in standard
//! algebraic notation with drops as `N@f3`, each followed by the mover's
//! remaining clock in seconds. `1-0` means team 1 (WhiteA and BlackB) won.
//! The three-board form adds `[Boards "3"]` and `WhiteC`/`BlackC` (board A
//! is the centre). A Gambler promotion is written as the promotion to the
//! piece that was taken, followed by `{gambler B d1}` (board and square of
//! the taken piece). House rules are in a `HouseRules` tag
//! (`PromotionRule=gambler DropMate=false`), which the reader applies.

use super::{board_letter, Form, Game, LoggedMove, Settings};
use crate::position::outcome::{EndReason, Outcome};
use crate::position::Position;
use crate::rules::{set_house_rule, Rules};
use crate::types::{Color, Move, MoveKind, PieceType, Square};

/// SAN without the check suffix.
fn san_base(pos: &Position, m: Move) -> String {
    match m.kind() {
        MoveKind::Drop(k) => format!("{}@{}", k.char().to_ascii_uppercase(), m.to()),
        MoveKind::Castle => {
            if m.to().file() > m.from().file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            }
        }
        kind => {
            let moved = pos.moved_kind(m);
            let capture = pos.is_capture(m);
            let mut s = String::new();
            if moved == PieceType::Pawn {
                if capture {
                    s.push((b'a' + m.from().file()) as char);
                    s.push('x');
                }
                s.push_str(&m.to().to_string());
                if let MoveKind::Promotion(p) = kind {
                    s.push('=');
                    s.push(p.char().to_ascii_uppercase());
                }
            } else {
                s.push(moved.char().to_ascii_uppercase());
                let rivals: Vec<Square> = pos
                    .legal_moves()
                    .iter()
                    .filter(|o| {
                        !o.is_drop()
                            && !o.is_castle()
                            && o.to() == m.to()
                            && o.from() != m.from()
                            && pos.moved_kind(**o) == moved
                    })
                    .map(|o| o.from())
                    .collect();
                if !rivals.is_empty() {
                    let same_file = rivals.iter().any(|r| r.file() == m.from().file());
                    let same_rank = rivals.iter().any(|r| r.rank() == m.from().rank());
                    if !same_file {
                        s.push((b'a' + m.from().file()) as char);
                    } else if !same_rank {
                        s.push((b'1' + m.from().rank()) as char);
                    } else {
                        s.push_str(&m.from().to_string());
                    }
                }
                if capture {
                    s.push('x');
                }
                s.push_str(&m.to().to_string());
            }
            s
        }
    }
}

/// Standard algebraic notation of a legal move: `Nf3`, `exd5`, `e8=Q`,
/// `O-O`, drops `N@f3`; `+` for check, `#` for mate (bughouse mate rule).
pub fn san(pos: &Position, m: Move) -> String {
    let mut s = san_base(pos, m);
    let mut after = *pos;
    after.make_move(m);
    if after.in_check() {
        let mate = matches!(
            after.outcome(),
            Some(Outcome::Win {
                reason: EndReason::Checkmate,
                ..
            })
        );
        s.push(if mate { '#' } else { '+' });
    }
    s
}

/// Parses SAN (or UCI notation) into a legal move of `pos`.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, String> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    let t = t.replace("0-0-0", "O-O-O").replace("0-0", "O-O");
    let norm = |s: &str| -> String {
        if let Some((p, sq)) = s.split_once('@') {
            format!("{}@{}", p.to_ascii_uppercase(), sq)
        } else {
            s.to_string()
        }
    };
    let want = norm(&t);
    for m in pos.legal_moves().iter() {
        if san_base(pos, *m) == want {
            return Ok(*m);
        }
    }
    pos.parse_uci_move(&t)
        .map_err(|_| format!("illegal or unknown move '{text}' in {}", pos.fen()))
}

/// Clock in seconds with one decimal (`179.3`).
fn seconds(ms: i64) -> String {
    let tenths = (ms.max(0) + 50) / 100;
    format!("{}.{}", tenths / 10, tenths % 10)
}

fn move_number(m: &LoggedMove) -> String {
    let l = board_letter(m.board);
    format!(
        "{}{}.",
        m.number,
        if m.color.is_white() {
            l
        } else {
            l.to_ascii_lowercase()
        }
    )
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes one game: the given tags (in order; `Result` is added from the
/// game), the moves, the result comment and the result.
pub fn write_game(tags: &[(String, String)], game: &Game) -> String {
    let mut out = String::new();
    let result = game.result();
    let result_str = result.map_or("*", |r| r.result_str());
    for (k, v) in tags {
        if k != "Result" {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
    }
    out.push_str(&format!("[Result \"{result_str}\"]\n\n"));
    // Groups are never split across lines: a move with its comments, and
    // the result comment with the result.
    let mut groups: Vec<String> = Vec::new();
    for m in game.moves() {
        let mut g = format!("{} {}", move_number(m), m.san);
        if let Some((b, sq)) = m.gambler {
            g.push_str(&format!(" {{gambler {} {sq}}}", board_letter(b)));
        }
        if let Some(c) = m.clock_ms {
            g.push_str(&format!(" {{{}}}", seconds(c)));
        }
        groups.push(g);
    }
    match result {
        Some(r) => groups.push(format!(
            "{{{}}} {result_str}",
            r.reason.replace(['{', '}'], "")
        )),
        None => groups.push(result_str.to_string()),
    }
    let mut line = String::new();
    for t in groups {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A game read back from BPGN.
#[derive(Clone, Debug)]
pub struct ReadGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// The moves replayed through the model (untimed), clocks from the comments.
    pub game: Game,
    /// The clock comments, one per move (`None` where missing), in ms.
    pub clocks: Vec<Option<i64>>,
    /// The comment before the result (`WhiteA checkmated`).
    pub result_comment: Option<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

impl ReadGame {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let value = rest.strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

enum Token {
    Number(usize, Color),
    Comment(String),
    Result(String),
    Word(String),
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '{' {
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    Some('}') => break,
                    Some(ch) => s.push(ch),
                    None => return Err("unterminated comment".into()),
                }
            }
            out.push(Token::Comment(s.trim().to_string()));
        } else {
            let mut s = String::new();
            while let Some(&ch) = chars.peek() {
                if ch.is_whitespace() || ch == '{' {
                    break;
                }
                s.push(ch);
                chars.next();
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&s.as_str()) {
                out.push(Token::Result(s));
            } else if let Some(num) = s.strip_suffix('.').filter(|n| n.len() >= 2) {
                let letter = num.chars().last().unwrap_or('?');
                let digits = num.get(..num.len() - letter.len_utf8()).unwrap_or("");
                let board = match letter.to_ascii_uppercase() {
                    'A' => 0,
                    'B' => 1,
                    'C' => 2,
                    _ => return Err(format!("bad move number '{s}'")),
                };
                if digits.parse::<u32>().is_err() {
                    return Err(format!("bad move number '{s}'"));
                }
                let color = if letter.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                out.push(Token::Number(board, color));
            } else {
                out.push(Token::Word(s));
            }
        }
    }
    Ok(out)
}

fn parse_seconds(s: &str) -> Option<i64> {
    let v: f64 = s.trim().parse().ok()?;
    if v.is_finite() {
        Some((v * 1000.0).round() as i64)
    } else {
        None
    }
}

fn replay(tags: Vec<(String, String)>, movetext: &str, base: Rules) -> Result<ReadGame, String> {
    let find = |n: &str| tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let mut rules = base;
    if let Some(h) = find("HouseRules") {
        for item in h.split_whitespace() {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("bad HouseRules item '{item}'"))?;
            set_house_rule(&mut rules, k, v)?;
        }
    }
    let mut settings = Settings::new(rules);
    if find("Boards").as_deref() == Some("3") || find("WhiteC").is_some() {
        settings.form = Form::ThreeBoards;
    }
    let mut game = Game::new(settings);
    let mut clocks = Vec::new();
    let mut result_comment = None;
    let mut result = "*".to_string();
    let mut pending: Option<(usize, Color)> = None;
    let tokens = tokenize(movetext)?;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Number(b, c) => pending = Some((*b, *c)),
            Token::Word(w) => {
                let (b, c) = pending
                    .take()
                    .ok_or_else(|| format!("move '{w}' without a move number"))?;
                if b >= game.board_count() {
                    return Err(format!("board {} does not exist", board_letter(b)));
                }
                if game.to_move(b) != c {
                    return Err(format!(
                        "move '{w}' on board {} is not by the side to move",
                        board_letter(b)
                    ));
                }
                let pos = *game.position(b);
                let m = parse_san(&pos, w)?;
                // Gambler: the next comment names the piece taken.
                let gambler = match tokens.get(i + 1) {
                    Some(Token::Comment(text)) if text.starts_with("gambler") => {
                        let f: Vec<&str> = text.split_whitespace().collect();
                        let gb = match f.get(1).map(|s| s.to_ascii_uppercase()).as_deref() {
                            Some("A") => 0,
                            Some("B") => 1,
                            Some("C") => 2,
                            _ => return Err(format!("bad gambler comment '{text}'")),
                        };
                        let sq = f
                            .get(2)
                            .and_then(|s| Square::parse(s))
                            .ok_or_else(|| format!("bad gambler comment '{text}'"))?;
                        i += 1;
                        Some((gb, sq))
                    }
                    _ => None,
                };
                game.play(b, m, 0).map_err(|e| format!("'{w}': {e}"))?;
                if game.gambler_pending().is_some() {
                    let (gb, sq) = gambler.ok_or_else(|| {
                        format!("Gambler promotion '{w}' without a gambler comment")
                    })?;
                    game.complete_gambler(gb, sq, 0)
                        .map_err(|e| format!("'{w}': {e}"))?;
                }
                clocks.push(None);
            }
            Token::Comment(text) => {
                if let (Some(ms), Some(last)) = (parse_seconds(text), clocks.last_mut()) {
                    if last.is_none() {
                        *last = Some(ms);
                        i += 1;
                        continue;
                    }
                }
                result_comment = Some(text.clone());
            }
            Token::Result(r) => result = r.clone(),
        }
        i += 1;
    }
    Ok(ReadGame {
        tags,
        game,
        clocks,
        result_comment,
        result,
    })
}

/// Reads every game of a BPGN text and replays it (legality of every move,
/// pockets, Gambler choices) under `rules` plus the file's `HouseRules`.
pub fn read(text: &str, rules: Rules) -> Result<Vec<ReadGame>, String> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut in_moves = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') && !in_moves {
            if let Some(t) = parse_tag(l) {
                tags.push(t);
            }
        } else if l.starts_with('[') {
            let n = games.len() + 1;
            games.push(
                replay(std::mem::take(&mut tags), &movetext, rules)
                    .map_err(|e| format!("game {n}: {e}"))?,
            );
            movetext.clear();
            in_moves = false;
            if let Some(t) = parse_tag(l) {
                tags.push(t);
            }
        } else if !l.is_empty() {
            in_moves = true;
            movetext.push_str(l);
            movetext.push('\n');
        }
    }
    if !tags.is_empty() || !movetext.trim().is_empty() {
        let n = games.len() + 1;
        games.push(replay(tags, &movetext, rules).map_err(|e| format!("game {n}: {e}"))?);
    }
    Ok(games)
}

/// Replays every game of a BPGN file and checks each against its result:
/// a game that ends by mate on the board must carry that result (games
/// ended by the clock, a forfeit or an agreement cannot be checked from the
/// moves and are counted apart). Returns a summary line, or the first
/// problem.
pub fn check(text: &str, rules: Rules) -> Result<String, String> {
    let games = read(text, rules)?;
    let (mut by_moves, mut other) = (0, 0);
    for (i, g) in games.iter().enumerate() {
        let n = i + 1;
        if let Some(r) = g.game.result() {
            if r.result_str() != g.result {
                return Err(format!(
                    "game {n}: the moves end with {} ({}) but the result is {}",
                    r.result_str(),
                    r.reason,
                    g.result
                ));
            }
            by_moves += 1;
        } else {
            other += 1;
        }
    }
    Ok(format!(
        "{} games replayed: {by_moves} end on the board as recorded, {other} end off the board (clock, forfeit, draw)",
        games.len()
    ))
}
