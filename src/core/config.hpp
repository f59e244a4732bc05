#pragma once
// YAML configuration. Keys are dotted paths ("deep_mcts.max_visits"); typed getters return
// the default when a key is absent and an error naming the file, line and key when a value
// has the wrong type. Command-line options override values read here.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace YAML {
class Node;
}

namespace kibitz {

class Config {
 public:
  Config();  // empty: every getter returns its default
  static Result<Config> load_file(const std::string& path);
  static Result<Config> parse(std::string_view text, std::string_view source = "<config>");

  bool has(std::string_view key) const;
  Result<std::int64_t> get_int(std::string_view key, std::int64_t fallback) const;
  Result<double> get_double(std::string_view key, double fallback) const;
  Result<bool> get_bool(std::string_view key, bool fallback) const;
  Result<std::string> get_string(std::string_view key, std::string fallback) const;
  // Top-level (or nested, by dotted prefix) keys, in file order; for "unknown key" checks.
  std::vector<std::string> keys(std::string_view prefix = {}) const;
  const std::string& source() const { return source_; }

 private:
  // The node at a dotted key, or null when any part of the path is missing.
  std::shared_ptr<const YAML::Node> find(std::string_view key) const;
  std::shared_ptr<const YAML::Node> root_;
  std::string source_;
};

}  // namespace kibitz
