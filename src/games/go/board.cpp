#include "games/go/board.hpp"

#include <algorithm>
#include <cassert>

#include "core/zobrist.hpp"

namespace kibitz::go {

static_assert(TwoPlayerZeroSum<Position>);
static_assert(Symmetric<Position>);
static_assert(sizeof(Move) == 2);  // the default history index reads the move as 16 bits

namespace {

// Keys: a stone of each colour on each point, the ko point, white to move, and the pass state
// (one pass just played; two).
constexpr int kZKo = 2 * kNumPoints;
constexpr int kZWhiteToMove = 3 * kNumPoints;
constexpr int kZPass = kZWhiteToMove + 1;
constexpr ZobristTable<kZPass + 2> kZobrist(0x476F5275C35ull);

constexpr std::uint64_t stone_key(Color c, int sq) { return kZobrist[c * kNumPoints + sq]; }

// Column letters as GTP writes them: I is skipped.
constexpr std::string_view kColumns = "ABCDEFGHJKLMNOPQRST";

}  // namespace

std::string_view illegal_text(Illegal why) {
  switch (why) {
    case Illegal::kLegal:
      return "legal";
    case Illegal::kGameOver:
      return "the game is over";
    case Illegal::kOffBoard:
      return "off the board";
    case Illegal::kOccupied:
      return "occupied";
    case Illegal::kKo:
      return "ko";
    case Illegal::kSuicide:
      return "suicide";
    case Illegal::kSuperko:
      return "superko (repeats an earlier position)";
  }
  return "?";
}

int transform_point(int sq, int t, int size) {
  if (sq <= kNoPoint || sq >= kNumPoints) return sq;
  int x = x_of(sq), y = y_of(sq);
  if (t & 1) std::swap(x, y);
  if (t & 2) x = size - 1 - x;
  if (t & 4) y = size - 1 - y;
  return point_of(x, y);
}

int inverse_transform(int t) {
  // Transposing first and mirroring after: undoing it mirrors first, so when t transposes,
  // the mirror bits swap axes.
  if ((t & 1) == 0) return t;
  return 1 | ((t & 2) << 1) | ((t & 4) >> 1);
}

namespace {
// The distinct chains (by head) around a point: at most four.
struct HeadSet {
  std::array<int, 4> h{};
  int n = 0;
  bool insert(int head) {
    for (int i = 0; i < n; ++i)
      if (h[i] == head) return false;
    h[n++] = head;
    return true;
  }
};
}  // namespace

// --- the superko history ----------------------------------------------------------------

Position::History::History(const History& o) : n(o.n), filter(o.filter) {
  std::copy_n(o.h.begin(), n, h.begin());
}

Position::History& Position::History::operator=(const History& o) {
  if (this != &o) {
    n = o.n;
    filter = o.filter;
    std::copy_n(o.h.begin(), n, h.begin());
  }
  return *this;
}

void Position::History::push(std::uint64_t key) {
  assert(n < h.size());
  h[n++] = key;
  filter[key >> 58] |= std::uint64_t{1} << ((key >> 52) & 63);
}

void Position::History::replace_last(std::uint64_t key) {
  // The old key's filter bit stays: a stale bit only costs a scan.
  if (n == 0)
    push(key);
  else {
    h[n - 1] = key;
    filter[key >> 58] |= std::uint64_t{1} << ((key >> 52) & 63);
  }
}

bool Position::History::contains(std::uint64_t key) const {
  if (!(filter[key >> 58] >> ((key >> 52) & 63) & 1)) return false;
  for (std::uint32_t i = 0; i < n; ++i)
    if (h[i] == key) return true;
  return false;
}

// --- construction -------------------------------------------------------------------------

Position::Position(Rules rules) : rules_(rules) {
  rules_.size = std::clamp(rules_.size, kMinSize, kMaxSize);
  const int n = rules_.size;
  const int cap = kHistoryCapacity - 1;  // one entry for the start, one per move at most
  max_moves_ = rules_.max_moves > 0 ? std::min(rules_.max_moves, cap) : std::min(3 * n * n, cap);
  rules_.max_moves = max_moves_;
  color_.fill(kWall);
  head_.fill(0);
  next_.fill(0);
  libs_.fill(0);
  size_.fill(0);
  empty_index_.fill(0);
  empty_.fill(0);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const int sq = point_of(x, y);
      color_[sq] = kEmpty;
      add_empty(sq);
    }
  history_.clear();
  history_.push(stone_hash_);
  refresh_hash();
}

