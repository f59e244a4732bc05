// Chess in `kibitz match`: opening books (EPD positions or PGN lines), players speaking UCI
// or in-process bots (the Kibitz engine, the plain alpha-beta baseline, random), and the
// referee: legality of every move, the rules' endings, clocks, score adjudication, PGN.
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <optional>

#include "core/process.hpp"
#include "core/rng.hpp"
#include "core/text.hpp"
#include "engine/any_engine.hpp"
#include "engine/chess_engine.hpp"
#include "games/chess/epd.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/pgn.hpp"
#include "match/arena.hpp"
#include "match/chess_arena.hpp"
#include "match/referee.hpp"

namespace kibitz::match {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kMateScore = 100000;  // reported mates as centipawns, minus the distance

// What the mover is asked for: the clocks and the fixed limits.
struct ChessGo {
  ClockView clock;
  MoveLimits limits;
};

// A chess reply (TurnReply): the move in UCI notation as the player sent it, the score in
// centipawns from the mover's view with mates as +-(kMateScore - plies), "+0.35/12" for the
// PGN.
using ChessReply = TurnReply;

std::string score_comment(std::optional<int> cp, int depth) {
  if (!cp) return depth ? fmt::format("d{}", depth) : std::string();
  std::string s;
  if (std::abs(*cp) >= kMateScore - 1000) {
    const int plies = kMateScore - std::abs(*cp);
    s = fmt::format("{}M{}", *cp > 0 ? "+" : "-", (plies + 1) / 2);
  } else {
    s = fmt::format("{:+.2f}", *cp / 100.0);
  }
  return depth ? fmt::format("{}/{}", s, depth) : s;
}

class ChessSeat : public Seat {
 public:
  virtual Result<void> new_game(std::uint64_t game_seed) = 0;
  virtual ChessReply go(const chess::Position& start, const std::vector<chess::Move>& moves,
                        const chess::Position& now, const ChessGo& request, std::int64_t budget_ms,
                        const std::atomic<bool>& stop) = 0;
};

// ---------------------------------------------------------------------------------------
// An external engine over UCI.

class UciSeat final : public ChessSeat {
 public:
  UciSeat(std::unique_ptr<Subprocess> process, std::int64_t timeout_ms)
      : process_(std::move(process)), timeout_ms_(timeout_ms) {}
  ~UciSeat() override {
    if (process_->running()) process_->write_line("quit");
    process_->terminate(std::chrono::milliseconds(500));
  }
  bool healthy() const override { return healthy_; }

  // The handshake: uci ... uciok, the options (each checked against the engine's list),
  // isready ... readyok.
  Result<void> start(const PlayerSpec& spec) {
    if (!process_->write_line("uci")) return broken("does not accept input");
    std::vector<std::string> names;
    for (;;) {
      auto line = read(timeout_ms_, "uciok");
      if (!line) return tl::unexpected(line.error());
      if (*line == "uciok") break;
      if (line->starts_with("option name ")) {
        const auto end = line->find(" type ");
        names.push_back(to_lower(line->substr(12, end == std::string::npos ? end : end - 12)));
      }
    }
    for (const auto& [name, value] : spec.options) {
      if (std::find(names.begin(), names.end(), to_lower(name)) == names.end())
        return fail("the engine has no UCI option '{}'", name);
      process_->write_line(fmt::format("setoption name {} value {}", name, value));
    }
    return ready();
  }

  Result<void> new_game(std::uint64_t) override {
    process_->write_line("ucinewgame");
    return ready();
  }

