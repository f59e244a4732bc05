#include "match/player_spec.hpp"

#include <fmt/format.h>

#include <charconv>

#include "engine/any_engine.hpp"

namespace kibitz::match {

Result<std::vector<std::string>> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size() &&
                 (text[i + 1] == '"' || text[i + 1] == '\\')) {
        word += text[++i];
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\') {
      if (i + 1 == text.size()) return fail("trailing backslash in '{}'", text);
      word += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) return fail("unclosed {} quote in '{}'", quote, text);
  if (in_word) words.push_back(std::move(word));
  return words;
}

namespace {

template <class T>
Result<T> parse_number(std::string_view key, std::string_view value) {
  T out{};
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (value.empty() || ec != std::errc() || p != value.data() + value.size() || out < 0)
    return fail("{}= needs a non-negative number, not '{}'", key, value);
  return out;
}

bool is_key(std::string_view key) {
  static constexpr std::string_view kKeys[] = {"name",  "cmd",   "bot",    "proto",
                                               "dir",   "arg",   "tc",     "movetime",
                                               "nodes", "depth", "stderr", "option-file"};
  for (auto k : kKeys)
    if (key == k) return true;
  return key.starts_with("option.") && key.size() > 7;
}

}  // namespace

Result<PlayerSpec> parse_player_spec(std::string_view text) {
  auto words = split_words(text);
  if (!words) return tl::unexpected(words.error());
  PlayerSpec spec;
  bool in_command = false;
  for (const auto& w : *words) {
    const auto eq = w.find('=');
    const std::string key = eq == std::string::npos ? w : w.substr(0, eq);
    if (eq == std::string::npos || !is_key(key)) {
      if (in_command) {
        spec.command.push_back(w);
        continue;
      }
      if (key.starts_with("option."))  // a button: option.NAME without a value
        return fail("{}: options need a value (option.NAME=VALUE)", w);
      return fail(
          "unknown word '{}' (expected KEY=VALUE: name, cmd, bot, proto, dir, "
          "option.NAME, option-file, tc, movetime, nodes, depth, stderr)",
          w);
    }
    const std::string value = w.substr(eq + 1);
    in_command = false;
    if (key == "cmd") {
      if (value.empty()) return fail("cmd= needs a program");
      spec.command.assign(1, value);
      in_command = true;
    } else if (key == "arg") {
      if (spec.command.empty()) return fail("arg={} comes before cmd=", value);
      spec.command.push_back(value);
      in_command = true;
    } else if (key == "name") {
      spec.name = value;
    } else if (key == "bot") {
      spec.bot = value;
    } else if (key == "proto") {
      if (value != "uci" && value != "gtp" && value != "gomocup")
        return fail("proto={}: expected uci, gtp or gomocup", value);
      spec.protocol = value;
    } else if (key == "dir") {
      spec.workdir = value;
    } else if (key == "stderr") {
      if (value != "show" && value != "hide")
        return fail("stderr={}: expected show or hide", value);
      spec.show_stderr = value == "show";
    } else if (key == "tc") {
      auto tc = TimeControl::parse(value);
      if (!tc) return tl::unexpected(tc.error());
      spec.limits.clock = *tc;
    } else if (key == "movetime") {
      auto v = parse_number<std::int64_t>(key, value);
      if (!v) return tl::unexpected(v.error());
      spec.limits.movetime_ms = *v;
    } else if (key == "nodes") {
      auto v = parse_number<std::uint64_t>(key, value);
      if (!v) return tl::unexpected(v.error());
      spec.limits.nodes = *v;
    } else if (key == "depth") {
      auto v = parse_number<int>(key, value);
      if (!v) return tl::unexpected(v.error());
      spec.limits.depth = *v;
    } else if (key == "option-file") {
      auto settings = engine::read_option_file(value);
      if (!settings) return tl::unexpected(settings.error());
      spec.options.insert(spec.options.end(), settings->begin(), settings->end());
    } else {
      spec.options.emplace_back(key.substr(7), value);
    }
  }
  if (spec.command.empty() == spec.bot.empty())
    return fail("'{}': give either cmd=PROGRAM (an external engine) or bot=NAME (in-process)",
                text);
  if (spec.name.empty()) {
    if (!spec.bot.empty()) {
      spec.name = spec.bot;
    } else {
      const auto& prog = spec.command[0];
      const auto slash = prog.rfind('/');
      spec.name = slash == std::string::npos ? prog : prog.substr(slash + 1);
    }
  }
  return spec;
}

std::string PlayerSpec::describe() const {
  std::string s = external() ? "cmd=" : is_embedded() ? "embedded" : "bot=";
  if (external()) {
    for (std::size_t i = 0; i < command.size(); ++i) s += (i ? " " : "") + command[i];
  } else if (!is_embedded()) {
    s += bot;
  }
  for (const auto& [k, v] : options) s += fmt::format(" option.{}={}", k, v);
  if (!limits.empty()) s += " " + limits.to_string();
  return fmt::format("{} ({})", name, s);
}

}  // namespace kibitz::match
