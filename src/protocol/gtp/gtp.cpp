#include "protocol/gtp/gtp.hpp"

#include "core/log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <istream>
#include <ostream>

#include "core/text.hpp"
#include "games/go/sgf.hpp"

namespace kibitz::gtp {

namespace {

bool parse_int(std::string_view s, std::int64_t& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

bool parse_double(std::string_view s, double& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size() && std::isfinite(v);
}

bool parse_colour(std::string_view s, go::Color& c) {
  const std::string l = to_lower(s);
  if (l == "b" || l == "black") {
    c = go::kBlack;
    return true;
  }
  if (l == "w" || l == "white") {
    c = go::kWhite;
    return true;
  }
  return false;
}

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const auto nl = s.find('\n');
    out.push_back(s.substr(0, nl));
    if (nl == std::string_view::npos) break;
    s.remove_prefix(nl + 1);
  }
  return out;
}

// The number in GTP's score notation: "3.5", "7".
std::string number(double v) { return fmt::format("{}", v); }

int handicap_stones(const go::Position& start) {
  // Handicap: black stones only before the first move, white to play first.
  if (start.to_move() != go::kWhite || start.stones_on_board() < 2) return 0;
  int black = 0;
  for (int y = 0; y < start.size(); ++y)
    for (int x = 0; x < start.size(); ++x) {
      const go::Color c = start.at(go::point_of(x, y));
      if (c == go::kWhite) return 0;
      black += c == go::kBlack;
    }
  return black;
}

}  // namespace

std::string clean_line(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (const char c : raw) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '#') break;
    if (c == '\t')
      out += ' ';
    else if (u >= 0x20 && u != 0x7f)
      out += c;
  }
  return std::string(trim(out));
}

const std::vector<std::string_view>& Session::commands() {
  static const std::vector<std::string_view> list = {"protocol_version",
                                                     "name",
                                                     "version",
                                                     "known_command",
                                                     "list_commands",
                                                     "quit",
                                                     "boardsize",
                                                     "clear_board",
                                                     "komi",
                                                     "play",
                                                     "genmove",
                                                     "undo",
                                                     "showboard",
                                                     "final_score",
                                                     "final_status_list",
                                                     "fixed_handicap",
                                                     "place_free_handicap",
                                                     "set_free_handicap",
                                                     "time_settings",
                                                     "time_left",
                                                     "loadsgf",
                                                     "kgs-genmove_cleanup",
                                                     "lz-analyze",
                                                     "lz-genmove_analyze",
                                                     "kata-analyze",
                                                     "kata-genmove_analyze"};
  return list;
}

Session::Session(std::istream& in, std::ostream& out, SessionOptions options)
    : in_(in),
      out_(out),
      options_(options),
      engine_(engine::make_go_engine(options.engine, options.deep)),
      rules_{.size = std::clamp(options.size, go::kMinSize, go::kMaxSize), .komi = options.komi},
      base_(rules_),
      position_(rules_) {
  in_.tie(nullptr);  // reads must not flush the output outside the lock (see uci.cpp)
}

Session::~Session() { stop_analysis(); }

void Session::send(std::string_view text) {
  std::lock_guard lock(out_mutex_);
  out_ << text << std::flush;
}

// Only the search is stopped here: joining the analysis thread and ending its response is
// left to the reading thread (the next command), which owns them.
void Session::stop() { engine_->stop(); }

void Session::stop_analysis() {
  if (!analyzing_) return;
  engine_->stop();
  engine_->wait();
  if (!pondering_) send("\n");  // the empty line that ends lz-analyze's response
  analyzing_ = pondering_ = false;
}

void Session::start_ponder() {
  if (position_.is_terminal() || !engine_->set_position(position_)) return;
  engine::EngineLimits limits;
  limits.infinite = true;
  if (engine_->go(limits, {}, {})) analyzing_ = pondering_ = true;
}

int Session::run() {
  std::string line;
  while (std::getline(in_, line))
    if (!handle(line)) break;
  stop_analysis();  // the end of input is the last "next command"
  if (options_.deep) {
    std::fputs(options_.deep->stats_block("Deep search statistics").c_str(), stderr);
    if (auto r = options_.deep->save_index(); !r)
      logger().warn("position index: {}", r.error().message);
  }
  return 0;
}

