// `kibitz serve` over HTTP on loopback: the pages are served, the API plays each board game
// to known ends (fool's mate, two passes, a renju double three), the engine answers, and bad
// requests get a 4xx with one line while the server goes on.
#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "games/registry.hpp"
#include "serve/server.hpp"

namespace kibitz::serve {
namespace {

using nlohmann::json;

class ServeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServeOptions o;
    o.port = 0;
    o.threads = 8;
    o.store.max_sessions = 4;
    o.store.max_thinking = 1;
    server_ = std::make_unique<Server>(builtin_registry(), o);
    auto port = server_->bind();
    ASSERT_TRUE(port) << port.error().message;
    thread_ = std::thread([this] { server_->run(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", *port);
    client_->set_read_timeout(10);
  }
  void TearDown() override {
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
  }

  // The status and the body as JSON (null when not JSON).
  std::pair<int, json> post(const std::string& path, const std::string& body) {
    auto r = client_->Post(path.c_str(), body, "application/json");
    if (!r) return {0, json()};
    return {r->status, json::parse(r->body, nullptr, false)};
  }
  std::pair<int, json> get(const std::string& path) {
    auto r = client_->Get(path.c_str());
    if (!r) return {0, json()};
    return {r->status, json::parse(r->body, nullptr, false)};
  }
  json new_game(const json& body) {
    auto [status, view] = post("/api/sessions", body.dump());
    EXPECT_EQ(status, 201) << view.dump();
    return view;
  }
  json move(const json& view, const std::string& m) {
    auto [status, next] =
        post("/api/sessions/" + view["id"].get<std::string>() + "/move", json{{"move", m}}.dump());
    EXPECT_EQ(status, 200) << m << ": " << next.dump();
    return next;
  }
  static void expect_one_line_error(const json& body) {
    ASSERT_TRUE(body.is_object() && body.contains("error")) << body.dump();
    const auto e = body["error"].get<std::string>();
    EXPECT_FALSE(e.empty());
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }

  std::unique_ptr<Server> server_;
  std::thread thread_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(ServeTest, ServesThePagesAndTheGames) {
  auto index = client_->Get("/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->status, 200);
  EXPECT_NE(index->body.find("Kibitz"), std::string::npos);
  EXPECT_NE(index->get_header_value("Content-Type").find("text/html"), std::string::npos);
  auto play = client_->Get("/play/gomoku");
  ASSERT_TRUE(play);
  EXPECT_EQ(play->status, 200);
  EXPECT_NE(play->body.find("/assets/app.js"), std::string::npos);
  for (const char* asset : {"/assets/app.js", "/assets/boards.js", "/assets/kibitz.css"}) {
    auto a = client_->Get(asset);
    ASSERT_TRUE(a) << asset;
    EXPECT_EQ(a->status, 200) << asset;
    EXPECT_GT(a->body.size(), 500u) << asset;
  }
  auto [status, games] = get("/api/games");
  ASSERT_EQ(status, 200);
  ASSERT_EQ(games.size(), builtin_registry().games().size());
  for (const auto& g : games) EXPECT_TRUE(g["board"].get<bool>()) << g.dump();  // a page each
}

TEST_F(ServeTest, ChessFoolsMate) {
  json v = new_game({{"game", "chess"}});
  EXPECT_EQ(v["legal"].size(), 20u);
  EXPECT_EQ(v["board"]["fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  for (const char* m : {"f2f3", "e7e5", "g2g4"}) v = move(v, m);
  v = move(v, "d8h4");
  EXPECT_TRUE(v["terminal"].get<bool>());
  EXPECT_EQ(v["returns"], json({-1.0, 1.0}));
  EXPECT_EQ(v["board"]["outcome"], "checkmate");
  EXPECT_TRUE(v["board"]["check"].get<bool>());
  EXPECT_EQ(v["board"]["last"], "d8h4");
  EXPECT_EQ(v["moves"], json({"f2f3", "e7e5", "g2g4", "d8h4"}));
  // The game as PGN, and back: the same game from its record.
  auto [rs, record] = get("/api/sessions/" + v["id"].get<std::string>() + "/record");
  ASSERT_EQ(rs, 200);
  EXPECT_EQ(record["format"], "PGN");
  const std::string pgn = record["record"];
  EXPECT_NE(pgn.find("1. f3 e5 2. g4 Qh4#"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("0-1"), std::string::npos) << pgn;
  json back_from_pgn = new_game({{"game", "chess"}, {"record", pgn}});
  EXPECT_EQ(back_from_pgn["moves"], v["moves"]);
  EXPECT_TRUE(back_from_pgn["terminal"].get<bool>());
  auto [bad_status, bad_pgn] =
      post("/api/sessions", R"({"game": "chess", "record": "1. e4 e5 2. Ke3"})");
  EXPECT_EQ(bad_status, 400);
  expect_one_line_error(bad_pgn);
  // Undo takes back the mate.
  auto [status, back] = post("/api/sessions/" + v["id"].get<std::string>() + "/undo", "{}");
  ASSERT_EQ(status, 200);
  EXPECT_FALSE(back["terminal"].get<bool>());
  EXPECT_EQ(back["moves"].size(), 3u);
}

TEST_F(ServeTest, GoTwoPassesAndCaptures) {
  json v = new_game({{"game", "go"}, {"params", {{"size", 9}, {"komi", 6.5}}}});
  EXPECT_EQ(v["board"]["size"], 9);
  EXPECT_EQ(v["legal"].size(), 82u);  // 81 points and pass
  // White's stone at A1 captured by B1 and A2.
  for (const char* m : {"B1", "A1", "A2"}) v = move(v, m);
  EXPECT_EQ(v["board"]["captured"], json({1, 0}));
  EXPECT_EQ(v["board"]["stones"].size(), 2u);
  v = move(v, "pass");
  v = move(v, "pass");
  EXPECT_TRUE(v["terminal"].get<bool>());
  // As SGF and back.
  auto [rs, record] = get("/api/sessions/" + v["id"].get<std::string>() + "/record");
  ASSERT_EQ(rs, 200);
  const std::string sgf = record["record"];
  EXPECT_NE(sgf.find("SZ[9]"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find(";B[bi];W[ai];B[ah];W[];B[]"), std::string::npos) << sgf;
  json back = new_game({{"game", "go"}, {"record", sgf}});
  EXPECT_EQ(back["board"]["stones"], v["board"]["stones"]);
  EXPECT_TRUE(back["terminal"].get<bool>());
  // Black's two stones own the whole empty board: 81 - 6.5.
  EXPECT_DOUBLE_EQ(v["board"]["score"].get<double>(), 81 - 6.5);
  EXPECT_EQ(v["returns"], json({1.0, -1.0}));
}

TEST_F(ServeTest, RenjuDoubleThreeIsShownForbidden) {
  json v = new_game({{"game", "gomoku"}, {"params", {{"rule", "renju"}}}});
  for (const char* m : {"h8", "a1", "i8", "a3", "j9", "a5", "j10", "a7"}) v = move(v, m);
  // j8 makes two free threes for black (h8 i8 j8 and j8 j9 j10): forbidden under renju.
  bool found = false;
  for (const auto& p : v["board"]["forbidden"]) found |= p == json({9, 7});
  EXPECT_TRUE(found) << v["board"].dump();
  auto [status, body] =
      post("/api/sessions/" + v["id"].get<std::string>() + "/move", json{{"move", "j8"}}.dump());
  EXPECT_EQ(status, 400);
  expect_one_line_error(body);
}

TEST_F(ServeTest, TheEngineAnswersAndPlays) {
  json v = new_game({{"game", "gomoku"}});
  v = move(v, "h8");
  const std::string id = v["id"];
  auto [status, thinking] = post("/api/sessions/" + id + "/think", R"({"movetime_ms": 100})");
  ASSERT_EQ(status, 202) << thinking.dump();
  EXPECT_TRUE(thinking["thinking"].get<bool>());
  // A second think, or a move, while it thinks: 409.
  EXPECT_EQ(post("/api/sessions/" + id + "/think", "{}").first, 409);
  EXPECT_EQ(post("/api/sessions/" + id + "/move", R"({"move": "a1"})").first, 409);
  std::uint64_t after = 0;
  json answer;
  for (int i = 0; i < 20 && answer.is_null(); ++i) {
    auto [s, events] = get("/api/sessions/" + id + "/events?after=" + std::to_string(after));
    ASSERT_EQ(s, 200);
    for (const auto& e : events["events"]) {
      after = e["seq"];
      if (e["type"] == "answer") answer = e;
    }
  }
  ASSERT_FALSE(answer.is_null());
  EXPECT_TRUE(answer["played"].get<bool>());
  auto [s, now] = get("/api/sessions/" + id);
  EXPECT_EQ(now["moves"].size(), 2u);
  EXPECT_EQ(now["moves"][1], answer["move"]);
  EXPECT_FALSE(now["thinking"].get<bool>());
}

TEST_F(ServeTest, ThinksBeyondTheSlotsWaitTheirTurn) {
  // One engine slot: the second game's think waits for the first's answer, then runs with its
  // own full time; a third, stopped while it waits, never runs.
  json a = move(new_game({{"game", "gomoku"}}), "h8");
  json b = move(new_game({{"game", "gomoku"}}), "h8");
  json c = move(new_game({{"game", "gomoku"}}), "h8");
  const std::string think = R"({"movetime_ms": 150})";
  const auto path = [](const json& v, const std::string& what) {
    return "/api/sessions/" + v["id"].get<std::string>() + what;
  };
  auto [sa, va] = post(path(a, "/think"), think);
  auto [sb, vb] = post(path(b, "/think"), think);
  auto [sc, vc] = post(path(c, "/think"), think);
  ASSERT_EQ(sa, 202);
  ASSERT_EQ(sb, 202);
  ASSERT_EQ(sc, 202);
  EXPECT_FALSE(va["queued"].get<bool>());
  EXPECT_TRUE(vb["queued"].get<bool>());
  EXPECT_TRUE(vb["thinking"].get<bool>());
  auto [stopped_status, stopped] = post(path(c, "/stop"), "");
  EXPECT_EQ(stopped_status, 200);
  EXPECT_FALSE(stopped["thinking"].get<bool>());
  // b's events: its move, queued, its think after a wait, reports, its answer.
  std::vector<json> events;
  for (int i = 0; i < 20; ++i) {
    const int after = events.empty() ? 0 : events.back()["seq"].get<int>();
    auto [s, e] = get(path(b, "/events?after=" + std::to_string(after)));
    ASSERT_EQ(s, 200);
    for (const auto& x : e["events"]) events.push_back(x);
    if (!events.empty() && events.back()["type"] == "answer") break;
  }
  ASSERT_GE(events.size(), 4u);
  EXPECT_EQ(events[1]["type"], "queued");
  EXPECT_EQ(events.back()["type"], "answer");
  json started;
  for (const auto& e : events)
    if (e["type"] == "think") started = e;
  ASSERT_FALSE(started.is_null());
  EXPECT_GE(started["waited_ms"].get<int>(), 100);  // a's 150 ms, less the clock's slack
  EXPECT_TRUE(events.back()["played"].get<bool>());
  EXPECT_EQ(get(path(a, "")).second["moves"].size(), 2u);
  EXPECT_EQ(get(path(c, "")).second["moves"].size(), 1u);  // c's think never ran
}

TEST_F(ServeTest, HeartsShowsTheSeatOnlyItsOwnCards) {
  // Seat 2 (South) of the shared deal seed 3: North, then East pick their passes first.
  json v = new_game({{"game", "hearts"}, {"seat", 2}, {"params", {{"seed", 3}}}});
  EXPECT_EQ(v["viewer"], 2);
  EXPECT_EQ(v["to_move"], 0);
  EXPECT_TRUE(v["legal"].empty());  // North's turn: its cards are not the page's to see
  EXPECT_TRUE(v["moves"].empty());
  EXPECT_EQ(v["text"], "view S left hand 3C 6C 4D 8D QD 5S 6S 9S QS KS 2H JH AH");
  for (int seat = 0; seat < 4; ++seat) {
    EXPECT_EQ(v["board"]["seats"][seat]["cards"], 13);
    EXPECT_EQ(v["board"]["seats"][seat].contains("hand"), seat == 2) << seat;
  }
  const std::string id = v["id"];
  auto [status, refused] = post("/api/sessions/" + id + "/move", R"({"move": "4C"})");
  EXPECT_EQ(status, 409);  // North's card, even a real one
  expect_one_line_error(refused);
  // The engine picks for North: the page learns that it answered, not what or why.
  ASSERT_EQ(post("/api/sessions/" + id + "/think", R"({"movetime_ms": 50})").first, 202);
  json answer;
  std::uint64_t after = 0;
  for (int i = 0; i < 20 && answer.is_null(); ++i) {
    const json events =
        get("/api/sessions/" + id + "/events?after=" + std::to_string(after)).second["events"];
    for (const auto& e : events) {
      after = e["seq"];
      EXPECT_NE(e["type"], "info");
      if (e["type"] == "answer") answer = e;
    }
  }
  ASSERT_FALSE(answer.is_null());
  EXPECT_TRUE(answer["played"].get<bool>());
  EXPECT_FALSE(answer.contains("move"));
  EXPECT_FALSE(answer.contains("lines"));
  EXPECT_FALSE(answer.contains("pv"));
  auto [s, now] = get("/api/sessions/" + id);
  EXPECT_EQ(now["board"]["seats"][0].contains("passed"), false);
  EXPECT_EQ(now["board"]["seats"][0]["cards"], 12);  // North picked a card to pass
  // A seat outside the table.
  EXPECT_EQ(post("/api/sessions", R"({"game": "hearts", "seat": 4})").first, 400);
}

TEST_F(ServeTest, AMatchStreamsItsGamesToTheEnd) {
  auto [status, m] = post("/api/matches", R"({"game": "gomoku", "players": ["bot=alphabeta",
      "bot=random"], "games": 4, "depth": 2})");
  ASSERT_EQ(status, 201) << m.dump();
  // Server-sent events, read to the end of the match.
  std::string stream;
  auto r = client_->Get(("/api/matches/" + m["id"].get<std::string>() + "/stream").c_str(),
                        [&](const char* data, std::size_t n) {
                          stream.append(data, n);
                          return true;
                        });
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/event-stream");
  std::vector<json> events;
  for (std::size_t at = 0; (at = stream.find("data: ", at)) != std::string::npos;) {
    const auto end = stream.find('\n', at);
    events.push_back(json::parse(stream.substr(at + 6, end - at - 6)));
    at = end;
  }
  int begun = 0, ended = 0;
  for (const auto& e : events) {
    begun += e["type"] == "begin";
    ended += e["type"] == "end";
  }
  EXPECT_EQ(begun, 4);
  EXPECT_EQ(ended, 4);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back()["type"], "done");
  // The alpha-beta bot beats the random one in every game.
  EXPECT_EQ(events.back()["report"]["pairings"][0]["wins"], 4);
  // A page never starts a program, and the rest of the request is checked.
  for (const char* body :
       {R"({"game": "chess", "players": ["cmd=/bin/sh", "bot=random"], "movetime_ms": 5})",
        R"({"game": "chess", "players": ["bot=kibitz"], "movetime_ms": 5})",
        R"({"game": "chess", "players": ["bot=kibitz", "bot=random"]})",
        R"({"game": "chess", "players": ["bot=nosuch", "bot=random"], "movetime_ms": 5})",
        R"({"game": "chess", "players": "bot=kibitz", "movetime_ms": 5})",
        R"({"game": "chess", "players": ["bot=kibitz", "bot=random"], "games": 0, "nodes": 5})"}) {
    auto [s, e] = post("/api/matches", body);
    EXPECT_EQ(s, 400) << body;
    expect_one_line_error(e);
  }
  EXPECT_EQ(get("/api/matches/m999/events").first, 404);
}

TEST_F(ServeTest, BadRequestsGetOneLineAndTheServerGoesOn) {
  const json v = new_game({{"game", "chess"}});
  const std::string id = v["id"];
  const std::pair<std::string, std::string> cases[] = {
      {"/api/sessions", "{not json"},
      {"/api/sessions", "[1, 2]"},
      {"/api/sessions", R"({"game": 7})"},
      {"/api/sessions", R"({"game": "checkers"})"},
      {"/api/sessions", R"({"game": "go", "params": {"size": 42}})"},
      {"/api/sessions", R"({"game": "go", "params": {"colour": "black"}})"},
      {"/api/sessions", R"({"game": "chess", "position": "not a fen"})"},
      {"/api/sessions/" + id + "/move", R"({"move": "e2e5"})"},
      {"/api/sessions/" + id + "/move", R"({})"},
      {"/api/sessions/" + id + "/undo", R"({"plies": 3})"},
      {"/api/sessions/" + id + "/think", R"({"movetime_ms": -5})"},
      {"/api/sessions/" + id + "/think", R"({"movetime_ms": 99999999})"},
      {"/api/sessions/" + id + "/think", R"({"play": "yes"})"},
      {"/api/sessions/00000000000000000000000000000000/move", R"({"move": "e2e4"})"},
  };
  for (const auto& [path, body] : cases) {
    auto [status, reply] = post(path, body);
    EXPECT_GE(status, 400) << path << " " << body;
    EXPECT_LT(status, 500) << path << " " << body;
    expect_one_line_error(reply);
  }
  EXPECT_EQ(post("/api/sessions", R"({"game": "checkers"})").first, 404);
  // A body over the limit, an unknown page, a malformed query.
  auto [big, big_reply] = post("/api/sessions", std::string(200 * 1024, ' '));
  EXPECT_EQ(big, 413);
  expect_one_line_error(big_reply);
  auto [none, none_reply] = get("/no/such/page");
  EXPECT_EQ(none, 404);
  expect_one_line_error(none_reply);
  EXPECT_EQ(get("/api/sessions/" + id + "/events?after=x").first, 400);
  // Still serving, the game untouched.
  auto [status, same] = get("/api/sessions/" + id);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(same["text"], v["text"]);
}

TEST_F(ServeTest, AFlagFallsAndLoses) {
  json v = new_game({{"game", "chess"}, {"clock", {{"base_ms", 300}, {"increment_ms", 0}}}});
  ASSERT_TRUE(v["clock"].is_object()) << v.dump();
  EXPECT_EQ(v["clock"]["running"], 0);
  v = move(v, "e2e4");  // at once: White has time left
  EXPECT_EQ(v["clock"]["running"], 1);
  EXPECT_GT(v["clock"]["left_ms"][0].get<int>(), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  // Black's 300 ms ran out: the game is lost on time, and moves are refused.
  auto [status, over] = get("/api/sessions/" + v["id"].get<std::string>());
  ASSERT_EQ(status, 200);
  EXPECT_EQ(over["terminal"], true);
  EXPECT_EQ(over["clock"]["flagged"], 1);
  EXPECT_EQ(over["clock"]["left_ms"][1], 0);
  EXPECT_EQ(over["returns"], json::array({1.0, -1.0}));
  EXPECT_TRUE(over["legal"].empty());
  auto [late, why] =
      post("/api/sessions/" + v["id"].get<std::string>() + "/move", json{{"move", "e7e5"}}.dump());
  EXPECT_EQ(late, 409);
  expect_one_line_error(why);
  // Clocks only where they mean something, and only sensible ones.
  for (const char* body : {R"({"game": "hearts", "clock": {"base_ms": 60000}})",
                           R"({"game": "chess", "clock": {"base_ms": 10}})",
                           R"({"game": "chess", "clock": {"base_ms": 60000, "increment_ms": -1}})",
                           R"({"game": "chess", "clock": 60000})"}) {
    auto [bad, reply] = post("/api/sessions", body);
    EXPECT_EQ(bad, 400) << body;
    expect_one_line_error(reply);
  }
}

TEST_F(ServeTest, TheEngineMovesOnItsClock) {
  // 20 s and 1 s a move: the engine's time manager spends a small part of it, and its clock is
  // charged what it used, plus the increment.
  json v = new_game({{"game", "chess"}, {"clock", {{"base_ms", 20000}, {"increment_ms", 1000}}}});
  v = move(v, "e2e4");
  EXPECT_GT(v["clock"]["left_ms"][0].get<int>(), 20000);  // the increment
  auto [status, thinking] = post("/api/sessions/" + v["id"].get<std::string>() + "/think", "{}");
  ASSERT_EQ(status, 202) << thinking.dump();
  json view = thinking;
  std::uint64_t after = 0;
  for (int i = 0; i < 30 && view["thinking"] == true; ++i) {
    auto [s, events] = get("/api/sessions/" + v["id"].get<std::string>() +
                           "/events?after=" + std::to_string(after));
    ASSERT_EQ(s, 200);
    for (const auto& e : events["events"]) after = std::max(after, e["seq"].get<std::uint64_t>());
    view = events["view"];
  }
  ASSERT_EQ(view["moves"].size(), 2u) << view.dump();
  const int black = view["clock"]["left_ms"][1];
  EXPECT_LT(black, 21000);
  EXPECT_GT(black, 20000 + 1000 - 20000 / 5);  // no more than a fifth of the clock on move one
  EXPECT_EQ(view["clock"]["running"], 0);
  EXPECT_EQ(view["terminal"], false);
}

TEST_F(ServeTest, OldGamesMakeRoom) {
  // max_sessions is 4: the fifth game sends the least recently used one away.
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(new_game({{"game", "gomoku"}})["id"]);
  EXPECT_EQ(get("/api/sessions/" + ids[0]).first, 404);
  for (int i = 1; i < 5; ++i) EXPECT_EQ(get("/api/sessions/" + ids[i]).first, 200);
  EXPECT_EQ(server_->store().size(), 4u);
  auto r = client_->Delete(("/api/sessions/" + ids[1]).c_str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 204);
  EXPECT_EQ(server_->store().size(), 3u);
}

// --- Diplomacy: one power against six bots ------------------------------------------------

class DiplomacyServeTest : public ServeTest {
 protected:
  json table(const json& body) {
    auto [status, view] = post("/api/diplomacy", body.dump());
    EXPECT_EQ(status, 201) << view.dump();
    return view;
  }
  json wait(json view) {
    for (int i = 0; i < 200 && !view["busy"].get<std::string>().empty(); ++i) {
      auto [status, next] = get("/api/diplomacy/" + view["id"].get<std::string>() +
                                "?after=" + std::to_string(view["version"].get<int>()));
      EXPECT_EQ(status, 200);
      view = next;
    }
    EXPECT_EQ(view["busy"], "") << "the bots did not finish";
    EXPECT_EQ(view["error"], "");
    return view;
  }
  json orders(const json& view, const json& list) {
    auto [status, next] = post("/api/diplomacy/" + view["id"].get<std::string>() + "/orders",
                               json{{"orders", list}}.dump());
    EXPECT_EQ(status, 202) << list.dump() << ": " << next.dump();
    return wait(next);
  }
  static bool has_unit(const json& view, const std::string& power, const std::string& type,
                       const std::string& loc) {
    for (const auto& u : view["units"])
      if (u["power"] == power && u["type"] == type && u["loc"] == loc) return true;
    return false;
  }
  static const json* outcome(const json& view, const std::string& phase) {
    for (const auto& p : view["last"])
      if (p["phase"] == phase) return &p;
    return nullptr;
  }
};

TEST_F(DiplomacyServeTest, FranceTakesBurgundyAndPortugal) {
  json v = table({{"power", "France"}, {"bots", "heuristic"}, {"seed", 3}});
  EXPECT_EQ(v["phase"], "S1901M");
  EXPECT_EQ(v["to_order"], true);
  EXPECT_EQ(v["units"].size(), 22u);
  EXPECT_EQ(v["centres"]["Russia"], 4);
  // Each French unit's legal orders, hold first.
  ASSERT_EQ(v["choices"].size(), 3u);
  EXPECT_EQ(v["choices"]["par"][0], "A PAR H");
  EXPECT_NE(
      std::find(v["choices"]["mar"].begin(), v["choices"]["mar"].end(), "A MAR S A PAR - BUR"),
      v["choices"]["mar"].end());
  // Spring 1901: only Munich can contest Burgundy, and nothing can reach the Mid-Atlantic, so
  // by the rules both French moves succeed whatever the bots order.
  v = orders(v, {"A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"});
  EXPECT_EQ(v["phase"], "F1901M");
  EXPECT_TRUE(has_unit(v, "France", "A", "bur"));
  EXPECT_TRUE(has_unit(v, "France", "F", "mao"));
  const json* spring = outcome(v, "S1901M");
  ASSERT_NE(spring, nullptr);
  int french = 0;
  for (const auto& o : (*spring)["orders"])
    if (o["power"] == "France") {
      ++french;
      EXPECT_TRUE(o["ok"].get<bool>()) << o.dump();
    }
  EXPECT_EQ(french, 3);
  EXPECT_EQ((*spring)["orders"].size(), 22u);  // every unit's order, the bots' too
  // Fall 1901: Portugal borders only the Mid-Atlantic and an empty Spain: the fleet takes it,
  // and the centre is France's when the fall ends.
  v = orders(v, {"F MAO - POR", "A BUR H", "A MAR S A BUR"});
  for (int guard = 0; guard < 4 && v["to_order"] == true && v["phase"] == "F1901R"; ++guard)
    v = orders(v, json::array());  // a dislodged unit without orders disbands
  EXPECT_EQ(v["owners"]["por"], "France");
  EXPECT_TRUE(v["phase"] == "W1901A" || v["phase"] == "S1902M") << v["phase"];
  if (v["phase"] == "W1901A") {
    // The adjustment is the centres France owns minus its units, by the view itself.
    int centres = 0, units = 0;
    for (const auto& [prov, owner] : v["owners"].items()) centres += owner == "France";
    for (const auto& u : v["units"]) units += u["power"] == "France";
    EXPECT_EQ(v["adjust"]["count"], centres - units);
    ASSERT_GT(v["adjust"]["orders_needed"].get<int>(), 0);
    // Builds only in French home centres France owns and nobody stands in.
    for (const auto& o : v["adjust"]["orders"]) {
      const std::string t = o;
      if (t == "WAIVE") continue;
      std::string prov = t.substr(2, 3);
      for (auto& c : prov) c = static_cast<char>(std::tolower(c));
      EXPECT_TRUE(prov == "par" || prov == "mar" || prov == "bre") << t;
      EXPECT_EQ(v["owners"][prov], "France") << t;
      for (const auto& u : v["units"]) EXPECT_NE(u["loc"].get<std::string>().substr(0, 3), prov);
    }
    const int before = units;
    v = orders(v, json::array({v["adjust"]["orders"][0]}));
    EXPECT_EQ(v["phase"], "S1902M");
    int after = 0;
    for (const auto& u : v["units"]) after += u["power"] == "France";
    EXPECT_EQ(after, before + (v["last"][0]["orders"][0]["order"] == "WAIVE" ? 0 : 1));
  }
  // The record: every phase played, in diplomacy play's JSON.
  auto [status, rec] = get("/api/diplomacy/" + v["id"].get<std::string>() + "/record");
  ASSERT_EQ(status, 200);
  const json record = json::parse(rec["record"].get<std::string>());
  EXPECT_EQ(record["phases"][0]["phase"], "S1901M");
  EXPECT_EQ(record["phases"][0]["orders"]["France"][0], "A PAR - BUR");
}

TEST_F(DiplomacyServeTest, TheSuggestionIsLegalAndExplained) {
  json v = table({{"power", "Turkey"}, {"bots", "random"}, {"movetime_ms", 100}, {"seed", 9}});
  auto [status, busy] = post("/api/diplomacy/" + v["id"].get<std::string>() + "/suggest", "{}");
  ASSERT_EQ(status, 202) << busy.dump();
  v = wait(busy);
  const json& s = v["suggestion"];
  ASSERT_TRUE(s.is_object()) << v.dump();
  ASSERT_EQ(s["orders"].size(), 3u);
  for (const auto& o : s["orders"]) {
    bool listed = false;
    for (const auto& [prov, list] : v["choices"].items())
      listed |= std::find(list.begin(), list.end(), o) != list.end();
    EXPECT_TRUE(listed) << o;
  }
  ASSERT_FALSE(s["candidates"].empty());
  double total = 0;
  for (const auto& c : s["candidates"]) total += c["p"].get<double>();
  EXPECT_LE(total, 1.0 + 1e-9);
  EXPECT_GT(s["iterations"].get<int>(), 0);
  // The suggestion is only advice: the phase has not moved.
  EXPECT_EQ(v["phase"], "S1901M");
  EXPECT_EQ(v["to_order"], true);
}

TEST_F(DiplomacyServeTest, TheServerStopsWhileTheBotsThink) {
  // The rm bots think 200 ms each: the server stops in the middle, waits for the table's
  // thread, and nothing is left touching a freed table (the ASan run checks).
  const json v = table({{"power", "Italy"}, {"bots", "rm"}, {"movetime_ms", 200}});
  auto [status, busy] = post("/api/diplomacy/" + v["id"].get<std::string>() + "/orders",
                             R"({"orders": ["A VEN H"]})");
  ASSERT_EQ(status, 202) << busy.dump();
  EXPECT_NE(busy["busy"], "");
  // A second submission while the bots think is refused.
  auto [again, why] =
      post("/api/diplomacy/" + v["id"].get<std::string>() + "/orders", R"({"orders": []})");
  EXPECT_EQ(again, 409);
  expect_one_line_error(why);
  TearDown();
  server_.reset();
}

TEST_F(DiplomacyServeTest, BadOrdersGetOneLineAndTheGameGoesOn) {
  const json v = table({{"power", "England"}, {"bots", "heuristic"}});
  const std::string id = v["id"];
  const std::pair<std::string, std::string> cases[] = {
      {"/api/diplomacy", R"({})"},
      {"/api/diplomacy", R"({"power": "Spain"})"},
      {"/api/diplomacy", R"({"power": "England", "bots": "genius"})"},
      {"/api/diplomacy", R"({"power": "England", "movetime_ms": 1})"},
      {"/api/diplomacy", R"({"power": "England", "max_year": 1800})"},
      {"/api/diplomacy", R"({"power": 3})"},
      {"/api/diplomacy/" + id + "/orders", R"({"orders": "F LON - NTH"})"},
      {"/api/diplomacy/" + id + "/orders", R"({"orders": [7]})"},
      {"/api/diplomacy/" + id + "/orders", R"({"orders": ["F LON - XYZ"]})"},
      {"/api/diplomacy/" + id + "/orders", R"({"orders": ["F LON - BUR"]})"},
      {"/api/diplomacy/" + id + "/orders", R"({"orders": ["A PAR - BUR"]})"},
      {"/api/diplomacy/" + id + "/orders", R"({"orders": ["France: A PAR H"]})"},
      {"/api/diplomacy/" + id + "/orders", R"({"orders": ["F LON H", "F LON - NTH"]})"},
      {"/api/diplomacy/" + id + "/orders", "{not json"},
      {"/api/diplomacy/00000000000000000000000000000000/orders", R"({"orders": []})"},
  };
  for (const auto& [path, body] : cases) {
    auto [status, reply] = post(path, body);
    EXPECT_GE(status, 400) << path << " " << body;
    EXPECT_LT(status, 500) << path << " " << body;
    expect_one_line_error(reply);
  }
  // Nothing was played: still spring, England to order.
  auto [status, same] = get("/api/diplomacy/" + id);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(same["phase"], "S1901M");
  EXPECT_EQ(same["to_order"], true);
  EXPECT_EQ(same["phases"], 0);
  // The page is served, and the games list offers it.
  auto page = client_->Get("/play/diplomacy");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("diplomacy.js"), std::string::npos);
  auto [gs, games] = get("/api/games");
  EXPECT_EQ(gs, 200);
  bool listed = false;
  for (const auto& g : games) listed |= g["name"] == "diplomacy" && g["board"] == true;
  EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace kibitz::serve
