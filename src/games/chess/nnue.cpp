#include "games/chess/nnue.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/bytes.hpp"

namespace kibitz::chess::nnue {

namespace {

constexpr char kMagic[8] = {'K', 'B', 'Z', 'N', 'N', 'U', 'E', '1'};
constexpr std::uint32_t kVersion = 3;  // 2: squared clipped ReLU; 3: output buckets
constexpr std::size_t kMaxProvenance = 1 << 16;

// Reads little-endian fields, remembering whether the input ran out.
struct Reader {
  std::span<const std::uint8_t> bytes;
  std::size_t pos = 0;
  bool short_read = false;
  std::uint64_t get(int n) {
    if (pos + static_cast<std::size_t>(n) > bytes.size()) {
      short_read = true;
      pos = bytes.size();
      return 0;
    }
    const std::uint64_t v = get_le(bytes.data() + pos, n);
    pos += static_cast<std::size_t>(n);
    return v;
  }
};

std::int16_t quant(float x, int scale) {
  return static_cast<std::int16_t>(std::lround(std::clamp(x, -kWeightClip, kWeightClip) * scale));
}

}  // namespace

int active_features(const Position& pos, Color view, std::array<int, 32>& out) {
  int n = 0;
  for (Bitboard b = pos.pieces(); b && n < 32;) {
    const Square s = pop_lsb(b);
    out[n++] = feature(view, pos.piece_on(s), s);
  }
  return n;
}

float FloatNetwork::forward(const Position& pos) const {
  std::array<int, 32> f{};
  const int bucket = output_bucket(pos);
  const float* w = w2.data() + static_cast<std::size_t>(bucket) * 2 * kHidden;
  float out = b2[static_cast<std::size_t>(bucket)];
  const Color views[2] = {pos.side_to_move(), ~pos.side_to_move()};
  for (int half = 0; half < 2; ++half) {
    const int n = active_features(pos, views[half], f);
    for (int i = 0; i < kHidden; ++i) {
      float a = b1[i];
      for (int k = 0; k < n; ++k) a += w1[static_cast<std::size_t>(f[k]) * kHidden + i];
      out += activate(a) * w[half * kHidden + i];
    }
  }
  return out;
}

Network Network::quantise(const FloatNetwork& f, std::string provenance) {
  Network n;
  for (std::size_t i = 0; i < n.w1_.size(); ++i) n.w1_[i] = quant(f.w1[i], kQA);
  for (int i = 0; i < kHidden; ++i) n.b1_[i] = quant(f.b1[i], kQA);
  for (std::size_t i = 0; i < n.w2_.size(); ++i) n.w2_[i] = quant(f.w2[i], kQB);
  for (std::size_t b = 0; b < n.b2_.size(); ++b)
    n.b2_[b] = static_cast<std::int32_t>(std::lround(static_cast<double>(f.b2[b]) * kQA * kQB));
  n.provenance_ = std::move(provenance);
  return n;
}

FloatNetwork Network::dequantise() const {
  FloatNetwork f;
  const auto scale = [](auto q, double by) { return static_cast<float>(q / by); };
  for (std::size_t i = 0; i < w1_.size(); ++i) f.w1[i] = scale(w1_[i], kQA);
  for (int i = 0; i < kHidden; ++i) f.b1[i] = scale(b1_[i], kQA);
  for (std::size_t i = 0; i < w2_.size(); ++i) f.w2[i] = scale(w2_[i], kQB);
  for (std::size_t b = 0; b < b2_.size(); ++b) f.b2[b] = scale(b2_[b], double{kQA} * kQB);
  return f;
}

std::vector<std::uint8_t> Network::serialise() const {
  std::vector<std::uint8_t> out(std::begin(kMagic), std::end(kMagic));
  for (const std::uint32_t v :
       {kVersion, std::uint32_t{kInputs}, std::uint32_t{kHidden}, std::uint32_t{kOutputBuckets},
        std::uint32_t{kQA}, std::uint32_t{kQB}, std::uint32_t{kOutputScale}})
    append_le(out, v, 4);
  append_le(out, provenance_.size(), 4);
  out.insert(out.end(), provenance_.begin(), provenance_.end());
  for (const auto* v : {&w1_, &b1_, &w2_})
    for (const std::int16_t x : *v) append_le(out, static_cast<std::uint16_t>(x), 2);
  for (const std::int32_t b : b2_) append_le(out, static_cast<std::uint32_t>(b), 4);
  append_le(out, fnv1a64(out.data(), out.size()), 8);
  return out;
}

Result<Network> Network::parse(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0)
    return fail("not a Kibitz network file (no KBZNNUE1)");
  Reader r{bytes, 8};
  const std::uint32_t expected[7] = {kVersion, kInputs, kHidden,     kOutputBuckets,
                                     kQA,      kQB,     kOutputScale};
  constexpr const char* kNames[7] = {"version", "inputs", "hidden size", "output buckets",
                                     "QA",      "QB",     "scale"};
  // Version first: an older file is named as such, whatever its shape.
  for (int i = 0; i < 7; ++i) {
    const auto v = static_cast<std::uint32_t>(r.get(4));
    if (r.short_read) return fail("network file cut short in its header");
    if (v != expected[i])
      return fail("network file has {} {} (this build runs {})", kNames[i], v, expected[i]);
  }
  const auto len = static_cast<std::size_t>(r.get(4));
  if (r.short_read || len > kMaxProvenance || r.pos + len > bytes.size())
    return fail("network file cut short in its provenance text");
  const std::size_t body =
      r.pos + len +
      (std::size_t{kInputs} * kHidden + kHidden + std::size_t{kOutputBuckets} * 2 * kHidden) * 2 +
      std::size_t{kOutputBuckets} * 4;
  if (bytes.size() < body + 8)
    return fail("network file cut short: {} bytes, {} expected", bytes.size(), body + 8);
  if (bytes.size() > body + 8)
    return fail("network file has {} bytes after its checksum", bytes.size() - body - 8);
  if (get_le(bytes.data() + body, 8) != fnv1a64(bytes.data(), body))
    return fail("network file checksum mismatch");
  Network n;
  n.provenance_.assign(reinterpret_cast<const char*>(bytes.data() + r.pos), len);
  r.pos += len;
  for (auto* v : {&n.w1_, &n.b1_, &n.w2_})
    for (std::int16_t& x : *v) x = static_cast<std::int16_t>(r.get(2));
  for (std::int32_t& b : n.b2_) b = static_cast<std::int32_t>(r.get(4));
  return n;
}

