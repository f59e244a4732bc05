#pragma once
// GTP v2 (the Go Text Protocol) over the Go engine: a text adapter only. Responses are
// "=[id] result\n\n" or "?[id] message\n\n"; input lines are cleaned as the spec says (control
// characters but HT and LF dropped, HT read as a space, '#' comments cut, empty lines
// skipped). Bad input gets a "?" answer and the session goes on.
//
// Threads: commands are read on the calling thread. genmove searches on that thread and is
// answered before the next command is read (GTP is strictly sequential, and a piped script
// sends its next commands before the answer: stopping on them would give unsearched moves);
// stop() from another thread ends it early. lz-analyze searches on a thread of its own and
// any next line (or the end of input) stops it: its response is "=[id]", then a line of
// Leela Zero "info move ..." records every interval, then the empty line that ends it.
//
// Scoring is Tromp-Taylor area without dead-stone removal: final_status_list reports every
// stone alive (and none dead or in seki), which is what that score counts.
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "engine/go_any_engine.hpp"
#include "engine/go_deep.hpp"
#include "engine/go_engine.hpp"
#include "games/go/board.hpp"

namespace kibitz::gtp {

struct SessionOptions {
  engine::GoEngineOptions engine;
  std::uint64_t visits = 0;      // per genmove (0: none)
  std::int64_t movetime_ms = 0;  // per genmove (0: none); both 0: the GTP clock, else 1 s
  int size = 19;
  double komi = 7.5;
  bool allow_files = true;       // loadsgf (off for the fuzzer, which must not open files)
  int ownership_playouts = 256;  // kata-analyze's ownership estimate (engine::estimate_ownership)
  // After each genmove, search on in the background (the opponent's time) until the next
  // command arrives; the tree is kept for the engine's next move. Off by default: it uses a
  // core while the opponent thinks.
  bool ponder = false;
  // The deep search with its position database (kibitz gtp --config): genmove consults it,
  // and the session's end prints its statistics block on stderr.
  std::shared_ptr<engine::GoDeep> deep;
};

// The GTP preprocessing of one input line (section 3.1 of the spec).
std::string clean_line(std::string_view raw);

class Session {
 public:
  Session(std::istream& in, std::ostream& out, SessionOptions options = {});
  ~Session();
  // Runs until quit or the end of input; returns the process exit status (0).
  int run();
  // Sets an engine option before the session runs (kibitz gtp --option): one of the engine's
  // declarations (engine/go_any_engine.hpp).
  Result<void> set_option(std::string_view name, std::string_view value);
  // One input line (exposed for tests); false after quit. Stops a running lz-analyze first.
  bool handle(std::string_view line);
  // From any thread: ends a running genmove early with its best move so far, or the search
  // of a running analysis (whose response the next command then ends).
  void stop();
  // Ends a running lz-analyze and its response (what the next command does).
  void stop_analysis();
  void start_ponder();

  static const std::vector<std::string_view>& commands();

 private:
  struct Reply {
    bool ok = true;
    std::string text;
    bool sent = false;  // the command wrote its own response (the analysis commands)
  };
  // lz-analyze / kata-analyze and their genmove forms: what to report and how often.
  struct AnalyzeSpec {
    bool has_colour = false;
    go::Color colour = go::kBlack;
    std::int64_t interval_cs = 100;
    std::int64_t interval_ms = 1000;
    bool kata = false;          // KataGo's format (winrate 0..1, utility), else Leela Zero's
    bool ownership = false;     // kata: ownership asked for
    std::vector<double> owner;  // its estimate, computed once when asked
  };

  void send(std::string_view text);
  Reply dispatch(const std::string& cmd, const std::vector<std::string_view>& args,
                 const std::string& id, bool& quit);
  void reset_board();
  void rebuild();  // position_ from base_ and history_
  Reply play(go::Color c, go::Move m);
  void log_decision(go::Color c, const engine::EngineReport& d) const;
  // The GTP clock's tally for colour `c` as the engine's limits (none: GoEngine's default).
  engine::EngineLimits clock_limits(go::Color c) const;
  go::Position genmove_position(go::Color c) const;  // what genmove searches for `c`
  // genmove, and its analysis forms when `info` is given (called every interval and once
  // with the final statistics).
  Reply genmove(go::Color c, bool cleanup, const engine::AnyEngine::ReportFn* info = nullptr,
                std::int64_t interval_ms = 0);
  Reply handicap(int stones, bool free_placement);
  Reply set_free_handicap(const std::vector<std::string_view>& args);
  Reply loadsgf(const std::vector<std::string_view>& args);
  AnalyzeSpec analyze_spec(const std::vector<std::string_view>& args, bool colour_required,
                           bool& ok) const;
  void prepare_spec(AnalyzeSpec& spec, bool kata, const go::Position& pos);
  Reply analyze(const std::vector<std::string_view>& args, const std::string& id, bool kata);
  Reply genmove_analyze(const std::vector<std::string_view>& args, const std::string& id,
                        bool kata);
  static std::string info_line(const engine::EngineReport& r, const AnalyzeSpec& spec);

  std::istream& in_;
  std::ostream& out_;
  std::mutex out_mutex_;
  SessionOptions options_;
  std::unique_ptr<engine::GoAnyEngine> engine_;  // behind the engine contract
  go::Rules rules_;
  go::Position base_;  // after clear_board, handicap or loadsgf: undo goes no further back
  go::Position position_;
  std::vector<std::pair<go::Color, go::Move>> history_;  // moves since base_
  engine::GoClock clock_;
  bool analyzing_ = false;  // an analysis (or ponder) search runs until the next command
  bool pondering_ = false;  // it is a silent ponder search (no response to end)
};

}  // namespace kibitz::gtp
