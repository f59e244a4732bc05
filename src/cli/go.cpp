// kibitz go: the Go deep search's tools — the seed's test match (selfplay), ingestion of game
// records into the position database, and the database's maintenance (db, in go_db.cpp).
#include <fmt/format.h>

#include <unistd.h>
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "engine/go_deep.hpp"
#include "engine/go_tools.hpp"

namespace kibitz::cli {

namespace {

// Options every deep-search command shares: the config file, a preset, the database.
struct DeepArgs {
  std::string config;
  std::string preset;
  std::string db;
};

void add_deep_options(CLI::App* c, DeepArgs& a) {
  c->add_option("--config", a.config, "go.yaml with the deep search's settings (configs/go.yaml)");
  c->add_option("--preset", a.preset, "a preset of the config file (fast, balanced, high_quality)");
  c->add_option("--db", a.db,
                "position database: an SQLite file or postgresql://... (default: the "
                "config's database.path)");
}

}  // namespace

// The deep configuration from --config / --preset / --db (defaults without a file).
Result<engine::GoDeepConfig> deep_config_from(const std::string& config, const std::string& preset,
                                              const std::string& db) {
  engine::GoDeepConfig c;
  if (!config.empty()) {
    auto loaded = engine::load_go_config_file(config, preset);
    if (!loaded) return loaded;
    c = *loaded;
  } else if (!preset.empty()) {
    return fail("--preset {} needs --config (the presets live in the config file)", preset);
  }
  if (!db.empty()) c.db_path = db;
  return c;
}

namespace {

struct SelfplayArgs {
  DeepArgs deep;
  engine::GoSelfplayOptions o;
  bool no_deep = false;
  bool quiet = false;
};

int run_selfplay(const SelfplayArgs& a) {
  auto cfg = deep_config_from(a.deep.config, a.deep.preset, a.deep.db);
  if (!cfg) return report_error(cfg.error().message, 2);
  if (a.o.threads < 1 || a.o.threads > 256) return report_error("--threads: 1 to 256", 2);
  engine::GoSelfplayOptions o = a.o;
  o.deep = !a.no_deep && cfg->enabled;
  std::shared_ptr<engine::GoDeep> deep;
  if (o.deep) {
    auto opened = engine::GoDeep::open(*cfg);
    if (!opened) return report_error(opened.error().message);
    deep = std::move(*opened);
  }
  auto r = engine::run_go_selfplay(o, deep, a.quiet ? nullptr : stderr);
  if (!r) return report_error(r.error().message);
  // A summary on stdout for scripts: one line per game.
  for (std::size_t g = 0; g < r->games.size(); ++g) {
    const auto& gm = r->games[g];
    fmt::print("game {} moves {} standard {} cached {} deep {} playouts {} time_ms {}\n", g + 1,
               gm.moves.size(), gm.standard, gm.cached, gm.deep, gm.playouts, gm.time_ms);
  }
  return 0;
}

struct IngestArgs {
  DeepArgs deep;
  engine::GoIngestOptions o;
  bool no_progress = false;
};

int run_ingest(const IngestArgs& a) {
  auto cfg = deep_config_from(a.deep.config, a.deep.preset, a.deep.db);
  if (!cfg) return report_error(cfg.error().message, 2);
  if (a.o.threads < 1 || a.o.threads > 256) return report_error("--threads: 1 to 256", 2);
  if (a.o.visits < 1) return report_error("--visits: at least 1", 2);
  auto files = engine::go_sgf_files(a.o.paths);
  if (!files) return report_error(files.error().message);
  auto opened = engine::GoDeep::open(*cfg);
  if (!opened) return report_error(opened.error().message);
  engine::GoIngestOptions o = a.o;
  o.progress = !a.no_progress && isatty(2);
  auto r = engine::run_go_ingest(o, **opened);
  if (!r) return report_error(r.error().message);
  for (const auto& e : r->errors) fmt::print(stderr, "kibitz: skipped: {}\n", e);
  fmt::print("files {} games {} positions {} stored {} new_positions {} skipped {}\n", r->files,
             r->games, r->positions, r->stored, r->new_positions, r->errors.size());
  return r->errors.empty() ? 0 : 1;
}

constexpr const char* kGoExamples = R"(
Examples:
  kibitz go selfplay --moves 40 --config configs/go.yaml --db /tmp/go.db
  kibitz go selfplay --moves 40 --config configs/go.yaml --preset fast --size 9
  kibitz go ingest games/ --db /tmp/go.db --visits 400
  kibitz go db stats --db /tmp/go.db
  kibitz go train-patterns ../shared/data/go/kgs-6d/KGS-2001-19-2298-.tar.gz --games 200 --out /tmp/p.json
  kibitz go eval-patterns ../shared/data/go/kgs-6d/KGS-2017_01-19-733-.tar.gz --games 100
)";

}  // namespace

Runner add_go(CLI::App& root) {
  auto* cmd = root.add_subcommand(
      "go", "Go tools: deep-search self-play, SGF ingestion, position database, move patterns");
  cmd->require_subcommand(1);
  cmd->footer(kGoExamples);

  auto sp = std::make_shared<SelfplayArgs>();
  auto* s = cmd->add_subcommand(
      "selfplay",
      "the seed's test match: one engine plays both colours with the deep search, printing "
      "when deep searches trigger, cache hits and the statistics block (stderr)");
  add_deep_options(s, sp->deep);
  s->add_option("--moves", sp->o.moves, "moves per game")->capture_default_str();
  s->add_option("--games", sp->o.games, "games (the database carries over)")->capture_default_str();
  s->add_option("--size", sp->o.size, "board size")->capture_default_str();
  s->add_option("--komi", sp->o.komi, "komi")->capture_default_str();
  s->add_option("--visits", sp->o.visits,
                "standard search visits per move (default: the config's standard.visits)");
  s->add_option("--movetime", sp->o.movetime_ms, "milliseconds per move instead of visits");
  s->add_option("--threads", sp->o.threads, "search threads")->capture_default_str();
  s->add_option("--seed", sp->o.seed, "random seed")->capture_default_str();
  s->add_flag("--no-deep", sp->no_deep, "standard search only (for comparisons)");
  s->add_flag("--quiet", sp->quiet, "only the summary lines on stdout");

  auto in = std::make_shared<IngestArgs>();
  auto* i = cmd->add_subcommand(
      "ingest",
      "pre-populate the position database from game records (SGF files or directories): "
      "positions the search finds uncertain are stored with the record's move");
  add_deep_options(i, in->deep);
  i->add_option("paths", in->o.paths, "SGF files or directories")->required();
  i->add_option("--visits", in->o.visits, "search visits per position")->capture_default_str();
  i->add_option("--threads", in->o.threads, "search threads")->capture_default_str();
  i->add_option("--max-moves", in->o.max_moves, "positions per game (0: all)")
      ->capture_default_str();
  i->add_flag("--all", in->o.all, "store every position, not only uncertain ones");
  i->add_flag("--no-progress", in->no_progress, "never draw the progress line");

  Runner db = add_go_db(*cmd);
  Runner patterns = add_go_patterns(*cmd);

  return [cmd, s, i, sp, in, db, patterns]() -> int {
    if (s->parsed()) return run_selfplay(*sp);
    if (i->parsed()) return run_ingest(*in);
    if (const int r = patterns(); r >= 0) return r;
    for (auto* sub : cmd->get_subcommands())
      if (sub->get_name() == "db") return db();
    return report_error(cmd->help(), 2);
  };
}

}  // namespace kibitz::cli
