#pragma once
// `kibitz serve`'s Diplomacy: one person plays a power against six bots on the standard map.
// Diplomacy has no AnyState (its phases are simultaneous), so a DiplomacyTable is its own kind
// of session: the person's orders are checked (check_order), the bots give theirs, the phase
// is resolved (PhaseResolver) and so on, phase after phase, until the person has something to
// order again or the game ends. The bots and the suggestion ("what would Kibitz order?", the
// RM+ search) run on a thread of the table's own, so a request never waits for them; a page
// polls the view. Every resolved phase is kept with its outcome (which orders succeeded, who
// was dislodged, the standoffs, builds and disbands) for the page to draw.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "engine/diplomacy_search.hpp"
#include "games/diplomacy/game.hpp"
#include "serve/sessions.hpp"

namespace kibitz::serve {

struct DiplomacyRequest {
  std::string power;               // the person's power (a name or abbreviation)
  std::string bots = "rm";         // the other six: rm, heuristic or random
  std::int64_t movetime_ms = 300;  // the rm bot's time per movement phase and power
  std::uint64_t seed = 0;          // 0: drawn at random
  int max_year = 1930;             // the game is a draw after this year's winter
};

class DiplomacyStore;

class DiplomacyTable : public std::enable_shared_from_this<DiplomacyTable> {
 public:
  DiplomacyTable(std::string id, const DiplomacyRequest& request, diplomacy::PowerId power,
                 DiplomacyStore& store);
  const std::string& id() const { return id_; }

  // The table as the page draws it (docs/serve.md). With `after`: waits up to `wait` for a
  // version newer than `after` first (long polling).
  std::string view(std::uint64_t after = 0,
                   std::chrono::milliseconds wait = std::chrono::milliseconds(0));
  // The person's orders for this phase (order texts); the bots then play on.
  Reply<std::string> submit(const std::vector<std::string>& orders);
  // What the RM+ search would order for the person's power (thinks movetime_ms).
  Reply<std::string> suggest();
  // The game so far as JSON lines' record (diplomacy play's format).
  std::string record();
  bool busy() const;

 private:
  enum class Job { kPlay, kSuggest };

  // Runs on the table's thread: the bots' orders and the phases until the person's turn.
  void work(Job job, std::vector<diplomacy::Order> orders);
  // Resolves the phase with the effective orders given; records its outcome (locked).
  void resolve_locked(const std::vector<diplomacy::Order>& effective);
  std::string view_locked() const;
  bool person_orders_locked() const;

  const std::string id_;
  const DiplomacyRequest request_;
  const diplomacy::PowerId power_;
  DiplomacyStore& store_;
  const diplomacy::Map& map_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  diplomacy::State state_;
  diplomacy::PhaseResolver resolver_;
  Rng rng_;
  std::vector<std::string> outcomes_;  // each resolved phase's outcome (JSON)
  std::vector<diplomacy::PhaseRecord> phases_;
  std::optional<diplomacy::PowerId> winner_;
  bool over_ = false;
  std::string end_;            // why the game ended
  std::string busy_;           // what the thread does ("" when idle)
  std::string suggestion_;     // the last suggestion (JSON), for this phase
  std::uint64_t version_ = 1;  // bumped by every change a page can see
  std::size_t seen_ = 0;       // outcomes_ shown as "last" (those since the person's orders)
  std::string error_;          // why the last job failed ("" when it did not)
  // Used by the table's thread only (one job at a time): the six powers' bot, and the RM+
  // search that answers suggest().
  std::unique_ptr<diplomacy::Bot> bot_;
  std::unique_ptr<diplomacy::RmBot> adviser_;
};

class DiplomacyStore {
 public:
  explicit DiplomacyStore(StoreLimits limits);
  ~DiplomacyStore();  // waits for the tables' threads
  DiplomacyStore(const DiplomacyStore&) = delete;
  DiplomacyStore& operator=(const DiplomacyStore&) = delete;

  Reply<std::shared_ptr<DiplomacyTable>> create(const DiplomacyRequest& request);
  Reply<std::shared_ptr<DiplomacyTable>> find(const std::string& id);
  bool remove(const std::string& id);
  const StoreLimits& limits() const { return limits_; }

  // A table's thread: counted so the store outlives it; thinking waits for one of the
  // store's max_thinking slots (shared with nothing else: the games' engines have theirs).
  void thread_begins();
  void thread_ends();
  void take_slot();
  void give_slot();
  bool stopping() const;

 private:
  StoreLimits limits_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::pair<std::shared_ptr<DiplomacyTable>, std::uint64_t>> tables_;
  std::uint64_t clock_ = 0;
  std::uint64_t id_state_;
  int threads_ = 0;
  int thinking_ = 0;
  bool stopping_ = false;
};

}  // namespace kibitz::serve
