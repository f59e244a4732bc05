#include "games/go/sgf.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <system_error>

namespace kibitz::go {

const SgfProperty* SgfNode::find(std::string_view id) const {
  for (const auto& p : properties)
    if (p.id == id) return &p;
  return nullptr;
}

std::vector<int> SgfTree::main_line() const {
  std::vector<int> line;
  if (nodes.empty()) return line;
  for (int n = 0;; n = nodes[n].children.front()) {
    line.push_back(n);
    if (nodes[n].children.empty()) break;
  }
  return line;
}

// --- the SGF syntax ------------------------------------------------------------------------

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// A character quoted in an error: printable ASCII as is, any other byte in hex (a stray
// byte of UTF-8 or binary data would otherwise be unreadable in the message).
std::string quote_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", u);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Result<std::vector<SgfTree>> collection() {
    if (s_.size() > kMaxSgfBytes)
      return fail("sgf: input of {} bytes is over the limit of {}", s_.size(), kMaxSgfBytes);
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;  // a UTF-8 byte order mark
    std::vector<SgfTree> trees;
    for (;;) {
      skip_space();
      if (at_end()) break;
      if (s_[i_] != '(')
        return error(
            line_, col_,
            fmt::format("expected '(' to start a game tree, found {}", quote_char(s_[i_])));
      auto tree = game_tree();
      if (!tree) return tl::unexpected(tree.error());
      trees.push_back(std::move(*tree));
    }
    if (trees.empty()) return error(line_, col_, "no game tree (expected '(')");
    return trees;
  }

 private:
  struct Open {
    int branch;  // the node the variation hangs from (-1 for the tree itself)
    int line, col;
    bool had_subtree = false;  // a variation closed at this level: no more nodes allowed
    bool has_node = false;
  };

  static tl::unexpected<Error> error(int line, int col, std::string_view what) {
    return fail("sgf:{}:{}: {}", line, col, what);
  }
  bool at_end() const { return i_ >= s_.size(); }
  void advance() {
    if (s_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++i_;
  }
  void skip_space() {
    while (!at_end() && is_space(s_[i_])) advance();
  }

  // Iterative: an explicit stack of open parentheses instead of recursion.
  Result<SgfTree> game_tree() {
    SgfTree tree;
    std::vector<Open> open;
    open.push_back({-1, line_, col_});
    advance();  // '('
    int cur = -1;
    for (;;) {
      skip_space();
      if (at_end())
        return error(open.back().line, open.back().col, "unterminated game tree (missing ')')");
      const char c = s_[i_];
      if (c == ';') {
        if (open.back().had_subtree)
          return error(line_, col_, "node after a variation (nodes must come before '(')");
        if (auto ok = count_item(); !ok) return tl::unexpected(ok.error());
        const int idx = static_cast<int>(tree.nodes.size());
        tree.nodes.push_back({});
        tree.nodes.back().parent = cur;
        tree.nodes.back().line = line_;
        tree.nodes.back().column = col_;
        if (cur >= 0) tree.nodes[cur].children.push_back(idx);
        cur = idx;
        open.back().has_node = true;
        advance();
        if (auto ok = properties(tree.nodes.back()); !ok) return tl::unexpected(ok.error());
      } else if (c == '(') {
        if (!open.back().has_node)
          return error(line_, col_, "variation before any node (expected ';' after '(')");
        open.back().had_subtree = true;
        open.push_back({cur, line_, col_});
        advance();
      } else if (c == ')') {
        if (!open.back().has_node)
          return error(open.back().line, open.back().col,
                       "empty game tree (expected ';' after '(')");
        cur = open.back().branch;
        open.pop_back();
        advance();
        if (open.empty()) return tree;
      } else {
        return error(line_, col_,
                     fmt::format("unexpected {} (expected ';', '(' or ')')", quote_char(c)));
      }
    }
  }

  Result<void> properties(SgfNode& node) {
    for (;;) {
      skip_space();
      if (at_end() || !(is_upper(s_[i_]) || is_lower(s_[i_]))) return {};
      SgfProperty p;
      p.line = line_;
      p.column = col_;
      std::size_t raw = 0;
      while (!at_end() && (is_upper(s_[i_]) || is_lower(s_[i_]))) {
        if (is_upper(s_[i_])) p.id += s_[i_];
        ++raw;
        advance();
      }
      const std::string_view raw_id = s_.substr(i_ - raw, raw);
      if (raw > 64) return error(p.line, p.column, "property identifier over 64 letters");
      if (p.id.empty())
        return error(p.line, p.column,
                     fmt::format("property identifier '{}' has no upper-case letter", raw_id));
      skip_space();
      if (at_end() || s_[i_] != '[')
        return error(p.line, p.column, fmt::format("property {} has no value", raw_id));
      while (!at_end() && s_[i_] == '[') {
        if (auto ok = count_item(); !ok) return tl::unexpected(ok.error());
        auto v = value();
        if (!v) return tl::unexpected(v.error());
        p.values.push_back(std::move(*v));
        skip_space();
      }
      node.properties.push_back(std::move(p));
    }
  }

  // A value from its '[': escapes resolved, soft line breaks dropped.
  Result<std::string> value() {
    const int line = line_, col = col_;
    advance();  // '['
    std::string v;
    for (;;) {
      if (at_end()) return error(line, col, "unterminated property value");
      const char c = s_[i_];
      if (c == ']') {
        advance();
        return v;
      }
      if (c == '\\') {
        advance();
        if (at_end()) return error(line, col, "unterminated property value");
        const char e = s_[i_];
        advance();
        if (e == '\n' || e == '\r') {
          // Soft line break: "\" before a newline ("\n", "\r", "\r\n" or "\n\r") is removed.
          const char pair = e == '\n' ? '\r' : '\n';
          if (!at_end() && s_[i_] == pair) advance();
        } else {
          v += e;
        }
        continue;
      }
      v += c;
      advance();
    }
  }

  // Counts a node or a value against kMaxSgfItems.
  Result<void> count_item() {
    if (++items_ <= kMaxSgfItems) return {};
    return error(line_, col_, fmt::format("over {} nodes and values", kMaxSgfItems));
  }

  std::string_view s_;
  std::size_t i_ = 0, items_ = 0;
  int line_ = 1, col_ = 1;
};

}  // namespace

