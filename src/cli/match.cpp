// kibitz match: games between engines (external programs or in-process bots), refereed here,
// with clocks, openings, adjudication, W/D/L, Elo and SPRT, and game records.
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.hpp"
#include "match/match.hpp"
#include "serve/server.hpp"

namespace kibitz::cli {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted.store(true); }

struct MatchArgs {
  std::string game;  // default: the registry's first game
  std::vector<std::string> engines;
  std::string tc;
  std::int64_t movetime = 0;
  std::uint64_t nodes = 0;
  int depth = 0;
  std::string sprt;
  double alpha = 0.05, beta = 0.05;
  std::string json;
  bool progress = false, no_progress = false;
  bool komi_given = false;  // --komi on the command line: only Go takes it
  int live_port = -1;       // --live: the port of the live view (-1: none)
  match::MatchConfig config;
};

constexpr const char* kResultsAndExamples =
    R"(Results are from the first player's point of view: W/D/L, score, Elo with a 95% interval
  (pentanomial over pairs of games with the same opening and the colours reversed), and with
  --sprt the log-likelihood ratio after every pair; the match stops when H0 or H1 is accepted.
  Illegal moves, crashes and time forfeits lose the game and are counted per player.
  Exit status: 0 done, 1 a player or file failed, 2 bad arguments, 130 interrupted (Ctrl-C;
  the finished games are reported).

Examples:
  # Kibitz against Stockfish limited to 1800 Elo, 10+0.1, 200 games from 2-move openings
  kibitz match --engine "name=kibitz cmd=kibitz uci" \
      --engine "name=sf1800 cmd=stockfish option.UCI_LimitStrength=true option.UCI_Elo=1800" \
      --tc 10+0.1 --games 200 --concurrency 2 --openings 2moves_v1.epd --pgn games.pgn

  # SPRT: does disabling null move lose at least 5 Elo? (in-process bots, 20k nodes a move)
  kibitz match --engine bot=kibitz --engine "name=nonull bot=kibitz option.null_move=false" \
      --nodes 20000 --games 2000 --sprt 0,5 --openings book.pgn --plies 8 --random-openings

  # a gauntlet: the first engine against each other one, 100 games each, JSON report
  kibitz match --gauntlet --games 100 --movetime 100 --json report.json \
      --engine bot=kibitz --engine bot=plain --engine bot=random

  # Go on 9x9: the MCTS bot (200 visits a move) against the random bot, SGF records
  kibitz match --game go --board-size 9 --engine bot=mcts --engine bot=random --nodes 200 \
      --games 2 --pgn games.sgf

  # Go: Kibitz's GTP engine against GNU Go, 9x9, 10 s + 0.5 s a move
  kibitz match --game go --board-size 9 --tc 10+0.5 --games 2 \
      --engine "name=kibitz cmd=kibitz gtp" --engine "name=gnugo cmd=gnugo --mode gtp --level 0"

  # Hearts: the rule bot against the random bot on 200 duplicate hands of the shared deals
  kibitz match --game hearts --engine bot=rule --engine bot=random --games 200 \
      --openings ../shared/data/hearts/deals_10000_v1.tsv --records hands.jsonl

  # Diplomacy: the RM+ bot (300 ms) against the heuristic bot, every power twice
  kibitz match --game diplomacy --engine bot=rm --engine bot=heuristic --movetime 300 \
      --games 14 --concurrency 2 --records games.jsonl)";

// `kibitz match --help`'s footer: the players, time controls, each game's own paragraph
// (its registry entry's), results and examples.
std::string match_footer(const Registry& registry) {
  std::string protocols, bots, games;
  for (const auto& g : registry.games()) {
    if (!g.protocol.empty())
      protocols += fmt::format("{}{} for {}", protocols.empty() ? "" : ", ", g.protocol, g.name);
    if (!g.bots.empty()) bots += fmt::format("    {}: {}\n", g.name, g.bots);
    if (!g.match_help.empty()) games += g.match_help + "\n\n";
  }
  return fmt::format(R"(Players (--engine, once per player; KEY=VALUE words, quoted like a shell):
  cmd=PROGRAM ARGS...   an external engine ({protocols});
                        words after cmd= that are not KEY=VALUE are its arguments, arg=WORD
                        adds one verbatim
  bot=NAME              an in-process Kibitz bot:
{bots}  name=NAME             the name in results and records (default: program or bot name)
  option.NAME=VALUE     an engine option: a UCI setoption (checked against the engine's option
                        list); a bot's are its engine's (kibitz games --verbose)
  option-file=FILE      the options: map of a YAML file, as option.NAME=VALUE words
  proto=uci|gomocup|gtp  dir=DIR  stderr=show   protocol, working directory, engine's stderr
  tc= movetime= nodes= depth=         this player's own limits (time odds)

Time controls: --tc 10+0.1 (seconds + increment), --tc 40/60 (40 moves in 60 s, repeating),
  --tc 1:30+1 (minutes:seconds); or fixed limits per move: --movetime MS, --nodes N, --depth D.
  The mover's clock loses the wall time from the moment it is asked to the moment its move
  arrives; a move later than its clock plus --grace loses on time.

)",
                     fmt::arg("protocols", protocols), fmt::arg("bots", bots)) +
         games + kResultsAndExamples;
}

