#pragma once
// SGF FF[4] (Smart Game Format): a general parser (collections of game trees, nodes,
// properties, variations) and, on top of it, Go game records (GM[1]): read the main line of
// the first game tree, write a record back, and replay it on a Position.
//
// Errors are one line naming the problem and where it is: "sgf:3:14: unterminated property
// value" (line:column, both from 1, columns counted in bytes).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "games/go/board.hpp"

namespace kibitz::go {

// --- the general SGF syntax --------------------------------------------------------------

struct SgfProperty {
  // Upper-case letters only: lower-case letters of old FF[1..3] identifiers ("AddBlack") are
  // dropped, as FF[4] asks readers to do.
  std::string id;
  // Each value with its escapes resolved ("\]" -> "]", "\\" -> "\") and soft line breaks
  // ("\" + newline) removed; nothing else is changed (a compose value keeps its ':').
  std::vector<std::string> values;
  int line = 0, column = 0;  // where the identifier starts
};

struct SgfNode {
  std::vector<SgfProperty> properties;
  int parent = -1;            // index in SgfTree::nodes; -1 for the root
  std::vector<int> children;  // in file order: children[0] is the main line
  int line = 0, column = 0;   // the node's ';'
  // The first property with this identifier, or nullptr.
  const SgfProperty* find(std::string_view id) const;
};

// One game tree, its variations flattened into a node array (no recursion anywhere, so a
// deeply nested file cannot exhaust the stack, neither parsing nor destroying it).
struct SgfTree {
  std::vector<SgfNode> nodes;  // nodes[0] is the root
  // The main line: the root, then the first child at every branch.
  std::vector<int> main_line() const;
};

// Limits against runaway input: bytes, and nodes plus property values in one collection
// (each takes about 100 bytes in memory; a 19x19 game has a few hundred).
inline constexpr std::size_t kMaxSgfBytes = 16u << 20;
inline constexpr std::size_t kMaxSgfItems = 1'000'000;

// Every game tree of a collection. Whitespace may surround trees, nodes, properties and
// values; anything else outside a value is an error, as is a collection without a tree.
Result<std::vector<SgfTree>> parse_sgf(std::string_view text);

// --- Go game records -----------------------------------------------------------------------

// A stone added on a node after the first move (AB/AW inside the game), applied before the
// move with index `before_move` (0-based; == moves.size() after the last move).
struct SetupStone {
  int before_move = 0;
  Color color = kBlack;
  Move point;
  friend bool operator==(const SetupStone&, const SetupStone&) = default;
};

struct GameRecord {
  int size = 19;  // SZ, 5..19
  double komi = 7.5;
  // HA: information only. As FF[4] says, it places no stones: AB does (KGS records place
  // them with B moves instead, which a fixed placement would collide with).
  int handicap = 0;
  // AB / AW up to the first move (root and any setup nodes before it), in file order.
  std::vector<Move> black_setup, white_setup;
  // The side to play first: PL when given before the first move, else the colour of the
  // first move, else white when HA >= 2 and AB are given, else black.
  Color first_player = kBlack;
  // The main line (first variation at every branch): B / W moves, passes as Move::pass().
  std::vector<std::pair<Color, Move>> moves;
  std::vector<SetupStone> later_setup;  // AB / AW on nodes after the first move
  // Game information (SimpleText: line breaks and tabs read as spaces).
  std::string result;        // RE
  std::string black, white;  // PB, PW
  std::string date;          // DT
  std::string rules;         // RU
  std::string event;         // EV
  friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

// The first game tree of an SGF text as a Go record. Game information is taken from the
// first node of the main line that has it, SZ and GM from the root (GM must be 1). Not
// kept: AE (erasing stones) on any node, PL after the first move, comments, markup and
// every variation but the first. Moves are not checked here (replay() does that).
Result<GameRecord> read_sgf(std::string_view text);
// The same for a file; errors start with the file's path.
Result<GameRecord> read_sgf_file(const std::string& path);

// FF[4] GM[1] CA[UTF-8] AP[kibitz] SZ KM [HA RE PB PW DT RU EV PL] AB AW, then one node per
// move (;B[dd];W[pp]; passes as B[]), setup nodes for later_setup. Empty text fields, HA[0]
// and a PL the reader would infer anyway are left out. read_sgf(write_sgf(r)) == r for every
// record read_sgf gives (text fields with line breaks or tabs would come back as spaces).
std::string write_sgf(const GameRecord& record);

// The position after the setup and the first `up_to_move` moves (-1: all). Size and komi
// come from the record, everything else from `base`; the move limit is raised when the
// record is longer. A move by the side not to move is played by that side (SGF allows it);
// passes after two passes ended the game are skipped (GNU Go writes three), any other move
// then fails. Records played under simple ko need base.superko = false. An illegal move
// fails as "move 12 (B D4): illegal: ko", bad setup as "setup: ...".
Result<Position> replay(const GameRecord& record, Rules base = {}, int up_to_move = -1);

}  // namespace kibitz::go
