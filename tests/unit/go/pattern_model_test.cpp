// The learned move-prediction model: pattern keys invariant under the 8 symmetries and a
// colour swap, the tactical features on hand-made positions, the Bradley-Terry fit recovering
// known gammas, the weights file (round trip, malformed files refused, the shipped one
// loaded), archives read in place, and training that predicts held-out strong games far
// better than chance. The playout patterns: codes invariant the same way, the weights file,
// and their trainer recovering the gammas that generated synthetic games.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/bradley_terry.hpp"
#include "core/rng.hpp"
#include "games/go/move_features.hpp"
#include "games/go/pattern_model.hpp"
#include "games/go/pattern_train.hpp"
#include "games/go/playout_model.hpp"
#include "games/go/search_traits.hpp"
#include "games/go/sgf.hpp"
#include "games/go/sgf_collection.hpp"
#include "games/go/tactics.hpp"
#include "support/suites.hpp"
#include "unit/go/go_test_util.hpp"

namespace kibitz::go {
namespace {

using testing::diagram;
using testing::mv;
using testing::pt;

// `plies` playout moves from the empty board (a position with stones of both colours).
Position played_position(int size, std::uint64_t seed, int plies) {
  Rules rules;
  rules.size = size;
  Position p(rules);
  Rng rng(seed);
  for (int i = 0; i < plies && !p.is_terminal(); ++i) {
    const Move m = playout_move(p, rng);
    if (!m.is_point()) break;
    p.apply(m);
  }
  return p;
}

// The same stones with colours swapped and the other side to move.
Position colour_swapped(const Position& p) {
  Rules rules = p.rules();
  Position q(rules);
  for (int y = 0; y < p.size(); ++y)
    for (int x = 0; x < p.size(); ++x)
      if (const Color c = p.at(point_of(x, y)); c == kBlack || c == kWhite) {
        EXPECT_TRUE(q.place_stone(opponent(c), point_of(x, y)));
      }
  q.set_to_move(opponent(p.to_move()));
  return q;
}

TEST(GoPatternKeys, SameUnderTheEightSymmetriesAndAColourSwap) {
  for (const int size : {9, 19}) {
    const Position p = played_position(size, 7 + size, size == 9 ? 30 : 120);
    const Position swapped = colour_swapped(p);
    for (int t = 0; t < 8; ++t) {
      const Position q = p.transformed(t);
      for (const auto sq : p.empty_points()) {
        const PatternKeys a = pattern_keys(p, sq);
        EXPECT_EQ(a.key, pattern_keys(q, transform_point(sq, t, size)).key) << "t " << t;
        if (t == 0) {
          EXPECT_EQ(a.key, pattern_keys(swapped, sq).key);
        }
      }
    }
  }
}

TEST(GoPatternKeys, ChangeOnlyForTheSizesThatSeeAStone) {
  Position p(Rules{.size = 19});
  const int centre = point_of(9, 9);
  const PatternKeys empty = pattern_keys(p, centre);
  // Gridcular distance 5 = (2, 1): sizes d <= 3, 4 do not see it; d >= 5 do.
  ASSERT_TRUE(p.place_stone(kWhite, point_of(11, 10)));
  const PatternKeys one = pattern_keys(p, centre);
  for (int s = 0; s < kNumPatternSizes; ++s)
    EXPECT_EQ(kPatternDistance[s] < 5, one.key[s] == empty.key[s]) << "size " << s;
  // The mover's stone and the opponent's are told apart, and so are the sizes.
  Position q(Rules{.size = 19});
  ASSERT_TRUE(q.place_stone(kBlack, point_of(11, 10)));
  EXPECT_NE(pattern_keys(q, centre).key[2], one.key[2]);
  for (int s = 1; s < kNumPatternSizes; ++s) EXPECT_NE(empty.key[s], empty.key[s - 1]);
  // A point near the edge sees the edge.
  EXPECT_NE(pattern_keys(p, point_of(0, 9)).key[0], empty.key[0]);
}

TEST(GoMoveFeatures, CapturesAtarisAndSelfAtari) {
  // White's D5 stone is in atari (liberty E5); black to move.
  const Position p = diagram({".........", ".........", ".........", "...X.....", "..XO.....",
                              "...X.....", ".........", ".........", "........."});
  MoveFeatures f = move_features(p, mv("E5"));
  EXPECT_EQ(f.value[kCaptureGroup], 2 * 3 + 0);  // an ordinary capture of one stone
  EXPECT_EQ(f.value[kEdgeGroup], kNoFeature);    // the 5th line
  EXPECT_EQ(f.value[kLastDistanceGroup], kNoFeature);
  EXPECT_EQ(f.value[kSelfAtariGroup], kNoFeature);
  // A1 in the corner: line 1, an empty point with two liberties.
  f = move_features(p, mv("A1"));
  EXPECT_EQ(f.value[kEdgeGroup], 0);
  EXPECT_EQ(f.value[kCaptureGroup], kNoFeature);

  // White to move: E5 saves the stone (an extension to 3 liberties).
  Position w = p;
  w.set_to_move(kWhite);
  f = move_features(w, mv("E5"));
  EXPECT_EQ(f.value[kExtensionGroup], 0 + 2);
  EXPECT_EQ(f.value[kCaptureGroup], kNoFeature);

  // White at C5, in the mouth of three black stones: a one-stone self-atari.
  Position s = diagram({".........", ".........", ".........", "..X......", ".X.X.....",
                        ".........", ".........", ".........", "........."},
                       kWhite);
  f = move_features(s, mv("C5"));  // white C5: one liberty (C4) left
  EXPECT_EQ(f.value[kSelfAtariGroup], 0);
  EXPECT_EQ(f.value[kCaptureGroup], kNoFeature);
}

TEST(GoMoveFeatures, AtariThatWinsALadderAndRecaptureOfTheLastMove) {
  // White C2 has two liberties (C1, D2); black D2 ataris it and the ladder reader decides
  // whether it is caught: the feature must say what the reader says.
  Position p = diagram({".........", ".........", ".........", ".........", ".........",
                        ".........", "..XO.....", ".XO......", ".X......."},
                       kBlack);
  const MoveFeatures f = move_features(p, mv("D2"));
  ASSERT_NE(f.value[kAtariGroup], kNoFeature);
  Position q = p;
  q.apply(mv("D2"));
  EXPECT_EQ(f.value[kAtariGroup] == 0, ladder_dead(q, pt("C2")));
  // Without ladder reading the same atari is an ordinary one.
  EXPECT_EQ(move_features(p, mv("D2"), false).value[kAtariGroup], 2);

  // Black plays into atari at E5; white takes it back: a capture of the last move's stone.
  Position r = diagram({".........", ".........", ".........", "....O....", "...O.....",
                        "....O....", ".........", ".........", "........."},
                       kBlack);
  r.apply(mv("E5"));
  const MoveFeatures g = move_features(r, mv("F5"));
  EXPECT_EQ(g.value[kCaptureGroup], 1 * 3 + 0);
  EXPECT_EQ(g.value[kLastDistanceGroup], 2 - 2);  // next to the last move
  EXPECT_EQ(g.value[kPreviousDistanceGroup], kNoFeature);

  // Pass, and pass after a pass.
  EXPECT_EQ(move_features(r, Move::pass()).value[kPassGroup], 0);
  r.apply(Move::pass());
  EXPECT_EQ(move_features(r, Move::pass()).value[kPassGroup], 1);
  EXPECT_EQ(r.previous_move(), mv("E5"));
}

TEST(GoGridcular, Distances) {
  EXPECT_EQ(gridcular_distance(pt("E5"), pt("E6")), 2);
  EXPECT_EQ(gridcular_distance(pt("E5"), pt("F6")), 3);
  EXPECT_EQ(gridcular_distance(pt("E5"), pt("G5")), 4);
  EXPECT_EQ(gridcular_distance(pt("A1"), pt("J9")), 24);
}

// Competitions drawn from known gammas: 2 slots, some teams without a feature in a slot (so
// each slot's scale is fixed by the gamma-1 "no feature").
TeamCompetitions synthetic(const std::vector<float>& truth, int competitions, std::uint64_t seed) {
  TeamCompetitions d;
  d.slots = 2;
  Rng rng(seed);
  for (int c = 0; c < competitions; ++c) {
    const std::uint64_t first = d.teams();
    std::vector<double> strength;
    const int teams = 4 + static_cast<int>(rng.below(8));
    for (int t = 0; t < teams; ++t) {
      const std::uint32_t a = rng.below(5) == 0 ? TeamCompetitions::kNone : rng.below(4);
      const std::uint32_t b = rng.below(4) == 0 ? TeamCompetitions::kNone : 4 + rng.below(3);
      d.members.push_back(a);
      d.members.push_back(b);
      strength.push_back((a == TeamCompetitions::kNone ? 1.0 : truth[a]) *
                         (b == TeamCompetitions::kNone ? 1.0 : truth[b]));
    }
    double total = 0;
    for (const double s : strength) total += s;
    double x = rng.uniform01() * total;
    std::size_t w = 0;
    while (w + 1 < strength.size() && x >= strength[w]) x -= strength[w++];
    d.winner.push_back(first + w);
    d.start.push_back(d.teams());
  }
  return d;
}

TEST(BradleyTerry, RecoversKnownGammas) {
  const std::vector<float> truth = {1.0f, 2.0f, 4.0f, 0.5f, 3.0f, 0.25f, 1.5f};
  const TeamCompetitions d = synthetic(truth, 30000, 11);
  std::vector<float> gammas(truth.size(), 1.0f);
  std::vector<double> ll;
  BradleyTerryOptions o;
  o.iterations = 40;
  o.prior = 0.01;
  o.on_iteration = [&](int, double v) { ll.push_back(v); };
  const double final_ll = fit_bradley_terry(d, gammas, o);
  for (std::size_t i = 0; i < truth.size(); ++i)
    EXPECT_NEAR(std::log(gammas[i]), std::log(truth[i]), 0.08) << "feature " << i;
  // Minorization-maximization never lowers the likelihood.
  ASSERT_EQ(ll.size(), 40u);
  for (std::size_t i = 1; i < ll.size(); ++i) EXPECT_GE(ll[i], ll[i - 1] - 1e-9);
  EXPECT_GE(final_ll, ll.back() - 1e-9);
  EXPECT_NEAR(final_ll, bradley_terry_log_likelihood(d, gammas), 1e-6);
  // Better than everything at 1.
  EXPECT_GT(final_ll, ll.front() + 0.01);
}

TEST(GoPatternModel, JsonRoundTripAndPriors) {
  const Position p = played_position(9, 3, 20);
  std::vector<PatternEntry> entries;
  for (const auto sq : p.empty_points()) {
    const PatternKeys k = pattern_keys(p, sq);
    bool listed = false;
    for (const auto& e : entries) listed |= e.key == k.key[1];
    if (!listed) entries.push_back({k.key[1], 1, 0.5f + static_cast<float>(entries.size() % 7)});
    if (entries.size() == 5) break;
  }
  PatternModel m(entries);
  m.gammas()[m.group_offset(kCaptureGroup) + 4] = 7.25f;
  m.made_by = "a test \"with quotes\"";
  const auto back = PatternModel::parse(m.to_json(), "mem");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->made_by, m.made_by);
  ASSERT_EQ(back->num_patterns(), 5);
  for (int i = 0; i < m.num_features(); ++i)
    EXPECT_FLOAT_EQ(back->gammas()[i], m.gammas()[i]) << "feature " << i;
  // The listed 3x3-and-more pattern is found for the point it came from.
  const PatternKeys k0 = pattern_keys(p, p.empty_points()[0]);
  EXPECT_EQ(back->pattern_value(k0), 1);

