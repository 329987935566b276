//! NNUE: incremental accumulators equal a refresh along random games (with
//! captures, promotions, drops, castling, en passant, promoted pieces going
//! back to the pocket as pawns, bughouse pockets changed from outside), the
//! file format round-trips, and bad files are refused with a message.

use rukav::eval::nnue::{
    self, Accumulator, Activation, KingBuckets, Network, NetworkError, SecondLayer, INPUTS, QA, QB,
};
use rukav::rng::Rng;
use rukav::{Color, PieceType, Position, Variant};

/// A network with seeded random weights, large enough that any wrong
/// feature shows in the accumulators.
fn random_net(seed: u64, hidden: usize, variants: Vec<Variant>) -> Network {
    random_bucketed_net(seed, hidden, KingBuckets::NONE, variants)
}

/// [`random_net`] with king buckets.
fn random_bucketed_net(
    seed: u64,
    hidden: usize,
    king_buckets: KingBuckets,
    variants: Vec<Variant>,
) -> Network {
    let mut rng = Rng(seed);
    let mut small = |range: u64| (rng.next_u64() % (2 * range + 1)) as i16 - range as i16;
    let rows = king_buckets.count() * INPUTS;
    let fw: Vec<i16> = (0..rows * hidden).map(|_| small(300)).collect();
    let fb: Vec<i16> = (0..hidden).map(|_| small(100)).collect();
    let ow: Vec<i16> = (0..2 * hidden).map(|_| small(120)).collect();
    Network::from_parts_bucketed(
        hidden,
        king_buckets,
        fw,
        fb,
        ow,
        vec![1234],
        variants,
        "random test net".into(),
    )
    .unwrap()
}

/// Where the king-bucket map starts in a file of version 3 or later
/// (magic, version, inputs, hidden size, output buckets, king buckets).
const MAP_AT: usize = 8 + 4 + 8 + 4 + 4;
/// Where the activation is in a file of version 4 or later.
const ACTIVATION_AT: usize = MAP_AT + 64;
/// Where the second layer's size is in a file of version 5.
const UNITS_AT: usize = ACTIVATION_AT + 4;

/// The network file `bytes` with `new` written at `at` and its checksum
/// made valid again, so that what refuses it is the check of the field.
fn patched(bytes: &[u8], at: usize, new: &[u8]) -> Vec<u8> {
    let mut body = bytes[..bytes.len() - 8].to_vec();
    body[at..at + new.len()].copy_from_slice(new);
    let sum = nnue::checksum(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    body
}

fn assert_same(a: &Accumulator, b: &Accumulator, hidden: usize, what: &str) {
    for c in 0..2 {
        assert_eq!(
            a.values[c][..hidden],
            b.values[c][..hidden],
            "{what}: perspective {c}"
        );
    }
}

/// Walks `games` random games of `variant`, comparing the incremental
/// accumulators with a refresh after every move.
fn walk(variant: Variant, games: usize, seed: u64) -> usize {
    walk_with(variant, games, seed, KingBuckets::NONE).0
}

/// [`walk`] with king buckets; also returns how many moves took a king
/// to another bucket.
fn walk_with(
    variant: Variant,
    games: usize,
    seed: u64,
    king_buckets: KingBuckets,
) -> (usize, usize) {
    let hidden = 32;
    let net = random_bucketed_net(seed, hidden, king_buckets, vec![variant]);
    let mut bucket_changes = 0;
    let rules = variant.rules();
    let mut rng = Rng(seed ^ 0x5555);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = Position::start_with(rules);
        let mut acc = Accumulator::default();
        net.refresh(&pos, &mut acc);
        for _ply in 0..160 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let mut child = pos;
            let delta = child.make_move_delta(m);
            let mut next = Accumulator::default();
            net.update(&acc, &delta, &child, &mut next);
            let mut fresh = Accumulator::default();
            net.refresh(&child, &mut fresh);
            assert_same(&next, &fresh, hidden, &format!("{} after {m}", pos.fen()));
            assert_eq!(net.evaluate(&next, &child), net.evaluate_position(&child));
            for c in Color::ALL {
                if king_buckets.of(&pos, c) != king_buckets.of(&child, c) {
                    bucket_changes += 1;
                }
            }
            checked += 1;
            pos = child;
            acc = next;
            if variant == Variant::Bughouse && rng.below(4) == 0 {
                // A piece arrives from the partner: the search refreshes at
                // its root, so a refresh is what counts here.
                let kind = PieceType::POCKET[rng.below(5)];
                if pos.add_to_pocket(Color::ALL[rng.below(2)], kind).is_ok() {
                    net.refresh(&pos, &mut acc);
                }
            }
        }
    }
    (checked, bucket_changes)
}

