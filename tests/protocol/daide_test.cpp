// DAIDE: the token values and byte layouts of the protocol documents, text and wire round
// trips for every message the client and server use, the standard map's definition (ours
// against the python `diplomacy` package's), positions and orders both ways, and a recorded
// session (the python package's server talking to the Albert bot) replayed against the client.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/game.hpp"
#include "protocol/daide/board.hpp"
#include "protocol/daide/client.hpp"
#include "protocol/daide/framing.hpp"
#include "protocol/daide/host.hpp"
#include "support/suites.hpp"

namespace kibitz::daide {
namespace {

Message text(std::string_view t) {
  auto m = parse_text(t);
  EXPECT_TRUE(m) << t << ": " << (m ? "" : m.error().message);
  return m ? *m : Message{};
}

std::string hex(std::string_view bytes) {
  std::string out;
  for (const char c : bytes) out += fmt::format("{:02X}", static_cast<unsigned char>(c));
  return out;
}

const Board& board() {
  static const Board b = *Board::make(dip::standard_map());
  return b;
}

TEST(DaideTokens, ValuesAndBytesOfTheProtocolDocuments) {
  // Categories and a few values of the syntax document.
  EXPECT_EQ(*named_token("HLO"), 0x4804);
  EXPECT_EQ(*named_token("SUB"), 0x4818);
  EXPECT_EQ(*named_token("AMY"), 0x4200);
  EXPECT_EQ(*named_token("TUR"), 0x4106);
  EXPECT_EQ(*named_token("MBV"), 0x4400);
  EXPECT_EQ(*named_token("SUC"), 0x4500);
  EXPECT_EQ(*named_token("SCS"), 0x4608);
  EXPECT_EQ(*named_token("WIN"), 0x4704);
  EXPECT_EQ(*province_token("BOH"), 0x5000);  // the first inland province
  EXPECT_EQ(*province_token("ADR"), 0x520E);
  EXPECT_EQ(*province_token("STP"), 0x574A);  // the last: 75 provinces numbered 0-74
  EXPECT_FALSE(province_token("HLO"));
  // 14-bit integers.
  EXPECT_EQ(integer_token(1901), 0x076D);
  EXPECT_EQ(integer_token(-1), 0x3FFF);
  EXPECT_EQ(integer_token(-8192), 0x2000);
  EXPECT_EQ(integer_token(8191), 0x1FFF);
  for (int v : {-8192, -300, -1, 0, 1, 1901, 8191}) EXPECT_EQ(token_integer(integer_token(v)), v);
  // IM: type 0, pad, length 4, version 1, magic 0xDA10; a DM's tokens big-endian.
  EXPECT_EQ(hex(encode_initial()), "000000040001DA10");
  EXPECT_EQ(hex(encode_message(text("NME ('Ab')"))), "0200000A480C40004B414B624001");
  EXPECT_EQ(hex(encode_final()), "03000000");
  EXPECT_EQ(hex(encode_error(ErrorCode::kBadToken)), "04000002000E");
  EXPECT_TRUE(check_initial(std::string("\x00\x01\xDA\x10", 4)));
  EXPECT_FALSE(check_initial(std::string("\x00\x01\x10\xDA", 4)));  // little-endian
  EXPECT_FALSE(check_initial(std::string("\x00\x02\xDA\x10", 4)));  // version 2
}

TEST(DaideTokens, EveryMessageRoundTripsThroughTextAndTheWire) {
  const std::vector<std::string> messages = {
      "NME ('Kibitz') ('0.1.0')",
      "OBS",
      "IAM (ENG) (4711)",
      "YES (NME ('Kibitz') ('0.1.0'))",
      "REJ (NME ('Kibitz') ('0.1.0'))",
      "MAP ('standard')",
      "MDF",
      "YES (MAP ('standard'))",
      "HLO (ENG) (5686) ((LVL 0) (MTL 300) (RTL 300) (BTL 300) (AOA))",
      "SCO (AUS BUD TRI VIE) (ENG EDI LON LVP) (UNO BEL BUL DEN)",
      "NOW (SPR 1901) (AUS AMY BUD) (RUS FLT (STP SCS))",
      "NOW (SUM 1902) (FRA AMY PAR) (GER AMY BUR MRT (PIC (SPA NCS)))",
      "SUB (SPR 1901) ((ENG FLT EDI) MTO NWG) ((ENG FLT LON) SUP (ENG FLT EDI) MTO NWG) "
      "((ENG AMY LVP) HLD)",
      "SUB ((ENG FLT NWG) CVY (ENG AMY CLY) CTO NWY) ((ENG AMY CLY) CTO NWY VIA (NWG))",
      "SUB ((ENG FLT NTH) SUP (ENG FLT NWG))",
      "SUB ((GER AMY BUR) RTO PIC) ((FRA FLT BRE) DSB)",
      "SUB ((FRA AMY PAR) BLD) ((FRA FLT (STP NCS)) REM) (FRA WVE)",
      "THX ((ENG FLT EDI) MTO NWG) (MBV)",
      "THX ((ENG FLT EDI) MTO BUR) (FAR)",
      "MIS ((ENG FLT EDI)) ((ENG AMY LVP))",
      "MIS (-2)",
      "ORD (SPR 1901) ((ENG FLT EDI) MTO NWG) (SUC)",
      "ORD (FAL 1901) ((GER AMY MUN) MTO BUR) (BNC RET)",
      "DRW",
      "NOT (DRW)",
      "SLO (FRA)",
      "CCD (ITA)",
      "OUT (TUR)",
      "OFF",
      "TME (300)",
      "HUH (SUB ERR (ENG))",
      "PRN (SUB",
      "GOF",
      "SMR (SPR 1907) (FRA ('Kibitz') ('0.1.0') 18) (ENG ('DumbBot') ('1') 0 1905)",
  };
  for (const auto& t : messages) {
    const Message m = text(t);
    ASSERT_FALSE(m.empty()) << t;
    EXPECT_EQ(to_text(m), t) << "text form";
    FrameReader r;
    const std::string bytes = encode_message(m);
    // In pieces, as TCP may deliver it.
    r.feed(std::string_view(bytes).substr(0, 3));
    EXPECT_FALSE(r.next());
    r.feed(std::string_view(bytes).substr(3));
    auto f = r.next();
    ASSERT_TRUE(f && *f) << t;
    EXPECT_EQ((*f)->type, FrameType::kDiplomacy);
    EXPECT_EQ(*decode_message((*f)->body), m) << t;
  }
  // The python package's transcript form reads the same.
  EXPECT_EQ(text("NME ( A l b e r t ) ( v 6 . 0 . 1 )"), text("NME ('Albert') ('v6.0.1')"));
  EXPECT_EQ(text("HLO ( ENG ) ( #5686 ) ( ( LVL #0 ) )"), text("HLO (ENG) (5686) ((LVL 0))"));
  // Errors name the word.
  for (const char* bad : {"HLO (XYZ)", "NME ('open", "TME (99999)"}) {
    auto m = parse_text(bad);
    EXPECT_FALSE(m) << bad;
  }
  // A frame of an unknown type, and an odd-length DM.
  FrameReader r;
  r.feed(std::string("\x07\x00\x00\x00", 4));
  auto f = r.next();
  ASSERT_TRUE(f);
  EXPECT_FALSE(*f);
  EXPECT_FALSE(decode_message("\x48"));
}

TEST(DaideBoard, TheStandardMapDefinitionMatchesThePythonPackages) {
  // Ours reads back as the standard map.
  EXPECT_TRUE(board().check_mdf(board().mdf()));
  // The python package's server's MDF (recorded in its DAIDE test data) is the same map.
  KIBITZ_REQUIRE_SUITE(path, "diplomacy/diplomacy_pkg/daide_game_data_1.csv");
  std::ifstream in(path);
  std::string line, mdf;
  while (std::getline(in, line))
    if (line.find(",,MDF ") != std::string::npos) mdf = line.substr(line.find(",,") + 2);
  ASSERT_FALSE(mdf.empty());
  const Message theirs = text(mdf);
  auto ok = board().check_mdf(theirs);
  EXPECT_TRUE(ok) << (ok ? "" : ok.error().message);
  // One adjacency less is another map, and the error says where.
  std::string changed = mdf;
  const std::string adr = "( ADR ( FLT ALB APU ION TRI VEN ) )";
  const auto at = changed.find(adr);
  ASSERT_NE(at, std::string::npos);
  changed.replace(at, adr.size(), "( ADR ( FLT ALB APU ION TRI ) )");
  auto refused = board().check_mdf(text(changed));
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("adr"), std::string::npos) << refused.error().message;
}

TEST(DaideBoard, PositionsAndOrdersBothWays) {
  const dip::Map& map = dip::standard_map();
  // Random games: every phase's position through NOW and SCO and back, and every legal
  // order of every unit through SUB's form and back.
  dip::RandomBot bot(map);
  dip::GameRunner runner(map);
  dip::GameOptions opt;
  opt.max_year = 1906;
  int orders_checked = 0, retreat_phases = 0;
  opt.observer = [&](const dip::State& before, std::span<const dip::Order>, const dip::State&) {
    dip::State s = dip::initial_state(map);
    Board::Retreats mrt{};
    ASSERT_TRUE(board().read_sco(board().sco(before), s));
    ASSERT_TRUE(board().read_now(board().now(before), s, &mrt));
    EXPECT_EQ(s.phase, before.phase);
    EXPECT_EQ(s.units, before.units);
    EXPECT_EQ(s.dislodged, before.dislodged);
    EXPECT_EQ(s.owner, before.owner);
    std::vector<dip::Order> legal;
    if (before.phase.type == dip::PhaseType::kRetreat) {
      ++retreat_phases;
      // The retreats NOW gives each unit (MRT) are the ones the rules allow it, and those
      // the state read back allows include them.
      for (int p = 0; p < map.num_provinces(); ++p) {
        if (!before.dislodged[p].exists()) continue;
        std::vector<dip::Order> a, b;
        dip::legal_orders(map, before, before.dislodged[p].location, a);
        dip::legal_orders(map, s, s.dislodged[p].location, b);
        dip::ProvinceSet rules, read;
        for (const auto& o : a)
          if (o.type == dip::OrderType::kRetreat) rules.set(map.province_of(o.target));
        for (const auto& o : b)
          if (o.type == dip::OrderType::kRetreat) read.set(map.province_of(o.target));
        EXPECT_EQ(mrt[p], rules) << map.abbr(static_cast<dip::ProvinceId>(p));
        EXPECT_EQ(read & rules, rules) << map.abbr(static_cast<dip::ProvinceId>(p));
      }
    }
    dip::OrderGenerator gen(map);
    gen.set_state(before);
    for (int p = 0; p < map.num_provinces(); ++p) {
      legal.clear();
      if (before.phase.type == dip::PhaseType::kAdjustment) {
        if (p < map.num_powers()) gen.adjustment_orders(static_cast<dip::PowerId>(p), legal);
        for (auto& o : legal) o.power = static_cast<dip::PowerId>(p);
      } else {
        gen.unit_orders(static_cast<dip::ProvinceId>(p), legal);
      }
      for (const auto& o : legal) {
        const Message m = board().order(before, o);
        auto back = board().parse_order(before, m);
        ASSERT_TRUE(back) << to_text(m) << ": " << back.error().why;
        dip::Order want = *dip::check_order(map, before, back->power, o);
        want.power = back->power;
        // A move by convoy says so in DAIDE (CTO): the same move either way.
        if (want.type == dip::OrderType::kMove) want.via_convoy = back->via_convoy;
        EXPECT_EQ(*back, want) << to_text(m);
        ++orders_checked;
      }
    }
  };
  // The heuristic bots attack, so there are dislodgements and retreats to check.
  dip::HeuristicBot heuristic(map);
  std::vector<dip::Bot*> bots(7, &heuristic);
  bots[2] = bots[5] = &bot;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) runner.play(bots, seed, opt);
  EXPECT_GT(orders_checked, 5000) << orders_checked;
  EXPECT_GT(retreat_phases, 3) << retreat_phases;
  // Orders the rules refuse get DAIDE's notes.
  const dip::State s = dip::initial_state(map);
  const auto note = [&](std::string_view t) {
    auto r = board().parse_order(s, text(t));
    return r ? tok::kMbv : r.error().note;
  };
  EXPECT_EQ(note("(ENG FLT LON) MTO BUR"), tok::kFar);
  EXPECT_EQ(note("(ENG FLT LVP) MTO IRI"), tok::kNsu);  // an army stands there
  EXPECT_EQ(note("(ENG AMY LVP) RTO WAL"), tok::kNrs);  // not a retreat phase
  EXPECT_EQ(note("(ENG AMY LVP) MTO WAL"), tok::kMbv);
  EXPECT_EQ(note("(ENG AMY LVP) SUP (ENG FLT LON) MTO WAL"), tok::kMbv);
}

