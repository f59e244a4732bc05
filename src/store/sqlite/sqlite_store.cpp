// The SQLite PositionStore (sqlite_store.hpp). One connection per store object, guarded by a
// mutex (SQLiteCpp statements must not be shared between threads); several processes share the
// file through SQLite's own locking (WAL, IMMEDIATE write transactions, busy timeout).
#include "store/sqlite/sqlite_store.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iterator>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace kibitz::store {

namespace {

bool sqlite_is_memory_path(const std::string& path) { return path.empty() || path == ":memory:"; }

// The columns of a context, in the order sqlite_read_context expects them.
constexpr const char* kSqliteContextColumns =
    "c.move, c.uncertainty, c.deep_visits, c.policy, c.winrate, c.score_lead, c.game_phase, "
    "c.recursion_depth, c.move_number, c.timestamp, c.source, c.id";

// Reads a context from `st` starting at column `col` (kSqliteContextColumns). Values another
// program could have written into the file are checked, never trusted.
Result<PositionContext> sqlite_read_context(const SQLite::Statement& st, int col, int board_size) {
  PositionContext c;
  const std::int64_t context_id = st.getColumn(col + 11).getInt64();
  // 64-bit: the board size comes from the file too.
  const std::int64_t points = std::int64_t{board_size} * board_size;
  c.move = st.getColumn(col + 0).getInt();
  if (c.move < -1 || c.move > points)
    return fail("context {}: move {} out of range for {}x{}", context_id, c.move, board_size,
                board_size);
  c.uncertainty = st.getColumn(col + 1).getDouble();
  const std::int64_t visits = st.getColumn(col + 2).getInt64();
  if (visits < 0 || visits > std::int64_t{UINT32_MAX})
    return fail("context {}: deep_visits {} out of range", context_id, visits);
  c.deep_visits = static_cast<std::uint32_t>(visits);
  const SQLite::Column blob = st.getColumn(col + 3);
  const int bytes = blob.getBytes();
  if (bytes % 4 != 0)
    return fail("context {}: policy blob of {} bytes is not a list of float32 values", context_id,
                bytes);
  const std::size_t count = static_cast<std::size_t>(bytes) / 4;
  const auto expected = static_cast<std::size_t>(points + 1);
  if (count != 0 && count != expected)
    return fail("context {}: policy has {} values, expected {} for {}x{}", context_id, count,
                expected, board_size, board_size);
  if (count > 0)
    c.policy = policy_from_bytes(static_cast<const unsigned char*>(blob.getBlob()), count);
  c.winrate = st.getColumn(col + 4).getDouble();
  c.score_lead = st.getColumn(col + 5).getDouble();
  c.game_phase = st.getColumn(col + 6).getInt();
  c.recursion_depth = st.getColumn(col + 7).getInt();
  c.move_number = st.getColumn(col + 8).getInt();
  c.timestamp = st.getColumn(col + 9).getInt64();
  c.source = st.getColumn(col + 10).getString();
  return c;
}

PositionKey sqlite_read_key(const SQLite::Statement& st, int col) {
  PositionKey k;
  k.sym_hash = std::bit_cast<std::uint64_t>(st.getColumn(col).getInt64());
  k.board_size = st.getColumn(col + 1).getInt();
  k.komi = st.getColumn(col + 2).getDouble();
  k.rules = st.getColumn(col + 3).getString();
  return k;
}

// --- schema and migrations ---------------------------------------------------------------

struct SqliteProbe {
  std::int64_t application_id = 0;
  std::int64_t user_version = 0;
  std::int64_t schema_objects = 0;
};

SqliteProbe sqlite_probe(SQLite::Database& db) {
  SqliteProbe p;
  p.application_id = db.execAndGet("PRAGMA application_id").getInt64();
  p.user_version = db.execAndGet("PRAGMA user_version").getInt64();
  p.schema_objects = db.execAndGet("SELECT count(*) FROM sqlite_master").getInt64();
  return p;
}

// Refuses foreign and newer files; true when the file is empty (a new database).
Result<bool> sqlite_classify(const SqliteProbe& p, const std::string& name) {
  if (p.application_id != kApplicationId) {
    if (p.application_id != 0)
      return fail("{}: not a Kibitz position database (application_id {:#010x})", name,
                  static_cast<std::uint32_t>(p.application_id));
    if (p.schema_objects > 0 || p.user_version != 0)
      return fail(
          "{}: not a Kibitz position database (application_id 0, and it already holds "
          "another program's tables)",
          name);
    return true;
  }
  if (p.user_version > kSchemaVersion)
    return fail("{}: schema version {} is newer than this program's ({})", name, p.user_version,
                kSchemaVersion);
  return false;
}

void sqlite_migrate_0_to_1(SQLite::Database& db) {
  db.exec(R"sql(
    CREATE TABLE positions (
      id INTEGER PRIMARY KEY,
      sym_hash INTEGER NOT NULL,
      board_size INTEGER NOT NULL,
      komi REAL NOT NULL,
      rules TEXT NOT NULL,
      UNIQUE (sym_hash, board_size, komi, rules)
    );
    CREATE TABLE contexts (
      id INTEGER PRIMARY KEY,
      position_id INTEGER NOT NULL REFERENCES positions(id) ON DELETE CASCADE,
      move INTEGER NOT NULL,
      uncertainty REAL NOT NULL,
      deep_visits INTEGER NOT NULL,
      policy BLOB NOT NULL,
      winrate REAL NOT NULL,
      score_lead REAL NOT NULL,
      game_phase INTEGER NOT NULL,
      recursion_depth INTEGER NOT NULL,
      move_number INTEGER NOT NULL,
      timestamp INTEGER NOT NULL,
      source TEXT NOT NULL
    );
    CREATE INDEX contexts_by_position ON contexts(position_id);
  )sql");
}

// kSqliteMigrations[k] takes schema version k to k + 1.
using SqliteMigration = void (*)(SQLite::Database&);
constexpr SqliteMigration kSqliteMigrations[] = {sqlite_migrate_0_to_1};
static_assert(std::size(kSqliteMigrations) == kSchemaVersion);

// Each step in its own IMMEDIATE transaction that looks at the version again once it holds
// the write lock: two processes opening a new file at once create the schema once.
Result<void> sqlite_migrate(SQLite::Database& db, const std::string& name) {
  for (;;) {
    SQLite::Transaction txn(db, SQLite::TransactionBehavior::IMMEDIATE);
    const SqliteProbe p = sqlite_probe(db);
    if (auto c = sqlite_classify(p, name); !c) return tl::unexpected(c.error());
    if (p.user_version >= kSchemaVersion) {
      txn.commit();
      return {};
    }
    kSqliteMigrations[p.user_version](db);
    db.exec(fmt::format("PRAGMA user_version = {}", p.user_version + 1));
    db.exec(fmt::format("PRAGMA application_id = {}", kApplicationId));
    txn.commit();
  }
}

// --- the store -----------------------------------------------------------------------------

class SqliteStore final : public PositionStore {
 public:
  SqliteStore(std::string path, bool memory, bool read_only, std::unique_ptr<SQLite::Database> db)
      : path_(std::move(path)), memory_(memory), read_only_(read_only), db_(std::move(db)) {}

