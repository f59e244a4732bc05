#include "games/gomoku/tune.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace kibitz::gomoku {

namespace {

constexpr int kTempoFeature = kEvalFeatures - 1;

// Weights that are not fitted: the empty and dead patterns and the overline (worth nothing
// by definition), no combination (nothing to add), and the tempo (a constant offset the
// results of both colours would only trade against each other).
constexpr std::array<bool, kEvalFeatures> kFixed = [] {
  std::array<bool, kEvalFeatures> f{};
  f[static_cast<int>(Pattern::kNone)] = f[static_cast<int>(Pattern::kDead)] =
      f[static_cast<int>(Pattern::kOverline)] = true;
  f[10 + static_cast<int>(Threat::kNone)] = true;
  f[kToMoveFeature + static_cast<int>(Threat::kNone)] = true;
  f[kTempoFeature] = true;
  return f;
}();

std::array<double, kEvalFeatures> to_vector(const EvalWeights& w) {
  std::array<double, kEvalFeatures> v{};
  for (int i = 0; i < 10; ++i) {
    v[i] = w.pattern[i];
    v[10 + i] = w.combination[i];
    v[kToMoveFeature + i] = w.to_move[i];
  }
  for (int i = 0; i < kShapes; ++i) v[kShapeFeature + i] = w.shape[i];
  v[kTempoFeature] = w.tempo;
  return v;
}

// A sample's counts (EvalFeatures, or blended ones as doubles) times the weights.
template <class Counts>
double eval_of(const Counts& x, const std::array<double, kEvalFeatures>& v) {
  double e = 0;
  for (int i = 0; i < kEvalFeatures; ++i) e += x[i] * v[i];
  return e;
}

// The counts that read the score (patterns, combinations, shapes), not the side-to-move terms
// or the tempo: the ones parent_share blends.
constexpr bool score_feature(int i) {
  return i < kToMoveFeature || (i >= kShapeFeature && i < kShapeFeature + kShapes);
}

// A sample's counts with a share (0..1) of its parent's blended into the score's.
std::array<double, kEvalFeatures> blended(const TuneSample& s, double share) {
  std::array<double, kEvalFeatures> x{};
  for (int i = 0; i < kEvalFeatures; ++i)
    x[i] = score_feature(i) ? s.x[i] + share * (s.parent[i] - s.x[i]) : s.x[i];
  return x;
}

double eval_of(const TuneSample& s, const std::array<double, kEvalFeatures>& v, double share) {
  return share == 0 ? eval_of(s.x, v) : eval_of(blended(s, share), v);
}

double sigmoid(double k, double e) { return 1.0 / (1.0 + std::exp(-k * e / 400.0)); }

}  // namespace

double tune_target(const TuneSample& s, double k, double label_weight) {
  if (label_weight <= 0 || std::isnan(s.score)) return s.result;
  return (1 - label_weight) * s.result + label_weight * sigmoid(k, s.score);
}

namespace {

double error_of(const std::vector<TuneSample>& data, const std::array<double, kEvalFeatures>& v,
                double share, double k, double label_weight = 0) {
  double sum = 0;
  for (const TuneSample& s : data) {
    const double d = tune_target(s, k, label_weight) - sigmoid(k, eval_of(s, v, share));
    sum += d * d;
  }
  return data.empty() ? 0 : sum / static_cast<double>(data.size());
}

}  // namespace

EvalFeatures eval_features(const Position& pos) {
  EvalFeatures x{};
  const Color me = pos.side_to_move();
  const int n = pos.size();
  for (int y = 0; y < n; ++y)
    for (int xx = 0; xx < n; ++xx) {
      const int sq = square_of(xx, y);
      if (pos.stone(sq) != kEmpty) continue;
      for (const Color c : {kBlack, kWhite}) {
        if (pos.point_flagged(sq, c)) continue;
        const int sign = c == me ? 1 : -1;
        for (int d = 0; d < 4; ++d)
          x[static_cast<int>(pos.pattern(sq, c, d))] += static_cast<std::int16_t>(sign);
        const auto t = static_cast<int>(pos.threat(sq, c));
        x[10 + t] += static_cast<std::int16_t>(sign);
        if (c == me && t != 0) ++x[kToMoveFeature + t];  // as evaluate(): no term for kNone
        if (const int shape = pos.shape(sq, c); shape < kShapes)
          x[kShapeFeature + shape] += static_cast<std::int16_t>(sign);
      }
    }
  x[kTempoFeature] = 1;
  return x;
}

