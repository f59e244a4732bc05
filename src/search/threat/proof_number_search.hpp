#pragma once
// Threat-space search by depth-first proof-number search (df-pn, Nagai 2002, with the 1+epsilon
// thresholds of Pawlewicz and Lew 2007): the same AND/OR tree as ThreatSearch (threat_search.hpp)
// and the same answer type, searched best-first instead of by iterative deepening.
//
// Each node keeps a proof number (how many leaves must still be proved for the attacker to win)
// and a disproof number (how many for it to fail). The search always descends into the child
// that is cheapest to settle: the attacker's threat that leaves the defender the fewest answers,
// the answer that is hardest to beat. A threat tree is narrow along a forced line and wide only
// where the defender has choices, so this reaches wins of 15-30 plies that a full-width
// iterative deepening over every threat and every answer does not (gomoku: the wins a peer
// engine announces 10+ attacker moves deep). Children are counted when their parent is
// expanded: a threat's initial proof number is the number of answers the defender has to it.
// A game may instead guess that number without playing the threat (optional
// `answers_estimate(move)`, at least 1; gomoku's reads its pattern state): the children are then
// not played until entered, which made gomoku's nodes several times cheaper and proved more of
// the puzzle sets in the same time (BENCHMARKS.md, issue 23, sixteenth step).
//
// Proof numbers do not see length, so a search with room for 30 attacker moves can spend its
// budget down a long line of fours while a win in three waits; the depth cap is therefore raised
// in steps (4 attacker moves, then max_depth), each step a full df-pn. Values live in
// a two-way transposition table (24-byte entries, the smaller subtree replaced) keyed by
// position, kind, attacker and the attacker moves left, so every entry is exact for its key: a
// later step or a later solve (the defence stage checks one candidate after another) reuses what
// an earlier one proved, disproved or half-explored. The position after a move holds one more
// stone, so the tree has no cycles.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "api/concepts.hpp"
#include "core/time_budget.hpp"
#include "core/zobrist.hpp"
#include "search/threat/threat_search.hpp"

namespace kibitz::search {

template <ThreatGame G>
class ProofNumberSearch {
 public:
  using Move = typename G::Move;

  // `table_log2`: log2 of the table entries (24 bytes each).
  explicit ProofNumberSearch(int table_log2 = 19)
      : table_(std::size_t{1} << std::max(table_log2, 1)) {
    children_.reserve(1 << 14);
  }

  void clear() { std::fill(table_.begin(), table_.end(), Entry{}); }

  // Does the side to move of `s` win by kind? `s` is restored on return.
  ThreatResult<G> solve(G& s, ThreatKind kind, const ThreatLimits& limits) {
    kind_ = kind;
    budget_.start(limits);
    ++generation_;
    attacker_ = s.current_player();
    salt_ = kSalt[static_cast<int>(kind) * 2 + (attacker_ & 1)];
    const int max_depth = std::clamp(limits.max_depth, 0, kMaxDepth);
    ThreatResult<G> r;
    for (int cap = std::min(kFirstCap, max_depth);; cap = std::min(kCapStep * cap, max_depth)) {
      children_.clear();
      const Value v = mid(s, true, cap, kInfinity, kInfinity);
      if (v.pn == 0) {
        const Entry* e = find(key_of(s, cap));
        r.move = e ? std::bit_cast<Move>(e->move) : Move::none();
        r.win = static_cast<bool>(r.move);  // false only if the root's entry was overwritten
        if (r.win) r.line = principal_line(s, cap);
      }
      r.aborted = !r.win && (v.dn != 0 || budget_.aborted());
      if (r.win || budget_.aborted() || cap >= max_depth) break;
    }
    r.nodes = budget_.nodes();
    return r;
  }

 private:
  using Num = std::uint32_t;
  // A decided node's other number. Open nodes' sums saturate one below it: the tree is a DAG,
  // so sums count shared subtrees more than once and can grow past any bound along a long
  // forced line; a saturated node must still read as open.
  static constexpr Num kInfinity = 1u << 31;
  static constexpr Num kSaturated = kInfinity - 1;

  struct Value {
    Num pn = 1;
    Num dn = 1;
  };
  struct Entry {
    std::uint64_t key = 0;
    Num pn = 1;
    Num dn = 1;
    std::uint32_t work = 0;  // nodes spent on it: the replacement priority
    std::uint16_t move = 0;  // the proving move (attacker) or the best child
    bool used = false;
    std::uint8_t generation = 0;  // the solve that stored it: older ones are replaced first
  };
  struct Child {
    Move move;
    Value v;
  };

  static constexpr int kMaxDepth = 63;
  // The depth caps: 4 attacker moves, then 32 (both at most max_depth), then 256... Chosen on
  // the shared puzzle sets (BENCHMARKS.md): 2, 4, 8, ... spent too much on disproofs at the
  // small caps, a single cap missed short wins.
  static constexpr int kFirstCap = 4;
  static constexpr int kCapStep = 8;
  static constexpr std::uint64_t kSalt[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full,
                                             0x165667B19E3779F9ull, 0xD6E8FEB86659FD93ull};
  static constexpr ZobristTable<kMaxDepth + 1> kDepthKeys{0x5EED0F7ull};

