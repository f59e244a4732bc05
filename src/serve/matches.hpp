#pragma once
// Matches a page watches live: a MatchFeed is the events of one `kibitz match` as it goes
// (each game begun and ended, with the tallies, Elo and SPRT so far) and its report at the
// end; the MatchStore keeps them, and runs the matches a page starts (in-process bots only:
// a web request never starts a program). `kibitz match --live` fills a feed of its own.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "games/registry.hpp"
#include "match/match.hpp"
#include "serve/sessions.hpp"

namespace kibitz::serve {

class MatchFeed {
 public:
  MatchFeed(std::string id, std::string title);
  const std::string& id() const { return id_; }

  // The update as the page reads it (JSON), appended for the readers.
  void update(const match::MatchUpdate& u);
  // The end: the report (report_json's), or why the match could not run.
  void finish(const std::string& report_json, const std::string& error = {});
  // The events after `after` ((sequence, JSON) pairs), waiting up to `wait` for one, and
  // whether the match has ended (no event will follow the ones returned).
  std::pair<std::vector<std::pair<std::uint64_t, std::string>>, bool> events(
      std::uint64_t after, std::chrono::milliseconds wait);
  std::string summary() const;  // {id, title, running, finished, scheduled}
  bool running() const {
    std::lock_guard lock(mu_);
    return !done_;
  }
  std::atomic<bool> stop{false};

 private:
  void push_locked(std::string event);

  const std::string id_;
  const std::string title_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<std::uint64_t, std::string>> events_;  // all of a match (bounded)
  std::uint64_t next_ = 1;
  bool done_ = false;
  int finished_ = 0, scheduled_ = 0;
};

struct MatchRequest {
  std::string game;
  std::vector<std::string> players;  // spec strings: bot=NAME and its options
  int games = 2;
  int concurrency = 1;
  match::MoveLimits limits;
  int board_size = 0;
  std::string rule;
  std::optional<std::pair<double, double>> sprt;
  int max_moves = 0;
};

class MatchStore {
 public:
  explicit MatchStore(const Registry& registry) : registry_(registry) {}
  ~MatchStore();  // stops every match it runs and waits for them
  MatchStore(const MatchStore&) = delete;
  MatchStore& operator=(const MatchStore&) = delete;

  // Checks the request (players, limits) and runs the match on a thread of its own.
  Reply<std::shared_ptr<MatchFeed>> start(const MatchRequest& request);
  // A feed that another owner fills (kibitz match --live).
  std::shared_ptr<MatchFeed> add(const std::string& title);
  std::shared_ptr<MatchFeed> find(const std::string& id) const;
  std::string list() const;  // the summaries, newest first (JSON array)

 private:
  std::string next_id();

  const Registry& registry_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<MatchFeed>> feeds_;
  std::vector<std::string> order_;  // ids, oldest first
  std::vector<std::thread> threads_;
  std::uint64_t counter_ = 0;
};

}  // namespace kibitz::serve
