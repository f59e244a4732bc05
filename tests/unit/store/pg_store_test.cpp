// The PostgreSQL position store against a throwaway server this test starts (initdb and
// pg_ctl on a temporary directory, a free loopback port): the same answers as the SQLite
// store on the same inserts, concurrent writers, a writer killed mid-transaction, foreign
// and newer databases refused. Skipped, saying why, where PostgreSQL is not installed.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "store/postgres/pg_store.hpp"
#include "store/sqlite/sqlite_store.hpp"

#ifdef KIBITZ_HAVE_POSTGRES
#include <pqxx/pqxx>
#endif

namespace kibitz::store {
namespace {

namespace fs = std::filesystem;

TEST(PgStore, UrlsChooseTheBackend) {
  EXPECT_TRUE(is_postgres_url("postgresql://u@127.0.0.1:5432/db"));
  EXPECT_TRUE(is_postgres_url("postgres://h/db"));
  EXPECT_FALSE(is_postgres_url("sqlite:/tmp/x.db"));
  EXPECT_FALSE(is_postgres_url("/tmp/postgresql.db"));
  // sqlite:PATH is the SQLite file at PATH.
  const std::string file =
      (fs::path(::testing::TempDir()) / ("pg_url_" + std::to_string(::getpid()) + ".db")).string();
  fs::remove(file);
  auto s = open_position_store("sqlite:" + file);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ((*s)->path(), file);
  s->reset();
  fs::remove(file);
  // A server that is not there: one line naming it, the password hidden.
  auto bad = open_position_store("postgresql://kibitz:secret@127.0.0.1:1/none");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.find('\n'), std::string::npos);
  EXPECT_EQ(bad.error().message.find("secret"), std::string::npos);
  EXPECT_NE(bad.error().message.find("127.0.0.1"), std::string::npos);
}

#ifdef KIBITZ_HAVE_POSTGRES

// The directory of initdb and pg_ctl: on the PATH, else Debian's /usr/lib/postgresql/N/bin.
std::string pg_t_bin_dir() {
  if (std::system("command -v initdb > /dev/null 2>&1 && command -v pg_ctl > /dev/null 2>&1") == 0)
    return "";
  std::string best;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const auto bin = e.path() / "bin";
    if (fs::exists(bin / "initdb") && fs::exists(bin / "pg_ctl") &&
        (best.empty() || bin.string() > best))
      best = bin.string();
  }
  return best.empty() ? "-" : best + "/";
}

int pg_t_free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  int port = 0;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(s);
  return port;
}

