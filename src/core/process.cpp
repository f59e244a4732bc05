#include "core/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <thread>

extern char** environ;

namespace kibitz {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

std::string errno_text(int err) { return std::generic_category().message(err); }

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Moves a close-on-exec descriptor above 0..2 so that setting up the child's standard
// descriptors with dup2 can never overwrite one still needed. Returns -1 on failure.
int above_stdio(int fd) {
  if (fd < 0 || fd > 2) return fd;
  const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  return moved;
}

// Milliseconds from now to deadline for poll(), rounded up so a wake-up is never early.
int poll_timeout(Clock::time_point deadline, Clock::time_point now) {
  if (now >= deadline) return 0;
  const auto ms = std::chrono::ceil<milliseconds>(deadline - now).count();
  return static_cast<int>(std::min<std::int64_t>(ms, INT_MAX));
}

// Ignores SIGPIPE process-wide, once, unless the program installed its own disposition.
void ignore_sigpipe_once() {
  static const bool done = [] {
    struct sigaction old {};
    if (::sigaction(SIGPIPE, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
        old.sa_handler == SIG_DFL) {
      struct sigaction ign {};
      ign.sa_handler = SIG_IGN;
      sigemptyset(&ign.sa_mask);
      ::sigaction(SIGPIPE, &ign, nullptr);
    }
    return true;
  }();
  (void)done;
}

// What the child reports through the close-on-exec pipe when it cannot exec.
enum class Stage : int { kSetup, kWorkdir, kExec };
struct ChildError {
  Stage stage;
  int err;
};

// Everything the child needs, prepared before fork: after fork only async-signal-safe calls.
struct ChildPlan {
  std::vector<char*> argv;                            // null-terminated
  std::vector<std::string> candidates;                // paths to try with execve, in order
  const char* workdir = nullptr;                      // nullptr: stay
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;  // stderr_fd -1: inherit
  bool stderr_to_stdout = false;
  int report_fd = -1;
};

[[noreturn]] void child_fail(int report_fd, Stage stage, int err) {
  const ChildError e{stage, err};
  if (::write(report_fd, &e, sizeof e) < 0) {
  }
  ::_exit(127);
}

[[noreturn]] void run_child(const ChildPlan& plan, char** envp) {
  // Handlers of this program must not run in the child; ignored SIGPIPE must not leak into it.
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction sa {};
    if (::sigaction(sig, nullptr, &sa) != 0) continue;
    const bool handled =
        (sa.sa_flags & SA_SIGINFO) || (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN);
    if (handled || sig == SIGPIPE) {
      struct sigaction dfl {};
      dfl.sa_handler = SIG_DFL;
      sigemptyset(&dfl.sa_mask);
      ::sigaction(sig, &dfl, nullptr);
    }
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);

  // Descriptors this program inherited or opened without close-on-exec stay out of the engine.
#if defined(__linux__) && defined(CLOSE_RANGE_CLOEXEC)
  ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);  // best effort (needs Linux 5.11)
#endif
  if (::setpgid(0, 0) != 0) child_fail(plan.report_fd, Stage::kSetup, errno);
  // All of plan's descriptors are >= 3, so these cannot clobber one another.
  if (::dup2(plan.stdin_fd, 0) < 0 || ::dup2(plan.stdout_fd, 1) < 0)
    child_fail(plan.report_fd, Stage::kSetup, errno);
  if (plan.stderr_to_stdout) {
    if (::dup2(1, 2) < 0) child_fail(plan.report_fd, Stage::kSetup, errno);
  } else if (plan.stderr_fd >= 0) {
    if (::dup2(plan.stderr_fd, 2) < 0) child_fail(plan.report_fd, Stage::kSetup, errno);
  }
  if (plan.workdir && ::chdir(plan.workdir) != 0)
    child_fail(plan.report_fd, Stage::kWorkdir, errno);

  // PATH search like execvp: skip entries where the file is missing, remember EACCES.
  int err = ENOENT;
  bool denied = false;
  for (const std::string& path : plan.candidates) {
    ::execve(path.c_str(), plan.argv.data(), envp);
    err = errno;
    if (err == EACCES) {
      denied = true;
    } else if (err != ENOENT && err != ENOTDIR && err != ESTALE && err != ENODEV &&
               err != ETIMEDOUT && err != ELOOP && err != ENAMETOOLONG) {
      child_fail(plan.report_fd, Stage::kExec, err);  // found but not runnable: ENOEXEC, ...
    }
  }
  child_fail(plan.report_fd, Stage::kExec, denied ? EACCES : err);
}

