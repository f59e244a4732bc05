// The PostgreSQL PositionStore (pg_store.hpp). One connection per store object, guarded by a
// mutex; the server arbitrates between processes (row locks, an advisory lock for the
// schema, a table lock for the whole-database prune).
#include "store/postgres/pg_store.hpp"

#include <fmt/format.h>

#include "store/sqlite/sqlite_store.hpp"

#ifdef KIBITZ_HAVE_POSTGRES
#include <algorithm>
#include <bit>
#include <cmath>
#include <exception>
#include <mutex>
#include <pqxx/pqxx>
#include <thread>
#include <utility>
#endif

namespace kibitz::store {

std::string redact_url(const std::string& url) {
  const auto scheme = url.find("://");
  const auto at = url.find('@');
  if (scheme == std::string::npos || at == std::string::npos) return url;
  const auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon) + ":***" + url.substr(at);
}

bool is_postgres_url(const std::string& spec) {
  return spec.starts_with("postgresql://") || spec.starts_with("postgres://");
}

Result<std::unique_ptr<PositionStore>> open_position_store(const std::string& spec,
                                                           bool read_only) {
  if (is_postgres_url(spec)) {
    if (read_only) return fail("{}: read-only opening is for SQLite files", spec);
    return open_postgres_store(spec);
  }
  SqliteOptions options;
  options.read_only = read_only;
  return open_sqlite_store(spec.starts_with("sqlite:") ? spec.substr(7) : spec, options);
}

#ifndef KIBITZ_HAVE_POSTGRES

Result<std::unique_ptr<PositionStore>> open_postgres_store(const std::string& url) {
  return fail("{}: this build has no PostgreSQL support (install libpqxx-dev and rebuild)", url);
}

#else

