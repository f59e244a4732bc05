#pragma once
// A full Diplomacy game between bots: every phase, each power with something to order (units
// in a movement phase, dislodged units in a retreat phase, builds or disbands in winter) gives
// its orders; they pass through effective_order() and PhaseResolver resolves the phase.
//
// The game ends
//   - with a solo: after a fall's ownership update a power owns more than half the centres;
//   - when only one power is left (it is the winner too);
//   - after the last phase of `max_year` (default 1930): a draw shared by the powers still
//     alive (with a centre or a unit).
// Deterministic given the seed: one Rng, the bots asked in power order.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/phases.hpp"

namespace kibitz::diplomacy {

inline constexpr int kDefaultMaxYear = 1930;

struct PhaseRecord {
  Phase phase;
  // The effective orders, each with its power set (format_order() then prefixes it).
  std::vector<Order> orders;
  // Centres owned by each power after the phase.
  std::array<std::uint8_t, kMaxPowers> centres{};
  bool operator==(const PhaseRecord&) const = default;
};

struct GameRecord {
  std::vector<PhaseRecord> phases;  // empty when GameOptions::record is false
  int num_phases = 0;
  Phase last_phase;                       // the last phase played (when num_phases > 0)
  std::optional<PowerId> winner;          // a solo (or the last power standing)
  std::vector<PowerId> survivors;         // every power alive at the end (the draw when no winner)
  std::array<int, kMaxPowers> centres{};  // at the end
  State final_state;
  bool operator==(const GameRecord&) const = default;
};

struct GameOptions {
  int max_year = kDefaultMaxYear;
  bool record = true;  // keep every phase in GameRecord::phases
  // Called after every phase with the state before, the effective orders and the state after
  // (tests check invariants through it).
  std::function<void(const State& before, std::span<const Order> orders, const State& after)>
      observer;
};

// Plays games; keeps its resolver and buffers, so games after the first allocate only for
// the record. Not thread-safe: one per thread. A whole game at once (play), or one power's
// orders at a time (begin, then give() for to_order() until over(), then finish()): the match
// referee asks its players that way.
class GameRunner {
 public:
  explicit GameRunner(const Map& map) : map_(map), resolver_(map) {}

  // bots[i] plays power i (map order); the same Bot may play several powers; a power without
  // a bot (null, or beyond the span) gives no orders, as in civil disorder. `start`: the
  // initial state when null.
  GameRecord play(std::span<Bot* const> bots, std::uint64_t seed, const GameOptions& options = {},
                  const State* start = nullptr);

  // Starts a game (as play does); the options are copied.
  void begin(std::uint64_t seed, const GameOptions& options = {}, const State* start = nullptr);
  bool over() const { return over_; }
  // The power whose orders come next (one with something to order in state()); kNoPower once
  // the game is over.
  PowerId to_order() const { return over_ ? kNoPower : static_cast<PowerId>(next_); }
  const State& state() const { return state_; }
  Rng& rng() { return rng_; }  // the game's one random stream, for the bots
  // to_order()'s orders (each passes through effective_order); after the phase's last power,
  // the phase is resolved. Empty: civil disorder.
  void give(std::span<const Order> orders);
  // The record of the game (so far, where it is not over); call once.
  GameRecord finish();

 private:
  // Moves to the next power with orders, resolving phases in which nobody has any left.
  void settle();
  void resolve_phase();

  const Map& map_;
  PhaseResolver resolver_;
  std::vector<Order> given_, effective_;
  GameOptions options_;
  GameRecord rec_;
  State state_;
  Rng rng_;
  int next_ = 0;
  bool over_ = true;
};

// Whether `power` has orders to give in `s` (units, dislodged units, or an adjustment).
bool has_orders(const Map& map, const State& s, PowerId power);

// The supply centres each power owns in `s`.
std::array<std::uint8_t, kMaxPowers> centre_counts(const Map& map, const State& s);

// The record of a game played outside GameRunner (a page's, a DAIDE host's): its phases, the
// final state, and the winner declared (a solo); survivors and centres from the final state.
GameRecord make_record(const Map& map, std::vector<PhaseRecord> phases, const State& final_state,
                       std::optional<PowerId> winner);

// The record as JSON: {"phases": [{"phase": "S1901M", "orders": {"England": ["F LON - NTH",
// ...]}, "centres": {"England": 3, ...}}, ...], "num_phases": 68, "last_phase": "W1930A",
// "result": {"winner": "France" | null, "survivors": [...]}, "centres": {...}}. The phases
// only when recorded.
std::string game_json(const Map& map, const GameRecord& record, int indent = -1);

}  // namespace kibitz::diplomacy
