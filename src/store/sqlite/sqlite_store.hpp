#pragma once
// The embedded default PositionStore: one SQLite file in WAL mode, safe with several engine
// processes on the same file (writes are short IMMEDIATE transactions, readers never block
// writers, a busy timeout waits out other writers). The file carries an application id and a
// schema version (PRAGMA user_version): older versions are migrated on open, a newer
// version, a foreign SQLite file or a file that is not SQLite at all is refused with a
// one-line error naming the file.
#include <memory>
#include <string>

#include "store/position_store.hpp"

namespace kibitz::store {

inline constexpr int kSchemaVersion = 1;
inline constexpr std::int32_t kApplicationId = 0x4B425A47;  // "KBZG"

struct SqliteOptions {
  bool read_only = false;  // open an existing file without creating or migrating it
  int busy_timeout_ms = 10000;
};

Result<std::unique_ptr<PositionStore>> open_sqlite_store(const std::string& path,
                                                         const SqliteOptions& options = {});

}  // namespace kibitz::store
