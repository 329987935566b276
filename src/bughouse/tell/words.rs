//! The words of partner talk: pieces, moves, filler and chat.

use crate::types::PieceType;

/// A piece named by a word: a letter or a name, singular or plural
/// (`n`, `knight`, `knights`, `horse`).
pub fn piece_name(w: &str) -> Option<PieceType> {
    Some(match w {
        "p" | "pawn" | "pawns" | "pawnie" | "pawnies" => PieceType::Pawn,
        "n" | "knight" | "knights" | "horse" | "horses" | "horsey" | "horsie" | "horsies"
        | "nite" | "nites" | "night" | "kn" | "kt" | "knite" => PieceType::Knight,
        "b" | "bishop" | "bishops" | "bish" | "bishes" => PieceType::Bishop,
        "r" | "rook" | "rooks" => PieceType::Rook,
        "q" | "queen" | "queens" | "queenie" => PieceType::Queen,
        _ => return misspelt_piece(w),
    })
}

/// A long piece name typed with one slip (`kinght`, `bihsop`, `qeen`,
/// `knigt`): one letter left out, added, changed, or two neighbours
/// swapped, the first letter right. Only `knight`, `bishop` and `queen`:
/// the short names have real words at that distance (`rook`: `rock`,
/// `took`, `look`).
fn misspelt_piece(w: &str) -> Option<PieceType> {
    let w = w.strip_suffix('s').unwrap_or(w);
    if !w.is_ascii() || w.len() < 4 {
        return None;
    }
    [
        ("knight", PieceType::Knight),
        ("bishop", PieceType::Bishop),
        ("queen", PieceType::Queen),
    ]
    .into_iter()
    .find(|(name, _)| {
        w.as_bytes()[0] == name.as_bytes()[0] && one_slip(w.as_bytes(), name.as_bytes())
    })
    .map(|(_, k)| k)
}

/// Whether `a` is `b` with at most one letter left out, added or changed,
/// or two neighbours swapped.
fn one_slip(a: &[u8], b: &[u8]) -> bool {
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[common..], &b[common..]);
    match (a.len(), b.len()) {
        (0, 0) => true,
        (x, y) if x == y => {
            a[1..] == b[1..] || (x >= 2 && a[0] == b[1] && a[1] == b[0] && a[2..] == b[2..])
        }
        (x, y) if x + 1 == y => a == &b[1..],
        (x, y) if x == y + 1 => &a[1..] == b,
        _ => false,
    }
}

/// The pieces a word names: a name (`knight`), a kind of piece as players
/// group them (`diagonals`: p, b, q, as Sjeng's `+d`; `heavy`: r, q, as
/// `+h`; `minors`: n, b), or two to five different piece letters run
/// together (`nb`, `rq`), as `+nb` writes them.
pub fn pieces_of(w: &str) -> Option<Vec<PieceType>> {
    use PieceType::*;
    if let Some(k) = piece_name(w) {
        return Some(vec![k]);
    }
    match w {
        "diagonal" | "diagonals" | "diag" | "diags" => Some(vec![Pawn, Bishop, Queen]),
        "heavy" | "heavies" => Some(vec![Rook, Queen]),
        "minor" | "minors" => Some(vec![Knight, Bishop]),
        _ => letters(w, "pnbrq"),
    }
}

/// A drop or a piece move written with its square (`n@f7`, `nf7`, `q@g7#`)
/// where a tell says it mates: the piece, and whether the word ends in `#`.
fn mating_square_piece(w: &str) -> Option<(PieceType, bool)> {
    let (w, hash) = match w.strip_suffix('#') {
        Some(w) => (w, true),
        None => (w.strip_suffix('+').unwrap_or(w), false),
    };
    let (piece, square) = w.split_at_checked(1)?;
    let square = square.strip_prefix('@').unwrap_or(square);
    let k = piece_name(piece)?;
    is_square(square).then_some((k, hash))
}

/// The words of a clause that says a drop mates (`n@f7 mates`, `R@h8 is
/// mate`, `q@g7#`) with each such drop written as its piece (`n mates`), so
/// that the drop is read as the piece it needs; other clauses unchanged
/// (`n@f7` alone is a dictated move).
pub fn drops_as_pieces(words: Vec<String>) -> Vec<String> {
    let mating = words
        .iter()
        .any(|w| is_mate(w) || (w.ends_with('#') && mating_square_piece(w).is_some()));
    if !mating {
        return words;
    }
    let mut out = Vec::with_capacity(words.len() + 1);
    for w in words {
        match mating_square_piece(&w) {
            Some((k, hash)) => {
                out.push(k.char().to_string());
                if hash {
                    out.push("#".to_string());
                }
            }
            None => out.push(w),
        }
    }
    out
}