  Result<std::optional<StoredPosition>> find(const PositionKey& key) override {
    return guarded([&]() -> Result<std::optional<StoredPosition>> {
      ReadTxn txn(*db_);
      SQLite::Statement st(*db_,
                           "SELECT id FROM positions WHERE sym_hash = ?1 AND board_size = ?2 AND "
                           "komi = ?3 AND rules = ?4");
      bind_key(st, key);
      if (!st.executeStep()) return std::optional<StoredPosition>{};
      StoredPosition pos;
      pos.id = st.getColumn(0).getInt64();
      pos.key = key;
      auto contexts = load_contexts(pos.id, key.board_size);
      if (!contexts) return tl::unexpected(contexts.error());
      pos.contexts = std::move(*contexts);
      return std::optional<StoredPosition>{std::move(pos)};
    });
  }

  Result<std::optional<StoredPosition>> find_by_id(std::int64_t id) override {
    return guarded([&]() -> Result<std::optional<StoredPosition>> {
      ReadTxn txn(*db_);
      SQLite::Statement st(*db_,
                           "SELECT sym_hash, board_size, komi, rules FROM positions WHERE id = ?1");
      st.bind(1, id);
      if (!st.executeStep()) return std::optional<StoredPosition>{};
      StoredPosition pos;
      pos.id = id;
      pos.key = sqlite_read_key(st, 0);
      auto contexts = load_contexts(pos.id, pos.key.board_size);
      if (!contexts) return tl::unexpected(contexts.error());
      pos.contexts = std::move(*contexts);
      return std::optional<StoredPosition>{std::move(pos)};
    });
  }

