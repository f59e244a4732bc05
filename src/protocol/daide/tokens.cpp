#include "protocol/daide/tokens.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <utility>

namespace kibitz::daide {

namespace {

struct Named {
  Token token;
  std::string_view name;
};

// Every named token of the syntax document (press included, so that a log can show it), and
// the standard map's 75 provinces: category byte, then the province's number.
constexpr Named kNamed[] = {
    {tok::kOpen, "("},
    {tok::kClose, ")"},
    {0x4100, "AUS"},
    {0x4101, "ENG"},
    {0x4102, "FRA"},
    {0x4103, "GER"},
    {0x4104, "ITA"},
    {0x4105, "RUS"},
    {0x4106, "TUR"},
    {0x4200, "AMY"},
    {0x4201, "FLT"},
    {0x4320, "CTO"},
    {0x4321, "CVY"},
    {0x4322, "HLD"},
    {0x4323, "MTO"},
    {0x4324, "SUP"},
    {0x4325, "VIA"},
    {0x4340, "DSB"},
    {0x4341, "RTO"},
    {0x4380, "BLD"},
    {0x4381, "REM"},
    {0x4382, "WVE"},
    {0x4400, "MBV"},
    {0x4401, "BPR"},
    {0x4402, "CST"},
    {0x4403, "ESC"},
    {0x4404, "FAR"},
    {0x4405, "HSC"},
    {0x4406, "NAS"},
    {0x4407, "NMB"},
    {0x4408, "NMR"},
    {0x4409, "NRN"},
    {0x440A, "NRS"},
    {0x440B, "NSA"},
    {0x440C, "NSC"},
    {0x440D, "NSF"},
    {0x440E, "NSP"},
    {0x440F, "NST"},
    {0x4410, "NSU"},
    {0x4411, "NVR"},
    {0x4412, "NYU"},
    {0x4413, "YSC"},
    {0x4500, "SUC"},
    {0x4501, "BNC"},
    {0x4502, "CUT"},
    {0x4503, "DSR"},
    {0x4504, "FLD"},
    {0x4505, "NSO"},
    {0x4506, "RET"},
    {0x4600, "NCS"},
    {0x4602, "NEC"},
    {0x4604, "ECS"},
    {0x4606, "SEC"},
    {0x4608, "SCS"},
    {0x460A, "SWC"},
    {0x460C, "WCS"},
    {0x460E, "NWC"},
    {0x4700, "SPR"},
    {0x4701, "SUM"},
    {0x4702, "FAL"},
    {0x4703, "AUT"},
    {0x4704, "WIN"},
    {0x4800, "CCD"},
    {0x4801, "DRW"},
    {0x4802, "FRM"},
    {0x4803, "GOF"},
    {0x4804, "HLO"},
    {0x4805, "HST"},
    {0x4806, "HUH"},
    {0x4807, "IAM"},
    {0x4808, "LOD"},
    {0x4809, "MAP"},
    {0x480A, "MDF"},
    {0x480B, "MIS"},
    {0x480C, "NME"},
    {0x480D, "NOT"},
    {0x480E, "NOW"},
    {0x480F, "OBS"},
    {0x4810, "OFF"},
    {0x4811, "ORD"},
    {0x4812, "OUT"},
    {0x4813, "PRN"},
    {0x4814, "REJ"},
    {0x4815, "SCO"},
    {0x4816, "SLO"},
    {0x4817, "SND"},
    {0x4818, "SUB"},
    {0x4819, "SVE"},
    {0x481A, "THX"},
    {0x481B, "TME"},
    {0x481C, "YES"},
    {0x481D, "ADM"},
    {0x481E, "SMR"},
    {0x4900, "AOA"},
    {0x4901, "BTL"},
    {0x4902, "ERR"},
    {0x4903, "LVL"},
    {0x4904, "MRT"},
    {0x4905, "MTL"},
    {0x4906, "NPB"},
    {0x4907, "NPR"},
    {0x4908, "PDA"},
    {0x4909, "PTL"},
    {0x490A, "RTL"},
    {0x490B, "UNO"},
    {0x490D, "DSD"},
    {0x4A00, "ALY"},
    {0x4A01, "AND"},
    {0x4A02, "BWX"},
    {0x4A03, "DMZ"},
    {0x4A04, "ELS"},
    {0x4A05, "EXP"},
    {0x4A06, "FCT"},
    {0x4A07, "FOR"},
    {0x4A08, "FWD"},
    {0x4A09, "HOW"},
    {0x4A0A, "IDK"},
    {0x4A0B, "IFF"},
    {0x4A0C, "INS"},
    {0x4A0E, "OCC"},
    {0x4A0F, "ORR"},
    {0x4A10, "PCE"},
    {0x4A11, "POB"},
    {0x4A13, "PRP"},
    {0x4A14, "QRY"},
    {0x4A15, "SCD"},
    {0x4A16, "SRY"},
    {0x4A17, "SUG"},
    {0x4A18, "THK"},
    {0x4A19, "THN"},
    {0x4A1A, "TRY"},
    {0x4A1C, "VSS"},
    {0x4A1D, "WHT"},
    {0x4A1E, "WHY"},
    {0x4A1F, "XDO"},
    {0x4A20, "XOY"},
    {0x4A21, "YDO"},
    {0x4A22, "CHO"},
    {0x4A23, "BCC"},
    {0x4A24, "UNT"},
    {0x4A25, "NAR"},
    {0x4A26, "CCL"},
    // Inland, not a supply centre; inland centres; seas; coastal; coastal centres; the
    // centres with two coasts.
    {0x5000, "BOH"},
    {0x5001, "BUR"},
    {0x5002, "GAL"},
    {0x5003, "RUH"},
    {0x5004, "SIL"},
    {0x5005, "TYR"},
    {0x5006, "UKR"},
    {0x5107, "BUD"},
    {0x5108, "MOS"},
    {0x5109, "MUN"},
    {0x510A, "PAR"},
    {0x510B, "SER"},
    {0x510C, "VIE"},
    {0x510D, "WAR"},
    {0x520E, "ADR"},
    {0x520F, "AEG"},
    {0x5210, "BAL"},
    {0x5211, "BAR"},
    {0x5212, "BLA"},
    {0x5213, "EAS"},
    {0x5214, "ECH"},
    {0x5215, "GOB"},
    {0x5216, "GOL"},
    {0x5217, "HEL"},
    {0x5218, "ION"},
    {0x5219, "IRI"},
    {0x521A, "MAO"},
    {0x521B, "NAO"},
    {0x521C, "NTH"},
    {0x521D, "NWG"},
    {0x521E, "SKA"},
    {0x521F, "TYS"},
    {0x5220, "WES"},
    {0x5421, "ALB"},
    {0x5422, "APU"},
    {0x5423, "ARM"},
    {0x5424, "CLY"},
    {0x5425, "FIN"},
    {0x5426, "GAS"},
    {0x5427, "LVN"},
    {0x5428, "NAF"},
    {0x5429, "PIC"},
    {0x542A, "PIE"},
    {0x542B, "PRU"},
    {0x542C, "SYR"},
    {0x542D, "TUS"},
    {0x542E, "WAL"},
    {0x542F, "YOR"},
    {0x5530, "ANK"},
    {0x5531, "BEL"},
    {0x5532, "BER"},
    {0x5533, "BRE"},
    {0x5534, "CON"},
    {0x5535, "DEN"},
    {0x5536, "EDI"},
    {0x5537, "GRE"},
    {0x5538, "HOL"},
    {0x5539, "KIE"},
    {0x553A, "LON"},
    {0x553B, "LVP"},
    {0x553C, "MAR"},
    {0x553D, "NAP"},
    {0x553E, "NWY"},
    {0x553F, "POR"},
    {0x5540, "ROM"},
    {0x5541, "RUM"},
    {0x5542, "SEV"},
    {0x5543, "SMY"},
    {0x5544, "SWE"},
    {0x5545, "TRI"},
    {0x5546, "TUN"},
    {0x5547, "VEN"},
    {0x5748, "BUL"},
    {0x5749, "SPA"},
    {0x574A, "STP"},
};

}  // namespace

Token integer_token(int value) {
  value = std::clamp(value, -8192, 8191);
  return static_cast<Token>(value < 0 ? (value + 16384) : value);
}

int token_integer(Token t) {
  const int v = t & 0x3FFF;
  return v >= 8192 ? v - 16384 : v;
}

std::string_view token_name(Token t) {
  for (const Named& n : kNamed)
    if (n.token == t) return n.name;
  return {};
}

std::optional<Token> named_token(std::string_view name) {
  for (const Named& n : kNamed)
    if (n.name.size() == name.size() &&
        std::equal(name.begin(), name.end(), n.name.begin(),
                   [](char a, char b) { return std::toupper(static_cast<unsigned char>(a)) == b; }))
      return n.token;
  return std::nullopt;
}

std::optional<Token> province_token(std::string_view name) {
  auto t = named_token(name);
  if (t && is_province(*t)) return t;
  return std::nullopt;
}

std::string to_text(std::span<const Token> message) {
  std::string out;
  bool in_text = false;
  const auto word = [&](std::string_view w) {
    if (!out.empty() && out.back() != '(' && w != ")") out += ' ';
    out += w;
  };
  for (std::size_t i = 0; i < message.size(); ++i) {
    const Token t = message[i];
    if (is_text(t)) {
      if (!in_text) {
        word("'");
        in_text = true;
      }
      const char c = static_cast<char>(t & 0xFF);
      out += c == '\'' ? std::string("''") : std::string(1, c);
      if (i + 1 == message.size() || !is_text(message[i + 1])) {
        out += '\'';
        in_text = false;
      }
      continue;
    }
    if (is_integer(t)) {
      word(std::to_string(token_integer(t)));
    } else if (auto n = token_name(t); !n.empty()) {
      word(n);
    } else {
      word(fmt::format("0x{:04X}", t));
    }
  }
  return out;
}

Result<Message> parse_text(std::string_view text) {
  // Words first: brackets, 'quoted text', and runs of other characters.
  struct Word {
    std::string_view w;
    bool quoted = false;
  };
  std::vector<Word> words;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '(' || c == ')') {
      words.push_back({text.substr(i++, 1)});
    } else if (c == '\'') {
      // 'text', with '' for a quote inside (kept doubled here, halved below).
      std::size_t j = i + 1;
      for (;; ++j) {
        if (j >= text.size()) return fail("DAIDE text: a quote is not closed");
        if (text[j] != '\'') continue;
        if (j + 1 < text.size() && text[j + 1] == '\'') {
          ++j;
          continue;
        }
        break;
      }
      words.push_back({text.substr(i + 1, j - i - 1), true});
      i = j + 1;
    } else {
      std::size_t j = i;
      while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) &&
             text[j] != '(' && text[j] != ')' && text[j] != '\'')
        ++j;
      words.push_back({text.substr(i, j - i)});
      i = j;
    }
  }
  // A lone character that is not a bracket: text in the python package's transcripts.
  const auto lone = [&](std::size_t k) {
    return k < words.size() && !words[k].quoted && words[k].w.size() == 1 && words[k].w != "(" &&
           words[k].w != ")";
  };
  Message m;
  for (std::size_t k = 0; k < words.size(); ++k) {
    std::string_view w = words[k].w;
    if (words[k].quoted) {
      for (std::size_t i = 0; i < w.size(); ++i) {
        m.push_back(text_token(w[i]));
        if (w[i] == '\'') ++i;  // '' is one quote
      }
      continue;
    }
    // "#1901": an integer as the python package's transcripts write one.
    const bool hash = w.size() > 1 && w[0] == '#';
    if (hash) w.remove_prefix(1);
    const bool digits =
        std::isdigit(static_cast<unsigned char>(w[0])) || (w[0] == '-' && w.size() > 1);
    if (auto t = named_token(w)) {
      m.push_back(*t);
    } else if (!hash && lone(k) && (!digits || lone(k + 1) || (k > 0 && lone(k - 1)))) {
      m.push_back(text_token(w[0]));  // a digit among other lone characters is text too
    } else if (digits) {
      int v = 0;
      const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
      if (ec != std::errc() || p != w.data() + w.size() || v < -8192 || v > 8191)
        return fail("DAIDE text: '{}' is not an integer from -8192 to 8191", w);
      m.push_back(integer_token(v));
    } else if (w.size() == 6 && w.substr(0, 2) == "0x") {
      unsigned v = 0;
      const auto [p, ec] = std::from_chars(w.data() + 2, w.data() + 6, v, 16);
      if (ec != std::errc() || p != w.data() + 6) return fail("DAIDE text: unknown token '{}'", w);
      m.push_back(static_cast<Token>(v));
    } else {
      return fail("DAIDE text: unknown token '{}'", w);
    }
  }
  return m;
}

