// `kibitz serve`'s games as a page drives them (serve/sessions.hpp): the first line names the
// game, the second is a position text (or "param NAME=VALUE ..." for the game's parameters),
// each further line a request: "move TEXT", "undo N" or "view". Every refusal is a 4xx with
// one line; every view is JSON whose board (the game's web_view) reads its own text.
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.hpp"
#include "fuzz_support.hpp"
#include "games/registry.hpp"
#include "serve/sessions.hpp"

namespace {

void require_one_line(const kibitz::serve::RequestError& e) {
  if (e.status < 400 || e.status >= 500 || e.message.empty() ||
      e.message.find('\n') != std::string::npos)
    std::abort();
}

void require_view(const std::string& text) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.contains("text") || !j.contains("legal")) std::abort();
  if (j.contains("board") && j["board"].is_null()) std::abort();  // its own text must draw
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static kibitz::serve::SessionStore store(kibitz::builtin_registry(), {2, 1, 1000});
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at <= input.size();) {
    const auto nl = input.find('\n', at);
    lines.push_back(
        input.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at));
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  if (lines.size() < 2) return 0;
  std::vector<std::pair<std::string, std::string>> params;
  std::string position(lines[1]);
  if (lines[1].starts_with("param ")) {
    position.clear();
    for (const auto word : kibitz::split_blanks(lines[1].substr(6))) {
      const auto eq = word.find('=');
      params.emplace_back(std::string(word.substr(0, eq)),
                          eq == std::string_view::npos ? "" : std::string(word.substr(eq + 1)));
    }
  }
  auto session = store.create(std::string(lines[0]), params, position);
  if (!session) {
    require_one_line(session.error());
    return 0;
  }
  auto& s = **session;
  require_view(s.view());
  for (std::size_t i = 2; i < lines.size() && i < 64; ++i) {
    const std::string_view line = lines[i];
    if (line.starts_with("move ")) {
      auto v = s.move(std::string(line.substr(5)));
      if (v)
        require_view(*v);
      else
        require_one_line(v.error());
    } else if (line.starts_with("undo ")) {
      int n = 0;
      const auto t = line.substr(5);
      std::from_chars(t.data(), t.data() + t.size(), n);
      auto v = s.undo(n);
      if (v)
        require_view(*v);
      else
        require_one_line(v.error());
    } else if (line == "view") {
      require_view(s.view());
    }
  }
  store.remove(s.id());
  return 0;
}