  Result<AddResult> add_context(const PositionKey& key, const PositionContext& context,
                                const ContextPolicy& policy, std::int64_t now) override {
    if (auto k = check_position_key(key); !k) return with_context(k.error(), path_);
    if (auto c = check_position_context(context, key.board_size); !c)
      return with_context(c.error(), path_);
    return guarded([&]() -> Result<AddResult> {
      if (read_only_) return fail("{}: opened read-only", path_);
      SQLite::Transaction txn(*db_, SQLite::TransactionBehavior::IMMEDIATE);
      AddResult r;
      {
        SQLite::Statement st(*db_,
                             "SELECT id FROM positions WHERE sym_hash = ?1 AND board_size = ?2 "
                             "AND komi = ?3 AND rules = ?4");
        bind_key(st, key);
        if (st.executeStep()) {
          r.position_id = st.getColumn(0).getInt64();
        } else {
          SQLite::Statement ins(
              *db_,
              "INSERT INTO positions (sym_hash, board_size, komi, rules) VALUES (?1, ?2, ?3, ?4)");
          bind_key(ins, key);
          ins.exec();
          r.position_id = db_->getLastInsertRowid();
          r.new_position = true;
        }
      }
      {
        SQLite::Statement ins(*db_,
                              "INSERT INTO contexts (position_id, move, uncertainty, deep_visits, "
                              "policy, winrate, score_lead, game_phase, recursion_depth, "
                              "move_number, timestamp, source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                              "?8, ?9, ?10, ?11, ?12)");
        const std::string blob = policy_to_bytes(context.policy);
        ins.bind(1, r.position_id);
        ins.bind(2, context.move);
        ins.bind(3, context.uncertainty);
        ins.bind(4, static_cast<std::int64_t>(context.deep_visits));
        ins.bind(5, blob.data(), static_cast<int>(blob.size()));
        ins.bind(6, context.winrate);
        ins.bind(7, context.score_lead);
        ins.bind(8, context.game_phase);
        ins.bind(9, context.recursion_depth);
        ins.bind(10, context.move_number);
        ins.bind(11, context.timestamp);
        ins.bind(12, context.source);
        ins.exec();
      }
      prune_position(r.position_id, policy, now);
      SQLite::Statement count(*db_, "SELECT count(*) FROM contexts WHERE position_id = ?1");
      count.bind(1, r.position_id);
      count.executeStep();
      r.contexts = count.getColumn(0).getInt();
      txn.commit();
      return r;
    });
  }

  Result<void> for_each_after(std::int64_t after_id,
                              const std::function<bool(const StoredPosition&)>& fn) override {
    return guarded([&]() -> Result<void> {
      ReadTxn txn(*db_);
      // One pass over positions joined with their contexts, grouped by position.
      SQLite::Statement st(*db_, fmt::format("SELECT p.id, p.sym_hash, p.board_size, p.komi, "
                                             "p.rules, c.id IS NULL, {} FROM positions p LEFT "
                                             "JOIN contexts c ON c.position_id = p.id WHERE "
                                             "p.id > ?1 ORDER BY p.id, c.timestamp, c.id",
                                             kSqliteContextColumns));
      st.bind(1, after_id);
      StoredPosition pos;
      bool have = false;
      while (st.executeStep()) {
        const std::int64_t id = st.getColumn(0).getInt64();
        if (!have || id != pos.id) {
          if (have && !fn(pos)) return {};
          pos = StoredPosition{};
          pos.id = id;
          pos.key = sqlite_read_key(st, 1);
          have = true;
        }
        if (st.getColumn(5).getInt() != 0) continue;  // a position without contexts
        auto c = sqlite_read_context(st, 6, pos.key.board_size);
        if (!c) return with_context(c.error(), fmt::format("{}: position {}", path_, id));
        pos.contexts.push_back(std::move(*c));
      }
      if (have) fn(pos);
      return {};
    });
  }

