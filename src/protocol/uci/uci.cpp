#include "protocol/uci/uci.hpp"
#include "core/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <istream>
#include <limits>
#include <ostream>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "core/log.hpp"
#include "engine/chess_engine.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/perft.hpp"

namespace kibitz::uci {
namespace {

constexpr int kMaxHashMb = 65536;
constexpr int kMaxThreads = 256;
constexpr int kMaxMultiPv = 256;
constexpr int kMaxOverhead = 5000;

template <class T>
bool parse_number(std::string_view text, T& out) {
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size();
}

// A `go` value: an integer, or a decimal whose integer part is taken (clients send fractional
// milliseconds, "987.5"); a leading '+' is accepted. Values past the type's range saturate.
bool parse_go_number(std::string_view text, std::int64_t& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  if (dot != std::string_view::npos) {
    const std::string_view frac = text.substr(dot + 1);
    if (frac.empty() || frac.find_first_not_of("0123456789") != std::string_view::npos)
      return false;
    if (whole.empty() || whole == "-") whole = "0";
  }
  const auto [p, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), out);
  if (p != whole.data() + whole.size() || whole.empty()) return false;
  if (ec == std::errc::result_out_of_range) {
    out = whole.front() == '-' ? std::numeric_limits<std::int64_t>::min()
                               : std::numeric_limits<std::int64_t>::max();
    return true;
  }
  return ec == std::errc();
}

bool is_go_keyword(std::string_view w) {
  static constexpr std::string_view kKeywords[] = {
      "searchmoves", "ponder", "wtime", "btime",    "winc",     "binc", "movestogo",
      "depth",       "nodes",  "mate",  "movetime", "infinite", "perft"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), w) != std::end(kKeywords);
}

std::string format_score(search::Score s) {
  if (search::is_mate(s)) return fmt::format("mate {}", search::mate_moves(s));
  return fmt::format("cp {}", s);
}

}  // namespace

std::string format_info(const engine::EngineReport& info) {
  std::string line =
      fmt::format("info depth {} seldepth {} multipv {} score {}", info.depth, info.seldepth,
                  info.multipv, format_score(static_cast<search::Score>(info.score)));
  if (info.bound == engine::EngineReport::Bound::kLower) line += " lowerbound";
  if (info.bound == engine::EngineReport::Bound::kUpper) line += " upperbound";
  const std::uint64_t nps =
      info.time_ms > 0 ? info.nodes * 1000 / static_cast<std::uint64_t>(info.time_ms) : 0;
  line += fmt::format(" nodes {} nps {} hashfull {} time {} pv", info.nodes, nps, info.hashfull,
                      info.time_ms);
  for (const auto& m : info.pv) {
    line += ' ';
    line += m;
  }
  return line;
}

Session::Session(std::istream& in, std::ostream& out)
    : in_(in), out_(out), engine_(engine::make_chess_any_engine()) {
  // std::cin is tied to std::cout: every read would flush the output from the reading thread,
  // outside out_mutex_, racing the search thread's lines (seen as a duplicated "bestmove"
  // when the next command follows the answer at once). send() flushes under the lock.
  in_.tie(nullptr);
}

void Session::warn(std::string_view message) {
  logger().warn("uci: {}", message);
  send(fmt::format("info string {}", message));
}

void Session::send(std::string_view line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << '\n';
  out_.flush();
}

int Session::run() {
  std::string line;
  bool quit = false;
  while (!quit && std::getline(in_, line)) quit = !handle(line);
  // `quit` stops at once; at the end of piped input a bounded search still finishes (so
  // `printf 'go depth 10' | kibitz uci` answers), an infinite or pondering one is stopped
  // (after `ponderhit` a ponder search is bounded by its clock and finishes too).
  if (quit || infinite_ || pondering_) engine_->stop();
  engine_->wait();
  return 0;
}

Result<void> Session::set_option(std::string_view name, std::string_view value) {
  return engine_->set_option(name, value);
}

