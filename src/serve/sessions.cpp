#include "serve/sessions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>

namespace kibitz::serve {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxEvents = 256;  // kept per session for pages that poll late
constexpr std::int64_t kDefaultMovetimeMs = 1000;
constexpr std::int64_t kReportEveryMs = 200;
constexpr int kHashMb = 16;

json report_json(const engine::EngineReport& r) {
  json j = {{"move", r.move},
            {"pv", r.pv},
            {"score", r.score},
            {"decided", r.decided},
            {"depth", r.depth},
            {"nodes", r.nodes},
            {"time_ms", r.time_ms},
            {"how", r.how},
            {"playouts", r.playouts},
            {"worlds", r.worlds},
            {"uncertainty", r.uncertainty}};
  json lines = json::array();
  for (const auto& l : r.lines) {
    if (lines.size() == 24) break;  // the candidates a page shows
    lines.push_back({{"move", l.move},
                     {"visits", l.visits},
                     {"value", l.value},
                     {"prior", l.prior},
                     {"pv", l.pv},
                     {"expected", l.expected},
                     {"variance", l.variance},
                     {"marks", l.marks},
                     {"note", l.note}});
  }
  j["lines"] = lines;
  return j;
}

}  // namespace

Session::Session(std::string id, const GameEntry& game, std::unique_ptr<AnyState> state, int viewer,
                 SessionStore& store, ClockSetting clock)
    : id_(std::move(id)),
      game_(game),
      viewer_(viewer),
      store_(store),
      state_(std::move(state)),
      clock_(clock),
      left_ms_{clock.base_ms, clock.base_ms},
      turn_began_(std::chrono::steady_clock::now()) {}

std::int64_t Session::running_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               turn_began_)
      .count();
}

int Session::flag() const {
  if (!clocked() || state_->is_terminal()) return -1;
  const int mover = state_->current_player();
  if (mover < 0 || mover > 1) return -1;
  return left_ms_[mover] - running_ms() <= 0 ? mover : -1;
}

void Session::charge_locked(int mover) {
  if (clocked() && mover >= 0 && mover <= 1)
    left_ms_[mover] =
        std::max<std::int64_t>(0, left_ms_[mover] - running_ms()) + clock_.increment_ms;
  turn_began_ = std::chrono::steady_clock::now();
}

Session::~Session() {
  // The engine's thread calls back into this session: it ends before anything else goes.
  std::unique_ptr<engine::AnyEngine> engine;
  {
    std::lock_guard lock(mu_);
    engine = std::move(engine_);
  }
  if (engine) engine->stop();
  engine.reset();
}

std::string Session::view_locked() const {
  json j;
  j["id"] = id_;
  j["game"] = game_.name;
  j["title"] = game_.title;
  j["players"] = game_.num_players;
  // Where the game hides information, the viewer's own: its seat's text, its moves in its
  // turn, no move list (the board has what was played in public).
  const bool hidden = hides();
  const std::string full = state_->serialize();
  j["viewer"] = viewer_;
  j["text"] = hidden ? state_->information_state_string(viewer_) : full;
  j["position"] = hidden ? j["text"].get<std::string>() : state_->to_string();
  j["to_move"] = state_->current_player();
  const int flagged = flag();
  j["terminal"] = state_->is_terminal() || flagged >= 0;
  if (flagged >= 0) {
    // Lost on time: the flag falls whatever the position.
    std::vector<double> r(2, 1.0);
    r[static_cast<std::size_t>(flagged)] = -1.0;
    j["returns"] = r;
  } else {
    j["returns"] = state_->is_terminal() ? json(state_->returns()) : json(nullptr);
  }
  if (clocked()) {
    const bool runs = !state_->is_terminal() && flagged < 0;
    std::array<std::int64_t, 2> left = left_ms_;
    if (runs) {
      auto& mine = left[static_cast<std::size_t>(state_->current_player())];
      mine = std::max<std::int64_t>(0, mine - running_ms());
    }
    if (flagged >= 0) left[static_cast<std::size_t>(flagged)] = 0;
    j["clock"] = {{"base_ms", clock_.base_ms},
                  {"increment_ms", clock_.increment_ms},
                  {"left_ms", left},
                  {"running", runs ? state_->current_player() : -1},
                  {"flagged", flagged}};
  } else {
    j["clock"] = nullptr;
  }
  const bool may_see_moves =
      !state_->is_terminal() && (!hidden || state_->current_player() == viewer_);
  j["legal"] = may_see_moves && flagged < 0 ? state_->legal_moves() : std::vector<std::string>{};
  std::vector<std::string> moves;
  if (!hidden)
    for (const int a : state_->history()) {
      auto t = state_->action_to_string(a);
      moves.push_back(t ? *t : "?");
    }
  j["moves"] = moves;
  j["undo"] = undo_.size();
  j["thinking"] = thinking_;
  j["queued"] = queued_;
  j["events"] = next_event_ - 1;
  if (game_.web_view) {
    auto board = game_.web_view(full, viewer_);
    j["board"] = board ? json::parse(*board) : json(nullptr);
  }
  return j.dump();
}