namespace {

constexpr std::int64_t kPgSchemaLock = 0x4B425A47;  // "KBZG": the advisory lock of migrations
constexpr const char* kPgApplication = "kibitz go positions";

constexpr const char* kPgContextColumns =
    "c.move, c.uncertainty, c.deep_visits, c.policy, c.winrate, c.score_lead, c.game_phase, "
    "c.recursion_depth, c.move_number, c.timestamp, c.source, c.id";

// A context from a row at column `col` (kPgContextColumns); values are checked, as another
// program may have written them.
Result<PositionContext> pg_read_context(const pqxx::row& row, int col, int board_size) {
  PositionContext c;
  const auto id = row[col + 11].as<std::int64_t>();
  const std::int64_t points = std::int64_t{board_size} * board_size;
  c.move = row[col + 0].as<int>();
  if (c.move < -1 || c.move > points)
    return fail("context {}: move {} out of range for {}x{}", id, c.move, board_size, board_size);
  c.uncertainty = row[col + 1].as<double>();
  const auto visits = row[col + 2].as<std::int64_t>();
  if (visits < 0 || visits > std::int64_t{UINT32_MAX})
    return fail("context {}: deep_visits {} out of range", id, visits);
  c.deep_visits = static_cast<std::uint32_t>(visits);
  const pqxx::binarystring blob(row[col + 3]);
  if (blob.size() % 4 != 0)
    return fail("context {}: policy of {} bytes is not a list of float32 values", id, blob.size());
  const std::size_t count = blob.size() / 4;
  if (count != 0 && count != static_cast<std::size_t>(points + 1))
    return fail("context {}: policy has {} values, expected {} for {}x{}", id, count, points + 1,
                board_size, board_size);
  if (count > 0) c.policy = policy_from_bytes(blob.data(), count);
  c.winrate = row[col + 4].as<double>();
  c.score_lead = row[col + 5].as<double>();
  c.game_phase = row[col + 6].as<int>();
  c.recursion_depth = row[col + 7].as<int>();
  c.move_number = row[col + 8].as<int>();
  c.timestamp = row[col + 9].as<std::int64_t>();
  c.source = row[col + 10].as<std::string>();
  return c;
}

PositionKey pg_read_key(const pqxx::row& row, int col) {
  PositionKey k;
  k.sym_hash = std::bit_cast<std::uint64_t>(row[col].as<std::int64_t>());
  k.board_size = row[col + 1].as<int>();
  k.komi = row[col + 2].as<double>();
  k.rules = row[col + 3].as<std::string>();
  return k;
}

// --- schema and migrations ---------------------------------------------------------------

void pg_migrate_0_to_1(pqxx::work& w) {
  w.exec(R"sql(
    CREATE TABLE positions (
      id BIGSERIAL PRIMARY KEY,
      sym_hash BIGINT NOT NULL,
      board_size INTEGER NOT NULL,
      komi DOUBLE PRECISION NOT NULL,
      rules TEXT NOT NULL,
      UNIQUE (sym_hash, board_size, komi, rules)
    );
    CREATE TABLE contexts (
      id BIGSERIAL PRIMARY KEY,
      position_id BIGINT NOT NULL REFERENCES positions(id) ON DELETE CASCADE,
      move INTEGER NOT NULL,
      uncertainty DOUBLE PRECISION NOT NULL,
      deep_visits BIGINT NOT NULL,
      policy BYTEA NOT NULL,
      winrate DOUBLE PRECISION NOT NULL,
      score_lead DOUBLE PRECISION NOT NULL,
      game_phase INTEGER NOT NULL,
      recursion_depth INTEGER NOT NULL,
      move_number INTEGER NOT NULL,
      timestamp BIGINT NOT NULL,
      source TEXT NOT NULL
    );
    CREATE INDEX contexts_by_position ON contexts(position_id);
  )sql");
}

using PgMigration = void (*)(pqxx::work&);
constexpr PgMigration kPgMigrations[] = {pg_migrate_0_to_1};
static_assert(std::size(kPgMigrations) == kSchemaVersion);

// Brings the schema up to date under the advisory lock, or refuses a database that is not
// ours or is newer. One transaction: a process killed here leaves the schema as it was.
Result<void> pg_migrate(pqxx::connection& c, const std::string& name) {
  pqxx::work w(c);
  w.exec_params("SELECT pg_advisory_xact_lock($1)", kPgSchemaLock);
  const bool has_meta = !w.exec1("SELECT to_regclass('kibitz_meta') IS NULL")[0].as<bool>();
  int version = 0;
  if (has_meta) {
    const auto app = w.exec("SELECT value FROM kibitz_meta WHERE key = 'application'");
    if (app.empty() || app[0][0].as<std::string>() != kPgApplication)
      return fail("{}: not a Kibitz position database (its kibitz_meta names another program)",
                  name);
    version =
        w.exec1("SELECT value::int FROM kibitz_meta WHERE key = 'schema_version'")[0].as<int>();
    if (version > kSchemaVersion)
      return fail("{}: schema version {} is newer than this program's ({})", name, version,
                  kSchemaVersion);
  } else {
    const bool taken = w.exec1(
                            "SELECT to_regclass('positions') IS NOT NULL OR "
                            "to_regclass('contexts') IS NOT NULL")[0]
                           .as<bool>();
    if (taken)
      return fail(
          "{}: not a Kibitz position database (it holds another program's positions or "
          "contexts table)",
          name);
    w.exec("CREATE TABLE kibitz_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    w.exec_params("INSERT INTO kibitz_meta VALUES ('application', $1), ('schema_version', '0')",
                  std::string(kPgApplication));
  }
  for (; version < kSchemaVersion; ++version) kPgMigrations[version](w);
  w.exec_params("UPDATE kibitz_meta SET value = $1 WHERE key = 'schema_version'",
                std::to_string(version));
  w.commit();
  return {};
}

// --- the store -----------------------------------------------------------------------------

class PgStore final : public PositionStore {
 public:
  PgStore(std::string url, std::unique_ptr<pqxx::connection> c)
      : url_(std::move(url)), name_(redact_url(url_)), c_(std::move(c)) {}

