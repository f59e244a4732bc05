#pragma once
// DAIDE tokens (David Norman's "DAIDE Message Syntax" and the client-server protocol): every
// word of a Diplomacy message is a 16-bit token. The high byte is its category (0x40
// brackets, 0x41 powers, 0x42 unit types, 0x43 orders, 0x44 THX notes, 0x45 ORD results,
// 0x46 coasts, 0x47 seasons, 0x48 commands, 0x49 parameters, 0x4A press, 0x4B an ASCII
// character, 0x50-0x57 provinces by kind); tokens below 0x4000 are 14-bit integers (two's
// complement: -8192 to 8191). The standard map's provinces are numbered 0-74 across the
// province categories, in the order the syntax document gives.
//
// The text form is the one DAIDE tools print: three-letter names, brackets, integers, and
// text in single quotes ("NME ('Kibitz') ('0.1')"); parse_text also reads the python
// `diplomacy` package's transcripts, which write text as single characters separated by
// blanks ("( A l b e r t )") and integers with a '#' ("#1901").
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace kibitz::daide {

using Token = std::uint16_t;
using Message = std::vector<Token>;

namespace tok {
inline constexpr Token kOpen = 0x4000, kClose = 0x4001;
// Powers (the standard map's, in its order) and unit types.
inline constexpr Token kAus = 0x4100, kEng = 0x4101, kFra = 0x4102, kGer = 0x4103, kIta = 0x4104,
                       kRus = 0x4105, kTur = 0x4106;
inline constexpr Token kAmy = 0x4200, kFlt = 0x4201;
// Orders.
inline constexpr Token kCto = 0x4320, kCvy = 0x4321, kHld = 0x4322, kMto = 0x4323, kSup = 0x4324,
                       kVia = 0x4325, kDsb = 0x4340, kRto = 0x4341, kBld = 0x4380, kRem = 0x4381,
                       kWve = 0x4382;
// THX notes.
inline constexpr Token kMbv = 0x4400, kBpr = 0x4401, kCst = 0x4402, kEsc = 0x4403, kFar = 0x4404,
                       kHsc = 0x4405, kNas = 0x4406, kNmb = 0x4407, kNmr = 0x4408, kNrn = 0x4409,
                       kNrs = 0x440A, kNsa = 0x440B, kNsc = 0x440C, kNsf = 0x440D, kNsp = 0x440E,
                       kNst = 0x440F, kNsu = 0x4410, kNvr = 0x4411, kNyu = 0x4412, kYsc = 0x4413;
// ORD results.
inline constexpr Token kSuc = 0x4500, kBnc = 0x4501, kCut = 0x4502, kDsr = 0x4503, kFld = 0x4504,
                       kNso = 0x4505, kRet = 0x4506;
// Coasts.
inline constexpr Token kNcs = 0x4600, kNec = 0x4602, kEcs = 0x4604, kSec = 0x4606, kScs = 0x4608,
                       kSwc = 0x460A, kWcs = 0x460C, kNwc = 0x460E;
// Seasons.
inline constexpr Token kSpr = 0x4700, kSum = 0x4701, kFal = 0x4702, kAut = 0x4703, kWin = 0x4704;
// Commands.
inline constexpr Token kCcd = 0x4800, kDrw = 0x4801, kFrm = 0x4802, kGof = 0x4803, kHlo = 0x4804,
                       kHst = 0x4805, kHuh = 0x4806, kIam = 0x4807, kLod = 0x4808, kMap = 0x4809,
                       kMdf = 0x480A, kMis = 0x480B, kNme = 0x480C, kNot = 0x480D, kNow = 0x480E,
                       kObs = 0x480F, kOff = 0x4810, kOrd = 0x4811, kOut = 0x4812, kPrn = 0x4813,
                       kRej = 0x4814, kSco = 0x4815, kSlo = 0x4816, kSnd = 0x4817, kSub = 0x4818,
                       kSve = 0x4819, kThx = 0x481A, kTme = 0x481B, kYes = 0x481C, kAdm = 0x481D,
                       kSmr = 0x481E;
// Parameters.
inline constexpr Token kAoa = 0x4900, kBtl = 0x4901, kErr = 0x4902, kLvl = 0x4903, kMrt = 0x4904,
                       kMtl = 0x4905, kNpb = 0x4906, kNpr = 0x4907, kPda = 0x4908, kPtl = 0x4909,
                       kRtl = 0x490A, kUno = 0x490B, kDsd = 0x490D;
inline constexpr std::uint8_t kTextCategory = 0x4B;
}  // namespace tok

// Token categories.
inline bool is_integer(Token t) { return t < 0x4000; }
inline bool is_text(Token t) { return (t >> 8) == tok::kTextCategory; }
inline bool is_power(Token t) { return (t >> 8) == 0x41; }
inline bool is_coast(Token t) { return (t >> 8) == 0x46; }
inline bool is_season(Token t) { return (t >> 8) == 0x47; }
inline bool is_province(Token t) { return (t >> 8) >= 0x50 && (t >> 8) <= 0x57; }

// An integer as a token (-8192 to 8191) and back.
Token integer_token(int value);
int token_integer(Token t);
inline Token text_token(char c) {
  return static_cast<Token>((tok::kTextCategory << 8) | static_cast<unsigned char>(c));
}

// The standard map's province token with this DAIDE name ("ADR", "GOL"), and back.
std::optional<Token> province_token(std::string_view name);
// A token's name ("HLO", "ADR", "(") or empty when it is not a named one.
std::string_view token_name(Token t);
std::optional<Token> named_token(std::string_view name);

// The text form, and back; an error names the word it cannot read.
std::string to_text(std::span<const Token> message);
Result<Message> parse_text(std::string_view text);

// Text tokens as a string ("Albert"): the text inside the message's first bracket pair when
// it is all text.
std::string text_of(std::span<const Token> tokens);
// 'text' as tokens (the caller adds the brackets).
void append_text(Message& m, std::string_view text);

// The bracketed parts of a message: for "HLO (ENG) (1234) ((LVL 0))", the spans of
// "ENG", "1234" and "(LVL 0)" (without their outer brackets); a token outside any bracket
// is its own part. Unbalanced brackets: nothing (see balanced()).
std::vector<std::span<const Token>> parts(std::span<const Token> tokens);
bool balanced(std::span<const Token> tokens);

}  // namespace kibitz::daide
