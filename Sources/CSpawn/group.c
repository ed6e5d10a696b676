#define _GNU_SOURCE
#include "flick_spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#ifdef __linux__
/// Reads the unsigned decimal at `*p` (up to `end`) into `*value` and moves `*p` past it and the
/// space after it; 0 on success, -1 when there is no number there or it is implausibly large.
static int stat_field(const char **p, const char *end, long long *value) {
  const char *s = *p;
  if (s >= end || *s < '0' || *s > '9') return -1;
  long long v = 0;
  while (s < end && *s >= '0' && *s <= '9') {
    if (v > (long long)1 << 56) return -1;
    v = v * 10 + (*s - '0');
    s++;
  }
  if (s < end && *s == ' ') s++;
  *value = v;
  *p = s;
  return 0;
}

/// Moves `*p` past the next field (any bytes up to a space) and that space.
static void skip_field(const char **p, const char *end) {
  const char *s = memchr(*p, ' ', (size_t)(end - *p));
  *p = s ? s + 1 : end;
}
#endif

long flick_group_scan(pid_t pgid, pid_t *members, long capacity, long *live) {
  if (live) *live = 0;
#ifdef __linux__
  DIR *proc = opendir("/proc");
  if (!proc) return -errno;
  long long total = 0;
  long found = 0;
  char path[64];
  char line[4096];
  struct dirent *entry;
  while ((entry = readdir(proc)) != NULL) {
    const char *name = entry->d_name;
    if (name[0] < '1' || name[0] > '9') continue;
    // "/proc/PID/stat"; a name that is not all digits is not a process.
    size_t length = strnlen(name, 20);
    if (length >= 20 || strspn(name, "0123456789") != length) continue;
    memcpy(path, "/proc/", 6);
    memcpy(path + 6, name, length);
    memcpy(path + 6 + length, "/stat", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;  // it ended meanwhile
    ssize_t n;
    do n = read(fd, line, sizeof line); while (n < 0 && errno == EINTR);
    close(fd);
    if (n <= 0) continue;
    // "PID (COMM) STATE PPID PGRP SESSION TTY TPGID FLAGS MINFLT CMINFLT MAJFLT CMAJFLT UTIME
    // STIME …": COMM may hold spaces and parentheses, so the fields start after the last ')'.
    const char *end = line + n;
    const char *close_paren = memrchr(line, ')', (size_t)n);
    if (!close_paren || close_paren + 2 >= end) continue;
    const char *p = close_paren + 2;
    char state = *p;
    skip_field(&p, end);  // state
    skip_field(&p, end);  // ppid
    long long group = 0;
    if (stat_field(&p, end, &group) != 0 || group != (long long)pgid) continue;
    for (int skipped = 0; skipped < 8; skipped++) skip_field(&p, end);  // session … cmajflt
    long long user = 0, system = 0;
    if (stat_field(&p, end, &user) != 0 || stat_field(&p, end, &system) != 0) continue;
    total += user + system;
    if (state != 'Z') {
      if (members && found < capacity) members[found] = (pid_t)strtol(name, NULL, 10);
      found++;
    }
  }
  closedir(proc);
  if (live) *live = found;
  return (long)total;
#else
  (void)pgid;
  (void)members;
  (void)capacity;
  return -ENOSYS;
#endif
}

int flick_child_open(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
  int fd = (int)syscall(SYS_pidfd_open, pid, 0);
  return fd < 0 ? -errno : fd;
#else
  (void)pid;
  return -ENOSYS;
#endif
}

void flick_child_await(int pidfd, int milliseconds) {
  if (pidfd >= 0) {
    struct pollfd ready = {.fd = pidfd, .events = POLLIN, .revents = 0};
    if (poll(&ready, 1, milliseconds) >= 0 || errno == EINTR) return;
  }
  int step = milliseconds < 2 ? milliseconds : 2;
  struct timespec pause = {.tv_sec = 0, .tv_nsec = (long)step * 1000000L};
  nanosleep(&pause, NULL);
}
