// kibitz train-nnue: trains the chess network on self-play training files and writes it
// quantised, with the data and the command that made it inside.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "games/chess/nnue_train.hpp"

namespace kibitz::cli {

namespace {

struct TrainNnueArgs {
  std::vector<std::string> data;
  std::vector<std::string> held_out;  // validation only
  std::string out;
  std::string init;  // a network file, "<builtin>", or empty (random weights)
  double validation = 0.05;
  std::size_t max_positions = 0;
  chess::nnue::TrainOptions o;
};

std::string command_line(const TrainNnueArgs& a) {
  std::string s = "kibitz train-nnue";
  for (const auto& f : a.data) s += " --data " + f;
  for (const auto& f : a.held_out) s += " --validation-data " + f;
  s += fmt::format(
      " --epochs {} --batch {} --learning-rate {} --wdl {} --score-k {} --validation {} --seed "
      "{}",
      a.o.epochs, a.o.batch, a.o.learning_rate, a.o.wdl, a.o.score_k, a.validation, a.o.seed);
  if (a.max_positions) s += fmt::format(" --max-positions {}", a.max_positions);
  if (!a.o.mirror) s += " --no-mirror";
  if (!a.init.empty()) s += " --init " + a.init;
  return s + " --out " + a.out;
}

// The position a training record holds, or nothing when it does not read back.
std::optional<chess::Position> record_position(const chess::TrainingRecord& r) {
  const auto t = chess::unpack_training_record(r);
  if (!t) return std::nullopt;
  auto pos = chess::Position::from_fen(t->fen());
  return pos ? std::optional<chess::Position>(*pos) : std::nullopt;
}

// The hand-written evaluation's loss on the same validation positions and targets.
double hce_loss(const chess::nnue::TrainData& d, const chess::nnue::TrainOptions& o) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < d.validation_records.size(); ++i) {
    const auto pos = record_position(d.validation_records[i]);
    if (!pos) continue;
    const double p = 1 / (1 + std::exp(-o.score_k * pos->evaluate() / 400.0));
    const auto& s = d.validation[i];
    const double target =
        o.wdl * s.result + (1 - o.wdl) / (1 + std::exp(-o.score_k * s.score / 400.0));
    sum += (p - target) * (p - target);
    ++n;
  }
  return n ? sum / static_cast<double>(n) : 0;
}

