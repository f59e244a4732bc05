#pragma once
// DAIDE's words for a Diplomacy board, in Kibitz's terms (games/diplomacy): powers, provinces
// and coasts, units, turns, orders (SUB, THX, ORD), positions (NOW, SCO) and the map
// definition (MDF). Only the standard map: its tokens are the syntax document's.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/state.hpp"
#include "protocol/daide/tokens.hpp"

namespace kibitz::daide {

namespace dip = kibitz::diplomacy;

class Board {
 public:
  // The map must be the standard one (the tokens name its provinces); an error otherwise.
  static Result<Board> make(const dip::Map& map);
  const dip::Map& map() const { return *map_; }

  Token power(dip::PowerId p) const { return static_cast<Token>(tok::kAus + p); }
  std::optional<dip::PowerId> power_of(Token t) const;
  Token province(dip::ProvinceId p) const { return province_token_[p]; }
  std::optional<dip::ProvinceId> province_of(Token t) const;

  // A location: PRO or (PRO CST).
  void append_location(Message& m, dip::LocationId loc) const;
  // A unit: (POW AMY PRO).
  void append_unit(Message& m, const dip::Unit& u) const;
  // The turn: (SPR 1901); Kibitz's winter adjustment is DAIDE's WIN.
  void append_turn(Message& m, dip::Phase phase) const;
  Result<dip::Phase> turn_of(std::span<const Token> turn) const;

  // An order as SUB writes it, in `s` (the state it is for: a move to a province a unit
  // cannot reach by land goes by convoy, with the seas of a chain of fleets as its VIA).
  Message order(const dip::State& s, const dip::Order& o) const;
  // An order as a client submits it (without its brackets), for `power`; an error says what
  // is wrong in DAIDE's terms (the THX note to give: NSU, NYU, FAR, ...).
  struct Refusal {
    Token note = tok::kNso;
    std::string why;
  };
  tl::expected<dip::Order, Refusal> parse_order(const dip::State& s,
                                                std::span<const Token> order) const;

  // The position as NOW and SCO say it; in a retreat phase, each dislodged unit's retreats
  // (MRT).
  Message now(const dip::State& s) const;
  Message sco(const dip::State& s) const;
  // Reads NOW into `s` (phase, units, dislodged units: the provinces no dislodged unit may
  // retreat to are marked contested, so the retreats a state allows are within MRT's lists),
  // and each dislodged unit's own MRT list into `retreats` (by the province it was in); SCO
  // into s.owner.
  using Retreats = std::array<dip::ProvinceSet, dip::kMaxProvinces>;
  Result<void> read_now(std::span<const Token> message, dip::State& s,
                        Retreats* retreats = nullptr) const;
  Result<void> read_sco(std::span<const Token> message, dip::State& s) const;

  // The map definition, and whether another's equals it (the same powers, centres, homes,
  // provinces and adjacencies; an error names the first difference).
  Message mdf() const;
  Result<void> check_mdf(std::span<const Token> message) const;

 private:
  const dip::Map* map_ = nullptr;
  std::array<Token, dip::kMaxProvinces> province_token_{};
  std::array<dip::ProvinceId, 256> province_of_{};  // by the token's low byte
};

// A location's coast token, and back.
Token coast_token(dip::Coast c);
std::optional<dip::Coast> coast_of(Token t);

}  // namespace kibitz::daide