// The recorded session: the python package's server (its responses) talking to Albert, who
// played England. Our client gets the server's side and must answer as a player would.
TEST(DaideClient, ARecordedSessionReplayed) {
  KIBITZ_REQUIRE_SUITE(path, "diplomacy/diplomacy_pkg/daide_game_data_1.csv");
  ClientOptions o;
  o.bot = "heuristic";
  o.version = "test";
  Client client(o);
  EXPECT_EQ(client.start().send.size(), 1u);
  Step rm = client.receive(Frame{FrameType::kRepresentation, {}});
  ASSERT_EQ(rm.send.size(), 1u);
  EXPECT_EQ(*decode_message(rm.send[0].substr(kHeaderBytes)), text("NME ('Kibitz') ('test')"));
  std::ifstream in(path);
  std::string line;
  int nows = 0, subs = 0, refused = 0;
  bool answered_map = false, accepted_mdf = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto first = line.find(',');
    if (line.compare(first, 2, ",,") != 0) continue;  // the client's own lines: Albert's
    const Message m = text(line.substr(first + 2));
    const Token head = m.empty() ? 0 : m[0];
    Step step = client.message(m);
    std::vector<Message> sent;
    for (const auto& bytes : step.send) sent.push_back(*decode_message(bytes.substr(kHeaderBytes)));
    if (head == tok::kMap) {
      ASSERT_EQ(sent.size(), 1u);
      EXPECT_EQ(sent[0], Message{tok::kMdf});
      answered_map = true;
    }
    if (head == tok::kMdf) {
      ASSERT_EQ(sent.size(), 1u);
      EXPECT_EQ(sent[0], text("YES (MAP ('standard'))"));
      accepted_mdf = true;
    }
    if (head == tok::kNow) {
      ++nows;
      if (!dip::has_orders(dip::standard_map(), client.state(), *client.power())) continue;
      // NOT (GOF) while the bot thinks, a SUB with an order for each English unit (or
      // build), each one the server would take (MBV) in the position NOW gave, then GOF.
      ASSERT_EQ(sent.size(), 3u) << to_text(m);
      EXPECT_EQ(sent[0], text("NOT (GOF)"));
      EXPECT_EQ(sent[1][0], tok::kSub);
      EXPECT_EQ(sent[2], Message{tok::kGof});
      ++subs;
      const auto orders = parts(sent[1]);
      for (std::size_t i = 1; i < orders.size(); ++i) {
        auto r = board().parse_order(client.state(), orders[i]);
        if (!r) {
          ++refused;
          ADD_FAILURE() << to_text(orders[i]) << ": " << r.error().why;
        } else {
          EXPECT_EQ(r->power, *client.power());
        }
      }
    }
    if (head == tok::kOff) {
      EXPECT_TRUE(step.close);
    }
  }
  EXPECT_TRUE(answered_map);
  EXPECT_TRUE(accepted_mdf);
  ASSERT_TRUE(client.power());
  EXPECT_EQ(*client.power(), 1);  // England
  EXPECT_GT(nows, 3);
  EXPECT_GT(subs, 3);
  EXPECT_EQ(refused, 0);
}

