#include "games/gomoku/position.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

#include "core/zobrist.hpp"
#include "games/gomoku/eval_weights.hpp"
#include "games/gomoku/patterns.hpp"

namespace kibitz::gomoku {

using detail::entry_fours;
using detail::entry_pattern;
using detail::entry_straight_four;
using detail::kPow3;
using detail::scan_key;

namespace {

// Zobrist keys: stones, side to move, capture counts per colour, a pending five per colour.
constexpr int kZSide = 2 * kSquares;
constexpr int kZCaptures = kZSide + 1;
constexpr int kZCaptureSlots = 64;
constexpr int kZPending = kZCaptures + 2 * kZCaptureSlots;
constexpr ZobristTable<kZPending + 2> kZobrist(0x676F6D6F6B75ull);

std::uint64_t stone_key(int c, int sq) { return kZobrist[c * kSquares + sq]; }
std::uint64_t capture_key(int c, int n) {
  return n == 0 ? 0 : kZobrist[kZCaptures + c * kZCaptureSlots + std::min(n, kZCaptureSlots - 1)];
}
std::uint64_t pending_key(int c) { return kZobrist[kZPending + c]; }

// The eight capture directions.
constexpr std::array<int, 8> kEightWays = {1,           -1,           kStride,     -kStride,
                                           kStride + 1, -kStride - 1, kStride - 1, -kStride + 1};

// Evaluation: the weights (eval_weights.hpp) value each empty point for each colour: what it
// makes on each line (a point completing a five marks a four on the board, one making an open
// four marks an open three, ...) plus a term for the combination over the four lines. The
// terms below are the capture variant's own and the thresholds that keep ordinary values far
// below the search's mate range.
constexpr int kCapturePairValue = 40;  // a pair one could capture now
constexpr std::array<int, 10> kCapturedValue = {0,   0,   120, 120,  300,
                                                300, 650, 650, 1400, 1400};  // by stones taken
constexpr int kEvalCap = 9000;    // ordinary evaluations stay within this
constexpr int kWinNow = 15000;    // the side to move completes a five
constexpr int kLossNext = 14000;  // the opponent has two fives to complete
constexpr int kWinSoon = 13000;   // an open four to make, no five to answer
constexpr int kDecided = 16000;   // a finished game
constexpr int kRenjuDepth = 4;    // recursion limit of the real-three check

constexpr int summary_threat(std::uint16_t s) { return s & 0x0f; }
constexpr int summary_captures(std::uint16_t s) { return (s >> 4) & 0x0f; }

// The summary of a point for one colour from its four line entries, by table: each entry
// contributes packed counters and its pattern's value (detail::EvalTables::entry_info, see
// eval_weights.cpp); the four are added, the counters saturated into an index, and a table
// built at compile time gives Threat and flag.

// Saturated counters -> index: fives (0-1), overlines (0-1), fours (0-2), straight fours
// (0-1), free threes (0-2), threes (0-1), flex twos (0-2), twos (0-1), captures (0-1).
constexpr int kComboSize = 2 * 2 * 3 * 2 * 3 * 2 * 3 * 2 * 2;
enum ComboMode { kPlain = 0, kRenjuBlack = 1, kCaptureRule = 2 };

constexpr std::array<std::array<std::uint16_t, kComboSize>, 3> kCombo = [] {
  std::array<std::array<std::uint16_t, kComboSize>, 3> t{};
  for (int mode = 0; mode < 3; ++mode)
    for (int i = 0; i < kComboSize; ++i) {
      int r = i;
      const int fives = r % 2;
      r /= 2;
      const int overlines = r % 2;
      r /= 2;
      const int fours = r % 3;
      r /= 3;
      const int straight = r % 2;
      r /= 2;
      const int flex3 = r % 3;
      r /= 3;
      const int three = r % 2;
      r /= 2;
      const int flex2 = r % 3;
      r /= 3;
      const int two = r % 2;
      r /= 2;
      const int caps = r % 2;
      Threat th = Threat::kNone;
      if (fives)
        th = Threat::kFive;
      else if (straight || fours >= 2)
        th = Threat::kFlexFour;
      else if (fours)
        th = flex3 ? Threat::kFourThree : Threat::kFour;
      else if (flex3 >= 2)
        th = Threat::kThreeThree;
      else if (flex3)
        th = Threat::kFlexThree;
      else if (three)
        th = Threat::kThree;
      else if (flex2 >= 2)
        th = Threat::kTwoTwo;
      else if (flex2 || two)
        th = Threat::kTwo;
      bool flagged = false;
      if (!fives && mode == kRenjuBlack) flagged = overlines || fours >= 2 || flex3 >= 2;
      if (!fives && mode == kCaptureRule) flagged = flex3 >= 2 && !caps;
      t[mode][i] = static_cast<std::uint16_t>(static_cast<int>(th) | (flagged ? 0x100 : 0));
    }
  return t;
}();

// The shape (eval_weights.hpp: kShapes, the last for none) of each kCombo index.
constexpr std::array<std::uint8_t, kComboSize> kShapeOfCombo = [] {
  std::array<std::uint8_t, kComboSize> t{};
  for (int i = 0; i < kComboSize; ++i) {
    const int fives = i % 2, overlines = i / 2 % 2, fours = i / 4 % 3, straight = i / 12 % 2,
              flex3 = i / 24 % 3, three = i / 72 % 2, flex2 = i / 144 % 3, two = i / 432 % 2;
    t[i] = fives || overlines || straight || fours >= 2
               ? static_cast<std::uint8_t>(kShapes)
               : static_cast<std::uint8_t>(shape_index(fours, flex3, three, flex2, two));
  }
  return t;
}();

// The saturated counters of a summed entry_info as a kCombo index, in two lookups: bits 0-12
// (fives, overlines, fours, straight fours) give the index's low part, bits 13-24 (free
// threes, threes, flex twos, twos) its middle part in units of 24; the captures bit adds 864.
constexpr std::array<std::uint8_t, 1 << 13> kIndexLow = [] {
  std::array<std::uint8_t, 1 << 13> t{};
  for (std::uint32_t b = 0; b < t.size(); ++b)
    t[b] = static_cast<std::uint8_t>(std::min(b & 7, 1u) + 2 * std::min((b >> 3) & 7, 1u) +
                                     4 * std::min((b >> 6) & 15, 2u) +
                                     12 * std::min((b >> 10) & 7, 1u));
  return t;
}();
constexpr std::array<std::uint8_t, 1 << 12> kIndexMiddle = [] {
  std::array<std::uint8_t, 1 << 12> t{};
  for (std::uint32_t b = 0; b < t.size(); ++b)
    t[b] =
        static_cast<std::uint8_t>(std::min(b & 7, 2u) + 3 * std::min((b >> 3) & 7, 1u) +
                                  6 * std::min((b >> 6) & 7, 2u) + 18 * std::min((b >> 9) & 7, 1u));
  return t;
}();

// The summary (Threat | captures << 4 | flag) from the sum of a point's four entry_info;
// `value` gets the summed pattern values, `shape` (when asked) the point's shape.
inline std::uint16_t summarise(std::uint64_t sum, int mode, int& value, int* shape = nullptr) {
  const auto lo = static_cast<std::uint32_t>(sum);
  const std::uint32_t caps = (lo >> 25) & 15;
  const std::uint32_t index =
      kIndexLow[lo & 0x1fff] + 24u * kIndexMiddle[(lo >> 13) & 0xfff] + (caps ? 864u : 0u);
  value = static_cast<int>(sum >> 32);
  if (shape) *shape = kShapeOfCombo[index];
  return static_cast<std::uint16_t>(kCombo[mode][index] | (caps << 4));
}

// A run of five or more stones of c on one of the four lines through sq (capture variant).
bool has_five_through(const std::array<std::uint8_t, kSquares>& b, int sq, Color c) {
  for (const int step : kDirections) {
    int s = sq;
    while (b[s - step] != kWall) s -= step;
    int run = 0;
    for (; b[s] != kWall; s += step) {
      run = b[s] == c ? run + 1 : 0;
      if (run >= 5) return true;
    }
  }
  return false;
}

}  // namespace

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
  const std::uint8_t black_mode = v.rule == Rule::kRenju     ? kRenjuBlack
                                  : v.rule == Rule::kCapture ? kCaptureRule
                                                             : kPlain;
  mode_ = {black_mode,
           v.rule == Rule::kCapture ? std::uint8_t{kCaptureRule} : std::uint8_t{kPlain}};
  capture_weight_ = v.rule == Rule::kCapture ? kCapturePairValue : 0;
  eval_ = detail::eval_tables(variant_.rule);
  rebuild();
}

