// Several processes writing the same positions into one position store at once (issue 30):
// each writer adds contexts to a shared set of positions and looks positions up, reporting
// every commit through a pipe; one writer may be killed by SIGKILL midway. Afterwards the
// store must hold exactly the contexts reported committed (plus at most the one a killed
// writer committed but did not report), none twice. Prints inserts and lookups per second.
//
//   kibitz_store_load --db /tmp/load.db --processes 4 --seconds 60 --kill-after 20
//   kibitz_store_load --db postgresql://kibitz@127.0.0.1:55432/load --processes 4 --seconds 60
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "store/postgres/pg_store.hpp"

namespace {

using kibitz::store::ContextPolicy;
using kibitz::store::PositionContext;
using kibitz::store::PositionKey;

struct Report {
  std::int64_t adds = 0, lookups = 0;
};

PositionKey load_key(std::uint64_t i) {
  PositionKey k;
  k.sym_hash = i * 0x9E3779B97F4A7C15ull;
  k.board_size = 19;
  return k;
}

// One writer process: adds and lookups until the deadline; each commit's number goes down
// the pipe, then the totals.
[[noreturn]] void writer(const std::string& db, int who, int keys, double seconds, int fd) {
  auto store = kibitz::store::open_position_store(db);
  if (!store) {
    fmt::print(stderr, "writer {}: {}\n", who, store.error().message);
    ::_exit(2);
  }
  ContextPolicy keep_all;
  keep_all.max_contexts = 0;  // every context stays, so every one can be counted
  std::mt19937_64 rng(static_cast<std::uint64_t>(who) + 1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  Report r;
  PositionContext c;
  c.policy.assign(19 * 19 + 1, 1.0f / 362);
  c.recursion_depth = who;
  for (std::int32_t seq = 0; std::chrono::steady_clock::now() < deadline; ++seq) {
    c.move = static_cast<int>(rng() % 362);
    c.deep_visits = static_cast<std::uint32_t>(rng() % 10000);
    c.move_number = seq;
    c.timestamp = 1'700'000'000 + seq;
    if (!(*store)->add_context(load_key(rng() % static_cast<std::uint64_t>(keys)), c, keep_all,
                               c.timestamp)) {
      fmt::print(stderr, "writer {}: add failed\n", who);
      ::_exit(3);
    }
    ++r.adds;
    if (::write(fd, &seq, sizeof seq) != sizeof seq) ::_exit(4);
    if (!(*store)->find(load_key(rng() % static_cast<std::uint64_t>(keys)))) ::_exit(5);
    ++r.lookups;
  }
  const std::int32_t end = -1;
  if (::write(fd, &end, sizeof end) != sizeof end ||
      ::write(fd, &r, sizeof r) != static_cast<ssize_t>(sizeof r))
    ::_exit(4);
  ::_exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Concurrent writers on one position store (docs/scale.md)"};
  std::string db;
  int processes = 4, keys = 2000;
  double seconds = 60, kill_after = 0;
  app.add_option("--db", db, "an SQLite file or postgresql://...")->required();
  app.add_option("--processes", processes, "writer processes")->check(CLI::Range(1, 64));
  app.add_option("--seconds", seconds, "how long they write")->check(CLI::PositiveNumber);
  app.add_option("--keys", keys, "distinct positions written")->check(CLI::Range(1, 1000000));
  app.add_option("--kill-after", kill_after, "SIGKILL writer 0 after this many seconds (0: no)");
  CLI11_PARSE(app, argc, argv);

  {  // the schema, before the writers race for it
    auto s = kibitz::store::open_position_store(db);
    if (!s) {
      fmt::print(stderr, "error: {}\n", s.error().message);
      return 1;
    }
  }
  std::vector<pid_t> pids;
  std::vector<int> fds;
  for (int w = 0; w < processes; ++w) {
    int p[2];
    if (::pipe(p) != 0) return 1;
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(p[0]);
      writer(db, w, keys, seconds, p[1]);
    }
    ::close(p[1]);
    pids.push_back(pid);
    fds.push_back(p[0]);
  }
  // Drain every pipe as it fills (a writer blocks on a full pipe).
  std::vector<std::vector<std::int32_t>> committed(static_cast<std::size_t>(processes));
  std::vector<Report> reports(static_cast<std::size_t>(processes));
  std::vector<std::thread> readers;
  for (int w = 0; w < processes; ++w)
    readers.emplace_back([&, w] {
      const auto i = static_cast<std::size_t>(w);
      std::int32_t v = 0;
      while (::read(fds[i], &v, sizeof v) == sizeof v) {
        if (v < 0) {
          if (::read(fds[i], &reports[i], sizeof(Report)) != sizeof(Report)) reports[i] = {};
          break;
        }
        committed[i].push_back(v);
      }
    });
  const auto t0 = std::chrono::steady_clock::now();
  if (kill_after > 0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(kill_after));
    ::kill(pids[0], SIGKILL);
  }
  int failed = 0;
  for (std::size_t w = 0; w < pids.size(); ++w) {
    int status = 0;
    ::waitpid(pids[w], &status, 0);
    const bool killed = kill_after > 0 && w == 0;
    if (!killed && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) ++failed;
  }
  for (auto& t : readers) t.join();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  auto s = kibitz::store::open_position_store(db);
  if (!s) return 1;
  std::map<std::pair<int, int>, int> stored;
  std::int64_t positions = 0;
  if (!(*s)->for_each([&](const kibitz::store::StoredPosition& p) {
        ++positions;
        for (const auto& c : p.contexts) ++stored[{c.recursion_depth, c.move_number}];
        return true;
      }))
    return 1;
  std::int64_t reported = 0, lost = 0, duplicated = 0, unreported = 0;
  for (int w = 0; w < processes; ++w) {
    const auto& seqs = committed[static_cast<std::size_t>(w)];
    reported += static_cast<std::int64_t>(seqs.size());
    for (const auto seq : seqs) {
      const auto it = stored.find({w, seq});
      if (it == stored.end())
        ++lost;
      else if (it->second > 1)
        ++duplicated;
    }
    // A killed writer may have committed one context it had no time to report.
    for (const auto& [key, n] : stored)
      if (key.first == w && key.second >= static_cast<int>(seqs.size())) unreported += n;
  }
  // A killed writer sent no totals: each of its reported commits was followed by a lookup.
  std::int64_t lookups = kill_after > 0 ? static_cast<std::int64_t>(committed[0].size()) : 0;
  for (const auto& r : reports) lookups += r.lookups;
  fmt::print(
      "{} writers on {} for {:.1f} s{}: {} contexts reported committed, {} stored in {} "
      "positions; lost {}, duplicated {}, committed but unreported {}; {:.0f} inserts/s and "
      "{:.0f} lookups/s in all{}\n",
      processes, kibitz::store::is_postgres_url(db) ? "PostgreSQL" : "SQLite", elapsed,
      kill_after > 0 ? fmt::format(" (writer 0 killed after {} s)", kill_after) : "", reported,
      stored.size(), positions, lost, duplicated, unreported,
      static_cast<double>(reported) / seconds, static_cast<double>(lookups) / seconds,
      failed ? fmt::format(", {} writers FAILED", failed) : "");
  return lost || duplicated || unreported > 1 || failed ? 1 : 0;
}
