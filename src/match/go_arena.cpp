// Go in `kibitz match`: openings (SGF files, or lines of GTP vertices), players speaking GTP
// (one process per player: boardsize, clear_board, komi and time_settings per game, the moves
// the engine has not seen with play, time_left and genmove for the side to move) or
// in-process bots (the MCTS engine, random), and the referee: legal moves (positional
// superko, no suicide), resignation, two passes or the move cap scored by Tromp-Taylor area
// with komi, clocks, SGF records (GM[1]).
#include "match/go_arena.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "core/process.hpp"
#include "core/rng.hpp"
#include "core/text.hpp"
#include "engine/any_engine.hpp"
#include "engine/go_engine.hpp"
#include "games/go/search_traits.hpp"
#include "games/go/sgf.hpp"
#include "match/referee.hpp"

namespace kibitz::match {

namespace {

using GoWall = std::chrono::steady_clock;
using GoHistory = std::vector<std::pair<go::Color, go::Move>>;

struct GoRequest {
  ClockView clock;
  MoveLimits limits;
};

// A Go reply (TurnReply): a GTP vertex, "pass" or "resign", as the player sent it. kRefused:
// "?" to genmove; kCrash: the engine cannot go on (exited, or refused or did not answer a
// command other than genmove).
using GoReply = TurnReply;

class GoSeat : public Seat {
 public:
  virtual Result<void> new_game(const go::Rules& rules, const GoRequest& request,
                                std::uint64_t seed) = 0;
  // `history`: every move so far (the opening's included); the seat answers for the side to
  // move of `pos`.
  virtual GoReply genmove(const go::Position& pos, const GoHistory& history,
                          const GoRequest& request, std::int64_t budget_ms,
                          const std::atomic<bool>& stop) = 0;
};

// A number as SGF and GTP write it: 7.5, 7, -0.5 (komi and score differences).
std::string go_number(double v) { return fmt::format("{}", std::round(v * 1e6) / 1e6); }

char go_colour_letter(go::Color c) { return c == go::kWhite ? 'w' : 'b'; }

// The GTP clock mapping (see go_arena.hpp) in milliseconds, for the Kibitz engine as well.
engine::GoClock go_engine_clock(const TimeControl& tc) {
  return engine::go_clock_for(tc.base_ms, tc.increment_ms, tc.moves);
}

// ---------------------------------------------------------------------------------------
// An external engine over GTP.

class GoGtpSeat final : public GoSeat {
 public:
  GoGtpSeat(std::unique_ptr<Subprocess> p, std::int64_t timeout_ms)
      : process_(std::move(p)), timeout_ms_(timeout_ms) {}
  ~GoGtpSeat() override {
    if (process_->running()) process_->write_line("quit");
    process_->terminate(std::chrono::milliseconds(500));
  }
  bool healthy() const override { return healthy_; }

  // The handshake: protocol_version and name, then the board of a first game.
  Result<void> start(const go::Rules& rules) {
    const auto deadline = GoWall::now() + std::chrono::milliseconds(timeout_ms_);
    for (const char* command : {"protocol_version", "name"}) {
      const auto a = exchange(command, deadline, nullptr);
      if (a.status != Answer::kOk) return failure(command, a);
    }
    return setup(rules, "", deadline);
  }

  Result<void> new_game(const go::Rules& rules, const GoRequest& request, std::uint64_t) override {
    return setup(rules, gtp_time_settings(request.limits),
                 GoWall::now() + std::chrono::milliseconds(timeout_ms_));
  }

