#include "serve/diplomacy_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "core/text.hpp"

namespace kibitz::serve {

namespace dip = kibitz::diplomacy;
using nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

std::string order_text(const dip::Map& map, dip::Order o) {
  o.power = dip::kNoPower;  // no "England: " prefix: the page groups orders by power
  return dip::format_order(map, o);
}

std::string unit_text(const dip::Map& map, const dip::Unit& u) {
  return fmt::format("{} {}", u.type == dip::UnitType::kArmy ? 'A' : 'F',
                     to_upper(map.location_name(u.location)));
}

std::string power_name(const dip::Map& map, dip::PowerId p) {
  return std::string(map.power_name(p));
}

ojson centres_json(const dip::Map& map, const dip::State& s) {
  const auto n = dip::centre_counts(map, s);
  ojson c = ojson::object();
  for (int p = 0; p < map.num_powers(); ++p)
    c[power_name(map, static_cast<dip::PowerId>(p))] = static_cast<int>(n[p]);
  return c;
}

ojson provinces_json(const dip::Map& map, const dip::ProvinceSet& set) {
  ojson out = ojson::array();
  dip::for_each_province(set, [&](dip::ProvinceId p) { out.push_back(std::string(map.abbr(p))); });
  return out;
}

// The power an order of a resolved phase belongs to: as given, or (the adjudicator's holds for
// units without orders) the unit's.
dip::PowerId order_power(const dip::Map& map, const dip::State& before, const dip::Order& o) {
  if (o.power != dip::kNoPower) return o.power;
  if (o.location == dip::kNoLocation) return dip::kNoPower;
  const dip::ProvinceId p = map.province_of(o.location);
  return before.phase.type == dip::PhaseType::kRetreat ? before.dislodged[p].power
                                                       : before.units[p].power;
}

}  // namespace

DiplomacyTable::DiplomacyTable(std::string id, const DiplomacyRequest& request, dip::PowerId power,
                               DiplomacyStore& store)
    : id_(std::move(id)),
      request_(request),
      power_(power),
      store_(store),
      map_(dip::standard_map()),
      state_(dip::initial_state(map_)),
      resolver_(map_),
      rng_(request.seed) {}

bool DiplomacyTable::busy() const {
  std::lock_guard lock(mu_);
  return !busy_.empty();
}

bool DiplomacyTable::person_orders_locked() const {
  return !over_ && dip::has_orders(map_, state_, power_);
}

std::string DiplomacyTable::view(std::uint64_t after, std::chrono::milliseconds wait) {
  std::unique_lock lock(mu_);
  if (after > 0) cv_.wait_for(lock, wait, [&] { return version_ > after; });
  return view_locked();
}