void Position::rebuild() {
  key_ = {};
  entry_ = {};
  info_ = {};
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
    if (board_[sq] != kEmpty) ++stones_;
    for (Color c : {kBlack, kWhite})
      for (int d = 0; d < 4; ++d) {
        key_[c][sq][d] = scan_key(board_.data(), sq, kDirections[d], c);
        entry_[c][sq][d] = table_[c][key_[c][sq][d]];
        info_[c][sq] += eval_->entry_info[entry_[c][sq][d]];
      }
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
// Calls f(p, d, unit) for each point p within the window of sq on its four lines (d the
// direction), where unit is the weight of sq's digit in p's key along d.
template <class F>
inline void for_each_window_point(const std::array<std::uint8_t, kSquares>& board, int sq, F&& f) {
  for (int d = 0; d < 4; ++d) {
    const int step = kDirections[d];
    for (int side = -1; side <= 1; side += 2) {
      int p = sq;
      for (int k = 1; k <= detail::kHalfWindow; ++k) {
        p += side * step;
        if (board[p] == kWall) break;
        f(p, d, static_cast<int>(kPow3[detail::digit_of(-side * k)]));
      }
    }
  }
}
}  // namespace

void Position::update_lines(int sq, Color c, int sign, Undo* log) {
  // The colour placing or removing sees its own stone, the other a blocked cell.
  std::uint16_t* const own_keys = &key_[c][0][0];
  std::uint16_t* const other_keys = &key_[1 - c][0][0];
  std::uint8_t* const own_entries = &entry_[c][0][0];
  std::uint8_t* const other_entries = &entry_[1 - c][0][0];
  const std::uint8_t* const own_table = table_[c];
  const std::uint8_t* const other_table = table_[1 - c];
  std::uint64_t* const own_info = info_[c].data();
  std::uint64_t* const other_info = info_[1 - c].data();
  // Points whose summary may change, refreshed once the keys are all updated.
  std::array<std::uint16_t, 40> touched;
  std::array<std::uint8_t, 40> colours;
  int num_touched = 0;
  for_each_window_point(board_, sq, [&](int p, int d, int weight) {
    const int unit = sign * weight;
    const int i = p * 4 + d;
    own_keys[i] = static_cast<std::uint16_t>(own_keys[i] + unit);
    other_keys[i] = static_cast<std::uint16_t>(other_keys[i] + 2 * unit);
    const std::uint8_t own_entry = own_table[own_keys[i]];
    const std::uint8_t other_entry = other_table[other_keys[i]];
    const std::uint8_t own_old = own_entries[i], other_old = other_entries[i];
    if (own_entry == own_old && other_entry == other_old) return;
    if (log) {
      Undo::Cell& cell = log->cells[log->num_cells++];
      cell.index = static_cast<std::uint16_t>(i);
      cell.entry[c] = own_old;
      cell.entry[1 - c] = other_old;
      cell.info[c] = own_info[p];
      cell.info[1 - c] = other_info[p];
    }
    own_entries[i] = own_entry;
    other_entries[i] = other_entry;
    // Only what the summary is made of matters (dead <-> none changes nothing).
    const std::uint64_t own_delta = eval_->entry_info[own_entry] - eval_->entry_info[own_old];
    const std::uint64_t other_delta = eval_->entry_info[other_entry] - eval_->entry_info[other_old];
    own_info[p] += own_delta;
    other_info[p] += other_delta;
    const int changed = (own_delta ? 1 << c : 0) | (other_delta ? 1 << (1 - c) : 0);
    if (changed && board_[p] == kEmpty) {
      touched[num_touched] = static_cast<std::uint16_t>(p);
      colours[num_touched++] = static_cast<std::uint8_t>(changed);
    }
  });
  for (int i = 0; i < num_touched; ++i) refresh_point(touched[i], colours[i], log);
}