  GoReply genmove(const go::Position& pos, const GoHistory& history, const GoRequest& request,
                  std::int64_t budget_ms, const std::atomic<bool>& stop) override {
    GoReply reply;
    // The moves this engine's board lacks: the opening, then the opponent's last move.
    for (; known_ < history.size(); ++known_) {
      const auto& [c, m] = history[known_];
      const std::string command =
          fmt::format("play {} {}", go_colour_letter(c), go::to_vertex(m, pos.size()));
      const auto a = exchange(command, command_deadline(), &stop);
      if (a.status != Answer::kOk) return broken(reply, command, a);
    }
    const int side = pos.to_move() == go::kBlack ? 0 : 1;
    if (const auto left = gtp_time_left(request.clock, side); !left.empty()) {
      const auto a = exchange(left, command_deadline(), &stop);
      if (a.status != Answer::kOk && a.status != Answer::kError) return broken(reply, left, a);
    }
    const std::string command = fmt::format("genmove {}", go_colour_letter(pos.to_move()));
    const auto t0 = GoWall::now();
    const auto a = exchange(command, t0 + std::chrono::milliseconds(budget_ms), &stop);
    reply.elapsed_ms = std::chrono::duration<double, std::milli>(GoWall::now() - t0).count();
    switch (a.status) {
      case Answer::kOk:
        reply.move = a.text;
        known_ = history.size() + 1;  // genmove plays the move on the engine's board
        break;
      case Answer::kError:
        reply.status = GoReply::Status::kRefused;
        reply.error = fmt::format("answers genmove with an error (? {})", a.text);
        break;
      case Answer::kTimeout:  // GTP has no stop: the engine is replaced
        reply.status = GoReply::Status::kTimeout;
        break;
      case Answer::kStopped:
        reply.status = GoReply::Status::kStopped;
        break;
      case Answer::kEof:
        reply.status = GoReply::Status::kCrash;
        reply.error = "disconnected (" + process_->terminate() + ")";
        break;
    }
    return reply;
  }

 private:
  enum class Answer { kOk, kError, kTimeout, kEof, kStopped };
  struct Response {
    Answer status = Answer::kOk;
    std::string text;  // the answer after "=" or "?" (and the id), lines joined by '\n'
  };

  GoWall::time_point command_deadline() const {
    return GoWall::now() + std::chrono::milliseconds(timeout_ms_);
  }

  // One command and its answer ("=[id] text" or "?[id] text", more lines, an empty line).
  // Anything but an answer leaves the engine out of step with us: it is then not healthy.
  Response exchange(std::string_view command, GoWall::time_point deadline,
                    const std::atomic<bool>* stop) {
    Response r;
    if (!process_->write_line(command)) {
      healthy_ = false;
      r.status = Answer::kEof;
      return r;
    }
    bool in_answer = false;
    for (;;) {
      if (stop && stop->load()) {
        healthy_ = false;
        r.status = Answer::kStopped;
        return r;
      }
      // Slices of 100 ms so that an interrupt is seen quickly.
      const auto slice = std::min(deadline, GoWall::now() + std::chrono::milliseconds(100));
      std::string line;
      const auto st = process_->read_line(line, slice);
      if (st == Subprocess::Read::kTimeout) {
        if (GoWall::now() < deadline) continue;
        healthy_ = false;
        r.status = Answer::kTimeout;
        return r;
      }
      if (st == Subprocess::Read::kEof) {
        healthy_ = false;
        r.status = Answer::kEof;
        return r;
      }
      const auto t = trim(line);
      if (in_answer) {
        if (t.empty()) return r;
        r.text += '\n';
        r.text += t;
        continue;
      }
      if (t.empty() || (t[0] != '=' && t[0] != '?')) continue;  // noise before the answer
      r.status = t[0] == '=' ? Answer::kOk : Answer::kError;
      std::size_t i = 1;
      while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;  // the command id, if any
      r.text = std::string(trim(t.substr(i)));
      in_answer = true;
    }
  }

  std::string what_went_wrong(std::string_view command, const Response& a) {
    switch (a.status) {
      case Answer::kError:
        return fmt::format("refuses '{}' (? {})", command, a.text);
      case Answer::kTimeout:
        return fmt::format("does not answer '{}' within {} ms", command, timeout_ms_);
      case Answer::kEof:
        return fmt::format("exited after '{}' ({})", command, process_->terminate());
      default:
        return "was interrupted";
    }
  }
  Result<void> failure(std::string_view command, const Response& a) {
    if (a.status == Answer::kError) healthy_ = false;
    return fail("the engine {}", what_went_wrong(command, a));
  }
  GoReply& broken(GoReply& reply, std::string_view command, const Response& a) {
    healthy_ = false;
    reply.status =
        a.status == Answer::kStopped ? GoReply::Status::kStopped : GoReply::Status::kCrash;
    reply.error = what_went_wrong(command, a);
    return reply;
  }

