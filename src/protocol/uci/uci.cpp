#include "protocol/uci/uci.hpp"
#include "core/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <istream>
#include <ostream>
#include <thread>
#include <vector>

#include "core/log.hpp"
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

std::string format_score(search::Score s) {
  if (search::is_mate(s)) return fmt::format("mate {}", search::mate_moves(s));
  return fmt::format("cp {}", s);
}

}  // namespace

std::string format_info(const search::PvInfo<chess::Move>& info) {
  std::string line = fmt::format("info depth {} seldepth {} multipv {} score {}", info.depth,
                                 info.seldepth, info.multipv, format_score(info.score));
  if (info.bound == search::Bound::kLower) line += " lowerbound";
  if (info.bound == search::Bound::kUpper) line += " upperbound";
  const std::uint64_t nps =
      info.time_ms > 0 ? info.nodes * 1000 / static_cast<std::uint64_t>(info.time_ms) : 0;
  line += fmt::format(" nodes {} nps {} hashfull {} time {} pv", info.nodes, nps, info.hashfull,
                      info.time_ms);
  for (chess::Move m : info.pv) {
    line += ' ';
    line += chess::to_uci(m);
  }
  return line;
}

Session::Session(std::istream& in, std::ostream& out) : in_(in), out_(out) {
  // std::cin is tied to std::cout: every read would flush the output from the reading thread,
  // outside out_mutex_, racing the search thread's lines (seen as a duplicated "bestmove"
  // when the next command follows the answer at once). send() flushes under the lock.
  in_.tie(nullptr);
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
  // `printf 'go depth 10' | kibitz uci` answers), an infinite or pondering one is stopped.
  if (quit || unbounded_) engine_.stop();
  engine_.wait();
  return 0;
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
    if (engine_.searching()) {
      logger().warn("uci: ucinewgame while searching: ignored");
    } else {
      engine_.new_game();
      position_ = chess::Position();
    }
  } else if (cmd == "position") {
    cmd_position(args);
  } else if (cmd == "go") {
    cmd_go(args);
  } else if (cmd == "stop") {
    engine_.stop();
  } else if (cmd == "ponderhit") {
    engine_.ponderhit();
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
    logger().warn("uci: unknown command '{}'", cmd);
  }
  return true;
}

void Session::cmd_uci() {
  send(fmt::format("id name Kibitz {}", KIBITZ_VERSION));
  send("id author the Kibitz developers");
  send(fmt::format("option name Hash type spin default {} min 1 max {}", engine_.hash_mb(),
                   kMaxHashMb));
  send(fmt::format("option name Threads type spin default 1 min 1 max {}", kMaxThreads));
  send(fmt::format("option name MultiPV type spin default 1 min 1 max {}", kMaxMultiPv));
  send(fmt::format("option name Move Overhead type spin default {} min 0 max {}",
                   engine_.move_overhead_ms(), kMaxOverhead));
  send("option name Clear Hash type button");
  send("option name Ponder type check default false");
  // Search techniques, switchable for ablation (all on by default).
  for (std::string_view name : search::SearchOptions::technique_names())
    send(fmt::format("option name {} type check default true", name));
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
  const bool busy = engine_.searching();
  const auto spin = [&](int lo, int hi, int& out) {
    if (!parse_number(value, out) || out < lo || out > hi) {
      logger().warn("uci: setoption {}: value '{}' is not an integer in [{}, {}]", name, value, lo,
                    hi);
      return false;
    }
    return true;
  };
  if ((key == "hash" || key == "threads" || key == "clear hash") && busy) {
    logger().warn("uci: setoption {} while searching: ignored", name);
    return;
  }
  int n = 0;
  if (key == "hash") {
    if (spin(1, kMaxHashMb, n)) engine_.set_hash_mb(static_cast<std::size_t>(n));
  } else if (key == "threads") {
    if (spin(1, kMaxThreads, n)) {
      auto o = engine_.options();
      o.threads = n;
      engine_.set_options(o);
    }
  } else if (key == "multipv") {
    if (spin(1, kMaxMultiPv, n)) multipv_ = n;
  } else if (key == "move overhead") {
    if (spin(0, kMaxOverhead, n)) engine_.set_move_overhead_ms(n);
  } else if (key == "clear hash") {
    engine_.clear_hash();
  } else if (key == "ponder" || key == "uci_analysemode" || key == "uci_chess960") {
    if (key == "uci_chess960" && to_lower(value) == "true")
      logger().warn("uci: UCI_Chess960 is not supported");
  } else {
    const auto names = search::SearchOptions::technique_names();
    const auto it = std::find(names.begin(), names.end(), key);
    if (it == names.end()) {
      logger().warn("uci: setoption: unknown option '{}'", name);
      return;
    }
    const std::string v = to_lower(value);
    if (v != "true" && v != "false") {
      logger().warn("uci: setoption {}: value '{}' is not true or false", name, value);
      return;
    }
    if (busy) {
      logger().warn("uci: setoption {} while searching: ignored", name);
      return;
    }
    auto o = engine_.options();
    o.set(key, v == "true");
    engine_.set_options(o);
  }
}