std::string DiplomacyTable::view_locked() const {
  const dip::State& s = state_;
  ojson units = ojson::array(), dislodged = ojson::array();
  ojson owners = ojson::object();
  for (int p = 0; p < map_.num_provinces(); ++p) {
    const dip::Unit& u = s.units[p];
    if (u.exists())
      units.push_back({{"power", power_name(map_, u.power)},
                       {"type", u.type == dip::UnitType::kArmy ? "A" : "F"},
                       {"loc", map_.location_name(u.location)}});
    const dip::Unit& d = s.dislodged[p];
    if (d.exists())
      dislodged.push_back({{"power", power_name(map_, d.power)},
                           {"type", d.type == dip::UnitType::kArmy ? "A" : "F"},
                           {"loc", map_.location_name(d.location)},
                           {"from", s.attacker_from[p] == dip::kNoProvince
                                        ? ojson(nullptr)
                                        : ojson(std::string(map_.abbr(s.attacker_from[p])))}});
    if (s.owner[p] != dip::kNoPower)
      owners[std::string(map_.abbr(static_cast<dip::ProvinceId>(p)))] =
          power_name(map_, s.owner[p]);
  }
  // The person's choices: every legal order of each unit (by province), or the adjustments.
  ojson choices = ojson::object();
  ojson adjust = nullptr;
  const bool to_order = person_orders_locked() && busy_.empty();
  if (to_order) {
    dip::OrderGenerator gen(map_);
    gen.set_state(s);
    std::vector<dip::Order> list;
    if (s.phase.type == dip::PhaseType::kAdjustment) {
      gen.adjustment_orders(power_, list);
      ojson orders = ojson::array();
      for (const auto& o : list) orders.push_back(order_text(map_, o));
      const int count = dip::adjustment_count(map_, s, power_);
      // Builds are limited by the free home centres the power owns.
      int builds = 0;
      dip::for_each_province(map_.homes(power_), [&](dip::ProvinceId p) {
        if (s.owner[p] == power_ && !s.units[p].exists()) ++builds;
      });
      adjust = {{"count", count},
                {"orders_needed", count > 0 ? std::min(count, builds) : -count},
                {"orders", std::move(orders)}};
    } else {
      for (int p = 0; p < map_.num_provinces(); ++p) {
        const dip::Unit& u = s.phase.type == dip::PhaseType::kRetreat ? s.dislodged[p] : s.units[p];
        if (u.power != power_) continue;
        list.clear();
        gen.unit_orders(static_cast<dip::ProvinceId>(p), list);
        ojson orders = ojson::array();
        for (const auto& o : list) orders.push_back(order_text(map_, o));
        choices[std::string(map_.abbr(static_cast<dip::ProvinceId>(p)))] = std::move(orders);
      }
    }
  }
  ojson last = ojson::array();
  for (std::size_t i = seen_; i < outcomes_.size(); ++i) last.push_back(ojson::parse(outcomes_[i]));
  ojson v = {{"id", id_},
             {"power", power_name(map_, power_)},
             {"bots", request_.bots},
             {"movetime_ms", request_.movetime_ms},
             {"seed", request_.seed},
             {"max_year", request_.max_year},
             {"phase", dip::phase_code(s.phase)},
             {"phase_name", dip::phase_name(s.phase)},
             {"units", std::move(units)},
             {"dislodged", std::move(dislodged)},
             {"owners", std::move(owners)},
             {"centres", centres_json(map_, s)},
             {"to_order", to_order},
             {"choices", std::move(choices)},
             {"adjust", std::move(adjust)},
             {"busy", busy_},
             {"over", over_},
             {"result", end_},
             {"error", error_},
             {"phases", phases_.size()},
             {"last", std::move(last)},
             {"suggestion", suggestion_.empty() ? ojson(nullptr) : ojson::parse(suggestion_)},
             {"version", version_}};
  return v.dump();
}

Reply<std::string> DiplomacyTable::submit(const std::vector<std::string>& texts) {
  std::unique_lock lock(mu_);
  if (over_) return tl::unexpected(RequestError{409, "the game is over: " + end_});
  if (!busy_.empty()) return tl::unexpected(RequestError{409, "busy: " + busy_});
  if (!person_orders_locked())
    return tl::unexpected(
        RequestError{409, fmt::format("{} has nothing to order in {}", power_name(map_, power_),
                                      dip::phase_code(state_.phase))});
  if (texts.size() > static_cast<std::size_t>(map_.num_provinces()))
    return tl::unexpected(bad_request("too many orders"));
  std::vector<dip::Order> orders;
  dip::ProvinceSet ordered;
  for (const std::string& text : texts) {
    auto o = dip::parse_order(map_, text, state_.phase.type);
    if (!o)
      return tl::unexpected(bad_request(fmt::format("order '{}': {}", text, o.error().message)));
    if (o->power != dip::kNoPower && o->power != power_)
      return tl::unexpected(
          bad_request(fmt::format("order '{}': you play {}", text, power_name(map_, power_))));
    auto checked = dip::check_order(map_, state_, power_, *o);
    if (!checked)
      return tl::unexpected(
          bad_request(fmt::format("order '{}': {}", text, checked.error().message)));
    if (checked->location != dip::kNoLocation) {
      const dip::ProvinceId p = map_.province_of(checked->location);
      if (ordered.test(p))
        return tl::unexpected(
            bad_request(fmt::format("order '{}': a second order for {}", text, map_.abbr(p))));
      ordered.set(p);
    }
    checked->power = power_;
    if (auto e = dip::effective_order(map_, state_, power_, *checked)) orders.push_back(*e);
  }
  busy_ = "the bots are ordering";
  error_.clear();
  seen_ = outcomes_.size();
  suggestion_.clear();
  ++version_;
  lock.unlock();
  cv_.notify_all();
  store_.thread_begins();
  std::thread([self = shared_from_this(), orders = std::move(orders)]() mutable {
    self->work(Job::kPlay, std::move(orders));
  }).detach();
  return view();
}

