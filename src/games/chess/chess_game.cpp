#include "games/chess/chess_game.hpp"

#include <algorithm>
#include <span>
#include <vector>

#include "api/game_state.hpp"
#include "core/text.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/position.hpp"

namespace kibitz::chess {

namespace {

class ChessState final : public GameState<ChessState, Position> {
 public:
  using GameState::GameState;
  std::string move_text(Move m) const { return to_uci(m); }
  Result<Move> parse(std::string_view text) const {
    // UCI first ("e2e4"), then SAN ("e4"); report the error of the notation it looks like.
    auto m = parse_uci(pos_, text);
    if (!m) {
      const bool looks_uci = text.size() >= 4 && parse_square(text.substr(0, 2)).has_value();
      if (!looks_uci) m = parse_san(pos_, text);
    }
    return m;
  }
  void play(Move m) {
    if (start_.empty()) start_ = pos_.fen();
    pos_.apply(m);
    moves_ += " " + to_uci(m);
  }
  // The FEN the moves started from, then the moves: the repetition history reads back too.
  std::string serialize() const override {
    return moves_.empty() ? pos_.fen() : start_ + " moves" + moves_;
  }
  // from + 64 to + 4096 promotion (0 none, 1..4 knight, bishop, rook, queen): castling is the
  // king's move, as in UCI.
  static constexpr int kPromotionStride = 64 * 64;
  int num_actions() const { return 5 * kPromotionStride; }
  int action_of(Move m) const {
    const int promotion = m.is_promotion() ? 1 + (m.flag() & 3) : 0;
    return m.from() + 64 * m.to() + kPromotionStride * promotion;
  }
  // Planes [20][8][8] indexed by [plane][rank][file] (a1 at [0][0]): the player's pawns,
  // knights, bishops, rooks, queens and king (0-5), the other side's (6-11), ones where the
  // player is to move (12), ones for each castling right: the player's king side and queen
  // side, the other's (13-16), the en passant square (17), the halfmove clock / 100 (18), and
  // ones (19).
  std::vector<int> observation_layout() const { return {20, 8, 8}; }
  void observe(int player, std::span<float> out) const {
    std::fill(out.begin(), out.end(), 0.0f);
    const auto plane = [&](int p, int sq) -> float& {
      return out[static_cast<std::size_t>(64 * p + sq)];
    };
    const auto fill = [&](int p, float v) {
      for (int sq = 0; sq < 64; ++sq) plane(p, sq) = v;
    };
    for (int sq = 0; sq < 64; ++sq) {
      const Piece pc = pos_.piece_on(static_cast<Square>(sq));
      if (pc == kNoPiece) continue;
      plane((color_of(pc) == player ? 0 : 6) + type_of(pc), sq) = 1;
    }
    fill(12, pos_.side_to_move() == player ? 1.0f : 0.0f);
    const std::uint8_t rights = pos_.castling_rights();
    const bool white = player == kWhite;
    fill(13, (rights & (white ? kWhiteOO : kBlackOO)) ? 1.0f : 0.0f);
    fill(14, (rights & (white ? kWhiteOOO : kBlackOOO)) ? 1.0f : 0.0f);
    fill(15, (rights & (white ? kBlackOO : kWhiteOO)) ? 1.0f : 0.0f);
    fill(16, (rights & (white ? kBlackOOO : kWhiteOOO)) ? 1.0f : 0.0f);
    if (pos_.ep_square() != kNoSquare) plane(17, pos_.ep_square()) = 1;
    fill(18, static_cast<float>(pos_.halfmove_clock()) / 100.0f);
    fill(19, 1.0f);
  }
  std::string action_text(int a) const {
    std::string out = square_name(a % 64) + square_name(a / 64 % 64);
    if (const int promotion = a / kPromotionStride) out += "nbrq"[promotion - 1];
    return out;
  }
  std::string to_string() const override { return pos_.fen(); }
  // The start and the moves played here (kept in UCI, so they read back as such).
  PgnGame game() const {
    PgnGame g;
    g.start = pos_;
    if (moves_.empty()) return g;
    g.start = *Position::from_fen(start_);  // a FEN this state wrote
    Position p = g.start;
    for (const auto word : split_blanks(moves_)) {
      const Move m = *parse_uci(p, word);  // a move this state played
      g.moves.push_back(m);
      p.apply(m);
    }
    return g;
  }
  // The game ends at a halfmove clock of 100, so at most 100 reversible plies separate two
  // irreversible ones, of which there are at most 126: 30 captures and 96 pawn steps (16
  // pawns, 6 each). 127 runs of 100 plus the 126.
  int max_game_length() const override { return 127 * 100 + 126; }

 private:
  std::string start_;  // the FEN before the first move played here
  std::string moves_;  // " e2e4 e7e5": the moves played here
};

Result<std::unique_ptr<ChessState>> parse_state(std::string_view text) {
  const auto at = text.find("moves");
  std::string_view fen = trim(text.substr(0, at));
  if (fen == "startpos") fen = "";
  auto p = fen.empty() ? Result<Position>(Position()) : Position::from_fen(fen);
  if (!p) return tl::unexpected(p.error());
  auto state = std::make_unique<ChessState>(*p);
  if (at != std::string_view::npos)
    if (auto r = apply_move_words(*state, split_blanks(text.substr(at + 5)), "chess"); !r)
      return tl::unexpected(r.error());
  return state;
}

}  // namespace

Result<std::unique_ptr<AnyState>> new_any_state(std::string_view text) {
  return as_any_state(parse_state(text));
}

Result<Position> parse_position_text(std::string_view text) {
  return as_position(parse_state(text));
}

Result<PgnGame> parse_game_text(std::string_view text) {
  auto s = parse_state(text);
  if (!s) return tl::unexpected(s.error());
  return (*s)->game();
}

}  // namespace kibitz::chess
