// Gomoku in `kibitz match`: Gomocup openings (offset lists), players speaking the Gomocup
// protocol (one process per player, START per game, INFO limits and time_left before every
// request, BEGIN / BOARD / TURN as GomocupJudge does) or in-process bots (the full pipeline,
// the plain alpha-beta baseline, random), and the referee: legal points, renju fouls, clocks,
// SGF records (GM[4]).
#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <fstream>

#include "core/process.hpp"
#include "core/rng.hpp"
#include "engine/any_engine.hpp"
#include "engine/gomoku_engine.hpp"
#include "match/arena.hpp"
#include "match/gomoku_arena.hpp"
#include "match/referee.hpp"

namespace kibitz::match {

namespace {

using Clock = std::chrono::steady_clock;
using gomoku::Move;
using gomoku::Position;
constexpr std::int64_t kUnlimited = 2147483647;

struct GomokuRequest {
  ClockView clock;
  MoveLimits limits;
};

// A gomoku reply (TurnReply): the move as "x,y", as the player sent it.
using GomokuReply = TurnReply;

class GomokuSeat : public Seat {
 public:
  virtual Result<void> new_game(const gomoku::Variant& v, const GomokuRequest& limits,
                                std::uint64_t seed) = 0;
  // `history`: every stone so far in playing order; the seat answers for the side to move.
  virtual GomokuReply go(const Position& pos, const std::vector<Move>& history,
                         const GomokuRequest& request, std::int64_t budget_ms,
                         const std::atomic<bool>& stop) = 0;
};

int rule_bits(gomoku::Rule r) {
  switch (r) {
    case gomoku::Rule::kExactFive:
      return 1;
    case gomoku::Rule::kRenju:
      return 4;
    case gomoku::Rule::kCapture:
      return 16;  // Kibitz's extension (documented in the README)
    default:
      return 0;
  }
}

class GomocupSeat final : public GomokuSeat {
 public:
  GomocupSeat(std::unique_ptr<Subprocess> p, std::int64_t timeout_ms)
      : process_(std::move(p)), timeout_ms_(timeout_ms) {}
  ~GomocupSeat() override {
    if (process_->running()) process_->write_line("END");
    process_->terminate(std::chrono::milliseconds(500));
  }
  bool healthy() const override { return healthy_; }

  Result<void> new_game(const gomoku::Variant& v, const GomokuRequest& r, std::uint64_t) override {
    asked_ = false;
    if (!process_->write_line(fmt::format("START {}", v.size))) return broken("closed its input");
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms_);
    for (;;) {
      std::string line;
      const auto st = process_->read_line(line, deadline);
      if (st == Subprocess::Read::kTimeout) {
        healthy_ = false;
        return fail("no OK to START {} within {} ms", v.size, timeout_ms_);
      }
      if (st == Subprocess::Read::kEof) return broken("exited after START");
      if (line.starts_with("OK")) break;
      if (line.starts_with("ERROR")) {
        healthy_ = false;
        return fail("START {}: {}", v.size, line);
      }
    }
    const std::int64_t turn = r.limits.movetime_ms > 0 ? r.limits.movetime_ms : kUnlimited;
    const std::int64_t match = r.limits.clock ? r.limits.clock->base_ms : kUnlimited;
    process_->write_line(fmt::format("INFO timeout_turn {}", turn));
    process_->write_line(fmt::format("INFO timeout_match {}", match));
    process_->write_line("INFO max_memory 0");
    process_->write_line("INFO game_type 1");
    process_->write_line(fmt::format("INFO rule {}", rule_bits(v.rule)));
    return {};
  }

