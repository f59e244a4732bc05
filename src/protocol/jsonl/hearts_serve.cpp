#include "protocol/jsonl/hearts_serve.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <istream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "core/error.hpp"
#include "core/text.hpp"
#include "engine/any_engine.hpp"
#include "games/hearts/hearts_game.hpp"

namespace kibitz::jsonl {

using hearts::Card;
using hearts::CardSet;
using hearts::kNumPlayers;
using hearts::Observation;
using hearts::Phase;
using nlohmann::json;
// Replies keep their fields in the order written: "ok" first.
using Reply = nlohmann::ordered_json;

namespace {

// Fields of a command, checked for presence and type; errors name the field.
Result<std::int64_t> int_field(const json& j, const char* name, std::int64_t lo, std::int64_t hi) {
  const auto it = j.find(name);
  if (it == j.end()) return fail("missing field '{}'", name);
  if (!it->is_number_integer()) return fail("field '{}' must be an integer", name);
  // Unsigned values above the signed range would wrap in get<std::int64_t>().
  if (it->is_number_unsigned() && it->get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
    return fail("field '{}': {} is out of range ({} to {})", name, it->get<std::uint64_t>(), lo,
                hi);
  const auto v = it->get<std::int64_t>();
  if (v < lo || v > hi) return fail("field '{}': {} is out of range ({} to {})", name, v, lo, hi);
  return v;
}

Result<std::string> string_field(const json& j, const char* name) {
  const auto it = j.find(name);
  if (it == j.end()) return fail("missing field '{}'", name);
  if (!it->is_string()) return fail("field '{}' must be a string", name);
  return it->get<std::string>();
}

Result<CardSet> cards_field(const json& j, const char* name) {
  auto text = string_field(j, name);
  if (!text) return tl::unexpected(text.error());
  auto cards = hearts::parse_cards(*text);
  if (!cards) return with_context(cards.error(), fmt::format("field '{}'", name));
  return *cards;
}

Result<Card> card_field(const json& j, const char* name) {
  auto text = string_field(j, name);
  if (!text) return tl::unexpected(text.error());
  auto card = hearts::parse_card(*text);
  if (!card) return with_context(card.error(), fmt::format("field '{}'", name));
  return *card;
}

std::string_view phase_name(Phase p) {
  return p == Phase::kPass ? "pass" : p == Phase::kPlay ? "play" : "over";
}

Reply seats_array(const std::array<int, kNumPlayers>& v) { return Reply(v); }

}  // namespace

struct ServeSession::Impl {
  ServeOptions options;
  std::unique_ptr<engine::AnyEngine> engine;  // the bot, behind the one engine contract
  std::string bot_error;                      // why there is no engine
  std::optional<Observation> obs;

  explicit Impl(ServeOptions o) : options(std::move(o)) {
    engine::HeartsSetup setup;
    setup.bot = options.bot;
    setup.search = options.search;
    setup.rules = options.rules;
    setup.seed = options.seed;
    setup.telemetry = options.telemetry;
    auto e = engine::make_hearts_any_engine(setup);
    if (!e) {
      bot_error = e.error().message;
      return;
    }
    engine = std::move(*e);
  }

  // The engine's decision for the seat's view `o` (its settings' own budget).
  Result<engine::EngineReport> decide(const Observation& o) {
    if (auto ok = engine->set_position(hearts::view_text(o)); !ok)
      return tl::unexpected(ok.error());
    return engine->think({});
  }