void Position::update_keys(int sq, Color c, int sign) {
  std::uint16_t* const own_keys = &key_[c][0][0];
  std::uint16_t* const other_keys = &key_[1 - c][0][0];
  for_each_window_point(board_, sq, [&](int p, int d, int weight) {
    const int i = p * 4 + d;
    own_keys[i] = static_cast<std::uint16_t>(own_keys[i] + sign * weight);
    other_keys[i] = static_cast<std::uint16_t>(other_keys[i] + 2 * sign * weight);
  });
}

void Position::unmake_logged(int sq, const Undo& u) {
  const Color c = static_cast<Color>(board_[sq]);
  board_[sq] = kEmpty;
  --stones_;
  update_keys(sq, c, -1);
  for (int k = 0; k < u.num_cells; ++k) {
    const Undo::Cell& cell = u.cells[k];
    const int p = cell.index / 4;
    for (int col = 0; col < 2; ++col) {
      (&entry_[col][0][0])[cell.index] = cell.entry[col];
      info_[col][p] = cell.info[col];
    }
  }
  for (int k = 0; k < u.num_points; ++k) {
    const Undo::Point& pt = u.points[k];
    for (int col = 0; col < 2; ++col) {
      summary_[col][pt.sq] = pt.summary[col];
      contrib_[col][pt.sq] = pt.contrib[col];
    }
  }
  count_ = u.count;
  capturable_ = u.capturable;
  score_ = {u.eval_state[0], u.eval_state[1]};
  update_near(sq, -1);
}

