#pragma once
// A JSON-lines session that lends a Kibitz Hearts bot to another program for one seat. The
// client reports the hand as it happens (deal, passes, every card played at the table) and
// asks for the bot's pass or card; the session keeps the seat's Observation, which checks
// each event against the rules and everything seen so far, and asks the Hearts engine through
// the one engine contract (engine/any_engine.hpp) with the seat's view as text.
//
// One JSON object per input line, one JSON object per reply line (flushed). Commands, by
// their "cmd" field:
//   {"cmd":"new_deal","seat":2,"hand":"2C 3C ...","pass":"left","scores":[0,0,0,0]}
//                                    pass (default "none") and scores (game scores before
//                                    this hand) are optional           -> {"ok":true}
//   {"cmd":"pass"}                   the bot passes: {"ok":true,"cards":"QS AS KH"}
//   {"cmd":"pass","cards":"..."}     the client passed these for us    -> {"ok":true}
//   {"cmd":"receive","cards":"..."}  the three cards we received       -> {"ok":true}
//   {"cmd":"play","seat":1,"card":"QS"}  a card played by any seat, ours included
//                                    -> {"ok":true} (+ "trick_winner":s when it ends a trick,
//                                       + "hand_over":true,"points":[...] when it ends the hand)
//   {"cmd":"best"} (or "query")      our turn: the bot's card and its evaluation, not played
//                                    (the client sends "play" for it): {"ok":true,"card":"7C",
//                                    "strategy":..,"worlds":..,"nodes":..,"ms":..,
//                                    "budget_exceeded":..,"moves":[{"card","utility",
//                                    "expected_points","variance"},...]} (moves best first;
//                                    empty for the rule and random bots)
//   {"cmd":"state"}                  seat, phase, pass, hand, passed, received, trick
//                                    ([{"seat","card"}]), tricks_done, hearts_broken, points
//                                    (taken per seat), to_play (null when unknown), legal (our
//                                    turn)
//   {"cmd":"quit"}                   -> {"ok":true}, and the session ends
// Anything wrong gets {"ok":false,"error":"<one line>"} and the session goes on. Blank lines
// are skipped; the end of input ends the session.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>

#include "engine/hearts_engine.hpp"
#include "games/hearts/state.hpp"

namespace kibitz::jsonl {

struct ServeOptions {
  std::string bot = "search";       // random, rule or search
  hearts::SearchCfg search;         // the search bot's settings
  hearts::Options rules;            // the rules every hand is played under
  std::uint64_t seed = 1;           // varies the random bot and the search's worlds
  hearts::TelemetrySink telemetry;  // the bot's telemetry lines (empty: none)
};

class ServeSession {
 public:
  ServeSession(std::istream& in, std::ostream& out, ServeOptions options = {});
  ~ServeSession();
  // Runs until quit or the end of input: 0, or 2 when the bot could not be made (an error
  // reply says why).
  int run();
  // One input line, answered on the output (exposed for tests); false after quit.
  bool handle(std::string_view line);

 private:
  struct Impl;
  std::istream& in_;
  std::ostream& out_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kibitz::jsonl
