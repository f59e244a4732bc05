// The hnswlib ANN index (ann_index.hpp).
//
// hnswlib's loader trusts its file: a truncated or corrupted index would make it read or
// allocate out of bounds. So every file is checked here first, structurally (sizes, every
// neighbour id in range and on a level its node has, unique labels), before hnswlib sees it;
// anything that fails is rebuilt from the database instead. "Add or replace" uses hnswlib's
// own update: addPoint with a label already present overwrites that vector and relinks it,
// so the index never holds deleted slots.
//
// Only this file may include hnswlib: hnswlib.h defines a non-inline function (AVXCapable)
// that would be defined twice if two translation units included it.
#include "store/ann/ann_index.hpp"

#include <fcntl.h>
#include <hnswlib/hnswlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unordered_set>

namespace kibitz::store {

namespace {

constexpr int kAnnMaxBoard = 25;

// In memory only: an in-memory SQLite store, and a server database (postgresql://...), whose
// index every process rebuilds from the database when it opens it.
bool ann_is_memory_path(const std::string& path) {
  return path.empty() || path == ":memory:" || path.find("://") != std::string::npos;
}

// hnswlib 0.6's file layout: a fixed header, then count fixed-size level-0 records (links,
// vector, label), then per element a uint32 byte count and its upper-level link lists.
constexpr std::size_t kAnnHeaderBytes = 6 * 8 + 4 + 4 + 3 * 8 + 8 + 8;

struct AnnFileInfo {
  std::size_t count = 0;    // elements in the file
  std::size_t deleted = 0;  // of which marked deleted
};

template <class T>
T ann_read_pod(const std::string& bytes, std::size_t offset) {
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof(T));
  return v;
}

Result<AnnFileInfo> ann_validate(const std::string& bytes, std::size_t dim) {
  if (bytes.size() < kAnnHeaderBytes) return fail("{} bytes: shorter than a header", bytes.size());
  std::size_t at = 0;
  auto next_size = [&] {
    const auto v = ann_read_pod<std::size_t>(bytes, at);
    at += 8;
    return v;
  };
  const std::size_t offset_level0 = next_size();
  next_size();  // max_elements: ours replaces it on load
  const std::size_t count = next_size();
  const std::size_t per_element = next_size();
  const std::size_t label_offset = next_size();
  const std::size_t offset_data = next_size();
  const auto max_level = ann_read_pod<int>(bytes, at);
  const auto enter_point = ann_read_pod<std::uint32_t>(bytes, at + 4);
  at += 8;
  const std::size_t max_m = next_size();
  const std::size_t max_m0 = next_size();
  const std::size_t m = next_size();
  const auto mult = ann_read_pod<double>(bytes, at);
  at += 8;
  const std::size_t ef_construction = next_size();

  const std::size_t links0 = max_m0 * 4 + 4;
  const std::size_t data_bytes = dim * sizeof(float);
  if (offset_level0 != 0 || m < 2 || m > 10000 || max_m != m || max_m0 != 2 * m ||
      offset_data != links0 || label_offset != links0 + data_bytes ||
      per_element != links0 + data_bytes + sizeof(hnswlib::labeltype) || ef_construction < m ||
      ef_construction > 1000000 || !(std::abs(mult * std::log(double(m)) - 1) < 1e-9))
    return fail("header does not describe a {}-dimensional index", dim);
  if (count > (bytes.size() - kAnnHeaderBytes) / per_element)
    return fail("{} elements do not fit in {} bytes", count, bytes.size());
  AnnFileInfo info;
  info.count = count;
  if (count == 0) return info;
  if (max_level < 0 || max_level > 64 || enter_point >= count)
    return fail("entry point {} at level {} out of range", enter_point, max_level);

  // Upper-level link lists: sizes first, so levels are known before links are checked.
  const std::size_t links_upper = max_m * 4 + 4;
  std::vector<int> levels(count);
  std::vector<std::size_t> upper_at(count);
  std::size_t pos = kAnnHeaderBytes + count * per_element;
  int highest = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (bytes.size() - pos < 4) return fail("truncated at element {}", i);
    const auto list_bytes = ann_read_pod<std::uint32_t>(bytes, pos);
    pos += 4;
    if (list_bytes % links_upper != 0 || list_bytes / links_upper > std::size_t(max_level) ||
        bytes.size() - pos < list_bytes)
      return fail("element {}: bad link list of {} bytes", i, list_bytes);
    levels[i] = static_cast<int>(list_bytes / links_upper);
    highest = std::max(highest, levels[i]);
    upper_at[i] = pos;
    pos += list_bytes;
  }
  if (pos != bytes.size()) return fail("{} bytes after the last element", bytes.size() - pos);
  if (highest != max_level || levels[enter_point] != max_level)
    return fail("entry point is not on the top level {}", max_level);