EvalFeatures parent_features(const Position& before) {
  EvalFeatures x = eval_features(before);
  for (int i = 0; i < kEvalFeatures; ++i)
    x[i] = score_feature(i) ? static_cast<std::int16_t>(-x[i]) : std::int16_t{0};
  return x;
}

double linear_eval(const EvalFeatures& x, const EvalWeights& w) { return eval_of(x, to_vector(w)); }

double linear_eval(const TuneSample& s, const EvalWeights& w) {
  return eval_of(s, to_vector(w), w.parent_share / 100.0);
}

double tune_error(const std::vector<TuneSample>& data, const EvalWeights& w, double k,
                  double label_weight) {
  return error_of(data, to_vector(w), w.parent_share / 100.0, k, label_weight);
}

double fit_k(const std::vector<TuneSample>& data, const EvalWeights& w) {
  const auto v = to_vector(w);
  const double share = w.parent_share / 100.0;
  // Golden-section search of log k over [1e-3, 1e2] (the error is unimodal in k).
  double lo = std::log(1e-3), hi = std::log(1e2);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
  double fa = error_of(data, v, share, std::exp(a)), fb = error_of(data, v, share, std::exp(b));
  for (int i = 0; i < 60; ++i) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - g * (hi - lo);
      fa = error_of(data, v, share, std::exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + g * (hi - lo);
      fb = error_of(data, v, share, std::exp(b));
    }
  }
  return std::exp((lo + hi) / 2);
}

GomokuTuneResult tune(const std::vector<TuneSample>& data, const EvalWeights& start,
                      const GomokuTuneOptions& options,
                      const std::function<void(int, double)>& progress) {
  GomokuTuneResult r;
  r.k = options.k ? *options.k : fit_k(data, start);
  auto v = to_vector(start);
  const double lw = options.label_weight;
  // The targets are fixed once K is: computed once, not per epoch.
  std::vector<float> target(data.size());
  for (std::size_t i = 0; i < data.size(); ++i)
    target[i] = static_cast<float>(tune_target(data[i], r.k, lw));
  // The share is not fitted: the samples' blended counts are fixed with it.
  const double share = start.parent_share / 100.0;
  std::vector<std::array<double, kEvalFeatures>> xs;
  if (share != 0) {
    xs.reserve(data.size());
    for (const TuneSample& sample : data) xs.push_back(blended(sample, share));
  }
  r.initial_error = error_of(data, v, share, r.k, lw);
  std::array<bool, kEvalFeatures> fit{};
  for (int i = 0; i < 10; ++i) {
    fit[i] = options.fit_pattern;
    fit[10 + i] = options.fit_combination;
    fit[kToMoveFeature + i] = options.fit_to_move;
  }
  for (int i = 0; i < kShapes; ++i) fit[kShapeFeature + i] = options.fit_shape;
  std::array<double, kEvalFeatures> m{}, s{};
  constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;
  const double n = std::max<double>(1, static_cast<double>(data.size()));
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    std::array<double, kEvalFeatures> grad{};
    for (std::size_t j = 0; j < data.size(); ++j) {
      const auto step = [&](const auto& x) {
        const double p = sigmoid(r.k, eval_of(x, v));
        // d/dv of (target - p)^2 = -2 (target - p) p (1 - p) k / 400 * x
        const double common = -2.0 * (target[j] - p) * p * (1 - p) * r.k / 400.0;
        for (int i = 0; i < kEvalFeatures; ++i) grad[i] += common * x[i];
      };
      if (share != 0)
        step(xs[j]);
      else
        step(data[j].x);
    }
    const double b1 = 1 - std::pow(kBeta1, epoch), b2 = 1 - std::pow(kBeta2, epoch);
    for (int i = 0; i < kEvalFeatures; ++i) {
      if (kFixed[i] || !fit[i]) continue;
      double gi = grad[i] / n;
      if (i >= kShapeFeature && i < kShapeFeature + kShapes) gi += 2e-6 * options.shape_l2 * v[i];
      m[i] = kBeta1 * m[i] + (1 - kBeta1) * gi;
      s[i] = kBeta2 * s[i] + (1 - kBeta2) * gi * gi;
      if (s[i] == 0) continue;  // a weight no sample uses
      v[i] -= options.learning_rate * (m[i] / b1) / (std::sqrt(s[i] / b2) + kEps);
      // The file's bounds: patterns are summed as unsigned fields.
      v[i] = i < 10
                 ? std::clamp(v[i], 0.0, double{kMaxPatternWeight})
                 : std::clamp(v[i], double{-kMaxCombinationWeight}, double{kMaxCombinationWeight});
    }
    if (progress && (epoch % 50 == 0 || epoch == options.epochs))
      progress(epoch, error_of(data, v, share, r.k, lw));
  }
  r.weights = start;
  for (int i = 0; i < 10; ++i) {
    r.weights.pattern[i] = static_cast<int>(std::lround(v[i]));
    r.weights.combination[i] = static_cast<int>(std::lround(v[10 + i]));
    r.weights.to_move[i] = static_cast<int>(std::lround(v[kToMoveFeature + i]));
  }
  for (int i = 0; i < kShapes; ++i)
    r.weights.shape[i] = static_cast<int>(std::lround(v[kShapeFeature + i]));
  r.final_error = tune_error(data, r.weights, r.k, lw);
  return r;
}

