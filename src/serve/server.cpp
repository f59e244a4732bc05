#include "serve/server.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <nlohmann/json.hpp>

#include "serve/assets.hpp"

namespace kibitz::serve {

namespace {

using nlohmann::json;
constexpr auto kLongPoll = std::chrono::milliseconds(1000);
constexpr int kMaxStreams = 32;  // live views at once (each holds a thread)

void send_json(httplib::Response& res, int status, const std::string& body) {
  res.status = status;
  res.set_content(body, "application/json");
}

void send_error(httplib::Response& res, const RequestError& e) {
  send_json(res, e.status, json{{"error", e.message}}.dump());
}

// The request's body as a JSON object ({} when empty); an error says what is wrong with it.
Reply<json> body_object(const httplib::Request& req) {
  if (req.body.empty()) return json::object();
  json j = json::parse(req.body, nullptr, false);
  if (j.is_discarded()) return tl::unexpected(RequestError{400, "the body is not JSON"});
  if (!j.is_object()) return tl::unexpected(RequestError{400, "the body is not a JSON object"});
  return j;
}

// A field of the body with its type checked; `fallback` when absent.
template <class T>
Reply<T> field(const json& j, const char* name, T fallback) {
  if (!j.contains(name) || j[name].is_null()) return fallback;
  const json& v = j[name];
  if constexpr (std::is_same_v<T, bool>) {
    if (v.is_boolean()) return v.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (v.is_number_integer() || v.is_number_unsigned()) {
      if constexpr (std::is_unsigned_v<T>) {
        if (v.is_number_unsigned() || v.get<std::int64_t>() >= 0) return v.get<T>();
      } else {
        return v.get<T>();
      }
    }
  } else {
    if (v.is_string()) return v.get<std::string>();
  }
  return tl::unexpected(RequestError{400, fmt::format("'{}' has the wrong type", name)});
}

// The ?after=N of a long poll (0 when absent).
Reply<std::uint64_t> after_param(const httplib::Request& req) {
  std::uint64_t after = 0;
  if (!req.has_param("after")) return after;
  const std::string v = req.get_param_value("after");
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), after);
  if (ec != std::errc() || p != v.data() + v.size())
    return tl::unexpected(RequestError{400, "'after' is not a number"});
  return after;
}

// A parameter's value as the position text writes it (true / false, numbers, words).
std::string param_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

json games_json(const Registry& registry) {
  json out = json::array();
  for (const auto& g : registry.games()) {
    json params = json::array();
    for (const auto& p : g.position_params) params.push_back({{"name", p.name}, {"help", p.help}});
    out.push_back({{"name", g.name},
                   {"title", g.title},
                   {"summary", g.summary},
                   {"players", g.num_players},
                   {"params", params},
                   // Diplomacy's page plays over its own API (serve/diplomacy_table.hpp).
                   {"board", static_cast<bool>(g.web_view) || g.name == "diplomacy"},
                   {"hidden", g.hidden_information},
                   {"record", g.to_record ? g.records : ""},
                   {"engine", static_cast<bool>(g.engine)}});
  }
  return out;
}

}  // namespace

struct Server::Impl {
  httplib::Server http;
};