  // Priors are the strengths normalised.
  MoveList<Position> moves;
  p.legal_moves(moves);
  std::vector<float> pr(moves.size());
  back->priors(p, std::span<const Move>(moves.data(), moves.size()), pr);
  float sum = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) sum += pr[i];
  EXPECT_NEAR(sum, 1.0f, 1e-4);
  EXPECT_NEAR(pr[0] / pr[1], back->strength(p, moves[0]) / back->strength(p, moves[1]), 1e-4);
}

TEST(GoPatternModel, MalformedFilesAreRefusedWithOneLine) {
  const std::string good = PatternModel().to_json();
  ASSERT_TRUE(PatternModel::parse(good, "x.json"));
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  const std::string key = good.substr(good.find("\"key_check\""), 30);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"{", "not JSON"},
      {"[]", "object"},
      {replace("kibitz-go-patterns", "other"), "format"},
      {replace("\"version\": 1", "\"version\": 2"), "version"},
      {replace(key, "\"key_check\": \"0123456789abcdef"), "key_check"},
      {replace("\"pass\": [1, 1]", "\"pass\": [1, -1]"), "groups.pass[1]"},
      {replace("\"pass\": [1, 1]", "\"pass\": [1]"), "groups.pass"},
      {replace("\"pass\": [1, 1],", ""), "groups.pass is missing"},
      {replace("\"pass\"", "\"passes\""), "unknown group"},
      {replace("\"patterns\": [", "\"patterns\": [[0, \"zz\", 1]"), "patterns[0]"},
      {replace("\"patterns\": [", "\"patterns\": [[9, \"00000000000000ff\", 1]"), "size 9"},
      {replace("\"patterns\": [", "\"patterns\": [[0, \"00000000000000ff\", 0]"), "gamma"},
      {replace("\"patterns\": [",
               "\"patterns\": [[0, \"00000000000000ff\", 1], [1, \"00000000000000ff\", 2]"),
       "twice"},
  };
  for (const auto& [text, what] : bad) {
    const auto r = PatternModel::parse(text, "x.json");
    ASSERT_FALSE(r) << what;
    EXPECT_EQ(r.error().message.rfind("x.json: ", 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  }
  const auto missing = PatternModel::load("/nonexistent/patterns.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("cannot read"), std::string::npos);
}

TEST(GoPatternModel, TheShippedWeightsLoad) {
  const auto& m = PatternModel::builtin();
  EXPECT_GT(m.num_patterns(), 1000);  // a broken file would fall back to no patterns
  EXPECT_NE(m.made_by.find("kibitz go train-patterns"), std::string::npos);
  // What every Go player knows, learned from the games: capturing the stone that just put
  // ours in atari is strong, a big self-atari is weak, and the first line is slow.
  EXPECT_GT(m.gamma(kCaptureGroup, 0), 5.0f);
  EXPECT_LT(m.gamma(kSelfAtariGroup, 2), 0.3f);
  EXPECT_LT(m.gamma(kEdgeGroup, 0), m.gamma(kEdgeGroup, 2));
}

// A tar.gz of SGF records, written with libarchive.
void write_archive(const std::string& path,
                   const std::vector<std::pair<std::string, std::string>>& files) {
  archive* a = archive_write_new();
  archive_write_add_filter_gzip(a);
  archive_write_set_format_pax_restricted(a);
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK);
  for (const auto& [name, text] : files) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_size(e, static_cast<la_int64_t>(text.size()));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    archive_write_data(a, text.data(), text.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
}

TEST(GoSgfCollection, ReadsArchivesInPlaceAndRefusesDamagedOnes) {
  const auto dir = std::filesystem::temp_directory_path() / "kibitz_sgf_collection_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "games");
  const std::string a = (dir / "games.tar.gz").string();
  write_archive(a, {{"x/1.sgf", "(;GM[1]SZ[9];B[ee])"},
                    {"x/readme.txt", "not a game"},
                    {"x/2.sgf", "(;GM[1]SZ[9];B[cc];W[gg])"}});
  std::ofstream(dir / "games" / "b.sgf") << "(;GM[1]SZ[9];B[dd])";
  std::ofstream(dir / "games" / "a.sgf") << "(;GM[1]SZ[9];B[ff])";
  std::vector<std::string> names, texts;
  const std::vector<std::string> inputs = {a, (dir / "games").string()};
  auto r = for_each_sgf(inputs, [&](std::string_view name, std::string_view text) {
    names.emplace_back(name);
    texts.emplace_back(text);
    return true;
  });
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0], a + ":x/1.sgf");
  EXPECT_EQ(texts[1], "(;GM[1]SZ[9];B[cc];W[gg])");
  EXPECT_NE(names[2].find("a.sgf"), std::string::npos);  // directories in sorted order
  // Stopping early.
  int calls = 0;
  ASSERT_TRUE(
      for_each_sgf(inputs, [&](std::string_view, std::string_view) { return ++calls < 2; }));
  EXPECT_EQ(calls, 2);

  // A truncated archive and a missing path are errors naming them.
  std::string bytes;
  {
    std::ifstream f(a, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(f), {});
  }
  const std::string cut = (dir / "cut.tar.gz").string();
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const std::vector<std::string> damaged = {cut};
  auto bad = for_each_sgf(damaged, [](std::string_view, std::string_view) { return true; });
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message.rfind(cut, 0), 0u) << bad.error().message;
  const std::vector<std::string> missing = {(dir / "none.tar.gz").string()};
  EXPECT_FALSE(for_each_sgf(missing, [](std::string_view, std::string_view) { return true; }));
  std::filesystem::remove_all(dir);
}

