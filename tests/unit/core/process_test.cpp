// Subprocess: pipes, line reads with deadlines, exit descriptions, spawn errors and the
// termination ladder, using /bin/sh scripts as children. Waits are bounded by deadlines of at
// most a few seconds, and no test relies on the machine being fast beyond that.
#include "core/process.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace kibitz {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using Read = Subprocess::Read;

// gtest-only substring check (the test binary does not link gmock).
::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

Clock::time_point in_ms(int ms) { return Clock::now() + milliseconds(ms); }

std::unique_ptr<Subprocess> sh(const std::string& script, const ProcessOptions& opts = {}) {
  auto p = Subprocess::spawn({"/bin/sh", "-c", script}, opts);
  EXPECT_TRUE(p.has_value()) << (p ? "" : p.error().message);
  return p ? std::move(*p) : nullptr;
}

// Reads every remaining line until end of file (or a 3 s deadline).
std::vector<std::string> read_all(Subprocess& p) {
  std::vector<std::string> lines;
  std::string line;
  const auto deadline = in_ms(3000);
  Read r;
  while ((r = p.read_line(line, deadline)) == Read::kLine) lines.push_back(line);
  EXPECT_EQ(r, Read::kEof);
  return lines;
}

TEST(Process, EchoRoundTrip) {
  auto p = sh("exec cat");
  ASSERT_TRUE(p);
  EXPECT_GT(p->pid(), 0);
  EXPECT_TRUE(p->running());
  EXPECT_EQ(p->exit_description(), "running");
  std::string line;
  for (const std::string text : {"uci", "isready", "", "position startpos moves e2e4"}) {
    ASSERT_TRUE(p->write_line(text));
    ASSERT_EQ(p->read_line(line, in_ms(3000)), Read::kLine);
    EXPECT_EQ(line, text);
  }
  // cat exits on end of input: closing its stdin is enough.
  EXPECT_EQ(p->terminate(), "exited with status 0");
  EXPECT_FALSE(p->running());
  EXPECT_FALSE(p->write_line("after terminate"));
  EXPECT_EQ(p->terminate(), "exited with status 0");  // idempotent
}

TEST(Process, SeveralLinesInOneChunk) {
  auto p = sh("printf 'a\\nbb\\n\\nccc\\n'");
  ASSERT_TRUE(p);
  EXPECT_EQ(read_all(*p), (std::vector<std::string>{"a", "bb", "", "ccc"}));
}

TEST(Process, ManyLinesAcrossChunks) {
  auto p = sh("i=0; while [ $i -lt 3000 ]; do echo \"line $i\"; i=$((i+1)); done");
  ASSERT_TRUE(p);
  const auto lines = read_all(*p);
  ASSERT_EQ(lines.size(), 3000u);
  for (std::size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(lines[i], "line " + std::to_string(i));
}

TEST(Process, CarriageReturnIsStripped) {
  auto p = sh("printf 'hello\\r\\nworld\\r\\nbare\\r'");
  ASSERT_TRUE(p);
  EXPECT_EQ(read_all(*p), (std::vector<std::string>{"hello", "world", "bare"}));
}

TEST(Process, FinalUnterminatedLineComesBeforeEof) {
  auto p = sh("printf 'x\\ny'");
  ASSERT_TRUE(p);
  std::string line;
  ASSERT_EQ(p->read_line(line, in_ms(3000)), Read::kLine);
  EXPECT_EQ(line, "x");
  ASSERT_EQ(p->read_line(line, in_ms(3000)), Read::kLine);
  EXPECT_EQ(line, "y");
  line = "untouched";
  EXPECT_EQ(p->read_line(line, in_ms(3000)), Read::kEof);
  EXPECT_EQ(p->read_line(line, in_ms(3000)), Read::kEof);
  EXPECT_EQ(line, "untouched");
}

TEST(Process, TimeoutWhenChildIsSilent) {
  auto p = sh("echo first; exec sleep 100");
  ASSERT_TRUE(p);
  std::string line;
  ASSERT_EQ(p->read_line(line, in_ms(3000)), Read::kLine);
  const auto start = Clock::now();
  EXPECT_EQ(p->read_line(line, start + milliseconds(100)), Read::kTimeout);
  const auto waited = Clock::now() - start;
  EXPECT_GE(waited, milliseconds(100));
  EXPECT_LT(waited, milliseconds(1000));
  // A deadline already past still polls once and times out at once.
  EXPECT_EQ(p->read_line(line, Clock::now() - milliseconds(5)), Read::kTimeout);
  EXPECT_TRUE(p->running());
  EXPECT_TRUE(Contains(p->terminate(milliseconds(10)), "killed by signal 15"));
}

TEST(Process, EofWhenChildExits) {
  auto p = sh("echo bye");
  ASSERT_TRUE(p);
  std::string line;
  ASSERT_EQ(p->read_line(line, in_ms(3000)), Read::kLine);
  EXPECT_EQ(line, "bye");
  EXPECT_EQ(p->read_line(line, in_ms(3000)), Read::kEof);
}

TEST(Process, ExitStatus) {
  auto p = sh("exit 3");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->terminate(), "exited with status 3");
  EXPECT_EQ(p->exit_description(), "exited with status 3");
}