Result<Network> Network::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot read network file '{}'", path);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                        std::istreambuf_iterator<char>()};
  auto n = parse(bytes);
  if (!n) return fail("{}: {}", path, n.error().message);
  return n;
}

std::shared_ptr<const Network> builtin_network() {
  static const std::shared_ptr<const Network> net = []() -> std::shared_ptr<const Network> {
    auto n = Network::parse(builtin_network_bytes());
    return n ? std::make_shared<const Network>(std::move(*n)) : nullptr;
  }();
  return net;
}

Result<std::shared_ptr<const Network>> load_network(const std::string& name) {
  if (name == kBuiltinNetworkName) return builtin_network();
  auto net = Network::load(name);
  if (!net) return tl::unexpected(net.error());
  return std::make_shared<const Network>(std::move(*net));
}

int Network::output(const std::int16_t* own, const std::int16_t* their, int bucket) const {
  // Each term, a clipped activation squared times a weight, fits int32 (255^2 x 4055 < 2^31);
  // their sum, in units of kQA^2 kQB, needs int64.
  const std::int16_t* w = w2_.data() + static_cast<std::size_t>(bucket) * 2 * kHidden;
  std::int64_t sum = 0;
  for (int i = 0; i < kHidden; ++i) {
    const std::int32_t a = std::clamp<std::int32_t>(own[i], 0, kQA);
    const std::int32_t b = std::clamp<std::int32_t>(their[i], 0, kQA);
    sum += a * a * w[i] + b * b * w[kHidden + i];
  }
  const std::int64_t bias = b2_[static_cast<std::size_t>(bucket)];
  return static_cast<int>((sum + bias * kQA) * kOutputScale / (std::int64_t{kQA} * kQA * kQB));
}

void Network::refresh(const Position& pos, Color view, std::int16_t* acc) const {
  std::array<int, 32> f{};
  std::copy(b1_.begin(), b1_.end(), acc);
  const int n = active_features(pos, view, f);
  for (int k = 0; k < n; ++k) {
    const std::int16_t* w = w1_.data() + static_cast<std::size_t>(f[k]) * kHidden;
    for (int i = 0; i < kHidden; ++i) acc[i] = static_cast<std::int16_t>(acc[i] + w[i]);
  }
}

