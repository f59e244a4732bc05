#pragma once
// Chess hooks for the generic alpha-beta (search/alphabeta/alphabeta.hpp): staged legal
// generation, MVV-LVA, static exchange, fast legality for TT/killer moves, search draws
// (twofold repetition inside the search, 50-move rule, insufficient material) and the
// zugzwang guard for null moves (the side to move has a piece besides pawns and king).
#include "api/concepts.hpp"
#include "games/chess/movegen.hpp"
#include "games/chess/position.hpp"

namespace kibitz {

template <>
struct SearchTraits<chess::Position> : DefaultSearchTraits<chess::Position> {
  using Position = chess::Position;
  using Move = chess::Move;

  static constexpr int kHistorySize = 64 * 64;
  static int history_index(Move m) { return m.from() | (m.to() << 6); }

  static void generate_tactical(const Position& p, MoveList<Position>& buf) {
    chess::generate<chess::GenType::kTactical>(p, buf);
  }
  static void generate_quiet(const Position& p, MoveList<Position>& buf) {
    chess::generate<chess::GenType::kQuiet>(p, buf);
  }
  static bool is_tactical(const Position&, Move m) { return m.is_tactical(); }
  static bool is_legal(const Position& p, Move m) { return p.is_legal(m); }
  static bool see_ge(const Position& p, Move m, int threshold) { return p.see_ge(m, threshold); }
  static std::uint64_t hash_after(const Position& p, Move m) { return p.key_after(m); }
  static bool gives_check(const Position& p, Move m) { return p.gives_check(m); }

  // Most valuable victim first, then least valuable attacker; promotions count the new piece.
  static int mvv_lva(const Position& p, Move m) {
    static constexpr int kValue[7] = {1, 3, 3, 5, 9, 0, 0};
    const int victim = m.is_en_passant() ? kValue[chess::kPawn]
                       : m.is_capture()  ? kValue[chess::type_of(p.piece_on(m.to()))]
                                         : 0;
    const int promo = m.is_promotion() ? kValue[m.promotion()] - 1 : 0;
    return (victim + promo) * 16 - chess::type_of(p.piece_on(m.from()));
  }

  static bool is_search_draw(const Position& p) {
    // Mate on the move that reaches the 50-move limit still counts (a rare full generation).
    if (p.halfmove_clock() >= 100) return !p.in_check() || chess::count_legal(p) > 0;
    return p.repetitions() >= 1 || p.insufficient_material();
  }
  // Called only when there is no legal move: mate or stalemate.
  static int no_moves_result(const Position& p) { return p.in_check() ? -1 : 0; }
  static bool null_move_safe(const Position& p) {
    return p.has_non_pawn_material(p.side_to_move());
  }

  // --- what issue 29's search patches need (centipawns) -----------------------------------
  // Continuation history: a move as the piece it moves and its destination, told before it
  // is made.
  static constexpr int kPieceToSize = 12 * 64;
  static int piece_to(const Position& p, Move m) { return p.piece_on(m.from()) * 64 + m.to(); }
  // Correction history keys on the pawn structure (a multiplicative hash of both sides'
  // pawns: computed when asked, as the position keeps no pawn key).
  static std::uint64_t correction_key(const Position& p) {
    const std::uint64_t w = p.pieces(chess::kWhite, chess::kPawn);
    const std::uint64_t b = p.pieces(chess::kBlack, chess::kPawn);
    const std::uint64_t h =
        w * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    return h >> 40;
  }
  static constexpr bool kImprovingPruning = true;
  // Futility: a quiet move is skipped where eval + base + per_ply * depth <= alpha.
  static constexpr int kFutilityBase = 120;
  static constexpr int kFutilityPerPly = 100;
  static constexpr int kFutilityDepth = 8;
  // SEE pruning: skip quiets losing more than quiet * depth^2, captures more than
  // capture * depth.
  static constexpr int kSeePruneQuiet = 25;
  static constexpr int kSeePruneCapture = 100;
  static constexpr int kSeePruneDepth = 8;
  static constexpr int kSingularMinDepth = 8;
  // History pruning: a quiet move at LMR depth <= 3 whose histories sum below
  // -4096 * depth (issue 29's ninth step, with the three below).
  static constexpr int kHistoryPruneDepth = 3;
  static constexpr int kHistoryPruneScale = 4096;
  // A deeper null move than the seed's 3 + depth / 6 + min(.., 2), and a narrower first
  // aspiration window than its 50 cp.
  static constexpr int kNullMoveBase = 4;
  static constexpr int kNullMoveDepthDivisor = 5;
  static constexpr int kNullMoveEvalCap = 3;
  static constexpr int kAspirationDelta = 25;
  // Checks are not extended by default (the switch check_extension still turns it on).
  static constexpr bool kCheckExtension = false;
  static constexpr int kProbCutMargin = 200;
  static constexpr bool kNodeShareTime = true;
  // Capture history: the moving piece, its destination and what it takes (7: nothing, a
  // promotion's push).
  static constexpr int kCaptureHistorySize = 12 * 64 * 8;
  static int capture_index(const Position& p, Move m) {
    const int victim = m.is_en_passant() ? chess::kPawn
                       : m.is_capture()  ? chess::type_of(p.piece_on(m.to()))
                                         : 7;
    return piece_to(p, m) * 8 + victim;
  }
};

}  // namespace kibitz
