// kibitz serve: the web pages that play the games against their engines (docs/serve.md).
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include "cli/commands.hpp"
#include "serve/server.hpp"

namespace kibitz::cli {

namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_stop_signal(int) { g_stop.store(true); }

int run_serve(serve::ServeOptions options, const Registry& registry) {
  if (options.port < 0 || options.port > 65535)
    return report_error(fmt::format("--port {}: 0 to 65535", options.port), 2);
  if (options.store.max_sessions < 1) return report_error("--max-games must be at least 1", 2);
  if (options.store.max_thinking < 1) return report_error("--max-thinking must be at least 1", 2);
  serve::Server server(registry, options);
  auto port = server.bind();
  if (!port) return report_error(port.error().message, 1);
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // The server runs on its own thread; this one turns a signal into a stop.
  std::thread serving([&] { server.run(); });
  fmt::print("kibitz serve: http://{}:{}/ (Ctrl-C stops)\n", options.host, *port);
  std::fflush(stdout);
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  server.stop();
  serving.join();
  return 0;
}

}  // namespace

Runner add_serve(CLI::App& root, const Registry& registry) {
  auto o = std::make_shared<serve::ServeOptions>();
  o->store.max_thinking = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  auto* cmd = root.add_subcommand(
      "serve", "Play the games against their engines in a browser (a local web server)");
  cmd->footer(
      R"(The pages: / lists the games, /play/GAME plays one (chess, gomoku, go). The JSON API
they use is in docs/serve.md. The server binds to loopback unless --host says otherwise; it
keeps at most --max-games games (the least recently used goes) and lets --max-thinking
engines think at once.

Examples:
  kibitz serve                      # then open http://127.0.0.1:8080/
  kibitz serve --port 9000 --max-movetime 10000)");
  cmd->add_option("--host", o->host, "address to listen on")->capture_default_str();
  cmd->add_option("--port", o->port, "port to listen on (0: any free one)")->capture_default_str();
  cmd->add_option("--max-games", o->store.max_sessions, "games kept at once")
      ->capture_default_str();
  cmd->add_option("--max-thinking", o->store.max_thinking,
                  "engines thinking at once (default: the machine's cores)");
  cmd->add_option("--max-movetime", o->store.max_movetime_ms,
                  "the longest think a page may ask, ms")
      ->capture_default_str();
  cmd->add_option("--threads", o->threads, "requests served at once")->capture_default_str();
  return [o, &registry] { return run_serve(*o, registry); };
}

}  // namespace kibitz::cli