  ChessReply go(const chess::Position& start, const std::vector<chess::Move>& moves,
                const chess::Position& now, const ChessGo& request, std::int64_t budget_ms,
                const std::atomic<bool>& stop) override {
    ChessReply reply;
    std::string position = start.fen() == chess::kStartFen ? std::string("position startpos")
                                                           : "position fen " + start.fen();
    if (!moves.empty()) {
      position += " moves";
      for (auto m : moves) position += " " + chess::to_uci(m);
    }
    std::string go = "go";
    const auto& c = request.clock;
    if (c.remaining_ms[0] >= 0 || c.remaining_ms[1] >= 0) {
      go += fmt::format(
          " wtime {} btime {} winc {} binc {}", std::max<std::int64_t>(0, c.remaining_ms[0]),
          std::max<std::int64_t>(0, c.remaining_ms[1]), c.increment_ms[0], c.increment_ms[1]);
      if (c.moves_to_go) go += fmt::format(" movestogo {}", c.moves_to_go);
    }
    if (request.limits.nodes) go += fmt::format(" nodes {}", request.limits.nodes);
    if (request.limits.depth) go += fmt::format(" depth {}", request.limits.depth);
    if (request.limits.movetime_ms) go += fmt::format(" movetime {}", request.limits.movetime_ms);
    (void)now;
    process_->write_line(position);
    const auto t0 = Clock::now();
    if (!process_->write_line(go)) {
      healthy_ = false;
      reply.status = ChessReply::Status::kCrash;
      reply.error = "the engine closed its input (" + process_->exit_description() + ")";
      return reply;
    }
    const auto deadline = t0 + std::chrono::milliseconds(budget_ms);
    int depth = 0;
    for (;;) {
      std::string line;
      const auto status = read_until(line, deadline, stop);
      reply.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      if (status == Subprocess::Read::kEof) {
        healthy_ = false;
        reply.status = ChessReply::Status::kCrash;
        reply.error = "the engine disconnected (" + process_->terminate() + ")";
        return reply;
      }
      if (status == Subprocess::Read::kTimeout) {
        reply.status = stop.load() ? ChessReply::Status::kStopped : ChessReply::Status::kTimeout;
        abandon_search();
        return reply;
      }
      if (line.starts_with("info ")) {
        parse_info(line, reply.score, depth);
      } else if (line.starts_with("bestmove")) {
        const auto words = split_blanks(line);
        reply.move = words.size() > 1 ? words[1] : "";
        reply.comment = score_comment(reply.score, depth);
        return reply;
      }
    }
  }

 private:
  static void parse_info(const std::string& line, std::optional<int>& score, int& depth) {
    const auto w = split_blanks(line);
    // Bounds (lowerbound / upperbound) are not a settled score; skip those lines' scores.
    bool bound = false;
    for (const auto& x : w) bound |= x == "lowerbound" || x == "upperbound";
    for (std::size_t i = 0; i + 1 < w.size(); ++i) {
      int v = 0;
      const auto& s = w[i + 1];
      const bool ok = std::from_chars(s.data(), s.data() + s.size(), v).ec == std::errc();
      if (!ok) continue;
      if (w[i] == "depth") {
        depth = v;
      } else if (w[i] == "multipv" && v != 1) {
        return;  // only the best line counts
      } else if (i >= 1 && w[i - 1] == "score" && !bound) {
        if (w[i] == "cp") score = v;
        if (w[i] == "mate") score = v > 0 ? kMateScore - (2 * v - 1) : -kMateScore - 2 * v;
      }
    }
  }
  Result<std::string> read(std::int64_t ms, std::string_view what) {
    std::string line;
    const auto status = process_->read_line(line, Clock::now() + std::chrono::milliseconds(ms));
    if (status == Subprocess::Read::kLine) return line;
    healthy_ = false;
    if (status == Subprocess::Read::kTimeout) return fail("no {} within {} ms", what, ms);
    return fail("the engine exited before {} ({})", what, process_->terminate());
  }
  Result<void> broken(std::string_view what) {
    healthy_ = false;
    return fail("the engine {} ({})", what, process_->terminate());
  }
  Result<void> ready() {
    if (!process_->write_line("isready")) return broken("closed its input");
    for (;;) {
      auto line = read(timeout_ms_, "readyok");
      if (!line) return tl::unexpected(line.error());
      if (*line == "readyok") return {};
    }
  }
  // Reads in slices so an interrupt (stop) is seen within 100 ms.
  Subprocess::Read read_until(std::string& line, Clock::time_point deadline,
                              const std::atomic<bool>& stop) {
    for (;;) {
      if (stop.load()) return Subprocess::Read::kTimeout;
      const auto slice = std::min(deadline, Clock::now() + std::chrono::milliseconds(100));
      const auto status = process_->read_line(line, slice);
      if (status != Subprocess::Read::kTimeout || Clock::now() >= deadline) return status;
    }
  }
  // After a timeout: stop the search and take its bestmove, or give the engine up.
  void abandon_search() {
    process_->write_line("stop");
    const auto deadline = Clock::now() + std::chrono::milliseconds(1000);
    std::string line;
    while (process_->read_line(line, deadline) == Subprocess::Read::kLine)
      if (line.starts_with("bestmove")) return;
    healthy_ = false;
  }

