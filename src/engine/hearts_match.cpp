#include "engine/hearts_match.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <thread>

#include "core/text.hpp"

namespace kibitz::hearts {

Result<DealRecord> parse_deal_line(std::string_view line) {
  // Fields: id, pass direction, then 52 cards (in four tab fields or one run of blanks).
  std::vector<std::string_view> words;
  for (auto w : split_blanks(line)) {
    std::size_t i = 0;
    while (i <= w.size()) {
      const std::size_t tab = w.find('\t', i);
      const std::string_view part =
          w.substr(i, tab == std::string_view::npos ? w.size() - i : tab - i);
      if (!part.empty()) words.push_back(part);
      if (tab == std::string_view::npos) break;
      i = tab + 1;
    }
  }
  if (words.size() != 54)
    return fail("a deal line needs an id, a pass direction and 52 cards (found {} fields)",
                words.size());
  DealRecord d;
  d.id = std::string(words[0]);
  auto dir = parse_pass_dir(words[1]);
  if (!dir) return tl::unexpected(dir.error());
  d.dir = *dir;
  auto hands = parse_deal(std::span<const std::string_view>(words).subspan(2));
  if (!hands) return tl::unexpected(hands.error());
  d.hands = *hands;
  return d;
}

Result<std::vector<DealRecord>> read_deals(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fail("cannot read deal file '{}'", path);
  std::vector<DealRecord> out;
  auto read = for_each_data_line(in, [&](std::string_view t, int n) -> Result<void> {
    auto d = parse_deal_line(t);
    if (!d) return with_context(d.error(), fmt::format("{}:{}", path, n));
    out.push_back(std::move(*d));
    return {};
  });
  if (!read) return tl::unexpected(read.error());
  if (out.empty()) return fail("deal file '{}' holds no deals", path);
  return out;
}

namespace {

template <class T, class Get>
Result<void> read_key(const Config& c, std::string_view key, T& field, Get get) {
  auto v = get(c, key, field);
  if (!v) return tl::unexpected(v.error());
  field = static_cast<T>(*v);
  return {};
}

Result<void> check_keys(const Config& c, std::string_view prefix,
                        const std::vector<std::string_view>& known) {
  for (const auto& k : c.keys(prefix))  // the keys under prefix, without it
    if (std::find(known.begin(), known.end(), k) == known.end())
      return fail("{}: unknown key '{}{}{}'", c.source(), prefix, prefix.empty() ? "" : ".", k);
  return {};
}

const auto kInt = [](const Config& c, std::string_view k, auto fb) {
  return c.get_int(k, static_cast<std::int64_t>(fb));
};
const auto kDouble = [](const Config& c, std::string_view k, double fb) {
  return c.get_double(k, fb);
};
const auto kBool = [](const Config& c, std::string_view k, bool fb) { return c.get_bool(k, fb); };

}  // namespace

// One row: the section and name of its key, the SearchCfg member it sets, its kind, range
// and help.
#define KIBITZ_HEARTS_SETTING(section, name, member, kind, lo, hi, help)                      \
  SearchSetting {                                                                             \
    section, name, SearchSetting::Kind::kind, lo, hi, help,                                   \
        [](const SearchCfg& c) { return static_cast<double>(c.member); },                     \
        [](SearchCfg& c, [[maybe_unused]] std::int64_t whole, [[maybe_unused]] double real) { \
          if constexpr (SearchSetting::Kind::kind == SearchSetting::Kind::kReal)              \
            c.member = real;                                                                  \
          else                                                                                \
            c.member = static_cast<decltype(c.member)>(whole);                                \
        }                                                                                     \
  }

std::span<const SearchSetting> search_settings() {
  static const SearchSetting kSettings[] = {
      KIBITZ_HEARTS_SETTING("search", "worlds", worlds, kInt, 1, 100000,
                            "sampled worlds per decision"),
      KIBITZ_HEARTS_SETTING("search", "depth", depth, kInt, 0, 8, "lookahead plies after our card"),
      KIBITZ_HEARTS_SETTING("search", "beta", beta, kReal, -1e9, 1e9,
                            "weight of the leader's gain"),
      KIBITZ_HEARTS_SETTING("search", "time_budget_ms", time_budget_ms, kInt, 1, 3600000,
                            "ms per decision"),
      KIBITZ_HEARTS_SETTING("search", "analysis_budget_ms", analysis_budget_ms, kInt, 1, 3600000,
                            "ms per decision in analysis mode"),
      KIBITZ_HEARTS_SETTING("search", "analysis", analysis, kBool, 0, 1,
                            "analysis mode (its budget)"),
      KIBITZ_HEARTS_SETTING("search", "paranoid_threshold", paranoid_threshold, kReal, 0, 1,
                            "moon probability from which the lookahead is paranoid"),
      KIBITZ_HEARTS_SETTING("search", "endgame_cards", endgame_cards, kInt, 0, 13,
                            "exact solver at this many cards a player or fewer"),
      KIBITZ_HEARTS_SETTING("search", "endgame_states", endgame_states, kInt, 0, 1e15,
                            "or when this few consistent deals remain"),
      KIBITZ_HEARTS_SETTING("search", "endgame_max_worlds", endgame_max_worlds, kInt, 1, 1e9,
                            "deals the endgame enumerates at most"),
      KIBITZ_HEARTS_SETTING("search", "seed", seed, kInt, -9.3e18, 9.3e18,
                            "seed of the world sampler"),
      KIBITZ_HEARTS_SETTING("search", "shoot_moon", shoot_moon, kBool, 0, 1,
                            "also value each card shooting the moon"),
      KIBITZ_HEARTS_SETTING("search", "pass_worlds", pass_worlds, kInt, 0, 100000,
                            "pass search worlds (0: the rule pass)"),
      KIBITZ_HEARTS_SETTING("search", "model_epsilon", model_epsilon, kReal, 1e-9, 1,
                            "opponent model: chance of a random card (1: no model)"),
      KIBITZ_HEARTS_SETTING("search", "model_draws", model_draws, kInt, 1, 1000,
                            "opponent model: worlds drawn per world kept"),
      KIBITZ_HEARTS_SETTING("rollout", "epsilon", rollout.epsilon, kReal, 0, 1,
                            "rollout: chance of a random card"),
      KIBITZ_HEARTS_SETTING("rollout", "avoid_queen", rollout.avoid_queen, kBool, 0, 1,
                            "rollout: keep the queen off"),
      KIBITZ_HEARTS_SETTING("rollout", "block_shooter", rollout.block_shooter, kBool, 0, 1,
                            "rollout: block a shooter"),
      KIBITZ_HEARTS_SETTING("rollout", "shed_void_suits", rollout.shed_void_suits, kBool, 0, 1,
                            "rollout: lead suits others are void in only when safe"),
  };
  return kSettings;
}
#undef KIBITZ_HEARTS_SETTING

const SearchSetting* find_search_setting(std::string_view name) {
  for (const auto& s : search_settings())
    if (name == s.name ||
        (name.size() == s.section.size() + 1 + s.name.size() && name.starts_with(s.section) &&
         name[s.section.size()] == '.' && name.ends_with(s.name)))
      return &s;
  return nullptr;
}

namespace {

Result<void> check_range(const SearchSetting& s, double v) {
  if (v < s.min || v > s.max || std::isnan(v))
    return fail("{}.{} must be {} to {}", s.section, s.name, s.min, s.max);
  return {};
}

}  // namespace

Result<void> set_search_setting(SearchCfg& cfg, const SearchSetting& s, std::string_view text) {
  if (s.kind == SearchSetting::Kind::kBool) {
    if (text != "true" && text != "false" && text != "1" && text != "0")
      return fail("{}.{}: '{}' is not true or false", s.section, s.name, text);
    s.set(cfg, text == "true" || text == "1", 0);
    return {};
  }
  if (s.kind == SearchSetting::Kind::kInt) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size())
      return fail("{}.{}: '{}' is not a whole number", s.section, s.name, text);
    if (auto ok = check_range(s, static_cast<double>(v)); !ok) return ok;
    s.set(cfg, v, 0);
    return {};
  }
  const std::string copy(text);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (copy.empty() || *end || !std::isfinite(v))
    return fail("{}.{}: '{}' is not a number", s.section, s.name, text);
  if (auto ok = check_range(s, v); !ok) return ok;
  s.set(cfg, 0, v);
  return {};
}