  GomokuReply go(const Position& pos, const std::vector<Move>& history,
                 const GomokuRequest& request, std::int64_t budget_ms,
                 const std::atomic<bool>& stop) override {
    GomokuReply reply;
    const int side = pos.side_to_move() == gomoku::kBlack ? 0 : 1;
    const std::int64_t left = request.clock.remaining_ms[side];
    process_->write_line(fmt::format("INFO time_left {}", left >= 0 ? left : kUnlimited));
    const auto t0 = Clock::now();
    bool ok = true;
    if (!asked_ && history.empty()) {
      ok = process_->write_line("BEGIN");
    } else if (!asked_) {
      // The whole board in playing order: 1 = the engine's own stones, 2 = the opponent's.
      ok = process_->write_line("BOARD");
      const bool first_is_own = (history.size() % 2 == 0);  // the mover played stone 0
      for (std::size_t i = 0; i < history.size() && ok; ++i) {
        if (pos.stone(history[i].sq) == gomoku::kEmpty) continue;  // captured since
        const bool own = (i % 2 == 0) == first_is_own;
        ok =
            process_->write_line(fmt::format("{},{}", gomoku::to_gomocup(history[i]), own ? 1 : 2));
      }
      ok = ok && process_->write_line("DONE");
    } else {
      ok = process_->write_line(fmt::format("TURN {}", gomoku::to_gomocup(history.back())));
    }
    asked_ = true;
    if (!ok) {
      healthy_ = false;
      reply.status = GomokuReply::Status::kCrash;
      reply.error = "closed its input (" + process_->terminate() + ")";
      return reply;
    }
    const auto deadline = t0 + std::chrono::milliseconds(budget_ms);
    for (;;) {
      std::string line;
      Subprocess::Read st;
      for (;;) {
        if (stop.load()) {
          st = Subprocess::Read::kTimeout;
          break;
        }
        const auto slice = std::min(deadline, Clock::now() + std::chrono::milliseconds(100));
        st = process_->read_line(line, slice);
        if (st != Subprocess::Read::kTimeout || Clock::now() >= deadline) break;
      }
      reply.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      if (st == Subprocess::Read::kEof) {
        healthy_ = false;
        reply.status = GomokuReply::Status::kCrash;
        reply.error = "disconnected (" + process_->terminate() + ")";
        return reply;
      }
      if (st == Subprocess::Read::kTimeout) {
        // No stop command exists in the protocol: the engine is replaced.
        healthy_ = false;
        reply.status = stop.load() ? GomokuReply::Status::kStopped : GomokuReply::Status::kTimeout;
        return reply;
      }
      if (line.starts_with("MESSAGE")) {
        reply.comment = line.substr(std::min<std::size_t>(8, line.size()));
        continue;
      }
      if (line.starts_with("DEBUG") || line.starts_with("OK") || line.empty()) continue;
      if (line.starts_with("ERROR") || line.starts_with("UNKNOWN")) {
        reply.comment = line;
        continue;
      }
      reply.move = line;
      return reply;
    }
  }

 private:
  Result<void> broken(std::string_view what) {
    healthy_ = false;
    return fail("the engine {} ({})", what, process_->terminate());
  }
  std::unique_ptr<Subprocess> process_;
  std::int64_t timeout_ms_;
  bool healthy_ = true;
  bool asked_ = false;  // the first request of a game is BEGIN or BOARD, later ones TURN
};

class GomokuBotSeat final : public GomokuSeat {
 public:
  // An engine bot (pipeline, alphabeta) plays through the one engine contract; random has
  // none.
  explicit GomokuBotSeat(std::unique_ptr<engine::AnyEngine> engine) : engine_(std::move(engine)) {}
  bool healthy() const override { return true; }
  Result<void> new_game(const gomoku::Variant&, const GomokuRequest&, std::uint64_t seed) override {
    rng_.reseed(seed);
    if (engine_) engine_->new_game();
    return {};
  }
  GomokuReply go(const Position& pos, const std::vector<Move>& history,
                 const GomokuRequest& request, std::int64_t, const std::atomic<bool>&) override {
    GomokuReply reply;
    const auto t0 = Clock::now();
    if (!engine_) {
      MoveList<Position> moves;
      pos.candidate_moves(moves);
      if (moves.size() > 0) reply.move = gomoku::to_gomocup(moves[rng_.below(moves.size())]);
    } else {
      // The position text: the rule and size, then every stone in playing order.
      std::string text = fmt::format("{} {}", gomoku::rule_name(pos.rule()), pos.size());
      for (const Move m : history) text += " " + gomoku::to_text(m);
      engine::EngineLimits limits;
      const int side = pos.side_to_move() == gomoku::kBlack ? 0 : 1;
      limits.movetime_ms = request.limits.movetime_ms > 0 ? request.limits.movetime_ms : 450;
      if (request.clock.remaining_ms[side] >= 0) {
        // A clock: the engine spends it as under Gomocup (the time manager's gomoku policy).
        limits.movetime_ms = 0;
        limits.clock_ms = request.clock.remaining_ms[side];
        limits.increment_ms = request.clock.increment_ms[side];
      }
      limits.nodes = request.limits.nodes;
      limits.depth = request.limits.depth;
      if (limits.nodes || limits.depth) limits.movetime_ms = 0;  // the limit alone
      if (engine_->set_position(text)) {
        if (const auto r = engine_->think(limits); !r) {
          reply.status = GomokuReply::Status::kCrash;  // an embedded player's own failure
          reply.error = r.error().message;
        } else {
          // A move that does not read goes to the referee as it came, to be named there.
          const auto m = gomoku::parse_move(pos, r->move);
          reply.move = m ? gomoku::to_gomocup(*m) : r->move;
          reply.comment = fmt::format("d{} {}", r->depth, r->score);
        }
      }
    }
    reply.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return reply;
  }

