// The SQLite position store: round trips, pruning, crashes, concurrent writers, bad files.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "store/sqlite/sqlite_store.hpp"

namespace kibitz::store {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kSqNow = 1'700'000'000;
constexpr std::int64_t kSqHalfLife = 30LL * 24 * 3600;

// A fresh directory per test, removed afterwards.
class SqTempDir {
 public:
  SqTempDir() {
    static std::atomic<int> counter{0};
    dir_ = fs::path(::testing::TempDir()) /
           ("kibitz_store_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~SqTempDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

std::string sq_read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs SQL on a file with the sqlite3 C API directly (another program's view of the file).
void sq_exec_raw(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  const std::string message = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << message;
}

PositionKey sq_key(std::uint64_t hash, int size = 9) {
  PositionKey k;
  k.sym_hash = hash;
  k.board_size = size;
  k.komi = 7.0;
  k.rules = "chinese";
  return k;
}

PositionContext sq_context(std::uint32_t visits, std::int64_t timestamp, int size = 9) {
  PositionContext c;
  c.move = 3;
  c.deep_visits = visits;
  c.timestamp = timestamp;
  c.policy.assign(static_cast<std::size_t>(size * size + 1), 1.0f / float(size * size + 1));
  return c;
}

std::unique_ptr<PositionStore> sq_open(const std::string& path, bool read_only = false) {
  SqliteOptions o;
  o.read_only = read_only;
  auto s = open_sqlite_store(path, o);
  EXPECT_TRUE(s.has_value()) << s.error().message;
  return s ? std::move(*s) : nullptr;
}

ContextPolicy sq_unlimited() {
  ContextPolicy p;
  p.max_contexts = 0;
  return p;
}

TEST(SqliteStore, RoundTripsEveryField) {
  SqTempDir dir;
  const std::string path = dir.file("round.db");
  PositionKey key;
  key.sym_hash = 0xFEDCBA9876543210ULL;  // the top bit set: stored as a negative int64
  key.board_size = 9;
  key.komi = 6.5;
  key.rules = "japanese";
  PositionContext c;
  c.move = 81;  // pass on 9x9
  c.uncertainty = 0.42;
  c.deep_visits = 4'000'000'000u;  // beyond int32
  c.policy.resize(82);
  for (std::size_t i = 0; i < c.policy.size(); ++i) c.policy[i] = float(i) * 0.1f + 1e-7f;
  c.policy[0] = -0.0f;
  c.policy[1] = std::numeric_limits<float>::denorm_min();
  c.policy[2] = std::bit_cast<float>(0x7fc12345u);  // a NaN with a payload
  c.winrate = 0.52;
  c.score_lead = -2.5;
  c.game_phase = 45;
  c.recursion_depth = 2;
  c.move_number = 23;
  c.timestamp = 1700150000;
  c.source = "ingest";
  std::int64_t id = 0;
  {
    auto s = sq_open(path);
    ASSERT_TRUE(s);
    auto r = s->add_context(key, c, ContextPolicy{}, kSqNow);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->new_position);
    EXPECT_EQ(r->contexts, 1);
    id = r->position_id;
  }
  auto s = sq_open(path);  // a fresh connection reads what the first wrote
  ASSERT_TRUE(s);
  auto found = s->find(key);
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_TRUE(found->has_value());
  const StoredPosition& pos = **found;
  EXPECT_EQ(pos.id, id);
  EXPECT_EQ(pos.key, key);
  ASSERT_EQ(pos.contexts.size(), 1u);
  const PositionContext& back = pos.contexts[0];
  EXPECT_EQ(back.move, c.move);
  EXPECT_EQ(back.uncertainty, c.uncertainty);
  EXPECT_EQ(back.deep_visits, c.deep_visits);
  ASSERT_EQ(back.policy.size(), c.policy.size());
  EXPECT_EQ(std::memcmp(back.policy.data(), c.policy.data(), c.policy.size() * sizeof(float)), 0);
  EXPECT_EQ(back.winrate, c.winrate);
  EXPECT_EQ(back.score_lead, c.score_lead);
  EXPECT_EQ(back.game_phase, c.game_phase);
  EXPECT_EQ(back.recursion_depth, c.recursion_depth);
  EXPECT_EQ(back.move_number, c.move_number);
  EXPECT_EQ(back.timestamp, c.timestamp);
  EXPECT_EQ(back.source, c.source);

  auto by_id = s->find_by_id(id);
  ASSERT_TRUE(by_id && by_id->has_value());
  EXPECT_EQ((*by_id)->key, key);
  EXPECT_EQ((*by_id)->contexts.size(), 1u);

  // Misses: another komi, another rule set, an unknown id.
  PositionKey other = key;
  other.komi = 7.5;
  auto miss = s->find(other);
  ASSERT_TRUE(miss);
  EXPECT_FALSE(miss->has_value());
  other = key;
  other.rules = "chinese";
  EXPECT_FALSE(s->find(other)->has_value());
  auto miss_id = s->find_by_id(id + 1000);
  ASSERT_TRUE(miss_id);
  EXPECT_FALSE(miss_id->has_value());
}

TEST(SqliteStore, AddPrunesToFiveKeepingTheBest) {
  auto s = sq_open(":memory:");
  ASSERT_TRUE(s);
  // The eight contexts of ContextSelection.KeepsBestFiveOfEight (keys visits x recency):
  // the five kept have 10000, 4000, 1000, 6000 and 3000 visits.
  const std::pair<std::uint32_t, std::int64_t> eight[] = {
      {10000, 3 * kSqHalfLife}, {800, 0}, {4000, kSqHalfLife}, {1000, 0},
      {6000, 2 * kSqHalfLife},  {500, 0}, {3000, 0},           {1200, kSqHalfLife}};
  const ContextPolicy policy;  // max_contexts 5
  int last = 0;
  for (const auto& [visits, age] : eight) {
    auto r = s->add_context(sq_key(7), sq_context(visits, kSqNow - age), policy, kSqNow);
    ASSERT_TRUE(r) << r.error().message;
    last = r->contexts;
  }
  EXPECT_EQ(last, 5);
  auto pos = s->find(sq_key(7));
  ASSERT_TRUE(pos && pos->has_value());
  std::multiset<std::uint32_t> visits;
  for (const auto& c : (*pos)->contexts) visits.insert(c.deep_visits);
  EXPECT_EQ(visits, (std::multiset<std::uint32_t>{1000, 3000, 4000, 6000, 10000}));
  // Oldest first.
  for (std::size_t i = 1; i < (*pos)->contexts.size(); ++i)
    EXPECT_LE((*pos)->contexts[i - 1].timestamp, (*pos)->contexts[i].timestamp);
}

TEST(SqliteStore, ForEachStatsAndPrune) {
  SqTempDir dir;
  auto s = sq_open(dir.file("walk.db"));
  ASSERT_TRUE(s);
  // Position 1 (9x9): 7 contexts, ages 0..6 days; position 2 (19x19): 1 old context;
  // position 3 (9x9): 2 contexts, one ingested.
  for (int i = 0; i < 7; ++i)
    ASSERT_TRUE(s->add_context(sq_key(100), sq_context(1000 + i, kSqNow - i * 86400),
                               sq_unlimited(), kSqNow));
  ASSERT_TRUE(s->add_context(sq_key(200, 19), sq_context(500, kSqNow - 100 * 86400, 19),
                             sq_unlimited(), kSqNow));
  ASSERT_TRUE(s->add_context(sq_key(300), sq_context(50, kSqNow), sq_unlimited(), kSqNow));
  PositionContext ingested = sq_context(60, kSqNow);
  ingested.source = "ingest";
  auto r = s->add_context(sq_key(300), ingested, sq_unlimited(), kSqNow);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->new_position);
  EXPECT_EQ(r->contexts, 2);

  std::vector<std::int64_t> ids;
  std::vector<std::size_t> counts;
  ASSERT_TRUE(s->for_each([&](const StoredPosition& p) {
    ids.push_back(p.id);
    counts.push_back(p.contexts.size());
    return true;
  }));
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_LT(ids[0], ids[1]);
  EXPECT_LT(ids[1], ids[2]);
  EXPECT_EQ(counts, (std::vector<std::size_t>{7, 1, 2}));
  int visited = 0;
  ASSERT_TRUE(s->for_each([&](const StoredPosition&) { return ++visited < 2; }));
  EXPECT_EQ(visited, 2);

  auto st = s->stats();
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_EQ(st->positions, 3);
  EXPECT_EQ(st->contexts, 10);
  EXPECT_EQ(st->ingested_contexts, 1);
  EXPECT_EQ(st->schema_version, kSchemaVersion);
  EXPECT_GT(st->file_bytes, 0);
  EXPECT_EQ(st->positions_by_size, (std::vector<std::pair<int, std::int64_t>>{{9, 2}, {19, 1}}));

  // Age first: everything older than 30 days goes (position 2 with it), then position 1 is cut
  // to 5 contexts.
  auto pr = s->prune(ContextPolicy{}, kSqNow, 30 * 86400);
  ASSERT_TRUE(pr) << pr.error().message;
  EXPECT_EQ(pr->contexts_removed, 3);
  EXPECT_EQ(pr->positions_removed, 1);
  auto p1 = s->find(sq_key(100));
  ASSERT_TRUE(p1 && p1->has_value());
  ASSERT_EQ((*p1)->contexts.size(), 5u);
  // Keys 1000+i at age i days: the five newest are also the largest keys.
  EXPECT_EQ((*p1)->contexts.front().deep_visits, 1004u);
  EXPECT_FALSE(s->find(sq_key(200, 19))->has_value());
  EXPECT_EQ(s->stats()->contexts, 7);

  auto mem = sq_open("");
  ASSERT_TRUE(mem);
  EXPECT_EQ(mem->stats()->file_bytes, 0);
}

TEST(SqliteStore, RefusesBadInput) {
  auto s = sq_open(":memory:");
  ASSERT_TRUE(s);
  PositionContext c = sq_context(10, kSqNow);
  c.policy.resize(5);
  auto r = s->add_context(sq_key(1), c, ContextPolicy{}, kSqNow);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("policy has 5 values, expected 82"), std::string::npos);
  EXPECT_FALSE(s->add_context(sq_key(1, 40), sq_context(10, kSqNow), ContextPolicy{}, kSqNow));
  c = sq_context(10, kSqNow);
  c.winrate = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(s->add_context(sq_key(1), c, ContextPolicy{}, kSqNow));
  c = sq_context(10, kSqNow);
  c.move = 82;
  EXPECT_FALSE(s->add_context(sq_key(1), c, ContextPolicy{}, kSqNow));
  c.policy.clear();  // no policy at all is allowed
  c.move = -1;
  EXPECT_TRUE(s->add_context(sq_key(1), c, ContextPolicy{}, kSqNow));
}

TEST(SqliteStore, BadPolicyBlobIsAnError) {
  SqTempDir dir;
  const std::string path = dir.file("blob.db");
  {
    auto s = sq_open(path);
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->add_context(sq_key(5), sq_context(10, kSqNow), ContextPolicy{}, kSqNow));
  }
  sq_exec_raw(path, "UPDATE contexts SET policy = x'010203'");
  auto s = sq_open(path);
  ASSERT_TRUE(s);
  auto r = s->find(sq_key(5));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("policy blob of 3 bytes"), std::string::npos)
      << r.error().message;
  sq_exec_raw(path, "UPDATE contexts SET policy = x'0000803f0000803f'");
  r = s->find(sq_key(5));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("policy has 2 values, expected 82"), std::string::npos)
      << r.error().message;
  EXPECT_FALSE(s->for_each([](const StoredPosition&) { return true; }));
}