std::vector<std::string> exec_candidates(const std::string& program) {
  if (program.find('/') != std::string::npos) return {program};
  const char* env_path = std::getenv("PATH");
  const std::string_view path = env_path ? env_path : "/usr/local/bin:/usr/bin:/bin";
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t colon = path.find(':', start);
    const std::string_view dir =
        path.substr(start, colon == std::string_view::npos ? colon : colon - start);
    out.push_back(dir.empty() ? program : std::string(dir) + "/" + program);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<Subprocess>> Subprocess::spawn(const std::vector<std::string>& argv,
                                                      const ProcessOptions& opts) {
  if (argv.empty()) return fail("cannot run a process: empty command line");
  const std::string& program = argv[0];
  if (program.empty()) return fail("cannot run '': empty program name");
  ignore_sigpipe_once();

  ChildPlan plan;
  for (const std::string& a : argv) plan.argv.push_back(const_cast<char*>(a.c_str()));
  plan.argv.push_back(nullptr);
  plan.candidates = exec_candidates(program);
  if (!opts.workdir.empty()) plan.workdir = opts.workdir.c_str();

  // Every descriptor is close-on-exec; the child dup2s what it needs onto 0, 1 and 2.
  int in[2] = {-1, -1}, out[2] = {-1, -1}, report[2] = {-1, -1};
  int devnull = -1;
  auto close_all = [&] {
    for (int* fd : {&in[0], &in[1], &out[0], &out[1], &report[0], &report[1], &devnull})
      close_fd(*fd);
  };
  auto sys_fail = [&](int err) {
    close_all();
    return fail("cannot run '{}': {}", program, errno_text(err));
  };
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 ||
      ::pipe2(report, O_CLOEXEC) != 0)
    return sys_fail(errno);
  if (opts.stderr_mode == ProcessOptions::Stderr::kDiscard) {
    devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull < 0) return sys_fail(errno);
  }
  for (int* fd : {&in[0], &in[1], &out[0], &out[1], &report[0], &report[1], &devnull}) {
    if (*fd >= 0 && (*fd = above_stdio(*fd)) < 0) return sys_fail(errno);
  }
  plan.stdin_fd = in[0];
  plan.stdout_fd = out[1];
  plan.stderr_fd = devnull;
  plan.stderr_to_stdout = opts.stderr_mode == ProcessOptions::Stderr::kToStdout;
  plan.report_fd = report[1];

  // Signals stay blocked across fork so no handler of ours runs in the child before it has
  // reset them.
  sigset_t all, old;
  sigfillset(&all);
  ::pthread_sigmask(SIG_BLOCK, &all, &old);
  char** envp = environ;
  const pid_t pid = ::fork();
  if (pid == 0) run_child(plan, envp);
  const int fork_errno = errno;
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (pid < 0) return sys_fail(fork_errno);

  close_fd(in[0]);
  close_fd(out[1]);
  close_fd(report[1]);
  close_fd(devnull);

  // Blocks until the child execs (end of file: the pipe was closed on exec) or reports why not.
  ChildError report_msg{};
  std::size_t got = 0;
  while (got < sizeof report_msg) {
    const ssize_t n =
        ::read(report[0], reinterpret_cast<char*>(&report_msg) + got, sizeof report_msg - got);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close_fd(report[0]);
  if (got > 0) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    close_all();
    if (got < sizeof report_msg) return fail("cannot run '{}': child setup failed", program);
    const std::string why = errno_text(report_msg.err);
    if (report_msg.stage == Stage::kWorkdir)
      return fail("cannot run '{}' in directory '{}': {}", program, opts.workdir, why);
    return fail("cannot run '{}': {}", program, why);
  }

  int pidfd = -1;
#ifdef SYS_pidfd_open
  pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));  // close-on-exec by definition
  if (pidfd >= 0) pidfd = above_stdio(pidfd);
#endif
  return std::unique_ptr<Subprocess>(new Subprocess(pid, in[1], out[0], pidfd));
}

Subprocess::~Subprocess() {
  if (!reaped_) terminate(milliseconds(250));
  close_fd(stdin_fd_);
  close_fd(stdout_fd_);
  close_fd(pidfd_);
}

bool Subprocess::write_line(std::string_view line) {
  if (stdin_fd_ < 0) return false;
  std::string data;
  data.reserve(line.size() + 1);
  data.append(line);
  data.push_back('\n');
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(stdin_fd_, data.data() + done, data.size() - done);
    if (n >= 0) {
      done += static_cast<std::size_t>(n);
    } else if (errno != EINTR) {
      close_fd(stdin_fd_);  // EPIPE: the child is gone or closed its stdin
      return false;
    }
  }
  return true;
}