 private:
  std::unique_ptr<engine::AnyEngine> engine_;
  Rng rng_;
};

// An in-process bot: the pipeline or its alpha-beta alone, 16 MB of table unless option.Hash
// says otherwise, with the spec's options checked against the engine's declarations (Hash,
// vct, defence, defence_vct, each alpha-beta technique); or random (the same options, checked
// and unused).
Result<std::unique_ptr<GomokuBotSeat>> make_gomoku_bot_seat(const PlayerSpec& spec) {
  if (spec.is_embedded()) return std::make_unique<GomokuBotSeat>(spec.embedded());
  auto engine = engine::make_gomoku_any_engine(spec.bot == "pipeline", 16);
  for (const auto& [name, value] : spec.options)
    if (auto ok = engine->set_option(name, value); !ok)
      return fail("gomoku bot {}: {}", spec.bot, ok.error().message);
  return std::make_unique<GomokuBotSeat>(spec.bot == "random" ? nullptr : std::move(engine));
}

struct GomokuOpening {
  std::string label;
  std::vector<std::pair<int, int>> stones;  // absolute x, y in playing order
};

// "x,y, x,y, ..." relative to the centre (Gomocup / c-gomoku-cli "offset" openings).
Result<GomokuOpening> parse_offset_line(std::string_view line, int size) {
  GomokuOpening o;
  std::vector<int> numbers;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() &&
           (line[i] == ' ' || line[i] == ',' || line[i] == '\t' || line[i] == '\r'))
      ++i;
    if (i >= line.size()) break;
    int v = 0;
    auto [p, ec] = std::from_chars(line.data() + i, line.data() + line.size(), v);
    if (ec != std::errc()) return fail("bad number at '{}'", line.substr(i, 8));
    numbers.push_back(v);
    i = static_cast<std::size_t>(p - line.data());
  }
  if (numbers.empty() || numbers.size() % 2) return fail("expected pairs x,y");
  for (std::size_t k = 0; k < numbers.size(); k += 2) {
    const int x = numbers[k] + size / 2, y = numbers[k + 1] + size / 2;
    if (x < 0 || y < 0 || x >= size || y >= size)
      return fail("stone {},{} is off a {}x{} board", numbers[k], numbers[k + 1], size, size);
    o.stones.emplace_back(x, y);
  }
  return o;
}

class GomokuKind final : public GameKind {
 public:
  std::string name() const override { return "gomoku"; }
  std::string record_format() const override { return "SGF"; }
  std::string forfeit_result(int winner) const override { return winner == 0 ? "B+" : "W+"; }
  std::vector<std::string> bots() const override { return {"pipeline", "alphabeta", "random"}; }

  Result<void> configure(const GameSettings& s) {
    variant_.rule = gomoku::Rule::kFreestyle;
    if (!s.rule.empty()) {
      auto r = gomoku::parse_rule(s.rule);
      if (!r) return tl::unexpected(r.error());
      variant_.rule = *r;
    }
    variant_.size = s.board_size ? s.board_size : variant_.rule == gomoku::Rule::kCapture ? 19 : 15;
    if (variant_.size < 15 || variant_.size > gomoku::kMaxSize)
      return fail("--board-size {}: gomoku boards are 15 to {}", variant_.size, gomoku::kMaxSize);
    return {};
  }

