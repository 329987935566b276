//! The win/draw/loss model behind `UCI_ShowWDL`: from a score (centipawns,
//! side to move's view) to the expected share of wins, draws and losses in
//! per mille, as Stockfish reports them (`info ... wdl 412 380 208`).
//!
//! Per variant the model is a pair of logistic curves,
//!
//! ```text
//! W = 1000 / (1 + exp(-(score - a) / b))
//! L = 1000 / (1 + exp(-(-score - a) / b))
//! D = 1000 - W - L
//! ```
//!
//! where `a` (the score at which a win is as likely as not) and `b` (how
//! fast the curve rises) are quadratic in a phase variable `m` of the
//! position: the move number in the drop variants (their material never
//! leaves the game), the material on the board otherwise (fewer pieces,
//! more draws). `a >= 0` keeps `W + L <= 1000`.
//!
//! The parameters are fitted by maximum likelihood to self-play games with
//! `rukav wdl` (`src/tools/wdl.rs`); [`model`] gives each fitted model with
//! the command and the data it came from. Variants without data of their
//! own use a relative's model (bughouse: crazyhouse; giveaway: antichess;
//! King's chess: chess).

use crate::position::Position;
use crate::rules::Variant;
use crate::search::Score;
use crate::types::{Color, PieceType};

/// The phase variable a model's parameters depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The full-move number, at most [`MOVE_CAP`]; `m = moves / 32`.
    MoveNumber,
    /// The material of both sides on the board and in hand (P 1, N 3,
    /// B 3, R 5, Q 9; 78 at the start), at most [`MATERIAL_CAP`];
    /// `m = material / 26`.
    Material,
}

/// Move numbers beyond this count as this.
pub const MOVE_CAP: u32 = 100;
/// Material beyond this counts as this.
pub const MATERIAL_CAP: u32 = 78;

impl Input {
    /// The raw phase value of `pos` (move number or material), capped.
    pub fn raw(self, pos: &Position) -> u32 {
        match self {
            Input::MoveNumber => pos.fullmove_number().clamp(1, MOVE_CAP),
            Input::Material => {
                const VALUE: [u32; 5] = [1, 3, 3, 5, 9];
                let mut sum = 0;
                for c in Color::ALL {
                    for k in PieceType::POCKET {
                        let n = pos.pieces(c, k).count() + u32::from(pos.pocket(c, k));
                        sum += VALUE[k.index()] * n;
                    }
                }
                sum.min(MATERIAL_CAP)
            }
        }
    }

    /// The phase variable `m` of a raw value.
    pub fn scaled(self, raw: u32) -> f64 {
        match self {
            Input::MoveNumber => f64::from(raw.clamp(1, MOVE_CAP)) / 32.0,
            Input::Material => f64::from(raw.min(MATERIAL_CAP)) / 26.0,
        }
    }

    /// The name `rukav wdl --input` takes.
    pub fn name(self) -> &'static str {
        match self {
            Input::MoveNumber => "move",
            Input::Material => "material",
        }
    }
}

/// One variant's model: `a(m) = a[0] + a[1] m + a[2] m²`, likewise `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// The phase variable.
    pub input: Input,
    /// Coefficients of `a` (centipawns).
    pub a: [f64; 3],
    /// Coefficients of `b` (centipawns).
    pub b: [f64; 3],
}

/// The curves of one position: `a` and `b` at its phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    /// Score (cp) at which a win is as likely as not (>= 0).
    pub a: f64,
    /// Scale (cp) of the logistic curves (> 0).
    pub b: f64,
}

/// Win, draw and loss, per mille of the side to move; they sum to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Wins per mille.
    pub win: u32,
    /// Draws per mille.
    pub draw: u32,
    /// Losses per mille.
    pub loss: u32,
}

impl Model {
    /// The curves at phase variable `m`.
    pub fn curve_at(&self, m: f64) -> Curve {
        let poly = |c: &[f64; 3]| c[0] + c[1] * m + c[2] * m * m;
        Curve {
            a: poly(&self.a).max(0.0),
            b: poly(&self.b).max(1.0),
        }
    }

    /// The curves for `pos`.
    pub fn curve(&self, pos: &Position) -> Curve {
        self.curve_at(self.input.scaled(self.input.raw(pos)))
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Curve {
    /// Probabilities (win, draw, loss) of a centipawn score.
    pub fn probabilities(&self, cp: f64) -> (f64, f64, f64) {
        let w = logistic((cp - self.a) / self.b);
        let l = logistic((-cp - self.a) / self.b);
        (w, (1.0 - w - l).max(0.0), l)
    }

    /// The WDL of a score; a mate gives 1000/0/0 (or 0/0/1000 when mated).
    pub fn wdl(&self, score: Score) -> Wdl {
        match score {
            Score::Mate(m) if m > 0 => Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            },
            Score::Mate(_) => Wdl {
                win: 0,
                draw: 0,
                loss: 1000,
            },
            Score::Cp(cp) => {
                let (w, _, l) = self.probabilities(f64::from(cp));
                let win = (w * 1000.0).round().clamp(0.0, 1000.0) as u32;
                let loss = ((l * 1000.0).round() as u32).min(1000 - win);
                Wdl {
                    win,
                    draw: 1000 - win - loss,
                    loss,
                }
            }
        }
    }
}

/// The model of `variant`.
pub fn model(variant: Variant) -> &'static Model {
    match variant {
        Variant::Crazyhouse | Variant::Bughouse => &CRAZYHOUSE,
        Variant::Antichess | Variant::Giveaway | Variant::Suicide => &ANTICHESS,
        Variant::Chess | Variant::KingsChess => &CHESS,
    }
}