  Result<std::optional<StoredPosition>> find(const PositionKey& key) override {
    return guarded([&]() -> Result<std::optional<StoredPosition>> {
      pqxx::read_transaction r(*c_);
      const auto rows = r.exec_params(
          "SELECT id FROM positions WHERE sym_hash = $1 AND board_size = $2 AND komi = $3 AND "
          "rules = $4",
          std::bit_cast<std::int64_t>(key.sym_hash), key.board_size, key.komi, key.rules);
      if (rows.empty()) return std::optional<StoredPosition>{};
      StoredPosition pos;
      pos.id = rows[0][0].as<std::int64_t>();
      pos.key = key;
      auto contexts = load_contexts(r, pos.id, key.board_size);
      if (!contexts) return tl::unexpected(contexts.error());
      pos.contexts = std::move(*contexts);
      return std::optional<StoredPosition>{std::move(pos)};
    });
  }

  Result<std::optional<StoredPosition>> find_by_id(std::int64_t id) override {
    return guarded([&]() -> Result<std::optional<StoredPosition>> {
      pqxx::read_transaction r(*c_);
      const auto rows = r.exec_params(
          "SELECT sym_hash, board_size, komi, rules FROM positions WHERE id = $1", id);
      if (rows.empty()) return std::optional<StoredPosition>{};
      StoredPosition pos;
      pos.id = id;
      pos.key = pg_read_key(rows[0], 0);
      auto contexts = load_contexts(r, pos.id, pos.key.board_size);
      if (!contexts) return tl::unexpected(contexts.error());
      pos.contexts = std::move(*contexts);
      return std::optional<StoredPosition>{std::move(pos)};
    });
  }

  Result<AddResult> add_context(const PositionKey& key, const PositionContext& context,
                                const ContextPolicy& policy, std::int64_t now) override {
    if (auto k = check_position_key(key); !k) return with_context(k.error(), name_);
    if (auto ctx = check_position_context(context, key.board_size); !ctx)
      return with_context(ctx.error(), name_);
    const std::string blob = policy_to_bytes(context.policy);
    return guarded_retry([&]() -> Result<AddResult> {
      pqxx::work w(*c_);
      AddResult r;
      const auto hash = std::bit_cast<std::int64_t>(key.sym_hash);
      // The new position, or (after a concurrent creator commits) the existing one, locked
      // until this transaction ends: adds and prunes of one position take turns.
      auto ins = w.exec_params(
          "INSERT INTO positions (sym_hash, board_size, komi, rules) VALUES ($1, $2, $3, $4) "
          "ON CONFLICT (sym_hash, board_size, komi, rules) DO NOTHING RETURNING id",
          hash, key.board_size, key.komi, key.rules);
      if (!ins.empty()) {
        r.position_id = ins[0][0].as<std::int64_t>();
        r.new_position = true;
      } else {
        r.position_id =
            w.exec_params1(
                 "SELECT id FROM positions WHERE sym_hash = $1 AND board_size = $2 AND komi = "
                 "$3 AND rules = $4 FOR UPDATE",
                 hash, key.board_size, key.komi, key.rules)[0]
                .as<std::int64_t>();
      }
      const pqxx::binarystring bytes(blob.data(), blob.size());
      w.exec_params(
          "INSERT INTO contexts (position_id, move, uncertainty, deep_visits, policy, winrate, "
          "score_lead, game_phase, recursion_depth, move_number, timestamp, source) VALUES "
          "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
          r.position_id, context.move, context.uncertainty,
          static_cast<std::int64_t>(context.deep_visits), bytes, context.winrate,
          context.score_lead, context.game_phase, context.recursion_depth, context.move_number,
          context.timestamp, context.source);
      prune_position(w, r.position_id, policy, now);
      r.contexts =
          w.exec_params1("SELECT count(*) FROM contexts WHERE position_id = $1", r.position_id)[0]
              .as<int>();
      w.commit();
      return r;
    });
  }