Reply<std::string> DiplomacyTable::suggest() {
  std::unique_lock lock(mu_);
  if (over_) return tl::unexpected(RequestError{409, "the game is over: " + end_});
  if (!busy_.empty()) return tl::unexpected(RequestError{409, "busy: " + busy_});
  if (!person_orders_locked())
    return tl::unexpected(RequestError{409, "nothing to order in this phase"});
  busy_ = "Kibitz is thinking about your orders";
  error_.clear();
  ++version_;
  lock.unlock();
  cv_.notify_all();
  store_.thread_begins();
  std::thread([self = shared_from_this()] { self->work(Job::kSuggest, {}); }).detach();
  return view();
}

void DiplomacyTable::work(Job job, std::vector<dip::Order> effective) {
  struct Ends {
    DiplomacyStore& store;
    ~Ends() { store.thread_ends(); }
  } ends{store_};
  std::string failure;
  try {
    store_.take_slot();
    struct Slot {
      DiplomacyStore& store;
      ~Slot() { store.give_slot(); }
    } slot{store_};
    dip::RmConfig cfg;
    cfg.movetime_ms = static_cast<int>(request_.movetime_ms);
    if (job == Job::kSuggest) {
      if (!adviser_) adviser_ = std::make_unique<dip::RmBot>(map_, cfg);  // last(): its reasons
      dip::State s;
      Rng rng;
      {
        std::lock_guard lock(mu_);
        s = state_;
        rng = Rng(rng_.next());
      }
      std::vector<dip::Order> out;
      adviser_->orders(s, power_, rng, out);
      ojson orders = ojson::array();
      for (const auto& o : out) orders.push_back(order_text(map_, o));
      ojson j = {{"phase", dip::phase_code(s.phase)}, {"orders", std::move(orders)}};
      if (s.phase.type == dip::PhaseType::kMovement) {
        // The search's reasoning: its candidate order sets and how often it would play each.
        const dip::RmResult& r = adviser_->last();
        std::vector<std::size_t> idx(r.candidates.size());
        for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
        std::sort(idx.begin(), idx.end(),
                  [&](std::size_t a, std::size_t b) { return r.strategy[a] > r.strategy[b]; });
        ojson cands = ojson::array();
        for (std::size_t k = 0; k < idx.size() && k < 6; ++k) {
          ojson set = ojson::array();
          for (const auto& o : r.candidates[idx[k]]) set.push_back(order_text(map_, o));
          cands.push_back({{"p", r.strategy[idx[k]]}, {"orders", std::move(set)}});
        }
        j["score"] = r.score;
        j["iterations"] = r.iterations;
        j["phases_resolved"] = r.nodes;
        j["candidates"] = std::move(cands);
      }
      std::lock_guard lock(mu_);
      suggestion_ = j.dump();
    } else {
      if (!bot_) bot_ = dip::make_search_bot(request_.bots, map_, cfg);
      std::vector<dip::Order> given;
      for (;;) {
        dip::State s;
        Rng rng;
        {
          std::lock_guard lock(mu_);
          s = state_;
          rng = Rng(rng_.next());
        }
        for (int p = 0; p < map_.num_powers() && !store_.stopping(); ++p) {
          const auto power = static_cast<dip::PowerId>(p);
          if (power == power_ || !dip::has_orders(map_, s, power)) continue;
          given.clear();
          bot_->orders(s, power, rng, given);
          for (dip::Order o : given) {
            o.power = power;
            if (auto e = dip::effective_order(map_, s, power, o)) effective.push_back(*e);
          }
        }
        if (store_.stopping()) break;
        std::unique_lock lock(mu_);
        resolve_locked(effective);
        effective.clear();
        const bool done = over_ || person_orders_locked();
        lock.unlock();
        cv_.notify_all();
        if (done) break;
      }
    }
  } catch (const std::exception& e) {
    failure = e.what();
  }
  {
    std::lock_guard lock(mu_);
    busy_.clear();
    error_ = failure;
    ++version_;
  }
  cv_.notify_all();
}