// Trained on 25 strong games, the model predicts the move played in other strong games far
// better than chance (1 in ~250 legal moves on 19x19): the features carry real knowledge.
TEST(GoPatternTraining, PredictsHeldOutStrongGames) {
  KIBITZ_REQUIRE_SUITE(train, "go/kgs-6d/KGS-2015-19-8133-.tar.gz");
  KIBITZ_REQUIRE_SUITE(test, "go/kgs-6d/KGS-2017_01-19-733-.tar.gz");
  PatternTrainOptions o;
  o.inputs = {train};
  o.max_games = 25;
  o.min_count = 3;
  o.iterations = 6;
  o.progress = false;
  PatternTrainStats st;
  auto m = train_pattern_model(o, st);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(st.games, 25);
  EXPECT_GT(st.positions, 3000u);
  EXPECT_GT(st.log_likelihood.back(), st.log_likelihood.front() + 1.0);
  PatternTrainOptions t;
  t.inputs = {test};
  t.max_games = 6;
  t.progress = false;
  auto s = measure_pattern_model(*m, t);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_GT(s->positions, 600u);
  EXPECT_GT(s->percent(s->top1), 20.0);
  EXPECT_GT(s->percent(s->top5), 45.0);
  // Deterministic: the same data and options give the same file.
  PatternTrainStats st2;
  auto m2 = train_pattern_model(o, st2);
  ASSERT_TRUE(m2);
  EXPECT_EQ(m2->to_json(), m->to_json());
}

