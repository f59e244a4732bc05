#include "engine/go_tools.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "core/progress.hpp"
#include "games/go/sgf.hpp"
#include "search/mcts/mcts.hpp"
#include "store/postgres/pg_store.hpp"

namespace kibitz::engine {

using go::Move;
using go::Position;

namespace {

std::int64_t ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               t0)
      .count();
}

std::int64_t seconds_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Result<GoSelfplayReport> run_go_selfplay(const GoSelfplayOptions& options,
                                         std::shared_ptr<GoDeep> deep, std::FILE* log) {
  if (options.size < go::kMinSize || options.size > go::kMaxSize)
    return fail("board size {}: {} to {}", options.size, go::kMinSize, go::kMaxSize);
  if (options.moves < 1) return fail("moves per game must be at least 1");
  if (options.games < 1) return fail("games must be at least 1");
  if (options.deep && !deep) return fail("self-play with the deep search needs a database");
  GoSelfplayReport report;
  if (deep) {
    if (auto s = deep->db().stats()) {
      report.positions_before = s->positions;
      report.contexts_before = s->contexts;
    } else {
      return tl::unexpected(s.error());
    }
    deep->set_log(log, log != nullptr);
  }
  GoEngineOptions eo;
  eo.threads = options.threads;
  eo.seed = options.seed;
  eo.resign = false;  // a test match plays its moves
  for (int g = 0; g < options.games; ++g) {
    eo.seed = options.seed + static_cast<std::uint64_t>(g);  // games differ; runs repeat
    GoEngine engine(eo);
    if (options.deep) engine.attach_deep(deep);
    if (deep) deep->stats().reset();
    go::Rules rules;
    rules.size = options.size;
    rules.komi = options.komi;
    engine.new_game(rules);
    Position pos(rules);
    GoSelfplayGame game;
    const auto t0 = std::chrono::steady_clock::now();
    GoLimits limits;
    limits.visits = options.visits;
    limits.movetime_ms = options.movetime_ms;
    if (!options.deep && limits.visits == 0 && limits.movetime_ms == 0)
      limits.visits = deep ? deep->config().standard_visits : 800;
    for (int i = 0; i < options.moves && !pos.is_terminal(); ++i) {
      if (log)
        fmt::print(log, "Move {}: Kibitz ({}) thinking...\n", pos.moves_played() + 1,
                   pos.to_move() == go::kBlack ? "Black" : "White");
      const auto m0 = std::chrono::steady_clock::now();
      const GoDecision d = engine.genmove(pos, limits);
      game.move_ms.push_back(ms_since(m0));
      game.playouts += d.playouts;
      game.sources.push_back(d.source);
      switch (d.source) {
        case search::DeepSource::kStandard:
          ++game.standard;
          break;
        case search::DeepSource::kCached:
          ++game.cached;
          break;
        case search::DeepSource::kDeep:
          ++game.deep;
          break;
      }
      Move m = d.move;
      if (m.is_resign() || !pos.is_legal(m)) m = Move::pass();
      if (log && !options.deep)
        fmt::print(log, "Move {}: plays {} [unc={:.2f}, STANDARD, {}ms]\n", pos.moves_played() + 1,
                   go::to_vertex(m, options.size), d.result.uncertainty, game.move_ms.back());
      pos.apply(m);
      engine.play(m);
      game.moves.push_back(m);
    }
    game.time_ms = ms_since(t0);
    if (log) {
      if (deep && options.deep)
        fmt::print(log, "\n{}", deep->stats_block(fmt::format("Game {} Statistics", g + 1)));
      fmt::print(log, "  Moves: {} ({} standard, {} cached, {} deep), {} playouts, {:.1f} s\n\n",
                 game.moves.size(), game.standard, game.cached, game.deep, game.playouts,
                 game.time_ms / 1000.0);
    }
    report.games.push_back(std::move(game));
  }
  if (deep) {
    if (auto s = deep->db().stats()) {
      report.positions_after = s->positions;
      report.contexts_after = s->contexts;
    }
    if (auto r = deep->save_index(); !r && log)
      fmt::print(log, "kibitz: warning: {}\n", r.error().message);
    if (log)
      fmt::print(log, "Database {}: {} positions (+{}), {} contexts (+{})\n",
                 store::redact_url(deep->db().path()), report.positions_after,
                 report.positions_after - report.positions_before, report.contexts_after,
                 report.contexts_after - report.contexts_before);
  }
  return report;
}

