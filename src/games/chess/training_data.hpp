#pragma once
// Training positions for the chess network, in a compact binary file that self-play appends
// to and the trainer streams. 32 bytes a position:
//
//   0..7    occupancy (bit s: a piece on square s, a1 = 0)
//   8..23   the pieces in occupancy order, a nibble each (Piece codes 0..11), low nibble first
//   24..25  the search score, white's view, centipawns (int16, little-endian)
//   26      the game's result, white's view: 0 loss, 1 draw, 2 win
//   27      bit 0: black to move; bits 1..4: castling rights (CastlingRight)
//   28      en passant square, 64 when none
//   29      halfmove clock (at most 255)
//   30..31  the game ply (uint16)
//
// The file: "KBZTRAIN" (8 bytes), version (uint32, 1), record size (uint32, 32); then chunks,
// each "CHNK", the record count (uint32, 1..65536), the FNV-1a 64 hash of its records
// (uint64), and the records. A writer appends whole chunks, one per game or so, so a process
// killed mid-write loses only its last chunk, which the reader reports as a truncated tail.
#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "games/chess/position.hpp"

namespace kibitz::chess {

inline constexpr std::size_t kTrainingRecordSize = 32;
inline constexpr std::size_t kTrainingChunkMax = 65536;  // records a chunk
using TrainingRecord = std::array<std::uint8_t, kTrainingRecordSize>;

// One position as the trainer sees it.
struct TrainingSample {
  std::array<Piece, 64> board{};  // kNoPiece on empty squares
  Color side_to_move = kWhite;
  std::uint8_t castling = 0;
  Square ep = kNoSquare;
  int halfmove = 0;
  int game_ply = 0;
  int score = 0;   // white's view, centipawns
  int result = 0;  // white's view: +1 win, 0 draw, -1 loss

  std::string fen() const;  // the position (move number from game_ply)
};

// `white_score` is clamped to the int16 range; `white_result` is +1, 0 or -1.
TrainingRecord pack_training_record(const Position& pos, int white_score, int white_result);
// Checks what a record can get wrong: piece codes, more than 32 pieces, kings (one each),
// pawns on the back ranks, the result code, the en passant square.
Result<TrainingSample> unpack_training_record(const TrainingRecord& r);

// Appends chunks to a training file, creating it (with its header) when absent or empty; an
// existing file must have a valid header and whole chunks, bar a torn last one, which is cut
// off first. Not copyable; the destructor flushes.
class TrainingDataWriter {
 public:
  static Result<TrainingDataWriter> open(const std::string& path);
  TrainingDataWriter(TrainingDataWriter&& o) noexcept;
  TrainingDataWriter& operator=(TrainingDataWriter&&) = delete;
  ~TrainingDataWriter();

  void add(const TrainingRecord& r);  // flushes by itself when a chunk is full
  // Writes the buffered records as one chunk and flushes the file.
  Result<std::size_t> flush();
  std::size_t written() const { return written_; }
  // Bytes of a torn last chunk (a writer killed mid-write) that open() cut off before
  // appending; 0 when the file ended on a whole chunk.
  std::uint64_t dropped_tail() const { return dropped_tail_; }

 private:
  TrainingDataWriter(std::FILE* f, std::string path) : file_(f), path_(std::move(path)) {}
  std::FILE* file_ = nullptr;
  std::string path_;
  std::vector<TrainingRecord> pending_;
  std::size_t written_ = 0;
  std::uint64_t dropped_tail_ = 0;
};

struct TrainingDataStats {
  std::size_t records = 0;
  std::size_t chunks = 0;
  bool truncated_tail = false;  // the last chunk was cut short (a writer killed mid-write)
};

// Calls on_record(record, chunk) for every record of every chunk, in file order (`chunk`
// counts from 0; self-play writes a chunk per game). A bad header, a bad chunk
// marker or count, or a checksum that does not match is an error naming the byte offset; a
// last chunk cut short is not (truncated_tail), as that is what a killed writer leaves.
using TrainingRecordFn = std::function<void(const TrainingRecord&, std::size_t chunk)>;
Result<TrainingDataStats> read_training_data(std::span<const std::uint8_t> bytes,
                                             const TrainingRecordFn& on_record);
// The same, streaming a file chunk by chunk (files of many gigabytes).
Result<TrainingDataStats> read_training_file(const std::string& path,
                                             const TrainingRecordFn& on_record);

}  // namespace kibitz::chess