/// The curves for a position, by its variant's model.
pub fn curve(pos: &Position) -> Curve {
    model(pos.variant()).curve(pos)
}

// The fitted models. Data: `rukav datagen` self-play at 2000 nodes per
// move (docs/measurements.md, "The WDL model", has the commands); log-loss in nats per
// position, against the constant W/D/L frequencies of the data.

/// Crazyhouse (bughouse uses it too): quadratic in the move number (the
/// material of a crazyhouse game hardly changes). Fitted with
/// `rukav wdl --variant crazyhouse --data zh5-prefix.bin`: the first
/// 1,000,000 records of the `zh5` run (`datagen --nodes 2000 --book
/// crazyhouse.epd --random-plies 6 --opening-limit 300 --seed 5`);
/// W 48.6% D 2.5% L 49.0%; log-loss 0.6856 (constant frequencies 0.7914,
/// `a` and `b` constant 0.7033).
pub const CRAZYHOUSE: Model = Model {
    input: Input::MoveNumber,
    a: [41.530, -109.715, 117.797],
    b: [482.422, 196.859, -85.331],
};

/// Antichess (giveaway uses it too): quadratic in the material. Fitted
/// with `rukav wdl --variant antichess --data anti.bin anti2.bin`: 136,272
/// positions of 6,600 games (`datagen --variant antichess --nodes 2000
/// --book antichess.epd --random-plies 2`, seeds 12 and 13); W 27.2% D
/// 54.6% L 18.1%; log-loss 0.7793 (constant frequencies 0.9942, `a` and
/// `b` constant 0.9278, by the move number 0.8923).
pub const ANTICHESS: Model = Model {
    input: Input::Material,
    a: [837.954, -501.632, 94.703],
    b: [220.523, 321.050, -97.350],
};

/// Chess (King's chess uses it too): quadratic in the material (as good as
/// the move number on the data, 0.8130 against 0.8098, and right for a
/// position set up by FEN with move number 1). Fitted with `rukav wdl
/// --variant chess --data chess.bin chess2.bin`: 159,137 positions of
/// 2,100 games (`datagen --variant chess --nodes 2000 --random-plies 6`,
/// seeds 11 and 14); W 26.6% D 47.8% L 25.6%; log-loss 0.8130 (constant
/// frequencies 1.0542, `a` and `b` constant 0.8364).
pub const CHESS: Model = Model {
    input: Input::Material,
    a: [775.327, -290.915, 50.134],
    b: [366.329, -104.178, 31.849],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_sums_to_1000_and_is_monotone() {
        for variant in Variant::ALL {
            let pos = Position::start_with(variant.rules());
            let m = model(variant);
            for raw in [1, 10, 30, 60, 78, 100] {
                let curve = m.curve_at(m.input.scaled(raw));
                let mut last = curve.wdl(Score::Cp(-30_000));
                assert_eq!((last.win, last.loss), (0, 1000), "{variant} {curve:?}");
                for cp in -3000..=3000 {
                    let x = curve.wdl(Score::Cp(cp));
                    assert_eq!(x.win + x.draw + x.loss, 1000, "{variant} {cp}");
                    assert!(x.win >= last.win && x.loss <= last.loss, "{variant} {cp}");
                    last = x;
                }
                let top = curve.wdl(Score::Cp(30_000));
                assert_eq!((top.win, top.loss), (1000, 0), "{variant} {curve:?}");
                assert!(last.win > 900, "{variant} {curve:?}");
                let lo = curve.wdl(Score::Cp(-300));
                let mid = curve.wdl(Score::Cp(0));
                let hi = curve.wdl(Score::Cp(300));
                assert!(lo.win < mid.win && mid.win < hi.win, "{variant}");
                assert!(lo.loss > mid.loss && mid.loss > hi.loss, "{variant}");
                // Symmetric: a score and its negation swap W and L.
                let (p, n) = (curve.wdl(Score::Cp(137)), curve.wdl(Score::Cp(-137)));
                assert_eq!((p.win, p.draw), (n.loss, n.draw), "{variant}");
            }
            let c = curve(&pos);
            assert_eq!(
                c.wdl(Score::Mate(3)),
                Wdl {
                    win: 1000,
                    draw: 0,
                    loss: 0
                }
            );
            assert_eq!(
                c.wdl(Score::Mate(1)),
                Wdl {
                    win: 1000,
                    draw: 0,
                    loss: 0
                }
            );
            assert_eq!(
                c.wdl(Score::Mate(-2)),
                Wdl {
                    win: 0,
                    draw: 0,
                    loss: 1000
                }
            );
            assert_eq!(
                c.wdl(Score::Mate(0)),
                Wdl {
                    win: 0,
                    draw: 0,
                    loss: 1000
                }
            );
        }
    }

    #[test]
    fn phase_inputs() {
        let pos = Position::start_with(Variant::Chess.rules());
        assert_eq!(Input::Material.raw(&pos), 78);
        assert_eq!(Input::MoveNumber.raw(&pos), 1);
        let zh = Position::from_fen(
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R[Pp] w KQkq - 0 40",
            Variant::Crazyhouse.rules(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Input::Material.raw(&zh), 78);
        assert_eq!(Input::MoveNumber.raw(&zh), 40);
        let end = Position::from_fen("8/8/4k3/8/8/8/3QK3/8 w - - 0 150", Variant::Chess.rules())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Input::Material.raw(&end), 9);
        assert_eq!(Input::MoveNumber.raw(&end), MOVE_CAP);
    }
}
