#include "games/chess/training_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <utility>

#include "core/bytes.hpp"

namespace kibitz::chess {

namespace {

constexpr char kMagic[8] = {'K', 'B', 'Z', 'T', 'R', 'A', 'I', 'N'};
constexpr char kChunkMagic[4] = {'C', 'H', 'N', 'K'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderSize = 16, kChunkHeaderSize = 16;

void put_u16(std::uint8_t* p, std::uint16_t v) { put_le(p, v, 2); }
void put_u32(std::uint8_t* p, std::uint32_t v) { put_le(p, v, 4); }
void put_u64(std::uint8_t* p, std::uint64_t v) { put_le(p, v, 8); }
std::uint16_t get_u16(const std::uint8_t* p) { return static_cast<std::uint16_t>(get_le(p, 2)); }
std::uint32_t get_u32(const std::uint8_t* p) { return static_cast<std::uint32_t>(get_le(p, 4)); }
std::uint64_t get_u64(const std::uint8_t* p) { return get_le(p, 8); }

std::array<std::uint8_t, kHeaderSize> file_header() {
  std::array<std::uint8_t, kHeaderSize> h{};
  std::memcpy(h.data(), kMagic, 8);
  put_u32(h.data() + 8, kVersion);
  put_u32(h.data() + 12, kTrainingRecordSize);
  return h;
}

// `got` bytes of the header were read (the file may be shorter).
Result<bool> check_header(const std::uint8_t* h, std::size_t got) {
  if (got < 8 || std::memcmp(h, kMagic, 8) != 0)
    return fail("not a Kibitz training file (no KBZTRAIN)");
  if (got < kHeaderSize) return fail("training file header cut short ({} bytes)", got);
  if (get_u32(h + 8) != kVersion)
    return fail("training file version {} (this build reads {})", get_u32(h + 8), kVersion);
  if (get_u32(h + 12) != kTrainingRecordSize)
    return fail("training file records of {} bytes (expected {})", get_u32(h + 12),
                kTrainingRecordSize);
  return true;
}

// The chunks after the header, from any source with read(dst, n) -> bytes read.
template <class Source>
Result<TrainingDataStats> read_chunks(Source& src, const TrainingRecordFn& on_record) {
  TrainingDataStats stats;
  std::array<std::uint8_t, kHeaderSize> header{};
  const std::size_t got = src.read(header.data(), header.size());
  if (got == 0) return fail("empty training file (no header)");
  if (auto ok = check_header(header.data(), got); !ok) return tl::unexpected(ok.error());
  std::uint64_t offset = kHeaderSize;
  std::vector<std::uint8_t> payload;
  for (;;) {
    std::array<std::uint8_t, kChunkHeaderSize> ch{};
    const std::size_t n = src.read(ch.data(), ch.size());
    if (n == 0) break;
    if (n < ch.size()) {
      stats.truncated_tail = true;
      break;
    }
    if (std::memcmp(ch.data(), kChunkMagic, 4) != 0)
      return fail("training file: no chunk marker at byte {}", offset);
    const std::uint32_t count = get_u32(ch.data() + 4);
    if (count == 0 || count > kTrainingChunkMax)
      return fail("training file: chunk at byte {} claims {} records", offset, count);
    payload.resize(static_cast<std::size_t>(count) * kTrainingRecordSize);
    const std::size_t m = src.read(payload.data(), payload.size());
    if (m < payload.size()) {
      stats.truncated_tail = true;
      break;
    }
    if (fnv1a64(payload.data(), payload.size()) != get_u64(ch.data() + 8))
      return fail("training file: checksum mismatch in the chunk at byte {}", offset);
    TrainingRecord r;
    for (std::uint32_t i = 0; i < count; ++i) {
      std::memcpy(r.data(), payload.data() + i * kTrainingRecordSize, kTrainingRecordSize);
      on_record(r, stats.chunks);
    }
    stats.records += count;
    ++stats.chunks;
    offset += kChunkHeaderSize + payload.size();
  }
  return stats;
}

struct SpanSource {
  std::span<const std::uint8_t> bytes;
  std::size_t pos = 0;
  std::size_t read(std::uint8_t* dst, std::size_t n) {
    n = std::min(n, bytes.size() - pos);
    if (n > 0) std::memcpy(dst, bytes.data() + pos, n);
    pos += n;
    return n;
  }
};

struct FileSource {
  std::FILE* f;
  std::size_t read(std::uint8_t* dst, std::size_t n) { return std::fread(dst, 1, n, f); }
};

}  // namespace

std::string TrainingSample::fen() const {
  static constexpr char kPieceChars[] = "PNBRQKpnbrqk";
  std::string s;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = board[make_square(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += static_cast<char>('0' + empty);
      empty = 0;
      s += kPieceChars[p];
    }
    if (empty) s += static_cast<char>('0' + empty);
    if (rank) s += '/';
  }
  s += side_to_move == kWhite ? " w " : " b ";
  std::string c;
  if (castling & kWhiteOO) c += 'K';
  if (castling & kWhiteOOO) c += 'Q';
  if (castling & kBlackOO) c += 'k';
  if (castling & kBlackOOO) c += 'q';
  s += c.empty() ? "-" : c;
  s += ' ';
  if (ep == kNoSquare) {
    s += '-';
  } else {
    s += static_cast<char>('a' + file_of(ep));
    s += static_cast<char>('1' + rank_of(ep));
  }
  s += fmt::format(" {} {}", halfmove, game_ply / 2 + 1);
  return s;
}

TrainingRecord pack_training_record(const Position& pos, int white_score, int white_result) {
  TrainingRecord r{};
  const Bitboard occ = pos.pieces();
  put_u64(r.data(), occ);
  int i = 0;
  for (Bitboard b = occ; b; ++i) {
    const Square s = pop_lsb(b);
    if (i >= 32) break;  // a legal position has at most 32 pieces
    r[8 + i / 2] |= static_cast<std::uint8_t>(pos.piece_on(s) << (4 * (i & 1)));
  }
  put_u16(r.data() + 24, static_cast<std::uint16_t>(
                             static_cast<std::int16_t>(std::clamp(white_score, -32767, 32767))));
  r[26] = static_cast<std::uint8_t>(std::clamp(white_result, -1, 1) + 1);
  r[27] = static_cast<std::uint8_t>((pos.side_to_move() == kBlack ? 1 : 0) |
                                    (pos.castling_rights() & kAllCastling) << 1);
  r[28] = static_cast<std::uint8_t>(pos.ep_square());
  r[29] = static_cast<std::uint8_t>(std::min(pos.halfmove_clock(), 255));
  put_u16(r.data() + 30, static_cast<std::uint16_t>(std::min(pos.game_ply(), 65535)));
  return r;
}

Result<TrainingSample> unpack_training_record(const TrainingRecord& r) {
  TrainingSample t;
  t.board.fill(kNoPiece);
  const Bitboard occ = get_u64(r.data());
  if (popcount(occ) > 32) return fail("training record: {} pieces", popcount(occ));
  int i = 0, kings[2] = {0, 0};
  for (Bitboard b = occ; b; ++i) {
    const Square s = pop_lsb(b);
    const int code = (r[8 + i / 2] >> (4 * (i & 1))) & 15;
    if (code >= 12) return fail("training record: piece code {} on square {}", code, s);
    const auto p = static_cast<Piece>(code);
    if (type_of(p) == kPawn && (rank_of(s) == 0 || rank_of(s) == 7))
      return fail("training record: a pawn on the back rank");
    if (type_of(p) == kKing) ++kings[color_of(p)];
    t.board[s] = p;
  }
  if (kings[0] != 1 || kings[1] != 1)
    return fail("training record: {} white and {} black kings", kings[0], kings[1]);
  t.score = static_cast<std::int16_t>(get_u16(r.data() + 24));
  if (r[26] > 2) return fail("training record: result code {}", r[26]);
  t.result = r[26] - 1;
  if (r[27] >> 5) return fail("training record: flags {:#x}", r[27]);
  t.side_to_move = (r[27] & 1) ? kBlack : kWhite;
  t.castling = static_cast<std::uint8_t>(r[27] >> 1);
  if (r[28] > 64) return fail("training record: en passant square {}", r[28]);
  t.ep = r[28];
  if (t.ep != kNoSquare && rank_of(t.ep) != (t.side_to_move == kWhite ? 5 : 2))
    return fail("training record: en passant square {} on the wrong rank", t.ep);
  t.halfmove = r[29];
  t.game_ply = get_u16(r.data() + 30);
  return t;
}

namespace {

// The end of the last whole chunk of an existing file (its size when nothing is cut), walking
// the chunk headers only: a writer killed mid-chunk leaves a torn tail, and appending after it
// would bury every later chunk behind bytes that do not parse.
Result<std::uint64_t> whole_chunks_end(std::FILE* f, const std::string& path, std::uint64_t size) {
  std::uint64_t offset = kHeaderSize;
  while (offset + kChunkHeaderSize <= size) {
    std::array<std::uint8_t, kChunkHeaderSize> ch{};
    if (std::fseek(f, static_cast<long>(offset), SEEK_SET) != 0 ||
        std::fread(ch.data(), 1, ch.size(), f) != ch.size())
      return fail("cannot read '{}'", path);
    const std::uint32_t count = get_u32(ch.data() + 4);
    if (std::memcmp(ch.data(), kChunkMagic, 4) != 0 || count == 0 || count > kTrainingChunkMax)
      return fail("{}: training file: no chunk at byte {}; not appending to it", path, offset);
    const std::uint64_t end =
        offset + kChunkHeaderSize + std::uint64_t{count} * kTrainingRecordSize;
    if (end > size) break;
    offset = end;
  }
  return offset;
}

}  // namespace

Result<TrainingDataWriter> TrainingDataWriter::open(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "a+b");
  if (!f) return fail("cannot open '{}' for appending", path);
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::uint64_t dropped = 0;
  if (size == 0) {
    const auto h = file_header();
    if (std::fwrite(h.data(), 1, h.size(), f) != h.size() || std::fflush(f) != 0) {
      std::fclose(f);
      return fail("cannot write '{}'", path);
    }
  } else {
    std::array<std::uint8_t, kHeaderSize> h{};
    std::fseek(f, 0, SEEK_SET);
    const std::size_t got = std::fread(h.data(), 1, h.size(), f);
    if (auto ok = check_header(h.data(), got); !ok) {
      std::fclose(f);
      return fail("{}: {}", path, ok.error().message);
    }
    const auto end = whole_chunks_end(f, path, static_cast<std::uint64_t>(size));
    if (!end) {
      std::fclose(f);
      return tl::unexpected(end.error());
    }
    if (*end < static_cast<std::uint64_t>(size)) {
      dropped = static_cast<std::uint64_t>(size) - *end;
      std::error_code ec;
      std::filesystem::resize_file(path, *end, ec);
      if (ec) {
        std::fclose(f);
        return fail("cannot cut the torn tail of '{}': {}", path, ec.message());
      }
    }
    std::fseek(f, 0, SEEK_END);  // "a" mode writes at the end whatever the position
  }
  TrainingDataWriter w(f, path);
  w.dropped_tail_ = dropped;
  return w;
}

TrainingDataWriter::TrainingDataWriter(TrainingDataWriter&& o) noexcept
    : file_(std::exchange(o.file_, nullptr)),
      path_(std::move(o.path_)),
      pending_(std::move(o.pending_)),
      written_(o.written_),
      dropped_tail_(o.dropped_tail_) {}

TrainingDataWriter::~TrainingDataWriter() {
  if (!file_) return;
  (void)flush();
  std::fclose(file_);
}

void TrainingDataWriter::add(const TrainingRecord& r) {
  pending_.push_back(r);
  if (pending_.size() == kTrainingChunkMax) (void)flush();
}

Result<std::size_t> TrainingDataWriter::flush() {
  if (pending_.empty()) return written_;
  std::vector<std::uint8_t> buf(kChunkHeaderSize + pending_.size() * kTrainingRecordSize);
  std::memcpy(buf.data(), kChunkMagic, 4);
  put_u32(buf.data() + 4, static_cast<std::uint32_t>(pending_.size()));
  for (std::size_t i = 0; i < pending_.size(); ++i)
    std::memcpy(buf.data() + kChunkHeaderSize + i * kTrainingRecordSize, pending_[i].data(),
                kTrainingRecordSize);
  put_u64(buf.data() + 8, fnv1a64(buf.data() + kChunkHeaderSize, buf.size() - kChunkHeaderSize));
  const bool ok = std::fwrite(buf.data(), 1, buf.size(), file_) == buf.size();
  if (std::fflush(file_) != 0 || !ok) return fail("cannot write '{}'", path_);
  written_ += pending_.size();
  pending_.clear();
  return written_;
}

Result<TrainingDataStats> read_training_data(std::span<const std::uint8_t> bytes,
                                             const TrainingRecordFn& on_record) {
  SpanSource src{bytes};
  return read_chunks(src, on_record);
}

Result<TrainingDataStats> read_training_file(const std::string& path,
                                             const TrainingRecordFn& on_record) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return fail("cannot read '{}'", path);
  FileSource src{f};
  auto r = read_chunks(src, on_record);
  std::fclose(f);
  if (!r) return fail("{}: {}", path, r.error().message);
  return r;
}

}  // namespace kibitz::chess
