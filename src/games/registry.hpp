#pragma once
// The games this build plays: one GameEntry per game, made in games/<game>/register.cpp and
// listed once in games/register_builtin.cpp. `kibitz games`, `match`, `bench`, the program's
// subcommands and the registry conformance test all iterate it. The entries sit above every
// layer (they wire a game's state, referee, bench and commands together); nothing below the
// program includes this header.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "api/any_state.hpp"
#include "core/error.hpp"
#include "engine/any_engine.hpp"
#include "engine/bench.hpp"
#include "engine/mcts_request.hpp"
#include "match/arena.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace kibitz {

// What `kibitz match` settings a game takes besides the common ones.
enum MatchSetting : unsigned {
  kBoardSizeSetting = 1,  // --board-size
  kRuleSetting = 2,       // --rule
  kKomiSetting = 4,       // --komi
  kMaxYearSetting = 8,    // --max-year
};

// What `kibitz demo` asks of each game's part of the tour.
struct DemoRequest {
  std::uint64_t seed = 1;  // the searches' and deals' seed
  int perft_depth = 5;     // chess: the deepest perft shown
};

// A subcommand of the program: its name and what runs it (the exit status).
struct Command {
  std::string name;
  std::function<int()> run;
};

struct GameEntry {
  std::string name;     // on the command line: "gomoku"
  std::string title;    // in sentences: "Gomoku"
  std::string summary;  // one line for `kibitz games`
  int num_players = 2;
  // The position from the game's position text ("" = the standard start). Empty where the
  // game has no AnyState (Diplomacy's phases are simultaneous).
  StateFactory new_state;
  // The parameters of the Python bindings' load_game(name, **params): each one's name, how it
  // is written at the head of the position text ("komi {}"), in the order the text takes
  // them, and what it takes. The text of a game's start is the given ones, written so.
  struct PositionParam {
    std::string name;
    std::string format;
    std::string help;
  };
  std::vector<PositionParam> position_params;
  // A start dealt by chance, for the Python module's chance nodes (OpenSpiel's way): when the
  // game is loaded without its `seed` parameter, the state begins with `outcomes` chance
  // actions, each outcome drawn once, uniformly from those left (Hearts: the 52 cards, dealt
  // to the seats in turn); text(head, drawn) is then the position text, and name(outcome) an
  // outcome's text. Empty: no chance.
  struct ChanceStart {
    int outcomes = 0;
    std::function<std::string(std::string_view head, std::span<const int> drawn)> text;
    std::function<std::string(int outcome)> name;
  };
  std::optional<ChanceStart> chance_start;
  // The generic MCTS (search/mcts, engine/generic_mcts.hpp) on a position text, for the
  // Python module's kibitz.mcts(); empty: not offered (Hearts: its positions show every hand).
  std::function<Result<engine::MctsAnswer>(std::string_view, const engine::MctsRequest&)> mcts;
  unsigned match_settings = 0;  // MatchSetting bits
  // The referee of `kibitz match` for these settings (they have passed match_settings).
  // Empty: the generic referee over new_state (match/state_arena.hpp).
  std::function<Result<std::unique_ptr<match::GameKind>>(const match::GameSettings&)> arena;
  // A new engine of the game behind the one contract (engine/any_engine.hpp); empty: none.
  std::function<std::unique_ptr<engine::AnyEngine>()> engine;
  // `kibitz bench --game NAME`: prints the report and returns the exit status; empty: none.
  std::function<int(const engine::BenchRequest&)> bench;
  // The bench's golden signature, which changes only when the search or evaluation does (a
  // test runs every entry's): the file under tests/golden holding the number, the bench's
  // arguments after `--game NAME`, and the report line's label that carries it.
  struct BenchGolden {
    std::string file;
    std::vector<std::string> args;
    std::string label;
  };
  std::optional<BenchGolden> bench_golden;
  // The help texts the program builds from the entries (none names a game of its own):
  std::string protocol;    // external engines' protocol in `kibitz match` ("UCI"); "": none
  std::string records;     // the format of its game records ("PGN")
  std::string bots;        // the in-process bots of `kibitz match`, one line
  std::string bench_help;  // what its bench searches, a few words
  std::string match_help;  // its paragraph in `kibitz match --help` (wrapped, 2-space indent)
  // Its part of `kibitz demo`: a few seconds showing what it does (printed on stdout).
  std::function<void(const DemoRequest&)> demo;
  // `kibitz serve`: the position text as the game's web page draws it, a JSON object
  // (docs/serve.md gives each game's fields), as `viewer` may see it (a seat, or -1 for
  // everything); empty: the game has no page.
  std::function<Result<std::string>(std::string_view position_text, int viewer)> web_view;
  // `kibitz serve`: the game as a record (PGN, SGF: `records` names it) from its position
  // text, and a record read back as a position text; empty: none.
  std::function<Result<std::string>(std::string_view position_text)> to_record;
  std::function<Result<std::string>(std::string_view record)> from_record;
  // Players see only part of the state (Hearts' hands): `kibitz serve` shows a page's seat
  // only its own information, and lets it move only in its own turn.
  bool hidden_information = false;
  // The game's own subcommands (`kibitz uci`, `kibitz gomoku`), added to the program's.
  std::function<std::vector<Command>(CLI::App&)> commands;
};

class Registry {
 public:
  void add(GameEntry entry);  // replaces an entry of the same name
  const GameEntry* find(std::string_view name) const;
  const std::vector<GameEntry>& games() const { return games_; }
  // "chess, gomoku, go" (the names of the entries for which `has` holds; all by default).
  std::string names(const std::function<bool(const GameEntry&)>& has = {}) const;
  // "Go" (the titles of the games that take a MatchSetting, joined by "and"; "none").
  std::string titles_taking(unsigned setting) const;
  // "Chess, Gomoku, Go, Hearts and Diplomacy": every title, in sentence form.
  std::string titles() const;
  // `kibitz match`'s referee for the game `name` with these settings; an error names an
  // unknown game or a setting the game does not take.
  Result<std::unique_ptr<match::GameKind>> game_kind(std::string_view name,
                                                     const match::GameSettings& settings) const;

 private:
  std::vector<GameEntry> games_;
};

// Defined in games/register_builtin.cpp: adds every game this build has.
void register_builtin_games(Registry& registry);
// The registry of the builtin games, made on first use.
const Registry& builtin_registry();
// builtin_registry().game_kind(name, settings).
Result<std::unique_ptr<match::GameKind>> make_game_kind(std::string_view name,
                                                        const match::GameSettings& settings);

}  // namespace kibitz
