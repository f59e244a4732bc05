// The Hearts JSON-lines session: a whole hand reported event by event from a known deal (the
// other seats' cards come from it, so every play is legal), the bot's pass and cards, the
// trick winners and the hand's points; bad lines get {"ok":false,...} and the session goes on.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "protocol/jsonl/hearts_serve.hpp"

namespace kibitz::jsonl {
namespace {

using hearts::Card;
using hearts::CardSet;
using hearts::State;
using nlohmann::json;

// A session fed one line at a time; each call returns the reply to that line.
class ServeHarness {
 public:
  explicit ServeHarness(ServeOptions o = serve_rule_options())
      : session_(in_, out_, std::move(o)) {}

  static ServeOptions serve_rule_options() {
    ServeOptions o;
    o.bot = "rule";
    return o;
  }

  json send(const std::string& line) {
    const std::size_t before = out_.str().size();
    alive_ = session_.handle(line);
    const std::string text = out_.str().substr(before);
    EXPECT_FALSE(text.empty()) << line;
    EXPECT_EQ(text.back(), '\n') << line;
    EXPECT_EQ(text.find('\n'), text.size() - 1) << "one reply line for " << line;
    return json::parse(text);
  }
  json send_json(const json& j) { return send(j.dump()); }
  bool alive() const { return alive_; }

