#include "protocol/gomocup/gomocup.hpp"
#include "core/text.hpp"

#include <fmt/format.h>

#include <charconv>
#include <istream>
#include <ostream>

#include "core/log.hpp"
#include "core/time_budget.hpp"

namespace kibitz::gomocup {

namespace {

constexpr std::int64_t kDefaultMoveMs = 450;  // the seed's budget
constexpr std::int64_t kSafetyMs = 60;        // kept back from every limit the manager gives

bool parse_int(std::string_view s, std::int64_t& v) {
  s = trim(s);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

// "x,y" (or "x,y,field" with want == 3) -> numbers.
bool parse_numbers(std::string_view s, std::vector<std::int64_t>& out, std::size_t want) {
  out.clear();
  while (true) {
    const auto comma = s.find(',');
    std::int64_t v = 0;
    if (!parse_int(s.substr(0, comma), v)) return false;
    out.push_back(v);
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out.size() == want;
}

// The position text of stones played alternately from black, the first `setup` of them
// placed without an order ("b:h8 w:h9"), the rest as moves.
std::string text_of(const gomoku::Variant& v, const std::vector<std::pair<int, int>>& stones,
                    std::size_t setup) {
  std::string text = fmt::format("{} {}", gomoku::rule_name(v.rule), v.size);
  for (std::size_t i = 0; i < stones.size(); ++i) {
    const auto [x, y] = stones[i];
    const std::string move =
        gomoku::to_text(gomoku::Move{static_cast<std::uint16_t>(gomoku::square_of(x, y))});
    text += i < setup ? fmt::format(" {}:{}", i % 2 ? 'w' : 'b', move) : " " + move;
  }
  return text;
}

}  // namespace

Session::Session(std::istream& in, std::ostream& out, SessionOptions options)
    : in_(in),
      out_(out),
      options_(options),
      engine_(engine::make_gomoku_any_engine(options.engine, options.hash_mb)),
      position_() {
  in_.tie(nullptr);  // reads must not flush the output outside the lock (see uci.cpp)
}

Session::~Session() {
  engine_->stop();
  wait();
}

void Session::send(std::string_view line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << '\n' << std::flush;
}

void Session::error(std::string_view message) { send(fmt::format("ERROR {}", message)); }

void Session::wait() {
  // The swap2 thread's searches first: it waits on the engine itself.
  if (swap2_.joinable()) swap2_.join();
  engine_->wait();
}

int Session::run() {
  std::string line;
  bool end = false;
  while (!end && std::getline(in_, line)) end = !handle(line);
  // END stops the thinking at once; at the end of piped input a move being thought about is
  // still answered.
  if (end) engine_->stop();
  wait();
  return 0;
}

bool Session::start(int size) {
  if (thinking_.load()) engine_->stop();
  wait();
  if (size < 15 || size > gomoku::kMaxSize) {
    error(fmt::format("unsupported board size {} (15 to {})", size, gomoku::kMaxSize));
    return false;
  }
  variant_.size = size;
  variant_.rule = gomoku::rule_from_gomocup_bits(capture_ ? (rule_bits_ | 16) : (rule_bits_ & ~16));
  position_ = gomoku::Position(variant_);
  history_.clear();
  setup_ = 0;
  engine_->new_game();
  started_ = true;
  return true;
}

void Session::apply_rule_bits(int bits) {
  rule_bits_ = bits;
  capture_ = (bits & 16) != 0;
  // The rule applies from the next game; an empty board takes it at once.
  if (started_ && position_.stones_on_board() == 0) start(variant_.size);
}

engine::EngineLimits Session::limits() const {
  engine::EngineLimits l;
  if (options_.movetime_ms > 0) {
    l.movetime_ms = options_.movetime_ms;
    return l;
  }
  // The protocol's values: timeout_turn 0 = play as fast as possible; timeout_match 0 = no
  // match limit; time_left = what is left of the match clock (0: nothing, answer at once).
  // The turn, less the safety margin, caps every move (the seed's default without one).
  l.move_cap_ms =
      timeout_turn_ >= 0 ? std::max<std::int64_t>(1, timeout_turn_ - kSafetyMs) : kDefaultMoveMs;
  if (timeout_match_ != 0 && (time_left_ >= 0 || timeout_match_ > 0))
    l.clock_ms = time_left_ >= 0 ? time_left_ : timeout_match_;
  return l;
}

std::int64_t Session::move_budget_ms() const {
  const engine::EngineLimits l = limits();
  if (l.movetime_ms > 0) return l.movetime_ms;
  return plan_move_time(engine::mover_clock(l), engine::gomoku_time_policy(position_)).soft_ms;
}

std::string Session::position_text() const { return text_of(variant_, history_, setup_); }

void Session::think() {
  const TimeBudget asked;  // the clock of the whole answer (unlimited: it only measures)
  if (position_.is_terminal()) {
    error("the game is over");
    return;
  }
  wait();
  if (auto ok = engine_->set_position(position_text()); !ok) {
    error(ok.error().message);
    return;
  }
  thinking_.store(true);
  auto done = [this, asked](const engine::EngineReport& r) {
    const auto m = gomoku::parse_move(position_, r.move);
    if (m && !r.move.empty()) {
      play(*m);  // our own move, as the protocol expects us to remember it
      if (options_.messages) {
        // Where the time went: the stages, then the whole answer as the manager sees it
        // (the position's set-up and the engine's start included).
        std::string stages;
        for (const auto& [name, ms] : r.stage_ms)
          stages += fmt::format("{} {} {:.1f}", stages.empty() ? "; stages" : ",", name, ms);
        if (!stages.empty()) stages += " ms";
        const double answer_ms = static_cast<double>(asked.elapsed_us()) / 1000.0;
        send(fmt::format(
            "MESSAGE {} depth {} score {} nodes {} time {} ms{}; answered in {:.1f} ms", r.how,
            r.depth, static_cast<std::int64_t>(r.score), r.nodes, r.time_ms, stages, answer_ms));
      }
      send(gomoku::to_gomocup(*m));
    } else {
      error("no legal move");
    }
    thinking_.store(false);
  };
  if (auto ok = engine_->go(limits(), {}, std::move(done)); !ok) {
    thinking_.store(false);
    error(ok.error().message);
  }
}

void Session::board_line(std::string_view line) {
  std::vector<std::int64_t> v;
  if (!parse_numbers(line, v, 3) || v[0] < 0 || v[1] < 0 || v[0] >= variant_.size ||
      v[1] >= variant_.size || v[2] < 1 || v[2] > 3) {
    error(fmt::format("bad BOARD line '{}' (expected x,y,field with field 1, 2 or 3)",
                      excerpt(line)));
    return;
  }
  // Field 3 marks stones of a continuous game's winning line: not a stone to play on.
  if (v[2] == 3) return;
  (v[2] == 1 ? board_own_ : board_opp_)
      .emplace_back(static_cast<int>(v[0]), static_cast<int>(v[1]));
}

Result<gomoku::Position> Session::position_from(
    const std::vector<std::pair<int, int>>& order) const {
  // Only the capture variant needs the order (captures happen as stones are played); for the
  // others the stones are a position, checked as one, in whatever order the manager sent them
  // (a renju black stone on a point that became forbidden later is no error).
  if (variant_.rule == gomoku::Rule::kCapture) return gomoku::Position::from_moves(variant_, order);
  std::vector<std::pair<int, int>> black, white;
  for (std::size_t i = 0; i < order.size(); ++i) (i % 2 ? white : black).push_back(order[i]);
  return gomoku::Position::from_setup(variant_, black, white, static_cast<int>(order.size() % 2));
}

void Session::finish_board() {
  in_board_ = false;
  // Rebuild the game in playing order. We are to move: with as many stones as the opponent
  // we are black, with one fewer white. (The real order is unknown; only the capture
  // variant's capture counts could depend on it, and BOARD carries none.)
  const bool we_are_black = board_own_.size() == board_opp_.size();
  if (!(we_are_black || board_opp_.size() == board_own_.size() + 1)) {
    error(fmt::format("BOARD: {} own and {} opponent stones cannot be a position with us to move",
                      board_own_.size(), board_opp_.size()));
    board_own_.clear();
    board_opp_.clear();
    return;
  }
  std::vector<std::pair<int, int>> order;
  const auto& first = we_are_black ? board_own_ : board_opp_;
  const auto& second = we_are_black ? board_opp_ : board_own_;
  for (std::size_t i = 0; i < first.size(); ++i) {
    order.push_back(first[i]);
    if (i < second.size()) order.push_back(second[i]);
  }
  board_own_.clear();
  board_opp_.clear();
  auto pos = position_from(order);
  if (!pos) {
    error(fmt::format("BOARD: {}", pos.error().message));
    return;
  }
  position_ = *pos;
  history_ = order;
  setup_ = variant_.rule == gomoku::Rule::kCapture ? 0 : order.size();
  think();
}

void Session::swap2_line(std::string_view line) {
  std::vector<std::int64_t> v;
  if (!parse_numbers(line, v, 2) || v[0] < 0 || v[1] < 0 || v[0] >= variant_.size ||
      v[1] >= variant_.size) {
    error(fmt::format("bad SWAP2BOARD line '{}' (expected x,y)", excerpt(line)));
    swap2_bad_ = true;
    return;
  }
  swap2_stones_.emplace_back(static_cast<int>(v[0]), static_cast<int>(v[1]));
}

void Session::finish_swap2() {
  in_swap2_ = false;
  const auto stones = std::move(swap2_stones_);
  swap2_stones_.clear();
  if (swap2_bad_) {
    swap2_bad_ = false;
    error("SWAP2BOARD: not answered (a bad line above)");
    return;
  }
  if (stones.size() != 0 && stones.size() != 3 && stones.size() != 5) {
    error(fmt::format("SWAP2BOARD: {} stones (swap2 asks with 0, 3 or 5)", stones.size()));
    return;
  }
  auto pos = position_from(stones);
  if (!pos) {
    error(fmt::format("SWAP2BOARD: {}", pos.error().message));
    return;
  }
  wait();
  thinking_.store(true);
  const std::int64_t budget = move_budget_ms();
  // The stones as a position text, as position_from reads them.
  std::string opening =
      text_of(variant_, stones, variant_.rule == gomoku::Rule::kCapture ? 0 : stones.size());
  swap2_ = std::thread([this, budget, opening = std::move(opening), pos = *pos] {
    const engine::Swap2Answer a = engine::swap2_decide(*engine_, opening, pos, budget);
    if (options_.messages) send(fmt::format("MESSAGE swap2: {}", a.reason));
    if (a.swap) {
      send("SWAP");
    } else {
      std::string text;
      for (const gomoku::Move m : a.stones) {
        if (!text.empty()) text += ' ';
        text += gomoku::to_gomocup(m);
      }
      send(text);
    }
    thinking_.store(false);
  });
}

void Session::play(gomoku::Move m) {
  position_.apply(m);
  history_.emplace_back(gomoku::x_of(m.sq), gomoku::y_of(m.sq));
}

Result<void> Session::set_option(std::string_view name, std::string_view value) {
  return engine_->set_option(name, value);
}

bool Session::handle(std::string_view raw) {
  const std::string_view line = trim(raw);
  if (line.empty()) return true;
  if (in_board_ || in_swap2_) {
    if (line.size() > 64) {
      error(fmt::format("bad {} line '{}'", in_board_ ? "BOARD" : "SWAP2BOARD", excerpt(line)));
      swap2_bad_ = in_swap2_;
    } else if (to_upper(line) == "DONE") {
      in_board_ ? finish_board() : finish_swap2();
    } else {
      in_board_ ? board_line(line) : swap2_line(line);
    }
    return true;
  }
  const auto space = line.find_first_of(" \t");
  const std::string cmd = to_upper(line.substr(0, space));
  const std::string_view args = space == std::string_view::npos ? "" : trim(line.substr(space));
  const bool busy = thinking_.load();

  if (cmd == "END") return false;
  if (cmd == "ABOUT") {
    send(
        fmt::format("name=\"kibitz\", version=\"{}\", author=\"Kibitz developers\", "
                    "country=\"-\", www=\"-\"",
                    KIBITZ_VERSION));
  } else if (cmd == "INFO") {
    const auto sp = args.find(' ');
    const std::string key(args.substr(0, sp));
    std::int64_t v = 0;
    const std::string_view value = sp == std::string_view::npos ? "" : trim(args.substr(sp));
    if (key == "folder" || key == "evaluate") return true;
    if (!parse_int(value, v)) {
      error(fmt::format("INFO {}: expected a number, not '{}'", excerpt(key), excerpt(value)));
      return true;
    }
    if (v < 0 && (key == "timeout_turn" || key == "timeout_match" || key == "time_left")) {
      error(fmt::format("INFO {} {}: a time is not negative", key, v));
    } else if (key == "timeout_turn") {
      timeout_turn_ = v;
    } else if (key == "timeout_match") {
      timeout_match_ = v;
    } else if (key == "time_left") {
      time_left_ = v;
    } else if (key == "max_memory") {
      // Memory for the transposition table: a quarter of the limit, at least 1 MB.
      if (v > 0 && !busy)
        (void)engine_->set_option(
            "Hash", std::to_string(std::clamp<std::size_t>(
                        static_cast<std::size_t>(v) / 4 / (1 << 20), 1, options_.hash_mb)));
    } else if (key == "rule") {
      apply_rule_bits(static_cast<int>(v));
    } else if (key == "capture") {
      apply_rule_bits(v ? (rule_bits_ | 16) : (rule_bits_ & ~16));
    } else if (key != "game_type") {
      logger().info("gomocup: unknown INFO key '{}' ignored", excerpt(key));
    }
  } else if (busy && (wait(), false)) {
    // A command that changes the game waits for the move being thought about (a manager
    // never sends one before the answer; a script piping commands gets them in order).
  } else if (cmd == "START" || cmd == "RECTSTART") {
    std::int64_t size = 0;
    std::vector<std::int64_t> wh;
    if (cmd == "RECTSTART") {
      if (!parse_numbers(args, wh, 2)) {
        error(fmt::format("RECTSTART: expected width,height, not '{}'", excerpt(args)));
        return true;
      }
      if (wh[0] != wh[1]) {
        error("rectangular boards are not supported");
        return true;
      }
      size = wh[0];
    } else if (!parse_int(args, size)) {
      error(fmt::format("START: expected a board size, not '{}'", excerpt(args)));
      return true;
    }
    if (start(static_cast<int>(size))) send("OK");
  } else if (!started_) {
    error(fmt::format("{} before START", cmd));
  } else if (cmd == "RESTART") {
    start(variant_.size);
    send("OK");
  } else if (cmd == "BEGIN") {
    if (position_.stones_on_board() != 0) {
      error("BEGIN on a board that is not empty");
      return true;
    }
    think();
  } else if (cmd == "TURN") {
    auto m = gomoku::parse_move(position_, args);
    if (!m) {
      error(fmt::format("TURN {}: {}", excerpt(args), m.error().message));
      return true;
    }
    if (position_.is_terminal()) {
      error("TURN after the end of the game");
      return true;
    }
    if (!position_.is_legal(*m)) {
      error(fmt::format("TURN {}: a forbidden move under {}", excerpt(args),
                        gomoku::rule_name(variant_.rule)));
      return true;
    }
    play(*m);
    think();
  } else if (cmd == "BOARD") {
    in_board_ = true;
    board_own_.clear();
    board_opp_.clear();
  } else if (cmd == "SWAP2BOARD") {
    in_swap2_ = true;
    swap2_bad_ = false;
    swap2_stones_.clear();
  } else if (cmd == "TAKEBACK") {
    // Take back the last move at x,y: rebuild the game without it.
    auto m = gomoku::parse_move(gomoku::Position(variant_), args);
    if (!m || history_.empty() ||
        history_.back() != std::pair{gomoku::x_of(m->sq), gomoku::y_of(m->sq)}) {
      error(fmt::format("TAKEBACK {}: not the last move", excerpt(args)));
      return true;
    }
    auto shorter = history_;
    shorter.pop_back();
    auto pos = position_from(shorter);
    if (!pos) {
      error(fmt::format("TAKEBACK: {}", pos.error().message));
      return true;
    }
    history_ = std::move(shorter);
    setup_ = variant_.rule == gomoku::Rule::kCapture ? 0 : history_.size();
    position_ = *pos;
    send("OK");
  } else {
    send(fmt::format("UNKNOWN command '{}'", excerpt(cmd)));
  }
  return true;
}

}  // namespace kibitz::gomocup
