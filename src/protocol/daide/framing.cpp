#include "protocol/daide/framing.hpp"

#include <fmt/format.h>

namespace kibitz::daide {

namespace {

void put16(std::string& out, std::uint16_t v) {
  out += static_cast<char>(v >> 8);
  out += static_cast<char>(v & 0xFF);
}

std::uint16_t get16(std::string_view s, std::size_t at) {
  return static_cast<std::uint16_t>((static_cast<unsigned char>(s[at]) << 8) |
                                    static_cast<unsigned char>(s[at + 1]));
}

}  // namespace

std::string_view error_text(ErrorCode code) {
  switch (code) {
    case ErrorCode::kImTimer:
      return "no initial message in time";
    case ErrorCode::kImNotFirst:
      return "the initial message was not first";
    case ErrorCode::kImWrongEndian:
      return "the initial message has the wrong byte order";
    case ErrorCode::kImWrongMagic:
      return "the initial message has the wrong magic number";
    case ErrorCode::kVersion:
      return "incompatible protocol version";
    case ErrorCode::kImTwice:
      return "a second initial message";
    case ErrorCode::kImFromServer:
      return "an initial message from the server";
    case ErrorCode::kUnknownType:
      return "an unknown message type";
    case ErrorCode::kTooShort:
      return "a message shorter than its type needs";
    case ErrorCode::kDmBeforeRm:
      return "a diplomacy message before the representation";
    case ErrorCode::kRmNotFirst:
      return "the representation was not the server's first";
    case ErrorCode::kRmTwice:
      return "a second representation message";
    case ErrorCode::kRmFromClient:
      return "a representation message from the client";
    case ErrorCode::kBadToken:
      return "an invalid token";
  }
  return "an unknown error";
}

std::string encode_frame(FrameType type, std::string_view body) {
  std::string out;
  out.reserve(kHeaderBytes + body.size());
  out += static_cast<char>(type);
  out += '\0';
  put16(out, static_cast<std::uint16_t>(body.size()));
  out.append(body);
  return out;
}

std::string encode_initial() {
  std::string body;
  put16(body, kVersion);
  put16(body, kMagic);
  return encode_frame(FrameType::kInitial, body);
}

std::string encode_message(std::span<const Token> message) {
  std::string body;
  body.reserve(2 * message.size());
  for (const Token t : message) put16(body, t);
  return encode_frame(FrameType::kDiplomacy, body);
}

std::string encode_error(ErrorCode code) {
  std::string body;
  put16(body, static_cast<std::uint16_t>(code));
  return encode_frame(FrameType::kError, body);
}

Result<Message> decode_message(std::string_view body) {
  if (body.size() % 2) return fail("DAIDE: a diplomacy message of {} bytes (odd)", body.size());
  Message m(body.size() / 2);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = get16(body, 2 * i);
  return m;
}

Result<void> check_initial(std::string_view body) {
  if (body.size() != 4) return fail("DAIDE: an initial message of {} bytes, not 4", body.size());
  const std::uint16_t version = get16(body, 0), magic = get16(body, 2);
  if (magic == 0x10DA) return fail("DAIDE: the initial message is little-endian");
  if (magic != kMagic) return fail("DAIDE: magic number 0x{:04X}, not 0xDA10", magic);
  if (version != kVersion) return fail("DAIDE: protocol version {}, not 1", version);
  return {};
}

Result<std::vector<std::pair<Token, std::string>>> decode_representation(std::string_view body) {
  if (body.size() % 6)
    return fail("DAIDE: a representation of {} bytes (not 6 a token)", body.size());
  std::vector<std::pair<Token, std::string>> out;
  for (std::size_t i = 0; i < body.size(); i += 6) {
    std::string name(body.substr(i + 2, 3));
    if (body[i + 5] != '\0') return fail("DAIDE: a representation name not ended by a NUL");
    out.emplace_back(get16(body, i), std::move(name));
  }
  return out;
}

std::optional<Result<Frame>> FrameReader::next() {
  if (buffer_.size() < kHeaderBytes) return std::nullopt;
  const auto type = static_cast<unsigned char>(buffer_[0]);
  if (type > static_cast<unsigned char>(FrameType::kError))
    return Result<Frame>(fail("DAIDE: unknown message type {}", type));
  const std::size_t length = get16(buffer_, 2);
  if (length > max_body_) return Result<Frame>(fail("DAIDE: a message of {} bytes", length));
  if (buffer_.size() < kHeaderBytes + length) return std::nullopt;
  Frame f{static_cast<FrameType>(type), buffer_.substr(kHeaderBytes, length)};
  buffer_.erase(0, kHeaderBytes + length);
  return Result<Frame>(std::move(f));
}

}  // namespace kibitz::daide