  auto check_list = [&](std::size_t list_at, std::size_t cap, int level) -> bool {
    const auto n = ann_read_pod<std::uint16_t>(bytes, list_at);  // hnswlib's getListCount
    if (n > cap) return false;
    for (std::size_t j = 0; j < n; ++j) {
      const auto id = ann_read_pod<std::uint32_t>(bytes, list_at + 4 + 4 * j);
      if (id >= count || levels[id] < level) return false;
    }
    return true;
  };
  std::unordered_set<hnswlib::labeltype> labels;
  labels.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t rec = kAnnHeaderBytes + i * per_element;
    if (!check_list(rec, max_m0, 0)) return fail("element {}: bad level-0 links", i);
    if ((static_cast<unsigned char>(bytes[rec + 2]) & 0x01) != 0) ++info.deleted;
    for (int l = 1; l <= levels[i]; ++l)
      if (!check_list(upper_at[i] + std::size_t(l - 1) * links_upper, max_m, l))
        return fail("element {}: bad level-{} links", i, l);
    for (std::size_t d = 0; d < dim; ++d)
      if (!std::isfinite(ann_read_pod<float>(bytes, rec + offset_data + d * 4)))
        return fail("element {}: non-finite vector", i);
    const auto label = ann_read_pod<hnswlib::labeltype>(bytes, rec + label_offset);
    if (label == 0 || label > hnswlib::labeltype(INT64_MAX) || !labels.insert(label).second)
      return fail("element {}: bad or repeated label {}", i, label);
  }
  return info;
}

// Reads a whole file through an open descriptor (kept open: see ann_load).
Result<std::string> ann_read_fd(int fd) {
  std::string bytes;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) return fail("read failed: {}", std::strerror(errno));
    if (n == 0) break;
    bytes.append(buf, static_cast<std::size_t>(n));
  }
  return bytes;
}

std::vector<float> ann_one_hot(std::size_t dim, int move) {
  std::vector<float> v(dim, 0.0f);
  if (move >= 0 && static_cast<std::size_t>(move) < dim)
    v[static_cast<std::size_t>(move)] = 1.0f;
  else
    v.assign(dim, 1.0f / static_cast<float>(dim));
  return v;
}

}  // namespace

std::vector<float> policy_embedding(std::span<const float> policy) {
  // Negative or non-finite entries count as 0; an all-zero policy embeds as the zero vector.
  double sum = 0;
  for (const float p : policy)
    if (std::isfinite(p) && p > 0) sum += p;
  std::vector<float> out(policy.size(), 0.0f);
  if (!(sum > 0)) return out;
  for (std::size_t i = 0; i < policy.size(); ++i)
    if (std::isfinite(policy[i]) && policy[i] > 0)
      out[i] = static_cast<float>(std::sqrt(policy[i] / sum));
  return out;
}

struct AnnIndex::Impl {
  explicit Impl(std::size_t dim) : space(dim) {}
  hnswlib::L2Space space;  // outlives `index`, which points into it
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> index;
  AnnOptions options;
  mutable std::mutex mu;
  // Catch-up watermarks (position ids): the largest seen, and the largest seen before the
  // last catch-up, from which the next one reads again.
  std::int64_t seen = 0, seen_before = 0;

  void create(std::size_t capacity) {
    index = std::make_unique<hnswlib::HierarchicalNSW<float>>(
        &space, std::max<std::size_t>(capacity, 1), static_cast<std::size_t>(options.m),
        static_cast<std::size_t>(options.ef_construction));
  }

  // Under `mu`. Grows by doubling, so an add never hits hnswlib's capacity error.
  void add_locked(hnswlib::labeltype label, const std::vector<float>& embedding) {
    if (index->label_lookup_.count(label) == 0 && index->cur_element_count >= index->max_elements_)
      index->resizeIndex(std::max<std::size_t>(index->max_elements_ * 2, 1));
    index->addPoint(embedding.data(), label);
    seen = std::max(seen, static_cast<std::int64_t>(label));
  }