#[test]
fn incremental_equals_refresh_with_king_buckets() {
    for count in [4, 8] {
        let layout = KingBuckets::layout(count).unwrap();
        let (checked, changes) = walk_with(Variant::Crazyhouse, 60, 21, layout);
        assert!(
            checked > 4_000 && changes > 100,
            "{checked} moves, {changes} bucket changes"
        );
    }
}

/// King-bucketed networks are written as format version 3 and read back;
/// one-bucket networks stay version 2, which older engines read; a map
/// that skips a bucket is refused.
#[test]
fn king_buckets_round_trip_and_bad_maps_are_refused() {
    let layout = KingBuckets::layout(8).unwrap();
    let net = random_bucketed_net(5, 16, layout, vec![Variant::Crazyhouse]);
    let bytes = net.to_bytes();
    assert_eq!(bytes[8..12], 3u32.to_le_bytes());
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.king_buckets(), layout);
    assert_eq!(back.to_bytes(), bytes);
    let rules = Variant::Crazyhouse.rules();
    for fen in [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "2kr3r/pbp2pp1/1p2p2p/8/3PN3/5N2/PPP2PPP/2KR3R[QBbpp] b - - 2 14",
        "8/8/3k4/8/8/4K3/8/8[QRBNPqrbnp] w - - 0 40",
    ] {
        let pos = Position::from_fen(fen, rules).unwrap();
        assert_eq!(back.evaluate_position(&pos), net.evaluate_position(&pos));
    }
    let plain = random_net(5, 16, vec![Variant::Crazyhouse]).to_bytes();
    assert_eq!(plain[8..12], 2u32.to_le_bytes());
    // Every square of bucket 7 moved to bucket 6: the file says eight
    // buckets and the map uses seven. The checksum is made valid, so the
    // map check is what refuses it.
    let map: Vec<u8> = bytes[MAP_AT..MAP_AT + 64]
        .iter()
        .map(|&b| if b == 7 { 6 } else { b })
        .collect();
    let bad = patched(&bytes, MAP_AT, &map);
    assert_eq!(
        Network::from_bytes(&bad).unwrap_err(),
        NetworkError::BadKingBuckets
    );
    assert_eq!(KingBuckets::from_map([2; 64]), None);
    assert_eq!(KingBuckets::layout(3), None);
}

#[test]
fn incremental_equals_refresh_in_crazyhouse() {
    assert!(walk(Variant::Crazyhouse, 300, 1) > 20_000);
}

#[test]
fn incremental_equals_refresh_in_bughouse_and_chess() {
    assert!(walk(Variant::Bughouse, 150, 2) > 10_000);
    assert!(walk(Variant::Chess, 100, 3) > 5_000);
    assert!(walk(Variant::Antichess, 200, 4) > 5_000);
    assert!(walk(Variant::Giveaway, 100, 5) > 2_000);
}

#[test]
fn incremental_equals_refresh_with_house_rules() {
    // Promoted pieces keep their kind in the pocket (PromotedRevert=false).
    let hidden = 16;
    let net = random_net(9, hidden, vec![Variant::Crazyhouse]);
    let mut rules = Variant::Crazyhouse.rules();
    rukav::protocol::options::apply_rules_option(&mut rules, "PromotedRevert", "false").unwrap();
    // White promotes, Black's rook takes the new queen (it goes to Black's
    // pocket as a queen) and Black drops it.
    let mut pos = Position::from_fen("1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", rules).unwrap();
    let mut acc = Accumulator::default();
    net.refresh(&pos, &mut acc);
    for text in ["a7a8q", "b8a8", "e1d2", "Q@d5"] {
        let m = pos.parse_uci_move(text).unwrap();
        let delta = pos.make_move_delta(m);
        let mut next = Accumulator::default();
        net.update(&acc, &delta, &pos, &mut next);
        let mut fresh = Accumulator::default();
        net.refresh(&pos, &mut fresh);
        assert_same(&next, &fresh, hidden, text);
        acc = next;
    }
    assert_eq!(pos.pieces(Color::Black, PieceType::Queen).count(), 1);
    assert_eq!(pos.pocket(Color::Black, PieceType::Queen), 0);
}