int run_train_nnue(TrainNnueArgs a) {
  namespace nnue = chess::nnue;
  const auto t0 = std::chrono::steady_clock::now();
  // The starting network's provenance goes into the new one's: it is part of what made it.
  std::string init_provenance;
  if (!a.init.empty()) {
    const auto start = nnue::load_network(a.init);
    if (!start) return report_error(start.error().message, 2);
    if (!*start) return report_error("--init: this build has no built-in network", 2);
    a.o.init = (*start)->dequantise();
    init_provenance = "; started from the network made by: " + (*start)->provenance();
  }
  auto data = nnue::load_train_data(a.data, a.validation, a.o.seed, a.max_positions, a.held_out);
  if (!data) return report_error(data.error().message, 2);
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  fmt::print(stderr,
             "{} training and {} validation positions from {} games ({} skipped), {:.1f} s\n",
             data->train.size(), data->validation.size(), data->games, data->skipped, elapsed());
  if (a.o.init)
    fmt::print(stderr, "the starting network's validation loss {:.6f}\n",
               nnue::network_loss(*a.o.init, data->validation, a.o));
  const std::uint64_t per_epoch = (data->train.size() + static_cast<std::size_t>(a.o.batch) - 1) /
                                  static_cast<std::size_t>(a.o.batch);
  Progress progress("train-nnue", per_epoch * static_cast<std::uint64_t>(a.o.epochs));
  double last_val = 0, last_train = 0;
  const auto net = nnue::train_network(
      *data, a.o,
      [&](int epoch, double train, double val) {
        last_train = train;
        last_val = val;
        progress.update(per_epoch * static_cast<std::uint64_t>(epoch),
                        fmt::format("epoch {} train {:.6f} validation {:.6f}", epoch, train, val));
        if (!progress.enabled())
          fmt::print(stderr, "epoch {} train loss {:.6f} validation loss {:.6f} ({:.0f} s)\n",
                     epoch, train, val, elapsed());
      },
      [&](std::uint64_t batch) { progress.update(batch); });
  progress.finish();
  const double hce = hce_loss(*data, a.o);

  // How far the quantised network is from the float one, in centipawns.
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  const std::string provenance = fmt::format(
      "{} (Kibitz {}, {}); {} training and {} validation positions from {} games; loss train "
      "{:.6f} validation {:.6f}, hand-written evaluation {:.6f}{}",
      command_line(a), KIBITZ_VERSION, date, data->train.size(), data->validation.size(),
      data->games, last_train, last_val, hce, init_provenance);
  const auto quantised = nnue::Network::quantise(net, provenance);
  double max_diff = 0, sum_diff = 0;
  std::size_t compared = 0;
  for (std::size_t i = 0; i < data->validation_records.size() && compared < 20000; ++i) {
    const auto pos = record_position(data->validation_records[i]);
    if (!pos) continue;
    const double diff = std::abs(quantised.evaluate(*pos) - net.forward(*pos) * nnue::kOutputScale);
    max_diff = std::max(max_diff, diff);
    sum_diff += diff;
    ++compared;
  }
  const auto bytes = quantised.serialise();
  std::ofstream f(a.out, std::ios::binary | std::ios::trunc);
  if (!f.write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size())) ||
      !f.flush())
    return report_error(fmt::format("cannot write '{}'", a.out));
  fmt::print(
      "validation loss {:.6f} (hand-written evaluation {:.6f}); quantised vs float over {} "
      "positions: mean {:.2f} cp, max {:.1f} cp; wrote {} ({} bytes)\n",
      last_val, hce, compared, compared ? sum_diff / static_cast<double>(compared) : 0.0, max_diff,
      a.out, bytes.size());
  return 0;
}

}  // namespace

Runner add_train_nnue(CLI::App& root) {
  auto a = std::make_shared<TrainNnueArgs>();
  auto* cmd = root.add_subcommand(
      "train-nnue", "Train the chess network (NNUE) on self-play training files (.kbd)");
  cmd->add_option("--data", a->data, "training files written by kibitz selfplay (repeatable)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--out", a->out, "the network file to write")->required();
  cmd->add_option("--epochs", a->o.epochs, "passes over the training positions")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--batch", a->o.batch, "positions a step")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 24));
  cmd->add_option("--learning-rate", a->o.learning_rate, "Adam step (a tenth in the last quarter)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--wdl", a->o.wdl, "weight of the game result in the target (rest: the score)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--score-k", a->o.score_k, "sigmoid(k * cp / 400) for scores and outputs")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--validation", a->validation, "share of the games held out")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.5));
  cmd->add_option("--validation-data", a->held_out,
                  "files whose every game is held out, besides the --validation share "
                  "(repeatable; --validation 0 to validate on them alone)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--max-positions", a->max_positions, "read at most this many (0: all)");
  cmd->add_flag("!--no-mirror", a->o.mirror, "do not reflect positions left to right");
  cmd->add_option("--init", a->init,
                  "start from this network file (or <builtin>) instead of random weights");
  cmd->add_option("--seed", a->o.seed, "initial weights, shuffling, the validation split")
      ->capture_default_str();
  cmd->add_option("--threads", a->o.threads, "worker threads (results do not depend on it)")
      ->capture_default_str()
      ->check(CLI::Range(1, 8));
  cmd->footer(
      "Example:\n"
      "  kibitz selfplay --games 10000 --nodes 5000 --openings "
      "../shared/data/chess/openings/2moves_v1.epd --out train.kbd\n"
      "  kibitz train-nnue --data train.kbd --epochs 20 --out kibitz.nnue");
  return [a] { return run_train_nnue(*a); };
}

}  // namespace kibitz::cli
