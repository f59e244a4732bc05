#pragma once
// Texel tuning of the gomoku evaluation weights (eval_weights.hpp). The evaluation is linear
// in its weights: per colour, each empty point adds the weight of the pattern it makes on each
// line, of the combination of the four and of its shape, so a position reduces to 103 counts
// (the side to move's minus the opponent's by pattern, combination and shape, the side to
// move's points by Threat, and the tempo). The weights then minimise the mean squared error
// between sigmoid(K * eval / 400) and the game result with full-batch Adam; or, where a
// sample carries a deeper search's score of its position, against a blend of the result and
// sigmoid(K * score / 400) (GomokuTuneOptions::label_weight). Deterministic: the same data and
// options give the same weights.
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"

#include "games/gomoku/eval_weights.hpp"
#include "games/gomoku/position.hpp"

namespace kibitz::gomoku {

// 10 patterns, 10 combinations, 10 side-to-move combinations, the 72 shapes, the tempo (last).
inline constexpr int kToMoveFeature = 20;  // where the side-to-move counts start
inline constexpr int kShapeFeature = 30;   // where the shape counts start
inline constexpr int kEvalFeatures = kShapeFeature + kShapes + 1;
using EvalFeatures = std::array<std::int16_t, kEvalFeatures>;

// The side to move's counts minus the opponent's, then the side to move's points by Threat
// (forbidden points count for nobody, as in the evaluation). Not for the capture variant (its
// capture terms are not weights).
EvalFeatures eval_features(const Position& pos);
// The evaluation those counts give, before evaluate()'s clamp and its decided-position
// shortcuts (equal to evaluate() for a quiet position: quiet_position()).
double linear_eval(const EvalFeatures& x, const EvalWeights& w);

struct TuneSample {
  EvalFeatures x;
  float result;  // for the side to move: 1 won, 0.5 drawn, 0 lost
  // A search's score of the position for the side to move, in evaluation units; NaN: none.
  float score = std::nanf("");
  // The position before the last move, as the side to move here sees it: its pattern,
  // combination and shape counts negated (the side to move's minus the opponent's, from the
  // other side), no side-to-move terms and no tempo. What EvalWeights::parent_share blends in.
  EvalFeatures parent{};
};
// The counts of the position before `pos`'s last move as TuneSample::parent holds them.
EvalFeatures parent_features(const Position& before);
// The same for a sample, with the weights' parent_share of its parent's counts blended in
// (evaluate() rounds that share's term toward zero: within 1 of this).
double linear_eval(const TuneSample& s, const EvalWeights& w);

// The score a sample is labelled with (add_game_samples): the position, the side to move's view.
using SampleLabeler = std::function<double(const Position&)>;

struct GomokuTuneOptions {
  int epochs = 400;
  double learning_rate = 2.0;  // Adam's step, in evaluation units per epoch
  std::optional<double> k;     // the sigmoid's scale; fitted to the starting weights if absent
  // Which groups of weights move; the others keep their starting values.
  bool fit_pattern = true;
  bool fit_combination = true;
  bool fit_to_move = true;
  bool fit_shape = true;
  // Ridge penalty on the shape weights (they refine the combination weights, so their prior
  // is 0; a rare shape would otherwise take any value its few positions like): the error
  // minimised is the mean squared error plus shape_l2 * sum(shape^2) / 1e6.
  double shape_l2 = 0;
  // Where a sample has a score: the target is (1 - w) * result + w * sigmoid(K * score / 400),
  // w this weight. The search's score is a far less noisy target than one game's result.
  double label_weight = 0;
};

struct GomokuTuneResult {
  EvalWeights weights;  // rounded; the ones no sample moves stay as they started
  double k = 0;
  double initial_error = 0;
  double final_error = 0;
};

// What a sample is fitted to: its result, or the blend above where it has a score.
double tune_target(const TuneSample& s, double k, double label_weight);
double tune_error(const std::vector<TuneSample>& data, const EvalWeights& w, double k,
                  double label_weight = 0);
// K fitted to the results (the scores play no part).
double fit_k(const std::vector<TuneSample>& data, const EvalWeights& w);
// `progress(epoch, error)` every 50 epochs and at the last.
GomokuTuneResult tune(const std::vector<TuneSample>& data, const EvalWeights& start,
                      const GomokuTuneOptions& options,
                      const std::function<void(int, double)>& progress = {});

// Game records as samples. One game's quiet positions (nobody has a four or a free three; the
// first skip_plies left out) with the result for the side to move: `black` is black's result
// (1, 0.5, 0), `moves` the points (x, y) in order from the empty board. A move off the board or
// not legal there is an error naming it. With `label`, each sample's score is label(position).
Result<std::size_t> add_game_samples(int size, Rule rule, double black,
                                     std::span<const std::pair<int, int>> moves, int skip_plies,
                                     std::vector<TuneSample>& out,
                                     const SampleLabeler* label = nullptr);
// The shared Gomocup referee's games log (../shared/tools/gomoku/gomocup_match.py --games-log):
// a JSON object a line with "board", "rule" (Gomocup's bits), "opening" and "moves" (points as
// "h8i7..."), and "result" ("1-0", "0-1", "1/2" for a draw, or "1/2-1/2"). Games of another
// size or rule, or without a result, add nothing; `games` counts those that added samples. A
// malformed line is a one-line error naming it. Returns the samples added.
Result<std::size_t> read_games_log(std::string_view text, Rule rule, int skip_plies,
                                   std::vector<TuneSample>& out, std::size_t& games,
                                   const SampleLabeler* label = nullptr);

// One line of that log: the board, the rule's bits, the players, the result text, how many of
// the points are the opening, and every point (x, y) in order, opening first. A malformed line
// is a one-line error.
struct LoggedGame {
  int size = 15;
  int rule_bits = 0;
  std::string black, white, result;
  int opening_plies = 0;
  std::vector<std::pair<int, int>> moves;
};
Result<LoggedGame> parse_games_log_line(std::string_view line);

}  // namespace kibitz::gomoku