TEST(DaideClient, BadInputIsLoggedAndTheClientGoesOn) {
  ClientOptions o;
  o.bot = "random";
  Client client(o);
  client.start();
  client.receive(Frame{FrameType::kRepresentation, {}});
  for (const char* t : {"HLO", "NOW (XYZ 1901)", "SCO (AUS PAR)", "THX", "ORD", "MIS (ENG"}) {
    Message m;
    if (auto parsed = parse_text(t)) m = *parsed;
    const Step step = client.message(m);
    EXPECT_FALSE(step.close) << t;
  }
  // An odd-length DM: a warning, not a crash.
  EXPECT_FALSE(client.receive(Frame{FrameType::kDiplomacy, "\x48"}).close);
  // A different map's representation: the client leaves, saying why.
  Client other(o);
  other.start();
  const Step step =
      other.receive(Frame{FrameType::kRepresentation, std::string("\x50\x00XYZ\0", 6)});
  EXPECT_TRUE(step.close);
  EXPECT_EQ(step.exit_code, 1);
  ASSERT_FALSE(step.log.empty());
  EXPECT_NE(step.log[0].find("standard map"), std::string::npos) << step.log[0];
}

// A host and in-process clients, connected by queues of bytes instead of sockets.
struct Net {
  explicit Net(HostOptions o) : host(std::move(o)) {}
  Host host;
  struct Peer {
    std::unique_ptr<Client> client;
    FrameReader to_host, to_client;
    bool closed = false;
    std::vector<std::string> heard;  // what the client received, as text
  };
  std::map<int, Peer> peers;
  std::deque<std::pair<int, std::string>> up;  // client id, bytes for the host
  std::vector<Host::Out> down;
  Host::Clock::time_point now{};