#[test]
fn pocket_pieces_are_features() {
    let net = random_net(4, 32, vec![Variant::Crazyhouse]);
    let rules = Variant::Crazyhouse.rules();
    let empty = Position::from_fen(
        "r1bqkbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        rules,
    )
    .unwrap();
    let mut with_knight = empty;
    with_knight
        .add_to_pocket(Color::White, PieceType::Knight)
        .unwrap();
    assert_ne!(
        net.evaluate_position(&empty),
        net.evaluate_position(&with_knight),
        "a piece in hand must change the evaluation"
    );
}

#[test]
fn file_round_trip_and_refusals() {
    let net = random_net(5, 64, vec![Variant::Crazyhouse, Variant::Bughouse]);
    let bytes = net.to_bytes();
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.hidden(), 64);
    assert_eq!(back.variants(), &[Variant::Crazyhouse, Variant::Bughouse]);
    assert_eq!(back.description(), "random test net");
    assert_eq!(back.to_bytes(), bytes);
    let pos = Position::start_with(Variant::Crazyhouse.rules());
    assert_eq!(back.evaluate_position(&pos), net.evaluate_position(&pos));

    let err = |b: &[u8]| Network::from_bytes(b).unwrap_err();
    // One flipped bit in the weights.
    let mut corrupt = bytes.clone();
    corrupt[bytes.len() / 2] ^= 0x10;
    assert_eq!(err(&corrupt), NetworkError::ChecksumMismatch);
    // Truncated.
    assert_eq!(
        err(&bytes[..bytes.len() - 100]),
        NetworkError::ChecksumMismatch
    );
    assert_eq!(err(&bytes[..10]), NetworkError::BadMagic);
    // Not a network.
    assert_eq!(
        err(b"hello, this is not a network file"),
        NetworkError::BadMagic
    );
    // Another format version, with a valid checksum.
    let mut other = bytes[..bytes.len() - 8].to_vec();
    other[8] = 99;
    let sum = nnue::checksum(&other);
    other.extend_from_slice(&sum.to_le_bytes());
    assert_eq!(err(&other), NetworkError::UnsupportedVersion(99));
    assert!(
        err(&other).to_string().contains("version"),
        "{}",
        err(&other)
    );
}

#[test]
fn the_embedded_network_loads() {
    let net = nnue::default_network().expect("nets/ default network parses");
    assert!(net.serves(Variant::Crazyhouse));
    assert!(
        net.description().contains("positions"),
        "{}",
        net.description()
    );
    // Bughouse has its own network, trained on two-board games, and
    // antichess one (mixed with the hand-written evaluation) that serves
    // giveaway too; the other variants have none.
    let (name, bug) = nnue::embedded_for(Variant::Bughouse).expect("a bughouse network");
    assert!(name.starts_with("rukav-bug-"), "{name}");
    assert!(!bug.serves(Variant::Crazyhouse) && !net.serves(Variant::Bughouse));
    assert!(bug.description().contains("bughouse positions"));
    let (name, anti) = nnue::embedded_for(Variant::Antichess).expect("an antichess network");
    assert!(name.starts_with("rukav-anti-"), "{name}");
    assert!(anti.serves(Variant::Antichess) && anti.serves(Variant::Giveaway));
    assert!(anti.description().contains("antichess positions"));
    let (gw_name, _) = nnue::embedded_for(Variant::Giveaway).expect("a giveaway network");
    assert_eq!(gw_name, name);
    for v in [Variant::Chess, Variant::Suicide] {
        assert!(nnue::embedded_for(v).is_none(), "{v:?}");
    }
}