void Position::add_empty(int sq) {
  empty_index_[sq] = static_cast<std::uint16_t>(num_empty_);
  empty_[num_empty_++] = static_cast<std::uint16_t>(sq);
}

void Position::remove_empty(int sq) {
  const int i = empty_index_[sq];
  const std::uint16_t last = empty_[--num_empty_];
  empty_[i] = last;
  empty_index_[last] = static_cast<std::uint16_t>(i);
}

void Position::refresh_hash() {
  hash_ = stone_hash_;
  if (to_move_ == kWhite) hash_ ^= kZobrist[kZWhiteToMove];
  if (ko_ != kNoPoint) hash_ ^= kZobrist[kZKo + ko_];
  if (passes_ > 0) hash_ ^= kZobrist[kZPass + std::min<int>(passes_, 2) - 1];
}

std::uint64_t Position::compute_hash() const { return key_for(0); }

std::uint64_t Position::key_for(int t) const {
  const int n = size();
  std::uint64_t k = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const int sq = point_of(x, y);
      if (is_stone(sq)) k ^= stone_key(at(sq), transform_point(sq, t, n));
    }
  if (to_move_ == kWhite) k ^= kZobrist[kZWhiteToMove];
  if (ko_ != kNoPoint) k ^= kZobrist[kZKo + transform_point(ko_, t, n)];
  if (passes_ > 0) k ^= kZobrist[kZPass + std::min<int>(passes_, 2) - 1];
  return k;
}

std::uint64_t Position::sym_hash() const { return key_for(canonical_transform()); }

int Position::canonical_transform() const {
  std::uint64_t best = key_for(0);
  int best_t = 0;
  for (int t = 1; t < kNumSymmetries; ++t) {
    const std::uint64_t k = key_for(t);
    if (k < best) {
      best = k;
      best_t = t;
    }
  }
  return best_t;
}

Position Position::transformed(int t) const {
  Position out(rules_);
  const int n = size();
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const int sq = point_of(x, y);
      if (is_stone(sq)) out.place_and_merge(transform_point(sq, t, n), at(sq));
    }
  out.to_move_ = to_move_;
  out.passes_ = passes_;
  out.resigned_ = resigned_;
  out.moves_ = moves_;
  out.captured_ = captured_;
  out.ko_ = static_cast<std::uint16_t>(transform_point(ko_, t, n));
  out.last_move_ = static_cast<std::uint16_t>(transform_point(last_move_, t, n));
  out.prev_move_ = static_cast<std::uint16_t>(transform_point(prev_move_, t, n));
  out.history_.clear();
  out.history_.push(out.stone_hash_);
  out.refresh_hash();
  return out;
}

// --- chains -------------------------------------------------------------------------------

void Position::place_and_merge(int sq, Color c) {
  color_[sq] = c;
  head_[sq] = static_cast<std::uint16_t>(sq);
  next_[sq] = static_cast<std::uint16_t>(sq);
  size_[sq] = 1;
  int libs = 0;
  for (const int nb : neighbours(sq)) libs += color_[nb] == kEmpty;
  libs_[sq] = static_cast<std::uint16_t>(libs);
  remove_empty(sq);
  stone_hash_ ^= stone_key(c, sq);
  // Every distinct chain next to the point loses the liberty sq, once.
  HeadSet seen;
  for (const int nb : neighbours(sq)) {
    if (!is_stone(nb)) continue;
    const int h = head_[nb];
    if (!seen.insert(h)) continue;
    --libs_[h];
  }
  for (const int nb : neighbours(sq))
    if (color_[nb] == c && head_[nb] != head_[sq]) merge(head_[sq], head_[nb]);
}

