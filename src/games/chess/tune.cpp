#include "games/chess/tune.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <fstream>
#include <thread>

namespace kibitz::chess {

void TuneDataset::add(const Position& pos, double result) {
  EvalTrace trace;
  eval_trace(pos, trace);
  add(trace, result);
}

void TuneDataset::add(const EvalTrace& trace, double result) {
  for (int i = 0; i < kNumEvalParams; ++i)
    if (const auto c = trace.coeff[static_cast<std::size_t>(i)]; c != 0)
      terms_.push_back({static_cast<std::uint16_t>(i), c});
  offset_.push_back(static_cast<std::uint32_t>(terms_.size()));
  phase_.push_back(static_cast<std::uint8_t>(trace.phase));
  scale_.push_back({static_cast<std::uint8_t>(trace.scale[kWhite]),
                    static_cast<std::uint8_t>(trace.scale[kBlack])});
  result_.push_back(static_cast<float>(result));
}

namespace {

Result<double> parse_result(std::string_view text) {
  if (text == "1-0") return 1.0;
  if (text == "0-1") return 0.0;
  if (text == "1/2-1/2" || text == "1/2") return 0.5;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !(v >= 0.0 && v <= 1.0))
    return fail("result '{}' is not 1.0, 0.5 or 0.0", text);
  return v;
}

// Weights as doubles, mg and eg interleaved: w[2i] = mg of parameter i, w[2i + 1] = eg.
using Weights = std::vector<double>;

Weights to_weights(const EvalParams& p) {
  Weights w(2 * kNumEvalParams);
  for (int i = 0; i < kNumEvalParams; ++i) {
    w[2 * static_cast<std::size_t>(i)] = p[i].mg;
    w[2 * static_cast<std::size_t>(i) + 1] = p[i].eg;
  }
  return w;
}

EvalParams to_params(const Weights& w) {
  EvalParams p;
  for (int i = 0; i < kNumEvalParams; ++i)
    p[i] = {static_cast<int>(std::lround(w[2 * static_cast<std::size_t>(i)])),
            static_cast<int>(std::lround(w[2 * static_cast<std::size_t>(i) + 1]))};
  return p;
}

// White's view of position i with weights w (the evaluation's taper, unrounded); f_mg and
// f_eg receive d(eval)/d(mg sum) and d(eval)/d(eg sum).
double position_eval(const TuneDataset& d, std::size_t i, const double* w, double& f_mg,
                     double& f_eg) {
  double mg = 0, eg = 0;
  for (const auto* t = d.begin(i); t != d.end(i); ++t) {
    mg += t->coeff * w[2 * t->index];
    eg += t->coeff * w[2 * t->index + 1];
  }
  const int phase = d.phase(i);
  const int scale = eg > 0 ? d.scale(i, kWhite) : eg < 0 ? d.scale(i, kBlack) : kNoScale;
  f_mg = phase / double(kMaxPhase);
  f_eg = (kMaxPhase - phase) * scale / double(kMaxPhase * kNoScale);
  return mg * f_mg + eg * f_eg;
}

double sigmoid(double k, double eval) { return 1.0 / (1.0 + std::exp(-k * eval / 400.0)); }

// Fixed blocks of positions: each block's sums are kept apart and added in block order, so
// the totals do not depend on how many threads did the work.
constexpr std::size_t kBlock = 4096;

std::size_t block_count(std::size_t n) { return (n + kBlock - 1) / kBlock; }

template <class F>
void for_blocks(std::size_t n, int threads, F&& fn) {
  const std::size_t blocks = block_count(n);
  auto run = [&](std::size_t b) { fn(b, b * kBlock, std::min(n, (b + 1) * kBlock)); };
  if (threads <= 1 || blocks <= 1) {
    for (std::size_t b = 0; b < blocks; ++b) run(b);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  const auto count = std::min<std::size_t>(static_cast<std::size_t>(threads), blocks);
  for (std::size_t t = 0; t < count; ++t)
    pool.emplace_back([&] {
      for (std::size_t b; (b = next.fetch_add(1)) < blocks;) run(b);
    });
  for (auto& th : pool) th.join();
}

// Every position's evaluation (k does not enter it), for fitting k cheaply.
std::vector<double> all_evals(const TuneDataset& data, const Weights& w, int threads) {
  std::vector<double> evals(data.size());
  for_blocks(data.size(), threads, [&](std::size_t, std::size_t lo, std::size_t hi) {
    double f_mg, f_eg;
    for (std::size_t i = lo; i < hi; ++i) evals[i] = position_eval(data, i, w.data(), f_mg, f_eg);
  });
  return evals;
}

double error_of_evals(const TuneDataset& data, const std::vector<double>& evals, double k) {
  double sum = 0;
  for (std::size_t i = 0; i < evals.size(); ++i) {
    const double diff = sigmoid(k, evals[i]) - data.result(i);
    sum += diff * diff;
  }
  return evals.empty() ? 0.0 : sum / static_cast<double>(evals.size());
}

double weights_error(const TuneDataset& data, const Weights& w, double k, int threads) {
  return error_of_evals(data, all_evals(data, w, threads), k);
}

}  // namespace

Result<std::pair<Position, double>> parse_tune_line(std::string_view line) {
  const auto bar = line.rfind('|');
  if (bar == std::string_view::npos) return fail("expected 'FEN | result', found no '|'");
  const std::string_view fen = trim(line.substr(0, bar)), res = trim(line.substr(bar + 1));
  if (fen.empty()) return fail("missing FEN before '|'");
  if (res.empty()) return fail("missing result after '|'");
  auto pos = Position::from_fen(fen);
  if (!pos) return tl::unexpected(pos.error());
  auto result = parse_result(res);
  if (!result) return tl::unexpected(result.error());
  return std::pair<Position, double>{*pos, *result};
}

Result<TuneDataset> load_tune_data(const std::string& path, TuneLoadReport& report,
                                   const std::function<void(const std::string&)>& warn) {
  std::ifstream in(path);
  if (!in) return fail("cannot open data file '{}'", path);
  report = {};
  TuneDataset data;
  std::string line;
  while (std::getline(in, line)) {
    ++report.lines;
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    auto parsed = parse_tune_line(text);
    if (!parsed) {
      ++report.skipped;
      if (warn)
        warn(one_line(fmt::format("{}:{}: {}", path, report.lines, parsed.error().message)));
      continue;
    }
    data.add(parsed->first, parsed->second);
    ++report.loaded;
  }
  if (in.bad()) return fail("error reading data file '{}'", path);
  if (data.size() == 0)
    return fail("data file '{}' has no usable position ({} lines, {} malformed)", path,
                report.lines, report.skipped);
  return data;
}

double tune_error(const TuneDataset& data, const EvalParams& params, double k, int threads) {
  return weights_error(data, to_weights(params), k, threads);
}

double fit_k(const TuneDataset& data, const EvalParams& params, int threads) {
  const std::vector<double> evals = all_evals(data, to_weights(params), threads);
  auto err = [&](double k) { return error_of_evals(data, evals, k); };
  // Log-spaced scan over [0.01, 100], then golden section between the best point's neighbours.
  constexpr int kSteps = 80;
  auto at = [](int s) { return 0.01 * std::pow(10.0, 4.0 * s / kSteps); };
  int best = 0;
  double best_err = err(at(0));
  for (int s = 1; s <= kSteps; ++s)
    if (const double e = err(at(s)); e < best_err) best = s, best_err = e;
  double lo = at(std::max(0, best - 1)), hi = at(std::min(kSteps, best + 1));
  const double g = (std::sqrt(5.0) - 1) / 2;
  double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
  double ea = err(a), eb = err(b);
  for (int it = 0; it < 60; ++it) {
    if (ea < eb) {
      hi = b, b = a, eb = ea;
      a = hi - g * (hi - lo), ea = err(a);
    } else {
      lo = a, a = b, ea = eb;
      b = lo + g * (hi - lo), eb = err(b);
    }
  }
  return (lo + hi) / 2;
}

TuneResult tune(const TuneDataset& data, const EvalParams& start, const TuneOptions& options,
                const std::function<void(int, double)>& on_epoch) {
  const int threads = std::max(1, options.threads);
  TuneResult out;
  out.k = options.k ? *options.k : fit_k(data, start, threads);
  Weights w = to_weights(start);
  out.initial_error = weights_error(data, w, out.k, threads);

  const std::size_t n_weights = w.size(), blocks = block_count(data.size());
  std::vector<double> block_grad(blocks * n_weights), block_err(blocks);
  Weights grad(n_weights), m(n_weights, 0.0), v(n_weights, 0.0);
  constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;
  double beta1_t = 1, beta2_t = 1;
  const double n = static_cast<double>(data.size());

  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    // Gradient of the mean squared error (and the error itself) at the current weights.
    std::fill(block_grad.begin(), block_grad.end(), 0.0);
    for_blocks(data.size(), threads, [&](std::size_t b, std::size_t lo, std::size_t hi) {
      double* g = block_grad.data() + b * n_weights;
      double err = 0, f_mg, f_eg;
      for (std::size_t i = lo; i < hi; ++i) {
        const double s = sigmoid(out.k, position_eval(data, i, w.data(), f_mg, f_eg));
        const double diff = s - data.result(i);
        err += diff * diff;
        const double d = 2 * diff * s * (1 - s) * out.k / 400.0;
        for (const auto* t = data.begin(i); t != data.end(i); ++t) {
          g[2 * t->index] += d * t->coeff * f_mg;
          g[2 * t->index + 1] += d * t->coeff * f_eg;
        }
      }
      block_err[b] = err;
    });
    std::fill(grad.begin(), grad.end(), 0.0);
    double err = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
      err += block_err[b];
      const double* g = block_grad.data() + b * n_weights;
      for (std::size_t j = 0; j < n_weights; ++j) grad[j] += g[j];
    }
    // Adam step.
    beta1_t *= kBeta1;
    beta2_t *= kBeta2;
    for (std::size_t j = 0; j < n_weights; ++j) {
      const double gj = grad[j] / n;
      m[j] = kBeta1 * m[j] + (1 - kBeta1) * gj;
      v[j] = kBeta2 * v[j] + (1 - kBeta2) * gj * gj;
      const double m_hat = m[j] / (1 - beta1_t), v_hat = v[j] / (1 - beta2_t);
      w[j] -= options.learning_rate * m_hat / (std::sqrt(v_hat) + kEps);
    }
    if (on_epoch) on_epoch(epoch, err / n);  // the error before this epoch's step
  }
  out.params = to_params(w);
  out.final_error = tune_error(data, out.params, out.k, threads);
  return out;
}

}  // namespace kibitz::chess
