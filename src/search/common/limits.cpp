#include "search/common/limits.hpp"

#include <array>

namespace kibitz::search {

namespace {
constexpr std::array<std::string_view, 25> kNames = {"tt_cutoffs",
                                                     "tt_move",
                                                     "mvv_lva",
                                                     "killers",
                                                     "history",
                                                     "see",
                                                     "pvs",
                                                     "aspiration",
                                                     "null_move",
                                                     "lmr",
                                                     "reverse_futility",
                                                     "late_move_pruning",
                                                     "iir",
                                                     "check_extension",
                                                     "quiescence",
                                                     "continuation_history",
                                                     "improving",
                                                     "futility",
                                                     "see_pruning",
                                                     "singular",
                                                     "probcut",
                                                     "correction_history",
                                                     "node_time",
                                                     "capture_history",
                                                     "history_pruning"};
}

std::span<const std::string_view> SearchOptions::technique_names() { return kNames; }

namespace {

// The technique fields in kNames order (const or not, as the options are).
template <class O>
auto technique_fields(O& o) {
  return std::array{&o.tt_cutoffs,
                    &o.tt_move,
                    &o.mvv_lva,
                    &o.killers,
                    &o.history,
                    &o.see,
                    &o.pvs,
                    &o.aspiration,
                    &o.null_move,
                    &o.lmr,
                    &o.reverse_futility,
                    &o.late_move_pruning,
                    &o.iir,
                    &o.check_extension,
                    &o.quiescence,
                    &o.continuation_history,
                    &o.improving,
                    &o.futility,
                    &o.see_pruning,
                    &o.singular,
                    &o.probcut,
                    &o.correction_history,
                    &o.node_time,
                    &o.capture_history,
                    &o.history_pruning};
}

}  // namespace

bool SearchOptions::set(std::string_view name, bool on) {
  const auto fields = technique_fields(*this);
  static_assert(fields.size() == kNames.size());
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) {
      *fields[i] = on;
      return true;
    }
  return false;
}

std::optional<bool> SearchOptions::get(std::string_view name) const {
  const auto fields = technique_fields(*this);
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return *fields[i];
  return std::nullopt;
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
