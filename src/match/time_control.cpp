#include "match/time_control.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace kibitz::match {

namespace {

// Seconds as "S", "S.fff" or "M:SS(.fff)" -> milliseconds.
Result<std::int64_t> parse_seconds(std::string_view text, std::string_view what) {
  double minutes = 0;
  std::string_view rest = text;
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    const auto m = text.substr(0, colon);
    int value = 0;
    auto [p, ec] = std::from_chars(m.data(), m.data() + m.size(), value);
    if (ec != std::errc() || p != m.data() + m.size() || value < 0)
      return fail("bad minutes '{}' in {}", m, what);
    minutes = value;
    rest = text.substr(colon + 1);
  }
  double seconds = 0;
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), seconds);
  if (rest.empty() || ec != std::errc() || p != rest.data() + rest.size() || seconds < 0 ||
      !std::isfinite(seconds))
    return fail("bad seconds '{}' in {}", rest, what);
  return static_cast<std::int64_t>(std::llround((minutes * 60 + seconds) * 1000));
}

std::string seconds_text(std::int64_t ms) {
  if (ms % 1000 == 0) return std::to_string(ms / 1000);
  std::string s = fmt::format("{:.3f}", ms / 1000.0);
  while (s.back() == '0') s.pop_back();
  return s;
}

}  // namespace

Result<TimeControl> TimeControl::parse(std::string_view text) {
  const std::string what = fmt::format("time control '{}'", text);
  TimeControl tc;
  std::string_view rest = text;
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    const auto m = rest.substr(0, slash);
    auto [p, ec] = std::from_chars(m.data(), m.data() + m.size(), tc.moves);
    if (ec != std::errc() || p != m.data() + m.size() || tc.moves <= 0)
      return fail("bad move count '{}' in {}", m, what);
    rest = rest.substr(slash + 1);
  }
  std::string_view base = rest, inc;
  if (const auto plus = rest.find('+'); plus != std::string_view::npos) {
    base = rest.substr(0, plus);
    inc = rest.substr(plus + 1);
  }
  auto b = parse_seconds(base, what);
  if (!b) return tl::unexpected(b.error());
  tc.base_ms = *b;
  if (!inc.empty() || rest.find('+') != std::string_view::npos) {
    auto i = parse_seconds(inc, what);
    if (!i) return tl::unexpected(i.error());
    tc.increment_ms = *i;
  }
  if (tc.base_ms <= 0 && tc.increment_ms <= 0) return fail("{} gives no time", what);
  return tc;
}

std::string TimeControl::to_string() const {
  std::string s = moves ? fmt::format("{}/", moves) : "";
  s += seconds_text(base_ms);
  if (increment_ms) s += "+" + seconds_text(increment_ms);
  return s;
}

std::string TimeControl::pgn() const {
  // PGN writes "moves/seconds" for periods and "seconds+increment" for sudden death.
  if (moves) return fmt::format("{}/{}", moves, seconds_text(base_ms));
  return increment_ms ? fmt::format("{}+{}", seconds_text(base_ms), seconds_text(increment_ms))
                      : seconds_text(base_ms);
}

std::string MoveLimits::to_string() const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : " ") + part; };
  if (clock) add("tc=" + clock->to_string());
  if (movetime_ms) add(fmt::format("movetime={}", movetime_ms));
  if (nodes) add(fmt::format("nodes={}", nodes));
  if (depth) add(fmt::format("depth={}", depth));
  return s.empty() ? "none" : s;
}

GameClocks::GameClocks(const std::array<MoveLimits, 2>& limits, std::int64_t grace_ms,
                       std::int64_t move_timeout_ms)
    : limits_(limits), grace_ms_(grace_ms), move_timeout_ms_(move_timeout_ms) {
  for (int s = 0; s < 2; ++s)
    remaining_[s] = limits_[s].clock ? static_cast<double>(limits_[s].clock->base_ms) : -1.0;
}

ClockView GameClocks::view(int mover) const {
  ClockView v;
  const auto& own = limits_[mover].clock;
  for (int s = 0; s < 2; ++s) {
    // An opponent without a clock (time odds against fixed limits) is shown the mover's.
    const int from = limits_[s].clock ? s : mover;
    if (!limits_[from].clock) continue;
    v.remaining_ms[s] = std::max<std::int64_t>(0, std::llround(remaining_[from]));
    v.increment_ms[s] = limits_[from].clock->increment_ms;
  }
  if (own && own->moves) v.moves_to_go = own->moves - moves_made_[mover] % own->moves;
  return v;
}

std::int64_t GameClocks::budget_ms(int mover) const {
  if (limits_[mover].clock) return std::llround(std::max(0.0, remaining_[mover])) + grace_ms_;
  return limits_[mover].movetime_ms + move_timeout_ms_;
}

bool GameClocks::charge(int mover, double elapsed_ms) {
  const auto& clock = limits_[mover].clock;
  if (!clock) return elapsed_ms <= static_cast<double>(budget_ms(mover));
  remaining_[mover] -= elapsed_ms;
  if (remaining_[mover] < -static_cast<double>(grace_ms_)) return false;
  ++moves_made_[mover];
  remaining_[mover] += static_cast<double>(clock->increment_ms);
  if (clock->moves && moves_made_[mover] % clock->moves == 0)
    remaining_[mover] += static_cast<double>(clock->base_ms);
  return true;
}

}  // namespace kibitz::match