TEST(GoPlayoutPatterns, CodeIsCanonicalUnderTheEightSymmetriesAndRelativeToTheMover) {
  for (const int size : {9, 19}) {
    const Position p = played_position(size, 11 + size, size == 9 ? 40 : 150);
    const Position swapped = colour_swapped(p);
    for (int t = 0; t < 8; ++t) {
      const Position q = p.transformed(t);
      for (const auto sq : p.empty_points()) {
        const std::uint32_t code = local_code(p, sq);
        const std::uint32_t moved = local_code(q, transform_point(sq, t, size));
        EXPECT_EQ(canonical_local_code(code), canonical_local_code(moved)) << "t " << t;
        EXPECT_EQ(canonical_local_code(code), canonical_local_code(transform_local_code(code, t)));
        if (t == 0) {
          EXPECT_EQ(code, local_code(swapped, sq));
        }
      }
    }
  }
}

TEST(GoPlayoutPatterns, CodeReadsStonesEdgesAndAtari) {
  // Black to move at D4 (the centre of the 3x3 C3..E5): a white stone in atari at D5 (north,
  // its last liberty D4), black stones at C4, C5 and E5 with liberties to spare.
  const Position p = diagram({".........",  //
                              ".........",  //
                              ".........",  //
                              "...X.....",  //
                              "..XOX....",  //
                              "..X......",  //
                              ".........",  //
                              ".........",  //
                              "........."});
  const std::uint32_t code = local_code(p, pt("D4"));
  // Cells in row order from the south-west: C3 D3 E3 C4 E4 C5 D5 E5 (0 mover, 1 opponent,
  // 2 empty, 3 off the board).
  const std::array<unsigned, 8> cells = {2, 2, 2, 0, 2, 0, 1, 0};
  for (int i = 0; i < 8; ++i) EXPECT_EQ((code >> (2 * i)) & 3u, cells[i]) << i;
  EXPECT_EQ(code >> 16, 0b1000u);  // only the north neighbour's chain is in atari
  // White to move reads the same stones the other way round; A1's code sees the edge.
  Position w = p;
  w.set_to_move(kWhite);
  EXPECT_EQ((local_code(w, pt("D4")) >> 12) & 3u, 0u);  // D5 is now the mover's
  EXPECT_EQ(local_code(p, pt("A1")) & 3u, 3u);
}

