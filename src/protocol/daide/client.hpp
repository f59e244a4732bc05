#pragma once
// A DAIDE client that plays one power with a Kibitz bot (no press): it joins (NME, or IAM to
// take a power back, or OBS to watch), checks the map is the standard one (MAP, MDF), and
// answers every NOW of its power's with SUB, for movement, retreats and builds, within the
// game's deadline. Everything else is logged: THX notes other than MBV, ORD results, MIS,
// CCD, OUT, DRW, SLO, SMR, HUH and PRN; OFF ends it.
//
// The client does no I/O: each frame received gives a Step (the bytes to send, the lines to
// log, whether to close), so that a transcript can drive it in a test; `kibitz diplomacy
// daide` connects it to a server.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "games/diplomacy/bots.hpp"
#include "protocol/daide/board.hpp"
#include "protocol/daide/framing.hpp"

namespace kibitz::daide {

struct ClientOptions {
  std::string name = "Kibitz";
  std::string version;
  std::string bot = "rm";  // rm, heuristic or random
  int movetime_ms = 300;   // the rm bot's, per movement phase (capped by the deadline)
  double strength = 1.0;
  std::string power;  // IAM: a power to take back (with passcode); empty: NME
  int passcode = 0;
  bool observe = false;  // OBS: watch only
  int draw_year = 0;     // from this year's spring on, propose a draw (DRW) each year; 0: never
  std::uint64_t seed = 1;
};

struct Step {
  std::vector<std::string> send;  // frames, as bytes
  std::vector<std::string> log;
  bool close = false;
  int exit_code = 0;  // once closed: 0 for a game that ended, 1 for a failure
};

class Client {
 public:
  explicit Client(ClientOptions options);
  ~Client();

  Step start();  // the initial message
  Step receive(const Frame& frame);
  Step message(const Message& m);  // a diplomacy message's tokens

  std::optional<dip::PowerId> power() const { return power_; }
  const dip::State& state() const { return state_; }
  bool game_over() const { return over_; }
  // What the game's end said (SLO, DRW, SMR), for a summary.
  const std::string& result() const { return result_; }

 private:
  void send(Step& step, const Message& m);
  void fail_step(Step& step, std::string why);
  void play(Step& step);  // our orders for the NOW just read

  ClientOptions options_;
  const dip::Map& map_;
  Board board_;
  dip::State state_;
  Board::Retreats retreats_{};  // each dislodged unit's retreats, as NOW gave them
  dip::ProvinceSet ordered_;    // the units this phase's SUB gave orders (by province)
  Rng rng_;
  std::unique_ptr<dip::Bot> bot_;
  std::optional<dip::PowerId> power_;
  int passcode_ = 0;
  int deadline_s = 0;  // MTL: seconds per movement phase (0: none)
  bool have_rm_ = false;
  bool over_ = false;
  bool answered_mis_ = false;
  std::string result_;
};

}  // namespace kibitz::daide
