#pragma once
// A small efficiently updatable network (NNUE) for the chess evaluation:
//
//   768 inputs per perspective (own/their colour x 6 piece types x 64 squares, the board
//   flipped for black) -> kHidden accumulator neurons, weights shared by both perspectives
//   -> squared clipped ReLU -> one output over [side to move's kHidden, the other's kHidden],
//   its weights chosen from kOutputBuckets sets by the number of pieces on the board.
//
// FloatNetwork is the trainer's model; Network is its quantised form the search runs: the
// accumulator in int16 at scale kQA, the output weights at kQB, so the output in units of
// kQA * kQB times kOutputScale is centipawns. Evaluator keeps one accumulator pair per ply and
// updates it from the move (a few hundred int16 additions), through the alpha-beta's evaluator
// seam (search/alphabeta/evaluator.hpp).
//
// The file ("KBZNNUE1"): version, inputs, hidden size, output buckets, kQA, kQB, kOutputScale
// (uint32 each), a provenance text (uint32 length, then UTF-8: the data and command that made
// it), the int16 feature weights [768][kHidden], int16 biases [kHidden], int16 output weights
// [buckets][2 kHidden], the int32 output biases [buckets], and the FNV-1a 64 hash of everything
// before it. Little-endian.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "games/chess/position.hpp"
#include "search/common/score.hpp"

namespace kibitz::chess::nnue {

inline constexpr int kInputs = 768;
inline constexpr int kHidden = 256;
// The output layer has one set of weights per stage of the game, picked by the piece count:
// what an accumulator neuron is worth changes as the pieces come off.
inline constexpr int kOutputBuckets = 8;
inline constexpr int kQA = 255;
inline constexpr int kQB = 2048;  // fine: the output sums 512 terms, each off by up to 1/(2 kQB)
inline constexpr int kOutputScale = 400;  // output 1.0 = 400 centipawns
// What the trainer keeps the weights within, so the int16 accumulator cannot overflow (33
// features x 1.98 x 255 < 32767) and an output term fits int32 (255^2 x 1.98 kQB < 2^31).
inline constexpr float kWeightClip = 1.98f;

// The accumulator's activation, squared clipped ReLU: clamp(x, 0, 1)^2. The square lets one
// layer model products of features (a piece's value that grows with the pieces near it).
inline float activate(float x) {
  const float c = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
  return c * c;
}

// The output bucket of a board with `pieces` pieces (2 to 32), kings included.
constexpr int output_bucket(int pieces) {
  const int b = (pieces - 2) / 4;
  return b < 0 ? 0 : b >= kOutputBuckets ? kOutputBuckets - 1 : b;
}
inline int output_bucket(const Position& pos) { return output_bucket(popcount(pos.pieces())); }

// The input index of piece p on square s from perspective `view`.
constexpr int feature(Color view, Piece p, Square s) {
  const int side = color_of(p) == view ? 0 : 1;
  const int sq = view == kWhite ? s : s ^ 56;
  return side * 384 + type_of(p) * 64 + sq;
}

// The active inputs of a position from one perspective (at most 32); returns the count.
int active_features(const Position& pos, Color view, std::array<int, 32>& out);

struct FloatNetwork {
  std::vector<float> w1 = std::vector<float>(kInputs * kHidden);  // [input][hidden]
  std::vector<float> b1 = std::vector<float>(kHidden);
  // [bucket][own half, their half]
  std::vector<float> w2 = std::vector<float>(kOutputBuckets * 2 * kHidden);
  std::vector<float> b2 = std::vector<float>(kOutputBuckets);

  // The raw output (1.0 = kOutputScale centipawns) from the side to move's view.
  float forward(const Position& pos) const;
};

class Network {
 public:
  static Network quantise(const FloatNetwork& f, std::string provenance);
  // The float weights this network stands for (exact: quantise() of them gives it back), for
  // training to start from (train-nnue --init).
  FloatNetwork dequantise() const;
  static Result<Network> parse(std::span<const std::uint8_t> bytes);
  // A file that is missing, cut short, of another shape or corrupted is refused in one line.
  static Result<Network> load(const std::string& path);
  std::vector<std::uint8_t> serialise() const;

  const std::string& provenance() const { return provenance_; }
  // Centipawns from the side to move's view, computed from scratch.
  int evaluate(const Position& pos) const;