TEST(GoPlayoutPatterns, MalformedFilesAreRefusedWithOneLine) {
  const std::string good = PlayoutModel({{0, 2.0f}}, 1.5f, 0.5f).to_json();
  ASSERT_TRUE(PlayoutModel::parse(good, "p.json"));
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  const std::uint32_t not_canonical =
      transform_local_code(1, 1) > 1 ? transform_local_code(1, 1) : transform_local_code(1, 2);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"{", "not JSON"},
      {"[]", "object"},
      {replace("kibitz-go-playout-patterns", "kibitz-go-patterns"), "format"},
      {replace("\"version\": 1", "\"version\": 3"), "version"},
      {replace("\"tenuki\": 1.5", "\"tenuki\": -1"), "'tenuki'"},
      {replace("\"diagonal\": 0.5,", ""), "'diagonal'"},
      {replace("[0, 2]", "[0]"), "patterns[0]"},
      {replace("[0, 2]", "[1048576, 2]"), "canonical"},
      {replace("[0, 2]", fmt::format("[{}, 2]", not_canonical)), "canonical"},
      {replace("[0, 2]", "[0, 2], [0, 3]"), "twice"},
      {replace("[0, 2]", "[0, 1e9]"), "gamma"},
      {replace("\"patterns\": [", "\"patterns\": {"), "not JSON"},
  };
  for (const auto& [text, what] : bad) {
    const auto r = PlayoutModel::parse(text, "p.json");
    ASSERT_FALSE(r) << what;
    EXPECT_EQ(r.error().message.rfind("p.json: ", 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  }
  EXPECT_FALSE(PlayoutModel::load("/nonexistent/playout.json"));
}

TEST(GoPlayoutPatterns, TheShippedWeightsLoadAndKnowCaptures) {
  const auto& m = PlayoutModel::builtin();
  EXPECT_GT(m.patterns().size(), 1000u);  // a broken file would fall back to no patterns
  EXPECT_NE(m.made_by.find("kibitz go train-playout"), std::string::npos);
  const auto back = PlayoutModel::parse(m.to_json(), "again");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->to_json(), m.to_json());
  // Capturing the white stone in atari at D5 (black to move at D6) beats the same 3x3 with
  // the stone not in atari (no black stone at D4, outside D6's 3x3).
  const Position capture = diagram({".........",  //
                                    ".........",  //
                                    ".........",  //
                                    ".........",  //
                                    "..XOX....",  //
                                    "...X.....",  //
                                    ".........",  //
                                    ".........",  //
                                    "........."});
  const Position touch = diagram({".........",  //
                                  ".........",  //
                                  ".........",  //
                                  ".........",  //
                                  "..XOX....",  //
                                  ".........",  //
                                  ".........",  //
                                  ".........",  //
                                  "........."});
  EXPECT_GT(m.weight(local_code(capture, pt("D6"))), 2.0f * m.weight(local_code(touch, pt("D6"))));
}