void Session::cmd_position(std::string_view args) {
  // position startpos | fen <FEN> [moves m1 m2 ...]; a bad FEN or move leaves the position as
  // it was.
  const auto words = split_blanks(args);
  if (words.empty()) {
    logger().warn("uci: position: expected 'startpos' or 'fen <FEN>'");
    return;
  }
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
    if (!parsed) {
      logger().warn("uci: position: {}", parsed.error().message);
      return;
    }
    pos = *parsed;
  } else {
    logger().warn("uci: position: expected 'startpos' or 'fen', got '{}'", words[0]);
    return;
  }
  if (i < words.size()) {
    if (words[i] != "moves") {
      logger().warn("uci: position: expected 'moves', got '{}'", words[i]);
      return;
    }
    for (++i; i < words.size(); ++i) {
      auto m = chess::parse_uci(pos, words[i]);
      if (!m) {
        logger().warn("uci: position: move {}: {}", words[i], m.error().message);
        return;
      }
      pos.apply(*m);
    }
  }
  position_ = pos;
}

void Session::cmd_go(std::string_view args) {
  const auto words = split_blanks(args);
  engine::GoParams params;
  std::vector<chess::Move> searchmoves;
  const bool white = position_.side_to_move() == chess::kWhite;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    const auto number = [&](auto& out) {
      if (i + 1 >= words.size() || !parse_number(words[i + 1], out)) {
        logger().warn("uci: go {}: expected a number after it", w);
        return false;
      }
      ++i;
      return true;
    };
    std::int64_t v = 0;
    if (w == "wtime" || w == "btime") {
      if (!number(v)) return;
      if ((w == "wtime") == white) params.time_left = std::max<std::int64_t>(v, 0);
    } else if (w == "winc" || w == "binc") {
      if (!number(v)) return;
      if ((w == "winc") == white) params.increment = std::max<std::int64_t>(v, 0);
    } else if (w == "movestogo") {
      if (!number(params.moves_to_go)) return;
    } else if (w == "depth") {
      if (!number(params.limits.depth)) return;
    } else if (w == "nodes") {
      if (!number(params.limits.nodes)) return;
    } else if (w == "mate") {
      if (!number(params.limits.mate)) return;
    } else if (w == "movetime") {
      if (!number(params.movetime)) return;
    } else if (w == "infinite") {
      params.infinite = true;
    } else if (w == "ponder") {
      params.ponder = true;
    } else if (w == "perft") {
      int depth = 0;
      if (!number(depth)) return;
      cmd_perft(depth);
      return;
    } else if (w == "searchmoves") {
      // Every following word that is a legal move.
      while (i + 1 < words.size()) {
        auto m = chess::parse_uci(position_, words[i + 1]);
        if (!m) break;
        searchmoves.push_back(*m);
        ++i;
      }
    } else {
      logger().warn("uci: go: unknown parameter '{}' ignored", w);
    }
  }
  auto options = engine_.options();
  if (options.multipv != multipv_) {
    engine_.stop();  // a search still running (a GUI quirk) ends before the change
    options.multipv = multipv_;
    engine_.set_options(options);
  }
  unbounded_ = params.infinite || params.ponder;
  engine_.go(
      position_, params, std::move(searchmoves),
      [this](const search::PvInfo<chess::Move>& info) { send(format_info(info)); },
      [this](const engine::ChessEngine::Result& r) {
        if (!r.best) {
          send("bestmove 0000");
        } else if (r.ponder) {
          send(
              fmt::format("bestmove {} ponder {}", chess::to_uci(r.best), chess::to_uci(r.ponder)));
        } else {
          send(fmt::format("bestmove {}", chess::to_uci(r.best)));
        }
      });
}

void Session::cmd_perft(int depth) {
  if (depth < 1 || depth > 12) {
    logger().warn("uci: go perft: depth must be 1..12");
    return;
  }
  if (engine_.searching()) {
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
  if (engine_.searching()) {
    logger().warn("uci: bench while searching: ignored");
    return;
  }
  engine::BenchOptions options;
  const auto words = split_blanks(args);
  if (!words.empty() && !parse_number(words[0], options.depth)) {
    logger().warn("uci: bench: depth '{}' is not a number", words[0]);
    return;
  }
  options.depth = std::clamp(options.depth, 1, 64);
  const auto report = engine::run_chess_bench(options);
  send(fmt::format("Nodes searched: {}", report.nodes));
  send(fmt::format("Nodes/second: {}", report.nps()));
}

}  // namespace kibitz::uci