  Result<void> load_openings(const OpeningOptions& o) override {
    book_.clear();
    if (o.file.empty()) return {};
    if (o.format != "auto" && o.format != "offset")
      return fail("unknown opening format '{}' for gomoku (offset: x,y pairs from the centre)",
                  o.format);
    std::ifstream in(o.file);
    if (!in) return fail("cannot read '{}'", o.file);
    std::string line;
    int n = 0, skipped = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
      auto op = parse_offset_line(line, variant_.size);
      if (!op) {
        // Openings for bigger boards do not fit a smaller one: skip those, fail on garbage.
        if (op.error().message.find("off a") != std::string::npos) {
          ++skipped;
          continue;
        }
        return with_context(op.error(), fmt::format("{}:{}", o.file, n));
      }
      auto pos = Position::from_moves(variant_, op->stones);
      if (!pos) return with_context(pos.error(), fmt::format("{}:{}", o.file, n));
      if (pos->is_terminal()) return fail("{}:{}: the opening is already decided", o.file, n);
      op->label = fmt::format("{}#{}", o.file, n);
      book_.push_back(std::move(*op));
    }
    if (book_.empty())
      return fail("{}: no openings fit a {}x{} board", o.file, variant_.size, variant_.size);
    return {};
  }
  std::size_t opening_count() const override { return book_.size(); }

  Result<void> check(const PlayerSpec& spec) const override {
    if (!spec.protocol.empty() && spec.protocol != "gomocup")
      return fail("gomoku players speak the Gomocup protocol, not {}", spec.protocol);
    if (spec.is_embedded()) return {};
    if (!spec.external()) {
      const auto names = bots();
      if (std::find(names.begin(), names.end(), spec.bot) == names.end())
        return fail("no gomoku bot '{}' (bots: pipeline, alphabeta, random)", spec.bot);
      if (auto seat = make_gomoku_bot_seat(spec); !seat) return tl::unexpected(seat.error());
    }
    return {};
  }

  Result<std::unique_ptr<Seat>> open(const PlayerSpec& spec,
                                     const GameSettings& settings) const override {
    if (!spec.external()) {
      auto seat = make_gomoku_bot_seat(spec);
      if (!seat) return tl::unexpected(seat.error());
      return std::unique_ptr<Seat>(std::move(*seat));
    }
    auto process = spawn_player(spec);
    if (!process) return tl::unexpected(process.error());
    auto seat = std::make_unique<GomocupSeat>(std::move(*process), settings.start_timeout_ms);
    // The handshake is START: check the engine answers it now.
    if (auto ok = seat->new_game(variant_, GomokuRequest{}, 0); !ok)
      return tl::unexpected(ok.error());
    return seat;
  }

  GameOutcome play(const GameJob& job, std::array<Seat*, 2> seats,
                   std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                   const std::atomic<bool>& stop) const override;

  gomoku::Variant variant_;

 private:
  std::vector<GomokuOpening> book_;
};

std::string sgf_point(Move m) {
  return fmt::format("{}{}", static_cast<char>('a' + gomoku::x_of(m.sq)),
                     static_cast<char>('a' + gomoku::y_of(m.sq)));
}

// One gomoku game for the referee loop: the position and every stone with its comment.
class GomokuTurns final : public TurnGame {
 public:
  GomokuTurns(const GameJob& job, std::array<GomokuSeat*, 2> seats,
              std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
              const gomoku::Variant& variant, const GomokuOpening& opening)
      : pos(variant),
        job_(job),
        seats_(seats),
        specs_(specs),
        settings_(settings),
        variant_(variant) {
    if (auto start = Position::from_moves(variant, opening.stones)) pos = *start;
    for (const auto& [x, y] : opening.stones)
      history.push_back(Move{static_cast<std::uint16_t>(gomoku::square_of(x, y))});
    comments.resize(history.size());
  }