Result<SearchCfg> search_cfg_from(const Config& c, SearchCfg s) {
  if (auto r = check_keys(c, "", {"search", "rollout", "rules"}); !r)
    return tl::unexpected(r.error());
  for (const std::string_view section : {"search", "rollout"}) {
    std::vector<std::string_view> known;
    for (const auto& setting : search_settings())
      if (setting.section == section) known.push_back(setting.name);
    if (auto r = check_keys(c, section, known); !r) return tl::unexpected(r.error());
  }
  for (const auto& setting : search_settings()) {
    const std::string key = fmt::format("{}.{}", setting.section, setting.name);
    if (!c.has(key)) continue;  // absent: the value given stands
    std::int64_t whole = 0;
    double value = 0;
    if (setting.kind == SearchSetting::Kind::kBool) {
      auto v = c.get_bool(key, false);
      if (!v) return tl::unexpected(v.error());
      value = static_cast<double>(whole = *v ? 1 : 0);
    } else if (setting.kind == SearchSetting::Kind::kInt) {
      auto v = c.get_int(key, 0);
      if (!v) return tl::unexpected(v.error());
      value = static_cast<double>(whole = *v);
    } else {
      auto v = c.get_double(key, 0);
      if (!v) return tl::unexpected(v.error());
      value = *v;
    }
    if (auto r = check_range(setting, value); !r)
      return fail("{}: {}", c.source(), r.error().message);
    setting.set(s, whole, value);
  }
  return s;
}