std::string text_of(std::span<const Token> tokens) {
  std::string s;
  for (const Token t : tokens) {
    if (t == tok::kOpen || t == tok::kClose) continue;
    if (!is_text(t)) return {};
    s += static_cast<char>(t & 0xFF);
  }
  return s;
}

void append_text(Message& m, std::string_view text) {
  for (const char c : text) m.push_back(text_token(c));
}

bool balanced(std::span<const Token> tokens) {
  int depth = 0;
  for (const Token t : tokens) {
    if (t == tok::kOpen) ++depth;
    if (t == tok::kClose && --depth < 0) return false;
  }
  return depth == 0;
}

std::vector<std::span<const Token>> parts(std::span<const Token> tokens) {
  std::vector<std::span<const Token>> out;
  if (!balanced(tokens)) return out;
  for (std::size_t i = 0; i < tokens.size();) {
    if (tokens[i] != tok::kOpen) {
      out.push_back(tokens.subspan(i, 1));
      ++i;
      continue;
    }
    int depth = 0;
    std::size_t j = i;
    for (; j < tokens.size(); ++j) {
      if (tokens[j] == tok::kOpen) ++depth;
      if (tokens[j] == tok::kClose && --depth == 0) break;
    }
    out.push_back(tokens.subspan(i + 1, j - i - 1));
    i = j + 1;
  }
  return out;
}

}  // namespace kibitz::daide
