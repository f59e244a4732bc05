// Hearts' entry in the registry: whole deals as positions, duplicate matches between the
// in-process bots in `kibitz match`, and `kibitz hearts` (matches, terminal play, the
// JSON-lines bot).
#include "games/hearts/register.hpp"
#include "cli/commands.hpp"
#include "games/hearts/cards.hpp"
#include "games/hearts/hearts_game.hpp"
#include "match/hearts_arena.hpp"

namespace kibitz::hearts {

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
