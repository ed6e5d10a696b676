#ifndef FLICK_CMICROHTTPD_H
#define FLICK_CMICROHTTPD_H

// libmicrohttpd, the HTTP server of `flick studio`, loaded on first use (CDynamicLibrary): the
// header's types, and the functions Flick calls through `flick_microhttpd`, filled by
// flick_microhttpd_load(), which the caller of flick_mhd_start() runs first; the other calls take
// a daemon, connection or response, which exist only once it is loaded.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <microhttpd.h>

// X(field, symbol): the libmicrohttpd functions Flick calls, in one list.
#define FLICK_MICROHTTPD_FUNCTIONS(X) \
  X(add_response_header, MHD_add_response_header) \
  X(create_response_from_buffer, MHD_create_response_from_buffer) \
  X(create_response_from_callback, MHD_create_response_from_callback) \
  X(destroy_response, MHD_destroy_response) \
  X(get_connection_values_n, MHD_get_connection_values_n) \
  X(queue_response, MHD_queue_response) \
  X(quiesce_daemon, MHD_quiesce_daemon) \
  X(resume_connection, MHD_resume_connection) \
  X(stop_daemon, MHD_stop_daemon) \
  X(suspend_connection, MHD_suspend_connection) \
  X(get_daemon_info, MHD_get_daemon_info) \
  X(get_connection_info, MHD_get_connection_info) \
  X(is_feature_supported, MHD_is_feature_supported) \
  X(start_daemon, MHD_start_daemon)

#define FLICK_MICROHTTPD_FIELD(field, symbol) __typeof__(&symbol) field;
typedef struct flick_microhttpd_functions {
  FLICK_MICROHTTPD_FUNCTIONS(FLICK_MICROHTTPD_FIELD)
} flick_microhttpd_functions;
#undef FLICK_MICROHTTPD_FIELD

extern flick_microhttpd_functions flick_microhttpd;

/// Loads libmicrohttpd (once per process). Returns 1 when it is loaded; otherwise 0 with
/// `*error` pointing at a static one-line reason.
int flick_microhttpd_load(const char **error);

static inline enum MHD_Result flick_MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
  return flick_microhttpd.add_response_header(response, header, content);
}
static inline struct MHD_Response *flick_MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
  return flick_microhttpd.create_response_from_buffer(size, buffer, mode);
}
static inline struct MHD_Response *flick_MHD_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls, MHD_ContentReaderFreeCallback crfc) {
  return flick_microhttpd.create_response_from_callback(size, block_size, crc, crc_cls, crfc);
}
static inline void flick_MHD_destroy_response(struct MHD_Response *response) {
  flick_microhttpd.destroy_response(response);
}
static inline int flick_MHD_get_connection_values_n(struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIteratorN iterator, void *iterator_cls) {
  return flick_microhttpd.get_connection_values_n(connection, kind, iterator, iterator_cls);
}
static inline enum MHD_Result flick_MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response) {
  return flick_microhttpd.queue_response(connection, status_code, response);
}
static inline MHD_socket flick_MHD_quiesce_daemon(struct MHD_Daemon *daemon) {
  return flick_microhttpd.quiesce_daemon(daemon);
}
static inline void flick_MHD_resume_connection(struct MHD_Connection *connection) {
  flick_microhttpd.resume_connection(connection);
}
static inline void flick_MHD_stop_daemon(struct MHD_Daemon *daemon) {
  flick_microhttpd.stop_daemon(daemon);
}
static inline void flick_MHD_suspend_connection(struct MHD_Connection *connection) {
  flick_microhttpd.suspend_connection(connection);
}

/// Starts a libmicrohttpd daemon listening on the numeric address `host` (IPv4 such as
/// "127.0.0.1" or IPv6 such as "::1") and `port` (0: a free port the kernel picks), with an
/// internal polling thread (poll() where available, else select()), suspend/resume, `threads`
/// polling threads and at most `connection_limit` connections (`per_ip_limit` from one address, `timeout`
/// seconds of inactivity before a connection is closed; 0: never), `notify` told when each
/// connection opens and closes (MHD_OPTION_NOTIFY_CONNECTION; the close before its socket is).
/// MHD_start_daemon is variadic, which Swift cannot call: the options are passed here. Call it
/// only after flick_microhttpd_load() succeeded.
///
/// Returns the daemon, or NULL with `*failure` set: EINVAL for an address that is not numeric,
/// otherwise errno as libmicrohttpd left it (EADDRINUSE, EACCES, …) or EIO.
static inline struct MHD_Daemon *flick_mhd_start(
    const char *host, uint16_t port, unsigned threads, unsigned connection_limit, unsigned per_ip_limit,
    unsigned timeout, MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls, MHD_NotifyConnectionCallback notify,
    void *notify_cls, int *failure) {
  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME;
  // poll(), not epoll: libmicrohttpd 0.9.75 aborts the process when MHD_quiesce_daemon and a
  // polling thread both remove the listening socket from an epoll set (an open defect: the
  // second removal gets ENOENT and hits MHD_PANIC). With poll, quiescing only signals the threads.
  if (flick_microhttpd.is_feature_supported(MHD_FEATURE_POLL) == MHD_YES) flags |= MHD_USE_POLL;
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
  struct MHD_Daemon *daemon = flick_microhttpd.start_daemon(
      flags, port, NULL, NULL, handler, handler_cls,
      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
      MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 1,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout,
      MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
      MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
      MHD_OPTION_END);
  if (!daemon) *failure = errno ? errno : EIO;
  return daemon;
}

/// The socket of `connection`, or -1 (MHD_get_connection_info is variadic, which Swift cannot call).
static inline int flick_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      flick_microhttpd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info ? info->connect_fd : -1;
}

/// The port the daemon listens on (the one the kernel picked for port 0), or 0.
static inline uint16_t flick_mhd_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = flick_microhttpd.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}

#endif
