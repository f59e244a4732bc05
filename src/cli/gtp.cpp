// kibitz gtp: the Go engine speaking GTP v2 (with Leela Zero's lz-analyze) on stdin/stdout,
// for GUIs such as Sabaki, Lizzie, GoGui and for KGS / OGS bridges.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "engine/go_deep.hpp"
#include "games/go/board.hpp"
#include "games/go/pattern_model.hpp"
#include "games/go/playout_model.hpp"
#include "protocol/gtp/gtp.hpp"

namespace kibitz::cli {

namespace {

struct GtpArgs {
  OptionArgs options;  // --option, --option-file
  std::uint64_t visits = 0;
  std::int64_t movetime = 0;
  int threads = 1;
  std::uint64_t seed = 0x4D435453ull;
  double komi = 7.5;
  int size = 19;
  bool no_resign = false;
  bool no_dynamic_komi = false;
  double rave_k = engine::GoEngineOptions{}.rave_k;
  bool ponder = false;
  std::string patterns;            // move-prediction weights instead of the built-in ones
  std::string playouts = "rules";  // rules, learned, or a playout weights file
  std::string config;              // go.yaml: the deep search and the position database
  std::string preset;
  std::string db;
  bool quiet_deep = false;
  bool threads_set = false;
  bool seed_set = false;
};

int run_gtp(const GtpArgs& a) {
  if (a.size < go::kMinSize || a.size > go::kMaxSize)
    return report_error(fmt::format("--size {}: {} to {}", a.size, go::kMinSize, go::kMaxSize), 2);
  if (a.threads < 1 || a.threads > 256) return report_error("--threads: 1 to 256", 2);
  if (!a.patterns.empty()) {
    auto model = go::PatternModel::load(a.patterns);
    if (!model) return report_error(model.error().message, 2);
    go::PatternModel::set_active(std::move(*model));
  }
  go::PatternModel::active();  // read the built-in weights now, not on the first move's clock
  // A loaded model lives as long as the searches that read it: to the end of the program.
  static std::unique_ptr<const go::PlayoutModel> loaded;
  if (a.playouts == "learned") {
    go::PlayoutModel::set_active(&go::PlayoutModel::builtin());
  } else if (a.playouts != "rules") {
    auto m = go::PlayoutModel::load(a.playouts);
    if (!m) return report_error(m.error().message, 2);
    loaded = std::make_unique<const go::PlayoutModel>(std::move(*m));
    go::PlayoutModel::set_active(loaded.get());
  }
  gtp::SessionOptions o;
  if (!a.config.empty() || !a.db.empty()) {
    auto cfg = deep_config_from(a.config, a.preset, a.db);
    if (!cfg) return report_error(cfg.error().message, 2);
    o.engine.threads = cfg->threads;
    o.engine.seed = cfg->seed;
    o.engine.resign = cfg->resign;
    if (cfg->enabled) {
      auto deep = engine::GoDeep::open(*cfg);
      if (!deep) return report_error(deep.error().message);
      o.deep = std::move(*deep);
      o.deep->set_log(stderr, !a.quiet_deep);
    }
  } else if (!a.preset.empty()) {
    return report_error("--preset needs --config (the presets live in the config file)", 2);
  }
  o.visits = a.visits;
  o.movetime_ms = a.movetime;
  o.size = a.size;
  o.komi = a.komi;
  if (a.threads_set || !o.deep) o.engine.threads = a.threads;
  if (a.seed_set || !o.deep) o.engine.seed = a.seed;
  if (a.no_resign) o.engine.resign = false;
  if (a.no_dynamic_komi) o.engine.dynamic_komi = false;
  o.engine.rave_k = a.rave_k;
  o.ponder = a.ponder;
  auto settings = option_settings(a.options);
  if (!settings) return report_error(settings.error().message, 2);
  gtp::Session session(std::cin, std::cout, o);
  for (const auto& [name, value] : *settings)
    if (auto ok = session.set_option(name, value); !ok) return report_error(ok.error().message, 2);
  return session.run();
}

}  // namespace

Runner add_gtp(CLI::App& root) {
  auto a = std::make_shared<GtpArgs>();
  auto* cmd = root.add_subcommand("gtp", "Go engine speaking GTP v2 on stdin/stdout");
  cmd->add_option("--visits", a->visits, "root visits per move (0: no limit)");
  cmd->add_option("--movetime", a->movetime,
                  "milliseconds per move (default: from time_settings / time_left, else 1000)");
  cmd->add_option("--threads", a->threads, "search threads")->capture_default_str();
  cmd->add_option("--seed", a->seed, "random seed")->capture_default_str();
  cmd->add_option("--komi", a->komi, "komi until the controller sets one")->capture_default_str();
  cmd->add_option("--size", a->size, "board size until boardsize (5..19)")->capture_default_str();
  cmd->add_flag("--no-resign", a->no_resign, "never resign");
  cmd->add_flag("--ponder", a->ponder,
                "think on the opponent's time (until the next command; uses a core meanwhile)");
  cmd->add_flag("--no-dynamic-komi", a->no_dynamic_komi,
                "search handicap games with the real komi (default: linear dynamic komi)");
  cmd->add_option(
         "--rave-k", a->rave_k,
         "RAVE weight: the AMAF value counts half at this many visits of a move (0: no RAVE)")
      ->capture_default_str();
  cmd->add_option("--patterns", a->patterns,
                  "move-prediction weights for the priors (default: the built-in "
                  "data/go/patterns.json; `kibitz go train-patterns` writes others)");
  cmd->add_option("--playouts", a->playouts,
                  "playout policy: rules (hand-written), learned (the built-in "
                  "data/go/playout_patterns.json), or a weights file of `kibitz go train-playout`")
      ->capture_default_str();
  add_option_flags(cmd, a->options);
  cmd->add_option("--config", a->config,
                  "go.yaml: turns on the deep search with its position database "
                  "(configs/go.yaml documents every setting)");
  cmd->add_option("--preset", a->preset, "a preset of the config (fast, balanced, high_quality)");
  cmd->add_option("--db", a->db,
                  "position database: an SQLite file or postgresql://... (overrides "
                  "database.path)");
  cmd->add_flag("--quiet-deep", a->quiet_deep,
                "no deep-search trace on stderr (the per-move lines stay)");
  cmd->footer(
      "Commands: protocol_version name version known_command list_commands quit boardsize\n"
      "clear_board komi play genmove undo showboard final_score final_status_list\n"
      "fixed_handicap place_free_handicap set_free_handicap time_settings time_left loadsgf\n"
      "kgs-genmove_cleanup lz-analyze.\nWith --config the deep search decides each genmove after "
      "the standard search\n(log lines on stderr; see docs/go.md).\nScoring: Tromp-Taylor area (no "
      "dead-stone removal; "
      "final_status_list reports every stone alive).");
  auto* threads = cmd->get_option("--threads");
  auto* seed = cmd->get_option("--seed");
  return [a, threads, seed] {
    a->threads_set = threads->count() > 0;
    a->seed_set = seed->count() > 0;
    return run_gtp(*a);
  };
}

}  // namespace kibitz::cli
