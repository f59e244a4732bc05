// kibitz demo: a tour of the games in the registry, a few seconds each (each entry's demo
// hook): chess perft and a search, a gomoku VCF, a Go position searched by MCTS, a Hearts
// hand, a Diplomacy phase adjudicated.
#include <fmt/format.h>

#include <array>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "core/rng.hpp"
#include "engine/chess_engine.hpp"
#include "engine/go_engine.hpp"
#include "engine/gomoku_engine.hpp"
#include "engine/hearts_match.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/perft.hpp"
#include "games/diplomacy/adjudicator.hpp"
#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/go/board.hpp"
#include "games/gomoku/position.hpp"
#include "games/hearts/cards.hpp"

namespace kibitz::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

void demo_chess(const DemoRequest& o) {
  fmt::print("Chess: perft from the starting position (legal move generation):\n");
  chess::Position start;
  for (int d = 1; d <= o.perft_depth; ++d) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t n = chess::perft(start, d);
    const double s = seconds_since(t0);
    fmt::print("  depth {}: {:>10} nodes  {:8.3f} s  {:>6.1f} Mnodes/s\n", d, n, s,
               s > 0 ? static_cast<double>(n) / s / 1e6 : 0.0);
  }
  // A mate in three for Black (the Blackburne Shilling gambit's trap, 1...Bc5).
  const char* fen = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1";
  fmt::print("\nChess: the alpha-beta, depth 10, on {}:\n", fen);
  const chess::Position root = *chess::Position::from_fen(fen);
  engine::ChessEngine engine(16);
  engine::GoParams params;
  params.limits.depth = 10;
  const auto r = engine.search(root, params);
  std::string pv;
  chess::Position p = root;
  for (const auto m : r.pv) {
    pv += (pv.empty() ? "" : " ") + chess::to_san(p, m);
    p.apply(m);
  }
  fmt::print("  best {}  {}  {} nodes  {} ms\n  pv {}\n", chess::to_san(root, r.best),
             search::is_mate(r.score) ? fmt::format("mate in {}", search::mate_moves(r.score))
                                      : fmt::format("{} cp", r.score),
             r.nodes, r.time_ms, pv);
}

void demo_gomoku(const DemoRequest&) {
  // Black to move: i8 makes two fours at once (the row f8-i8 and the broken diagonal
  // i8-m4), which white cannot both block.
  gomoku::Position start;
  const auto at = [&](const char* t) {
    const auto m = *gomoku::parse_move(start, t);
    return std::pair<int, int>{gomoku::x_of(m.sq), gomoku::y_of(m.sq)};
  };
  const std::vector<std::pair<int, int>> black = {at("f8"),  at("g8"), at("h8"), at("i10"),
                                                  at("i11"), at("k6"), at("l5"), at("m4")};
  const std::vector<std::pair<int, int>> white = {at("e8"), at("i12"), at("n3"),  at("h7"),
                                                  at("g6"), at("f6"),  at("j11"), at("d3")};
  auto pos = gomoku::Position::from_setup({}, black, white, 0);
  fmt::print("\nGomoku (freestyle 15x15): black to move finds a win by fours (VCF):\n{}",
             pos->to_string());
  engine::GomokuEngine engine(16);
  const auto d = engine.think(*pos, engine::GomokuLimits{.movetime_ms = 1000});
  std::string pv;
  for (const auto m : d.pv) pv += (pv.empty() ? "" : " ") + gomoku::to_text(m);
  fmt::print("  move {} ({})  {} ms\n  line {}\n", gomoku::to_text(d.move), d.stage, d.time_ms, pv);
}

void demo_go(const DemoRequest& o) {
  go::Position pos(go::Rules{.size = 9});
  std::string moves;
  for (const char* v : {"E5", "C4", "G4", "D6", "F7", "C6", "E3", "D3"}) {
    pos.apply(*go::parse_vertex(v, 9));
    moves += std::string(moves.empty() ? "" : " ") + v;
  }
  fmt::print("\nGo (9x9, komi 7.5) after {}: MCTS with learned priors, 5,000 playouts:\n", moves);
  engine::GoEngineOptions opts;
  opts.seed = o.seed;
  engine::GoEngine engine(opts);
  engine.new_game(pos.rules());
  const auto d = engine.genmove(pos, engine::GoLimits{.visits = 5000});
  fmt::print("  black plays {}  win rate {:.0f}%  ({} playouts)\n", go::to_vertex(d.move, 9),
             100.0 * d.result.value, d.result.playouts);
  std::string top;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, d.result.moves.size()); ++i) {
    const auto& m = d.result.moves[i];
    top +=
        fmt::format("  {} {} visits {:.0f}%", go::to_vertex(m.move, 9), m.visits, 100.0 * m.value);
  }
  fmt::print("  most visited:{}\n", top);
}

