#include "games/chess/nnue_train.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include "core/rng.hpp"

namespace kibitz::chess::nnue {

namespace {

// Gradients are summed in this many fixed blocks of each batch, so the thread count does not
// change the sums' order.
constexpr int kBlocks = 8;

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// The forward pass of one sample: fills the accumulators (before clipping), returns the output.
float forward(const FloatNetwork& n, const TrainSample& s, float* own, float* their) {
  std::copy(n.b1.begin(), n.b1.end(), own);
  std::copy(n.b1.begin(), n.b1.end(), their);
  for (int k = 0; k < s.count; ++k) {
    const float* wo = n.w1.data() + static_cast<std::size_t>(s.own[k]) * kHidden;
    const float* wt = n.w1.data() + static_cast<std::size_t>(s.their[k]) * kHidden;
    for (int i = 0; i < kHidden; ++i) {
      own[i] += wo[i];
      their[i] += wt[i];
    }
  }
  const float* w = n.w2.data() + static_cast<std::size_t>(s.bucket) * 2 * kHidden;
  float out = n.b2[s.bucket];
  for (int i = 0; i < kHidden; ++i)
    out += activate(own[i]) * w[i] + activate(their[i]) * w[kHidden + i];
  return out;
}

float target(const TrainSample& s, const TrainOptions& o) {
  const auto k = static_cast<float>(o.score_k);
  return static_cast<float>(o.wdl) * s.result +
         (1.0f - static_cast<float>(o.wdl)) * sigmoid(k * s.score / 400.0f);
}

struct Grads {
  std::vector<float> w1 = std::vector<float>(kInputs * kHidden);
  std::vector<float> b1 = std::vector<float>(kHidden);
  std::vector<float> w2 = std::vector<float>(kOutputBuckets * 2 * kHidden);
  std::vector<float> b2 = std::vector<float>(kOutputBuckets);
  double loss = 0;
  void clear() {
    std::fill(w1.begin(), w1.end(), 0.0f);
    std::fill(b1.begin(), b1.end(), 0.0f);
    std::fill(w2.begin(), w2.end(), 0.0f);
    std::fill(b2.begin(), b2.end(), 0.0f);
    loss = 0;
  }
};

// The sample with the board reflected left to right (files a-h swapped): the inputs carry no
// castling rights, so the position's value is nearly the same, and the reflection doubles the
// positions the network learns from.
TrainSample mirrored(const TrainSample& s) {
  TrainSample m = s;
  for (int k = 0; k < s.count; ++k) {
    m.own[k] = static_cast<std::uint16_t>(s.own[k] ^ 7);
    m.their[k] = static_cast<std::uint16_t>(s.their[k] ^ 7);
  }
  return m;
}

void accumulate(const FloatNetwork& n, const TrainSample& s, const TrainOptions& o, Grads& g) {
  std::array<float, kHidden> own, their;
  const float out = forward(n, s, own.data(), their.data());
  const auto k = static_cast<float>(o.score_k);
  const float p = sigmoid(k * out), t = target(s, o);
  g.loss += static_cast<double>((p - t) * (p - t));
  const float d = 2.0f * (p - t) * p * (1.0f - p) * k;
  const std::size_t at = static_cast<std::size_t>(s.bucket) * 2 * kHidden;
  const float* w2 = n.w2.data() + at;
  float* gw2 = g.w2.data() + at;
  g.b2[s.bucket] += d;
  std::array<float, kHidden> d_own, d_their;
  for (int i = 0; i < kHidden; ++i) {
    gw2[i] += d * activate(own[i]);
    gw2[kHidden + i] += d * activate(their[i]);
    d_own[i] = own[i] > 0.0f && own[i] < 1.0f ? 2.0f * own[i] * d * w2[i] : 0.0f;
    d_their[i] = their[i] > 0.0f && their[i] < 1.0f ? 2.0f * their[i] * d * w2[kHidden + i] : 0.0f;
    g.b1[i] += d_own[i] + d_their[i];
  }
  for (int j = 0; j < s.count; ++j) {
    float* wo = g.w1.data() + static_cast<std::size_t>(s.own[j]) * kHidden;
    float* wt = g.w1.data() + static_cast<std::size_t>(s.their[j]) * kHidden;
    for (int i = 0; i < kHidden; ++i) {
      wo[i] += d_own[i];
      wt[i] += d_their[i];
    }
  }
}

struct Adam {
  std::vector<float> m, v;
  explicit Adam(std::size_t n) : m(n), v(n) {}
  void step(float* w, const float* g, std::size_t n, float lr, float scale, float c1, float c2) {
    for (std::size_t i = 0; i < n; ++i) {
      const float gi = g[i] * scale;
      m[i] = 0.9f * m[i] + 0.1f * gi;
      v[i] = 0.999f * v[i] + 0.001f * gi * gi;
      w[i] -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + 1e-8f);
      w[i] = std::clamp(w[i], -kWeightClip, kWeightClip);
    }
  }
};

}  // namespace