  // Loads a checked file; an error means "rebuild instead".
  Result<void> load(const std::string& file, std::size_t dim) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail("{}: {}", file, std::strerror(errno));
    struct FdCloser {
      int fd;
      ~FdCloser() { ::close(fd); }
    } closer{fd};
    auto bytes = ann_read_fd(fd);
    if (!bytes) return tl::unexpected(bytes.error());
    auto info = ann_validate(*bytes, dim);
    if (!info) return with_context(info.error(), file);
    const std::size_t capacity = std::max(options.initial_capacity, info->count);
    if (info->count == 0) {
      create(capacity);
      return {};
    }
    // hnswlib opens by name: give it the inode already checked (the name may have been
    // renamed over since), falling back to the name without /proc.
    std::string via = "/proc/self/fd/" + std::to_string(fd);
    if (::access(via.c_str(), R_OK) != 0) via = file;
    index = std::make_unique<hnswlib::HierarchicalNSW<float>>(&space, via, false, capacity);
    // hnswlib's loading constructor leaves the deleted counter uninitialised before counting.
    index->num_deleted_ = info->deleted;
    if (index->cur_element_count != info->count) return fail("{}: changed while loading", file);
    return {};
  }
};

namespace {

// A stored position's embedding: its newest context with a policy; without any, the newest
// move as a one-hot policy (uniform when that is no move).
std::vector<float> ann_position_embedding(const StoredPosition& pos, std::size_t dim) {
  const PositionContext* with_policy = nullptr;
  for (auto it = pos.contexts.rbegin(); it != pos.contexts.rend() && !with_policy; ++it)
    if (it->policy.size() == dim) with_policy = &*it;
  return with_policy ? policy_embedding(with_policy->policy)
                     : policy_embedding(
                           ann_one_hot(dim, pos.contexts.empty() ? -1 : pos.contexts.back().move));
}

}  // namespace

AnnIndex::~AnnIndex() = default;

std::string AnnIndex::file_for(const std::string& db_path, int board_size) {
  if (ann_is_memory_path(db_path)) return {};
  return fmt::format("{}.{}x{}.ann", db_path, board_size, board_size);
}

Result<std::size_t> AnnIndex::file_count(const std::string& file, int board_size) {
  if (board_size < 2 || board_size > kAnnMaxBoard)
    return fail("board size {} out of range (2 to {})", board_size, kAnnMaxBoard);
  std::ifstream in(file, std::ios::binary);
  if (!in) return fail("{}: cannot open", file);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    auto info = ann_validate(bytes, static_cast<std::size_t>(board_size * board_size + 1));
    if (!info) return with_context(info.error(), file);
    return info->count - info->deleted;
  } catch (const std::exception& e) {
    return fail("{}: {}", file, e.what());
  }
}

Result<std::unique_ptr<AnnIndex>> AnnIndex::open(PositionStore& store, int board_size,
                                                 const AnnOptions& options) {
  if (board_size < 2 || board_size > kAnnMaxBoard)
    return fail("ANN index: board size {} out of range (2 to {})", board_size, kAnnMaxBoard);
  if (options.m < 2 || options.m > 1000 || options.ef_construction < 1 || options.ef_search < 1)
    return fail("ANN index: m {} (2 to 1000), ef_construction {} and ef_search {} (at least 1)",
                options.m, options.ef_construction, options.ef_search);
  std::unique_ptr<AnnIndex> ann(new AnnIndex());
  ann->size_ = board_size;
  ann->dim_ = static_cast<std::size_t>(board_size * board_size + 1);
  ann->file_ = file_for(store.path(), board_size);
  ann->impl_ = std::make_unique<Impl>(ann->dim_);
  Impl& impl = *ann->impl_;
  impl.options = options;
  impl.options.initial_capacity = std::max<std::size_t>(options.initial_capacity, 1);

  auto stats = store.stats();
  if (!stats) return tl::unexpected(stats.error());
  std::size_t expected = 0;
  for (const auto& [size, n] : stats->positions_by_size)
    if (size == board_size) expected = static_cast<std::size_t>(n);

  try {
    if (!ann->file_.empty() && std::filesystem::exists(ann->file_)) {
      auto loaded = impl.load(ann->file_, ann->dim_);
      if (loaded && impl.index->cur_element_count - impl.index->num_deleted_ == expected) {
        impl.index->setEf(static_cast<std::size_t>(options.ef_search));
        for (const auto& [label, internal] : impl.index->label_lookup_)
          impl.seen = std::max(impl.seen, static_cast<std::int64_t>(label));
        impl.seen_before = impl.seen;
        return ann;
      }
    }
  } catch (const std::exception&) {
    // hnswlib refused the file after all (or ran out of memory): rebuild below.
  }

  try {
    impl.create(std::max(impl.options.initial_capacity, expected));
    impl.index->setEf(static_cast<std::size_t>(options.ef_search));
    const std::size_t dim = ann->dim_;
    std::int64_t last = 0;
    auto walked = store.for_each([&](const StoredPosition& pos) {
      last = std::max(last, pos.id);
      if (pos.key.board_size != board_size || pos.id <= 0) return true;
      impl.add_locked(static_cast<hnswlib::labeltype>(pos.id), ann_position_embedding(pos, dim));
      return true;
    });
    if (!walked) return tl::unexpected(walked.error());
    impl.seen = std::max(impl.seen, last);
    impl.seen_before = impl.seen;
  } catch (const std::exception& e) {
    return fail("ANN index {}x{}: rebuilding: {}", board_size, board_size, e.what());
  }
  ann->rebuilt_ = true;
  return ann;
}