std::string Session::view() {
  std::lock_guard lock(mu_);
  return view_locked();
}

void Session::push_event_locked(std::string event) {
  events_.emplace_back(next_event_++, std::move(event));
  while (events_.size() > kMaxEvents) events_.pop_front();
  cv_.notify_all();
}

Reply<std::string> Session::move(const std::string& text) {
  std::lock_guard lock(mu_);
  if (thinking_) return tl::unexpected(RequestError{409, "the engine is thinking (stop it first)"});
  // Another seat's move would show, by what the rules refuse, what that seat holds.
  if (hides() && !state_->is_terminal() && state_->current_player() != viewer_)
    return tl::unexpected(RequestError{409, "not your turn: the engine plays that seat"});
  if (const int f = flag(); f >= 0)
    return tl::unexpected(
        RequestError{409, fmt::format("the game is over: player {}'s time ran out", f)});
  std::string before = state_->serialize();
  const int mover = state_->current_player();
  if (auto ok = state_->apply(text); !ok) return tl::unexpected(bad_request(ok.error().message));
  charge_locked(mover);
  undo_.push_back(std::move(before));
  ++generation_;
  push_event_locked(json{{"type", "move"}, {"move", text}, {"by", "page"}}.dump());
  return view_locked();
}

Reply<std::string> Session::undo(int plies) {
  std::lock_guard lock(mu_);
  if (thinking_) return tl::unexpected(RequestError{409, "the engine is thinking (stop it first)"});
  if (plies < 1 || static_cast<std::size_t>(plies) > undo_.size())
    return tl::unexpected(
        bad_request(fmt::format("undo: {} moves made here, not {}", undo_.size(), plies)));
  if (const int f = flag(); f >= 0)
    return tl::unexpected(
        RequestError{409, fmt::format("the game is over: player {}'s time ran out", f)});
  const std::string text = undo_[undo_.size() - static_cast<std::size_t>(plies)];
  auto s = game_.new_state(text);
  if (!s) return tl::unexpected(RequestError{500, s.error().message});
  // The side to move pays for the time it took to ask; the clocks then run from here.
  if (const int mover = state_->current_player(); clocked() && mover >= 0 && mover <= 1)
    left_ms_[mover] = std::max<std::int64_t>(1, left_ms_[mover] - running_ms());
  turn_began_ = std::chrono::steady_clock::now();
  state_ = std::move(*s);
  undo_.resize(undo_.size() - static_cast<std::size_t>(plies));
  ++generation_;
  push_event_locked(json{{"type", "undo"}, {"plies", plies}}.dump());
  return view_locked();
}