Server::Server(const Registry& registry, ServeOptions options)
    : registry_(registry),
      options_(std::move(options)),
      store_(registry, options_.store),
      matches_(registry),
      diplomacy_(options_.store),
      impl_(std::make_unique<Impl>()) {
  auto& http = impl_->http;
  const int threads = std::max(2, options_.threads);
  http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  http.set_payload_max_length(options_.max_body);
  http.set_read_timeout(10);
  http.set_write_timeout(10);
  http.set_keep_alive_max_count(1000);
  http.set_tcp_nodelay(true);  // a reply's header and body go at once, not 40 ms apart

  // Any status >= 400 without a body of ours (no route, a body too large) gets one line.
  http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string why = res.status == 404   ? fmt::format("no such page: {} {}", req.method, req.path)
                      : res.status == 413 ? std::string("the request is too large")
                                          : fmt::format("HTTP {}", res.status);
    res.set_content(json{{"error", why}}.dump(), "application/json");
  });
  http.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string why = "internal error";
        try {
          if (ep) std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          why = fmt::format("internal error: {}", e.what());
        } catch (...) {
        }
        send_json(res, 500, json{{"error", why}}.dump());
      });

  // The pages and their assets. Diplomacy's page first: /play/diplomacy would match play.html's
  // pattern too.
  std::vector<Asset> pages(assets().begin(), assets().end());
  std::stable_partition(pages.begin(), pages.end(),
                        [](const Asset& a) { return a.path == "/diplomacy.html"; });
  for (const Asset& a : pages) {
    const std::string path(a.path);
    const auto serve_asset = [a](const httplib::Request&, httplib::Response& res) {
      res.set_content(a.body.data(), a.body.size(), std::string(a.type).c_str());
      res.set_header("Cache-Control", "no-cache");
    };
    http.Get(path, serve_asset);
    if (path == "/index.html") http.Get("/", serve_asset);
    if (path == "/play.html") http.Get(R"(/play/([a-z]+))", serve_asset);
    if (path == "/match.html") http.Get("/match", serve_asset);
    if (path == "/diplomacy.html") http.Get("/play/diplomacy", serve_asset);
  }

  http.Get("/api/games", [this](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, games_json(registry_).dump());
  });

  http.Post("/api/sessions", [this](const httplib::Request& req, httplib::Response& res) {
    auto body = body_object(req);
    if (!body) return send_error(res, body.error());
    auto game = field<std::string>(*body, "game", "");
    auto position = field<std::string>(*body, "position", "");
    auto seat = field<int>(*body, "seat", -1);
    auto record = field<std::string>(*body, "record", "");
    if (!record) return send_error(res, record.error());
    if (!game) return send_error(res, game.error());
    if (!position) return send_error(res, position.error());
    if (!seat) return send_error(res, seat.error());
    if (game->empty()) return send_error(res, {400, "'game' is missing"});
    std::vector<std::pair<std::string, std::string>> params;
    if (body->contains("params") && !(*body)["params"].is_null()) {
      if (!(*body)["params"].is_object())
        return send_error(res, {400, "'params' is not an object"});
      for (const auto& [k, v] : (*body)["params"].items()) params.emplace_back(k, param_text(v));
    }
    ClockSetting clock;
    if (body->contains("clock") && !(*body)["clock"].is_null()) {
      const json& c = (*body)["clock"];
      auto base = c.is_object() ? field<std::int64_t>(c, "base_ms", 0) : Reply<std::int64_t>(0);
      auto inc = c.is_object() ? field<std::int64_t>(c, "increment_ms", 0) : Reply<std::int64_t>(0);
      if (!c.is_object() || !base || !inc || *base <= 0)
        return send_error(res, {400, "'clock' is {\"base_ms\": N, \"increment_ms\": N}"});
      clock = {*base, *inc};
    }
    std::string text = *position;
    if (!record->empty()) {
      // A record (PGN, SGF) read as the game's position text.
      const GameEntry* entry = registry_.find(*game);
      if (!entry || !entry->from_record)
        return send_error(res, {400, fmt::format("{}: no record is read here", *game)});
      if (!text.empty() || !params.empty())
        return send_error(res, {400, "give a record, a position or params, one of them"});
      auto read = entry->from_record(*record);
      if (!read) return send_error(res, {400, read.error().message});
      text = *read;
    }
    auto session = store_.create(*game, params, text, *seat, clock);
    if (!session) return send_error(res, session.error());
    send_json(res, 201, (*session)->view());
  });

  const std::string id = R"(/api/sessions/([0-9a-f]{32}))";
  http.Get(id, [this](const httplib::Request& req, httplib::Response& res) {
    auto s = store_.find(req.matches[1]);
    if (!s) return send_error(res, s.error());
    send_json(res, 200, (*s)->view());
  });
  http.Delete(id, [this](const httplib::Request& req, httplib::Response& res) {
    if (!store_.remove(req.matches[1]))
      return send_error(res, {404, "no such game (it ended, or the server made room)"});
    res.status = 204;
  });
  http.Post(id + "/move", [this](const httplib::Request& req, httplib::Response& res) {
    auto s = store_.find(req.matches[1]);
    if (!s) return send_error(res, s.error());
    auto body = body_object(req);
    if (!body) return send_error(res, body.error());
    auto move = field<std::string>(*body, "move", "");
    if (!move) return send_error(res, move.error());
    if (move->empty()) return send_error(res, {400, "'move' is missing"});
    auto view = (*s)->move(*move);
    if (!view) return send_error(res, view.error());
    send_json(res, 200, *view);
  });
  http.Get(id + "/record", [this](const httplib::Request& req, httplib::Response& res) {
    auto s = store_.find(req.matches[1]);
    if (!s) return send_error(res, s.error());
    auto r = (*s)->record();
    if (!r) return send_error(res, r.error());
    send_json(res, 200, *r);
  });
  http.Post(id + "/undo", [this](const httplib::Request& req, httplib::Response& res) {
    auto s = store_.find(req.matches[1]);
    if (!s) return send_error(res, s.error());
    auto body = body_object(req);
    if (!body) return send_error(res, body.error());
    auto plies = field<int>(*body, "plies", 1);
    if (!plies) return send_error(res, plies.error());
    auto view = (*s)->undo(*plies);
    if (!view) return send_error(res, view.error());
    send_json(res, 200, *view);
  });
  http.Post(id + "/think", [this](const httplib::Request& req, httplib::Response& res) {
    auto s = store_.find(req.matches[1]);
    if (!s) return send_error(res, s.error());
    auto body = body_object(req);
    if (!body) return send_error(res, body.error());
    ThinkRequest t;
    auto movetime = field<std::int64_t>(*body, "movetime_ms", 0);
    auto nodes = field<std::uint64_t>(*body, "nodes", 0);
    auto depth = field<int>(*body, "depth", 0);
    auto play = field<bool>(*body, "play", true);
    for (const RequestError* e :
         {movetime ? nullptr : &movetime.error(), nodes ? nullptr : &nodes.error(),
          depth ? nullptr : &depth.error(), play ? nullptr : &play.error()})
      if (e) return send_error(res, *e);
    t.movetime_ms = *movetime;
    t.nodes = *nodes;
    t.depth = *depth;
    t.play = *play;
    auto view = (*s)->think(t);
    if (!view) return send_error(res, view.error());
    send_json(res, 202, *view);
  });
  http.Post(id + "/stop", [this](const httplib::Request& req, httplib::Response& res) {
    auto s = store_.find(req.matches[1]);
    if (!s) return send_error(res, s.error());
    send_json(res, 200, (*s)->stop());
  });
  // --- matches watched live ------------------------------------------------------------
  http.Get("/api/matches", [this](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, matches_.list());
  });
  http.Post("/api/matches", [this](const httplib::Request& req, httplib::Response& res) {
    auto body = body_object(req);
    if (!body) return send_error(res, body.error());
    MatchRequest m;
    auto game = field<std::string>(*body, "game", "");
    auto games = field<int>(*body, "games", 2);
    auto concurrency = field<int>(*body, "concurrency", 1);
    auto movetime = field<std::int64_t>(*body, "movetime_ms", 0);
    auto nodes = field<std::uint64_t>(*body, "nodes", 0);
    auto depth = field<int>(*body, "depth", 0);
    auto size = field<int>(*body, "board_size", 0);
    auto rule = field<std::string>(*body, "rule", "");
    auto max_moves = field<int>(*body, "max_moves", 0);
    for (const RequestError* e :
         {game ? nullptr : &game.error(), games ? nullptr : &games.error(),
          concurrency ? nullptr : &concurrency.error(), movetime ? nullptr : &movetime.error(),
          nodes ? nullptr : &nodes.error(), depth ? nullptr : &depth.error(),
          size ? nullptr : &size.error(), rule ? nullptr : &rule.error(),
          max_moves ? nullptr : &max_moves.error()})
      if (e) return send_error(res, *e);
    if (movetime.value() < 0 || depth.value() < 0)
      return send_error(res, {400, "limits must not be negative"});
    m.game = *game;
    m.games = *games;
    m.concurrency = *concurrency;
    m.limits.movetime_ms = *movetime;
    m.limits.nodes = *nodes;
    m.limits.depth = *depth;
    m.board_size = *size;
    m.rule = *rule;
    m.max_moves = *max_moves;
    const json& players = (*body)["players"];
    if (!players.is_array()) return send_error(res, {400, "'players' is not a list of specs"});
    for (const auto& p : players) {
      if (!p.is_string()) return send_error(res, {400, "'players' is not a list of specs"});
      m.players.push_back(p.get<std::string>());
    }
    if (body->contains("sprt") && !(*body)["sprt"].is_null()) {
      const json& s = (*body)["sprt"];
      if (!s.is_array() || s.size() != 2 || !s[0].is_number() || !s[1].is_number())
        return send_error(res, {400, "'sprt' is [elo0, elo1]"});
      m.sprt = std::pair{s[0].get<double>(), s[1].get<double>()};
    }
    auto feed = matches_.start(m);
    if (!feed) return send_error(res, feed.error());
    send_json(res, 201, (*feed)->summary());
  });
  const std::string match_id = R"(/api/matches/(m[0-9]{1,9}))";
  http.Post(match_id + "/stop", [this](const httplib::Request& req, httplib::Response& res) {
    auto feed = matches_.find(req.matches[1]);
    if (!feed) return send_error(res, {404, "no such match"});
    feed->stop.store(true);
    send_json(res, 200, feed->summary());
  });
  // Long polling, as for a game.
  http.Get(match_id + "/events", [this](const httplib::Request& req, httplib::Response& res) {
    auto feed = matches_.find(req.matches[1]);
    if (!feed) return send_error(res, {404, "no such match"});
    const auto after = after_param(req);
    if (!after) return send_error(res, after.error());
    auto [events, done] = feed->events(*after, kLongPoll);
    json out = json::array();
    for (auto& [seq, text] : events) {
      json e = json::parse(text);
      e["seq"] = seq;
      out.push_back(std::move(e));
    }
    send_json(
        res, 200,
        json{{"events", out}, {"done", done}, {"match", json::parse(feed->summary())}}.dump());
  });
  // Server-sent events: every event from the start (or after Last-Event-ID), until the end.
  http.Get(match_id + "/stream", [this](const httplib::Request& req, httplib::Response& res) {
    auto feed = matches_.find(req.matches[1]);
    if (!feed) return send_error(res, {404, "no such match"});
    if (streams_.fetch_add(1) >= kMaxStreams) {
      streams_.fetch_sub(1);
      return send_error(res, {503, "too many live views at once"});
    }
    std::uint64_t after = 0;
    const std::string last = req.get_header_value("Last-Event-ID");
    std::from_chars(last.data(), last.data() + last.size(), after);
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream",
        [feed, after](std::size_t, httplib::DataSink& sink) mutable {
          auto [events, done] = feed->events(after, kLongPoll);
          for (const auto& [seq, text] : events) {
            after = seq;
            const std::string msg = fmt::format("id: {}\ndata: {}\n\n", seq, text);
            if (!sink.write(msg.data(), msg.size())) return false;
          }
          if (events.empty() && !done && !sink.write(": waiting\n\n", 11)) return false;
          if (done) sink.done();
          return true;
        },
        [this](bool) { streams_.fetch_sub(1); });
  });

  // --- Diplomacy: one power against six bots -------------------------------------------
  http.Post("/api/diplomacy", [this](const httplib::Request& req, httplib::Response& res) {
    auto body = body_object(req);
    if (!body) return send_error(res, body.error());
    DiplomacyRequest d;
    auto power = field<std::string>(*body, "power", "");
    auto bots = field<std::string>(*body, "bots", d.bots);
    auto movetime = field<std::int64_t>(*body, "movetime_ms", d.movetime_ms);
    auto seed = field<std::uint64_t>(*body, "seed", 0);
    auto max_year = field<int>(*body, "max_year", d.max_year);
    for (const RequestError* e :
         {power ? nullptr : &power.error(), bots ? nullptr : &bots.error(),
          movetime ? nullptr : &movetime.error(), seed ? nullptr : &seed.error(),
          max_year ? nullptr : &max_year.error()})
      if (e) return send_error(res, *e);
    if (power->empty()) return send_error(res, {400, "'power' is missing"});
    d.power = *power;
    d.bots = *bots;
    d.movetime_ms = *movetime;
    d.seed = *seed;
    d.max_year = *max_year;
    auto table = diplomacy_.create(d);
    if (!table) return send_error(res, table.error());
    send_json(res, 201, (*table)->view());
  });
  const std::string dip_id = R"(/api/diplomacy/([0-9a-f]{32}))";
  // ?after=VERSION: waits up to a second for a newer view (long polling).
  http.Get(dip_id, [this](const httplib::Request& req, httplib::Response& res) {
    auto t = diplomacy_.find(req.matches[1]);
    if (!t) return send_error(res, t.error());
    const auto after = after_param(req);
    if (!after) return send_error(res, after.error());
    send_json(res, 200, (*t)->view(*after, kLongPoll));
  });
  http.Delete(dip_id, [this](const httplib::Request& req, httplib::Response& res) {
    if (!diplomacy_.remove(req.matches[1]))
      return send_error(res, {404, "no such game (it ended, or the server made room)"});
    res.status = 204;
  });
  http.Post(dip_id + "/orders", [this](const httplib::Request& req, httplib::Response& res) {
    auto t = diplomacy_.find(req.matches[1]);
    if (!t) return send_error(res, t.error());
    auto body = body_object(req);
    if (!body) return send_error(res, body.error());
    std::vector<std::string> orders;
    const json& list = (*body)["orders"];
    if (!list.is_array()) return send_error(res, {400, "'orders' is not a list of orders"});
    for (const auto& o : list) {
      if (!o.is_string()) return send_error(res, {400, "'orders' is not a list of orders"});
      orders.push_back(o.get<std::string>());
    }
    auto view = (*t)->submit(orders);
    if (!view) return send_error(res, view.error());
    send_json(res, 202, *view);
  });
  http.Post(dip_id + "/suggest", [this](const httplib::Request& req, httplib::Response& res) {
    auto t = diplomacy_.find(req.matches[1]);
    if (!t) return send_error(res, t.error());
    auto view = (*t)->suggest();
    if (!view) return send_error(res, view.error());
    send_json(res, 202, *view);
  });
  http.Get(dip_id + "/record", [this](const httplib::Request& req, httplib::Response& res) {
    auto t = diplomacy_.find(req.matches[1]);
    if (!t) return send_error(res, t.error());
    send_json(res, 200, (*t)->record());
  });

  // Long polling: the events after ?after=N, waiting up to a second for one.
  http.Get(id + "/events", [this](const httplib::Request& req, httplib::Response& res) {
    auto s = store_.find(req.matches[1]);
    if (!s) return send_error(res, s.error());
    const auto after = after_param(req);
    if (!after) return send_error(res, after.error());
    send_json(res, 200, (*s)->events(*after, kLongPoll));
  });
}

Server::~Server() { stop(); }

Result<int> Server::bind() {
  auto& http = impl_->http;
  if (options_.port == 0) {
    const int port = http.bind_to_any_port(options_.host);
    if (port < 0) return fail("cannot listen on {} (any port)", options_.host);
    return port;
  }
  if (!http.bind_to_port(options_.host, options_.port))
    return fail("cannot listen on {}:{} (in use, or not an address of this machine)", options_.host,
                options_.port);
  return options_.port;
}

void Server::run() { impl_->http.listen_after_bind(); }

void Server::stop() {
  if (impl_) impl_->http.stop();
}

}  // namespace kibitz::serve
