// kibitz perft: move-generator verification and speed, in Stockfish's output convention.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "games/chess/epd.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/perft.hpp"

namespace kibitz::cli {

namespace {

struct PerftOptions {
  std::string fen = "startpos";
  int depth = 0;
  bool divide = false;
  std::string suite;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int run_one(const PerftOptions& o) {
  auto pos = o.fen == "startpos" ? Result<chess::Position>(chess::Position())
                                 : chess::Position::from_fen(o.fen);
  if (!pos) return report_error(pos.error().message);
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  if (o.divide) {
    // Sorted by move text so two engines' divides can be diffed line by line.
    std::vector<std::pair<std::string, std::uint64_t>> lines;
    for (const auto& [m, n] : chess::perft_divide(*pos, o.depth)) {
      lines.emplace_back(chess::to_uci(m), n);
      nodes += n;
    }
    std::sort(lines.begin(), lines.end());
    for (const auto& [m, n] : lines) fmt::print("{}: {}\n", m, n);
    fmt::print("\n");
  } else {
    nodes = chess::perft(*pos, o.depth);
  }
  const double secs = seconds_since(t0);
  fmt::print("Nodes searched: {}\n", nodes);
  fmt::print("Time: {:.3f} s\n", secs);
  fmt::print("Nodes/second: {:.0f}\n", secs > 0 ? static_cast<double>(nodes) / secs : 0.0);
  return 0;
}

// Checks every position of a perft EPD suite (";D1 20 ;D2 400 ...") up to the depth.
int run_suite(const PerftOptions& o) {
  auto records = chess::load_epd_file(o.suite);
  if (!records) return report_error(records.error().message);
  Progress progress("perft suite", records->size());
  int checked = 0, failed = 0;
  std::uint64_t total = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < records->size(); ++i) {
    auto& rec = (*records)[i];
    for (int d = 1; d <= o.depth; ++d) {
      const auto expected = rec.op(fmt::format("D{}", d));
      if (!expected) continue;
      chess::Position p = rec.position;
      const std::uint64_t got = chess::perft(p, d);
      total += got;
      ++checked;
      if (std::to_string(got) != *expected) {
        ++failed;
        fmt::print("FAIL {} depth {}: expected {}, got {}\n", rec.position.fen(), d, *expected,
                   got);
      }
    }
    progress.update(i + 1);
  }
  progress.finish();
  const double secs = seconds_since(t0);
  fmt::print("{} positions, {} counts checked, {} failed; {} nodes in {:.2f} s\n", records->size(),
             checked, failed, total, secs);
  return failed == 0 ? 0 : 1;
}

}  // namespace

Runner add_perft(CLI::App& root) {
  auto o = std::make_shared<PerftOptions>();
  auto* cmd = root.add_subcommand("perft", "Count the leaf nodes of the legal move tree (chess)");
  cmd->add_option("--fen", o->fen, "the position: a FEN string or 'startpos'")
      ->capture_default_str();
  cmd->add_option("--depth,-d", o->depth, "plies to search")->required()->check(CLI::Range(1, 12));
  cmd->add_flag("--divide", o->divide, "print the count under each root move first");
  cmd->add_option("--suite", o->suite,
                  "check every position of a perft EPD file (;D1 n ;D2 n ...) up to --depth")
      ->check(CLI::ExistingFile);
  cmd->footer(
      "Examples:\n"
      "  kibitz perft --depth 6\n"
      "  kibitz perft --fen \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 "
      "1\""
      " --depth 5 --divide\n"
      "  kibitz perft --suite ../shared/data/chess/perftsuite.epd --depth 4");
  return [o] { return o->suite.empty() ? run_one(*o) : run_suite(*o); };
}

}  // namespace kibitz::cli