void Position::merge(int a, int b) {
  if (size_[a] < size_[b]) std::swap(a, b);  // relabel the smaller chain
  // Each liberty of b not already a liberty of a adds one. Stones are relabelled as they are
  // visited, so a liberty next to two stones of b is found next to a the second time.
  int s = b;
  do {
    for (const int nb : neighbours(s)) {
      if (color_[nb] != kEmpty) continue;
      bool shared = false;
      for (const int nn : neighbours(nb)) shared |= head_[nn] == a && color_[nn] <= kWhite;
      if (!shared) ++libs_[a];
    }
    head_[s] = static_cast<std::uint16_t>(a);
    s = next_[s];
  } while (s != b);
  size_[a] = static_cast<std::uint16_t>(size_[a] + size_[b]);
  std::swap(next_[a], next_[b]);  // splice the two circular lists
}

int Position::remove_chain(int head) {
  const Color c = at(head);
  const Color o = opponent(c);
  int removed = 0;
  int s = head;
  do {
    const int nxt = next_[s];
    color_[s] = kEmpty;
    head_[s] = 0;
    add_empty(s);
    stone_hash_ ^= stone_key(c, s);
    ++removed;
    // The point becomes a liberty of each distinct neighbouring chain of the other colour.
    HeadSet seen;
    for (const int nb : neighbours(s)) {
      if (color_[nb] != o) continue;
      const int h = head_[nb];
      if (!seen.insert(h)) continue;
      ++libs_[h];
    }
    s = nxt;
  } while (s != head);
  return removed;
}

std::uint64_t Position::chain_key(int head) const {
  std::uint64_t k = 0;
  const Color c = at(head);
  int s = head;
  do {
    k ^= stone_key(c, s);
    s = next_[s];
  } while (s != head);
  return k;
}

// --- legality -----------------------------------------------------------------------------

Illegal Position::check(Move m) const {
  if (is_terminal()) return Illegal::kGameOver;
  if (m.is_pass() || m.is_resign()) return Illegal::kLegal;
  const int sq = m.sq;
  if (!on_board(sq)) return Illegal::kOffBoard;
  if (color_[sq] != kEmpty) return Illegal::kOccupied;
  if (sq == ko_) return Illegal::kKo;
  const Color c = to_move();
  const Color o = opponent(c);
  bool has_liberty = false;
  std::uint64_t after = stone_hash_ ^ stone_key(c, sq);
  HeadSet seen;
  for (const int nb : neighbours(sq)) {
    const Color nc = at(nb);
    if (nc == kEmpty) {
      has_liberty = true;
    } else if (nc == c) {
      has_liberty |= libs_[head_[nb]] > 1;
    } else if (nc == o && libs_[head_[nb]] == 1) {
      const int h = head_[nb];
      if (!seen.insert(h)) continue;
      after ^= chain_key(h);
    }
  }
  if (!has_liberty && seen.n == 0) {
    if (!rules_.allow_suicide) return Illegal::kSuicide;
    // The own chain (and the new stone) leave the board.
    after = stone_hash_;
    for (const int nb : neighbours(sq)) {
      if (color_[nb] != c) continue;
      const int h = head_[nb];
      if (!seen.insert(h)) continue;
      after ^= chain_key(h);
    }
  }
  if (rules_.superko && history_.contains(after)) return Illegal::kSuperko;
  return Illegal::kLegal;
}

Result<void> Position::play(Move m) {
  const Illegal why = check(m);
  if (why != Illegal::kLegal)
    return fail("illegal move {} for {}: {}", to_vertex(m, size()),
                to_move() == kBlack ? "black" : "white", illegal_text(why));
  apply(m);
  return {};
}

std::size_t Position::legal_moves(MoveList<Position>& out) const {
  out.clear();
  if (is_terminal()) return 0;
  const int n = size();
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const Move m = Move::at(x, y);
      if (color_[m.sq] == kEmpty && is_legal(m)) out.push_back(m);
    }
  out.push_back(Move::pass());
  return out.size();
}