Reply<std::string> Session::think(const ThinkRequest& request) {
  std::unique_lock lock(mu_);
  if (!game_.engine) return tl::unexpected(bad_request(game_.name + " has no engine"));
  if (thinking_) return tl::unexpected(RequestError{409, "the engine is thinking already"});
  if (state_->is_terminal() || flag() >= 0) return tl::unexpected(bad_request("the game is over"));
  const auto cap = store_.limits().max_movetime_ms;
  if (request.movetime_ms < 0 || request.movetime_ms > cap)
    return tl::unexpected(bad_request(fmt::format("movetime_ms: 0 to {}", cap)));
  if (request.depth < 0 || request.depth > 64) return tl::unexpected(bad_request("depth: 0 to 64"));
  pending_ = {};
  pending_.movetime_ms = request.movetime_ms;
  pending_.nodes = request.nodes;
  pending_.depth = request.depth;
  const int mover = state_->current_player();
  if (clocked() && request.play && !request.movetime_ms && !request.nodes && !request.depth) {
    // On the clock: the engine's own time manager spends the mover's time (the time in line
    // for a free engine is the mover's too), within the server's cap.
    pending_.clock_ms =
        std::max<std::int64_t>(1, left_ms_[static_cast<std::size_t>(mover)] - running_ms());
    pending_.increment_ms = clock_.increment_ms;
    pending_.move_cap_ms = cap;
  } else if (!pending_.movetime_ms) {
    // A node or depth limit alone still ends within the server's time cap.
    pending_.movetime_ms = (pending_.nodes || pending_.depth) ? cap : kDefaultMovetimeMs;
  }
  pending_.interval_ms = kReportEveryMs;
  pending_play_ = request.play;
  pending_mover_ = mover;
  asked_ = std::chrono::steady_clock::now();
  thinking_ = true;
  queued_ = true;
  if (!store_.take_or_wait(shared_from_this())) {
    push_event_locked(json{{"type", "queued"}, {"movetime_ms", pending_.movetime_ms}}.dump());
    return view_locked();
  }
  if (!start_locked()) {
    lock.unlock();
    store_.release_slot();
    return tl::unexpected(RequestError{500, "the engine did not start"});
  }
  return view_locked();
}

bool Session::begin_queued() {
  std::lock_guard lock(mu_);
  return queued_ && start_locked();
}

bool Session::start_locked() {
  queued_ = false;
  if (!engine_) {
    engine_ = game_.engine();
    // A page's engine is one of many: a small table (the engines' default is for a match).
    for (const auto& o : engine_->options())
      if (o.name == "Hash") (void)engine_->set_option("Hash", std::to_string(kHashMb));
  }
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - asked_)
                          .count();
  const std::uint64_t generation = generation_;
  const bool play = pending_play_;
  auto ok = engine_->set_position(state_->serialize());
  if (ok) {
    // The callbacks run on the engine's thread; the session outlives them (~Session).
    ok = engine_->go(
        pending_,
        [this, generation, play](const engine::EngineReport& r) {
          on_report(r, false, generation, play);
        },
        [this, generation, play](const engine::EngineReport& r) {
          on_report(r, true, generation, play);
        });
  }
  if (!ok) {
    thinking_ = false;
    push_event_locked(json{{"type", "answer"}, {"error", ok.error().message}}.dump());
    return false;
  }
  push_event_locked(
      json{{"type", "think"}, {"movetime_ms", pending_.movetime_ms}, {"waited_ms", waited}}.dump());
  return true;
}

