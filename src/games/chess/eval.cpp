#include "games/chess/eval.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace kibitz::chess {

namespace {

namespace ep = eval_param;

constexpr Bitboard file_bb(int f) { return kFileA << f; }
constexpr Bitboard rank_bb(int r) { return kRank1 << (8 * r); }

// Pawn-structure masks, per colour and square, "ahead" meaning towards the enemy.
struct PawnMasks {
  std::array<std::array<Bitboard, 64>, 2> front;        // this file, ahead
  std::array<std::array<Bitboard, 64>, 2> attack_span;  // adjacent files, ahead
  std::array<std::array<Bitboard, 64>, 2> passed;       // both: enemy pawns here stop it
  std::array<std::array<Bitboard, 64>, 2> support;      // adjacent files, level or behind
  std::array<Bitboard, 8> adjacent_files;
};

constexpr PawnMasks kMasks = [] {
  PawnMasks m{};
  for (int f = 0; f < 8; ++f)
    m.adjacent_files[f] = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
  for (int c = 0; c < 2; ++c) {
    for (Square s = 0; s < 64; ++s) {
      for (Square t = 0; t < 64; ++t) {
        const int df = file_of(t) - file_of(s);
        const bool ahead = c == kWhite ? rank_of(t) > rank_of(s) : rank_of(t) < rank_of(s);
        const bool adjacent = df == 1 || df == -1;
        if (df == 0 && ahead) m.front[c][s] |= bb(t);
        if (adjacent && ahead) m.attack_span[c][s] |= bb(t);
        if (adjacent && !ahead) m.support[c][s] |= bb(t);
      }
      m.passed[c][s] = m.front[c][s] | m.attack_span[c][s];
    }
  }
  return m;
}();

constexpr int distance(Square a, Square b) {
  return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}

constexpr int pst_index(Color c, Square s) {
  const int f = file_of(s);
  return relative_rank(c, s) * 4 + (f < 4 ? f : 7 - f);
}

template <Color C>
constexpr Bitboard pawn_attacks_of(Bitboard pawns) {
  return C == kWhite ? ((pawns & ~kFileA) << 7) | ((pawns & ~kFileH) << 9)
                     : ((pawns & ~kFileA) >> 9) | ((pawns & ~kFileH) >> 7);
}

// The king's surroundings that attackers are counted on: its square, its neighbours, and the
// squares one rank further towards the enemy.
template <Color C>
Bitboard king_zone(Square k) {
  const Bitboard ring = king_attacks(k) | bb(k);
  return ring | shift_up<C>(ring);
}

// Weights packed for the fast path: eg in the high 32 bits, mg in the low 32, so one
// multiply-add accumulates both; material and placement merged per colour, piece and square.
struct PackedWeights {
  std::array<std::uint64_t, kNumEvalParams> w;
  std::array<std::array<std::array<std::uint64_t, 64>, 6>, 2> psq;  // signed for black
};

constexpr std::uint64_t pack(int mg, int eg) {
  return (static_cast<std::uint64_t>(static_cast<std::int64_t>(eg)) << 32) +
         static_cast<std::uint64_t>(static_cast<std::int64_t>(mg));
}

void pack_weights(const EvalParams& params, PackedWeights& out) {
  for (int i = 0; i < kNumEvalParams; ++i)
    out.w[static_cast<std::size_t>(i)] = pack(params[i].mg, params[i].eg);
  for (int pt = kPawn; pt <= kKing; ++pt) {
    for (Square s = 0; s < 64; ++s) {
      const ScorePair m = pt == kKing ? ScorePair{0, 0} : params[eval_param::kMaterial + pt];
      for (Color c : {kWhite, kBlack}) {
        const ScorePair p = params[eval_param::kPst + pt * 32 + pst_index(c, s)];
        const int sign = c == kWhite ? 1 : -1;
        out.psq[c][pt][s] = pack(sign * (m.mg + p.mg), sign * (m.eg + p.eg));
      }
    }
  }
}

// Where the evaluation's counts go: weighted into a score (evaluate) or into a trace.
struct ScoreSink {
  const PackedWeights* pw;
  std::uint64_t acc = 0;  // wraps modulo 2^64; unpacked at the end
  template <Color C>
  void add(int index, int n = 1) {
    const std::uint64_t k =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(C == kWhite ? n : -n));
    acc += k * pw->w[static_cast<std::size_t>(index)];
  }
  template <Color C>
  void add_psq(PieceType pt, Square s) {
    acc += pw->psq[C][pt][s];
  }
  int mg() const { return static_cast<std::int32_t>(static_cast<std::uint32_t>(acc)); }
  int eg() const {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(
        (acc - static_cast<std::uint64_t>(static_cast<std::int64_t>(mg()))) >> 32));
  }
};

