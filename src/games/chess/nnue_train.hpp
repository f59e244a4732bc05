#pragma once
// Trains the chess network (nnue.hpp) on training-data files (training_data.hpp): full
// precision, Adam on minibatches, the loss the squared error of sigmoid(k * eval / 400) against
// a blend of the search's own expectation and the game's result. Deterministic under a seed
// whatever the thread count (gradients are summed in fixed blocks, in block order).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "games/chess/nnue.hpp"
#include "games/chess/training_data.hpp"

namespace kibitz::chess::nnue {

// One position as the trainer holds it: the active inputs from both perspectives (side to
// move's first) and the target, both from the side to move's view.
struct TrainSample {
  std::uint8_t count = 0;
  std::uint8_t bucket = 0;  // output_bucket(count)
  std::array<std::uint16_t, 32> own{}, their{};
  float score = 0;   // centipawns
  float result = 0;  // 1 win, 0.5 draw, 0 loss
};

// The sample of a training record, or why it is not one (a record that does not unpack).
Result<TrainSample> make_sample(const TrainingRecord& r);

struct TrainData {
  std::vector<TrainSample> train, validation;
  std::vector<TrainingRecord> validation_records;  // the validation positions themselves
  std::size_t games = 0, skipped = 0;
};

// Reads the files; whole games (chunks) go to validation with probability
// `validation` (chosen by a hash of the seed and the game's number). `max_positions` (0: all)
// stops reading early. Every game of the `held_out` files is validation: a set no network
// was trained on, to compare networks trained on different data.
Result<TrainData> load_train_data(const std::vector<std::string>& files, double validation,
                                  std::uint64_t seed, std::size_t max_positions,
                                  const std::vector<std::string>& held_out = {});

struct TrainOptions {
  int epochs = 20;
  int batch = 4096;
  double learning_rate = 0.001;
  double wdl = 0.25;     // weight of the game's result in the target (the rest: the score)
  double score_k = 2.4;  // target and prediction: sigmoid(score_k * cp / 400)
  std::uint64_t seed = 1;
  int threads = 1;
  bool mirror = true;  // train on positions reflected left to right half the time
  // Start from these weights (a network trained before) instead of random ones.
  std::optional<FloatNetwork> init;
};

// Loss of a network on samples (mean squared error of the predicted expectation).
double network_loss(const FloatNetwork& net, const std::vector<TrainSample>& samples,
                    const TrainOptions& o);

// epoch (from 1), training loss, validation loss (0 without validation samples).
using EpochFn = std::function<void(int, double, double)>;
FloatNetwork train_network(const TrainData& data, const TrainOptions& o, const EpochFn& on_epoch,
                           const std::function<void(std::uint64_t)>& on_batch = {});

}  // namespace kibitz::chess::nnue