void Session::on_report(const engine::EngineReport& r, bool done, std::uint64_t generation,
                        bool play) {
  {
    std::lock_guard lock(mu_);
    // Another seat's thought shows its hand: only that it answered reaches the page.
    const bool private_report = hides() && pending_mover_ != viewer_;
    if (private_report && !done) return;
    json event = private_report ? json{{"time_ms", r.time_ms}} : report_json(r);
    event["type"] = done ? "answer" : "info";
    if (done) {
      thinking_ = false;
      // Played only on the position it was asked about, and only a move the rules take.
      if (play && generation == generation_ && !r.move.empty() && !state_->is_terminal()) {
        std::string before = state_->serialize();
        const int mover = state_->current_player();
        if (flag() >= 0) {
          event["error"] = "its time ran out";
        } else if (auto ok = state_->apply(r.move); ok) {
          charge_locked(mover);
          undo_.push_back(std::move(before));
          ++generation_;
          event["played"] = true;
        } else {
          event["error"] = ok.error().message;
        }
      }
    }
    push_event_locked(event.dump());
  }
  // The slot goes on to the next think in line, with no session's lock held.
  if (done) store_.release_slot();
}

std::string Session::stop() {
  engine::AnyEngine* engine = nullptr;
  {
    std::lock_guard lock(mu_);
    if (queued_) {
      // Its place in line is left to lapse: begin_queued() finds nothing to start.
      queued_ = false;
      thinking_ = false;
      push_event_locked(json{{"type", "answer"}, {"error", "stopped before it began"}}.dump());
      return view_locked();
    }
    if (thinking_) engine = engine_.get();
  }
  // Outside the lock: the answer it forces takes the lock on the engine's thread. The engine
  // itself lives as long as the session, which the caller holds.
  if (engine) engine->stop();
  return view();
}

Reply<std::string> Session::record() {
  std::lock_guard lock(mu_);
  if (!game_.to_record)
    return tl::unexpected(bad_request(game_.title + " has no record format here"));
  auto r = game_.to_record(state_->serialize());
  if (!r) return tl::unexpected(RequestError{500, r.error().message});
  return json{{"format", game_.records}, {"record", *r}}.dump();
}

std::string Session::events(std::uint64_t after, std::chrono::milliseconds wait) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, wait, [&] { return next_event_ - 1 > after; });
  json out = json::array();
  for (const auto& [seq, text] : events_)
    if (seq > after) {
      json e = json::parse(text);
      e["seq"] = seq;
      out.push_back(std::move(e));
    }
  return json{{"events", out}, {"view", json::parse(view_locked())}}.dump();
}

// --- the store ---------------------------------------------------------------------------

SessionStore::SessionStore(const Registry& registry, StoreLimits limits)
    : registry_(registry), limits_(limits), id_state_(std::random_device{}()) {
  id_state_ = (id_state_ << 32) ^ std::random_device{}();
}

SessionStore::~SessionStore() {
  std::lock_guard lock(mu_);
  sessions_.clear();
}