  // The table key: the position, the kind and attacker (salt_), and the attacker moves left.
  std::uint64_t key_of(const G& s, int depth) const {
    return s.hash() ^ salt_ ^ kDepthKeys[static_cast<std::size_t>(std::max(depth, 0))];
  }

  const Entry* find(std::uint64_t key) const {
    const std::size_t i = key & (table_.size() - 2);
    for (std::size_t j = i; j < i + 2; ++j)
      if (table_[j].used && table_[j].key == key) return &table_[j];
    return nullptr;
  }

  // Which of a bucket's two entries a new key displaces: an earlier solve's first, then the
  // smaller subtree.
  std::uint64_t priority(const Entry& e) const {
    return e.generation == generation_ ? std::uint64_t{e.work} + 1 : 0;
  }

  void store(std::uint64_t key, Value v, Move m, std::uint64_t work) {
    const std::size_t i = key & (table_.size() - 2);
    Entry* slot = nullptr;
    for (std::size_t j = i; j < i + 2; ++j)
      if (table_[j].used && table_[j].key == key) slot = &table_[j];
    if (!slot) slot = priority(table_[i]) <= priority(table_[i + 1]) ? &table_[i] : &table_[i + 1];
    const auto w = static_cast<std::uint32_t>(std::min<std::uint64_t>(work, UINT32_MAX));
    *slot = Entry{key,
                  v.pn,
                  v.dn,
                  std::max(w, slot->key == key ? slot->work : 0u),
                  std::bit_cast<std::uint16_t>(m),
                  true,
                  generation_};
  }

  // What a node is before any search: decided (with the winning move where the attacker wins
  // at once), or open with its moves in `moves` (the game's order, strongest first).
  struct Leaf {
    bool decided = false;
    Value v;
    Move win = Move::none();
  };
  static constexpr Value kProven{0, kInfinity};
  static constexpr Value kDisproven{kInfinity, 0};

  Leaf classify(const G& s, bool attacker_to_move, int depth, MoveList<G>& moves) const {
    moves.clear();
    if (s.is_terminal()) return {true, s.winner() == attacker_ ? kProven : kDisproven, {}};
    if (attacker_to_move) {
      if (const Move w = s.winning_move()) return {true, kProven, w};
      if constexpr (requires { s.sure_win_move(); }) {
        if (const Move w = s.sure_win_move()) return {true, kProven, w};
      }
      if (depth <= 0) return {true, kDisproven, {}};
      if (s.opponent_can_win())
        s.defence_moves(moves);  // forced: answer the defender's five first
      else if (kind_ == ThreatKind::kVcf)
        s.four_moves(moves);
      else
        s.threat_moves(moves);
      if (moves.size() == 0) return {true, kDisproven, {}};
      return {false, {1, static_cast<Num>(moves.size())}, {}};
    }
    if (s.winning_move()) return {true, kDisproven, {}};  // the defender wins first
    const bool five_threat = s.opponent_can_win();
    if (!five_threat && kind_ == ThreatKind::kVcf) return {true, kDisproven, {}};
    s.defence_moves(moves);
    // No answer: an unstoppable five, or no threat at all.
    if (moves.size() == 0) return {true, five_threat ? kProven : kDisproven, {}};
    return {false, {static_cast<Num>(moves.size()), 1}, {}};
  }

  static Num add(Num a, Num b) {
    return static_cast<Num>(std::min<std::uint64_t>(std::uint64_t{a} + b, kSaturated));
  }

