#pragma once
// `kibitz serve`'s games in progress: one Session per game a page plays (a registry game's
// AnyState, the moves made here, and the game's engine, made when first asked to think),
// kept by a SessionStore that bounds how many exist and how many engines think at once.
// Everything a page reads is a view (JSON text) made under the session's lock.
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/any_state.hpp"
#include "core/error.hpp"
#include "engine/any_engine.hpp"
#include "games/registry.hpp"

namespace kibitz::serve {

// A failure a request causes, with the HTTP status it gets (400, 404, 409, 503).
struct RequestError {
  int status = 400;
  std::string message;
};
// A 400: the request itself is wrong.
inline RequestError bad_request(std::string message) { return {400, std::move(message)}; }
template <class T>
using Reply = tl::expected<T, RequestError>;

// What the engine is asked for: its limits (0: not given; none at all: 1 s) and whether its
// answer is played.
struct ThinkRequest {
  std::int64_t movetime_ms = 0;
  std::uint64_t nodes = 0;
  int depth = 0;
  bool play = true;
};

// A game's clocks: base_ms each (0: none), increment_ms after each move.
struct ClockSetting {
  std::int64_t base_ms = 0;
  std::int64_t increment_ms = 0;
};

class SessionStore;

class Session : public std::enable_shared_from_this<Session> {
 public:
  // viewer: the seat the page plays where the game hides information (-1: it sees all).
  Session(std::string id, const GameEntry& game, std::unique_ptr<AnyState> state, int viewer,
          SessionStore& store, ClockSetting clock = {});
  ~Session();  // stops the engine first: its callbacks touch this session
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::string& id() const { return id_; }
  const GameEntry& game() const { return game_; }

  std::string view();  // the game as the page draws it (docs/serve.md)
  Reply<std::string> move(const std::string& text);
  Reply<std::string> undo(int plies);
  // Thinks now when an engine slot is free, else waits its turn in the store's queue (the
  // view says "queued"); its time runs from when it starts.
  Reply<std::string> think(const ThinkRequest& request);
  std::string stop();  // a queued think is dropped; a running one answers at once
  // The game as its record: {"format": "PGN", "record": "..."}.
  Reply<std::string> record();
  // Given a slot (the store's queue): starts the think that waits, or returns false (no think
  // waits any more: it was stopped, or started already) and the slot is the caller's.
  bool begin_queued();
  // The events after `after` (engine reports, answers, moves), waiting up to `wait` for one;
  // with the view: {"events": [...], "view": {...}}.
  std::string events(std::uint64_t after, std::chrono::milliseconds wait);

 private:
  std::string view_locked() const;
  void push_event_locked(std::string json);
  // Starts the engine on the think that waits; false (and an event saying why) when it
  // cannot start.
  bool start_locked();
  void on_report(const engine::EngineReport& r, bool done, std::uint64_t generation, bool play);

  // The state hides what the viewer may not see (GameEntry::hidden_information).
  bool hides() const { return game_.hidden_information && viewer_ >= 0; }

  // The clocks. The side to move's runs from turn_began_; a move charges it the time since
  // and adds the increment. A side whose time runs out loses (flag()), whatever the position.
  bool clocked() const { return clock_.base_ms > 0; }
  std::int64_t running_ms() const;  // the time since turn_began_
  // The side whose time has run out, or -1 (none, no clocks, or the game over by the rules).
  int flag() const;
  // The time to_move used: charged, with the increment, when its move is made.
  void charge_locked(int mover);

  const std::string id_;
  const GameEntry& game_;
  const int viewer_;
  SessionStore& store_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::unique_ptr<AnyState> state_;
  std::vector<std::string> undo_;  // the position texts before each move made here
  std::uint64_t generation_ = 0;   // bumped by every change of the position
  bool thinking_ = false;          // queued or running
  bool queued_ = false;            // waiting for a slot
  engine::EngineLimits pending_;
  bool pending_play_ = true;
  int pending_mover_ = 0;                                     // the seat the think is for
  std::chrono::steady_clock::time_point asked_;               // when the think was asked for
  std::deque<std::pair<std::uint64_t, std::string>> events_;  // (sequence, JSON)
  std::uint64_t next_event_ = 1;
  ClockSetting clock_;
  std::array<std::int64_t, 2> left_ms_{};  // as of turn_began_
  std::chrono::steady_clock::time_point turn_began_;
  std::unique_ptr<engine::AnyEngine> engine_;  // last: made on the first think
};

struct StoreLimits {
  int max_sessions = 64;  // the least recently used session goes to make room
  int max_thinking = 2;   // engines thinking at once; more thinks wait their turn
  std::int64_t max_movetime_ms = 30'000;
};

class SessionStore {
 public:
  SessionStore(const Registry& registry, StoreLimits limits);
  ~SessionStore();
  // A new game: the registry's game with its parameters written at the head of the position
  // text (as load_game in Python), or a whole position text. A "seed" parameter not given
  // (Hearts' deal) is drawn at random. `seat`: the page's seat where the game hides
  // information (-1: the first).
  // `clock`: the clocks of a two-player game without hidden information.
  Reply<std::shared_ptr<Session>> create(
      const std::string& game, const std::vector<std::pair<std::string, std::string>>& params,
      const std::string& position, int seat = -1, ClockSetting clock = {});
  Reply<std::shared_ptr<Session>> find(const std::string& id);
  bool remove(const std::string& id);
  std::size_t size() const;
  const StoreLimits& limits() const { return limits_; }

  // The engines' slots: a think takes one now (true) or waits in line (false). A slot given
  // back goes to the next session in line: the one returned, which the caller (holding no
  // session's lock) starts with begin_queued(); none: the slot is free.
  bool take_or_wait(const std::shared_ptr<Session>& s);
  std::shared_ptr<Session> give_back();
  // Gives a slot back and starts whatever waits for it.
  void release_slot();

 private:
  std::uint64_t next_random();

  const Registry& registry_;
  StoreLimits limits_;
  mutable std::mutex mu_;
  std::map<std::string, std::pair<std::shared_ptr<Session>, std::uint64_t>> sessions_;  // use
  std::uint64_t clock_ = 0;
  std::uint64_t id_state_;
  mutable std::mutex slots_mu_;  // never held while taking a session's lock
  int running_ = 0;
  std::deque<std::weak_ptr<Session>> waiting_;
};

}  // namespace kibitz::serve
