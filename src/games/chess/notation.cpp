#include "games/chess/notation.hpp"

#include "games/chess/movegen.hpp"

namespace kibitz::chess {

namespace {
constexpr std::string_view kPieceLetters = "PNBRQK";

PieceType piece_from_letter(char c) {
  switch (c) {
    case 'N':
      return kKnight;
    case 'B':
      return kBishop;
    case 'R':
      return kRook;
    case 'Q':
      return kQueen;
    case 'K':
      return kKing;
    default:
      return kNoPieceType;
  }
}
}  // namespace

std::string square_name(Square s) {
  if (s < 0 || s > 63) return "-";
  return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

Result<Square> parse_square(std::string_view s) {
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
    return fail("'{}' is not a square", s);
  return make_square(s[0] - 'a', s[1] - '1');
}

std::string to_uci(Move m) {
  if (m.is_none()) return "0000";
  std::string s = square_name(m.from()) + square_name(m.to());
  if (m.is_promotion()) s += "nbrq"[m.promotion() - kKnight];
  return s;
}

Result<Move> parse_uci(const Position& pos, std::string_view text) {
  if (text.size() < 4 || text.size() > 5) return fail("'{}' is not a UCI move", text);
  auto from = parse_square(text.substr(0, 2));
  auto to = parse_square(text.substr(2, 2));
  if (!from || !to) return fail("'{}' is not a UCI move", text);
  PieceType promo = kNoPieceType;
  if (text.size() == 5) {
    promo = piece_from_letter(static_cast<char>(text[4] & ~0x20));
    if (promo == kNoPieceType || promo == kKing)
      return fail("'{}': bad promotion piece '{}'", text, text[4]);
  }
  MoveList<Position> moves;
  pos.legal_moves(moves);
  for (Move m : moves)
    if (m.from() == *from && m.to() == *to && m.promotion() == promo) return m;
  return fail("'{}' is not legal in this position", text);
}

std::string to_san(const Position& pos, Move m) {
  std::string s;
  if (m.is_castling()) {
    s = m.flag() == Move::kCastleKing ? "O-O" : "O-O-O";
  } else {
    const PieceType pt = type_of(pos.piece_on(m.from()));
    if (pt == kPawn) {
      if (m.is_capture()) s += char('a' + file_of(m.from()));
    } else {
      s += kPieceLetters[pt];
      // Disambiguate among other pieces of the same type that can reach the same square.
      MoveList<Position> moves;
      pos.legal_moves(moves);
      bool clash = false, same_file = false, same_rank = false;
      for (Move o : moves) {
        if (o == m || o.to() != m.to() || o.from() == m.from()) continue;
        if (type_of(pos.piece_on(o.from())) != pt) continue;
        clash = true;
        same_file |= file_of(o.from()) == file_of(m.from());
        same_rank |= rank_of(o.from()) == rank_of(m.from());
      }
      if (clash) {
        if (!same_file)
          s += char('a' + file_of(m.from()));
        else if (!same_rank)
          s += char('1' + rank_of(m.from()));
        else
          s += square_name(m.from());
      }
    }
    if (m.is_capture()) s += 'x';
    s += square_name(m.to());
    if (m.is_promotion()) {
      s += '=';
      s += kPieceLetters[m.promotion()];
    }
  }
  Position next = pos;
  next.apply(m);
  if (next.in_check()) s += count_legal(next) == 0 ? '#' : '+';
  return s;
}

Result<Move> parse_san(const Position& pos, std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?'))
    t.remove_suffix(1);
  if (t.empty()) return fail("'{}' is not a SAN move", text);

  MoveList<Position> moves;
  pos.legal_moves(moves);

  if (t == "O-O" || t == "0-0" || t == "O-O-O" || t == "0-0-0") {
    const int flag = t.size() == 3 ? Move::kCastleKing : Move::kCastleQueen;
    for (Move m : moves)
      if (m.flag() == flag) return m;
    return fail("'{}': castling is not legal here", text);
  }

  PieceType pt = kPawn;
  std::size_t i = 0;
  if (const PieceType p = piece_from_letter(t[0]); p != kNoPieceType) {
    pt = p;
    i = 1;
  }
  // Promotion suffix: "=Q", "Q", "=q".
  PieceType promo = kNoPieceType;
  if (t.size() >= 2) {
    const char last = static_cast<char>(t.back() & ~0x20);
    const char before = t[t.size() - 2];
    if (pt == kPawn && (last == 'N' || last == 'B' || last == 'R' || last == 'Q') &&
        (before == '=' || (before >= '1' && before <= '8'))) {
      promo = piece_from_letter(last);
      t.remove_suffix(before == '=' ? 2 : 1);
    }
  }
  if (t.size() < i + 2) return fail("'{}' is not a SAN move", text);
  auto to = parse_square(t.substr(t.size() - 2));
  if (!to) return fail("'{}' has no destination square", text);
  std::string_view middle = t.substr(i, t.size() - 2 - i);
  int from_file = -1, from_rank = -1;
  bool capture = false;
  for (char c : middle) {
    if (c >= 'a' && c <= 'h' && from_file < 0)
      from_file = c - 'a';
    else if (c >= '1' && c <= '8' && from_rank < 0)
      from_rank = c - '1';
    else if ((c == 'x' || c == ':') && !capture)
      capture = true;
    else
      return fail("'{}' is not a SAN move (unexpected '{}')", text, c);
  }

  Move found = Move::none();
  int matches = 0;
  for (Move m : moves) {
    if (m.is_castling() || m.to() != *to || m.promotion() != promo) continue;
    if (type_of(pos.piece_on(m.from())) != pt) continue;
    if (from_file >= 0 && file_of(m.from()) != from_file) continue;
    if (from_rank >= 0 && rank_of(m.from()) != from_rank) continue;
    if (capture && !m.is_capture()) continue;
    found = m;
    ++matches;
  }
  if (matches == 0) {
    if (pt == kPawn && promo == kNoPieceType && (rank_of(*to) == 0 || rank_of(*to) == 7))
      return fail("'{}': a pawn move to the last rank must name its promotion", text);
    return fail("'{}' is not legal in this position", text);
  }
  if (matches > 1) return fail("'{}' is ambiguous ({} legal moves match)", text, matches);
  return found;
}

}  // namespace kibitz::chess
