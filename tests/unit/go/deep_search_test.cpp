// The Go deep search (seeds/001): the position cache keyed by symmetry hash, the recursion
// limits, the cache across runs, prior hints from similar positions, the configuration.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/rng.hpp"
#include "engine/go_deep.hpp"
#include "engine/go_engine.hpp"
#include "engine/go_tools.hpp"
#include "games/go/search_traits.hpp"
#include "games/go/sgf.hpp"
#include "search/mcts/mcts.hpp"
#include "unit/go/go_test_util.hpp"

namespace kibitz::engine {
namespace {

using go::Move;
using go::Position;

// A position with no symmetry: `plies` playout moves from the empty 9x9 board.
Position asymmetric_position(std::uint64_t seed, int plies = 14) {
  go::Rules rules;
  rules.size = 9;
  rules.komi = 7;
  Position p(rules);
  Rng rng(seed);
  for (int i = 0; i < plies && !p.is_terminal(); ++i) {
    Move m = go::playout_move(p, rng);
    if (!m.is_point()) break;
    p.apply(m);
  }
  return p;
}

// Small budgets so a test runs in a fraction of a second.
GoDeepConfig small_config(const std::string& db = ":memory:") {
  GoDeepConfig c;
  c.db_path = db;
  c.standard_visits = 100;
  c.deep.standard_visits = 100;
  c.deep.deep_visits = 300;
  c.deep.convergence_check_visits = 100;
  c.deep.policy_convergence = 0;  // always the full budget: counts are predictable
  c.deep.value_convergence = 0;
  c.deep.workers = 1;
  c.deep.top_children = 2;
  c.deep.ann_blend_weight = 0;
  c.score_playouts = 4;
  c.adaptive = false;
  return c;
}

std::string temp_db(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) /
                   ("kibitz_deep_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "go.db";
  for (const char* ext : {"", "-wal", "-shm", ".9x9.ann"})
    std::filesystem::remove(path.string() + ext);
  return path.string();
}

search::DeepAnalysis<Move> analysis_of(const Position& p, std::uint64_t visits) {
  search::MctsOptions o;
  o.max_visits = visits;
  search::Mcts<Position> m(p, o);
  search::DeepAnalysis<Move> a;
  a.result = m.search();
  a.move = a.result.best;
  a.value = a.result.value;
  a.uncertainty = a.result.uncertainty;
  a.source = search::DeepSource::kDeep;
  return a;
}

TEST(GoDeep, InverseTransformUndoesEveryTransform) {
  for (int t = 0; t < 8; ++t)
    for (int y = 0; y < 9; ++y)
      for (int x = 0; x < 9; ++x) {
        const int sq = go::point_of(x, y);
        EXPECT_EQ(go::transform_point(go::transform_point(sq, t, 9), go::inverse_transform(t), 9),
                  sq)
            << "t " << t;
      }
}

TEST(GoDeep, CanonicalTransformGivesTheSymHash) {
  for (std::uint64_t s = 1; s <= 20; ++s) {
    const Position p = asymmetric_position(s, static_cast<int>(s));
    const Position c = p.transformed(p.canonical_transform());
    EXPECT_EQ(c.hash(), p.sym_hash()) << s;
  }
}

// The stored move comes back, for every orientation of the board, as that orientation's
// image of the move; the policy is kept in one (canonical) layout.
TEST(GoDeep, LookupHitsForAllEightTransforms) {
  auto deep = GoDeep::open(small_config());
  ASSERT_TRUE(deep) << deep.error().message;
  GoPositionCache& cache = (*deep)->cache();
  for (std::uint64_t seed : {3u, 11u, 29u}) {
    const Position p = asymmetric_position(seed);
    const auto a = analysis_of(p, 200);
    ASSERT_TRUE(a.move.is_point());
    const auto so = cache.store(p, a, 0);
    ASSERT_TRUE(so.stored) << cache.last_error();
    EXPECT_TRUE(so.new_position);
    for (int t = 0; t < 8; ++t) {
      const Position q = p.transformed(t);
      ASSERT_EQ(q.sym_hash(), p.sym_hash());
      const auto hit = cache.lookup(q);
      ASSERT_TRUE(hit) << "seed " << seed << " transform " << t;
      EXPECT_EQ(hit->move, go::transform_move(a.move, t, 9)) << "seed " << seed << " t " << t;
      EXPECT_EQ(hit->contexts, 1);
      EXPECT_DOUBLE_EQ(hit->winrate, a.value);
    }
    // A different position (one more stone) misses.
    Position other = p;
    other.apply(a.move);
    EXPECT_FALSE(cache.lookup(other));
  }
  // Keys differ by komi: the same stones with another komi miss.
  Position p = asymmetric_position(3);
  p.set_komi(6.5);
  EXPECT_FALSE(cache.lookup(p));
}

TEST(GoDeep, CanonicalPolicyIsTheSameForEveryOrientation) {
  const Position p = asymmetric_position(5);
  const auto a = analysis_of(p, 200);
  const auto base = go_canonical_policy(a.result, p.canonical_transform(), 9);
  for (int t = 1; t < 8; ++t) {
    const Position q = p.transformed(t);
    search::MctsResult<Move> r = a.result;
    for (auto& ms : r.moves) ms.move = go::transform_move(ms.move, t, 9);
    // The transformed board's canonical transform maps its moves to the same layout.
    EXPECT_EQ(go_canonical_policy(r, q.canonical_transform(), 9), base) << t;
  }
}

// A second context for a position: the lookup chooses by the weights (here quality, the
// phase being the same for one position), and a sixth context prunes the worst.
TEST(GoDeep, ContextsAccumulateAndArePrunedToFive) {
  auto deep = GoDeep::open(small_config());
  ASSERT_TRUE(deep);
  GoPositionCache& cache = (*deep)->cache();
  const Position p = asymmetric_position(7);
  auto a = analysis_of(p, 150);
  std::vector<std::uint64_t> visits = {500, 9000, 100, 700, 300, 2000};
  for (std::size_t i = 0; i < visits.size(); ++i) {
    a.result.root_visits = visits[i];
    const auto so = cache.store(p, a, 1);
    ASSERT_TRUE(so.stored);
    EXPECT_EQ(so.contexts, static_cast<int>(std::min<std::size_t>(i + 1, 5)));
  }
  const auto hit = cache.lookup(p);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->contexts, 5);
  EXPECT_EQ(hit->deep_visits, 9000u);  // same phase, about the same age: quality decides
  auto stored = (*deep)->db().find(go_position_key(p));
  ASSERT_TRUE(stored && *stored);
  for (const auto& c : (*stored)->contexts) EXPECT_NE(c.deep_visits, 100u);  // pruned
}

// With every position uncertain (threshold 0), the recursion goes exactly to its limit.
TEST(GoDeep, RecursionRespectsMaxDepth) {
  for (int max_depth : {0, 1, 2}) {
    GoDeepConfig c = small_config();
    c.deep.uncertainty_threshold = 0;
    c.deep.deep_offset = 0;
    c.deep.max_recursion_depth = max_depth;
    auto deep = GoDeep::open(c);
    ASSERT_TRUE(deep);
    (*deep)->set_log(nullptr, false);
    search::DeepSearch<Position, GoPositionCache> ds((*deep)->cache(), c.deep, (*deep)->stats());
    const Position p = asymmetric_position(13, 6);
    TimeBudget budget;
    const auto a = ds.deep(p, 0, max_depth, budget);
    EXPECT_EQ(a.deepest, max_depth);
    EXPECT_EQ((*deep)->stats().deepest.load(), max_depth);
    // At most 1 + k + k^2 ... deep searches below the root (k = top_children = 2).
    std::uint64_t bound = 0, level = 1;
    for (int d = 1; d <= max_depth; ++d) bound += (level *= 2);
    EXPECT_LE((*deep)->stats().recursive_searches.load(), bound);
    if (max_depth > 0) {
      EXPECT_GT((*deep)->stats().recursive_searches.load(), 0u);
    }
  }
}

// The seed's test match twice on one database: the second run finds the first run's deep
// analyses (rag_hits > 0), plays the same game, and needs far fewer playouts.
TEST(GoDeep, SecondRunHitsTheCacheAndSearchesLess) {
  const std::string db = temp_db("rerun");
  GoDeepConfig c = small_config(db);
  c.deep.max_recursion_depth = 1;
  // A deep search that continues the engine's tree changes the trees of the moves after it,
  // which a cache hit does not: the same game replays only with fresh deep trees (the default).
  c.continue_tree = false;
  GoSelfplayOptions o;
  o.moves = 12;
  o.size = 9;
  std::vector<Move> first_moves;
  std::uint64_t first_playouts = 0;
  {
    auto deep = GoDeep::open(c);
    ASSERT_TRUE(deep) << deep.error().message;
    std::shared_ptr<GoDeep> d = std::move(*deep);
    auto r = run_go_selfplay(o, d, nullptr);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_GT(r->games[0].deep, 0) << "no deep search triggered";
    EXPECT_GT(r->positions_after, 0);
    first_moves = r->games[0].moves;
    first_playouts = r->games[0].playouts;
  }
  auto deep = GoDeep::open(c);  // the same file, reopened
  ASSERT_TRUE(deep);
  std::shared_ptr<GoDeep> d = std::move(*deep);
  auto r = run_go_selfplay(o, d, nullptr);
  ASSERT_TRUE(r);
  EXPECT_GT(d->stats().rag_hits.load(), 0u);
  EXPECT_GT(r->games[0].cached, 0);
  EXPECT_EQ(r->games[0].deep, 0);
  EXPECT_EQ(r->games[0].moves, first_moves);
  EXPECT_LT(r->games[0].playouts * 2, first_playouts);
  EXPECT_EQ(r->positions_after, r->positions_before);  // nothing new to store
}

// The ANN index finds a stored position's neighbours; with blending on, a deep search of a
// similar position takes a prior hint, and with it off it does not.
TEST(GoDeep, SimilarPositionsGivePriorHintsWhenSwitchedOn) {
  for (bool on : {false, true}) {
    GoDeepConfig c = small_config();
    c.ann_max_distance = 1.5;  // any neighbour counts
    c.deep.ann_blend_weight = on ? 0.25 : 0.0;
    auto deep = GoDeep::open(c);
    ASSERT_TRUE(deep);
    (*deep)->set_log(nullptr, false);
    (*deep)->prepare(9);
    for (std::uint64_t s = 1; s <= 4; ++s) {
      const Position p = asymmetric_position(s);
      ASSERT_TRUE((*deep)->cache().store(p, analysis_of(p, 150), 0).stored);
    }
    ASSERT_NE((*deep)->ann(), nullptr);
    EXPECT_EQ((*deep)->ann()->count(), 4u);
    const Position q = asymmetric_position(99);
    const auto hint = (*deep)->cache().similar(q, analysis_of(q, 150).result);
    EXPECT_FALSE(hint.empty());
    float sum = 0;
    for (const auto& [m, w] : hint) {
      EXPECT_TRUE(m.is_pass() || m.is_point());
      sum += w;
    }
    EXPECT_NEAR(sum, 1.0f, 1e-3f);
    search::DeepSearch<Position, GoPositionCache> ds((*deep)->cache(), c.deep, (*deep)->stats());
    TimeBudget budget;
    const auto a = ds.deep(q, 0, 0, budget);
    EXPECT_EQ(a.hinted, on);
    EXPECT_EQ((*deep)->stats().ann_hints.load(), on ? 1u : 0u);
  }
}

// An engine on a new game with a silent deep search of config c attached.
void start_deep_engine(GoEngine& engine, const GoDeepConfig& c, const go::Rules& rules) {
  auto deep = GoDeep::open(c);
  ASSERT_TRUE(deep) << deep.error().message;
  (*deep)->set_log(nullptr, false);
  engine.attach_deep(std::move(*deep));
  engine.new_game(rules);
}

TEST(GoDeep, EngineWithDeepSearchPlaysLegalMoves) {
  GoDeepConfig c = small_config();
  c.deep.uncertainty_threshold = 0;  // every move goes to the deep search
  const go::Rules rules{.size = 9};
  GoEngine engine;
  start_deep_engine(engine, c, rules);
  Position p(rules);
  for (int i = 0; i < 4; ++i) {
    const GoDecision d = engine.genmove(p, {});
    EXPECT_TRUE(d.deep);
    ASSERT_TRUE(p.is_legal(d.move)) << go::to_vertex(d.move, 9);
    EXPECT_EQ(d.result.root_visits, 100u);  // the standard search has the config's visits
    p.apply(d.move);
    engine.play(d.move);
  }
  EXPECT_EQ(engine.deep()->stats().moves.load(), 4u);
}

// The root's deep search continues the engine's tree: the standard search's visits count
// towards deep_mcts.max_visits, where a fresh tree searches them all again.
TEST(GoDeep, RootDeepSearchContinuesTheEnginesTree) {
  std::uint64_t playouts[2] = {0, 0};
  for (bool cont : {false, true}) {
    GoDeepConfig c = small_config();
    c.deep.uncertainty_threshold = 0;  // every move goes to the deep search
    c.deep.top_children = 0;           // the root's own deep search only
    c.continue_tree = cont;
    const go::Rules rules{.size = 9};
    GoEngine engine;
    start_deep_engine(engine, c, rules);
    const GoDecision d = engine.genmove(Position(rules), {});
    ASSERT_TRUE(d.deep);
    EXPECT_EQ(d.result.root_visits, 100u);
    playouts[cont] = d.playouts;
  }
  // 100 standard + 300 fresh deep visits, or 100 + 200 more in the same tree.
  EXPECT_NEAR(static_cast<double>(playouts[0]), 400.0, 4.0);
  EXPECT_NEAR(static_cast<double>(playouts[1]), 300.0, 4.0);
}

// Ingestion: every position of a record's main line is searched and (with --all) stored with
// the record's move; a file that is not SGF is skipped with a line naming it.
TEST(GoDeep, IngestStoresTheRecordsMoves) {
  const auto dir = std::filesystem::path(temp_db("ingest")).parent_path() / "games";
  std::filesystem::create_directories(dir);
  go::GameRecord rec;
  rec.size = 9;
  rec.komi = 7;
  const Position end = asymmetric_position(17, 12);
  {
    Position p(go::Rules{.size = 9, .komi = 7});
    Rng rng(17);
    for (int i = 0; i < 12; ++i) {
      const Move m = go::playout_move(p, rng);
      rec.moves.emplace_back(p.to_move(), m);
      p.apply(m);
    }
    ASSERT_EQ(p.hash(), end.hash());
  }
  std::ofstream(dir / "game.sgf") << go::write_sgf(rec);
  std::ofstream(dir / "broken.sgf") << "(;GM[1]SZ[9];B[zz";
  std::ofstream(dir / "notes.txt") << "not a record";  // not *.sgf: not read

  GoDeepConfig c = small_config();
  auto deep = GoDeep::open(c);
  ASSERT_TRUE(deep);
  GoIngestOptions o;
  o.paths = {dir.string()};
  o.visits = 50;
  o.all = true;
  o.progress = false;
  auto r = run_go_ingest(o, **deep);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->files, 2);
  EXPECT_EQ(r->games, 1);
  ASSERT_EQ(r->errors.size(), 1u);
  EXPECT_NE(r->errors[0].find("broken.sgf"), std::string::npos) << r->errors[0];
  EXPECT_EQ(r->positions, 12);
  EXPECT_EQ(r->stored, 12);
  EXPECT_EQ(r->new_positions, 12);
  // Every position answers with the record's next move, in any orientation (on a symmetric
  // board, such as the empty one, with a move equivalent to it: the same position follows).
  Position p(go::Rules{.size = 9, .komi = 7});
  for (const auto& [colour, m] : rec.moves) {
    Position next = p;
    next.apply(m);
    for (int t : {0, 5}) {
      Position q = p.transformed(t);
      const auto hit = (*deep)->cache().lookup(q);
      ASSERT_TRUE(hit);
      ASSERT_TRUE(q.is_legal(hit->move));
      q.apply(hit->move);
      EXPECT_EQ(q.sym_hash(), next.sym_hash());
    }
    p = next;
  }
  auto stats = (*deep)->db().stats();
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->ingested_contexts, 12);
  auto missing = go_sgf_files({(dir / "nothing-here").string()});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no such file or directory"), std::string::npos);
}

