// kibitz: one program, one subcommand per job. Usage errors print one line and exit 2.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "core/log.hpp"

namespace kibitz::cli {

namespace {

// Every numeric option of every subcommand is a count, a size, a time, a limit or a seed, none
// of them negative; komi is the one signed setting. "-5" is refused here for all of them at
// once, where it would otherwise wrap to 2^64 - 5 in an unsigned field or read as "no limit".
// A floating-point option (komi included) must also be finite: "nan" and "inf" parse.
void refuse_negative_numbers(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    const std::string type = o->get_type_name();
    const bool floating = type.starts_with("FLOAT");
    const bool numeric = type.starts_with("INT") || type.starts_with("UINT") || floating;
    if (!numeric) continue;
    const bool signed_ok = o->get_name().find("komi") != std::string::npos;
    o->check(CLI::Validator(
        [signed_ok, floating](std::string& value) -> std::string {
          const auto first = value.find_first_not_of(" \t");
          if (!signed_ok && first != std::string::npos && value[first] == '-')
            return "Value " + value + " is negative (must be 0 or more)";
          if (floating) {
            char* end = nullptr;
            const double v = std::strtod(value.c_str(), &end);
            if (end != value.c_str() && !std::isfinite(v))
              return "a finite number is needed, not " + value;
          }
          return {};
        },
        "", "non-negative"));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    refuse_negative_numbers(*sub);
}

}  // namespace

}  // namespace kibitz::cli

int main(int argc, char** argv) {
  using namespace kibitz;
  const Registry& registry = builtin_registry();

  CLI::App app{fmt::format("Kibitz: engines that play and analyse {}.", registry.titles()),
               "kibitz"};
  app.set_version_flag("--version", std::string("kibitz ") + KIBITZ_VERSION);
  std::string log_level = "warn";
  app.add_option("--log-level", log_level,
                 "stderr log level: trace, debug, info, warn, error, critical, off")
      ->capture_default_str();
  app.footer("Run 'kibitz <command> --help' for the options of a command.");

  // The commands every game shares, then each game's own (its registry entry's).
  std::vector<Command> runners = {
      {"demo", cli::add_demo(app, registry)},   {"games", cli::add_games(app, registry)},
      {"bench", cli::add_bench(app, registry)}, {"selfplay", cli::add_selfplay(app, registry)},
      {"match", cli::add_match(app, registry)}, {"serve", cli::add_serve(app, registry)},
  };
  for (const auto& g : registry.games())
    if (g.commands)
      for (auto& c : g.commands(app)) runners.push_back(std::move(c));
  cli::refuse_negative_numbers(app);
  // Extras on the root only (subcommands keep rejecting theirs): lets us name an unknown
  // subcommand ourselves instead of CLI11's generic message.
  app.allow_extras();

  // Gomocup managers start engines named pbrain-*: under that name the program is the
  // Gomocup engine (`kibitz gomocup` with the options given).
  std::vector<std::string> args(argv + 1, argv + argc);
  const std::string self = argc > 0 ? argv[0] : "kibitz";
  if (self.size() >= 13 && self.substr(self.size() - 13) == "pbrain-kibitz")
    args.insert(args.begin(), "gomocup");
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last-first

  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (const auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);
    return cli::report_error(msg, 2);
  }

  auto level = parse_log_level(log_level);
  if (!level) return cli::report_error(level.error().message, 2);
  init_logging(*level);

  if (const auto extras = app.remaining(); !extras.empty()) {
    const std::string& extra = extras.front();
    if (!extra.empty() && extra[0] == '-')
      return cli::report_error(fmt::format("unknown option '{}' (see 'kibitz --help')", extra), 2);
    return cli::report_error(
        fmt::format("unknown command '{}' (see 'kibitz --help' for the list)", extra), 2);
  }
  for (const auto& [name, run] : runners)
    if (app.got_subcommand(name)) return run();
  fmt::print("{}", app.help());
  return 0;
}