Result<std::size_t> add_game_samples(int size, Rule rule, double black,
                                     std::span<const std::pair<int, int>> moves, int skip_plies,
                                     std::vector<TuneSample>& out, const SampleLabeler* label) {
  Position pos({.size = size, .rule = rule});
  std::size_t added = 0;
  int ply = 0;
  for (const auto& [x, y] : moves) {
    if (x < 0 || y < 0 || x >= size || y >= size)
      return fail("move {}: ({}, {}) is off the board", ply + 1, x, y);
    const Move m{static_cast<std::uint16_t>(square_of(x, y))};
    if (pos.is_terminal() || !pos.is_legal(m))
      return fail("move {}: {} is not legal here", ply + 1, to_text(m));
    const bool keep = ply + 1 >= skip_plies;
    const EvalFeatures parent = keep ? parent_features(pos) : EvalFeatures{};
    pos.apply(m);
    ++ply;
    if (keep && !pos.is_terminal() && pos.quiet_position()) {
      const double r = pos.side_to_move() == kBlack ? black : 1 - black;
      TuneSample s{eval_features(pos), static_cast<float>(r)};
      s.parent = parent;
      if (label) s.score = static_cast<float>((*label)(pos));
      out.push_back(s);
      ++added;
    }
  }
  return added;
}

Result<LoggedGame> parse_games_log_line(std::string_view line) {
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail("not a JSON object");
  const auto text_of = [&](const char* key) -> std::string {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
  };
  const auto int_of = [&](const char* key, int fallback) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<int>() : fallback;
  };
  LoggedGame g;
  g.size = int_of("board", 15);
  g.rule_bits = int_of("rule", 0);
  g.black = text_of("black");
  g.white = text_of("white");
  g.result = text_of("result");
  for (const char* key : {"opening", "moves"}) {
    const std::string field = text_of(key);
    std::size_t i = 0;
    while (i < field.size()) {
      const char c = field[i];
      std::size_t k = i + 1;
      int number = 0;
      while (k < field.size() && k < i + 3 && field[k] >= '0' && field[k] <= '9')
        number = number * 10 + (field[k++] - '0');
      if (c < 'a' || c > 'z' || k == i + 1)
        return fail("\"{}\" is not a list of points like h8i7 (character {})", key, i + 1);
      g.moves.emplace_back(c - 'a', number - 1);
      i = k;
    }
    if (std::string_view(key) == "opening") g.opening_plies = static_cast<int>(g.moves.size());
  }
  return g;
}

Result<std::size_t> read_games_log(std::string_view text, Rule rule, int skip_plies,
                                   std::vector<TuneSample>& out, std::size_t& games,
                                   const SampleLabeler* label) {
  std::size_t added = 0, line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto g = parse_games_log_line(line);
    if (!g) return fail("line {}: {}", line_no, g.error().message);
    if (rule_from_gomocup_bits(g->rule_bits) != rule || g->size < 15 || g->size > kMaxSize)
      continue;
    // The referee writes a draw as "1/2"; PGN's "1/2-1/2" is read as well.
    const double black = g->result == "1-0"                             ? 1
                         : g->result == "0-1"                           ? 0
                         : g->result == "1/2" || g->result == "1/2-1/2" ? 0.5
                                                                        : -1;
    if (black < 0) continue;
    auto n = add_game_samples(g->size, rule, black, g->moves, skip_plies, out, label);
    if (!n) return fail("line {}: {}", line_no, n.error().message);
    if (*n > 0) ++games;
    added += *n;
  }
  return added;
}

}  // namespace kibitz::gomoku
