#ifndef FLICK_SPAWN_H
#define FLICK_SPAWN_H

// Starting a child process the way FlickVideo's Subprocess needs, which posix_spawn cannot do
// whole: the child leads a process group of its own (so Flick can stop it and everything it
// started with one kill(-pgid)), and on Linux it asks the kernel for SIGKILL when the thread
// that started it ends (PR_SET_PDEATHSIG; Subprocess starts children from one thread that
// lives as long as the process, so a Flick killed outright takes its children with it).

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (both NULL-terminated) and returns its process id (also
/// its process group id), or -errno when it could not be started (the exec's error included).
///
/// The child's descriptors 0, 1 and 2 are `in_fd`, `out_fd` and `err_fd` (-1: /dev/null; each
/// must be -1 or above 2); every other descriptor is closed. Its signal dispositions are the
/// defaults (an ignored SIGPIPE is not inherited) and no signal is blocked. It is killed when
/// the calling thread ends (Linux); `parent` is the caller's getpid(), checked after that
/// request so a parent that ended before it cannot leave the child running.
pid_t flick_spawn(const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd,
                  pid_t parent);

/// Makes a pipe whose two ends are closed on exec (so no other child inherits them): 0, or
/// -errno.
int flick_pipe_cloexec(int fds[2]);

/// Whether child `pid` has exited, without reaping it (`waitid` with `WNOWAIT`): 1 when it has
/// (or is no child of ours any more: someone reaped it), 0 while it runs.
int flick_child_exited(pid_t pid);

/// Scans `/proc` for the processes of group `pgid`: returns the sum of their user and system CPU
/// time in clock ticks (`/proc/PID/stat`), or -errno when `/proc` cannot be read (-ENOSYS off
/// Linux). `*live` (when not NULL) gets the count of members that are not zombies, and
/// `members` (when not NULL) the first `capacity` of their ids.
long flick_group_scan(pid_t pgid, pid_t *members, long capacity, long *live);

/// A descriptor that becomes readable when process `pid` exits (Linux `pidfd_open`), or -errno
/// where there is none; close it after use.
int flick_child_open(pid_t pid);

/// Waits up to `milliseconds` for the process of `pidfd` (from ``flick_child_open``) to exit,
/// returning as soon as it has; with no descriptor (`pidfd` < 0) it sleeps up to 2 ms instead.
/// Whether it has exited is for ``flick_child_exited`` to say.
void flick_child_await(int pidfd, int milliseconds);

/// Hands `length` bytes at `bytes` to the pipe `fd` by reference (Linux `vmsplice`: the pipe
/// holds the pages themselves, with no copy, until its reader has read them, so the caller must
/// not change or free them before then). Returns the bytes handed over (possibly fewer than
/// `length`), or -errno: -EAGAIN when `nonblocking` and the pipe is full, -ENOSYS where there is
/// no vmsplice (then write(2) the bytes instead).
long flick_pipe_splice(int fd, const void *bytes, unsigned long length, int nonblocking);

/// Bytes in the pipe `fd` not yet read by its reader (`FIONREAD`; either end), or -errno.
long flick_pipe_queued(int fd);

/// Sets the calling thread's nice value to `nice` (0–19) when that lowers its priority, and never
/// raises it (an unprivileged thread could not take it back). Linux keeps a nice value per
/// thread: the process's other threads keep theirs, and only threads this one starts later
/// inherit it. 0, or -errno (-ENOSYS where threads have no nice value of their own).
int flick_thread_lower_priority(int nice);

/// Puts the calling thread's nice value (-20–19) in `nice`: 0, or -errno (-ENOSYS where threads
/// have no nice value of their own).
int flick_thread_nice(int *nice);

#endif