Result<Options> rules_from(const Config& c, Options o) {
  if (auto r = check_keys(c, "rules",
                          {"pass_cards", "no_points_first_trick", "must_break_hearts",
                           "qs_breaks_hearts", "jd_bonus", "moon_minus", "game_target"});
      !r)
    return tl::unexpected(r.error());
  for (auto r : {read_key(c, "rules.pass_cards", o.pass_cards, kBool),
                 read_key(c, "rules.no_points_first_trick", o.no_points_first_trick, kBool),
                 read_key(c, "rules.must_break_hearts", o.must_break_hearts, kBool),
                 read_key(c, "rules.qs_breaks_hearts", o.qs_breaks_hearts, kBool),
                 read_key(c, "rules.jd_bonus", o.jd_bonus, kBool),
                 read_key(c, "rules.moon_minus", o.moon_minus, kBool),
                 read_key(c, "rules.game_target", o.game_target, kInt)})
    if (!r) return tl::unexpected(r.error());
  if (o.game_target < 1) return fail("{}: rules.game_target must be positive", c.source());
  return o;
}

HandResult play_hand(const std::array<Bot*, kNumPlayers>& bots, const DealRecord& deal,
                     const Options& rules, std::array<int, kNumPlayers> scores_before) {
  HandResult out;
  State s(deal.hands, deal.dir, rules, scores_before);
  if (s.phase() == Phase::kPass) {
    std::array<CardSet, kNumPlayers> picks{};
    for (int p = 0; p < kNumPlayers; ++p) {
      const auto t0 = std::chrono::steady_clock::now();
      picks[p] = bots[p]->choose_pass(s.information_state(p));
      if (bots[p]->name() == "search")
        out.pass_ms.push_back(std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now() - t0)
                                  .count());
    }
    for (int p = 0; p < kNumPlayers; ++p)
      for (const Card c : picks[p]) s.apply(c);
  }
  while (!s.is_terminal()) {
    const int p = s.current_player();
    const Decision d = bots[p]->choose_play(s.information_state(p));
    if (bots[p]->name() == "search") out.search_ms.push_back(d.duration_ms);
    s.apply(s.is_legal(d.card) ? d.card : s.legal_set().lowest());
  }
  out.points = s.hand_scores();
  for (int p = 0; p < kNumPlayers; ++p)
    if ((s.taken(p) & kPointCards) == kPointCards) out.moon = p;
  return out;
}