/// A network with eight output buckets: each bucket speaks for its range of
/// pieces on the board, and the file round-trips with them.
/// SCReLU networks are written as format version 4 (king buckets or not)
/// and read back; they evaluate as the straightforward sum of squared
/// clipped activations; an output weight beyond the kernel's range and an
/// unknown activation number are refused.
#[test]
fn screlu_networks_round_trip_and_evaluate_as_their_formula() {
    let rules = Variant::Crazyhouse.rules();
    let fens = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "2kr3r/pbp2pp1/1p2p2p/8/3PN3/5N2/PPP2PPP/2KR3R[QBbpp] b - - 2 14",
        "8/8/3k4/8/8/4K3/8/8[QRBNPqrbnp] w - - 0 40",
    ];
    for king_buckets in [KingBuckets::NONE, KingBuckets::layout(4).unwrap()] {
        let crelu = random_bucketed_net(9, 32, king_buckets, vec![Variant::Crazyhouse]);
        let net = random_bucketed_net(9, 32, king_buckets, vec![Variant::Crazyhouse])
            .with_activation(Activation::SCReLU)
            .unwrap();
        let bytes = net.to_bytes();
        assert_eq!(bytes[8..12], 4u32.to_le_bytes());
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.activation(), Activation::SCReLU);
        assert_eq!(back.king_buckets(), king_buckets);
        assert_eq!(back.to_bytes(), bytes);
        let (_, _, output_weights, output_bias) = net.parts();
        for fen in fens {
            let pos = Position::from_fen(fen, rules).unwrap();
            let mut acc = Accumulator::default();
            net.refresh(&pos, &mut acc);
            let stm = pos.side_to_move();
            let mut sum = 0i64;
            for (side, perspective) in [stm, stm.flip()].into_iter().enumerate() {
                for j in 0..32 {
                    let c = i64::from(acc.values[perspective.index()][j].clamp(0, QA as i16));
                    sum += c * c * i64::from(output_weights[side * 32 + j]);
                }
            }
            let expected =
                (sum / i64::from(QA) + i64::from(output_bias[0])) * 600 / i64::from(QA * 64);
            assert_eq!(i64::from(back.evaluate_position(&pos)), expected, "{fen}");
            assert_ne!(
                back.evaluate_position(&pos),
                crelu.evaluate_position(&pos),
                "{fen}: the activation must matter"
            );
        }
    }
    // random_bucketed_net's output weights are within ±120.
    let small = random_net(3, 16, vec![]);
    let (fw, fb, ow, ob) = small.parts();
    let mut too_big = ow.to_vec();
    too_big[5] = 128;
    let parts = |ow: Vec<i16>| {
        Network::from_parts(
            16,
            fw.to_vec(),
            fb.to_vec(),
            ow,
            ob.to_vec(),
            vec![],
            String::new(),
        )
        .unwrap()
    };
    assert_eq!(
        parts(too_big)
            .with_activation(Activation::SCReLU)
            .unwrap_err(),
        NetworkError::OutputWeightOutOfRange(128)
    );
    // An activation number 2, with a valid checksum.
    let screlu = random_net(3, 16, vec![])
        .with_activation(Activation::SCReLU)
        .unwrap()
        .to_bytes();
    let bad = patched(&screlu, ACTIVATION_AT, &2u32.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&bad).unwrap_err(),
        NetworkError::UnknownActivation(2)
    );
}