  void join(int id, ClientOptions o) {
    Peer& p = peers[id];
    p.client = std::make_unique<Client>(std::move(o));
    auto outs = host.connected(id);
    down.insert(down.end(), outs.begin(), outs.end());
    for (auto& b : p.client->start().send) up.emplace_back(id, b);
  }
  // Raw bytes from a client, as if sent.
  void raw(int id, std::string bytes) { up.emplace_back(id, std::move(bytes)); }
  void leave(int id) {
    peers[id].closed = true;
    auto outs = host.disconnected(id, now);
    down.insert(down.end(), outs.begin(), outs.end());
  }
  void run(int max_steps = 100000) {
    for (int step = 0; step < max_steps && (!up.empty() || !down.empty()); ++step) {
      if (!up.empty()) {
        auto [id, bytes] = up.front();
        up.pop_front();
        Peer& p = peers[id];
        if (p.closed) continue;
        p.to_host.feed(bytes);
        while (auto f = p.to_host.next()) {
          ASSERT_TRUE(*f);
          auto outs = host.received(id, **f, now);
          down.insert(down.end(), outs.begin(), outs.end());
        }
        continue;
      }
      Host::Out o = down.front();
      down.erase(down.begin());
      Peer& p = peers[o.to];
      if (p.closed) continue;
      p.to_client.feed(o.bytes);
      while (auto f = p.to_client.next()) {
        ASSERT_TRUE(*f);
        if ((*f)->type == FrameType::kDiplomacy)
          p.heard.push_back(to_text(*decode_message((*f)->body)));
        if ((*f)->type == FrameType::kError) p.heard.push_back("EM");
        const Step s = p.client->receive(**f);
        for (auto& b : s.send) up.emplace_back(o.to, b);
        if (s.close) {
          p.closed = true;
          auto outs = host.disconnected(o.to, now);
          down.insert(down.end(), outs.begin(), outs.end());
          break;
        }
      }
      if (o.close) p.closed = true;
    }
  }
  bool heard(int id, std::string_view start) const {
    for (const auto& h : peers.at(id).heard)
      if (h.rfind(start, 0) == 0) return true;
    return false;
  }
};

