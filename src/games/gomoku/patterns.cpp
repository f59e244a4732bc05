#include "games/gomoku/patterns.hpp"

#include <memory>

namespace kibitz::gomoku::detail {

namespace {

// Classifies every key by memoised recursion: a key with the point filled in is classified
// from the keys with one more own stone (what the next move on the line would make).
class TableBuilder {
 public:
  explicit TableBuilder(bool exact) : exact_(exact) {
    done_.fill(false);
    for (int key = 0; key < kNumKeys; ++key) classify(key);
  }
  const std::array<Entry, kNumKeys>& table() const { return table_; }

 private:
  // cells[offset + 5], offset -5..5; the centre (the point itself) holds an own stone.
  static void decode(int key, std::array<int, 11>& cells) {
    for (int offset = -kHalfWindow; offset <= kHalfWindow; ++offset) {
      if (offset == 0) {
        cells[5] = kCellOwn;
        continue;
      }
      cells[offset + 5] = (key / kPow3[digit_of(offset)]) % 3;
    }
  }

  // Can a five through the centre still be made on this line?
  bool five_possible(const std::array<int, 11>& cells) const {
    for (int start = -4; start <= 0; ++start) {
      bool open = true;
      for (int i = start; i < start + 5; ++i) open = open && cells[i + 5] != kCellBlocked;
      if (!open) continue;
      if (exact_ && (cells[start + 4] == kCellOwn || cells[start + 10] == kCellOwn)) continue;
      return true;
    }
    return false;
  }

  Entry classify(int key) {
    if (done_[key]) return table_[key];
    std::array<int, 11> cells;
    decode(key, cells);

    int left = 0;
    while (left < kHalfWindow && cells[4 - left] == kCellOwn) ++left;
    int right = 0;
    while (right < kHalfWindow && cells[6 + right] == kCellOwn) ++right;
    const int run = 1 + left + right;

    Pattern pattern = Pattern::kNone;
    Entry flags = 0;
    if (run >= 5) {
      pattern = (!exact_ || run == 5) ? Pattern::kFive : Pattern::kOverline;
    } else {
      std::array<Entry, 11> child{};
      std::array<int, 8> five_points{};
      int fives = 0;
      for (int offset = -4; offset <= 4; ++offset) {
        if (offset == 0 || cells[offset + 5] != kCellEmpty) continue;
        child[offset + 5] = classify(key + kPow3[digit_of(offset)]);
        if (entry_pattern(child[offset + 5]) == Pattern::kFive) five_points[fives++] = offset;
      }
      if (fives >= 2) {
        bool straight = false;
        for (int i = 0; i < fives; ++i)
          for (int j = i + 1; j < fives; ++j)
            straight = straight || five_points[j] - five_points[i] == 5;
        pattern = Pattern::kFlexFour;
        if (!straight) flags = kTwoFoursBit;
      } else if (fives == 1) {
        pattern = Pattern::kFour;
      } else {
        bool flex_three = false, three = false, flex_two = false, two = false;
        for (int offset = -4; offset <= 4; ++offset) {
          if (offset == 0 || cells[offset + 5] != kCellEmpty) continue;
          const Entry e = child[offset + 5];
          switch (entry_pattern(e)) {
            case Pattern::kFlexFour:
              if (e & kTwoFoursBit)
                three = true;
              else
                flex_three = true;
              break;
            case Pattern::kFour:
              three = true;
              break;
            case Pattern::kFlexThree:
              flex_two = true;
              break;
            case Pattern::kThree:
              two = true;
              break;
            default:
              break;
          }
        }
        if (flex_three)
          pattern = Pattern::kFlexThree;
        else if (three)
          pattern = Pattern::kThree;
        else if (flex_two)
          pattern = Pattern::kFlexTwo;
        else if (two)
          pattern = Pattern::kTwo;
        else
          pattern = five_possible(cells) ? Pattern::kNone : Pattern::kDead;
      }
    }

    // X O O X: two blocked cells then an own stone. A blocked cell before an own stone is
    // always an enemy stone (the wall only ever continues to the end of the window).
    int captures = 0;
    if (cells[6] == kCellBlocked && cells[7] == kCellBlocked && cells[8] == kCellOwn) ++captures;
    if (cells[4] == kCellBlocked && cells[3] == kCellBlocked && cells[2] == kCellOwn) ++captures;

    const Entry entry = static_cast<Entry>(static_cast<int>(pattern) | flags | (captures << 5));
    table_[key] = entry;
    done_[key] = true;
    return entry;
  }

  bool exact_;
  std::array<Entry, kNumKeys> table_{};
  std::array<bool, kNumKeys> done_{};
};

struct Tables {
  std::array<Entry, kNumKeys> five_or_more;
  std::array<Entry, kNumKeys> exact_five;
};

const Tables& tables() {
  static const std::unique_ptr<const Tables> t = [] {
    auto built = std::make_unique<Tables>();
    built->five_or_more = std::make_unique<TableBuilder>(false)->table();
    built->exact_five = std::make_unique<TableBuilder>(true)->table();
    return std::unique_ptr<const Tables>(std::move(built));
  }();
  return *t;
}

}  // namespace

const Entry* pattern_table(bool exact) {
  return exact ? tables().exact_five.data() : tables().five_or_more.data();
}

}  // namespace kibitz::gomoku::detail