void DiplomacyTable::resolve_locked(const std::vector<dip::Order>& effective) {
  const dip::State before = state_;
  const dip::State& next = resolver_.resolve(before, effective);
  ojson orders = ojson::array();
  ojson extra = ojson::object();
  const auto add_orders = [&](int n, const auto& list, const auto& ok) {
    for (int i = 0; i < n; ++i) {
      const dip::PowerId p = order_power(map_, before, list[i]);
      orders.push_back({{"power", p == dip::kNoPower ? std::string() : power_name(map_, p)},
                        {"order", order_text(map_, list[i])},
                        {"ok", static_cast<bool>(ok[i])}});
    }
  };
  switch (before.phase.type) {
    case dip::PhaseType::kMovement: {
      const dip::MovementResult& r = resolver_.movement();
      add_orders(r.num_orders, r.orders, r.succeeded);
      ojson dislodged = ojson::array();
      dip::for_each_province(r.dislodged, [&](dip::ProvinceId p) {
        dislodged.push_back({{"unit", unit_text(map_, before.units[p])},
                             {"power", power_name(map_, before.units[p].power)},
                             {"from", r.attacker_from[p] == dip::kNoProvince
                                          ? ojson(nullptr)
                                          : ojson(std::string(map_.abbr(r.attacker_from[p])))}});
      });
      extra["dislodged"] = std::move(dislodged);
      extra["standoffs"] = provinces_json(map_, r.standoff);
      break;
    }
    case dip::PhaseType::kRetreat: {
      const dip::RetreatResult& r = resolver_.retreat();
      add_orders(r.num_orders, r.orders, r.succeeded);
      extra["disbanded"] = provinces_json(map_, r.disbanded);
      break;
    }
    case dip::PhaseType::kAdjustment: {
      const dip::AdjustmentResult& r = resolver_.adjustment();
      add_orders(r.num_orders, r.orders, r.succeeded);
      extra["built"] = provinces_json(map_, r.built);
      extra["civil_disorder"] = provinces_json(map_, r.civil_disorder);
      break;
    }
  }
  ojson o = {{"phase", dip::phase_code(before.phase)},
             {"phase_name", dip::phase_name(before.phase)},
             {"orders", std::move(orders)}};
  for (auto& [k, v] : extra.items()) o[k] = std::move(v);
  o["centres"] = centres_json(map_, next);
  outcomes_.push_back(o.dump());
  phases_.push_back({before.phase, effective, dip::centre_counts(map_, next)});
  const bool fall_ended =
      before.phase.season == dip::Season::kFall && next.phase.season != dip::Season::kFall;
  state_ = next;
  ++version_;
  if (fall_ended) {
    if (auto w = dip::solo_winner(map_, state_)) {
      winner_ = w;
      over_ = true;
      end_ = fmt::format("{} wins with {} centres", power_name(map_, *w),
                         dip::count_centres(map_, state_, *w));
      return;
    }
  }
  int left = 0;
  for (int p = 0; p < map_.num_powers(); ++p)
    if (dip::power_alive(map_, state_, static_cast<dip::PowerId>(p))) ++left;
  if (!dip::power_alive(map_, state_, power_)) {
    over_ = true;
    end_ = fmt::format("{} is out of the game", power_name(map_, power_));
  } else if (left <= 1) {
    winner_ = power_;
    over_ = true;
    end_ = fmt::format("{} is the last power standing", power_name(map_, power_));
  } else if (state_.phase.year > request_.max_year) {
    over_ = true;
    end_ = fmt::format("a draw among the {} powers left after {}", left, request_.max_year);
  }
}

std::string DiplomacyTable::record() {
  std::lock_guard lock(mu_);
  const dip::GameRecord r = dip::make_record(map_, phases_, state_, winner_);
  return json{{"format", "JSON"}, {"record", dip::game_json(map_, r)}}.dump();
}