  // A new game: boardsize, clear_board, komi (all required), time settings (optional: an
  // engine that refuses them keeps its own pace and answers to the clock).
  Result<void> setup(const go::Rules& rules, const std::string& time_settings,
                     GoWall::time_point deadline) {
    known_ = 0;
    const std::string commands[] = {fmt::format("boardsize {}", rules.size), "clear_board",
                                    fmt::format("komi {}", go_number(rules.komi))};
    for (const auto& command : commands) {
      const auto a = exchange(command, deadline, nullptr);
      if (a.status != Answer::kOk) return failure(command, a);
    }
    if (!time_settings.empty()) {
      const auto a = exchange(time_settings, deadline, nullptr);
      if (a.status != Answer::kOk && a.status != Answer::kError) return failure(time_settings, a);
    }
    return {};
  }

  std::unique_ptr<Subprocess> process_;
  std::int64_t timeout_ms_;
  bool healthy_ = true;
  std::size_t known_ = 0;  // moves of the game the engine's board has
};

// ---------------------------------------------------------------------------------------
// In-process bots: the MCTS engine, and random (uniform among sensible points, else pass).

class GoBotSeat final : public GoSeat {
 public:
  // The mcts bot plays through the one engine contract; random (no engine) is here.
  explicit GoBotSeat(std::unique_ptr<engine::AnyEngine> engine) : engine_(std::move(engine)) {}
  bool healthy() const override { return true; }

  Result<void> new_game(const go::Rules&, const GoRequest&, std::uint64_t seed) override {
    rng_.reseed(seed);
    if (engine_) {
      // A fresh engine seeded by the game: the match is reproducible game by game (an
      // embedded player has no seed option).
      const auto& options = engine_->options();
      const bool seeded = std::any_of(options.begin(), options.end(),
                                      [](const auto& o) { return o.name == "seed"; });
      if (seeded)
        if (auto ok = engine_->set_option("seed", std::to_string(static_cast<std::int64_t>(seed)));
            !ok)
          return ok;
      engine_->new_game();
    }
    return {};
  }

  GoReply genmove(const go::Position& pos, const GoHistory& history, const GoRequest& request,
                  std::int64_t, const std::atomic<bool>&) override {
    GoReply reply;
    const auto t0 = GoWall::now();
    if (!engine_) {
      go::Move m = go::Move::pass();
      std::vector<int> points;
      for (const int sq : pos.empty_points())
        if (go::playout_acceptable(pos, sq)) points.push_back(sq);
      std::sort(points.begin(), points.end());  // the board's order, not the empty list's
      if (!points.empty())
        m = go::Move{static_cast<std::uint16_t>(points[rng_.below(points.size())])};
      reply.move = go::to_vertex(m, pos.size());
    } else {
      // The game as the position text: every move with its colour (openings may give one
      // colour two moves in a row).
      std::string text = fmt::format("{} komi {}", pos.size(), go_number(pos.komi()));
      for (const auto& [colour, m] : history)
        text +=
            fmt::format(" {}:{}", colour == go::kBlack ? 'B' : 'W', go::to_vertex(m, pos.size()));
      engine::EngineLimits limits;
      limits.nodes = request.limits.nodes;
      limits.movetime_ms = request.limits.movetime_ms;
      const int side = pos.to_move() == go::kBlack ? 0 : 1;
      if (request.limits.clock && request.clock.remaining_ms[side] >= 0) {
        const engine::GoClock c = go_engine_clock(*request.limits.clock);
        limits.clock_ms = request.clock.remaining_ms[side];
        limits.moves_to_go = request.clock.moves_to_go;
        limits.main_ms = c.main_ms;
        limits.period_ms = c.byo_ms;
        limits.period_moves = c.byo_stones;
      }
      reply.move = "pass";
      if (auto ok = engine_->set_position(text); !ok) {
        reply.comment = ok.error().message;  // cannot happen: the referee's own game
      } else if (const auto r = engine_->think(limits); !r) {
        reply.status = GoReply::Status::kCrash;  // an embedded player's own failure
        reply.error = r.error().message;
      } else {
        reply.move = r->move;
        reply.comment = fmt::format("{} visits {:.1f}%", r->nodes, 100 * r->score);
      }
    }
    reply.elapsed_ms = std::chrono::duration<double, std::milli>(GoWall::now() - t0).count();
    return reply;
  }

