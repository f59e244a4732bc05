// Fitting and measuring the move-prediction model (see pattern_train.hpp).
#include "games/go/pattern_train.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <span>
#include <unordered_map>

#include "core/bradley_terry.hpp"
#include "core/progress.hpp"
#include "games/go/search_traits.hpp"
#include "games/go/sgf.hpp"
#include "games/go/sgf_collection.hpp"

namespace kibitz::go {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

struct GameCounts {
  int games = 0, bad = 0;
};

// Calls fn(position, move) for every move of the selected records, the position being the one
// the move is played in, with the mover to move.
Result<GameCounts> for_each_position(const PatternTrainOptions& o, const std::string& label,
                                     const std::function<void(const Position&, Move)>& fn) {
  GameCounts counts;
  int seen = 0;
  const auto total = static_cast<std::uint64_t>(o.max_games);
  Progress progress = o.progress ? Progress(label, total) : Progress(label, total, stderr, false);
  auto r = for_each_sgf(o.inputs, [&](std::string_view, std::string_view text) {
    if (o.max_games > 0 && counts.games >= o.max_games) return false;
    if (seen++ % std::max(1, o.stride) != 0) return true;
    ++counts.games;
    progress.update(static_cast<std::uint64_t>(counts.games));
    auto record = read_sgf(text);
    if (!record) {
      ++counts.bad;
      return true;
    }
    Rules rules;
    rules.superko = false;  // records are played under the server's ko rule
    rules.max_moves = Position::kHistoryCapacity - 1;
    auto start = replay(*record, rules, 0);
    if (!start) {
      ++counts.bad;
      return true;
    }
    Position p = std::move(*start);
    for (std::size_t i = 0; i < record->moves.size(); ++i) {
      const auto& [color, m] = record->moves[i];
      const bool setup =
          std::any_of(record->later_setup.begin(), record->later_setup.end(),
                      [&](const SetupStone& s) { return s.before_move <= static_cast<int>(i); });
      if (setup || p.is_terminal() || m.is_resign()) {
        counts.bad += setup;
        break;
      }
      if (p.to_move() != color) p.set_to_move(color);
      if (!p.is_legal(m)) {
        ++counts.bad;
        break;
      }
      fn(p, m);
      p.apply(m);
    }
    return true;
  });
  progress.finish();
  if (!r) return tl::unexpected(r.error());
  return counts;
}

// Fits the gammas by MM with a progress line; the mean log-likelihood before each iteration
// and at the end.
std::vector<double> fit(const TeamCompetitions& data, std::span<float> gammas,
                        const PatternTrainOptions& o, const char* label) {
  const auto its = static_cast<std::uint64_t>(o.iterations);
  Progress progress = o.progress ? Progress(label, its) : Progress(label, its, stderr, false);
  std::vector<double> lls;
  BradleyTerryOptions bt;
  bt.iterations = o.iterations;
  bt.prior = o.prior;
  bt.on_iteration = [&](int it, double ll) {
    lls.push_back(ll);
    progress.update(static_cast<std::uint64_t>(it), fmt::format("log-likelihood {:.4f}", ll));
  };
  lls.push_back(fit_bradley_terry(data, gammas, bt));
  progress.finish(fmt::format("log-likelihood {:.4f}", lls.back()));
  return lls;
}

}  // namespace

Result<PatternModel> train_pattern_model(const PatternTrainOptions& o, PatternTrainStats& stats) {
  const auto t0 = Clock::now();

  // Pass 1: the patterns around the moves played.
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, int>> seen;  // key: count, size
  auto pass1 = for_each_position(o, "patterns: dictionary", [&](const Position& p, Move m) {
    if (!m.is_point()) return;
    const PatternKeys k = pattern_keys(p, m.sq);
    for (int s = 0; s < kNumPatternSizes; ++s) {
      auto& e = seen[k.key[s]];
      ++e.first;
      e.second = s;
    }
  });
  if (!pass1) return tl::unexpected(pass1.error());
  std::vector<PatternEntry> dictionary;
  for (const auto& [key, e] : seen)
    if (static_cast<int>(e.first) >= o.min_count) dictionary.push_back({key, e.second, 1.0f});
  std::sort(dictionary.begin(), dictionary.end(), [](const PatternEntry& a, const PatternEntry& b) {
    return a.size != b.size ? a.size < b.size : a.key < b.key;
  });
  seen = {};
  stats.patterns_by_size = {};
  for (const auto& e : dictionary) ++stats.patterns_by_size[e.size];
  PatternModel model(std::move(dictionary));

  // Pass 2: one competition per position.
  TeamCompetitions data;
  data.slots = kNumFeatureGroups;
  MoveList<Position> moves;
  auto pass2 = for_each_position(o, "patterns: positions", [&](const Position& p, Move played) {
    moves.clear();
    p.legal_moves(moves);
    const std::uint64_t first = data.teams();
    std::uint64_t winner = ~std::uint64_t{0};
    for (const Move m : moves) {
      const MoveFeatures f = model.features(p, m);
      if (m == played) winner = data.teams();
      for (int g = 0; g < kNumFeatureGroups; ++g)
        data.members.push_back(f.value[g] == kNoFeature ? TeamCompetitions::kNone
                                                        : static_cast<std::uint32_t>(
                                                              model.group_offset(g) + f.value[g]));
    }
    if (winner == ~std::uint64_t{0}) {  // cannot happen for a legal move; keep the data sound
      data.members.resize(first * kNumFeatureGroups);
      return;
    }
    data.winner.push_back(winner);
    data.start.push_back(data.teams());
  });
  if (!pass2) return tl::unexpected(pass2.error());
  stats.games = pass2->games;
  stats.bad_records = pass2->bad;
  stats.positions = data.competitions();
  stats.candidates = data.teams();
  if (data.competitions() == 0) return kibitz::fail("no positions in the records given");

  stats.log_likelihood = fit(data, model.gammas(), o, "patterns: fitting");
  model.clamp_gammas();
  stats.seconds = seconds_since(t0);
  return model;
}