Reply<std::shared_ptr<Session>> SessionStore::create(
    const std::string& game, const std::vector<std::pair<std::string, std::string>>& params,
    const std::string& position, int seat, ClockSetting clock) {
  const GameEntry* entry = registry_.find(game);
  if (!entry)
    return tl::unexpected(
        RequestError{404, fmt::format("unknown game '{}' ({})", game, registry_.names())});
  if (!entry->new_state)
    return tl::unexpected(bad_request(fmt::format("{} has no board page yet", entry->title)));
  if (clock.base_ms != 0 || clock.increment_ms != 0) {
    if (entry->num_players != 2 || entry->hidden_information)
      return tl::unexpected(
          bad_request(fmt::format("{} is not played on a clock here", entry->title)));
    if (clock.base_ms < 100 || clock.base_ms > 3 * 3600 * 1000)
      return tl::unexpected(bad_request("clock base_ms: 100 to 10800000"));
    if (clock.increment_ms < 0 || clock.increment_ms > 600 * 1000)
      return tl::unexpected(bad_request("clock increment_ms: 0 to 600000"));
  }
  int viewer = -1;
  if (entry->hidden_information) {
    viewer = seat < 0 ? 0 : seat;
    if (viewer >= entry->num_players)
      return tl::unexpected(bad_request(
          fmt::format("seat {}: {} has seats 0 to {}", seat, game, entry->num_players - 1)));
  }
  std::string text = position;
  std::vector<std::pair<std::string, std::string>> given = params;
  // A seed not given (the deal) is drawn here, so that each new game differs.
  if (position.empty()) {
    bool seeded = false;
    for (const auto& [name, value] : given) seeded |= name == "seed";
    for (const auto& p : entry->position_params)
      if (p.name == "seed" && !seeded) {
        std::lock_guard lock(mu_);
        given.emplace_back("seed", std::to_string(next_random() % 1'000'000'000));
      }
  }
  if (!given.empty()) {
    if (!position.empty())
      return tl::unexpected(bad_request("give params or a position, not both"));
    // The parameters in the order the text takes them (GameEntry::position_params).
    for (const auto& [name, value] : given) {
      bool known = false;
      for (const auto& p : entry->position_params) known |= p.name == name;
      if (!known)
        return tl::unexpected(bad_request(fmt::format("{}: unknown parameter '{}'", game, name)));
    }
    for (const auto& p : entry->position_params)
      for (const auto& [name, value] : given)
        if (name == p.name) {
          std::string word = p.format;
          word.replace(word.find("{}"), 2, value);
          text += (text.empty() ? "" : " ") + word;
        }
  }
  auto state = entry->new_state(text);
  if (!state) return tl::unexpected(bad_request(state.error().message));
  std::vector<std::shared_ptr<Session>> evicted;  // destroyed after the lock (engines stop)
  std::lock_guard lock(mu_);
  // Room: the least recently used session goes (its engine stopped).
  while (static_cast<int>(sessions_.size()) >= limits_.max_sessions && !sessions_.empty()) {
    auto oldest = sessions_.begin();
    for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
      if (it->second.second < oldest->second.second) oldest = it;
    evicted.push_back(std::move(oldest->second.first));
    sessions_.erase(oldest);
  }
  const std::string id = fmt::format("{:016x}{:016x}", next_random(), next_random());
  auto session = std::make_shared<Session>(id, *entry, std::move(*state), viewer, *this, clock);
  sessions_[id] = {session, ++clock_};
  return session;
}

// Ids nobody can guess from another's, and seeds (splitmix64 over a random seed); mu_ held.
std::uint64_t SessionStore::next_random() {
  std::uint64_t z = (id_state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Reply<std::shared_ptr<Session>> SessionStore::find(const std::string& id) {
  std::lock_guard lock(mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end())
    return tl::unexpected(RequestError{404, "no such game (it ended, or the server made room)"});
  it->second.second = ++clock_;
  return it->second.first;
}

bool SessionStore::remove(const std::string& id) {
  std::shared_ptr<Session> gone;  // destroyed outside the lock (it waits for its engine)
  std::lock_guard lock(mu_);
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return false;
  gone = std::move(it->second.first);
  sessions_.erase(it);
  return true;
}

std::size_t SessionStore::size() const {
  std::lock_guard lock(mu_);
  return sessions_.size();
}

bool SessionStore::take_or_wait(const std::shared_ptr<Session>& s) {
  std::lock_guard lock(slots_mu_);
  if (running_ < limits_.max_thinking) {
    ++running_;
    return true;
  }
  waiting_.push_back(s);
  return false;
}

std::shared_ptr<Session> SessionStore::give_back() {
  std::lock_guard lock(slots_mu_);
  while (!waiting_.empty()) {
    auto next = waiting_.front().lock();
    waiting_.pop_front();
    if (next) return next;  // the slot passes to it
  }
  --running_;
  return nullptr;
}

void SessionStore::release_slot() {
  // A session that no longer waits hands the slot straight on.
  for (auto next = give_back(); next; next = give_back())
    if (next->begin_queued()) return;
}

}  // namespace kibitz::serve
