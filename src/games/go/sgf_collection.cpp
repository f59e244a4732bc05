// SGF files, directories and archives (see sgf_collection.hpp).
#include "games/go/sgf_collection.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "games/go/sgf.hpp"

namespace kibitz::go {

namespace {

namespace fs = std::filesystem;

bool has_sgf_extension(std::string_view name) {
  if (name.size() < 4) return false;
  std::string ext(name.substr(name.size() - 4));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext == ".sgf";
}

bool is_sgf_path(const fs::path& p) { return has_sgf_extension(p.filename().string()); }

// Returns false when fn asked to stop.
Result<bool> read_archive(const std::string& path,
                          const std::function<bool(std::string_view, std::string_view)>& fn) {
  std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(a.get());
  archive_read_support_format_all(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK)
    return kibitz::fail("{}: {}", path, one_line(archive_error_string(a.get())));
  archive_entry* e = nullptr;
  std::string text;
  for (;;) {
    const int r = archive_read_next_header(a.get(), &e);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
      return kibitz::fail("{}: {}", path, one_line(archive_error_string(a.get())));
    const char* name = archive_entry_pathname(e);
    if (archive_entry_filetype(e) != AE_IFREG || name == nullptr || !has_sgf_extension(name))
      continue;
    const la_int64_t size = archive_entry_size(e);
    if (size < 0 || static_cast<std::uint64_t>(size) > kMaxSgfBytes) continue;
    text.resize(static_cast<std::size_t>(size));
    la_ssize_t got = 0;
    while (got < size) {
      const la_ssize_t n =
          archive_read_data(a.get(), text.data() + got, static_cast<std::size_t>(size - got));
      if (n < 0)
        return kibitz::fail("{}: {}: {}", path, name, one_line(archive_error_string(a.get())));
      if (n == 0) break;
      got += n;
    }
    text.resize(static_cast<std::size_t>(got));
    if (!fn(path + ":" + name, text)) return false;
  }
  return true;
}

Result<bool> read_file(const std::string& path,
                       const std::function<bool(std::string_view, std::string_view)>& fn) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return kibitz::fail("cannot read '{}'", path);
  std::ostringstream s;
  s << f.rdbuf();
  return fn(path, s.str());
}

}  // namespace

Result<void> for_each_sgf(std::span<const std::string> inputs,
                          const std::function<bool(std::string_view, std::string_view)>& fn) {
  for (const auto& input : inputs) {
    std::error_code ec;
    const fs::path path(input);
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> files;
      for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file() && is_sgf_path(it->path())) files.push_back(it->path());
      if (ec) return kibitz::fail("{}: {}", input, ec.message());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        auto r = read_file(f.string(), fn);
        if (!r) return tl::unexpected(r.error());
        if (!*r) return {};
      }
      continue;
    }
    if (!fs::exists(path, ec)) return kibitz::fail("'{}' does not exist", input);
    auto r = is_sgf_path(path) ? read_file(input, fn) : read_archive(input, fn);
    if (!r) return tl::unexpected(r.error());
    if (!*r) return {};
  }
  return {};
}

}  // namespace kibitz::go