Result<PlayoutModel> train_playout_model(const PatternTrainOptions& o, PlayoutTrainStats& stats) {
  const auto t0 = Clock::now();
  // Feature ids: 0 tenuki, 1 diagonal to the last move, 2.. the codes in order of first sight.
  std::unordered_map<std::uint32_t, std::uint32_t> id_of;
  std::vector<std::uint32_t> code_of;
  std::vector<std::uint64_t> count;
  TeamCompetitions data;
  data.slots = 2;
  static constexpr std::array<int, 8> kAround = {-kStride - 1, -kStride, -kStride + 1, -1, 1,
                                                 kStride - 1,  kStride,  kStride + 1};
  auto r = for_each_position(o, "playout patterns", [&](const Position& p, Move played) {
    const Move last = p.last_move();
    if (!last.is_point()) return;
    const std::uint64_t first = data.teams();
    std::uint64_t winner = first;  // tenuki unless the move played is a candidate
    data.members.push_back(0);
    data.members.push_back(TeamCompetitions::kNone);
    for (const int d : kAround) {
      const int sq = last.sq + d;
      if (p.at(sq) != kEmpty || !playout_acceptable(p, sq)) continue;
      const std::uint32_t code = canonical_local_code(local_code(p, sq));
      auto [it, fresh] = id_of.try_emplace(code, static_cast<std::uint32_t>(code_of.size() + 2));
      if (fresh) {
        code_of.push_back(code);
        count.push_back(0);
      }
      ++count[it->second - 2];
      if (played.is_point() && played.sq == sq) winner = data.teams();
      const bool diagonal = d != -kStride && d != -1 && d != 1 && d != kStride;
      data.members.push_back(it->second);
      data.members.push_back(diagonal ? 1u : TeamCompetitions::kNone);
    }
    if (data.teams() == first + 1) {  // no local point: nothing to choose
      data.members.resize(first * 2);
      return;
    }
    stats.local += winner != first;
    data.winner.push_back(winner);
    data.start.push_back(data.teams());
  });
  if (!r) return tl::unexpected(r.error());
  stats.games = r->games;
  stats.bad_records = r->bad;
  stats.positions = data.competitions();
  stats.candidates = data.teams() - data.competitions();
  if (data.competitions() == 0) return kibitz::fail("no positions in the records given");

  std::vector<float> gammas(code_of.size() + 2, 1.0f);
  stats.log_likelihood = fit(data, gammas, o, "playout patterns: fitting");

  auto clamp = [](float g) {
    return static_cast<float>(std::clamp<double>(g, kMinGamma, kMaxGamma));
  };
  std::vector<PlayoutPatternEntry> entries;
  for (std::size_t i = 0; i < code_of.size(); ++i)
    if (count[i] >= static_cast<std::uint64_t>(o.min_count))
      entries.push_back({code_of[i], clamp(gammas[i + 2])});
  std::sort(
      entries.begin(), entries.end(),
      [](const PlayoutPatternEntry& a, const PlayoutPatternEntry& b) { return a.code < b.code; });
  stats.patterns = static_cast<int>(entries.size());
  stats.seconds = seconds_since(t0);
  return PlayoutModel(std::move(entries), clamp(gammas[0]), clamp(gammas[1]));
}

Result<PredictionStats> measure_pattern_model(const PatternModel& model,
                                              const PatternTrainOptions& o) {
  PredictionStats st;
  MoveList<Position> moves;
  std::vector<double> strength;
  double ll = 0;
  auto r = for_each_position(o, "patterns: measuring", [&](const Position& p, Move played) {
    moves.clear();
    p.legal_moves(moves);
    const auto t = Clock::now();
    strength.resize(moves.size());
    double played_strength = -1, total = 0;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      strength[i] = model.strength(p, moves[i]);
      total += strength[i];
      if (moves[i] == played) played_strength = strength[i];
    }
    st.scoring_seconds += seconds_since(t);
    if (played_strength < 0) return;
    std::size_t rank = 0;  // other moves at least as strong
    bool skipped_self = false;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      if (moves[i] == played && !skipped_self) {
        skipped_self = true;
        continue;
      }
      rank += strength[i] >= played_strength;
    }
    ++st.positions;
    st.candidates += moves.size();
    st.top1 += rank < 1;
    st.top5 += rank < 5;
    st.top10 += rank < 10;
    ll += std::log(played_strength / total);
  });
  if (!r) return tl::unexpected(r.error());
  st.games = r->games;
  st.bad_records = r->bad;
  st.mean_log_likelihood = st.positions ? ll / static_cast<double>(st.positions) : 0;
  return st;
}

}  // namespace kibitz::go
