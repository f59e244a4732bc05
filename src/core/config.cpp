#include "core/config.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

namespace kibitz {

namespace {

std::vector<std::string> split_key(std::string_view key) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= key.size()) {
    const std::size_t dot = key.find('.', start);
    const std::size_t end = dot == std::string_view::npos ? key.size() : dot;
    parts.emplace_back(key.substr(start, end - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string where(const std::string& source, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  if (m.line < 0) return source;
  return fmt::format("{}:{}:{}", source, m.line + 1, m.column + 1);
}

template <class T>
Result<T> convert_scalar(const std::string& source, std::string_view key, const YAML::Node& n,
                         std::string_view type_name) {
  if (!n.IsScalar())
    return fail("{}: key '{}' must be {}, not a {}", where(source, n), key, type_name,
                n.IsMap()        ? "mapping"
                : n.IsSequence() ? "list"
                                 : "null");
  T value{};
  if (!YAML::convert<T>::decode(n, value))
    return fail("{}: key '{}' must be {}, got '{}'", where(source, n), key, type_name, n.Scalar());
  return value;
}

// Every mapping key must be a plain scalar: dotted-path lookup and key listing depend on it.
Result<void> check_keys(const std::string& source, const YAML::Node& n, int depth = 0) {
  if (depth > 64) return fail("{}: nesting deeper than 64 levels", where(source, n));
  if (n.IsMap()) {
    for (const auto& kv : n) {
      if (!kv.first.IsScalar())
        return fail("{}: a key must be a plain name, not a {}", where(source, kv.first),
                    kv.first.IsMap()        ? "mapping"
                    : kv.first.IsSequence() ? "list"
                                            : "null");
      if (auto r = check_keys(source, kv.second, depth + 1); !r) return r;
    }
  } else if (n.IsSequence()) {
    for (const auto& item : n)
      if (auto r = check_keys(source, item, depth + 1); !r) return r;
  }
  return {};
}

}  // namespace

Config::Config() : root_(std::make_shared<const YAML::Node>(YAML::NodeType::Map)) {}

Result<Config> Config::parse(std::string_view text, std::string_view source) {
  Config c;
  c.source_ = std::string(source);
  try {
    YAML::Node root = YAML::Load(std::string(text));
    if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
    if (!root.IsMap()) return fail("{}: the top level must be a mapping of keys to values", source);
    if (auto ok = check_keys(c.source_, root); !ok) return tl::unexpected(ok.error());
    c.root_ = std::make_shared<const YAML::Node>(root);
  } catch (const YAML::Exception& e) {
    return fail("{}:{}:{}: {}", source, e.mark.line + 1, e.mark.column + 1, e.msg);
  }
  return c;
}

Result<Config> Config::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot open config file '{}'", path);
  // A directory opens as an empty stream on Linux; do not read it as an empty config.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return fail("cannot read config file '{}': it is a directory", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return fail("cannot read config file '{}'", path);
  return parse(ss.str(), path);
}

std::shared_ptr<const YAML::Node> Config::find(std::string_view key) const {
  // YAML::Node assignment rebinds in place, so walk with fresh nodes held by value (reset()).
  // Walk the parsed tree itself, read-only: a YAML::Clone would drop the source marks that
  // error messages cite, and the non-const operator[] would add pending keys to the tree.
  YAML::Node cur = *root_;
  for (const std::string& part : split_key(key)) {
    if (!cur.IsMap()) return nullptr;
    YAML::Node next = std::as_const(cur)[part];
    if (!next.IsDefined()) return nullptr;
    cur.reset(next);
  }
  return std::make_shared<const YAML::Node>(cur);
}

bool Config::has(std::string_view key) const {
  auto n = find(key);
  return n && !n->IsNull();
}

Result<std::int64_t> Config::get_int(std::string_view key, std::int64_t fallback) const {
  auto n = find(key);
  if (!n || n->IsNull()) return fallback;
  return convert_scalar<std::int64_t>(source_, key, *n, "an integer");
}

Result<double> Config::get_double(std::string_view key, double fallback) const {
  auto n = find(key);
  if (!n || n->IsNull()) return fallback;
  return convert_scalar<double>(source_, key, *n, "a number");
}

Result<bool> Config::get_bool(std::string_view key, bool fallback) const {
  auto n = find(key);
  if (!n || n->IsNull()) return fallback;
  return convert_scalar<bool>(source_, key, *n, "true or false");
}

Result<std::string> Config::get_string(std::string_view key, std::string fallback) const {
  auto n = find(key);
  if (!n || n->IsNull()) return fallback;
  return convert_scalar<std::string>(source_, key, *n, "a string");
}

std::vector<std::string> Config::keys(std::string_view prefix) const {
  std::vector<std::string> out;
  const auto node = prefix.empty() ? root_ : find(prefix);
  if (!node || !node->IsMap()) return out;
  for (const auto& kv : *node) out.push_back(kv.first.Scalar());  // parse() checked: scalars
  return out;
}

}  // namespace kibitz
