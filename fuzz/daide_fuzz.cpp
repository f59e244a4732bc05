// DAIDE: any text either fails with a one-line error or reads to tokens whose text form reads
// back to the same tokens; any byte stream from a client, after its initial message, leaves
// the host (a game with one client seat and six heuristic bots) sending only well-formed
// frames, and a client fed the same bytes as the server's never crashes.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "protocol/daide/client.hpp"
#include "protocol/daide/host.hpp"

namespace {

using namespace kibitz::daide;

// Every frame the host sends must read back as a frame of a known type.
void check_outs(const std::vector<Host::Out>& outs) {
  for (const auto& o : outs) {
    FrameReader r;
    r.feed(o.bytes);
    auto f = r.next();
    if (!f || !*f || r.pending() != 0) std::abort();
    if ((*f)->type == FrameType::kDiplomacy && !decode_message((*f)->body)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // The text form.
  const auto m = parse_text(input);
  kibitz::fuzz::require_one_line_error(m);
  if (m) {
    const auto again = parse_text(to_text(*m));
    if (!again || *again != *m) std::abort();
    // The same tokens as a diplomacy message to a client that has joined.
    ClientOptions o;
    o.bot = "random";
    Client client(o);
    client.start();
    client.receive(Frame{FrameType::kRepresentation, {}});
    (void)client.message(*m);
  }
  // The raw bytes from a client, to a host with one client seat.
  HostOptions options;
  options.seats = {"daide",     "heuristic", "heuristic", "heuristic",
                   "heuristic", "heuristic", "heuristic"};
  options.max_year = 1902;
  Host host(options);
  const auto now = Host::Clock::time_point{};
  check_outs(host.connected(1));
  FrameReader reader;
  reader.feed(encode_initial());
  reader.feed(input);
  for (int frames = 0; frames < 256; ++frames) {
    auto f = reader.next();
    if (!f) break;
    if (!*f) break;  // the connection would get EM and close
    check_outs(host.received(1, **f, now));
  }
  check_outs(host.tick(now + std::chrono::hours(1)));
  check_outs(host.disconnected(1, now));
  // The same bytes as a server's, to a client.
  ClientOptions o;
  o.bot = "random";
  Client client(o);
  client.start();
  FrameReader to_client;
  to_client.feed(input);
  for (int frames = 0; frames < 256; ++frames) {
    auto f = to_client.next();
    if (!f || !*f) break;
    if (client.receive(**f).close) break;
  }
  return 0;
}
