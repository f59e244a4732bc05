#pragma once
// The gomoku evaluation's weights. A point's value to a colour is the sum of what it makes on
// each of its four lines (`pattern`, by Pattern) plus a term for what the four make together
// (`combination`, by Threat); the evaluation sums the values of the empty points for each
// colour and takes the difference, plus `tempo` for the side to move and, per point of the side
// to move by Threat, `to_move` (a point where the side to move makes a double three or a
// four-three is worth more to it than the same point to the side that has just moved; counted
// only while the opponent has no four and no free three on the board), and `shape`, a finer
// combination term by how many lines of each kind the point has (see kShapes). The weights are
// data: JSON files in data/gomoku (compiled in), fitted by `kibitz gomoku tune` where a rule set
// has its own, and replaceable at startup (`--eval FILE`).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "games/gomoku/position.hpp"

namespace kibitz::gomoku {

// A point's shape for one colour: how many of its four lines make a four (0-1), a free three
// (0-2), a closed three (0-1), a flex two (0-2) and a two (0-1), counts above the bound
// saturated; 72 shapes. Points with a five, an overline, an open four or two fours have none
// (their value is the search's business). Named by the five digits in that order ("01020":
// one free three, two flex twos). Its weight adds to the point's combination weight.
inline constexpr int kShapes = 72;
constexpr int shape_index(int fours, int flex_threes, int threes, int flex_twos, int twos) {
  return fours + 2 * (flex_threes + 3 * (threes + 2 * (flex_twos + 3 * twos)));
}
std::string shape_name(int shape);

struct EvalWeights {
  std::array<int, 10> pattern{};      // by Pattern (kNone .. kOverline)
  std::array<int, 10> combination{};  // by Threat (kNone .. kFive)
  std::array<int, 10> to_move{};      // by Threat, the side to move's points only
  std::array<int, kShapes> shape{};   // by shape_index, added to the combination
  int tempo = 0;
  // Percent of the score (the point values' difference) read from the position before the
  // last move instead of this one: an average over two plies damps the swing of the last
  // stone, which always favours the side that just moved (PentaZen evaluates so, half and half).
  int parent_share = 0;
  std::string rule = "any";  // the rule set they were made for ("any", or a rule_name)
  std::string made_by;       // how they were made
  friend bool operator==(const EvalWeights&, const EvalWeights&) = default;
};

// The JSON names of the Pattern and Threat values, in enum order.
inline constexpr std::array<std::string_view, 10> kPatternNames = {
    "none",       "dead", "two",       "flex_two", "three",
    "flex_three", "four", "flex_four", "five",     "overline"};
inline constexpr std::array<std::string_view, 10> kThreatNames = {
    "none",        "two",  "three",      "two_two",   "flex_three",
    "three_three", "four", "four_three", "flex_four", "five"};

// Bounds a weights file must keep: a point's value (4 patterns, a combination and a shape, so
// -16000..32000) has to fit the evaluation's 16-bit per-point field, and pattern values are
// summed as unsigned fields. Shape weights keep the combination's bounds.
inline constexpr int kMaxPatternWeight = 4000;
inline constexpr int kMaxCombinationWeight = 8000;
// The tempo is added once to the whole evaluation (clamped to +-9000): up to a third of that.
inline constexpr int kMaxTempo = 3000;

// Parses a weights file's text; the error is one line naming the file's problem.
Result<EvalWeights> parse_eval_weights(std::string_view json);
Result<EvalWeights> load_eval_weights(const std::string& path);
std::string format_eval_weights(const EvalWeights& w);  // the file format, one JSON object

// The compiled-in weights for a rule set (data/gomoku/eval-freestyle.json, eval-exact5.json,
// eval-capture.json, or eval-default.json for renju).
const EvalWeights& builtin_eval_weights(Rule r);
// The weights positions of rule r are built with from now on (positions already made keep
// theirs). Meant for startup, before any search runs.
void set_eval_weights(Rule r, const EvalWeights& w);
const EvalWeights& eval_weights(Rule r);

namespace detail {
// What Position reads: per table entry the packed counters and pattern value (see
// position.cpp), per point combination its summary and weights, per Threat the side-to-move
// term, and the tempo.
struct EvalTables {
  std::array<std::uint64_t, 256> entry_info{};
  std::array<int, 10> to_move{};
  // By combination mode and index (position_detail.hpp: kCombo): the summary (captures
  // aside) in the low 16 bits, and in the high 16 (signed) the combination and shape
  // weights together, so that a point's refresh reads one entry.
  static constexpr int kCombinations = 1728;
  std::array<std::array<std::uint32_t, kCombinations>, 3> point{};
  // The same read straight from a point's four entries, so that make keeps no summed
  // counters: indexed by the four line codes as nibbles (position_detail.hpp: direct_index),
  // the summary without its capture bits in the low 16 bits and the point's whole value
  // (0 where flagged) in the high 16. Tables 0-2 by combination mode for points that capture
  // nothing, 3 the capture rule's for points that capture (a capture lifts its flag; under
  // the other modes captures change neither summary nor value).
  static constexpr int kDirectSize = 1 << 16;
  std::array<std::vector<std::uint32_t>, 4> direct;
  int tempo = 0;
  int parent_share = 0;
  EvalWeights weights;
};
const EvalTables* eval_tables(Rule r);
}  // namespace detail

}  // namespace kibitz::gomoku