  Result<StoreStats> stats() override {
    return guarded([&]() -> Result<StoreStats> {
      ReadTxn txn(*db_);
      StoreStats s;
      s.positions = db_->execAndGet("SELECT count(*) FROM positions").getInt64();
      s.contexts = db_->execAndGet("SELECT count(*) FROM contexts").getInt64();
      s.ingested_contexts =
          db_->execAndGet("SELECT count(*) FROM contexts WHERE source = 'ingest'").getInt64();
      s.schema_version = db_->execAndGet("PRAGMA user_version").getInt();
      SQLite::Statement st(*db_,
                           "SELECT board_size, count(*) FROM positions GROUP BY board_size ORDER "
                           "BY board_size");
      while (st.executeStep())
        s.positions_by_size.emplace_back(st.getColumn(0).getInt(), st.getColumn(1).getInt64());
      if (!memory_) {
        for (const std::string& f : {path_, path_ + "-wal"}) {
          std::error_code ec;
          const auto bytes = std::filesystem::file_size(f, ec);
          if (!ec) s.file_bytes += static_cast<std::int64_t>(bytes);
        }
      }
      return s;
    });
  }

  Result<PruneReport> prune(const ContextPolicy& policy, std::int64_t now,
                            std::int64_t older_than_s) override {
    return guarded([&]() -> Result<PruneReport> {
      if (read_only_) return fail("{}: opened read-only", path_);
      SQLite::Transaction txn(*db_, SQLite::TransactionBehavior::IMMEDIATE);
      PruneReport r;
      if (older_than_s > 0) {
        SQLite::Statement del(*db_, "DELETE FROM contexts WHERE timestamp < ?1");
        del.bind(1, now - older_than_s);
        r.contexts_removed += del.exec();
      }
      if (policy.max_contexts > 0) {
        std::vector<std::int64_t> crowded;
        SQLite::Statement st(*db_,
                             "SELECT position_id FROM contexts GROUP BY position_id HAVING "
                             "count(*) > ?1");
        st.bind(1, policy.max_contexts);
        while (st.executeStep()) crowded.push_back(st.getColumn(0).getInt64());
        for (const std::int64_t id : crowded) r.contexts_removed += prune_position(id, policy, now);
      }
      r.positions_removed = db_->exec(
          "DELETE FROM positions WHERE NOT EXISTS (SELECT 1 FROM contexts WHERE position_id = "
          "positions.id)");
      txn.commit();
      return r;
    });
  }

  const std::string& path() const override { return path_; }

 private:
  // A read transaction (one snapshot for several statements), unless one is already open (a
  // call made from inside for_each's callback).
  class ReadTxn {
   public:
    explicit ReadTxn(SQLite::Database& db) {
      if (sqlite3_get_autocommit(db.getHandle()) != 0)
        txn_.emplace(db, SQLite::TransactionBehavior::DEFERRED);
    }
    ~ReadTxn() {
      // Nothing was written: ending a read transaction by COMMIT only releases the snapshot.
      if (txn_) try {
          txn_->commit();
        } catch (const std::exception&) {  // the destructor rolls back
        }
    }

   private:
    std::optional<SQLite::Transaction> txn_;
  };

  template <class F>
  auto guarded(F&& f) -> decltype(f()) {
    std::lock_guard lock(mu_);
    try {
      return f();
    } catch (const SQLite::Exception& e) {
      return fail("{}: {}", path_, e.what());
    } catch (const std::exception& e) {
      return fail("{}: {}", path_, e.what());
    }
  }

  static void bind_key(SQLite::Statement& st, const PositionKey& key) {
    st.bind(1, std::bit_cast<std::int64_t>(key.sym_hash));
    st.bind(2, key.board_size);
    st.bind(3, key.komi);
    st.bind(4, key.rules);
  }

  Result<std::vector<PositionContext>> load_contexts(std::int64_t position_id, int board_size) {
    SQLite::Statement st(*db_, fmt::format("SELECT {} FROM contexts c WHERE c.position_id = ?1 "
                                           "ORDER BY c.timestamp, c.id",
                                           kSqliteContextColumns));
    st.bind(1, position_id);
    std::vector<PositionContext> out;
    while (st.executeStep()) {
      auto c = sqlite_read_context(st, 0, board_size);
      if (!c) return with_context(c.error(), fmt::format("{}: position {}", path_, position_id));
      out.push_back(std::move(*c));
    }
    return out;
  }