struct TraceSink {
  EvalTrace* t;
  template <Color C>
  void add(int index, int n = 1) {
    t->coeff[static_cast<std::size_t>(index)] += static_cast<std::int16_t>(C == kWhite ? n : -n);
  }
  template <Color C>
  void add_psq(PieceType pt, Square s) {
    if (pt != kKing) add<C>(eval_param::kMaterial + pt);
    add<C>(eval_param::kPst + pt * 32 + pst_index(C, s));
  }
};

// What both sides' terms need, computed once.
struct Shared {
  Bitboard occ;
  std::array<Bitboard, 2> pawn_attacks;
  std::array<Square, 2> king;
  std::array<Bitboard, 2> zone;
};

template <Color Us, class Sink>
void eval_side(const Position& pos, const Shared& sh, Sink& sink) {
  constexpr Color Them = Us == kWhite ? kBlack : kWhite;
  constexpr int kUp = Us == kWhite ? 8 : -8;
  const Bitboard ours = pos.pieces(Us, kPawn), theirs = pos.pieces(Them, kPawn);
  const Bitboard all_pawns = ours | theirs;

  // Pawns: material, placement and structure.
  for (Bitboard b = ours; b;) {
    const Square s = pop_lsb(b);
    const int rank = relative_rank(Us, s);
    sink.template add_psq<Us>(kPawn, s);
    const Bitboard adjacent = kMasks.adjacent_files[file_of(s)];
    const bool doubled = (kMasks.front[Us][s] & ours) != 0;
    const bool isolated = !(adjacent & ours);
    const Bitboard supported = pawn_attacks(Them, s) & ours;
    const Bitboard phalanx = adjacent & rank_bb(rank_of(s)) & ours;
    if (doubled) sink.template add<Us>(ep::kDoubled);
    if (isolated) sink.template add<Us>(ep::kIsolated);
    if (supported | phalanx) sink.template add<Us>(ep::kConnected + rank);
    const Square stop = s + kUp;
    // Backward: its advance is covered by an enemy pawn and no neighbour can come to help.
    if (!isolated && !(kMasks.support[Us][s] & ours) && (pawn_attacks(Us, stop) & theirs))
      sink.template add<Us>(ep::kBackward);
    // Passed (the rear pawn of a doubled pair does not count).
    if (!(kMasks.passed[Us][s] & theirs) && !doubled) {
      sink.template add<Us>(ep::kPassed + rank);
      if (sh.occ & bb(stop)) sink.template add<Us>(ep::kPassedBlocked);
      if (rank > 2) {
        sink.template add<Us>(ep::kPassedOwnKing, (rank - 2) * distance(sh.king[Us], stop));
        sink.template add<Us>(ep::kPassedTheirKing, (rank - 2) * distance(sh.king[Them], stop));
      }
    }
  }

  // Pieces: material, placement, mobility, king attack.
  const Bitboard mobility_area = ~pos.pieces(Us) & ~sh.pawn_attacks[Them];
  const Bitboard zone = sh.zone[Them];
  int attackers = 0;
  auto piece_terms = [&](PieceType pt, Square s, Bitboard attacks, int mobility_base) {
    sink.template add_psq<Us>(pt, s);
    sink.template add<Us>(mobility_base + popcount(attacks & mobility_area));
    if (const Bitboard hit = attacks & zone) {
      ++attackers;
      sink.template add<Us>(ep::kKingZoneAttack + (pt - kKnight), popcount(hit));
    }
  };
  // An outpost: on ranks 4-6, defended by a pawn, out of reach of enemy pawns.
  auto outpost = [&](Square s) {
    const int rank = relative_rank(Us, s);
    return rank >= 3 && rank <= 5 && (pawn_attacks(Them, s) & ours) &&
           !(kMasks.attack_span[Us][s] & theirs);
  };
  for (Bitboard b = pos.pieces(Us, kKnight); b;) {
    const Square s = pop_lsb(b);
    piece_terms(kKnight, s, knight_attacks(s), ep::kMobilityKnight);
    if (outpost(s)) sink.template add<Us>(ep::kOutpost);
  }
  const Bitboard bishops = pos.pieces(Us, kBishop);
  for (Bitboard b = bishops; b;) {
    const Square s = pop_lsb(b);
    piece_terms(kBishop, s, bishop_attacks(s, sh.occ), ep::kMobilityBishop);
    if (outpost(s)) sink.template add<Us>(ep::kOutpost + 1);
  }
  if (more_than_one(bishops)) sink.template add<Us>(ep::kBishopPair);
  for (Bitboard b = pos.pieces(Us, kRook); b;) {
    const Square s = pop_lsb(b);
    piece_terms(kRook, s, rook_attacks(s, sh.occ), ep::kMobilityRook);
    const Bitboard file = file_bb(file_of(s));
    if (!(file & all_pawns))
      sink.template add<Us>(ep::kRookOpenFile);
    else if (!(file & ours))
      sink.template add<Us>(ep::kRookSemiOpenFile);
  }
  for (Bitboard b = pos.pieces(Us, kQueen); b;) {
    const Square s = pop_lsb(b);
    piece_terms(kQueen, s, queen_attacks(s, sh.occ), ep::kMobilityQueen);
  }
  sink.template add<Us>(ep::kKingAttackers + std::min(attackers, 7));

  // Our king: placement, pawn shield, open files beside it.
  const Square k = sh.king[Us];
  sink.template add_psq<Us>(kKing, k);
  const Bitboard front1 = shift_up<Us>((king_attacks(k) | bb(k)) & rank_bb(rank_of(k)));
  const Bitboard front2 = shift_up<Us>(front1);
  sink.template add<Us>(ep::kShield, popcount(front1 & ours));
  sink.template add<Us>(ep::kShield + 1, popcount(front2 & ours));
  const int kf = file_of(k);
  int open = 0, semi_open = 0;
  for (int f = std::max(0, kf - 1); f <= std::min(7, kf + 1); ++f) {
    const Bitboard file = file_bb(f);
    if (!(file & all_pawns))
      ++open;
    else if (!(file & ours))
      ++semi_open;
  }
  sink.template add<Us>(ep::kKingOpenFile, open);
  sink.template add<Us>(ep::kKingSemiOpenFile, semi_open);

  // Enemy pieces (not pawns or the king) our pawns attack.
  const Bitboard targets = pos.pieces(Them) & ~pos.pieces(kPawn) & ~pos.pieces(kKing);
  sink.template add<Us>(ep::kThreatByPawn, popcount(sh.pawn_attacks[Us] & targets));
}