TEST(Process, KilledBySignal) {
  auto p = sh("kill -SEGV $$");
  ASSERT_TRUE(p);
  std::string line;
  EXPECT_EQ(p->read_line(line, in_ms(3000)), Read::kEof);
  EXPECT_EQ(p->terminate(), "killed by signal 11 (Segmentation fault)");
}

TEST(Process, ExitDescriptionWithoutTerminate) {
  auto p = sh("exit 7");
  ASSERT_TRUE(p);
  std::string line;
  EXPECT_EQ(p->read_line(line, in_ms(3000)), Read::kEof);
  const auto deadline = in_ms(3000);
  while (p->running() && Clock::now() < deadline) std::this_thread::sleep_for(milliseconds(2));
  EXPECT_EQ(p->exit_description(), "exited with status 7");
}

TEST(Process, NonexistentProgram) {
  for (const std::string name : {"kibitz-no-such-program", "/nonexistent/kibitz-engine"}) {
    const auto p = Subprocess::spawn({name, "--flag"});
    ASSERT_FALSE(p.has_value());
    EXPECT_EQ(p.error().message, "cannot run '" + name + "': No such file or directory");
  }
}

TEST(Process, NotExecutable) {
  const auto p = Subprocess::spawn({"/dev/null"});
  ASSERT_FALSE(p.has_value());
  EXPECT_EQ(p.error().message, "cannot run '/dev/null': Permission denied");
}

TEST(Process, EmptyCommandLine) {
  EXPECT_FALSE(Subprocess::spawn({}).has_value());
  EXPECT_FALSE(Subprocess::spawn({""}).has_value());
}

TEST(Process, BadWorkdir) {
  ProcessOptions opts;
  opts.workdir = "/nonexistent/kibitz-dir";
  const auto p = Subprocess::spawn({"/bin/sh", "-c", "true"}, opts);
  ASSERT_FALSE(p.has_value());
  EXPECT_TRUE(Contains(p.error().message, "'/nonexistent/kibitz-dir'"));
  EXPECT_TRUE(Contains(p.error().message, "No such file or directory"));
}

TEST(Process, WorkdirAndPathSearch) {
  ProcessOptions opts;
  opts.workdir = "/";
  auto p = Subprocess::spawn({"sh", "-c", "pwd"}, opts);  // found through PATH
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(read_all(**p), (std::vector<std::string>{"/"}));
}

TEST(Process, StderrModes) {
  ProcessOptions merged;
  merged.stderr_mode = ProcessOptions::Stderr::kToStdout;
  auto p = sh("echo to-stderr >&2; echo to-stdout", merged);
  ASSERT_TRUE(p);
  EXPECT_EQ(read_all(*p), (std::vector<std::string>{"to-stderr", "to-stdout"}));

  auto q = sh("echo to-stderr >&2; echo to-stdout");  // default: discarded
  ASSERT_TRUE(q);
  EXPECT_EQ(read_all(*q), (std::vector<std::string>{"to-stdout"}));
}