Result<std::size_t> AnnIndex::catch_up(PositionStore& store) {
  std::int64_t from = 0;
  {
    std::lock_guard lock(impl_->mu);
    from = impl_->seen_before;
  }
  std::size_t added = 0;
  std::int64_t last = from;
  try {
    auto walked = store.for_each_after(from, [&](const StoredPosition& pos) {
      last = std::max(last, pos.id);
      if (pos.key.board_size != size_) return true;
      const std::vector<float> emb = ann_position_embedding(pos, dim_);
      std::lock_guard lock(impl_->mu);
      if (impl_->index->label_lookup_.count(static_cast<hnswlib::labeltype>(pos.id)) == 0) {
        impl_->add_locked(static_cast<hnswlib::labeltype>(pos.id), emb);
        ++added;
      }
      return true;
    });
    if (!walked) return tl::unexpected(walked.error());
  } catch (const std::exception& e) {
    return fail("ANN index {}x{}: catching up: {}", size_, size_, e.what());
  }
  std::lock_guard lock(impl_->mu);
  impl_->seen_before = impl_->seen;
  impl_->seen = std::max(impl_->seen, last);
  return added;
}

std::size_t AnnIndex::count() const {
  std::lock_guard lock(impl_->mu);
  return impl_->index->cur_element_count - impl_->index->num_deleted_;
}

Result<void> AnnIndex::add(std::int64_t position_id, std::span<const float> policy) {
  if (policy.size() != dim_)
    return fail("ANN index {}x{}: policy has {} values, expected {}", size_, size_, policy.size(),
                dim_);
  if (position_id <= 0) return fail("ANN index: position id {} must be positive", position_id);
  const std::vector<float> emb = policy_embedding(policy);
  std::lock_guard lock(impl_->mu);
  try {
    impl_->add_locked(static_cast<hnswlib::labeltype>(position_id), emb);
  } catch (const std::exception& e) {
    return fail("ANN index {}x{}: {}", size_, size_, e.what());
  }
  return {};
}

Result<std::vector<AnnNeighbour>> AnnIndex::nearest(std::span<const float> policy, int k) const {
  if (policy.size() != dim_)
    return fail("ANN index {}x{}: query has {} values, expected {}", size_, size_, policy.size(),
                dim_);
  std::vector<AnnNeighbour> out;
  if (k <= 0) return out;
  const std::vector<float> emb = policy_embedding(policy);
  std::lock_guard lock(impl_->mu);
  try {
    auto& index = *impl_->index;
    index.setEf(static_cast<std::size_t>(std::max(impl_->options.ef_search, k)));
    auto heap = index.searchKnn(emb.data(), static_cast<std::size_t>(k));
    out.resize(heap.size());
    // The heap pops farthest first.
    for (std::size_t i = out.size(); i-- > 0; heap.pop()) {
      const auto& [d2, label] = heap.top();
      out[i] = {static_cast<std::int64_t>(label), std::sqrt(std::max(0.0f, d2))};
    }
  } catch (const std::exception& e) {
    return fail("ANN index {}x{}: {}", size_, size_, e.what());
  }
  return out;
}

Result<void> AnnIndex::save() const {
  if (file_.empty()) return {};  // an in-memory store's index lives in memory only
  const std::string tmp = fmt::format("{}.tmp.{}", file_, ::getpid());
  std::lock_guard lock(impl_->mu);
  try {
    impl_->index->saveIndex(tmp);
    // hnswlib does not check its writes: read the file back before it replaces the old one.
    std::ifstream in(tmp, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read back " + tmp);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto info = ann_validate(bytes, dim_);
    if (!info) throw std::runtime_error("written file is incomplete: " + info.error().message);
    std::filesystem::rename(tmp, file_);
  } catch (const std::exception& e) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    return fail("{}: cannot save: {}", file_, e.what());
  }
  return {};
}

}  // namespace kibitz::store