 private:
  friend class Evaluator;
  // The output from two accumulators (side to move's first) with a bucket's weights.
  int output(const std::int16_t* own, const std::int16_t* their, int bucket) const;
  // One perspective's accumulator computed from scratch into `acc` (kHidden values).
  void refresh(const Position& pos, Color view, std::int16_t* acc) const;

  std::vector<std::int16_t> w1_ = std::vector<std::int16_t>(kInputs * kHidden);
  std::vector<std::int16_t> b1_ = std::vector<std::int16_t>(kHidden);
  std::vector<std::int16_t> w2_ = std::vector<std::int16_t>(kOutputBuckets * 2 * kHidden);
  std::array<std::int32_t, kOutputBuckets> b2_{};
  std::string provenance_;
};

// The network compiled into the program (data/chess/network.nnue): its bytes, and the network
// parsed once on first use and shared (null only if the build embedded a file this build
// refuses, which a test rules out).
std::span<const std::uint8_t> builtin_network_bytes();
std::shared_ptr<const Network> builtin_network();

// The name that means the built-in network (EvalFile, train-nnue --init).
inline constexpr std::string_view kBuiltinNetworkName = "<builtin>";
// The built-in network for kBuiltinNetworkName (null as builtin_network() can be), else the
// file `name` loaded, or its one-line refusal.
Result<std::shared_ptr<const Network>> load_network(const std::string& name);

// The search's view of a network: an accumulator pair per ply. make() only notes which pieces
// leave and arrive; evaluate() brings the accumulators up to date from the last ply that is
// (a few hundred int16 additions a move), so a node whose subtree never evaluates — a table
// cut-off, a stored static value — costs nothing. unmake drops a ply; a null move changes
// nothing (the perspectives swap at evaluate()). Copyable (the search copies it per thread);
// never allocates after construction.
class Evaluator {
 public:
  explicit Evaluator(const Network& net);

  void reset(const Position& pos);
  void make(const Position& before, Move m);
  void unmake(const Position&, Move) { --top_; }
  void make_null(const Position&) {}
  void unmake_null(const Position&) {}
  // Centipawns from the side to move's view, kept clear of the mate scores.
  int evaluate(const Position& pos) const;

 private:
  // The pieces a move takes off squares and puts on them (a castling moves two, a capture
  // removes one more, a promotion changes the piece).
  struct Delta {
    std::array<Piece, 2> removed, added;
    std::array<Square, 2> removed_sq, added_sq;
    std::uint8_t num_removed, num_added;
  };
  std::int16_t* acc(int ply, Color view) const {
    return acc_.data() + (static_cast<std::size_t>(ply) * 2 + view) * kHidden;
  }
  void update(int ply) const;  // accumulators of `ply` from those of ply - 1

  const Network* net_;
  int top_ = 0;
  // Plies from the root: the search's depth limit plus the game moves a reset can replay.
  static constexpr int kStack = search::kMaxSearchPly + 8;
  std::array<Delta, kStack> delta_{};
  mutable std::array<bool, kStack> fresh_{};  // accumulators of that ply are up to date
  mutable std::vector<std::int16_t> acc_;
};

// What the chess search runs (an AlphaBetaEvaluator): the network when one is given, else the
// hand-written evaluation (Position::evaluate), each move costing one well-predicted branch.
// Copies share the network.
class SearchEval {
 public:
  SearchEval() = default;
  explicit SearchEval(std::shared_ptr<const Network> net) : net_(std::move(net)) {
    if (net_) acc_.emplace(*net_);
  }
  const Network* network() const { return net_.get(); }

  void reset(const Position& pos) {
    if (acc_) acc_->reset(pos);
  }
  void make(const Position& before, Move m) {
    if (acc_) acc_->make(before, m);
  }
  void unmake(const Position& after, Move m) {
    if (acc_) acc_->unmake(after, m);
  }
  void make_null(const Position&) {}
  void unmake_null(const Position&) {}
  int evaluate(const Position& pos) const { return acc_ ? acc_->evaluate(pos) : pos.evaluate(); }

 private:
  std::shared_ptr<const Network> net_;
  std::optional<Evaluator> acc_;
};

}  // namespace kibitz::chess::nnue
