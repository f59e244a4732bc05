#include "games/hearts/hearts_game.hpp"

#include <fmt/format.h>

#include <charconv>
#include <memory>
#include <vector>

#include "api/game_state.hpp"
#include "core/rng.hpp"
#include "core/text.hpp"
#include "games/hearts/state.hpp"

namespace kibitz::hearts {

namespace {

class HeartsState final : public GameState<HeartsState, State> {
 public:
  HeartsState(const Deal& deal, PassDir dir) : GameState(State(deal, dir)), deal_(deal) {}
  std::string move_text(Card c) const { return hearts::to_string(c); }
  Result<void> apply(std::string_view text) override {
    if (pos_.is_terminal()) return fail("card '{}': the hand is over", text);
    auto c = parse_card(text);
    if (!c) return tl::unexpected(c.error());
    if (!pos_.is_legal(*c))
      return fail("card {} is not legal for seat {} now", hearts::to_string(*c),
                  pos_.current_player());
    pos_.apply(*c);
    played_.push_back(*c);
    return {};
  }
  std::string to_string() const override {
    std::string out(hearts::to_string(pos_.pass_dir()));
    for (const CardSet& hand : deal_) out += " " + hearts::to_string(hand);
    for (Card c : played_) out += " " + hearts::to_string(c);
    return out;
  }

 private:
  Deal deal_;
  std::vector<Card> played_;
};

Result<std::unique_ptr<HeartsState>> parse_state(std::string_view text) {
  const auto tokens = split_blanks(text);
  std::size_t i = 0;
  PassDir dir = PassDir::kLeft;
  if (i < tokens.size()) {
    if (auto d = parse_pass_dir(tokens[i])) {
      dir = *d;
      ++i;
    }
  }
  Deal deal{};
  if (i == tokens.size() || tokens[i] == "seed") {
    std::uint64_t seed = 1;
    if (i < tokens.size()) {
      if (i + 1 == tokens.size()) return fail("hearts position: 'seed' needs a number");
      const auto t = tokens[i + 1];
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), seed);
      if (ec != std::errc{} || end != t.data() + t.size())
        return fail("hearts position: seed '{}' is not a number", t);
      i += 2;
    }
    Rng rng(seed);
    deal = random_deal(rng);
  } else {
    if (tokens.size() - i < 52)
      return fail("hearts position: a deal needs 52 cards (found {} words)", tokens.size() - i);
    auto d = parse_deal(std::span<const std::string_view>(tokens).subspan(i, 52));
    if (!d) return with_context(d.error(), "hearts position");
    deal = *d;
    i += 52;
  }
  auto state = std::make_unique<HeartsState>(deal, dir);
  for (std::size_t first = i; i < tokens.size(); ++i)
    if (auto r = state->apply(tokens[i]); !r)
      return with_context(r.error(), fmt::format("hearts position, card {}", i - first + 1));
  return state;
}

}  // namespace

Result<std::unique_ptr<AnyState>> new_any_state(std::string_view text) {
  return as_any_state(parse_state(text));
}

Result<State> parse_position_text(std::string_view text) { return as_position(parse_state(text)); }

}  // namespace kibitz::hearts
