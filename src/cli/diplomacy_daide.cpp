// kibitz diplomacy daide: a Kibitz bot playing one power on a DAIDE server over TCP, and
// kibitz diplomacy daide-server: a game hosted for DAIDE clients (src/protocol/daide/client.hpp
// and host.hpp do the talking; this file the sockets).
#include <fmt/format.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli/diplomacy.hpp"
#include "core/text.hpp"
#include "protocol/daide/client.hpp"
#include "protocol/daide/host.hpp"

namespace kibitz::cli {

namespace {
namespace diplomacy_daide {

struct DaideArgs {
  std::string host = "127.0.0.1";
  int port = 16713;
  daide::ClientOptions client;
  std::string log;
  bool verbose = false;
  int timeout_s = 600;
};

constexpr const char* kDaideExamples = R"(
Connects to a DAIDE server (the Diplomacy AI Development Environment's protocol, no press)
and plays the power it is given with a Kibitz bot: rm (the RM+ search, --movetime ms a
movement phase, within the game's deadline), heuristic or random. Only the standard map is
played: the client asks for the map's definition (MDF) and leaves, saying why, if it differs.
It prints what it plays and every refusal; --log writes the whole conversation, --verbose
prints it.

Examples:
  kibitz diplomacy daide --port 16713 --bot rm --movetime 300
  kibitz diplomacy daide --host 10.0.0.5 --port 16713 --bot heuristic --name Kibitz-H
  kibitz diplomacy daide --port 16713 --power ENG --passcode 4711   # take England back
)";

// The connected socket, or why not.
Result<int> connect_to(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int e = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); e != 0)
    return fail("cannot resolve '{}': {}", host, gai_strerror(e));
  int fd = -1;
  std::string why = "no address";
  for (addrinfo* a = found; a; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
    why = std::strerror(errno);
    close(fd);
    fd = -1;
  }
  freeaddrinfo(found);
  if (fd < 0) return fail("cannot connect to {}:{}: {}", host, port, why);
  return fd;
}

bool send_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

int run_daide(const DaideArgs& a) {
  if (a.client.bot != "rm" && a.client.bot != "heuristic" && a.client.bot != "random")
    return report_error(fmt::format("--bot '{}': rm, heuristic or random", a.client.bot), 2);
  if (auto e = rm_options_error(a.client.movetime_ms, a.client.strength))
    return report_error(*e, 2);
  if (a.port < 1 || a.port > 65535)
    return report_error(fmt::format("--port {}: 1 to 65535", a.port), 2);
  std::ofstream log;
  if (!a.log.empty()) {
    log.open(a.log);
    if (!log) return report_error(fmt::format("--log: cannot write '{}'", a.log));
  }
  auto fd = connect_to(a.host, a.port);
  if (!fd) return report_error(fd.error().message);
  daide::Client client(a.client);
  daide::FrameReader reader;
  // Lines worth a person's eye without --verbose: what is played, refusals, errors.
  const auto show = [&](const daide::Step& step) {
    for (const auto& line : step.log) {
      if (log) log << line << std::endl;  // flushed: the log survives a kill
      const bool mine = line.rfind("> SUB", 0) == 0 || line.rfind("playing", 0) == 0 ||
                        line.rfind("warning", 0) == 0 || line.rfind("error", 0) == 0;
      if (a.verbose || mine) fmt::print("{}\n", line);
    }
    std::fflush(stdout);
  };
  const auto act = [&](const daide::Step& step) {
    show(step);
    for (const auto& bytes : step.send)
      if (!send_all(*fd, bytes)) return false;
    return true;
  };
  int code = 1;
  if (!act(client.start())) {
    close(*fd);
    return report_error("the server closed the connection at once");
  }
  char buf[4096];
  for (bool open = true; open;) {
    pollfd p{*fd, POLLIN, 0};
    const int ready = poll(&p, 1, a.timeout_s * 1000);
    if (ready == 0) {
      fmt::print("error: nothing from the server for {} s; leaving\n", a.timeout_s);
      (void)send_all(*fd, daide::encode_final());
      break;
    }
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    const ssize_t n = recv(*fd, buf, sizeof buf, 0);
    if (n <= 0) {
      fmt::print("{}: the server closed the connection\n", client.game_over() ? "done" : "error");
      code = client.game_over() ? 0 : 1;
      break;
    }
    reader.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    while (auto frame = reader.next()) {
      if (!*frame) {
        fmt::print("error: {}\n", frame->error().message);
        (void)send_all(*fd, daide::encode_error(daide::ErrorCode::kUnknownType));
        open = false;
        break;
      }
      const daide::Step step = client.receive(**frame);
      if (!act(step) || step.close) {
        open = false;
        code = step.close ? step.exit_code : 1;
        break;
      }
    }
  }
  close(*fd);
  if (client.power())
    fmt::print("{}: {} centres{}\n", client.state().phase.year,
               diplomacy::count_centres(diplomacy::standard_map(), client.state(), *client.power()),
               client.result().empty() ? "" : ", " + client.result());
  return code;
}

// --- daide-server --------------------------------------------------------------------------

struct ServerArgs {
  std::string host = "127.0.0.1";
  int port = 16713;
  std::string seats = "daide";
  daide::HostOptions options;
  std::string record;
  bool verbose = false;
};

constexpr const char* kServerExamples = R"(
Hosts one game of Diplomacy (the standard map, no press) for DAIDE clients such as DumbBot,
with Kibitz's adjudicator. --seats gives the seven powers in map order (Austria, England,
France, Germany, Italy, Russia, Turkey): "daide" for a client's seat, "daide=NAME" for a seat
kept for the client that gives that name (NME), or a Kibitz bot (rm, heuristic, random) that
plays in the server; one word for all seven. The game starts when
every client seat is taken and its client has accepted the map; a phase is resolved when
every client's orders are in, or at its deadline (missing orders: civil disorder). It ends
with a solo, or with a draw after --max-year or when every power left asks for one. --record
writes the game as JSON (the players, every phase's orders, the final state).

Examples:
  kibitz diplomacy daide-server --port 16713 --seats daide,rm,rm,rm,rm,rm,rm --record game.json
  kibitz diplomacy daide-server --seats daide --movement 30 --max-year 1920
  kibitz diplomacy daide-server --seats daide,daide=Kibitz,daide,daide,daide,daide,daide
)";

volatile std::sig_atomic_t g_server_stop = 0;

int run_server(ServerArgs& a) {
  auto seats = split_commas(a.seats);
  if (seats.size() == 1) seats.assign(7, seats[0]);
  a.options.seats = seats;
  if (auto ok = daide::Host::check(a.options); !ok) return report_error(ok.error().message, 2);
  if (a.port < 1 || a.port > 65535)
    return report_error(fmt::format("--port {}: 1 to 65535", a.port), 2);
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  if (listener < 0) return report_error("cannot open a socket");
  const int one = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(a.port));
  if (inet_pton(AF_INET, a.host.c_str(), &addr.sin_addr) != 1) {
    close(listener);
    return report_error(fmt::format("--host '{}': an IPv4 address", a.host), 2);
  }
  if (bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      listen(listener, 16) != 0) {
    close(listener);
    return report_error(
        fmt::format("cannot listen on {}:{}: {}", a.host, a.port, std::strerror(errno)));
  }
  fmt::print("daide-server: listening on {}:{}\n", a.host, a.port);
  std::fflush(stdout);
  std::signal(SIGINT, [](int) { g_server_stop = 1; });
  std::signal(SIGTERM, [](int) { g_server_stop = 1; });
  daide::Host host(a.options);
  struct Peer {
    int fd = -1;
    daide::FrameReader reader;
    bool closing = false;
  };
  std::map<int, Peer> peers;  // by client id
  int next_id = 1;
  const auto flush_log = [&] {
    for (const auto& line : host.log) fmt::print("{}\n", line);
    host.log.clear();
    std::fflush(stdout);
  };
  const auto deliver = [&](const std::vector<daide::Host::Out>& outs) {
    for (const auto& o : outs) {
      auto it = peers.find(o.to);
      if (it == peers.end() || it->second.closing) continue;
      if (!send_all(it->second.fd, o.bytes) || o.close) it->second.closing = true;
    }
  };
  while (!g_server_stop) {
    // Connections the host or the network closed.
    for (auto it = peers.begin(); it != peers.end();) {
      if (!it->second.closing) {
        ++it;
        continue;
      }
      close(it->second.fd);
      const int id = it->first;
      it = peers.erase(it);
      deliver(host.disconnected(id, daide::Host::Clock::now()));
    }
    flush_log();
    if (host.over() && peers.empty()) break;
    std::vector<pollfd> fds{{listener, POLLIN, 0}};
    std::vector<int> ids{0};
    for (const auto& [id, peer] : peers) {
      fds.push_back({peer.fd, POLLIN, 0});
      ids.push_back(id);
    }
    int wait_ms = 1000;
    if (const auto d = host.deadline()) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*d - daide::Host::Clock::now())
              .count();
      wait_ms = static_cast<int>(std::clamp<long long>(left, 0, 1000));
    }
    const int ready = poll(fds.data(), fds.size(), wait_ms);
    const auto now = daide::Host::Clock::now();
    deliver(host.tick(now));
    if (ready <= 0) continue;
    if (fds[0].revents & POLLIN) {
      const int fd = accept(listener, nullptr, nullptr);
      if (fd >= 0) {
        const int id = next_id++;
        peers[id].fd = fd;
        deliver(host.connected(id));
      }
    }
    for (std::size_t i = 1; i < fds.size(); ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      auto it = peers.find(ids[i]);
      if (it == peers.end()) continue;
      char buf[4096];
      const ssize_t n = recv(it->second.fd, buf, sizeof buf, 0);
      if (n <= 0) {
        it->second.closing = true;
        continue;
      }
      it->second.reader.feed(std::string_view(buf, static_cast<std::size_t>(n)));
      while (!it->second.closing) {
        auto frame = it->second.reader.next();
        if (!frame) break;
        if (!*frame) {
          (void)send_all(it->second.fd, daide::encode_error(daide::ErrorCode::kUnknownType));
          it->second.closing = true;
          break;
        }
        deliver(host.received(ids[i], **frame, now));
      }
    }
  }
  for (auto& [id, peer] : peers) close(peer.fd);
  close(listener);
  flush_log();
  if (!a.record.empty()) {
    std::ofstream out(a.record);
    if (!out) return report_error(fmt::format("--record: cannot write '{}'", a.record));
    out << host.record_json() << '\n';
  }
  if (!host.over()) {
    fmt::print("daide-server: stopped before the game ended\n");
    return 1;
  }
  std::string centres;
  const auto& map = diplomacy::standard_map();
  for (int p = 0; p < map.num_powers(); ++p)
    centres += fmt::format(
        "{}{} {}", p ? ", " : "", map.power_name(static_cast<diplomacy::PowerId>(p)),
        diplomacy::count_centres(map, host.state(), static_cast<diplomacy::PowerId>(p)));
  fmt::print("centres: {}\n", centres);
  return 0;
}

}  // namespace diplomacy_daide
}  // namespace

