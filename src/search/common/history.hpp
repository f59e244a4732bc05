#pragma once
// Move-ordering memory shared by the alpha-beta searches: two killer moves per ply and a
// butterfly history table per side to move. History uses the "gravity" update
// h += bonus - h * |bonus| / kMax, which keeps every entry within +-kMax without a global
// rescale, and ages (halves) between searches so old games' preferences fade.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

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

}  // namespace kibitz::search