// configs/go.yaml holds the built-in defaults; presets override what they name.
TEST(GoDeepConfigFile, DefaultsAndPresets) {
  const std::string path = std::string(KIBITZ_TEST_DATA) + "/../../configs/go.yaml";
  auto c = load_go_config_file(path);
  ASSERT_TRUE(c) << c.error().message;
  const GoDeepConfig d;
  EXPECT_EQ(c->standard_visits, 800u);
  EXPECT_DOUBLE_EQ(c->deep.uncertainty_threshold, 0.35);
  EXPECT_DOUBLE_EQ(c->deep.uncertainty_threshold + c->deep.deep_offset, 0.40);
  EXPECT_EQ(c->deep.deep_visits, 10000u);
  EXPECT_DOUBLE_EQ(c->deep.policy_convergence, 0.05);
  EXPECT_DOUBLE_EQ(c->deep.value_convergence, 0.02);
  EXPECT_EQ(c->deep.max_recursion_depth, 2);
  EXPECT_EQ(c->deep.force_top_n, 1);
  EXPECT_EQ(c->deep.top_children, d.deep.top_children);
  EXPECT_DOUBLE_EQ(c->contexts.phase_weight, 0.5);
  EXPECT_DOUBLE_EQ(c->contexts.quality_weight, 0.3);
  EXPECT_DOUBLE_EQ(c->contexts.recency_weight, 0.2);
  EXPECT_EQ(c->contexts.max_contexts, 5);
  EXPECT_DOUBLE_EQ(c->contexts.recency_half_life_s, d.contexts.recency_half_life_s);
  EXPECT_EQ(c->db_path, d.db_path);
  EXPECT_EQ(c->adaptive, d.adaptive);
  EXPECT_DOUBLE_EQ(c->time_factor, d.time_factor);
  EXPECT_DOUBLE_EQ(c->standard_time_share, d.standard_time_share);
  EXPECT_EQ(c->continue_tree, d.continue_tree);

  auto fast = load_go_config_file(path, "fast");
  ASSERT_TRUE(fast);
  EXPECT_DOUBLE_EQ(fast->deep.uncertainty_threshold, 0.45);
  EXPECT_EQ(fast->deep.deep_visits, 5000u);
  EXPECT_EQ(fast->deep.max_recursion_depth, 1);
  auto hq = load_go_config_file(path, "high_quality");
  ASSERT_TRUE(hq);
  EXPECT_EQ(hq->deep.deep_visits, 20000u);
  EXPECT_EQ(hq->deep.max_recursion_depth, 3);
  auto bal = load_go_config_file(path, "balanced");
  ASSERT_TRUE(bal);
  EXPECT_EQ(bal->deep.deep_visits, c->deep.deep_visits);

  auto missing = load_go_config_file(path, "blitz");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no preset 'blitz'"), std::string::npos);
}

