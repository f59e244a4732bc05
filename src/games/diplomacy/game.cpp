#include "games/diplomacy/game.hpp"

#include <bit>
#include <nlohmann/json.hpp>

namespace kibitz::diplomacy {

namespace {

std::array<std::uint8_t, kMaxPowers> centre_counts(const Map& map, const State& s) {
  std::array<std::uint8_t, kMaxPowers> n{};
  for (int p = 0; p < map.num_provinces(); ++p)
    if (map.is_supply_centre(static_cast<ProvinceId>(p)) && s.owner[p] != kNoPower) ++n[s.owner[p]];
  return n;
}

}  // namespace

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
  GameRecord rec;
  Rng rng(seed);
  State s = start ? *start : initial_state(map_);
  const int np = map_.num_powers();
  while (s.phase.year <= options.max_year) {
    effective_.clear();
    for (int p0 = 0; p0 < np; ++p0) {
      const auto p = static_cast<PowerId>(p0);
      Bot* bot = p < bots.size() ? bots[p] : nullptr;
      if (!bot || !has_orders(map_, s, p)) continue;
      given_.clear();
      bot->orders(s, p, rng, given_);
      for (Order o : given_) {
        o.power = p;
        if (auto e = effective_order(map_, s, p, o)) effective_.push_back(*e);
      }
    }
    const State& next = resolver_.resolve(s, effective_);
    ++rec.num_phases;
    rec.last_phase = s.phase;
    if (options.observer) options.observer(s, effective_, next);
    if (options.record) rec.phases.push_back({s.phase, effective_, centre_counts(map_, next)});
    // Ownership changes only when a fall ends; that is when a solo can appear.
    const bool fall_ended = s.phase.season == Season::kFall && next.phase.season != Season::kFall;
    s = next;
    if (fall_ended) {
      if (auto w = solo_winner(map_, s)) {
        rec.winner = w;
        break;
      }
    }
    if (std::popcount(alive_powers(map_, s)) <= 1) break;
  }
  const auto counts = centre_counts(map_, s);
  rec.survivors.reserve(static_cast<std::size_t>(np));
  const std::uint32_t alive = alive_powers(map_, s);
  for (int p = 0; p < np; ++p) {
    rec.centres[p] = counts[p];
    if (alive >> p & 1) rec.survivors.push_back(static_cast<PowerId>(p));
  }
  if (!rec.winner && rec.survivors.size() == 1) rec.winner = rec.survivors[0];
  rec.final_state = s;
  return rec;
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
