import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Process {
  /// Starts the process with no signal blocked, where `run()` would start it with the calling
  /// thread's signal mask.
  ///
  /// On Linux, Foundation's `Process` spawns from the calling thread and leaves the child that
  /// thread's mask; the test runner's worker threads (Dispatch's) block nearly every signal, so
  /// a child started from a test had SIGTERM, SIGINT, SIGHUP, SIGQUIT and SIGALRM blocked: a
  /// SIGTERM sent to it, or to a process it started in turn, stayed pending until a SIGKILL came
  /// (`scripts/test-watchdog`'s stand-ins each lived its 10 s of grace). A user's shell starts
  /// `flick` with none blocked; the tests' children start the same way.
  package func runUnblocked() throws {
    var none = sigset_t()
    var saved = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, &saved)
    defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
    try run()
  }
}