TEST(GoDeepConfigFile, BadFilesAreNamed) {
  const auto err = [](std::string_view text) {
    auto c = Config::parse(text, "t.yaml");
    EXPECT_TRUE(c);
    auto g = load_go_config(*c);
    EXPECT_FALSE(g);
    return g ? std::string() : g.error().message;
  };
  EXPECT_NE(err("rag_query:\n  treshold: 0.3\n").find("unknown key 'rag_query.treshold'"),
            std::string::npos);
  EXPECT_NE(err("deep:\n  x: 1\n").find("unknown section 'deep'"), std::string::npos);
  EXPECT_NE(err("rag_query:\n  uncertainty_threshold: 1.5\n").find("0 to 1"), std::string::npos);
  EXPECT_NE(err("deep_mcts:\n  max_visits: lots\n").find("max_visits"), std::string::npos);
  // Issue 22: a negative count in an unsigned field is named as it was written (it read as
  // 2^64 - 5 and was printed as 1.8446744073709552e+19).
  EXPECT_EQ(err("standard:\n  visits: -5\n"), "t.yaml: standard.visits must be 0 or more (is -5)");
  EXPECT_NE(err("presets:\n  fast:\n    recursion:\n      depth: 3\n")
                .find("unknown key 'presets.fast.recursion.depth'"),
            std::string::npos);
}

// Adaptive recursion depth from the clock: the seed's thresholds.
TEST(GoDeep, AdaptiveDepthFromTheClock) {
  GoDeepConfig c = small_config();
  c.adaptive = true;
  auto deep = GoDeep::open(c);
  ASSERT_TRUE(deep);
  EXPECT_EQ((*deep)->depth_for(120), 3);
  EXPECT_EQ((*deep)->depth_for(45), 2);
  EXPECT_EQ((*deep)->depth_for(10), 1);
  EXPECT_EQ((*deep)->depth_for(-1), c.deep.max_recursion_depth);  // no clock
}

}  // namespace
}  // namespace kibitz::engine