// One server for the whole suite; each test makes its own database.
class PgServer {
 public:
  static PgServer& get() {
    static PgServer server;
    return server;
  }
  bool ok() const { return why_.empty(); }
  const std::string& why() const { return why_; }
  std::string url(const std::string& db) const {
    return "postgresql://kibitz@127.0.0.1:" + std::to_string(port_) + "/" + db;
  }
  // A new, empty database.
  std::string fresh_database() {
    const std::string name = "t" + std::to_string(next_++);
    pqxx::connection c(url("postgres"));
    pqxx::nontransaction n(c);
    n.exec("DROP DATABASE IF EXISTS " + name);
    n.exec("CREATE DATABASE " + name);
    return url(name);
  }
  ~PgServer() {
    if (started_) run(bin_ + "pg_ctl -D " + dir_ + "/data -m immediate stop > /dev/null 2>&1");
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

 private:
  PgServer() {
    bin_ = pg_t_bin_dir();
    if (bin_ == "-") {
      why_ = "PostgreSQL's initdb and pg_ctl are not installed (Debian: postgresql)";
      return;
    }
    // initdb refuses root: run the server as the postgres user then.
    as_ = ::geteuid() == 0 ? "runuser -u postgres -- " : "";
    if (!as_.empty() && std::system("id postgres > /dev/null 2>&1") != 0) {
      why_ = "running as root without a postgres user to run the server as";
      return;
    }
    dir_ = "/tmp/kibitz_pg_" + std::to_string(::getpid());
    std::error_code ec;
    fs::remove_all(dir_, ec);
    fs::create_directories(dir_);
    if (!as_.empty() && std::system(("chown postgres: " + dir_).c_str()) != 0) {
      why_ = "cannot hand " + dir_ + " to the postgres user";
      return;
    }
    if (run(bin_ + "initdb -D " + dir_ + "/data -A trust -U kibitz -E UTF8 --no-sync > " + dir_ +
            "/initdb.log 2>&1") != 0) {
      why_ = "initdb failed: " + last_line(dir_ + "/initdb.log");
      return;
    }
    for (int attempt = 0; attempt < 5 && !started_; ++attempt) {
      port_ = pg_t_free_port();
      started_ = run(bin_ + "pg_ctl -D " + dir_ + "/data -l " + dir_ +
                     "/server.log -w -t 30 -o '-p " + std::to_string(port_) + " -k " + dir_ +
                     " -c listen_addresses=127.0.0.1 -c fsync=off' start > /dev/null 2>&1") == 0;
    }
    if (!started_) why_ = "the server did not start: " + last_line(dir_ + "/server.log");
  }
  static std::string last_line(const std::string& file) {
    std::ifstream in(file);
    std::string line, last = "(no log)";
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    return last;
  }
  int run(const std::string& command) const {
    return std::system((as_.empty() ? command : as_ + "sh -c \"" + command + "\"").c_str());
  }

  std::string bin_, as_, dir_, why_;
  int port_ = 0;
  int next_ = 0;
  bool started_ = false;
};

#define PG_T_SERVER_OR_SKIP()     \
  auto& server = PgServer::get(); \
  if (!server.ok()) GTEST_SKIP() << "no PostgreSQL: " << server.why()

constexpr std::int64_t kPgTNow = 1'700'000'000;

PositionKey pg_t_key(std::uint64_t hash, int size = 9) {
  PositionKey k;
  k.sym_hash = hash;
  k.board_size = size;
  k.komi = 7.5;
  k.rules = "tromp-taylor";
  return k;
}

PositionContext pg_t_context(std::mt19937_64& rng, int size = 9) {
  PositionContext c;
  const int points = size * size;
  c.move = static_cast<int>(rng() % static_cast<std::uint64_t>(points + 1));
  c.uncertainty = static_cast<double>(rng() % 1000) / 1000;
  c.deep_visits = static_cast<std::uint32_t>(rng() % 5000);
  c.policy.resize(static_cast<std::size_t>(points + 1));
  for (auto& p : c.policy) p = static_cast<float>(rng() % 100) / 100.0f;
  c.winrate = static_cast<double>(rng() % 1000) / 1000;
  c.score_lead = static_cast<double>(rng() % 200) / 10 - 10;
  c.game_phase = static_cast<int>(rng() % 80);
  c.move_number = static_cast<int>(rng() % 200);
  c.timestamp = kPgTNow - static_cast<std::int64_t>(rng() % 10'000'000);
  c.source = rng() % 2 ? "search" : "ingest";
  return c;
}

void pg_t_expect_same_context(const PositionContext& a, const PositionContext& b) {
  EXPECT_EQ(a.move, b.move);
  EXPECT_EQ(a.uncertainty, b.uncertainty);
  EXPECT_EQ(a.deep_visits, b.deep_visits);
  EXPECT_EQ(a.policy, b.policy);
  EXPECT_EQ(a.winrate, b.winrate);
  EXPECT_EQ(a.score_lead, b.score_lead);
  EXPECT_EQ(a.game_phase, b.game_phase);
  EXPECT_EQ(a.move_number, b.move_number);
  EXPECT_EQ(a.timestamp, b.timestamp);
  EXPECT_EQ(a.source, b.source);
}

TEST(PgStore, AnswersAsSqliteDoesOnTheSameInserts) {
  PG_T_SERVER_OR_SKIP();
  auto pg = open_position_store(server.fresh_database());
  ASSERT_TRUE(pg) << pg.error().message;
  auto sq = open_sqlite_store(":memory:");
  ASSERT_TRUE(sq);
  ContextPolicy policy;
  policy.max_contexts = 3;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300; ++i) {
    const PositionKey key = pg_t_key(rng() % 40 + (std::uint64_t{1} << 63), i % 3 ? 9 : 13);
    const PositionContext c = pg_t_context(rng, key.board_size);
    auto a = (*pg)->add_context(key, c, policy, kPgTNow);
    auto b = (*sq)->add_context(key, c, policy, kPgTNow);
    ASSERT_TRUE(a) << a.error().message;
    ASSERT_TRUE(b);
    EXPECT_EQ(a->new_position, b->new_position);
    EXPECT_EQ(a->contexts, b->contexts);
  }
  std::vector<StoredPosition> from_pg, from_sq;
  ASSERT_TRUE((*pg)->for_each([&](const StoredPosition& p) {
    from_pg.push_back(p);
    return true;
  }));
  ASSERT_TRUE((*sq)->for_each([&](const StoredPosition& p) {
    from_sq.push_back(p);
    return true;
  }));
  ASSERT_EQ(from_pg.size(), from_sq.size());
  for (std::size_t i = 0; i < from_pg.size(); ++i) {
    EXPECT_EQ(from_pg[i].key, from_sq[i].key);
    ASSERT_EQ(from_pg[i].contexts.size(), from_sq[i].contexts.size());
    for (std::size_t j = 0; j < from_pg[i].contexts.size(); ++j)
      pg_t_expect_same_context(from_pg[i].contexts[j], from_sq[i].contexts[j]);
    auto found = (*pg)->find(from_pg[i].key);
    ASSERT_TRUE(found && *found);
    EXPECT_EQ((*found)->id, from_pg[i].id);
    auto by_id = (*pg)->find_by_id(from_pg[i].id);
    ASSERT_TRUE(by_id && *by_id);
    EXPECT_EQ((*by_id)->key, from_pg[i].key);
  }
  // The positions after an id, as an index catching up reads them (across page bounds too).
  std::vector<std::int64_t> tail;
  ASSERT_GT(from_pg.size(), 11u);
  ASSERT_TRUE((*pg)->for_each_after(from_pg[10].id, [&](const StoredPosition& p) {
    tail.push_back(p.id);
    return true;
  }));
  ASSERT_EQ(tail.size(), from_pg.size() - 11);
  for (std::size_t i = 0; i < tail.size(); ++i) EXPECT_EQ(tail[i], from_pg[11 + i].id);
  auto missing = (*pg)->find(pg_t_key(12345));
  ASSERT_TRUE(missing);
  EXPECT_FALSE(*missing);
  const auto sa = (*pg)->stats(), sb = (*sq)->stats();
  ASSERT_TRUE(sa && sb);
  EXPECT_EQ(sa->positions, sb->positions);
  EXPECT_EQ(sa->contexts, sb->contexts);
  EXPECT_EQ(sa->ingested_contexts, sb->ingested_contexts);
  EXPECT_EQ(sa->positions_by_size, sb->positions_by_size);
  EXPECT_EQ(sa->schema_version, kSchemaVersion);
  policy.max_contexts = 1;
  const auto pa = (*pg)->prune(policy, kPgTNow, 5'000'000);
  const auto pb = (*sq)->prune(policy, kPgTNow, 5'000'000);
  ASSERT_TRUE(pa && pb);
  EXPECT_EQ(pa->contexts_removed, pb->contexts_removed);
  EXPECT_EQ(pa->positions_removed, pb->positions_removed);
  // Bad input is refused in one line, before the database.
  PositionContext bad = pg_t_context(rng);
  bad.policy.pop_back();
  EXPECT_FALSE((*pg)->add_context(pg_t_key(1), bad, policy, kPgTNow));
}