Result<DuplicateReport> run_duplicate(const std::vector<DealRecord>& deals,
                                      const DuplicateOptions& o) {
  if (o.players.size() != kNumPlayers)
    return fail("four players are needed (got {})", o.players.size());
  if (o.hands <= 0 || o.hands % 4 != 0)
    return fail("--hands {}: a positive multiple of 4", o.hands);
  const int n_deals = o.hands / 4;
  if (o.first_deal < 0 || o.first_deal + n_deals > static_cast<int>(deals.size()))
    return fail("{} hands need {} deals from deal {}; the file has {}", o.hands, n_deals,
                o.first_deal, deals.size());
  for (const auto& name : o.players)
    if (auto b = make_bot(name, o.search, 1); !b) return tl::unexpected(b.error());

  // points[deal][rotation][player]
  std::vector<std::array<std::array<int, kNumPlayers>, 4>> points(
      static_cast<std::size_t>(n_deals));
  std::vector<std::int64_t> latency, pass_latency;
  std::vector<std::array<int, kNumPlayers>> moons(static_cast<std::size_t>(n_deals));
  std::mutex mu;
  std::atomic<int> next{0}, done{0};
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&](int worker_id) {
    std::array<std::unique_ptr<Bot>, kNumPlayers> bots;
    for (int i = 0; i < kNumPlayers; ++i) {
      bots[i] =
          std::move(*make_bot(o.players[i], o.search, o.seed * 4 + static_cast<std::uint64_t>(i)));
      if (o.telemetry)
        bots[i]->set_telemetry([&, i, worker_id](const std::string& line) {
          std::lock_guard lock(mu);
          (void)worker_id;
          o.telemetry(fmt::format("{{\"player\":{},{}", i, line.substr(1)));
        });
    }
    std::vector<std::int64_t> mine, mine_pass;
    for (int k; (k = next.fetch_add(1)) < n_deals;) {
      const DealRecord& deal = deals[static_cast<std::size_t>(o.first_deal + k)];
      for (int r = 0; r < 4; ++r) {
        // Rotation r: player i sits at seat (i + r) % 4.
        std::array<Bot*, kNumPlayers> by_seat{};
        for (int i = 0; i < kNumPlayers; ++i) by_seat[(i + r) % 4] = bots[i].get();
        const HandResult h = play_hand(by_seat, deal, o.rules);
        for (int i = 0; i < kNumPlayers; ++i)
          points[static_cast<std::size_t>(k)][r][i] = h.points[(i + r) % 4];
        mine.insert(mine.end(), h.search_ms.begin(), h.search_ms.end());
        mine_pass.insert(mine_pass.end(), h.pass_ms.begin(), h.pass_ms.end());
        for (int i = 0; i < kNumPlayers; ++i)
          if (h.moon == (i + r) % 4) ++moons[static_cast<std::size_t>(k)][i];
      }
      const int d = ++done;
      if (o.progress) {
        std::lock_guard lock(mu);
        o.progress(d, n_deals);
      }
    }
    std::lock_guard lock(mu);
    latency.insert(latency.end(), mine.begin(), mine.end());
    pass_latency.insert(pass_latency.end(), mine_pass.begin(), mine_pass.end());
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::max(1, o.threads); ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& t : pool) t.join();

  DuplicateReport rep;
  rep.deals = n_deals;
  rep.hands = o.hands;
  rep.wall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count();
  auto mean_sd = [](const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m += x;
    m /= static_cast<double>(v.size());
    double ss = 0;
    for (double x : v) ss += (x - m) * (x - m);
    return std::pair{m, v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0};
  };
  const double n = n_deals;
  for (int i = 0; i < kNumPlayers; ++i) {
    std::vector<double> per_deal, per_hand;
    for (const auto& d : points) {
      double sum = 0;
      for (int r = 0; r < 4; ++r) {
        sum += d[r][i];
        per_hand.push_back(d[r][i]);
      }
      per_deal.push_back(sum / 4);
    }
    const auto [m, sd] = mean_sd(per_deal);
    int shot = 0;
    for (const auto& d : moons) shot += d[i];
    rep.players[i] = {o.players[static_cast<std::size_t>(i)], m, 1.96 * sd / std::sqrt(n),
                      mean_sd(per_hand).second, shot};
  }
  std::vector<double> diffs;
  for (std::size_t k = 0; k < points.size(); ++k) {
    double sum = 0;
    for (int r = 0; r < 4; ++r) {
      const auto& p = points[k][r];
      const double others = (p[1] + p[2] + p[3]) / 3.0;
      sum += p[0] - others;
      rep.rows.push_back({static_cast<double>(o.first_deal) + static_cast<double>(k),
                          static_cast<double>(r), static_cast<double>(p[0]), others});
    }
    diffs.push_back(sum / 4);
  }
  const auto [dm, dsd] = mean_sd(diffs);
  rep.diff = dm;
  rep.diff_sd_deal = dsd;
  rep.diff_ci95 = 1.96 * dsd / std::sqrt(n);
  // Median, p99 and max of a set of durations (sorted in place).
  const auto quantiles = [](const std::vector<std::int64_t>& in, std::vector<double>& sorted,
                            double& median, double& p99, double& max) {
    for (auto ms : in) sorted.push_back(static_cast<double>(ms));
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty()) return;
    auto at = [&](double q) {
      return sorted[std::min(sorted.size() - 1,
                             static_cast<std::size_t>(q * static_cast<double>(sorted.size())))];
    };
    median = at(0.5);
    p99 = at(0.99);
    max = sorted.back();
  };
  quantiles(latency, rep.latency_ms, rep.latency_median, rep.latency_p99, rep.latency_max);
  quantiles(pass_latency, rep.pass_ms, rep.pass_median, rep.pass_p99, rep.pass_max);
  return rep;
}

}  // namespace kibitz::hearts
