// Training-data files: records round-trip positions from random games, chunks append and read
// back in order, and corruption or a cut-off tail is reported as such.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/rng.hpp"
#include "games/chess/training_data.hpp"

namespace kibitz::chess {
namespace {

// Positions along random games (castling rights, en passant squares and promotions included).
std::vector<Position> td_random_positions(std::uint64_t seed, int games) {
  Rng rng(seed);
  std::vector<Position> out;
  for (int g = 0; g < games; ++g) {
    Position p;
    for (int ply = 0; ply < 200 && !p.is_terminal(); ++ply) {
      MoveList<Position> moves;
      p.legal_moves(moves);
      p.apply(moves[rng.below(moves.size())]);
      out.push_back(p);
    }
  }
  return out;
}

std::string td_temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("kibitz_td_") + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::vector<std::uint8_t> td_slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ChessTrainingData, RecordsRoundTripPositionsScoresAndResults) {
  const auto positions = td_random_positions(29, 20);
  ASSERT_GT(positions.size(), 1000u);
  int with_ep = 0, i = 0;
  for (const Position& p : positions) {
    const int score = (i * 37) % 4001 - 2000, result = i % 3 - 1;
    ++i;
    const auto s = unpack_training_record(pack_training_record(p, score, result));
    ASSERT_TRUE(s) << p.fen() << ": " << s.error().message;
    const auto back = Position::from_fen(s->fen());
    ASSERT_TRUE(back) << s->fen();
    EXPECT_EQ(*back, p) << p.fen() << " came back as " << s->fen();
    EXPECT_EQ(s->score, score);
    EXPECT_EQ(s->result, result);
    EXPECT_EQ(s->game_ply, p.game_ply());
    with_ep += s->ep != kNoSquare;
  }
  EXPECT_GT(with_ep, 0);
  // Scores beyond int16 are clamped.
  EXPECT_EQ(unpack_training_record(pack_training_record(Position(), 99999, 1))->score, 32767);
}

TEST(ChessTrainingData, BadRecordsAreRefused) {
  const TrainingRecord good = pack_training_record(Position(), 10, 0);
  auto bad = good;
  bad[26] = 3;
  EXPECT_EQ(unpack_training_record(bad).error().message, "training record: result code 3");
  bad = good;
  bad[8] |= 0x0f;  // a1's rook becomes code 15
  EXPECT_EQ(unpack_training_record(bad).error().message,
            "training record: piece code 15 on square 0");
  bad = good;
  bad[8] = static_cast<std::uint8_t>((bad[8] & 0xf0) | 5);  // a1: a white king
  EXPECT_EQ(unpack_training_record(bad).error().message,
            "training record: 2 white and 1 black kings");
  bad = good;
  bad[28] = 20;  // e3, but white is to move
  EXPECT_EQ(unpack_training_record(bad).error().message,
            "training record: en passant square 20 on the wrong rank");
  bad = good;
  bad[27] = 0x40;
  EXPECT_FALSE(unpack_training_record(bad));
}

TEST(ChessTrainingData, ChunksAppendAndReadBackInOrder) {
  const std::string path = td_temp_path("append.kbd");
  std::filesystem::remove(path);
  const auto positions = td_random_positions(7, 3);
  std::vector<TrainingRecord> expected;
  for (int round = 0; round < 2; ++round) {  // a second open appends
    auto w = TrainingDataWriter::open(path);
    ASSERT_TRUE(w) << w.error().message;
    for (std::size_t k = 0; k < positions.size(); ++k) {
      expected.push_back(pack_training_record(positions[k], static_cast<int>(k), round));
      w->add(expected.back());
      if (k % 50 == 49) {
        ASSERT_TRUE(w->flush());
      }
    }
  }  // the destructor flushes the rest
  std::vector<TrainingRecord> got;
  const auto stats =
      read_training_file(path, [&](const TrainingRecord& r, std::size_t) { got.push_back(r); });
  ASSERT_TRUE(stats) << stats.error().message;
  EXPECT_EQ(got, expected);
  EXPECT_EQ(stats->records, expected.size());
  EXPECT_EQ(stats->chunks, 2 * ((positions.size() + 49) / 50));
  EXPECT_FALSE(stats->truncated_tail);

  const auto bytes = td_slurp(path);
  const auto count = [](std::span<const std::uint8_t> b) {
    std::size_t n = 0;
    return read_training_data(b, [&](const TrainingRecord&, std::size_t) { ++n; });
  };
  // A tail cut anywhere inside the last chunk: the complete chunks still read.
  for (const std::size_t cut : {std::size_t{1}, std::size_t{10}, std::size_t{33}}) {
    const auto r = count(std::span(bytes).first(bytes.size() - cut));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->truncated_tail);
    EXPECT_EQ(r->chunks, stats->chunks - 1);
  }
  // A writer appending to a file with a torn tail cuts the tail off first, so every chunk,
  // old and new, reads back and none is lost behind the torn bytes.
  {
    const std::string torn = td_temp_path("torn.kbd");
    std::ofstream(torn, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size() - 10));
    auto w = TrainingDataWriter::open(torn);
    ASSERT_TRUE(w) << w.error().message;
    const std::size_t last_chunk = positions.size() % 50 ? positions.size() % 50 : 50;
    EXPECT_EQ(w->dropped_tail(), 16 + last_chunk * kTrainingRecordSize - 10);
    w->add(expected.front());
    ASSERT_TRUE(w->flush());
    std::vector<TrainingRecord> after;
    const auto r = read_training_file(
        torn, [&](const TrainingRecord& rec, std::size_t) { after.push_back(rec); });
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_FALSE(r->truncated_tail);
    EXPECT_EQ(r->chunks, stats->chunks);
    ASSERT_EQ(after.size(), expected.size() - last_chunk + 1);
    EXPECT_EQ(after.back(), expected.front());
    EXPECT_TRUE(std::equal(after.begin(), after.end() - 1, expected.begin()));
    // A file whose chunks do not parse is not appended to.
    auto bad = bytes;
    bad[16] = 'X';
    std::ofstream(torn, std::ios::binary)
        .write(reinterpret_cast<const char*>(bad.data()), static_cast<std::streamsize>(bad.size()));
    const auto refused = TrainingDataWriter::open(torn);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message,
              torn + ": training file: no chunk at byte 16; not appending to it");
    EXPECT_EQ(td_slurp(torn), bad);
    std::filesystem::remove(torn);
  }
  // One flipped bit in a record: the checksum names the chunk.
  auto flipped = bytes;
  flipped[16 + 16 + 5] ^= 4;
  EXPECT_EQ(count(flipped).error().message,
            "training file: checksum mismatch in the chunk at byte 16");
  auto marker = bytes;
  marker[16] = 'X';
  EXPECT_EQ(count(marker).error().message, "training file: no chunk marker at byte 16");
  auto header = bytes;
  header[0] = 'X';
  EXPECT_EQ(count(header).error().message, "not a Kibitz training file (no KBZTRAIN)");
  EXPECT_EQ(count({}).error().message, "empty training file (no header)");

  // A writer refuses to append to something else.
  const std::string other = td_temp_path("other.kbd");
  std::ofstream(other) << "FEN | 1.0\n";
  const auto w = TrainingDataWriter::open(other);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().message, other + ": not a Kibitz training file (no KBZTRAIN)");
  EXPECT_FALSE(
      read_training_file(td_temp_path("missing.kbd"), [](const TrainingRecord&, std::size_t) {}));
  std::filesystem::remove(path);
  std::filesystem::remove(other);
}

}  // namespace
}  // namespace kibitz::chess