template <class Sink>
void eval_terms(const Position& pos, Sink& sink) {
  Shared sh;
  sh.occ = pos.pieces();
  sh.pawn_attacks[kWhite] = pawn_attacks_of<kWhite>(pos.pieces(kWhite, kPawn));
  sh.pawn_attacks[kBlack] = pawn_attacks_of<kBlack>(pos.pieces(kBlack, kPawn));
  sh.king[kWhite] = pos.king_square(kWhite);
  sh.king[kBlack] = pos.king_square(kBlack);
  sh.zone[kWhite] = king_zone<kWhite>(sh.king[kWhite]);
  sh.zone[kBlack] = king_zone<kBlack>(sh.king[kBlack]);
  eval_side<kWhite>(pos, sh, sink);
  eval_side<kBlack>(pos, sh, sink);
  if (pos.side_to_move() == kWhite)
    sink.template add<kWhite>(ep::kTempo);
  else
    sink.template add<kBlack>(ep::kTempo);
}

int game_phase(const Position& pos) {
  const int phase = popcount(pos.pieces(kKnight) | pos.pieces(kBishop)) +
                    2 * popcount(pos.pieces(kRook)) + 4 * popcount(pos.pieces(kQueen));
  return std::min(phase, kMaxPhase);
}

// How much of the endgame score to keep (out of 64) when `strong` is the side ahead there.
// Decided from fixed piece values, not the weights, so the evaluation stays linear in them.
int endgame_scale(const Position& pos, Color strong) {
  const Color weak = ~strong;
  auto pieces_value = [&](Color c) {
    return 320 * popcount(pos.pieces(c, kKnight)) + 330 * popcount(pos.pieces(c, kBishop)) +
           500 * popcount(pos.pieces(c, kRook)) + 950 * popcount(pos.pieces(c, kQueen));
  };
  const int strong_value = pieces_value(strong), weak_value = pieces_value(weak);
  if (!pos.pieces(strong, kPawn)) {
    if (strong_value <= 330) return 0;  // a lone minor cannot mate
    // Two knights cannot force mate against a bare king.
    if (pos.pieces(strong) == (pos.pieces(strong, kKnight) | pos.pieces(strong, kKing)) &&
        popcount(pos.pieces(strong, kKnight)) == 2)
      return 4;
    // Less than a rook ahead without pawns (R v minor, R+minor v R, ...) is nearly a draw.
    if (strong_value - weak_value < 400) return 8;
  }
  // Opposite-coloured bishops and nothing else but pawns: the defender blockades easily.
  const Bitboard others = pos.pieces(kKnight) | pos.pieces(kRook) | pos.pieces(kQueen);
  const Bitboard wb = pos.pieces(kWhite, kBishop), bbish = pos.pieces(kBlack, kBishop);
  if (!others && popcount(wb) == 1 && popcount(bbish) == 1 &&
      ((wb & kDarkSquares) != 0) != ((bbish & kDarkSquares) != 0))
    return 32;
  return kNoScale;
}