/// Piece letters run together (1 to 5, each once) from `allowed`, with
/// Sjeng's `d` (the diagonal pieces: p, b, q) and `h` (the heavy ones:
/// r, q) where `allowed` has them.
pub fn letters(w: &str, allowed: &str) -> Option<Vec<PieceType>> {
    let chars: Vec<char> = w.chars().collect();
    if !(1..=5).contains(&chars.len()) || !chars.iter().all(|c| allowed.contains(*c)) {
        return None;
    }
    if chars
        .iter()
        .enumerate()
        .any(|(i, c)| chars[i + 1..].contains(c))
    {
        return None;
    }
    let mut out = Vec::new();
    for c in chars {
        let kinds = match c {
            'd' => vec![PieceType::Pawn, PieceType::Bishop, PieceType::Queen],
            'h' => vec![PieceType::Rook, PieceType::Queen],
            c => match PieceType::from_char(c) {
                Some(PieceType::King) | None => return None,
                Some(k) => vec![k],
            },
        };
        for k in kinds {
            if !out.contains(&k) {
                out.push(k);
            }
        }
    }
    Some(out)
}

/// A list of pieces from `words[i]` on: pieces joined by `or`, `and`,
/// `n/b`; returns them and the index after the list.
pub fn piece_list(words: &[&str], mut i: usize) -> Option<(Vec<PieceType>, usize)> {
    // "heavy pieces", "a minor piece": the word after a group name.
    let noun = |words: &[&str], i: usize| {
        i + usize::from(matches!(words.get(i), Some(&("piece" | "pieces"))))
    };
    // "2 knights", "two pawns": a count before the piece.
    let count = |w: &str| matches!(w, "2" | "3" | "4" | "two" | "three" | "four" | "couple");
    if words.get(i).is_some_and(|w| count(w))
        && words.get(i + 1).is_some_and(|w| pieces_of(w).is_some())
    {
        i += 1;
    }
    let mut out: Vec<PieceType> = pieces_of(words.get(i)?)?;
    i = noun(words, i + 1);
    while let (Some(&join), Some(next)) = (words.get(i), words.get(i + 1)) {
        let Some(more) = pieces_of(next).filter(|_| matches!(join, "or" | "and")) else {
            break;
        };
        for k in more {
            if !out.contains(&k) {
                out.push(k);
            }
        }
        i = noun(words, i + 2);
    }
    Some((out, i))
}

/// A square joined to the next by a hyphen (`e2-e4`) as one word (`e2e4`).
pub fn join_squares(w: &str) -> String {
    let b = w.as_bytes();
    if b.len() == 5 && b[2] == b'-' && is_square(&w[0..2]) && is_square(&w[3..5]) {
        format!("{}{}", &w[0..2], &w[3..5])
    } else {
        w.to_string()
    }
}

fn is_square(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1])
}

/// A move in coordinate notation, as UCI writes it: `e2e4`, `e7e8q`,
/// `N@f7` (a drop: the piece letter in upper case). Algebraic notation
/// (`Nf3`) needs the position to be read and is not a move here.
pub fn uci_move(w: &str) -> Option<String> {
    if let Some((piece, to)) = w.split_once('@') {
        let k = piece_name(piece).filter(|_| piece.len() == 1)?;
        return is_square(to).then(|| format!("{}@{to}", k.char().to_ascii_uppercase()));
    }
    let ok = w.is_ascii()
        && match w.len() {
            4 => is_square(&w[0..2]) && is_square(&w[2..4]) && w[0..2] != w[2..4],
            5 => {
                is_square(&w[0..2])
                    && is_square(&w[2..4])
                    && matches!(&w[4..5], "q" | "r" | "b" | "n" | "k")
            }
            _ => false,
        };
    ok.then(|| w.to_string())
}