void Position::update_near(int sq, int sign) {
  const int x = x_of(sq), y = y_of(sq), n = variant_.size;
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

void Position::refresh_point(int sq, int colours, Undo* log) {
  if (log) {
    Undo::Point& pt = log->points[log->num_points++];
    pt.sq = static_cast<std::uint16_t>(sq);
    pt.summary = {summary_[0][sq], summary_[1][sq]};
    pt.contrib = {contrib_[0][sq], contrib_[1][sq]};
  }
  for (Color c : {kBlack, kWhite}) {
    if (!(colours & (1 << c))) continue;
    const std::uint16_t old = summary_[c][sq];
    std::uint16_t now = 0;
    int value = 0;
    if (board_[sq] == kEmpty) {
      int shape = kShapes;
      now = summarise(info_[c][sq], mode_[c], value, &shape);
      // A forbidden point is worth nothing to its colour.
      value = (now & kFlagged) ? 0
                               : value + eval_->combination[summary_threat(now)] +
                                     eval_->shape[shape] + capture_weight_ * summary_captures(now);
    }
    if (now != old) {
      const int old_bucket = (old & kFlagged) ? kFlaggedBucket : summary_threat(old);
      const int new_bucket = (now & kFlagged) ? kFlaggedBucket : summary_threat(now);
      if (old_bucket) --count_[c][old_bucket];
      if (new_bucket) ++count_[c][new_bucket];
      capturable_[c] += summary_captures(now) - summary_captures(old);
      summary_[c][sq] = now;
    }
    score_[c] += value - contrib_[c][sq];
    contrib_[c][sq] = static_cast<std::int16_t>(value);
  }
}

void Position::set_stone(int sq, Color c, Undo* log) {
  board_[sq] = c;
  ++stones_;
  hash_ ^= stone_key(c, sq);
  update_lines(sq, c, +1, log);
  refresh_point(sq, 3, log);
  update_near(sq, +1);
}

void Position::clear_stone(int sq) {
  const Color c = static_cast<Color>(board_[sq]);
  board_[sq] = kEmpty;
  --stones_;
  hash_ ^= stone_key(c, sq);
  update_lines(sq, c, -1, nullptr);
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
  u.num_captured = 0;
  u.count = count_;
  u.capturable = capturable_;
  u.num_cells = 0;
  u.num_points = 0;

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

// --- capture variant ------------------------------------------------------------------------

int Position::capture_on(Board& b, int sq, Color c) const {
  const Color o = opponent(c);
  b[sq] = c;
  int taken = 0;
  for (const int e : kEightWays) {
    const int a = sq + e;
    if (b[a] == o && b[a + e] == o && b[a + 2 * e] == c) {
      b[a] = kEmpty;
      b[a + e] = kEmpty;
      taken += 2;
    }
  }
  return taken;
}

// c has just made a five through sq (stones placed, captures made): can the opponent's
// reply break it by a capture, or win by capturing its tenth stone?
bool Position::five_breakable(Color c, int sq) const {
  const Color o = opponent(c);
  if (captures_[o] + 2 >= kCaptureWin && capturable_[o] > 0) return true;
  std::array<int, 4 * kMaxSize> stones{};
  int n = 0;
  for (const int step : kDirections) {
    int a = sq, b = sq;
    while (board_[a - step] == c) a -= step;
    while (board_[b + step] == c) b += step;
    if ((b - a) / step + 1 < 5) continue;
    for (int s = a; s <= b; s += step) stones[n++] = s;
  }
  Board scratch = board_;
  for (int i = 0; i < n; ++i) {
    const int s = stones[i];
    for (const int e : kEightWays) {
      if (board_[s + e] != c || board_[s + 2 * e] != o || board_[s - e] != kEmpty) continue;
      capture_on(scratch, s - e, o);
      const bool stands = has_five_through(scratch, sq, c);
      scratch = board_;
      if (!stands) return true;
    }
  }
  return false;
}

bool Position::breaks_pending(int sq) const {
  if (!pending_) return false;
  Board b = board_;
  if (capture_on(b, sq, side_) == 0) return false;
  return !has_five_through(b, five_sq_, static_cast<Color>(pending_ - 1));
}

// --- forbidden moves -----------------------------------------------------------------------

bool Position::forbidden_for(int sq, Color c) const {
  if (!(summary_[c][sq] & kFlagged)) return false;
  if (variant_.rule == Rule::kCapture) return true;  // a double free-three without a capture
  // Renju black (a five was already excluded by the flag): overline and double four at once.
  int fours = 0;
  for (int d = 0; d < 4; ++d) {
    const auto e = entry_[c][sq][d];
    if (entry_pattern(e) == Pattern::kOverline) return true;
    fours += entry_fours(e);
  }
  if (fours >= 2) return true;
  Board b = board_;
  return renju_forbidden(b, sq, 0);
}

// Renju black at sq on board b (the stone not yet placed): overline, double four, or double
// three where a three counts only if a point completing its straight four is not itself
// forbidden (checked recursively to kRenjuDepth; deeper completions are taken as allowed).
bool Position::renju_forbidden(Board& b, int sq, int depth) const {
  std::array<std::uint16_t, 4> keys{};
  std::array<std::uint8_t, 4> e{};
  for (int d = 0; d < 4; ++d) {
    keys[d] = scan_key(b.data(), sq, kDirections[d], kBlack);
    e[d] = table_[kBlack][keys[d]];
    if (entry_pattern(e[d]) == Pattern::kFive) return false;
  }
  int fours = 0, threes = 0;
  for (int d = 0; d < 4; ++d) {
    if (entry_pattern(e[d]) == Pattern::kOverline) return true;
    fours += entry_fours(e[d]);
    threes += entry_pattern(e[d]) == Pattern::kFlexThree;
  }
  if (fours >= 2) return true;
  if (threes < 2) return false;
  b[sq] = kBlack;
  int real = 0;
  for (int d = 0; d < 4 && real < 2; ++d) {
    if (entry_pattern(e[d]) != Pattern::kFlexThree) continue;
    for (int offset = -4; offset <= 4; ++offset) {
      if (offset == 0) continue;
      const int digit = detail::digit_of(offset);
      if ((keys[d] / kPow3[digit]) % 3 != detail::kCellEmpty) continue;
      if (!entry_straight_four(table_[kBlack][keys[d] + kPow3[digit]])) continue;
      const int completion = sq + offset * kDirections[d];
      if (depth + 1 >= kRenjuDepth || !renju_forbidden(b, completion, depth + 1)) {
        ++real;
        break;
      }
    }
  }
  b[sq] = kEmpty;
  return real >= 2;
}

bool Position::is_forbidden(Move m) const {
  if (!on_board(m.sq) || board_[m.sq] != kEmpty) return false;
  return forbidden_for(m.sq, side_);
}

bool Position::is_legal(Move m) const {
  return on_board(m.sq) && board_[m.sq] == kEmpty && !is_terminal() && !forbidden_for(m.sq, side_);
}

// --- queries -------------------------------------------------------------------------------

int Position::shape(int sq, Color c) const {
  if (!on_board(sq) || board_[sq] != kEmpty) return kShapes;
  int value = 0, shape = kShapes;
  summarise(info_[c][sq], mode_[c], value, &shape);
  return shape;
}

int Position::capture_count(int sq, Color c) const {
  if (variant_.rule != Rule::kCapture || !on_board(sq) || board_[sq] != kEmpty) return 0;
  return summary_captures(summary_[c][sq]);
}

bool Position::makes_five(Move m, Color c) const { return threat(m.sq, c) == Threat::kFive; }

// --- move lists ----------------------------------------------------------------------------

std::size_t Position::legal_moves(MoveList<Position>& out) const {
  out.clear();
  if (is_terminal()) return 0;
  for (int sq = first_point(); sq <= last_point(); ++sq)
    if (board_[sq] == kEmpty && !forbidden_for(sq, side_))
      out.push_back(Move{static_cast<std::uint16_t>(sq)});
  return out.size();
}

std::size_t Position::candidate_moves(MoveList<Position>& out, int radius) const {
  out.clear();
  if (is_terminal()) return 0;
  if (stones_ == 0) {
    const int centre = square_of(variant_.size / 2, variant_.size / 2);
    if (!forbidden_for(centre, side_)) out.push_back(Move{static_cast<std::uint16_t>(centre)});
    return out.size();
  }
  const int n = variant_.size;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty) continue;
    bool near = false;
    if (radius == 1) {
      near = near1_[sq] > 0;
    } else if (radius == 2) {
      near = near2_[sq] > 0;
    } else {
      const int x = x_of(sq), y = y_of(sq);
      for (int yy = std::max(0, y - radius); yy <= std::min(n - 1, y + radius) && !near; ++yy)
        for (int xx = std::max(0, x - radius); xx <= std::min(n - 1, x + radius); ++xx) {
          const auto s = board_[square_of(xx, yy)];
          if (s == kBlack || s == kWhite) {
            near = true;
            break;
          }
        }
    }
    if (near && !forbidden_for(sq, side_)) out.push_back(Move{static_cast<std::uint16_t>(sq)});
  }
  return out.size();
}

