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

use super::out::{Out, ToolError};
use rukav::bughouse::{board_letter, Form, Game, LoggedMove, Settings};
use rukav::position::notation::parse_san;
use rukav::protocol::options::apply_rules_option;
use rukav::{Color, Rules, Square};
use std::path::Path;

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
            apply_rules_option(&mut rules, k, v).map_err(|e| e.to_string())?;
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
                let m = parse_san(&pos, w).map_err(|e| e.to_string())?;
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

/// `rukav bpgn FILE`: [`check`] on the bughouse games of FILE; prints the
/// summary line.
pub fn main(file: &Path) -> Result<(), ToolError> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let line = check(&text, rukav::Variant::Bughouse.rules())?;
    writeln!(Out::lock(), "{line}")
}

/// Replays every game of a BPGN file and checks each against its result:
/// a game that ends by mate on the board must carry that result (games
/// ended by the clock, a forfeit or an agreement cannot be checked from the
/// moves and are counted apart). Returns a summary line, or the first
/// problem.
pub fn check(text: &str, rules: Rules) -> Result<String, String> {
    let games = read(text, rules)?;
    let (mut by_moves, mut other) = (0, 0);
    let mut off_board: Vec<(String, usize)> = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let n = match g.tag("Round") {
            Some(round) => format!("{} (round {round})", i + 1),
            None => (i + 1).to_string(),
        };
        if let Some(ms) = g.clocks.iter().flatten().find(|&&ms| ms < 0) {
            return Err(format!("game {n}: a clock reads {ms} ms"));
        }
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
            let why = g
                .result_comment
                .clone()
                .unwrap_or_else(|| "no reason given".into());
            match off_board.iter_mut().find(|(w, _)| *w == why) {
                Some((_, k)) => *k += 1,
                None => off_board.push((why, 1)),
            }
        }
    }
    let mut summary = format!(
        "{} games replayed: {by_moves} end on the board as recorded, {other} end off the board (clock, forfeit, draw)",
        games.len()
    );
    if !off_board.is_empty() {
        let list: Vec<String> = off_board.iter().map(|(w, k)| format!("{w}: {k}")).collect();
        summary.push_str(&format!("; off the board: {}", list.join("; ")));
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rukav::bughouse::{Team, TimeControl};
    use rukav::rules::PromotionRule;
    use rukav::{Position, Variant};

    fn rules() -> Rules {
        Variant::Bughouse.rules()
    }

    fn mv_at(game: &mut Game, board: usize, uci: &str, now: u64) {
        let pos = *game.position(board);
        let m = pos.parse_uci_move(uci).unwrap();
        game.play(board, m, now).unwrap();
    }

    #[test]
    fn bpgn_written_and_read_back() {
        let mut settings = Settings::new(rules());
        settings.time = Some(TimeControl {
            base_ms: 60_000,
            inc_ms: 1000,
        });
        let mut g = Game::new(settings);
        let moves = [
            (0, "e2e4", 100),
            (1, "d2d4", 150),
            (0, "e7e5", 300),
            (1, "e7e5", 350),
            (1, "d4e5", 400), // Black A gets a pawn
            (0, "f1c4", 500),
            (0, "P@a6", 600),
            (0, "d1h5", 700),
            (0, "g8f6", 800),
            (0, "h5f7", 900),
        ];
        for (b, m, t) in moves {
            mv_at(&mut g, b, m, t);
        }
        assert!(g.is_over());
        let tags = vec![
            ("Event".to_string(), "test".to_string()),
            ("WhiteA".to_string(), "a".to_string()),
            ("BlackA".to_string(), "b".to_string()),
            ("WhiteB".to_string(), "c".to_string()),
            ("BlackB".to_string(), "d".to_string()),
            ("TimeControl".to_string(), "60+1".to_string()),
        ];
        let text = write_game(&tags, &g);
        assert!(text.contains("[Result \"1-0\"]"), "{text}");
        assert!(text.contains("1A. e4 {60.9}"), "{text}");
        assert!(text.contains("2a. P@a6"), "{text}");
        assert!(text.contains("Qxf7#"), "{text}");
        assert!(text.contains("{BlackA checkmated} 1-0"), "{text}");
        let twice = format!("{text}{text}");
        let games = read(&twice, rules()).unwrap();
        assert_eq!(games.len(), 2);
        for rg in games {
            assert_eq!(rg.tag("WhiteB"), Some("c"));
            assert_eq!(rg.result, "1-0");
            assert_eq!(rg.result_comment.as_deref(), Some("BlackA checkmated"));
            assert_eq!(rg.game.moves().len(), g.moves().len());
            for (x, y) in rg.game.moves().iter().zip(g.moves()) {
                assert_eq!((x.board, x.mv, &x.san), (y.board, y.mv, &y.san));
            }
            for (c, m) in rg.clocks.iter().zip(g.moves()) {
                let want = m.clock_ms.unwrap();
                assert!((c.unwrap() - want).abs() <= 50);
            }
            for b in 0..2 {
                assert_eq!(rg.game.position(b).fen(), g.position(b).fen());
            }
            assert_eq!(rg.game.result().unwrap().winner, Some(Team::One));
        }
        // A corrupted move is reported, not accepted.
        let bad = text.replace("Qxf7#", "Qxf8");
        assert!(read(&bad, rules()).is_err());
    }

    #[test]
    fn a_gambler_promotion_is_written_with_its_square() {
        let mut r = rules();
        r.promotion_rule = PromotionRule::Gambler;
        let a = Position::from_fen("k2r4/4P3/8/8/8/8/8/4K3[] w - - 0 1", r).unwrap();
        let b = Position::start_with(r);
        let mut g = Game::with_positions(Settings::new(r), vec![a, b]).unwrap();
        mv_at(&mut g, 0, "e7e8q", 0);
        g.complete_gambler(1, Square::parse("h1").unwrap(), 0)
            .unwrap();
        let tags = vec![(
            "HouseRules".to_string(),
            "PromotionRule=gambler".to_string(),
        )];
        let text = write_game(&tags, &g);
        assert!(text.contains("{gambler B h1}"), "{text}");
        assert!(text.contains("e8=R"), "{text}");
    }

    #[test]
    fn the_check_finds_a_result_the_moves_contradict() {
        let mut g = Game::new(Settings::new(rules()));
        // Qxf7# touches the king: no dropped piece can block it.
        for m in ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"] {
            mv_at(&mut g, 0, m, 0);
        }
        let text = write_game(&[], &g);
        let summary = check(&text, rules()).unwrap();
        assert!(
            summary.starts_with("1 games replayed: 1 end on the board"),
            "{summary}"
        );
        let wrong = text
            .replace("[Result \"1-0\"]", "[Result \"0-1\"]")
            .replace("} 1-0", "} 0-1");
        assert!(check(&wrong, rules()).is_err(), "{wrong}");
        assert_eq!(g.result().unwrap().winner, Some(Team::One));
    }
}