  // Deletes the position's contexts that contexts_to_keep drops; inside the caller's write
  // transaction. Returns how many went.
  std::int64_t prune_position(std::int64_t position_id, const ContextPolicy& policy,
                              std::int64_t now) {
    if (policy.max_contexts <= 0) return 0;
    std::vector<PositionContext> light;  // only what prune_key reads
    std::vector<std::int64_t> ids;
    {
      SQLite::Statement st(*db_,
                           "SELECT id, deep_visits, timestamp FROM contexts WHERE position_id = ?1 "
                           "ORDER BY timestamp, id");
      st.bind(1, position_id);
      while (st.executeStep()) {
        ids.push_back(st.getColumn(0).getInt64());
        PositionContext c;
        const std::int64_t visits = st.getColumn(1).getInt64();
        c.deep_visits = static_cast<std::uint32_t>(std::clamp<std::int64_t>(visits, 0, UINT32_MAX));
        c.timestamp = st.getColumn(2).getInt64();
        light.push_back(std::move(c));
      }
    }
    if (light.size() <= static_cast<std::size_t>(policy.max_contexts)) return 0;
    const std::vector<std::size_t> keep = contexts_to_keep(light, now, policy);
    std::vector<bool> kept(light.size(), false);
    for (const std::size_t i : keep) kept[i] = true;
    SQLite::Statement del(*db_, "DELETE FROM contexts WHERE id = ?1");
    std::int64_t removed = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (kept[i]) continue;
      del.reset();
      del.bind(1, ids[i]);
      removed += del.exec();
    }
    return removed;
  }

  std::string path_;
  bool memory_ = false;
  bool read_only_ = false;
  std::recursive_mutex mu_;  // recursive: for_each's callback may call back into the store
  std::unique_ptr<SQLite::Database> db_;
};

}  // namespace

namespace {

// One attempt at opening; throws SQLite::Exception (SQLITE_BUSY included) for the caller.
Result<std::unique_ptr<PositionStore>> sqlite_open_once(const std::string& name, bool memory,
                                                        bool read_only, int busy_timeout_ms) {
  const int flags =
      read_only ? SQLite::OPEN_READONLY : (SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  auto db = std::make_unique<SQLite::Database>(name, flags, busy_timeout_ms);
  // Read before anything writes, so a file that is not ours is left byte for byte as it was;
  // in one read transaction, so another process creating the schema meanwhile is seen either
  // not at all or whole.
  SqliteProbe probe;
  {
    SQLite::Transaction snapshot(*db, SQLite::TransactionBehavior::DEFERRED);
    probe = sqlite_probe(*db);
    snapshot.commit();
  }
  auto fresh = sqlite_classify(probe, name);
  if (!fresh) return tl::unexpected(fresh.error());
  if (read_only) {
    if (*fresh) return fail("{}: not a Kibitz position database (empty)", name);
    if (probe.user_version < kSchemaVersion)
      return fail("{}: schema version {} needs migrating to {}: open it once without read-only",
                  name, probe.user_version, kSchemaVersion);
  } else {
    if (!memory) {
      db->execAndGet("PRAGMA journal_mode = WAL");
      db->exec("PRAGMA synchronous = NORMAL");
    }
    if (probe.user_version < kSchemaVersion) {
      if (auto m = sqlite_migrate(*db, name); !m) return tl::unexpected(m.error());
    }
  }
  db->exec("PRAGMA foreign_keys = ON");
  return std::unique_ptr<PositionStore>(
      std::make_unique<SqliteStore>(name, memory, read_only, std::move(db)));
}

}  // namespace

Result<std::unique_ptr<PositionStore>> open_sqlite_store(const std::string& path,
                                                         const SqliteOptions& options) {
  const bool memory = sqlite_is_memory_path(path);
  const std::string name = memory ? std::string(":memory:") : path;
  if (options.busy_timeout_ms < 0)
    return fail("{}: busy timeout {} ms must not be negative", name, options.busy_timeout_ms);
  const bool read_only = options.read_only && !memory;
  if (!memory) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (read_only && !std::filesystem::exists(status)) return fail("{}: no such file", path);
    if (std::filesystem::is_directory(status)) return fail("{}: is a directory", path);
  }
  // Opening can meet locks SQLite reports without waiting on its busy handler (another
  // process switching the new file to WAL): start again until the busy timeout has passed.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(options.busy_timeout_ms);
  for (int attempt = 0;; ++attempt) {
    try {
      return sqlite_open_once(name, memory, read_only, options.busy_timeout_ms);
    } catch (const SQLite::Exception& e) {
      const int code = e.getErrorCode() & 0xff;
      if ((code == SQLITE_BUSY || code == SQLITE_LOCKED) &&
          std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1 + (attempt % 8) * 3));
        continue;
      }
      if (code == SQLITE_NOTADB) return fail("{}: not a SQLite database ({})", name, e.what());
      return fail("{}: {}", name, e.what());
    } catch (const std::exception& e) {
      return fail("{}: {}", name, e.what());
    }
  }
}

}  // namespace kibitz::store