Result<std::vector<SgfTree>> parse_sgf(std::string_view text) { return Parser(text).collection(); }

// --- Go records ----------------------------------------------------------------------------

namespace {

tl::unexpected<Error> prop_error(const SgfProperty& p, std::string_view value,
                                 std::string_view what) {
  return fail("sgf:{}:{}: {}[{}]: {}", p.line, p.column, p.id, value, what);
}

std::string_view trim(std::string_view v) {
  while (!v.empty() && is_space(v.front())) v.remove_prefix(1);
  while (!v.empty() && is_space(v.back())) v.remove_suffix(1);
  return v;
}

// SGF Number: optional sign, digits.
bool parse_int(std::string_view v, int& out) {
  v = trim(v);
  if (!v.empty() && v.front() == '+') v.remove_prefix(1);
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return !v.empty() && ec == std::errc() && end == v.data() + v.size();
}

// SGF Real (also accepts what fmt writes for any finite double, exponents included).
bool parse_real(std::string_view v, double& out) {
  v = trim(v);
  if (!v.empty() && v.front() == '+') v.remove_prefix(1);
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return !v.empty() && ec == std::errc() && end == v.data() + v.size() && std::isfinite(out);
}

// SimpleText: every line break (\n, \r, \r\n, \n\r) and other whitespace becomes one space.
std::string simple_text(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const char c = v[i];
    if ((c == '\n' || c == '\r') && i + 1 < v.size() && (v[i + 1] == '\n' || v[i + 1] == '\r') &&
        v[i + 1] != c)
      ++i;
    out += is_space(c) ? ' ' : c;
  }
  return out;
}