  std::unique_ptr<Subprocess> process_;
  std::int64_t timeout_ms_;
  bool healthy_ = true;
};

// ---------------------------------------------------------------------------------------
// In-process bots.

class BotSeat final : public ChessSeat {
 public:
  // An engine bot (kibitz, plain, an embedded player) plays through the one engine contract;
  // random has none. `scores`: the engine's score is its own view (not an embedded player's
  // default 0), for adjudication.
  BotSeat(std::unique_ptr<engine::AnyEngine> engine, bool scores)
      : engine_(std::move(engine)), scores_(scores) {}
  bool healthy() const override { return true; }
  Result<void> new_game(std::uint64_t game_seed) override {
    rng_.reseed(game_seed);
    if (engine_) engine_->new_game();
    return {};
  }
  ChessReply go(const chess::Position& start, const std::vector<chess::Move>& moves,
                const chess::Position& now, const ChessGo& request, std::int64_t,
                const std::atomic<bool>&) override {
    ChessReply reply;
    const auto t0 = Clock::now();
    if (!engine_) {
      MoveList<chess::Position> legal;
      now.legal_moves(legal);
      if (legal.size() > 0) reply.move = chess::to_uci(legal[rng_.below(legal.size())]);
    } else {
      // The game from its start, so the engine knows the repetitions.
      std::string text = start.fen() + " moves";
      for (const auto m : moves) text += " " + chess::to_uci(m);
      const int side = now.side_to_move() == chess::kWhite ? 0 : 1;
      engine::EngineLimits limits;
      limits.clock_ms = request.clock.remaining_ms[side];
      limits.increment_ms = request.clock.increment_ms[side];
      limits.moves_to_go = request.clock.moves_to_go;
      limits.movetime_ms = request.limits.movetime_ms;
      limits.nodes = request.limits.nodes;
      limits.depth = request.limits.depth;
      if (!engine_->set_position(text)) return reply;  // cannot happen: the referee's game
      const auto r = engine_->think(limits);
      if (!r) {
        reply.status = ChessReply::Status::kCrash;  // an embedded player's own failure
        reply.error = r.error().message;
      } else if (scores_) {
        reply.move = r->move;
        int cp = static_cast<int>(r->score);
        if (search::is_mate(cp)) {
          const int plies = search::kMate - std::abs(cp);
          cp = cp > 0 ? kMateScore - plies : -kMateScore + plies;
        }
        reply.score = cp;
        reply.comment = score_comment(cp, r->depth);
      } else {
        reply.move = r->move;
      }
    }
    reply.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return reply;
  }