  Result<void> for_each_after(std::int64_t after_id,
                              const std::function<bool(const StoredPosition&)>& fn) override {
    return guarded([&]() -> Result<void> {
      // Pages of positions by id (keyset), each with its contexts, in one snapshot.
      pqxx::read_transaction r(*c_);
      std::int64_t last = after_id;
      for (;;) {
        const auto ps = r.exec_params(
            "SELECT id, sym_hash, board_size, komi, rules FROM positions WHERE id > $1 ORDER "
            "BY id LIMIT 1000",
            last);
        if (ps.empty()) return {};
        const std::int64_t first = ps[0][0].as<std::int64_t>();
        last = ps[ps.size() - 1][0].as<std::int64_t>();
        const auto cs = r.exec_params(
            fmt::format("SELECT c.position_id, {} FROM contexts c WHERE c.position_id BETWEEN "
                        "$1 AND $2 ORDER BY c.position_id, c.timestamp, c.id",
                        kPgContextColumns),
            first, last);
        std::size_t ci = 0;
        for (const auto& p : ps) {
          StoredPosition pos;
          pos.id = p[0].as<std::int64_t>();
          pos.key = pg_read_key(p, 1);
          while (ci < cs.size() && cs[ci][0].as<std::int64_t>() < pos.id) ++ci;
          for (; ci < cs.size() && cs[ci][0].as<std::int64_t>() == pos.id; ++ci) {
            auto c = pg_read_context(cs[ci], 1, pos.key.board_size);
            if (!c) return with_context(c.error(), fmt::format("{}: position {}", name_, pos.id));
            pos.contexts.push_back(std::move(*c));
          }
          if (!fn(pos)) return {};
        }
      }
    });
  }

  Result<StoreStats> stats() override {
    return guarded([&]() -> Result<StoreStats> {
      pqxx::read_transaction r(*c_);
      StoreStats s;
      s.positions = r.exec1("SELECT count(*) FROM positions")[0].as<std::int64_t>();
      s.contexts = r.exec1("SELECT count(*) FROM contexts")[0].as<std::int64_t>();
      s.ingested_contexts =
          r.exec1("SELECT count(*) FROM contexts WHERE source = 'ingest'")[0].as<std::int64_t>();
      s.schema_version =
          r.exec1("SELECT value::int FROM kibitz_meta WHERE key = 'schema_version'")[0].as<int>();
      for (const auto& row : r.exec("SELECT board_size, count(*) FROM positions GROUP BY "
                                    "board_size ORDER BY board_size"))
        s.positions_by_size.emplace_back(row[0].as<int>(), row[1].as<std::int64_t>());
      s.file_bytes = r.exec1(
                          "SELECT pg_total_relation_size('positions') + "
                          "pg_total_relation_size('contexts')")[0]
                         .as<std::int64_t>();
      return s;
    });
  }

  Result<PruneReport> prune(const ContextPolicy& policy, std::int64_t now,
                            std::int64_t older_than_s) override {
    return guarded_retry([&]() -> Result<PruneReport> {
      pqxx::work w(*c_);
      // Writers wait while the whole database is pruned: a position emptied here cannot
      // gain a context between the check and its deletion.
      w.exec("LOCK TABLE positions IN SHARE ROW EXCLUSIVE MODE");
      PruneReport r;
      if (older_than_s > 0)
        r.contexts_removed +=
            w.exec_params("DELETE FROM contexts WHERE timestamp < $1", now - older_than_s)
                .affected_rows();
      if (policy.max_contexts > 0) {
        std::vector<std::int64_t> crowded;
        for (const auto& row : w.exec_params("SELECT position_id FROM contexts GROUP BY "
                                             "position_id HAVING count(*) > $1",
                                             policy.max_contexts))
          crowded.push_back(row[0].as<std::int64_t>());
        for (const std::int64_t id : crowded)
          r.contexts_removed += prune_position(w, id, policy, now);
      }
      r.positions_removed = w.exec(
                                 "DELETE FROM positions p WHERE NOT EXISTS (SELECT 1 FROM "
                                 "contexts c WHERE c.position_id = p.id)")
                                .affected_rows();
      w.commit();
      return r;
    });
  }

