#include "games/gomoku/position.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstring>

#include "games/gomoku/position_detail.hpp"

namespace kibitz::gomoku {

using namespace detail;

std::string_view rule_name(Rule r) {
  switch (r) {
    case Rule::kFreestyle:
      return "freestyle";
    case Rule::kExactFive:
      return "exact5";
    case Rule::kRenju:
      return "renju";
    case Rule::kCapture:
      return "capture";
  }
  return "?";
}

Rule rule_from_gomocup_bits(int bits) {
  return (bits & 16)  ? Rule::kCapture
         : (bits & 4) ? Rule::kRenju
         : (bits & 1) ? Rule::kExactFive
                      : Rule::kFreestyle;
}

Result<Rule> parse_rule(std::string_view name) {
  for (Rule r : {Rule::kFreestyle, Rule::kExactFive, Rule::kRenju, Rule::kCapture})
    if (name == rule_name(r)) return r;
  if (name == "standard" || name == "exact") return Rule::kExactFive;
  if (name == "ninuki" || name == "pente") return Rule::kCapture;
  return fail("unknown gomoku rule '{}' (freestyle, exact5, renju, capture)", name);
}

// --- construction -------------------------------------------------------------------------

Position::Position(Variant v) : variant_(v) {
  variant_.size = std::clamp(v.size, 15, kMaxSize);
  board_.fill(kWall);
  for (int y = 0; y < variant_.size; ++y)
    for (int x = 0; x < variant_.size; ++x) board_[square_of(x, y)] = kEmpty;
  const bool exact_black = v.rule == Rule::kExactFive || v.rule == Rule::kRenju;
  const bool exact_white = v.rule == Rule::kExactFive;
  table_ = {detail::pattern_table(exact_black), detail::pattern_table(exact_white)};
  outer_ = {exact_black, exact_white};
  const std::uint8_t black_mode = v.rule == Rule::kRenju     ? kRenjuBlack
                                  : v.rule == Rule::kCapture ? kCaptureRule
                                                             : kPlain;
  mode_ = {black_mode,
           v.rule == Rule::kCapture ? std::uint8_t{kCaptureRule} : std::uint8_t{kPlain}};
  capture_weight_ = v.rule == Rule::kCapture ? kCapturePairValue : 0;
  eval_ = detail::eval_tables(variant_.rule);
  for (int c = 0; c < 2; ++c)
    direct_[c] = {eval_->direct[mode_[c]].data(),
                  eval_->direct[mode_[c] == kCaptureRule ? 3 : mode_[c]].data()};
  rebuild();
  parent_score_ = score_;
}

void Position::rebuild() {
  key_ = {};
  entry_ = {};
  summary_ = {};
  contrib_ = {};
  count_ = {};
  score_ = {};
  capturable_ = {};
  near1_ = {};
  near2_ = {};
  stones_ = 0;
  for (int sq = 0; sq < kSquares; ++sq) {
    if (board_[sq] == kWall) continue;
    if (board_[sq] != kEmpty) {
      ++stones_;
      continue;
    }
    load_keys(sq);
    load_entries(sq);
  }
  for (int sq = 0; sq < kSquares; ++sq) {
    if (board_[sq] == kWall) continue;
    refresh_point(sq);
    if (board_[sq] != kEmpty) update_near(sq, +1);
  }
  hash_ = compute_hash();
}

Result<Position> Position::from_moves(Variant v, std::span<const std::pair<int, int>> xy) {
  if (v.size < 15 || v.size > kMaxSize)
    return fail("board size {} is not supported (15 to {})", v.size, kMaxSize);
  Position pos(v);
  for (std::size_t i = 0; i < xy.size(); ++i) {
    const int x = xy[i].first, y = xy[i].second;
    const auto where = [&] { return fmt::format("move {} ({},{})", i + 1, x, y); };
    if (x < 0 || y < 0 || x >= v.size || y >= v.size)
      return fail("{}: off the {}x{} board", where(), v.size, v.size);
    const Move m{static_cast<std::uint16_t>(square_of(x, y))};
    if (pos.is_terminal()) return fail("{}: the game is already over", where());
    if (pos.stone(m.sq) != kEmpty) return fail("{}: the point is occupied", where());
    if (pos.is_forbidden(m)) return fail("{}: forbidden under {}", where(), rule_name(v.rule));
    pos.apply(m);
  }
  return pos;
}

Result<Position> Position::from_setup(Variant v, std::span<const std::pair<int, int>> black,
                                      std::span<const std::pair<int, int>> white, int side_to_move,
                                      std::array<int, 2> captured) {
  if (v.size < 15 || v.size > kMaxSize)
    return fail("board size {} is not supported (15 to {})", v.size, kMaxSize);
  if (side_to_move != 0 && side_to_move != 1)
    return fail("side to move {} is neither 0 (black) nor 1 (white)", side_to_move);
  Position pos(v);
  for (Color c : {kBlack, kWhite}) {
    for (const auto& [x, y] : c == kBlack ? black : white) {
      if (x < 0 || y < 0 || x >= v.size || y >= v.size)
        return fail("stone ({},{}) is off the {}x{} board", x, y, v.size, v.size);
      const int sq = square_of(x, y);
      if (pos.board_[sq] != kEmpty) return fail("point ({},{}) is given twice", x, y);
      pos.board_[sq] = c;
    }
  }
  // A five already on the board (a finished game) is no position to play from.
  for (int sq = 0; sq < kSquares; ++sq) {
    const std::uint8_t c = pos.board_[sq];
    if (c != kBlack && c != kWhite) continue;
    const bool exact = v.rule == Rule::kExactFive || (v.rule == Rule::kRenju && c == kBlack);
    for (const int step : kDirections) {
      if (pos.board_[sq - step] == c) continue;  // not the start of a run
      int run = 0;
      for (int s = sq; pos.board_[s] == c; s += step) ++run;
      if (run == 5 || (run > 5 && !exact))
        return fail("a five is already on the board at ({},{})", x_of(sq), y_of(sq));
    }
  }
  for (int c : {0, 1}) {
    if (captured[c] < 0 || captured[c] >= kCaptureWin || (captured[c] && v.rule != Rule::kCapture))
      return fail("captured stones {} for {} are not possible here", captured[c],
                  c == 0 ? "black" : "white");
    pos.captures_[c] = captured[c];
  }
  pos.side_ = side_to_move == 0 ? kBlack : kWhite;
  pos.rebuild();
  pos.parent_score_ = pos.score_;
  return pos;
}

std::uint64_t Position::hash_after(Move m) const {
  return hash_ ^ stone_key(side_, m.sq) ^ kZobrist[kZSide];
}

std::uint64_t Position::compute_hash() const {
  std::uint64_t h = 0;
  for (int sq = 0; sq < kSquares; ++sq)
    if (board_[sq] == kBlack || board_[sq] == kWhite) h ^= stone_key(board_[sq], sq);
  if (side_ == kWhite) h ^= kZobrist[kZSide];
  h ^= capture_key(0, captures_[0]) ^ capture_key(1, captures_[1]);
  if (pending_) h ^= pending_key(pending_ - 1);
  return h;
}

namespace {
int transform_square(int sq, int t, int n) {
  if (sq == 0) return 0;
  int x = x_of(sq), y = y_of(sq);
  if (t & 1) std::swap(x, y);
  if (t & 2) x = n - 1 - x;
  if (t & 4) y = n - 1 - y;
  return square_of(x, y);
}
}  // namespace

std::uint64_t Position::sym_hash() const {
  std::array<std::uint64_t, kNumSymmetries> keys{};
  const int n = variant_.size;
  for (int sq = 0; sq < kSquares; ++sq) {
    const std::uint8_t c = board_[sq];
    if (c != kBlack && c != kWhite) continue;
    for (int t = 0; t < kNumSymmetries; ++t) keys[t] ^= stone_key(c, transform_square(sq, t, n));
  }
  std::uint64_t rest = capture_key(0, captures_[0]) ^ capture_key(1, captures_[1]);
  if (side_ == kWhite) rest ^= kZobrist[kZSide];
  if (pending_) rest ^= pending_key(pending_ - 1);
  return *std::min_element(keys.begin(), keys.end()) ^ rest;
}

Position Position::transformed(int t) const {
  Position out = *this;
  const int n = variant_.size;
  for (int sq = 0; sq < kSquares; ++sq)
    if (board_[sq] != kWall) out.board_[sq] = kEmpty;
  for (int sq = 0; sq < kSquares; ++sq)
    if (board_[sq] == kBlack || board_[sq] == kWhite)
      out.board_[transform_square(sq, t, n)] = board_[sq];
  out.last_ = static_cast<std::uint16_t>(transform_square(last_, t, n));
  out.five_sq_ = static_cast<std::uint16_t>(transform_square(five_sq_, t, n));
  out.rebuild();
  return out;
}

// --- the incremental pattern state ---------------------------------------------------------

namespace {
// Calls near(p, d, unit) for each point p within four cells of sq on its four lines (d the
// direction), where unit is the weight of sq's digit in p's key along d; and, where `outer`,
// far(p, d, unit) for the points five cells away.
template <class Near, class Far>
inline void for_each_window_point(const std::array<std::uint8_t, kSquares>& board, int sq,
                                  bool outer, Near&& near, Far&& far) {
  for (int d = 0; d < 4; ++d) {
    const int step = kDirections[d];
    for (int side = -1; side <= 1; side += 2) {
      int p = sq;
      int k = 1;
      for (; k < detail::kHalfWindow; ++k) {
        p += side * step;
        if (board[p] == kWall) break;
        near(p, d, static_cast<int>(kPow3[detail::digit_of(-side * k)]));
      }
      if (!outer || k < detail::kHalfWindow) continue;
      p += side * step;
      if (board[p] != kWall)
        far(p, d, static_cast<int>(kPow3[detail::digit_of(-side * detail::kHalfWindow)]));
    }
  }
}
}  // namespace

void Position::update_lines(int sq, Color c, int sign, Undo* log) {
  // The colour as a constant: the loop indexes both colours' arrays by it.
  if (c == kBlack)
    update_lines_as<kBlack>(sq, sign, log);
  else
    update_lines_as<kWhite>(sq, sign, log);
}

template <int C>
void Position::update_lines_as(int sq, int sign, Undo* log) {
  constexpr int O = 1 - C;
  // The colour placing or removing sees its own stone, the other a blocked cell.
  const std::uint8_t* const own_table = table_[C];
  const std::uint8_t* const other_table = table_[O];
  // First the window's empty points, with what the stone adds to their keys: a stone keeps
  // no keys or entries (they are zero, set again when it goes), so a quarter of the window
  // is skipped. The list is made branch-free (whether a point is empty is a coin toss to the
  // predictor), and logged, so that unmake walks it instead of the window.
  std::array<Undo::Key, 32> near_scratch;
  std::array<Undo::Key, 8> far_scratch;
  Undo::Key* const near_list = log ? log->near.data() : near_scratch.data();
  Undo::Key* const far_list = log ? log->far.data() : far_scratch.data();
  int num_near = 0, num_far = 0;
  for_each_window_point(
      board_, sq, outer_[C],
      [&](int p, int d, int weight) {
        near_list[num_near] = {static_cast<std::uint16_t>(p * 4 + d),
                               static_cast<std::int16_t>(sign * weight)};
        num_near += board_[p] == kEmpty;
      },
      [&](int p, int d, int weight) {
        far_list[num_far] = {static_cast<std::uint16_t>(p * 4 + d),
                             static_cast<std::int16_t>(sign * weight)};
        num_far += board_[p] == kEmpty;
      });
  if (log) {
    log->num_near = static_cast<std::uint8_t>(num_near);
    log->num_far = static_cast<std::uint8_t>(num_far);
  }
  // Each window point lies on one line through sq, so it changes in one entry per colour, and
  // its summaries are refreshed there and then, from its four entries read as one word.
  // Branch-free logging: every point writes its log cell, and only the count says which stay.
  std::array<Undo::Cell, 40> scratch;
  Undo::Cell* const cells = log ? log->cells.data() : scratch.data();
  int num_cells = log ? log->num_cells : 0;
  // Indexed through the members (fixed offsets from `this`) rather than pointers held in
  // locals: the loop then needs few registers and spills none.
  const auto flat_key = [this](int col, int i) -> std::uint16_t& { return (&key_[col][0][0])[i]; };
  const auto update = [&](int i, int own_unit, bool both) {
    const int p = i / 4, shift = 8 * (i & 3);
    const auto own_key = static_cast<std::uint16_t>(flat_key(C, i) + own_unit);
    flat_key(C, i) = own_key;
    const std::uint32_t own_old = entry_word(C, p);
    const std::uint32_t own_new = (own_old & ~(0xffu << shift)) | std::uint32_t{own_table[own_key]}
                                                                      << shift;
    std::memcpy(entry_[C][p].data(), &own_new, 4);
    std::uint32_t other_old = entry_word(O, p), other_new = other_old;
    if (both) {
      const auto other_key = static_cast<std::uint16_t>(flat_key(O, i) + 2 * own_unit);
      flat_key(O, i) = other_key;
      other_new = (other_old & ~(0xffu << shift)) | std::uint32_t{other_table[other_key]} << shift;
      std::memcpy(entry_[O][p].data(), &other_new, 4);
    }
    Undo::Cell& cell = cells[num_cells];
    cell.sq = static_cast<std::uint16_t>(p);
    cell.entries[C] = own_old;
    cell.entries[O] = other_old;
    cell.summary = {summary_[0][p], summary_[1][p]};
    cell.contrib = {contrib_[0][p], contrib_[1][p]};
    const bool own_changed = own_new != own_old, other_changed = other_new != other_old;
    num_cells += own_changed | other_changed;
    if (own_changed) refresh_colour(p, C, own_new);
    if (other_changed) refresh_colour(p, O, other_new);
  };
  for (int k = 0; k < num_near; ++k) update(near_list[k].index, near_list[k].unit, true);
  // Five away only the own stone counts, and only under an exact table (outer_).
  for (int k = 0; k < num_far; ++k) update(far_list[k].index, far_list[k].unit, false);
  if (log) log->num_cells = static_cast<std::uint8_t>(num_cells);
}

void Position::unmake_logged(int sq, const Undo& u) {
  const Color c = static_cast<Color>(board_[sq]);
  board_[sq] = kEmpty;
  --stones_;
  std::uint16_t* const own_keys = &key_[c][0][0];
  std::uint16_t* const other_keys = &key_[1 - c][0][0];
  for (int k = 0; k < u.num_near; ++k) {
    const int i = u.near[k].index, unit = u.near[k].unit;
    own_keys[i] = static_cast<std::uint16_t>(own_keys[i] - unit);
    other_keys[i] = static_cast<std::uint16_t>(other_keys[i] - 2 * unit);
  }
  for (int k = 0; k < u.num_far; ++k)
    own_keys[u.far[k].index] = static_cast<std::uint16_t>(own_keys[u.far[k].index] - u.far[k].unit);
  for (int col = 0; col < 2; ++col) key_[col][sq] = u.stone_keys[col];
  // The stone's own cell is the last: its entries were logged before they were zeroed.
  for (int k = 0; k < u.num_cells; ++k) {
    const Undo::Cell& cell = u.cells[k];
    for (int col = 0; col < 2; ++col) {
      std::memcpy(entry_[col][cell.sq].data(), &cell.entries[col], 4);
      summary_[col][cell.sq] = cell.summary[col];
      contrib_[col][cell.sq] = cell.contrib[col];
    }
  }
  count_ = u.count;
  capturable_ = u.capturable;
  score_ = {u.eval_state[0], u.eval_state[1]};
  update_near(sq, -1);
}

void Position::update_near(int sq, int sign) {
  const int x = x_of(sq), y = y_of(sq), n = variant_.size;
  // Two cells from every edge (most stones): no test per cell (the tests cost a branch miss
  // every few calls), and a row of the square is one 8-byte add of a 1 in each byte it
  // covers (the counts stay within 0..24, so no byte carries into the next).
  if (x >= 2 && y >= 2 && x <= n - 3 && y <= n - 3) {
    const auto add = [sign](std::uint8_t* at, std::uint64_t ones) {
      std::uint64_t v;
      std::memcpy(&v, at, sizeof v);
      v = sign > 0 ? v + ones : v - ones;
      std::memcpy(at, &v, sizeof v);
    };
    for (int dy = -2; dy <= 2; ++dy)
      add(near2_.data() + sq + dy * kStride - 2, dy ? 0x0101010101u : 0x0101000101u);
    for (int dy = -1; dy <= 1; ++dy)
      add(near1_.data() + sq + dy * kStride - 1, dy ? 0x010101u : 0x010001u);
    return;
  }
  for (int dy = -2; dy <= 2; ++dy) {
    if (y + dy < 0 || y + dy >= n) continue;
    for (int dx = -2; dx <= 2; ++dx) {
      if (x + dx < 0 || x + dx >= n || (dx == 0 && dy == 0)) continue;
      const int t = sq + dy * kStride + dx;
      near2_[t] = static_cast<std::uint8_t>(near2_[t] + sign);
      if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
        near1_[t] = static_cast<std::uint8_t>(near1_[t] + sign);
    }
  }
}

// An empty point's summary and value for colour c from its entries `entries`, with the
// counts and scores they feed. Inline: it runs some twenty times a make.
[[gnu::always_inline]] inline void Position::refresh_colour(int sq, int c, std::uint32_t entries) {
  const std::uint16_t old = summary_[c][sq];
  int value = 0;
  const std::uint16_t now = summarise_direct(entries, direct_[c], capture_weight_, value);
  // Unconditional (whether the summary changed is unpredictable): the same bucket is taken
  // from and given back, and bucket 0 (no threat) is never read.
  const int old_bucket = (old & kFlagged) ? kFlaggedBucket : summary_threat(old);
  const int new_bucket = (now & kFlagged) ? kFlaggedBucket : summary_threat(now);
  --count_[c][old_bucket];
  ++count_[c][new_bucket];
  capturable_[c] += summary_captures(now) - summary_captures(old);
  summary_[c][sq] = now;
  score_[c] += value - contrib_[c][sq];
  contrib_[c][sq] = static_cast<std::int16_t>(value);
}

void Position::refresh_point(int sq, int colours, Undo* log) {
  if (log) {
    Undo::Cell& cell = log->cells[log->num_cells++];
    cell.sq = static_cast<std::uint16_t>(sq);
    cell.entries = {entry_word(0, sq), entry_word(1, sq)};
    cell.summary = {summary_[0][sq], summary_[1][sq]};
    cell.contrib = {contrib_[0][sq], contrib_[1][sq]};
  }
  for (Color c : {kBlack, kWhite}) {
    if (!(colours & (1 << c))) continue;
    if (board_[sq] == kEmpty) {
      refresh_colour(sq, c, entry_word(c, sq));
      continue;
    }
    // A stone's point is worth nothing and threatens nothing.
    const std::uint16_t old = summary_[c][sq];
    const int old_bucket = (old & kFlagged) ? kFlaggedBucket : summary_threat(old);
    --count_[c][old_bucket];
    ++count_[c][0];
    capturable_[c] -= summary_captures(old);
    summary_[c][sq] = 0;
    score_[c] -= contrib_[c][sq];
    contrib_[c][sq] = 0;
  }
}

std::uint64_t Position::point_info(int c, int sq) const {
  std::uint64_t sum = 0;
  for (int d = 0; d < 4; ++d) sum += eval_->entry_info[entry_[c][sq][d]];
  return sum;
}

void Position::load_keys(int sq) {
  for (Color c : {kBlack, kWhite})
    for (int d = 0; d < 4; ++d)
      key_[c][sq][d] = detail::outer_key(scan_key(board_.data(), sq, kDirections[d], c), outer_[c]);
}

void Position::load_entries(int sq) {
  for (Color c : {kBlack, kWhite})
    for (int d = 0; d < 4; ++d) entry_[c][sq][d] = table_[c][key_[c][sq][d]];
}

void Position::set_stone(int sq, Color c, Undo* log) {
  board_[sq] = c;
  ++stones_;
  hash_ ^= stone_key(c, sq);
  update_lines(sq, c, +1, log);
  // A stone's point holds no keys or entries (make / unmake skip it): logged, they come
  // back as they were, since nothing changes a point's keys but the stones on its lines.
  if (log)
    for (int col = 0; col < 2; ++col) log->stone_keys[col] = key_[col][sq];
  refresh_point(sq, 3, log);  // logs the entries, then values the point as a stone's
  for (int col = 0; col < 2; ++col) {
    key_[col][sq] = {};
    entry_[col][sq] = {};
  }
  update_near(sq, +1);
}

void Position::clear_stone(int sq) {
  const Color c = static_cast<Color>(board_[sq]);
  board_[sq] = kEmpty;
  --stones_;
  hash_ ^= stone_key(c, sq);
  update_lines(sq, c, -1, nullptr);
  load_keys(sq);
  load_entries(sq);
  refresh_point(sq);
  update_near(sq, -1);
}

bool Position::pattern_state_consistent() const {
  Position fresh = *this;
  fresh.rebuild();
  return fresh == *this;
}

// --- the game ------------------------------------------------------------------------------

int Position::current_player() const { return is_terminal() ? kTerminalPlayer : side_; }

bool Position::is_terminal() const {
  return winner_ != kNoWinner || stones_ == variant_.size * variant_.size;
}

Returns<Position> Position::returns() const {
  if (winner_ == kBlack) return {1.0, -1.0};
  if (winner_ == kWhite) return {-1.0, 1.0};
  return {0.0, 0.0};
}

void Position::apply(Move m) {
  Undo u;
  make(m, u);
}

void Position::make(Move m, Undo& u) {
  const int sq = m.sq;
  const Color c = side_, o = opponent(c);
  u.hash = hash_;
  u.winner = static_cast<std::int8_t>(winner_);
  u.five_pending = pending_;
  u.five_square = five_sq_;
  u.last_move = last_;
  u.eval_state[0] = score_[0];
  u.eval_state[1] = score_[1];
  u.parent_score = parent_score_;
  parent_score_ = score_;
  u.num_captured = 0;
  u.count = count_;
  u.capturable = capturable_;
  u.num_cells = 0;

  const bool five = summary_threat(summary_[c][sq]) == static_cast<int>(Threat::kFive);
  set_stone(sq, c, &u);
  u.logged = true;
  if (variant_.rule == Rule::kCapture) {
    int taken = 0;
    for (const int e : kEightWays) {
      const int a = sq + e;
      if (board_[a] == o && board_[a + e] == o && board_[a + 2 * e] == c) {
        u.captured[taken++] = static_cast<std::uint16_t>(a);
        u.captured[taken++] = static_cast<std::uint16_t>(a + e);
        clear_stone(a);
        clear_stone(a + e);
      }
    }
    if (taken) {
      hash_ ^= capture_key(c, captures_[c]) ^ capture_key(c, captures_[c] + taken);
      captures_[c] += taken;
      u.num_captured = static_cast<std::uint8_t>(taken);
      u.logged = false;  // the captures changed more than the log holds
    }
  }
  side_ = o;
  hash_ ^= kZobrist[kZSide];
  last_ = static_cast<std::uint16_t>(sq);

  if (variant_.rule != Rule::kCapture) {
    if (five) winner_ = c;
  } else {
    bool decided = false;
    if (pending_) {
      // The opponent's five waited for this reply: it stands unless the reply broke it.
      const Color owner = static_cast<Color>(pending_ - 1);
      const int at = five_sq_;
      hash_ ^= pending_key(owner);
      pending_ = 0;
      five_sq_ = 0;
      if (captures_[c] >= kCaptureWin) {
        winner_ = c;
        decided = true;
      } else if (has_five_through(board_, at, owner)) {
        winner_ = owner;
        decided = true;
      }
    }
    if (!decided) {
      if (captures_[c] >= kCaptureWin) {
        winner_ = c;
      } else if (five) {
        if (five_breakable(c, sq)) {
          pending_ = static_cast<std::uint8_t>(c + 1);
          five_sq_ = static_cast<std::uint16_t>(sq);
          hash_ ^= pending_key(c);
        } else {
          winner_ = c;
        }
      }
    }
  }
  check_no_moves();
}

void Position::unmake(Move m, const Undo& u) {
  const Color c = opponent(side_);
  side_ = c;
  if (u.logged) {
    unmake_logged(m.sq, u);
  } else {
    for (int i = 0; i < u.num_captured; ++i) set_stone(u.captured[i], opponent(c));
    captures_[c] -= u.num_captured;
    clear_stone(m.sq);
  }
  hash_ = u.hash;
  winner_ = u.winner;
  pending_ = u.five_pending;
  five_sq_ = u.five_square;
  last_ = u.last_move;
  parent_score_ = u.parent_score;
  assert(score_[0] == u.eval_state[0] && score_[1] == u.eval_state[1]);
}

void Position::make_null(Undo& u) {
  u.hash = hash_;
  u.winner = static_cast<std::int8_t>(winner_);
  u.five_pending = pending_;
  u.five_square = five_sq_;
  u.last_move = last_;
  u.eval_state[0] = score_[0];
  u.eval_state[1] = score_[1];
  u.parent_score = parent_score_;
  parent_score_ = score_;
  u.num_captured = 0;
  u.logged = false;
  side_ = opponent(side_);
  hash_ ^= kZobrist[kZSide];
}

void Position::unmake_null(const Undo& u) {
  side_ = opponent(side_);
  hash_ = u.hash;
  winner_ = u.winner;
  pending_ = u.five_pending;
  five_sq_ = u.five_square;
  last_ = u.last_move;
  parent_score_ = u.parent_score;
}

// Renju or the capture variant can in principle leave the side to move nothing legal on a
// board that is not full; that is a draw. Only checked when every empty point is flagged.
void Position::check_no_moves() {
  if (winner_ != kNoWinner) return;
  const bool restricted =
      variant_.rule == Rule::kCapture || (variant_.rule == Rule::kRenju && side_ == kBlack);
  if (!restricted) return;
  const int empties = variant_.size * variant_.size - stones_;
  if (empties == 0 || count_[side_][kFlaggedBucket] != empties) return;
  for (int sq = first_point(); sq <= last_point(); ++sq)
    if (board_[sq] == kEmpty && !forbidden_for(sq, side_)) return;
  winner_ = kDrawNoMoves;
}

// --- queries -------------------------------------------------------------------------------

int Position::shape(int sq, Color c) const {
  if (!on_board(sq) || board_[sq] != kEmpty) return kShapes;
  int value = 0, shape = kShapes;
  summarise(point_info(c, sq), mode_[c], value, &shape);
  return shape;
}

int Position::capture_count(int sq, Color c) const {
  if (variant_.rule != Rule::kCapture || !on_board(sq) || board_[sq] != kEmpty) return 0;
  return summary_captures(summary_[c][sq]);
}

bool Position::makes_five(Move m, Color c) const { return threat(m.sq, c) == Threat::kFive; }

}  // namespace kibitz::gomoku
