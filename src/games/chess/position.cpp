#include "games/chess/position.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "games/chess/movegen.hpp"

namespace kibitz::chess {

namespace {

constexpr std::string_view kPieceChars = "PNBRQKpnbrqk";

// The FEN castling letters, in the order FEN writes them.
struct CastlingSpec {
  char letter;
  std::uint8_t right;
  Color color;
  bool king_side;
};
constexpr CastlingSpec kCastlingSpecs[4] = {{'K', kWhiteOO, kWhite, true},
                                            {'Q', kWhiteOOO, kWhite, false},
                                            {'k', kBlackOO, kBlack, true},
                                            {'q', kBlackOOO, kBlack, false}};

// Castling rights that survive a move touching each square (king and rook home squares).
constexpr std::array<std::uint8_t, 64> kCastlingMask = [] {
  std::array<std::uint8_t, 64> m{};
  for (auto& v : m) v = kAllCastling;
  m[0] = kAllCastling & ~kWhiteOOO;                // a1
  m[7] = kAllCastling & ~kWhiteOO;                 // h1
  m[4] = kAllCastling & ~(kWhiteOO | kWhiteOOO);   // e1
  m[56] = kAllCastling & ~kBlackOOO;               // a8
  m[63] = kAllCastling & ~kBlackOO;                // h8
  m[60] = kAllCastling & ~(kBlackOO | kBlackOOO);  // e8
  return m;
}();

std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

Result<int> parse_counter(std::string_view field, std::string_view name, int lo, int hi) {
  if (field.empty() || field.size() > 6) return fail("FEN {}: '{}' is not a number", name, field);
  int v = 0;
  for (char c : field) {
    if (c < '0' || c > '9') return fail("FEN {}: '{}' is not a number", name, field);
    v = v * 10 + (c - '0');
  }
  if (v < lo || v > hi) return fail("FEN {}: {} is out of range {}..{}", name, v, lo, hi);
  return v;
}

}  // namespace

std::string_view outcome_name(Outcome o) {
  switch (o) {
    case Outcome::kOngoing:
      return "ongoing";
    case Outcome::kCheckmate:
      return "checkmate";
    case Outcome::kStalemate:
      return "stalemate";
    case Outcome::kFiftyMoves:
      return "50-move rule";
    case Outcome::kThreefold:
      return "threefold repetition";
    case Outcome::kInsufficientMaterial:
      return "insufficient material";
  }
  return "?";
}

Position::Position() { *this = *from_fen(kStartFen); }

void Position::put(Piece p, Square s) {
  board_[s] = p;
  by_type_[type_of(p)] |= bb(s);
  by_color_[color_of(p)] |= bb(s);
}

void Position::remove(Square s) {
  const Piece p = board_[s];
  by_type_[type_of(p)] &= ~bb(s);
  by_color_[color_of(p)] &= ~bb(s);
  board_[s] = kNoPiece;
}

void Position::move_piece(Square from, Square to) {
  const Piece p = board_[from];
  const Bitboard ft = bb(from) | bb(to);
  by_type_[type_of(p)] ^= ft;
  by_color_[color_of(p)] ^= ft;
  board_[from] = kNoPiece;
  board_[to] = p;
}

Result<Position> Position::from_fen(std::string_view fen) {
  const auto f = split_fields(fen);
  if (f.size() < 4) return fail("FEN: expected at least 4 fields, got {}", f.size());
  if (f.size() > 6) return fail("FEN: expected at most 6 fields, got {}", f.size());
  Position p{EmptyTag{}};
  p.board_.fill(kNoPiece);
  p.by_type_.fill(0);
  p.by_color_.fill(0);

  // Field 1: piece placement, rank 8 first.
  int rank = 7, file = 0;
  for (char c : f[0]) {
    if (c == '/') {
      if (file != 8)
        return fail("FEN piece placement: rank {} has {} squares, expected 8", rank + 1, file);
      if (--rank < 0) return fail("FEN piece placement: more than 8 ranks");
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return fail("FEN piece placement: rank {} has more than 8 squares", rank + 1);
    } else {
      const auto idx = kPieceChars.find(c);
      if (idx == std::string_view::npos)
        return fail("FEN piece placement: unexpected character '{}'", c);
      if (file > 7) return fail("FEN piece placement: rank {} has more than 8 squares", rank + 1);
      p.put(Piece(idx), make_square(file, rank));
      ++file;
    }
  }
  if (rank != 0) return fail("FEN piece placement: expected 8 ranks, got {}", 8 - rank);
  if (file != 8) return fail("FEN piece placement: rank 1 has {} squares, expected 8", file);
  for (Color c : {kWhite, kBlack}) {
    const char* name = c == kWhite ? "white" : "black";
    if (popcount(p.pieces(c, kKing)) != 1)
      return fail("FEN piece placement: {} has {} kings, expected 1", name,
                  popcount(p.pieces(c, kKing)));
    if (popcount(p.pieces(c)) > 16)
      return fail("FEN piece placement: {} has {} pieces, at most 16 are possible", name,
                  popcount(p.pieces(c)));
    if (popcount(p.pieces(c, kPawn)) > 8)
      return fail("FEN piece placement: {} has {} pawns, at most 8 are possible", name,
                  popcount(p.pieces(c, kPawn)));
  }
  if (p.pieces(kPawn) & (kRank1 | kRank8))
    return fail("FEN piece placement: a pawn stands on the first or eighth rank");

  // Field 2: side to move.
  if (f[1] == "w")
    p.side_ = kWhite;
  else if (f[1] == "b")
    p.side_ = kBlack;
  else
    return fail("FEN side to move: expected 'w' or 'b', got '{}'", f[1]);

  // Field 3: castling rights (standard chess: king and rook on their home squares).
  p.castling_ = 0;
  if (f[2] != "-") {
    for (char c : f[2]) {
      const CastlingSpec* spec = nullptr;
      for (const auto& cs : kCastlingSpecs)
        if (cs.letter == c) spec = &cs;
      if (!spec) return fail("FEN castling: unexpected character '{}'", c);
      const std::uint8_t right = spec->right;
      const Square king = spec->color == kWhite ? 4 : 60;
      const Square rook = king + (spec->king_side ? 3 : -4);
      const Piece k = make_piece(spec->color, kKing), r = make_piece(spec->color, kRook);
      if (p.castling_ & right) return fail("FEN castling: '{}' appears twice", c);
      if (p.board_[king] != k || p.board_[rook] != r)
        return fail("FEN castling: right '{}' needs the king and rook on their home squares", c);
      p.castling_ |= right;
    }
  }

  // Field 4: en passant target square.
  p.ep_ = kNoSquare;
  if (f[3] != "-") {
    const auto& e = f[3];
    if (e.size() != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8')
      return fail("FEN en passant: '{}' is not a square", e);
    const Square s = make_square(e[0] - 'a', e[1] - '1');
    const int need_rank = p.side_ == kWhite ? 5 : 2;
    const Color them = ~p.side_;
    const Square pawn = p.side_ == kWhite ? s - 8 : s + 8;
    const Square origin = p.side_ == kWhite ? s + 8 : s - 8;
    if (rank_of(s) != need_rank)
      return fail("FEN en passant: '{}' is not on rank {} for {} to move", e, need_rank + 1,
                  p.side_ == kWhite ? "white" : "black");
    if (p.board_[pawn] != make_piece(them, kPawn) || p.board_[s] != kNoPiece ||
        p.board_[origin] != kNoPiece)
      return fail("FEN en passant: '{}' does not follow a two-square pawn move", e);
    p.ep_ = static_cast<std::uint8_t>(s);
  }

  // Fields 5 and 6 (optional, as in EPD): halfmove clock and fullmove number.
  p.halfmove_ = 0;
  p.fullmove_ = 1;
  if (f.size() >= 5) {
    auto h = parse_counter(f[4], "halfmove clock", 0, 9999);
    if (!h) return tl::unexpected(h.error());
    p.halfmove_ = static_cast<std::uint16_t>(*h);
  }
  if (f.size() >= 6) {
    auto n = parse_counter(f[5], "fullmove number", 0, 9999);
    if (!n) return tl::unexpected(n.error());
    p.fullmove_ = static_cast<std::uint16_t>(std::max(1, *n));
  }

  if (p.attackers_to(p.king_square(~p.side_), p.pieces()) & p.pieces(p.side_))
    return fail("FEN: the side not to move ({}) is in check",
                p.side_ == kWhite ? "black" : "white");

  p.plies_from_null_ = 0;
  p.game_ply_ = 0;
  p.key_ = p.compute_hash();
  p.checkers_ = p.compute_checkers();
  p.history_.fill(0);
  p.history_[0] = p.key_;
  return p;
}

std::string Position::fen() const {
  std::string s;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      const Piece pc = board_[make_square(f, r)];
      if (pc == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      s += kPieceChars[pc];
    }
    if (empty) s += char('0' + empty);
    if (r) s += '/';
  }
  s += side_ == kWhite ? " w " : " b ";
  if (!castling_) s += '-';
  for (const auto& cs : kCastlingSpecs)
    if (castling_ & cs.right) s += cs.letter;
  if (ep_ == kNoSquare)
    s += " -";
  else
    s += fmt::format(" {}{}", char('a' + file_of(ep_)), char('1' + rank_of(ep_)));
  s += fmt::format(" {} {}", halfmove_, fullmove_);
  return s;
}

std::uint64_t Position::compute_hash() const {
  std::uint64_t k = 0;
  for (Square s = 0; s < 64; ++s)
    if (board_[s] != kNoPiece) k ^= zobrist::piece(board_[s], s);
  k ^= zobrist::castling(castling_);
  if (ep_capturable(ep_, side_)) k ^= zobrist::ep_file(file_of(ep_));
  if (side_ == kBlack) k ^= zobrist::side();
  return k;
}

bool Position::is_attacked(Square s, Color by, Bitboard occ) const {
  const Bitboard them = pieces(by);
  return (pawn_attacks(~by, s) & pieces(kPawn) & them) ||
         (knight_attacks(s) & pieces(kKnight) & them) || (king_attacks(s) & pieces(kKing) & them) ||
         (rook_attacks(s, occ) & (pieces(kRook) | pieces(kQueen)) & them) ||
         (bishop_attacks(s, occ) & (pieces(kBishop) | pieces(kQueen)) & them);
}

void Position::make(Move m, Undo& u) {
  u.key = key_;
  u.checkers = checkers_;
  u.castling = castling_;
  u.ep = ep_;
  u.halfmove = halfmove_;
  u.plies_from_null = plies_from_null_;

  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Piece pc = board_[from];
  std::uint64_t k = key_ ^ zobrist::side();
  if (ep_capturable(ep_, us)) k ^= zobrist::ep_file(file_of(ep_));
  ep_ = kNoSquare;

  ++halfmove_;
  Piece captured = kNoPiece;
  if (m.is_en_passant()) {
    const Square cap = us == kWhite ? to - 8 : to + 8;
    captured = board_[cap];
    k ^= zobrist::piece(captured, cap);
    remove(cap);
    halfmove_ = 0;
  } else if (m.is_capture()) {
    captured = board_[to];
    k ^= zobrist::piece(captured, to);
    remove(to);
    halfmove_ = 0;
  }
  u.captured = captured;

  k ^= zobrist::piece(pc, from) ^ zobrist::piece(pc, to);
  move_piece(from, to);

  if (type_of(pc) == kPawn) {
    halfmove_ = 0;
    if (m.is_promotion()) {
      const Piece promo = make_piece(us, m.promotion());
      k ^= zobrist::piece(pc, to) ^ zobrist::piece(promo, to);
      remove(to);
      put(promo, to);
    } else if (m.flag() == Move::kDoublePush) {
      const Square e = us == kWhite ? from + 8 : from - 8;
      ep_ = static_cast<std::uint8_t>(e);
      if (ep_capturable(e, them)) k ^= zobrist::ep_file(file_of(e));
    }
  } else if (m.is_castling()) {
    const bool king_side = m.flag() == Move::kCastleKing;
    const Square rfrom = king_side ? to + 1 : to - 2, rto = king_side ? to - 1 : to + 1;
    const Piece rook = board_[rfrom];
    k ^= zobrist::piece(rook, rfrom) ^ zobrist::piece(rook, rto);
    move_piece(rfrom, rto);
  }

  const std::uint8_t rights = castling_ & kCastlingMask[from] & kCastlingMask[to];
  if (rights != castling_) {
    k ^= zobrist::castling(castling_) ^ zobrist::castling(rights);
    castling_ = rights;
  }

  if (us == kBlack) ++fullmove_;
  side_ = them;
  key_ = k;
  checkers_ = compute_checkers();
  ++plies_from_null_;
  ++game_ply_;
  history_[game_ply_ % kHistory] = k;
}

void Position::unmake(Move m, const Undo& u) {
  const Color them = side_, us = ~them;
  const Square from = m.from(), to = m.to();
  if (m.is_promotion()) {
    remove(to);
    put(make_piece(us, kPawn), to);
  }
  move_piece(to, from);
  if (m.is_castling()) {
    const bool king_side = m.flag() == Move::kCastleKing;
    const Square rfrom = king_side ? to + 1 : to - 2, rto = king_side ? to - 1 : to + 1;
    move_piece(rto, rfrom);
  }
  if (u.captured != kNoPiece) {
    const Square cap = m.is_en_passant() ? (us == kWhite ? to - 8 : to + 8) : to;
    put(u.captured, cap);
  }
  if (us == kBlack) --fullmove_;
  side_ = us;
  key_ = u.key;
  checkers_ = u.checkers;
  castling_ = u.castling;
  ep_ = u.ep;
  halfmove_ = u.halfmove;
  plies_from_null_ = u.plies_from_null;
  --game_ply_;
}

void Position::make_null(Undo& u) {
  u.key = key_;
  u.checkers = checkers_;
  u.castling = castling_;
  u.ep = ep_;
  u.halfmove = halfmove_;
  u.plies_from_null = plies_from_null_;
  u.captured = kNoPiece;
  std::uint64_t k = key_ ^ zobrist::side();
  if (ep_capturable(ep_, side_)) k ^= zobrist::ep_file(file_of(ep_));
  ep_ = kNoSquare;
  ++halfmove_;
  side_ = ~side_;
  key_ = k;
  checkers_ = compute_checkers();
  plies_from_null_ = 0;
  ++game_ply_;
  history_[game_ply_ % kHistory] = k;
}

void Position::unmake_null(const Undo& u) {
  side_ = ~side_;
  key_ = u.key;
  checkers_ = u.checkers;
  ep_ = u.ep;
  halfmove_ = u.halfmove;
  plies_from_null_ = u.plies_from_null;
  --game_ply_;
}

int Position::repetitions() const {
  const int window = std::min<int>(
      {halfmove_, plies_from_null_, static_cast<int>(game_ply_), static_cast<int>(kHistory) - 1});
  int count = 0;
  for (int back = 4; back <= window; back += 2)
    if (history_[(game_ply_ - back) % kHistory] == key_) ++count;
  return count;
}

bool Position::insufficient_material() const {
  if (pieces(kPawn) | pieces(kRook) | pieces(kQueen)) return false;
  const Bitboard minors = pieces(kKnight) | pieces(kBishop);
  if (popcount(minors) <= 1) return true;  // K v K, K+minor v K
  // Only bishops, all on squares of one colour: no mate is possible.
  if (pieces(kKnight) == 0) {
    const Bitboard b = pieces(kBishop);
    return (b & kDarkSquares) == 0 || (b & ~kDarkSquares) == 0;
  }
  return false;
}

Outcome Position::outcome() const {
  MoveList<Position> moves;
  const bool has_move = legal_moves(moves) > 0;
  if (!has_move) return in_check() ? Outcome::kCheckmate : Outcome::kStalemate;
  if (insufficient_material()) return Outcome::kInsufficientMaterial;
  if (repetitions() >= 2) return Outcome::kThreefold;
  if (halfmove_ >= 100) return Outcome::kFiftyMoves;
  return Outcome::kOngoing;
}

Returns<Position> Position::returns() const {
  if (outcome() != Outcome::kCheckmate) return {0.0, 0.0};
  return side_ == kWhite ? Returns<Position>{-1.0, 1.0} : Returns<Position>{1.0, -1.0};
}

// Validates an arbitrary 16-bit move (TT and killer moves at nearly every node) without
// generating: first that it is a move this position's pieces can make with exactly this flag,
// then that it does not leave our king attacked.
bool Position::is_legal(Move m) const {
  const Square from = m.from(), to = m.to();
  const int flag = m.flag();
  const Color us = side_, them = ~us;
  const Piece pc = board_[from];
  if (from == to || pc == kNoPiece || color_of(pc) != us) return false;  // also Move::none()
  const Piece victim = board_[to];
  const Bitboard occ = pieces();
  const PieceType pt = type_of(pc);
  const Square ksq = king_square(us);

  // The flag must match what stands on `to`: captures need an enemy piece (never the king),
  // everything else an empty square (en passant's target square is empty too).
  if (flag == Move::kCapture || flag >= Move::kPromoCaptureKnight) {
    if (victim == kNoPiece || color_of(victim) != them || type_of(victim) == kKing) return false;
  } else if (victim != kNoPiece || flag == 6 || flag == 7) {
    return false;
  }

  if (m.is_castling()) {
    // Rights imply king and rook on their home squares (make() and from_fen keep them so).
    const Square home = us == kWhite ? 4 : 60;
    const bool king_side = flag == Move::kCastleKing;
    const std::uint8_t right =
        us == kWhite ? (king_side ? kWhiteOO : kWhiteOOO) : (king_side ? kBlackOO : kBlackOOO);
    if (pt != kKing || from != home || to != (king_side ? home + 2 : home - 2) ||
        !(castling_ & right))
      return false;
    const Bitboard path =
        king_side ? bb(home + 1) | bb(home + 2) : bb(home - 1) | bb(home - 2) | bb(home - 3);
    const Square pass = king_side ? home + 1 : home - 1;
    return !(occ & path) && !is_attacked(home, them, occ) && !is_attacked(pass, them, occ) &&
           !is_attacked(to, them, occ);
  }

  Square captured_sq = to;  // where the captured piece stands, if any
  if (pt == kPawn) {
    const int up = us == kWhite ? 8 : -8;
    if (m.is_promotion() != (relative_rank(us, to) == 7)) return false;
    if (flag == Move::kEnPassant) {
      if (to != ep_ || !(pawn_attacks(us, from) & bb(to))) return false;
      captured_sq = to - up;
    } else if (m.is_capture()) {  // plain or promoting
      if (!(pawn_attacks(us, from) & bb(to))) return false;
    } else if (flag == Move::kDoublePush) {
      if (relative_rank(us, from) != 1 || to != from + 2 * up || (occ & bb(from + up)))
        return false;
    } else if (flag == Move::kQuiet || m.is_promotion()) {
      if (to != from + up) return false;
    } else {
      return false;
    }
  } else {
    if (flag != Move::kQuiet && flag != Move::kCapture) return false;
    Bitboard reach;
    switch (pt) {
      case kKnight:
        reach = knight_attacks(from);
        break;
      case kBishop:
        reach = bishop_attacks(from, occ);
        break;
      case kRook:
        reach = rook_attacks(from, occ);
        break;
      case kQueen:
        reach = queen_attacks(from, occ);
        break;
      default:
        reach = king_attacks(from);
        break;
    }
    if (!(reach & bb(to))) return false;
    // The king must not step onto an attacked square, its own square vacated (no slider
    // may "see through" it along the line it retreats on).
    if (pt == kKing) return !is_attacked(to, them, occ ^ bb(from));
  }

  // Any other move: after it, no enemy piece (other than one just captured) may attack our
  // king. This covers pins, check evasions and en passant's discovered checks at once.
  const Bitboard after = (occ ^ bb(from) ^ bb(captured_sq)) | bb(to);
  return !(attackers_to(ksq, after) & pieces(them) & ~bb(captured_sq));
}

bool Position::gives_check(Move m) const {
  const Color us = side_;
  const Square ksq = king_square(~us);
  const Square from = m.from(), to = m.to();
  Bitboard occ = (pieces() ^ bb(from)) | bb(to);
  // Our sliders after the move: the mover leaves `from`; a castling rook moves too.
  Bitboard rooks = (pieces(us, kRook) | pieces(us, kQueen)) & ~bb(from);
  Bitboard bishops = (pieces(us, kBishop) | pieces(us, kQueen)) & ~bb(from);
  PieceType pt = m.is_promotion() ? m.promotion() : type_of(board_[from]);
  if (m.is_en_passant()) {
    occ ^= bb(us == kWhite ? to - 8 : to + 8);
  } else if (m.is_castling()) {
    const bool king_side = m.flag() == Move::kCastleKing;
    const Square rfrom = king_side ? to + 1 : to - 2, rto = king_side ? to - 1 : to + 1;
    occ ^= bb(rfrom) | bb(rto);
    rooks ^= bb(rfrom) | bb(rto);
    pt = kKing;  // the king itself never checks; the rook is among the sliders
  }
  switch (pt) {  // a direct check by the piece on `to`
    case kPawn:
      if (pawn_attacks(us, to) & bb(ksq)) return true;
      break;
    case kKnight:
      if (knight_attacks(to) & bb(ksq)) return true;
      break;
    case kBishop:
      bishops |= bb(to);
      break;
    case kRook:
      rooks |= bb(to);
      break;
    case kQueen:
      bishops |= bb(to);
      rooks |= bb(to);
      break;
    default:
      break;
  }
  // Direct checks by a slider on `to` and discovered checks, in one look from the king.
  return (rook_attacks(ksq, occ) & rooks) || (bishop_attacks(ksq, occ) & bishops);
}

namespace {
// SEE values; the king's is large enough that losing it outweighs any exchange.
constexpr int kSeeValue[7] = {100, 320, 330, 500, 950, 20000, 0};
}  // namespace

// The swap algorithm: play out the captures on m.to(), each side always recapturing with its
// least valuable piece (sliders behind the capturers join as they are uncovered), recording
// the running balance; then fold the list back from the end, letting each side stop
// capturing when going on would lose. Pins are ignored.
bool Position::see_ge(Move m, int threshold) const {
  if (m.is_castling()) return threshold <= 0;
  const Square from = m.from(), to = m.to();
  const Color us = side_;
  Bitboard occ = pieces() ^ bb(from);
  int gain[40];  // at most 32 pieces take part
  int depth = 0;
  int on_square;  // value of the piece standing on `to`, the next one to be captured
  if (m.is_en_passant()) {
    occ ^= bb(us == kWhite ? to - 8 : to + 8);
    gain[0] = kSeeValue[kPawn];
  } else {
    gain[0] = board_[to] == kNoPiece ? 0 : kSeeValue[type_of(board_[to])];
  }
  if (m.is_promotion()) {
    gain[0] += kSeeValue[m.promotion()] - kSeeValue[kPawn];
    on_square = kSeeValue[m.promotion()];
  } else {
    on_square = kSeeValue[type_of(board_[from])];
  }
  // Early outs: even keeping everything we fall short, or losing the mover still suffices
  // (unless a recapture can promote and cost more).
  const bool promo_square = rank_of(to) == 0 || rank_of(to) == 7;
  if (gain[0] < threshold) return false;
  if (!promo_square && gain[0] - on_square >= threshold) return true;

  const Bitboard diagonal = pieces(kBishop) | pieces(kQueen);
  const Bitboard straight = pieces(kRook) | pieces(kQueen);
  Bitboard attackers = attackers_to(to, occ) & occ;
  Color side = ~us;
  while (true) {
    const Bitboard mine = attackers & pieces(side);
    if (!mine) break;
    PieceType pt = kPawn;
    while (!(mine & pieces(pt))) pt = PieceType(pt + 1);
    // The king may only take last: into a square the other side still covers it is illegal.
    if (pt == kKing && (attackers & pieces(~side))) break;
    ++depth;
    gain[depth] = on_square - gain[depth - 1];  // this side's balance if the other stops now
    on_square = kSeeValue[pt];
    if (pt == kPawn && promo_square) {
      gain[depth] += kSeeValue[kQueen] - kSeeValue[kPawn];
      on_square = kSeeValue[kQueen];
    }
    occ ^= bb(lsb(mine & pieces(pt)));
    // Only a line piece that just left can uncover another behind it.
    if (pt == kPawn || pt == kBishop || pt == kQueen)
      attackers |= bishop_attacks(to, occ) & diagonal;
    if (pt == kRook || pt == kQueen) attackers |= rook_attacks(to, occ) & straight;
    attackers &= occ;
    side = ~side;
  }
  // Each side chooses between its balance before the opponent's capture and after it.
  while (depth > 0) {
    gain[depth - 1] = std::min(gain[depth - 1], -gain[depth]);
    --depth;
  }
  return gain[0] >= threshold;
}

}  // namespace kibitz::chess