void Position::apply(Move m) {
  assert(is_legal(m));
  const Color c = to_move();
  const Color o = opponent(c);
  if (m.is_resign()) {
    resigned_ = static_cast<std::int8_t>(c);
    prev_move_ = last_move_;
    last_move_ = m.sq;
    return;
  }
  ++moves_;
  prev_move_ = last_move_;
  last_move_ = m.sq;
  to_move_ = o;
  if (m.is_pass()) {
    ++passes_;
    ko_ = kNoPoint;
    refresh_hash();
    return;
  }
  passes_ = 0;
  const int sq = m.sq;
  place_and_merge(sq, c);
  int taken = 0;
  int taken_at = kNoPoint;
  for (const int nb : neighbours(sq)) {
    if (color_[nb] != o || libs_[head_[nb]] != 0) continue;
    taken_at = nb;
    taken += remove_chain(head_[nb]);
  }
  captured_[c] += taken;
  ko_ = kNoPoint;
  const int h = head_[sq];
  if (libs_[h] == 0) {
    captured_[o] += remove_chain(h);  // suicide (only when the rules allow it)
  } else if (taken == 1 && size_[h] == 1 && libs_[h] == 1) {
    ko_ = static_cast<std::uint16_t>(taken_at);  // the single-stone retake is banned
  }
  history_.push(stone_hash_);
  refresh_hash();
}

bool Position::captures(Move m) const {
  if (!m.is_point() || color_[m.sq] != kEmpty) return false;
  const Color o = opponent(to_move());
  for (const int nb : neighbours(m.sq))
    if (color_[nb] == o && libs_[head_[nb]] == 1) return true;
  return false;
}

int Position::liberties_after(int sq, int limit) const {
  const Color c = to_move();
  const Color o = opponent(c);
  std::array<int, 8> found{};
  int num = 0;
  auto add = [&](int p) {
    for (int i = 0; i < num; ++i)
      if (found[i] == p) return;
    found[num++] = p;
  };
  HeadSet own;
  for (const int nb : neighbours(sq)) {
    if (color_[nb] == kEmpty) {
      add(nb);
    } else if (color_[nb] == c) {
      const int h = head_[nb];
      // The joined chain keeps every liberty but sq: often enough without a walk.
      if (libs_[h] - 1 >= limit) return limit;
      own.insert(h);
    }
    if (num >= limit) return limit;
  }
  // Liberties of the chains the stone joins.
  for (int i = 0; i < own.n; ++i) {
    int s = own.h[i];
    do {
      for (const int nb : neighbours(s))
        if (color_[nb] == kEmpty && nb != sq) add(nb);
      if (num >= limit) return limit;
      s = next_[s];
    } while (s != own.h[i]);
  }
  // Captured stones next to the new chain become liberties.
  auto in_new_chain = [&](int p) {
    if (p == sq) return true;
    if (color_[p] != c) return false;
    for (int i = 0; i < own.n; ++i)
      if (head_[p] == own.h[i]) return true;
    return false;
  };
  for (const int nb : neighbours(sq)) {
    if (color_[nb] != o || libs_[head_[nb]] != 1) continue;
    const int h = head_[nb];
    int s = h;
    do {
      bool touches = false;
      for (const int nn : neighbours(s)) touches |= in_new_chain(nn);
      if (touches) add(s);
      if (num >= limit) return limit;
      s = next_[s];
    } while (s != h);
  }
  return std::min(num, limit);
}

int Position::chain_liberties(int sq, std::span<int> out) const {
  int n = 0;
  if (!is_stone(sq) || out.empty()) return 0;
  int s = sq;
  do {
    for (const int nb : neighbours(s)) {
      if (color_[nb] != kEmpty) continue;
      bool seen = false;
      for (int i = 0; i < n; ++i) seen |= out[static_cast<std::size_t>(i)] == nb;
      if (seen) continue;
      out[static_cast<std::size_t>(n++)] = nb;
      if (n == static_cast<int>(out.size())) return n;
    }
    s = next_[s];
  } while (s != sq);
  return n;
}

bool Position::is_self_atari(Move m) const {
  return m.is_point() && is_legal(m) && liberties_after(m.sq, 2) == 1;
}

bool Position::is_eye(int sq, Color c) const {
  if (!on_board(sq) || color_[sq] != kEmpty) return false;
  for (const int nb : neighbours(sq))
    if (color_[nb] != c && color_[nb] != kWall) return false;
  int enemy = 0, walls = 0;
  const Color o = opponent(c);
  for (const int d : kDiagonalSteps) {
    enemy += color_[sq + d] == o;
    walls += color_[sq + d] == kWall;
  }
  return walls > 0 ? enemy == 0 : enemy <= 1;
}