TEST(SqliteStore, ReadOnlyRefusesWrites) {
  SqTempDir dir;
  const std::string path = dir.file("ro.db");
  {
    auto s = sq_open(path);
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->add_context(sq_key(5), sq_context(10, kSqNow), ContextPolicy{}, kSqNow));
  }
  auto s = sq_open(path, true);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->find(sq_key(5))->has_value());
  auto r = s->add_context(sq_key(6), sq_context(10, kSqNow), ContextPolicy{}, kSqNow);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("read-only"), std::string::npos);
  EXPECT_FALSE(s->prune(ContextPolicy{}, kSqNow, 0));
}

// A writer killed mid-session (no close, WAL not checkpointed): every committed context is
// there when the file is opened again.
TEST(SqliteStore, SurvivesAKilledWriter) {
  SqTempDir dir;
  const std::string path = dir.file("killed.db");
  constexpr int kAdds = 40;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto s = open_sqlite_store(path);
    if (!s) ::_exit(3);
    for (int i = 0; i < kAdds; ++i)
      if (!(*s)->add_context(sq_key(1000 + i % 7), sq_context(100 + i, kSqNow), sq_unlimited(),
                             kSqNow))
        ::_exit(4);
    ::raise(SIGKILL);
    ::_exit(5);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  auto s = sq_open(path);
  ASSERT_TRUE(s);
  auto st = s->stats();
  ASSERT_TRUE(st) << st.error().message;
  EXPECT_EQ(st->contexts, kAdds);
  EXPECT_EQ(st->positions, 7);
}