int run_match(MatchArgs& a, const Registry& registry) {
  auto& c = a.config;
  if (a.komi_given) {
    if (const GameEntry* g = registry.find(a.game); g && !(g->match_settings & kKomiSetting))
      return report_error(fmt::format("--komi: {} has no komi (only {} has)", a.game,
                                      registry.titles_taking(kKomiSetting)),
                          2);
  }
  auto game = registry.game_kind(a.game, c.settings);
  if (!game) return report_error(fmt::format("--game: {}", game.error().message), 2);
  for (const auto& text : a.engines) {
    auto spec = match::parse_player_spec(text);
    if (!spec) return report_error(fmt::format("--engine: {}", spec.error().message), 2);
    c.players.push_back(std::move(*spec));
  }
  if (!a.tc.empty()) {
    auto tc = match::TimeControl::parse(a.tc);
    if (!tc) return report_error(fmt::format("--tc: {}", tc.error().message), 2);
    c.settings.limits.clock = *tc;
  }
  c.settings.limits.movetime_ms = a.movetime;
  c.settings.limits.nodes = a.nodes;
  c.settings.limits.depth = a.depth;
  if (c.settings.limits.empty() && (*game)->needs_limits())
    for (const auto& p : c.players)
      if (p.limits.empty())
        return report_error(
            fmt::format("no limit for '{}': give --tc, --movetime, --nodes or --depth", p.name), 2);
  if (!a.sprt.empty()) {
    match::SprtParams p;
    if (std::sscanf(a.sprt.c_str(), "%lf,%lf", &p.elo0, &p.elo1) != 2 || p.elo0 >= p.elo1)
      return report_error(
          fmt::format("--sprt '{}': expected ELO0,ELO1 with ELO0 < ELO1 (e.g. 0,5)", a.sprt), 2);
    if (!(a.alpha > 0 && a.alpha < 0.5 && a.beta > 0 && a.beta < 0.5))
      return report_error("--alpha and --beta must lie between 0 and 0.5", 2);
    p.alpha = a.alpha;
    p.beta = a.beta;
    c.sprt = p;
  }
  c.progress = a.progress || (!a.no_progress && isatty(STDERR_FILENO));

  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  // --live: the pages of kibitz serve, with this match's feed, for as long as it runs.
  std::unique_ptr<serve::Server> live;
  std::shared_ptr<serve::MatchFeed> feed;
  std::thread live_thread;
  if (a.live_port >= 0) {
    serve::ServeOptions o;
    o.port = a.live_port;
    o.threads = 8;
    live = std::make_unique<serve::Server>(registry, o);
    auto port = live->bind();
    if (!port) return report_error(fmt::format("--live: {}", port.error().message));
    feed = live->matches().add(fmt::format("{}: {}", a.game, [&] {
      std::string names;
      for (const auto& p : c.players) names += (names.empty() ? "" : " vs ") + p.name;
      return names;
    }()));
    c.on_update = [&feed](const match::MatchUpdate& u) { feed->update(u); };
    live_thread = std::thread([&] { live->run(); });
    fmt::print(stderr, "kibitz match: live view at http://127.0.0.1:{}/match?id={}\n", *port,
               feed->id());
  }
  const auto stop_live = [&](const std::string& report_json, const std::string& error) {
    if (!live) return;
    feed->finish(report_json, error);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the pages read the end
    live->stop();
    live_thread.join();
  };

  match::Match m(c, std::move(*game));
  auto report = m.run(g_interrupted);
  stop_live(report ? match::report_json(*report, c) : std::string(),
            report ? std::string() : report.error().message);
  if (!report) return report_error(report.error().message, 1);
  fmt::print("{}", match::format_report(*report, c));
  if (!a.json.empty()) {
    std::ofstream out(a.json);
    if (!out) return report_error(fmt::format("cannot write '{}'", a.json));
    out << match::report_json(*report, c) << '\n';
  }
  return report->interrupted ? 130 : 0;
}

}  // namespace

