// kibitz tune: Texel tuning of the chess evaluation weights from "FEN | result" lines.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>

#include "cli/commands.hpp"
#include "games/chess/tune.hpp"

namespace kibitz::cli {

namespace {

struct TuneCliOptions {
  std::string data;
  std::string out;
  chess::TuneOptions tune;
  double k = 0;  // 0: fit it
};

constexpr std::size_t kMaxWarnings = 10;

int run_tune(const TuneCliOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  chess::TuneLoadReport report;
  std::size_t warned = 0;
  auto data = chess::load_tune_data(o.data, report, [&](const std::string& message) {
    if (warned++ < kMaxWarnings) fmt::print(stderr, "kibitz: warning: {}\n", message);
  });
  if (!data) return report_error(data.error().message, 2);
  if (report.skipped > 0)
    fmt::print(stderr, "kibitz: warning: {}: skipped {} malformed line{} of {}\n", o.data,
               report.skipped, report.skipped == 1 ? "" : "s", report.lines);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print(stderr, "{} positions ({} terms) loaded in {:.1f} s\n", data->size(), data->terms(),
             secs);

  chess::TuneOptions opts = o.tune;
  if (o.k > 0) opts.k = o.k;
  if (!opts.k) {
    opts.k = chess::fit_k(*data, chess::kDefaultEvalParams, opts.threads);
    fmt::print(stderr, "fitted K = {:.4f}\n", *opts.k);
  }
  const int width = static_cast<int>(fmt::format("{}", opts.epochs).size());
  const auto result = chess::tune(*data, chess::kDefaultEvalParams, opts, [&](int epoch, double e) {
    fmt::print(stderr, "epoch {:>{}} error {:.8f}\n", epoch, width, e);
  });

  const std::string table = chess::format_eval_params(result.params);
  if (!o.out.empty()) {
    std::ofstream f(o.out, std::ios::binary | std::ios::trunc);
    if (!(f << table) || !(f.flush()))
      return report_error(fmt::format("cannot write '{}'", o.out), 1);
  }
  fmt::print("positions {} K {:.4f} error {:.8f} -> {:.8f}\n", data->size(), result.k,
             result.initial_error, result.final_error);
  if (!o.out.empty())
    fmt::print("wrote {}\n", o.out);
  else
    fmt::print("{}", table);
  return 0;
}

}  // namespace

Runner add_tune(CLI::App& root) {
  auto o = std::make_shared<TuneCliOptions>();
  auto* cmd = root.add_subcommand(
      "tune", "Fit the chess evaluation weights to game results (Texel tuning, Adam)");
  cmd->add_option("--data", o->data,
                  "positions, one per line: 'FEN | result', result 1.0 / 0.5 / 0.0 for a "
                  "white win / draw / black win")
      ->required();
  cmd->add_option("--epochs", o->tune.epochs, "full passes over the data")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--learning-rate", o->tune.learning_rate, "Adam step size (centipawns per epoch)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--k", o->k,
                  "sigmoid scale: error of sigmoid(K * eval / 400); default: fitted to the "
                  "current weights first")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", o->tune.threads, "worker threads (results do not depend on it)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--out", o->out,
                  "write the tuned weights as eval_params.cpp source to this file (default: "
                  "print them)");
  cmd->footer(
      "Examples:\n"
      "  kibitz tune --data positions.txt --epochs 500 --out src/games/chess/eval_params.cpp\n"
      "  kibitz tune --data positions.txt --epochs 0   # fit K and report the error only");
  return [o] { return run_tune(*o); };
}

}  // namespace kibitz::cli