void demo_hearts(const DemoRequest& o) {
  fmt::print("\nHearts: one hand, the search bot North (100 ms a card) against the rule bot:\n");
  Rng rng(o.seed);
  hearts::DealRecord deal{"demo", hearts::PassDir::kLeft, hearts::random_deal(rng)};
  hearts::SearchCfg cfg;
  cfg.time_budget_ms = 100;
  cfg.worlds = 64;
  cfg.pass_worlds = 32;
  std::array<std::unique_ptr<hearts::Bot>, hearts::kNumPlayers> bots;
  std::array<hearts::Bot*, hearts::kNumPlayers> seats{};
  for (int h = 0; h < hearts::kNumPlayers; ++h) {
    bots[h] = std::move(*hearts::make_bot(h == 0 ? "search" : "rule", cfg, o.seed + h));
    seats[h] = bots[h].get();
  }
  constexpr std::array<const char*, 4> kSeat = {"North", "East", "South", "West"};
  for (int h = 0; h < hearts::kNumPlayers; ++h)
    fmt::print("  {:<5} {}\n", kSeat[h], hearts::to_pretty(deal.hands[h]));
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = hearts::play_hand(seats, deal, hearts::Options{});
  fmt::print("  points N {} E {} S {} W {}{}  ({:.1f} s)\n", r.points[0], r.points[1], r.points[2],
             r.points[3], r.moon >= 0 ? fmt::format(" ({} shot the moon)", kSeat[r.moon]) : "",
             seconds_since(t0));
}

void demo_diplomacy(const DemoRequest& o) {
  namespace dip = diplomacy;
  const dip::Map& map = dip::standard_map();
  const dip::State s = dip::initial_state(map);
  fmt::print(
      "\nDiplomacy: Spring 1901, every power's orders from the heuristic bot, "
      "adjudicated:\n");
  auto bot = dip::make_bot("heuristic", map);
  Rng rng(o.seed);
  std::vector<dip::Order> orders;
  for (int p = 0; p < map.num_powers(); ++p)
    bot->orders(s, static_cast<dip::PowerId>(p), rng, orders);
  dip::MovementResult result;
  dip::resolve_movement(map, s, orders, result);
  for (int i = 0; i < result.num_orders; ++i) {
    const std::string text =
        dip::format_order(map, result.orders[i]) + (result.succeeded[i] ? "" : " (fails)");
    const bool last_in_row = i % 3 == 2 || i + 1 == result.num_orders;
    fmt::print("{}{}", i % 3 == 0 ? "  " : "",
               last_in_row ? text + "\n" : fmt::format("{:<22}", text));
  }
  fmt::print(
      "  {} orders, {} succeeded, {} units dislodged\n", result.num_orders,
      [&] {
        int n = 0;
        for (int i = 0; i < result.num_orders; ++i) n += result.succeeded[i];
        return n;
      }(),
      result.dislodged.count());
}

Runner add_demo(CLI::App& root, const Registry& registry) {
  auto o = std::make_shared<DemoRequest>();
  auto* cmd = root.add_subcommand(
      "demo", fmt::format("A short tour of the games: {}",
                          registry.names([](const GameEntry& g) { return bool(g.demo); })));
  cmd->add_option("--seed", o->seed, "seed of the Go search, the Hearts deal and the orders")
      ->capture_default_str();
  cmd->add_option("--perft-depth", o->perft_depth, "deepest perft shown")
      ->capture_default_str()
      ->check(CLI::Range(1, 7));
  cmd->footer("Example:\n  kibitz demo --seed 7");
  return [o, &registry] {
    fmt::print("Kibitz {} demo\n\n", KIBITZ_VERSION);
    for (const auto& g : registry.games())
      if (g.demo) g.demo(*o);
    return 0;
  };
}

}  // namespace kibitz::cli