Move Position::winning_move() const {
  if (is_terminal()) return Move::none();
  const Color c = side_;
  if (variant_.rule != Rule::kCapture) {
    if (count_[c][static_cast<int>(Threat::kFive)] == 0) return Move::none();
    for (int sq = first_point(); sq <= last_point(); ++sq)
      if (board_[sq] == kEmpty &&
          summary_threat(summary_[c][sq]) == static_cast<int>(Threat::kFive))
        return Move{static_cast<std::uint16_t>(sq)};
    return Move::none();
  }
  // Capture variant: the tenth captured stone, or a five the opponent cannot break (and,
  // facing a pending five, only after breaking it).
  const bool tenth = captures_[c] + 2 >= kCaptureWin && capturable_[c] > 0;
  if (!tenth && count_[c][static_cast<int>(Threat::kFive)] == 0) return Move::none();
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty) continue;
    const std::uint16_t s = summary_[c][sq];
    const int pairs = summary_captures(s);
    if (pairs && captures_[c] + 2 * pairs >= kCaptureWin)
      return Move{static_cast<std::uint16_t>(sq)};
    if (summary_threat(s) != static_cast<int>(Threat::kFive)) continue;
    if (pending_ && !breaks_pending(sq)) continue;
    Position after = *this;
    after.apply(Move{static_cast<std::uint16_t>(sq)});
    if (after.winner_ == c) return Move{static_cast<std::uint16_t>(sq)};
  }
  return Move::none();
}

bool Position::opponent_can_win() const {
  if (is_terminal()) return false;
  const Color o = opponent(side_);
  const bool fives = count_[o][static_cast<int>(Threat::kFive)] > 0;
  if (variant_.rule != Rule::kCapture) return fives;
  // Capture variant: a pending five, the tenth stone, or a five that cannot be broken.
  if (pending_ == o + 1 || (captures_[o] + 2 >= kCaptureWin && capturable_[o] > 0)) return true;
  if (!fives) return false;
  Position passed = *this;
  Undo u;
  passed.make_null(u);
  return static_cast<bool>(passed.winning_move());
}

Move Position::sure_win_move() const {
  if (is_terminal() || variant_.rule == Rule::kCapture) return Move::none();
  const Color c = side_, o = opponent(c);
  const auto& mine = count_[c];
  const auto& theirs = count_[o];
  if (mine[static_cast<int>(Threat::kFlexFour)] == 0) return Move::none();
  // A flagged point of the opponent's might be a four it is allowed to play: not certain.
  if (theirs[static_cast<int>(Threat::kFour)] + theirs[static_cast<int>(Threat::kFourThree)] +
          theirs[static_cast<int>(Threat::kFlexFour)] + theirs[static_cast<int>(Threat::kFive)] +
          theirs[kFlaggedBucket] !=
      0)
    return Move::none();
  for (int sq = first_point(); sq <= last_point(); ++sq)
    if (board_[sq] == kEmpty && !(summary_[c][sq] & kFlagged) &&
        summary_threat(summary_[c][sq]) == static_cast<int>(Threat::kFlexFour))
      return Move{static_cast<std::uint16_t>(sq)};
  return Move::none();
}

bool Position::opponent_threatens_open_four() const {
  if (is_terminal() || variant_.rule == Rule::kCapture) return false;
  return count_[opponent(side_)][static_cast<int>(Threat::kFlexFour)] > 0;
}

std::size_t Position::four_moves(MoveList<Position>& out) const {
  out.clear();
  if (is_terminal()) return 0;
  const Color c = side_;
  // Nothing to find without a five, four or flagged (maybe forbidden) point.
  const auto& n = count_[c];
  if (n[static_cast<int>(Threat::kFive)] + n[static_cast<int>(Threat::kFour)] +
          n[static_cast<int>(Threat::kFourThree)] + n[static_cast<int>(Threat::kFlexFour)] +
          n[kFlaggedBucket] ==
      0)
    return 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int sq = first_point(); sq <= last_point(); ++sq) {
      if (board_[sq] != kEmpty) continue;
      const int t = summary_threat(summary_[c][sq]);
      const bool take =
          pass == 0 ? t == static_cast<int>(Threat::kFive)
                    : t >= static_cast<int>(Threat::kFour) && t < static_cast<int>(Threat::kFive);
      if (take && !forbidden_for(sq, c)) out.push_back(Move{static_cast<std::uint16_t>(sq)});
    }
  }
  return out.size();
}