// Two processes writing the same (new) file at once: nothing lost.
TEST(SqliteStore, TwoWritersLoseNothing) {
  SqTempDir dir;
  const std::string path = dir.file("shared.db");
  constexpr int kAdds = 200;
  pid_t children[2];
  for (int w = 0; w < 2; ++w) {
    children[w] = ::fork();
    ASSERT_GE(children[w], 0);
    if (children[w] == 0) {
      auto s = open_sqlite_store(path);
      if (!s) {
        std::fprintf(stderr, "writer %d: %s\n", w, s.error().message.c_str());
        ::_exit(3);
      }
      for (int i = 0; i < kAdds; ++i) {
        // Every fourth add goes to one of 10 positions both writers share.
        const std::uint64_t hash =
            i % 4 == 0 ? 42 + std::uint64_t(i / 4 % 10) : std::uint64_t(w + 1) * 1'000'000 + i;
        if (!(*s)->add_context(sq_key(hash), sq_context(100 + i, kSqNow), sq_unlimited(), kSqNow))
          ::_exit(4);
      }
      ::_exit(0);
    }
  }
  for (const pid_t c : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(c, &status, 0), c);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  auto s = sq_open(path);
  ASSERT_TRUE(s);
  auto st = s->stats();
  ASSERT_TRUE(st);
  EXPECT_EQ(st->contexts, 2 * kAdds);
  EXPECT_EQ(st->positions, 2 * 150 + 10);
}

