#include "games/registry.hpp"

#include <fmt/format.h>

#include "match/state_arena.hpp"

namespace kibitz {

void Registry::add(GameEntry entry) {
  for (auto& g : games_)
    if (g.name == entry.name) {
      g = std::move(entry);
      return;
    }
  games_.push_back(std::move(entry));
}

const GameEntry* Registry::find(std::string_view name) const {
  for (const auto& g : games_)
    if (g.name == name) return &g;
  return nullptr;
}

std::string Registry::names(const std::function<bool(const GameEntry&)>& has) const {
  std::string out;
  for (const auto& g : games_)
    if (!has || has(g)) out += (out.empty() ? "" : ", ") + g.name;
  return out;
}

std::string Registry::titles_taking(unsigned setting) const {
  std::string out;
  for (const auto& e : games_)
    if (e.match_settings & setting) out += (out.empty() ? "" : " and ") + e.title;
  return out.empty() ? std::string("none") : out;
}

std::string Registry::titles() const {
  std::string out;
  for (std::size_t i = 0; i < games_.size(); ++i)
    out += (i == 0 ? "" : i + 1 == games_.size() ? " and " : ", ") + games_[i].title;
  return out;
}

Result<std::unique_ptr<match::GameKind>> Registry::game_kind(
    std::string_view name, const match::GameSettings& settings) const {
  const GameEntry* g = find(name);
  if (!g) return fail("unknown game '{}' (known: {})", name, names());
  const unsigned takes = g->match_settings;
  if (settings.max_year && !(takes & kMaxYearSetting))
    return fail("{} has no --max-year (only {} has)", name, titles_taking(kMaxYearSetting));
  if (settings.komi != match::kDefaultKomi && !(takes & kKomiSetting))
    return fail("{} has no --komi (only {} has)", name, titles_taking(kKomiSetting));
  if ((settings.board_size && !(takes & kBoardSizeSetting)) ||
      (!settings.rule.empty() && !(takes & kRuleSetting)))
    return fail("{} has no --board-size or --rule", name);
  if (g->arena) return g->arena(settings);
  return match::make_state_kind(g->name, g->new_state);
}

const Registry& builtin_registry() {
  static const Registry registry = [] {
    Registry r;
    register_builtin_games(r);
    return r;
  }();
  return registry;
}

Result<std::unique_ptr<match::GameKind>> make_game_kind(std::string_view name,
                                                        const match::GameSettings& settings) {
  return builtin_registry().game_kind(name, settings);
}

}  // namespace kibitz
