#pragma once
// Go's engine behind the engine contract: the MCTS engine (engine/go_engine.hpp) as an
// EngineRunner adapter. GTP drives it through the contract, giving it the deep search when it
// is made and a position beyond the position text (a handicap's placements, a loaded
// record); the match bot and the registry take it as any AnyEngine.
//
// Options: Threads, resign, seed (a new engine), cleanup (genmove may not pass: KGS cleanup),
// handicap (black's handicap stones in this game: the dynamic komi). Limits: nodes are
// visits; a clock runs through GoEngine's own time management (with main time and a byo-yomi
// period where given); infinite is an analysis (reports every interval_ms) until stop().
#include <memory>
#include <string_view>
#include <vector>

#include "engine/any_engine.hpp"
#include "engine/go_engine.hpp"
#include "games/go/board.hpp"

namespace kibitz::engine {

class GoAdapter {
 public:
  using Position = go::Position;
  static constexpr std::string_view kGame = "go";
  static Result<Position> parse(std::string_view text);
  static bool finished(const Position& p) { return p.is_terminal(); }

  explicit GoAdapter(const GoEngineOptions& options = {}, std::shared_ptr<GoDeep> deep = {});
  std::vector<EngineOption> options() const;
  Result<void> set(std::string_view name, std::int64_t v);
  void new_game();
  void stop();
  void arm();
  EngineReport search(const Position& root, const EngineLimits& l, const AnyEngine::ReportFn& info);

 private:
  void make_engine();

  GoEngineOptions options_;
  std::shared_ptr<GoDeep> deep_;
  std::unique_ptr<GoEngine> engine_;
  bool cleanup_ = false;
  int handicap_ = 0;
  StopLatch latch_;
};

using GoAnyEngine = EngineRunner<GoAdapter>;
std::unique_ptr<GoAnyEngine> make_go_engine(const GoEngineOptions& options,
                                            std::shared_ptr<GoDeep> deep = {});

}  // namespace kibitz::engine