std::size_t Position::threat_moves(MoveList<Position>& out) const {
  out.clear();
  if (is_terminal()) return 0;
  const Color c = side_, o = opponent(c);
  const bool capture = variant_.rule == Rule::kCapture;
  // Nothing to find without a point that makes a free three or more (or a flagged one);
  // the capture rule's captures are not counted, so it always looks.
  const auto& n = count_[c];
  if (!capture &&
      n[static_cast<int>(Threat::kFlexThree)] + n[static_cast<int>(Threat::kThreeThree)] +
              n[static_cast<int>(Threat::kFour)] + n[static_cast<int>(Threat::kFourThree)] +
              n[static_cast<int>(Threat::kFlexFour)] + n[static_cast<int>(Threat::kFive)] +
              n[kFlaggedBucket] ==
          0)
    return 0;
  // One pass: fives and winning captures first, then fours, then free threes and
  // five-breaking captures (the threat search tries them in that order); within fours and
  // threes the stronger shapes first (open and double fours, four-threes, double threes),
  // which a threat search finds its wins with soonest.
  MoveList<Position> fours, threes, strong_fours, strong_threes;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty) continue;
    const std::uint16_t s = summary_[c][sq];
    const int t = summary_threat(s);
    const int pairs = capture ? summary_captures(s) : 0;
    const bool wins_by_capture = pairs && captures_[c] + 2 * pairs >= kCaptureWin;
    MoveList<Position>* list = nullptr;
    if (t == static_cast<int>(Threat::kFive) || wins_by_capture)
      list = &out;
    else if (t >= static_cast<int>(Threat::kFourThree))
      list = &strong_fours;
    else if (t >= static_cast<int>(Threat::kFour))
      list = &fours;
    else if (t == static_cast<int>(Threat::kThreeThree))
      list = &strong_threes;
    else if (t >= static_cast<int>(Threat::kFlexThree) ||
             (pairs && pending_ == o + 1 && breaks_pending(sq)))
      list = &threes;
    if (list && !forbidden_for(sq, c)) list->push_back(Move{static_cast<std::uint16_t>(sq)});
  }
  for (const Move m : strong_fours) out.push_back(m);
  for (const Move m : fours) out.push_back(m);
  for (const Move m : strong_threes) out.push_back(m);
  for (const Move m : threes) out.push_back(m);
  return out.size();
}

std::uint16_t Position::summary_on(const Board& b, int sq, Color c) const {
  std::uint64_t sum = 0;
  for (int d = 0; d < 4; ++d)
    sum += eval_->entry_info[table_[c][scan_key(b.data(), sq, kDirections[d], c)]];
  int value = 0;
  return summarise(sum, mode_[c], value);
}

std::size_t Position::defence_moves(MoveList<Position>& out) const {
  out.clear();
  if (is_terminal()) return 0;
  const Color c = side_, o = opponent(c);
  const bool capture = variant_.rule == Rule::kCapture;
  constexpr int kFive = static_cast<int>(Threat::kFive);
  constexpr int kFour = static_cast<int>(Threat::kFour);
  const auto push = [&](int sq) { out.push_back(Move{static_cast<std::uint16_t>(sq)}); };
  const bool fours = count_[o][kFive] > 0;

  // Capture variant against an immediate win (a five to complete, a pending five, the tenth
  // stone to take): beyond blocks and captures, a stone that flanks a pair of the coming
  // five makes it breakable, so candidates are gathered generously and each is played out.
  if (capture && opponent_can_win()) return capture_defences(out);

  // Against fives to complete (no captures): a stone on one five point cannot take another
  // away (that five is the other point and four of the opponent's stones), so the answer to
  // one is that point, and against several there is none (each is listed as a partial
  // answer). Own fives win first. Same list as the general case below, without its trials.
  if (fours && !capture) {
    const bool single = count_[o][kFive] == 1;
    MoveList<Position> partial;
    for (int sq = first_point(); sq <= last_point(); ++sq) {
      if (board_[sq] != kEmpty) continue;
      const bool mine = summary_threat(summary_[c][sq]) == kFive;
      const bool theirs = summary_threat(summary_[o][sq]) == kFive;
      if ((!mine && !theirs) || forbidden_for(sq, c)) continue;
      if (mine || single)
        push(sq);
      else
        partial.push_back(Move{static_cast<std::uint16_t>(sq)});
    }
    if (out.size() == 0)
      for (Move m : partial) out.push_back(m);
    return out.size();
  }

  // Against open-four points (no captures): a stone changes a threat point's pattern only
  // along the one line joining them, so each trial is one table lookup, not a board rescan.
  if (!capture) return open_four_defences(out);

  // Points the opponent would complete a five on, or else where it would make an
  // unstoppable four (an open four, or two fours).
  std::array<int, kMaxMoves> threats{};
  int num_threats = 0;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty) continue;
    const int t = summary_threat(summary_[o][sq]);
    if (fours ? t == kFive : t == static_cast<int>(Threat::kFlexFour) && !forbidden_for(sq, o))
      threats[num_threats++] = sq;
  }
  if (num_threats == 0) return 0;
  const int level = fours ? kFive : static_cast<int>(Threat::kFlexFour);

  // A point on a threat's lines (within the window) may block it.
  std::array<bool, kSquares> on_line{};
  for (int i = 0; i < num_threats; ++i) {
    const int t = threats[i];
    on_line[t] = true;
    for (const int e : kEightWays) {
      int p = t;
      for (int k = 1; k <= detail::kHalfWindow; ++k) {
        p += e;
        if (board_[p] == kWall) break;
        on_line[p] = true;
      }
    }
  }

  // Answers to every threat go to `out`; answers to some of them (when several threats
  // leave no full answer) to `partial`, returned instead so that a search plays on and
  // finds the loss rather than taking "no answer" for "no threat".
  MoveList<Position> partial;
  Board scratch = board_;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty || forbidden_for(sq, c)) continue;
    const int mine = summary_threat(summary_[c][sq]);
    const int pairs = capture ? summary_captures(summary_[c][sq]) : 0;
    bool ok = mine == kFive || (!fours && mine >= kFour);  // a win, or a counter-four
    if (!ok && (on_line[sq] || pairs)) {
      // Play it on a scratch board and see which threats are left.
      if (capture)
        capture_on(scratch, sq, c);
      else
        scratch[sq] = c;
      int left = 0;
      for (int i = 0; i < num_threats; ++i) {
        const int t = threats[i];
        if (t != sq && scratch[t] == kEmpty && summary_threat(summary_on(scratch, t, o)) >= level)
          ++left;
      }
      if (capture)
        scratch = board_;
      else
        scratch[sq] = kEmpty;
      ok = left == 0;
      if (!ok && left < num_threats) partial.push_back(Move{static_cast<std::uint16_t>(sq)});
    }
    if (ok) push(sq);
  }
  if (out.size() == 0)
    for (Move m : partial) out.push_back(m);
  return out.size();
}

