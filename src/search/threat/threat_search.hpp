#pragma once
// Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous
// threats: fours and free threes), written once against the ThreatGame concept.
//
// An AND/OR search over forcing moves. At an attacker node the side to move wins if it can
// win at once; if the opponent threatens to win at once it must answer that threat; otherwise
// it tries its forcing moves (fours for VCF, fours and free threes for VCT). At a defender
// node the attack fails if the defender can win at once or the attacker no longer threatens
// anything; otherwise every answer the game lists (blocks, captures that break the threat,
// counter-fours under VCT) must lose. A threat nobody can answer (every blocking point
// forbidden, say) wins. A game may also name a win it knows without search (optional
// `sure_win_move()`; gomoku: an open four the opponent cannot meet with a four). Depth counts
// attacker moves. Results are cached by position hash:
// a win proven within d attacker moves holds for any larger depth, a failure at depth d for
// any smaller one.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "api/concepts.hpp"
#include "core/time_budget.hpp"

namespace kibitz::search {

enum class ThreatKind : std::uint8_t { kVcf, kVct };

struct ThreatLimits {
  int max_depth = 30;           // attacker moves
  std::uint64_t max_nodes = 0;  // 0 = none
  const TimeBudget* budget = nullptr;
};

// One solve's node count and limits, for both threat searches (this one and proof_number_search).
class ThreatBudget {
 public:
  void start(const ThreatLimits& limits) {
    limits_ = limits;
    nodes_ = 0;
    aborted_ = false;
  }
  // Counts a node; true once a limit is reached, and from then on. Called at every node, right
  // after the count, so TimeBudget::poll sees every multiple of its interval (checking only at
  // some kinds of node let a 20 ms share run 158 ms).
  bool step() {
    ++nodes_;
    if (aborted_) return true;
    if (limits_.max_nodes && nodes_ >= limits_.max_nodes) aborted_ = true;
    if (limits_.budget && limits_.budget->poll(nodes_, kPollNodes)) aborted_ = true;
    return aborted_;
  }
  bool aborted() const { return aborted_; }
  std::uint64_t nodes() const { return nodes_; }

 private:
  static constexpr std::uint64_t kPollNodes = 256;
  ThreatLimits limits_;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
};

template <class G>
struct ThreatResult {
  bool win = false;
  typename G::Move move = G::Move::none();  // the first winning move
  std::vector<typename G::Move> line;       // one line of the win: attack, defence, attack...
  std::uint64_t nodes = 0;
  bool aborted = false;  // the node or time limit stopped the search before an answer
};

template <ThreatGame G>
class ThreatSearch {
 public:
  using Move = typename G::Move;

  // `table_log2`: log2 of the cache entries (16 bytes each).
  explicit ThreatSearch(int table_log2 = 18) : table_(std::size_t{1} << table_log2) {}

  void clear() { std::fill(table_.begin(), table_.end(), Entry{}); }

  // Does the side to move of `s` win by kind? `s` is restored on return.
  ThreatResult<G> solve(G& s, ThreatKind kind, const ThreatLimits& limits) {
    kind_ = kind;
    budget_.start(limits);
    ThreatResult<G> r;
    // Iterative deepening: short wins first, and cheap failures fill the cache.
    for (int depth = 1; depth <= limits.max_depth && !budget_.aborted(); ++depth) {
      Move best = Move::none();
      if (attack(s, depth, &best) && !budget_.aborted()) {
        r.win = true;
        r.move = best;
        break;
      }
    }
    r.nodes = budget_.nodes();
    r.aborted = budget_.aborted() && !r.win;
    if (r.win) r.line = principal_line(s, r.move);
    return r;
  }

 private:
  struct Entry {
    std::uint64_t key = 0;
    std::uint16_t move = 0;
    std::uint8_t win_depth = 0xFF;  // proven win within this many attacker moves
    std::uint8_t fail_depth = 0;    // proven no win within this many (0 = unknown)
    std::uint8_t kind = 0xFF;
  };

  Entry& slot(std::uint64_t key) { return table_[key & (table_.size() - 1)]; }

