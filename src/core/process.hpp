#pragma once
// A child process talking over pipes, for `kibitz match` to run external engines (UCI, GTP,
// Gomocup): line-based writes to its stdin, line-based reads from its stdout with a deadline,
// and a termination ladder (close stdin, SIGTERM, SIGKILL) that takes its whole process group
// down with it. POSIX only.
//
// Thread-safety: one Subprocess must be used by one thread at a time; different Subprocess
// objects may be used from different threads concurrently. The first spawn sets SIGPIPE to
// SIG_IGN process-wide (when it still has the default action) so that writing to an engine
// that has died returns an error instead of killing this program; children get the default
// action back.
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace kibitz {

struct ProcessOptions {
  // Working directory of the child; empty: inherit ours.
  std::string workdir;
  // Where the child's stderr goes: our own stderr, /dev/null, or merged into its stdout pipe.
  enum class Stderr { kInherit, kDiscard, kToStdout } stderr_mode = Stderr::kDiscard;
};

class Subprocess {
 public:
  // Starts argv[0] with arguments argv[1..] (argv[0] is searched in PATH when it has no '/'),
  // stdin and stdout connected to pipes, in a process group of its own. Fails, synchronously,
  // when the program cannot be run ("cannot run 'foo': No such file or directory") or the
  // working directory cannot be entered (the message names it).
  static Result<std::unique_ptr<Subprocess>> spawn(const std::vector<std::string>& argv,
                                                   const ProcessOptions& opts = {});

  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // Terminates the child (short grace) if it has not been reaped, and closes every pipe.
  ~Subprocess();

  // Writes `line` plus '\n' to the child's stdin (blocking while the pipe is full). Returns
  // false, without raising SIGPIPE, once the child's stdin is closed (exited, or terminate()).
  bool write_line(std::string_view line);

  enum class Read { kLine, kTimeout, kEof };
  // Reads the next line of the child's stdout into `line`, without its '\n' (and without a
  // trailing '\r'), waiting at most until `deadline`; a line already buffered is returned even
  // past the deadline. kEof once the child closed its stdout and every line was returned (a
  // final unterminated line comes back as a line first). `line` is untouched unless kLine.
  Read read_line(std::string& line, std::chrono::steady_clock::time_point deadline);

  // True while the child has not exited (non-blocking check; does not reap it).
  bool running();

  // Closes the child's stdin and waits up to `grace` for it to exit; then sends SIGTERM to its
  // process group and waits again (`grace`, clamped to 50..500 ms); then SIGKILL. Whatever
  // else is left in its process group gets SIGKILL, and the child is reaped. Returns
  // exit_description(). Calling it again just returns the description.
  std::string terminate(std::chrono::milliseconds grace = std::chrono::milliseconds(1000));

  // "running", "exited with status 3", "killed by signal 11 (Segmentation fault)".
  std::string exit_description();

  // The child's process id (also its process group id).
  int pid() const { return pid_; }

 private:
  Subprocess(int pid, int stdin_fd, int stdout_fd, int pidfd)
      : pid_(pid), stdin_fd_(stdin_fd), stdout_fd_(stdout_fd), pidfd_(pidfd) {}

  // Waits (without reaping) until the child has exited or `deadline` passes; true if exited.
  bool wait_exit(std::chrono::steady_clock::time_point deadline);
  // Blocks until the child is reaped, recording its status if not known yet.
  void reap();
  // Records a status from waitid (si_code, si_status).
  void record_status(int code, int status);

  int pid_;
  int stdin_fd_;   // write end of the child's stdin; -1 once closed
  int stdout_fd_;  // read end of the child's stdout
  int pidfd_;      // pidfd_open() of the child, -1 where unavailable (then waits sleep briefly)

  std::string buf_;       // bytes read from stdout not yet returned, from head_ on
  std::size_t head_ = 0;  // start of the unread part of buf_
  bool eof_ = false;      // stdout reached end of file

  bool exited_ = false;       // exit status known (or lost: status_lost_)
  bool status_lost_ = false;  // someone else reaped the child (ECHILD)
  bool reaped_ = false;       // waited for; pid_ may be reused from now on
  int exit_status_ = -1;      // exit status when it exited normally
  int term_signal_ = 0;       // signal that killed it, 0 if none
};

}  // namespace kibitz