TEST(Process, WriteAfterExitFailsWithoutSigpipe) {
  auto p = sh("exit 0");
  ASSERT_TRUE(p);
  std::string line;
  EXPECT_EQ(p->read_line(line, in_ms(3000)), Read::kEof);
  const auto deadline = in_ms(3000);
  while (p->running() && Clock::now() < deadline) std::this_thread::sleep_for(milliseconds(2));
  ASSERT_FALSE(p->running());
  // Had SIGPIPE been raised, this test process would be dead.
  EXPECT_FALSE(p->write_line("quit"));
  EXPECT_FALSE(p->write_line("quit"));
  EXPECT_EQ(p->terminate(), "exited with status 0");
}

TEST(Process, TerminateEscalatesToSigkill) {
  // Ignores end of input and SIGTERM (and so does `sleep`, which inherits the ignore).
  auto p = sh("trap '' TERM; echo ready; sleep 100");
  ASSERT_TRUE(p);
  std::string line;
  ASSERT_EQ(p->read_line(line, in_ms(3000)), Read::kLine);  // the trap is set now
  const auto start = Clock::now();
  EXPECT_TRUE(Contains(p->terminate(milliseconds(100)), "killed by signal 9"));
  EXPECT_LT(Clock::now() - start, milliseconds(3000));
  EXPECT_FALSE(p->running());
  // The sleep held stdout too: it is gone as well.
  EXPECT_EQ(p->read_line(line, in_ms(2000)), Read::kEof);
}

TEST(Process, GrandchildrenAreKilled) {
  auto p = sh("sleep 100 & echo ready; wait");
  ASSERT_TRUE(p);
  std::string line;
  ASSERT_EQ(p->read_line(line, in_ms(3000)), Read::kLine);
  EXPECT_EQ(line, "ready");
  EXPECT_TRUE(Contains(p->terminate(milliseconds(50)), "killed by signal 15"));
  // The background sleep shares the stdout pipe: end of file means it has died too.
  EXPECT_EQ(p->read_line(line, in_ms(2000)), Read::kEof);
}

TEST(Process, DestructorTerminatesRunningChild) {
  auto p = sh("echo started; exec sleep 100");
  ASSERT_TRUE(p);
  std::string line;
  ASSERT_EQ(p->read_line(line, in_ms(3000)), Read::kLine);
  const auto start = Clock::now();
  p.reset();
  EXPECT_LT(Clock::now() - start, milliseconds(2000));
}

// Open descriptors of this process (-1 where /proc is unavailable).
int open_fds() {
  std::error_code ec;
  int n = 0;
  for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end;
       it.increment(ec))
    ++n;
  return ec ? -1 : n;
}

TEST(Process, NoDescriptorLeaks) {
  const int before = open_fds();
  if (before < 0) GTEST_SKIP() << "no /proc/self/fd";
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(Subprocess::spawn({"kibitz-no-such-program"}).has_value());
    auto p = sh("exec cat");
    ASSERT_TRUE(p);
    EXPECT_TRUE(p->write_line("x"));
    p->terminate();
  }
  EXPECT_EQ(open_fds(), before);
}

TEST(Process, ChildGetsOnlyStandardDescriptors) {
  if (open_fds() < 0) GTEST_SKIP() << "no /proc/self/fd";
  // ls itself holds 3 (the directory it lists); our pipes and anything this process inherited
  // without close-on-exec must not show up.
  auto p = Subprocess::spawn({"ls", "-1", "/proc/self/fd"});
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(read_all(**p), (std::vector<std::string>{"0", "1", "2", "3"}));
}

TEST(Process, ConcurrentSubprocessesOnSeveralThreads) {
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &ok] {
      for (int round = 0; round < 3; ++round) {
        auto p = Subprocess::spawn({"cat"});
        if (!p) return;
        bool good = true;
        std::string line;
        for (int i = 0; i < 20 && good; ++i) {
          const std::string text = std::to_string(t) + "/" + std::to_string(i);
          good = (*p)->write_line(text) && (*p)->read_line(line, in_ms(3000)) == Read::kLine &&
                 line == text;
        }
        if (good && (*p)->terminate() == "exited with status 0") ++ok;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok.load(), 12);
}

}  // namespace
}  // namespace kibitz