std::size_t Position::open_four_defences(MoveList<Position>& out) const {
  const Color c = side_, o = opponent(c);
  constexpr int kFive = static_cast<int>(Threat::kFive);
  constexpr int kFlexFour = static_cast<int>(Threat::kFlexFour);
  constexpr int kFour = static_cast<int>(Threat::kFour);
  // The threat points. The counts say how many there are, so the scan stops at the last one
  // (unless a flagged point, which the counts keep apart, may be one too).
  std::array<std::uint16_t, kMaxMoves> threats;
  int num_threats = 0;
  const int expected = count_[o][kFlaggedBucket] ? kMaxMoves : count_[o][kFlexFour];
  for (int sq = first_point(); sq <= last_point() && num_threats < expected; ++sq)
    if (board_[sq] == kEmpty && summary_threat(summary_[o][sq]) == kFlexFour &&
        !forbidden_for(sq, o))
      threats[num_threats++] = static_cast<std::uint16_t>(sq);
  if (num_threats == 0) return 0;
  // Is t still an open-four point for o once c has a stone on sq (sq != t)?
  const auto still_threat = [&](int t, int sq) {
    const int dx = x_of(sq) - x_of(t), dy = y_of(sq) - y_of(t);
    int d = -1, offset = 0;
    if (dy == 0) {
      d = 0;
      offset = dx;
    } else if (dx == 0) {
      d = 1;
      offset = dy;
    } else if (dx == dy) {
      d = 2;
      offset = dy;
    } else if (dx == -dy) {
      d = 3;
      offset = dy;
    }
    if (d < 0 || offset < -detail::kHalfWindow || offset > detail::kHalfWindow) return true;
    // c's stone is a blocked cell (digit 2) in o's key where there was an empty one.
    const int key = key_[o][t][d] + 2 * kPow3[detail::digit_of(offset)];
    const std::uint64_t info =
        info_[o][t] - eval_->entry_info[entry_[o][t][d]] + eval_->entry_info[table_[o][key]];
    int value = 0;
    return summary_threat(summarise(info, mode_[o], value)) >= kFlexFour;
  };
  MoveList<Position> partial;
  // A point answers by a counter-four (or a five), or by blocking: then it lies within the
  // window of a threat along its lines (no other point can change the threat's pattern).
  const auto consider = [&](int sq, bool near) {
    if (board_[sq] != kEmpty) return;
    const int mine = summary_threat(summary_[c][sq]);
    if ((mine < kFour && !near) || forbidden_for(sq, c)) return;
    if (mine >= kFour) {
      out.push_back(Move{static_cast<std::uint16_t>(sq)});
      return;
    }
    int left = 0;
    for (int i = 0; i < num_threats; ++i)
      if (threats[i] != sq && still_threat(threats[i], sq)) ++left;
    if (left == 0)
      out.push_back(Move{static_cast<std::uint16_t>(sq)});
    else if (left < num_threats)
      partial.push_back(Move{static_cast<std::uint16_t>(sq)});
  };
  // Points within the window of a threat along its lines, marked and listed once each.
  std::array<std::uint8_t, kSquares> near_threat{};
  std::array<std::uint16_t, kMaxMoves> near;
  int num_near = 0;
  const auto mark = [&](int p) {
    if (!near_threat[p]) near[num_near++] = static_cast<std::uint16_t>(p);
    near_threat[p] = 1;
  };
  for (int i = 0; i < num_threats; ++i) {
    mark(threats[i]);
    for (const int e : kEightWays) {
      int p = threats[i];
      for (int k = 1; k <= detail::kHalfWindow; ++k) {
        p += e;
        if (board_[p] == kWall) break;
        mark(p);
      }
    }
  }
  const auto& mine = count_[c];
  const bool counter_fours = mine[kFour] + mine[static_cast<int>(Threat::kFourThree)] +
                                 mine[kFlexFour] + mine[kFive] + mine[kFlaggedBucket] >
                             0;
  if (counter_fours) {
    for (int sq = first_point(); sq <= last_point(); ++sq) consider(sq, near_threat[sq] != 0);
  } else {
    // Only the windows, in board order (the list's order is the search's move order).
    std::sort(near.begin(), near.begin() + num_near);
    for (int i = 0; i < num_near; ++i) consider(near[i], true);
  }
  if (out.size() == 0)
    for (Move m : partial) out.push_back(m);
  return out.size();
}

std::size_t Position::capture_defences(MoveList<Position>& out) const {
  const Color c = side_, o = opponent(c);
  constexpr int kFive = static_cast<int>(Threat::kFive);
  std::array<bool, kSquares> candidate{};
  const int n = variant_.size;
  const auto mark_around = [&](int s) {
    const int x = x_of(s), y = y_of(s);
    for (int yy = std::max(0, y - 2); yy <= std::min(n - 1, y + 2); ++yy)
      for (int xx = std::max(0, x - 2); xx <= std::min(n - 1, x + 2); ++xx)
        candidate[square_of(xx, yy)] = true;
  };
  // With eight stones taken, any capture we can set up makes the opponent's five
  // breakable: every move is a candidate.
  const bool everything = pending_ != o + 1 && captures_[c] + 2 >= kCaptureWin;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty) continue;
    if (everything || summary_captures(summary_[c][sq]) || summary_captures(summary_[o][sq]) ||
        summary_threat(summary_[c][sq]) == kFive)
      candidate[sq] = true;
    if (pending_ == o + 1 || summary_threat(summary_[o][sq]) != kFive) continue;
    // A five point: block it, or flank a pair of the five it would make.
    mark_around(sq);
    for (int d = 0; d < 4; ++d) {
      if (entry_pattern(entry_[o][sq][d]) != Pattern::kFive) continue;
      for (int side = -1; side <= 1; side += 2)
        for (int s = sq + side * kDirections[d]; board_[s] == o; s += side * kDirections[d])
          mark_around(s);
    }
  }
  Position trial = *this;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (!candidate[sq] || board_[sq] != kEmpty || forbidden_for(sq, c)) continue;
    const Move m{static_cast<std::uint16_t>(sq)};
    Undo u;
    trial.make(m, u);
    const bool ok = trial.winner_ == c || (trial.winner_ != o && !trial.winning_move());
    trial.unmake(m, u);
    if (ok) out.push_back(m);
  }
  if (out.size() > 0) return out.size();
  // Nothing saves the game: list the direct answers anyway (blocks of a five point,
  // captures, occupying the opponent's capture points) so that a search plays on.
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty || forbidden_for(sq, c)) continue;
    const bool direct = pending_ == o + 1 ? breaks_pending(sq)
                                          : summary_threat(summary_[o][sq]) == kFive ||
                                                summary_captures(summary_[c][sq]) > 0 ||
                                                summary_captures(summary_[o][sq]) > 0;
    if (direct) out.push_back(Move{static_cast<std::uint16_t>(sq)});
  }
  return out.size();
}