bool Session::handle(std::string_view raw) {
  const std::string_view line = trim(raw);
  if (line.empty()) return true;
  const auto space = line.find_first_of(" \t");
  const std::string_view cmd = line.substr(0, space);
  const std::string_view args = space == std::string_view::npos ? "" : trim(line.substr(space));

  if (cmd == "uci") {
    cmd_uci();
  } else if (cmd == "isready") {
    send("readyok");
  } else if (cmd == "ucinewgame") {
    if (engine_->thinking()) {
      logger().warn("uci: ucinewgame while searching: ignored");
    } else {
      engine_->new_game();
      position_ = chess::Position();
      position_text_ = "startpos";
      position_error_.clear();
    }
  } else if (cmd == "position") {
    cmd_position(args);
  } else if (cmd == "go") {
    cmd_go(args);
  } else if (cmd == "stop") {
    engine_->stop();
  } else if (cmd == "ponderhit") {
    pondering_ = false;
    engine_->ponderhit();
  } else if (cmd == "setoption") {
    cmd_setoption(args);
  } else if (cmd == "quit") {
    return false;
  } else if (cmd == "bench") {
    cmd_bench(args);
  } else if (cmd == "d") {
    send(fmt::format("fen {}", position_.fen()));
  } else if (cmd == "debug" || cmd == "register") {
    // Accepted and ignored (no debug output, no registration).
  } else {
    logger().warn("uci: unknown command '{}'", excerpt(cmd));
  }
  return true;
}

void Session::cmd_uci() {
  send(fmt::format("id name Kibitz {}", KIBITZ_VERSION));
  send("id author the Kibitz developers");
  using T = engine::EngineOption::Type;
  for (const auto& o : engine_->options()) {
    if (o.type == T::kButton)
      send(fmt::format("option name {} type button", o.name));
    else if (o.type == T::kBool)
      send(fmt::format("option name {} type check default {}", o.name, o.value ? "true" : "false"));
    else if (o.type == T::kReal)  // UCI has no number with a fraction: a string
      send(fmt::format("option name {} type string default {}", o.name, o.real));
    else if (o.type == T::kString)
      send(fmt::format("option name {} type string default {}", o.name,
                       o.text.empty() ? "<empty>" : o.text));
    else
      send(fmt::format("option name {} type spin default {} min {} max {}", o.name, o.value, o.min,
                       o.max));
  }
  send("uciok");
}

void Session::cmd_setoption(std::string_view args) {
  // setoption name <id...> [value <x...>]; names are case-insensitive.
  const auto words = split_blanks(args);
  if (words.size() < 2 || words[0] != "name") {
    logger().warn("uci: setoption: expected 'setoption name <id> [value <x>]'");
    return;
  }
  std::string name, value;
  bool in_value = false;
  for (std::size_t i = 1; i < words.size(); ++i) {
    if (!in_value && words[i] == "value") {
      in_value = true;
      continue;
    }
    std::string& target = in_value ? value : name;
    if (!target.empty()) target += ' ';
    target += words[i];
  }
  const std::string key = to_lower(name);
  if (key == "uci_analysemode" || key == "uci_chess960") {
    if (key == "uci_chess960" && to_lower(value) == "true")
      logger().warn("uci: UCI_Chess960 is not supported");
    return;
  }
  // The engine's options, by name in any case; a check's value in any case too.
  const auto& options = engine_->options();
  const auto it = std::find_if(options.begin(), options.end(), [&](const engine::EngineOption& o) {
    return to_lower(o.name) == key;
  });
  if (it == options.end()) {
    logger().warn("uci: setoption: unknown option '{}'", excerpt(name));
    return;
  }
  if (it->type == engine::EngineOption::Type::kBool) value = to_lower(value);
  if (auto v = engine::parse_option_value(*it, value); !v) {
    logger().warn("uci: setoption: {}", v.error().message);
    return;
  }
  if (engine_->thinking()) {
    // What only shapes the next search waits for it; what the search is using is refused.
    if (it->name == "MultiPV" || it->name == "Move Overhead" || it->name == "Ponder") {
      pending_[it->name] = value;
    } else {
      logger().warn("uci: setoption {} while searching: ignored", it->name);
    }
    return;
  }
  if (auto ok = engine_->set_option(it->name, value); !ok)
    logger().warn("uci: setoption: {}", ok.error().message);
}