// Playouts with the learned rule end: they never fill their own eyes.
TEST(GoPlayoutPatterns, LearnedPlayoutsEndAndPlayAcceptableMoves) {
  struct Active {  // the rules again when the test ends, however it ends
    Active() { PlayoutModel::set_active(&PlayoutModel::builtin()); }
    ~Active() { PlayoutModel::set_active(nullptr); }
  } active;
  for (const int size : {9, 19}) {
    Rules rules;
    rules.size = size;
    Rng rng(5 + size);
    for (int game = 0; game < 20; ++game) {
      Position p(rules);
      int moves = 0;
      while (!p.is_terminal() && moves < 3 * size * size) {
        const Move m = playout_move(p, rng);
        if (m.is_point()) {
          EXPECT_TRUE(playout_acceptable(p, m.sq));
        }
        p.apply(m);
        ++moves;
      }
      EXPECT_TRUE(p.is_terminal()) << size << " game " << game;
    }
  }
}

// Synthetic games whose moves are drawn the way the trainer models them, from known gammas:
// tenuki 2, diagonal 0.5, every point next to a chain in atari 8, the rest 1. The fit finds
// them again (up to the common scale, which the ratios leave out).
TEST(GoPlayoutPatterns, TrainerRecoversTheGammasThatMadeTheGames) {
  std::vector<PlayoutPatternEntry> truth;
  for (std::uint32_t code = 1u << 16; code < kNumLocalCodes; ++code)
    if (canonical_local_code(code) == code) truth.push_back({code, 8.0f});
  const PlayoutModel model(std::move(truth), 2.0f, 0.5f);

  const auto dir = std::filesystem::temp_directory_path() /
                   ("kibitz_playout_train_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Rules rules;
  rules.size = 9;
  Rng rng(2026);
  static constexpr std::array<int, 8> kNear = {-kStride - 1, -kStride, -kStride + 1, -1, 1,
                                               kStride - 1,  kStride,  kStride + 1};
  for (int game = 0; game < 150; ++game) {
    Position p(rules);
    std::string sgf = "(;GM[1]FF[4]SZ[9]KM[7]";
    for (int ply = 0; ply < 70 && !p.is_terminal(); ++ply) {
      std::vector<int> local;
      std::vector<double> w;
      double total = model.tenuki();
      const Move last = p.last_move();
      if (last.is_point())
        for (const int d : kNear) {
          const int q = last.sq + d;
          if (p.at(q) != kEmpty || !playout_acceptable(p, q)) continue;
          const bool diagonal = d != -kStride && d != -1 && d != 1 && d != kStride;
          local.push_back(q);
          w.push_back(model.weight(local_code(p, q)) * (diagonal ? model.diagonal() : 1.0));
          total += w.back();
        }
      int sq = kNoPoint;
      double r = rng.uniform01() * total;
      for (std::size_t i = 0; i < local.size() && sq == kNoPoint; ++i)
        if ((r -= w[i]) < 0) sq = local[i];
      if (sq == kNoPoint) {  // tenuki: any other acceptable point
        std::vector<int> far;
        for (const int e : p.empty_points())
          if (playout_acceptable(p, e) && std::find(local.begin(), local.end(), e) == local.end())
            far.push_back(e);
        if (far.empty()) break;
        sq = far[rng.below(far.size())];
      }
      sgf += fmt::format(";{}[{}{}]", p.to_move() == kBlack ? 'B' : 'W',
                         static_cast<char>('a' + x_of(sq)), static_cast<char>('a' + 8 - y_of(sq)));
      p.apply(Move{static_cast<std::uint16_t>(sq)});
    }
    std::ofstream(dir / fmt::format("g{:03}.sgf", game)) << sgf << ")\n";
  }

  PatternTrainOptions o;
  o.inputs = {dir.string()};
  o.min_count = 40;
  o.iterations = 40;
  o.progress = false;
  PlayoutTrainStats st;
  auto fitted = train_playout_model(o, st);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(fitted) << fitted.error().message;
  EXPECT_EQ(st.games, 150);
  EXPECT_EQ(st.bad_records, 0);
  std::vector<float> plain, atari;
  for (const auto& e : fitted->patterns()) (e.code >> 16 ? atari : plain).push_back(e.gamma);
  ASSERT_GE(plain.size(), 20u);
  ASSERT_GE(atari.size(), 5u);
  auto median = [](std::vector<float> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const double unit = median(plain);  // the fitted scale of a gamma-1 point
  EXPECT_NEAR(fitted->tenuki() / unit, 2.0, 0.35);
  EXPECT_NEAR(fitted->diagonal(), 0.5, 0.08);
  EXPECT_NEAR(median(atari) / unit, 8.0, 2.0);
}

}  // namespace
}  // namespace kibitz::go
