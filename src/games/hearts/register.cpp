// Hearts' entry in the registry: whole deals as positions, duplicate matches between the
// in-process bots in `kibitz match`, and `kibitz hearts` (matches, terminal play, the
// JSON-lines bot).
#include "games/hearts/register.hpp"
#include "cli/commands.hpp"
#include "games/hearts/cards.hpp"
#include "games/hearts/hearts_game.hpp"
#include "match/hearts_arena.hpp"

#include <bit>
#include <nlohmann/json.hpp>

#include "games/hearts/state.hpp"

namespace kibitz::hearts {

namespace {

nlohmann::json card_list(CardSet cards) {
  nlohmann::json out = nlohmann::json::array();
  for (std::uint64_t b = cards.bits(); b; b &= b - 1)
    out.push_back(to_string(Card(std::countr_zero(b))));
  return out;
}

// The page's view of a hand, as seat `viewer` sees it (-1: every hand): the pass direction,
// the phase, each seat's cards left and tricks and points taken, the viewer's hand (and its
// picks to pass, and the cards it received), the trick on the table, every finished trick
// (public: who led, the cards by seat, who won), and once over, the hand's scores.
Result<std::string> web_view(std::string_view text, int viewer) {
  auto s = parse_position_text(text);
  if (!s) return tl::unexpected(s.error());
  using nlohmann::json;
  json j;
  j["viewer"] = viewer;
  j["dir"] = to_string(s->pass_dir());
  j["phase"] = s->phase() == Phase::kPass ? "pass" : s->phase() == Phase::kPlay ? "play" : "over";
  j["to_move"] = s->is_terminal() ? -1 : s->current_player();
  json seats = json::array();
  for (int seat = 0; seat < kNumPlayers; ++seat) {
    json one = {{"cards", s->hand(seat).size()},
                {"tricks", s->tricks_won(seat)},
                {"points", s->raw_points(seat)},
                {"taken", card_list(s->taken(seat) & kPointCards)}};
    if (viewer < 0 || viewer == seat) {
      one["hand"] = card_list(s->hand(seat));
      one["passed"] = card_list(s->passed(seat));
      one["received"] = s->phase() == Phase::kPass ? json::array() : card_list(s->received(seat));
    }
    seats.push_back(one);
  }
  j["seats"] = seats;
  json trick = json::array();
  for (int i = 0; i < s->trick_size(); ++i)
    trick.push_back({(s->leader() + i) % kNumPlayers, to_string(s->trick_card(i))});
  j["trick"] = trick;
  json tricks = json::array();
  for (int t = 0; t < s->tricks_done(); ++t) {
    json cards = json::array();
    int winner = s->play_seat(4 * t);
    Card best = s->play(4 * t);
    for (int i = 4 * t; i < 4 * t + 4; ++i) {
      cards.push_back({s->play_seat(i), to_string(s->play(i))});
      if (s->play(i).suit() == best.suit() && s->play(i).rank() > best.rank()) {
        best = s->play(i);
        winner = s->play_seat(i);
      }
    }
    tricks.push_back({{"cards", cards}, {"winner", winner}});
  }
  j["tricks"] = tricks;
  j["hearts_broken"] = s->hearts_broken();
  j["scores"] = s->is_terminal() ? json(s->hand_scores()) : json(nullptr);
  return j.dump();
}

}  // namespace

GameEntry registry_entry() {
  GameEntry e;
  e.name = "hearts";
  e.title = "Hearts";
  e.demo = cli::demo_hearts;
  e.summary =
      "Hearts, four seats, the whole deal visible (position: [pass] 52 cards N E S W or "
      "\"seed N\", then the cards played)";
  e.num_players = 4;
  e.position_params = {{"pass", "{}", "left, right, across or none"},
                       {"seed", "seed {}", "the deal's seed"}};
  // The deal as chance: card k of the 52 drawn goes to seat k % 4 (N, E, S, W); a card's
  // number is its action's, 13 suit + rank.
  e.chance_start = GameEntry::ChanceStart{
      .outcomes = kNumCards,
      .text =
          [](std::string_view head, std::span<const int> drawn) {
            std::string out(head);
            for (int seat = 0; seat < kNumPlayers; ++seat)
              for (std::size_t k = static_cast<std::size_t>(seat); k < drawn.size();
                   k += kNumPlayers)
                out += (out.empty() ? "" : " ") +
                       to_string(Card(static_cast<Suit>(drawn[k] / 13), drawn[k] % 13));
            return out;
          },
      .name = [](int a) { return to_string(Card(static_cast<Suit>(a / 13), a % 13)); }};
  e.new_state = new_any_state;
  e.engine = engine::make_hearts_any_engine;
  e.web_view = web_view;
  e.hidden_information = true;
  e.arena = match::make_hearts_kind;
  e.records = "JSON lines";
  e.bots = "search, rule, random";
  e.match_help =
      R"(Hearts (--game hearts; in-process bots only): duplicate deals. The first player of a game
  plays North and South, the second East and West, and the pair's other game deals the same
  cards with the players swapped. A game is one hand (the deal's passing direction); the side
  whose two seats took fewer points wins ("NS 9 - EW 17"). Openings: a deal file (id pass N E
  S W a line, as ../shared/data/hearts/deals_10000_v1.tsv), else 10,000 deals from --seed.
  The search bot's budget per decision is --movetime (default 900 ms), --nodes its sampled
  worlds (default 128); option.NAME any of the search's settings (configs/hearts.yaml: worlds,
  depth, beta, model_epsilon, ...). The report adds points per hand (PPH, one seat's, lower
  is better); records are a JSON line per hand.)";
  e.commands = [](CLI::App& app) { return std::vector<Command>{{"hearts", cli::add_hearts(app)}}; };
  return e;
}

}  // namespace kibitz::hearts