Result<void> Session::set_option(std::string_view name, std::string_view value) {
  return engine_->set_option(name, value);
}

bool Session::handle(std::string_view raw) {
  const std::string line = clean_line(raw);
  if (line.empty()) return true;
  stop_analysis();
  auto words = split_blanks(line);
  std::string id;
  std::int64_t num = 0;
  if (parse_int(words.front(), num) && num >= 0) {
    id = std::string(words.front());
    words.erase(words.begin());
  }
  if (words.empty()) {
    send(fmt::format("?{} missing command\n\n", id));
    return true;
  }
  const std::string cmd(words.front());
  words.erase(words.begin());
  bool quit = false;
  const Reply r = dispatch(cmd, words, id, quit);
  if (r.sent) return true;  // answered by the analysis itself
  send(fmt::format("{}{} {}\n\n", r.ok ? '=' : '?', id, r.text));
  if (options_.ponder && r.ok && r.text != "resign" && !quit &&
      (cmd == "genmove" || cmd == "kgs-genmove_cleanup"))
    start_ponder();
  return !quit;
}

void Session::reset_board() {
  base_ = go::Position(rules_);
  position_ = base_;
  history_.clear();
  engine_->new_game();  // a fresh tree and resignation count
}

void Session::rebuild() {
  position_ = base_;
  for (const auto& [c, m] : history_) {
    position_.resume_after_passes();
    if (position_.to_move() != c) position_.set_to_move(c);
    (void)position_.play(m);  // legal when first played, so legal again
  }
}

Session::Reply Session::play(go::Color c, go::Move m) {
  if (m.is_resign()) return {false, "illegal move"};
  go::Position next = position_;
  // A move after two passes plays on, as GNU Go does (KGS cleanup, a GUI's "continue").
  next.resume_after_passes();
  if (next.to_move() != c) next.set_to_move(c);
  if (!next.play(m)) return {false, "illegal move"};
  position_ = next;
  history_.emplace_back(c, m);
  return {};
}

// One stderr line per genmove, for the log windows of GTP tools and for match post-mortems.
void Session::log_decision(go::Color c, const engine::EngineReport& d) const {
  std::string pv;
  for (const auto& m : d.pv) pv += " " + m;
  logger().info(
      "genmove {} -> {} ({}): visits {} playouts {} winrate {:.1f}% uncertainty {:.2f} {} ms "
      "pv{}",
      c == go::kBlack ? "b" : "w", d.move, d.how, d.nodes, d.playouts, 100.0 * d.score,
      d.uncertainty, d.time_ms, pv);
}

go::Position Session::genmove_position(go::Color c) const {
  go::Position pos = position_;
  // After two passes genmove plays on too (the controller asks for more moves: cleanup).
  pos.resume_after_passes();
  if (!pos.is_terminal() && pos.to_move() != c) pos.set_to_move(c);
  return pos;
}

engine::EngineLimits Session::clock_limits(go::Color colour) const {
  engine::EngineLimits l;
  const int me = colour == go::kWhite ? 1 : 0;
  const engine::GoClock& c = clock_;
  // No settings and no time_left, or byo-yomi time with no stones (GTP: no limit): none.
  if ((!c.set && !c.left_known[me]) || (c.set && c.byo_stones == 0 && c.byo_ms > 0)) return l;
  std::int64_t left = c.left_known[me] ? c.left_ms[me] : c.main_ms;
  int stones = c.left_known[me] ? c.left_stones[me] : 0;
  if (!c.left_known[me] && c.main_ms == 0 && c.byo_stones > 0) {  // byo-yomi from the start
    left = c.byo_ms;
    stones = c.byo_stones;
  }
  l.clock_ms = std::max<std::int64_t>(0, left);
  l.moves_to_go = stones;
  l.main_ms = c.main_ms;
  l.period_ms = c.byo_ms;
  l.period_moves = c.byo_stones;
  return l;
}