// Four writers (own connections, as four processes would have) on the same positions: every
// context lands once.
TEST(PgStore, ConcurrentWritersLoseAndDuplicateNothing) {
  PG_T_SERVER_OR_SKIP();
  const std::string url = server.fresh_database();
  ContextPolicy keep_all;
  keep_all.max_contexts = 0;
  constexpr int kWriters = 4, kEach = 150, kKeys = 10;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      auto s = open_position_store(url);  // four openers at once: the schema is made once
      if (!s) {
        ++failures;
        return;
      }
      std::mt19937_64 rng(static_cast<std::uint64_t>(w) + 100);
      for (int i = 0; i < kEach; ++i) {
        PositionContext c = pg_t_context(rng);
        c.recursion_depth = w;  // who wrote it
        c.move_number = i;
        if (!(*s)->add_context(pg_t_key(static_cast<std::uint64_t>(i % kKeys)), c, keep_all,
                               kPgTNow))
          ++failures;
      }
    });
  for (auto& t : writers) t.join();
  EXPECT_EQ(failures.load(), 0);
  auto s = open_position_store(url);
  ASSERT_TRUE(s);
  std::map<std::pair<int, int>, int> seen;
  int positions = 0;
  ASSERT_TRUE((*s)->for_each([&](const StoredPosition& p) {
    ++positions;
    for (const auto& c : p.contexts) ++seen[{c.recursion_depth, c.move_number}];
    return true;
  }));
  EXPECT_EQ(positions, kKeys);
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kWriters * kEach));
  for (const auto& [who, n] : seen) EXPECT_EQ(n, 1) << who.first << "/" << who.second;
}

