#pragma once
// A DAIDE server's game (no press): seven seats, each a DAIDE client (DumbBot, another
// engine, a person's program) or one of Kibitz's own bots; Kibitz's adjudicator resolves the
// phases. A client joins with NME (a free client seat), IAM (its seat back after a
// disconnection, with the passcode HLO gave) or OBS (to watch), and is sent MAP; once every
// client seat has accepted the map the game starts (HLO, SCO, NOW). SUB is answered with THX
// for each order and MIS; a phase is resolved when every client seat's orders are complete,
// or at the phase's deadline (missing orders: civil disorder). Then ORD for every order, SCO
// and the next NOW; a power left with nothing gets OUT; the end is SLO (a solo) or DRW (the
// year limit, or every power left asking for a draw), then SMR and OFF. A client that
// disconnects leaves its power in civil disorder (CCD to the others) until it comes back.
// A malformed message gets HUH (or PRN for unbalanced brackets) and the game goes on.
//
// Like the client, the host does no I/O: each event returns what to send to whom, so tests
// drive it directly; `kibitz diplomacy daide-server` runs it on a socket.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/game.hpp"
#include "protocol/daide/board.hpp"
#include "protocol/daide/framing.hpp"

namespace kibitz::daide {

struct HostOptions {
  // Seven entries in map order: "daide" (a client's seat), "daide=NAME" (a seat kept for the
  // client whose NME gives that name) or a Kibitz bot (rm, heuristic, random).
  std::vector<std::string> seats = std::vector<std::string>(7, "daide");
  int movement_s = 60;  // deadlines (MTL, RTL, BTL), seconds
  int retreat_s = 30;
  int build_s = 30;
  int max_year = dip::kDefaultMaxYear;  // a draw after this year's winter
  int rm_movetime_ms = 300;
  std::uint64_t seed = 1;
};

class Host {
 public:
  using Clock = std::chrono::steady_clock;
  using ClientId = int;
  struct Out {
    ClientId to = 0;
    std::string bytes;
    bool close = false;  // close this connection after sending
  };

  explicit Host(HostOptions options);
  ~Host();
  static Result<void> check(const HostOptions& options);  // the seats and limits

  std::vector<Out> connected(ClientId id);
  std::vector<Out> received(ClientId id, const Frame& frame, Clock::time_point now);
  std::vector<Out> disconnected(ClientId id, Clock::time_point now);
  // The deadline's passing (call when deadline() is reached).
  std::vector<Out> tick(Clock::time_point now);
  std::optional<Clock::time_point> deadline() const;

  bool started() const { return started_; }
  bool over() const { return over_; }
  const dip::State& state() const { return state_; }
  // The game so far as `kibitz diplomacy play --json`'s record, with the players.
  std::string record_json() const;
  std::vector<std::string> log;  // what happened, a line each (the caller prints or drops it)

 private:
  struct Conn {
    bool initial = false;  // IM received
    bool map_ok = false;   // YES (MAP) received
    std::optional<dip::PowerId> power;
    bool observer = false;
  };
  struct Seat {
    bool client = false;   // a DAIDE client's seat (else a Kibitz bot's)
    std::string reserved;  // the only client name that may take it ("": any)
    std::optional<ClientId> holder;
    int passcode = 0;
    std::string name, version;
    bool disorder = false;  // its client left
    bool draw = false;      // asked for a draw
    int out_year = 0;       // the year it was eliminated (0: alive)
    // This phase's orders, keyed by the unit's province (movement, retreat) or listed
    // (adjustments), already checked.
    std::map<dip::ProvinceId, dip::Order> orders;
    std::vector<dip::Order> adjustments;
  };

  void send(std::vector<Out>& out, ClientId to, const Message& m, bool close = false);
  void broadcast(std::vector<Out>& out, const Message& m, bool players_only = false);
  void message(std::vector<Out>& out, ClientId id, const Message& m, Clock::time_point now);
  void on_sub(std::vector<Out>& out, ClientId id, const Message& m, Clock::time_point now);
  Message missing(dip::PowerId p) const;  // MIS for a power
  bool complete(dip::PowerId p) const;
  void maybe_start(std::vector<Out>& out, Clock::time_point now);
  void begin_phase(std::vector<Out>& out, Clock::time_point now);
  void maybe_resolve(std::vector<Out>& out, Clock::time_point now, bool deadline_passed);
  void resolve(std::vector<Out>& out, Clock::time_point now);
  void finish(std::vector<Out>& out, const Message& ending);
  Message hlo(dip::PowerId p) const;

  HostOptions options_;
  const dip::Map& map_;
  Board board_;
  dip::State state_;
  dip::PhaseResolver resolver_;
  Rng rng_;
  std::map<std::string, std::unique_ptr<dip::Bot>> bots_;
  std::vector<Seat> seats_;
  std::map<ClientId, Conn> conns_;
  std::vector<dip::PhaseRecord> phases_;
  std::optional<dip::PowerId> winner_;
  bool started_ = false;
  bool over_ = false;
  std::optional<Clock::time_point> deadline_;
};

}  // namespace kibitz::daide
