#include "engine/diplomacy_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

#include "core/text.hpp"
#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/game.hpp"
#include "games/diplomacy/map.hpp"

namespace kibitz::engine {

namespace dip = diplomacy;

namespace {

// The registry's engine thinks this long per decision (as kibitz match's rm bot does).
constexpr int kDefaultMovetimeMs = 300;
// Strength scales counts; below this it would ask for none.
constexpr double kMinStrength = 0.001;

}  // namespace

std::string orders_text(std::span<const dip::Order> orders) {
  const dip::Map& map = dip::standard_map();
  std::string out;
  for (dip::Order o : orders) {
    o.power = dip::kNoPower;
    out += (out.empty() ? "" : ", ") + dip::format_order(map, o);
  }
  return out;
}

Result<std::vector<dip::Order>> parse_orders_text(std::string_view text, dip::PhaseType phase) {
  std::vector<dip::Order> out;
  if (trim(text).empty()) return out;
  const dip::Map& map = dip::standard_map();
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto word =
        trim(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
    auto o = dip::parse_order(map, word, phase);
    if (!o) return with_context(o.error(), fmt::format("order '{}'", excerpt(word)));
    out.push_back(*o);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

DiplomacyAdapter::DiplomacyAdapter(DiplomacySetup setup)
    : setup_(std::move(setup)), rng_(setup_.seed) {}

Result<DiplomacyPosition> DiplomacyAdapter::parse(std::string_view text) {
  const dip::Map& map = dip::standard_map();
  text = trim(text);
  const auto space = text.find_first_of(" \t\n");
  const std::string_view name = text.substr(0, space);
  Position p;
  if (name.empty()) {
    p.power = 0;  // "": the first power in the standard opening
  } else {
    const auto power = map.find_power(name);
    if (!power) return fail("diplomacy position: unknown power '{}'", excerpt(name));
    p.power = *power;
  }
  const std::string_view json = space == std::string_view::npos ? "" : trim(text.substr(space));
  if (json.empty()) {
    p.state = dip::initial_state(map);
  } else {
    auto s = dip::read_state_json(map, json);
    if (!s) return with_context(s.error(), "diplomacy position");
    p.state = std::move(*s);
  }
  return p;
}

bool DiplomacyAdapter::finished(const Position& p) {
  return !dip::has_orders(dip::standard_map(), p.state, p.power);
}

std::vector<EngineOption> DiplomacyAdapter::options() const {
  return {{"iterations", EngineOption::Type::kInt, setup_.rm.max_iterations, 0, 1'000'000,
           "RM+ iterations a movement phase (0: as the time allows)"},
          EngineOption::real_option("strength", setup_.rm.strength, kMinStrength, 16,
                                    "scales the RM+ candidates and the least iterations"),
          {"seed", EngineOption::Type::kInt, static_cast<std::int64_t>(setup_.seed), 0,
           std::numeric_limits<std::int64_t>::max(), "the bot's random stream"}};
}

Result<void> DiplomacyAdapter::set_real(std::string_view name, double v) {
  if (name == "strength") setup_.rm.strength = v;
  bot_.reset();
  return {};
}

Result<void> DiplomacyAdapter::set(std::string_view name, std::int64_t v) {
  if (name == "iterations") setup_.rm.max_iterations = static_cast<int>(v);
  if (name == "seed") {
    setup_.seed = static_cast<std::uint64_t>(v);
    rng_.reseed(setup_.seed);
  }
  bot_.reset();
  return {};
}

void DiplomacyAdapter::new_game() {
  rng_.reseed(setup_.seed);
  bot_.reset();
}

EngineReport DiplomacyAdapter::search(const Position& p, const EngineLimits& l,
                                      const AnyEngine::ReportFn&) {
  const dip::Map& map = dip::standard_map();
  dip::RmConfig cfg = setup_.rm;
  if (l.movetime_ms > 0) {
    cfg.movetime_ms = static_cast<int>(std::min<std::int64_t>(l.movetime_ms, 3'600'000));
  } else if (l.clock_ms >= 0 || l.move_cap_ms >= 0) {
    // The clock over the movement phases a game of about twenty years still holds.
    cfg.movetime_ms = static_cast<int>(std::min<std::int64_t>(
        plan_move_time(mover_clock(l), even_share_policy(20)).soft_ms, 3'600'000));
  }
  if (l.nodes > 0)
    cfg.max_iterations = static_cast<int>(std::min<std::uint64_t>(l.nodes, 1'000'000));
  if (!bot_ || cfg.movetime_ms != bot_cfg_.movetime_ms ||
      cfg.max_iterations != bot_cfg_.max_iterations) {
    if (setup_.bot == "rm")
      bot_ = std::make_unique<dip::RmBot>(map, cfg);
    else
      bot_ = dip::make_bot(setup_.bot, map);  // checked when the engine was made
    bot_cfg_ = cfg;
  }
  const auto t0 = std::chrono::steady_clock::now();
  orders_.clear();
  bot_->orders(p.state, p.power, rng_, orders_);
  EngineReport e;
  e.move = orders_text(orders_);
  e.pv = {e.move};
  e.how = std::string(bot_->name());
  if (setup_.bot == "rm" && p.state.phase.type == dip::PhaseType::kMovement) {
    const auto& r = static_cast<const dip::RmBot&>(*bot_).last();
    e.score = r.score;
    e.nodes = r.nodes;
    e.over_budget = r.budget_exceeded;
    // The candidates with the search's average strategy over them, most likely first.
    for (std::size_t i = 0; i < r.candidates.size(); ++i) {
      EngineReport::Line line;
      line.move = orders_text(r.candidates[i]);
      line.prior = i < r.strategy.size() ? r.strategy[i] : 0;
      e.lines.push_back(std::move(line));
    }
    std::stable_sort(e.lines.begin(), e.lines.end(),
                     [](const auto& a, const auto& b) { return a.prior > b.prior; });
  } else if (setup_.bot == "rm") {
    e.how = "heuristic";  // rm leaves retreats and adjustments to the heuristic bot
  }
  e.time_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  return e;
}

Result<std::unique_ptr<DiplomacyAnyEngine>> make_diplomacy_engine(const DiplomacySetup& setup) {
  const auto names = dip::bot_names();  // the name only: the bot is made at the first decision
  if (setup.bot != "rm" && std::find(names.begin(), names.end(), setup.bot) == names.end())
    return fail("no diplomacy bot '{}' (bots: random, heuristic, rm)", setup.bot);
  return std::make_unique<DiplomacyAnyEngine>(setup);
}

std::unique_ptr<AnyEngine> make_diplomacy_any_engine() {
  DiplomacySetup setup;
  setup.rm.movetime_ms = kDefaultMovetimeMs;
  return std::move(*make_diplomacy_engine(setup));
}

}  // namespace kibitz::engine
