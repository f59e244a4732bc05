// UCI compliance: each case is a script a GUI could send and the transcript the UCI
// specification asks for. Every `go` is answered by exactly one bestmove and every `isready`
// by one readyok, whatever the values (the regressions of issue 22 are marked "repro").
#include <gtest/gtest.h>

#include <string>

#include "protocol/compliance.hpp"
#include "protocol/uci/uci.hpp"

namespace kibitz::uci {
namespace {

using compliance::Case;

int uci_requests(const std::string& input, const std::string& command) {
  int n = 0;
  for (const auto& line : compliance::lines_of(input))
    n += line == command || line.starts_with(command + " ");
  return n;
}

constexpr const char* kUciBest =
    "^bestmove [a-h][1-8][a-h][1-8][qrbn]?( ponder [a-h][1-8][a-h][1-8][qrbn]?)?$";
const std::string kUciLongJunk(100000, 'x');

const std::vector<Case>& uci_cases() {
  static const std::vector<Case> list = {
      {"handshake",
       "uci\nisready\n",
       {"^id name Kibitz", "^id author ",
        "^option name Hash type spin default \\d+ min 1 max \\d+$",
        "^option name Threads type spin default 1 min 1 max \\d+$",
        "^option name MultiPV type spin default 1 min 1 max \\d+$",
        "^option name Move Overhead type spin", "^option name Clear Hash type button$",
        "^option name Ponder type check default false$", "^uciok$", "^readyok$"},
       {}},
      {"go depth answers with iterations then one bestmove",
       "position startpos moves e2e4\ngo depth 4\n",
       {"^info depth 1 seldepth \\d+ multipv 1 score cp -?\\d+ nodes \\d+ nps \\d+ hashfull \\d+ "
        "time \\d+ pv [a-h]",
        "^info depth 4 ", kUciBest},
       {}},
      {"repro 1: fractional milliseconds are read, never dropped",
       "position startpos\ngo wtime 987.5 btime 1000 winc 0.5 binc 0.5\nisready\n",
       {"^readyok$", kUciBest},
       {"^info string"}},
      {"repro 1: a malformed number is reported and the go still answered",
       "position startpos\ngo wtime soon btime 1000 depth 2\n",
       {"^info string go wtime: expected a number", kUciBest},
       {}},
      {"repro 2: depth -1 searches one ply",
       "position startpos\ngo depth -1\n",
       {"^info string go depth -1: below 1", "^info depth 1 ", kUciBest},
       {"^info depth 2 "}},
      {"repro 2: movetime -5",
       "position startpos\ngo movetime -5\n",
       {"^info string go movetime -5: below 1", kUciBest},
       {}},
      {"repro 2: movetime 0",
       "position startpos\ngo movetime 0\n",
       {"^info string go movetime 0: below 1", kUciBest},
       {}},
      {"repro 2: nodes 0",
       "position startpos\ngo nodes 0\n",
       {"^info string go nodes 0: below 1", "^info depth 1 ", kUciBest},
       {}},
      {"repro 3: ponder, ponderhit, end of input: the clocked search finishes",
       "position startpos\ngo ponder wtime 3000 btime 3000\nponderhit\n",
       {"^info depth 1 ", "^info depth 2 ", kUciBest},
       {}},
      {"repro 3: stop at once still finishes depth 1",
       "position startpos\ngo depth 99999\nstop\n",
       {"^info depth 1 ", kUciBest},
       {}},
      {"repro 3: ponder then stop",
       "position startpos\ngo ponder\nstop\n",
       {"^info depth 1 ", kUciBest},
       {}},
      {"infinite: readyok during the search, bestmove only after stop",
       "position startpos\ngo infinite\nisready\nstop\n",
       {"^readyok$", kUciBest},
       {}},
      {"go without limits runs until stop (the end of input)",
       "position startpos\ngo\n",
       {"^info depth 1 ", kUciBest},
       {}},
      {"repro 4: a bad FEN leaves no position; go answers 0000",
       "position startpos moves e2e4\nposition fen 8/8/8 w - - 0 1\ngo depth 3\n",
       {"^info string position refused: ", "^info string no position to search", "^bestmove 0000$"},
       {"^info depth"}},
      {"repro 4: an illegal move in the list refuses the position",
       "position startpos moves e2e4 e7e5 e1e3\ngo depth 3\n",
       {"^info string position refused: move e1e3", "^bestmove 0000$"},
       {"^info depth"}},
      {"repro 4: the next good position is searched again",
       "position startpos moves e2e5\nposition startpos moves e2e4\ngo depth 2\n",
       {"^info string position refused", "^info depth 2 ", "^bestmove [a-h][1-8][a-h][1-8]"},
       {"^bestmove 0000"}},
      {"repro 11: seldepth is never below depth (mate in one)",
       "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 6\n",
       {"^info depth 6 seldepth ([6-9]|\\d\\d+) multipv 1 score mate 1 ", "^bestmove d1d8$"},
       {}},
      {"repro 11: an over-long parameter is not echoed back whole",
       "position startpos\ngo depth 1 " + kUciLongJunk + "\n",
       {"^info string go: unknown parameter 'x{80}\\.\\.\\. \\(100000 bytes\\)' ignored$",
        kUciBest},
       {}},
      {"mate limit",
       "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo mate 1\n",
       {"score mate 1 ", "^bestmove d1d8$"},
       {}},
      {"searchmoves restricts the root",
       "position startpos\ngo depth 3 searchmoves a2a3 h2h3\n",
       {"^bestmove (a2a3|h2h3)"},
       {}},
      {"checkmated side answers 0000",
       "position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\ngo depth 3\n",
       {"^bestmove 0000$"},
       {}},
      {"setoption: names with spaces, bad values ignored",
       "setoption name Move Overhead value 10\nsetoption name Hash value 0\n"
       "setoption name MultiPV value 2\nposition startpos\ngo depth 3\n",
       {"^info depth 3 seldepth \\d+ multipv 2 ", kUciBest},
       {}},
      {"ucinewgame, debug and register are accepted",
       "ucinewgame\ndebug on\nregister later\nisready\n",
       {"^readyok$"},
       {}},
      {"unknown and empty lines are ignored", "xyzzy\n\n   \nisready\n", {"^readyok$"}, {}},
      {"quit during a search answers once",
       "position startpos\ngo infinite\nquit\n",
       {kUciBest},
       {}},
      {"a second go while searching answers both",
       "position startpos\ngo infinite\ngo depth 2\n",
       {kUciBest, kUciBest},
       {}},
  };
  return list;
}

TEST(UciCompliance, EveryCaseTranscript) {
  for (const Case& c : uci_cases()) {
    SCOPED_TRACE(c.name);
    const auto out = compliance::run_session<Session>(c.input);
    EXPECT_TRUE(compliance::transcript_matches(c, out));
    // One answer per request, whatever the case.
    EXPECT_EQ(compliance::count_matching(out, "^bestmove "), uci_requests(c.input, "go")) << c.name;
    EXPECT_EQ(compliance::count_matching(out, "^readyok$"), uci_requests(c.input, "isready"))
        << c.name;
  }
}

}  // namespace
}  // namespace kibitz::uci
