// kibitz gomocup (also run as `pbrain-kibitz`): the Gomocup protocol on stdin/stdout.
// kibitz gomoku play: a person against the engine in the terminal.
// kibitz gomoku puzzles: the threat search on a puzzle file (JSON lines), solve times.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/progress.hpp"
#include "engine/gomoku_engine.hpp"
#include "protocol/gomocup/gomocup.hpp"

namespace kibitz::cli {

namespace {

struct EngineArgs {
  std::int64_t movetime = 0;
  std::size_t hash_mb = 64;
  bool no_threats = false;
  bool no_vct = false;
  std::vector<std::string> disable;
};

void add_engine_options(CLI::App* cmd, EngineArgs& a) {
  cmd->add_option("--movetime", a.movetime, "milliseconds per move (default 450)");
  cmd->add_option("--hash", a.hash_mb, "transposition table, MB")->capture_default_str();
  cmd->add_flag("--no-threats", a.no_threats,
                "plain alpha-beta: no VCF / VCT / threat defence stages");
  cmd->add_flag("--no-vct", a.no_vct, "skip the VCT stage (and VCT defence)");
  cmd->add_option("--disable", a.disable, "switch off an alpha-beta technique (repeatable)");
}

Result<engine::GomokuOptions> engine_options(const EngineArgs& a) {
  engine::GomokuOptions o;
  o.threats = !a.no_threats;
  o.vct = !a.no_vct;
  for (const auto& name : a.disable)
    if (!o.search.set(name, false)) return fail("--disable: unknown technique '{}'", name);
  return o;
}

int run_gomocup(const EngineArgs& a) {
  auto o = engine_options(a);
  if (!o) return report_error(o.error().message, 2);
  gomocup::SessionOptions so;
  so.movetime_ms = a.movetime;
  so.hash_mb = a.hash_mb;
  so.engine = *o;
  gomocup::Session session(std::cin, std::cout, so);
  return session.run();
}

struct PlayArgs {
  EngineArgs engine;
  int size = 15;
  std::string rule = "freestyle";
  std::string colour = "black";
};

int run_play(const PlayArgs& a) {
  auto o = engine_options(a.engine);
  if (!o) return report_error(o.error().message, 2);
  auto rule = gomoku::parse_rule(a.rule);
  if (!rule) return report_error(rule.error().message, 2);
  if (a.size < 15 || a.size > gomoku::kMaxSize)
    return report_error(fmt::format("--size {}: 15 to {}", a.size, gomoku::kMaxSize), 2);
  if (a.colour != "black" && a.colour != "white")
    return report_error("--colour: black or white", 2);
  engine::GomokuEngine engine(a.engine.hash_mb);
  engine.set_options(*o);
  gomoku::Position pos(gomoku::Variant{a.size, *rule});
  const int human = a.colour == "black" ? 0 : 1;
  const engine::GomokuLimits limits{.movetime_ms = a.engine.movetime > 0 ? a.engine.movetime : 450};
  fmt::print("Gomoku ({}, {}x{}). You play {}. Moves as h8 or 7,7; 'quit' ends.\n",
             gomoku::rule_name(*rule), a.size, a.size, a.colour);
  std::string line;
  while (!pos.is_terminal()) {
    fmt::print("\n{}\n", pos.to_string());
    if (pos.current_player() == human) {
      fmt::print("your move> ");
      std::fflush(stdout);
      if (!std::getline(std::cin, line) || line == "quit") return 0;
      auto m = gomoku::parse_move(pos, line);
      if (!m) {
        fmt::print("{}\n", m.error().message);
        continue;
      }
      if (!pos.is_legal(*m)) {
        fmt::print("{} is forbidden under {}\n", gomoku::to_text(*m), gomoku::rule_name(*rule));
        continue;
      }
      pos.apply(*m);
    } else {
      const auto d = engine.think(pos, limits);
      fmt::print("kibitz plays {} ({}, depth {}, score {}, {} ms)\n", gomoku::to_text(d.move),
                 d.stage, d.depth, d.score, d.time_ms);
      pos.apply(d.move);
    }
  }
  fmt::print("\n{}\n", pos.to_string());
  const int w = pos.winner();
  fmt::print("{}\n", w < 0 ? "Draw." : w == human ? "You win." : "Kibitz wins.");
  return 0;
}

struct PuzzleArgs {
  std::string file;
  std::string rule = "native";
  std::string kind = "vcf";
  int depth = 40;
  std::int64_t movetime = 10000;
  int limit = 0;
  bool verbose = false;
};

// One puzzle per line: {"size": 15, "native_rule": 4, "side_to_move": 1, "stones": [[x, y,
// colour], ...]} with colour 1 black, 2 white (the shared puzzle sets' format).
int run_puzzles(const PuzzleArgs& a) {
  std::ifstream in(a.file);
  if (!in) return report_error(fmt::format("cannot read '{}'", a.file));
  const auto kind = a.kind == "vct" ? search::ThreatKind::kVct : search::ThreatKind::kVcf;
  if (a.kind != "vcf" && a.kind != "vct") return report_error("--kind: vcf or vct", 2);
  search::ThreatSearch<gomoku::Position> threats(20);
  std::vector<double> times;
  int solved = 0, total = 0, skipped = 0, line_no = 0;
  std::string line;
  Progress progress("puzzles", 0);
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    if (a.limit && total >= a.limit) break;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("stones") || !j.contains("size"))
      return report_error(fmt::format("{}:{}: not a puzzle line", a.file, line_no));
    gomoku::Variant v;
    v.size = j.value("size", 15);
    if (a.rule == "native") {
      const int native = j.value("native_rule", 0);
      v.rule = native == 4   ? gomoku::Rule::kRenju
               : native == 1 ? gomoku::Rule::kExactFive
                             : gomoku::Rule::kFreestyle;
    } else {
      auto r = gomoku::parse_rule(a.rule);
      if (!r) return report_error(r.error().message, 2);
      v.rule = *r;
    }
    // Stones are given without order: place blacks and whites alternately, then fix the side
    // to move by the puzzle's own field.
    std::vector<std::pair<int, int>> black, white;
    for (const auto& s : j["stones"])
      (s[2].get<int>() == 1 ? black : white).emplace_back(s[0].get<int>(), s[1].get<int>());
    const int side = j.value("side_to_move", 1) == 1 ? 0 : 1;
    auto pos = gomoku::Position::from_setup(v, black, white, side);
    if (!pos) {
      ++skipped;
      if (a.verbose) fmt::print("{}: skipped: {}\n", j.value("id", "?"), pos.error().message);
      continue;
    }
    ++total;
    TimeBudget budget(a.movetime, a.movetime);
    threats.clear();
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = threats.solve(*pos, kind, {.max_depth = a.depth, .budget = &budget});
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r.win) {
      ++solved;
      times.push_back(ms);
    }
    if (a.verbose)
      fmt::print("{}: {} {} in {:.2f} ms, {} nodes\n", j.value("id", "?"),
                 r.win       ? "solved"
                 : r.aborted ? "timeout"
                             : "no win",
                 r.win ? gomoku::to_text(r.move) : "", ms, r.nodes);
    progress.update(static_cast<std::uint64_t>(total));
  }
  progress.finish();
  std::sort(times.begin(), times.end());
  const double median = times.empty() ? 0 : times[times.size() / 2];
  const double max = times.empty() ? 0 : times.back();
  fmt::print("{} puzzles, {} solved ({} skipped as unplayable under the rule)\n", total, solved,
             skipped);
  fmt::print("solve time: median {:.3f} ms, max {:.3f} ms\n", median, max);
  return 0;
}

}  // namespace