Session::Reply Session::genmove(go::Color c, bool cleanup, const engine::AnyEngine::ReportFn* info,
                                std::int64_t interval_ms) {
  const auto start = std::chrono::steady_clock::now();
  const go::Position pos = genmove_position(c);
  // A game ended otherwise (the move cap) takes no more moves: the answer is a pass.
  engine::EngineReport d;
  d.move = "pass";
  d.how = "game over";
  if (!pos.is_terminal()) {
    engine::EngineLimits limits = clock_limits(c);
    limits.nodes = options_.visits;
    limits.movetime_ms = options_.movetime_ms;
    limits.interval_ms = interval_ms;
    (void)engine_->set_option("cleanup", cleanup ? "true" : "false");
    (void)engine_->set_option("handicap", std::to_string(handicap_stones(base_)));
    auto answer = engine_->set_position(pos);
    if (answer) {
      auto r = engine_->think(limits, info ? *info : engine::AnyEngine::ReportFn{});
      if (!r) return {false, r.error().message};
      d = std::move(*r);
    } else {
      return {false, answer.error().message};
    }
  }
  // Our own tally of the clock, for controllers that send time_settings but no time_left.
  engine::charge_clock(clock_, c == go::kWhite ? 1 : 0,
                       std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now() - start)
                           .count());
  if (info) (*info)(d);  // the statistics the move was chosen from, last
  log_decision(c, d);
  if (d.move == "resign") return {true, "resign"};
  if (!pos.is_terminal()) {
    const auto m = go::parse_vertex(d.move, pos.size());
    if (!m) return {false, "engine produced an illegal move"};
    if (Reply r = play(c, *m); !r.ok) return {false, "engine produced an illegal move"};
  }
  return {true, d.move};
}

Session::Reply Session::handicap(int stones, bool free_placement) {
  if (position_.stones_on_board() != 0 || !history_.empty()) return {false, "board not empty"};
  if (stones < 2) return {false, "invalid number of stones"};
  // place_free_handicap uses the fixed points, as many as the board has (GTP lets the engine
  // place fewer than asked).
  int n = stones;
  if (free_placement) {
    n = std::min(stones, 9);
    while (n >= 2 && !go::Position::fixed_handicap_points(rules_.size, n)) --n;
    if (n < 2) return {false, "invalid number of stones"};
  }
  auto pts = go::Position::fixed_handicap_points(rules_.size, n);
  if (!pts) return {false, "invalid number of stones"};
  go::Position b(rules_);
  if (!b.set_fixed_handicap(n)) return {false, "invalid number of stones"};
  base_ = b;
  position_ = b;
  std::string text;
  for (const int sq : *pts) {
    if (!text.empty()) text += ' ';
    text += go::to_vertex(go::Move{static_cast<std::uint16_t>(sq)}, rules_.size);
  }
  return {true, text};
}

Session::Reply Session::set_free_handicap(const std::vector<std::string_view>& args) {
  if (position_.stones_on_board() != 0 || !history_.empty()) return {false, "board not empty"};
  if (args.size() < 2 || static_cast<int>(args.size()) >= rules_.size * rules_.size)
    return {false, "bad vertex list"};
  std::vector<int> points;
  for (const auto a : args) {
    auto m = go::parse_vertex(a, rules_.size);
    if (!m || !m->is_point() || std::find(points.begin(), points.end(), m->sq) != points.end())
      return {false, "bad vertex list"};
    points.push_back(m->sq);
  }
  go::Position b(rules_);
  if (!b.set_free_handicap(points)) return {false, "bad vertex list"};
  base_ = b;
  position_ = b;
  return {};
}

Session::Reply Session::loadsgf(const std::vector<std::string_view>& args) {
  if (args.empty() || args.size() > 2) return {false, "syntax error"};
  if (!options_.allow_files) return {false, "cannot load file"};
  std::int64_t move_number = 0;
  if (args.size() == 2 && (!parse_int(args[1], move_number) || move_number < 1))
    return {false, "syntax error"};
  auto rec = go::read_sgf_file(std::string(args[0]));
  if (!rec) return {false, "cannot load file: " + rec.error().message};
  // GTP: the position before move_number is played (all moves without it).
  const int up_to =
      move_number > 0 ? static_cast<int>(std::min<std::int64_t>(move_number - 1, 1 << 20)) : -1;
  auto pos = go::replay(*rec, go::Rules{}, up_to);
  if (!pos) return {false, "cannot load file: " + pos.error().message};
  rules_.size = pos->size();
  rules_.komi = pos->komi();
  base_ = *pos;
  position_ = *pos;
  history_.clear();  // undo stops at the loaded position
  return {};
}