Subprocess::Read Subprocess::read_line(std::string& line, Clock::time_point deadline) {
  for (;;) {
    const std::size_t nl = buf_.find('\n', head_);
    if (nl != std::string::npos || (eof_ && head_ < buf_.size())) {
      const std::size_t end = nl != std::string::npos ? nl : buf_.size();
      std::size_t len = end - head_;
      if (len > 0 && buf_[head_ + len - 1] == '\r') --len;
      line.assign(buf_, head_, len);
      head_ = nl != std::string::npos ? nl + 1 : end;
      if (head_ == buf_.size()) {
        buf_.clear();
        head_ = 0;
      } else if (head_ >= 4096 && head_ * 2 >= buf_.size()) {
        buf_.erase(0, head_);
        head_ = 0;
      }
      return Read::kLine;
    }
    if (eof_ || stdout_fd_ < 0) {
      eof_ = true;
      return Read::kEof;
    }
    pollfd p{stdout_fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, poll_timeout(deadline, Clock::now()));
    if (r < 0) {
      if (errno != EINTR) eof_ = true;
      continue;
    }
    if (r == 0) {
      if (Clock::now() >= deadline) return Read::kTimeout;
      continue;
    }
    char chunk[8192];
    const ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
    if (n > 0) {
      buf_.append(chunk, static_cast<std::size_t>(n));
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      eof_ = true;
    }
  }
}

void Subprocess::record_status(int code, int status) {
  exited_ = true;
  if (code == CLD_EXITED) {
    exit_status_ = status;
  } else {
    term_signal_ = status;
  }
}

bool Subprocess::running() {
  if (exited_) return false;
  for (;;) {
    siginfo_t info;
    std::memset(&info, 0, sizeof info);
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
      if (errno == EINTR) continue;
      // ECHILD: reaped elsewhere (SIGCHLD ignored, or someone's waitpid(-1)); the pid is
      // no longer ours to signal.
      exited_ = status_lost_ = reaped_ = true;
      return false;
    }
    if (info.si_pid == 0) return true;
    record_status(info.si_code, info.si_status);
    return false;
  }
}

bool Subprocess::wait_exit(Clock::time_point deadline) {
  auto nap = milliseconds(1);
  for (;;) {
    if (!running()) return true;
    const auto now = Clock::now();
    if (now >= deadline) return false;
    if (pidfd_ >= 0) {
      pollfd p{pidfd_, POLLIN, 0};
      if (::poll(&p, 1, poll_timeout(deadline, now)) < 0 && errno != EINTR) close_fd(pidfd_);
    } else {
      // No pidfd (old kernel): short, growing naps.
      std::this_thread::sleep_for(std::min<Clock::duration>(nap, deadline - now));
      nap = std::min(nap * 2, milliseconds(20));
    }
  }
}

void Subprocess::reap() {
  if (reaped_) return;
  int status = 0;
  pid_t r;
  while ((r = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
  }
  reaped_ = true;
  if (exited_) return;
  if (r < 0) {
    exited_ = status_lost_ = true;
  } else if (WIFEXITED(status)) {
    record_status(CLD_EXITED, WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    record_status(CLD_KILLED, WTERMSIG(status));
  } else {
    exited_ = status_lost_ = true;
  }
}

std::string Subprocess::terminate(milliseconds grace) {
  close_fd(stdin_fd_);
  if (!reaped_) {
    if (!wait_exit(Clock::now() + grace)) {
      ::kill(-pid_, SIGTERM);
      const auto term_wait = std::clamp(grace, milliseconds(50), milliseconds(500));
      wait_exit(Clock::now() + term_wait);
    }
    // The child is a zombie or still stuck: either way its pid (= process group id) is still
    // reserved, so this reaches only its own group: the child itself and helpers it forked.
    if (!reaped_) ::kill(-pid_, SIGKILL);
    reap();
  }
  return exit_description();
}

std::string Subprocess::exit_description() {
  if (running()) return "running";
  if (status_lost_) return "exited (status unknown)";
  if (term_signal_ != 0) {
    const char* name = ::strsignal(term_signal_);
    return fmt::format("killed by signal {} ({})", term_signal_, name ? name : "unknown");
  }
  return fmt::format("exited with status {}", exit_status_);
}

}  // namespace kibitz