int taper(int mg, int eg, int phase, int scale) {
  return (mg * phase * kNoScale + eg * scale * (kMaxPhase - phase)) / (kMaxPhase * kNoScale);
}

}  // namespace

namespace {

int evaluate_packed(const Position& pos, const PackedWeights& weights) {
  ScoreSink sink{&weights};
  eval_terms(pos, sink);
  const int mg = sink.mg(), eg = sink.eg();
  const int scale = eg > 0   ? endgame_scale(pos, kWhite)
                    : eg < 0 ? endgame_scale(pos, kBlack)
                             : kNoScale;
  const int v = taper(mg, eg, game_phase(pos), scale);
  return pos.side_to_move() == kWhite ? v : -v;
}

}  // namespace

int evaluate(const Position& pos, const EvalParams& params) {
  PackedWeights weights;  // slow path (tests, tools): packs on every call
  pack_weights(params, weights);
  return evaluate_packed(pos, weights);
}

int evaluate(const Position& pos) {
  static const PackedWeights weights = [] {
    PackedWeights w;
    pack_weights(kDefaultEvalParams, w);
    return w;
  }();
  return evaluate_packed(pos, weights);
}

int Position::evaluate() const { return chess::evaluate(*this); }

void eval_trace(const Position& pos, EvalTrace& trace) {
  trace.coeff.fill(0);
  TraceSink sink{&trace};
  eval_terms(pos, sink);
  trace.phase = game_phase(pos);
  trace.scale = {endgame_scale(pos, kWhite), endgame_scale(pos, kBlack)};
}

