// Stand-in for libFuzzer when building with gcc: runs every file of the given corpus
// directories (or files) through the target, then N deterministic mutations of them (byte
// flips, insertions, deletions, truncations, splices). Usage:
//   fuzz_fen [--iterations N] [--seed S] CORPUS_DIR_OR_FILE...
// Exit status 0 means no crash; sanitizer builds turn memory errors into crashes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/rng.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  long iterations = 2000;
  std::uint64_t seed = 1;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--iterations" && i + 1 < argc)
      iterations = std::strtol(argv[++i], nullptr, 10);
    else if (a == "--seed" && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else
      inputs.push_back(a);
  }
  std::vector<std::string> corpus;
  for (const auto& in : inputs) {
    std::error_code ec;
    auto add_file = [&](const std::filesystem::path& p) {
      std::ifstream f(p, std::ios::binary);
      corpus.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    };
    if (std::filesystem::is_directory(in, ec)) {
      for (const auto& e : std::filesystem::directory_iterator(in))
        if (e.is_regular_file()) add_file(e.path());
    } else if (std::filesystem::is_regular_file(in, ec)) {
      add_file(in);
    } else {
      std::fprintf(stderr, "fuzz driver: no such corpus '%s'\n", in.c_str());
      return 2;
    }
  }
  if (corpus.empty()) corpus.emplace_back();
  for (const auto& c : corpus)
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(c.data()), c.size());

  kibitz::Rng rng(seed);
  for (long it = 0; it < iterations; ++it) {
    std::string s = corpus[rng.below(corpus.size())];
    const int edits = 1 + static_cast<int>(rng.below(4));
    for (int e = 0; e < edits; ++e) {
      const auto pos = s.empty() ? 0 : rng.below(s.size());
      switch (rng.below(6)) {
        case 0:
          if (!s.empty()) s[pos] = static_cast<char>(rng.below(256));
          break;
        case 1:
          s.insert(s.begin() + static_cast<long>(pos), static_cast<char>(rng.below(128)));
          break;
        case 2:
          if (!s.empty()) s.erase(pos, 1 + rng.below(3));
          break;
        case 3:
          s.resize(pos);
          break;
        case 4: {
          const std::string& o = corpus[rng.below(corpus.size())];
          if (!o.empty()) s.insert(pos, o.substr(rng.below(o.size())));
          break;
        }
        default:
          if (!s.empty()) s[pos] = " /-=+#;\"0123456789KQRBNPkqrbnpxabcdefgh"[rng.below(38)];
      }
    }
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  }
  std::printf("fuzz driver: %zu corpus inputs and %ld mutations ran without a crash\n",
              corpus.size(), iterations);
  return 0;
}