// --- setup --------------------------------------------------------------------------------

void Position::set_to_move(Color c) {
  to_move_ = c == kWhite ? kWhite : kBlack;
  refresh_hash();
}

bool Position::resume_after_passes() {
  if (passes_ < 2 || resigned_ != kNoColor || moves_ >= max_moves_) return false;
  passes_ = 0;
  refresh_hash();
  return true;
}

Result<void> Position::place_stone(Color c, int sq) {
  if (c != kBlack && c != kWhite) return fail("setup stone: not a colour");
  if (!on_board(sq)) return fail("setup stone at {}: off the board", sq);
  const std::string where = to_vertex(Move{static_cast<std::uint16_t>(sq)}, size());
  if (color_[sq] != kEmpty) return fail("setup stone at {}: occupied", where);
  if (liberties_after_setup(sq, c) == 0)
    return fail("setup stone at {}: leaves its chain without liberties", where);
  for (const int nb : neighbours(sq))
    if (color_[nb] == opponent(c) && libs_[head_[nb]] == 1)
      return fail("setup stone at {}: takes the last liberty of the chain at {}", where,
                  to_vertex(Move{static_cast<std::uint16_t>(nb)}, size()));
  place_and_merge(sq, c);
  ko_ = kNoPoint;
  history_.replace_last(stone_hash_);
  refresh_hash();
  return {};
}

int Position::liberties_after_setup(int sq, Color c) const {
  for (const int nb : neighbours(sq)) {
    if (color_[nb] == kEmpty) return 1;
    if (color_[nb] == c && libs_[head_[nb]] > 1) return 1;
  }
  return 0;
}

Result<std::vector<int>> Position::fixed_handicap_points(int size, int stones) {
  if (size < 7) return fail("no fixed handicap on a {}x{} board", size, size);
  const int most = (size % 2 == 1 && size >= 9) ? 9 : 4;
  if (stones < 2 || stones > most)
    return fail("fixed handicap of {} stones on a {}x{} board: 2 to {} allowed", stones, size, size,
                most);
  // Corner stones on the 3rd line below 13x13, the 4th from 13x13; sides and centre on the
  // middle lines.
  const int lo = size >= 13 ? 3 : 2;
  const int hi = size - 1 - lo;
  const int mid = size / 2;
  std::vector<int> pts = {point_of(lo, lo), point_of(hi, hi)};  // D4 Q16 (19x19)
  if (stones >= 3) pts.push_back(point_of(lo, hi));             // D16
  if (stones >= 4) pts.push_back(point_of(hi, lo));             // Q4
  if (stones >= 6) {
    pts.push_back(point_of(lo, mid));  // D10
    pts.push_back(point_of(hi, mid));  // Q10
  }
  if (stones >= 8) {
    pts.push_back(point_of(mid, lo));  // K4
    pts.push_back(point_of(mid, hi));  // K16
  }
  if (stones % 2 == 1 && stones >= 5) pts.push_back(point_of(mid, mid));  // tengen
  return pts;
}

Result<void> Position::set_fixed_handicap(int stones) {
  auto pts = fixed_handicap_points(size(), stones);
  if (!pts) return tl::unexpected(pts.error());
  return set_free_handicap(*pts);
}

Result<void> Position::set_free_handicap(std::span<const int> points) {
  if (stones_on_board() != 0 || moves_ != 0)
    return fail("handicap stones go on an empty board before the first move");
  if (points.size() < 2 || static_cast<int>(points.size()) >= size() * size())
    return fail("handicap of {} stones: 2 to {} allowed", points.size(), size() * size() - 1);
  Position trial = *this;
  for (const int sq : points) {
    auto ok = trial.place_stone(kBlack, sq);
    if (!ok) return with_context(ok.error(), "handicap");
  }
  trial.set_to_move(kWhite);
  *this = trial;
  return {};
}

// --- scoring ------------------------------------------------------------------------------

