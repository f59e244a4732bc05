// UCI transcripts: a scripted session in, the expected lines out. Bad input is ignored with a
// log line (stderr) and the session keeps answering.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "games/chess/notation.hpp"
#include "protocol/compliance.hpp"
#include "protocol/uci/uci.hpp"

namespace kibitz::uci {
namespace {

std::vector<std::string> transcript(const std::string& input) {
  return compliance::run_session<Session>(input);
}

using compliance::count_matching;
using Pattern = compliance::Regex;

std::string last_matching(const std::vector<std::string>& lines, const std::string& pattern) {
  const Pattern re(pattern);
  std::string found;
  for (const auto& l : lines)
    if (re.matches(l)) found = l;
  return found;
}

TEST(UciTranscript, InputIsUntiedFromOutput) {
  // A tied input stream flushes the output on every read, from the reading thread and outside
  // the session's lock: the search thread's lines could be written twice.
  std::istringstream in("quit\n");
  std::ostringstream out;
  in.tie(&out);
  Session session(in, out);
  EXPECT_EQ(in.tie(), nullptr);
}

TEST(UciTranscript, Handshake) {
  const auto out = transcript("uci\nisready\nquit\n");
  ASSERT_GE(out.size(), 4u);
  EXPECT_TRUE(out[0].starts_with("id name Kibitz"));
  EXPECT_EQ(count_matching(out, "^option name Hash type spin default 16 min 1 max"), 1);
  EXPECT_EQ(count_matching(out, "^option name Threads type spin"), 1);
  EXPECT_EQ(count_matching(out, "^option name MultiPV type spin"), 1);
  EXPECT_EQ(count_matching(out, "^option name Move Overhead type spin"), 1);
  EXPECT_EQ(count_matching(out, "^option name Clear Hash type button$"), 1);
  EXPECT_EQ(out[out.size() - 2], "uciok");
  EXPECT_EQ(out.back(), "readyok");
}

TEST(UciTranscript, GoDepthReportsEveryIterationAndALegalBestMove) {
  const auto out = transcript("position startpos moves e2e4 e7e5\ngo depth 6\n");
  for (int d = 1; d <= 6; ++d)
    EXPECT_EQ(count_matching(out, "^info depth " + std::to_string(d) +
                                      " seldepth \\d+ multipv 1 score cp -?\\d+ nodes \\d+ nps "
                                      "\\d+ hashfull \\d+ time \\d+ pv( [a-h][1-8][a-h][1-8]"
                                      "[nbrq]?)+$"),
              1)
        << d;
  const std::string best = last_matching(out, "^bestmove ");
  ASSERT_FALSE(best.empty());
  chess::Position p;
  p.apply(*chess::parse_uci(p, "e2e4"));
  p.apply(*chess::parse_uci(p, "e7e5"));
  EXPECT_TRUE(chess::parse_uci(p, best.substr(9, best.find(' ', 9) - 9)).has_value()) << best;
}

TEST(UciTranscript, FindsMateAndReportsMateScore) {
  const auto out = transcript(
      "position fen r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1\n"
      "go depth 6\n");
  EXPECT_GE(count_matching(out, "^info depth 6 .* score mate 2 .* pv d5f6"), 1);
  EXPECT_EQ(last_matching(out, "^bestmove"), "bestmove d5f6 ponder g7f6");
}

TEST(UciTranscript, MultiPvReportsDistinctLines) {
  const auto out = transcript("setoption name MultiPV value 3\nposition startpos\ngo depth 5\n");
  for (int k = 1; k <= 3; ++k)
    EXPECT_EQ(count_matching(out, "^info depth 5 .* multipv " + std::to_string(k) + " "), 1);
  EXPECT_EQ(count_matching(out, "multipv 4"), 0);
}

TEST(UciTranscript, GoPerft) {
  const auto out = transcript("position startpos\ngo perft 3\n");
  EXPECT_EQ(last_matching(out, "^Nodes searched"), "Nodes searched: 8902");
  EXPECT_EQ(count_matching(out, "^[a-h][1-8][a-h][1-8]: \\d+$"), 20);
}

TEST(UciTranscript, InfiniteSearchAnswersOnlyAfterStop) {
  const auto out = transcript("go infinite\nisready\nstop\nisready\n");
  ASSERT_EQ(count_matching(out, "^bestmove "), 1);
  // readyok answered while searching, before the bestmove.
  std::size_t first_ready = 0, best = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == "readyok" && first_ready == 0) first_ready = i + 1;
    if (out[i].starts_with("bestmove")) best = i + 1;
  }
  EXPECT_GT(first_ready, 0u);
  EXPECT_GT(best, first_ready);
}

TEST(UciTranscript, PonderhitTurnsTheClockOn) {
  const auto out = transcript("position startpos\ngo ponder wtime 2000 btime 2000\nponderhit\n");
  EXPECT_EQ(count_matching(out, "^bestmove [a-h][1-8][a-h][1-8]"), 1);
}

TEST(UciTranscript, SearchMovesAndNodeLimit) {
  const auto out = transcript("position startpos\ngo nodes 5000 searchmoves a2a3 h2h3\n");
  const std::string best = last_matching(out, "^bestmove");
  EXPECT_TRUE(best.starts_with("bestmove a2a3") || best.starts_with("bestmove h2h3")) << best;
}

TEST(UciTranscript, ClockedSearchAnswers) {
  const auto out = transcript(
      "setoption name Move Overhead value 10\nposition startpos\ngo wtime 300 btime 300 winc 0 "
      "binc 0 movestogo 5\n");
  EXPECT_EQ(count_matching(out, "^bestmove [a-h][1-8][a-h][1-8]"), 1);
}

TEST(UciTranscript, ThreadsAndHashOptions) {
  const auto out = transcript(
      "setoption name Threads value 2\nsetoption name Hash value 8\nsetoption name Clear Hash\n"
      "position startpos\ngo depth 6\n");
  EXPECT_EQ(count_matching(out, "^bestmove [a-h][1-8][a-h][1-8]"), 1);
}

TEST(UciTranscript, MalformedCommandsAreIgnored) {
  const auto out = transcript(
      "position startpos moves e2e4\n"
      "position fen not/a/fen w - - 0 1\n"  // bad FEN: refused (`d` shows the last good one)
      "position startpos moves e2e5\n"      // illegal move: refused
      "position sideways\n"
      "go depth banana\n"
      "setoption name Hash value lots\n"
      "setoption name Nonexistent value 3\n"
      "setoption\n"
      "flibbertigibbet\n"
      "go perft 99\n"
      "\n   \n"
      "d\n"
      "isready\n");
  // The last position was refused: the go is answered, without searching another position.
  EXPECT_EQ(count_matching(out, "^bestmove"), 1);
  EXPECT_EQ(count_matching(out, "^bestmove 0000$"), 1);
  EXPECT_EQ(last_matching(out, "^fen "),
            "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  EXPECT_EQ(out.back(), "readyok");
}

TEST(UciTranscript, QuitStopsAtOnce) {
  const auto out = transcript("go infinite\nquit\n");
  EXPECT_EQ(count_matching(out, "^bestmove"), 1);
}

}  // namespace
}  // namespace kibitz::uci