  const std::string& path() const override { return url_; }

 private:
  template <class F>
  auto guarded(F&& f) -> decltype(f()) {
    std::lock_guard lock(mu_);
    try {
      return f();
    } catch (const std::exception& e) {
      return fail("{}: {}", name_, one_line(e.what()));
    }
  }

  // A write that lost a deadlock or a serialisation conflict is run again (it left nothing).
  template <class F>
  auto guarded_retry(F&& f) -> decltype(f()) {
    std::lock_guard lock(mu_);
    for (int attempt = 0;; ++attempt) {
      try {
        return f();
      } catch (const pqxx::transaction_rollback& e) {
        if (attempt >= 20) return fail("{}: {}", name_, one_line(e.what()));
        std::this_thread::sleep_for(std::chrono::milliseconds(1 + attempt));
      } catch (const std::exception& e) {
        return fail("{}: {}", name_, one_line(e.what()));
      }
    }
  }

  static std::string one_line(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }

  Result<std::vector<PositionContext>> load_contexts(pqxx::transaction_base& t,
                                                     std::int64_t position_id, int board_size) {
    std::vector<PositionContext> out;
    for (const auto& row :
         t.exec_params(fmt::format("SELECT {} FROM contexts c WHERE c.position_id = $1 ORDER BY "
                                   "c.timestamp, c.id",
                                   kPgContextColumns),
                       position_id)) {
      auto c = pg_read_context(row, 0, board_size);
      if (!c) return with_context(c.error(), fmt::format("{}: position {}", name_, position_id));
      out.push_back(std::move(*c));
    }
    return out;
  }

  // Deletes the contexts contexts_to_keep drops, inside the caller's transaction.
  std::int64_t prune_position(pqxx::work& w, std::int64_t position_id, const ContextPolicy& policy,
                              std::int64_t now) {
    if (policy.max_contexts <= 0) return 0;
    std::vector<PositionContext> light;
    std::vector<std::int64_t> ids;
    for (const auto& row : w.exec_params("SELECT id, deep_visits, timestamp FROM contexts WHERE "
                                         "position_id = $1 ORDER BY timestamp, id",
                                         position_id)) {
      ids.push_back(row[0].as<std::int64_t>());
      PositionContext c;
      c.deep_visits = static_cast<std::uint32_t>(
          std::clamp<std::int64_t>(row[1].as<std::int64_t>(), 0, UINT32_MAX));
      c.timestamp = row[2].as<std::int64_t>();
      light.push_back(std::move(c));
    }
    if (light.size() <= static_cast<std::size_t>(policy.max_contexts)) return 0;
    std::vector<bool> kept(light.size(), false);
    for (const std::size_t i : contexts_to_keep(light, now, policy)) kept[i] = true;
    std::int64_t removed = 0;
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (!kept[i])
        removed += w.exec_params("DELETE FROM contexts WHERE id = $1", ids[i]).affected_rows();
    return removed;
  }

  std::string url_, name_;
  std::mutex mu_;
  std::unique_ptr<pqxx::connection> c_;
};

}  // namespace

Result<std::unique_ptr<PositionStore>> open_postgres_store(const std::string& url) {
  const std::string name = redact_url(url);
  try {
    auto c = std::make_unique<pqxx::connection>(url);
    if (auto m = pg_migrate(*c, name); !m) return tl::unexpected(m.error());
    return std::unique_ptr<PositionStore>(std::make_unique<PgStore>(url, std::move(c)));
  } catch (const std::exception& e) {
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    while (!what.empty() && what.back() == ' ') what.pop_back();
    return fail("{}: {}", name, what);
  }
}

#endif

}  // namespace kibitz::store