// A writer killed by SIGKILL in the middle of its stream of transactions: every context it
// reported committed is there, and nothing else of it but at most the one in flight.
TEST(PgStore, AWriterKilledMidTransactionLosesNothingCommitted) {
  PG_T_SERVER_OR_SKIP();
  const std::string url = server.fresh_database();
  ASSERT_TRUE(open_position_store(url));  // the schema, before the child
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(fds[0]);
    auto s = open_position_store(url);
    if (!s) ::_exit(2);
    ContextPolicy keep_all;
    keep_all.max_contexts = 0;
    std::mt19937_64 rng(5);
    for (int i = 0;; ++i) {
      PositionContext c = pg_t_context(rng);
      c.move_number = i;
      if (!(*s)->add_context(pg_t_key(static_cast<std::uint64_t>(i % 7)), c, keep_all, kPgTNow))
        ::_exit(3);
      if (::write(fds[1], &i, sizeof i) != sizeof i) ::_exit(4);  // committed
    }
  }
  ::close(fds[1]);
  std::vector<int> committed;
  int v = 0;
  while (committed.size() < 200 && ::read(fds[0], &v, sizeof v) == sizeof v) committed.push_back(v);
  ::kill(child, SIGKILL);
  while (::read(fds[0], &v, sizeof v) == sizeof v) committed.push_back(v);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_GE(committed.size(), 200u);
  auto s = open_position_store(url);
  ASSERT_TRUE(s);
  std::vector<int> stored;
  ASSERT_TRUE((*s)->for_each([&](const StoredPosition& p) {
    for (const auto& c : p.contexts) stored.push_back(c.move_number);
    return true;
  }));
  std::sort(stored.begin(), stored.end());
  // Every reported commit is stored; at most one more (committed, killed before reporting).
  ASSERT_GE(stored.size(), committed.size());
  EXPECT_LE(stored.size(), committed.size() + 1);
  for (std::size_t i = 0; i < stored.size(); ++i) EXPECT_EQ(stored[i], static_cast<int>(i));
}

TEST(PgStore, ForeignAndNewerDatabasesAreRefusedInOneLine) {
  PG_T_SERVER_OR_SKIP();
  const std::string foreign = server.fresh_database();
  {
    pqxx::connection c(foreign);
    pqxx::work w(c);
    w.exec("CREATE TABLE positions (x int)");
    w.commit();
  }
  auto a = open_position_store(foreign);
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("not a Kibitz position database"), std::string::npos);
  EXPECT_EQ(a.error().message.find('\n'), std::string::npos);

  const std::string newer = server.fresh_database();
  ASSERT_TRUE(open_position_store(newer));
  {
    pqxx::connection c(newer);
    pqxx::work w(c);
    w.exec("UPDATE kibitz_meta SET value = '99' WHERE key = 'schema_version'");
    w.commit();
  }
  auto b = open_position_store(newer);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("schema version 99 is newer"), std::string::npos);
}

#endif

}  // namespace
}  // namespace kibitz::store
