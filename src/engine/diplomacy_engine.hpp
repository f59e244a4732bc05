#pragma once
// Diplomacy behind the one engine contract (engine/any_engine.hpp): a position is one power
// to order in a phase, and the answer is that power's orders for the phase. Position text:
// the power (name or abbreviation), then the state as JSON (diplomacy::read_state_json; none:
// the standard opening), e.g. "France" or "ENG {\"phase\": \"F1901M\", ...}". Move text: the
// orders in standard notation joined by ", " ("F BRE - MAO, A MAR - SPA, A PAR - GAS"; "" for
// a power with nothing to order in a retreat or adjustment phase that it may skip).
// The bots: rm (the RM+ search in movement phases, the heuristic otherwise), heuristic and
// random; each draws from its own seeded stream.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/rng.hpp"
#include "engine/any_engine.hpp"
#include "engine/diplomacy_search.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::engine {

struct DiplomacyPosition {
  diplomacy::State state;
  diplomacy::PowerId power = 0;
};

struct DiplomacySetup {
  std::string bot = "rm";  // rm, heuristic or random
  diplomacy::RmConfig rm;  // rm's settings (the limits' movetime and nodes change them)
  std::uint64_t seed = 1;  // the bot's random stream
};

// "A PAR - BUR, F BRE - MAO" and back (each order as parse_order reads it in `phase`).
std::string orders_text(std::span<const diplomacy::Order> orders);
Result<std::vector<diplomacy::Order>> parse_orders_text(std::string_view text,
                                                        diplomacy::PhaseType phase);

class DiplomacyAdapter {
 public:
  using Position = DiplomacyPosition;
  static constexpr std::string_view kGame = "diplomacy";
  explicit DiplomacyAdapter(DiplomacySetup setup);

  static Result<Position> parse(std::string_view text);
  static bool finished(const Position& p);  // the power has nothing to order
  // iterations (RM+ iterations; 0: as the time allows), strength (scales the candidates and
  // the least iterations) and seed.
  std::vector<EngineOption> options() const;
  Result<void> set(std::string_view name, std::int64_t v);
  Result<void> set_real(std::string_view name, double v);
  void new_game();  // the random stream from its seed again
  // A decision ends within its budget; it cannot be cut short.
  void stop() {}
  void arm() {}
  EngineReport search(const Position& p, const EngineLimits& l, const AnyEngine::ReportFn& info);

 private:
  DiplomacySetup setup_;
  std::unique_ptr<diplomacy::Bot> bot_;
  diplomacy::RmConfig bot_cfg_;
  Rng rng_;
  std::vector<diplomacy::Order> orders_;
};

using DiplomacyAnyEngine = EngineRunner<DiplomacyAdapter>;
// An error names an unknown bot.
Result<std::unique_ptr<DiplomacyAnyEngine>> make_diplomacy_engine(const DiplomacySetup& setup);
// The registry's engine: rm at 300 ms a decision.
std::unique_ptr<AnyEngine> make_diplomacy_any_engine();

}  // namespace kibitz::engine