void Session::cmd_position(std::string_view args) {
  // position startpos | fen <FEN> [moves m1 m2 ...]. A refused one is reported (info string)
  // and leaves no position: the next `go` answers "bestmove 0000" instead of searching the
  // previous position, which the GUI no longer means.
  const auto refuse = [this](std::string message) {
    position_error_ = message;
    warn(fmt::format("position refused: {}", message));
  };
  const auto words = split_blanks(args);
  if (words.empty()) return refuse("expected 'startpos' or 'fen <FEN>'");
  std::size_t i = 0;
  chess::Position pos;
  if (words[0] == "startpos") {
    i = 1;
  } else if (words[0] == "fen") {
    std::string fen;
    for (i = 1; i < words.size() && words[i] != "moves"; ++i) {
      if (!fen.empty()) fen += ' ';
      fen += words[i];
    }
    auto parsed = chess::Position::from_fen(fen);
    if (!parsed) return refuse(excerpt(parsed.error().message, 200));
    pos = *parsed;
  } else {
    return refuse(fmt::format("expected 'startpos' or 'fen', got '{}'", excerpt(words[0])));
  }
  if (i < words.size()) {
    if (words[i] != "moves")
      return refuse(fmt::format("expected 'moves', got '{}'", excerpt(words[i])));
    for (++i; i < words.size(); ++i) {
      auto m = chess::parse_uci(pos, words[i]);
      if (!m)
        return refuse(fmt::format("move {}: {}", excerpt(words[i]), excerpt(m.error().message)));
      pos.apply(*m);
    }
  }
  position_ = pos;
  // The engine is given the same text: the moves make the game's history (repetitions).
  std::string text(words[0] == "fen" ? trim(args.substr(args.find("fen") + 3)) : args);
  position_text_ = std::move(text);
  position_error_.clear();
}

