#pragma once
// The Gomocup (piskvork) protocol over the gomoku engine behind the engine contract
// (engine::AnyEngine): a text adapter only. Commands are read on the calling thread while the
// engine thinks on its own thread, so END (and a changed time limit) is seen at once; every
// output line goes out under one lock. Bad input gets an `ERROR message` line and the session
// goes on. The move's time comes from the time manager with the gomoku policy.
//
// Supported: START, RECTSTART (square boards), RESTART, BEGIN, TURN, BOARD ... DONE, INFO
// (timeout_turn, timeout_match, time_left, max_memory, game_type, rule, folder), END, ABOUT,
// TAKEBACK, and SWAP2BOARD (the swap2 opening rule's questions, Gomocup 2020 extension). Rule bits:
// 1 exact five, 4 renju; Kibitz's extension 16 (or `INFO capture 1`) selects the capture variant
// (Ninuki).
#include <atomic>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/any_engine.hpp"
#include "engine/gomoku_engine.hpp"
#include "games/gomoku/position.hpp"

namespace kibitz::gomocup {

struct SessionOptions {
  std::int64_t movetime_ms = 0;  // fixed time per move (0: the manager's limits, else 450 ms)
  std::size_t hash_mb = 64;
  engine::GomokuOptions engine;
  bool messages = true;  // MESSAGE lines with depth, score and the deciding stage
};

class Session {
 public:
  Session(std::istream& in, std::ostream& out, SessionOptions options = {});
  ~Session();
  // Runs until END or end of input; returns the process exit status (0).
  int run();
  // One command line (exposed for tests); false after END.
  bool handle(std::string_view line);
  // Sets an engine option before the session runs (--option, --option-file): one of the
  // engine's declarations, as the protocol's own setting would.
  Result<void> set_option(std::string_view name, std::string_view value);
  // Waits for a move being thought about (tests).
  void wait();
  // The next move's time budget from the INFO limits (exposed for tests).
  std::int64_t move_budget_ms() const;
  // The position as the engine is given it (exposed for tests).
  std::string position_text() const;

 private:
  void send(std::string_view line);
  void error(std::string_view message);
  bool start(int size);
  engine::EngineLimits limits() const;
  void think();
  void apply_rule_bits(int bits);
  void board_line(std::string_view line);
  void finish_board();
  void swap2_line(std::string_view line);
  void finish_swap2();
  // The position of stones played alternately from black (see position_from in the .cpp).
  Result<gomoku::Position> position_from(const std::vector<std::pair<int, int>>& order) const;
  void play(gomoku::Move m);  // on the board and in the history

  std::istream& in_;
  std::ostream& out_;
  std::mutex out_mutex_;
  SessionOptions options_;
  std::unique_ptr<engine::AnyEngine> engine_;
  gomoku::Variant variant_;
  gomoku::Position position_;
  std::vector<std::pair<int, int>> history_;  // every stone in playing order (TAKEBACK)
  // The first setup_ stones of history_ were placed without an order (BOARD, or a
  // TAKEBACK's rebuild; never in the capture variant, where the order is the position).
  std::size_t setup_ = 0;
  bool started_ = false;
  bool capture_ = false;
  int rule_bits_ = 0;
  // INFO values (ms); -1 = not given (0 is a value: "as fast as possible", "no match limit",
  // "no time left").
  std::int64_t timeout_turn_ = -1;
  std::int64_t timeout_match_ = -1;
  std::int64_t time_left_ = -1;
  // BOARD: collecting lines until DONE.
  bool in_board_ = false;
  std::vector<std::pair<int, int>> board_own_, board_opp_;
  // SWAP2BOARD: the opening stones in playing order until DONE.
  bool in_swap2_ = false;
  bool swap2_bad_ = false;
  std::vector<std::pair<int, int>> swap2_stones_;
  // Answering: from go() until the move is sent (the engine's own flag drops before its
  // answer is handled); the swap2 questions run their searches on a thread of their own.
  std::atomic<bool> thinking_{false};
  std::thread swap2_;
};

}  // namespace kibitz::gomocup
