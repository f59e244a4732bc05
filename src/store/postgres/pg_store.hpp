#pragma once
// The PositionStore on a PostgreSQL server (libpqxx), for many processes on many machines
// sharing one analysis database. The schema is the SQLite store's, with versioned migrations
// recorded in a kibitz_meta table and run under an advisory lock (several processes opening a
// new database create it once). add_context takes the position's row lock (SELECT ... FOR
// UPDATE), so concurrent writers of one position neither lose nor duplicate a context, and a
// writer killed mid-transaction leaves nothing of it. A database that holds another program's
// tables of the same names, or a newer schema, is refused with a one-line error.
#include <memory>
#include <string>

#include "store/position_store.hpp"

namespace kibitz::store {

// Whether `spec` names a PostgreSQL database (postgresql://... or postgres://...).
bool is_postgres_url(const std::string& spec);

// The URL with its password, if any, replaced by *** (for messages and reports).
std::string redact_url(const std::string& url);

// Opens (creating the schema in) the database at a libpq connection URL. The error of a
// build without libpqxx says so.
Result<std::unique_ptr<PositionStore>> open_postgres_store(const std::string& url);

// A database by its --db text: postgresql://... or postgres://... (PostgreSQL), sqlite:PATH
// or a plain PATH (SQLite). `read_only` applies to SQLite (PostgreSQL has roles for that).
Result<std::unique_ptr<PositionStore>> open_position_store(const std::string& spec,
                                                           bool read_only = false);

}  // namespace kibitz::store