void Session::cmd_go(std::string_view args) {
  // Every `go` is answered by exactly one bestmove: a malformed or out-of-range value is
  // reported (info string) and that limit ignored or raised to its least meaningful value,
  // never a reason to drop the command, since the GUI would wait for an answer forever.
  const auto words = split_blanks(args);
  engine::EngineLimits limits;
  const bool white = position_.side_to_move() == chess::kWhite;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    const auto number = [&](std::int64_t& out) {
      if (i + 1 >= words.size() || !parse_go_number(words[i + 1], out)) {
        warn(fmt::format("go {}: expected a number after it{}: ignored", w,
                         i + 1 < words.size() ? fmt::format(", got '{}'", excerpt(words[i + 1]))
                                              : std::string()));
        // A value that is not a known keyword was meant as the number: skip it too.
        if (i + 1 < words.size() && !is_go_keyword(words[i + 1])) ++i;
        return false;
      }
      ++i;
      return true;
    };
    const auto at_least = [&](std::int64_t v, std::int64_t lo) {
      if (v >= lo) return v;
      warn(fmt::format("go {} {}: below {}, searched as {} {}", w, v, lo, w, lo));
      return lo;
    };
    std::int64_t v = 0;
    if (w == "wtime" || w == "btime") {
      if (!number(v)) continue;
      if ((w == "wtime") == white) limits.clock_ms = std::max<std::int64_t>(v, 0);
    } else if (w == "winc" || w == "binc") {
      if (!number(v)) continue;
      if ((w == "winc") == white) limits.increment_ms = std::max<std::int64_t>(v, 0);
    } else if (w == "movestogo") {
      if (!number(v)) continue;
      limits.moves_to_go = static_cast<int>(std::clamp<std::int64_t>(v, 0, 10000));
    } else if (w == "depth") {
      if (!number(v)) continue;
      limits.depth = static_cast<int>(std::min<std::int64_t>(at_least(v, 1), 10000));
    } else if (w == "nodes") {
      if (!number(v)) continue;
      limits.nodes = static_cast<std::uint64_t>(at_least(v, 1));
    } else if (w == "mate") {
      if (!number(v)) continue;
      limits.mate = static_cast<int>(std::min<std::int64_t>(at_least(v, 1), 10000));
    } else if (w == "movetime") {
      if (!number(v)) continue;
      limits.movetime_ms = at_least(v, 1);
    } else if (w == "infinite") {
      limits.infinite = true;
    } else if (w == "ponder") {
      limits.ponder = true;
    } else if (w == "perft") {
      if (!number(v)) continue;
      cmd_perft(static_cast<int>(std::clamp<std::int64_t>(v, -1, 100)));
      return;
    } else if (w == "searchmoves") {
      // Every following word that is a legal move.
      while (i + 1 < words.size()) {
        auto m = chess::parse_uci(position_, words[i + 1]);
        if (!m) break;
        limits.searchmoves.push_back(chess::to_uci(*m));
        ++i;
      }
    } else {
      warn(fmt::format("go: unknown parameter '{}' ignored", excerpt(w)));
    }
  }
  if (!position_error_.empty()) {
    // The last `position` was refused: searching the one before it would answer a question
    // the GUI did not ask.
    warn(fmt::format("no position to search: {}", position_error_));
    send("bestmove 0000");
    return;
  }
  // A search still running (a GUI quirk) is answered first; options set meanwhile apply now.
  if (engine_->thinking()) engine_->stop();
  engine_->wait();
  for (const auto& [name, value] : pending_)
    if (auto ok = engine_->set_option(name, value); !ok)
      logger().warn("uci: setoption: {}", ok.error().message);
  pending_.clear();
  // Without a clock, a move time, a depth, a node or a mate limit the search runs until
  // `stop`, as if infinite (the end of piped input stops it).
  const bool limitless = limits.clock_ms < 0 && limits.movetime_ms <= 0 && limits.depth <= 0 &&
                         limits.nodes == 0 && limits.mate <= 0;
  infinite_ = limits.infinite || limitless;
  pondering_ = limits.ponder;
  const auto answer = [this](const engine::EngineReport& r) {
    if (r.move.empty())
      send("bestmove 0000");
    else if (!r.ponder.empty())
      send(fmt::format("bestmove {} ponder {}", r.move, r.ponder));
    else
      send(fmt::format("bestmove {}", r.move));
  };
  auto started = engine_->set_position(position_text_);
  if (started)
    started = engine_->go(
        limits, [this](const engine::EngineReport& info) { send(format_info(info)); }, answer);
  if (!started) {
    // No legal move (mate, stalemate): nothing to search, and still one answer.
    logger().info("uci: go: {}", started.error().message);
    answer(engine::EngineReport{});
  }
}

void Session::cmd_perft(int depth) {
  if (depth < 1 || depth > 12) {
    warn(fmt::format("go perft {}: depth must be 1 to 12", depth));
    return;
  }
  if (engine_->thinking()) {
    logger().warn("uci: go perft while searching: ignored");
    return;
  }
  std::uint64_t total = 0;
  chess::Position pos = position_;
  for (const auto& [move, count] : chess::perft_divide(pos, depth)) {
    send(fmt::format("{}: {}", chess::to_uci(move), count));
    total += count;
  }
  send("");
  send(fmt::format("Nodes searched: {}", total));
}

void Session::cmd_bench(std::string_view args) {
  if (engine_->thinking()) {
    logger().warn("uci: bench while searching: ignored");
    return;
  }
  int depth = engine::BenchOptions{}.depth;
  const auto words = split_blanks(args);
  if (!words.empty() && !parse_number(words[0], depth)) {
    logger().warn("uci: bench: depth '{}' is not a number", excerpt(words[0]));
    return;
  }
  // `kibitz bench`'s positions on a fresh engine (the session's keeps its table and options).
  const auto bench_engine = engine::make_chess_any_engine();
  const auto report = engine::run_engine_bench(*bench_engine, engine::chess_bench_fens(),
                                               {.depth = std::clamp(depth, 1, 64)});
  send(fmt::format("Nodes searched: {}", report.nodes));
  send(fmt::format("Nodes/second: {}", report.nps()));
}

}  // namespace kibitz::uci
