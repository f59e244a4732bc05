#pragma once
// DAIDE's messages on the wire (the client-server protocol document): each is a four-byte
// header, the message type, a pad byte and the length of what follows (big-endian), then its
// body:
//   IM  0  initial message, client first: version 1, magic number 0xDA10
//   RM  1  representation, server's answer to IM: tokens renamed by the map (6 bytes each:
//          the token, then a three-letter name padded with a NUL); empty for the standard map
//   DM  2  a Diplomacy message: its tokens, two bytes each, big-endian
//   FM  3  final message, either side, before closing
//   EM  4  error, either side, before closing: a two-byte code (ErrorCode)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "protocol/daide/tokens.hpp"

namespace kibitz::daide {

enum class FrameType : std::uint8_t {
  kInitial = 0,
  kRepresentation = 1,
  kDiplomacy = 2,
  kFinal = 3,
  kError = 4,
};

enum class ErrorCode : std::uint16_t {
  kImTimer = 0x01,
  kImNotFirst = 0x02,
  kImWrongEndian = 0x03,
  kImWrongMagic = 0x04,
  kVersion = 0x05,
  kImTwice = 0x06,
  kImFromServer = 0x07,
  kUnknownType = 0x08,
  kTooShort = 0x09,
  kDmBeforeRm = 0x0A,
  kRmNotFirst = 0x0B,
  kRmTwice = 0x0C,
  kRmFromClient = 0x0D,
  kBadToken = 0x0E,
};
std::string_view error_text(ErrorCode code);

inline constexpr std::uint16_t kVersion = 1;
inline constexpr std::uint16_t kMagic = 0xDA10;
inline constexpr std::size_t kHeaderBytes = 4;

struct Frame {
  FrameType type = FrameType::kDiplomacy;
  std::string body;
};

// The bytes of a frame.
std::string encode_frame(FrameType type, std::string_view body);
std::string encode_initial();
std::string encode_message(std::span<const Token> message);
std::string encode_error(ErrorCode code);
inline std::string encode_final() { return encode_frame(FrameType::kFinal, {}); }

// A DM's body as tokens (an odd length is an error).
Result<Message> decode_message(std::string_view body);
// An IM's body: the version and magic number it gives, checked.
Result<void> check_initial(std::string_view body);
// An RM's body: (token, name) pairs.
Result<std::vector<std::pair<Token, std::string>>> decode_representation(std::string_view body);

// Splits a byte stream into frames. An unknown type or a body beyond the limit is an error
// (the connection should then send EM and close).
class FrameReader {
 public:
  explicit FrameReader(std::size_t max_body = 1 << 16) : max_body_(max_body) {}
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next whole frame, if one has arrived.
  std::optional<Result<Frame>> next();
  std::size_t pending() const { return buffer_.size(); }

 private:
  std::string buffer_;
  std::size_t max_body_;
};

}  // namespace kibitz::daide
