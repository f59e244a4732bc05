#include "games/diplomacy/game.hpp"

#include <bit>
#include <nlohmann/json.hpp>

namespace kibitz::diplomacy {

std::array<std::uint8_t, kMaxPowers> centre_counts(const Map& map, const State& s) {
  std::array<std::uint8_t, kMaxPowers> n{};
  for (int p = 0; p < map.num_provinces(); ++p)
    if (map.is_supply_centre(static_cast<ProvinceId>(p)) && s.owner[p] != kNoPower) ++n[s.owner[p]];
  return n;
}

GameRecord make_record(const Map& map, std::vector<PhaseRecord> phases, const State& final_state,
                       std::optional<PowerId> winner) {
  GameRecord r;
  r.num_phases = static_cast<int>(phases.size());
  if (!phases.empty()) r.last_phase = phases.back().phase;
  r.phases = std::move(phases);
  r.winner = winner;
  const auto counts = centre_counts(map, final_state);
  for (int p = 0; p < map.num_powers(); ++p) {
    r.centres[p] = counts[p];
    if (power_alive(map, final_state, static_cast<PowerId>(p)))
      r.survivors.push_back(static_cast<PowerId>(p));
  }
  r.final_state = final_state;
  return r;
}

namespace {

// Powers with a unit or a centre, as a bit set: one pass (powers_alive() counts per power).
std::uint32_t alive_powers(const Map& map, const State& s) {
  std::uint32_t alive = 0;
  for (int p = 0; p < map.num_provinces(); ++p) {
    if (s.units[p].exists()) alive |= 1u << s.units[p].power;
    if (s.dislodged[p].exists()) alive |= 1u << s.dislodged[p].power;
    if (s.owner[p] != kNoPower) alive |= 1u << s.owner[p];
  }
  return alive;
}

}  // namespace

bool has_orders(const Map& map, const State& s, PowerId power) {
  switch (s.phase.type) {
    case PhaseType::kMovement:
      for (int p = 0; p < map.num_provinces(); ++p)
        if (s.units[p].power == power) return true;
      return false;
    case PhaseType::kRetreat:
      for (int p = 0; p < map.num_provinces(); ++p)
        if (s.dislodged[p].power == power) return true;
      return false;
    case PhaseType::kAdjustment:
      return count_centres(map, s, power) != count_units(map, s, power);
  }
  return false;
}

GameRecord GameRunner::play(std::span<Bot* const> bots, std::uint64_t seed,
                            const GameOptions& options, const State* start) {
  begin(seed, options, start);
  while (!over()) {
    const PowerId p = to_order();
    Bot* bot = p < bots.size() ? bots[p] : nullptr;
    given_.clear();
    if (bot) bot->orders(state_, p, rng_, given_);
    give(given_);
  }
  return finish();
}

void GameRunner::begin(std::uint64_t seed, const GameOptions& options, const State* start) {
  options_ = options;
  rec_ = GameRecord{};
  rng_ = Rng(seed);
  state_ = start ? *start : initial_state(map_);
  effective_.clear();
  next_ = 0;
  over_ = state_.phase.year > options_.max_year;
  settle();
}

void GameRunner::give(std::span<const Order> orders) {
  if (over_) return;
  const auto p = static_cast<PowerId>(next_);
  for (Order o : orders) {
    o.power = p;
    if (auto e = effective_order(map_, state_, p, o)) effective_.push_back(*e);
  }
  ++next_;
  settle();
}

void GameRunner::settle() {
  const int np = map_.num_powers();
  while (!over_) {
    while (next_ < np && !has_orders(map_, state_, static_cast<PowerId>(next_))) ++next_;
    if (next_ < np) return;
    resolve_phase();
    next_ = 0;
  }
}

void GameRunner::resolve_phase() {
  const State& next = resolver_.resolve(state_, effective_);
  ++rec_.num_phases;
  rec_.last_phase = state_.phase;
  if (options_.observer) options_.observer(state_, effective_, next);
  if (options_.record) rec_.phases.push_back({state_.phase, effective_, centre_counts(map_, next)});
  // Ownership changes only when a fall ends; that is when a solo can appear.
  const bool fall_ended =
      state_.phase.season == Season::kFall && next.phase.season != Season::kFall;
  state_ = next;
  effective_.clear();
  if (fall_ended) {
    if (auto w = solo_winner(map_, state_)) {
      rec_.winner = w;
      over_ = true;
      return;
    }
  }
  if (std::popcount(alive_powers(map_, state_)) <= 1 || state_.phase.year > options_.max_year)
    over_ = true;
}

GameRecord GameRunner::finish() {
  const int np = map_.num_powers();
  const auto counts = centre_counts(map_, state_);
  rec_.survivors.clear();
  rec_.survivors.reserve(static_cast<std::size_t>(np));
  const std::uint32_t alive = alive_powers(map_, state_);
  for (int p = 0; p < np; ++p) {
    rec_.centres[p] = counts[p];
    if (alive >> p & 1) rec_.survivors.push_back(static_cast<PowerId>(p));
  }
  if (!rec_.winner && rec_.survivors.size() == 1) rec_.winner = rec_.survivors[0];
  rec_.final_state = state_;
  return std::move(rec_);
}

std::string game_json(const Map& map, const GameRecord& record, int indent) {
  // Ordered: the keys print in the order written (phase first, powers in map order).
  using json = nlohmann::ordered_json;
  const auto centres_json = [&](const auto& counts) {
    json c = json::object();
    for (int p = 0; p < map.num_powers(); ++p)
      c[std::string(map.power_name(static_cast<PowerId>(p)))] = static_cast<int>(counts[p]);
    return c;
  };
  json phases = json::array();
  for (const PhaseRecord& ph : record.phases) {
    json orders = json::object();
    for (const Order& o : ph.orders) {
      Order bare = o;
      bare.power = kNoPower;
      orders[std::string(map.power_name(o.power))].push_back(format_order(map, bare));
    }
    phases.push_back({{"phase", phase_code(ph.phase)},
                      {"orders", std::move(orders)},
                      {"centres", centres_json(ph.centres)}});
  }
  json survivors = json::array();
  for (const PowerId p : record.survivors) survivors.push_back(std::string(map.power_name(p)));
  json j = json::object();
  if (!record.phases.empty()) j["phases"] = std::move(phases);
  j["num_phases"] = record.num_phases;
  if (record.num_phases > 0) j["last_phase"] = phase_code(record.last_phase);
  j["result"] = {
      {"winner", record.winner ? json(std::string(map.power_name(*record.winner))) : json(nullptr)},
      {"survivors", std::move(survivors)}};
  j["centres"] = centres_json(record.centres);
  return j.dump(indent);
}

}  // namespace kibitz::diplomacy