// --- the store ------------------------------------------------------------------------------

DiplomacyStore::DiplomacyStore(StoreLimits limits)
    : limits_(limits), id_state_(std::random_device{}()) {
  id_state_ = (id_state_ << 32) ^ std::random_device{}();
}

DiplomacyStore::~DiplomacyStore() {
  std::unique_lock lock(mu_);
  stopping_ = true;
  cv_.notify_all();
  cv_.wait(lock, [&] { return threads_ == 0; });
  tables_.clear();
}

Reply<std::shared_ptr<DiplomacyTable>> DiplomacyStore::create(const DiplomacyRequest& request) {
  const dip::Map& map = dip::standard_map();
  const auto power = map.find_power(request.power);
  if (!power) {
    std::string known;
    for (int p = 0; p < map.num_powers(); ++p)
      known += fmt::format("{}{}", p ? ", " : "", map.power_name(static_cast<dip::PowerId>(p)));
    return tl::unexpected(
        bad_request(fmt::format("'power': '{}' is not one of {}", request.power, known)));
  }
  if (!dip::make_search_bot(request.bots, map))
    return tl::unexpected(
        bad_request(fmt::format("'bots': '{}' is not rm, heuristic or random", request.bots)));
  if (request.movetime_ms < 10 || request.movetime_ms > limits_.max_movetime_ms)
    return tl::unexpected(
        bad_request(fmt::format("'movetime_ms': from 10 to {}", limits_.max_movetime_ms)));
  if (request.max_year < map.start_year() || request.max_year > 2100)
    return tl::unexpected(
        bad_request(fmt::format("'max_year': from {} to 2100", map.start_year())));
  std::vector<std::shared_ptr<DiplomacyTable>> evicted;  // destroyed after the lock
  std::lock_guard lock(mu_);
  // Room: the least recently used idle table goes; when every table is busy, none is made.
  while (static_cast<int>(tables_.size()) >= limits_.max_sessions) {
    auto oldest = tables_.end();
    for (auto it = tables_.begin(); it != tables_.end(); ++it)
      if (!it->second.first->busy() &&
          (oldest == tables_.end() || it->second.second < oldest->second.second))
        oldest = it;
    if (oldest == tables_.end())
      return tl::unexpected(RequestError{503, "every Diplomacy game is busy: try again soon"});
    evicted.push_back(std::move(oldest->second.first));
    tables_.erase(oldest);
  }
  const auto next = [&] {
    std::uint64_t z = (id_state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  DiplomacyRequest r = request;
  if (r.seed == 0) r.seed = next() % 1'000'000'000 + 1;
  const std::string id = fmt::format("{:016x}{:016x}", next(), next());
  auto table = std::make_shared<DiplomacyTable>(id, r, *power, *this);
  tables_[id] = {table, ++clock_};
  return table;
}

Reply<std::shared_ptr<DiplomacyTable>> DiplomacyStore::find(const std::string& id) {
  std::lock_guard lock(mu_);
  const auto it = tables_.find(id);
  if (it == tables_.end())
    return tl::unexpected(RequestError{404, "no such game (it ended, or the server made room)"});
  it->second.second = ++clock_;
  return it->second.first;
}

bool DiplomacyStore::remove(const std::string& id) {
  std::shared_ptr<DiplomacyTable> gone;
  std::lock_guard lock(mu_);
  const auto it = tables_.find(id);
  if (it == tables_.end()) return false;
  gone = std::move(it->second.first);
  tables_.erase(it);
  return true;
}

void DiplomacyStore::thread_begins() {
  std::lock_guard lock(mu_);
  ++threads_;
}

void DiplomacyStore::thread_ends() {
  std::lock_guard lock(mu_);
  --threads_;
  cv_.notify_all();
}

void DiplomacyStore::take_slot() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return thinking_ < std::max(1, limits_.max_thinking) || stopping_; });
  ++thinking_;
}

void DiplomacyStore::give_slot() {
  std::lock_guard lock(mu_);
  --thinking_;
  cv_.notify_all();
}

bool DiplomacyStore::stopping() const {
  std::lock_guard lock(mu_);
  return stopping_;
}

}  // namespace kibitz::serve
