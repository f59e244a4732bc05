#pragma once
// What the files of gomoku::Position share (position.cpp: the board, make / unmake and the
// incremental pattern state; threats.cpp, renju.cpp, capture.cpp, evaluation.cpp, text.cpp):
// the Zobrist keys, the evaluation's constants, the point-summary tables. Not for other code.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#if defined(__AVX512BW__) && defined(__AVX512VL__)
#include <immintrin.h>
#endif

#include "core/zobrist.hpp"
#include "games/gomoku/eval_weights.hpp"
#include "games/gomoku/patterns.hpp"
#include "games/gomoku/position.hpp"

namespace kibitz::gomoku::detail {

// Zobrist keys: stones, side to move, capture counts per colour, a pending five per colour.
inline constexpr int kZSide = 2 * kSquares;
inline constexpr int kZCaptures = kZSide + 1;
inline constexpr int kZCaptureSlots = 64;
inline constexpr int kZPending = kZCaptures + 2 * kZCaptureSlots;
inline constexpr ZobristTable<kZPending + 2> kZobrist(0x676F6D6F6B75ull);

inline std::uint64_t stone_key(int c, int sq) { return kZobrist[c * kSquares + sq]; }
inline std::uint64_t capture_key(int c, int n) {
  return n == 0 ? 0 : kZobrist[kZCaptures + c * kZCaptureSlots + std::min(n, kZCaptureSlots - 1)];
}
inline std::uint64_t pending_key(int c) { return kZobrist[kZPending + c]; }

// The eight capture directions.
inline constexpr std::array<int, 8> kEightWays = {
    1, -1, kStride, -kStride, kStride + 1, -kStride - 1, kStride - 1, -kStride + 1};

// Evaluation: the weights (eval_weights.hpp) value each empty point for each colour: what it
// makes on each line (a point completing a five marks a four on the board, one making an open
// four marks an open three, ...) plus a term for the combination over the four lines. The
// terms below are the capture variant's own and the thresholds that keep ordinary values far
// below the search's mate range.
inline constexpr int kCapturePairValue = 40;  // a pair one could capture now
inline constexpr std::array<int, 10> kCapturedValue = {0,   0,   120,  120, 300, 300,
                                                       650, 650, 1400, 1400};  // by stones taken
inline constexpr int kEvalCap = 9000;    // ordinary evaluations stay within this
inline constexpr int kWinNow = 15000;    // the side to move completes a five
inline constexpr int kLossNext = 14000;  // the opponent has two fives to complete
inline constexpr int kWinSoon = 13000;   // an open four to make, no five to answer
inline constexpr int kDecided = 16000;   // a finished game
inline constexpr int kRenjuDepth = 4;    // recursion limit of the real-three check

inline constexpr int summary_threat(std::uint16_t s) { return s & 0x0f; }
inline constexpr int summary_captures(std::uint16_t s) { return (s >> 4) & 0x0f; }

// The board scans for points of a threat class, 32 points a step: bit k of the result (k < n,
// n <= 32) says whether s[k]'s threat lies in [lo, hi] or, where `marks` is given, marks[k] is
// not zero. The scans run at nearly every search node: one compare over 32 lanes replaces 32
// branches, and masked loads read nothing past the n points.
inline std::uint32_t threat_mask_scalar(const std::uint16_t* s, int n, int lo, int hi,
                                        const std::uint8_t* marks) {
  std::uint32_t m = 0;
  for (int k = 0; k < n; ++k) {
    const int t = summary_threat(s[k]);
    const bool hit = (t >= lo && t <= hi) || (marks && marks[k]);
    m |= std::uint32_t{hit} << k;
  }
  return m;
}
inline std::uint32_t threat_mask(const std::uint16_t* s, int n, int lo, int hi,
                                 const std::uint8_t* marks = nullptr) {
#if defined(__AVX512BW__) && defined(__AVX512VL__)
  const __mmask32 lanes = n >= 32 ? ~__mmask32{0} : (__mmask32{1} << n) - 1;
  const __m512i t = _mm512_and_si512(_mm512_maskz_loadu_epi16(lanes, s), _mm512_set1_epi16(0x0f));
  __mmask32 m = _mm512_mask_cmpge_epu16_mask(lanes, t, _mm512_set1_epi16(static_cast<short>(lo))) &
                _mm512_cmple_epu16_mask(t, _mm512_set1_epi16(static_cast<short>(hi)));
  if (marks) {
    const __m256i v = _mm256_maskz_loadu_epi8(lanes, marks);
    m |= _mm256_mask_test_epi8_mask(lanes, v, v);
  }
  return m;
#else
  return threat_mask_scalar(s, n, lo, hi, marks);
#endif
}
// Bit k (k < n <= 64): whether point k is empty with a non-zero count in `near` (a candidate
// move), 64 points a step.
inline std::uint64_t candidate_mask_scalar(const std::uint8_t* board, const std::uint8_t* near,
                                           int n) {
  std::uint64_t m = 0;
  for (int k = 0; k < n; ++k) m |= std::uint64_t{board[k] == kEmpty && near[k] > 0} << k;
  return m;
}
inline std::uint64_t candidate_mask(const std::uint8_t* board, const std::uint8_t* near, int n) {
#if defined(__AVX512BW__) && defined(__AVX512VL__)
  const __mmask64 lanes = n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1;
  const __m512i b = _mm512_maskz_loadu_epi8(lanes, board);
  const __m512i v = _mm512_maskz_loadu_epi8(lanes, near);
  return _mm512_mask_cmpeq_epi8_mask(_mm512_test_epi8_mask(v, v), b, _mm512_set1_epi8(kEmpty));
#else
  return candidate_mask_scalar(board, near, n);
#endif
}
// Bounds for threat_mask's [lo, hi]: the largest threat field, and a lo that keeps none.
inline constexpr int kTopClass = 0x0f;
inline constexpr int kNoClass = 0x10;
// Calls f(sq) in board order for each point of [first, last] that threat_mask keeps (marks,
// if given, indexed by point like s); stops where f returns false.
template <class F>
inline void for_each_threat_point(const std::uint16_t* s, int first, int last, int lo, int hi,
                                  F&& f, const std::uint8_t* marks = nullptr) {
  for (int base = first; base <= last; base += 32) {
    std::uint32_t m = threat_mask(s + base, std::min(32, last - base + 1), lo, hi,
                                  marks ? marks + base : nullptr);
    for (; m; m &= m - 1)
      if (!f(base + std::countr_zero(m))) return;
  }
}

// The summary of a point for one colour from its four line entries, by table: each entry
// contributes packed counters and its pattern's value (detail::EvalTables::entry_info, see
// eval_weights.cpp); the four are added, the counters saturated into an index, and a table
// built at compile time gives Threat and flag.

// Saturated counters -> index: fives (0-1), overlines (0-1), fours (0-2), straight fours
// (0-1), free threes (0-2), threes (0-1), flex twos (0-2), twos (0-1), captures (0-1).
inline constexpr int kComboSize = 2 * 2 * 3 * 2 * 3 * 2 * 3 * 2 * 2;
static_assert(kComboSize == EvalTables::kCombinations);
enum ComboMode { kPlain = 0, kRenjuBlack = 1, kCaptureRule = 2 };

inline constexpr std::array<std::array<std::uint16_t, kComboSize>, 3> kCombo = [] {
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
inline constexpr std::array<std::uint8_t, kComboSize> kShapeOfCombo = [] {
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
inline constexpr std::array<std::uint8_t, 1 << 13> kIndexLow = [] {
  std::array<std::uint8_t, 1 << 13> t{};
  for (std::uint32_t b = 0; b < t.size(); ++b)
    t[b] = static_cast<std::uint8_t>(std::min(b & 7, 1u) + 2 * std::min((b >> 3) & 7, 1u) +
                                     4 * std::min((b >> 6) & 15, 2u) +
                                     12 * std::min((b >> 10) & 7, 1u));
  return t;
}();
inline constexpr std::array<std::uint8_t, 1 << 12> kIndexMiddle = [] {
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

// The same summary, with `value` the point's whole value to its colour (the pattern values,
// the combination and shape weights, and `capture_weight` per pair captured; 0 where the
// point is flagged): one look-up in the weights' own table.
inline std::uint16_t summarise_valued(std::uint64_t sum, const EvalTables& tables, int mode,
                                      int capture_weight, int& value) {
  const auto lo = static_cast<std::uint32_t>(sum);
  const std::uint32_t caps = (lo >> 25) & 15;
  const std::uint32_t index =
      kIndexLow[lo & 0x1fff] + 24u * kIndexMiddle[(lo >> 13) & 0xfff] + (caps ? 864u : 0u);
  const std::uint32_t packed = tables.point[mode][index];
  const auto now = static_cast<std::uint16_t>((packed & 0xffff) | (caps << 4));
  const int all = static_cast<int>(sum >> 32) + static_cast<std::int16_t>(packed >> 16) +
                  capture_weight * static_cast<int>(caps);
  value = (now & 0x100) ? 0 : all;  // Position::kFlagged
  return now;
}

// A point's four entries (direction d in byte d) as an index of EvalTables::direct: nibble d
// is the Pattern of direction d, or 10 for a flex four that is two fours (kTwoFoursBit), the
// one bit besides the captures that the summary reads.
inline constexpr std::uint32_t direct_index(std::uint32_t entries) {
  const std::uint32_t codes = (entries & 0x0f0f0f0fu) + 3 * ((entries >> 4) & 0x01010101u);
  const std::uint32_t pairs = codes | (codes >> 4);
  return (pairs & 0xffu) | ((pairs >> 8) & 0xff00u);
}
// The pairs a point's four entries capture together (0..8).
inline constexpr std::uint32_t entries_captures(std::uint32_t entries) {
  return (((entries >> 5) & 0x03030303u) * 0x01010101u) >> 24;
}
// The entry that direct_index reads as `code` (0..10).
inline constexpr Entry entry_of_code(int code) {
  return code == 10 ? static_cast<Entry>(static_cast<int>(Pattern::kFlexFour) | kTwoFoursBit)
                    : static_cast<Entry>(code);
}

// The summary and value (as summarise_valued gives them) of a point's four entries, read
// from its colour's direct tables: `tables[0]` for points that capture nothing, `tables[1]`
// for points that capture (EvalTables::direct).
inline std::uint16_t summarise_direct(std::uint32_t entries,
                                      const std::array<const std::uint32_t*, 2>& tables,
                                      int capture_weight, int& value) {
  const std::uint32_t caps = entries_captures(entries);
  const std::uint32_t packed = tables[caps != 0][direct_index(entries)];
  value = static_cast<std::int16_t>(packed >> 16) + capture_weight * static_cast<int>(caps);
  return static_cast<std::uint16_t>((packed & 0xffff) | (caps << 4));
}

// A run of five or more stones of c on one of the four lines through sq (capture variant).
inline bool has_five_through(const std::array<std::uint8_t, kSquares>& b, int sq, Color c) {
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

}  // namespace kibitz::gomoku::detail