  Result<Reply> dispatch(const std::string& cmd, const json& j, bool& quit);
  Result<Reply> new_deal(const json& j);
  Result<Reply> pass(const json& j);
  Result<Reply> receive(const json& j);
  Result<Reply> play(const json& j);
  Result<Reply> best();
  Result<Reply> state() const;
  // The seat that plays next, when known: before the first card it is the holder of 2C,
  // which we know only when it is us or the seat we passed it to.
  std::optional<int> to_play() const;
};

Result<Reply> ServeSession::Impl::dispatch(const std::string& cmd, const json& j, bool& quit) {
  if (cmd == "quit") {
    quit = true;
    return Reply{{"ok", true}};
  }
  if (cmd == "new_deal") return new_deal(j);
  if (cmd != "pass" && cmd != "receive" && cmd != "play" && cmd != "best" && cmd != "query" &&
      cmd != "state")
    return fail("unknown command '{}' (expected new_deal, pass, receive, play, best, state, quit)",
                excerpt(cmd));
  if (!obs) return fail("no hand dealt (send new_deal first)");
  if (cmd == "pass") return pass(j);
  if (cmd == "receive") return receive(j);
  if (cmd == "play") return play(j);
  if (cmd == "state") return state();
  return best();
}

Result<Reply> ServeSession::Impl::new_deal(const json& j) {
  const auto seat = int_field(j, "seat", 0, kNumPlayers - 1);
  if (!seat) return tl::unexpected(seat.error());
  const auto hand = cards_field(j, "hand");
  if (!hand) return tl::unexpected(hand.error());
  hearts::PassDir dir = hearts::PassDir::kNone;
  if (j.contains("pass")) {
    const auto text = string_field(j, "pass");
    if (!text) return tl::unexpected(text.error());
    const auto d = hearts::parse_pass_dir(*text);
    if (!d) return with_context(d.error(), "field 'pass'");
    dir = *d;
  }
  std::array<int, kNumPlayers> scores{};
  if (j.contains("scores")) {
    const json& s = j["scores"];
    if (!s.is_array() || s.size() != kNumPlayers)
      return fail("field 'scores' must be an array of 4 integers");
    for (int p = 0; p < kNumPlayers; ++p) {
      // Through int_field for the type and range check (a game score is far below 10^6).
      const auto v =
          int_field(json{{"scores", s[static_cast<std::size_t>(p)]}}, "scores", -1000000, 1000000);
      if (!v) return tl::unexpected(v.error());
      scores[static_cast<std::size_t>(p)] = static_cast<int>(*v);
    }
  }
  auto o = Observation::deal(static_cast<int>(*seat), *hand, dir, options.rules, scores);
  if (!o) return tl::unexpected(o.error());
  obs = std::move(*o);
  return Reply{{"ok", true}};
}

Result<Reply> ServeSession::Impl::pass(const json& j) {
  // Events are tried on a copy: a rejected one leaves the hand as it was.
  Observation trial = *obs;
  Reply reply{{"ok", true}};
  if (j.contains("cards")) {
    const auto cards = cards_field(j, "cards");
    if (!cards) return tl::unexpected(cards.error());
    if (auto r = trial.pass(*cards); !r) return tl::unexpected(r.error());
  } else {
    // Asked before the bot so that it only ever sees a hand in the passing.
    if (trial.phase() != Phase::kPass) return fail("no passing now");
    if (!trial.passed_out().empty()) return fail("cards already passed this hand");
    auto decided = decide(trial);
    if (!decided) return tl::unexpected(decided.error());
    auto cards = hearts::parse_cards(decided->move);  // three of the hand (the engine checks)
    if (!cards) return tl::unexpected(cards.error());
    if (auto r = trial.pass(*cards); !r) return tl::unexpected(r.error());
    reply["cards"] = hearts::to_string(*cards);
  }
  obs = trial;
  return reply;
}

Result<Reply> ServeSession::Impl::receive(const json& j) {
  const auto cards = cards_field(j, "cards");
  if (!cards) return tl::unexpected(cards.error());
  Observation trial = *obs;
  if (auto r = trial.receive(*cards); !r) return tl::unexpected(r.error());
  obs = trial;
  return Reply{{"ok", true}};
}

Result<Reply> ServeSession::Impl::play(const json& j) {
  const auto seat = int_field(j, "seat", 0, kNumPlayers - 1);
  if (!seat) return tl::unexpected(seat.error());
  const auto card = card_field(j, "card");
  if (!card) return tl::unexpected(card.error());
  Observation trial = *obs;
  if (auto r = trial.play(static_cast<int>(*seat), *card); !r) return tl::unexpected(r.error());
  obs = trial;
  Reply reply{{"ok", true}};
  const hearts::State& pub = obs->public_state();
  // A completed trick leaves the table empty with its winner to lead.
  if (pub.trick_size() == 0) reply["trick_winner"] = pub.leader();
  if (obs->phase() == Phase::kOver) {
    reply["hand_over"] = true;
    // Exact from the public play alone: scores depend only on the cards each seat took.
    reply["points"] = seats_array(pub.hand_scores());
  }
  return reply;
}

std::optional<int> ServeSession::Impl::to_play() const {
  if (obs->phase() != Phase::kPlay) return std::nullopt;
  const hearts::State& pub = obs->public_state();
  if (pub.num_plays() > 0) return obs->current_player();
  if (obs->hand().contains(hearts::kTwoOfClubs)) return obs->seat();
  if (obs->passed_out().contains(hearts::kTwoOfClubs))
    return hearts::pass_target(obs->seat(), pub.pass_dir());
  return std::nullopt;
}

Result<Reply> ServeSession::Impl::best() {
  if (obs->phase() == Phase::kPass) return fail("the passing is not finished");
  if (obs->phase() == Phase::kOver) return fail("the hand is over");
  const CardSet legal = obs->legal_set();
  if (legal.empty()) {
    const auto next = to_play();
    if (next) return fail("not our turn (seat {} is to play)", *next);
    return fail("not our turn (the holder of 2C leads)");
  }
  auto d = decide(*obs);  // a legal card (the engine falls back on the rule bot's)
  if (!d) return tl::unexpected(d.error());
  Reply moves = Reply::array();
  for (const auto& m : d->lines) {
    Reply e{{"card", m.move},
            {"utility", m.value},
            {"expected_points", m.expected},
            {"variance", m.variance}};
    for (const auto& mark : m.marks) e[mark] = true;  // prior, forced, moon
    if (!m.note.empty()) e["note"] = m.note;
    moves.push_back(std::move(e));
  }
  return Reply{{"ok", true},
               {"card", d->move},
               {"strategy", d->how},
               {"worlds", d->worlds},
               {"nodes", d->nodes},
               {"ms", d->time_ms},
               {"budget_exceeded", d->over_budget},
               {"moves", std::move(moves)}};
}

Result<Reply> ServeSession::Impl::state() const {
  const hearts::State& pub = obs->public_state();
  Reply trick = Reply::array();
  for (int i = 0; i < pub.trick_size(); ++i)
    trick.push_back(Reply{{"seat", (pub.leader() + i) % kNumPlayers},
                          {"card", hearts::to_string(pub.trick_card(i))}});
  std::array<int, kNumPlayers> points{};
  for (int p = 0; p < kNumPlayers; ++p) points[static_cast<std::size_t>(p)] = pub.raw_points(p);
  Reply reply{{"ok", true},
              {"seat", obs->seat()},
              {"phase", phase_name(obs->phase())},
              {"pass", hearts::to_string(pub.pass_dir())},
              {"hand", hearts::to_string(obs->hand())},
              {"passed", hearts::to_string(obs->passed_out())},
              {"received", hearts::to_string(obs->received())},
              {"trick", std::move(trick)},
              {"tricks_done", pub.tricks_done()},
              {"hearts_broken", pub.hearts_broken()},
              {"points", seats_array(points)}};
  const auto next = to_play();
  reply["to_play"] = next ? Reply(*next) : Reply(nullptr);
  if (obs->phase() == Phase::kPlay && !obs->legal_set().empty())
    reply["legal"] = hearts::to_string(obs->legal_set());
  return reply;
}

ServeSession::ServeSession(std::istream& in, std::ostream& out, ServeOptions options)
    : in_(in), out_(out), impl_(std::make_unique<Impl>(std::move(options))) {}

ServeSession::~ServeSession() = default;

int ServeSession::run() {
  if (!impl_->engine) {
    handle(R"({"cmd":"state"})");  // answers with the reason there is no bot
    return 2;
  }
  std::string line;
  while (std::getline(in_, line))
    if (!handle(line)) break;
  return 0;
}

bool ServeSession::handle(std::string_view line) {
  if (trim(line).empty()) return true;
  bool quit = false;
  Result<Reply> reply = Reply{{"ok", true}};
  try {
    if (!impl_->engine) {
      reply = fail("{}", impl_->bot_error);
    } else {
      const json j = json::parse(line);
      if (!j.is_object()) {
        reply = fail("not a JSON object");
      } else {
        const auto cmd = string_field(j, "cmd");
        if (cmd)
          reply = impl_->dispatch(*cmd, j, quit);
        else
          reply = tl::unexpected(cmd.error());
      }
    }
  } catch (const json::parse_error& e) {
    // "[json.exception.parse_error.101] parse error at ...": the bracketed id is noise.
    std::string_view what = e.what();
    if (const auto at = what.find("] "); at != std::string_view::npos) what.remove_prefix(at + 2);
    reply = fail("not JSON: {}", what);
  } catch (const std::exception& e) {
    reply = fail("internal error: {}", e.what());
  }
  const Reply out = reply ? *reply : Reply{{"ok", false}, {"error", reply.error().message}};
  // Error texts quote the input, which need not be UTF-8: replace rather than throw.
  out_ << out.dump(-1, ' ', false, Reply::error_handler_t::replace) << '\n' << std::flush;
  return !quit;
}

}  // namespace kibitz::jsonl