// A Go point "dd" (column, row from the top) on a board of `size`; with allow_pass, "" and
// (on boards up to 19x19) "tt" are passes.
Result<Move> parse_point(const SgfProperty& p, std::string_view v, int size, bool allow_pass) {
  if (v.empty()) {
    if (allow_pass) return Move::pass();
    return prop_error(p, v, "empty point");
  }
  if (allow_pass && v == "tt" && size <= 19) return Move::pass();
  if (v.size() != 2 || !is_lower(v[0]) || !is_lower(v[1]))
    return prop_error(p, v, "bad point (two letters a..s expected)");
  const int x = v[0] - 'a', row = v[1] - 'a';
  if (x >= size || row >= size)
    return prop_error(p, v, fmt::format("point off the {}x{} board", size, size));
  return Move::at(x, size - 1 - row);
}

// A list of points, each value a point or a rectangle "aa:cc" (two opposite corners).
Result<void> parse_points(const SgfProperty& p, int size, std::vector<Move>& out) {
  for (const auto& v : p.values) {
    const auto colon = v.find(':');
    if (colon == std::string::npos) {
      auto m = parse_point(p, v, size, false);
      if (!m) return tl::unexpected(m.error());
      out.push_back(*m);
      continue;
    }
    auto a = parse_point(p, std::string_view(v).substr(0, colon), size, false);
    if (!a) return tl::unexpected(a.error());
    auto b = parse_point(p, std::string_view(v).substr(colon + 1), size, false);
    if (!b) return tl::unexpected(b.error());
    const int x0 = std::min(x_of(a->sq), x_of(b->sq)), x1 = std::max(x_of(a->sq), x_of(b->sq));
    const int y0 = std::min(y_of(a->sq), y_of(b->sq)), y1 = std::max(y_of(a->sq), y_of(b->sq));
    // Rows from the top, as the file lists them.
    for (int y = y1; y >= y0; --y)
      for (int x = x0; x <= x1; ++x) out.push_back(Move::at(x, y));
  }
  return {};
}

Result<Color> parse_color(const SgfProperty& p, std::string_view v) {
  const std::string_view t = trim(v);
  if (t == "B" || t == "b") return kBlack;
  if (t == "W" || t == "w") return kWhite;
  return prop_error(p, v, "colour must be B or W");
}

Color inferred_first_player(const GameRecord& r) {
  if (!r.moves.empty()) return r.moves.front().first;
  return r.handicap >= 2 && !r.black_setup.empty() ? kWhite : kBlack;
}

Result<void> read_root(const SgfNode& root, GameRecord& rec) {
  if (const auto* gm = root.find("GM")) {
    int game = 0;
    if (gm->values.size() != 1 || !parse_int(gm->values[0], game))
      return prop_error(*gm, gm->values[0], "bad game number");
    if (game != 1) return prop_error(*gm, gm->values[0], "not a Go record (GM[1] expected)");
  }
  if (const auto* sz = root.find("SZ")) {
    const std::string_view v = sz->values[0];
    const auto colon = v.find(':');
    int cols = 0, rows = 0;
    if (!parse_int(v.substr(0, colon), cols) ||
        (colon != std::string_view::npos && !parse_int(v.substr(colon + 1), rows)))
      return prop_error(*sz, v, "bad board size");
    if (colon != std::string_view::npos && rows != cols)
      return prop_error(*sz, v, "rectangular boards are not supported");
    if (cols < kMinSize || cols > kMaxSize)
      return prop_error(*sz, v, fmt::format("board size must be {}..{}", kMinSize, kMaxSize));
    rec.size = cols;
  }
  return {};
}

}  // namespace