/// Words that carry no meaning of their own in a tell.
pub fn is_filler(w: &str) -> bool {
    matches!(
        w,
        "i" | "a"
            | "an"
            | "the"
            | "him"
            | "her"
            | "them"
            | "he"
            | "she"
            | "they"
            | "it"
            | "its"
            | "this"
            | "that"
            | "please"
            | "pls"
            | "plz"
            | "plox"
            | "just"
            | "really"
            | "very"
            | "so"
            | "too"
            | "badly"
            | "urgently"
            | "urgent"
            | "asap"
            | "desperately"
            | "now"
            | "some"
            | "one"
            | "another"
            | "more"
            | "you"
            | "u"
            | "ya"
            | "can"
            | "could"
            | "would"
            | "will"
            | "to"
            | "of"
            | "on"
            | "at"
            | "be"
            | "is"
            | "are"
            | "am"
            | "was"
            | "my"
            | "your"
            | "ur"
            | "his"
            | "hey"
            | "yo"
            | "dude"
            | "bro"
            | "man"
            | "partner"
            | "pard"
            | "partna"
            | "buddy"
            | "pal"
            | "quickly"
            | "right"
            | "still"
            | "yet"
            | "any"
            | "anymore"
            | "again"
            | "we"
            | "were"
            | "us"
            | "do"
            | "let"
            | "lets"
            | "opp"
            | "opponent"
            | "oh"
            | "here"
            | "well"
            | "mean"
            | "think"
    )
}

/// Words that ask for nothing: a clause of them alone is chat.
pub fn is_chat(w: &str) -> bool {
    is_strong_chat(w) || is_chat_companion(w)
}

/// Chat words that say something on their own (`hi`, `gg`, `thanks`).
pub fn is_strong_chat(w: &str) -> bool {
    matches!(
        w,
        "hi" | "hello"
            | "hey"
            | "hiya"
            | "howdy"
            | "greetings"
            | "welcome"
            | "gg"
            | "gl"
            | "hf"
            | "glhf"
            | "thanks"
            | "thank"
            | "thx"
            | "ty"
            | "tyvm"
            | "ok"
            | "okay"
            | "k"
            | "kk"
            | "np"
            | "lol"
            | "haha"
            | "hehe"
            | "nice"
            | "wow"
            | "sorry"
            | "sry"
            | "mb"
            | "oops"
            | "yes"
            | "yeah"
            | "yep"
            | "yup"
            | "y"
            | "no"
            | "nope"
            | "maybe"
            | "ooops"
            | "nah"
            | "wp"
            | "cool"
            | "great"
            | "good"
            | "sure"
            | "hmm"
            | "damn"
            | "ugh"
            | "argh"
            | "omg"
            | "bye"
            | "cya"
            | "roger"
            | "noted"
            | "understood"
            | "lucky"
            | "played"
            | "well"
    )
}

/// Words that are chat only beside a word of [`is_strong_chat`] (`good
/// game`, `my bad`, `nice move`).
pub fn is_chat_companion(w: &str) -> bool {
    matches!(
        w,
        "move"
            | "mate"
            | "checkmate"
            | "have"
            | "game"
            | "bad"
            | "for"
            | "luck"
            | "fun"
            | "job"
            | "shot"
            | "try"
            | "one"
            | "my"
            | "there"
            | "all"
            | "got"
            | "see"
            | "again"
            | "you"
            | "u"
            | "i"
            | "a"
            | "too"
            | "much"
            | "very"
            | "the"
            | "partner"
            | "pard"
            | "will"
            | "do"
            | "on"
    )
}

/// Words of mating: `mate`, `mates`, `mating`, `checkmate`, `#` (not
/// `mated`: the speaker is).
pub fn is_mate(w: &str) -> bool {
    matches!(
        w,
        "mate" | "mates" | "mating" | "checkmate" | "checkmates" | "#" | "matein"
    )
}

/// The speaker as a subject: `i`, `im`, `ill`, `ive`.
pub fn is_first_person(w: &str) -> bool {
    matches!(w, "i" | "im" | "ill" | "ive")
}

/// Words of negation.
pub fn is_negation(w: &str) -> bool {
    matches!(
        w,
        "dont"
            | "not"
            | "no"
            | "never"
            | "doesnt"
            | "cant"
            | "cannot"
            | "wont"
            | "isnt"
            | "arent"
            | "didnt"
            | "shouldnt"
            | "wouldnt"
            | "nothing"
            | "none"
            | "stop"
            | "avoid"
            | "nor"
    )
}

/// `Some(true)` when the words have a word of mating followed by `me`
/// (`mates me`: a piece that mates the speaker), `Some(false)` for a word
/// of mating without it, `None` without one.
pub fn mate_word(c: &[&str]) -> Option<bool> {
    let i = c.iter().position(|w| is_mate(w))?;
    Some(c.get(i + 1) == Some(&"me"))
}