std::string Session::info_line(const engine::EngineReport& r, const AnalyzeSpec& spec) {
  std::string line;
  int order = 0;
  for (const auto& ms : r.lines) {
    if (!line.empty()) line += ' ';
    // The lower confidence bound of the move's value: its mean less 1.96 standard errors of
    // a win/loss outcome (what Lizzie sorts and colours by).
    const double lcb = std::clamp(
        ms.value - 1.96 * std::sqrt(ms.value * (1 - ms.value) / static_cast<double>(ms.visits)),
        0.0, 1.0);
    if (spec.kata)
      line += fmt::format(
          "info move {} visits {} utility {:.6f} winrate {:.6f} prior {:.6f} lcb {:.6f} "
          "utilityLcb {:.6f} order {} pv",
          ms.move, ms.visits, 2 * ms.value - 1, ms.value, ms.prior, lcb, 2 * lcb - 1, order++);
    else
      line += fmt::format("info move {} visits {} winrate {} prior {} lcb {} order {} pv", ms.move,
                          ms.visits, static_cast<int>(std::lround(ms.value * 10000)),
                          static_cast<int>(std::lround(ms.prior * 10000)),
                          static_cast<int>(std::lround(lcb * 10000)), order++);
    for (const auto& m : ms.pv) line += " " + m;
  }
  if (!line.empty() && spec.kata && !spec.owner.empty()) {
    line += " ownership";
    for (const double v : spec.owner) line += fmt::format(" {:.4f}", v);
  }
  return line;
}

Session::AnalyzeSpec Session::analyze_spec(const std::vector<std::string_view>& args,
                                           bool colour_required, bool& ok) const {
  // [colour] [interval] and key-value pairs: "interval N", "ownership true|false"; Leela
  // Zero's and KataGo's other keys (minmoves, maxmoves, pvVisits, ...) are read and ignored,
  // "allow"/"avoid" with their three arguments.
  AnalyzeSpec spec;
  ok = true;
  std::size_t i = 0;
  if (!args.empty() && parse_colour(args[0], spec.colour)) {
    spec.has_colour = true;
    ++i;
  }
  if (colour_required && !spec.has_colour) ok = false;
  for (; i < args.size() && ok; ++i) {
    std::int64_t v = 0;
    const std::string key = to_lower(args[i]);
    if (parse_int(args[i], v) && v >= 0) {
      spec.interval_cs = v;
    } else if (key == "interval" && i + 1 < args.size() && parse_int(args[i + 1], v) && v >= 0) {
      spec.interval_cs = v;
      ++i;
    } else if (key == "ownership" && i + 1 < args.size()) {
      spec.ownership = to_lower(args[++i]) == "true";
    } else if ((key == "allow" || key == "avoid") && i + 3 < args.size()) {
      i += 3;
    } else if (i + 1 < args.size() && !parse_colour(args[i], spec.colour)) {
      ++i;  // another key with its value
    } else {
      ok = false;
    }
  }
  return spec;
}

void Session::prepare_spec(AnalyzeSpec& spec, bool kata, const go::Position& pos) {
  spec.kata = kata;
  spec.interval_ms = std::min<std::int64_t>(spec.interval_cs, 1 << 20) * 10;
  if (kata && spec.ownership)
    spec.owner =
        engine::estimate_ownership(pos, options_.ownership_playouts, options_.engine.seed).owner;
}

