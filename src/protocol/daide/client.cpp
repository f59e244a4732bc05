#include "protocol/daide/client.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "engine/diplomacy_search.hpp"
#include "games/diplomacy/game.hpp"

namespace kibitz::daide {

namespace {

const Board& standard_board() {
  static const Board board = [] {
    auto b = Board::make(dip::standard_map());
    return std::move(*b);  // the standard map always has the standard tokens (tested)
  }();
  return board;
}

}  // namespace

Client::Client(ClientOptions options)
    : options_(std::move(options)),
      map_(dip::standard_map()),
      board_(standard_board()),
      state_(dip::initial_state(map_)),
      rng_(options_.seed) {}

Client::~Client() = default;

void Client::send(Step& step, const Message& m) {
  step.send.push_back(encode_message(m));
  step.log.push_back("> " + to_text(m));
}

void Client::fail_step(Step& step, std::string why) {
  step.log.push_back("error: " + why);
  step.send.push_back(encode_final());
  step.close = true;
  step.exit_code = 1;
}

Step Client::start() {
  Step step;
  step.send.push_back(encode_initial());
  return step;
}

Step Client::receive(const Frame& frame) {
  Step step;
  switch (frame.type) {
    case FrameType::kRepresentation: {
      auto reps = decode_representation(frame.body);
      if (!reps) {
        fail_step(step, reps.error().message);
        return step;
      }
      // The standard map needs no renaming; a representation naming its tokens as the
      // standard ones do is the standard map too.
      for (const auto& [token, name] : *reps)
        if (named_token(name) != token) {
          fail_step(step, fmt::format("the server's map renames token 0x{:04X} as '{}': only the "
                                      "standard map is played",
                                      token, name));
          return step;
        }
      have_rm_ = true;
      Message hello;
      if (options_.observe) {
        hello = {tok::kObs};
      } else if (!options_.power.empty()) {
        const auto p = map_.find_power(options_.power);
        if (!p) {
          fail_step(step, fmt::format("--power '{}' is not a power", options_.power));
          return step;
        }
        hello = {tok::kIam,   tok::kOpen, board_.power(*p),
                 tok::kClose, tok::kOpen, integer_token(options_.passcode),
                 tok::kClose};
      } else {
        hello = {tok::kNme, tok::kOpen};
        append_text(hello, options_.name);
        hello.insert(hello.end(), {tok::kClose, tok::kOpen});
        append_text(hello, options_.version);
        hello.push_back(tok::kClose);
      }
      send(step, hello);
      return step;
    }
    case FrameType::kDiplomacy: {
      if (!have_rm_) {
        step.send.push_back(encode_error(ErrorCode::kDmBeforeRm));
        fail_step(step, "a diplomacy message before the representation");
        return step;
      }
      auto m = decode_message(frame.body);
      if (!m) {
        step.log.push_back("warning: " + m.error().message);
        return step;
      }
      return message(*m);
    }
    case FrameType::kFinal:
      step.log.push_back("the server closed the connection");
      step.close = true;
      step.exit_code = over_ ? 0 : 1;
      return step;
    case FrameType::kError: {
      const auto code =
          frame.body.size() == 2
              ? static_cast<ErrorCode>((static_cast<unsigned char>(frame.body[0]) << 8) |
                                       static_cast<unsigned char>(frame.body[1]))
              : ErrorCode::kTooShort;
      fail_step(step, fmt::format("the server sent error {}: {}", static_cast<int>(code),
                                  error_text(code)));
      return step;
    }
    case FrameType::kInitial:
      step.send.push_back(encode_error(ErrorCode::kImFromServer));
      fail_step(step, "the server sent an initial message");
      return step;
  }
  return step;
}

Step Client::message(const Message& m) {
  Step step;
  step.log.push_back("< " + to_text(m));
  if (m.empty() || !balanced(m)) {
    step.log.push_back("warning: unbalanced brackets; ignored");
    return step;
  }
  const auto p = parts(m);
  const Token head = p[0].size() == 1 ? p[0][0] : 0;
  const Token inner = p.size() > 1 && !p[1].empty() ? p[1][0] : 0;
  switch (head) {
    case tok::kYes:
      return step;
    case tok::kRej:
      if (inner == tok::kNme || inner == tok::kIam || inner == tok::kObs) {
        fail_step(step, "the server refused to let us join: " + to_text(m));
      } else {
        step.log.push_back("warning: refused: " + to_text(p.size() > 1 ? p[1] : p[0]));
      }
      return step;
    case tok::kMap: {
      // Ask for the definition, and play only if it is the standard map's.
      send(step, {tok::kMdf});
      return step;
    }
    case tok::kMdf: {
      if (auto ok = board_.check_mdf(m); !ok) {
        Message rej{tok::kRej, tok::kOpen, tok::kMap, tok::kOpen};
        append_text(rej, "standard");
        rej.insert(rej.end(), {tok::kClose, tok::kClose});
        send(step, rej);
        fail_step(step, ok.error().message);
        return step;
      }
      Message yes{tok::kYes, tok::kOpen, tok::kMap, tok::kOpen};
      append_text(yes, "standard");
      yes.insert(yes.end(), {tok::kClose, tok::kClose});
      send(step, yes);
      return step;
    }
    case tok::kHlo: {
      // HLO (power) (passcode) (variant options).
      if (p.size() >= 3 && p[1].size() == 1 && p[2].size() == 1 && is_integer(p[2][0])) {
        power_ = board_.power_of(p[1][0]);
        passcode_ = token_integer(p[2][0]);
        if (p.size() >= 4)
          for (const auto& opt : parts(p[3]))
            if (opt.size() == 2 && opt[0] == tok::kMtl && is_integer(opt[1]))
              deadline_s = token_integer(opt[1]);
        if (power_)
          step.log.push_back(fmt::format(
              "playing {} (passcode {}{})", map_.power_name(*power_), passcode_,
              deadline_s ? fmt::format(", {} s a movement phase", deadline_s) : std::string()));
      } else {
        step.log.push_back("warning: HLO not understood");
      }
      return step;
    }
    case tok::kSco:
      if (auto ok = board_.read_sco(m, state_); !ok)
        step.log.push_back("warning: " + ok.error().message);
      return step;
    case tok::kNow:
      if (auto ok = board_.read_now(m, state_, &retreats_); !ok) {
        step.log.push_back("warning: " + ok.error().message);
        return step;
      }
      answered_mis_ = false;
      ordered_.reset();
      if (power_ && !over_) play(step);
      return step;
    case tok::kThx:
      // THX (order) (note): anything but MBV is a refusal.
      if (p.size() == 3 && p[2].size() == 1 && p[2][0] != tok::kMbv)
        step.log.push_back(
            fmt::format("warning: the server refused ({}) {}", to_text(p[2]), to_text(p[1])));
      return step;
    case tok::kMis: {
      // Orders still missing (one refused): hold, disband or waive, once a phase. A winter's
      // missing disbands are left to the server's civil disorder rule.
      if (!power_ || answered_mis_) return step;
      answered_mis_ = true;
      Message sub{tok::kSub};
      for (std::size_t i = 1; i < p.size(); ++i) {
        const auto u = parts(p[i]);
        // A unit this phase's SUB ordered: that SUB is on its way (the server's MIS answered an
        // earlier message), so a hold now would overwrite its order.
        const auto at = u.size() >= 3 && !u[2].empty() ? board_.province_of(u[2][0]) : std::nullopt;
        if (at && ordered_.test(*at)) continue;
        if (u.size() >= 3 && u[0].size() == 1 && is_power(u[0][0])) {
          // ((POW TYPE LOC) HLD|DSB): the unit's first three parts, as the server gave them.
          sub.insert(sub.end(), {tok::kOpen, tok::kOpen});
          for (std::size_t k = 0; k < 3; ++k) {
            const bool wrap = u[k].size() > 1;
            if (wrap) sub.push_back(tok::kOpen);
            sub.insert(sub.end(), u[k].begin(), u[k].end());
            if (wrap) sub.push_back(tok::kClose);
          }
          sub.push_back(tok::kClose);
          sub.push_back(state_.phase.type == dip::PhaseType::kRetreat ? tok::kDsb : tok::kHld);
          sub.push_back(tok::kClose);
        } else if (p[i].size() == 1 && is_integer(p[i][0]) && ordered_.none() &&
                   dip::adjustment_count(map_, state_, *power_) > 0) {
          for (int k = 0; k < std::abs(token_integer(p[i][0])); ++k)
            sub.insert(sub.end(), {tok::kOpen, board_.power(*power_), tok::kWve, tok::kClose});
        }
      }
      if (sub.size() > 1) send(step, sub);
      return step;
    }
    case tok::kOrd:
      return step;  // the results: logged above
    case tok::kCcd:
    case tok::kOut:
    case tok::kNot:
    case tok::kTme:
    case tok::kAdm:
    case tok::kFrm:
      return step;
    case tok::kDrw:
      over_ = true;
      result_ = "draw";
      return step;
    case tok::kSlo:
      over_ = true;
      if (p.size() > 1 && p[1].size() == 1)
        if (const auto w = board_.power_of(p[1][0]))
          result_ = fmt::format("solo {}", map_.power_name(*w));
      return step;
    case tok::kSmr:
      over_ = true;
      if (result_.empty()) result_ = "game over";
      return step;
    case tok::kOff:
      step.send.push_back(encode_final());
      step.close = true;
      step.exit_code = 0;
      return step;
    case tok::kHuh:
    case tok::kPrn:
      step.log.push_back("warning: the server did not understand: " + to_text(m));
      return step;
    default:
      step.log.push_back("warning: an unexpected message; ignored");
      return step;
  }
}

void Client::play(Step& step) {
  const dip::PowerId me = *power_;
  if (!dip::has_orders(map_, state_, me)) return;
  // Builds owed but no free home centre to build in: nothing to order (a server may have
  // gone on already, and waives sent now would arrive in the next phase).
  if (state_.phase.type == dip::PhaseType::kAdjustment &&
      dip::adjustment_count(map_, state_, me) > 0) {
    int free = 0;
    dip::for_each_province(map_.homes(me), [&](dip::ProvinceId p) {
      if (state_.owner[p] == me && !state_.units[p].exists()) ++free;
    });
    if (free == 0) return;
  }
  // Not ready until the orders are in: a server that goes on once every power's orders are
  // set and nobody waits would otherwise resolve the phase while the bot thinks.
  send(step, {tok::kNot, tok::kOpen, tok::kGof, tok::kClose});
  if (!bot_) {
    dip::RmConfig cfg;
    cfg.movetime_ms = options_.movetime_ms;
    // Within the deadline, with room for the network and the server.
    if (deadline_s > 0) cfg.movetime_ms = std::min(cfg.movetime_ms, deadline_s * 1000 / 3);
    cfg.strength = options_.strength;
    bot_ = dip::make_search_bot(options_.bot, map_, cfg);
  }
  std::vector<dip::Order> orders;
  bot_->orders(state_, me, rng_, orders);
  Message sub{tok::kSub};
  for (dip::Order o : orders) {
    o.power = me;
    // Another dislodged unit's retreat the server does not allow this one: disbands instead.
    if (o.type == dip::OrderType::kRetreat &&
        !retreats_[map_.province_of(o.location)].test(map_.province_of(o.target))) {
      o.type = dip::OrderType::kDisband;
      o.target = dip::kNoLocation;
    }
    const Message one = board_.order(state_, o);
    if (o.location != dip::kNoLocation) ordered_.set(map_.province_of(o.location));
    sub.push_back(tok::kOpen);
    sub.insert(sub.end(), one.begin(), one.end());
    sub.push_back(tok::kClose);
  }
  if (sub.size() > 1) send(step, sub);
  // Done for this phase: servers that wait for every player's go flag may go on.
  send(step, {tok::kGof});
  // The draw rule: from --draw-year on, a draw is proposed each spring.
  if (options_.draw_year > 0 && state_.phase.season == dip::Season::kSpring &&
      state_.phase.type == dip::PhaseType::kMovement && state_.phase.year >= options_.draw_year)
    send(step, {tok::kDrw});
}

}  // namespace kibitz::daide
