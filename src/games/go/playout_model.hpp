#pragma once
// The learned part of the playout policy (search_traits.hpp): a softmax over the empty points
// around the last move, MoGo / CrazyStone style. Each point is described by its 3x3 shape read
// relative to the side to move, with one more bit for each of its four orthogonal neighbours
// whose chain is in atari (a 20-bit code), and by whether it touches the last move
// orthogonally or diagonally; a "tenuki" pseudo-move stands for every point elsewhere (the
// playout then plays a random point). The strengths are generalized Bradley-Terry gammas
// fitted to strong players' games by `kibitz go train-playout` (pattern_train.hpp).
//
// Codes are kept canonical (the least over the 8 board symmetries) in the weights file; the
// loaded model expands them into a table of all 2^20 codes, one byte each (a log-scale gamma),
// so a playout reads a point's strength with one lookup.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "games/go/board.hpp"

namespace kibitz::go {

inline constexpr int kLocalCodeBits = 20;
inline constexpr std::uint32_t kNumLocalCodes = 1u << kLocalCodeBits;

// The code of an empty point for the side to move: the 8 cells of neighbourhood() (2 bits
// each: 0 the mover's stone, 1 the opponent's, 2 empty, 3 off the board), then bits 16-19 set
// where the south, west, east, north neighbour is a stone whose chain has one liberty.
std::uint32_t local_code(const Position& p, int sq);

// A code under board symmetry t (0..7: bit 0 transposes, bit 1 mirrors columns, bit 2 rows).
std::uint32_t transform_local_code(std::uint32_t code, int t);
// The least of a code's 8 transforms.
std::uint32_t canonical_local_code(std::uint32_t code);

struct PlayoutPatternEntry {
  std::uint32_t code = 0;  // canonical
  float gamma = 1.0f;
};

class PlayoutModel {
 public:
  PlayoutModel();  // no patterns: every gamma 1
  PlayoutModel(std::vector<PlayoutPatternEntry> patterns, float tenuki, float diagonal);

  // The JSON weights format; errors are one line starting with `source`.
  static Result<PlayoutModel> parse(std::string_view json, std::string_view source);
  static Result<PlayoutModel> load(const std::string& path);
  // The weights compiled in from data/go/playout_patterns.json.
  static const PlayoutModel& builtin();
  std::string to_json() const;

  // The model the playouts use, nullptr for the hand-written rules alone. Set it once at
  // start-up, before any search runs (playouts read it without a lock).
  static const PlayoutModel* active();
  static void set_active(const PlayoutModel* model);

  // A point's strength (its pattern's gamma, rounded to the byte scale), unlisted codes 1.
  float weight(std::uint32_t code) const { return kScale[table_[code]]; }
  float tenuki() const { return tenuki_; }
  float diagonal() const { return diagonal_; }
  const std::vector<PlayoutPatternEntry>& patterns() const { return patterns_; }

  // How the weights were made (free text kept in the file).
  std::string made_by;

  // The byte scale: gamma 2^((q - 128) / 16) for byte q.
  static std::uint8_t quantise(double gamma);
  static const std::array<float, 256> kScale;

 private:
  std::vector<PlayoutPatternEntry> patterns_;
  float tenuki_ = 1.0f, diagonal_ = 1.0f;
  std::vector<std::uint8_t> table_;
};

}  // namespace kibitz::go