Result<GameRecord> read_sgf(std::string_view text) {
  auto trees = parse_sgf(text);
  if (!trees) return tl::unexpected(trees.error());
  const SgfTree& tree = trees->front();
  GameRecord rec;
  if (auto ok = read_root(tree.nodes.front(), rec); !ok) return tl::unexpected(ok.error());

  bool have_pl = false, have_km = false, have_ha = false;
  std::vector<std::pair<std::string_view, std::string*>> texts = {
      {"RE", &rec.result}, {"PB", &rec.black}, {"PW", &rec.white},
      {"DT", &rec.date},   {"RU", &rec.rules}, {"EV", &rec.event}};
  std::vector<bool> have_text(texts.size(), false);

  for (const int n : tree.main_line()) {
    const SgfNode& node = tree.nodes[n];
    const SgfProperty* move = nullptr;
    std::vector<Move> black, white;  // this node's AB / AW
    for (const auto& p : node.properties) {
      const std::string& id = p.id;
      if (id == "B" || id == "W") {
        if (move) return prop_error(p, p.values[0], "a second move in the same node");
        move = &p;
      } else if (id == "AB" || id == "AW") {
        if (auto ok = parse_points(p, rec.size, id == "AB" ? black : white); !ok)
          return tl::unexpected(ok.error());
      } else if (id == "PL") {
        auto c = parse_color(p, p.values[0]);
        if (!c) return tl::unexpected(c.error());
        if (rec.moves.empty()) {
          rec.first_player = *c;
          have_pl = true;
        }
      } else if (id == "KM" && !have_km) {
        if (!parse_real(p.values[0], rec.komi)) return prop_error(p, p.values[0], "bad komi");
        have_km = true;
      } else if (id == "HA" && !have_ha) {
        if (!parse_int(p.values[0], rec.handicap) || rec.handicap < 0 ||
            rec.handicap >= rec.size * rec.size)
          return prop_error(p, p.values[0], "bad handicap");
        have_ha = true;
      } else {
        for (std::size_t t = 0; t < texts.size(); ++t)
          if (id == texts[t].first && !have_text[t]) {
            *texts[t].second = simple_text(p.values[0]);
            have_text[t] = true;
          }
      }
    }
    // Setup before the move of the same node; black stones before white ones, whatever
    // the property order, so that writing and reading again keeps the order.
    if (rec.moves.empty()) {
      rec.black_setup.insert(rec.black_setup.end(), black.begin(), black.end());
      rec.white_setup.insert(rec.white_setup.end(), white.begin(), white.end());
    } else {
      const int at = static_cast<int>(rec.moves.size());
      for (const Move m : black) rec.later_setup.push_back({at, kBlack, m});
      for (const Move m : white) rec.later_setup.push_back({at, kWhite, m});
    }
    if (move) {
      if (move->values.size() != 1) return prop_error(*move, move->values[1], "one value only");
      auto m = parse_point(*move, move->values[0], rec.size, true);
      if (!m) return tl::unexpected(m.error());
      rec.moves.emplace_back(move->id == "B" ? kBlack : kWhite, *m);
    }
  }
  if (!have_pl) rec.first_player = inferred_first_player(rec);
  return rec;
}

Result<GameRecord> read_sgf_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("{}: cannot open", path);
  std::string text;
  // In chunks, stopping one byte over the limit: a huge file is refused without loading it.
  char buf[1 << 16];
  while (in && text.size() <= kMaxSgfBytes) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  auto rec = read_sgf(text);
  if (!rec) return with_context(rec.error(), path);
  return rec;
}

// --- writing ---------------------------------------------------------------------------------