ClientOptions bot_client(std::string bot, std::uint64_t seed) {
  ClientOptions o;
  o.bot = std::move(bot);
  o.name = "test-" + o.bot;
  o.version = "1";
  o.seed = seed;
  return o;
}

// Replays a host's record through the adjudicator from the initial position: the final
// position must be the one the host reached.
void expect_record_replays(const Host& host) {
  const dip::Map& map = dip::standard_map();
  const auto j = nlohmann::json::parse(host.record_json());
  dip::State s = dip::initial_state(map);
  dip::PhaseResolver resolver(map);
  for (const auto& phase : j["game"]["phases"]) {
    ASSERT_EQ(phase["phase"], dip::phase_code(s.phase));
    std::vector<dip::Order> orders;
    for (const auto& [power, list] : phase["orders"].items()) {
      const auto p = map.find_power(power);
      ASSERT_TRUE(p);
      for (const auto& text : list) {
        auto o = dip::parse_order(map, text.get<std::string>(), s.phase.type);
        ASSERT_TRUE(o) << text;
        auto e = dip::effective_order(map, s, *p, *o);
        ASSERT_TRUE(e) << text;
        e->power = *p;
        orders.push_back(*e);
      }
    }
    s = resolver.resolve(s, orders);
  }
  EXPECT_EQ(s, host.state());
  auto final_state = dip::read_state_json(map, j["final_state"].dump());
  ASSERT_TRUE(final_state) << final_state.error().message;
  EXPECT_EQ(*final_state, host.state());
}

