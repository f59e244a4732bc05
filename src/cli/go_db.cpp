// kibitz go db stats | prune | export: the Go position database (src/store/) from the shell.
// stats and export open the file read-only; none of the three creates a missing database.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "store/ann/ann_index.hpp"
#include "store/postgres/pg_store.hpp"

namespace kibitz::cli {

namespace {
namespace go_db_detail {

struct DbArgs {
  std::string db = "kibitz-go.db";
  int max_contexts = 5;
  double older_than_days = 0;
  std::string out = "-";
};

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string human_bytes(std::int64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{} bytes", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

// A canonical point index as a GTP vertex: x + y * size, y = 0 the bottom row ("1"), x = 0
// column A (I is skipped); size * size is "pass"; anything else (-1: no move) is null.
nlohmann::ordered_json gtp_vertex(int move, int size) {
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  if (size < 1 || size > 25) return nullptr;
  if (move == size * size) return "pass";
  if (move < 0 || move > size * size) return nullptr;
  return fmt::format("{}{}", kColumns[move % size], move / size + 1);
}

// The float's shortest decimal form as a double, so the JSON shows 0.1 for 0.1f (and reads
// back as the same float) rather than 0.10000000149011612.
double float_for_json(float f) {
  if (!std::isfinite(f)) return f;
  return std::strtod(fmt::format("{}", f).c_str(), nullptr);
}

nlohmann::ordered_json position_json(const store::StoredPosition& pos) {
  nlohmann::ordered_json j;
  j["id"] = pos.id;
  j["sym_hash"] = fmt::format("{:016x}", pos.key.sym_hash);
  j["board_size"] = pos.key.board_size;
  j["komi"] = pos.key.komi;
  j["rules"] = pos.key.rules;
  auto contexts = nlohmann::ordered_json::array();
  for (const auto& c : pos.contexts) {
    nlohmann::ordered_json cj;
    cj["move"] = gtp_vertex(c.move, pos.key.board_size);
    cj["uncertainty"] = c.uncertainty;
    cj["deep_visits"] = c.deep_visits;
    auto policy = nlohmann::ordered_json::array();
    for (const float p : c.policy) policy.push_back(float_for_json(p));
    cj["policy"] = std::move(policy);
    cj["winrate"] = c.winrate;
    cj["score_lead"] = c.score_lead;
    cj["game_phase"] = c.game_phase;
    cj["recursion_depth"] = c.recursion_depth;
    cj["move_number"] = c.move_number;
    cj["timestamp"] = c.timestamp;
    cj["source"] = c.source;
    contexts.push_back(std::move(cj));
  }
  j["contexts"] = std::move(contexts);
  return j;
}

Result<std::unique_ptr<store::PositionStore>> open_existing(const std::string& path,
                                                            bool read_only) {
  if (store::is_postgres_url(path)) return store::open_postgres_store(path);
  // Checked here too for prune, which opens read-write (and would create the file).
  const std::string file = path.starts_with("sqlite:") ? path.substr(7) : path;
  std::error_code ec;
  if (file.empty() || !std::filesystem::exists(file, ec)) return fail("{}: no such file", file);
  return store::open_position_store(path, read_only);
}

int run_stats(const DbArgs& a) {
  auto st = open_existing(a.db, true);
  if (!st) return report_error(st.error().message);
  auto s = (*st)->stats();
  if (!s) return report_error(s.error().message);
  fmt::print("database           {}\n", store::redact_url(a.db));
  fmt::print("schema version     {}\n", s->schema_version);
  fmt::print("positions          {}\n", s->positions);
  const double per = s->positions > 0 ? double(s->contexts) / double(s->positions) : 0.0;
  fmt::print("contexts           {} ({:.2f} per position)\n", s->contexts, per);
  fmt::print("ingested contexts  {}\n", s->ingested_contexts);
  std::string by_size;
  for (const auto& [size, n] : s->positions_by_size)
    by_size += fmt::format("{}{}x{} {}", by_size.empty() ? "" : ", ", size, size, n);
  fmt::print("by board size      {}\n", by_size.empty() ? "-" : by_size);
  // A server database reports its tables' size, a file its bytes.
  const bool server = store::is_postgres_url(a.db);
  const char* size_label = server ? "table size       " : "file size        ";
  if (s->positions > 0)
    fmt::print("{}  {} ({} per 1,000 positions)\n", size_label, human_bytes(s->file_bytes),
               human_bytes(1000 * s->file_bytes / s->positions));
  else
    fmt::print("{}  {}\n", size_label, human_bytes(s->file_bytes));
  if (server) {
    fmt::print("ANN index          in memory (each process builds it from the database)\n");
    return 0;
  }
  // ANN index files: read, never rebuilt here (that needs write access and time).
  bool any = false;
  for (int size = 2; size <= 25; ++size) {
    std::int64_t in_db = 0;
    for (const auto& [sz, n] : s->positions_by_size)
      if (sz == size) in_db = n;
    const std::string file = store::AnnIndex::file_for(a.db, size);
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
      if (in_db > 0)
        fmt::print("ANN index {:<8} none yet (built when the engine first opens it)\n",
                   fmt::format("{}x{}", size, size));
      continue;
    }
    any = true;
    const auto bytes = std::filesystem::file_size(file, ec);
    const std::string where = fmt::format(
        "{}, {}", file, ec ? std::string("size unknown") : human_bytes(std::int64_t(bytes)));
    auto count = store::AnnIndex::file_count(file, size);
    std::string state;
    if (!count)
      state = "unreadable, rebuilt on next open";
    else if (static_cast<std::int64_t>(*count) != in_db)
      state = fmt::format("{} positions, out of step with the database ({}): rebuilt on next open",
                          *count, in_db);
    else
      state = fmt::format("{} positions", *count);
    fmt::print("ANN index {:<8} {}: {}\n", fmt::format("{}x{}", size, size), where, state);
  }
  if (!any && s->positions_by_size.empty()) fmt::print("ANN index          none\n");
  return 0;
}

int run_prune(const DbArgs& a) {
  // Negative and non-finite values never get here (main.cpp refuses them for every option).
  auto st = open_existing(a.db, false);
  if (!st) return report_error(st.error().message);
  store::ContextPolicy policy;
  policy.max_contexts = a.max_contexts;
  const auto older_than_s = static_cast<std::int64_t>(std::llround(a.older_than_days * 86400.0));
  auto r = (*st)->prune(policy, unix_now(), older_than_s);
  if (!r) return report_error(r.error().message);
  std::string rules = a.max_contexts > 0
                          ? fmt::format("at most {} contexts per position", a.max_contexts)
                          : std::string("no limit on contexts per position");
  if (older_than_s > 0) rules += fmt::format(", none older than {} days", a.older_than_days);
  fmt::print("{}: removed {} contexts and {} positions ({})\n", a.db, r->contexts_removed,
             r->positions_removed, rules);
  return 0;
}

int run_export(const DbArgs& a) {
  auto st = open_existing(a.db, true);
  if (!st) return report_error(st.error().message);
  std::ofstream file;
  if (a.out != "-") {
    file.open(a.out, std::ios::binary | std::ios::trunc);
    if (!file) return report_error(fmt::format("--out: cannot write '{}'", a.out));
  }
  std::ostream& out = a.out == "-" ? std::cout : file;
  auto walked = (*st)->for_each([&](const store::StoredPosition& pos) {
    out << position_json(pos).dump() << '\n';
    return static_cast<bool>(out);
  });
  if (!walked) return report_error(walked.error().message);
  out.flush();
  if (!out)
    return report_error(fmt::format("--out: writing '{}' failed", a.out == "-" ? "stdout" : a.out));
  return 0;
}

}  // namespace go_db_detail
}  // namespace

Runner add_go_db(CLI::App& go_cmd) {
  using namespace go_db_detail;
  auto* db = go_cmd.add_subcommand("db", "the position database: statistics, pruning, export");
  db->require_subcommand(1);
  auto args = std::make_shared<DbArgs>();
  const char* db_help =
      "the position database: an SQLite file (PATH or sqlite:PATH) or postgresql://...";

  auto* stats = db->add_subcommand("stats", "positions, contexts, file size and ANN index files");
  stats->add_option("--db", args->db, db_help)->capture_default_str();

  auto* prune = db->add_subcommand(
      "prune", "keep the best contexts of each position (deep visits x recency) and drop old ones");
  prune->add_option("--db", args->db, db_help)->capture_default_str();
  prune
      ->add_option("--max-contexts", args->max_contexts, "contexts kept per position (0: no limit)")
      ->capture_default_str();
  prune->add_option("--older-than-days", args->older_than_days,
                    "drop contexts older than this many days (0: none by age)");

  auto* exp = db->add_subcommand(
      "export", "every position as a JSON line (moves as GTP vertices, canonical orientation)");
  exp->add_option("--db", args->db, db_help)->capture_default_str();
  exp->add_option("--out", args->out, "output file, '-' for stdout")->capture_default_str();

  return [db, stats, prune, exp, args]() -> int {
    if (stats->parsed()) return run_stats(*args);
    if (prune->parsed()) return run_prune(*args);
    if (exp->parsed()) return run_export(*args);
    return report_error(db->help(), 2);
  };
}

}  // namespace kibitz::cli