Runner add_gomocup(CLI::App& root) {
  auto a = std::make_shared<EngineArgs>();
  auto* cmd = root.add_subcommand(
      "gomocup", "Gomoku engine speaking the Gomocup (piskvork) protocol on stdin/stdout");
  add_engine_options(cmd, *a);
  cmd->footer(
      "Commands: START, RECTSTART, RESTART, BEGIN, TURN, BOARD..DONE, INFO, TAKEBACK, ABOUT, "
      "END.\nRules by INFO rule: 1 exact five, 4 renju; 16 (or INFO capture 1) the capture "
      "variant.\nThe same program runs this command when started as 'pbrain-kibitz'.");
  return [a] { return run_gomocup(*a); };
}

Runner add_gomoku(CLI::App& root) {
  auto* cmd = root.add_subcommand("gomoku", "Gomoku: play against the engine, solve puzzles");
  cmd->require_subcommand(1);
  auto play = std::make_shared<PlayArgs>();
  auto* p = cmd->add_subcommand("play", "play against the engine in the terminal");
  add_engine_options(p, play->engine);
  p->add_option("--size", play->size, "board size 15..20")->capture_default_str();
  p->add_option("--rule", play->rule, "freestyle, exact5, renju, capture")->capture_default_str();
  p->add_option("--colour,--color", play->colour, "your colour: black (moves first) or white")
      ->capture_default_str();
  auto puzzles = std::make_shared<PuzzleArgs>();
  auto* z = cmd->add_subcommand("puzzles", "run VCF / VCT on a puzzle file (JSON lines)");
  z->add_option("file", puzzles->file, "puzzle file")->required();
  z->add_option("--rule", puzzles->rule, "native (the file's), freestyle, exact5, renju")
      ->capture_default_str();
  z->add_option("--kind", puzzles->kind, "vcf or vct")->capture_default_str();
  z->add_option("--depth", puzzles->depth, "attacker moves")->capture_default_str();
  z->add_option("--movetime", puzzles->movetime, "ms per puzzle")->capture_default_str();
  z->add_option("--limit", puzzles->limit, "first N puzzles only");
  z->add_flag("--verbose,-v", puzzles->verbose, "a line per puzzle");
  return [cmd, p, z, play, puzzles] {
    if (cmd->got_subcommand(p)) return run_play(*play);
    return run_puzzles(*puzzles);
  };
}

}  // namespace kibitz::cli