Result<std::vector<std::string>> go_sgf_files(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::error_code ec;
    const auto st = fs::status(p, ec);
    if (ec || !fs::exists(st)) return fail("{}: no such file or directory", p);
    if (fs::is_directory(st)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::end(it);
           it.increment(ec)) {
        if (!it->is_regular_file()) continue;
        std::string ext = it->path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (ext == ".sgf") found.push_back(it->path().string());
      }
      if (ec) return fail("{}: {}", p, ec.message());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(p);
    }
  }
  return out;
}

Result<GoIngestReport> run_go_ingest(const GoIngestOptions& options, GoDeep& deep) {
  auto files = go_sgf_files(options.paths);
  if (!files) return tl::unexpected(files.error());
  GoIngestReport report;
  report.files = static_cast<int>(files->size());
  // Read every record first: the progress bar counts positions.
  std::vector<std::pair<std::string, go::GameRecord>> records;
  std::int64_t total = 0;
  for (const auto& f : *files) {
    auto rec = go::read_sgf_file(f);
    if (!rec) {
      report.errors.push_back(rec.error().message);
      continue;
    }
    std::int64_t n = static_cast<std::int64_t>(rec->moves.size());
    if (options.max_moves > 0) n = std::min<std::int64_t>(n, options.max_moves);
    total += n;
    records.emplace_back(f, std::move(*rec));
  }
  Progress progress("ingest", static_cast<std::uint64_t>(total), stderr, options.progress);
  const double threshold = deep.config().deep.uncertainty_threshold;
  search::MctsOptions mo;
  mo.threads = std::max(1, options.threads);
  mo.max_visits = std::max<std::uint64_t>(1, options.visits);
  mo.seed = deep.config().seed;
  mo.max_nodes = std::min<std::size_t>(mo.max_nodes, options.visits * 80 + 4096);
  std::int64_t done = 0;
  for (const auto& [file, rec] : records) {
    deep.prepare(rec.size);
    auto start = go::replay(rec, {}, 0);
    if (!start) {
      report.errors.push_back(fmt::format("{}: {}", file, start.error().message));
      continue;
    }
    ++report.games;
    Position pos = *start;
    std::size_t setup = 0;  // later_setup entries applied
    const std::size_t n = options.max_moves > 0
                              ? std::min<std::size_t>(rec.moves.size(), options.max_moves)
                              : rec.moves.size();
    bool broken = false;
    for (std::size_t i = 0; i < n && !broken; ++i) {
      // Setup stones inside the game: replay from the record (rare; keeps replay()'s rules).
      if (setup < rec.later_setup.size() &&
          rec.later_setup[setup].before_move <= static_cast<int>(i)) {
        auto p = go::replay(rec, {}, static_cast<int>(i));
        if (!p) {
          report.errors.push_back(fmt::format("{}: {}", file, p.error().message));
          broken = true;
          break;
        }
        pos = *p;
        while (setup < rec.later_setup.size() &&
               rec.later_setup[setup].before_move <= static_cast<int>(i))
          ++setup;
      }
      const auto [colour, move] = rec.moves[i];
      if (pos.is_terminal()) break;
      if (colour != pos.to_move()) pos.set_to_move(colour);
      if (!pos.is_legal(move)) {
        report.errors.push_back(
            fmt::format("{}: move {} ({}): illegal", file, i + 1, go::to_vertex(move, rec.size)));
        broken = true;
        break;
      }
      search::Mcts<Position> mcts(pos, mo);
      const auto r = mcts.search();
      ++report.positions;
      if (move.is_point() && (options.all || r.uncertainty > threshold)) {
        const int t = pos.canonical_transform();
        store::PositionContext ctx;
        ctx.move = go_canonical_index(move, t, rec.size);
        ctx.uncertainty = r.uncertainty;
        ctx.deep_visits = static_cast<std::uint32_t>(r.root_visits);
        ctx.policy = go_canonical_policy(r, t, rec.size);
        ctx.winrate = r.value;
        for (const auto& ms : r.moves)
          if (ms.move == move && ms.visits > 0) ctx.winrate = ms.value;
        ctx.game_phase = pos.stones_on_board();
        ctx.move_number = pos.moves_played();
        ctx.timestamp = seconds_now();
        ctx.source = "ingest";
        auto added = deep.cache().add(pos, ctx);
        if (!added) return tl::unexpected(added.error());
        ++report.stored;
        if (added->new_position) ++report.new_positions;
      }
      pos.apply(move);
      progress.update(static_cast<std::uint64_t>(++done),
                      fmt::format("{} games, {} stored", report.games, report.stored));
    }
  }
  progress.finish(fmt::format("{} positions, {} stored", report.positions, report.stored));
  if (auto r = deep.save_index(); !r) return tl::unexpected(r.error());
  return report;
}

}  // namespace kibitz::engine
