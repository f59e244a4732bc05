#pragma once
// Move-ordering memory shared by the alpha-beta searches: two killer moves per ply and a
// butterfly history table per side to move. History uses the "gravity" update
// h += bonus - h * |bonus| / kMax, which keeps every entry within +-kMax without a global
// rescale, and ages (halves) between searches so old games' preferences fade. Continuation
// history scores a quiet move by the move one and two plies before it; correction history
// learns how far the static evaluation misses the search in positions of one pawn structure.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "search/common/score.hpp"

namespace kibitz::search {

template <class Move>
class Killers {
 public:
  void clear() {
    for (auto& k : slots_) k = {Move::none(), Move::none()};
  }
  void store(int ply, Move m) {
    if (ply >= kMaxSearchPly) return;
    auto& k = slots_[ply];
    if (k[0] == m) return;
    k[1] = k[0];
    k[0] = m;
  }
  Move first(int ply) const { return slots_[ply][0]; }
  Move second(int ply) const { return slots_[ply][1]; }
  bool is_killer(int ply, Move m) const { return slots_[ply][0] == m || slots_[ply][1] == m; }
  // Killers of the grandchildren are cleared when a node starts (they belong to siblings).
  void clear_ply(int ply) {
    if (ply < kMaxSearchPly) slots_[ply] = {Move::none(), Move::none()};
  }

 private:
  std::array<std::array<Move, 2>, kMaxSearchPly + 2> slots_{};
};

template <int Size>
class ButterflyHistory {
 public:
  static constexpr int kMax = 16384;

  void clear() {
    for (auto& side : table_) side.fill(0);
  }
  // Between searches: halve, so the new position's statistics dominate quickly.
  void age() {
    for (auto& side : table_)
      for (auto& h : side) h /= 2;
  }
  int get(int side, int index) const { return table_[side][index]; }
  const std::int32_t* row(int side) const { return table_[side].data(); }
  void update(int side, int index, int bonus) {
    bonus = std::clamp(bonus, -kMax, kMax);
    int& h = table_[side][index];
    h += bonus - h * std::abs(bonus) / kMax;
  }
  // The bonus for a cut-off at `depth` (the seed's depth^2, capped).
  static int bonus(int depth) { return std::min(depth * depth * 16, 1600); }

 private:
  std::array<std::array<std::int32_t, Size>, 2> table_{};
};

// Continuation history: for each "piece on square" index of an earlier move, a row scoring
// every "piece on square" index of the reply. A search keeps, per ply, a pointer to the row of
// the move played there; row `Size` stands for a null move or no move at all.
template <int Size>
class ContinuationHistory {
 public:
  static constexpr int kMax = 16384;
  using Row = std::array<std::int16_t, Size>;

  ContinuationHistory() : rows_(new Row[Size + 1]) { clear(); }
  void clear() {
    for (int i = 0; i <= Size; ++i) rows_[i].fill(0);
  }
  void age() {
    for (int i = 0; i <= Size; ++i)
      for (auto& h : rows_[i]) h = static_cast<std::int16_t>(h / 2);
  }
  Row* row(int index) { return &rows_[index]; }
  Row* none() { return &rows_[Size]; }
  static void update(Row& row, int index, int bonus) {
    bonus = std::clamp(bonus, -kMax, kMax);
    const int h = row[index];
    row[index] = static_cast<std::int16_t>(h + bonus - h * std::abs(bonus) / kMax);
  }

 private:
  std::unique_ptr<Row[]> rows_;
};

// Correction history: per side to move and structure key, an exponential average of
// (search result - static evaluation), in 1/256 units, added to later static evaluations.
class CorrectionHistory {
 public:
  static constexpr int kSize = 16384;  // entries per side; keys are folded into this range
  static constexpr int kGrain = 256;
  static constexpr int kLimit = 128 * kGrain;  // the most one entry corrects: 128 units

  void clear() {
    for (auto& side : table_) side.fill(0);
  }
  int get(int side, std::uint64_t key) const { return table_[side][key % kSize] / kGrain; }
  // diff: the search's score minus the static evaluation; depth weighs the evidence.
  void update(int side, std::uint64_t key, int diff, int depth) {
    std::int32_t& e = table_[side][key % kSize];
    const int weight = std::min(depth + 1, 16);
    const int target = std::clamp(diff, -kLimit / kGrain, kLimit / kGrain) * kGrain;
    e = std::clamp((e * (256 - weight) + target * weight) / 256, -kLimit, kLimit);
  }

 private:
  std::array<std::array<std::int32_t, kSize>, 2> table_{};
};

}  // namespace kibitz::search
