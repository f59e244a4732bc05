#include "search/common/limits.hpp"

#include <array>

namespace kibitz::search {

namespace {
constexpr std::array<std::string_view, 15> kNames = {
    "tt_cutoffs", "tt_move",          "mvv_lva",
    "killers",    "history",          "see",
    "pvs",        "aspiration",       "null_move",
    "lmr",        "reverse_futility", "late_move_pruning",
    "iir",        "check_extension",  "quiescence"};
}

std::span<const std::string_view> SearchOptions::technique_names() { return kNames; }

bool SearchOptions::set(std::string_view name, bool on) {
  bool* const fields[] = {
      &tt_cutoffs, &tt_move,         &mvv_lva,   &killers, &history,          &see,
      &pvs,        &aspiration,      &null_move, &lmr,     &reverse_futility, &late_move_pruning,
      &iir,        &check_extension, &quiescence};
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) {
      *fields[i] = on;
      return true;
    }
  return false;
}

void SearchStats::add(const SearchStats& o) {
  nodes += o.nodes;
  qnodes += o.qnodes;
  cutoffs += o.cutoffs;
  first_move_cutoffs += o.first_move_cutoffs;
  tt_hits += o.tt_hits;
  null_tries += o.null_tries;
  null_cutoffs += o.null_cutoffs;
  lmr_reductions += o.lmr_reductions;
  lmr_researches += o.lmr_researches;
}

}  // namespace kibitz::search