Session::Reply Session::analyze(const std::vector<std::string_view>& args, const std::string& id,
                                bool kata) {
  bool ok = true;
  AnalyzeSpec spec = analyze_spec(args, false, ok);
  if (!ok) return {false, "syntax error"};
  go::Position pos = position_;
  if (spec.has_colour && !pos.is_terminal() && pos.to_move() != spec.colour)
    pos.set_to_move(spec.colour);
  prepare_spec(spec, kata, pos);
  send(fmt::format("={}\n", id));
  // Until the next command, which ends the response (stop_analysis); a finished game has no
  // statistics to report.
  analyzing_ = true;
  engine::EngineLimits limits;
  limits.infinite = true;
  limits.interval_ms = spec.interval_ms;
  if (engine_->set_position(pos))
    (void)engine_->go(limits,
                      [this, spec](const engine::EngineReport& r) {
                        const std::string line = info_line(r, spec);
                        if (!line.empty()) send(line + "\n");
                      },
                      {});
  return {.ok = true, .text = {}, .sent = true};
}

Session::Reply Session::genmove_analyze(const std::vector<std::string_view>& args,
                                        const std::string& id, bool kata) {
  // genmove with analysis: "=", info lines every interval while it searches, then
  // "play <vertex>" and the empty line that ends the response. The move is played.
  bool ok = true;
  AnalyzeSpec spec = analyze_spec(args, true, ok);
  if (!ok) return {false, "syntax error"};
  const go::Position pos = genmove_position(spec.colour);
  prepare_spec(spec, kata, pos);
  send(fmt::format("={}\n", id));
  const engine::AnyEngine::ReportFn info = [this, &spec](const engine::EngineReport& report) {
    const std::string line = info_line(report, spec);
    if (!line.empty()) send(line + "\n");
  };
  const Reply r = genmove(spec.colour, false, &info, spec.interval_ms);
  send(fmt::format("play {}\n\n", r.ok ? r.text : "pass"));
  return {.ok = true, .text = {}, .sent = true};
}