int Network::evaluate(const Position& pos) const {
  std::array<std::array<std::int16_t, kHidden>, 2> acc;
  for (const Color view : {kWhite, kBlack}) refresh(pos, view, acc[view].data());
  const Color us = pos.side_to_move();
  constexpr int kLimit = search::kMateBound - 1;
  const int bucket = output_bucket(pos);
  return std::clamp(output(acc[us].data(), acc[~us].data(), bucket), -kLimit, kLimit);
}

Evaluator::Evaluator(const Network& net)
    : net_(&net), acc_(static_cast<std::size_t>(kStack) * 2 * kHidden) {}

void Evaluator::reset(const Position& pos) {
  top_ = 0;
  fresh_[0] = true;
  for (const Color view : {kWhite, kBlack}) net_->refresh(pos, view, acc(0, view));
}

void Evaluator::make(const Position& before, Move m) {
  const Square from = m.from(), to = m.to();
  const Piece mover = before.piece_on(from);
  Delta& d = delta_[static_cast<std::size_t>(top_ + 1)];
  d.removed[0] = mover;
  d.removed_sq[0] = from;
  d.added[0] = m.is_promotion() ? make_piece(color_of(mover), m.promotion()) : mover;
  d.added_sq[0] = to;
  d.num_removed = d.num_added = 1;
  if (m.is_en_passant()) {
    const Square cap = make_square(file_of(to), rank_of(from));
    d.removed[1] = before.piece_on(cap);
    d.removed_sq[1] = cap;
    d.num_removed = 2;
  } else if (m.is_capture()) {
    d.removed[1] = before.piece_on(to);
    d.removed_sq[1] = to;
    d.num_removed = 2;
  } else if (m.is_castling()) {
    const int rank = rank_of(from);
    const bool king_side = m.flag() == Move::kCastleKing;
    const Square rook_from = make_square(king_side ? 7 : 0, rank);
    d.removed[1] = d.added[1] = before.piece_on(rook_from);
    d.removed_sq[1] = rook_from;
    d.added_sq[1] = make_square(king_side ? 5 : 3, rank);
    d.num_removed = d.num_added = 2;
  }
  ++top_;
  fresh_[static_cast<std::size_t>(top_)] = false;
}

void Evaluator::update(int ply) const {
  const Delta& d = delta_[static_cast<std::size_t>(ply)];
  const auto row = [&](Color view, Piece p, Square s) {
    return net_->w1_.data() + static_cast<std::size_t>(feature(view, p, s)) * kHidden;
  };
  for (const Color view : {kWhite, kBlack}) {
    const std::int16_t* src = acc(ply - 1, view);
    std::int16_t* dst = acc(ply, view);
    const std::int16_t* add = row(view, d.added[0], d.added_sq[0]);
    const std::int16_t* sub = row(view, d.removed[0], d.removed_sq[0]);
    if (d.num_removed == 1) {
      for (int i = 0; i < kHidden; ++i)
        dst[i] = static_cast<std::int16_t>(src[i] + add[i] - sub[i]);
    } else if (d.num_added == 1) {  // a capture
      const std::int16_t* sub2 = row(view, d.removed[1], d.removed_sq[1]);
      for (int i = 0; i < kHidden; ++i)
        dst[i] = static_cast<std::int16_t>(src[i] + add[i] - sub[i] - sub2[i]);
    } else {  // castling
      const std::int16_t* sub2 = row(view, d.removed[1], d.removed_sq[1]);
      const std::int16_t* add2 = row(view, d.added[1], d.added_sq[1]);
      for (int i = 0; i < kHidden; ++i)
        dst[i] = static_cast<std::int16_t>(src[i] + add[i] - sub[i] + add2[i] - sub2[i]);
    }
  }
  fresh_[static_cast<std::size_t>(ply)] = true;
}

int Evaluator::evaluate(const Position& pos) const {
  int from = top_;
  while (!fresh_[static_cast<std::size_t>(from)]) --from;
  for (int ply = from + 1; ply <= top_; ++ply) update(ply);
  const Color us = pos.side_to_move();
  constexpr int kLimit = search::kMateBound - 1;
  const int bucket = output_bucket(pos);
  return std::clamp(net_->output(acc(top_, us), acc(top_, ~us), bucket), -kLimit, kLimit);
}

}  // namespace kibitz::chess::nnue
