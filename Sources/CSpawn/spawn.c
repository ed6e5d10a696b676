#define _GNU_SOURCE
#include "flick_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

/// Closes every descriptor from 3 on: close_range where the kernel has it, else one by one.
static void close_from_three(void) {
#if defined(__linux__) && defined(SYS_close_range)
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
  long most = sysconf(_SC_OPEN_MAX);
  if (most < 0 || most > 65536) most = 65536;
  for (int fd = 3; fd < most; fd++) close(fd);
}

/// Puts `fd` (or /dev/null when -1) on `target`; 0 on success.
static int place(int fd, int target) {
  if (fd < 0) {
    int null = open("/dev/null", target == 0 ? O_RDONLY : O_WRONLY);
    if (null < 0) return -1;
    if (null == target) return 0;
    if (dup2(null, target) < 0) return -1;
    close(null);
    return 0;
  }
  return dup2(fd, target) < 0 ? -1 : 0;
}

pid_t flick_spawn(const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd,
                  pid_t parent) {
  // The child shares the parent's memory until it execs (vfork): it writes only `failure`, and
  // no signal handler of the parent may run in it, so every signal is blocked around the fork.
  volatile int failure = 0;
  sigset_t all, saved;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &saved);
  pid_t pid = vfork();
  if (pid == 0) {
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
#endif
    // Descriptors first: the child holds the parent's other descriptors (a file another thread
    // is writing, which exec would then find busy) for as short a time as possible.
    if (place(in_fd, 0) != 0 || place(out_fd, 1) != 0 || place(err_fd, 2) != 0) {
      failure = errno;
      _exit(127);
    }
    close_from_three();
    for (int sig = 1; sig < NSIG; sig++) {
      if (sig == SIGKILL || sig == SIGSTOP) continue;
      struct sigaction action = {0};
      action.sa_handler = SIG_DFL;
      sigemptyset(&action.sa_mask);
      sigaction(sig, &action, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(path, argv, envp);
    failure = errno ? errno : ENOEXEC;
    _exit(127);
  }
  int error = pid < 0 ? errno : 0;
  pthread_sigmask(SIG_SETMASK, &saved, NULL);
  if (pid < 0) return -error;
  if (failure != 0) {
    // The child ended before exec: reap it here, it never ran anything.
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return -failure;
  }
  return pid;
}

int flick_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC) == 0 ? 0 : -errno; }

int flick_child_exited(pid_t pid) {
  siginfo_t info;
  for (;;) {
    info.si_pid = 0;
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0) return info.si_pid == pid;
    if (errno != EINTR) return 1;
  }
}

long flick_pipe_splice(int fd, const void *bytes, unsigned long length, int nonblocking) {
#ifdef __linux__
  struct iovec iov = {.iov_base = (void *)bytes, .iov_len = length};
  ssize_t n = vmsplice(fd, &iov, 1, nonblocking ? SPLICE_F_NONBLOCK : 0);
  return n < 0 ? -errno : (long)n;
#else
  (void)fd;
  (void)bytes;
  (void)length;
  (void)nonblocking;
  return -ENOSYS;
#endif
}

long flick_pipe_queued(int fd) {
  int queued = 0;
  return ioctl(fd, FIONREAD, &queued) < 0 ? -errno : (long)queued;
}

int flick_thread_nice(int *nice) {
#ifdef __linux__
  // With `who` 0, PRIO_PROCESS names the calling thread on Linux, not the whole process. The
  // nice value returned may be -1, so errno tells a failure apart.
  errno = 0;
  int value = getpriority(PRIO_PROCESS, 0);
  if (value == -1 && errno != 0) return -errno;
  *nice = value;
  return 0;
#else
  (void)nice;
  return -ENOSYS;
#endif
}

int flick_thread_lower_priority(int nice) {
#ifdef __linux__
  int current = 0;
  int failure = flick_thread_nice(&current);
  if (failure != 0) return failure;
  if (nice > current && setpriority(PRIO_PROCESS, 0, nice) != 0) return -errno;
  return 0;
#else
  (void)nice;
  return -ENOSYS;
#endif
}