int evaluate_trace(const EvalTrace& trace, const EvalParams& params) {
  int mg = 0, eg = 0;
  for (int i = 0; i < kNumEvalParams; ++i) {
    mg += trace.coeff[static_cast<std::size_t>(i)] * params[i].mg;
    eg += trace.coeff[static_cast<std::size_t>(i)] * params[i].eg;
  }
  const int scale = eg > 0 ? trace.scale[kWhite] : eg < 0 ? trace.scale[kBlack] : kNoScale;
  return taper(mg, eg, trace.phase, scale);
}

const std::string& eval_param_name(int index) {
  static const std::array<std::string, kNumEvalParams> names = [] {
    std::array<std::string, kNumEvalParams> n;
    const char* pieces[6] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
    auto set = [&](int i, std::string s) { n[static_cast<std::size_t>(i)] = std::move(s); };
    for (int pt = 0; pt < 5; ++pt) set(ep::kMaterial + pt, fmt::format("material_{}", pieces[pt]));
    for (int pt = 0; pt < 6; ++pt)
      for (int i = 0; i < 32; ++i)
        set(ep::kPst + pt * 32 + i,
            fmt::format("pst_{}_r{}_{}", pieces[pt], i / 4 + 1, char('a' + i % 4)));
    const struct {
      int base, count;
      const char* name;
    } tables[] = {{ep::kMobilityKnight, 9, "mobility_knight"},
                  {ep::kMobilityBishop, 14, "mobility_bishop"},
                  {ep::kMobilityRook, 15, "mobility_rook"},
                  {ep::kMobilityQueen, 28, "mobility_queen"},
                  {ep::kPassed, 8, "passed_r"},
                  {ep::kConnected, 8, "connected_r"},
                  {ep::kKingAttackers, 8, "king_attackers"}};
    for (const auto& t : tables)
      for (int i = 0; i < t.count; ++i) {
        const bool by_rank = t.base == ep::kPassed || t.base == ep::kConnected;
        set(t.base + i,
            by_rank ? fmt::format("{}{}", t.name, i + 1) : fmt::format("{}_{}", t.name, i));
      }
    set(ep::kIsolated, "isolated");
    set(ep::kDoubled, "doubled");
    set(ep::kBackward, "backward");
    set(ep::kPassedBlocked, "passed_blocked");
    set(ep::kPassedOwnKing, "passed_own_king_distance");
    set(ep::kPassedTheirKing, "passed_their_king_distance");
    set(ep::kShield, "shield_rank1");
    set(ep::kShield + 1, "shield_rank2");
    set(ep::kKingOpenFile, "king_open_file");
    set(ep::kKingSemiOpenFile, "king_semi_open_file");
    for (int i = 0; i < 4; ++i)
      set(ep::kKingZoneAttack + i, fmt::format("king_zone_attack_{}", pieces[kKnight + i]));
    set(ep::kBishopPair, "bishop_pair");
    set(ep::kRookOpenFile, "rook_open_file");
    set(ep::kRookSemiOpenFile, "rook_semi_open_file");
    set(ep::kOutpost, "outpost_knight");
    set(ep::kOutpost + 1, "outpost_bishop");
    set(ep::kThreatByPawn, "threat_by_pawn");
    set(ep::kTempo, "tempo");
    return n;
  }();
  return names[static_cast<std::size_t>(index)];
}

std::string format_eval_params(const EvalParams& params) {
  std::string out =
      "// Evaluation weights (middlegame, endgame) in centipawns, one line per parameter in the\n"
      "// order of eval_param (eval.hpp). Written by `kibitz tune --out`; hand edits are fine.\n"
      "#include \"games/chess/eval.hpp\"\n"
      "\n"
      "namespace kibitz::chess {\n"
      "\n"
      "// clang-format off\n"
      "const EvalParams kDefaultEvalParams = {{{\n";
  for (int i = 0; i < kNumEvalParams; ++i)
    out +=
        fmt::format("    {{{:5}, {:5}}},  // {}\n", params[i].mg, params[i].eg, eval_param_name(i));
  out +=
      "}}};\n"
      "// clang-format on\n"
      "\n"
      "}  // namespace kibitz::chess\n";
  return out;
}

}  // namespace kibitz::chess
