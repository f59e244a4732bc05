#pragma once
// Static evaluation: a tapered (middlegame, endgame) sum of material, piece-square tables,
// mobility, pawn structure, king safety and piece placement terms, scaled down in drawish
// endgames. Every term is a count times a weight, so the evaluation is linear in the weights:
// eval_trace() reports the counts (white minus black) and a tuner can fit the weights.
//
//   white_view = (mg * phase * 64 + eg * scale * (24 - phase)) / (24 * 64)
//
// where mg = sum(coeff[i] * w[i].mg), eg = sum(coeff[i] * w[i].eg), phase = N + B + 2R + 4Q
// (at most 24), and scale = trace.scale[white] when eg > 0, trace.scale[black] when eg < 0
// (64 = no scaling). evaluate() returns white_view for white to move, -white_view otherwise.
#include <array>
#include <cstdint>
#include <string>

#include "games/chess/position.hpp"

namespace kibitz::chess {

struct ScorePair {
  int mg;
  int eg;
  friend bool operator==(const ScorePair&, const ScorePair&) = default;
};

// Parameter blocks in table order (first index of each block, then its size). Rank indices
// are relative to the piece's owner (0 = its back rank); PST files are folded (a/h = 0,
// b/g = 1, c/f = 2, d/e = 3), so a PST entry is rank * 4 + folded file.
namespace eval_param {
inline constexpr int kMaterial = 0;                          // P, N, B, R, Q
inline constexpr int kPst = kMaterial + 5;                   // 6 piece types x 32
inline constexpr int kMobilityKnight = kPst + 6 * 32;        // by squares reached, 0..8
inline constexpr int kMobilityBishop = kMobilityKnight + 9;  // 0..13
inline constexpr int kMobilityRook = kMobilityBishop + 14;   // 0..14
inline constexpr int kMobilityQueen = kMobilityRook + 15;    // 0..27
inline constexpr int kPassed = kMobilityQueen + 28;          // passed pawn by rank (8)
inline constexpr int kConnected = kPassed + 8;  // pawn defended or beside another, by rank (8)
inline constexpr int kIsolated = kConnected + 8;
inline constexpr int kDoubled = kIsolated + 1;  // per pawn with an own pawn ahead
inline constexpr int kBackward = kDoubled + 1;
inline constexpr int kPassedBlocked = kBackward + 1;         // its stop square is occupied
inline constexpr int kPassedOwnKing = kPassedBlocked + 1;    // per (rank - 2) x king distance
inline constexpr int kPassedTheirKing = kPassedOwnKing + 1;  // to the stop square
inline constexpr int kShield = kPassedTheirKing + 1;  // own pawns 1 and 2 ranks ahead of king
inline constexpr int kKingOpenFile = kShield + 2;     // files at or beside the king, no pawns
inline constexpr int kKingSemiOpenFile = kKingOpenFile + 1;    // ... no own pawn
inline constexpr int kKingZoneAttack = kKingSemiOpenFile + 1;  // zone squares hit, by N B R Q
inline constexpr int kKingAttackers = kKingZoneAttack + 4;     // pieces hitting the zone, 0..7
inline constexpr int kBishopPair = kKingAttackers + 8;
inline constexpr int kRookOpenFile = kBishopPair + 1;
inline constexpr int kRookSemiOpenFile = kRookOpenFile + 1;
inline constexpr int kOutpost = kRookSemiOpenFile + 1;  // knight, bishop
inline constexpr int kThreatByPawn = kOutpost + 2;      // enemy pieces our pawns attack
inline constexpr int kTempo = kThreatByPawn + 1;        // side to move
inline constexpr int kCount = kTempo + 1;
}  // namespace eval_param

inline constexpr int kNumEvalParams = eval_param::kCount;
inline constexpr int kMaxPhase = 24;
inline constexpr int kNoScale = 64;

// All weights of the evaluation, (mg, eg) in centipawns, indexed by eval_param.
struct EvalParams {
  std::array<ScorePair, kNumEvalParams> v;
  ScorePair& operator[](int i) { return v[static_cast<std::size_t>(i)]; }
  const ScorePair& operator[](int i) const { return v[static_cast<std::size_t>(i)]; }
};

// The active weights (eval_params.cpp, rewritten by `kibitz tune --out`).
extern const EvalParams kDefaultEvalParams;

// A stable name per parameter, e.g. "material_knight", "pst_king_r1_b", "mobility_rook_7".
const std::string& eval_param_name(int index);

// The evaluation's inputs: per parameter, its count for white minus its count for black; the
// game phase (0..24); the endgame scale (0..64) when white or black is ahead in eg.
struct EvalTrace {
  std::array<std::int16_t, kNumEvalParams> coeff;
  int phase;
  std::array<int, 2> scale;
};

// Centipawns from the side to move's point of view. No allocation.
int evaluate(const Position& pos);
int evaluate(const Position& pos, const EvalParams& params);

// Fills `trace` (every field) for pos.
void eval_trace(const Position& pos, EvalTrace& trace);

// The formula in the header comment: white's view from a trace and weights.
int evaluate_trace(const EvalTrace& trace, const EvalParams& params);

// The source of eval_params.cpp for these weights (what the tuner writes).
std::string format_eval_params(const EvalParams& params);

}  // namespace kibitz::chess