/// A second hidden layer: written as format version 5 and read back (with
/// either activation), the evaluation is the written-out formula (the
/// second layer's neurons clipped at `QA * QB`, the output on the scale
/// `QA * QB * QB`), and bad layers are refused.
#[test]
fn second_layer_networks_round_trip_and_evaluate_as_their_formula() {
    let rules = Variant::Crazyhouse.rules();
    let hidden = 32;
    let units = 8;
    let mut rng = Rng(21);
    let mut small = |range: u64| (rng.next_u64() % (2 * range + 1)) as i16 - range as i16;
    let layer = SecondLayer {
        units,
        weights: (0..2 * units * 2 * hidden).map(|_| small(100)).collect(),
        bias: (0..2 * units).map(|_| i32::from(small(20_000))).collect(),
    };
    let output: Vec<i16> = (0..2 * units).map(|_| small(120)).collect();
    for activation in [Activation::CReLU, Activation::SCReLU] {
        let base = random_net(13, hidden, vec![Variant::Crazyhouse]);
        let (fw, fb, ow, _) = base.parts();
        let net = Network::from_parts(
            hidden,
            fw.to_vec(),
            fb.to_vec(),
            [ow, ow].concat(),
            vec![-3_000_000, 5_000_000],
            vec![Variant::Crazyhouse],
            "two layers".into(),
        )
        .unwrap()
        .with_second_layer(layer.clone(), output.clone())
        .unwrap()
        .with_activation(activation)
        .unwrap();
        let bytes = net.to_bytes();
        assert_eq!(bytes[8..12], 5u32.to_le_bytes());
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.second_layer(), &layer);
        assert_eq!(back.activation(), activation);
        assert_eq!(back.to_bytes(), bytes);
        let mut clipped = [0usize; 2];
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "2kr3r/pbp2pp1/1p2p2p/8/3PN3/5N2/PPP2PPP/2KR3R[QBbpp] b - - 2 14",
            "8/8/3k4/8/8/4K3/8/8[QRBNPqrbnp] w - - 0 40",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        ] {
            let pos = Position::from_fen(fen, rules).unwrap();
            let mut acc = Accumulator::default();
            back.refresh(&pos, &mut acc);
            let stm = pos.side_to_move();
            let bucket = nnue::output_bucket(&pos, 2);
            let mut out = i64::from([-3_000_000, 5_000_000][bucket]);
            for u in 0..units {
                let mut z = 0i64;
                for (side, perspective) in [stm, stm.flip()].into_iter().enumerate() {
                    for j in 0..hidden {
                        let c = i64::from(acc.values[perspective.index()][j].clamp(0, QA as i16));
                        let w = i64::from(
                            layer.weights[(bucket * units + u) * 2 * hidden + side * hidden + j],
                        );
                        z += if activation == Activation::SCReLU {
                            c * c * w
                        } else {
                            c * w
                        };
                    }
                }
                if activation == Activation::SCReLU {
                    z /= i64::from(QA);
                }
                z += i64::from(layer.bias[bucket * units + u]);
                let top = i64::from(QA * QB);
                clipped[usize::from(z >= top)] += usize::from(z <= 0 || z >= top);
                out += z.clamp(0, top) * i64::from(output[bucket * units + u]);
            }
            let expected = out * 600 / i64::from(QA * QB * QB);
            assert_eq!(i64::from(back.evaluate_position(&pos)), expected, "{fen}");
        }
        assert!(clipped[0] > 0, "{activation:?}: no neuron clipped at 0");
    }
    // Refusals: too many units, sizes that do not fit, an SCReLU weight
    // beyond the kernel's range.
    let base = || random_net(13, hidden, vec![]);
    let too_many = SecondLayer {
        units: 33,
        weights: vec![0; 33 * 2 * hidden],
        bias: vec![0; 33],
    };
    assert_eq!(
        base().with_second_layer(too_many, vec![0; 33]).unwrap_err(),
        NetworkError::SecondLayerOutOfRange(33)
    );
    let one_bucket = SecondLayer {
        units: 2,
        weights: vec![0; 2 * 2 * hidden],
        bias: vec![0; 2],
    };
    assert_eq!(
        base()
            .with_second_layer(one_bucket.clone(), vec![0; 3])
            .unwrap_err(),
        NetworkError::WeightSizeMismatch
    );
    let mut wide = one_bucket.clone();
    wide.weights[7] = 200;
    assert_eq!(
        base()
            .with_activation(Activation::SCReLU)
            .unwrap()
            .with_second_layer(wide, vec![0; 2])
            .unwrap_err(),
        NetworkError::OutputWeightOutOfRange(200)
    );
    // A file that says 40 units, with a valid checksum.
    let layered = base()
        .with_second_layer(one_bucket, vec![0; 2])
        .unwrap()
        .to_bytes();
    let bad = patched(&layered, UNITS_AT, &40u32.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&bad).unwrap_err(),
        NetworkError::SecondLayerOutOfRange(40)
    );
}

#[test]
fn output_buckets_choose_by_pieces_and_round_trip() {
    let hidden = 32;
    let mut rng = Rng(77);
    let mut small = |range: u64| (rng.next_u64() % (2 * range + 1)) as i16 - range as i16;
    let fw: Vec<i16> = (0..INPUTS * hidden).map(|_| small(300)).collect();
    let fb: Vec<i16> = (0..hidden).map(|_| small(100)).collect();
    let ow: Vec<i16> = (0..8 * 2 * hidden).map(|_| small(120)).collect();
    let biases: Vec<i32> = (0..8).map(|b| b * 100_000).collect();
    let net = Network::from_parts(
        hidden,
        fw,
        fb,
        ow,
        biases,
        vec![Variant::Crazyhouse],
        "bucket test".into(),
    )
    .unwrap();
    assert_eq!(net.buckets(), 8);
    let rules = Variant::Crazyhouse.rules();
    let full = Position::start_with(rules);
    let bare =
        Position::from_fen("4k3/8/8/8/8/8/8/4K3[QQRRBBNNPPPPPPPP] w - - 0 1", rules).unwrap();
    assert_eq!(nnue::output_bucket(&full, 8), 7);
    assert_eq!(nnue::output_bucket(&bare, 8), 0);
    assert_eq!(nnue::output_bucket(&full, 1), 0);
    let back = Network::from_bytes(&net.to_bytes()).unwrap();
    assert_eq!(back.buckets(), 8);
    for p in [full, bare] {
        assert_eq!(back.evaluate_position(&p), net.evaluate_position(&p));
    }
    // Buckets with other biases give other evaluations.
    assert_ne!(net.evaluate_position(&full), net.evaluate_position(&bare));
    // Too many buckets are refused.
    assert!(Network::from_parts(
        16,
        vec![0; INPUTS * 16],
        vec![0; 16],
        vec![0; 9 * 32],
        vec![0; 9],
        vec![],
        String::new()
    )
    .is_err());
}