 private:
  std::unique_ptr<engine::AnyEngine> engine_;
  bool scores_ = true;
  Rng rng_;
};

// An in-process bot: the engine (kibitz: the full search; plain: the seed's plain baseline)
// with the spec's options, each checked against the engine's declarations (Hash, Threads,
// Move Overhead, every search technique), or random.
Result<std::unique_ptr<BotSeat>> make_chess_bot_seat(const PlayerSpec& spec) {
  if (spec.is_embedded()) return std::make_unique<BotSeat>(spec.embedded(), false);
  auto engine = engine::make_chess_any_engine(spec.bot == "plain");
  for (const auto& [name, value] : spec.options)
    if (auto ok = engine->set_option(name, value); !ok)
      return fail("bot {}: {}", spec.bot, ok.error().message);
  // The random bot takes the same options (checked, then unused).
  return std::make_unique<BotSeat>(spec.bot == "random" ? nullptr : std::move(engine), true);
}

struct Opening {
  std::string label;
  chess::Position start;
  std::vector<chess::Move> moves;
};

std::string today() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}.{:02}.{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

class ChessKind final : public GameKind {
 public:
  std::string name() const override { return "chess"; }
  std::string record_format() const override { return "PGN"; }
  std::string forfeit_result(int winner) const override { return winner == 0 ? "1-0" : "0-1"; }
  std::vector<std::string> bots() const override { return {"kibitz", "plain", "random"}; }

  Result<void> load_openings(const OpeningOptions& o) override {
    book_.clear();
    if (o.file.empty()) return {};
    std::string format = o.format;
    if (format == "auto") {
      const auto dot = o.file.rfind('.');
      const std::string ext = dot == std::string::npos ? "" : o.file.substr(dot + 1);
      format = ext == "pgn" ? "pgn" : ext == "epd" || ext == "fen" ? "epd" : "";
      if (format.empty())
        return fail(
            "{}: cannot tell the opening format from the name (use --openings-format "
            "epd|pgn)",
            o.file);
    }
    if (format == "epd") {
      auto records = chess::load_epd_file(o.file);
      if (!records) return tl::unexpected(records.error());
      for (std::size_t i = 0; i < records->size(); ++i) {
        auto& r = (*records)[i];
        const auto id = r.op("id");
        book_.push_back({id ? *id : fmt::format("{}#{}", o.file, i + 1), r.position, {}});
      }
    } else if (format == "pgn") {
      auto games = chess::load_pgn_file(o.file);
      if (!games) return tl::unexpected(games.error());
      for (std::size_t i = 0; i < games->size(); ++i) {
        auto& g = (*games)[i];
        if (o.plies > 0 && g.moves.size() > static_cast<std::size_t>(o.plies))
          g.moves.resize(static_cast<std::size_t>(o.plies));
        std::string label = fmt::format("{}#{}", o.file, i + 1);
        for (const auto& [k, v] : g.tags)
          if (k == "ECO" || k == "Eco" || k == "Opening") label += " " + v;
        book_.push_back({label, g.start, std::move(g.moves)});
      }
    } else {
      return fail("unknown opening format '{}' for chess (epd or pgn)", format);
    }
    if (book_.empty()) return fail("{}: no openings in the file", o.file);
    // A line that already ends the game is no opening.
    for (const auto& op : book_) {
      chess::Position p = op.start;
      for (auto m : op.moves) p.apply(m);
      if (p.is_terminal()) return fail("{}: the opening '{}' is already over", o.file, op.label);
    }
    return {};
  }
  std::size_t opening_count() const override { return book_.size(); }

  Result<void> check(const PlayerSpec& spec) const override {
    if (!spec.protocol.empty() && spec.protocol != "uci")
      return fail("chess players speak UCI, not {}", spec.protocol);
    if (spec.is_embedded()) return {};
    if (!spec.external()) {
      const auto names = bots();
      if (std::find(names.begin(), names.end(), spec.bot) == names.end())
        return fail("no chess bot '{}' (bots: kibitz, plain, random)", spec.bot);
      if (auto seat = make_chess_bot_seat(spec); !seat) return tl::unexpected(seat.error());
    }
    return {};
  }

  Result<std::unique_ptr<Seat>> open(const PlayerSpec& spec,
                                     const GameSettings& settings) const override {
    if (!spec.external()) {
      auto seat = make_chess_bot_seat(spec);
      if (!seat) return tl::unexpected(seat.error());
      return std::unique_ptr<Seat>(std::move(*seat));
    }
    auto process = spawn_player(spec);
    if (!process) return tl::unexpected(process.error());
    auto seat = std::make_unique<UciSeat>(std::move(*process), settings.start_timeout_ms);
    if (auto ok = seat->start(spec); !ok) return tl::unexpected(ok.error());
    return seat;
  }

  GameOutcome play(const GameJob& job, std::array<Seat*, 2> seats,
                   std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                   const std::atomic<bool>& stop) const override;

 private:
  std::vector<Opening> book_;
};

// One chess game for the referee loop: the position, the moves with their PGN comments, and
// the adjudication streaks.
class ChessTurns final : public TurnGame {
 public:
  ChessTurns(const GameJob& job, std::array<ChessSeat*, 2> seats,
             std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
             const Opening& opening)
      : job_(job), seats_(seats), specs_(specs), settings_(settings), opening_(opening) {
    pos = opening.start;
    for (auto m : opening.moves) {
      moves.push_back(m);
      comments.emplace_back();
      pos.apply(m);
    }
  }

  std::string who(int side) const override {
    return fmt::format("{} ({})", kSideName[side], specs_[side]->name);
  }
  // Seeds for bots that draw moves at random: fixed by the game, not by the worker.
  Result<void> start(int side, const ClockView&, const MoveLimits&) override {
    return seats_[side]->new_game(seat_seed(job_, side));
  }
  std::optional<Verdict> over() override {
    const auto o = pos.outcome();
    if (o == chess::Outcome::kOngoing) return std::nullopt;
    const auto r = pos.returns();
    return Verdict{
        r[0] > 0   ? 1.0
        : r[0] < 0 ? 0.0
                   : 0.5,
        "normal",
        o == chess::Outcome::kCheckmate
            ? fmt::format("{} mates", kSideName[pos.side_to_move() == chess::kWhite ? 1 : 0])
            : std::string(chess::outcome_name(o)),
        ""};
  }
  int to_move() const override { return pos.side_to_move() == chess::kWhite ? 0 : 1; }
  TurnReply ask(int side, const ClockView& clock, const MoveLimits& limits, std::int64_t budget_ms,
                const std::atomic<bool>& stop) override {
    return seats_[side]->go(opening_.start, moves, pos, ChessGo{clock, limits}, budget_ms, stop);
  }
  Result<void> play(int side, const TurnReply& reply) override {
    auto move = chess::parse_uci(pos, reply.move);
    if (!move || !pos.is_legal(*move))
      return fail("plays an illegal move '{}'", reply.move.empty() ? "(none)" : reply.move);
    if (settings_.verbose)
      fmt::print(stderr, "game {} {} {}{} {} ({}, {:.0f} ms)\n", job_.number, specs_[side]->name,
                 pos.fullmove_number(), side == 0 ? "." : "...", chess::to_san(pos, *move),
                 reply.comment, reply.elapsed_ms);
    comments.push_back(reply.comment.empty()
                           ? fmt::format("{:.3f}s", reply.elapsed_ms / 1000)
                           : fmt::format("{} {:.3f}s", reply.comment, reply.elapsed_ms / 1000));
    moves.push_back(*move);
    pos.apply(*move);
    return {};
  }
  // Adjudication from the scores the players report (White's view).
  std::optional<Verdict> adjudicate(int side, const TurnReply& reply) override {
    const auto& adj = settings_.adjudication;
    std::optional<int> white;
    if (reply.score) white = side == 0 ? *reply.score : -*reply.score;
    if (adj.resign_moves > 0) {
      std::optional<Verdict> won;
      for (int s = 0; s < 2; ++s) {
        const bool ahead =
            white && (s == 0 ? *white >= adj.resign_score : *white <= -adj.resign_score);
        resign_streak_[s] = ahead ? resign_streak_[s] + 1 : 0;
        if (resign_streak_[s] >= 2 * adj.resign_moves)
          won = Verdict{
              s == 0 ? 1.0 : 0.0, "adjudication",
              fmt::format("{} wins by adjudication (both players' scores agree)", kSideName[s]),
              ""};
      }
      if (won) return won;
    }
    if (adj.draw_moves > 0) {
      draw_streak_ = white && std::abs(*white) <= adj.draw_score ? draw_streak_ + 1 : 0;
      if (draw_streak_ >= 2 * adj.draw_moves && pos.fullmove_number() > adj.draw_after)
        return Verdict{0.5, "adjudication", "draw by adjudication", ""};
    }
    return std::nullopt;
  }

  chess::Position pos;
  std::vector<chess::Move> moves;
  std::vector<std::string> comments;

 private:
  static constexpr const char* kSideName[2] = {"White", "Black"};
  const GameJob& job_;
  std::array<ChessSeat*, 2> seats_;
  std::array<const PlayerSpec*, 2> specs_;
  const GameSettings& settings_;
  const Opening& opening_;
  std::array<int, 2> resign_streak_{0, 0};
  int draw_streak_ = 0;
};

GameOutcome ChessKind::play(const GameJob& job, std::array<Seat*, 2> seats,
                            std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                            const std::atomic<bool>& stop) const {
  const auto t_game = Clock::now();
  GameOutcome out;
  const Opening standard{"startpos", chess::Position(), {}};
  const Opening& opening = book_.empty() ? standard : book_[job.opening];
  out.opening = opening.label;

  RefereeBook book(out, specs, settings, {"1-0", "0-1", "1/2-1/2", "*"});
  ChessTurns turns(job, {static_cast<ChessSeat*>(seats[0]), static_cast<ChessSeat*>(seats[1])},
                   specs, settings, opening);
  referee_turns(turns, book, settings, stop);
  const auto& moves = turns.moves;
  auto& comments = turns.comments;
  out.plies = static_cast<int>(moves.size() - opening.moves.size());
  out.seconds = std::chrono::duration<double>(Clock::now() - t_game).count();

  chess::PgnGame game;
  game.start = opening.start;
  game.moves = moves;
  game.result = out.result.empty() ? "*" : out.result;
  game.tags = {{"Event", settings.event},
               {"Site", "kibitz match"},
               {"Date", today()},
               {"Round", std::to_string(job.number)},
               {"White", specs[0]->name},
               {"Black", specs[1]->name},
               {"Termination", out.termination}};
  const auto& white_clock = book.limits(0).clock;
  const auto& black_clock = book.limits(1).clock;
  if (white_clock && black_clock && white_clock->to_string() == black_clock->to_string())
    game.tags.emplace_back("TimeControl", white_clock->pgn());
  if (!book_.empty()) game.tags.emplace_back("Opening", opening.label);
  if (!comments.empty() && !out.reason.empty())
    comments.back() += (comments.back().empty() ? "" : ", ") + out.reason;
  out.record = chess::to_pgn(game, comments);
  return out;
}

}  // namespace

std::unique_ptr<GameKind> make_chess_kind() { return std::make_unique<ChessKind>(); }

}  // namespace kibitz::match