TEST(SqliteStore, RefusesFilesThatAreNotOurs) {
  SqTempDir dir;
  // Random bytes: refused, left exactly as they were, no journal beside them.
  const std::string junk = dir.file("junk.db");
  {
    std::mt19937 rng(7);
    std::string bytes(4096, '\0');
    for (auto& b : bytes) b = static_cast<char>(rng());
    std::ofstream(junk, std::ios::binary) << bytes;
  }
  const std::string before = sq_read_bytes(junk);
  for (const bool ro : {false, true}) {
    SqliteOptions o;
    o.read_only = ro;
    auto s = open_sqlite_store(junk, o);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().message, junk + ": not a SQLite database (file is not a database)");
  }
  EXPECT_EQ(sq_read_bytes(junk), before);
  EXPECT_FALSE(fs::exists(junk + "-wal"));
  EXPECT_FALSE(fs::exists(junk + "-journal"));

  // Another program's SQLite file (application_id 0, a table of its own).
  const std::string other = dir.file("other.db");
  sq_exec_raw(other, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hi')");
  const std::string other_before = sq_read_bytes(other);
  auto s = open_sqlite_store(other);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find(other + ": not a Kibitz position database"), std::string::npos)
      << s.error().message;
  EXPECT_EQ(sq_read_bytes(other), other_before);

  // Another program's application id.
  const std::string app = dir.file("app.db");
  sq_exec_raw(app, "PRAGMA application_id = 1234");
  s = open_sqlite_store(app);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message,
            app + ": not a Kibitz position database (application_id 0x000004d2)");

  // Ours, from a newer program.
  const std::string newer = dir.file("newer.db");
  ASSERT_TRUE(sq_open(newer));
  sq_exec_raw(newer, "PRAGMA user_version = 99");
  s = open_sqlite_store(newer);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, newer + ": schema version 99 is newer than this program's (1)");

  // Missing, read-only: an error, and still no file.
  const std::string missing = dir.file("missing.db");
  SqliteOptions ro;
  ro.read_only = true;
  s = open_sqlite_store(missing, ro);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, missing + ": no such file");
  EXPECT_FALSE(fs::exists(missing));

  // An empty file is a new database when writable, and nothing to read when read-only.
  const std::string empty = dir.file("empty.db");
  std::ofstream(empty).close();
  EXPECT_FALSE(open_sqlite_store(empty, ro));
  EXPECT_TRUE(sq_open(empty));
  EXPECT_TRUE(sq_open(empty, true));

  // A directory.
  EXPECT_FALSE(open_sqlite_store(dir.file("")));
}

TEST(SqliteStore, NewFileCarriesIdAndVersion) {
  SqTempDir dir;
  const std::string path = dir.file("ids.db");
  ASSERT_TRUE(sq_open(path));
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  auto pragma = [&](const char* sql) {
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &st, nullptr), SQLITE_OK);
    EXPECT_EQ(sqlite3_step(st), SQLITE_ROW);
    const std::string v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return v;
  };
  EXPECT_EQ(pragma("PRAGMA application_id"), std::to_string(kApplicationId));
  EXPECT_EQ(pragma("PRAGMA user_version"), std::to_string(kSchemaVersion));
  EXPECT_EQ(pragma("PRAGMA journal_mode"), "wal");
  sqlite3_close(db);
}

}  // namespace
}  // namespace kibitz::store