TEST(DaideHost, ClientsAndKibitzBotsPlayAGameToItsEnd) {
  HostOptions o;
  // Turkey's seat is kept for the client named "test-random".
  o.seats = {"daide",     "heuristic", "heuristic",        "random",
             "heuristic", "heuristic", "daide=test-random"};
  o.max_year = 1904;
  o.seed = 5;
  Net net(o);
  net.join(1, bot_client("heuristic", 1));
  net.join(2, bot_client("random", 2));
  net.run();
  ASSERT_TRUE(net.host.started());
  ASSERT_TRUE(net.host.over()) << net.host.state().phase.year;
  for (int id : {1, 2}) {
    EXPECT_TRUE(net.heard(id, "HLO (")) << id;
    EXPECT_TRUE(net.heard(id, "MAP ('standard')")) << id;
    EXPECT_TRUE(net.heard(id, "ORD (SPR 1901)")) << id;
    EXPECT_TRUE(net.heard(id, "THX (")) << id;
    EXPECT_TRUE(net.heard(id, "DRW")) << id;  // the year limit: a draw
    EXPECT_TRUE(net.heard(id, "SMR (")) << id;
    EXPECT_TRUE(net.heard(id, "OFF")) << id;
    EXPECT_FALSE(net.heard(id, "HUH")) << id;
    // Every order a client gave was taken.
    for (const auto& h : net.peers[id].heard)
      if (h.rfind("THX", 0) == 0) {
        EXPECT_NE(h.find("(MBV)"), std::string::npos) << h;
      }
  }
  EXPECT_EQ(net.host.state().phase.year, 1905);
  EXPECT_EQ(net.peers[2].client->power(), dip::PowerId{6});
  EXPECT_EQ(net.peers[1].client->power(), dip::PowerId{0});
  expect_record_replays(net.host);
}

TEST(DaideHost, MalformedMessagesAndLateComersAreRefusedAndTheServerGoesOn) {
  HostOptions o;
  o.seats = {"daide", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"};
  o.max_year = 1901;
  Net net(o);
  net.join(1, bot_client("heuristic", 1));
  // Before the game: a SUB is refused. Unknown words get HUH, unbalanced brackets PRN.
  net.run();
  ASSERT_TRUE(net.host.over());  // one client seat: the game ran to the end of 1901
  EXPECT_TRUE(net.heard(1, "SMR ("));
  // A second game: garbage from a client while the game waits for it.
  o.seats = {"daide", "daide", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"};
  Net net2(o);
  net2.join(1, bot_client("heuristic", 1));
  net2.run();
  net2.raw(1, encode_message(text("SUB ((ENG FLT LON) MTO NTH)")));
  net2.raw(1, encode_message(text("HLD PAR")));
  net2.raw(1, encode_message(text("SUB ((ENG")));
  net2.run();
  EXPECT_FALSE(net2.host.started());
  EXPECT_TRUE(net2.heard(1, "REJ (SUB"));
  EXPECT_TRUE(net2.heard(1, "HUH (ERR HLD PAR)"));
  EXPECT_TRUE(net2.heard(1, "PRN (SUB"));
  // An initial message twice: EM, and that connection is closed; the others go on.
  net2.join(3, bot_client("heuristic", 3));
  net2.raw(3, encode_initial());
  net2.run();
  EXPECT_TRUE(net2.heard(3, "EM"));
  EXPECT_TRUE(net2.peers[3].closed);
  // The seat it held is free again: another client takes it and the game plays to its end.
  net2.join(4, bot_client("heuristic", 4));
  net2.run();
  EXPECT_TRUE(net2.host.over());
  // A late comer: refused.
  net2.join(5, bot_client("heuristic", 5));
  net2.run();
  EXPECT_TRUE(net2.heard(5, "REJ (NME"));
}

TEST(DaideHost, AClientThatLeavesLeavesItsPowerInCivilDisorder) {
  HostOptions o;
  o.seats = {"daide", "daide", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"};
  o.max_year = 1903;
  Net net(o);
  net.join(1, bot_client("heuristic", 1));
  net.join(2, bot_client("heuristic", 2));
  // Until both have their HLO and the first NOW.
  for (int i = 0; i < 100000 && !net.heard(2, "NOW (SPR 1901)"); ++i) net.run(1);
  ASSERT_TRUE(net.host.started());
  const auto power = net.peers[2].client->power();
  ASSERT_TRUE(power);
  net.leave(2);
  net.run();
  // The other client is told, the game goes on without waiting for it, and its units held.
  EXPECT_TRUE(net.heard(1, fmt::format("CCD ({})", token_name(board().power(*power)))));
  EXPECT_TRUE(net.host.over());
  expect_record_replays(net.host);
}

}  // namespace
}  // namespace kibitz::daide