  // Side to move attacks. `best` receives the winning move at the root.
  bool attack(G& s, int depth, Move* best = nullptr) {
    const bool out = budget_.step();
    if (const Move w = s.winning_move()) {
      if (best) *best = w;
      store(s.hash(), w, 0, true);
      return true;
    }
    // A win the game tells without search ends the line early (gomoku's open four: two
    // attacker moves).
    if constexpr (requires { s.sure_win_move(); }) {
      if (const Move w = s.sure_win_move()) {
        if (best) *best = w;
        store(s.hash(), w, 1, true);
        return true;
      }
    }
    if (depth <= 0 || out) return false;
    const std::uint64_t key = s.hash();
    if (const Entry& e = slot(key); e.key == key && e.kind == static_cast<std::uint8_t>(kind_)) {
      if (e.win_depth <= depth) {
        if (best) *best = std::bit_cast<Move>(e.move);
        return true;
      }
      if (e.fail_depth >= depth) return false;
    }
    const int me = s.current_player();
    MoveList<G> moves;
    if (s.opponent_can_win()) {
      s.defence_moves(moves);  // forced: answer the opponent's five first
    } else if (kind_ == ThreatKind::kVcf) {
      s.four_moves(moves);
    } else {
      s.threat_moves(moves);
    }
    for (const Move m : moves) {
      typename G::Undo u;
      s.make(m, u);
      const bool won = s.is_terminal() ? s.winner() == me : defend(s, depth);
      s.unmake(m, u);
      if (budget_.aborted()) return false;
      if (won) {
        if (best) *best = m;
        store(key, m, depth, true);
        return true;
      }
    }
    store(key, Move::none(), depth, false);
    return false;
  }

  // Side to move defends against the attacker (the opponent).
  bool defend(G& s, int depth) {
    if (budget_.step()) return false;
    if (s.winning_move()) return false;  // the defender wins first
    const bool five_threat = s.opponent_can_win();
    if (!five_threat && kind_ == ThreatKind::kVcf) return false;
    const int attacker = 1 - s.current_player();
    MoveList<G> moves;
    s.defence_moves(moves);
    if (moves.size() == 0) return five_threat;  // unstoppable five, or no threat at all
    for (const Move m : moves) {
      typename G::Undo u;
      s.make(m, u);
      const bool lost = s.is_terminal() ? s.winner() == attacker : attack(s, depth - 1);
      s.unmake(m, u);
      if (!lost || budget_.aborted()) return false;
    }
    return true;
  }

  void store(std::uint64_t key, Move m, int depth, bool win) {
    Entry& e = slot(key);
    const auto k = static_cast<std::uint8_t>(kind_);
    if (e.key != key || e.kind != k) e = Entry{key, 0, 0xFF, 0, k};
    if (win) {
      if (depth < e.win_depth) {
        e.win_depth = static_cast<std::uint8_t>(depth);
        e.move = std::bit_cast<std::uint16_t>(m);
      }
    } else {
      e.fail_depth = std::max<std::uint8_t>(e.fail_depth, static_cast<std::uint8_t>(depth));
    }
  }

  // One line of the proven win, from the cache: the attacker's cached move, the defender's
  // first listed answer, and so on until the game ends.
  std::vector<Move> principal_line(G& s, Move first) {
    std::vector<Move> line;
    std::vector<std::pair<Move, typename G::Undo>> played;
    Move m = first;
    for (int guard = 0; m && guard < 2 * 64; ++guard) {
      line.push_back(m);
      played.emplace_back(m, typename G::Undo{});
      s.make(m, played.back().second);
      if (s.is_terminal()) break;
      // Defender: its first answer (all lose).
      MoveList<G> answers;
      s.defence_moves(answers);
      // No answer at all (every block illegal, say): any legal move, then the five.
      if (answers.size() == 0) s.legal_moves(answers);
      if (answers.size() == 0) break;
      const Move d = answers[0];
      line.push_back(d);
      played.emplace_back(d, typename G::Undo{});
      s.make(d, played.back().second);
      if (s.is_terminal()) break;
      if (const Move w = s.winning_move()) {
        m = w;
        continue;
      }
      const Entry& e = slot(s.hash());
      m = e.key == s.hash() && e.win_depth != 0xFF ? std::bit_cast<Move>(e.move) : Move::none();
    }
    for (auto it = played.rbegin(); it != played.rend(); ++it) s.unmake(it->first, it->second);
    return line;
  }

  std::vector<Entry> table_;
  ThreatKind kind_ = ThreatKind::kVcf;
  ThreatBudget budget_;
};

}  // namespace kibitz::search