SubRunners add_diplomacy_daide(CLI::App& diplomacy) {
  using namespace diplomacy_daide;
  auto args = std::make_shared<DaideArgs>();
  args->client.version = KIBITZ_VERSION;
  CLI::App* cmd = diplomacy.add_subcommand(
      "daide", "play one power on a DAIDE server (DumbBot's protocol) with a Kibitz bot");
  cmd->footer(kDaideExamples);
  cmd->add_option("--host", args->host, "the server's address")->capture_default_str();
  cmd->add_option("--port", args->port, "the server's port")->capture_default_str();
  cmd->add_option("--bot", args->client.bot, "rm, heuristic or random")->capture_default_str();
  cmd->add_option("--movetime", args->client.movetime_ms,
                  "the rm bot's time per movement phase, ms (within the game's deadline)")
      ->capture_default_str();
  cmd->add_option("--strength", args->client.strength, "the rm bot's strength")
      ->capture_default_str();
  cmd->add_option("--name", args->client.name, "the name given to the server (NME)")
      ->capture_default_str();
  cmd->add_option("--power", args->client.power,
                  "rejoin as this power (IAM, with --passcode) instead of asking for one");
  cmd->add_option("--passcode", args->client.passcode, "the passcode HLO gave, to rejoin");
  cmd->add_flag("--observe", args->client.observe, "watch the game only (OBS)");
  cmd->add_option("--draw-year", args->client.draw_year,
                  "from this year on, propose a draw each spring (0: never)")
      ->capture_default_str();
  cmd->add_option("--seed", args->client.seed, "the bot's random seed")->capture_default_str();
  cmd->add_option("--log", args->log, "write the whole conversation to this file");
  cmd->add_flag("--verbose", args->verbose, "print the whole conversation");
  cmd->add_option("--timeout", args->timeout_s, "leave after this many seconds of silence")
      ->capture_default_str();

  auto server = std::make_shared<ServerArgs>();
  CLI::App* srv = diplomacy.add_subcommand(
      "daide-server", "host a game for DAIDE clients (DumbBot, ...) and Kibitz's bots");
  srv->footer(kServerExamples);
  srv->add_option("--host", server->host, "the address to listen on (IPv4)")->capture_default_str();
  srv->add_option("--port", server->port, "the port to listen on")->capture_default_str();
  srv->add_option(
         "--seats", server->seats,
         "seven seats in map order (or one for all): daide, daide=NAME, rm, heuristic, random")
      ->capture_default_str();
  srv->add_option("--movement", server->options.movement_s, "the deadline of a movement phase, s")
      ->capture_default_str();
  srv->add_option("--retreat", server->options.retreat_s, "the deadline of a retreat phase, s")
      ->capture_default_str();
  srv->add_option("--build", server->options.build_s, "the deadline of a build phase, s")
      ->capture_default_str();
  srv->add_option("--max-year", server->options.max_year, "a draw after this year's winter")
      ->capture_default_str();
  srv->add_option("--movetime", server->options.rm_movetime_ms,
                  "the rm bots' time per movement phase, ms")
      ->capture_default_str();
  srv->add_option("--seed", server->options.seed, "the seats' assignment and the bots' seed")
      ->capture_default_str();
  srv->add_option("--record", server->record, "write the game as JSON here at the end");
  return {{cmd, [args] { return run_daide(*args); }},
          {srv, [server] { return run_server(*server); }}};
}

}  // namespace kibitz::cli