// --- evaluation ----------------------------------------------------------------------------

int Position::evaluate() const {
  const Color me = side_, op = opponent(me);
  if (is_terminal()) return winner_ == me ? kDecided : winner_ == op ? -kDecided : 0;
  constexpr int kFive = static_cast<int>(Threat::kFive);
  constexpr int kFlexFour = static_cast<int>(Threat::kFlexFour);
  int s = score_[me] - score_[op] + eval_->tempo;
  // The side to move's threats count double only where the opponent threatens nothing (no
  // four or free three on the board): otherwise the answer comes first.
  if (!count_[op][kFive] && !count_[op][kFlexFour])
    for (int t = 1; t < 10; ++t) s += eval_->to_move[t] * count_[me][t];
  if (variant_.rule != Rule::kCapture) {
    if (count_[me][kFive]) return kWinNow;
    if (count_[op][kFive] >= 2) return -kLossNext;
    if (!count_[op][kFive] && count_[me][kFlexFour]) return kWinSoon;
  } else {
    if (captures_[me] + 2 >= kCaptureWin && capturable_[me] > 0) return kWinNow;
    if (pending_ == op + 1) s -= 3000;
    if (count_[me][kFive]) s += 3000;
    if (count_[op][kFive] >= 2) s -= 2500;
    s += kCapturedValue[std::min(captures_[me], 9)] - kCapturedValue[std::min(captures_[op], 9)];
    if (captures_[op] + 2 >= kCaptureWin && capturable_[op] > 0) s -= 1500;
  }
  return std::clamp(s, -kEvalCap, kEvalCap);
}

// --- text ----------------------------------------------------------------------------------

std::string Position::to_string() const {
  const int n = variant_.size;
  std::string out = "   ";
  for (int x = 0; x < n; ++x) {
    out += static_cast<char>('a' + x);
    out += ' ';
  }
  out += '\n';
  for (int y = 0; y < n; ++y) {
    out += fmt::format("{:>2} ", y + 1);
    for (int x = 0; x < n; ++x) {
      const auto s = board_[square_of(x, y)];
      out += s == kBlack ? 'X' : s == kWhite ? 'O' : '.';
      out += ' ';
    }
    out += '\n';
  }
  out += fmt::format("{} {}", rule_name(variant_.rule),
                     is_terminal() ? (winner() == 0   ? "black won"
                                      : winner() == 1 ? "white won"
                                                      : "draw")
                                   : (side_ == kBlack ? "black to move" : "white to move"));
  if (variant_.rule == Rule::kCapture)
    out += fmt::format(", captured black {} white {}", captures_[0], captures_[1]);
  out += '\n';
  return out;
}

std::string to_text(Move m) {
  if (!m) return "none";
  return fmt::format("{}{}", static_cast<char>('a' + x_of(m.sq)), y_of(m.sq) + 1);
}

std::string to_gomocup(Move m) {
  if (!m) return "none";
  return fmt::format("{},{}", x_of(m.sq), y_of(m.sq));
}

Result<Move> parse_move(const Position& pos, std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r'))
    t.remove_suffix(1);
  const auto number = [](std::string_view s, int& value) {
    if (s.empty() || s.size() > 3) return false;
    value = 0;
    for (char ch : s) {
      if (ch < '0' || ch > '9') return false;
      value = value * 10 + (ch - '0');
    }
    return true;
  };
  int x = -1, y = -1;
  bool ok = false;
  if (const auto comma = t.find(','); comma != std::string_view::npos) {
    std::string_view a = t.substr(0, comma), b = t.substr(comma + 1);
    while (!b.empty() && b.front() == ' ') b.remove_prefix(1);
    while (!a.empty() && a.back() == ' ') a.remove_suffix(1);
    ok = number(a, x) && number(b, y);
  } else if (t.size() >= 2) {
    const char col = static_cast<char>(t.front() | 0x20);  // lower case
    int row = 0;
    if (col >= 'a' && col <= 'z' && number(t.substr(1), row)) {
      x = col - 'a';
      y = row - 1;
      ok = true;
    }
  }
  if (!ok)
    return fail("bad gomoku move '{}' (a column letter and a row number like h8, or x,y)", text);
  const int n = pos.size();
  if (x < 0 || y < 0 || x >= n || y >= n)
    return fail("move '{}' is off the {}x{} board", text, n, n);
  const Move m{static_cast<std::uint16_t>(square_of(x, y))};
  if (pos.stone(m.sq) != kEmpty) return fail("point '{}' is occupied", text);
  return m;
}

}  // namespace kibitz::gomoku
