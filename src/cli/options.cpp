// --option and --option-file: the options of a protocol command's engine, declared by the
// engine (AnyEngine::options) and read alike from the command line, a YAML file and match
// player specs.
#include "cli/commands.hpp"

namespace kibitz::cli {

void add_option_flags(CLI::App* cmd, OptionArgs& args) {
  cmd->add_option("--option", args.words,
                  "an engine option NAME=VALUE, as the protocol's own setting would set it "
                  "(repeatable; `kibitz games --verbose` lists each engine's)")
      ->type_name("NAME=VALUE");
  cmd->add_option("--option-file", args.file,
                  "engine options from a YAML file: an options: map of NAME: VALUE (--option "
                  "words override it)")
      ->type_name("FILE");
}

Result<engine::OptionSettings> option_settings(const OptionArgs& args) {
  engine::OptionSettings out;
  if (!args.file.empty()) {
    auto from_file = engine::read_option_file(args.file);
    if (!from_file) return tl::unexpected(from_file.error());
    out = std::move(*from_file);
  }
  for (const auto& w : args.words) {
    auto kv = engine::parse_option_word(w);
    if (!kv) return tl::unexpected(kv.error());
    out.push_back(std::move(*kv));
  }
  return out;
}

}  // namespace kibitz::cli