  std::string who(int side) const override {
    return fmt::format("{} ({})", kColour[side], specs_[side]->name);
  }
  // The seat sees its clock and limits before the first move (Gomocup's INFO).
  Result<void> start(int side, const ClockView& clock, const MoveLimits& limits) override {
    return seats_[side]->new_game(variant_, GomokuRequest{clock, limits}, seat_seed(job_, side));
  }
  std::optional<Verdict> over() override {
    if (!pos.is_terminal()) return std::nullopt;
    const int w = pos.winner();
    return Verdict{w == 0   ? 1.0
                   : w == 1 ? 0.0
                            : 0.5,
                   "normal", w < 0 ? "board full" : fmt::format("{} wins", kColour[w]), ""};
  }
  int to_move() const override { return pos.side_to_move() == gomoku::kBlack ? 0 : 1; }
  TurnReply ask(int side, const ClockView& clock, const MoveLimits& limits, std::int64_t budget_ms,
                const std::atomic<bool>& stop) override {
    return seats_[side]->go(pos, history, GomokuRequest{clock, limits}, budget_ms, stop);
  }
  Result<void> play(int side, const TurnReply& reply) override {
    auto m = gomoku::parse_move(pos, reply.move);
    if (!m || !pos.is_legal(*m))
      return fail("plays {} '{}'{}", m ? "a forbidden move" : "an illegal move",
                  reply.move.empty() ? "(none)" : reply.move,
                  m ? fmt::format(" ({})", gomoku::rule_name(variant_.rule)) : "");
    if (settings_.verbose)
      fmt::print(stderr, "game {} {} {} {} ({:.0f} ms) {}\n", job_.number, specs_[side]->name,
                 kColour[side], gomoku::to_text(*m), reply.elapsed_ms, reply.comment);
    pos.apply(*m);
    history.push_back(*m);
    comments.push_back(fmt::format("{}{:.3f}s", reply.comment.empty() ? "" : reply.comment + " ",
                                   reply.elapsed_ms / 1000));
    return {};
  }

  Position pos;
  std::vector<Move> history;
  std::vector<std::string> comments;

 private:
  static constexpr const char* kColour[2] = {"Black", "White"};
  const GameJob& job_;
  std::array<GomokuSeat*, 2> seats_;
  std::array<const PlayerSpec*, 2> specs_;
  const GameSettings& settings_;
  const gomoku::Variant& variant_;
};

GameOutcome GomokuKind::play(const GameJob& job, std::array<Seat*, 2> seats,
                             std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                             const std::atomic<bool>& stop) const {
  const auto t_game = Clock::now();
  GameOutcome out;
  const GomokuOpening empty{"empty board", {}};
  const GomokuOpening& opening = book_.empty() ? empty : book_[job.opening];
  out.opening = opening.label;
  RefereeBook book(out, specs, settings, {"B+", "W+", "0", "?"});
  GomokuTurns game(job, {static_cast<GomokuSeat*>(seats[0]), static_cast<GomokuSeat*>(seats[1])},
                   specs, settings, variant_, opening);
  const int player_moves = referee_turns(game, book, settings, stop);
  const auto& history = game.history;
  const auto& comments = game.comments;
  out.plies = player_moves;
  out.seconds = std::chrono::duration<double>(Clock::now() - t_game).count();

  // SGF FF[4], GM[4] (gomoku): the opening stones are moves too.
  auto escape = [](std::string v) {
    std::string e;
    for (char c : v) {
      if (c == ']' || c == '\\') e += '\\';
      e += c;
    }
    return e;
  };
  std::string sgf = fmt::format(
      "(;FF[4]GM[4]CA[UTF-8]AP[kibitz]SZ[{}]RU[{}]EV[{}]RO[{}]PB[{}]PW[{}]RE[{}]GN[{}]C[{}]",
      variant_.size, gomoku::rule_name(variant_.rule), escape(settings.event), job.number,
      escape(specs[0]->name), escape(specs[1]->name), out.result.empty() ? "?" : out.result,
      escape(opening.label), escape(out.termination + ": " + out.reason));
  for (std::size_t i = 0; i < history.size(); ++i) {
    sgf += fmt::format("\n;{}[{}]", i % 2 == 0 ? 'B' : 'W', sgf_point(history[i]));
    if (!comments[i].empty()) sgf += fmt::format("C[{}]", escape(comments[i]));
  }
  sgf += ")\n";
  out.record = sgf;
  return out;
}

}  // namespace

Result<std::unique_ptr<GameKind>> make_gomoku_kind(const GameSettings& settings) {
  auto kind = std::make_unique<GomokuKind>();
  if (auto ok = kind->configure(settings); !ok) return tl::unexpected(ok.error());
  return std::unique_ptr<GameKind>(std::move(kind));
}

}  // namespace kibitz::match