 private:
  std::unique_ptr<engine::AnyEngine> engine_;
  Rng rng_;
};

// Bot options: mcts takes Threads (1..256) and resign (true/false); random takes none.
Result<engine::GoEngineOptions> go_bot_options(const PlayerSpec& spec) {
  engine::GoEngineOptions o;
  for (const auto& [name, value] : spec.options) {
    if (spec.bot == "mcts" && name == "Threads") {
      int v = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || p != value.data() + value.size() || v < 1 || v > 256)
        return fail("option Threads={}: expected a number from 1 to 256", value);
      o.threads = v;
    } else if (spec.bot == "mcts" && name == "resign") {
      if (value != "true" && value != "false")
        return fail("option resign={}: expected true or false", value);
      o.resign = value == "true";
    } else {
      return fail("Go bot {} has no option '{}' ({})", spec.bot, name,
                  spec.bot == "mcts" ? "Threads, resign" : "it takes none");
    }
  }
  return o;
}

// The position after an opening (and the check that it is one): the moves in order, each
// by the colour given (SGF allows two moves of one colour in a row).
Result<go::Position> go_opening_position(const go::Rules& rules, const GoHistory& moves) {
  go::GameRecord record;
  record.size = rules.size;
  record.komi = rules.komi;
  record.moves = moves;
  return go::replay(record, rules);
}

struct GoOpening {
  std::string label;
  GoHistory moves;
};

bool go_has_sgf_extension(const std::string& path) {
  return path.size() > 4 && to_lower(path.substr(path.size() - 4)) == ".sgf";
}

std::string go_today() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}-{:02}-{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

std::string go_sgf_escape(std::string_view v) {
  std::string e;
  for (const char c : v) {
    if (c == ']' || c == '\\') e += '\\';
    e += c;
  }
  return e;
}

class GoKind final : public GameKind {
 public:
  std::string name() const override { return "go"; }
  std::string record_format() const override { return "SGF"; }
  std::string forfeit_result(int winner) const override { return winner == 0 ? "B+F" : "W+F"; }
  std::vector<std::string> bots() const override { return {"mcts", "random"}; }

  Result<void> configure(const GameSettings& s) {
    rules_.size = s.board_size ? s.board_size : 19;
    if (rules_.size < go::kMinSize || rules_.size > go::kMaxSize)
      return fail("--board-size {}: Go boards are {} to {}", rules_.size, go::kMinSize,
                  go::kMaxSize);
    if (!std::isfinite(s.komi) || std::abs(s.komi) > 1000)
      return fail("--komi {}: expected a number from -1000 to 1000", s.komi);
    rules_.komi = s.komi;
    const std::string rule = to_lower(s.rule);
    if (!rule.empty() && rule != "chinese" && rule != "tromp-taylor")
      return fail(
          "--rule {}: Go has one rule set here (chinese or tromp-taylor: area scoring, "
          "positional superko, no suicide)",
          s.rule);
    return {};
  }

  Result<void> load_openings(const OpeningOptions& o) override {
    book_.clear();
    if (o.file.empty()) return {};
    std::error_code ec;
    const bool directory = std::filesystem::is_directory(o.file, ec);
    std::string format = o.format;
    if (format == "auto") format = directory || go_has_sgf_extension(o.file) ? "sgf" : "gtp";
    int skipped = 0;
    if (format == "sgf") {
      std::vector<std::string> files;
      if (directory) {
        for (const auto& entry : std::filesystem::directory_iterator(o.file, ec))
          if (go_has_sgf_extension(entry.path().string())) files.push_back(entry.path().string());
        std::sort(files.begin(), files.end());
        if (files.empty()) return fail("{}: no .sgf files in the directory", o.file);
      } else {
        files.push_back(o.file);
      }
      for (const auto& f : files) {
        auto record = go::read_sgf_file(f);
        if (!record) return tl::unexpected(record.error());
        if (record->size != rules_.size) {  // a record for another board: not this match's
          ++skipped;
          continue;
        }
        if (!record->black_setup.empty() || !record->white_setup.empty() ||
            !record->later_setup.empty())
          return fail("{}: setup stones (AB/AW) cannot start a match game", f);
        if (auto ok = add(f, std::move(record->moves), o.plies); !ok) return ok;
      }
    } else if (format == "gtp") {
      std::ifstream in(o.file);
      if (!in) return fail("cannot read '{}'", o.file);
      auto read = for_each_data_line(in, [&](std::string_view text, int n) -> Result<void> {
        const std::string where = fmt::format("{}:{}", o.file, n);
        GoHistory moves;
        for (const auto word : split_blanks(text)) {
          auto m = go::parse_vertex(word, rules_.size);
          if (!m) {
            // Lines for bigger boards do not fit a smaller one: skip those, fail on garbage.
            if (m.error().message.find(" is off a ") != std::string::npos) {
              ++skipped;
              return {};
            }
            return with_context(m.error(), where);
          }
          if (m->is_resign()) return fail("{}: resign is no opening move", where);
          moves.emplace_back(moves.size() % 2 == 0 ? go::kBlack : go::kWhite, *m);
        }
        return add(where, std::move(moves), o.plies);
      });
      if (!read) return read;
    } else {
      return fail(
          "unknown opening format '{}' for Go (sgf: SGF files, or a directory of them; gtp: "
          "lines of GTP vertices)",
          format);
    }
    if (book_.empty())
      return fail("{}: no openings fit a {}x{} board{}", o.file, rules_.size, rules_.size,
                  skipped ? fmt::format(" ({} skipped)", skipped) : "");
    return {};
  }
  std::size_t opening_count() const override { return book_.size(); }

  Result<void> check(const PlayerSpec& spec) const override {
    if (!spec.protocol.empty() && spec.protocol != "gtp")
      return fail("Go players speak GTP, not {}", spec.protocol);
    if (spec.is_embedded()) return {};
    if (spec.external()) {
      if (!spec.options.empty())
        return fail(
            "GTP has no engine options (option.{}): give the engine its own arguments after "
            "cmd=",
            spec.options[0].first);
      return {};
    }
    const auto names = bots();
    if (std::find(names.begin(), names.end(), spec.bot) == names.end())
      return fail("no Go bot '{}' (bots: mcts, random)", spec.bot);
    if (auto o = go_bot_options(spec); !o) return tl::unexpected(o.error());
    return {};
  }

  Result<std::unique_ptr<Seat>> open(const PlayerSpec& spec,
                                     const GameSettings& settings) const override {
    if (spec.is_embedded()) return std::make_unique<GoBotSeat>(spec.embedded());
    if (!spec.external()) {
      auto o = go_bot_options(spec);
      if (!o) return tl::unexpected(o.error());
      std::unique_ptr<engine::AnyEngine> engine;
      if (spec.bot == "mcts") {
        engine = engine::make_go_any_engine();
        for (const auto& [name, value] : spec.options)
          if (auto ok = engine->set_option(name, value); !ok) return tl::unexpected(ok.error());
      }
      return std::make_unique<GoBotSeat>(std::move(engine));
    }
    auto process = spawn_player(spec);
    if (!process) return tl::unexpected(process.error());
    auto seat = std::make_unique<GoGtpSeat>(std::move(*process), settings.start_timeout_ms);
    if (auto ok = seat->start(rules_); !ok) return tl::unexpected(ok.error());
    return seat;
  }

  GameOutcome play(const GameJob& job, std::array<Seat*, 2> seats,
                   std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                   const std::atomic<bool>& stop) const override;

 private:
  Result<void> add(const std::string& label, GoHistory moves, int plies) {
    if (plies > 0 && moves.size() > static_cast<std::size_t>(plies))
      moves.resize(static_cast<std::size_t>(plies));
    auto pos = go_opening_position(rules_, moves);
    if (!pos) return with_context(pos.error(), label);
    if (pos->is_terminal()) return fail("{}: the opening is already over", label);
    book_.push_back({label, std::move(moves)});
    return {};
  }

  go::Rules rules_;
  std::vector<GoOpening> book_;
};

// One Go game for the referee loop: the position and every move with its colour.
class GoTurns final : public TurnGame {
 public:
  GoTurns(const GameJob& job, std::array<GoSeat*, 2> seats, std::array<const PlayerSpec*, 2> specs,
          const GameSettings& settings, const go::Rules& rules, const GoOpening& opening)
      : pos(rules), job_(job), seats_(seats), specs_(specs), settings_(settings), rules_(rules) {
    if (auto start = go_opening_position(rules, opening.moves)) {  // checked when read
      pos = *start;
      history = opening.moves;
    }
  }

  std::string who(int side) const override {
    return fmt::format("{} ({})", kColour[side], specs_[side]->name);
  }
  Result<void> start(int side, const ClockView& clock, const MoveLimits& limits) override {
    return seats_[side]->new_game(rules_, GoRequest{clock, limits}, seat_seed(job_, side));
  }
  std::optional<Verdict> over() override {
    if (!pos.is_terminal()) return std::nullopt;
    const auto v = go_verdict(pos);
    std::string reason = pos.resigned() >= 0
                             ? fmt::format("{} resigns", who(pos.resigned() == go::kBlack ? 0 : 1))
                             : v.reason;
    return Verdict{v.black_score, "normal", std::move(reason), v.result};
  }
  int to_move() const override { return pos.to_move() == go::kBlack ? 0 : 1; }
  TurnReply ask(int side, const ClockView& clock, const MoveLimits& limits, std::int64_t budget_ms,
                const std::atomic<bool>& stop) override {
    return seats_[side]->genmove(pos, history, GoRequest{clock, limits}, budget_ms, stop);
  }
  Result<void> play(int side, const TurnReply& reply) override {
    auto m = go::parse_vertex(reply.move, pos.size());
    const go::Illegal why = m && !m->is_resign() ? pos.check(*m) : go::Illegal::kLegal;
    if (!m || why != go::Illegal::kLegal)
      return fail("plays an illegal move '{}' ({})", reply.move.empty() ? "(none)" : reply.move,
                  m ? std::string(go::illegal_text(why)) : m.error().message);
    if (settings_.verbose)
      fmt::print(stderr, "game {} {} {} {} ({:.0f} ms) {}\n", job_.number, specs_[side]->name,
                 kColour[side], go::to_vertex(*m, pos.size()), reply.elapsed_ms, reply.comment);
    pos.apply(*m);
    if (!m->is_resign()) history.emplace_back(side == 0 ? go::kBlack : go::kWhite, *m);
    return {};
  }
  // The move cap scores the board as it stands.
  Verdict move_cap(int moves) override {
    const auto v = go_verdict(pos);
    return {v.black_score, "adjudication", fmt::format("{} moves played, {}", moves, v.reason),
            v.result};
  }

  go::Position pos;
  GoHistory history;

 private:
  static constexpr const char* kColour[2] = {"Black", "White"};
  const GameJob& job_;
  std::array<GoSeat*, 2> seats_;
  std::array<const PlayerSpec*, 2> specs_;
  const GameSettings& settings_;
  const go::Rules& rules_;
};

GameOutcome GoKind::play(const GameJob& job, std::array<Seat*, 2> seats,
                         std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                         const std::atomic<bool>& stop) const {
  const auto t_game = GoWall::now();
  GameOutcome out;
  const GoOpening empty{"empty board", {}};
  const GoOpening& opening = book_.empty() ? empty : book_[job.opening];
  out.opening = opening.label;
  RefereeBook book(out, specs, settings, {"B+", "W+", "0", "?"});
  GoTurns game(job, {static_cast<GoSeat*>(seats[0]), static_cast<GoSeat*>(seats[1])}, specs,
               settings, rules_, opening);
  const int player_moves = referee_turns(game, book, settings, stop);
  // A forfeit's result says why: B+T / W+T on time, B+F / W+F otherwise.
  if (out.finished() && out.fault != Fault::kNone)
    out.result = fmt::format("{}+{}", out.first_score > 0.5 ? 'B' : 'W',
                             out.fault == Fault::kTime ? 'T' : 'F');
  const auto& history = game.history;
  out.plies = player_moves - (game.pos.resigned() >= 0 ? 1 : 0);  // a resignation is no move
  out.seconds = std::chrono::duration<double>(GoWall::now() - t_game).count();

  go::GameRecord record;
  record.size = rules_.size;
  record.komi = rules_.komi;
  record.moves = history;
  record.result = out.result.empty() ? "?" : out.result;
  record.black = specs[0]->name;
  record.white = specs[1]->name;
  record.date = go_today();
  record.rules = "Chinese";
  record.event = settings.event;
  std::string sgf = go::write_sgf(record);
  // The round, the opening and how the game ended go in the root node, whose line
  // write_sgf ends with the first newline.
  const auto root_end = sgf.find('\n');
  if (root_end != std::string::npos)
    sgf.insert(root_end, fmt::format("RO[{}]GN[{}]C[{}]", job.number, go_sgf_escape(opening.label),
                                     go_sgf_escape(out.termination + ": " + out.reason)));
  out.record = std::move(sgf);
  return out;
}

}  // namespace

