// `kibitz hearts play`'s session: a scripted person who reads each prompt (the hand shown
// before a pass, the legal cards listed in the play prompt) and answers with the lowest cards
// plays a whole game against rule bots; unreadable and illegal answers get a reason and the
// prompt again; quit and the end of input end the session cleanly.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <sstream>
#include <streambuf>
#include <string>

#include "cli/hearts_play.hpp"
#include "games/hearts/cards.hpp"

namespace kibitz::cli {
namespace {

using hearts::CardSet;

// The cards of a hand shown as to_pretty() prints it: "S: A Q 4  H: -  D: K  C: 2".
CardSet play_parse_pretty(const std::string& text) {
  CardSet out;
  std::istringstream words(text);
  char suit = 0;
  for (std::string w; words >> w;) {
    if (w.size() == 2 && w[1] == ':') {
      suit = w[0];
    } else if (w != "-") {
      auto c = hearts::parse_card(w + suit);
      EXPECT_TRUE(c) << w << suit;
      if (c) out.add(*c);
    }
  }
  return out;
}

// An input stream buffer that answers each prompt when the session reads: `answer` gets
// everything written so far and the part since the previous answer, and returns the next
// line (nothing: the end of input).
class PlayScriptedPerson : public std::streambuf {
 public:
  using Answer =
      std::function<std::optional<std::string>(const std::string& all, const std::string& since)>;
  PlayScriptedPerson(std::ostringstream& out, Answer answer)
      : out_(out), answer_(std::move(answer)) {}
  int answers() const { return answers_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const std::string all = out_.str();
    const auto line = answers_ < 5000 ? answer_(all, all.substr(seen_)) : std::nullopt;
    seen_ = all.size();
    if (!line) return traits_type::eof();
    ++answers_;
    line_ = *line + "\n";
    setg(line_.data(), line_.data(), line_.data() + line_.size());
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::ostringstream& out_;
  Answer answer_;
  std::string line_;
  std::size_t seen_ = 0;
  int answers_ = 0;
};

// The lowest legal answer to the last prompt in `text`, or nothing when there is none.
std::optional<std::string> play_lowest_answer(const std::string& text, const std::string& = {}) {
  const auto legal = text.rfind("(legal: ");
  const auto pass = text.rfind("Pass 3 cards to ");
  if (legal != std::string::npos && (pass == std::string::npos || legal > pass)) {
    const auto end = text.find_first_of(" )", legal + 8);
    return text.substr(legal + 8, end - legal - 8);
  }
  if (pass != std::string::npos) {
    const auto hand_at = text.rfind("Your hand: ");
    if (hand_at == std::string::npos) return std::nullopt;
    const auto eol = text.find('\n', hand_at);
    CardSet hand = play_parse_pretty(text.substr(hand_at + 11, eol - hand_at - 11));
    CardSet three;
    while (three.size() < 3 && !hand.empty()) three.add(hand.pop_lowest());
    return hearts::to_string(three);
  }
  return std::nullopt;
}

HeartsPlayOptions play_rule_options(std::uint64_t seed) {
  HeartsPlayOptions o;
  o.bots = {"rule", "rule", "rule"};
  o.seed = seed;
  return o;
}

TEST(HeartsPlaySession, ScriptedPersonFinishesAGame) {
  for (const std::uint64_t seed : {1, 2}) {
    std::ostringstream out;
    PlayScriptedPerson person(out, play_lowest_answer);
    std::istream in(&person);
    EXPECT_EQ(hearts_play_session(in, out, play_rule_options(seed)), 0);
    const std::string text = out.str();
    EXPECT_NE(text.find("Game over after "), std::string::npos) << text.substr(text.size() - 2000);
    EXPECT_NE(text.find("Winner: "), std::string::npos);
    EXPECT_NE(text.find("=== Hand 4 (pass none) ==="), std::string::npos);
    EXPECT_NE(text.find("You receive "), std::string::npos);
    EXPECT_NE(text.find("West plays "), std::string::npos);
    EXPECT_NE(text.find("Scores: North "), std::string::npos);
    EXPECT_EQ(text.find("Bye."), std::string::npos);
    // One answer per trick card at least (13 per hand) and one pass per passing hand.
    EXPECT_GE(person.answers(), 4 * 13);
  }
}

TEST(HeartsPlaySession, SameSeedSameGame) {
  std::string texts[2];
  for (auto& t : texts) {
    std::ostringstream out;
    PlayScriptedPerson person(out, play_lowest_answer);
    std::istream in(&person);
    hearts_play_session(in, out, play_rule_options(7));
    t = out.str();
  }
  EXPECT_EQ(texts[0], texts[1]);
}

TEST(HeartsPlaySession, BadAnswersGetAReasonAndThePromptAgain) {
  std::ostringstream out;
  int step = 0;
  std::string illegal_reply;
  PlayScriptedPerson person(
      out, [&](const std::string& all, const std::string& since) -> std::optional<std::string> {
        const int s = step++;
        if (s == 0) return "banana";  // at the pass prompt
        if (s == 1) return "2C";      // one card only
        if (s == 2) return "help";
        if (s == 3) return "qs qs ah";  // a duplicate
        const bool playing = since.find("(legal: ") != std::string::npos;
        if (playing && illegal_reply.empty()) {
          // A card of the hand that is not legal, else one not in the hand.
          const auto at = since.rfind("(legal: ");
          const auto end = since.find(')', at);
          const auto legal = hearts::parse_cards(since.substr(at + 8, end - at - 8));
          const auto hand_at = since.rfind("Your hand: ");
          const CardSet hand = play_parse_pretty(
              since.substr(hand_at + 11, since.find('\n', hand_at) - hand_at - 11));
          const CardSet wrong = legal ? hand - *legal : CardSet{};
          illegal_reply = wrong.empty() ? "zz" : hearts::to_string(wrong.lowest());
          return illegal_reply;
        }
        if (playing && s > 40) return "quit";
        return play_lowest_answer(all);
      });
  std::istream in(&person);
  EXPECT_EQ(hearts_play_session(in, out, play_rule_options(3)), 0);
  const std::string text = out.str();
  EXPECT_NE(text.find("card 'banana': unknown"), std::string::npos) << text;
  EXPECT_NE(text.find("pass exactly 3 cards (got 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("Type a card as"), std::string::npos);
  EXPECT_NE(text.find("appears twice"), std::string::npos);
  // The illegal card's reason (or the unreadable one's), then the prompt again.
  EXPECT_TRUE(text.find("you must follow suit") != std::string::npos ||
              text.find("the first trick is led with 2C") != std::string::npos ||
              text.find("hearts are not broken") != std::string::npos ||
              text.find("no points on the first trick") != std::string::npos ||
              text.find("unknown rank") != std::string::npos)
      << text;
  EXPECT_NE(text.find("Bye."), std::string::npos);
}

TEST(HeartsPlaySession, EndOfInputAndBadOptions) {
  std::istringstream none("");
  std::ostringstream out;
  HeartsPlayOptions mixed = play_rule_options(1);
  mixed.bots = {"rule", "random", "rule"};  // North, East, West: seat order
  EXPECT_EQ(hearts_play_session(none, out, mixed), 0);
  EXPECT_NE(out.str().find("You are South; North is rule; East is random; West is rule."),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("Bye."), std::string::npos);

  HeartsPlayOptions bad = play_rule_options(1);
  bad.bots[1] = "oracle";
  std::istringstream in2("");
  std::ostringstream out2;
  EXPECT_EQ(hearts_play_session(in2, out2, bad), 2);
  EXPECT_EQ(out2.str().rfind("error: unknown hearts bot 'oracle'", 0), 0u) << out2.str();

  bad = play_rule_options(1);
  bad.seat = 4;
  std::ostringstream out3;
  EXPECT_EQ(hearts_play_session(in2, out3, bad), 2);
}

TEST(HeartsPlaySession, HintSuggestsACard) {
  HeartsPlayOptions o = play_rule_options(5);
  o.search.worlds = 4;
  o.search.time_budget_ms = 50;
  o.rules.pass_cards = false;  // straight to the play
  std::istringstream in("hint\nquit\n");
  std::ostringstream out;
  // The person may not be on lead: "hint" then comes at their first card either way.
  EXPECT_EQ(hearts_play_session(in, out, o), 0);
  const std::string text = out.str();
  const auto at = text.find("hint: ");
  ASSERT_NE(at, std::string::npos) << text;
  const auto card = hearts::parse_card(text.substr(at + 6, text.find(' ', at + 6) - at - 6));
  EXPECT_TRUE(card) << text.substr(at);
}

}  // namespace
}  // namespace kibitz::cli