  // One df-pn descent: search the node until its proof number reaches `th_pn` or its disproof
  // number `th_dn` (or it is decided), and return its numbers.
  Value mid(G& s, bool attacker_to_move, int depth, Num th_pn, Num th_dn) {
    const bool out = budget_.step();
    const std::uint64_t start = budget_.nodes();
    const std::uint64_t key = key_of(s, depth);
    if (out) {
      const Entry* e = find(key);
      return e ? Value{e->pn, e->dn} : Value{};
    }
    // A node met before (a transposition, or a threat whose numbers were only guessed):
    // settled, or already past what this descent may spend on it.
    if (const Entry* e = find(key);
        e && (e->pn == 0 || e->dn == 0 || e->pn >= th_pn || e->dn >= th_dn))
      return {e->pn, e->dn};
    MoveList<G> moves;
    const Leaf leaf = classify(s, attacker_to_move, depth, moves);
    if (leaf.decided) {
      store(key, leaf.v, leaf.win, 1);
      return leaf.v;
    }
    // The children's numbers: from the table, or counted now (decided ones settled at once).
    // A game that can guess a threat's answers without playing it (answers_estimate) spares
    // each node a move and a scan of the board per child: a threat starts at the guess, an
    // answer at 1 / 1, and a child's real numbers come when it is entered (most never are).
    const std::size_t base = children_.size();
    const std::size_t n = moves.size();
    children_.resize(base + n);
    const int child_depth = attacker_to_move ? depth - 1 : depth;
    for (std::size_t i = 0; i < n; ++i) {
      Child& c = children_[base + i];
      c.move = moves[i];
      if constexpr (requires { s.answers_estimate(c.move); }) {
        c.v =
            attacker_to_move ? Value{static_cast<Num>(s.answers_estimate(c.move)), 1} : Value{1, 1};
        continue;
      }
      typename G::Undo u;
      s.make(c.move, u);
      const std::uint64_t child_key = key_of(s, child_depth);
      if (const Entry* e = find(child_key)) {
        c.v = {e->pn, e->dn};
      } else {
        MoveList<G> grand;
        const Leaf l = classify(s, !attacker_to_move, child_depth, grand);
        c.v = l.v;
        if (l.decided) store(child_key, l.v, l.win, 1);
      }
      s.unmake(c.move, u);
    }
    Value v;
    std::size_t best = base;
    for (;;) {
      // OR node (attacker): proof = the cheapest child's, disproof = the sum; AND node mirrored.
      Num lo = kInfinity, second = kInfinity, sum = 0;
      best = base;
      for (std::size_t i = base; i < base + n; ++i) {
        const Num pick = attacker_to_move ? children_[i].v.pn : children_[i].v.dn;
        const Num other = attacker_to_move ? children_[i].v.dn : children_[i].v.pn;
        sum = add(sum, other);
        if (pick < lo) {
          second = lo;
          lo = pick;
          best = i;
        } else if (pick < second) {
          second = pick;
        }
      }
      v = attacker_to_move ? Value{lo, sum} : Value{sum, lo};
      if (v.pn == 0 || v.dn == 0 || v.pn >= th_pn || v.dn >= th_dn || budget_.aborted()) break;
      // Thresholds for the chosen child: it may grow until it passes the runner-up (by 1+1/4,
      // against thrashing between two close children) or the parent's own threshold.
      const Child c = children_[best];  // a copy: the children's stack grows under the descent
      const Num widen = static_cast<Num>(
          std::min<std::uint64_t>(kInfinity, std::uint64_t{second} + std::max<Num>(1, second / 4)));
      Num c_pn, c_dn;
      if (attacker_to_move) {
        c_pn = std::min(th_pn, widen);
        c_dn = static_cast<Num>(
            std::min<std::uint64_t>(kInfinity, std::uint64_t{th_dn} - v.dn + c.v.dn));
      } else {
        c_dn = std::min(th_dn, widen);
        c_pn = static_cast<Num>(
            std::min<std::uint64_t>(kInfinity, std::uint64_t{th_pn} - v.pn + c.v.pn));
      }
      typename G::Undo u;
      s.make(c.move, u);
      const Value cv = mid(s, !attacker_to_move, child_depth, c_pn, c_dn);
      s.unmake(c.move, u);
      children_[best].v = cv;
    }
    const Move chosen = children_[best].move;
    children_.resize(base);
    store(key, v, chosen, budget_.nodes() - start + 1);
    return v;
  }

  // One line of the proven win, from the table: the attacker's proving move, the defender's
  // first listed answer, and so on until the game ends or the table has lost the line.
  std::vector<Move> principal_line(G& s, int depth) {
    std::vector<Move> line;
    std::vector<std::pair<Move, typename G::Undo>> played;
    MoveList<G> moves;
    for (int guard = 0; guard < 2 * (kMaxDepth + 1); ++guard) {
      const bool attacker_to_move = s.current_player() == attacker_;
      Move m = Move::none();
      if (s.is_terminal()) break;
      if (attacker_to_move) {
        if (const Move w = s.winning_move()) {
          m = w;
        } else if (const Entry* e = find(key_of(s, depth)); e && e->pn == 0) {
          m = std::bit_cast<Move>(e->move);
          --depth;
        }
      } else {
        s.defence_moves(moves);
        if (moves.size() == 0) s.legal_moves(moves);  // no answer at all: any move, then five
        if (moves.size() > 0) m = moves[0];
      }
      if (!m) break;
      line.push_back(m);
      played.emplace_back(m, typename G::Undo{});
      s.make(m, played.back().second);
    }
    for (auto it = played.rbegin(); it != played.rend(); ++it) s.unmake(it->first, it->second);
    return line;
  }

  std::vector<Entry> table_;
  std::vector<Child> children_;  // the children of every node on the current path
  ThreatKind kind_ = ThreatKind::kVcf;
  ThreatBudget budget_;
  std::uint8_t generation_ = 0;
  std::uint64_t salt_ = 0;
  int attacker_ = 0;
};

}  // namespace kibitz::search
