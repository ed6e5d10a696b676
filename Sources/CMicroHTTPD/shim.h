#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <microhttpd.h>

/// Starts a libmicrohttpd daemon listening on the numeric address `host` (IPv4 such as
/// "127.0.0.1" or IPv6 such as "::1") and `port` (0: a free port the kernel picks), with an
/// internal polling thread (epoll where available), suspend/resume, `threads` polling threads
/// and at most `connection_limit` connections (`per_ip_limit` from one address, `timeout`
/// seconds of inactivity before a connection is closed; 0: never).
/// MHD_start_daemon is variadic, which Swift cannot call: the options are passed here.
///
/// Returns the daemon, or NULL with `*failure` set: EINVAL for an address that is not numeric,
/// otherwise errno as libmicrohttpd left it (EADDRINUSE, EACCES, …) or EIO.
static inline struct MHD_Daemon *flick_mhd_start(
    const char *host, uint16_t port, unsigned threads, unsigned connection_limit, unsigned per_ip_limit,
    unsigned timeout, MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls, int *failure) {
  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME;
  if (MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES) flags |= MHD_USE_EPOLL;
  struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
  if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
  } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    flags |= MHD_USE_IPv6;
  } else {
    *failure = EINVAL;
    return NULL;
  }
  errno = 0;
  struct MHD_Daemon *daemon = MHD_start_daemon(
      flags, port, NULL, NULL, handler, handler_cls,
      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
      MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 1,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout,
      MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
      MHD_OPTION_END);
  if (!daemon) *failure = errno ? errno : EIO;
  return daemon;
}

/// The port the daemon listens on (the one the kernel picked for port 0), or 0.
static inline uint16_t flick_mhd_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}
