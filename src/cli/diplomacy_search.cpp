// kibitz diplomacy search: the RM+ search for one power on a state
// (src/engine/diplomacy_search.hpp), printing the chosen orders, the score, the work done and the
// strategy over the candidates.
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/diplomacy.hpp"
#include "engine/diplomacy_search.hpp"

namespace kibitz::cli {

namespace {
namespace diplomacy_search {

namespace dip = kibitz::diplomacy;

struct SearchArgs {
  std::string state;
  std::string power;
  int movetime = 5000;
  double strength = 1.0;
  int iterations = 0;
  std::uint64_t seed = 0;
};

constexpr const char* kSearchExamples = R"(
The search (seed 000): candidate order sets for every power (15% of --movetime), RM+
iterations over them with our regrets learning (60%; at least 48 iterations, scaled by
--strength); the last 25% of --movetime is the seed's reserve, not searched. Then our candidate with the most accumulated weight. Each sample is resolved and
looked ahead two movement phases with every power on the heuristic bot. The state must be in a
movement phase; docs/diplomacy.md describes the JSON.

Examples:
  kibitz diplomacy search --power France --movetime 2000     (the opening)
  kibitz diplomacy search state.json --power ENG --iterations 200 --seed 3
)";

int run(const SearchArgs& a) {
  const dip::Map& map = dip::standard_map();
  Result<dip::State> s = dip::initial_state(map);
  if (!a.state.empty()) {
    std::ifstream in(a.state);
    if (!in) return report_error(fmt::format("{}: cannot read the file", a.state));
    std::stringstream text;
    text << in.rdbuf();
    s = dip::read_state_json(map, text.str());
    if (!s) return report_error(fmt::format("{}: {}", a.state, s.error().message));
  }
  const auto power = map.find_power(a.power);
  if (!power) return report_error(fmt::format("--power: unknown power '{}'", a.power), 2);
  if (s->phase.type != dip::PhaseType::kMovement)
    return report_error(fmt::format("{}: the search plays movement phases, not the {}", a.state,
                                    dip::phase_name(s->phase)));
  if (auto e = rm_options_error(a.movetime, a.strength)) return report_error(*e, 2);
  if (dip::count_units(map, *s, *power) == 0) {
    fmt::print("{} has no units: no orders\n", map.power_name(*power));
    return 0;
  }

  dip::RmConfig cfg;
  cfg.movetime_ms = a.movetime;
  cfg.strength = a.strength;
  cfg.max_iterations = a.iterations;
  if (a.seed != 0) cfg.seed = a.seed;
  dip::RmSearch search(map);
  const dip::RmResult r = search.search(*power, *s, cfg);
  fmt::print("{} {} orders:\n", dip::phase_code(s->phase), map.power_name(*power));
  for (const auto& o : r.orders) fmt::print("  {}\n", dip::format_order(map, o));
  fmt::print("score {:.3f}  nodes {}  iterations {}  time {} ms of {} (75% search share){}\n",
             r.score, r.nodes, r.iterations, r.elapsed_ms, a.movetime,
             r.budget_exceeded ? "  (over budget)" : "");
  fmt::print("candidates: {} ours, {} for the other powers; strategy entropy {:.3f} -> {:.3f}\n",
             r.candidates.size(), r.opponents_candidates, r.entropy_first, r.entropy_last);
  fmt::print("strategy over our candidates (average weight, final regret):\n");
  for (std::size_t k = 0; k < r.candidates.size(); ++k) {
    std::string orders;
    for (const auto& o : r.candidates[k])
      orders += fmt::format("{}{}", orders.empty() ? "" : ", ", dip::format_order(map, o));
    fmt::print("  {:2} {:.3f} {:7.3f}  {}\n", k, r.strategy[k], r.regrets[k], orders);
  }
  return 0;
}

}  // namespace diplomacy_search
}  // namespace

SubRunners add_diplomacy_search(CLI::App& diplomacy) {
  auto args = std::make_shared<diplomacy_search::SearchArgs>();
  auto* c = diplomacy.add_subcommand("search", "the RM+ search's orders for one power");
  c->footer(diplomacy_search::kSearchExamples);
  c->add_option("STATE.json", args->state,
                "the position (a movement phase); without it, the standard opening");
  c->add_option("--power", args->power, "the power to search for (name or abbreviation)")
      ->required();
  c->add_option("--movetime", args->movetime,
                "milliseconds for the move: the search takes 75% of it (15% candidates, 60% "
                "RM+), the seed's 25% is kept in reserve")
      ->capture_default_str();
  c->add_option("--strength", args->strength, "scales candidates and the minimum iterations")
      ->capture_default_str();
  c->add_option("--iterations", args->iterations,
                "exactly this many RM+ iterations (0: as --movetime allows); with --seed the "
                "result is reproducible");
  c->add_option("--seed", args->seed, "seed of the candidates and the sampling");
  return {{c, [args] { return diplomacy_search::run(*args); }}};
}

}  // namespace kibitz::cli