Session::Reply Session::dispatch(const std::string& cmd, const std::vector<std::string_view>& args,
                                 const std::string& id, bool& quit) {
  const auto colour_arg = [&](go::Color& c) {
    return args.size() == 1 && parse_colour(args[0], c);
  };
  if (cmd == "protocol_version") return {true, "2"};
  if (cmd == "name") return {true, "Kibitz"};
  if (cmd == "version") return {true, KIBITZ_VERSION};
  if (cmd == "known_command") {
    if (args.size() != 1) return {false, "syntax error"};
    const auto& l = commands();
    return {true, std::find(l.begin(), l.end(), args[0]) != l.end() ? "true" : "false"};
  }
  if (cmd == "list_commands") {
    std::string text;
    for (const auto c : commands()) {
      if (!text.empty()) text += '\n';
      text += c;
    }
    return {true, text};
  }
  if (cmd == "quit") {
    quit = true;
    return {};
  }
  if (cmd == "boardsize") {
    std::int64_t n = 0;
    if (args.size() != 1 || !parse_int(args[0], n)) return {false, "syntax error"};
    if (n < go::kMinSize || n > go::kMaxSize) return {false, "unacceptable size"};
    rules_.size = static_cast<int>(n);
    reset_board();
    return {};
  }
  if (cmd == "clear_board") {
    reset_board();
    clock_.left_known = {false, false};  // a new game starts with a full clock
    return {};
  }
  if (cmd == "komi") {
    double k = 0;
    if (args.size() != 1 || !parse_double(args[0], k) || std::abs(k) > 1000)
      return {false, "syntax error"};
    rules_.komi = k;
    base_.set_komi(k);
    position_.set_komi(k);
    return {};
  }
  if (cmd == "play") {
    go::Color c;
    if (args.size() != 2 || !parse_colour(args[0], c)) return {false, "syntax error"};
    auto m = go::parse_vertex(args[1], position_.size());
    if (!m) return {false, "syntax error"};
    return play(c, *m);
  }
  if (cmd == "genmove" || cmd == "kgs-genmove_cleanup") {
    go::Color c;
    if (!colour_arg(c)) return {false, "syntax error"};
    return genmove(c, cmd != "genmove");
  }
  if (cmd == "undo") {
    if (history_.empty()) return {false, "cannot undo"};
    history_.pop_back();
    rebuild();
    return {};
  }
  if (cmd == "showboard") {
    // A diagram on the lines after "= " (no empty line: that would end the response).
    std::string text;
    const std::string diagram = position_.to_string();
    for (const auto row : split_lines(diagram)) {
      if (trim(row).empty()) continue;
      text += '\n';
      text += row;
    }
    text += fmt::format("\nblack captured {}, white captured {}; {} to move",
                        position_.captured(go::kBlack), position_.captured(go::kWhite),
                        position_.to_move() == go::kBlack ? "black" : "white");
    return {true, text};
  }
  if (cmd == "final_score") {
    const double s = position_.score();
    if (std::abs(s) < 1e-9) return {true, "0"};
    return {true, (s > 0 ? "B+" : "W+") + number(std::abs(s))};
  }
  if (cmd == "final_status_list") {
    if (args.size() != 1) return {false, "syntax error"};
    const std::string what = to_lower(args[0]);
    if (what == "dead" || what == "seki") return {};
    if (what != "alive") return {false, "syntax error"};
    // Area scoring without dead-stone removal: every stone counts, so every stone is alive.
    std::string text;
    std::vector<int> heads;
    for (int y = position_.size() - 1; y >= 0; --y)
      for (int x = 0; x < position_.size(); ++x) {
        const int sq = go::point_of(x, y);
        if (position_.at(sq) > go::kWhite) continue;
        const int head = position_.chain_head(sq);
        if (std::find(heads.begin(), heads.end(), head) != heads.end()) continue;
        heads.push_back(head);
        if (!text.empty()) text += '\n';
        // A line per chain, its stones in reading order (top row first).
        std::vector<int> stones;
        int s = sq;
        do {
          stones.push_back(s);
          s = position_.next_in_chain(s);
        } while (s != sq);
        std::sort(stones.begin(), stones.end(), [](int a, int b) {
          return go::y_of(a) != go::y_of(b) ? go::y_of(a) > go::y_of(b) : go::x_of(a) < go::x_of(b);
        });
        for (std::size_t k = 0; k < stones.size(); ++k) {
          if (k) text += ' ';
          text += go::to_vertex(go::Move{static_cast<std::uint16_t>(stones[k])}, position_.size());
        }
      }
    return {true, text};
  }
  if (cmd == "fixed_handicap" || cmd == "place_free_handicap") {
    std::int64_t n = 0;
    if (args.size() != 1 || !parse_int(args[0], n)) return {false, "syntax error"};
    return handicap(static_cast<int>(std::clamp<std::int64_t>(n, -1, 1000)),
                    cmd == "place_free_handicap");
  }
  if (cmd == "set_free_handicap") return set_free_handicap(args);
  if (cmd == "time_settings") {
    std::int64_t m = 0, b = 0, s = 0;
    constexpr std::int64_t kMaxSeconds = std::int64_t{1} << 31;
    if (args.size() != 3 || !parse_int(args[0], m) || !parse_int(args[1], b) ||
        !parse_int(args[2], s) || m < 0 || b < 0 || s < 0 || m > kMaxSeconds || b > kMaxSeconds ||
        s > (1 << 20))
      return {false, "syntax error"};
    clock_ = engine::GoClock{};
    clock_.main_ms = m * 1000;
    clock_.byo_ms = b * 1000;
    clock_.byo_stones = static_cast<int>(s);
    clock_.set = true;
    return {};
  }
  if (cmd == "time_left") {
    go::Color c;
    std::int64_t t = 0, s = 0;
    if (args.size() != 3 || !parse_colour(args[0], c) || !parse_int(args[1], t) ||
        !parse_int(args[2], s) || t < 0 || s < 0 || t > (std::int64_t{1} << 31) || s > (1 << 20))
      return {false, "syntax error"};
    clock_.left_ms[c] = t * 1000;
    clock_.left_stones[c] = static_cast<int>(s);
    clock_.left_known[c] = true;
    return {};
  }
  if (cmd == "loadsgf") return loadsgf(args);
  if (cmd == "lz-analyze" || cmd == "kata-analyze") return analyze(args, id, cmd == "kata-analyze");
  if (cmd == "lz-genmove_analyze" || cmd == "kata-genmove_analyze")
    return genmove_analyze(args, id, cmd == "kata-genmove_analyze");
  return {false, "unknown command"};
}

}  // namespace kibitz::gtp
