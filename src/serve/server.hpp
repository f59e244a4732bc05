#pragma once
// `kibitz serve`: the web pages (compiled in, serve/assets.hpp) and the JSON API they use to
// play the registry's games against their engines (serve/sessions.hpp). docs/serve.md
// describes the API; every error is a 4xx or 5xx with {"error": "one line"}, and the server
// goes on serving.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "games/registry.hpp"
#include "serve/diplomacy_table.hpp"
#include "serve/matches.hpp"
#include "serve/sessions.hpp"

namespace kibitz::serve {

struct ServeOptions {
  std::string host = "127.0.0.1";  // loopback: only this machine's browsers
  int port = 8080;                 // 0: a free port (tests)
  int threads = 32;                // requests served at once
  std::size_t max_body = 64 * 1024;
  StoreLimits store;
};

class Server {
 public:
  Server(const Registry& registry, ServeOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds the address: the port bound, or why not.
  Result<int> bind();
  // Serves until stop() (from any thread, a signal handler's flag included via poll_stop).
  void run();
  void stop();
  SessionStore& store() { return store_; }
  MatchStore& matches() { return matches_; }
  DiplomacyStore& diplomacy() { return diplomacy_; }

 private:
  struct Impl;
  const Registry& registry_;
  ServeOptions options_;
  SessionStore store_;
  MatchStore matches_;
  DiplomacyStore diplomacy_;
  std::unique_ptr<Impl> impl_;
  std::atomic<int> streams_{0};
};

}  // namespace kibitz::serve