namespace {

std::string point_text(Move m, int size) {
  if (!m.is_point()) return "";
  const int x = x_of(m.sq), row = size - 1 - y_of(m.sq);
  return {static_cast<char>('a' + x), static_cast<char>('a' + row)};
}

std::string escape(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (const char c : v) {
    if (c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

void write_points(std::string& out, std::string_view id, const std::vector<Move>& points,
                  int size) {
  if (points.empty()) return;
  out += id;
  for (const Move m : points) out += "[" + point_text(m, size) + "]";
}

}  // namespace

std::string write_sgf(const GameRecord& r) {
  std::string out = fmt::format("(;FF[4]GM[1]CA[UTF-8]AP[kibitz]SZ[{}]KM[{}]", r.size, r.komi);
  if (r.handicap > 0) out += fmt::format("HA[{}]", r.handicap);
  const std::pair<const char*, const std::string*> texts[] = {{"RE", &r.result}, {"PB", &r.black},
                                                              {"PW", &r.white},  {"DT", &r.date},
                                                              {"RU", &r.rules},  {"EV", &r.event}};
  for (const auto& [id, value] : texts)
    if (!value->empty()) out += fmt::format("{}[{}]", id, escape(*value));
  if (inferred_first_player(r) != r.first_player)
    out += r.first_player == kWhite ? "PL[W]" : "PL[B]";
  write_points(out, "AB", r.black_setup, r.size);
  write_points(out, "AW", r.white_setup, r.size);
  out += '\n';

  // Later setup stones, grouped by the move they come before (entries out of range last).
  const int n = static_cast<int>(r.moves.size());
  auto setup_node = [&](int before) {
    std::vector<Move> black, white;
    for (const auto& s : r.later_setup)
      if (std::clamp(s.before_move, 0, n) == before)
        (s.color == kWhite ? white : black).push_back(s.point);
    if (black.empty() && white.empty()) return;
    out += ';';
    write_points(out, "AB", black, r.size);
    write_points(out, "AW", white, r.size);
    out += '\n';
  };
  int on_line = 0;
  for (int i = 0; i <= n; ++i) {
    setup_node(i);
    if (i == n) break;
    const auto& [color, m] = r.moves[i];
    if (m.is_resign() || m == Move::none()) continue;  // RE tells a resignation
    out += fmt::format(";{}[{}]", color == kWhite ? 'W' : 'B', point_text(m, r.size));
    if (++on_line == 12) {
      out += '\n';
      on_line = 0;
    }
  }
  out += ")\n";
  return out;
}

// --- replay --------------------------------------------------------------------------------

namespace {

Result<void> apply_later_setup(const GameRecord& r, Position& p, int before) {
  for (const auto& s : r.later_setup) {
    if (s.before_move != before) continue;
    if (auto ok = p.place_stone(s.color, s.point.sq); !ok)
      return with_context(ok.error(), fmt::format("setup before move {}", before + 1));
  }
  return {};
}

}  // namespace

Result<Position> replay(const GameRecord& r, Rules base, int up_to_move) {
  if (r.size < kMinSize || r.size > kMaxSize)
    return fail("board size {} is not {}..{}", r.size, kMinSize, kMaxSize);
  const int total = static_cast<int>(r.moves.size());
  const int n = up_to_move < 0 ? total : std::min(up_to_move, total);
  base.size = r.size;
  base.komi = r.komi;
  if (n > Position::kHistoryCapacity - 1)
    return fail("{} moves: more than the {} a game may have", n, Position::kHistoryCapacity - 1);
  if (Position(base).max_moves() < n) base.max_moves = Position::kHistoryCapacity - 1;
  Position p(base);

  for (const auto& [color, stones] :
       {std::pair{kBlack, &r.black_setup}, std::pair{kWhite, &r.white_setup}})
    for (const Move m : *stones)
      if (auto ok = p.place_stone(color, m.sq); !ok) return with_context(ok.error(), "setup");
  p.set_to_move(r.first_player);

  for (int i = 0; i < n; ++i) {
    if (auto ok = apply_later_setup(r, p, i); !ok) return tl::unexpected(ok.error());
    const auto& [color, m] = r.moves[i];
    // Extra passes after two passes ended the game change nothing (GNU Go writes three).
    if (m.is_pass() && p.passes() >= 2) continue;
    if (p.to_move() != color && !p.is_terminal()) p.set_to_move(color);
    const Illegal why = p.check(m);
    if (why != Illegal::kLegal)
      return fail("move {} ({} {}): illegal: {}", i + 1, color == kWhite ? 'W' : 'B',
                  to_vertex(m, r.size), illegal_text(why));
    p.apply(m);
  }
  if (n == total)
    if (auto ok = apply_later_setup(r, p, total); !ok) return tl::unexpected(ok.error());
  return p;
}

}  // namespace kibitz::go