 private:
  std::istringstream in_;
  std::ostringstream out_;
  ServeSession session_;
  bool alive_ = true;
};

void serve_expect_error(const json& r, const std::string& fragment) {
  EXPECT_EQ(r.value("ok", true), false) << r.dump();
  const std::string e = r.value("error", "");
  EXPECT_FALSE(e.empty()) << r.dump();
  EXPECT_NE(e.find(fragment), std::string::npos) << "'" << e << "' lacks '" << fragment << "'";
}

json serve_play(int seat, Card c) {
  return json{{"cmd", "play"}, {"seat", seat}, {"card", hearts::to_string(c)}};
}

// Plays a whole hand for seat `us` of the deal drawn from `seed`, through the session, checking
// every reply against a full State kept alongside. Returns the hand's points as reported.
std::array<int, 4> serve_whole_hand(ServeHarness& h, std::uint64_t seed, int us,
                                    hearts::PassDir dir, bool ask_best) {
  Rng rng(seed);
  State st(hearts::random_deal(rng), dir);
  const json deal{{"cmd", "new_deal"},
                  {"seat", us},
                  {"hand", hearts::to_string(st.hand(us))},
                  {"pass", std::string(hearts::to_string(dir))},
                  {"scores", {0, 0, 0, 0}}};
  EXPECT_EQ(h.send_json(deal), json({{"ok", true}}));
  if (st.phase() == hearts::Phase::kPass) {
    const json p = h.send(R"({"cmd":"pass"})");
    EXPECT_TRUE(p.value("ok", false)) << p.dump();
    const auto ours = hearts::parse_cards(p.value("cards", ""));
    EXPECT_TRUE(ours && ours->size() == 3 && (*ours - st.hand(us)).empty()) << p.dump();
    // The others pass their three lowest cards; picks go seat by seat from North.
    for (int s = 0; s < 4; ++s) {
      CardSet pass = s == us && ours ? *ours : CardSet{};
      for (CardSet rest = st.hand(s); s != us && pass.size() < 3;) pass.add(rest.pop_lowest());
      for (const Card c : pass) st.apply(c);
    }
    EXPECT_EQ(h.send_json(json{{"cmd", "receive"}, {"cards", hearts::to_string(st.received(us))}}),
              json({{"ok", true}}));
  }
  json last;
  while (!st.is_terminal()) {
    const int p = st.current_player();
    Card c = st.legal_set().lowest();
    if (p == us && ask_best) {
      const json b = h.send(R"({"cmd":"best"})");
      EXPECT_TRUE(b.value("ok", false)) << b.dump();
      const auto card = hearts::parse_card(b.value("card", ""));
      EXPECT_TRUE(card && st.is_legal(*card)) << b.dump();
      EXPECT_TRUE(b.contains("strategy") && b.contains("moves") && b["moves"].is_array());
      if (card && st.is_legal(*card)) c = *card;
    }
    st.apply(c);
    last = h.send_json(serve_play(p, c));
    EXPECT_TRUE(last.value("ok", false)) << last.dump() << " for seat " << p;
    if (st.trick_size() == 0)
      EXPECT_EQ(last.value("trick_winner", -1), st.leader()) << last.dump();
    else
      EXPECT_FALSE(last.contains("trick_winner")) << last.dump();
  }
  EXPECT_TRUE(last.value("hand_over", false)) << last.dump();
  std::array<int, 4> points{};
  if (last.contains("points")) points = last["points"].get<std::array<int, 4>>();
  EXPECT_EQ(points, st.hand_scores());
  return points;
}

TEST(HeartsServe, WholeHandWithPassingAndBest) {
  ServeHarness h;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto dir = static_cast<hearts::PassDir>(seed % 4);
    const auto points = serve_whole_hand(h, seed, static_cast<int>(seed % 4), dir, true);
    const int sum = std::accumulate(points.begin(), points.end(), 0);
    EXPECT_TRUE(sum == 26 || sum == 78) << sum;
  }
  EXPECT_TRUE(h.alive());
}

TEST(HeartsServe, SearchBotAnswersBest) {
  ServeOptions o;
  o.bot = "search";
  o.search.worlds = 4;
  o.search.time_budget_ms = 50;
  std::vector<std::string> telemetry;
  o.telemetry = [&](const std::string& line) { telemetry.push_back(line); };
  ServeHarness h(o);
  const auto points = serve_whole_hand(h, 11, 2, hearts::PassDir::kNone, true);
  const int sum = std::accumulate(points.begin(), points.end(), 0);
  EXPECT_TRUE(sum == 26 || sum == 78) << sum;
}

TEST(HeartsServe, BestMarksAMoveValuedUnderTheMoonPlan) {
  // West (seat 3) holds A♣ A♦ and the top spades and hearts; it wins the first trick.
  ServeOptions o;
  o.bot = "search";
  o.search.worlds = 64;
  o.search.time_budget_ms = 60000;
  ServeHarness h(o);
  h.send(R"({"cmd":"new_deal","seat":3,"hand":"AC AD 2D JS QS KS AS 9H TH JH QH KH AH"})");
  for (const char* line :
       {R"({"cmd":"play","seat":0,"card":"2C"})", R"({"cmd":"play","seat":1,"card":"3C"})",
        R"({"cmd":"play","seat":2,"card":"4C"})", R"({"cmd":"play","seat":3,"card":"AC"})"})
    ASSERT_EQ(h.send(line)["ok"], true) << line;
  const json best = h.send(R"({"cmd":"best"})");
  ASSERT_EQ(best["ok"], true) << best.dump();
  EXPECT_EQ(best["moves"][0].value("moon", false), true) << best.dump();
}

TEST(HeartsServe, StateReportsTheHand) {
  ServeHarness h;
  Rng rng(5);
  State st(hearts::random_deal(rng), hearts::PassDir::kNone);
  const int us = st.current_player();  // we hold 2C: we lead
  h.send_json(json{{"cmd", "new_deal"}, {"seat", us}, {"hand", hearts::to_string(st.hand(us))}});
  json s = h.send(R"({"cmd":"state"})");
  EXPECT_EQ(s["phase"], "play");
  EXPECT_EQ(s["to_play"], us);
  EXPECT_EQ(s["legal"], "2C");
  EXPECT_EQ(s["hearts_broken"], false);
  EXPECT_EQ(s["hand"], hearts::to_string(st.hand(us)));
  st.apply(hearts::kTwoOfClubs);
  h.send_json(serve_play(us, hearts::kTwoOfClubs));
  const Card next = st.legal_set().lowest();
  st.apply(next);
  h.send_json(serve_play((us + 1) % 4, next));
  s = h.send(R"({"cmd":"state"})");
  ASSERT_EQ(s["trick"].size(), 2u) << s.dump();
  EXPECT_EQ(s["trick"][0], json({{"seat", us}, {"card", "2C"}}));
  EXPECT_EQ(s["trick"][1]["seat"], (us + 1) % 4);
  EXPECT_EQ(s["to_play"], (us + 2) % 4);
  EXPECT_FALSE(s.contains("legal"));
  EXPECT_EQ(s["points"], json({0, 0, 0, 0}));
}

TEST(HeartsServe, BadInputIsAnsweredAndTheSessionGoesOn) {
  ServeHarness h;
  serve_expect_error(h.send("this is not json"), "not JSON");
  serve_expect_error(h.send("[1,2,3]"), "not a JSON object");
  serve_expect_error(h.send(R"({"command":"pass"})"), "missing field 'cmd'");
  serve_expect_error(h.send(R"({"cmd":7})"), "'cmd' must be a string");
  serve_expect_error(h.send(R"({"cmd":"frobnicate"})"), "unknown command 'frobnicate'");
  serve_expect_error(h.send(R"({"cmd":"best"})"), "no hand dealt");
  serve_expect_error(h.send(R"({"cmd":"new_deal","seat":2})"), "missing field 'hand'");
  serve_expect_error(h.send(R"({"cmd":"new_deal","seat":"2","hand":"2C"})"), "must be an integer");
  serve_expect_error(h.send(R"({"cmd":"new_deal","seat":9,"hand":"2C"})"), "out of range");
  serve_expect_error(h.send(R"({"cmd":"new_deal","seat":18446744073709551615,"hand":"2C"})"),
                     "out of range");
  serve_expect_error(h.send(R"({"cmd":"new_deal","seat":1,"hand":"2C 3C"})"), "13");
  serve_expect_error(h.send(R"({"cmd":"new_deal","seat":1,"hand":"2C ZZ"})"), "'hand'");
  serve_expect_error(h.send("{\"cmd\":\"x\xff\"}"), "");  // not UTF-8: still one JSON line

  Rng rng(3);
  State st(hearts::random_deal(rng), hearts::PassDir::kLeft);
  const int us = 1;
  const json deal{{"cmd", "new_deal"},
                  {"seat", us},
                  {"hand", hearts::to_string(st.hand(us))},
                  {"pass", "left"}};
  serve_expect_error(
      h.send_json(json{{"cmd", "new_deal"}, {"seat", us}, {"hand", "2C"}, {"pass", "up"}}),
      "pass direction");
  ASSERT_EQ(h.send_json(deal), json({{"ok", true}}));
  serve_expect_error(h.send(R"({"cmd":"best"})"), "passing is not finished");
  serve_expect_error(h.send_json(serve_play(0, hearts::kTwoOfClubs)), "passing is not finished");
  serve_expect_error(h.send(R"({"cmd":"receive","cards":"2C 3C 4C"})"), "pass 3 cards before");
  serve_expect_error(h.send(R"({"cmd":"pass","cards":"2C"})"), "");
  ASSERT_TRUE(h.send(R"({"cmd":"pass"})").value("ok", false));
  serve_expect_error(h.send(R"({"cmd":"pass"})"), "already passed");

  // Finish the passing in the full state as the session saw it.
  const auto mine = hearts::parse_cards(h.send(R"({"cmd":"state"})")["passed"].get<std::string>());
  ASSERT_TRUE(mine);
  for (int s = 0; s < 4; ++s) {
    CardSet pass = s == us ? *mine : CardSet{};
    for (CardSet rest = st.hand(s); s != us && pass.size() < 3;) pass.add(rest.pop_lowest());
    for (const Card c : pass) st.apply(c);
  }
  ASSERT_TRUE(h.send_json(json{{"cmd", "receive"}, {"cards", hearts::to_string(st.received(us))}})
                  .value("ok", false));

  // Play to a point where another seat is to play, then try the wrong things.
  while (st.current_player() == us || st.num_plays() == 0) {
    const int p = st.current_player();
    const Card c = st.legal_set().lowest();
    st.apply(c);
    ASSERT_TRUE(h.send_json(serve_play(p, c)).value("ok", false));
  }
  const int p = st.current_player();
  const CardSet ours = st.hand(us);
  serve_expect_error(h.send_json(serve_play(p, ours.lowest())), "in our hand");
  serve_expect_error(
      h.send_json(serve_play((p + 1) % 4 == us ? (p + 2) % 4 : (p + 1) % 4, st.hand(p).lowest())),
      "out of turn");
  serve_expect_error(h.send(R"({"cmd":"best"})"), "not our turn");
  serve_expect_error(h.send_json(json{{"cmd", "play"}, {"seat", p}, {"card", "1X"}}), "'card'");
  serve_expect_error(h.send_json(json{{"cmd", "play"}, {"seat", p}}), "missing field 'card'");
  serve_expect_error(h.send_json(serve_play(p, st.play(0))), "already played");
  // The session is still in step: the right play is accepted.
  const Card c = st.legal_set().lowest();
  st.apply(c);
  EXPECT_TRUE(h.send_json(serve_play(p, c)).value("ok", false));
  EXPECT_TRUE(h.alive());
}

TEST(HeartsServe, RunStopsAtQuitAndAtTheEndOfInput) {
  std::istringstream in(
      "{\"cmd\":\"state\"}\n\n   \nnonsense\r\n{\"cmd\":\"quit\"}\n{\"cmd\":\"state\"}\n");
  std::ostringstream out;
  ServeOptions o;
  o.bot = "rule";
  ServeSession s(in, out, o);
  EXPECT_EQ(s.run(), 0);
  std::istringstream lines(out.str());
  std::vector<json> replies;
  for (std::string line; std::getline(lines, line);) replies.push_back(json::parse(line));
  ASSERT_EQ(replies.size(), 3u) << out.str();
  EXPECT_EQ(replies[0]["ok"], false);
  EXPECT_EQ(replies[1]["ok"], false);
  EXPECT_EQ(replies[2], json({{"ok", true}}));

  std::istringstream empty("");
  std::ostringstream out2;
  ServeSession s2(empty, out2, o);
  EXPECT_EQ(s2.run(), 0);
  EXPECT_EQ(out2.str(), "");
}

TEST(HeartsServe, UnknownBotIsReported) {
  std::istringstream in("{\"cmd\":\"state\"}\n");
  std::ostringstream out;
  ServeOptions o;
  o.bot = "oracle";
  ServeSession s(in, out, o);
  EXPECT_EQ(s.run(), 2);
  const json r = json::parse(out.str());
  serve_expect_error(r, "oracle");
}

}  // namespace
}  // namespace kibitz::jsonl