Result<TrainSample> make_sample(const TrainingRecord& r) {
  const auto t = unpack_training_record(r);
  if (!t) return tl::unexpected(t.error());
  TrainSample s;
  const Color us = t->side_to_move;
  for (Square sq = 0; sq < 64; ++sq) {
    const Piece p = t->board[sq];
    if (p == kNoPiece) continue;
    s.own[s.count] = static_cast<std::uint16_t>(feature(us, p, sq));
    s.their[s.count] = static_cast<std::uint16_t>(feature(~us, p, sq));
    ++s.count;
  }
  s.bucket = static_cast<std::uint8_t>(output_bucket(s.count));
  const int sign = us == kWhite ? 1 : -1;
  s.score = static_cast<float>(sign * t->score);
  s.result = static_cast<float>(sign * t->result + 1) / 2.0f;
  return s;
}

Result<TrainData> load_train_data(const std::vector<std::string>& files, double validation,
                                  std::uint64_t seed, std::size_t max_positions,
                                  const std::vector<std::string>& held_out) {
  TrainData d;
  const auto limit = static_cast<std::uint64_t>(validation * 1e6);
  // held: every game of the file is validation (and max_positions does not apply).
  const auto read = [&](const std::string& f, bool held) -> Result<void> {
    std::size_t last_chunk = SIZE_MAX;
    bool in_validation = false;
    const auto stats = read_training_file(f, [&](const TrainingRecord& r, std::size_t chunk) {
      if (!held && max_positions && d.train.size() + d.validation.size() >= max_positions) return;
      if (chunk != last_chunk) {
        std::uint64_t h = seed ^ (d.games * 0x9E3779B97F4A7C15ull);
        in_validation = held || splitmix64(h) % 1000000 < limit;
        ++d.games;
        last_chunk = chunk;
      }
      auto s = make_sample(r);
      if (!s) {
        ++d.skipped;
        return;
      }
      (in_validation ? d.validation : d.train).push_back(*s);
      if (in_validation) d.validation_records.push_back(r);
    });
    if (!stats) return tl::unexpected(stats.error());
    return {};
  };
  for (const std::string& f : files)
    if (auto r = read(f, false); !r) return tl::unexpected(r.error());
  for (const std::string& f : held_out)
    if (auto r = read(f, true); !r) return tl::unexpected(r.error());
  if (d.train.empty()) return fail("no training positions in the data");
  return d;
}

double network_loss(const FloatNetwork& net, const std::vector<TrainSample>& samples,
                    const TrainOptions& o) {
  if (samples.empty()) return 0;
  double sum = 0;
  std::array<float, kHidden> own, their;
  const auto k = static_cast<float>(o.score_k);
  for (const TrainSample& s : samples) {
    const float p = sigmoid(k * forward(net, s, own.data(), their.data())), t = target(s, o);
    sum += static_cast<double>((p - t) * (p - t));
  }
  return sum / static_cast<double>(samples.size());
}