void Position::area_map(std::array<Color, kNumPoints>& owner) const {
  for (int sq = 0; sq < kNumPoints; ++sq)
    owner[sq] = color_[sq] == kEmpty ? kWall : static_cast<Color>(color_[sq]);
  // Empty points are marked kWall until their region has been flooded.
  std::array<std::uint16_t, kMaxBoardPoints> stack;
  std::array<std::uint16_t, kMaxBoardPoints> region;
  std::array<bool, kNumPoints> seen{};
  for (int i = 0; i < num_empty_; ++i) {
    const int start = empty_[i];
    if (seen[start]) continue;
    int top = 0, count = 0, reach = 0;
    stack[top++] = static_cast<std::uint16_t>(start);
    seen[start] = true;
    while (top > 0) {
      const int p = stack[--top];
      region[count++] = static_cast<std::uint16_t>(p);
      for (const int nb : neighbours(p)) {
        const int nc = color_[nb];
        if (nc == kEmpty) {
          if (!seen[nb]) {
            seen[nb] = true;
            stack[top++] = static_cast<std::uint16_t>(nb);
          }
        } else if (nc <= kWhite) {
          reach |= 1 << nc;
        }
      }
    }
    const Color who = reach == 1 ? kBlack : reach == 2 ? kWhite : kEmpty;
    for (int k = 0; k < count; ++k) owner[region[k]] = who;
  }
}

std::array<int, 2> Position::area() const {
  std::array<Color, kNumPoints> owner;
  area_map(owner);
  std::array<int, 2> a{};
  for (const Color c : owner)
    if (c <= kWhite) ++a[c];
  return a;
}

double Position::score() const {
  const auto a = area();
  return a[0] - a[1] - rules_.komi;
}

int Position::winner() const {
  if (resigned_ != kNoColor) return opponent(static_cast<Color>(resigned_));
  const double s = score();
  return s > 0 ? kBlack : s < 0 ? kWhite : -1;
}

Returns<Position> Position::returns() const {
  switch (winner()) {
    case kBlack:
      return {1.0, -1.0};
    case kWhite:
      return {-1.0, 1.0};
    default:
      return {0.0, 0.0};
  }
}

// --- text ---------------------------------------------------------------------------------

std::string Position::to_string() const {
  const int n = size();
  std::string letters = "   ";
  for (int x = 0; x < n; ++x) {
    letters += kColumns[x];
    letters += ' ';
  }
  letters.pop_back();
  std::string out = letters + "\n";
  for (int y = n - 1; y >= 0; --y) {
    out += fmt::format("{:>2}", y + 1);
    for (int x = 0; x < n; ++x) {
      const Color c = at(point_of(x, y));
      out += ' ';
      out += c == kBlack ? 'X' : c == kWhite ? 'O' : '.';
    }
    out += fmt::format(" {}\n", y + 1);
  }
  out += letters + "\n";
  return out;
}

Result<Move> parse_vertex(std::string_view text, int size) {
  if (size < kMinSize || size > kMaxSize) return fail("bad board size {}", size);
  std::string t;
  for (const char ch : text) t += static_cast<char>(ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
  if (t.empty()) return fail("empty vertex");
  if (t == "PASS") return Move::pass();
  if (t == "RESIGN") return Move::resign();
  const char col = t[0];
  if (col == 'I') return fail("bad vertex '{}': there is no column I", text);
  const auto x = kColumns.find(col);
  if (x == std::string_view::npos) return fail("bad vertex '{}': column must be a letter", text);
  if (static_cast<int>(x) >= size)
    return fail("bad vertex '{}': column {} is off a {}x{} board", text, col, size, size);
  if (t.size() < 2 || t.size() > 3) return fail("bad vertex '{}': row must be a number", text);
  int row = 0;
  for (std::size_t i = 1; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9') return fail("bad vertex '{}': row must be a number", text);
    row = row * 10 + (t[i] - '0');
  }
  if (row < 1 || row > size)
    return fail("bad vertex '{}': row {} is off a {}x{} board", text, row, size, size);
  return Move::at(static_cast<int>(x), row - 1);
}

std::string to_vertex(Move m, int size) {
  if (m.is_pass()) return "pass";
  if (m.is_resign()) return "resign";
  const int x = x_of(m.sq), y = y_of(m.sq);
  if (!m.is_point() || x < 0 || y < 0 || x >= size || y >= size) return "none";
  return fmt::format("{}{}", kColumns[x], y + 1);
}

}  // namespace kibitz::go
