#include "protocol/daide/host.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "engine/diplomacy_search.hpp"

namespace kibitz::daide {

namespace {

Message wrap(Token head, std::span<const Token> inner) {
  Message m{head, tok::kOpen};
  m.insert(m.end(), inner.begin(), inner.end());
  m.push_back(tok::kClose);
  return m;
}

Message with_text(std::initializer_list<Token> head, std::string_view text) {
  Message m(head);
  m.push_back(tok::kOpen);
  append_text(m, text);
  m.push_back(tok::kClose);
  return m;
}

}  // namespace

Result<void> Host::check(const HostOptions& o) {
  if (o.seats.size() != 7)
    return fail("seats: 7 (one per power, map order), not {}", o.seats.size());
  for (const auto& s : o.seats)
    if (s != "daide" && s.rfind("daide=", 0) != 0 && s != "rm" &&
        !dip::make_bot(s, dip::standard_map()))
      return fail("seat '{}': daide, daide=NAME, rm, heuristic or random", s);
  for (const int t : {o.movement_s, o.retreat_s, o.build_s})
    if (t < 1 || t > 8191) return fail("deadlines: 1 to 8191 s");
  if (o.max_year < 1901 || o.max_year > 8191) return fail("max year: 1901 to 8191");
  return {};
}

Host::Host(HostOptions options)
    : options_(std::move(options)),
      map_(dip::standard_map()),
      board_(*Board::make(map_)),
      state_(dip::initial_state(map_)),
      resolver_(map_),
      rng_(options_.seed) {
  seats_.resize(static_cast<std::size_t>(map_.num_powers()));
  for (std::size_t p = 0; p < seats_.size(); ++p) {
    Seat& s = seats_[p];
    s.client = options_.seats[p].rfind("daide", 0) == 0;
    if (s.client && options_.seats[p].size() > 6) s.reserved = options_.seats[p].substr(6);
    if (!s.client) {
      s.name = "Kibitz-" + options_.seats[p];
      s.version = KIBITZ_VERSION;
      auto& bot = bots_[options_.seats[p]];
      if (!bot) {
        dip::RmConfig cfg;
        cfg.movetime_ms = options_.rm_movetime_ms;
        bot = dip::make_search_bot(options_.seats[p], map_, cfg);
      }
    }
  }
}

Host::~Host() = default;

std::optional<Host::Clock::time_point> Host::deadline() const {
  return over_ ? std::nullopt : deadline_;
}

void Host::send(std::vector<Out>& out, ClientId to, const Message& m, bool close) {
  out.push_back({to, encode_message(m), close});
}

void Host::broadcast(std::vector<Out>& out, const Message& m, bool players_only) {
  for (const auto& [id, c] : conns_)
    if (c.map_ok && (!players_only || c.power)) send(out, id, m);
}

std::vector<Host::Out> Host::connected(ClientId id) {
  conns_[id] = Conn{};
  return {};
}

std::vector<Host::Out> Host::received(ClientId id, const Frame& frame, Clock::time_point now) {
  std::vector<Out> out;
  auto it = conns_.find(id);
  if (it == conns_.end()) return out;
  Conn& c = it->second;
  const auto error = [&](ErrorCode code) {
    log.push_back(fmt::format("client {}: {}", id, error_text(code)));
    out.push_back({id, encode_error(code), true});
    auto more = disconnected(id, now);
    out.insert(out.end(), more.begin(), more.end());
  };
  switch (frame.type) {
    case FrameType::kInitial:
      if (c.initial) {
        error(ErrorCode::kImTwice);
      } else if (auto ok = check_initial(frame.body); !ok) {
        error(ok.error().message.find("magic") != std::string::npos    ? ErrorCode::kImWrongMagic
              : ok.error().message.find("endian") != std::string::npos ? ErrorCode::kImWrongEndian
                                                                       : ErrorCode::kVersion);
      } else {
        c.initial = true;
        // The standard map: nothing renamed.
        out.push_back({id, encode_frame(FrameType::kRepresentation, {}), false});
      }
      return out;
    case FrameType::kRepresentation:
      error(ErrorCode::kRmFromClient);
      return out;
    case FrameType::kFinal:
    case FrameType::kError:
      return disconnected(id, now);
    case FrameType::kDiplomacy: {
      if (!c.initial) {
        error(ErrorCode::kImNotFirst);
        return out;
      }
      auto m = decode_message(frame.body);
      if (!m) {
        error(ErrorCode::kTooShort);
        return out;
      }
      if (!balanced(*m)) {
        send(out, id, wrap(tok::kPrn, *m));
        return out;
      }
      message(out, id, *m, now);
      return out;
    }
  }
  return out;
}

std::vector<Host::Out> Host::disconnected(ClientId id, Clock::time_point now) {
  std::vector<Out> out;
  auto it = conns_.find(id);
  if (it == conns_.end()) return out;
  const auto power = it->second.power;
  conns_.erase(it);
  if (!power) return out;
  Seat& seat = seats_[*power];
  seat.holder.reset();
  if (!started_) {
    seat.name.clear();
    seat.version.clear();
    return out;
  }
  if (over_) return out;
  seat.disorder = true;
  log.push_back(fmt::format("{} left: civil disorder", map_.power_name(*power)));
  broadcast(out, {tok::kCcd, tok::kOpen, board_.power(*power), tok::kClose});
  maybe_resolve(out, now, false);
  return out;
}

std::vector<Host::Out> Host::tick(Clock::time_point now) {
  std::vector<Out> out;
  if (started_ && !over_ && deadline_ && now >= *deadline_) maybe_resolve(out, now, true);
  return out;
}

Message Host::hlo(dip::PowerId p) const {
  Message m{tok::kHlo,   tok::kOpen, board_.power(p),
            tok::kClose, tok::kOpen, integer_token(seats_[p].passcode),
            tok::kClose, tok::kOpen};
  m.insert(m.end(), {tok::kOpen, tok::kLvl, integer_token(0), tok::kClose});
  m.insert(m.end(), {tok::kOpen, tok::kMtl, integer_token(options_.movement_s), tok::kClose});
  m.insert(m.end(), {tok::kOpen, tok::kRtl, integer_token(options_.retreat_s), tok::kClose});
  m.insert(m.end(), {tok::kOpen, tok::kBtl, integer_token(options_.build_s), tok::kClose});
  m.push_back(tok::kClose);
  return m;
}

void Host::message(std::vector<Out>& out, ClientId id, const Message& m, Clock::time_point now) {
  Conn& c = conns_[id];
  const auto p = parts(m);
  if (p.empty()) return send(out, id, {tok::kHuh, tok::kOpen, tok::kErr, tok::kClose});
  const Token head = p[0].size() == 1 ? p[0][0] : 0;
  const Token inner = p.size() > 1 && !p[1].empty() ? p[1][0] : 0;
  const auto huh = [&] {
    Message h{tok::kHuh, tok::kOpen, tok::kErr};
    h.insert(h.end(), m.begin(), m.end());
    h.push_back(tok::kClose);
    send(out, id, h);
  };
  const auto map_msg = [&] { send(out, id, with_text({tok::kMap}, "standard")); };
  switch (head) {
    case tok::kNme: {
      if (p.size() != 3 || c.power || c.observer) return huh();
      // A seat kept for this name, else a random one kept for nobody.
      const std::string name = text_of(p[1]);
      std::vector<dip::PowerId> free, kept;
      for (std::size_t q = 0; q < seats_.size(); ++q) {
        const Seat& s = seats_[q];
        if (!s.client || s.holder || started_) continue;
        if (s.reserved.empty()) free.push_back(static_cast<dip::PowerId>(q));
        if (!s.reserved.empty() && to_lower(s.reserved) == to_lower(name))
          kept.push_back(static_cast<dip::PowerId>(q));
      }
      if (!kept.empty()) free = kept;
      if (free.empty()) return send(out, id, wrap(tok::kRej, m));
      const dip::PowerId power = free[rng_.below(free.size())];
      Seat& seat = seats_[power];
      seat.holder = id;
      seat.name = text_of(p[1]);
      seat.version = text_of(p[2]);
      seat.passcode = 1 + static_cast<int>(rng_.below(8190));
      c.power = power;
      log.push_back(fmt::format("'{}' joins as {}", seat.name, map_.power_name(power)));
      send(out, id, wrap(tok::kYes, m));
      return map_msg();
    }
    case tok::kObs:
      if (c.power) return huh();
      c.observer = true;
      send(out, id, wrap(tok::kYes, m));
      return map_msg();
    case tok::kIam: {
      const auto power =
          p.size() == 3 && p[1].size() == 1 ? board_.power_of(p[1][0]) : std::nullopt;
      if (!power || p[2].size() != 1 || !is_integer(p[2][0]) || c.power) return huh();
      Seat& seat = seats_[*power];
      if (!seat.client || seat.holder || !started_ || token_integer(p[2][0]) != seat.passcode)
        return send(out, id, wrap(tok::kRej, m));
      seat.holder = id;
      seat.disorder = false;
      c.power = *power;
      send(out, id, wrap(tok::kYes, m));
      broadcast(out, {tok::kNot, tok::kOpen, tok::kCcd, tok::kOpen, board_.power(*power),
                      tok::kClose, tok::kClose});
      return map_msg();
    }
    case tok::kMdf:
      return send(out, id, board_.mdf());
    case tok::kYes:
      if (inner == tok::kMap) {
        c.map_ok = true;
        if (started_) {
          if (c.power) send(out, id, hlo(*c.power));
          send(out, id, board_.sco(state_));
          send(out, id, board_.now(state_));
        }
        maybe_start(out, now);
        return;
      }
      return;  // a YES to something the server said: nothing to do
    case tok::kRej:
      if (inner == tok::kMap) {
        send(out, id, {tok::kOff}, true);
        auto more = disconnected(id, now);
        out.insert(out.end(), more.begin(), more.end());
      }
      return;
    case tok::kHlo:
      if (c.power && started_) return send(out, id, hlo(*c.power));
      return send(out, id, wrap(tok::kRej, m));
    case tok::kSco:
      if (!started_) return send(out, id, wrap(tok::kRej, m));
      return send(out, id, board_.sco(state_));
    case tok::kNow:
      if (!started_) return send(out, id, wrap(tok::kRej, m));
      return send(out, id, board_.now(state_));
    case tok::kSub:
      return on_sub(out, id, m, now);
    case tok::kMis:
      if (!c.power || !started_ || over_) return send(out, id, wrap(tok::kRej, m));
      return send(out, id, missing(*c.power));
    case tok::kGof:
    case tok::kNot:
      if (head == tok::kNot && inner == tok::kDrw && c.power) seats_[*c.power].draw = false;
      return send(out, id, wrap(tok::kYes, m));
    case tok::kDrw: {
      if (!c.power || !started_ || over_) return send(out, id, wrap(tok::kRej, m));
      seats_[*c.power].draw = true;
      send(out, id, wrap(tok::kYes, m));
      // A draw when every power still in the game is a client's that asks for one (Kibitz's
      // bots never ask).
      bool all = true;
      for (std::size_t q = 0; q < seats_.size(); ++q)
        if (dip::power_alive(map_, state_, static_cast<dip::PowerId>(q)))
          all &= seats_[q].client && seats_[q].draw;
      if (all) finish(out, {tok::kDrw});
      return;
    }
    case tok::kTme: {
      const auto left =
          deadline_ ? std::chrono::duration_cast<std::chrono::seconds>(*deadline_ - now).count()
                    : 0;
      return send(out, id,
                  {tok::kTme, tok::kOpen,
                   integer_token(static_cast<int>(std::max<long long>(0, left))), tok::kClose});
    }
    case tok::kHst:
    case tok::kSnd:  // no press at level 0
      return send(out, id, wrap(tok::kRej, m));
    case tok::kAdm:
      return;
    default:
      return huh();
  }
}

void Host::on_sub(std::vector<Out>& out, ClientId id, const Message& m, Clock::time_point now) {
  const Conn& c = conns_[id];
  if (!c.power || !started_ || over_) return send(out, id, wrap(tok::kRej, m));
  const dip::PowerId me = *c.power;
  Seat& seat = seats_[me];
  const auto p = parts(m);
  for (std::size_t i = 1; i < p.size(); ++i) {
    // SUB (turn) (order)...: a turn other than this one refuses the whole submission.
    if (p[i].size() == 2 && is_season(p[i][0])) {
      const auto turn = board_.turn_of(p[i]);
      if (!turn || !(*turn == state_.phase)) return send(out, id, wrap(tok::kRej, m));
      continue;
    }
    Message thx{tok::kThx, tok::kOpen};
    thx.insert(thx.end(), p[i].begin(), p[i].end());
    thx.insert(thx.end(), {tok::kClose, tok::kOpen});
    auto order = board_.parse_order(state_, p[i]);
    Token note = tok::kMbv;
    if (!order) {
      note = order.error().note;
    } else if (order->power != me) {
      note = tok::kNyu;
    } else if (state_.phase.type == dip::PhaseType::kAdjustment) {
      const int count = dip::adjustment_count(map_, state_, me);
      const int wanted = std::abs(count);
      const bool build =
          order->type == dip::OrderType::kBuild || order->type == dip::OrderType::kWaive;
      if ((count > 0) != build) {
        note = build ? tok::kNmb : tok::kNsu;
      } else if (static_cast<int>(seat.adjustments.size()) >= wanted) {
        note = count > 0 ? tok::kNmb : tok::kNmr;
      } else {
        // A second build in one province, or a second disband of one unit.
        for (const auto& o : seat.adjustments)
          if (o.type != dip::OrderType::kWaive && order->type != dip::OrderType::kWaive &&
              map_.province_of(o.location) == map_.province_of(order->location))
            note = count > 0 ? tok::kEsc : tok::kNsu;
        if (note == tok::kMbv) seat.adjustments.push_back(*order);
      }
    } else {
      seat.orders[map_.province_of(order->location)] = *order;
    }
    thx.push_back(note);
    thx.push_back(tok::kClose);
    send(out, id, thx);
  }
  send(out, id, missing(me));
  maybe_resolve(out, now, false);
}

bool Host::complete(dip::PowerId power) const {
  const Seat& seat = seats_[power];
  if (!seat.client || seat.disorder || !seat.holder)
    return true;  // bots ordered; CD waits for nobody
  if (!dip::has_orders(map_, state_, power)) return true;
  switch (state_.phase.type) {
    case dip::PhaseType::kMovement:
      for (int q = 0; q < map_.num_provinces(); ++q)
        if (state_.units[q].power == power && !seat.orders.count(static_cast<dip::ProvinceId>(q)))
          return false;
      return true;
    case dip::PhaseType::kRetreat:
      for (int q = 0; q < map_.num_provinces(); ++q)
        if (state_.dislodged[q].power == power &&
            !seat.orders.count(static_cast<dip::ProvinceId>(q)))
          return false;
      return true;
    case dip::PhaseType::kAdjustment: {
      const int count = dip::adjustment_count(map_, state_, power);
      int wanted = std::abs(count);
      if (count > 0) {
        int free = 0;
        dip::for_each_province(map_.homes(power), [&](dip::ProvinceId q) {
          if (state_.owner[q] == power && !state_.units[q].exists()) ++free;
        });
        wanted = std::min(wanted, free);
      }
      return static_cast<int>(seat.adjustments.size()) >= wanted;
    }
  }
  return true;
}

Message Host::missing(dip::PowerId power) const {
  Message m{tok::kMis};
  if (complete(power)) return m;
  const Seat& seat = seats_[power];
  if (state_.phase.type == dip::PhaseType::kAdjustment) {
    const int count = dip::adjustment_count(map_, state_, power);
    const int left = std::abs(count) - static_cast<int>(seat.adjustments.size());
    m.insert(m.end(), {tok::kOpen, integer_token(count > 0 ? left : -left), tok::kClose});
    return m;
  }
  const bool retreat = state_.phase.type == dip::PhaseType::kRetreat;
  const Message now = board_.now(state_);
  // The units without an order, as NOW writes them (with MRT in a retreat).
  for (const auto& part : parts(now)) {
    if (part.size() < 5 || part[0] != board_.power(power)) continue;
    const auto up = parts(part);
    const auto loc = up.size() >= 3 ? up[2] : std::span<const Token>();
    const auto prov = loc.empty() ? std::nullopt : board_.province_of(loc[0]);
    if (!prov || seat.orders.count(*prov)) continue;
    if (retreat != (up.size() == 5)) continue;
    m.push_back(tok::kOpen);
    m.insert(m.end(), part.begin(), part.end());
    m.push_back(tok::kClose);
  }
  return m;
}

void Host::maybe_start(std::vector<Out>& out, Clock::time_point now) {
  if (started_) return;
  for (const auto& seat : seats_)
    if (seat.client && (!seat.holder || !conns_[*seat.holder].map_ok)) return;
  started_ = true;
  log.push_back("the game starts");
  for (const auto& [id, c] : conns_)
    if (c.power && c.map_ok) send(out, id, hlo(*c.power));
  begin_phase(out, now);
  maybe_resolve(out, now, false);
}

void Host::begin_phase(std::vector<Out>& out, Clock::time_point now) {
  broadcast(out, board_.sco(state_));
  broadcast(out, board_.now(state_));
  std::vector<dip::Order> given;
  for (std::size_t q = 0; q < seats_.size(); ++q) {
    Seat& seat = seats_[q];
    seat.orders.clear();
    seat.adjustments.clear();
    const auto power = static_cast<dip::PowerId>(q);
    if (seat.client || !dip::has_orders(map_, state_, power)) continue;
    given.clear();
    bots_.at(options_.seats[q])->orders(state_, power, rng_, given);
    for (dip::Order o : given) {
      o.power = power;
      auto checked = dip::check_order(map_, state_, power, o);
      if (!checked) continue;
      checked->power = power;
      if (state_.phase.type == dip::PhaseType::kAdjustment)
        seat.adjustments.push_back(*checked);
      else
        seat.orders[map_.province_of(checked->location)] = *checked;
    }
  }
  const int seconds = state_.phase.type == dip::PhaseType::kMovement  ? options_.movement_s
                      : state_.phase.type == dip::PhaseType::kRetreat ? options_.retreat_s
                                                                      : options_.build_s;
  deadline_ = now + std::chrono::seconds(seconds);
}

void Host::maybe_resolve(std::vector<Out>& out, Clock::time_point now, bool deadline_passed) {
  // A loop, not recursion: phases in which nobody has anything left to order follow at once.
  for (bool force = deadline_passed; started_ && !over_; force = false) {
    bool ready = true;
    for (std::size_t q = 0; q < seats_.size(); ++q) ready &= complete(static_cast<dip::PowerId>(q));
    if (!ready && !force) return;
    resolve(out, now);
  }
}

void Host::resolve(std::vector<Out>& out, Clock::time_point now) {
  const dip::State before = state_;
  std::vector<dip::Order> effective;
  for (std::size_t q = 0; q < seats_.size(); ++q) {
    const auto power = static_cast<dip::PowerId>(q);
    const Seat& seat = seats_[q];
    const auto add = [&](const dip::Order& o) {
      if (auto e = dip::effective_order(map_, before, power, o)) {
        e->power = power;
        effective.push_back(*e);
      }
    };
    for (const auto& [prov, o] : seat.orders) add(o);
    for (const auto& o : seat.adjustments) add(o);
  }
  const dip::State& next = resolver_.resolve(before, effective);
  // ORD: each order with its result.
  Message turn;
  board_.append_turn(turn, before.phase);
  const auto ord = [&](const dip::Order& o, std::initializer_list<Token> result) {
    Message m{tok::kOrd};
    m.insert(m.end(), turn.begin(), turn.end());
    m.push_back(tok::kOpen);
    const Message order = board_.order(before, o);
    m.insert(m.end(), order.begin(), order.end());
    m.push_back(tok::kClose);
    m.push_back(tok::kOpen);
    m.insert(m.end(), result);
    m.push_back(tok::kClose);
    broadcast(out, m);
  };
  switch (before.phase.type) {
    case dip::PhaseType::kMovement: {
      const dip::MovementResult& r = resolver_.movement();
      for (int i = 0; i < r.num_orders; ++i) {
        const dip::Order& o = r.orders[i];
        if (o.location == dip::kNoLocation || !before.units[map_.province_of(o.location)].exists())
          continue;
        const bool dislodged = r.dislodged.test(map_.province_of(o.location));
        Token result = tok::kSuc;
        if (!r.succeeded[i])
          result = o.type == dip::OrderType::kMove      ? tok::kBnc
                   : o.type == dip::OrderType::kSupport ? tok::kCut
                   : o.type == dip::OrderType::kConvoy  ? tok::kDsr
                                                        : tok::kSuc;
        if (dislodged)
          ord(o, {result, tok::kRet});
        else
          ord(o, {result});
      }
      break;
    }
    case dip::PhaseType::kRetreat: {
      const dip::RetreatResult& r = resolver_.retreat();
      for (int i = 0; i < r.num_orders; ++i)
        if (before.dislodged[map_.province_of(r.orders[i].location)].exists())
          ord(r.orders[i], {r.succeeded[i] ? tok::kSuc : tok::kBnc});
      break;
    }
    case dip::PhaseType::kAdjustment: {
      const dip::AdjustmentResult& r = resolver_.adjustment();
      for (int i = 0; i < r.num_orders; ++i)
        ord(r.orders[i], {r.succeeded[i] ? tok::kSuc : tok::kFld});
      break;
    }
  }
  phases_.push_back({before.phase, effective, dip::centre_counts(map_, next)});
  const bool fall_ended =
      before.phase.season == dip::Season::kFall && next.phase.season != dip::Season::kFall;
  state_ = next;
  log.push_back(fmt::format("{} resolved", dip::phase_code(before.phase)));
  // Eliminations, then the end.
  int left = 0;
  for (std::size_t q = 0; q < seats_.size(); ++q) {
    const auto power = static_cast<dip::PowerId>(q);
    if (dip::power_alive(map_, state_, power)) {
      ++left;
    } else if (!seats_[q].out_year) {
      seats_[q].out_year = before.phase.year;
      broadcast(out, {tok::kOut, tok::kOpen, board_.power(power), tok::kClose});
    }
  }
  if (fall_ended) {
    if (auto w = dip::solo_winner(map_, state_)) {
      winner_ = w;
      return finish(out, {tok::kSlo, tok::kOpen, board_.power(*w), tok::kClose});
    }
  }
  if (left <= 1) {
    for (std::size_t q = 0; q < seats_.size(); ++q)
      if (dip::power_alive(map_, state_, static_cast<dip::PowerId>(q)))
        winner_ = static_cast<dip::PowerId>(q);
    if (winner_) return finish(out, {tok::kSlo, tok::kOpen, board_.power(*winner_), tok::kClose});
  }
  if (state_.phase.year > options_.max_year) return finish(out, {tok::kDrw});
  begin_phase(out, now);
}

void Host::finish(std::vector<Out>& out, const Message& ending) {
  over_ = true;
  deadline_.reset();
  log.push_back("the game ends: " + to_text(ending));
  broadcast(out, ending);
  // SMR (turn) (power ('name') ('version') centres [year out]) ...
  Message smr{tok::kSmr};
  board_.append_turn(smr, state_.phase);
  for (std::size_t q = 0; q < seats_.size(); ++q) {
    const auto power = static_cast<dip::PowerId>(q);
    const Seat& seat = seats_[q];
    smr.insert(smr.end(), {tok::kOpen, board_.power(power), tok::kOpen});
    append_text(smr, seat.name.empty() ? "nobody" : seat.name);
    smr.insert(smr.end(), {tok::kClose, tok::kOpen});
    append_text(smr, seat.version.empty() ? "-" : seat.version);
    smr.push_back(tok::kClose);
    smr.push_back(integer_token(dip::count_centres(map_, state_, power)));
    if (seat.out_year) smr.push_back(integer_token(seat.out_year));
    smr.push_back(tok::kClose);
  }
  broadcast(out, smr);
  for (const auto& [id, c] : conns_) send(out, id, {tok::kOff}, true);
}

std::string Host::record_json() const {
  const dip::GameRecord r = dip::make_record(map_, phases_, state_, winner_);
  nlohmann::ordered_json players = nlohmann::ordered_json::object();
  for (std::size_t q = 0; q < seats_.size(); ++q)
    players[std::string(map_.power_name(static_cast<dip::PowerId>(q)))] = {
        {"seat", options_.seats[q]}, {"name", seats_[q].name}, {"version", seats_[q].version}};
  nlohmann::ordered_json j = {
      {"players", players},
      {"game", nlohmann::ordered_json::parse(dip::game_json(map_, r))},
      {"final_state", nlohmann::ordered_json::parse(dip::write_state_json(map_, state_))}};
  return j.dump(1);
}

}  // namespace kibitz::daide
