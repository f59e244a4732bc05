#pragma once
// Each subcommand registers its options on the root app and returns the function that runs
// it; main() calls the one the user picked. Runners return the process exit status.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "engine/any_engine.hpp"
#include "engine/bench.hpp"
#include "games/registry.hpp"

namespace kibitz::engine {
struct GoDeepConfig;
}  // namespace kibitz::engine

namespace kibitz::cli {

using Runner = std::function<int()>;

Runner add_demo(CLI::App& root, const Registry& registry);
Runner add_games(CLI::App& root, const Registry& registry);
Runner add_perft(CLI::App& root);
Runner add_tune(CLI::App& root);
Runner add_train_nnue(CLI::App& root);
Runner add_uci(CLI::App& root);
Runner add_bench(CLI::App& root, const Registry& registry);
Runner add_selfplay(CLI::App& root, const Registry& registry);
Runner add_match(CLI::App& root, const Registry& registry);
Runner add_serve(CLI::App& root, const Registry& registry);
Runner add_gomocup(CLI::App& root);
Runner add_gomoku(CLI::App& root);
Runner add_gtp(CLI::App& root);
Runner add_hearts(CLI::App& root);
Runner add_go(CLI::App& root);
Runner add_diplomacy(CLI::App& root);
// `go db stats|prune|export` under the `go` command (src/cli/go.cpp runs it when chosen).
Runner add_go_db(CLI::App& go_cmd);
// `go train-patterns` and `go eval-patterns` (src/cli/go_patterns.cpp); -1 when neither ran.
Runner add_go_patterns(CLI::App& go_cmd);

// The Go deep-search configuration from --config FILE, --preset NAME and --db FILE (the
// defaults without a file); an error for a bad file or a preset without a file (go.cpp).
Result<engine::GoDeepConfig> deep_config_from(const std::string& config, const std::string& preset,
                                              const std::string& db);

// The games' parts of `kibitz demo` (the registry entries' hooks).
void demo_chess(const DemoRequest& request);
void demo_gomoku(const DemoRequest& request);
void demo_go(const DemoRequest& request);
void demo_hearts(const DemoRequest& request);
void demo_diplomacy(const DemoRequest& request);

// The benches of `kibitz bench --game chess|gomoku|go` (the registry entries' hooks).
int bench_chess(const engine::BenchRequest& request);
int bench_gomoku(const engine::BenchRequest& request);
int bench_go(const engine::BenchRequest& request);

// An engine's options as the user gives them to a protocol command: --option NAME=VALUE
// (repeatable) and --option-file FILE (YAML, its options: map); the words override the file.
struct OptionArgs {
  std::vector<std::string> words;
  std::string file;
};
void add_option_flags(CLI::App* cmd, OptionArgs& args);
// The settings in order (the file's first), or the one-line error of a bad file or word.
Result<engine::OptionSettings> option_settings(const OptionArgs& args);

// Prints "kibitz: error: <message>" on stderr (one line) and returns `status`; while an
// ErrorCapture lives on the calling thread, the message goes to it instead.
int report_error(const std::string& message, int status = 1);

// Catches report_error's messages on this thread (the Python module runs a command and raises
// its error as an exception). Nests: the innermost capture gets the messages.
class ErrorCapture {
 public:
  explicit ErrorCapture(std::string& sink);
  ~ErrorCapture();
  ErrorCapture(const ErrorCapture&) = delete;
  ErrorCapture& operator=(const ErrorCapture&) = delete;

 private:
  std::string* previous_;
};

}  // namespace kibitz::cli