FloatNetwork train_network(const TrainData& data, const TrainOptions& o, const EpochFn& on_epoch,
                           const std::function<void(std::uint64_t)>& on_batch) {
  Rng rng(o.seed);
  FloatNetwork net;
  if (o.init) {
    net = *o.init;
  } else {
    const auto uniform = [&](float a) { return static_cast<float>((rng.uniform01() * 2 - 1) * a); };
    for (float& w : net.w1) w = uniform(0.1f);
    for (float& w : net.b1) w = 0.1f;
    for (float& w : net.w2) w = uniform(1.0f / std::sqrt(2.0f * kHidden));
    std::fill(net.b2.begin(), net.b2.end(), 0.0f);
  }

  Adam a_w1(net.w1.size()), a_b1(net.b1.size()), a_w2(net.w2.size()), a_b2(net.b2.size());
  std::vector<Grads> grads(kBlocks);
  std::vector<std::uint32_t> order(data.train.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  const int threads = std::clamp(o.threads, 1, kBlocks);
  std::uint64_t step = 0, batches = 0;
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    // The last quarter of the epochs at a tenth of the rate.
    const auto lr = static_cast<float>(
        epoch > (3 * o.epochs + 3) / 4 && o.epochs >= 4 ? o.learning_rate * 0.1 : o.learning_rate);
    double loss_sum = 0;
    for (std::size_t start = 0; start < order.size(); start += static_cast<std::size_t>(o.batch)) {
      const std::size_t end = std::min(order.size(), start + static_cast<std::size_t>(o.batch));
      const std::size_t per = (end - start + kBlocks - 1) / kBlocks;
      const auto run_block = [&](int b) {
        Grads& g = grads[static_cast<std::size_t>(b)];
        g.clear();
        const std::size_t lo = std::min(end, start + per * static_cast<std::size_t>(b));
        const std::size_t hi = std::min(end, lo + per);
        for (std::size_t i = lo; i < hi; ++i) {
          const TrainSample& s = data.train[order[i]];
          // Half the draws reflected, chosen by the seed, the epoch and the position.
          std::uint64_t h = o.seed ^ (static_cast<std::uint64_t>(epoch) << 40) ^ order[i];
          if (o.mirror && (splitmix64(h) & 1))
            accumulate(net, mirrored(s), o, g);
          else
            accumulate(net, s, o, g);
        }
      };
      if (threads == 1) {
        for (int b = 0; b < kBlocks; ++b) run_block(b);
      } else {
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
          pool.emplace_back([&, t] {
            for (int b = t; b < kBlocks; b += threads) run_block(b);
          });
        for (auto& th : pool) th.join();
      }
      Grads& g = grads[0];
      for (int b = 1; b < kBlocks; ++b) {
        const Grads& h = grads[static_cast<std::size_t>(b)];
        for (std::size_t i = 0; i < g.w1.size(); ++i) g.w1[i] += h.w1[i];
        for (int i = 0; i < kHidden; ++i) g.b1[i] += h.b1[i];
        for (std::size_t i = 0; i < g.w2.size(); ++i) g.w2[i] += h.w2[i];
        for (std::size_t i = 0; i < g.b2.size(); ++i) g.b2[i] += h.b2[i];
        g.loss += h.loss;
      }
      loss_sum += g.loss;
      ++step;
      const float scale = 1.0f / static_cast<float>(end - start);
      const auto c1 = static_cast<float>(1 - std::pow(0.9, static_cast<double>(step)));
      const auto c2 = static_cast<float>(1 - std::pow(0.999, static_cast<double>(step)));
      a_w1.step(net.w1.data(), g.w1.data(), g.w1.size(), lr, scale, c1, c2);
      a_b1.step(net.b1.data(), g.b1.data(), g.b1.size(), lr, scale, c1, c2);
      a_w2.step(net.w2.data(), g.w2.data(), g.w2.size(), lr, scale, c1, c2);
      a_b2.step(net.b2.data(), g.b2.data(), g.b2.size(), lr, scale, c1, c2);
      if (on_batch) on_batch(++batches);
    }
    if (on_epoch)
      on_epoch(epoch, loss_sum / static_cast<double>(order.size()),
               network_loss(net, data.validation, o));
  }
  return net;
}

}  // namespace kibitz::chess::nnue