GoVerdict go_verdict(const go::Position& pos) {
  if (pos.resigned() >= 0) {
    const bool black_resigned = pos.resigned() == go::kBlack;
    return {black_resigned ? 0.0 : 1.0, black_resigned ? "W+R" : "B+R",
            black_resigned ? "Black resigns" : "White resigns"};
  }
  const auto area = pos.area();
  const double score = pos.score();
  const std::string how = pos.passes() >= 2                       ? "two passes"
                          : pos.moves_played() >= pos.max_moves() ? "the move cap"
                                                                  : "scored as it stands";
  GoVerdict v;
  v.reason =
      fmt::format("{}: area B {} W {}, komi {}", how, area[0], area[1], go_number(pos.komi()));
  if (std::abs(score) < 1e-9) {
    v.black_score = 0.5;
    v.result = "0";
  } else {
    v.black_score = score > 0 ? 1.0 : 0.0;
    v.result = fmt::format("{}+{}", score > 0 ? 'B' : 'W', go_number(std::abs(score)));
  }
  return v;
}

std::string gtp_time_settings(const MoveLimits& limits) {
  if (limits.clock) {
    const auto c = go_engine_clock(*limits.clock);
    const std::int64_t byo = c.byo_ms / 1000;
    return fmt::format("time_settings {} {} {}", c.main_ms / 1000, byo, byo > 0 ? c.byo_stones : 0);
  }
  if (limits.movetime_ms > 0)
    return fmt::format("time_settings 0 {} 1", (limits.movetime_ms + 999) / 1000);
  return "";
}

std::string gtp_time_left(const ClockView& clock, int side) {
  const std::int64_t left = clock.remaining_ms[side];
  if (left < 0) return "";
  return fmt::format("time_left {} {} {}", side == 0 ? 'b' : 'w', left / 1000, clock.moves_to_go);
}

Result<std::unique_ptr<GameKind>> make_go_kind(const GameSettings& settings) {
  auto kind = std::make_unique<GoKind>();
  if (auto ok = kind->configure(settings); !ok) return tl::unexpected(ok.error());
  return std::unique_ptr<GameKind>(std::move(kind));
}

}  // namespace kibitz::match
