#include "api/registry.hpp"

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

}  // namespace kibitz