Runner add_match(CLI::App& root, const Registry& registry) {
  auto a = std::make_shared<MatchArgs>();
  auto* cmd = root.add_subcommand(
      "match", "Play games between engines (external or in-process) and measure Elo / SPRT");
  cmd->footer(match_footer(registry));
  if (!registry.games().empty()) a->game = registry.games().front().name;
  cmd->add_option("--game", a->game, fmt::format("the game: {}", registry.names()))
      ->capture_default_str();
  cmd->add_option("--board-size", a->config.settings.board_size,
                  "gomoku: 15..20 (default 15, 19 for the capture rule); go: 5..19 (default 19)");
  cmd->add_option("--rule", a->config.settings.rule,
                  "gomoku: freestyle (default), exact5, renju, capture; go: chinese (the same "
                  "as tromp-taylor: area scoring, positional superko, no suicide)");
  cmd->add_option("--komi", a->config.settings.komi, "go: komi added to White's area")
      ->capture_default_str()
      ->each([a](const std::string&) { a->komi_given = true; });
  cmd->add_option("--max-year", a->config.settings.max_year,
                  "diplomacy: the last year played (default 1930)");
  cmd->add_option("--engine,-e", a->engines, "a player (see below); at least two")
      ->required()
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--games,-n", a->config.games, "games per pairing (pairs share an opening)")
      ->capture_default_str();
  cmd->add_flag("--gauntlet", a->config.gauntlet, "the first player against each other one");
  cmd->add_option("--concurrency,-c", a->config.concurrency, "games played at once")
      ->capture_default_str();
  cmd->add_option("--tc", a->tc, "time control: 10+0.1, 40/60, 1:30+1");
  cmd->add_option("--movetime", a->movetime, "fixed time per move, ms");
  cmd->add_option("--nodes", a->nodes, "fixed nodes per move");
  cmd->add_option("--depth", a->depth, "fixed depth per move");
  cmd->add_option("--openings", a->config.openings.file,
                  "opening book: EPD or PGN (chess), offset lists x,y,... (gomoku), SGF files "
                  "or a directory of them, or lines of GTP vertices (go), a deal file (hearts)");
  cmd->add_option("--openings-format", a->config.openings.format,
                  "auto, epd, pgn, offset, sgf, gtp, deals")
      ->capture_default_str();
  cmd->add_option("--plies", a->config.openings.plies, "cut book lines to this many plies");
  cmd->add_flag("--random-openings", a->config.openings.random_order,
                "openings in an order shuffled by --seed (default: file order)");
  cmd->add_option("--seed", a->config.seed,
                  "seed for the opening order, random bots and the games' own chance (deals, "
                  "game seeds)")
      ->capture_default_str();
  auto& adj = a->config.settings.adjudication;
  cmd->add_option("--resign-moves", adj.resign_moves,
                  "adjudicate a win when both players' scores exceed --resign-score for this "
                  "many moves each (0: off)")
      ->capture_default_str();
  cmd->add_option("--resign-score", adj.resign_score, "centipawns")->capture_default_str();
  cmd->add_option("--draw-moves", adj.draw_moves,
                  "adjudicate a draw when |score| <= --draw-score for this many moves each, "
                  "from move --draw-after on (0: off)")
      ->capture_default_str();
  cmd->add_option("--draw-score", adj.draw_score, "centipawns")->capture_default_str();
  cmd->add_option("--draw-after", adj.draw_after, "first move number of draw adjudication")
      ->capture_default_str();
  cmd->add_option("--max-moves", adj.max_moves,
                  "draw after this many moves each (go: scored as it stands; 0: no cap)")
      ->capture_default_str();
  cmd->add_option("--grace", a->config.settings.grace_ms,
                  "ms tolerated past the clock before a time forfeit")
      ->capture_default_str();
  cmd->add_option("--move-timeout", a->config.settings.move_timeout_ms,
                  "ms to wait for a move when no clock runs (after --movetime)")
      ->capture_default_str();
  cmd->add_option("--start-timeout", a->config.settings.start_timeout_ms,
                  "ms to wait for an engine's handshake")
      ->capture_default_str();
  cmd->add_option("--sprt", a->sprt, "SPRT bounds ELO0,ELO1 (logistic Elo), e.g. 0,5");
  cmd->add_option("--alpha", a->alpha, "SPRT false-positive rate")->capture_default_str();
  cmd->add_option("--beta", a->beta, "SPRT false-negative rate")->capture_default_str();
  std::string formats;
  for (const auto& g : registry.games())
    if (!g.records.empty())
      formats += fmt::format("{}{} for {}", formats.empty() ? "" : ", ", g.records, g.name);
  cmd->add_option("--pgn,--records", a->config.records_file,
                  fmt::format("append the game records ({}) to this file", formats));
  cmd->add_option("--json", a->json, "write the report as JSON to this file");
  cmd->add_option("--event", a->config.settings.event, "event name in the records")
      ->capture_default_str();
  cmd->add_option("--report-every", a->config.report_every,
                  "a status line on stderr every N games when stderr is not a terminal")
      ->capture_default_str();
  cmd->add_flag("--progress", a->progress, "always draw the live progress line");
  cmd->add_flag("--no-progress", a->no_progress, "never draw the live progress line");
  cmd->add_flag("--verbose,-v", a->config.settings.verbose, "every move and game on stderr");
  cmd->add_option("--live", a->live_port,
                  "watch the match in a browser: serve its live view on this port of "
                  "127.0.0.1 (kibitz serve's /match page; 0: any free port)");
  return [a, &registry] { return run_match(*a, registry); };
}

}  // namespace kibitz::cli
