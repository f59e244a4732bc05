#pragma once
// Game records in bulk: SGF files, directories of them and archives (tar, tar.gz, zip, ...,
// read in place with libarchive), so training data such as the KGS archives never has to be
// unpacked or copied.
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace kibitz::go {

// Calls fn(name, text) for every .sgf among the inputs, in a fixed order: inputs as given,
// directories walked in sorted path order, archive members in their stored order (names are
// "archive:member"). fn returns false to stop early. An unreadable input or a damaged archive
// is an error naming it; members too large for an SGF (kMaxSgfBytes) are skipped.
Result<void> for_each_sgf(std::span<const std::string> inputs,
                          const std::function<bool(std::string_view, std::string_view)>& fn);

}  // namespace kibitz::go
